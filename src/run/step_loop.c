// SPDX-License-Identifier: GPL-2.0-or-later
/* One workload's iterations and profile passes (step_loop.h). */
#include "run/step_loop.h"

#include <string.h>
#include "core/cleanup.h"
#include "core/progress.h"
#include "core/schedule.h"
#include "run/run_json.h"

/* What the loop over one workload's schedule carries. */
struct loop {
	struct run_state *rs;
	struct wl_ctx *ctx;
	struct wl_result *res;
	const char *path;          /* <label>/<workload>.json */
	struct progress pg;
	struct schedule sc;
	int iters, warm;           /* as progress counts them (iters 0: auto) */
	bool *want_profile;        /* per step: its profile pass is still to make */
	size_t profiles;           /* how many are */
	size_t *op_failed;
};

/* Was the step's profile pass made (profile.h)? */
static bool progress_profiled(json_object *progress, const char *step)
{
	for (size_t i = 0; progress && i < json_object_array_length(progress); i++) {
		json_object *e = json_object_array_get_idx(progress, i), *s, *p;
		if (json_object_object_get_ex(e, "step", &s) && !strcmp(json_object_get_string(s), step) &&
		    json_object_object_get_ex(e, "profiled", &p))
			return json_object_get_boolean(p);
	}
	return false;
}

static void progress_set_profiled(struct wl_result *r, const char *step)
{
	for (size_t i = 0; r->progress && i < json_object_array_length(r->progress); i++) {
		json_object *e = json_object_array_get_idx(r->progress, i), *s;
		if (json_object_object_get_ex(e, "step", &s) && !strcmp(json_object_get_string(s), step)) {
			json_object_object_add(e, "profiled", json_object_new_boolean(1));
			return;
		}
	}
}

size_t run_profile_plan(const struct profile_run *pr, const struct wl_ctx *ctx,
			const struct wl_result *res, bool *want)
{
	size_t n = 0;

	for (size_t s = 0; s < ctx->nsteps; s++) {
		want[s] = profile_wanted(pr) && !progress_profiled(res->progress, ctx->steps[s]);
		n += want[s];
	}
	return n;
}

/* The step needs no profile pass any more (made, or its op failed). */
static void profile_dropped(struct loop *l, size_t s)
{
	if (l->want_profile[s]) {
		l->want_profile[s] = false;
		l->profiles--;
	}
}

static void merge_staging(struct wl_result *dst, const struct wl_result *src, json_object *details)
{
	for (size_t i = 0; i < src->ntables; i++) {
		const struct result_table *t = &src->tables[i];
		struct result_table *d = wl_result_table(dst, t->title, t->unit, t->better);

		d->explains |= t->explains;
		if (t->x_known)
			result_table_set_x_axis(d, t->x_name, t->x_unit);
		for (size_t j = 0; j < t->nops; j++)
			for (size_t k = 0; k < t->ops[j].n; k++)
				result_table_add(d, t->ops[j].op, t->ops[j].v[k]);
	}
	if (!dst->details)
		dst->details = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(details); i++)
		json_object_array_add(dst->details, json_object_get(json_object_array_get_idx(details, i)));
}

/* A hook's status as the run sees it: failing while a stop was requested
 * is being interrupted. */
static enum wl_status settle(enum wl_status st)
{
	if (st != WL_OK && st != WL_INTERRUPTED && lb_stop_requested())
		return WL_INTERRUPTED;
	return st;
}

/* An op that failed while the run went on: run.json "failed_ops". */
static void record_failed_op(struct run_state *rs, const char *wl, const char *step, int it, int warm,
			     const char *why)
{
	json_object *o = json_object_new_object();
	char itxt[48];

	if (!rs->failed_ops)
		rs->failed_ops = json_object_new_array();
	json_object_object_add(o, "workload", json_object_new_string(wl));
	json_object_object_add(o, "step", json_object_new_string(step));
	/* "iteration 2", "warm-up 1": as the run's messages say */
	snprintf(itxt, sizeof(itxt), "%s %d", it < 0 ? "warm-up" : "iteration",
		 it < 0 ? warm + it + 1 : it + 1);
	json_object_object_add(o, "iteration", json_object_new_string(itxt));
	json_object_object_add(o, "reason", json_object_new_string(why && *why ? why : "failed"));
	json_object_array_add(rs->failed_ops, o);
}

/*
 * The cache state a unit (warm-up or timed iteration) started from, as it
 * was made: run.json "page_cache", one entry per unit run, in run order
 * ({"workload", "step", "iteration": "iteration 2" | "warm-up 1",
 * "dropped": true when sync + drop_caches = 3 ran just before it}). A suite
 * that promises a warm cache (sysbench-node1: SYSBENCH_CACHE_COLD=no) is
 * checked by these records, not by its config.
 */
static void record_page_cache(struct run_state *rs, const char *wl, const char *step, int it,
			      int warm, bool dropped)
{
	json_object *o = json_object_new_object(), *old;
	char itxt[48];

	if (!rs->page_cache)   /* --resume: the records of the run continued go on */
		rs->page_cache = rs->old_run && json_object_object_get_ex(rs->old_run, "page_cache", &old) &&
				 json_object_is_type(old, json_type_array)
				 ? json_object_get(old) : json_object_new_array();
	json_object_object_add(o, "workload", json_object_new_string(wl));
	json_object_object_add(o, "step", json_object_new_string(step));
	snprintf(itxt, sizeof(itxt), "%s %d", it < 0 ? "warm-up" : "iteration",
		 it < 0 ? warm + it + 1 : it + 1);
	json_object_object_add(o, "iteration", json_object_new_string(itxt));
	json_object_object_add(o, "dropped", json_object_new_boolean(dropped));
	json_object_array_add(rs->page_cache, o);
}

/*
 * After an iteration: what the kernel logged during it counts for its
 * step, and a process of this run the kernel OOM-killed fails the op, with
 * that reason, whatever the workload made of its death.
 */
static enum wl_status after_iteration(struct run_state *rs, struct wl_ctx *ctx, const char *step,
				      enum wl_status st, struct strbuf *why)
{
	struct strbuf oom = STRBUF_INIT;

	kernel_health_poll(&rs->health, ctx->ops->name, step);
	if (st != WL_INTERRUPTED && kernel_health_take_run_ooms(&rs->health, &oom)) {
		strbuf_reset(why);
		strbuf_addf(why, "the kernel OOM-killed %s", oom.buf);
		error("%s: %s: %s", ctx->ops->name, step, why->buf);
		st = WL_OP_FAILED;
	}
	strbuf_release(&oom);
	return st;
}

/* A step's profile pass (profile.h), once its timed iterations are done. */
static enum wl_status profile_step(struct loop *l, size_t s)
{
	struct run_state *rs = l->rs;
	struct wl_ctx *ctx = l->ctx;
	struct strbuf err = STRBUF_INIT, oom = STRBUF_INIT;
	enum wl_status out = WL_OK, ps;
	double t0 = now_monotonic();

	progress_unit(&l->pg, ctx->steps[s], l->iters, l->iters, l->warm);
	ps = profile_pass(&rs->prof, ctx, s, l->res);
	/* the kernel log of the pass is the step's; an OOM kill in it does not
	 * undo the timed samples, but it is said */
	kernel_health_poll(&rs->health, ctx->ops->name, ctx->steps[s]);
	if (kernel_health_take_run_ooms(&rs->health, &oom))
		warning("%s: %s: the kernel OOM-killed %s during the profile pass", ctx->ops->name,
			ctx->steps[s], oom.buf);
	strbuf_release(&oom);
	if (ps == WL_INTERRUPTED)
		return WL_INTERRUPTED;
	progress_set_profiled(l->res, ctx->steps[s]);
	if (wl_result_save(l->path, l->res, &err)) {
		error("%s", strbuf_str(&err));
		out = WL_FAILED;
	}
	profile_dropped(l, s);
	progress_done(&l->pg, now_monotonic() - t0, ctx->steps[s], l->iters, l->iters, l->warm);
	strbuf_release(&err);
	return out;
}

/* Iteration it of step s failed its op: the step ends here (no profile
 * pass), the schedule goes on with the others. */
static void op_failed(struct loop *l, size_t s, int it, const char *why)
{
	struct wl_ctx *ctx = l->ctx;

	error("%s: %s %s %d failed; going on with the next step", ctx->ops->name, ctx->steps[s],
	      it < 0 ? "warm-up" : "iteration", it < 0 ? l->warm + it + 1 : it + 1);
	record_failed_op(l->rs, ctx->ops->name, ctx->steps[s], it, l->warm, why);
	(*l->op_failed)++;
	sched_abandon(&l->sc, s);
	profile_dropped(l, s);
	run_json_write(l->rs, "running");
}

/* One iteration (it < 0: a warm-up) of step s; *finished when it was the
 * step's last measured one. */
static enum wl_status run_iteration(struct loop *l, size_t s, int it, bool *finished)
{
	struct run_state *rs = l->rs;
	struct wl_ctx *ctx = l->ctx;
	struct wl_result staging = { 0 };
	struct wl_samples smp;
	struct iter_counters ic;
	struct monitor_iter mon;
	struct strbuf err = STRBUF_INIT;
	enum wl_status st, out = WL_OK;
	double (*now)(void) = rs->clock ? rs->clock : now_monotonic;
	double t0, secs;

	staging.workload = xstrdup(ctx->ops->name);
	smp = (struct wl_samples){ &staging, ctx->ops->tables, ctx->steps[s], it, it < 0, 0,
				   json_object_new_array(), STRBUF_INIT };
	progress_unit(&l->pg, ctx->steps[s], it, l->iters, l->warm);
	/* where the kernel spent the time: CPU split and reclaim counters */
	profile_iter_begin(&rs->prof, &ic);
	monitor_iter_begin(&rs->mon, &mon, ctx->ops->name, ctx->steps[s], it);
	t0 = now();
	st = ctx->ops->run_step(ctx, s, &smp);
	secs = now() - t0;
	/* the memory levels over time: kept whatever happened, tables only when measured */
	monitor_iter_end(&rs->mon, &mon, ctx->ops->name, ctx->steps[s], smp.first_at,
			 st == WL_OK && !lb_stop_requested(), &staging, smp.pending_details);
	/* an iteration that ended after a stop request is not saved */
	if (lb_stop_requested())
		st = WL_INTERRUPTED;
	st = after_iteration(rs, ctx, ctx->steps[s], st, &smp.why);
	if (st == WL_OP_FAILED) {
		op_failed(l, s, it, smp.why.buf);
	} else if (st != WL_OK) {
		if (st != WL_INTERRUPTED)
			error("%s: %s %s %d failed", ctx->ops->name, ctx->steps[s],
			      it < 0 ? "warm-up" : "iteration", it < 0 ? l->warm + it + 1 : it + 1);
		out = st;
	} else if (it < 0) {
		sched_warmed(&l->sc, s);
		progress_set_note(&l->pg, l->sc.note);
	} else {
		if (!smp.added)
			warning("%s: %s iteration %d produced no sample", ctx->ops->name,
				ctx->steps[s], it + 1);
		profile_iter_end(&rs->prof, &ic, ctx->ops->name, ctx->steps[s], it, &staging,
				 smp.pending_details);
		merge_staging(l->res, &staging, smp.pending_details);
		*finished = sched_measured(&l->sc, s, secs, l->res, &staging);
		progress_set_note(&l->pg, l->sc.note);
		if (wl_result_save(l->path, l->res, &err)) {
			error("%s", strbuf_str(&err));
			out = WL_FAILED;
		}
	}
	/* what the kernel said is on disk as soon as it is known */
	if (out == WL_OK && rs->health.changed)
		run_json_write(rs, "running");
	/* the units left after this one, which progress_done counts */
	progress_replan(&l->pg, sched_units_left(&l->sc) + l->profiles + 1);
	if (st == WL_INTERRUPTED)
		progress_interrupted(&l->pg, secs, ctx->steps[s], it, l->iters, l->warm);
	else
		progress_done(&l->pg, secs, ctx->steps[s], it, l->iters, l->warm);
	profile_iter_release(&ic);
	json_object_put(smp.pending_details);
	strbuf_release(&smp.why);
	strbuf_release(&err);
	wl_result_release(&staging);
	return out;
}

enum wl_status run_workload(struct run_state *rs, struct wl_ctx *ctx, struct wl_result *res,
			    const char *path, size_t *op_failed_count)
{
	bool adaptive = ctx->iterations == LB_AUTO;
	struct loop l = { rs, ctx, res, path, .op_failed = op_failed_count };
	enum wl_status out;
	size_t s;
	int it;

	out = settle(ctx->ops->setup(ctx));
	kernel_health_poll(&rs->health, ctx->ops->name, "setup");
	if (out == WL_OP_FAILED)
		out = WL_FAILED;
	if (out != WL_OK) {
		if (out != WL_INTERRUPTED)
			error("%s: setup failed", ctx->ops->name);
		return out;
	}
	/* progress shows "iteration 4 (auto)" with no count */
	l.iters = adaptive ? 0 : (int)ctx->iterations;
	l.warm = (int)ctx->warmup;
	sched_init(&l.sc, ctx, res, adaptive ? &rs->plan : NULL, rs->cfg->g.interleave,
		   rs->baseline ? label_result_find(rs->baseline, ctx->ops->name) : NULL);
	if (rs->baseline)
		sched_between(&l.sc, rs->baseline_noise, rs->baseline->run, ctx->ops->name);
	l.want_profile = xcalloc(ctx->nsteps ? ctx->nsteps : 1, sizeof(*l.want_profile));
	l.profiles = run_profile_plan(&rs->prof, ctx, res, l.want_profile);
	progress_begin(&l.pg, ctx->ops->name, sched_units_left(&l.sc) + l.profiles);
	/* --resume: steps whose timed iterations were done before, profile pass pending */
	for (s = 0; s < ctx->nsteps && out == WL_OK; s++)
		if (l.sc.st[s].finished && l.want_profile[s])
			out = profile_step(&l, s);
	while (out == WL_OK && sched_next(&l.sc, &s, &it)) {
		bool finished = false;

		if (lb_stop_requested()) {
			out = WL_INTERRUPTED;
			break;
		}
		if (env_drop_caches(&rs->env)) {
			out = WL_FAILED;
			break;
		}
		record_page_cache(rs, ctx->ops->name, ctx->steps[s], it, l.warm, rs->env.g->drop_caches);
		out = run_iteration(&l, s, it, &finished);
		/* the step's timed iterations are done: one more, untimed, under the profiler */
		if (out == WL_OK && finished && l.want_profile[s])
			out = profile_step(&l, s);
	}
	progress_end(&l.pg);
	sched_release(&l.sc);
	free(l.want_profile);
	return out;
}
