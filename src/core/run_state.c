// SPDX-License-Identifier: GPL-2.0-or-later
/* The life of one run; see run_state.h. */
#include "core/run_state.h"
#include "core/mount_ns.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"
#include "core/progress.h"
#include "core/run_summary.h"
#include "core/schedule.h"
#include "core/sparse_root.h"
#include "core/version.h"
#include "profile/profile.h"

/* how long the other processes are watched at the start (host_state.h) */
#define BUSY_SAMPLE_SECS 0.25

/* ---- run.json ---- */

static json_object *numa_json(const struct numa_bind *b)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();

	json_object_object_add(o, "node", b->node < 0 ? json_object_new_string("none")
							: json_object_new_int(b->node));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b->cpus))
			json_object_array_add(cpus, json_object_new_int(c));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "mem_bytes", json_object_new_int64((int64_t)b->mem_bytes));
	return o;
}

static json_object *run_json_new(struct run_state *rs)
{
	json_object *o = json_object_new_object(), *wl = json_object_new_array();
	char ts[64];

	format_timestamp(rs->started, ts, sizeof(ts));
	json_object_object_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
	json_object_object_add(o, "label", json_object_new_string(rs->label));
	json_object_object_add(o, "status", json_object_new_string("interrupted"));
	json_object_object_add(o, "started", json_object_new_string(ts));
	json_object_object_add(o, "finished", NULL);
	json_object_object_add(o, "lrubench_version", json_object_new_string(LRUBENCH_VERSION));
	if (*lrubench_git_describe())
		json_object_object_add(o, "lrubench_git", json_object_new_string(lrubench_git_describe()));
	json_object_object_add(o, "pid", json_object_new_int((int)getpid()));
	json_object_object_add(o, "system", sysinfo_to_json(rs->sys));
	json_object_object_add(o, "numa_binding", numa_json(&rs->env.bind));
	json_object_object_add(o, "config", config_to_json(rs->cfg));
	for (size_t i = 0; i < rs->nwls; i++)
		json_object_array_add(wl, json_object_new_string(rs->wls[i]->name));
	json_object_object_add(o, "workloads", wl);
	return o;
}

/* system.kernel.taint_end: what the taint flags were when the run ended */
static void record_taint_end(json_object *run)
{
	json_object *sys, *k;
	unsigned long long t;
	char letters[96];

	if (!json_object_object_get_ex(run, "system", &sys) || !json_object_object_get_ex(sys, "kernel", &k) ||
	    kernel_taint_read(&t))
		return;
	kernel_taint_letters(t, letters, sizeof(letters));
	json_object_object_add(k, "taint_end", json_object_new_int64((int64_t)t));
	json_object_object_add(k, "taint_end_flags", json_object_new_string(letters));
}

static int run_json_write(struct run_state *rs, const char *status)
{
	struct strbuf err = STRBUF_INIT;
	char *path = xasprintf("%s/run.json", rs->env.label_dir);
	int ret;

	json_object_object_add(rs->run_json, "status", json_object_new_string(status));
	if (strcmp(status, "running")) {
		char ts[64];
		format_timestamp(now_realtime(), ts, sizeof(ts));
		json_object_object_add(rs->run_json, "finished", json_object_new_string(ts));
	}
	if (rs->env.facts)
		json_object_object_add(rs->run_json, "workload_facts", json_object_get(rs->env.facts));
	if (kernel_health_json(&rs->health)) {
		json_object_object_add(rs->run_json, "kernel_health",
				       json_object_get(kernel_health_json(&rs->health)));
		rs->health.changed = false;
	}
	if (rs->failed_ops)
		json_object_object_add(rs->run_json, "failed_ops", json_object_get(rs->failed_ops));
	if (strcmp(status, "running"))
		record_taint_end(rs->run_json);
	json_object_object_add(rs->run_json, "profile", profile_run_json(&rs->prof));
	ret = json_save_file(path, rs->run_json, &err);
	if (ret)
		error("%s", strbuf_str(&err));
	strbuf_release(&err);
	free(path);
	return ret;
}

/* ---- the label folder ---- */

/* Would mkdir_p(dir) work? Checked on the nearest existing ancestor, so a bad
 * -o fails before anything is created. */
int run_state_check_outdir(const char *dir)
{
	char *p = xstrdup(dir);

	for (;;) {
		if (path_exists(p)) {
			int ok = is_dir(p) && access(p, W_OK | X_OK) == 0;
			if (!ok)
				error("results folder %s is not writable (%s: %s)", dir, p,
				      is_dir(p) ? strerror(EACCES) : "not a folder");
			free(p);
			return ok ? 0 : -1;
		}
		char *slash = strrchr(p, '/');
		if (!slash) {
			free(p);
			p = xstrdup(".");
		} else if (slash == p) {
			p[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
}

static int check_label_dir(struct run_state *rs, json_object **old_run)
{
	char *runjson = xasprintf("%s/run.json", rs->env.label_dir);
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	*old_run = NULL;
	if (run_state_check_outdir(rs->outdir)) {
		ret = -1;
	} else if (!path_exists(rs->env.label_dir)) {
		if (rs->resume)
			ret = error("--resume: nothing to resume in %s (no such folder)", rs->env.label_dir);
	} else if (!path_exists(runjson)) {
		if (!rs->force)
			ret = error("%s exists but holds no run.json; use --force to reuse it or pick another --label",
				    rs->env.label_dir);
	} else {
		json_object *o = json_load_file(runjson, &err), *st = NULL;
		const char *status = "?";

		if (!o && !rs->force) {
			ret = error("%s", strbuf_str(&err));
		} else if (o) {
			if (json_object_object_get_ex(o, "status", &st))
				status = json_object_get_string(st);
			if (!strcmp(status, "complete") && !rs->force)
				ret = error("%s holds a complete run; use --force to overwrite it or pick another --label",
					    rs->env.label_dir);
			else if (strcmp(status, "complete") && !rs->force && !rs->resume)
				ret = error("%s holds a run that did not complete (status %s): --resume continues it, "
					    "--force starts over", rs->env.label_dir, status);
			else if (rs->resume && !strcmp(status, "complete"))
				ret = error("--resume: %s is already complete", rs->env.label_dir);
		}
		if (!ret && rs->resume)
			*old_run = o;
		else
			json_object_put(o);
	}
	strbuf_release(&err);
	free(runjson);
	return ret;
}

/* A resumed run continues on the kernel build the run began on: one label,
 * one kernel (unknown on either side: not held against it). */
static int check_resume_kernel(struct run_state *rs, json_object *old_run)
{
	json_object *sys, *k, *id;
	char now[129], *why;
	int ret = 0;

	if (!json_object_object_get_ex(old_run, "system", &sys) || !json_object_object_get_ex(sys, "kernel", &k) ||
	    !json_object_object_get_ex(k, "build_id", &id) || !json_object_is_type(id, json_type_string))
		return 0;
	if (!kernel_build_id_read(now, sizeof(now), &why) && strcmp(now, json_object_get_string(id)))
		ret = error("--resume: %s began on kernel build %s, this kernel is build %s: its results "
			    "would mix two kernels (--force starts over)", rs->env.label_dir,
			    json_object_get_string(id), now);
	free(why);
	return ret;
}

/* A resumed run must measure the same work as the one it continues. */
static int check_resume_config(struct run_state *rs, json_object *old_run)
{
	json_object *old_cfg, *new_cfg = config_to_json(rs->cfg);
	int ret = 0;

	if (check_resume_kernel(rs, old_run)) {
		json_object_put(new_cfg);
		return -1;
	}
	if (!json_object_object_get_ex(old_run, "config", &old_cfg)) {
		ret = error("--resume: %s/run.json has no config", rs->env.label_dir);
	} else if (!json_object_equal(old_cfg, new_cfg)) {
		struct strbuf d = STRBUF_INIT;
		json_object_object_foreach(new_cfg, sec, keys) {
			json_object *os = NULL;
			json_object_object_get_ex(old_cfg, sec, &os);
			json_object_object_foreach(keys, k, v) {
				json_object *ov = NULL;
				if (os)
					json_object_object_get_ex(os, k, &ov);
				if (!ov || strcmp(json_object_get_string(ov), json_object_get_string(v)))
					strbuf_addf(&d, "%s%s.%s=%s (was %s)", d.len ? ", " : "", sec, k,
						    json_object_get_string(v), ov ? json_object_get_string(ov) : "unset");
			}
		}
		ret = error("--resume: the config differs from the interrupted run in %s: %s",
			    rs->env.label_dir, d.len ? strbuf_str(&d) : "(workloads differ)");
		strbuf_release(&d);
	}
	json_object_put(new_cfg);
	return ret;
}

/* iterations = auto: its keys fit together; run --baseline names a label
 * folder (the same one a resumed run had) and is read. */
static int prepare_adaptive(struct run_state *rs, const struct wl_ctx *ctxs, json_object *old_run)
{
	struct strbuf err = STRBUF_INIT;
	json_object *old = NULL;
	bool any = false;
	int ret = 0;

	for (size_t i = 0; i < rs->nwls; i++)
		any |= ctxs[i].iterations == LB_AUTO;
	if (any && adaptive_plan_from_config(&rs->cfg->g, &rs->plan, &err))
		ret = error("%s", strbuf_str(&err));
	else if (rs->baseline_dir && !any)
		ret = error("--baseline %s: only iterations = auto (-i auto) stops on a baseline",
			    rs->baseline_dir);
	else if (old_run && (json_object_object_get_ex(old_run, "baseline", &old) || rs->baseline_dir) &&
		 (!old || !rs->baseline_dir || strcmp(json_object_get_string(old), rs->baseline_dir)))
		ret = error("--resume: the interrupted run in %s had %s%s, this one %s%s",
			    rs->env.label_dir, old ? "--baseline " : "no --baseline",
			    old ? json_object_get_string(old) : "",
			    rs->baseline_dir ? "--baseline " : "no --baseline",
			    rs->baseline_dir ? rs->baseline_dir : "");
	else if (rs->baseline_dir && !is_label_dir(rs->baseline_dir))
		ret = error("--baseline %s: not a label folder (it has no run.json)", rs->baseline_dir);
	if (!ret && rs->baseline_dir) {
		rs->baseline = xcalloc(1, sizeof(*rs->baseline));
		if (label_result_load(rs->baseline_dir, rs->baseline, &err))
			ret = error("--baseline: %s", strbuf_str(&err));
		for (size_t i = 0; !ret && i < rs->nwls; i++)
			if (ctxs[i].iterations == LB_AUTO &&
			    !label_result_find(rs->baseline, ctxs[i].ops->name))
				warning("--baseline %s has no %s results: its steps stop on precision alone",
					rs->baseline_dir, ctxs[i].ops->name);
	}
	strbuf_release(&err);
	return ret;
}

/* ---- scratch folder ---- */

static void remove_workdir(void *arg)
{
	remove_tree_sigsafe(arg);
}

/* ---- the iteration loop ---- */

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

	if (!rs->failed_ops)
		rs->failed_ops = json_object_new_array();
	json_object_object_add(o, "workload", json_object_new_string(wl));
	json_object_object_add(o, "step", json_object_new_string(step));
	/* "iteration 2", "warm-up 1": as the run's messages say */
	{
		char itxt[48];

		snprintf(itxt, sizeof(itxt), "%s %d", it < 0 ? "warm-up" : "iteration",
			 it < 0 ? warm + it + 1 : it + 1);
		json_object_object_add(o, "iteration", json_object_new_string(itxt));
	}
	json_object_object_add(o, "reason", json_object_new_string(why && *why ? why : "failed"));
	json_object_array_add(rs->failed_ops, o);
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
static enum wl_status profile_step(struct run_state *rs, struct wl_ctx *ctx, size_t s,
				   struct wl_result *res, const char *path, struct progress *pg,
				   int iters, int warm, size_t *profiles)
{
	struct strbuf err = STRBUF_INIT, oom = STRBUF_INIT;
	enum wl_status out = WL_OK, ps;
	double t0 = now_monotonic();

	progress_unit(pg, ctx->steps[s], iters, iters, warm);
	ps = profile_pass(&rs->prof, ctx, s, res);
	/* the kernel log of the pass is the step's; an OOM kill in it does not
	 * undo the timed samples, but it is said */
	kernel_health_poll(&rs->health, ctx->ops->name, ctx->steps[s]);
	if (kernel_health_take_run_ooms(&rs->health, &oom))
		warning("%s: %s: the kernel OOM-killed %s during the profile pass", ctx->ops->name,
			ctx->steps[s], oom.buf);
	strbuf_release(&oom);
	if (ps == WL_INTERRUPTED)
		return WL_INTERRUPTED;
	progress_set_profiled(res, ctx->steps[s]);
	if (wl_result_save(path, res, &err)) {
		error("%s", strbuf_str(&err));
		out = WL_FAILED;
	}
	if (*profiles)
		(*profiles)--;
	progress_done(pg, now_monotonic() - t0, ctx->steps[s], iters, iters, warm);
	strbuf_release(&err);
	return out;
}

/*
 * setup, then every step's warm-up and measured iterations, in the order
 * and number the schedule gives (core/schedule.h), each step's profile
 * pass after its timed iterations. An op that fails (WL_OP_FAILED) ends
 * its step -- no more iterations, no profile pass -- and the other steps
 * go on; *op_failed counts them.
 */
static enum wl_status run_workload(struct run_state *rs, struct wl_ctx *ctx, struct wl_result *res,
				   const char *path, size_t *op_failed)
{
	struct progress pg;
	struct schedule sc;
	struct strbuf err = STRBUF_INIT;
	bool adaptive = ctx->iterations == LB_AUTO;
	/* progress shows "iteration 4 (auto)" with no count */
	int iters = adaptive ? 0 : (int)ctx->iterations, warm = (int)ctx->warmup;
	size_t s, profiles = 0;   /* profile passes still to make */
	int it;
	enum wl_status out;

	out = settle(ctx->ops->setup(ctx));
	kernel_health_poll(&rs->health, ctx->ops->name, "setup");
	if (out == WL_OP_FAILED)
		out = WL_FAILED;
	if (out != WL_OK) {
		if (out != WL_INTERRUPTED)
			error("%s: setup failed", ctx->ops->name);
		return out;
	}
	sched_init(&sc, ctx, res, adaptive ? &rs->plan : NULL, rs->cfg->g.interleave,
		   rs->baseline ? label_result_find(rs->baseline, ctx->ops->name) : NULL);
	for (s = 0; s < ctx->nsteps; s++)
		if (profile_wanted(&rs->prof) && !progress_profiled(res->progress, ctx->steps[s]))
			profiles++;
	progress_begin(&pg, ctx->ops->name, sched_units_left(&sc) + profiles);
	/* --resume: steps whose timed iterations were done before, profile pass pending */
	for (s = 0; s < ctx->nsteps && out == WL_OK; s++)
		if (sc.st[s].finished && profile_wanted(&rs->prof) &&
		    !progress_profiled(res->progress, ctx->steps[s]))
			out = profile_step(rs, ctx, s, res, path, &pg, iters, warm, &profiles);
	while (out == WL_OK && sched_next(&sc, &s, &it)) {
		struct wl_result staging = { 0 };
		struct wl_samples smp;
		struct iter_counters ic;
		double t0, secs;
		enum wl_status st;
		bool finished = false;

		if (lb_stop_requested()) {
			out = WL_INTERRUPTED;
			break;
		}
		if (env_drop_caches(&rs->env)) {
			out = WL_FAILED;
			break;
		}
		staging.workload = xstrdup(ctx->ops->name);
		smp = (struct wl_samples){ &staging, ctx->ops->tables, ctx->steps[s], it, it < 0, 0,
					   json_object_new_array(), STRBUF_INIT };
		progress_unit(&pg, ctx->steps[s], it, iters, warm);
		/* where the kernel spent the time: CPU split and reclaim counters */
		profile_iter_begin(&rs->prof, &ic);
		t0 = now_monotonic();
		st = ctx->ops->run_step(ctx, s, &smp);
		secs = now_monotonic() - t0;
		/* an iteration that ended after a stop request is not saved */
		if (lb_stop_requested())
			st = WL_INTERRUPTED;
		st = after_iteration(rs, ctx, ctx->steps[s], st, &smp.why);
		if (st == WL_OP_FAILED) {
			error("%s: %s %s %d failed; going on with the next step", ctx->ops->name,
			      ctx->steps[s], it < 0 ? "warm-up" : "iteration", it < 0 ? warm + it + 1 : it + 1);
			record_failed_op(rs, ctx->ops->name, ctx->steps[s], it, warm, smp.why.buf);
			(*op_failed)++;
			/* the step ends here (no profile pass); the schedule goes on with the others */
			sched_abandon(&sc, s);
			if (profiles && profile_wanted(&rs->prof) &&
			    !progress_profiled(res->progress, ctx->steps[s]))
				profiles--;
			run_json_write(rs, "running");
		} else if (st != WL_OK) {
			if (st != WL_INTERRUPTED)
				error("%s: %s %s %d failed", ctx->ops->name, ctx->steps[s],
				      it < 0 ? "warm-up" : "iteration", it < 0 ? warm + it + 1 : it + 1);
			out = st;
		} else if (it < 0) {
			sched_warmed(&sc, s);
			progress_set_note(&pg, sc.note);
		} else {
			if (!smp.added)
				warning("%s: %s iteration %d produced no sample", ctx->ops->name,
					ctx->steps[s], it + 1);
			profile_iter_end(&rs->prof, &ic, ctx->ops->name, ctx->steps[s], it, &staging,
					 smp.pending_details);
			merge_staging(res, &staging, smp.pending_details);
			finished = sched_measured(&sc, s, secs, res, &staging);
			progress_set_note(&pg, sc.note);
			if (wl_result_save(path, res, &err)) {
				error("%s", strbuf_str(&err));
				out = WL_FAILED;
			}
		}
		/* what the kernel said is on disk as soon as it is known */
		if (out == WL_OK && rs->health.changed)
			run_json_write(rs, "running");
		/* the units left after this one, which progress_done counts */
		progress_replan(&pg, sched_units_left(&sc) + profiles + 1);
		progress_done(&pg, secs, ctx->steps[s], it, iters, warm);
		profile_iter_release(&ic);
		json_object_put(smp.pending_details);
		strbuf_release(&smp.why);
		wl_result_release(&staging);
		/* the step's timed iterations are done: one more, untimed, under the profiler */
		if (out == WL_OK && finished && profile_wanted(&rs->prof) &&
		    !progress_profiled(res->progress, ctx->steps[s]))
			out = profile_step(rs, ctx, s, res, path, &pg, iters, warm, &profiles);
	}
	progress_end(&pg);
	sched_release(&sc);
	strbuf_release(&err);
	return out;
}

/* ---- setup of the run and the whole sequence ---- */

/* Scratch folders run-<pid> of runs that were killed: nothing else removes them. */
static void remove_stale_workdirs(const char *workdir)
{
	DIR *d = opendir(workdir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "run-", 4))
			continue;
		pid = strtol(de->d_name + 4, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *p = xasprintf("%s/%s", workdir, de->d_name);
		if (remove_tree(p))
			warning("cannot remove %s, left by an earlier run", p);
		free(p);
	}
	closedir(d);
}

static int prepare_env(struct run_state *rs)
{
	struct global_opts *g = &rs->cfg->g;

	/* mounts of our own, never seen by the machine (core/mount_ns.h) */
	if (mount_ns_private(g->workdir))
		return -1;

	if (rs->cg.mode != CG_NONE) {
		if (cg_create_run_parent(&rs->cg, &rs->run_cg))
			return -1;
		rs->env.run_cg = &rs->run_cg;
	}
	if (mkdir_p(g->workdir, 0755))
		return -1;
	remove_stale_workdirs(g->workdir);
	rs->env.run_workdir = xasprintf("%s/run-%d", g->workdir, (int)getpid());
	if (mkdir(rs->env.run_workdir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", rs->env.run_workdir);
	cleanup_push("run scratch folder", remove_workdir, rs->env.run_workdir);
	return 0;
}

static void release_env(struct run_state *rs)
{
	if (rs->env.sparse_state) {
		sparse_root_teardown(rs->env.sparse_state);
		rs->env.sparse_state = NULL;
	}
	if (rs->env.run_cg) {
		cg_destroy(&rs->run_cg);
		rs->env.run_cg = NULL;
	}
	cleanup_run_all();   /* the scratch folder and anything a workload left registered */
}

int run_state_execute(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	struct wl_ctx *ctxs = xcalloc(rs->nwls, sizeof(*ctxs));
	struct wl_result *res = xcalloc(rs->nwls, sizeof(*res));
	char **summaries = xcalloc(rs->nwls, sizeof(*summaries));
	json_object *old_run = NULL;
	enum wl_status out = WL_OK;
	size_t op_failed = 0;
	int ret = LB_EXIT_OK, r0;

	rs->env.sys = rs->sys;
	rs->env.g = &rs->cfg->g;
	rs->env.label_dir = xasprintf("%s/%s", rs->outdir, rs->label);
	rs->env.log_dir = xasprintf("%s/logs", rs->env.label_dir);
	rs->env.cg = &rs->cg;
	rs->started = now_realtime();

	/* user errors first, before anything is created */
	if (check_label_dir(rs, &old_run) || (old_run && check_resume_config(rs, old_run))) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (cg_discover(&rs->cg, "/proc/mounts", "", &err)) {
		rs->cg.mode = CG_NONE;
		strbuf_reset(&err);
	}
	for (size_t i = 0; i < rs->nwls; i++) {
		struct wl_ctx *c = &ctxs[i];
		struct wl_common_opts *co = config_common(rs->cfg, rs->wls[i]->name);
		enum wl_status st;

		c->ops = rs->wls[i];
		c->env = &rs->env;
		c->opts = config_section(rs->cfg, c->ops->name);
		c->sec = config_find_section(rs->cfg, c->ops->name);
		c->iterations = co->iterations == LB_INHERIT ? rs->cfg->g.iterations : co->iterations;
		c->warmup = co->warmup == LB_INHERIT ? rs->cfg->g.warmup : co->warmup;
		if (c->ops->probe && (st = c->ops->probe(c, &err)) != WL_OK) {
			error("workload %s cannot run here: %s", c->ops->name, strbuf_str(&err));
			ret = wl_status_exit(st);
			goto out;
		}
		/* zeroed, and freed only after the cleanup registry ran (workload.h) */
		if (c->ops->priv_size)
			c->priv = xcalloc(1, c->ops->priv_size);
		if (c->ops->validate && (st = c->ops->validate(c, &err)) != WL_OK) {
			error("%s", err.len ? strbuf_str(&err) : "invalid configuration");
			ret = wl_status_exit(st);
			goto out;
		}
	}
	/* iterations = auto and --baseline: user errors too */
	if (prepare_adaptive(rs, ctxs, old_run)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (rs->dry_run)
		goto out;   /* everything a run checks before it creates anything */

	/* the kernel log from here on, and what the run measures on */
	{
		json_object *old_health = NULL;

		if (old_run)
			json_object_object_get_ex(old_run, "kernel_health", &old_health);
		kernel_health_start(&rs->health, "/dev/kmsg", NULL, old_health);
		if (!rs->health.have_log)
			warning("the kernel log cannot be read (%s): kernel warnings during the run "
				"will not be counted",
				json_object_get_string(json_object_object_get(kernel_health_json(&rs->health),
									      "log_unavailable")));
	}
	sysinfo_collect_identity(rs->sys, BUSY_SAMPLE_SECS);

	/* a requested profile this machine cannot make is exit 3, before anything exists */
	if ((r0 = profile_run_init(&rs->prof, (enum profile_kind)rs->cfg->g.profile))) {
		ret = r0;
		goto out;
	}
	/* a chroot whose / is not a mount point: refused before anything exists */
	if (mount_ns_check(rs->cfg->g.workdir, &err)) {
		error("%s", strbuf_str(&err));
		ret = LB_EXIT_UNSUPPORTED;
		goto out;
	}

	/* from here on the label folder exists and says what happened */
	if (rs->force && remove_tree(rs->env.label_dir)) {
		error("--force: cannot remove %s", rs->env.label_dir);
		ret = LB_EXIT_FAIL;
		goto out;
	}
	/* check_label_dir() found the folder writable: failing now is I/O */
	if (mkdir_p(rs->env.label_dir, 0755) || mkdir_p(rs->env.log_dir, 0755)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	rs->run_json = run_json_new(rs);
	if (rs->baseline_dir)
		json_object_object_add(rs->run_json, "baseline", json_object_new_string(rs->baseline_dir));
	if (old_run) {
		json_object *v;
		if (json_object_object_get_ex(old_run, "started", &v))
			json_object_object_add(rs->run_json, "started", json_object_get(v));
		if (json_object_object_get_ex(old_run, "workload_facts", &v))
			rs->env.facts = json_object_get(v);
		json_object_object_add(rs->run_json, "resumed", json_object_new_boolean(1));
	}
	if (run_json_write(rs, "running")) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	if (prepare_env(rs) || profile_run_setup(&rs->prof, &rs->env)) {
		out = settle(WL_FAILED);
		goto finish;
	}
	if (rs->env.run_cg && !strncmp(rs->run_cg.path, rs->cg.root, strlen(rs->cg.root)))
		rs->health.run_memcg = xstrdup(rs->run_cg.path + strlen(rs->cg.root));
	info("lrubench %s: %s on %s, results in %s", LRUBENCH_VERSION, rs->label, rs->sys->kernel_release,
	     rs->env.label_dir);
	for (size_t i = 0; i < rs->nwls && out == WL_OK; i++) {
		struct wl_ctx *c = &ctxs[i];
		char *path = xasprintf("%s/%s.json", rs->env.label_dir, c->ops->name);

		c->workdir = xasprintf("%s/%s", rs->env.run_workdir, c->ops->name);
		if (mkdir_p(c->workdir, 0755)) {
			out = WL_FAILED;
		} else if (rs->resume && path_exists(path)) {
			if (wl_result_load(path, &res[i], &err)) {
				error("--resume: %s", strbuf_str(&err));
				out = WL_FAILED;
			}
		} else {
			res[i].workload = xstrdup(c->ops->name);
		}
		if (out == WL_OK) {
			size_t failed_here = 0;

			out = run_workload(rs, c, &res[i], path, &failed_here);
			if (out == WL_OK && !failed_here)
				summaries[i] = run_summary_capture(c);
			if (c->ops->teardown)
				c->ops->teardown(c);
			kernel_health_poll(&rs->health, c->ops->name, "teardown");
			op_failed += failed_here;
		}
		free(path);
	}
finish:
	profile_run_release(&rs->prof);
	release_env(rs);
	kernel_health_poll(&rs->health, NULL, NULL);
	if (out == WL_OK && lb_stop_requested())
		out = WL_INTERRUPTED;
	if (out == WL_OK && op_failed)
		out = WL_OP_FAILED;
	run_json_write(rs, out == WL_OK ? "complete" : out == WL_INTERRUPTED ? "interrupted" : "failed");
	if (out == WL_OK || out == WL_OP_FAILED) {
		for (size_t i = 0; i < rs->nwls; i++)
			run_summary_print(&res[i], summaries[i], stdout);
		if (rs->prof.failed)
			warning("the profile of %u step%s failed (see \"profile\" in the details): the "
				"timed samples are complete", rs->prof.failed, rs->prof.failed > 1 ? "s" : "");
		info("results: %s/", rs->env.label_dir);
	}
	if (out == WL_OP_FAILED) {
		error("%zu op%s failed (run.json \"failed_ops\"); the run is marked failed", op_failed,
		      op_failed == 1 ? "" : "s");
	} else if (out == WL_INTERRUPTED) {
		error("interrupted; what was measured is in %s/ ('lrubench run --resume' with the same "
		      "options continues it)", rs->env.label_dir);
	}
	ret = wl_status_exit(out);
out:
	profile_run_release(&rs->prof);
	cleanup_run_all();
	if (ret == LB_EXIT_OK && lb_stop_requested())
		ret = LB_EXIT_INTERRUPTED;
	for (size_t i = 0; i < rs->nwls; i++) {
		for (size_t s = 0; s < ctxs[i].nsteps; s++)
			free(ctxs[i].steps[s]);
		free(ctxs[i].steps);
		free(ctxs[i].workdir);
		free(ctxs[i].priv);   /* after the registry: its undo may point here */
		free(summaries[i]);
		wl_result_release(&res[i]);
	}
	free(ctxs);
	free(res);
	free(summaries);
	json_object_put(old_run);
	json_object_put(rs->run_json);
	json_object_put(rs->env.facts);
	json_object_put(rs->failed_ops);
	rs->failed_ops = NULL;
	kernel_health_end(&rs->health);
	free(rs->env.label_dir);
	free(rs->env.log_dir);
	free(rs->env.run_workdir);
	free(rs->env.sparse_dir);
	cg_env_release(&rs->cg);
	if (rs->baseline) {
		label_result_release(rs->baseline);
		free(rs->baseline);
	}
	strbuf_release(&err);
	return ret;
}
