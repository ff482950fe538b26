/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A group-sequential design for "run until decided" (docs/ARCHITECTURE.md
 * §10): looks at planned points, each with its statistical information
 * I_k, two-sided boundaries from a Lan-DeMets alpha-spending function, so
 * that the chance of ever crossing a boundary when nothing changed is at
 * most alpha over ALL looks, however many are taken and wherever the
 * sampling stops.
 *
 * The statistic at look k is Z_k = (change) / SE_k, whose information is
 * I_k = 1 / (1/n_base + 1/n_new) (in units of 1/sigma^2). For a fixed
 * baseline and a growing new side, as for both sides growing (VM rounds),
 * Cov(Z_j, Z_k) = sqrt(I_j / I_k): the canonical joint distribution of
 * Jennison & Turnbull (2000, §3.1), so the classic recursive integration
 * (Armitage, McPherson & Rowe 1969) gives exact boundaries for known
 * variance. The variance is estimated: each look's boundary is used at its
 * nominal level (J&T §11.2, the "significance level approach"): the
 * t quantile at the look's degrees of freedom for the same two-sided level.
 * The repeated confidence intervals (change ± crit * SE, J&T ch. 9) cover
 * the true change at every look at once with probability 1 - alpha, so
 * "excludes 0" (decided) and "inside ±precision" (equivalent) are both
 * statements with that error rate.
 *
 * Pure functions, no I/O: the core (core/adaptive.h) and VM rounds call
 * them as they call compare/stats.h (ARCHITECTURE §1).
 */
#ifndef LRUBENCH_SEQUENTIAL_H
#define LRUBENCH_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/* The error rate of every sequential decision, two-sided: the level of
 * compare's 95% intervals (STATS_WELCH_ALPHA). */
#define SEQ_ALPHA 0.05

enum seq_spending {
	SEQ_POCOCK = 0,      /* alpha * ln(1 + (e - 1) t): spends early, decides early */
	SEQ_OBRIEN_FLEMING,  /* per side 2 - 2 Phi(z_{1-alpha/4} / sqrt(t)): keeps alpha for the end */
};
/* "Pocock", "O'Brien-Fleming" */
const char *seq_spending_name(enum seq_spending s);
/* Cumulative alpha spent at information fraction t in [0, 1]. */
double seq_spent(enum seq_spending s, double alpha, double t);

/* Standard normal CDF and its upper quantile z (1 - Phi(z) = p). */
double seq_norm_cdf(double z);
double seq_norm_upper_quantile(double p);

/*
 * Two-sided probability under no change that |Z_k| >= b[k] for some look
 * k < K, with looks of information info[0..K-1] (increasing). b[k] may be
 * INFINITY (no stop at that look).
 */
double seq_crossing_prob(const double *info, const double *b, size_t K);

/*
 * The same when the statistic drifts: the probability that |Z_k| >= b[k]
 * for some look when E[Z_k] = theta * sqrt(I_k), i.e. a true change of
 * theta standard deviations of one sample (the design's power at that
 * change; theta 0 gives seq_crossing_prob). Known variance, as the
 * boundaries are computed.
 */
double seq_power(const double *info, const double *b, size_t K, double theta);

/*
 * The spending boundaries: b[k] (z scale) such that the probability of a
 * first crossing at look k is spent(t_k) - spent(t_{k-1}), t_k = info[k] /
 * info[K-1]. A look with nothing to spend gets INFINITY.
 */
void seq_spending_bounds(enum seq_spending s, double alpha, const double *info, size_t K,
			 double *b);

/*
 * The design of one deciding op: looks at n_new = from..to (every count,
 * thinned evenly to at most SEQ_MAX_LOOKS), against a baseline of nbase
 * samples (0: the baseline grows like the new side, VM rounds: looks at
 * rounds 1..to of `from` samples a side each).
 */
#define SEQ_MAX_LOOKS 100
struct seq_design {
	enum seq_spending spending;
	double alpha;
	size_t nbase, from, to;
	size_t nlooks;
	size_t at[SEQ_MAX_LOOKS];   /* the looks' sample count (host) or round (VM) */
	double b[SEQ_MAX_LOOKS];    /* z boundary of each look */
};
/* Fill d (boundaries computed once per (spending, alpha, nbase, from, to)
 * and cached per thread). */
void seq_design_init(struct seq_design *d, enum seq_spending s, double alpha, size_t nbase,
		     size_t from, size_t to);
/*
 * The planned last look (issue 23): the smallest count `to` in [from, max]
 * at which the design of looks from..to against nbase baseline samples
 * crosses a boundary with probability >= power when the true change is
 * theta standard deviations of one sample (each look's boundary taken at
 * the t critical value it will be used at; known variance otherwise); and,
 * when equiv > 0 and an interval of ±equiv standard deviations can be
 * reached by max at all, no sooner than the first count whose last-look
 * interval can hold a change one standard error from 0 inside ±equiv. max
 * when the power is not reached, or without a baseline (nbase 0). Planned
 * from the baseline alone, so the design is fixed before the step's first
 * look, and any last look keeps the design's alpha.
 */
#define SEQ_POWER 0.90
size_t seq_plan_last(enum seq_spending s, double alpha, size_t nbase, size_t from, size_t max,
		     double theta, double power, double equiv);
/* The look taken at count n, or -1 when n is no look. */
int seq_design_look(const struct seq_design *d, size_t n);
/* The critical value for a look's z boundary at df degrees of freedom: the
 * t quantile of the same two-sided level (df <= 0 or infinite: b itself). */
double seq_crit(double b, double df);

#endif
