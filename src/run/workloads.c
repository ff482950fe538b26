// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Phase 3 of a run (run_state.h): the environment every workload runs in,
 * then the workloads one after the other.
 */
#include "run/run_state.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"
#include "core/mount_ns.h"
#include "core/run_summary.h"
#include "run/step_loop.h"

static void remove_workdir(void *arg)
{
	remove_tree_sigsafe(arg);
}

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

/* The mount namespace, the run's cgroup parent, the scratch folder: all
 * registered for cleanup (released by run_finish). */
static int prepare_env(struct run_state *rs)
{
	struct global_opts *g = &rs->cfg->g;

	/* mounts of our own, never seen by the machine (core/mount_ns.h) */
	if ((rs->private_mounts ? rs->private_mounts : mount_ns_private)(g->workdir))
		return -1;

	if (rs->cg.mode != CG_NONE) {
		if (cg_create_run_parent(&rs->cg, &rs->run_cg))
			return -1;
		rs->env.run_cg = &rs->run_cg;
	}
	/* programs run as root write by name below it (sysbench's database,
	 * perf's data, the sparse root): it must be ours alone (issue 30) */
	if (mkdir_private(g->workdir, 0755))
		return -1;
	remove_stale_workdirs(g->workdir);
	rs->env.run_workdir = xasprintf("%s/run-%d", g->workdir, (int)getpid());
	if (mkdir(rs->env.run_workdir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", rs->env.run_workdir);
	cleanup_push("run scratch folder", remove_workdir, rs->env.run_workdir);
	return 0;
}

/* Workload i: its results (--resume: as saved), its steps, its teardown. */
static enum wl_status run_one(struct run_state *rs, size_t i)
{
	struct wl_ctx *c = &rs->ctxs[i];
	struct strbuf err = STRBUF_INIT;
	char *path = xasprintf("%s/%s.json", rs->env.label_dir, c->ops->name);
	enum wl_status out = WL_OK;

	c->workdir = xasprintf("%s/%s", rs->env.run_workdir, c->ops->name);
	if (mkdir_p(c->workdir, 0755)) {
		out = WL_FAILED;
	} else if (rs->resume && path_exists(path)) {
		if (wl_result_load(path, &rs->res[i], &err)) {
			error("--resume: %s", strbuf_str(&err));
			out = WL_FAILED;
		}
	} else {
		rs->res[i].workload = xstrdup(c->ops->name);
	}
	if (out == WL_OK) {
		size_t failed_here = 0;

		out = run_workload(rs, c, &rs->res[i], path, &failed_here);
		if (out == WL_OK && !failed_here)
			rs->summaries[i] = run_summary_capture(c);
		if (c->ops->teardown)
			c->ops->teardown(c);
		kernel_health_poll(&rs->health, c->ops->name, "teardown");
		rs->op_failed += failed_here;
	}
	free(path);
	strbuf_release(&err);
	return out;
}

/* [settings], after the run's own setup and before any workload's: each
 * restored by the cleanup registry (core/knobs.h). Tried by run_check, so a
 * refusal now is the machine changing under us. */
static enum wl_status apply_settings(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	enum wl_status out = WL_OK;

	for (size_t i = 0; i < rs->knobs.n && out == WL_OK; i++) {
		struct knob *k = &rs->knobs.v[i];

		if (knob_apply(k, rs->cfg->g.workdir, &err)) {
			error("%s: settings.%s: %s", k->origin, k->name, strbuf_str(&err));
			out = WL_FAILED;
		} else {
			info("set %s = %s (was %s, restored at the end)", k->name, k->now, k->old);
		}
	}
	strbuf_release(&err);
	return out;
}

enum wl_status run_workloads(struct run_state *rs)
{
	enum wl_status out = WL_OK;

	if (prepare_env(rs) ||
	    profile_run_setup(&rs->prof, &rs->env, rs->mounts ? rs->mounts : "/proc/mounts"))
		return lb_stop_requested() ? WL_INTERRUPTED : WL_FAILED;
	if ((out = apply_settings(rs)) != WL_OK)
		return out;
	monitor_run_setup(&rs->mon, &rs->env, rs->nwls && rs->ctxs[0].verbose);
	if (rs->env.run_cg && !strncmp(rs->run_cg.path, rs->cg.root, strlen(rs->cg.root)))
		rs->health.run_memcg = xstrdup(rs->run_cg.path + strlen(rs->cg.root));
	info("lrubench %s: %s on %s, results in %s", LRUBENCH_VERSION, rs->label, rs->sys->kernel_release,
	     rs->env.label_dir);
	for (size_t i = 0; i < rs->nwls && out == WL_OK; i++)
		out = run_one(rs, i);
	return out;
}
