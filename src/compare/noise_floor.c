// SPDX-License-Identifier: GPL-2.0-or-later
/* This machine's noise floor: the A/A statistics and RESULTS/noise.json; see noise_floor.h. */
#include "compare/noise_floor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/sequential.h"
#include "compare/stats.h"
#include "core/util.h"

/* relative standard deviation of one sample, from the mean row's SE */
static bool side(const double *x, size_t n, int better, double *mean, double *spread)
{
	struct stats st;
	bool ok;
	double se = stats_mean_se(x, n, better, &ok);

	if (!ok)
		return false;
	stats_compute(x, n, &st);
	*mean = stats_mean(&st, better);
	if (*mean == 0)
		return false;
	*spread = 100 * se / fabs(*mean) * sqrt((double)n);
	return true;
}

double noise_floor_at(double spread, double bias, size_t nb, size_t nn)
{
	if (nb + nn <= 2 || !nb || !nn)
		return NAN;
	return fabs(bias) + stats_t_quantile(0.975, (double)(nb + nn - 2)) * spread *
			    sqrt(1 / (double)nb + 1 / (double)nn);
}

double noise_floor_runs(double spread, double bias, double between, double between_df,
			size_t nb, size_t nn)
{
	double w, b, df;

	if (!(between_df > 0) || !(between > 0))
		return noise_floor_at(spread, bias, nb, nn);
	if (nb + nn <= 2 || !nb || !nn)
		return NAN;
	w = spread * spread * (1 / (double)nb + 1 / (double)nn);
	b = 2 * between * between;
	df = seq_runs_df(w, (double)(nb + nn - 2), b, between_df);
	return fabs(bias) + stats_t_quantile(0.975, df) * sqrt(w + b);
}

bool noise_aa(const double *x, size_t n, int better, struct noise_op *out)
{
	double *a = xmalloc((n / 2 + 1) * sizeof(*a)), *b = xmalloc((n / 2 + 1) * sizeof(*b));
	double ma, mb, sa, sb;
	bool ok;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (i % 2)
			b[out->nb++] = x[i];
		else
			a[out->na++] = x[i];
	}
	ok = side(a, out->na, better, &ma, &sa) && side(b, out->nb, better, &mb, &sb);
	if (ok) {
		out->spread = sqrt((sa * sa + sb * sb) / 2);
		out->bias = better > 0 ? stats_pdiff(mb, ma) : stats_pndiff(mb, ma);
		out->floor = noise_floor_at(out->spread, out->bias, out->na, out->nb);
	}
	free(a);
	free(b);
	return ok;
}

bool noise_between(const double *const *x, const size_t *n, size_t runs, double *within,
		   double *between, double *df)
{
	double total = 0, sumsq_n = 0, grand, ssw = 0, ssb = 0, msw, msb, n0;
	size_t N = 0;

	if (runs < 2)
		return false;
	for (size_t r = 0; r < runs; r++) {
		if (n[r] < 2)
			return false;
		for (size_t i = 0; i < n[r]; i++)
			total += x[r][i];
		N += n[r];
		sumsq_n += (double)n[r] * (double)n[r];
	}
	grand = total / (double)N;
	if (grand == 0 || !isfinite(grand))
		return false;
	for (size_t r = 0; r < runs; r++) {
		double m = 0;

		for (size_t i = 0; i < n[r]; i++)
			m += x[r][i];
		m /= (double)n[r];
		for (size_t i = 0; i < n[r]; i++)
			ssw += (x[r][i] - m) * (x[r][i] - m);
		ssb += (double)n[r] * (m - grand) * (m - grand);
	}
	msw = ssw / (double)(N - runs);
	msb = ssb / (double)(runs - 1);
	n0 = ((double)N - sumsq_n / (double)N) / (double)(runs - 1);
	*within = 100 * sqrt(msw) / fabs(grand);
	*between = msb > msw ? 100 * sqrt((msb - msw) / n0) / fabs(grand) : 0;
	if (df)
		*df = msb > msw ? (msb - msw) * (msb - msw) /
				  (msb * msb / (double)(runs - 1) + msw * msw / (double)(N - runs))
				: 0;
	return true;
}
