// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the core offers a workload while it runs (workload.h): hook
 * statuses, samples, details, steps, memcgs under the run parent, the
 * sparse root, log paths, facts for run.json and dropping caches.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/sparse_root.h"
#include "core/workload.h"

int wl_status_exit(enum wl_status st)
{
	switch (st) {
	case WL_OK: return LB_EXIT_OK;
	case WL_BAD_CONFIG: return LB_EXIT_USAGE;
	case WL_UNSUPPORTED: return LB_EXIT_UNSUPPORTED;
	case WL_INTERRUPTED: return LB_EXIT_INTERRUPTED;
	case WL_FAILED: case WL_OP_FAILED: break;
	}
	return LB_EXIT_FAIL;
}

const char *wl_status_name(enum wl_status st)
{
	switch (st) {
	case WL_OK: return "ok";
	case WL_BAD_CONFIG: return "bad config";
	case WL_UNSUPPORTED: return "unsupported";
	case WL_INTERRUPTED: return "interrupted";
	case WL_OP_FAILED: return "op failed";
	case WL_FAILED: break;
	}
	return "failed";
}

void wl_sample(struct wl_samples *s, int table, const char *op, double v)
{
	const struct table_def *t = &s->tables[table];
	struct result_table *rt;

	if (s->discard)
		return;
	rt = wl_result_table(s->res, t->title, t->unit, t->better);
	if (!rt->x_known)
		result_table_set_x_axis(rt, t->x_axis.name, t->x_axis.unit);
	result_table_add(rt, op, v);
	if (!s->added++)
		s->first_at = now_monotonic();
}

void wl_memcg_report(struct run_env *env, struct wl_samples *s, const struct wl_memcg_report *r)
{
	if (env && env->memcg_tables)
		env->memcg_tables(s, r);
}

void wl_detail(struct wl_samples *s, json_object *obj)
{
	if (s->discard || !s->pending_details) {
		json_object_put(obj);
		return;
	}
	json_object_object_add(obj, "step", json_object_new_string(s->step));
	json_object_object_add(obj, "iteration", json_object_new_int(s->iteration));
	json_object_array_add(s->pending_details, obj);
}

void wl_add_step(struct wl_ctx *ctx, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ctx->steps = xrealloc(ctx->steps, (ctx->nsteps + 1) * sizeof(char *));
	ctx->steps[ctx->nsteps++] = strbuf_detach(&sb);
}

enum wl_status env_sparse_dir(struct run_env *env, const char **dir)
{
	struct sparse_root *sr;
	const char *d;
	char *wd;
	enum wl_status r;

	*dir = env->sparse_dir;
	if (env->sparse_dir)
		return WL_OK;
	wd = xasprintf("%s/sparse", env->run_workdir);
	if (mkdir_p(wd, 0755)) {
		free(wd);
		return WL_FAILED;
	}
	r = sparse_root_setup(env->g->sparse_root, wd, env->g->sparse_size, &sr, &d);
	free(wd);
	if (r != WL_OK)
		return r == WL_UNSUPPORTED ? WL_UNSUPPORTED : lb_stop_requested() ? WL_INTERRUPTED : WL_FAILED;
	env->sparse_state = sr;
	env->sparse_dir = xstrdup(d);
	*dir = env->sparse_dir;
	return WL_OK;
}

int env_memcg(struct run_env *env, const char *name, uint64_t limit, struct cgroup *out)
{
	memset(out, 0, sizeof(*out));
	if (!env->cg || env->cg->mode == CG_NONE || !env->run_cg)
		return error("cannot create memcg %s: no memory cgroup controller on this machine", name);
	if (cg_create(env->cg, env->run_cg, name, out))
		return -1;
	if (cg_set_limit(out, limit)) {
		cg_destroy(out);
		return -1;
	}
	return 0;
}

int env_root_memcg(struct run_env *env, struct cgroup *out)
{
	memset(out, 0, sizeof(*out));
	if (!env->cg || env->cg->mode == CG_NONE)
		return error("memcgs = 0 runs in the root memory cgroup: this machine has no memory "
			     "cgroup controller");
	return cg_borrow_root(env->cg, out);
}

char *env_log_path(struct run_env *env, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (mkdir_p(env->log_dir, 0755))
		return NULL;
	strbuf_addf(&sb, "%s/", env->log_dir);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

void env_fact(struct run_env *env, const char *workload, const char *key, json_object *val)
{
	json_object *o;

	if (!env->facts)
		env->facts = json_object_new_object();
	if (!json_object_object_get_ex(env->facts, workload, &o)) {
		o = json_object_new_object();
		json_object_object_add(env->facts, workload, o);
	}
	json_object_object_add(o, key, val);
}

int env_drop_caches(struct run_env *env)
{
	if (!env->g->drop_caches)
		return 0;
	sync();
	return write_str_file("/proc/sys/vm/drop_caches", "3");
}
