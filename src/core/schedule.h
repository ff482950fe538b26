/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which iteration of which step runs next (docs/ARCHITECTURE.md §3), so that
 * the run loop (src/run/step_loop.c) only runs what it is given:
 *
 *   order     sequential: every iteration of step 1 (its warm-ups first),
 *             then step 2 ...; interleaved (global.interleave): rounds of
 *             one iteration of every unfinished step (step 1, step 2, ...,
 *             step 1, ...), warm-up rounds first, so that a slow drift
 *             (thermal, page reporting, a daemon waking up) spreads over
 *             every step instead of biasing the last; the measured
 *             iterations' order is recorded in the results ("order").
 *   how many  a fixed count (iterations = N), or iterations = auto: the
 *             step's samples so far decide (core/adaptive.h).
 *
 * The schedule keeps the results' "progress" entries (done; with auto also
 * "stopped" and "seconds") and "adaptive" records, so --resume continues
 * where a run stopped: finished steps are skipped, an unfinished one runs
 * its warm-ups again and goes on from the first missing iteration, its
 * time cap counting the time already spent.
 */
#ifndef LRUBENCH_SCHEDULE_H
#define LRUBENCH_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/adaptive.h"
#include "core/results.h"

struct wl_ctx;

struct sched_step {
	size_t done;                 /* measured iterations saved */
	size_t warm_left;            /* warm-ups still to run in this process */
	bool finished;
	enum adaptive_stop stopped;  /* auto: why it finished */
	double seconds;              /* auto: time of its measured iterations (all runs) */
	size_t predicted;            /* auto: measured iterations in all, predicted; 0: unknown */
};

struct schedule {
	struct sched_step *st;
	size_t nsteps;
	char **names;                /* the steps' names (borrowed from the ctx) */
	const char *table;           /* the deciding table: the workload's first */
	bool adaptive, interleave;
	size_t iterations;           /* fixed count (not auto) */
	size_t warmup;
	struct adaptive_plan plan;   /* auto */
	const struct wl_result *baseline;   /* auto with run --baseline; NULL: none */
	json_object *noise, *noise_run;     /* the spread between runs beside it (sched_between) */
	const char *workload;
	size_t next;                 /* interleaved: where the round goes on */
	char note[64];               /* "±4.1% (goal 3%)": the last measured step's precision;
	                                "" after a warm-up */
};

/* From the steps of ctx and what res already holds (--resume). plan NULL:
 * ctx->iterations measured iterations per step. baseline: the same
 * workload's results in the baseline label (auto only; may be NULL). */
void sched_init(struct schedule *sc, const struct wl_ctx *ctx, const struct wl_result *res,
		const struct adaptive_plan *plan, bool interleave, const struct wl_result *baseline);
/* With a baseline: the spread between runs of RESULTS/noise.json beside it
 * (core/noise_file.h, NULL: none), matched against the baseline label's
 * run.json, for each deciding op of the workload (core/adaptive.h
 * between). Borrowed: they outlive the schedule. */
void sched_between(struct schedule *sc, json_object *noise, json_object *baseline_run,
		   const char *workload);
void sched_release(struct schedule *sc);

/* The next iteration: its step and number as run_step sees it (0-based
 * measured; -warmup..-1 for warm-ups). false when every step is finished. */
bool sched_next(struct schedule *sc, size_t *step, int *iteration);
/* A warm-up of step ran. */
void sched_warmed(struct schedule *sc, size_t step);
/* An op of step failed (WL_OP_FAILED): the step gets no more iterations
 * in this process, the others go on. Its progress stays as it was, so
 * --resume runs it again from its first missing iteration. */
void sched_abandon(struct schedule *sc, size_t step);
/*
 * A measured iteration of step, which took secs, was merged into res
 * (staging: what this iteration alone produced): progress, order, and with
 * auto the decision and, when the step stops, the records of its ops.
 * Returns true when the step has just finished -- the place for work that
 * follows a step's timed iterations. The caller saves res.
 */
bool sched_measured(struct schedule *sc, size_t step, double secs, struct wl_result *res,
		    const struct wl_result *staging);
/* Warm-ups and measured iterations still to come, as predicted (ETA). */
size_t sched_units_left(const struct schedule *sc);

/* The "done" count of a step's progress entry (0 when none). */
size_t sched_progress_done(json_object *progress, const char *step);

#endif
