/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics with mmtests' "classic" (2018-2024) semantics (docs/ARCHITECTURE.md §10), and
 * the Student-t distribution computed natively (regularized incomplete beta).
 */
#ifndef LRUBENCH_STATS_H
#define LRUBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats {
	size_t n;
	double min, max;
	double amean;
	double hmean;  bool hmean_ok;   /* false when any sample <= 0 */
	double gmean;  bool gmean_ok;   /* false when any sample <= 0 */
	double stddev; bool stddev_ok;  /* false when n < 2 */
	double coeffvar;                /* 0 when stddev undefined or amean == 0 */
};

/* better: +1 higher is better, -1 lower is better */
void stats_compute(const double *x, size_t n, struct stats *st);
/* Higher is better, but the mean row is the arithmetic mean: a table whose
 * run says config.<workload>.statistic = amean (compare/model.c; never
 * written to results files, which say "higher"). */
#define BETTER_HIGHER_AMEAN 2
/* The mean row: Hmean when higher is better, else Amean (0 when undefined);
 * Amean for BETTER_HIGHER_AMEAN. */
double stats_mean(const struct stats *st, int better);
/* Its name: "Hmean" or "Amean". */
const char *stats_mean_name(int better);
/* A table's better as its mean row is chosen, given the run's
 * config.<workload>.statistic word ("amean"; "mmtests" or NULL leave it):
 * amean turns a throughput table (higher, not explaining) into
 * BETTER_HIGHER_AMEAN. The one rule for compare's model and run's own
 * end-of-run summary (core/run_summary.c). */
int stats_mean_better(int better, bool explains, const char *statistic);
/* BHmean-pct (higher) / BAmean-pct (lower) of the best pct% of the samples. */
double stats_bmean(const double *x, size_t n, int pct, int better, bool *ok);
/* Percent columns: positive is always better. */
double stats_pdiff(double new_v, double base);   /* higher is better */
double stats_pndiff(double new_v, double base);  /* lower is better; Stddev, CoeffVar */

/* Two-sided p-value of Student's t with df degrees of freedom. */
double stats_t_pvalue(double t, double df);
/* Quantile: t such that P(T <= t) = p. */
double stats_t_quantile(double p, double df);
/* Regularized incomplete beta I_x(a, b). */
double stats_incbeta(double a, double b, double x);

/* mmtests' significance test on the mean row (pooled df, unequal-variance SE). */
struct ttest {
	double se, t, df, p;
	bool significant;
};
void stats_ttest_mmtests(const struct stats *base, const struct stats *cand,
			 int better, double alpha, struct ttest *out);
/* Welch's t-test (Welch-Satterthwaite df). */
void stats_ttest_welch(const struct stats *base, const struct stats *cand, struct ttest *out);

/* Additions (compare): Welch's test from means and standard errors of the
 * means, so it also works on the Hmean row; significant is p < 0.05, the
 * level of the 95% confidence intervals. t is signed (cand - base). */
#define STATS_WELCH_ALPHA 0.05
void stats_welch_se(double mb, double seb, size_t nb, double mn, double sen, size_t nn,
		    struct ttest *out);
/* The 95% confidence interval [lo, hi] of the percent change of the mean
 * row, positive is better (as the percent columns), from Welch's test w of
 * the two means (stats_welch_se) and t = t(0.975, w->df), unused when
 * w->se is 0. Compare's interval and adaptive iterations (core/adaptive.h)
 * both come from here. */
void stats_change_ci(double mb, double mn, const struct ttest *w, double t, int better,
		     double *lo, double *hi);
/* Standard error of the mean row (Amean; Hmean by the delta method).
 * ok is false (and 0 returned) when n < 2 or Hmean is undefined. */
double stats_mean_se(const double *x, size_t n, int better, bool *ok);
/* stats_bmean() in two steps, so that one sort serves the three B?mean rows:
 * sort best first (descending when higher is better), then take the best pct%. */
void stats_sort_best_first(double *x, size_t n, int better);
double stats_bmean_sorted(const double *best_first, size_t n, int pct, int better, bool *ok);

#endif
