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
 * I_k = 1 / (1/n_base + 1/n_new + 2 rho) (in units of 1/sigma^2, sigma the
 * spread of one sample inside a run; rho the variance of a run's own level
 * in the same units, struct seq_runs: the baseline and the new side are
 * one run each, and each brings its run effect). For a fixed baseline and
 * a growing new side, as for both sides growing (VM rounds), Cov(Z_j, Z_k)
 * = sqrt(I_j / I_k) -- the run effects are common to every look, so
 * Cov(change_j, change_k) = 1 / I_k for j < k: the canonical joint distribution of
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
 * The spread between runs (issue 23; `lrubench noise --runs`,
 * compare/noise_floor.h noise_between): rho is the variance of one run's
 * level over the variance of one sample inside a run, df the degrees of
 * freedom of its estimate (runs - 1; 0 with rho 0: not measured). The
 * information saturates at 1 / (1/n_base + 2 rho): past it, more
 * iterations of this run buy nothing.
 */
struct seq_runs {
	double rho;
	double df;
};

/*
 * The design of one deciding op: looks at n_new = from..to (every count,
 * thinned evenly to at most SEQ_MAX_LOOKS), against a baseline of nbase
 * samples (0: the baseline grows like the new side, VM rounds: looks at
 * rounds 1..to of `from` samples a side each), with the run effect runs
 * (NULL: none; fixed baseline only).
 */
#define SEQ_MAX_LOOKS 100
struct seq_design {
	enum seq_spending spending;
	double alpha;
	size_t nbase, from, to;
	double rho;                 /* the run effect the information counts (binned) */
	size_t nlooks;
	size_t at[SEQ_MAX_LOOKS];   /* the looks' sample count (host) or round (VM) */
	double b[SEQ_MAX_LOOKS];    /* z boundary of each look */
};
/* Fill d (boundaries computed once per (spending, alpha, nbase, from, to,
 * rho) and cached per thread). rho is taken on a grid of steps of a
 * factor e^(1/4): the design is a choice made before the first look, and
 * any fixed choice keeps its alpha. */
void seq_design_init(struct seq_design *d, enum seq_spending s, double alpha, size_t nbase,
		     size_t from, size_t to, const struct seq_runs *runs);
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
 * look, and any last look keeps the design's alpha. With a run effect
 * (runs, NULL: none) each look's critical value is taken at Satterthwaite's
 * degrees of freedom of the two parts of the variance (seq_runs_df).
 */
#define SEQ_POWER 0.90
size_t seq_plan_last(enum seq_spending s, double alpha, size_t nbase, size_t from, size_t max,
		     double theta, double power, double equiv, const struct seq_runs *runs);
/*
 * Satterthwaite's degrees of freedom of a variance w + b, w estimated with
 * dfw degrees of freedom and b with dfb (Welch's rule for two parts): b 0
 * or dfb 0 gives dfw.
 */
double seq_runs_df(double w, double dfw, double b, double dfb);
/*
 * The degrees of freedom of a look's pooled spread at n samples against
 * nbase (core/adaptive.c, and the plan's critical values): each side
 * counted no higher than the other allows, nb' + n' - 2 with n' = min(n,
 * nbase) and nb' = min(nbase, SEQ_DF_BASE_PER_SAMPLE * n). A spread from
 * few baseline samples is shared by every look, and the plain nb + n - 2
 * trusts it more than it deserves (7% false decisions with 3 baseline
 * samples); and a large baseline makes the spread all but known while the
 * new side's mean of 3 samples is not yet normal: with heavy tails (t, 3
 * degrees of freedom) and 24 baseline samples the t critical value then
 * decided 5.4-6.0% of A/As (bench/sequential, 20000 trials a row). Four
 * baseline samples a new one brings those rows to 4.5-5.3% and keeps the
 * normal rows' power (ARCHITECTURE §10, "run until decided").
 */
#define SEQ_DF_BASE_PER_SAMPLE 4
double seq_look_df(size_t nbase, size_t n);
/* The look taken at count n, or -1 when n is no look. */
int seq_design_look(const struct seq_design *d, size_t n);
/* The critical value for a look's z boundary at df degrees of freedom: the
 * t quantile of the same two-sided level (df <= 0 or infinite: b itself). */
double seq_crit(double b, double df);

#endif
