/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `plot --format txt`: figures in characters (gnuplot's dumb terminal,
 * PLOT_TXT_COLUMNS x PLOT_TXT_LINES) for a plain-text mail. Colour and
 * fill do not exist there, so a txt figure is drawn its own way: each
 * label a line of its own character with its own point letter (A, B, ...),
 * the legend one label per line under the plot, no error bars or boxes,
 * ASCII only. plot.c describes the figure; this file writes its script.
 */
#ifndef LRUBENCH_PLOT_TXT_H
#define LRUBENCH_PLOT_TXT_H

#include <stdbool.h>
#include <stddef.h>
#include "compare/plot.h"
#include "core/util.h"

struct plot_txt_fig {
	const char *base;        /* the .dat beside the script, one block per label */
	const char *title;
	const char *ylabel;      /* "Hmean (MB/s)" */
	const char *xlabel;
	bool sweep;              /* x is a count (lines); else categories (points) */
	bool log2;
	bool from_zero;          /* categories of non-negative values: y from 0 */
	size_t ny;               /* how many values it draws, from ylo to yhi */
	double ylo, yhi;         /* (plot_gp_yrange: explicit when all the same) */
	const double *x;         /* the x of each tic */
	const char *const *xtic; /* its text: NULL for the number itself */
	size_t nx;
	const char *const *labels;   /* the labels with data, in block order */
	size_t nlabels;
};

/* The script after the `set terminal`/`set output` lines. */
void plot_txt_render(struct strbuf *sb, const struct plot_txt_fig *f);

/*
 * Append a figure's text mail-ready: no form feed (the dumb terminal
 * starts each page with one), no trailing blanks, no blank lines at either
 * end, printable ASCII, lines cut at EMAIL_WIDTH.
 */
void plot_txt_tidy_text(struct strbuf *out, const char *text);
/*
 * The same in place, for a figure gnuplot wrote. 0, or -1 after a message
 * naming the file.
 */
int plot_txt_tidy(const char *path);
/* plot_txt_tidy() on every figure of a txt set, in outdir. */
int plot_txt_tidy_set(const struct plot_set *set, const char *outdir);

#endif
