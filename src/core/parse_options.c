// SPDX-License-Identifier: GPL-2.0-or-later
/* Table-driven option parsing, help and synopsis (see parse_options.h). */
#include "core/parse_options.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/config.h"

#define POPT_WIDTH 80   /* usage lines wrap before this column */

static bool visible(const struct popt *o)
{
	return o->type != POPT_END && o->type != POPT_GROUP && o->help;
}

static void opt_name(const struct popt *o, bool as_long, struct strbuf *sb)
{
	if (as_long && o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	else if (o->short_name)
		strbuf_addf(sb, "-%c", o->short_name);
	else
		strbuf_addf(sb, "--%s", o->long_name);
}

/* "<what> '<name>'<tail>" plus where to read more: "unknown option '--x'". */
static int cmd_error(const struct popt_command *cmd, const char *what, const char *name,
		     const char *tail)
{
	error("%s '%s'%s (see 'lrubench %s --help')", what, name, tail, cmd->name);
	return POPT_USAGE_ERROR;
}

/* "--name" (or "-x" when the option has no long name), for messages. */
static void flag_name(const struct popt *o, char *buf, size_t len)
{
	if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

/* A POPT_DOUBLE's range for messages: "0 < P < 1", "PCT >= 0". */
static void double_range(const struct popt *o, struct strbuf *sb)
{
	const char *what = o->argh ? o->argh : "value";

	if (o->max > o->min || (o->flags & POPTF_BELOW_MAX))
		strbuf_addf(sb, "%g %s %s %s %g", o->min, o->flags & POPTF_ABOVE_MIN ? "<" : "<=",
			    what, o->flags & POPTF_BELOW_MAX ? "<" : "<=", o->max);
	else
		strbuf_addf(sb, "%s %s %g", what, o->flags & POPTF_ABOVE_MIN ? ">" : ">=", o->min);
}

/*
 * A typed value: config.c's parser of that syntax (option_parse, the one a
 * config key of the type uses), then the range. 0, or -1 after an error
 * naming the flag: "--retries: 99 is out of range (0..20)".
 */
static int apply_typed(const struct popt *o, const char *arg)
{
	struct strbuf err = STRBUF_INIT;
	char name[64];
	int ret = 0;

	flag_name(o, name, sizeof(name));
	if (o->type == POPT_DOUBLE) {
		double v;
		bool open_hi = o->flags & POPTF_BELOW_MAX;
		bool bounded_hi = open_hi || o->max > o->min;

		if (option_parse_number(arg, &v, NULL, &err)) {
			ret = -1;
		} else if ((o->flags & POPTF_ABOVE_MIN ? !(v > o->min) : !(v >= o->min)) ||
			   (bounded_hi && (open_hi ? !(v < o->max) : !(v <= o->max)))) {
			strbuf_addf(&err, "%s is out of range (", arg);
			double_range(o, &err);
			strbuf_addstr(&err, ")");
			ret = -1;
		} else {
			*(double *)o->value = v;
		}
	} else {
		struct option_def d = {
			.name = name,
			.type = o->type == POPT_UINT ? OPT_UINT : o->type == POPT_TIME ? OPT_TIME : OPT_SIZE,
			.min = (unsigned long long)o->min,
			.max = (unsigned long long)o->max,
		};
		unsigned long long u;
		uint64_t b;
		double t;
		void *dst = o->type == POPT_UINT ? (void *)&u : o->type == POPT_TIME ? (void *)&t
										   : (void *)&b;

		if (option_parse(&d, arg, dst, &err))
			ret = -1;
		else if (o->type == POPT_UINT)
			*(unsigned long long *)o->value = u;
		else if (o->type == POPT_TIME)
			*(double *)o->value = t;
		else
			*(uint64_t *)o->value = b;
	}
	if (ret)
		error("%s: %s", name, strbuf_str(&err));
	strbuf_release(&err);
	return ret;
}

/* Apply one option; arg is its value (NULL for flags). */
static int apply(const struct popt *o, const char *arg)
{
	switch (o->type) {
	case POPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case POPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case POPT_STRLIST:
		if (o->callback)   /* a repeatable option with its own action */
			return o->callback(o, arg) ? POPT_USAGE_ERROR : 0;
		strlist_push(o->value, arg);
		return 0;
	case POPT_CALLBACK:
		return o->callback(o, arg) ? POPT_USAGE_ERROR : 0;
	case POPT_UINT:
	case POPT_DOUBLE:
	case POPT_TIME:
	case POPT_SIZE:
		return apply_typed(o, arg) ? POPT_USAGE_ERROR : 0;
	default:
		return 0;
	}
}

static const struct popt *find_long(const struct popt *opts, const char *name, size_t len)
{
	for (const struct popt *o = opts; o->type != POPT_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct popt *find_short(const struct popt *opts, int c)
{
	for (const struct popt *o = opts; o->type != POPT_END; o++)
		if (o->type != POPT_GROUP && o->short_name == c)
			return o;
	return NULL;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

int parse_options(const struct popt_command *cmd, int argc, char **argv)
{
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, ret = 0;
	bool only_args = false;

	for (int i = 1; i < argc && !ret; i++) {
		const char *a = argv[i];

		if (only_args || a[0] != '-' || !a[1]) {
			pos[npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = true;
			continue;
		}
		if (is_help(a)) {
			popt_help(cmd, stdout);
			ret = POPT_HELP_SHOWN;
			break;
		}
		if (!strcmp(a, "--version")) {
			printf("lrubench %s\n", LRUBENCH_VERSION);
			ret = POPT_HELP_SHOWN;
			break;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct popt *o = find_long(cmd->options, name, len);
			const char *val = eq ? eq + 1 : NULL;

			if (!o) {
				ret = cmd_error(cmd, "unknown option", a, "");
				break;
			}
			if (!o->argh) {
				if (val)
					ret = cmd_error(cmd, "option", a, " takes no value");
				else
					ret = apply(o, NULL);
				continue;
			}
			if (!val) {
				if (i + 1 >= argc) {
					ret = cmd_error(cmd, "option", a, " needs a value");
					break;
				}
				val = argv[++i];
			}
			ret = apply(o, val);
			continue;
		}
		/* one or more short options: "-q", "-qv", "-fjson", "-f json" */
		for (const char *p = a + 1; *p && !ret; p++) {
			const struct popt *o = find_short(cmd->options, (unsigned char)*p);
			char bad[3] = { '-', *p, 0 };

			if (!o) {
				ret = cmd_error(cmd, "unknown option", bad, "");
				break;
			}
			if (!o->argh) {
				ret = apply(o, NULL);
				continue;
			}
			if (p[1]) {
				ret = apply(o, p + 1);
			} else if (i + 1 < argc) {
				ret = apply(o, argv[++i]);
			} else {
				ret = cmd_error(cmd, "option", bad, " needs a value");
			}
			break;
		}
	}
	if (!ret) {
		for (int k = 0; k < npos; k++)
			argv[k] = pos[k];
		argv[npos] = NULL;
		ret = npos;
	}
	free(pos);
	return ret;
}

int popt_exit(int parse_result)
{
	return parse_result == POPT_HELP_SHOWN ? LB_EXIT_OK : LB_EXIT_USAGE;
}

void popt_synopsis(const struct popt_command *cmd, struct strbuf *out)
{
	strbuf_addstr(out, cmd->name);
	for (const struct popt *o = cmd->options; o->type != POPT_END; o++) {
		if (!visible(o))
			continue;
		strbuf_addstr(out, " [");
		opt_name(o, false, out);
		if (o->argh)
			strbuf_addf(out, " %s", o->argh);
		strbuf_addstr(out, "]");
		if (o->type == POPT_STRLIST)
			strbuf_addstr(out, "...");
	}
	if (cmd->args && *cmd->args)
		strbuf_addf(out, " %s", cmd->args);
}

void popt_usage(const struct popt_command *cmd, const char *lead, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t indent = strlen(lead) + strlen("lrubench ") + strlen(cmd->name) + 1;
	size_t col = strlen(lead) + strlen("lrubench ");
	const char *p;

	popt_synopsis(cmd, &sb);
	fprintf(out, "%slrubench ", lead);
	/* words are split at spaces outside brackets: "[-c FILE]..." stays whole */
	for (p = sb.buf; *p; ) {
		const char *e = p;
		int depth = 0;

		for (; *e && (depth || *e != ' '); e++)
			depth += *e == '[' ? 1 : *e == ']' ? -1 : 0;
		if (p != sb.buf && col + 1 + (size_t)(e - p) >= POPT_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (p != sb.buf) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, (size_t)(e - p), out);
		col += (size_t)(e - p);
		p = *e ? e + 1 : e;
	}
	fputc('\n', out);
	strbuf_release(&sb);
}

int popt_usage_error(const struct popt_command *cmd, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s (see 'lrubench %s --help')", strbuf_str(&sb), cmd->name);
	strbuf_release(&sb);
	return LB_EXIT_USAGE;
}

void popt_help(const struct popt_command *cmd, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	popt_usage(cmd, "usage: ", out);
	if (cmd->description && *cmd->description)
		fprintf(out, "\n%s\n", cmd->description);
	fputc('\n', out);
	for (const struct popt *o = cmd->options; o->type != POPT_END; o++) {
		if (o->type == POPT_GROUP) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		if (!visible(o))
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "    ");
		if (o->short_name)
			strbuf_addf(&sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
		else
			strbuf_addstr(&sb, "    ");   /* long names line up under "-x, " */
		if (o->long_name)
			strbuf_addf(&sb, "--%s", o->long_name);
		if (o->argh)
			strbuf_addf(&sb, " %s", o->argh);
		if (sb.len < 30)
			fprintf(out, "%-30s%s\n", strbuf_str(&sb), o->help);
		else
			fprintf(out, "%s\n%30s%s\n", strbuf_str(&sb), "", o->help);
	}
	strbuf_release(&sb);
}

void popt_suite_argv(const struct popt_suite *s, bool with_iterations, struct strlist *argv)
{
	for (size_t i = 0; i < s->configs.n; i++) {
		strlist_push(argv, "-c");
		strlist_push(argv, s->configs.v[i]);
	}
	if (s->workloads) {
		strlist_push(argv, "-w");
		strlist_push(argv, s->workloads);
	}
	if (with_iterations && s->iterations) {
		strlist_push(argv, "-i");
		strlist_push(argv, s->iterations);
	}
	if (s->quick)
		strlist_push(argv, "--quick");
	for (size_t i = 0; i < s->sets.n; i++) {
		strlist_push(argv, "--set");
		strlist_push(argv, s->sets.v[i]);
	}
}

void popt_suite_release(struct popt_suite *s)
{
	strlist_release(&s->configs);
	strlist_release(&s->sets);
	memset(s, 0, sizeof(*s));
}
