// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * colocate: how much a high-priority memcg suffers from low-priority ones
 * that reclaim (lrubench-colocate(7)), the interference case the review
 * asked numbers for. One step per count K of low_memcgs (op suffix K, step
 * low-K). Each iteration:
 *
 *   1. creates the high-priority memcg (high_limit) and K low-priority ones
 *      whose limit (low_limit) is below their working set (low_wss);
 *   2. starts the pressure tasks in the low memcgs (tasks.c) and waits until
 *      every low memcg is at its limit: from then on they reclaim;
 *   3. runs the probe in the high memcg for `runtime`, timing every
 *      operation into a histogram (hist.h): its p50, p99 and max are the
 *      samples; the low memcgs' reclaim counter over the probe's timed
 *      window gives their reclaim rate;
 *   4. stops the pressure and removes the memcgs.
 *
 * K = 0 is the probe alone, the baseline. swap = zram gives the anonymous
 * pressure a swap device that lrubench creates for the run and removes
 * (zram.h). Every child, memcg and the device are in the cleanup registry.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_set.h"
#include "core/cleanup.h"
#include "core/memcg_set.h"
#include "core/workload.h"
#include "core/hist.h"
#include "workloads/colocate/tasks.h"
#include "workloads/colocate/zram.h"

/* how long the low memcgs may take to reach their limits */
#define CO_SETTLE_MAX 60.0
/* a low memcg counts as reclaiming once its usage is this share of its limit */
#define CO_SETTLE_SHARE 0.9
/* the probe's preparation (reading its file once) and exit, past runtime */
#define CO_PROBE_GRACE 120.0

struct colocate_opts {
	struct ull_list low_memcgs;
	unsigned long long low_tasks;
	int low_kind;
	uint64_t low_wss;
	uint64_t low_limit;
	int probe;
	uint64_t probe_size;
	uint64_t high_limit;
	int swap;
	char *swap_size;
	double runtime;
};

static const char *const low_kinds[] = { "file", "anon", NULL };
static const char *const probe_kinds[] = { "read", "anon", NULL };
static const char *const swap_kinds[] = { "none", "zram", NULL };
enum { SWAP_NONE, SWAP_ZRAM };

/* The run's state (ctx->priv, zeroed and freed by the core after the
 * cleanup registry ran: the zram undo reads zram from here). */
struct colocate_state {
	struct zram_swap zram;
	uint64_t swap_size;
	unsigned long long max_k;
	char probe_file[PATH_MAX];
	char **low_files;          /* one per pressure task of the largest step (file kind) */
	size_t nlow_files;
	const char *reclaim_key;   /* the memory.stat counter of reclaimed pages */
};

enum { T_LATENCY, T_RECLAIM };
static const struct table_def colocate_tables[] = {
	[T_LATENCY] = { "colocate high-priority latency", "usec", BETTER_LOWER,
			{ "low-priority memcgs", "count" } },
	/* higher: the low memcgs get through their working sets faster */
	[T_RECLAIM] = { "colocate low-priority reclaim rate", "pages/s", BETTER_HIGHER,
			{ "low-priority memcgs", "count" } },
	{ NULL, NULL, 0 },
};

static void low_memcgs_default(const struct sizing *sz, char *buf, size_t len)
{
	unsigned long long top = sz->node_cpus > 0 ? (unsigned long long)sz->node_cpus : 1;

	snprintf(buf, len, top > 1 ? "0,1-%llu:x2" : "0,1", top);
}

#define COFF(f) offsetof(struct colocate_opts, f)
static const struct option_def colocate_options[] = {
	{ .name = "low_memcgs", .type = OPT_LIST, .offset = COFF(low_memcgs), .def_fn = low_memcgs_default, .quick = "0,1",
	  .max = 256,
	  .help = "counts K of low-priority memcgs, one step each (op suffix K); 0: the probe alone" },
	{ .name = "low_tasks", .type = OPT_UINT, .offset = COFF(low_tasks), .def = "1",
	  .min = 1, .max = 64,
	  .help = "pressure tasks per low-priority memcg, sharing its working set" },
	{ .name = "low_kind", .type = OPT_ENUM, .offset = COFF(low_kind), .def = "file",
	  .choices = low_kinds,
	  .help = "the low memcgs' pressure: file (read a sparse file in a loop) or anon (write anonymous "
		  "memory in a loop; needs swap = zram)" },
	{ .name = "low_wss", .type = OPT_SIZE, .offset = COFF(low_wss), .def = "512M", .quick = "96M",
	  .min = 1ULL << 20, .max = 1ULL << 42,
	  .help = "working set of each low-priority memcg, above low_limit" },
	{ .name = "low_limit", .type = OPT_SIZE, .offset = COFF(low_limit), .def = "256M", .quick = "48M",
	  .min = 16ULL << 20, .max = 1ULL << 42,
	  .help = "memory limit of each low-priority memcg, below low_wss: they reclaim" },
	{ .name = "probe", .type = OPT_ENUM, .offset = COFF(probe), .def = "read",
	  .choices = probe_kinds,
	  .help = "the high-priority probe: read (4 KiB pread of a cached file page) or anon (first write "
		  "to an anonymous page: a fault)" },
	{ .name = "probe_size", .type = OPT_SIZE, .offset = COFF(probe_size), .def = "64M", .quick = "16M",
	  .min = 1ULL << 20, .max = 1ULL << 40,
	  .help = "the probe's file (read) or anonymous region (anon)" },
	{ .name = "high_limit", .type = OPT_SIZE, .offset = COFF(high_limit), .def = "none",
	  .min = 16ULL << 20, .max = 1ULL << 50, .flags = OPTF_NONE,
	  .help = "memory limit of the high-priority memcg" },
	{ .name = "swap", .type = OPT_ENUM, .offset = COFF(swap), .def = "none",
	  .choices = swap_kinds,
	  .help = "none, or zram: swap on a zram device lrubench creates for the run and removes" },
	{ .name = "swap_size", .type = OPT_STR, .offset = COFF(swap_size), .def = "auto",
	  .flags = OPTF_AUTO,
	  .help = "size of the zram device; auto: the largest step's low working sets together" },
	{ .name = "runtime", .type = OPT_TIME, .offset = COFF(runtime), .def = "10s", .quick = "2s",
	  .min = 1, .max = 86400,
	  .help = "how long the probe measures in each iteration" },
	OPT_END,
};

static unsigned long long max_k(const struct colocate_opts *o)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < o->low_memcgs.n; i++)
		if (o->low_memcgs.v[i] > m)
			m = o->low_memcgs.v[i];
	return m;
}

static enum wl_status colocate_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	struct colocate_opts *o = ctx->opts;

	if (!ctx->env->cg || ctx->env->cg->mode == CG_NONE) {
		strbuf_addstr(why, "no memory cgroup controller is mounted (cgroup v2 with memory in "
			      "cgroup.controllers, or a v1 memory hierarchy): colocate puts the probe and "
			      "the pressure in memcgs with limits");
		return WL_UNSUPPORTED;
	}
	if (o && o->swap == SWAP_ZRAM && zram_probe(why))
		return WL_UNSUPPORTED;
	return WL_OK;
}

static enum wl_status colocate_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct colocate_opts *o = ctx->opts;
	struct colocate_state *st = ctx->priv;
	uint64_t node = ctx->env->bind.mem_bytes, need;
	char a[32], b[32];

	if (!o->low_memcgs.n) {
		strbuf_addstr(err, "colocate.low_memcgs: no counts");
		return WL_BAD_CONFIG;
	}
	st->max_k = max_k(o);
	if (o->low_limit >= o->low_wss) {
		format_size(o->low_limit, a, sizeof(a));
		format_size(o->low_wss, b, sizeof(b));
		strbuf_addf(err, "colocate.low_limit %s must be below colocate.low_wss %s: the "
			    "low-priority memcgs must reclaim", a, b);
		return WL_BAD_CONFIG;
	}
	if (o->low_wss / o->low_tasks < (1ULL << 20)) {
		strbuf_addstr(err, "colocate.low_wss: less than 1M per pressure task (low_tasks)");
		return WL_BAD_CONFIG;
	}
	if (o->low_kind == CO_ANON && o->swap != SWAP_ZRAM) {
		strbuf_addstr(err, "colocate.low_kind = anon needs colocate.swap = zram: without swap, "
			      "anonymous memory above the limit is OOM-killed, not reclaimed");
		return WL_BAD_CONFIG;
	}
	if (o->probe == CO_ANON && o->high_limit && o->high_limit < o->probe_size + (16ULL << 20)) {
		strbuf_addstr(err, "colocate.high_limit: too small for probe_size (anon) and 16M more");
		return WL_BAD_CONFIG;
	}
	if (!o->swap_size || !strcmp(o->swap_size, "auto")) {
		st->swap_size = o->low_wss * (st->max_k ? st->max_k : 1);
	} else if (parse_size(o->swap_size, &st->swap_size) || st->swap_size < (16ULL << 20)) {
		strbuf_addf(err, "colocate.swap_size: '%s' is not a size of 16M or more, or auto",
			    o->swap_size);
		return WL_BAD_CONFIG;
	}
	/* what cannot be reclaimed without swap must fit the node */
	need = o->probe_size + st->max_k * (o->low_kind == CO_ANON ? o->low_limit : 0);
	if (node && need > node / 10 * 9) {
		format_size(need, a, sizeof(a));
		format_size(node, b, sizeof(b));
		strbuf_addf(err, "colocate needs %s of memory that cannot be reclaimed, more than 90%% "
			    "of the node's %s", a, b);
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static int make_sparse(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0)
		return error_errno("cannot create %s", path);
	/* all holes: reads make clean page-cache pages without block I/O */
	if (ftruncate(fd, (off_t)size)) {
		error_errno("cannot size %s", path);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static enum wl_status colocate_setup(struct wl_ctx *ctx)
{
	struct colocate_opts *o = ctx->opts;
	struct colocate_state *st = ctx->priv;
	const char *dir;
	enum wl_status r;

	st->zram.index = -1;
	for (size_t i = 0; i < o->low_memcgs.n; i++)
		wl_add_step(ctx, "low-%llu", o->low_memcgs.v[i]);
	r = env_sparse_dir(ctx->env, &dir);
	if (r != WL_OK)
		return r;
	if (o->probe == CO_READ_OR_FILE) {
		snprintf(st->probe_file, sizeof(st->probe_file), "%s/colocate-probe", dir);
		if (make_sparse(st->probe_file, o->probe_size))
			return WL_FAILED;
	}
	if (o->low_kind == CO_READ_OR_FILE) {
		size_t n = (size_t)(st->max_k * o->low_tasks);

		st->low_files = xcalloc(n ? n : 1, sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			st->low_files[i] = xasprintf("%s/colocate-low-%zu", dir, i);
			st->nlow_files = i + 1;
			if (make_sparse(st->low_files[i], o->low_wss / o->low_tasks))
				return WL_FAILED;
		}
	}
	if (o->swap == SWAP_ZRAM) {
		char *log = env_log_path(ctx->env, "colocate-mkswap.log");
		int z;

		zram_reap_stale(ctx->env->g->workdir);
		z = zram_swap_create(&st->zram, st->swap_size, ctx->env->g->workdir, log);

		free(log);
		if (z)
			return WL_FAILED;
		info("colocate: swap on %s (%llu MiB), removed at the end", st->zram.dev,
		     (unsigned long long)(st->swap_size >> 20));
		env_fact(ctx->env, "colocate", "swap_device", json_object_new_string(st->zram.dev));
		env_fact(ctx->env, "colocate", "swap_bytes", json_object_new_int64((int64_t)st->swap_size));
	}
	return WL_OK;
}

/* Sum of the low memcgs' reclaim counter: pgsteal (v2), else pgpgout (v1,
 * which counts no reclaim of its own: a page uncharged at the limit). */
static int reclaim_count(struct colocate_state *st, const struct cgroup *cgs, size_t k,
			 uint64_t *per, uint64_t *sum)
{
	*sum = 0;
	for (size_t i = 0; i < k; i++) {
		if (!st->reclaim_key)
			st->reclaim_key = cg_stat(&cgs[i], "pgsteal", &per[i]) ? "pgpgout" : "pgsteal";
		if (cg_stat(&cgs[i], st->reclaim_key, &per[i]))
			return error("cannot read %s of %s", st->reclaim_key, cgs[i].path);
		*sum += per[i];
	}
	return 0;
}

/* A pressure task that ended on its own: killed by the OOM killer, or failed. */
static int pressure_died(struct child_set *kids)
{
	size_t i;
	int code;
	char why[128];

	if (!child_set_poll(kids, &i, &code))
		return 0;
	child_describe_code(code, why, sizeof(why));
	return error("colocate pressure task %zu (pid %d) %s%s", i, (int)kids->kids[i].pid, why,
		     code == 128 + 9 ? " (OOM-killed? the limit is below the working set "
				       "and there is no swap for anon)" : "");
}

/* Wait (bounded) until every low memcg is at its limit. */
static enum wl_status settle(struct wl_ctx *ctx, const struct cgroup *cgs, size_t k,
			     struct child_set *kids, double *secs)
{
	struct colocate_opts *o = ctx->opts;
	double t0 = now_monotonic();

	for (;;) {
		size_t at_limit = 0;

		for (size_t i = 0; i < k; i++) {
			uint64_t use = 0;

			if (cg_usage(&cgs[i], &use))
				return WL_FAILED;
			at_limit += (double)use >= CO_SETTLE_SHARE * (double)o->low_limit;
		}
		*secs = now_monotonic() - t0;
		if (at_limit == k)
			return WL_OK;
		if (pressure_died(kids))
			return WL_FAILED;
		if (*secs > CO_SETTLE_MAX) {
			error("colocate: the low-priority memcgs did not reach their limit within %.0f s",
			      CO_SETTLE_MAX);
			return WL_FAILED;
		}
		if (lb_sleep(0.05))
			return WL_INTERRUPTED;
	}
}

static uint64_t zram_stored(const struct colocate_state *st)
{
	char path[96], *text;
	unsigned long long v = 0;

	if (st->zram.index < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/mm_stat", st->zram.sysdir);
	text = read_file_str(path, NULL);
	if (text)
		sscanf(text, "%llu", &v);   /* orig_data_size: bytes swapped to it */
	free(text);
	return v;
}

/* Run the probe; snapshot the reclaim counter when its timed part starts and
 * when it ends. */
static enum wl_status run_probe(struct wl_ctx *ctx, const struct cgroup *high, const struct cgroup *low,
				size_t k, struct child_set *kids, struct probe_result *res,
				uint64_t *r0, uint64_t *r1, double *window, uint64_t *per0, uint64_t *per1)
{
	struct colocate_opts *o = ctx->opts;
	struct colocate_state *st = ctx->priv;
	char procs[PATH_MAX];
	struct probe_arg pa = { o->probe == CO_ANON ? CO_ANON : CO_READ_OR_FILE, st->probe_file,
				o->probe_size, o->runtime, (uint64_t)getpid() * 2654435761u, res };
	struct child c = { .fn = co_probe_main, .fn_arg = &pa, .bind = &ctx->env->bind,
			   .cgroup_procs = cg_procs_file(high, procs, sizeof(procs)),
			   .name = "colocate probe" };
	double deadline = now_monotonic() + o->runtime + CO_PROBE_GRACE, t0 = 0;
	bool started = false;
	int code = 0, r;

	if (child_start(&c))
		return WL_FAILED;
	for (;;) {
		r = child_wait(&c, 0.01, &code, NULL);
		if (r != 1)
			break;
		if (!started && res->ready) {
			started = true;
			t0 = now_monotonic();
			if (reclaim_count(st, low, k, per0, r0))
				goto fail;
		}
		if (lb_stop_requested()) {
			child_stop(&c, 0);
			return WL_INTERRUPTED;
		}
		if (now_monotonic() > deadline) {
			error("colocate probe (pid %d) did not end %.0f s after its runtime", (int)c.pid,
			      CO_PROBE_GRACE);
			goto fail;
		}
	}
	*window = now_monotonic() - t0;
	if (r < 0) {
		child_stop(&c, 0);
		return r == CHILD_STOP || lb_stop_requested() ? WL_INTERRUPTED : WL_FAILED;
	}
	if (code) {
		char why[128];

		child_describe_code(code, why, sizeof(why));
		if (res->err)
			error("colocate probe (pid %d) failed: %s", (int)c.pid, strerror(res->err));
		else
			error("colocate probe (pid %d) %s", (int)c.pid, why);
		return WL_FAILED;
	}
	if (!started || reclaim_count(st, low, k, per1, r1) || pressure_died(kids))
		return WL_FAILED;
	return WL_OK;
fail:
	child_stop(&c, 0);
	return WL_FAILED;
}

static void add_details(struct wl_samples *s, const struct colocate_state *st,
			const struct probe_result *res, size_t k, const uint64_t *per0,
			const uint64_t *per1, double window, double settle_s)
{
	json_object *d = json_object_new_object(), *low = json_object_new_array();
	const struct lat_hist *h = &res->hist;

	json_object_object_add(d, "ops", json_object_new_int64((int64_t)h->count));
	json_object_object_add(d, "ops_per_sec",
			       json_object_new_double(res->elapsed > 0 ? (double)h->count / res->elapsed : 0));
	json_object_object_add(d, "mean_us",
			       json_object_new_double(h->count ? (double)h->sum / (double)h->count / 1e3 : 0));
	json_object_object_add(d, "p90_us", json_object_new_double(lh_percentile(h, 90) / 1e3));
	json_object_object_add(d, "p999_us", json_object_new_double(lh_percentile(h, 99.9) / 1e3));
	json_object_object_add(d, "settle_seconds", json_object_new_double(settle_s));
	json_object_object_add(d, "window_seconds", json_object_new_double(window));
	if (k) {
		json_object_object_add(d, "reclaim_counter", json_object_new_string(st->reclaim_key));
		for (size_t i = 0; i < k; i++)
			json_object_array_add(low, json_object_new_int64((int64_t)(per1[i] - per0[i])));
	}
	json_object_object_add(d, "low_reclaimed_pages", low);
	if (st->zram.index >= 0)
		json_object_object_add(d, "zram_stored_bytes",
				       json_object_new_int64((int64_t)zram_stored(st)));
	wl_detail(s, d);
}

static enum wl_status colocate_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct colocate_opts *o = ctx->opts;
	struct colocate_state *st = ctx->priv;
	size_t k = (size_t)o->low_memcgs.v[step], nkids = k * o->low_tasks;
	struct cgroup high = { 0 }, *low = NULL;
	struct memcg_set lows = { 0 };
	struct child *kids = xcalloc(nkids + 1, sizeof(*kids));
	/* the pressure tasks run until they are stopped: no length, no deadline
	 * of their own (the probe has one) */
	struct child_set pressure = { .n = nkids, .kids = kids, .memcgs = &lows,
				      .per = o->low_tasks, .bind = &ctx->env->bind };
	struct pressure_arg *pa = xcalloc(nkids + 1, sizeof(*pa));
	uint64_t *per0 = xcalloc(k + 1, sizeof(uint64_t)), *per1 = xcalloc(k + 1, sizeof(uint64_t));
	uint64_t r0 = 0, r1 = 0;
	double window = 0, settle_s = 0;
	struct probe_result *res;
	enum wl_status ret = WL_FAILED;
	char op[32];

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		res = NULL;
		error_errno("colocate: cannot map the probe's results");
		goto out;
	}
	if (env_memcg(ctx->env, "colocate-high", o->high_limit, &high))
		goto out;
	ret = memcg_set_make_n(ctx->env, "colocate-low", 0, k, o->low_limit, &lows);
	low = lows.cg;
	if (ret != WL_OK)
		goto out;
	for (size_t i = 0; i < nkids; i++) {
		pa[i] = (struct pressure_arg){ o->low_kind == CO_ANON ? CO_ANON : CO_READ_OR_FILE,
					       st->low_files ? st->low_files[i] : NULL,
					       o->low_wss / o->low_tasks, i + 1 };
		kids[i] = (struct child){ .fn = co_pressure_main, .fn_arg = &pa[i],
					  .name = "colocate pressure" };
	}
	if ((ret = child_set_start(&pressure)) != WL_OK)
		goto out;
	if ((ret = settle(ctx, low, k, &pressure, &settle_s)) != WL_OK)
		goto out;
	ret = run_probe(ctx, &high, low, k, &pressure, res, &r0, &r1, &window, per0, per1);
	if (ret != WL_OK)
		goto out;
	snprintf(op, sizeof(op), "p50-%zu", k);
	wl_sample(s, T_LATENCY, op, lh_percentile(&res->hist, 50) / 1e3);
	snprintf(op, sizeof(op), "p99-%zu", k);
	wl_sample(s, T_LATENCY, op, lh_percentile(&res->hist, 99) / 1e3);
	snprintf(op, sizeof(op), "max-%zu", k);
	wl_sample(s, T_LATENCY, op, (double)res->hist.max / 1e3);
	if (k) {
		snprintf(op, sizeof(op), "reclaim-%zu", k);
		wl_sample(s, T_RECLAIM, op, window > 0 ? (double)(r1 - r0) / window : 0);
	}
	add_details(s, st, res, k, per0, per1, window, settle_s);
out:
	child_set_release(&pressure);
	if (memcg_set_remove(&lows) && ret == WL_OK)
		ret = WL_FAILED;
	if (cg_destroy(&high) && ret == WL_OK)
		ret = WL_FAILED;
	if (res)
		munmap(res, sizeof(*res));
	free(kids);
	free(pa);
	free(per0);
	free(per1);
	return ret;
}

static void colocate_teardown(struct wl_ctx *ctx)
{
	struct colocate_state *st = ctx->priv;

	zram_swap_destroy(&st->zram);
	for (size_t i = 0; i < st->nlow_files; i++) {
		unlink(st->low_files[i]);
		free(st->low_files[i]);
	}
	free(st->low_files);
	st->low_files = NULL;
	st->nlow_files = 0;
	if (st->probe_file[0])
		unlink(st->probe_file);
	st->probe_file[0] = '\0';
}

static void colocate_summary(struct wl_ctx *ctx, FILE *out)
{
	struct colocate_opts *o = ctx->opts;
	struct colocate_state *st = ctx->priv;
	char wss[32], lim[32];

	format_size(o->low_wss, wss, sizeof(wss));
	format_size(o->low_limit, lim, sizeof(lim));
	fprintf(out, "colocate: probe %s; low memcgs: %s pressure, working set %s over a %s limit, "
		"reclaim counted by %s%s\n", probe_kinds[o->probe], low_kinds[o->low_kind], wss, lim,
		st->reclaim_key ? st->reclaim_key : "-", o->swap == SWAP_ZRAM ? ", swap on zram" : "");
}

const struct workload_ops colocate_ops = {
	.name = "colocate",
	.summary = "interference: a probe's latency in one memcg while K others reclaim, per K",
	.options = colocate_options,
	.opts_size = sizeof(struct colocate_opts),
	.priv_size = sizeof(struct colocate_state),
	.tables = colocate_tables,
	.probe = colocate_probe,
	.validate = colocate_validate,
	.setup = colocate_setup,
	.run_step = colocate_run_step,
	.teardown = colocate_teardown,
	.print_summary = colocate_summary,
};
