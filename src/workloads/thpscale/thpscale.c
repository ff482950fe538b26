// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thpscale: THP fault latency under fragmentation, inside memcgs (lrubench-thpscale(7),
 * after mmtests' thpscale). Per thread count T, `memcgs` instance processes
 * (each in its own memcg, bound to the run's node) run T threads each; the
 * engine (engine.c) fragments memory and times every 2 MB write
 * fault; results come back through shared memory.
 *
 * A fault kind that never occurs in an iteration gives no samples for its op
 * (no fault-huge-4 with THP disabled): an op with zero or made-up samples
 * would break the statistics, while an absent op is simply not compared.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_set.h"
#include "core/cleanup.h"
#include "core/memcg_set.h"
#include "workloads/thpscale/thp_sysfs.h"
#include "workloads/thpscale/engine.h"
#include "workloads/thpscale/layout.h"
#include "core/workload.h"

struct thpscale_opts {
	bool madvise;
	char *mapsize;             /* "auto" or a size */
	struct ull_list threads;
	unsigned long long memcgs;
	uint64_t memcg_limit;
	int thp_enabled;
	int thp_defrag;
};

static const char *const enabled_modes[] = { "keep", "always", "madvise", "never", NULL };
static const char *const defrag_modes[] = {
	"keep", "always", "defer", "defer+madvise", "madvise", "never", NULL
};

static void threads_default(const struct sizing *sz, char *buf, size_t len)
{
	thp_threads_default(sz->node_cpus > 0 ? (unsigned)sz->node_cpus : 1, buf, len);
}

#define OFF(f) offsetof(struct thpscale_opts, f)
static const struct option_def thpscale_options[] = {
	{ .name = "madvise", .type = OPT_BOOL, .offset = OFF(madvise), .def = "yes",
	  .help = "madvise(MADV_HUGEPAGE) the faulted region (so THP=madvise gives huge pages)" },
	{ .name = "mapsize", .type = OPT_STR, .offset = OFF(mapsize), .def = "auto", .quick = "256M",
	  .flags = OPTF_AUTO,
	  .help = "memory per instance (size), split between its threads; \"auto\": 80% of the node's "
		  "memory over the instances (60% with a loop sparse_root), at most 3/4 of memcg_limit" },
	{ .name = "threads", .type = OPT_LIST, .offset = OFF(threads), .def_fn = threads_default, .quick = "1,2",
	  .min = 1, .max = 1024,
	  .help = "thread counts, one step each (default 1..min(4 x node CPUs, 32), mmtests' large stride)" },
	{ .name = "memcgs", .type = OPT_UINT, .offset = OFF(memcgs), .def = "1",
	  .max = 64,
	  .help = "concurrent instances, each in its own memcg; 0: one instance in the root memory cgroup "
		  "(the controller enabled, no memcg of its own; lrubench's cgroup without a controller)" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = OFF(memcg_limit), .def = "none",
	  .flags = OPTF_NONE,
	  .help = "memory limit of each instance's memcg (none: no limit)" },
	{ .name = "thp_enabled", .type = OPT_ENUM, .offset = OFF(thp_enabled), .def = "keep",
	  .choices = enabled_modes,
	  .help = "set /sys/kernel/mm/transparent_hugepage/enabled for the run (restored after)" },
	{ .name = "thp_defrag", .type = OPT_ENUM, .offset = OFF(thp_defrag), .def = "keep",
	  .choices = defrag_modes,
	  .help = "set /sys/kernel/mm/transparent_hugepage/defrag for the run (restored after)" },
	OPT_END,
};

enum { TBL_LATENCY = 0, TBL_PCT_HUGE = 1 };
static const struct table_def thpscale_tables[] = {
	{ "thpscale Fault Latencies", "usec", BETTER_LOWER, { "threads", "count" } },
	{ "thpscale Percentage Faults Huge", "%", BETTER_HIGHER, { "threads", "count" } },
	{ NULL, NULL, 0 },
};

/* Per-step totals over measured iterations, for print_summary. */
struct step_sum {
	uint64_t vm[THP_NVMSTAT];
	uint64_t faults, huge;
	unsigned iterations;
};

/* The run's state (ctx->priv, zeroed and freed by the core). */
struct thp_priv {
	uint64_t mapsize;
	unsigned instances;
	struct memcg_set set;      /* one member per instance; the root for memcgs = 0;
				    * empty without a memory controller */
	int file_cleanup;
	/* the undo of the data file and of the THP knobs reads these from the
	 * cleanup registry, maybe in a signal handler: fixed buffers, no malloc */
	char data_file[PATH_MAX];
	struct knob knobs[2];                /* [THP_ENABLED], [THP_DEFRAG] */
	struct step_sum sums[LB_LIST_MAX];   /* one per step (a step per threads value) */
};

static void unlink_data_file(void *arg)
{
	const char *path = arg;

	if (path[0])
		unlink(path);
}

static unsigned max_threads(const struct thpscale_opts *o)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < o->threads.n; i++)
		if (o->threads.v[i] > m)
			m = o->threads.v[i];
	return (unsigned)m;
}

static unsigned nr_instances(const struct thpscale_opts *o)
{
	return o->memcgs ? (unsigned)o->memcgs : 1;
}

static enum wl_status thpscale_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	return thp_probe(why) ? WL_UNSUPPORTED : WL_OK;
}

/* Does the data file take memory? Yes when the sparse root is a loop image
 * (on a private tmpfs); no for dir:/path on a real disk. */
static bool file_in_memory(const struct wl_ctx *ctx)
{
	const struct global_opts *g = ctx->env->g;

	return !g || !g->sparse_root || strncmp(g->sparse_root, "dir:", 4);
}

/* The mapsize to use: "auto" sized from the node and the limit, or the value. */
static enum wl_status resolve_mapsize(struct wl_ctx *ctx, uint64_t *out, struct strbuf *err)
{
	struct thpscale_opts *o = ctx->opts;

	if (!o->mapsize || !strcmp(o->mapsize, "auto")) {
		*out = thp_auto_mapsize(ctx->env->bind.mem_bytes, nr_instances(o), o->memcg_limit,
					file_in_memory(ctx));
		if (!*out) {
			strbuf_addstr(err, "thpscale.mapsize: cannot size \"auto\" (node memory unknown); "
				      "give a size, e.g. 512M");
			return WL_BAD_CONFIG;
		}
		return WL_OK;
	}
	if (parse_size(o->mapsize, out)) {
		strbuf_addf(err, "thpscale.mapsize: '%s' is not a size (e.g. 512M, 4G) or auto",
			    o->mapsize);
		return WL_BAD_CONFIG;
	}
	return WL_OK;
}

static enum wl_status thpscale_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct thpscale_opts *o = ctx->opts;
	struct thp_priv *p = ctx->priv;
	const struct run_env *env = ctx->env;
	enum wl_status r;

	if (!o->threads.n) {
		strbuf_addstr(err, "thpscale.threads: no thread counts");
		return WL_BAD_CONFIG;
	}
	if (!o->memcgs && o->memcg_limit) {
		strbuf_addstr(err, "thpscale.memcg_limit needs thpscale.memcgs >= 1 "
			      "(memcgs=0 runs in the root memory cgroup, which takes no limit)");
		return WL_BAD_CONFIG;
	}
	if (o->memcgs && (!env->cg || env->cg->mode == CG_NONE)) {
		strbuf_addstr(err, "thpscale.memcgs: no memory cgroup controller on this machine; "
			      "set thpscale.memcgs=0 to run without memcgs");
		return WL_UNSUPPORTED;
	}
	r = resolve_mapsize(ctx, &p->mapsize, err);
	if (r)
		return r;
	r = thp_check_mapsize(p->mapsize, nr_instances(o), max_threads(o), env->bind.mem_bytes,
			      o->memcg_limit, file_in_memory(ctx), err);
	if (r)
		return r;
	/* the data file must fit the loop image of the sparse root */
	if (file_in_memory(ctx) && env->g && env->g->sparse_size) {
		struct thp_layout l;
		uint64_t need;

		thp_layout_init(&l, p->mapsize, 1);
		need = l.file_region * nr_instances(o);
		if (need > env->g->sparse_size / 10 * 9) {
			char a[32], b[32];

			format_size(need, a, sizeof(a));
			format_size(env->g->sparse_size, b, sizeof(b));
			strbuf_addf(err, "thpscale needs a %s data file (mapsize / 4 per instance), more "
				    "than global.sparse_size %s holds: raise global.sparse_size", a, b);
			return WL_BAD_CONFIG;
		}
	}
	/* one knob, two values: [settings] and this section (core/knobs.h) */
	for (int k = THP_ENABLED; k <= THP_DEFRAG; k++) {
		const char *want = k == THP_ENABLED ? enabled_modes[o->thp_enabled] : defrag_modes[o->thp_defrag];
		const struct knob *other = knob_set_find(ctx->env->settings, thp_knob_logical(k));

		if (strcmp(want, "keep") && other && !knob_value_matches(want, other->value)) {
			strbuf_addf(err, "thpscale.%s = %s and settings.%s = %s (%s) set one knob twice",
				    k == THP_ENABLED ? "thp_enabled" : "thp_defrag", want, other->name,
				    other->value, other->origin);
			return WL_BAD_CONFIG;
		}
	}
	/* a mode the kernel does not offer (an old kernel without
	 * defer+madvise, say): this machine cannot do what was asked */
	if (o->thp_enabled && thp_knob_offers(THP_ENABLED, enabled_modes[o->thp_enabled]) != 1) {
		strbuf_addf(err, "thpscale.thp_enabled: this kernel does not offer '%s'",
			    enabled_modes[o->thp_enabled]);
		return WL_UNSUPPORTED;
	}
	if (o->thp_defrag && thp_knob_offers(THP_DEFRAG, defrag_modes[o->thp_defrag]) != 1) {
		strbuf_addf(err, "thpscale.thp_defrag: this kernel does not offer '%s'",
			    defrag_modes[o->thp_defrag]);
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static int set_thp(struct wl_ctx *ctx, enum thp_knob k, const char *want, const char *fact)
{
	struct thp_priv *p = ctx->priv;
	char mode[64];

	if (strcmp(want, "keep") &&
	    thp_knob_set(&p->knobs[k], k, want, ctx->env->g->workdir,
			 k == THP_ENABLED ? "thpscale.thp_enabled" : "thpscale.thp_defrag"))
		return -1;
	if (thp_knob_read(k, mode, sizeof(mode)))
		return -1;
	env_fact(ctx->env, "thpscale", fact, json_object_new_string(mode));
	return 0;
}

/* mapsize was resolved by validate(), which the core always calls first */
static enum wl_status thpscale_setup(struct wl_ctx *ctx)
{
	struct thpscale_opts *o = ctx->opts;
	struct thp_priv *p = ctx->priv;
	struct thp_layout l;
	const char *dir;
	json_object *arr;
	enum wl_status r;

	p->instances = nr_instances(o);
	if (thp_layout_init(&l, p->mapsize, 1)) {
		error("thpscale.mapsize %llu is too small", (unsigned long long)p->mapsize);
		return WL_FAILED;
	}

	if (set_thp(ctx, THP_ENABLED, enabled_modes[o->thp_enabled], "thp_enabled") ||
	    set_thp(ctx, THP_DEFRAG, defrag_modes[o->thp_defrag], "thp_defrag"))
		return WL_FAILED;
	env_fact(ctx->env, "thpscale", "mapsize", json_object_new_int64((int64_t)p->mapsize));
	env_fact(ctx->env, "thpscale", "instances", json_object_new_int((int)p->instances));
	arr = json_object_new_array();
	for (size_t i = 0; i < o->threads.n; i++)
		json_object_array_add(arr, json_object_new_int64((int64_t)o->threads.v[i]));
	env_fact(ctx->env, "thpscale", "threads", arr);

	r = memcg_set_make_optional(ctx->env, "thpscale", 1, o->memcgs, o->memcg_limit, &p->set);
	if (r != WL_OK)
		return r;

	/* the data file, written once per run on a real filesystem: each
	 * instance read-faults its own mapsize / 4 of it per iteration */
	r = env_sparse_dir(ctx->env, &dir);
	if (r != WL_OK)
		return r;
	if ((size_t)snprintf(p->data_file, sizeof(p->data_file), "%s/thpscale-data", dir) >=
	    sizeof(p->data_file)) {
		p->data_file[0] = '\0';
		error("path too long: %s/thpscale-data", dir);
		return WL_FAILED;
	}
	p->file_cleanup = cleanup_push("thpscale data file", unlink_data_file, p->data_file);
	if (p->file_cleanup < 0 || thp_write_data_file(p->data_file, l.file_region * p->instances))
		return WL_FAILED;

	for (size_t i = 0; i < o->threads.n; i++)
		wl_add_step(ctx, "threads-%llu", o->threads.v[i]);
	return WL_OK;
}

static int read_vmstat(uint64_t v[THP_NVMSTAT])
{
	char *text = read_file_str("/proc/vmstat", NULL);

	if (!text)
		return error("cannot read /proc/vmstat: %s", strerror(errno));
	thp_vmstat_parse(text, v);
	free(text);
	return 0;
}

/* The instances of one step, for the child set's callbacks. */
struct thp_round {
	struct thp_shared *sh;
	enum wl_status ret;
};

static void instance_what(void *data, size_t i, char *buf, size_t len)
{
	(void)data;
	snprintf(buf, len, "thpscale instance %zu", i + 1);
}

/* An instance that failed breaks the barrier, so the others end too. */
static void instance_ended(void *data, size_t i, int code)
{
	struct thp_round *rd = data;
	char desc[64];

	if (!code)
		return;
	child_describe_code(code, desc, sizeof(desc));
	error("thpscale instance %zu %s", i + 1, desc);
	thp_shared_abort(rd->sh);
	rd->ret = WL_FAILED;
}

/* Stuck or interrupted: break the barrier before the instances are stopped. */
static void instances_stopping(void *data)
{
	struct thp_round *rd = data;

	thp_shared_abort(rd->sh);
}

/* Start the instances, one per member of the memcg set, and wait for all of
 * them (core/child_set.h). An instance whose process used no CPU for
 * global.stuck_timeout is stuck: WL_OP_FAILED, why says which. */
static enum wl_status run_instances(struct wl_ctx *ctx, struct thp_shared *sh, const struct thp_layout *l,
				    struct strbuf *why)
{
	struct thp_priv *p = ctx->priv;
	struct thpscale_opts *o = ctx->opts;
	unsigned n = p->instances;
	struct child *c = xcalloc(n, sizeof(*c));
	struct thp_instance *in = xcalloc(n, sizeof(*in));
	struct thp_round rd = { sh, WL_OK };
	struct child_set set = {
		.n = n, .kids = c, .memcgs = &p->set, .per = 1, .bind = &ctx->env->bind,
		.length = -1, .stuck_timeout = ctx->env->g->stuck_timeout, .stop_grace = 2.0,
		.data = &rd, .what = instance_what, .ended = instance_ended,
		.stopping = instances_stopping,
	};
	enum wl_status ret;

	for (unsigned i = 0; i < n; i++) {
		in[i] = (struct thp_instance){ .sh = sh, .layout = l, .index = i,
					       .file = p->data_file, .madvise = o->madvise };
		c[i].fn = thp_instance_main;
		c[i].fn_arg = &in[i];
		c[i].name = "thpscale instance";
	}
	ret = child_set_start(&set);
	if (ret == WL_OK)
		ret = child_set_wait(&set, why);
	if (ret == WL_OK)
		ret = rd.ret;
	child_set_release(&set);
	free(in);
	free(c);
	return ret;
}

static enum wl_status thpscale_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct thp_priv *p = ctx->priv;
	struct thpscale_opts *o = ctx->opts;
	unsigned T = (unsigned)o->threads.v[step];
	uint64_t before[THP_NVMSTAT], after[THP_NVMSTAT], faults = 0, huge = 0;
	double anon_us = 0, file_us = 0;
	char op[48];
	struct thp_layout l;
	struct thp_shared *sh;
	json_object *d, *vm;
	struct step_sum *sum = &p->sums[step];
	enum wl_status r;

	if (thp_layout_init(&l, p->mapsize, T)) {
		error("thpscale.mapsize is too small for %u threads", T);
		return WL_FAILED;
	}
	sh = thp_shared_create(p->instances, T, l.nr_faults);
	if (!sh)
		return WL_FAILED;
	if (read_vmstat(before)) {
		thp_shared_destroy(sh);
		return WL_FAILED;
	}
	r = run_instances(ctx, sh, &l, &s->why);
	if (r == WL_OK && read_vmstat(after))
		r = WL_FAILED;
	/* every thread must have made every fault */
	for (unsigned i = 0; r == WL_OK && i < p->instances * T; i++) {
		const struct thp_thread_result *t = &sh->res[i];
		if (t->failed || t->faults != l.nr_faults) {
			error("thpscale instance %u thread %u: %s", i / T + 1, i % T,
			      t->msg[0] ? t->msg : "incomplete");
			r = WL_FAILED;
		}
	}
	if (r == WL_OK) {
		/* a kind that never occurred gives no samples (no op) */
		size_t total = (size_t)p->instances * T * l.nr_faults;
		for (int kind = THP_BASE; kind <= THP_HUGE; kind++) {
			snprintf(op, sizeof(op), "fault-%s-%u", kind == THP_HUGE ? "huge" : "base", T);
			for (size_t k = 0; k < total; k++)
				if (sh->kind[k] == kind)
					wl_sample(s, TBL_LATENCY, op, sh->lat_us[k]);
		}
		snprintf(op, sizeof(op), "fault-both-%u", T);
		for (size_t k = 0; k < total; k++) {
			wl_sample(s, TBL_LATENCY, op, sh->lat_us[k]);
			huge += sh->kind[k] == THP_HUGE;
		}
		faults = total;
		snprintf(op, sizeof(op), "huge-%u", T);
		wl_sample(s, TBL_PCT_HUGE, op, 100.0 * (double)huge / (double)faults);

		for (unsigned i = 0; i < p->instances * T; i++) {
			anon_us += sh->res[i].anon_init_us;
			file_us += sh->res[i].file_init_us;
		}
		d = json_object_new_object();
		json_object_object_add(d, "threads", json_object_new_int((int)T));
		json_object_object_add(d, "instances", json_object_new_int((int)p->instances));
		json_object_object_add(d, "faults", json_object_new_int64((int64_t)faults));
		json_object_object_add(d, "faults_huge", json_object_new_int64((int64_t)huge));
		json_object_object_add(d, "faults_base", json_object_new_int64((int64_t)(faults - huge)));
		json_object_object_add(d, "anon_init_us_mean",
				       json_object_new_double(anon_us / (p->instances * T)));
		json_object_object_add(d, "file_init_us_mean",
				       json_object_new_double(file_us / (p->instances * T)));
		vm = json_object_new_object();
		for (int k = 0; k < THP_NVMSTAT; k++) {
			if (before[k] == THP_VMSTAT_MISSING || after[k] == THP_VMSTAT_MISSING)
				continue;
			json_object_object_add(vm, thp_vmstat_keys[k],
					       json_object_new_int64((int64_t)(after[k] - before[k])));
			if (!s->discard)
				sum->vm[k] += after[k] - before[k];
		}
		json_object_object_add(d, "vmstat", vm);
		wl_detail(s, d);
		if (!s->discard) {
			sum->faults += faults;
			sum->huge += huge;
			sum->iterations++;
		}
	}
	thp_shared_destroy(sh);
	return r;
}

static void thpscale_teardown(struct wl_ctx *ctx)
{
	struct thp_priv *p = ctx->priv;

	memcg_set_remove(&p->set);
	if (p->file_cleanup > 0)
		cleanup_pop(p->file_cleanup, true);
	p->file_cleanup = 0;
	/* the THP knobs go back even if setup failed half-way */
	thp_knob_restore(&p->knobs[THP_DEFRAG]);
	thp_knob_restore(&p->knobs[THP_ENABLED]);
}

static void thpscale_print_summary(struct wl_ctx *ctx, FILE *out)
{
	const struct thp_priv *p = ctx->priv;

	for (size_t i = 0; i < ctx->nsteps && i < LB_LIST_MAX; i++) {
		const struct step_sum *ss = &p->sums[i];

		if (!ss->iterations)
			continue;
		fprintf(out, "thpscale %s: %llu faults, %.1f%% huge; vmstat over %u iteration%s:",
			ctx->steps[i], (unsigned long long)ss->faults,
			ss->faults ? 100.0 * (double)ss->huge / (double)ss->faults : 0.0,
			ss->iterations, ss->iterations > 1 ? "s" : "");
		for (int k = 0; k < THP_NVMSTAT; k++)
			fprintf(out, " %s=%llu", thp_vmstat_keys[k], (unsigned long long)ss->vm[k]);
		fputc('\n', out);
	}
}

const struct workload_ops thpscale_ops = {
	.name = "thpscale",
	.summary = "THP fault latency and huge-page success under fragmentation, per thread count",
	.options = thpscale_options,
	.opts_size = sizeof(struct thpscale_opts),
	.priv_size = sizeof(struct thp_priv),
	.tables = thpscale_tables,
	.probe = thpscale_probe,
	.validate = thpscale_validate,
	.setup = thpscale_setup,
	.run_step = thpscale_run_step,
	.teardown = thpscale_teardown,
	.print_summary = thpscale_print_summary,
};
