// SPDX-License-Identifier: GPL-2.0-or-later
/* iterations = auto: the stop decision of a step; see adaptive.h. */
#include "core/adaptive.h"

#include <math.h>
#include <string.h>
#include "compare/stats.h"
#include "core/config.h"

static const char *const stop_names[] = {
	[ADAPTIVE_CONTINUE] = "",
	[ADAPTIVE_REACHED] = "reached",
	[ADAPTIVE_ITER_CAP] = "iteration cap",
	[ADAPTIVE_TIME_CAP] = "time cap",
};

const char *adaptive_stop_name(enum adaptive_stop s)
{
	return (size_t)s < ARRAY_SIZE(stop_names) ? stop_names[s] : "";
}

enum adaptive_stop adaptive_stop_from_name(const char *name)
{
	for (size_t i = 1; name && i < ARRAY_SIZE(stop_names); i++)
		if (!strcmp(stop_names[i], name))
			return (enum adaptive_stop)i;
	return ADAPTIVE_CONTINUE;
}

int adaptive_plan_from_config(const struct global_opts *g, struct adaptive_plan *p,
			      struct strbuf *err)
{
	p->precision = g->precision;
	p->min_iterations = (size_t)g->min_iterations;
	p->max_iterations = (size_t)g->max_iterations;
	p->time_budget = g->time_budget;
	if (p->max_iterations < p->min_iterations) {
		strbuf_addf(err, "global.max_iterations=%zu is below global.min_iterations=%zu",
			    p->max_iterations, p->min_iterations);
		return -1;
	}
	return 0;
}

static double t975(size_t df)
{
	return stats_t_quantile(0.975, (double)df);
}

/* 100 * h / |mean| for a half-width h; 0 when there is no spread at all */
static bool relative(double half, double mean, double *pct)
{
	if (half == 0) {
		*pct = 0;
		return true;
	}
	if (mean == 0 || !isfinite(half))
		return false;
	*pct = 100 * half / fabs(mean);
	return true;
}

bool adaptive_precision(const double *x, size_t n, int better, double *pct)
{
	struct stats st;
	bool ok;
	double se;

	*pct = 0;
	if (n < 2)
		return false;
	se = stats_mean_se(x, n, better, &ok);
	if (!ok)
		return false;
	stats_compute(x, n, &st);
	return relative(t975(n - 1) * se, stats_mean(&st, better), pct);
}

/* the 95% interval of the change against the baseline, as compare makes it */
static bool change_ci(const struct adaptive_op *op, double *lo, double *hi)
{
	struct stats sb, sn;
	struct ttest w;
	bool okb, okn;
	double seb, sen, mb, mn;

	if (!op->base || op->nbase < 2 || op->n < 2)
		return false;
	seb = stats_mean_se(op->base, op->nbase, op->better, &okb);
	sen = stats_mean_se(op->x, op->n, op->better, &okn);
	if (!okb || !okn)
		return false;
	stats_compute(op->base, op->nbase, &sb);
	stats_compute(op->x, op->n, &sn);
	mb = stats_mean(&sb, op->better);
	mn = stats_mean(&sn, op->better);
	if (mb == 0)
		return false;
	stats_welch_se(mb, seb, op->nbase, mn, sen, op->n, &w);
	stats_change_ci(mb, mn, &w, w.se > 0 ? stats_t_quantile(0.975, w.df) : 0, op->better, lo, hi);
	return isfinite(*lo) && isfinite(*hi);
}

void adaptive_op_eval(const struct adaptive_plan *p, struct adaptive_op *op)
{
	op->precision_ok = adaptive_precision(op->x, op->n, op->better, &op->precision);
	op->change_ok = change_ci(op, &op->change_lo, &op->change_hi);
	op->state = ADAPTIVE_OP_OPEN;
	if (op->change_ok) {
		double base_pct;
		bool base_ok = adaptive_precision(op->base, op->nbase, op->better, &base_pct);

		if (op->change_lo > 0 || op->change_hi < 0)
			op->state = ADAPTIVE_OP_DECIDED;
		else if ((op->change_hi - op->change_lo) / 2 <= p->precision)
			op->state = ADAPTIVE_OP_REACHED;
		/* a baseline less precise than the goal keeps the interval wider
		 * than it however long this side runs: this side's own precision
		 * is all that more iterations can buy */
		else if ((!base_ok || base_pct > p->precision) && op->precision_ok &&
			 op->precision <= p->precision)
			op->state = ADAPTIVE_OP_REACHED;
	} else if (op->precision_ok && op->precision <= p->precision) {
		op->state = ADAPTIVE_OP_REACHED;
	}
}

enum adaptive_stop adaptive_decide(const struct adaptive_plan *p, const struct adaptive_op *ops,
				   size_t nops, size_t n, double seconds)
{
	bool done = true;

	if (n < p->min_iterations)
		return ADAPTIVE_CONTINUE;
	for (size_t i = 0; i < nops; i++)
		if (ops[i].state == ADAPTIVE_OP_OPEN)
			done = false;
	if (done)
		return ADAPTIVE_REACHED;
	if (n >= p->max_iterations)
		return ADAPTIVE_ITER_CAP;
	/* one more iteration of the mean duration would overrun the budget */
	if (p->time_budget > 0 && n && seconds + seconds / (double)n > p->time_budget)
		return ADAPTIVE_TIME_CAP;
	return ADAPTIVE_CONTINUE;
}

/* the smallest n' > n whose half-width t(n'-1) * s / sqrt(n'), for the
 * relative spread s seen at n, is within goal; max when none is */
static size_t needed(double half_pct, size_t n, double goal, size_t max)
{
	double s = half_pct / t975(n - 1) * sqrt((double)n);

	for (size_t k = n + 1; k < max; k++)
		if (t975(k - 1) * s / sqrt((double)k) <= goal)
			return k;
	return max;
}

size_t adaptive_predict(const struct adaptive_plan *p, const struct adaptive_op *ops, size_t nops,
			size_t n)
{
	size_t want = n > p->min_iterations ? n : p->min_iterations;

	if (n < 2)
		return want;
	for (size_t i = 0; i < nops; i++) {
		const struct adaptive_op *o = &ops[i];
		size_t k;

		if (o->state != ADAPTIVE_OP_OPEN)
			continue;
		k = p->max_iterations;
		if (o->precision_ok)
			k = needed(o->precision, n, p->precision, p->max_iterations);
		/* the change's interval shrinks like this side's (an estimate:
		 * the baseline's part stays) */
		if (o->change_ok) {
			size_t kc = needed((o->change_hi - o->change_lo) / 2, n, p->precision,
					   p->max_iterations);
			k = o->precision_ok && k < kc ? k : kc;
		}
		if (k > want)
			want = k;
	}
	if (want > p->max_iterations)
		want = n > p->max_iterations ? n : p->max_iterations;
	return want;
}
