// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmapread: page-cache faults and LRU insertion as the number of memcgs grows
 * (lrubench-mmapread(7)), after vm-scalability's case-lru-file-mmap-read.
 * One step per memcg count N (op "memcgs-N", readtwice's axis); each
 * iteration creates N fresh memcgs, runs tasks_per_memcg tasks in each (N =
 * 0: one set of tasks in the root memory cgroup), every task maps a sparse
 * file of its own (or, shared_file, all of them the same one) and reads it
 * page by page for `runtime` (mapper.c), and removes the memcgs again. The
 * tasks start together and time themselves (core/task_round.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/file_plan.h"
#include "core/file_sizing.h"
#include "core/memcg_optional.h"
#include "core/task_round.h"
#include "core/workload.h"
#include "workloads/mmapread/mapper.h"

/* a step of more tasks than this is a typo, not an experiment */
#define MR_MAX_TASKS 16384
/* seconds past runtime before a task counts as stuck */
#define MR_GRACE 60

struct mmapread_opts {
	struct ull_list memcgs;
	unsigned long long tasks_per_memcg;
	uint64_t file_size;
	bool shared_file;
	int evict;
	uint64_t memcg_limit;
	double runtime;
};

enum { EVICT_FADVISE, EVICT_RECLAIM };
static const char *const evict_modes[] = { "fadvise", "reclaim", NULL };

struct mmapread_state {
	char **files;          /* one per task of the largest step, or one shared */
	size_t nfiles;
	uint64_t file_size;    /* file_size, or what auto sized (core/file_sizing.h) */
};

enum { T_AGGREGATE, T_PER_TASK };

static const struct table_def mmapread_tables[] = {
	[T_AGGREGATE] = { "mmapread MB/s aggregate", "MB/s", BETTER_HIGHER, { "memory cgroups", "count" } },
	[T_PER_TASK] = { "mmapread MB/s per task", "MB/s", BETTER_HIGHER, { "memory cgroups", "count" } },
	{ NULL, NULL, 0 },
};

/* memory.stat counters whose deltas go into the details (absent ones skipped) */
static const char *const stat_keys[] = { "pgfault", "pgmajfault", "workingset_refault" };

/* readtwice's axis: 1, 2, 4, ... up to twice the node's CPUs */
static void memcgs_default(const struct sizing *sz, char *buf, size_t len)
{
	unsigned long long top = sz->node_cpus > 0 ? 2ULL * (unsigned long long)sz->node_cpus : 4;

	snprintf(buf, len, "1-%llu:x2", top);
}

#define MOFF(f) offsetof(struct mmapread_opts, f)
static const struct option_def mmapread_options[] = {
	{ "memcgs", OPT_LIST, MOFF(memcgs), NULL, memcgs_default, "0,1,2", 0, 4096, NULL, 0,
	  "memcg counts to sweep; each count N is the op memcgs-N; 0: one set of tasks in the root "
	  "memory cgroup (the controller enabled, no memcg of their own)" },
	{ "tasks_per_memcg", OPT_UINT, MOFF(tasks_per_memcg), "2", NULL, NULL, 1, 1024, NULL, 0,
	  "tasks per memcg, each mapping and reading its file (vm-scalability: one per CPU)" },
	{ "file_size", OPT_SIZE, MOFF(file_size), "1G", NULL, "128M", 1ULL << 20, 1ULL << 42, NULL,
	  OPTF_AUTO, "size of each task's sparse file (of the one file with shared_file): one pass "
	  "reads it; auto: vm-scalability's ROTATE_BYTES = min(4T, 256 x MemAvailable) divided by "
	  "the tasks of the largest step (case-lru-file-mmap-read), whole with shared_file" },
	{ "shared_file", OPT_BOOL, MOFF(shared_file), "no", NULL, NULL, 0, 0, NULL, 0,
	  "yes: every task of the step maps the same file; no: one file per task" },
	{ "evict", OPT_ENUM, MOFF(evict), "fadvise", NULL, NULL, 0, 0, evict_modes, 0,
	  "after each pass: fadvise drops the file's pages (every fault inserts a page); reclaim "
	  "keeps them (they leave by reclaim only, vm-scalability's way: files above the limit)" },
	{ "memcg_limit", OPT_SIZE, MOFF(memcg_limit), "none", NULL, NULL, 16ULL << 20, 1ULL << 50,
	  NULL, OPTF_NONE, "memory limit of each memcg (not of the root cgroup of memcgs = 0)" },
	{ "runtime", OPT_TIME, MOFF(runtime), "20s", NULL, "3s", 1, 86400, NULL, 0,
	  "how long the tasks read in each iteration" },
	OPT_END,
};

static size_t step_groups(unsigned long long memcgs)
{
	return memcgs ? (size_t)memcgs : 1;   /* memcgs = 0: one group, in the root cgroup */
}

static enum wl_status mmapread_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	struct mmapread_opts *o = ctx->opts;

	/* without a controller only memcgs = 0 can run: no memcg, said so in the results */
	if (!ctx->env->cg || ctx->env->cg->mode == CG_NONE)
		return memcgs_without_controller(&o->memcgs, "mmapread", why);
	return WL_OK;
}

static enum wl_status mmapread_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct mmapread_opts *o = ctx->opts;

	if (!o->memcgs.n) {
		strbuf_addstr(err, "mmapread.memcgs: no memcg counts");
		return WL_BAD_CONFIG;
	}
	for (size_t i = 0; i < o->memcgs.n; i++) {
		unsigned long long n = step_groups(o->memcgs.v[i]) * o->tasks_per_memcg;

		if (n > MR_MAX_TASKS) {
			strbuf_addf(err, "mmapread: memcgs-%llu with %llu tasks_per_memcg is %llu tasks, "
				    "more than %d", o->memcgs.v[i], o->tasks_per_memcg, n, MR_MAX_TASKS);
			return WL_BAD_CONFIG;
		}
	}
	if (o->evict == EVICT_RECLAIM && !o->memcg_limit && o->file_size != LB_SIZE_AUTO)
		warning("mmapread.evict = reclaim without a memcg_limit: unless the files together "
			"exceed memory, passes after the first find their pages cached (no insertion)");
	return WL_OK;
}

static enum wl_status mmapread_setup(struct wl_ctx *ctx)
{
	struct mmapread_opts *o = ctx->opts;
	struct mmapread_state *st = ctx->priv;
	const char *dir;
	size_t most = 1, tasks;
	enum wl_status r;

	for (size_t i = 0; i < o->memcgs.n; i++) {
		size_t n = step_groups(o->memcgs.v[i]) * o->tasks_per_memcg;

		wl_add_step(ctx, "memcgs-%llu", o->memcgs.v[i]);
		if (n > most)
			most = n;
	}
	tasks = most;
	if (o->shared_file)
		most = 1;
	r = env_sparse_dir(ctx->env, &dir);
	if (r != WL_OK)
		return r;
	/* auto: the stock case's ROTATE_BYTES / nr_task a task; one shared file gets all of it */
	st->file_size = file_size_resolve(ctx->env, "mmapread", o->file_size, most,
					  o->shared_file ? 1 : tasks, 1ULL << 20,
					  o->shared_file ? "ROTATE_BYTES, one shared file" :
					  "ROTATE_BYTES / tasks of the largest step (case-lru-file-mmap-read)");
	st->files = xcalloc(most, sizeof(char *));
	for (size_t f = 0; f < most; f++) {
		int fd;

		st->files[f] = xasprintf("%s/mmapread-%zu", dir, f);
		st->nfiles = f + 1;
		fd = open(st->files[f], O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			error_errno("cannot create %s", st->files[f]);
			return WL_FAILED;
		}
		/* all holes: every fault makes a clean page-cache page, no block I/O */
		if (ftruncate(fd, (off_t)st->file_size)) {
			error_errno("cannot size %s", st->files[f]);
			close(fd);
			return WL_FAILED;
		}
		close(fd);
	}
	env_fact(ctx->env, "mmapread", "files", json_object_new_int64((int64_t)most));
	return WL_OK;
}

static void stats_snapshot(const struct cgroup *cgs, size_t n, uint64_t *vals, bool *have)
{
	for (size_t k = 0; k < ARRAY_SIZE(stat_keys); k++) {
		have[k] = n > 0;
		for (size_t m = 0; m < n; m++)
			if (cg_stat(&cgs[m], stat_keys[k], &vals[m * ARRAY_SIZE(stat_keys) + k]))
				have[k] = false;
	}
}

static void add_details(struct wl_samples *s, const struct round_slot *slots, size_t ntasks,
			size_t groups, const uint64_t *before, const uint64_t *after,
			const bool *have_b, const bool *have_a)
{
	json_object *d = json_object_new_object(), *mbps = json_object_new_array(),
		    *cpus = json_object_new_array(), *nodes = json_object_new_array();
	size_t nk = ARRAY_SIZE(stat_keys);

	for (size_t i = 0; i < ntasks; i++) {
		json_object_array_add(mbps, json_object_new_double(round_mbps(slots[i].bytes,
									    slots[i].elapsed)));
		/* where the tasks ran: evidence that the NUMA binding held */
		json_object_array_add(cpus, json_object_new_int(slots[i].cpu));
		json_object_array_add(nodes, json_object_new_int(slots[i].node));
	}
	json_object_object_add(d, "task_mbps", mbps);
	json_object_object_add(d, "task_cpus", cpus);
	json_object_object_add(d, "task_nodes", nodes);
	if (!groups)
		json_object_object_add(d, "memory_controller", json_object_new_string(NO_MEMCG_NOTE));
	for (size_t k = 0; k < nk; k++) {
		uint64_t total = 0;
		char key[64];

		if (!have_b[k] || !have_a[k])
			continue;
		for (size_t m = 0; m < groups; m++)
			total += after[m * nk + k] - before[m * nk + k];
		snprintf(key, sizeof(key), "%s_total", stat_keys[k]);
		json_object_object_add(d, key, json_object_new_int64((int64_t)total));
	}
	wl_detail(s, d);
}

static enum wl_status mmapread_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct mmapread_opts *o = ctx->opts;
	struct mmapread_state *st = ctx->priv;
	unsigned long long want = o->memcgs.v[step];
	size_t groups = step_groups(want), per = o->tasks_per_memcg, ntasks = groups * per, made = 0;
	/* no memory controller (memcgs = 0 only, probe): the tasks stay in our cgroup */
	bool nocg = !ctx->env->cg || ctx->env->cg->mode == CG_NONE;
	size_t ncg = nocg ? 0 : groups;
	size_t nk = ARRAY_SIZE(stat_keys);
	struct cgroup *cgs = xcalloc(groups, sizeof(*cgs));
	char (*procs)[4096] = xcalloc(groups, sizeof(*procs));
	struct mr_task *mt = xcalloc(ntasks, sizeof(*mt));
	struct round_task *rt = xcalloc(ntasks, sizeof(*rt));
	struct round_slot *slots = xcalloc(ntasks, sizeof(*slots));
	uint64_t *before = xcalloc(groups * nk, sizeof(uint64_t)), *after = xcalloc(groups * nk, sizeof(uint64_t));
	bool have_b[ARRAY_SIZE(stat_keys)], have_a[ARRAY_SIZE(stat_keys)];
	struct round_spec spec;
	enum wl_status ret = WL_FAILED;
	double agg = 0;
	char op[32];

	if (!want && !nocg) {
		if (env_root_memcg(ctx->env, &cgs[0]))
			goto out;
		made = 1;
	}
	for (; made < ncg; made++) {
		char name[64];

		if (lb_stop_requested()) {
			ret = WL_INTERRUPTED;
			goto out;
		}
		snprintf(name, sizeof(name), "mmapread-%zu", made);
		if (env_memcg(ctx->env, name, o->memcg_limit, &cgs[made]))
			goto out;
	}
	for (size_t i = 0; i < ntasks; i++) {
		mt[i] = (struct mr_task){ .file = st->files[o->shared_file ? 0 : i],
					  .fadvise = o->evict == EVICT_FADVISE, .fd = -1 };
		rt[i] = (struct round_task){ &mt[i], nocg ? NULL : cg_procs_file(&cgs[i / per], procs[i / per],
									   sizeof(procs[i / per])) };
	}
	spec = (struct round_spec){ ntasks, rt, mr_prepare, mr_work, &ctx->env->bind, o->runtime,
				    MR_GRACE, "mmapread task" };
	stats_snapshot(cgs, ncg, before, have_b);
	switch (round_run(&spec, slots)) {
	case 0: break;
	case -2: ret = WL_INTERRUPTED; goto out;
	default: goto out;
	}
	stats_snapshot(cgs, ncg, after, have_a);
	for (size_t i = 0; i < ntasks; i++)
		agg += round_mbps(slots[i].bytes, slots[i].elapsed);
	snprintf(op, sizeof(op), "memcgs-%llu", want);
	wl_sample(s, T_AGGREGATE, op, agg);
	wl_sample(s, T_PER_TASK, op, agg / (double)ntasks);
	add_details(s, slots, ntasks, ncg, before, after, have_b, have_a);
	ret = WL_OK;
out:
	for (size_t m = 0; m < made; m++)
		if (cg_destroy(&cgs[m]) && ret == WL_OK)
			ret = WL_FAILED;
	free(cgs);
	free(procs);
	free(mt);
	free(rt);
	free(slots);
	free(before);
	free(after);
	return ret;
}

static void mmapread_teardown(struct wl_ctx *ctx)
{
	struct mmapread_state *st = ctx->priv;

	for (size_t f = 0; f < st->nfiles; f++) {
		unlink(st->files[f]);
		free(st->files[f]);
	}
	free(st->files);
	st->files = NULL;
	st->nfiles = 0;
}

static void mmapread_summary(struct wl_ctx *ctx, FILE *out)
{
	struct mmapread_opts *o = ctx->opts;
	char size[32];

	struct mmapread_state *st = ctx->priv;

	format_size(st->file_size ? st->file_size : o->file_size, size, sizeof(size));
	fprintf(out, "mmapread: %llu task%s per memcg, %s %s, evict=%s\n", o->tasks_per_memcg,
		o->tasks_per_memcg == 1 ? "" : "s", o->shared_file ? "one shared file of" : "a file each of",
		size, evict_modes[o->evict]);
}

/* run --dry-run --machine (core/file_plan.h): auto divides ROTATE_BYTES between the tasks */
static void mmapread_plan(struct wl_ctx *ctx, struct wl_plan *p)
{
	struct mmapread_opts *o = ctx->opts;

	file_plan(ctx, p, &(struct file_plan_spec){ &o->memcgs, o->tasks_per_memcg, o->tasks_per_memcg,
						    o->shared_file, true, o->file_size, o->memcg_limit,
						    o->runtime, "ROTATE_BYTES / tasks of the largest step",
						    "tasks" });
}

const struct workload_ops mmapread_ops = {
	.name = "mmapread",
	.summary = "page-cache faults: tasks mmap sparse files and read every page, per memcg count",
	.options = mmapread_options,
	.opts_size = sizeof(struct mmapread_opts),
	.priv_size = sizeof(struct mmapread_state),
	.tables = mmapread_tables,
	.probe = mmapread_probe,
	.validate = mmapread_validate,
	.setup = mmapread_setup,
	.run_step = mmapread_run_step,
	.teardown = mmapread_teardown,
	.print_summary = mmapread_summary,
	.plan = mmapread_plan,
};
