/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `lrubench plot`: gnuplot figures from results folders (docs/ARCHITECTURE.md §8).
 *
 * For every workload and table three kinds of figure may be made:
 *   scaling  ops that are a numeric sweep (memcgs-N, plain thread counts,
 *            fault-huge-T, elsp-J: a series name and a number, results_op_x)
 *            become a line per label over x = N, log2 x when the sweep
 *            doubles; one figure per series, named "scaling" or
 *            "scaling-<series>" when a table holds several sweeps. The x
 *            axis is named by the table's "x_axis" in the results; a table
 *            whose x_axis is null has no sweeps; for older results without
 *            it the series name labels the axis. Plot never names a
 *            workload;
 *   bars     the ops that are not part of a sweep, grouped bars per op;
 *   candles  every op and label: box mean ± stddev, whiskers min and max.
 * The y value is the table's mean row (Hmean when higher is better, else
 * Amean) with the sample stddev, taken from compare's model (report.h). Every figure is three files next to each other in OUTDIR,
 * "<workload>-<table-slug>-<kind>.{gp,dat}" and the image; the .gp refers to
 * the .dat and the image by relative name, so `cd OUTDIR && gnuplot X.gp`
 * reproduces (or, once edited, restyles) the figure.
 */
#ifndef LRUBENCH_PLOT_H
#define LRUBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include "compare/model.h"
#include "core/results.h"
#include "core/util.h"

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_TXT };

/* Image size in pixels (the tests read it back from the PNG header). */
#define PLOT_WIDTH 960
#define PLOT_HEIGHT 600
/* txt: gnuplot's dumb terminal, in characters, to fit a 72-column mail */
#define PLOT_TXT_COLUMNS 72
#define PLOT_TXT_LINES 20

struct plot_figure {
	char *base;      /* file name without extension, e.g. readtwice-mb-s-aggregate-scaling */
	char *workload;
	char *table;     /* table title */
	char *kind;      /* scaling, scaling-<prefix>, bars, candles */
	char *caption;   /* for index.md */
	char *op;        /* the op a levels-<group> figure draws (plot_levels.c); else NULL */
};

struct plot_set {
	enum plot_format format;
	struct plot_figure *figs;
	size_t n, cap;
};

/* "png", "svg" or "txt"; -1 otherwise (nothing printed). */
int plot_parse_format(const char *s, enum plot_format *f);
const char *plot_format_ext(enum plot_format f);

/*
 * Write the .dat and .gp of every figure of the comparison model (report.h,
 * so the numbers are compare's own) into outdir, which must exist, and fill
 * set (release with plot_set_release). Labels are in legend order, the
 * first is the baseline. Returns 0 or -1 with a message naming the file.
 */
int plot_write_figures(const struct comparison *c, const char *outdir,
		       enum plot_format fmt, struct plot_set *set);
/* index.md: the figures per workload and table, with compare_text (the
 * comparison in text form, may be NULL) in a code block. */
int plot_write_index(const struct comparison *c, const struct plot_set *set,
		     const char *compare_text, const char *outdir);
void plot_set_release(struct plot_set *set);

/*
 * The level figures for a letter (`report`, plot_levels.c): for each level
 * table of the monitors (core/series.h) in which an op changed
 * significantly against the baseline, that op's levels-<group> figure of
 * set holding the table's level. Each figure once; the ops whose measured
 * tables changed significantly too first, then the largest change of the
 * level; at most max into out. Returns how many there are in all (more
 * than max: the letter says how many it left out).
 */
size_t plot_level_figures_changed(const struct comparison *c, const struct plot_set *set,
				  const struct plot_figure **out, size_t max);

/* The `set terminal` lines for fmt (figure size as above). */
void plot_gp_terminal(struct strbuf *sb, enum plot_format fmt);
/* s as a single-quoted gnuplot string: a label never becomes a command. */
void plot_gp_quote(struct strbuf *sb, const char *s);
/*
 * "set yrange" for a figure whose n plotted values (means, error bars,
 * whiskers) lie in [lo, hi]: autoscaled where they differ, explicit where
 * they are all the same or none (gnuplot would warn "empty y range").
 * from_zero: the axis starts at 0 (bars, values near 0); bars of negative
 * values end at 0. Every figure generator uses it (plot_range.c).
 */
void plot_gp_yrange(struct strbuf *sb, size_t n, double lo, double hi, bool from_zero);

/* Is `gnuplot` an executable in PATH? */
bool plot_have_gnuplot(void);
/* Run `gnuplot <base>.gp` in outdir for every figure. 0, or -1 after
 * printing gnuplot's own message for the script that failed. */
int plot_run_gnuplot(const struct plot_set *set, const char *outdir);

/* Helpers, exposed for the unit tests. */
/* Does the sorted sweep v[0..n) grow by powers of two (1,2,4,8; 1,4,16)? */
bool plot_sweep_doubles(const unsigned long long *v, size_t n);
/* Lowercase, [a-z0-9._-] kept, every other run of characters one '-',
 * no leading or trailing '-'; "x" when nothing is left. Malloc'ed. */
char *plot_slug(const char *s);

#endif
