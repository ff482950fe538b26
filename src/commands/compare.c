// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench compare [-f text|markdown|json|csv] [--names A,B,...] [--alpha P]
 *                  [--fail-on-regression PCT] [--junit FILE] DIR...
 *
 * Everything is loaded, checked and rendered in memory first: a bad input
 * exits 2 before a byte is printed or a JUnit file is created.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "compare/model.h"
#include "core/cleanup.h"
#include "core/results.h"
#include "core/util.h"

enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_CSV };

static int parse_number(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(*v))
		return error("%s: '%s' is not a number", opt, s);
	return 0;
}

/* not usage_of(): that lives in main.c, which the unit tests do not link */
static const char usage_line[] =
	"usage: lrubench compare [-f text|markdown|json|csv] [--names A,B,...] [--alpha P]\n"
	"          [--fail-on-regression PCT] [--junit FILE] DIR...\n";

static void help(FILE *out)
{
	fputs(usage_line, out);
	fprintf(out,
		"\n"
		"Compare the results folders of two or more labels (DIR is a label folder with\n"
		"run.json, or a folder of them). The first label is the baseline.\n\n"
		"  -f, --format FMT            text (mmtests layout, default), markdown, json, csv\n"
		"      --names A,B,...         pick and order labels (default: by run.json started)\n"
		"      --alpha P               significance level of the t-test, 0<P<1 (default 0.10)\n"
		"      --fail-on-regression PCT  exit 1 when a mean row is significantly worse\n"
		"                              by at least PCT percent\n"
		"      --junit FILE            write JUnit XML: a testcase per (table, op)\n\n"
		"See lrubench-compare(1).\n");
}

static int write_out(const struct strbuf *sb)
{
	if (fwrite(sb->buf, 1, sb->len, stdout) != sb->len || fflush(stdout))
		return error_errno("cannot write the comparison to standard output");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "names", required_argument, NULL, 'n' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "fail-on-regression", required_argument, NULL, 'r' },
		{ "junit", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum format fmt = FMT_TEXT;
	const char *names = NULL, *junit = NULL;
	double alpha = 0.10, fail_pct = -1;
	struct label_result *labels = NULL;
	size_t nlabels = 0, nreg = 0;
	struct comparison cmp;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, xml = STRBUF_INIT;
	int opt, ret = LB_EXIT_USAGE;

	/*
	 * A large comparison parses millions of JSON numbers into small objects
	 * and frees them; without fastbins glibc skips malloc_consolidate()
	 * passes that cost a fifth of the load time (bench/compare-scale).
	 */
	mallopt(M_MXFAST, 0);
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+:f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = FMT_TEXT;
			else if (!strcmp(optarg, "markdown") || !strcmp(optarg, "md"))
				fmt = FMT_MARKDOWN;
			else if (!strcmp(optarg, "json"))
				fmt = FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = FMT_CSV;
			else {
				error("-f: unknown format '%s' (text, markdown, json or csv)", optarg);
				return LB_EXIT_USAGE;
			}
			break;
		case 'n':
			names = optarg;
			break;
		case 'a':
			if (parse_number("--alpha", optarg, &alpha))
				return LB_EXIT_USAGE;
			if (!(alpha > 0 && alpha < 1)) {
				error("--alpha: %s is not a probability strictly between 0 and 1", optarg);
				return LB_EXIT_USAGE;
			}
			break;
		case 'r':
			if (parse_number("--fail-on-regression", optarg, &fail_pct))
				return LB_EXIT_USAGE;
			if (fail_pct < 0) {
				error("--fail-on-regression: %s is negative; give a percentage >= 0",
				      optarg);
				return LB_EXIT_USAGE;
			}
			break;
		case 'j':
			if (!*optarg) {
				error("--junit: empty file name");
				return LB_EXIT_USAGE;
			}
			junit = optarg;
			break;
		case 'h':
			help(stdout);
			return LB_EXIT_OK;
		case ':':
			error("compare: option '%s' needs a value", argv[optind - 1]);
			fputs(usage_line, stderr);
			return LB_EXIT_USAGE;
		default:
			error("compare: unknown option '%s'", argv[optind - 1]);
			fputs(usage_line, stderr);
			return LB_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		error("compare: give at least one results folder");
		fputs(usage_line, stderr);
		return LB_EXIT_USAGE;
	}
	if (labels_collect(argv + optind, (size_t)(argc - optind), names, &labels, &nlabels,
			   &err)) {
		if (lb_stop_requested())
			goto interrupted;
		error("%s", err.buf);
		goto out;
	}
	if (nlabels < 2) {
		error("only one label (%s in %s): compare needs a baseline and at least one more",
		      labels[0].label, labels[0].dir);
		goto out;
	}
	if (comparison_build(labels, nlabels, alpha, &cmp, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (lb_stop_requested()) {
		comparison_release(&cmp);
		goto interrupted;
	}
	if (!cmp.nwls) {
		error("no workload results (<workload>.json) in any of the %zu labels", nlabels);
		comparison_release(&cmp);
		goto out;
	}
	switch (fmt) {
	case FMT_TEXT: report_text(&cmp, &out); break;
	case FMT_MARKDOWN: report_markdown(&cmp, &out); break;
	case FMT_JSON: report_json(&cmp, fail_pct, &out); break;
	case FMT_CSV:
		report_csv(&cmp, &out);
		/* CSV has no room for them: the warnings go to stderr */
		for (size_t i = 0; i < cmp.nwarnings; i++)
			warning("%s", cmp.warnings[i]);
		break;
	}
	/* the first SIGINT/SIGTERM: every loop above gave up; nothing is written */
	if (lb_stop_requested()) {
		comparison_release(&cmp);
		goto interrupted;
	}
	if (junit) {
		report_junit(&cmp, fail_pct >= 0 ? fail_pct : 0, &xml);
		if (write_file_atomic(junit, xml.buf, xml.len)) {
			comparison_release(&cmp);
			goto out;
		}
	}
	if (write_out(&out)) {
		comparison_release(&cmp);
		goto out;
	}
	ret = LB_EXIT_OK;
	if (fail_pct >= 0) {
		nreg = report_regressions(&cmp, fail_pct, stderr);
		if (nreg) {
			fprintf(stderr, "%s: %zu significant regression%s of %g%% or more\n",
				lb_progname, nreg, nreg == 1 ? "" : "s", fail_pct);
			ret = LB_EXIT_FAIL;
		}
	}
	comparison_release(&cmp);
	goto out;
interrupted:
	error("interrupted: nothing written");
	ret = LB_EXIT_INTERRUPTED;
out:
	labels_release(labels, nlabels);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&xml);
	return ret;
}
