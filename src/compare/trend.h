/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `lrubench trend`: many labels of one machine (nightly runs) in time order,
 * per op the series of the mean row (Hmean, or Amean where lower is better,
 * from compare's model) and where it changed.
 *
 * The change-point method, chosen to be explained in one paragraph and to
 * ignore a single bad night:
 *   - noise: sigma = 1.4826 * MAD(x[i+1] - x[i]) / sqrt(2), the robust
 *     standard deviation of the night-to-night differences (a step moves
 *     one difference only, so it does not inflate sigma); but never less
 *     than the median standard error of a label's mean (its samples'
 *     own noise: with quantized values most differences can be equal and
 *     their MAD 0), nor than 1e-9 of the series' median;
 *   - step at boundary i (between points i-1 and i): the median of the k
 *     points after minus the median of the k points before, where
 *     k = min(window, i, n - i) and k >= 3 (the median of three ignores one
 *     odd point, that of two would not), scored in units of sigma;
 *   - a change is found at a boundary whose score exceeds the threshold and
 *     is the largest within +-window boundaries;
 *   - its place: a median ignores one odd point, so neighbouring boundaries
 *     score alike; the step is put at the split of the 2*window points
 *     around it into two parts with the least sum of absolute deviations
 *     from their own medians (the robust one-change fit of that stretch),
 *     and reported with those two medians when their difference still
 *     exceeds the threshold and at least 3 points lie on either side of
 *     it in the series (a step in the newest labels is reported once the
 *     third label after it shows it).
 * One outlier moves neither median, so it is never a change.
 */
#ifndef LRUBENCH_TREND_H
#define LRUBENCH_TREND_H

#include <stddef.h>
#include "compare/labels.h"
#include "compare/model.h"
#include "compare/plot.h"
#include "core/util.h"

#define TREND_WINDOW 4        /* points on each side of a step */
#define TREND_THRESHOLD 3.0   /* robust standard deviations */
#define TREND_MIN_SIDE 3      /* the fewest points on a side of a step */

struct trend_params {
	size_t window;
	double threshold;
	double min_sigma;     /* the noise floor: 0, or the labels' median standard error */
};

struct trend_change {
	size_t at;            /* index of the first point after the step */
	double before, after; /* the medians on either side */
	double score;         /* |after - before| / sigma */
};

/* 1.4826 * MAD of the first differences / sqrt(2); 0 when n < 3. */
double trend_robust_sd(const double *x, size_t n);
/* The changes of x[0..n), in order; out has room for n. Returns how many. */
size_t trend_changes(const double *x, size_t n, const struct trend_params *p,
		     struct trend_change *out);

/*
 * The labels of c in their order (time order when labels_collect sorted
 * them), then per table a matrix of labels by ops with the mean row, '*'
 * after the first value past a change, and the changes listed.
 */
void report_trend(const struct comparison *c, const struct trend_params *p,
		  struct strbuf *out);

/*
 * A gnuplot script and data (base.gp, base.dat in dir) for the image
 * base.<fmt> of the series: one panel per table, a line per op over the
 * labels, changes circled. Run it with plot_run_gnuplot().
 */
int trend_write_figure(const struct comparison *c, const struct trend_params *p,
		       const char *dir, const char *base, enum plot_format fmt);

#endif
