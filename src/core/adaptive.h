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
 *                       <= precision (its "precision", in percent);
 *   with a baseline     an op is done when the 95% interval of its percent
 *                       change against the baseline excludes 0 ("decided")
 *                       or its half-width is <= precision ("reached": any
 *                       change is smaller than that). A baseline that is
 *                       itself less precise than the goal keeps that
 *                       interval wider than the goal however long this
 *                       side runs: then the op is also done ("reached")
 *                       when its own precision is. An op the baseline
 *                       lacks falls back to the rule above.
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

struct global_opts;

/* Why a step stopped; the names are written into the results. */
enum adaptive_stop {
	ADAPTIVE_CONTINUE = 0,
	ADAPTIVE_REACHED,      /* "reached": every deciding op is done */
	ADAPTIVE_ITER_CAP,     /* "iteration cap": max_iterations ran */
	ADAPTIVE_TIME_CAP,     /* "time cap": the time budget is spent */
};
/* "reached", "iteration cap", "time cap" ("" for ADAPTIVE_CONTINUE). */
const char *adaptive_stop_name(enum adaptive_stop s);
/* The reverse; ADAPTIVE_CONTINUE for an unknown name. */
enum adaptive_stop adaptive_stop_from_name(const char *name);

struct adaptive_plan {
	double precision;            /* percent, > 0 */
	size_t min_iterations;       /* >= 2 */
	size_t max_iterations;       /* >= min_iterations */
	double time_budget;          /* seconds per step; 0: none */
};
/* The plan of [global]: precision, min_iterations, max_iterations,
 * time_budget; -1 with err naming the keys when they do not fit together. */
int adaptive_plan_from_config(const struct global_opts *g, struct adaptive_plan *p,
			      struct strbuf *err);

/* Where one deciding op stands. */
enum adaptive_op_state {
	ADAPTIVE_OP_OPEN = 0,        /* not done yet (or not computable: n < 2) */
	ADAPTIVE_OP_REACHED,         /* precise enough (or change CI narrow enough) */
	ADAPTIVE_OP_DECIDED,         /* baseline: the change CI excludes 0 */
};

struct adaptive_op {
	/* in */
	const double *x;             /* this run's samples */
	size_t n;
	int better;                  /* BETTER_HIGHER / BETTER_LOWER */
	const double *base;          /* the baseline's samples; NULL: none */
	size_t nbase;
	/* out (adaptive_op_eval) */
	bool precision_ok;
	double precision;            /* percent: the CI half-width relative to the mean */
	bool change_ok;              /* a baseline and both sides computable */
	double change_lo, change_hi; /* percent, 95%, positive is better (as compare) */
	enum adaptive_op_state state;
};

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
