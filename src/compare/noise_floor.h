/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This machine's noise floor (docs/ARCHITECTURE.md §10): `lrubench noise`
 * runs a workload as an A/A pair -- the same kernel twice, interleaved:
 * the measured iterations of each step alternate between A (even) and A'
 * (odd) -- and keeps per op what the pair showed in RESULTS/noise.json
 * (core/noise_file.h), the last floor measured on the machine. compare
 * reads it from the folder that holds the baseline label and notes, under
 * a table, the changes smaller than the floor. These are its statistics.
 *
 * Per op, from the two streams' mean rows (Hmean when higher is better,
 * else Amean, as compare):
 *   spread   relative standard deviation of one sample: SE(mean row) /
 *            mean row * sqrt(n), pooled over A and A' (root mean square)
 *   bias     the A/A change in percent (positive: A' better, as compare's
 *            percent columns); an A/A pair that differs is a drift
 *   floor at nb and nn samples a side:
 *            |bias| + t(0.975, nb + nn - 2) * spread * sqrt(1/nb + 1/nn)
 * that is, the far end of the A/A change's 95% interval: a change smaller
 * than the floor is one this machine shows between a kernel and itself.
 * At the noise run's own count it is the floor the command prints; compare
 * scales it to the sample counts of the cells it compares.
 */
#ifndef LRUBENCH_NOISE_FLOOR_H
#define LRUBENCH_NOISE_FLOOR_H

#include <stdbool.h>
#include <stddef.h>

/* What one op's A/A pair showed. */
struct noise_op {
	size_t na, nb;               /* samples in A and A' */
	double spread;               /* percent */
	double bias;                 /* percent, positive: A' better */
	double floor;                /* percent, at na and nb */
};

/* Split x[0..n-1] (in iteration order) into A (even) and A' (odd) and
 * measure the pair. false when a side has fewer than 2 samples or a mean
 * row is undefined (a sample <= 0 with Hmean, or a mean of 0). */
bool noise_aa(const double *x, size_t n, int better, struct noise_op *out);
/* The floor of a pair with this spread and bias at nb and nn samples. */
double noise_floor_at(double spread, double bias, size_t nb, size_t nn);
/*
 * The floor of two separate runs (issue 23): each brings its own level, so
 * the spread between runs (percent, its variance with between_df degrees
 * of freedom, noise_between) adds 2 between^2 to the variance, at
 * Satterthwaite's degrees of freedom of the two parts:
 *   |bias| + t(0.975, df) * sqrt(spread^2 (1/nb + 1/nn) + 2 between^2)
 * between or between_df 0: noise_floor_at.
 */
double noise_floor_runs(double spread, double bias, double between, double between_df,
			size_t nb, size_t nn);

/*
 * The spread between runs (issue 23; docs/ARCHITECTURE.md §10): with
 * `noise --runs R` every run is its own set-up (filesystem, files, memcgs)
 * on this one boot, and runs of one kernel can differ by more than their
 * iterations do. A one-way analysis of variance of the samples x[r][i]
 * (i < n[r]) of R runs, both in percent of the grand mean:
 *   within   the pooled standard deviation of a sample inside a run, sqrt(MSW)
 *   between  the standard deviation of a run's own level,
 *            sqrt(max(0, (MSB - MSW) / n0)), n0 = (N - sum n_r^2 / N) / (R - 1)
 * (the method-of-moments estimate, which is unbiased for the variance
 * components; n0 is the mean run size for unequal runs). Arithmetic means,
 * whatever the table's mean row: these are variances of samples. df (may
 * be NULL): the degrees of freedom of the between variance, Satterthwaite's
 * for (MSB - MSW) / n0, (MSB - MSW)^2 / (MSB^2 / (R - 1) + MSW^2 / (N - R)):
 * fewer than R - 1 when the runs' own spread is small beside their
 * iterations' (0 when the estimate is 0). false with fewer than 2 runs, a
 * run of fewer than 2 samples, or a grand mean of 0.
 */
bool noise_between(const double *const *x, const size_t *n, size_t runs, double *within,
		   double *between, double *df);

#endif
