// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench plot (the options: plot_options below).
 *
 * Reads results folders the way compare does (compare/load.c: the labels,
 * then compare's model, so a figure and the table agree to the digit), writes for every
 * workload and table the figures described in plot.h into OUTDIR (default
 * ./plots, created when missing; files of the same name are replaced), an
 * index.md with `lrubench compare`'s text output, and runs gnuplot on each
 * script. One label is enough to plot (compare needs two).
 * gnuplot missing: the scripts and data are still written, exit 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "core/parse_options.h"
#include "compare/plot.h"
#include "compare/labels.h"
#include "compare/load.h"
#include "compare/plot_stage.h"
#include "compare/plot_txt.h"
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

/* The command line as given; reset by every cmd_plot(). */
static struct {
	const char *outdir, *format, *names;
	bool quiet;
} O;

static const struct popt plot_options[] = {
	POPT_STRING('o', "output", &O.outdir, "DIR", "where the figures go (plots; created)"),
	POPT_STRING('f', "format", &O.format, "png|svg|txt",
		    "image format (png); txt: 72x20 characters"),
	POPT_STRING('n', "names", &O.names, "A,B,...", "pick and order the labels by name"),
	POPT_BOOL('q', "quiet", &O.quiet, "print errors only"),
	POPT_END(),
};

const struct popt_command plot_command = {
	"plot", "DIR...",
	"Draw the results of one or more labels with gnuplot. DIR is a label folder or\n"
	"a folder of them, read as compare reads them. For every workload and table:\n"
	"a line per label over each numeric sweep of ops (memcgs-N ...), grouped bars\n"
	"for the other ops, and candlesticks (mean +- stddev, min, max) of every op;\n"
	"the y value is compare's mean row. Each figure is a NAME.gp script, NAME.dat\n"
	"and the image in the output folder (files of the same name are replaced),\n"
	"listed in index.md with compare's text. Without gnuplot the scripts and data\n"
	"are still written, and plot exits 3.",
	plot_options,
};

/* A label without tables has nothing to plot: refused, naming it. */
static int label_has_tables(const struct label_result *l, struct strbuf *err)
{
	if (label_ntables(l))
		return 0;
	strbuf_addf(err, "label '%s' (%s) has no tables: nothing to plot for it "
		    "(a <workload>.json with \"tables\" is missing or empty)", l->label, l->dir);
	return -1;
}

int cmd_plot(int argc, char **argv)
{
	const char *outdir, *names;
	enum plot_format fmt;
	struct label_result *labels = NULL;
	size_t nl = 0;
	struct strbuf err = STRBUF_INIT;
	struct plot_set set = { 0 };
	struct comparison cmp;
	bool have_cmp = false;
	struct strbuf text = STRBUF_INIT;
	struct plot_stage stage = { NULL, NULL, 0 };
	int n, ret = LB_EXIT_OK;

	memset(&O, 0, sizeof(O));
	n = parse_options(&plot_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (O.quiet)
		lb_quiet = 1;
	outdir = O.outdir ? O.outdir : "plots";
	names = O.names;
	if (plot_parse_format(O.format ? O.format : "png", &fmt)) {
		error("--format '%s' is not known: use png, svg or txt", O.format);
		return LB_EXIT_USAGE;
	}
	if (!n)
		return popt_usage_error(&plot_command, "plot needs at least one results folder");
	if (!*outdir) {
		error("-o needs a folder name");
		return LB_EXIT_USAGE;
	}
	strbuf_init(&err);
	if (comparison_load(argv, (size_t)n,
			    &(struct comparison_load_opts){ .names = names, .alpha = CMP_DEFAULT_ALPHA,
							    .check_label = label_has_tables,
							    .allow_no_workloads = true },
			    &labels, &nl, &cmp, &err)) {
		error("%s", strbuf_str(&err));
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_USAGE;
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
	/* everything is made in a staging folder, renamed into -o at the end;
	 * -o is opened by descriptor, a symlink refused (OUTPUT_DIR_REFUSED: usage) */
	n = plot_stage_open(&stage, outdir);
	if (n) {
		ret = n == OUTPUT_DIR_REFUSED ? LB_EXIT_USAGE : LB_EXIT_FAIL;
		goto out;
	}
	/* OUTDIR was checked above: a write failing from here on is an I/O
	 * failure (disk full, ...), not a usage error */
	if (plot_write_figures(&cmp, stage.dir, fmt, &set)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	/* the same text `lrubench compare` prints, at its default alpha */
	report_text(&cmp, &text);
	if (plot_write_index(&cmp, &set, strbuf_str(&text), stage.dir)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	if (!plot_have_gnuplot()) {
		if (plot_stage_publish(&stage)) {
			ret = LB_EXIT_FAIL;
			goto out;
		}
		error("gnuplot is not installed (not found in PATH): apt-get install "
		      "gnuplot-nox; the scripts and data are in %s, run 'gnuplot NAME.gp' "
		      "there", outdir);
		ret = LB_EXIT_UNSUPPORTED;
		goto out;
	}
	if (plot_run_gnuplot(&set, stage.dir) ||
	    (fmt == PLOT_TXT && plot_txt_tidy_set(&set, stage.dir))) {
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
