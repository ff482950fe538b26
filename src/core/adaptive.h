/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iterations = auto: has a step run long enough? (docs/ARCHITECTURE.md §3)
 *
 * The decision is a pure function of the samples so far, so that it can be
 * tested with generated samples and replayed on --resume. The statistics
 * are compare's own (compare/stats.h): the 95% confidence interval of an
 * op's mean row (Hmean when higher is better, else Amean), and with a
 * baseline the 95% interval of the percent change, as `compare` prints it.
 *
 * Which ops decide: the ops of the workload's FIRST table that the step
 * produced (its headline table, the one compare leads with). A step feeds
 * ops of several tables (kernbench's j4 gives elsp-4, user-4 and syst-4 in
 * one table, readtwice adds a per-memcg table); the other tables are
 * recorded with the precision they reached but never hold a step back.
 * Every deciding op of the step must be done for the step to stop:
 *
 *   without a baseline  an op is done when 100 * t(0.975, n-1) * SE / mean
 *                       <= precision (its "precision", in percent): a
 *                       stop on the spread alone, which decides nothing;
 *   with a baseline     the change is judged by the group-sequential design
 *                       of compare/sequential.h, looking after every
 *                       iteration from min_iterations to max_iterations
 *                       (Pocock-type alpha spending, alpha SEQ_ALPHA over
 *                       all looks): an op is done when the repeated
 *                       confidence interval of its percent change excludes
 *                       0 ("decided"), or lies inside ±precision
 *                       ("reached": equivalent within ±precision), or when
 *                       even at max_iterations, at the spread seen, its
 *                       interval would stay wider than ±precision and the
 *                       change seen is inside it ("too noisy": the baseline,
 *                       or this side, is too noisy for this goal; said at
 *                       once instead of at the cap). With the spread
 *                       between runs measured beside the baseline (noise
 *                       --runs; core/noise_file.h) the interval holds it:
 *                       the baseline and this side are one run each. An op
 *                       the baseline lacks falls back to the rule above.
 *
 * The caps, checked in this order after min_iterations: max_iterations
 * measured iterations (the iteration cap), then the time budget: when the
 * step's measured iterations so far plus one more of their mean duration
 * would exceed it (the time cap).
 */
#ifndef LRUBENCH_ADAPTIVE_H
#define LRUBENCH_ADAPTIVE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/util.h"
#include <json-c/json.h>

struct global_opts;

/* Why a step stopped; the names are written into the results. */
enum adaptive_stop {
	ADAPTIVE_CONTINUE = 0,
	ADAPTIVE_REACHED,      /* "reached": every deciding op is done */
	ADAPTIVE_ITER_CAP,     /* "iteration cap": max_iterations ran */
	ADAPTIVE_TIME_CAP,     /* "time cap": the time budget is spent */
	ADAPTIVE_NOISY,        /* "too noisy": an op can never be decided at this goal */
};
/* "reached", "iteration cap", "time cap", "too noisy" ("" for ADAPTIVE_CONTINUE). */
const char *adaptive_stop_name(enum adaptive_stop s);
/* The reverse; ADAPTIVE_CONTINUE for an unknown name. */
enum adaptive_stop adaptive_stop_from_name(const char *name);

struct adaptive_plan {
	double precision;            /* percent, > 0 */
	size_t min_iterations;       /* >= 2 */
	size_t max_iterations;       /* >= min_iterations */
	double time_budget;          /* seconds per step; 0: none */
	double alpha;                /* the sequential design's; 0: SEQ_ALPHA */
	double detect;               /* percent: the change the design is planned to decide
					with SEQ_POWER at the baseline's spread; 0: looks up
					to max_iterations */
};
/* The plan of [global]: precision, min_iterations, max_iterations,
 * time_budget; -1 with err naming the keys when they do not fit together. */
int adaptive_plan_from_config(const struct global_opts *g, struct adaptive_plan *p,
			      struct strbuf *err);

/* Where one deciding op stands. */
enum adaptive_op_state {
	ADAPTIVE_OP_OPEN = 0,        /* not done yet (or not computable: n < 2) */
	ADAPTIVE_OP_REACHED,         /* precise enough; baseline: equivalent within ±precision */
	ADAPTIVE_OP_DECIDED,         /* baseline: the sequential interval excludes 0 */
	ADAPTIVE_OP_NOISY,           /* baseline: can never be decided at this goal */
};

struct adaptive_op {
	/* in */
	const double *x;             /* this run's samples */
	size_t n;
	int better;                  /* BETTER_HIGHER / BETTER_LOWER */
	const double *base;          /* the baseline's samples; NULL: none */
	size_t nbase;
	unsigned round, rounds;      /* VM rounds (vm/rounds.h): this round of at most
					rounds, both sides growing; 0: a fixed baseline */
	double between;              /* percent: the spread of a run's own level on this
					machine (noise --runs; core/noise_file.h), fixed
					baseline only */
	size_t between_runs;         /* the runs that measured it; < 2: not measured */
	double between_df;           /* the degrees of freedom of its variance (noise_between) */
	/* out (adaptive_op_eval) */
	bool precision_ok;
	double precision;            /* percent: the CI half-width relative to the mean */
	bool change_ok;              /* a baseline and both sides computable */
	double change_lo, change_hi; /* percent, the sequential interval, positive is better */
	double change, change_se;    /* percent, the point estimate and its standard error */
	bool look;                   /* this count is a look of the design */
	int look_no, nlooks;         /* 1-based look, looks planned */
	double bound, crit;          /* the look's z boundary and its t critical value */
	double cap_half;             /* percent: the interval's half-width predicted at the
					last look, at the spread seen */
	size_t last_look;            /* the design's last look (count); 0: none */
	enum adaptive_op_state state;
};

/* The design's description for records and notes ("group sequential,
 * Pocock-type alpha spending"). */
#define ADAPTIVE_DESIGN "group sequential, Pocock-type alpha spending"
/* The plan's alpha (SEQ_ALPHA when unset). */
double adaptive_alpha(const struct adaptive_plan *p);

/* Into an op's record (core/results.h "adaptive"), for an op judged
 * against a baseline: "change_ci" (the sequential interval, when the last
 * count was a look) and "sequential" {design, alpha, look, looks,
 * boundary, crit, baseline_n, change} -- how the samples were gathered,
 * for compare's star and notes (docs/ARCHITECTURE.md §8). */
void adaptive_record_sequential(const struct adaptive_plan *p, const struct adaptive_op *op,
				json_object *rec);

/* Fill the outputs of op against the plan's precision. */
void adaptive_op_eval(const struct adaptive_plan *p, struct adaptive_op *op);

/* One op's precision (percent) at n samples; false when n < 2 or the mean
 * row is undefined or 0. */
bool adaptive_precision(const double *x, size_t n, int better, double *pct);

/*
 * The step's decision after n measured iterations that took `seconds`,
 * with ops[] evaluated (adaptive_op_eval). nops 0 (the step produced no
 * deciding op) counts as done once min_iterations ran.
 */
enum adaptive_stop adaptive_decide(const struct adaptive_plan *p, const struct adaptive_op *ops,
				   size_t nops, size_t n, double seconds);

/*
 * How many measured iterations in all the statistics predict this step
 * needs (for the ETA): for each open op, the smallest n' whose interval
 * t(0.975, n'-1) * s / sqrt(n') reaches the goal at the spread seen so
 * far (with a baseline the sooner of its own precision and the change's
 * interval, an estimate); the largest over the ops, within [n,
 * max_iterations] (and not below min_iterations).
 */
size_t adaptive_predict(const struct adaptive_plan *p, const struct adaptive_op *ops, size_t nops,
			size_t n);

#endif
