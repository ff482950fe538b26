/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The decision of one `lrubench bisect-step`: which side of the midpoint
 * between a good and a bad result a commit's samples fall on, for one op
 * and one statistic, and whether that is significant. Pure: results in,
 * verdict out (commands/bisect.c builds, boots and keeps the log).
 *
 * The test: a one-sample Student t-test of the commit's samples against
 * the midpoint M = (good + bad) / 2, in the statistic's own space (x for
 * Amean, 1/x for Hmean, log x for Gmean, so that the statistic is the mean
 * that is tested). Significant when p < alpha; then the side of M gives
 * good or bad, with "good" the side the good result is on.
 */
#ifndef LRUBENCH_COMPARE_BISECT_H
#define LRUBENCH_COMPARE_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include "core/results.h"
#include "core/util.h"

enum bisect_stat {
	BISECT_MEAN,    /* mmtests' mean row: Hmean when higher is better, else Amean */
	BISECT_AMEAN,
	BISECT_HMEAN,
	BISECT_GMEAN,
};

/* "mean", "amean", "hmean", "gmean"; -1 for anything else. */
int bisect_stat_parse(const char *s, enum bisect_stat *out);
/* BISECT_MEAN resolved for a table's direction. */
enum bisect_stat bisect_stat_resolve(enum bisect_stat s, int better);
/* "Amean", "Hmean", "Gmean" (of a resolved statistic). */
const char *bisect_stat_name(enum bisect_stat s);
/* The statistic of x (resolved); ok false when undefined (no samples, or a
 * sample <= 0 for Hmean and Gmean). */
double bisect_stat_value(enum bisect_stat s, const double *x, size_t n, bool *ok);

/* The table and op named in a label: op alone when only one table of one
 * workload has it, else table (a title) picks. 0, or -1 with err naming
 * what is missing or ambiguous (and the candidates). */
int bisect_find_op(const struct label_result *l, const char *table, const char *op,
		   const struct result_table **t, const struct op_samples **os, struct strbuf *err);

enum bisect_side { BISECT_GOOD, BISECT_BAD, BISECT_UNDECIDED };

struct bisect_verdict {
	enum bisect_side side;
	double value;      /* the statistic of the commit's samples */
	double midpoint;
	double t, p;       /* p = 1 when the test cannot be made (n < 2) */
	size_t n;
};

/* Decide for samples x (resolved statistic s; good != bad). */
void bisect_decide(enum bisect_stat s, double good, double bad, const double *x, size_t n,
		   double alpha, struct bisect_verdict *v);

#endif
