// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench plot [-o OUTDIR] [--format png|svg] [--names A,B] DIR...
 *
 * Reads results folders the way compare does (labels_collect, then compare's
 * model, so a figure and the table agree to the digit), writes for every
 * workload and table the figures described in plot.h into OUTDIR (default
 * ./plots, created when missing; files of the same name are replaced), an
 * index.md with `lrubench compare`'s text output, and runs gnuplot on each
 * script. One label is enough to plot (compare needs two).
 * gnuplot missing: the scripts and data are still written, exit 3.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "compare/plot.h"
#include "compare/plot_stage.h"
#include "compare/model.h"
#include "core/results.h"
#include "core/util.h"

static size_t label_ntables(const struct label_result *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nwls; i++)
		n += l->wls[i].ntables;
	return n;
}

static int plot_usage(void)
{
	/* not usage_of(): it lives in main.c, which the unit tests do not link */
	fputs("usage: lrubench plot [-o DIR] [--format png|svg] [--names A,B] DIR...\n", stderr);
	return LB_EXIT_USAGE;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "names", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = "plots", *names = NULL, *format = "png";
	enum plot_format fmt;
	struct label_result *labels = NULL;
	size_t nl = 0;
	struct strbuf err = STRBUF_INIT;
	struct plot_set set = { 0 };
	struct comparison cmp;
	bool have_cmp = false;
	struct strbuf text = STRBUF_INIT;
	struct plot_stage stage = { NULL, NULL, 0 };
	int c, ret = LB_EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:n:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'n':
			names = optarg;
			break;
		case 'q':
			lb_quiet = 1;
			break;
		default:
			return plot_usage();
		}
	}
	if (plot_parse_format(format, &fmt)) {
		error("--format '%s' is not known: use png or svg", format);
		return LB_EXIT_USAGE;
	}
	if (optind >= argc) {
		error("plot needs at least one results folder");
		return plot_usage();
	}
	if (!*outdir) {
		error("-o needs a folder name");
		return LB_EXIT_USAGE;
	}
	strbuf_init(&err);
	if (labels_collect(argv + optind, (size_t)(argc - optind), names, &labels, &nl, &err)) {
		error("%s", strbuf_str(&err));
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_USAGE;
		goto out;
	}
	if (!nl) {
		error("no results in %s", argv[optind]);
		ret = LB_EXIT_USAGE;
		goto out;
	}
	for (size_t l = 0; l < nl; l++)
		if (!label_ntables(&labels[l])) {
			error("label '%s' (%s) has no tables: nothing to plot for it "
			      "(a <workload>.json with \"tables\" is missing or empty)",
			      labels[l].label, labels[l].dir);
			ret = LB_EXIT_USAGE;
			goto out;
		}
	if (comparison_build(labels, nl, 0.10, &cmp, &err)) {
		error("%s", strbuf_str(&err));
		ret = LB_EXIT_USAGE;
		goto out;
	}
	have_cmp = true;
	if (lb_stop_requested()) {
		error("interrupted: nothing written to %s", outdir);
		ret = LB_EXIT_INTERRUPTED;
		goto out;
	}
	if (mkdir_p(outdir, 0755)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (access(outdir, W_OK)) {
		error_errno("cannot write to %s", outdir);
		ret = LB_EXIT_USAGE;
		goto out;
	}
	/* everything is made in a staging folder, renamed into -o at the end */
	if (plot_stage_open(&stage, outdir)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	if (plot_write_figures(&cmp, stage.dir, fmt, &set)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	/* the same text `lrubench compare` prints, at its default alpha */
	report_text(&cmp, &text);
	if (plot_write_index(&cmp, &set, strbuf_str(&text), stage.dir)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (!plot_have_gnuplot()) {
		if (!plot_stage_publish(&stage))
			error("gnuplot is not installed (not found in PATH): apt-get install "
			      "gnuplot-nox; the scripts and data are in %s, run 'gnuplot NAME.gp' "
			      "there", outdir);
		ret = LB_EXIT_UNSUPPORTED;
		goto out;
	}
	if (plot_run_gnuplot(&set, stage.dir)) {
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
		/* a failure keeps the scripts, data and finished figures to look at */
		if (ret == LB_EXIT_FAIL)
			plot_stage_publish(&stage);
		goto out;
	}
	/* the first SIGINT: nothing is published */
	if (lb_stop_requested()) {
		error("interrupted: nothing written to %s", outdir);
		ret = LB_EXIT_INTERRUPTED;
		goto out;
	}
	if (plot_stage_publish(&stage)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	info("%zu figures in %s, listed in %s/index.md", set.n, outdir, outdir);
out:
	plot_stage_abort(&stage);
	strbuf_release(&text);
	if (have_cmp)
		comparison_release(&cmp);
	plot_set_release(&set);
	if (labels)
		labels_release(labels, nl);
	strbuf_release(&err);
	return ret;
}
