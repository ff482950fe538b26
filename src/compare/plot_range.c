// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The y range of a figure (plot.h plot_gp_yrange), one rule for every
 * generator (plot.c's scaling, bars and candle panels, plot_txt.c,
 * plot_profile.c): gnuplot autoscales an axis whose values differ, but
 * where every plotted value is the same (irq CPU % all 0, fairness all
 * 1.00) it warns "empty y range [v:v]" and picks a range of its own. Such a
 * figure gets an explicit range instead: the same picture, no warning.
 */
#include <math.h>
#include "compare/plot.h"

/* Room around a constant value: 10% of it, or 1 around 0 (a percentage
 * axis of 0 .. 1 reads as "nothing"). */
static double spread_of(double v)
{
	return v != 0 ? fabs(v) * 0.1 : 1;
}

void plot_gp_yrange(struct strbuf *sb, size_t n, double lo, double hi, bool from_zero)
{
	if (!n || !isfinite(lo) || !isfinite(hi)) {
		strbuf_addstr(sb, "set yrange [0:1]\n");   /* nothing to draw: an empty frame */
	} else if (from_zero && lo >= 0) {
		if (hi > 0)
			strbuf_addstr(sb, "set yrange [0:*]\n");
		else
			strbuf_addstr(sb, "set yrange [0:1]\n");   /* every value 0 */
	} else if (from_zero && hi <= 0) {
		/* bars of negative values hang down from 0 (lo < 0: never empty) */
		strbuf_addstr(sb, "set yrange [*:0]\n");
	} else if (hi > lo) {
		strbuf_addstr(sb, "set yrange [*:*]\n");
	} else {
		double d = spread_of(lo);

		strbuf_addf(sb, "set yrange [%.10g:%.10g]\n", lo - d, lo + d);
	}
}
