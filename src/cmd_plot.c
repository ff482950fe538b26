// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench plot [-o OUTDIR] [--format png|svg] [--names A,B] DIR...
 *
 * Reads results folders the way compare does, writes for every workload and
 * table the figures described in plot.h into OUTDIR (default ./plots,
 * created when missing; files of the same name are replaced), an index.md
 * with the comparison table in text form, and runs gnuplot on each script.
 * gnuplot missing: the scripts and data are still written, exit 3.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cleanup.h"
#include "commands.h"
#include "plot.h"
#include "results.h"
#include "stats.h"
#include "util.h"

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

/* The comparison in text form: Min, mean row, Stddev, Max per op and label. */
static char *compare_text(const struct label_result *labels, size_t nl)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	for (size_t l0 = 0; l0 < nl; l0++)
		for (size_t w = 0; w < labels[l0].nwls; w++) {
			const struct wl_result *wl = &labels[l0].wls[w];
			bool first_seen = true;

			/* each workload once, from the first label that has it */
			for (size_t p = 0; p < l0 && first_seen; p++)
				for (size_t k = 0; k < labels[p].nwls; k++)
					if (!strcmp(labels[p].wls[k].workload, wl->workload))
						first_seen = false;
			if (!first_seen)
				continue;
			for (size_t t = 0; t < wl->ntables; t++) {
				const struct result_table *tb = &wl->tables[t];
				const char *rows[] = { "Min", tb->better > 0 ? "Hmean" : "Amean",
						       "Stddev", "Max" };
				size_t opw = 2;

				for (size_t o = 0; o < tb->nops; o++)
					if (strlen(tb->ops[o].op) > opw)
						opw = strlen(tb->ops[o].op);
				strbuf_addf(&sb, "%s%s (%s, %s is better)\n", sb.len ? "\n" : "",
					    tb->title, tb->unit, tb->better > 0 ? "higher" : "lower");
				strbuf_addf(&sb, "%-6s %-*s", "", (int)opw, "");
				for (size_t l = 0; l < nl; l++)
					strbuf_addf(&sb, " %16s", labels[l].label);
				strbuf_addstr(&sb, "\n");
				for (size_t r = 0; r < ARRAY_SIZE(rows); r++)
					for (size_t o = 0; o < tb->nops; o++) {
						strbuf_addf(&sb, "%-6s %-*s", rows[r], (int)opw, tb->ops[o].op);
						for (size_t l = 0; l < nl; l++) {
							const struct op_samples *os = NULL;
							struct stats st;
							double v;

							for (size_t k = 0; k < labels[l].nwls && !os; k++) {
								const struct wl_result *x = &labels[l].wls[k];

								if (strcmp(x->workload, wl->workload))
									continue;
								for (size_t tt = 0; tt < x->ntables && !os; tt++)
									if (!strcmp(x->tables[tt].title, tb->title))
										for (size_t oo = 0; oo < x->tables[tt].nops; oo++)
											if (!strcmp(x->tables[tt].ops[oo].op,
												    tb->ops[o].op))
												os = &x->tables[tt].ops[oo];
							}
							if (!os || !os->n) {
								strbuf_addf(&sb, " %16s", "-");
								continue;
							}
							stats_compute(os->v, os->n, &st);
							v = r == 0 ? st.min : r == 1 ? stats_mean(&st, tb->better) :
							    r == 2 ? (st.stddev_ok ? st.stddev : 0) : st.max;
							strbuf_addf(&sb, " %16.2f", v);
						}
						strbuf_addstr(&sb, "\n");
					}
			}
		}
	return strbuf_detach(&sb);
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
	char *text = NULL;
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
		ret = LB_EXIT_USAGE;
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
	if (mkdir_p(outdir, 0755)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (access(outdir, W_OK)) {
		error_errno("cannot write to %s", outdir);
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (plot_write_figures(labels, nl, outdir, fmt, &set)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	text = compare_text(labels, nl);
	if (plot_write_index(labels, nl, &set, text, outdir)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (!plot_have_gnuplot()) {
		error("gnuplot is not installed (not found in PATH): apt-get install gnuplot-nox; "
		      "the scripts and data are in %s, run 'gnuplot NAME.gp' there", outdir);
		ret = LB_EXIT_UNSUPPORTED;
		goto out;
	}
	if (plot_run_gnuplot(&set, outdir)) {
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
		goto out;
	}
	info("%zu figures in %s, listed in %s/index.md", set.n, outdir, outdir);
out:
	free(text);
	plot_set_release(&set);
	if (labels)
		labels_release(labels, nl);
	strbuf_release(&err);
	return ret;
}
