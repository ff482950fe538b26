// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench compare: the table of compare_options below, and its help.
 *
 * Everything is loaded, checked and rendered in memory first: a bad input
 * exits 2 before a byte is printed or a JUnit file is created.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "compare/labels.h"
#include "compare/baseline.h"
#include "compare/format.h"
#include "compare/load.h"
#include "compare/model.h"
#include "compare/symdiff.h"
#include "core/cleanup.h"
#include "compare/noise_floor.h"
#include "core/noise_file.h"
#include "core/results.h"
#include "core/util.h"

/* The command line as given; reset by every cmd_compare(). */
static struct {
	const char *format, *names, *junit, *baseline;
	double alpha, fail_pct;    /* fail_pct < 0: no --fail-on-regression */
	bool allow_same_kernel, allow_kernel_warnings, allow_missing;
	unsigned long long profile_top;
} O;

static const struct popt compare_options[] = {
	POPT_STRING('f', "format", &O.format, "FMT",
		    "text (default), markdown, json, csv, email or html"),
	POPT_STRING(0, "names", &O.names, "A,B,...", "pick and order the labels by name"),
	POPT_DOUBLE(0, "alpha", &O.alpha, "P", "significance level of the t-test, 0<P<1 (0.10)",
		    0, 1, POPTF_ABOVE_MIN | POPTF_BELOW_MAX),
	POPT_STRING(0, "baseline", &O.baseline, "LABEL|DIR",
		    "the label to compare against (name or folder)"),
	POPT_DOUBLE(0, "fail-on-regression", &O.fail_pct, "PCT",
		    "exit 1 if a mean row is significantly PCT% worse", 0, 0, 0),
	POPT_STRING(0, "junit", &O.junit, "FILE", "write JUnit XML: a testcase per (table, op)"),
	POPT_BOOL(0, "allow-same-kernel", &O.allow_same_kernel,
		  "the gate passes one kernel build in two labels"),
	POPT_BOOL(0, "allow-kernel-warnings", &O.allow_kernel_warnings,
		  "the gate passes kernel WARN, BUG, OOM... in runs"),
	POPT_BOOL(0, "allow-missing", &O.allow_missing,
		  "the gate passes missing ops, runs, samples"),
	POPT_UINT(0, "profile-top", &O.profile_top, "N",
		  "rows of each op's CPU profile change (10; 0: none)", 0, 1000),
	POPT_END(),
};

const struct popt_command compare_command = {
	"compare", "DIR...",
	"Compare the results of two or more labels, mmtests style. DIR is a label\n"
	"folder (it holds run.json) or a folder of them. The first label is the\n"
	"baseline (or the one --baseline names, a label or a label folder); without\n"
	"--names labels are ordered by the time their run started.\n"
	"\n"
	"Per workload, table and op the samples of every iteration are pooled: Min, the\n"
	"mean row (Hmean when higher is better, else Amean), Stddev, CoeffVar, Max and\n"
	"the means of the best 50/95/99%. Percentages are positive when the candidate\n"
	"is better. Facts of run.json that differ between labels (cmdline, THP, CPUs,\n"
	"memory, config...) are listed before the tables, with warnings.\n"
	"\n"
	"Formats: text is mmtests' compare-kernels layout; markdown adds per op each\n"
	"label's 95% confidence interval, the change with its interval, Welch's p and\n"
	"a verdict; json and csv carry every number (lrubench-compare(1)). With csv\n"
	"the warnings go to standard error. email is for a cover letter: 72 columns of\n"
	"ASCII, per op \"mean (stddev)\" per kernel, the change and the mark.\n"
	"\n"
	"Significance: mmtests' t-test on the mean row; a change is significant when\n"
	"p < alpha (--alpha, default 0.10) and is starred in the text. The gate:\n"
	"--fail-on-regression PCT exits 1 when a significant mean row is worse by PCT\n"
	"percent or more, one line per regression on standard error; --junit FILE\n"
	"writes a testcase per (table, op) with a failure per regression (threshold\n"
	"PCT, or 0 without --fail-on-regression).\n"
	"\n"
	"The gate also fails, each with its own line and testcase, when labels ran\n"
	"the same kernel build (--allow-same-kernel), when a label's kernel logged\n"
	"WARN, BUG, Oops, lockdep, lockups, hung tasks, RCU stalls or OOM kills\n"
	"during its run (--allow-kernel-warnings), and on missing data: a workload,\n"
	"table or op of the baseline that a candidate lacks, a run not complete,\n"
	"fewer than 2 samples a side (--allow-missing).\n"
	"\n"
	"Labels run with --profile cpu get, per op, the symbols whose share of the\n"
	"sampled CPU time changed most against the baseline (--profile-top N rows),\n"
	"under the heading of the tables that explain the others, and in the JSON.\n"
	"\n"
	"Exit: 0 ok; 1 the gate failed under --fail-on-regression; 2 bad input\n"
	"(nothing is printed then, and no JUnit file is written).",
	compare_options,
};

/* -f and --junit, checked. */
static int check_options(const struct cmp_format **fmt)
{
	const char *f = O.format ? O.format : "text";

	*fmt = cmp_format_find(f);
	if (!*fmt) {
		struct strbuf names = STRBUF_INIT;

		cmp_format_names(&names);
		error("-f: unknown format '%s' (%s)", f, strbuf_str(&names));
		strbuf_release(&names);
		return -1;
	}
	if (O.junit && !*O.junit)
		return error("--junit: empty file name");
	return 0;
}

static int write_out(const struct strbuf *sb)
{
	if (fwrite(sb->buf, 1, sb->len, stdout) != sb->len || fflush(stdout))
		return error_errno("cannot write the comparison to standard output");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	const struct cmp_format *fmt;
	const char *junit;
	double fail_pct;
	struct label_result *labels = NULL;
	size_t nlabels = 0, nreg = 0;
	struct comparison cmp;
	struct gate_opts gopts;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, xml = STRBUF_INIT;
	int n, ret = LB_EXIT_USAGE;

	/*
	 * A large comparison parses millions of JSON numbers into small objects
	 * and frees them; without fastbins glibc skips malloc_consolidate()
	 * passes that cost a fifth of the load time (bench/compare-scale).
	 */
	mallopt(M_MXFAST, 0);
	memset(&O, 0, sizeof(O));
	O.alpha = CMP_DEFAULT_ALPHA;
	O.fail_pct = -1;
	O.profile_top = CMP_SYMDIFF_TOP;
	n = parse_options(&compare_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (check_options(&fmt))
		return LB_EXIT_USAGE;
	if (!n)
		return popt_usage_error(&compare_command, "give at least one results folder");
	junit = O.junit;
	fail_pct = O.fail_pct;
	if (comparison_load(argv, (size_t)n,
			    &(struct comparison_load_opts){
				    .names = O.names, .baseline = O.baseline, .alpha = O.alpha,
				    .needs_two = "compare needs a baseline and at least one more" },
			    &labels, &nlabels, &cmp, &err)) {
		if (lb_stop_requested())
			goto interrupted;
		error("%s", err.buf);
		goto out;
	}
	if (lb_stop_requested()) {
		comparison_release(&cmp);
		goto interrupted;
	}
	{
		/* the noise floor measured on the baseline's machine, if any (lrubench noise) */
		json_object *noise = noise_file_load(&labels[0]);

		comparison_add_notes(&cmp, noise);
		json_object_put(noise);
	}
	if (O.profile_top != CMP_SYMDIFF_TOP)
		cmp_symdiff_build(&cmp, (size_t)O.profile_top);
	cmp_format_render(fmt, &cmp, &(struct cmp_render_opts){ .fail_pct = fail_pct }, &out);
	gopts.pct = fail_pct >= 0 ? fail_pct : 0;
	gopts.allow_same_kernel = O.allow_same_kernel;
	gopts.allow_kernel_warnings = O.allow_kernel_warnings;
	gopts.allow_missing = O.allow_missing;
	/* the first SIGINT/SIGTERM: every loop above gave up; nothing is written */
	if (lb_stop_requested()) {
		comparison_release(&cmp);
		goto interrupted;
	}
	if (junit) {
		report_junit(&cmp, &gopts, &xml);
		/* an output that cannot be written is an I/O failure: exit 1 */
		if (write_file_atomic(junit, xml.buf, xml.len)) {
			comparison_release(&cmp);
			ret = LB_EXIT_FAIL;
			goto out;
		}
	}
	if (write_out(&out)) {
		comparison_release(&cmp);
		ret = LB_EXIT_FAIL;
		goto out;
	}
	ret = LB_EXIT_OK;
	if (fail_pct >= 0) {
		size_t nchk = report_checks(&cmp, &gopts, stderr);

		nreg = report_regressions(&cmp, &gopts, stderr);
		if (nreg) {
			fprintf(stderr, "%s: %zu significant regression%s of %g%% or more\n",
				lb_progname, nreg, nreg == 1 ? "" : "s", fail_pct);
			ret = LB_EXIT_FAIL;
		}
		if (nchk) {
			fprintf(stderr, "%s: the gate failed %zu check%s beyond regressions (above)\n",
				lb_progname, nchk, nchk == 1 ? "" : "s");
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
