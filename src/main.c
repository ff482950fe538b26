// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench: does kernel B scale better or worse than kernel A when many
 * memory cgroups fight over the LRU? The subcommand table, like git's and
 * perf's: a name, the function and its option table per command, nothing
 * else. Each command parses its own options, --help and --version included
 * (core/parse_options.h); this file only picks the command.
 */
#include <stdio.h>
#include <string.h>
#include "core/cleanup.h"
#include "core/path.h"
#include "commands/commands.h"
#include "core/util.h"

struct command {
	int (*fn)(int argc, char **argv);
	const struct popt_command *popt;   /* its name, options and help */
};

static const struct command commands[] = {
	{ cmd_run, &run_command },
	{ cmd_compare, &compare_command },
	{ cmd_plot, &plot_command },
	{ cmd_report, &report_command },
	{ cmd_trend, &trend_command },
	{ cmd_list, &list_command },
	{ cmd_check, &check_command },
	{ cmd_fetch, &fetch_command },
	{ cmd_noise, &noise_command },
	{ cmd_bisect_step, &bisect_step_command },
	{ cmd_bisect_log, &bisect_log_command },
	{ cmd_pack, &pack_command },
	{ cmd_push, &push_command },
	{ cmd_fleet, &fleet_command },
};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].popt->name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: lrubench [--version] [--help] <command> [<args>]\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		popt_usage(commands[i].popt, "   ", out);
	fprintf(out, "\n'lrubench <command> --help' and 'man lrubench' tell more.\n"
		     "Exit codes: 0 ok, 1 workload failed or regression, 2 usage or config error,\n"
		     "3 this machine cannot run what was asked, 130 interrupted.\n");
}

static int unknown_command(const char *name)
{
	error("'%s' is not a lrubench command; see 'lrubench --help'", name);
	return LB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	int ret;

	if (argc < 2) {
		usage(stderr);
		return LB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		/* "lrubench help run" is "lrubench run --help" */
		if (argc > 2 && !strcmp(argv[1], "help")) {
			cmd = find_command(argv[2]);
			if (!cmd)
				return unknown_command(argv[2]);
			popt_help(cmd->popt, stdout);
			return LB_EXIT_OK;
		}
		usage(stdout);
		return LB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("lrubench %s\n", LRUBENCH_VERSION);
		return LB_EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	signals_install();
	self_exe();   /* read now: later it may name the file from outside a chroot (core/path.h) */
	ret = cmd->fn(argc - 1, argv + 1);
	/* the first SIGINT/SIGTERM always means exit 130, even for a command
	 * that had nothing left to stop (list, check) */
	if (lb_stop_requested() && ret != LB_EXIT_INTERRUPTED) {
		if (ret == LB_EXIT_OK || ret == LB_EXIT_UNSUPPORTED)
			error("interrupted");
		ret = LB_EXIT_INTERRUPTED;
	}
	return ret;
}
