// SPDX-License-Identifier: GPL-2.0-or-later
/* The group-sequential design of "run until decided"; see sequential.h. */
#include "compare/sequential.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/stats.h"
#include "core/util.h"

const char *seq_spending_name(enum seq_spending s)
{
	return s == SEQ_OBRIEN_FLEMING ? "O'Brien-Fleming" : "Pocock";
}

double seq_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/* 1 - Phi(z), without the cancellation of 1 - seq_norm_cdf for large z */
static double norm_upper(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

double seq_norm_upper_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0))
		return INFINITY;
	if (!(p < 1))
		return -INFINITY;
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;

		if (norm_upper(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double seq_spent(enum seq_spending s, double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	/* each side spends alpha/2 by Lan & DeMets' O'Brien-Fleming function
	 * (as R's ldbounds and gsDesign do) */
	if (s == SEQ_OBRIEN_FLEMING)
		return 2 * 2 * norm_upper(seq_norm_upper_quantile(alpha / 4) / sqrt(t));
	return alpha * log(1 + (M_E - 1) * t);
}

static double phi(double z)
{
	return exp(-0.5 * z * z) / sqrt(2 * M_PI);
}

/*
 * The recursion on the score S_k = Z_k sqrt(I_k), whose increments are
 * independent N(0, I_k - I_{k-1}) under no change: the density of S_k on
 * the continuation region |S_k| < c_k, on a grid with Simpson weights.
 */
struct grid {
	double *s, *fw;              /* points, density times weight */
	size_t n, cap;
};

/* G odd points on [-c, c], spaced at most `spacing` (capped at 801) */
static void grid_points(struct grid *g, double c, double spacing)
{
	size_t n = (size_t)ceil(2 * c / spacing) + 1;

	if (n < 51)
		n = 51;
	if (n > 801)
		n = 801;
	if (!(n % 2))
		n++;
	if (n > g->cap) {
		g->cap = n;
		g->s = xrealloc(g->s, n * sizeof(*g->s));
		g->fw = xrealloc(g->fw, n * sizeof(*g->fw));
	}
	g->n = n;
	for (size_t i = 0; i < n; i++)
		g->s[i] = -c + 2 * c * (double)i / (double)(n - 1);
}

static double simpson_weight(size_t i, size_t n, double h)
{
	if (i == 0 || i == n - 1)
		return h / 3;
	return (i % 2 ? 4 : 2) * h / 3;
}

/* P(first crossing at this look | the grid of the last look), boundary c,
 * the increment's mean mu and sd */
static double cross_at(const struct grid *g, double c, double mu, double sd)
{
	double p = 0;

	for (size_t i = 0; i < g->n; i++)
		p += g->fw[i] * (seq_norm_cdf((-c - g->s[i] - mu) / sd) +
				 seq_norm_cdf((g->s[i] + mu - c) / sd));
	return p;
}

/* the grid of this look from the last one's (old), increment mean mu and
 * sd, region |s| < c */
static void advance(const struct grid *old, struct grid *g, double c, double mu, double sd,
		    double spacing)
{
	double h;

	grid_points(g, c, spacing);
	h = 2 * c / (double)(g->n - 1);
	for (size_t j = 0; j < g->n; j++) {
		double f = 0;

		for (size_t i = 0; i < old->n; i++)
			f += old->fw[i] * phi((g->s[j] - old->s[i] - mu) / sd);
		g->fw[j] = f / sd * simpson_weight(j, g->n, h);
	}
}

/* the grid's spacing for look k: a third of the sd of the kernel it is
 * integrated against next (the next increment), or of its own spread */
static double spacing_for(const double *info, size_t k, size_t K)
{
	double sd = sqrt(info[k] - (k ? info[k - 1] : 0));

	if (k + 1 < K && sqrt(info[k + 1] - info[k]) < sd)
		sd = sqrt(info[k + 1] - info[k]);
	return sd / 3;
}

/*
 * The engine of every entry point: with b given (solve false) the crossing
 * probability when the score drifts by theta per unit of information
 * (E[S_k] = theta * I_k; 0: no change); with solve (theta 0), b[k] is found
 * so that look k spends spend[k].
 */
static double recurse(const double *info, double *b, const double *spend, size_t K, bool solve,
		      double theta)
{
	struct grid a = { 0 }, g2 = { 0 }, *cur = &a, *next = &g2;
	double total = 0, reach = 0;

	for (size_t k = 0; k < K; k++) {
		double di = info[k] - (k ? info[k - 1] : 0), mu = theta * di;
		double sq = sqrt(info[k]), sd = sqrt(di), c, p;

		if (solve) {
			if (!(spend[k] > 1e-14)) {
				b[k] = INFINITY;
			} else if (!k) {
				b[k] = seq_norm_upper_quantile(spend[k] / 2);
			} else {
				double lo = 0, hi = 15;

				for (int i = 0; i < 60; i++) {
					double mid = (lo + hi) / 2;
					if (cross_at(cur, mid * sq, 0, sd) > spend[k])
						lo = mid;
					else
						hi = mid;
				}
				b[k] = (lo + hi) / 2;
			}
		}
		/* the region the density can reach: no boundary is the last one's
		 * plus 8 sd and the drift of the increment */
		reach = (k ? reach : 0) + 8 * sd + fabs(mu);
		c = isfinite(b[k]) && b[k] * sq < reach ? b[k] * sq : reach;
		p = !k ? (isfinite(b[k]) ? norm_upper(b[k] - mu / sq) + seq_norm_cdf(-b[k] - mu / sq) : 0)
		       : (isfinite(b[k]) ? cross_at(cur, b[k] * sq, mu, sd) : 0);
		total += p;
		reach = c;
		if (k + 1 == K)
			break;
		if (!k) {
			double h;

			grid_points(next, c, spacing_for(info, k, K));
			h = 2 * c / (double)(next->n - 1);
			for (size_t j = 0; j < next->n; j++)
				next->fw[j] = phi((next->s[j] - mu) / sq) / sq *
					      simpson_weight(j, next->n, h);
		} else {
			advance(cur, next, c, mu, sd, spacing_for(info, k, K));
		}
		{
			struct grid *t = cur;
			cur = next;
			next = t;
		}
	}
	free(a.s);
	free(a.fw);
	free(g2.s);
	free(g2.fw);
	return total;
}

double seq_crossing_prob(const double *info, const double *b, size_t K)
{
	return K ? recurse(info, (double *)b, NULL, K, false, 0) : 0;
}

double seq_power(const double *info, const double *b, size_t K, double theta)
{
	return K ? recurse(info, (double *)b, NULL, K, false, theta) : 0;
}

void seq_spending_bounds(enum seq_spending s, double alpha, const double *info, size_t K,
			 double *b)
{
	double *spend = xcalloc(K ? K : 1, sizeof(*spend)), last = 0;

	for (size_t k = 0; k < K; k++) {
		double now = seq_spent(s, alpha, info[k] / info[K - 1]);

		spend[k] = now - last;
		last = now;
	}
	if (K)
		recurse(info, b, spend, K, true, 0);
	free(spend);
}

/* ---- the design of one op, cached ---- */

static double look_info(size_t nbase, size_t from, size_t at, double rho)
{
	if (!nbase)   /* both sides grow: `from` samples a side a round */
		return (double)at * (double)from / 2;
	return 1 / (1 / (double)at + 1 / (double)nbase + 2 * rho);
}

/* the run effect on a grid of steps of a factor e^(1/4) (0 below a
 * thousandth: none): the design is a choice made before the first look,
 * any fixed choice keeps its alpha, and a coarse grid keeps the designs
 * of a step's many possible baselines few */
static double rho_binned(const struct seq_runs *runs)
{
	if (!runs || !(runs->rho > 1e-3) || !isfinite(runs->rho))
		return 0;
	return exp((double)lround(log(runs->rho) * 4) / 4);
}

double seq_runs_df(double w, double dfw, double b, double dfb)
{
	if (!(b > 0) || !(dfb > 0) || !(dfw > 0))
		return dfw;
	return (w + b) * (w + b) / (w * w / dfw + b * b / dfb);
}

static void design_compute(struct seq_design *d)
{
	double info[SEQ_MAX_LOOKS];
	size_t first = d->nbase ? d->from : 1, last = d->to, span;

	if (last < first)
		last = first;
	span = last - first + 1;
	d->nlooks = span < SEQ_MAX_LOOKS ? span : SEQ_MAX_LOOKS;
	for (size_t i = 0; i < d->nlooks; i++) {
		d->at[i] = d->nlooks == span ? first + i
			 : first + (size_t)llround((double)i * (double)(last - first) /
						    (double)(d->nlooks - 1));
		info[i] = look_info(d->nbase, d->from, d->at[i], d->rho);
	}
	seq_spending_bounds(d->spending, d->alpha, info, d->nlooks, d->b);
}

/* the design of looks from..to against nbase (kept by seq_design_init) */
static void plan_design(struct seq_design *d, enum seq_spending s, double alpha, size_t nbase,
			size_t from, size_t to, const struct seq_runs *runs)
{
	seq_design_init(d, s, alpha, nbase, from, to, runs);
}

double seq_look_df(size_t nbase, size_t n)
{
	size_t nn = n < nbase ? n : nbase, nb = nbase;

	if (n && nb > SEQ_DF_BASE_PER_SAMPLE * n)
		nb = SEQ_DF_BASE_PER_SAMPLE * n;
	return (double)(nb + nn) - 2;
}

/* the degrees of freedom of a look at n against nbase (core/adaptive.c's
 * pooled spread, seq_look_df), with the run effect's own by Satterthwaite */
static double plan_df(size_t nbase, size_t n, const struct seq_runs *runs)
{
	double dfw = seq_look_df(nbase, n);

	if (!runs)
		return dfw;
	return seq_runs_df(1 / (double)nbase + 1 / (double)n, dfw, 2 * rho_binned(runs), runs->df);
}

/*
 * Its power at theta with each look's boundary moved to the t critical
 * value the look will use (seq_crit at the look's degrees of freedom): the
 * known-variance power of the test as it is applied, a little above the
 * t-test's own (the spread's estimate varies too).
 */
static double plan_power(const struct seq_design *d, double theta, const struct seq_runs *runs)
{
	double info[SEQ_MAX_LOOKS], b[SEQ_MAX_LOOKS];

	for (size_t i = 0; i < d->nlooks; i++) {
		info[i] = look_info(d->nbase, d->from, d->at[i], d->rho);
		b[i] = seq_crit(d->b[i], plan_df(d->nbase, d->at[i], runs));
	}
	return seq_power(info, b, d->nlooks, theta);
}

/* the last look's interval can hold a change within one standard error of
 * 0 inside ±equiv (sample standard deviations): "equivalent" is reachable */
static bool plan_equivalent(const struct seq_design *d, double equiv, const struct seq_runs *runs)
{
	double se = sqrt(1 / look_info(d->nbase, d->from, d->to, d->rho));
	double crit = seq_crit(d->b[d->nlooks - 1], plan_df(d->nbase, d->to, runs));

	return isfinite(crit) && (crit + 1) * se <= equiv;
}

size_t seq_plan_last(enum seq_spending s, double alpha, size_t nbase, size_t from, size_t max,
		     double theta, double power, double equiv, const struct seq_runs *runs)
{
	/*
	 * Asked after every iteration of a step, and by bench/sequential for
	 * thousands of baselines: theta and equiv are taken on a grid of 5%
	 * steps, the run effect's degrees of freedom rounded down to a half
	 * (the plan is a choice of design, which keeps its alpha at any last
	 * look; the grid only makes it cheap), and the answers are kept.
	 */
	static __thread struct plan_memo {
		enum seq_spending s;
		double alpha, power, rho, df;
		size_t nbase, from, max, to;
		long bin, ebin;
	} memo[1024];
	struct plan_memo *m;
	struct seq_design d;
	size_t lo, hi;
	long bin, ebin;
	struct seq_runs grid = { rho_binned(runs), 0 };
	const struct seq_runs *r = grid.rho > 0 ? &grid : NULL;
	double rho = grid.rho, df;

	if (r)
		grid.df = runs->df > 1000 ? 1000 : floor(runs->df * 2) / 2;
	df = grid.df;

	if (!nbase || !(theta > 0) || !isfinite(theta) || from >= max)
		return max;
	bin = lround(log(theta) * 20);
	theta = exp((double)bin / 20);
	ebin = equiv > 0 && isfinite(equiv) ? lround(log(equiv) * 20) : LONG_MIN;
	equiv = ebin == LONG_MIN ? 0 : exp((double)ebin / 20);
	m = &memo[((size_t)bin * 31 + (size_t)ebin * 17 + nbase * 7 + max +
		   (size_t)lround(log(rho > 0 ? rho : 1) * 4) * 101 + (size_t)(df * 2) * 13) %
		  ARRAY_SIZE(memo)];
	if (m->to && m->s == s && m->alpha == alpha && m->power == power && m->nbase == nbase &&
	    m->from == from && m->max == max && m->bin == bin && m->ebin == ebin && m->rho == rho &&
	    m->df == df)
		return m->to;
	/* the power grows with the last look (more information at the end
	 * than alpha lost at the early looks): bisect for the first that has it */
	lo = from;
	hi = max;
	plan_design(&d, s, alpha, nbase, from, max, r);
	if (plan_power(&d, theta, r) >= power) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			plan_design(&d, s, alpha, nbase, from, mid, r);
			if (plan_power(&d, theta, r) >= power)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	/* and no sooner than "equivalent" can be reached, where it can be at
	 * all by max: a plan for the change alone would stop an A/A of a quiet
	 * machine as undecided where a few more looks make it equivalent */
	if (equiv > 0) {
		plan_design(&d, s, alpha, nbase, from, max, r);
		if (plan_equivalent(&d, equiv, r)) {
			for (size_t to = hi; to < max; to++) {
				plan_design(&d, s, alpha, nbase, from, to, r);
				if (plan_equivalent(&d, equiv, r)) {
					hi = to;
					break;
				}
			}
		}
	}
	*m = (struct plan_memo){ s, alpha, power, rho, df, nbase, from, max, hi, bin, ebin };
	return hi;
}

void seq_design_init(struct seq_design *d, enum seq_spending s, double alpha, size_t nbase,
		     size_t from, size_t to, const struct seq_runs *runs)
{
	double rho = nbase ? rho_binned(runs) : 0;

	/* a step asks for the same design after every iteration, and the
	 * planner (seq_plan_last) for the same few dozen for every baseline of
	 * one size */
	static __thread struct seq_design cache[256];
	static __thread size_t next;

	for (size_t i = 0; i < ARRAY_SIZE(cache); i++) {
		const struct seq_design *c = &cache[i];
		if (c->nlooks && c->spending == s && c->alpha == alpha && c->nbase == nbase &&
		    c->from == from && c->to == to && c->rho == rho) {
			*d = *c;
			return;
		}
	}
	memset(d, 0, sizeof(*d));
	d->spending = s;
	d->alpha = alpha;
	d->nbase = nbase;
	d->from = from < 1 ? 1 : from;
	d->to = to;
	d->rho = rho;
	design_compute(d);
	cache[next++ % ARRAY_SIZE(cache)] = *d;
	d->from = from < 1 ? 1 : from;
}

int seq_design_look(const struct seq_design *d, size_t n)
{
	for (size_t i = 0; i < d->nlooks; i++)
		if (d->at[i] == n)
			return (int)i;
	return -1;
}

double seq_crit(double b, double df)
{
	double p;

	if (!isfinite(b))
		return INFINITY;
	if (!(df > 0) || !isfinite(df) || df > 1e7)
		return b;
	p = norm_upper(b);   /* one tail of the look's two-sided level */
	if (!(p > 0))
		return INFINITY;
	return -stats_t_quantile(p, df);
}
