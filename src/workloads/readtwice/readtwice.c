// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readtwice: page-cache LRU churn as the number of memcgs grows (lrubench(1)).
 * One step per memcg count N (op "memcgs-N"); each iteration creates N fresh
 * memcgs, runs readers_per_memcg readers in each on the memcg's own sparse
 * file for `runtime`, and removes the memcgs again. N = 0 runs one set of
 * readers in the root memory cgroup (env_root_memcg).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/sparse_root.h"
#include "core/file_plan.h"
#include "core/file_sizing.h"
#include "workloads/readtwice/readers.h"
#include "workloads/readtwice/reader_report.h"
#include "core/memcg_optional.h"
#include "core/workload.h"

struct readtwice_opts {
	struct ull_list memcgs;
	unsigned long long readers_per_memcg;
	uint64_t file_size;
	uint64_t memcg_limit;
	double runtime;
	int reader;            /* enum rt_reader_mode */
	bool fs_per_memcg;     /* each memcg's file on a filesystem of its own */
};

struct readtwice_state {
	char **files;          /* one per memcg of the largest step */
	size_t nfiles;
	struct sparse_root **roots;   /* fs_per_memcg: file m's own loop filesystem */
	const char **root_dirs;       /* where each is mounted (owned by the root) */
	size_t nroots;
	uint64_t file_size;    /* file_size, or what auto sized (sizing.h) */
};

static const char *const reader_modes[] = { "native", "dd", NULL };

enum { T_AGGREGATE, T_PER_MEMCG, T_PER_READER };

static const struct table_def readtwice_tables[] = {
	[T_AGGREGATE] = { "readtwice MB/s aggregate", "MB/s", BETTER_HIGHER, { "memory cgroups", "count" } },
	[T_PER_MEMCG] = { "readtwice MB/s per memcg", "MB/s", BETTER_HIGHER, { "memory cgroups", "count" } },
	/* the posted scripts' number: the mean over dd processes of each one's rate */
	[T_PER_READER] = { "readtwice MB/s per reader", "MB/s", BETTER_HIGHER, { "memory cgroups", "count" } },
	{ NULL, NULL, 0 },
};

/* memory.stat counters whose deltas go into the JSON (absent ones are skipped:
 * cgroup v1 has no per-memcg pgscan/pgsteal/pgactivate, cgroup v2 no pgpgout).
 * pgpgout is v1's count of folios uncharged from this memcg alone while the
 * readers' files stay open: reclaimed, or lost a race (both readers missed
 * the same index, one folio was inserted, the other uncharged), whatever
 * other cgroups do (/proc/vmstat's pgscan/pgsteal count the whole machine) */
static const char *const stat_keys[] = { "pgscan", "pgsteal", "pgactivate", "workingset_refault",
					 "pgpgout" };

/* 1, 2, 4, ... up to twice the node's CPUs: one memcg per CPU and beyond,
 * where the seed thread saw the lru_lock contention. */
static void memcgs_default(const struct sizing *sz, char *buf, size_t len)
{
	unsigned long long top = sz->node_cpus > 0 ? 2ULL * (unsigned long long)sz->node_cpus : 4;

	snprintf(buf, len, "1-%llu:x2", top);
}

#define ROFF(f) offsetof(struct readtwice_opts, f)
static const struct option_def readtwice_options[] = {
	{ .name = "memcgs", .type = OPT_LIST, .offset = ROFF(memcgs), .def_fn = memcgs_default, .quick = "1,2,4",
	  .max = 4096,
	  .help = "memcg counts to sweep; each count N is the op memcgs-N; 0: one set of readers in the "
		  "root memory cgroup (the controller enabled, no memcg of their own)" },
	{ .name = "readers_per_memcg", .type = OPT_UINT, .offset = ROFF(readers_per_memcg), .def = "2",
	  .min = 1, .max = 64,
	  .help = "sequential 4 KiB readers of the memcg's file (two: the second reads what the first cached)" },
	{ .name = "file_size", .type = OPT_SIZE, .offset = ROFF(file_size), .def = "1G", .quick = "512M",
	  .min = 1ULL << 20, .max = 1ULL << 42, .flags = OPTF_AUTO,
	  .help = "size of each memcg's sparse file; auto: vm-scalability's ROTATE_BYTES = "
		  "min(4T, 256 x MemAvailable) per memcg, as each posted container made one" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = ROFF(memcg_limit), .def = "256M",
	  .min = 16ULL << 20, .max = 1ULL << 50, .flags = OPTF_NONE,
	  .help = "memory limit of each memcg (not of the root cgroup of memcgs = 0); none for "
		  "global reclaim only" },
	{ .name = "runtime", .type = OPT_TIME, .offset = ROFF(runtime), .def = "20s", .quick = "3s",
	  .min = 1, .max = 86400,
	  .help = "how long the readers read in each iteration" },
	{ .name = "reader", .type = OPT_ENUM, .offset = ROFF(reader), .def = "native",
	  .choices = reader_modes,
	  .help = "native: one read() per 4 KiB block, wrapping at end of file; dd: GNU dd bs=4k "
		  "of=/dev/null's system calls (a read() and a write() to /dev/null per block), "
		  "stopping at end of file as dd does" },
	{ .name = "fs_per_memcg", .type = OPT_BOOL, .offset = ROFF(fs_per_memcg), .def = "no",
	  .help = "yes: each memcg's file on a filesystem of its own (global.sparse_root's kind, "
		  "loop-ext4 or loop-xfs, each its own tmpfs, image of global.sparse_size, loop "
		  "device and mount), as each posted container had its own; no: one shared" },
	OPT_END,
};

static enum wl_status readtwice_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	struct readtwice_opts *o = ctx->opts;

	/* without a controller only memcgs = 0 can run: no memcg, said so in the results */
	if (!ctx->env->cg || ctx->env->cg->mode == CG_NONE)
		return memcgs_without_controller(&o->memcgs, "readtwice", why);
	return WL_OK;
}

static enum wl_status readtwice_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct readtwice_opts *o = ctx->opts;
	char a[32];

	if (o->fs_per_memcg && strncmp(ctx->env->g->sparse_root, "loop-", 5)) {
		strbuf_addf(err, "readtwice.fs_per_memcg=yes needs global.sparse_root = loop-ext4 or "
			    "loop-xfs (a filesystem made per memcg), not %s", ctx->env->g->sparse_root);
		return WL_BAD_CONFIG;
	}
	if (o->memcg_limit && o->memcg_limit < 4 * READTWICE_BLOCK * o->readers_per_memcg) {
		format_size(o->memcg_limit, a, sizeof(a));
		strbuf_addf(err, "readtwice.memcg_limit=%s is too small for %llu readers", a,
			    o->readers_per_memcg);
		return WL_BAD_CONFIG;
	}
	return WL_OK;
}

/*
 * fs_per_memcg: a filesystem of its own for each memcg's file, as each
 * posted container had (vm-scalability's create_sparse_root in the
 * container: a tmpfs, a sparse image on it, a loop device, mkfs, mount):
 * sparse_root_setup once per memcg, under <workdir>/fs-<m>. Every tmpfs,
 * loop device and mount is in the cleanup registry (and in the run's mount
 * namespace) from the moment it exists; teardown undoes them.
 */
static enum wl_status per_memcg_roots(struct wl_ctx *ctx, size_t most)
{
	struct readtwice_state *st = ctx->priv;
	const struct global_opts *g = ctx->env->g;
	char size[32];

	st->roots = xcalloc(most, sizeof(*st->roots));
	st->root_dirs = xcalloc(most, sizeof(*st->root_dirs));
	for (size_t m = 0; m < most; m++) {
		char *wd = xasprintf("%s/fs-%zu", ctx->workdir, m);
		enum wl_status r;

		if (lb_stop_requested()) {
			free(wd);
			return WL_INTERRUPTED;
		}
		if (mkdir_p(wd, 0755)) {
			free(wd);
			return WL_FAILED;
		}
		r = sparse_root_setup(g->sparse_root, wd, g->sparse_size, &st->roots[m], &st->root_dirs[m]);
		free(wd);
		if (r != WL_OK)
			return r == WL_UNSUPPORTED ? WL_UNSUPPORTED
			       : lb_stop_requested() ? WL_INTERRUPTED : WL_FAILED;
		st->nroots = m + 1;
	}
	format_size(g->sparse_size, size, sizeof(size));
	info("readtwice: %zu filesystems, one per memcg (%s, image %s each)", most, g->sparse_root, size);
	return WL_OK;
}

static enum wl_status readtwice_setup(struct wl_ctx *ctx)
{
	struct readtwice_opts *o = ctx->opts;
	struct readtwice_state *st = ctx->priv;
	const char *dir = NULL;
	size_t most = 1;   /* memcgs = 0 reads one file too */
	json_object *devs;
	enum wl_status r;

	for (size_t i = 0; i < o->memcgs.n; i++) {
		wl_add_step(ctx, "memcgs-%llu", o->memcgs.v[i]);
		if (o->memcgs.v[i] > most)
			most = o->memcgs.v[i];
	}
	if (!o->fs_per_memcg && (r = env_sparse_dir(ctx->env, &dir)) != WL_OK)
		return r;
	/* auto: every memcg's file is ROTATE_BYTES, as each posted container made one */
	st->file_size = file_size_resolve(ctx->env, "readtwice", o->file_size, most, 1, 1ULL << 20,
					  "ROTATE_BYTES per memcg file (the container case)");
	env_fact(ctx->env, "readtwice", "reader", json_object_new_string(reader_modes[o->reader]));
	st->files = xcalloc(most, sizeof(char *));
	if (o->fs_per_memcg && (r = per_memcg_roots(ctx, most)) != WL_OK)
		return r;
	devs = json_object_new_array();
	env_fact(ctx->env, "readtwice", "file_devices", devs);
	env_fact(ctx->env, "readtwice", "fs_per_memcg", json_object_new_boolean(o->fs_per_memcg));
	for (size_t m = 0; m < most; m++) {
		struct stat sb;
		char dev[32];
		int fd;

		if (o->fs_per_memcg)
			st->files[m] = xasprintf("%s/readtwice-%zu", st->root_dirs[m], m);
		else
			st->files[m] = xasprintf("%s/readtwice-%zu", dir, m);
		st->nfiles = m + 1;
		fd = open(st->files[m], O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			error_errno("cannot create %s", st->files[m]);
			return WL_FAILED;
		}
		/* all holes: reads make clean page-cache pages without block I/O */
		if (ftruncate(fd, (off_t)st->file_size) || fstat(fd, &sb)) {
			error_errno("cannot size %s", st->files[m]);
			close(fd);
			return WL_FAILED;
		}
		close(fd);
		/* the filesystem each file is on, by device: one, or one per memcg */
		snprintf(dev, sizeof(dev), "%u:%u", major(sb.st_dev), minor(sb.st_dev));
		json_object_array_add(devs, json_object_new_string(dev));
	}
	return WL_OK;
}

static enum wl_status readtwice_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct readtwice_opts *o = ctx->opts;
	struct readtwice_state *st = ctx->priv;
	size_t want = o->memcgs.v[step], r = o->readers_per_memcg;
	size_t n = want ? want : 1;   /* memcgs = 0: one set of readers, in the root cgroup */
	/* no memory controller (memcgs = 0 only, probe): the readers stay in our cgroup */
	bool nocg = !ctx->env->cg || ctx->env->cg->mode == CG_NONE;
	size_t ncg = nocg ? 0 : n;
	size_t nk = ARRAY_SIZE(stat_keys);
	struct memcg_set set;
	struct round_slot *res = xcalloc(n * r, sizeof(*res));
	double *mbps = xcalloc(n, sizeof(*mbps));
	struct memcg_stats before = { 0 }, after = { 0 };
	struct rt_spec spec;
	struct rt_summary sum;
	struct round_times rt = { 0 };
	double t0, secs, tm = now_monotonic(), t_make = 0, t_stats = 0, t_remove = 0;
	enum wl_status ret;

	ret = memcg_set_make_optional(ctx->env, "readtwice", 0, want, o->memcg_limit, &set);
	if (ret != WL_OK)
		goto out;
	t_make = now_monotonic() - tm;
	tm = now_monotonic();
	/* every member's memory.stat, read once (0 members without a memory controller) */
	memcg_stats_take(&before, &set, stat_keys, nk);
	spec = (struct rt_spec){ n, r, st->files, &set, &ctx->env->bind, o->runtime,
				 ctx->env->g->stuck_timeout, &s->why, (enum rt_reader_mode)o->reader, &rt };
	t_stats = now_monotonic() - tm;
	t0 = now_monotonic();
	ret = readtwice_round(&spec, res);   /* printed; on WL_OP_FAILED s->why says why */
	if (ret != WL_OK)
		goto out;
	secs = now_monotonic() - t0;
	tm = now_monotonic();
	memcg_stats_take(&after, &set, stat_keys, nk);
	t_stats += now_monotonic() - tm;
	/* the set is done with: every number below is in the stats */
	tm = now_monotonic();
	ret = memcg_set_remove(&set) ? WL_FAILED : WL_OK;
	t_remove = now_monotonic() - tm;
	if (ret != WL_OK)
		goto out;
	rt_summarize(res, n, r, mbps, &sum);
	{
		char op[32];
		json_object *d = json_object_new_object(), *per = json_object_new_array();

		snprintf(op, sizeof(op), "memcgs-%zu", want);
		wl_sample(s, T_AGGREGATE, op, sum.aggregate);
		if (!nocg)
			wl_sample(s, T_PER_MEMCG, op, sum.per_memcg_mean);
		wl_sample(s, T_PER_READER, op, sum.per_reader_mean);
		rt_add_reader_details(d, res, n * r, st->file_size, o->reader, nocg);
		/* does every memcg get its share? how hard did reclaim work? (the
		 * explaining tables, made by the run layer) */
		wl_memcg_report(ctx->env, s, &(struct wl_memcg_report){ op, nocg ? NULL : mbps, ncg,
									&before, &after, secs });
		for (size_t m = 0; m < n; m++)
			json_object_array_add(per, json_object_new_double(mbps[m]));
		json_object_object_add(d, "memcg_mbps", per);
		{
			/* what the iteration spent around its readers (bench/memcg-scale):
			 * the rest of it is starting, releasing and reaping them */
			json_object *t = json_object_new_object();

			json_object_object_add(t, "memcg_set_make", json_object_new_double(t_make));
			json_object_object_add(t, "memory_stat", json_object_new_double(t_stats));
			json_object_object_add(t, "readers", json_object_new_double(secs));
			/* of it: forking and starting them, their getting ready, and
			 * (past the runtime) their reaping */
			json_object_object_add(t, "readers_start", json_object_new_double(rt.start));
			json_object_object_add(t, "readers_ready", json_object_new_double(rt.ready));
			json_object_object_add(t, "readers_reap", json_object_new_double(rt.reap));
			/* the last reader's first run after the release (a scheduler
			 * rotation when readers outnumber CPUs) */
			json_object_object_add(t, "readers_late", json_object_new_double(rt.late));
			json_object_object_add(t, "memcg_set_remove", json_object_new_double(t_remove));
			json_object_object_add(d, "seconds", t);
		}
		{
			/* where the readers ran: evidence that the NUMA binding held */
			json_object *cpus = json_object_new_array(), *nodes = json_object_new_array();
			for (size_t k = 0; k < n * r; k++) {
				json_object_array_add(cpus, json_object_new_int(res[k].cpu));
				json_object_array_add(nodes, json_object_new_int(res[k].node));
			}
			json_object_object_add(d, "reader_cpus", cpus);
			json_object_object_add(d, "reader_nodes", nodes);
		}
		json_object_object_add(d, "memcg_mbps_min", json_object_new_double(sum.per_memcg_min));
		json_object_object_add(d, "memcg_mbps_max", json_object_new_double(sum.per_memcg_max));
		json_object_object_add(d, "fairness_min_over_max",
				       json_object_new_double(sum.per_memcg_max > 0 ?
							      sum.per_memcg_min / sum.per_memcg_max : 0));
		for (size_t k = 0; k < nk; k++) {
			json_object *arr;
			uint64_t total = 0;

			if (!memcg_stats_have(&before, &after, k))
				continue;
			arr = json_object_new_array();
			for (size_t m = 0; m < n; m++) {
				uint64_t dlt = memcg_stats_delta(&before, &after, m, k);
				total += dlt;
				json_object_array_add(arr, json_object_new_int64((int64_t)dlt));
			}
			char key[64];
			snprintf(key, sizeof(key), "memcg_%s", stat_keys[k]);
			json_object_object_add(d, key, arr);
			snprintf(key, sizeof(key), "%s_total", stat_keys[k]);
			json_object_object_add(d, key, json_object_new_int64((int64_t)total));
		}
		wl_detail(s, d);
	}
out:
	memcg_stats_release(&before);
	memcg_stats_release(&after);
	if (memcg_set_remove(&set) && ret == WL_OK)
		ret = WL_FAILED;
	free(res);
	free(mbps);
	return ret;
}

static void readtwice_teardown(struct wl_ctx *ctx)
{
	struct readtwice_state *st = ctx->priv;

	for (size_t m = 0; m < st->nfiles; m++) {
		unlink(st->files[m]);
		free(st->files[m]);
	}
	free(st->files);
	st->files = NULL;
	st->nfiles = 0;
	for (size_t m = 0; m < st->nroots; m++)
		sparse_root_teardown(st->roots[m]);   /* unmount, loop, tmpfs; pops their entries */
	free(st->roots);
	free(st->root_dirs);
	st->roots = NULL;
	st->root_dirs = NULL;
	st->nroots = 0;
}

/* run --dry-run --machine (core/file_plan.h): every memcg's file is ROTATE_BYTES with auto */
static void readtwice_plan(struct wl_ctx *ctx, struct wl_plan *p)
{
	struct readtwice_opts *o = ctx->opts;
	char tasks[32];

	snprintf(tasks, sizeof(tasks), "readers (%s)", reader_modes[o->reader]);
	file_plan(ctx, p, &(struct file_plan_spec){ &o->memcgs, o->readers_per_memcg, 1, false, false,
						    o->file_size, o->memcg_limit, o->runtime,
						    "ROTATE_BYTES per memcg file", tasks });
	if (o->fs_per_memcg) {   /* (no run env here: the kind and size are global.sparse_*) */
		unsigned long long most = 1;

		for (size_t i = 0; i < o->memcgs.n; i++)
			most = o->memcgs.v[i] > most ? o->memcgs.v[i] : most;
		strbuf_addf(&p->text, "  filesystems: one per memcg (fs_per_memcg = yes): %llu loop "
			    "filesystems of global.sparse_root's kind and sparse_size\n", most);
	}
}

const struct workload_ops readtwice_ops = {
	.name = "readtwice",
	.summary = "page-cache LRU churn: sequential readers of sparse files, one set per memcg",
	.options = readtwice_options,
	.opts_size = sizeof(struct readtwice_opts),
	.priv_size = sizeof(struct readtwice_state),
	.tables = readtwice_tables,
	.probe = readtwice_probe,
	.validate = readtwice_validate,
	.setup = readtwice_setup,
	.run_step = readtwice_run_step,
	.teardown = readtwice_teardown,
	.plan = readtwice_plan,
};
