/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subcommands: each returns an LB_EXIT_* code. Each declares its options in
 * one table (core/parse_options.h), from which its --help, the synopsis in
 * `lrubench --help` and the man page check (tests/integration/cli.sh) come. */
#ifndef LRUBENCH_COMMANDS_H
#define LRUBENCH_COMMANDS_H

#include <stdio.h>
#include "core/parse_options.h"

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_bisect_step(int argc, char **argv);
int cmd_bisect_log(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_fleet(int argc, char **argv);

extern const struct popt_command run_command;
extern const struct popt_command compare_command;
extern const struct popt_command plot_command;
extern const struct popt_command list_command;
extern const struct popt_command check_command;
extern const struct popt_command fetch_command;
extern const struct popt_command report_command;
extern const struct popt_command trend_command;
extern const struct popt_command noise_command;
extern const struct popt_command bisect_step_command;
extern const struct popt_command bisect_log_command;
extern const struct popt_command pack_command;
extern const struct popt_command push_command;
extern const struct popt_command fleet_command;

#endif
