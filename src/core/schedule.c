// SPDX-License-Identifier: GPL-2.0-or-later
/* The order and number of iterations of a workload's steps; see schedule.h. */
#include "core/schedule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/noise_file.h"
#include "core/workload.h"

/* ---- the steps' progress entries ---- */

static json_object *progress_entry(json_object *progress, const char *step)
{
	for (size_t i = 0; progress && i < json_object_array_length(progress); i++) {
		json_object *e = json_object_array_get_idx(progress, i), *s;
		if (json_object_object_get_ex(e, "step", &s) && json_object_is_type(s, json_type_string) &&
		    !strcmp(json_object_get_string(s), step))
			return e;
	}
	return NULL;
}

size_t sched_progress_done(json_object *progress, const char *step)
{
	json_object *e = progress_entry(progress, step), *d;

	if (e && json_object_object_get_ex(e, "done", &d))
		return (size_t)json_object_get_int(d);
	return 0;
}

static json_object *progress_entry_add(struct wl_result *r, const char *step)
{
	json_object *e;

	if (!r->progress)
		r->progress = json_object_new_array();
	if ((e = progress_entry(r->progress, step)))
		return e;
	e = json_object_new_object();
	json_object_object_add(e, "step", json_object_new_string(step));
	json_object_array_add(r->progress, e);
	return e;
}

/* ---- setup ---- */

void sched_init(struct schedule *sc, const struct wl_ctx *ctx, const struct wl_result *res,
		const struct adaptive_plan *plan, bool interleave, const struct wl_result *baseline)
{
	memset(sc, 0, sizeof(*sc));
	sc->nsteps = ctx->nsteps;
	sc->names = ctx->steps;
	sc->table = ctx->ops->tables[0].title;
	sc->adaptive = plan != NULL;
	if (plan)
		sc->plan = *plan;
	sc->interleave = interleave;
	sc->iterations = (size_t)ctx->iterations;
	sc->warmup = (size_t)ctx->warmup;
	sc->baseline = plan ? baseline : NULL;
	sc->st = xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*sc->st));
	for (size_t s = 0; s < sc->nsteps; s++) {
		struct sched_step *st = &sc->st[s];
		json_object *e = progress_entry(res->progress, sc->names[s]), *v;

		st->done = sched_progress_done(res->progress, sc->names[s]);
		if (sc->adaptive) {
			if (e && json_object_object_get_ex(e, "stopped", &v))
				st->stopped = adaptive_stop_from_name(json_object_get_string(v));
			if (e && json_object_object_get_ex(e, "seconds", &v))
				st->seconds = json_object_get_double(v);
			/* a step saved at the cap without its decision cannot grow past it */
			if (!st->stopped && st->done >= sc->plan.max_iterations)
				st->stopped = ADAPTIVE_ITER_CAP;
			st->finished = st->stopped != ADAPTIVE_CONTINUE;
		} else {
			st->finished = st->done >= sc->iterations;
		}
		st->warm_left = st->finished ? 0 : sc->warmup;
	}
}

void sched_between(struct schedule *sc, json_object *noise, json_object *baseline_run,
		   const char *workload)
{
	sc->noise = sc->baseline ? noise : NULL;
	sc->noise_run = baseline_run;
	sc->workload = workload;
}

void sched_release(struct schedule *sc)
{
	free(sc->st);
	memset(sc, 0, sizeof(*sc));
}

/* ---- the order ---- */

bool sched_next(struct schedule *sc, size_t *step, int *iteration)
{
	for (size_t k = 0; k < sc->nsteps; k++) {
		size_t s = sc->interleave ? (sc->next + k) % sc->nsteps : k;
		struct sched_step *st = &sc->st[s];

		if (st->finished)
			continue;
		if (sc->interleave)
			sc->next = (s + 1) % sc->nsteps;
		*step = s;
		*iteration = st->warm_left ? -(int)st->warm_left : (int)st->done;
		return true;
	}
	return false;
}

void sched_warmed(struct schedule *sc, size_t step)
{
	if (sc->st[step].warm_left)
		sc->st[step].warm_left--;
	/* the note is the precision of the step being measured: a step that
	 * is only warming up has none yet, and another step's would mislead */
	sc->note[0] = '\0';
}

void sched_abandon(struct schedule *sc, size_t step)
{
	sc->st[step].finished = true;
	sc->st[step].warm_left = 0;
	sc->st[step].predicted = 0;
}

/* ---- the decision (iterations = auto) ---- */

static const struct op_samples *find_op(const struct wl_result *r, const char *table, const char *op)
{
	const struct result_table *t = r ? wl_result_find_table(r, table) : NULL;

	return t ? result_table_find_op(t, op) : NULL;
}

/* The deciding ops of this iteration: the ops of the first table it
 * produced, with all their samples so far and the baseline's. */
static size_t deciding_ops(const struct schedule *sc, const struct wl_result *res,
			   const struct wl_result *staging, struct adaptive_op **out)
{
	const struct result_table *t = wl_result_find_table(staging, sc->table);
	struct adaptive_op *ops;
	size_t n = 0;

	*out = NULL;
	if (!t || !t->nops)
		return 0;
	ops = xcalloc(t->nops, sizeof(*ops));
	for (size_t i = 0; i < t->nops; i++) {
		const struct op_samples *all = find_op(res, sc->table, t->ops[i].op);
		const struct op_samples *base = find_op(sc->baseline, sc->table, t->ops[i].op);

		if (!all)
			continue;
		ops[n].x = all->v;
		ops[n].n = all->n;
		ops[n].better = t->better;
		if (base && base->n) {
			ops[n].base = base->v;
			ops[n].nbase = base->n;
			if (sc->noise && !noise_file_between(sc->noise, sc->noise_run, sc->workload,
							     sc->table, t->ops[i].op, &ops[n].between,
							     &ops[n].between_runs,
							     &ops[n].between_df))
				ops[n].between_runs = 0;
		}
		adaptive_op_eval(&sc->plan, &ops[n]);
		n++;
	}
	*out = ops;
	return n;
}

static void set_note(struct schedule *sc, const struct adaptive_op *ops, size_t n)
{
	const struct adaptive_op *worst = NULL;
	double wv = -1;

	sc->note[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		double v = ops[i].change_ok ? (ops[i].change_hi - ops[i].change_lo) / 2
			 : ops[i].precision_ok ? ops[i].precision : INFINITY;
		if (ops[i].state == ADAPTIVE_OP_DECIDED)
			v = 0;
		if (v > wv) {
			wv = v;
			worst = &ops[i];
		}
	}
	if (!worst)
		return;
	if (worst->change_ok && isfinite(worst->change_hi - worst->change_lo))
		snprintf(sc->note, sizeof(sc->note), "change %+.1f%%..%+.1f%% (goal: excludes 0 or ±%g%%)",
			 worst->change_lo, worst->change_hi, sc->plan.precision);
	else if (worst->change_ok)
		snprintf(sc->note, sizeof(sc->note), "change %+.1f%% (no look here; goal ±%g%%)",
			 worst->change, sc->plan.precision);
	else if (worst->precision_ok)
		snprintf(sc->note, sizeof(sc->note), "±%.1f%% (goal %g%%)", worst->precision,
			 sc->plan.precision);
	else
		snprintf(sc->note, sizeof(sc->note), "± ? (goal %g%%)", sc->plan.precision);
}

static json_object *record_find(json_object *arr, const char *table, const char *op)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i), *t, *o;
		if (json_object_object_get_ex(e, "table", &t) && json_object_object_get_ex(e, "op", &o) &&
		    !strcmp(json_object_get_string(t), table) && !strcmp(json_object_get_string(o), op))
			return e;
	}
	return NULL;
}

/* percentages are kept to 0.001: more digits only look precise */
static double round3(double v)
{
	return round(v * 1000) / 1000;
}

static const char *op_stopped(const struct adaptive_op *op, enum adaptive_stop step_stop)
{
	if (op && op->state == ADAPTIVE_OP_DECIDED)
		return "decided";
	if (op && op->state == ADAPTIVE_OP_REACHED)
		return "reached";
	if (op && op->state == ADAPTIVE_OP_NOISY)
		return "too noisy";
	return adaptive_stop_name(step_stop);
}

/* Per op of the stopped step: how many iterations, why, how precise. */
static void write_records(struct schedule *sc, size_t step, struct wl_result *res,
			  const struct wl_result *staging, const struct adaptive_op *dops, size_t nd)
{
	const struct sched_step *st = &sc->st[step];

	if (!res->adaptive)
		res->adaptive = json_object_new_array();
	for (size_t ti = 0; ti < staging->ntables; ti++) {
		const struct result_table *t = &staging->tables[ti];
		bool decides = !strcmp(t->title, sc->table);

		for (size_t oi = 0; oi < t->nops; oi++) {
			const struct op_samples *all = find_op(res, t->title, t->ops[oi].op);
			const struct adaptive_op *d = NULL;
			json_object *rec = record_find(res->adaptive, t->title, t->ops[oi].op);
			double pct;

			if (!all)
				continue;
			for (size_t k = 0; decides && k < nd; k++)
				if (dops[k].x == all->v)
					d = &dops[k];
			if (!rec) {
				rec = json_object_new_object();
				json_object_array_add(res->adaptive, rec);
			}
			json_object_object_add(rec, "table", json_object_new_string(t->title));
			json_object_object_add(rec, "op", json_object_new_string(t->ops[oi].op));
			json_object_object_add(rec, "step", json_object_new_string(sc->names[step]));
			json_object_object_add(rec, "iterations", json_object_new_int((int)all->n));
			json_object_object_add(rec, "stopped", json_object_new_string(op_stopped(d, st->stopped)));
			json_object_object_add(rec, "precision",
					       adaptive_precision(all->v, all->n, t->better, &pct)
					       ? json_object_new_double(round3(pct)) : NULL);
			json_object_object_add(rec, "decides", json_object_new_boolean(decides));
			if (d && d->change_ok)
				adaptive_record_sequential(&sc->plan, d, rec);
		}
	}
}

/* the measured iterations this step will have in all, as predicted now */
static size_t predict(const struct schedule *sc, const struct sched_step *st,
		      const struct adaptive_op *ops, size_t n)
{
	size_t k = adaptive_predict(&sc->plan, ops, n, st->done);

	if (sc->plan.time_budget > 0 && st->done && st->seconds > 0) {
		double each = st->seconds / (double)st->done;
		double more = floor((sc->plan.time_budget - st->seconds) / each);
		size_t limit = st->done + (more > 0 ? (size_t)more : 0);

		if (limit < sc->plan.min_iterations)
			limit = sc->plan.min_iterations;
		if (k > limit)
			k = limit;
	}
	return k > st->done ? k : st->done;
}

static bool any_spread(const struct adaptive_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].precision_ok || ops[i].change_ok)
			return true;
	return false;
}

bool sched_measured(struct schedule *sc, size_t step, double secs, struct wl_result *res,
		    const struct wl_result *staging)
{
	struct sched_step *st = &sc->st[step];
	struct adaptive_op *ops;
	json_object *e;
	size_t n;

	st->done++;
	e = progress_entry_add(res, sc->names[step]);
	json_object_object_add(e, "done", json_object_new_int((int)st->done));
	if (sc->interleave) {
		json_object *o = json_object_new_object();

		if (!res->order)
			res->order = json_object_new_array();
		json_object_object_add(o, "step", json_object_new_string(sc->names[step]));
		json_object_object_add(o, "iteration", json_object_new_int((int)st->done - 1));
		json_object_array_add(res->order, o);
	}
	if (!sc->adaptive) {
		st->finished = st->done >= sc->iterations;
		return st->finished;
	}

	n = deciding_ops(sc, res, staging, &ops);
	st->seconds += secs;
	json_object_object_add(e, "seconds", json_object_new_double(round3(st->seconds)));
	st->stopped = adaptive_decide(&sc->plan, ops, n, st->done, st->seconds);
	st->predicted = st->stopped ? st->done : predict(sc, st, ops, n);
	/* no spread seen yet: guess like the other steps (sched_units_left) */
	if (!st->stopped && !any_spread(ops, n))
		st->predicted = 0;
	set_note(sc, ops, n);
	if (st->stopped) {
		st->finished = true;
		json_object_object_add(e, "stopped", json_object_new_string(adaptive_stop_name(st->stopped)));
		write_records(sc, step, res, staging, ops, n);
	}
	free(ops);
	return st->finished;
}

/* ---- ETA ---- */

size_t sched_units_left(const struct schedule *sc)
{
	size_t left = 0, known = 0, sum = 0, guess;

	if (sc->adaptive)
		for (size_t s = 0; s < sc->nsteps; s++)
			if (sc->st[s].predicted) {
				known++;
				sum += sc->st[s].predicted;
			}
	/* a step not started yet is guessed like the ones seen so far */
	guess = known ? (sum + known - 1) / known : sc->plan.min_iterations;
	if (guess < sc->plan.min_iterations)
		guess = sc->plan.min_iterations;
	for (size_t s = 0; s < sc->nsteps; s++) {
		const struct sched_step *st = &sc->st[s];
		size_t total;

		if (st->finished)
			continue;
		total = !sc->adaptive ? sc->iterations : st->predicted ? st->predicted : guess;
		left += st->warm_left + (total > st->done ? total - st->done : 1);
	}
	return left;
}
