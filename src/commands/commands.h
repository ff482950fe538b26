/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subcommands: each returns an LB_EXIT_* code. */
#ifndef LRUBENCH_COMMANDS_H
#define LRUBENCH_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_trend(int argc, char **argv);

/* Shared by every command's --help: prints the usage of `name`. */
void usage_of(const char *name, FILE *out);

#endif
