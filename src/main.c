// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench: does kernel B scale better or worse than kernel A when many
 * memory cgroups fight over the LRU? The subcommand table, like git's and
 * perf's: shared setup is driven by flags, not repeated in every command.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "core/util.h"

#define NEEDS_ROOT 0x1   /* refuse early with a clear message instead of EPERM later */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned flags;
	const char *usage;
};

static const struct command commands[] = {
	{ "run", cmd_run, NEEDS_ROOT,
	  "run [-c FILE] [-w LIST] [-o DIR] [--label NAME] [-i N] [--quick] [--set SEC.KEY=VAL]...\n"
	  "          [--force | --resume] [--dry-run] [-q] [--kernel-a IMG --kernel-b IMG ...]" },
	{ "compare", cmd_compare, 0,
	  "compare [-f text|markdown|json|csv] [--names A,B,...] [--alpha P]\n"
	  "          [--fail-on-regression PCT] [--junit FILE] DIR..." },
	{ "plot", cmd_plot, 0, "plot [-o DIR] [--format png|svg] [--names A,B] DIR..." },
	{ "list", cmd_list, 0, "list [WORKLOAD...]" },
	{ "check", cmd_check, 0, "check" },
	{ "fetch", cmd_fetch, 0,
	  "fetch URL [--sha256 HEX] [--cache DIR] [--retries N] [--extract DIR] [-q]" },
};

void usage_of(const char *name, FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			fprintf(out, "usage: lrubench %s\n", commands[i].usage);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: lrubench [--version] [--help] <command> [<args>]\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "   lrubench %s\n", commands[i].usage);
	fprintf(out, "\n'lrubench <command> --help' and 'man lrubench' tell more.\n"
		     "Exit codes: 0 ok, 1 workload failed or regression, 2 usage or config error,\n"
		     "3 this machine cannot run what was asked, 130 interrupted.\n");
}

int main(int argc, char **argv)
{
	const struct command *cmd = NULL;
	int ret;

	if (argc < 2) {
		usage(stderr);
		return LB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return LB_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("lrubench %s\n", LRUBENCH_VERSION);
		return LB_EXIT_OK;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, argv[1]))
			cmd = &commands[i];
	if (!cmd) {
		error("'%s' is not a lrubench command; see 'lrubench --help'", argv[1]);
		return LB_EXIT_USAGE;
	}
	/* --help and --version work for every command, root or not */
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage_of(cmd->name, stdout);
			return LB_EXIT_OK;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("lrubench %s\n", LRUBENCH_VERSION);
			return LB_EXIT_OK;
		}
	}
	if ((cmd->flags & NEEDS_ROOT) && geteuid() != 0) {
		error("'lrubench %s' creates cgroups and mounts: run it as root", cmd->name);
		return LB_EXIT_UNSUPPORTED;
	}
	signals_install();
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
