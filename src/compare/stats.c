// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison statistics with mmtests' "classic" (2018-2024) semantics,
 * docs/ARCHITECTURE.md §10, checked against golden vectors from mmtests' own code
 * (tests/unit/test_stats.c), plus the Student-t
 * distribution computed natively so that `compare` needs no R.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/stats.h"
#include "core/util.h"

void stats_compute(const double *x, size_t n, struct stats *st)
{
	double sum = 0, rsum = 0, lsum = 0, sq = 0;
	bool positive = true;

	memset(st, 0, sizeof(*st));
	st->n = n;
	if (!n)
		return;
	st->min = st->max = x[0];
	for (size_t i = 0; i < n; i++) {
		if (x[i] < st->min)
			st->min = x[i];
		if (x[i] > st->max)
			st->max = x[i];
		sum += x[i];
		if (x[i] <= 0) {
			positive = false;
		} else {
			rsum += 1.0 / x[i];
			lsum += log(x[i]);
		}
	}
	st->amean = sum / (double)n;
	if (positive) {
		st->hmean = (double)n / rsum;
		st->hmean_ok = true;
		/* through logs: the product of 30 samples of 1e6 overflows nothing */
		st->gmean = exp(lsum / (double)n);
		st->gmean_ok = true;
	}
	if (n >= 2) {
		for (size_t i = 0; i < n; i++)
			sq += (x[i] - st->amean) * (x[i] - st->amean);
		st->stddev = sqrt(sq / (double)(n - 1));
		st->stddev_ok = true;
	}
	/* relative to |Amean|: a spread is never negative, whatever the sign
	 * of the samples (mmtests divides by Amean; the same for Amean > 0) */
	if (st->stddev_ok && st->amean != 0)
		st->coeffvar = 100.0 * st->stddev / fabs(st->amean);
}

double stats_mean(const struct stats *st, int better)
{
	if (better > 0 && better != BETTER_HIGHER_AMEAN)
		return st->hmean_ok ? st->hmean : 0;
	return st->n ? st->amean : 0;
}

const char *stats_mean_name(int better)
{
	return better > 0 && better != BETTER_HIGHER_AMEAN ? "Hmean" : "Amean";
}

int stats_mean_better(int better, bool explains, const char *statistic)
{
	if (better > 0 && !explains && statistic && !strcmp(statistic, "amean"))
		return BETTER_HIGHER_AMEAN;
	return better;
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

static int cmp_asc(const void *a, const void *b)
{
	return -cmp_desc(a, b);
}

double stats_bmean_sorted(const double *s, size_t n, int pct, int better, bool *ok)
{
	double sum = 0;
	size_t k;
	bool good = true;

	if (!n) {
		if (ok)
			*ok = false;
		return 0;
	}
	/* integer arithmetic: 5 samples at 95% keep 4, never 4.75 rounded */
	k = n * (size_t)(pct > 0 ? pct : 0) / 100;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	for (size_t i = 0; i < k; i++) {
		if (better > 0 && better != BETTER_HIGHER_AMEAN) {
			if (s[i] <= 0)
				good = false;
			else
				sum += 1.0 / s[i];
		} else {
			sum += s[i];
		}
	}
	if (ok)
		*ok = good;
	if (better > 0 && better != BETTER_HIGHER_AMEAN)
		return good ? (double)k / sum : 0;
	return sum / (double)k;
}

void stats_sort_best_first(double *x, size_t n, int better)
{
	if (n > 48) {
		qsort(x, n, sizeof(*x), better > 0 ? cmp_desc : cmp_asc);
		return;
	}
	/* typical ops have 5-30 samples: insertion sort beats qsort's calls */
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		while (j > 0 && (better > 0 ? x[j - 1] < v : x[j - 1] > v)) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = v;
	}
}

double stats_bmean(const double *x, size_t n, int pct, int better, bool *ok)
{
	double *s, r;

	if (!n)
		return stats_bmean_sorted(x, 0, pct, better, ok);
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	stats_sort_best_first(s, n, better);
	r = stats_bmean_sorted(s, n, pct, better, ok);
	free(s);
	return r;
}

/*
 * The percent columns. Rule order matters: equal values are 0 even when both
 * are 0, then a zero baseline, then (pndiff) a zero new value. Positive is
 * better, whatever the signs: mmtests divides by the baseline, which for a
 * negative baseline turns an improvement into a "regression" (-2 -> -5, lower
 * is better, would be -150%). A negative baseline divides by its magnitude,
 * and a zero baseline gives mmtests' 100 / -99 only in the direction that
 * is better / worse. Positive samples print exactly as mmtests.
 */
double stats_pdiff(double new_v, double base)
{
	if (new_v == base)
		return 0;
	if (base == 0)
		return new_v > 0 ? 100 : -100;
	if (base < 0)
		return 100 - new_v * 100 / base;
	return new_v * 100 / base - 100;
}

double stats_pndiff(double new_v, double base)
{
	if (new_v == base)
		return 0;
	if (base == 0)
		return new_v > 0 ? -99 : 100;
	if (base < 0)
		return new_v * 100 / base - 100;
	if (new_v == 0)
		return 100;
	return 100 - new_v * 100 / base;
}

/* lgamma() writes the global signgam: lgamma_r() is safe on several threads */
static double lgam(double x)
{
	int sign;

	return lgamma_r(x, &sign);
}

/* One term num of a continued fraction by the modified Lentz method:
 * updates c and d, returns the factor it multiplies the value by. */
static double lentz_term(double num, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + num * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + num / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *c * *d;
}

/*
 * Continued fraction of the incomplete beta function, evaluated with the
 * modified Lentz method; converges quickly for x < (a+1)/(a+b+2).
 */
static double incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	f = d;
	for (int m = 1; m <= 10000; m++) {
		double delta;

		/* even step: d_2m = m(b-m)x / ((a+2m-1)(a+2m)) */
		f *= lentz_term(m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), &c, &d);
		/* odd step: d_2m+1 = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) */
		delta = lentz_term(-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)), &c, &d);
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return f;
}

double stats_incbeta(double a, double b, double x)
{
	double lfront;

	if (isnan(x) || isnan(a) || isnan(b) || a <= 0 || b <= 0)
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lfront = lgam(a + b) - lgam(a) - lgam(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * incbeta_cf(a, b, x) / a;
	/* symmetry I_x(a,b) = 1 - I_{1-x}(b,a) keeps the fraction convergent */
	return 1 - exp(lfront) * incbeta_cf(b, a, 1 - x) / b;
}

double stats_t_pvalue(double t, double df)
{
	double x;

	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	t = fabs(t);
	if (t == 0)
		return 1;
	/* P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2); written to avoid cancellation */
	x = df / (df + t * t);
	return stats_incbeta(df / 2, 0.5, x);
}

/* P(T <= t) */
static double t_cdf(double t, double df)
{
	double p = stats_t_pvalue(t, df) / 2;
	return t >= 0 ? 1 - p : p;
}

/*
 * Standard normal quantile, for the first guess of the t quantile: Acklam's
 * rational approximations (relative error ~1e-9), refined below anyway.
 */
static double norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -norm_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = INFINITY, target, t, z, lc;
	bool upper;

	if (isnan(p) || isnan(df) || df <= 0 || p <= 0 || p >= 1)
		return NAN;
	if (p == 0.5)
		return 0;
	upper = p > 0.5;
	target = upper ? p : 1 - p;
	/* start from the Cornish-Fisher expansion around the normal quantile ... */
	z = norm_quantile(target);
	t = z + (z * z * z + z) / (4 * df) +
	    (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
	if (!(t > 0) || !isfinite(t))
		t = 1;
	/* ... then Newton steps on the density inside a shrinking bracket
	 * [lo, hi] of the monotone CDF; a step that leaves it bisects, or
	 * doubles while no upper bound is known */
	lc = lgam((df + 1) / 2) - lgam(df / 2) - 0.5 * log(df * M_PI);
	for (int i = 0; i < 400; i++) {
		double f = t_cdf(t, df) - target, tn;
		double dens = exp(lc - (df + 1) / 2 * log1p(t * t / df));

		if (f == 0)
			break;
		if (f < 0)
			lo = t;
		else
			hi = t;
		tn = dens > 0 ? t - f / dens : lo + (hi - lo) / 2;
		if (!(tn > lo && tn < hi))
			tn = isinf(hi) ? 2 * t : lo + (hi - lo) / 2;
		if (fabs(tn - t) <= 1e-14 * (1 + fabs(t)) ||
		    (isfinite(hi) && hi - lo <= 1e-15 * (1 + hi))) {
			t = tn;
			break;
		}
		t = tn;
	}
	return upper ? t : -t;
}

void stats_ttest_mmtests(const struct stats *base, const struct stats *cand,
			 int better, double alpha, struct ttest *out)
{
	double mb = stats_mean(base, better), mn = stats_mean(cand, better);
	double sb = base->stddev_ok ? base->stddev : 0;
	double sn = cand->stddev_ok ? cand->stddev : 0;

	memset(out, 0, sizeof(*out));
	if (!base->n || !cand->n) {
		out->t = out->p = out->df = NAN;
		return;
	}
	out->df = (double)(base->n + cand->n) - 2;
	out->se = sqrt(sb * sb / (double)base->n + sn * sn / (double)cand->n);
	if (out->se == 0 || out->df <= 0) {
		/* no spread at all: any difference is a real one */
		out->t = mb == mn ? 0 : INFINITY;
		out->p = mb == mn ? 1 : 0;
		out->significant = mb != mn;
		return;
	}
	out->t = fabs(mb - mn) / out->se;
	out->p = stats_t_pvalue(out->t, out->df);
	out->significant = out->p < alpha;
}

void stats_welch_se(double mb, double seb, size_t nb, double mn, double sen, size_t nn,
		    struct ttest *out)
{
	double vb = seb * seb, vn = sen * sen, den = 0;

	memset(out, 0, sizeof(*out));
	if (!nb || !nn) {
		out->t = out->p = out->df = NAN;
		return;
	}
	out->se = sqrt(vb + vn);
	if (nb > 1)
		den += vb * vb / (double)(nb - 1);
	if (nn > 1)
		den += vn * vn / (double)(nn - 1);
	if (out->se == 0 || den == 0) {
		out->df = (double)(nb + nn) - 2;
		out->t = mb == mn ? 0 : INFINITY;
		out->p = mb == mn ? 1 : 0;
		out->significant = mb != mn;
		return;
	}
	out->df = (vb + vn) * (vb + vn) / den;
	out->t = (mn - mb) / out->se;
	out->p = stats_t_pvalue(out->t, out->df);
	out->significant = out->p < STATS_WELCH_ALPHA;
}

void stats_ttest_welch(const struct stats *base, const struct stats *cand, struct ttest *out)
{
	double sb = base->stddev_ok ? base->stddev : 0;
	double sn = cand->stddev_ok ? cand->stddev : 0;

	stats_welch_se(base->amean, base->n ? sb / sqrt((double)base->n) : 0, base->n,
		       cand->amean, cand->n ? sn / sqrt((double)cand->n) : 0, cand->n, out);
}

void stats_change_ci(double mb, double mn, const struct ttest *w, double t, int better,
		     double *lo, double *hi)
{
	double half = w->se > 0 ? t * w->se : 0;
	/* relative to |mb|: a negative baseline keeps "positive is better" */
	double s = better > 0 ? 1 : -1, d = mn - mb;
	double a = s * (d - half) / fabs(mb) * 100, b = s * (d + half) / fabs(mb) * 100;

	*lo = a < b ? a : b;
	*hi = a < b ? b : a;
}

double stats_mean_se(const double *x, size_t n, int better, bool *ok)
{
	double m = 0, sq = 0, h;

	if (ok)
		*ok = n >= 2;
	if (n < 2)
		return 0;
	if (better <= 0 || better == BETTER_HIGHER_AMEAN) {
		for (size_t i = 0; i < n; i++)
			m += x[i];
		m /= (double)n;
		for (size_t i = 0; i < n; i++)
			sq += (x[i] - m) * (x[i] - m);
		return sqrt(sq / (double)(n - 1) / (double)n);
	}
	/*
	 * Hmean = 1/mean(y), y = 1/x; by the delta method its standard error is
	 * Hmean^2 * SE(mean(y)).
	 */
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0) {
			if (ok)
				*ok = false;
			return 0;
		}
		m += 1 / x[i];
	}
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (1 / x[i] - m) * (1 / x[i] - m);
	h = 1 / m;
	return h * h * sqrt(sq / (double)(n - 1) / (double)n);
}
