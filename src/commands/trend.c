// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench trend [-o FIGURE] [--window N] [--threshold K] DIR...
 *
 * The nightly history of one machine: every label under DIR in run.json
 * "started" order, per op the series of the mean row and where it changed
 * (compare/trend.h has the method). -o also writes a gnuplot figure of the
 * series; its format is the file's extension (png, svg or txt) and its
 * script and data are written beside it, as `plot` does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "compare/load.h"
#include "compare/model.h"
#include "compare/plot.h"
#include "compare/plot_stage.h"
#include "compare/plot_txt.h"
#include "compare/trend.h"
#include "core/cleanup.h"
#include "core/parse_options.h"
#include "core/results.h"
#include "compare/labels.h"

static const char *figure;
static unsigned long long window;
static double threshold;

static const struct popt trend_opts[] = {
	POPT_STRING('o', "output", &figure, "FIGURE",
		    "also draw the series: NAME.png, .svg or .txt"),
	POPT_UINT(0, "window", &window, "N", "labels on each side of a change (default 4)",
		  TREND_MIN_SIDE, 1000),
	POPT_DOUBLE(0, "threshold", &threshold, "K", "sigmas a change must exceed (default 3)",
		    0, 0, POPTF_ABOVE_MIN),
	POPT_END(),
};

const struct popt_command trend_command = {
	"trend", "DIR...",
	"Read many labels of one machine (a folder of nightly results) in time order\n"
	"(run.json started) and print, per table and op, the series of the Hmean (Amean\n"
	"where lower is better) and where it changed: where the median of the labels\n"
	"after a point differs from the median of those before by more than K robust\n"
	"standard deviations. See lrubench-trend(1).",
	trend_opts,
};

/* "dir/name.ext" into dir, base "name" and the format of ext. */
static int split_figure(const char *path, char **dir, char **base, enum plot_format *fmt)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	const char *dot = strrchr(name, '.');

	if (!dot || dot == name || plot_parse_format(dot + 1, fmt))
		return error("-o '%s': name the figure NAME.png, NAME.svg or NAME.txt", path);
	*dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
	*base = xstrndup(name, (size_t)(dot - name));
	return 0;
}

int cmd_trend(int argc, char **argv)
{
	struct label_result *labels = NULL;
	size_t nlabels = 0;
	struct comparison cmp;
	bool have_cmp = false;
	struct trend_params params;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct plot_set set = { 0 };
	struct plot_stage stage = { NULL, NULL, 0 };
	char *dir = NULL, *base = NULL;
	enum plot_format fmt = PLOT_PNG;
	int n, ret = LB_EXIT_USAGE;

	figure = NULL;
	window = TREND_WINDOW;
	threshold = TREND_THRESHOLD;
	n = parse_options(&trend_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (!n)
		return popt_usage_error(&trend_command, "give the results folder (a folder of labels)");
	params.window = (size_t)window;
	params.threshold = threshold;
	params.min_sigma = 0;   /* per op from the labels' samples (compare/trend.c) */
	if (figure && split_figure(figure, &dir, &base, &fmt))
		goto out;
	if (comparison_load(argv, (size_t)n,
			    &(struct comparison_load_opts){ .alpha = 0.10,
							    .needs_two = "a trend needs two or more" },
			    &labels, &nlabels, &cmp, &err)) {
		error("%s", strbuf_str(&err));
		goto out;
	}
	have_cmp = true;
	if (figure && !is_dir(dir)) {
		error("-o '%s': no folder %s", figure, dir);
		goto out;
	}
	/* the figure's files are made in a staging folder and renamed into
	 * place: gnuplot never opens a path in the user's folder, so a symlink
	 * planted at FIGURE is refused, never written through (plot_stage.h) */
	if (figure && (plot_stage_open(&stage, dir) ||
		       trend_write_figure(&cmp, &params, stage.dir, base, fmt))) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	report_trend(&cmp, &params, &out);
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout)) {
		error_errno("cannot write the trend to standard output");
		ret = LB_EXIT_FAIL;
		goto out;
	}
	ret = LB_EXIT_OK;
	if (figure) {
		if (!plot_have_gnuplot()) {
			ret = plot_stage_publish(&stage) ? LB_EXIT_FAIL : LB_EXIT_UNSUPPORTED;
			error("gnuplot is not installed (apt-get install gnuplot-nox); the script is "
			      "%s/%s.gp", dir, base);
			goto out;
		}
		set.format = fmt;
		ALLOC_GROW(set.figs, 1, set.cap);
		memset(&set.figs[0], 0, sizeof(set.figs[0]));
		set.figs[0].base = xstrdup(base);
		set.n = 1;
		if (plot_run_gnuplot(&set, stage.dir) ||
		    (fmt == PLOT_TXT && plot_txt_tidy_set(&set, stage.dir)))
			ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
		else if (lb_stop_requested())
			ret = LB_EXIT_INTERRUPTED;
		/* a gnuplot failure keeps the script and data to look at */
		if (ret != LB_EXIT_INTERRUPTED && plot_stage_publish(&stage))
			ret = LB_EXIT_FAIL;
	}
out:
	plot_stage_abort(&stage);
	plot_set_release(&set);
	if (have_cmp)
		comparison_release(&cmp);
	labels_release(labels, nlabels);
	strbuf_release(&err);
	strbuf_release(&out);
	free(dir);
	free(base);
	return ret;
}
