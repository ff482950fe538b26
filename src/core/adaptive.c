// SPDX-License-Identifier: GPL-2.0-or-later
/* iterations = auto: the stop decision of a step; see adaptive.h. */
#include "core/adaptive.h"

#include <math.h>
#include <string.h>
#include "compare/sequential.h"
#include "compare/stats.h"
#include "core/config.h"

static const char *const stop_names[] = {
	[ADAPTIVE_CONTINUE] = "",
	[ADAPTIVE_REACHED] = "reached",
	[ADAPTIVE_ITER_CAP] = "iteration cap",
	[ADAPTIVE_TIME_CAP] = "time cap",
	[ADAPTIVE_NOISY] = "too noisy",
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
	p->alpha = SEQ_ALPHA;
	p->detect = g->detect;
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

double adaptive_alpha(const struct adaptive_plan *p)
{
	return p->alpha > 0 && p->alpha < 1 ? p->alpha : SEQ_ALPHA;
}

/*
 * The standard error of the difference of the two mean rows with one
 * relative spread pooled over both sides (df nb + n - 2), in the
 * baseline's units: both sides are the same work on the same machine, and
 * the baseline's many degrees of freedom are what make an early look
 * decisive (Welch's at 3 against 12 samples are about 3). With the spread
 * between runs measured (between percent, from `runs` runs; 0: none) each
 * side's run effect adds its variance: the baseline and this side are one
 * run each, so 2 between^2 however many iterations either has, and the
 * degrees of freedom are Satterthwaite's of the two parts.
 */
static void pooled_se(double mb, double seb, size_t nb, double mn, double sen, size_t n,
		      const struct adaptive_op *op, struct ttest *w)
{
	double rb = seb * sqrt((double)nb) / fabs(mb), rn = mn ? sen * sqrt((double)n) / fabs(mn) : 0;
	double r2 = ((double)(nb - 1) * rb * rb + (double)(n - 1) * rn * rn) / (double)(nb + n - 2);
	double within = r2 * (1 / (double)nb + 1 / (double)n), between = 0;

	memset(w, 0, sizeof(*w));
	/* the degrees of freedom of both sides, each counted no higher than
	 * the other allows (compare/sequential.h seq_look_df) */
	w->df = seq_look_df(nb, n);
	if (!op->round && op->between_runs >= 2 && op->between > 0) {
		between = 2 * (op->between / 100) * (op->between / 100);
		w->df = seq_runs_df(within, w->df, between, op->between_df);
	}
	w->se = fabs(mb) * sqrt(within + between);
}

/* the interval's half-width (percent) at the last look: this side's (and in VM
 * rounds the baseline's) standard error shrinks to what the cap's count
 * would give at the spread seen; the run effect's part stays */
static double cap_half(const struct seq_design *d, const struct adaptive_op *op, double mb,
		       double seb, size_t nb, double sen, size_t n, size_t ncap, size_t nbcap)
{
	struct ttest w;
	double b = d->b[d->nlooks - 1], scale;
	size_t k = d->nlooks;

	/* the last look that can still spend: a design whose tail is empty */
	while (k > 1 && !isfinite(b))
		b = d->b[--k - 1];
	sen *= sqrt((double)n / (double)ncap);
	seb *= sqrt((double)nb / (double)nbcap);
	pooled_se(mb, seb, nbcap, mb, sen, ncap, op, &w);
	scale = w.se > 0 ? seq_crit(b, w.df) * w.se : 0;
	return 100 * scale / fabs(mb);
}

/* the run effect in the design's units: its variance over one sample's
 * (the baseline's relative spread cv); none in VM rounds or unmeasured */
static bool op_runs(const struct adaptive_op *op, double cv, struct seq_runs *runs)
{
	if (op->round || op->between_runs < 2 || !(op->between > 0) || !(cv > 0) || !isfinite(cv))
		return false;
	runs->rho = (op->between / 100) * (op->between / 100) / (cv * cv);
	runs->df = op->between_df;
	return true;
}

/*
 * The design's last look against a fixed baseline (issue 23): planned from
 * the baseline alone, before the step's first look, as a group-sequential
 * trial is planned from a pilot: the first count at which a true change of
 * `detect` percent, at the baseline's relative spread cv, is decided with
 * SEQ_POWER, and no sooner than an A/A can end "equivalent within
 * ±precision" where it can by max_iterations (compare/sequential.h
 * seq_plan_last). Looks beyond what is needed cost alpha at every early
 * look (Pocock-type spending is spread over the information up to the last
 * look), so a shorter plan decides sooner.
 */
static size_t planned_last(const struct adaptive_plan *p, size_t nbase, double cv,
			   const struct seq_runs *runs)
{
	if (!(p->detect > 0) || !(cv > 0) || !isfinite(cv))
		return p->max_iterations;
	return seq_plan_last(SEQ_POCOCK, adaptive_alpha(p), nbase, p->min_iterations,
			     p->max_iterations, p->detect / 100 / cv, SEQ_POWER,
			     p->precision / 100 / cv, runs);
}

/*
 * The change against the baseline, judged by the sequential design: the
 * look this count is, its boundary at the look's Welch degrees of freedom,
 * the repeated confidence interval and what the cap could still reach.
 */
static bool sequential_change(const struct adaptive_plan *p, struct adaptive_op *op)
{
	struct stats sb, sn;
	struct ttest w;
	struct seq_design d;
	bool okb, okn;
	double seb, sen, mb, mn;
	size_t ncap, nbcap;
	int look;

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
	if (op->round) {
		/* VM rounds: min_iterations a side a round, looks at rounds */
		seq_design_init(&d, SEQ_POCOCK, adaptive_alpha(p), 0, p->min_iterations, op->rounds,
				NULL);
		look = seq_design_look(&d, op->round);
		ncap = op->n * op->rounds / op->round;
		nbcap = op->nbase * op->rounds / op->round;
	} else {
		double cv = seb * sqrt((double)op->nbase) / fabs(mb);
		struct seq_runs runs;
		bool known = op_runs(op, cv, &runs);
		size_t to = planned_last(p, op->nbase, cv, known ? &runs : NULL);

		seq_design_init(&d, SEQ_POCOCK, adaptive_alpha(p), op->nbase, p->min_iterations, to,
				known ? &runs : NULL);
		look = seq_design_look(&d, op->n);
		ncap = op->n > to ? op->n : to;
		nbcap = op->nbase;
		op->last_look = to;
	}
	pooled_se(mb, seb, op->nbase, mn, sen, op->n, op, &w);
	op->change = (op->better > 0 ? 1 : -1) * (mn - mb) / fabs(mb) * 100;
	op->change_se = 100 * w.se / fabs(mb);
	op->look = look >= 0;
	op->look_no = look + 1;
	op->nlooks = (int)d.nlooks;
	op->bound = look >= 0 ? d.b[look] : INFINITY;
	op->crit = look >= 0 ? (w.se > 0 ? seq_crit(op->bound, w.df) : 0) : INFINITY;
	op->cap_half = cap_half(&d, op, mb, seb, op->nbase, sen, op->n, ncap, nbcap);
	if (look >= 0 && isfinite(op->crit)) {
		stats_change_ci(mb, mn, &w, op->crit, op->better, &op->change_lo, &op->change_hi);
	} else {
		/* no look here: the interval stays unbounded */
		op->change_lo = -INFINITY;
		op->change_hi = INFINITY;
	}
	return true;
}

void adaptive_op_eval(const struct adaptive_plan *p, struct adaptive_op *op)
{
	op->precision_ok = adaptive_precision(op->x, op->n, op->better, &op->precision);
	op->change_ok = sequential_change(p, op);
	op->state = ADAPTIVE_OP_OPEN;
	if (op->change_ok) {
		if (op->change_lo > 0 || op->change_hi < 0)
			op->state = ADAPTIVE_OP_DECIDED;
		else if (op->change_lo >= -p->precision && op->change_hi <= p->precision)
			op->state = ADAPTIVE_OP_REACHED;
		/* at the spread seen, the cap's interval is wider than the goal
		 * (never "equivalent") and holds the change seen even one
		 * standard error further out (hardly ever "decided"): more
		 * iterations buy nothing but time. A stop that decides nothing
		 * cannot add false decisions. */
		else if (op->cap_half > p->precision &&
			 fabs(op->change) + op->change_se < op->cap_half)
			op->state = ADAPTIVE_OP_NOISY;
		/* the planned looks are over, undecided: past them no boundary
		 * is left to cross (a stop that decides nothing) */
		else if (op->last_look && op->n >= op->last_look)
			op->state = ADAPTIVE_OP_NOISY;
	} else if (op->precision_ok && op->precision <= p->precision) {
		op->state = ADAPTIVE_OP_REACHED;
	}
}

enum adaptive_stop adaptive_decide(const struct adaptive_plan *p, const struct adaptive_op *ops,
				   size_t nops, size_t n, double seconds)
{
	bool done = true, noisy = false;

	if (n < p->min_iterations)
		return ADAPTIVE_CONTINUE;
	for (size_t i = 0; i < nops; i++) {
		if (ops[i].state == ADAPTIVE_OP_OPEN)
			done = false;
		if (ops[i].state == ADAPTIVE_OP_NOISY)
			noisy = true;
	}
	if (done)
		return noisy ? ADAPTIVE_NOISY : ADAPTIVE_REACHED;
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
		if (o->change_ok && isfinite(o->change_hi - o->change_lo)) {
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

static json_object *jround3(double v)
{
	return json_object_new_double(round(v * 1000) / 1000);
}

void adaptive_record_sequential(const struct adaptive_plan *p, const struct adaptive_op *op,
				json_object *rec)
{
	json_object *seq = json_object_new_object();

	if (isfinite(op->change_lo) && isfinite(op->change_hi)) {
		json_object *ci = json_object_new_array();

		json_object_array_add(ci, jround3(op->change_lo));
		json_object_array_add(ci, jround3(op->change_hi));
		json_object_object_add(rec, "change_ci", ci);
	}
	json_object_object_add(seq, "design", json_object_new_string(ADAPTIVE_DESIGN));
	json_object_object_add(seq, "alpha", json_object_new_double(adaptive_alpha(p)));
	json_object_object_add(seq, "goal", json_object_new_double(p->precision));
	if (op->look)
		json_object_object_add(seq, "look", json_object_new_int(op->look_no));
	json_object_object_add(seq, "looks", json_object_new_int(op->nlooks));
	if (op->last_look) {
		json_object_object_add(seq, "last_look", json_object_new_int((int)op->last_look));
		if (p->detect > 0) {
			json_object_object_add(seq, "detect", json_object_new_double(p->detect));
			json_object_object_add(seq, "power", json_object_new_double(SEQ_POWER));
		}
	}
	if (op->look && isfinite(op->bound)) {
		json_object_object_add(seq, "boundary", jround3(op->bound));
		json_object_object_add(seq, "crit", jround3(op->crit));
	}
	json_object_object_add(seq, "baseline_n", json_object_new_int((int)op->nbase));
	/* the spread between runs the interval holds, and how many runs
	 * measured it; absent: not measured, the interval is about two runs */
	if (!op->round && op->between_runs >= 2) {
		json_object_object_add(seq, "between_runs_pct", jround3(op->between));
		json_object_object_add(seq, "between_runs", json_object_new_int((int)op->between_runs));
		json_object_object_add(seq, "between_df", jround3(op->between_df));
	}
	json_object_object_add(seq, "change", jround3(op->change));
	json_object_object_add(rec, "sequential", seq);
}
