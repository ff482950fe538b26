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
#include "core/memcg_set.h"
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
	{ .name = "memcgs", .type = OPT_LIST, .offset = MOFF(memcgs), .def_fn = memcgs_default, .quick = "0,1,2",
	  .max = 4096,
	  .help = "memcg counts to sweep; each count N is the op memcgs-N; 0: one set of tasks in the root "
		  "memory cgroup (the controller enabled, no memcg of their own)" },
	{ .name = "tasks_per_memcg", .type = OPT_UINT, .offset = MOFF(tasks_per_memcg), .def = "2",
	  .min = 1, .max = 1024,
	  .help = "tasks per memcg, each mapping and reading its file (vm-scalability: one per CPU)" },
	{ .name = "file_size", .type = OPT_SIZE, .offset = MOFF(file_size), .def = "1G", .quick = "128M",
	  .min = 1ULL << 20, .max = 1ULL << 42, .flags = OPTF_AUTO,
	  .help = "size of each task's sparse file (of the one file with shared_file): one pass "
		  "reads it; auto: vm-scalability's ROTATE_BYTES = min(4T, 256 x MemAvailable) divided "
		  "by the tasks of the largest step (case-lru-file-mmap-read), whole with shared_file" },
	{ .name = "shared_file", .type = OPT_BOOL, .offset = MOFF(shared_file), .def = "no",
	  .help = "yes: every task of the step maps the same file; no: one file per task" },
	{ .name = "evict", .type = OPT_ENUM, .offset = MOFF(evict), .def = "fadvise",
	  .choices = evict_modes,
	  .help = "after each pass: fadvise drops the file's pages (every fault inserts a page); reclaim "
		  "keeps them (they leave by reclaim only, vm-scalability's way: files above the limit)" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = MOFF(memcg_limit), .def = "none",
	  .min = 16ULL << 20, .max = 1ULL << 50, .flags = OPTF_NONE,
	  .help = "memory limit of each memcg (not of the root cgroup of memcgs = 0)" },
	{ .name = "runtime", .type = OPT_TIME, .offset = MOFF(runtime), .def = "20s", .quick = "3s",
	  .min = 1, .max = 86400,
	  .help = "how long the tasks read in each iteration" },
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

static void add_details(struct wl_samples *s, const struct round_slot *slots, size_t ntasks,
			size_t groups, const struct memcg_stats *before, const struct memcg_stats *after)
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

		if (!memcg_stats_have(before, after, k))
			continue;
		for (size_t m = 0; m < groups; m++)
			total += memcg_stats_delta(before, after, m, k);
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
	size_t groups = step_groups(want), per = o->tasks_per_memcg, ntasks = groups * per;
	size_t nk = ARRAY_SIZE(stat_keys);
	struct memcg_set set;
	struct mr_task *mt = xcalloc(ntasks, sizeof(*mt));
	struct round_task *rt = xcalloc(ntasks, sizeof(*rt));
	struct round_slot *slots = xcalloc(ntasks, sizeof(*slots));
	struct memcg_stats before = { 0 }, after = { 0 };
	struct round_spec spec;
	enum wl_status ret;
	double agg = 0;
	char op[32];

	ret = memcg_set_make_optional(ctx->env, "mmapread", 0, want, o->memcg_limit, &set);
	if (ret != WL_OK)
		goto out;
	for (size_t i = 0; i < ntasks; i++) {
		mt[i] = (struct mr_task){ .file = st->files[o->shared_file ? 0 : i],
					  .fadvise = o->evict == EVICT_FADVISE, .fd = -1 };
		rt[i] = (struct round_task){ &mt[i], memcg_set_procs(&set, i, per) };
	}
	spec = (struct round_spec){ ntasks, rt, mr_prepare, mr_work, &ctx->env->bind, o->runtime,
				    MR_GRACE, "mmapread task" };
	memcg_stats_take(&before, &set, stat_keys, nk);
	ret = round_run(&spec, slots);
	if (ret != WL_OK)
		goto out;
	memcg_stats_take(&after, &set, stat_keys, nk);
	for (size_t i = 0; i < ntasks; i++)
		agg += round_mbps(slots[i].bytes, slots[i].elapsed);
	snprintf(op, sizeof(op), "memcgs-%llu", want);
	wl_sample(s, T_AGGREGATE, op, agg);
	wl_sample(s, T_PER_TASK, op, agg / (double)ntasks);
	/* set.n: 0 without a memory controller (no memcg: the note says so) */
	add_details(s, slots, ntasks, set.n, &before, &after);
out:
	memcg_stats_release(&before);
	memcg_stats_release(&after);
	if (memcg_set_remove(&set) && ret == WL_OK)
		ret = WL_FAILED;
	free(mt);
	free(rt);
	free(slots);
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
