/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One option system for every command, after git's parse-options: a command
 * declares its options once, in a table, and that table drives parsing, the
 * `lrubench <command> --help` text and the synopsis that the man pages are
 * checked against (tests/integration/cli.sh). No command calls getopt.
 *
 *	static const char *format = "text";
 *	static struct strlist names = STRLIST_INIT;
 *	static bool quiet;
 *	static const struct popt opts[] = {
 *		POPT_STRING('f', "format", &format, "FMT", "text, markdown, json or csv"),
 *		POPT_STRLIST(0, "set", &sets, "SEC.KEY=VAL", "set a config key (repeatable)"),
 *		POPT_BOOL('q', "quiet", &quiet, "print errors only"),
 *		POPT_END(),
 *	};
 *	static const struct popt_command cmd = {
 *		"compare", "[options] DIR...", "Compare labels ...", opts,
 *	};
 *	int n = parse_options(&cmd, argc, argv);
 *	if (n < 0)
 *		return popt_exit(n);      // 0 after --help, LB_EXIT_USAGE after an error
 *	// argv[0..n-1] are now the positional arguments
 *	if (!n)
 *		return popt_usage_error(&cmd, "give at least one results folder");
 *
 * -h/--help (the full help) and --version work in every command and are not
 * in the tables.
 *
 * Options and positional arguments may be mixed; "--" ends the options.
 * "--name=value", "--name value", "-x value" and "-xvalue" are all accepted;
 * short flags may be bundled ("-qv"). An unknown option, a missing value or
 * a value given to a flag is a usage error naming the option.
 */
#ifndef LRUBENCH_PARSE_OPTIONS_H
#define LRUBENCH_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include "core/strlist.h"
#include "core/util.h"

enum popt_type {
	POPT_END = 0,
	POPT_GROUP,     /* a heading in --help; parses nothing */
	POPT_BOOL,      /* bool *value = true */
	POPT_STRING,    /* const char **value = the argument (borrowed from argv) */
	POPT_STRLIST,   /* struct strlist *value: repeatable, each argument pushed
	                   (or, with a callback, handed to it instead) */
	POPT_CALLBACK,  /* callback(opt, arg); arg is NULL when argh is NULL */
	/*
	 * Typed values, parsed by config.c's parsers (option_parse): the same
	 * syntax as a config key of that type, and an error that names the flag
	 * and the range ("--retries: 99 is out of range (0..20)"). The variable
	 * holds the default before parse_options and keeps it when the flag is
	 * not given.
	 */
	POPT_UINT,      /* unsigned long long *value, in [min, max] */
	POPT_DOUBLE,    /* double *value, in [min, max] (POPTF_ABOVE_MIN/BELOW_MAX: open) */
	POPT_TIME,      /* double *value, seconds: 30, 30s, 2m, 500ms; in [min, max] */
	POPT_SIZE,      /* uint64_t *value, bytes: 4096, 64K, 1G; in [min, max] */
};

#define POPTF_ABOVE_MIN 0x1   /* POPT_DOUBLE: the value must exceed min */
#define POPTF_BELOW_MAX 0x2   /* POPT_DOUBLE: the value must stay below max */

struct popt;
/* Returns 0, or -1 after printing an error that names the option. */
typedef int (*popt_cb)(const struct popt *opt, const char *arg);

struct popt {
	enum popt_type type;
	int short_name;          /* 0: none */
	const char *long_name;   /* NULL: none */
	void *value;
	const char *argh;        /* the value's name in help ("FILE"); NULL: takes no value */
	const char *help;        /* one line; NULL: hidden (an alias kept for old scripts) */
	popt_cb callback;
	double min, max;         /* typed values: the accepted range (max 0: no upper bound
				    for POPT_UINT and POPT_SIZE) */
	unsigned flags;          /* POPTF_* */
};

#define POPT_GROUP(title)             { POPT_GROUP, 0, NULL, NULL, NULL, (title), NULL }
#define POPT_BOOL(s, l, v, h)         { POPT_BOOL, (s), (l), (v), NULL, (h), NULL }
#define POPT_STRING(s, l, v, a, h)    { POPT_STRING, (s), (l), (v), (a), (h), NULL }
#define POPT_STRLIST(s, l, v, a, h)   { POPT_STRLIST, (s), (l), (v), (a), (h), NULL }
#define POPT_STRLIST_CB(s, l, v, a, h, cb) { POPT_STRLIST, (s), (l), (v), (a), (h), (cb) }
#define POPT_CALLBACK(s, l, v, a, h, cb) { POPT_CALLBACK, (s), (l), (v), (a), (h), (cb) }
#define POPT_UINT(s, l, v, a, h, lo, hi) \
	{ POPT_UINT, (s), (l), (v), (a), (h), NULL, (lo), (hi), 0 }
#define POPT_DOUBLE(s, l, v, a, h, lo, hi, f) \
	{ POPT_DOUBLE, (s), (l), (v), (a), (h), NULL, (lo), (hi), (f) }
#define POPT_TIME(s, l, v, a, h, lo, hi) \
	{ POPT_TIME, (s), (l), (v), (a), (h), NULL, (lo), (hi), 0 }
#define POPT_SIZE(s, l, v, a, h, lo, hi) \
	{ POPT_SIZE, (s), (l), (v), (a), (h), NULL, (lo), (hi), 0 }
#define POPT_END()                    { POPT_END, 0, NULL, NULL, NULL, NULL, NULL }

/*
 * The suite options: what `run` takes to say which suite to run, declared
 * again by every command that runs one for the user (noise, bisect-step).
 * The rows are macros over any struct with these fields (run's own
 * arguments have them), so each command keeps its help text; struct
 * popt_suite holds them for commands that pass them on to `run`.
 */
struct popt_suite {
	struct strlist configs;    /* -c FILE, in order */
	struct strlist sets;       /* --set SEC.KEY=VAL, in order */
	const char *workloads;     /* -w LIST */
	const char *iterations;    /* -i N */
	bool quick;                /* --quick */
};
#define POPT_SUITE_CONFIG(s, h)     POPT_STRLIST('c', "config", &(s)->configs, "FILE", (h))
#define POPT_SUITE_WORKLOADS(s, h)  POPT_STRING('w', "workloads", &(s)->workloads, "LIST", (h))
#define POPT_SUITE_ITERATIONS(s, h) POPT_STRING('i', "iterations", &(s)->iterations, "N", (h))
#define POPT_SUITE_QUICK(s, h)      POPT_BOOL(0, "quick", &(s)->quick, (h))
#define POPT_SUITE_SET(s, h)        POPT_STRLIST(0, "set", &(s)->sets, "SEC.KEY=VAL", (h))

/* The suite options as `run` arguments: -c.. -w [-i] --quick --set..
 * (-i only with_iterations). */
void popt_suite_argv(const struct popt_suite *s, bool with_iterations, struct strlist *argv);
/* Free the lists and clear s. */
void popt_suite_release(struct popt_suite *s);

struct popt_command {
	const char *name;          /* "compare" (for "lrubench vm x", "vm x") */
	const char *args;          /* what follows the options in the synopsis: "DIR..." or "" */
	const char *description;   /* a paragraph printed under the usage line in --help */
	const struct popt *options;
};

#define POPT_HELP_SHOWN (-2)     /* --help or --version printed: exit 0 */
#define POPT_USAGE_ERROR (-1)

/*
 * Parse argv[1..argc-1] (argv[0] is the command's name) against cmd's table.
 * Returns the number of positional arguments, moved to argv[0..n-1] in
 * their order; POPT_HELP_SHOWN after printing the full help for -h/--help
 * or the version for --version; POPT_USAGE_ERROR after printing an error.
 */
int parse_options(const struct popt_command *cmd, int argc, char **argv);
/* The exit code for a negative parse_options() result. */
int popt_exit(int parse_result);

/* The full help: usage line, description, every visible option. */
void popt_help(const struct popt_command *cmd, FILE *out);
/* The one-line synopsis: "compare [-f FMT] [--set SEC.KEY=VAL]... DIR...". */
void popt_synopsis(const struct popt_command *cmd, struct strbuf *out);
/* lead, "lrubench " and the synopsis, wrapped before 80 columns between
 * bracketed options; continuation lines start under the first option. */
void popt_usage(const struct popt_command *cmd, const char *lead, FILE *out);
/* A usage error the table cannot see (a missing argument): prints the
 * message and where to read more; returns LB_EXIT_USAGE. */
int popt_usage_error(const struct popt_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
