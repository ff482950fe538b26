// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shrinkers: slab shrink and shrinker (un)registration under many memcgs,
 * the experiment of thread 004 (lrubench-shrinkers(7)). A parent memcg
 * "shrinkers" with a limit holds N child memcgs; in each, a task of that
 * memcg mounts a tmpfs and writes a few files (its superblock's shrinker is
 * memcg-aware, its dentries and inodes are charged there) -- a "group",
 * built when a step's N differs from the last one's and kept across its
 * iterations. An iteration: pressers stream a sparse file in some memcgs
 * so the parent sits at its limit (every charge past it reclaims the parent,
 * and that reclaim walks every child's shrinkers) while M mounters mount
 * and unmount a tmpfs of their own in a loop (each mount registers a
 * shrinker, each umount unregisters it), for `runtime`. Steps over N and M
 * ("memcgs-100-mounters-2"); the engine is mount_loop.c.
 *
 * Tables: mount+umount ops/s; mount and umount latency p50/p99/max (op
 * "p99-memcgs-100-mounters-2": x axis mounters, a series per statistic and
 * N); reclaim pages/s below the parent. sys CPU % is the run layer's CPU
 * split; `--profile cpu` shows where the kernel spent it, and `--profile
 * reclaim` (the suite's: profile/reclaim_latency.h, nothing of ours) times
 * each shrinker scan the parent's reclaim makes (mm_shrink_slab_start/end).
 *
 * Every mount lives in the run's private mount namespace (core/mount_ns.h)
 * and is detached by one cleanup entry on every exit path; SIGKILL takes the
 * namespace with the last process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/child_set.h"
#include "core/cleanup.h"
#include "core/memcg_set.h"
#include "core/workload.h"
#include "workloads/shrinkers/mount_loop.h"

/* the config's limits: past them a value is a typo, not an experiment
 * (the thread ran 4000 memcgs, and umounts 1000 at once) */
#define SK_MAX_MEMCGS 8192
#define SK_MAX_MOUNTERS 1024
#define SK_MAX_PRESSERS 64

struct shrinkers_opts {
	struct ull_list memcgs;
	struct ull_list mounters;
	uint64_t memcg_limit;
	unsigned long long files;
	uint64_t file_size;
	unsigned long long pressers;
	double runtime;
};

enum { T_OPS, T_MOUNT, T_UMOUNT, T_RECLAIM };
#define MOUNTERS_AXIS { "mounters", "count" }
static const struct table_def shrinkers_tables[] = {
	[T_OPS] = { "shrinkers mount+umount ops/s", "ops/s", BETTER_HIGHER, MOUNTERS_AXIS },
	[T_MOUNT] = { "shrinkers mount latency", "us", BETTER_LOWER, MOUNTERS_AXIS },
	[T_UMOUNT] = { "shrinkers umount latency", "us", BETTER_LOWER, MOUNTERS_AXIS },
	[T_RECLAIM] = { "shrinkers reclaim pages/s", "pages/s", BETTER_HIGHER, MOUNTERS_AXIS },
	{ NULL, NULL, 0 },
};

struct sk_step {
	size_t n, m;
};

struct shrinkers_state {
	struct sk_step *steps;
	size_t nsteps;
	struct cgroup parent;       /* "shrinkers", with the limit */
	struct memcg_set set;       /* the group's N children */
	size_t cur_n;               /* N of the group built; 0: none */
	size_t maxn, maxm;
	char **dirs;                /* maxn settlers' mount points, then maxm mounters' */
	int mounts_id;              /* cleanup entry detaching every one of dirs */
	char *file;                 /* what the pressers stream (sparse) */
	const char *reclaim_key;    /* "pgsteal", or NULL: SK_RECLAIM_V1 */
	double *ops_sum;            /* per step, for the summary */
	unsigned *ops_n;
};

/* Reclaim below the parent: v2's pgsteal of the parent (its subtree's).
 * v1 has no pgsteal, and its pgpgout counts uncharge events, a large folio
 * once (a 128K readahead folio is 32 pages in one event: measured 30x low
 * here), so on v1 it is the pages the pressers charged less what the
 * parent grew by: held at its limit, every page charged is one reclaimed. */
#define SK_RECLAIM_V1 "presser pages charged less the parent's growth"

#define SOFF(f) offsetof(struct shrinkers_opts, f)
static const struct option_def shrinkers_options[] = {
	{ .name = "memcgs", .type = OPT_LIST, .offset = SOFF(memcgs), .def = "10,100,1000", .quick = "4",
	  .min = 1, .max = SK_MAX_MEMCGS,
	  .help = "child memcgs below the parent, each with a tmpfs of its own: one group of steps each "
		  "(the thread: 4000)" },
	{ .name = "mounters", .type = OPT_LIST, .offset = SOFF(mounters), .def = "1,2,4", .quick = "2",
	  .min = 1, .max = SK_MAX_MOUNTERS,
	  .help = "tasks mounting and unmounting a tmpfs in a loop, one step each; mounter j in child "
		  "memcg j mod N" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = SOFF(memcg_limit), .def = "1G", .quick = "128M",
	  .min = 16ULL << 20, .max = 1ULL << 50,
	  .help = "the parent memcg's limit, which the pressers hold it at (the thread: 4G)" },
	{ .name = "files", .type = OPT_UINT, .offset = SOFF(files), .def = "8", .quick = "4", .min = 1,
	  .max = 100000,
	  .help = "files written in each memcg's tmpfs (their dentries and inodes in that memcg)" },
	{ .name = "file_size", .type = OPT_SIZE, .offset = SOFF(file_size), .def = "4K", .min = 1,
	  .max = 64ULL << 20,
	  .help = "bytes of each file (tmpfs pages: without swap they stay, so N x files x file_size "
		  "must fit in half the limit)" },
	{ .name = "pressers", .type = OPT_UINT, .offset = SOFF(pressers), .def = "1", .max = SK_MAX_PRESSERS,
	  .help = "tasks streaming a sparse file twice the limit through the page cache, so the parent "
		  "reclaims (presser k in child memcg N-1-k mod N); 0: no reclaim pressure" },
	{ .name = "runtime", .type = OPT_TIME, .offset = SOFF(runtime), .def = "30s", .quick = "3s",
	  .min = 1, .max = 24 * 3600,
	  .help = "seconds the mounters and pressers run an iteration" },
	OPT_END,
};

static size_t list_max(const struct ull_list *l)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] > m)
			m = l->v[i];
	return (size_t)m;
}

static enum wl_status shrinkers_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	char *fs = read_file_str("/proc/filesystems", NULL);
	bool tmpfs = fs && strstr(fs, "\ttmpfs\n");

	free(fs);
	if (!ctx->env->cg || ctx->env->cg->mode == CG_NONE) {
		strbuf_addstr(why, "shrinkers: no memory cgroup controller on this machine (its parent "
			      "memcg and N children are the experiment)");
		return WL_UNSUPPORTED;
	}
	if (!tmpfs) {
		strbuf_addstr(why, "shrinkers: this kernel has no tmpfs (/proc/filesystems)");
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static enum wl_status shrinkers_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct shrinkers_opts *o = ctx->opts;
	uint64_t data = (uint64_t)list_max(&o->memcgs) * o->files * o->file_size;
	char a[32], b[32];

	if (!o->memcgs.n || !o->mounters.n) {
		strbuf_addf(err, "shrinkers.%s: no counts given", o->memcgs.n ? "mounters" : "memcgs");
		return WL_BAD_CONFIG;
	}
	/* tmpfs pages cannot be reclaimed without swap: they must leave room */
	if (data > o->memcg_limit / 2) {
		format_size(data, a, sizeof(a));
		format_size(o->memcg_limit, b, sizeof(b));
		strbuf_addf(err, "shrinkers: %zu memcgs x files %llu x file_size %llu = %s of tmpfs data, "
			    "more than half of memcg_limit %s: lower shrinkers.files or file_size, or raise "
			    "shrinkers.memcg_limit", list_max(&o->memcgs), o->files,
			    (unsigned long long)o->file_size, a, b);
		return WL_BAD_CONFIG;
	}
	return WL_OK;
}

/* The mounts' undo: every mount point, detached (signal-safe). */
static void undo_mounts(void *arg)
{
	struct shrinkers_state *st = arg;

	sk_umount_all(st->dirs, st->maxn + st->maxm);
}

static enum wl_status shrinkers_setup(struct wl_ctx *ctx)
{
	struct shrinkers_opts *o = ctx->opts;
	struct shrinkers_state *st = ctx->priv;
	uint64_t v;

	st->nsteps = o->memcgs.n * o->mounters.n;
	st->steps = xcalloc(st->nsteps, sizeof(*st->steps));
	st->ops_sum = xcalloc(st->nsteps, sizeof(double));
	st->ops_n = xcalloc(st->nsteps, sizeof(unsigned));
	for (size_t i = 0, s = 0; i < o->memcgs.n; i++)
		for (size_t j = 0; j < o->mounters.n; j++, s++) {
			st->steps[s] = (struct sk_step){ (size_t)o->memcgs.v[i], (size_t)o->mounters.v[j] };
			wl_add_step(ctx, "memcgs-%llu-mounters-%llu", o->memcgs.v[i], o->mounters.v[j]);
		}
	st->maxn = list_max(&o->memcgs);
	st->maxm = list_max(&o->mounters);
	st->dirs = xcalloc(st->maxn + st->maxm, sizeof(*st->dirs));
	for (size_t i = 0; i < st->maxn + st->maxm; i++) {
		char *d = i < st->maxn ? xasprintf("%s/memcg-%zu", ctx->workdir, i + 1)
				       : xasprintf("%s/mounter-%zu", ctx->workdir, i - st->maxn);

		if (mkdir(d, 0700) && errno != EEXIST) {
			error_errno("shrinkers: cannot create the mount point %s", d);
			free(d);
			return WL_FAILED;
		}
		st->dirs[i] = d;
	}
	/* from here on a mount may exist: one entry detaches them all */
	st->mounts_id = cleanup_push("shrinkers' tmpfs mounts", undo_mounts, st);
	if (env_memcg(ctx->env, "shrinkers", o->memcg_limit, &st->parent))
		return WL_FAILED;
	st->reclaim_key = st->parent.mode == CG_V2 && !cg_stat(&st->parent, "pgsteal", &v) ? "pgsteal" : NULL;
	if (o->pressers) {
		const char *dir;
		enum wl_status r = env_sparse_dir(ctx->env, &dir);
		int fd;

		if (r != WL_OK)
			return r;
		st->file = xasprintf("%s/shrinkers-stream", dir);
		fd = open(st->file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)(2 * o->memcg_limit))) {
			error_errno("shrinkers: cannot make the sparse file %s", st->file);
			if (fd >= 0)
				close(fd);
			return WL_FAILED;
		}
		close(fd);
	}
	env_fact(ctx->env, "shrinkers", "filesystem", json_object_new_string(
		"tmpfs: every superblock's shrinker is memcg-aware; a tmpfs needs no device, so "
		"thousands of memcgs each hold one (the thread's script mounted tmpfs too)"));
	env_fact(ctx->env, "shrinkers", "reclaim_counter",
		 json_object_new_string(st->reclaim_key ? st->reclaim_key : SK_RECLAIM_V1));
	return WL_OK;
}

/* Detach the group's mounts, then remove its memcgs. */
static void group_remove(struct shrinkers_state *st)
{
	size_t left;

	if (st->dirs)
		sk_umount_all(st->dirs, st->maxn + st->maxm);
	left = sk_mounts_left();
	if (left)
		warning("shrinkers: %zu tmpfs mount%s of ours still in the mount table after detaching",
			left, left == 1 ? "" : "s");
	memcg_set_remove(&st->set);
	st->cur_n = 0;
}

struct sk_round {
	struct sk_shared *sh;
	long first_failed;
};

static void task_ended(void *data, size_t i, int code)
{
	struct sk_round *rd = data;

	if (code && rd->first_failed < 0)
		rd->first_failed = (long)i;
}

static void tasks_stopping(void *data)
{
	struct sk_round *rd = data;

	sk_shared_abort(rd->sh);
}

/* The first failed child of a set as the op's reason. */
static void failure(const struct child_set *cs, const struct sk_shared *sh, long i, const char *what,
		    struct strbuf *why)
{
	char desc[64];

	child_describe_code(cs->code[i], desc, sizeof(desc));
	strbuf_addf(why, "shrinkers %s (pid %d) %s%s%s", what, (int)cs->kids[i].pid, desc,
		    sh->task[i].msg[0] ? ": " : "", sh->task[i].msg);
	error("%s", why->buf);
}

/* Mount a tmpfs in each of N new memcgs, from a task of that memcg. */
static enum wl_status group_build(struct wl_ctx *ctx, size_t n, struct strbuf *why)
{
	struct shrinkers_opts *o = ctx->opts;
	struct shrinkers_state *st = ctx->priv;
	struct child *kids;
	struct sk_job *jobs;
	struct sk_shared *sh;
	struct sk_round rd = { NULL, -1 };
	struct child_set cs;
	enum wl_status r;

	r = memcg_set_make_under(ctx->env, &st->parent, "shrinkers", 1, n, 0, &st->set);
	st->cur_n = n;
	if (r != WL_OK)
		return r;
	sh = sk_shared_create(n, 0);
	if (!sh)
		return WL_FAILED;
	rd.sh = sh;
	kids = xcalloc(n, sizeof(*kids));
	jobs = xcalloc(n, sizeof(*jobs));
	for (size_t i = 0; i < n; i++) {
		/* the data and a megabyte of room */
		jobs[i] = (struct sk_job){ sh, i, st->dirs[i], (unsigned)o->files, o->file_size,
					   o->files * o->file_size + (1 << 20) };
		kids[i].fn = sk_settler_main;
		kids[i].fn_arg = &jobs[i];
		kids[i].name = "shrinkers settler";
	}
	cs = (struct child_set){ .n = n, .kids = kids, .memcgs = &st->set, .per = 1, .bind = &ctx->env->bind,
				 .length = -1, .stuck_timeout = ctx->env->g->stuck_timeout, .stop_grace = 2.0,
				 .data = &rd, .ended = task_ended, .stopping = tasks_stopping };
	r = child_set_start(&cs);
	if (r == WL_OK)
		r = child_set_wait(&cs, why);
	if (r == WL_OK && rd.first_failed >= 0) {
		char what[64];

		snprintf(what, sizeof(what), "settler of memcg shrinkers-%ld", rd.first_failed + 1);
		failure(&cs, sh, rd.first_failed, what, why);
		r = WL_OP_FAILED;
	}
	child_set_release(&cs);
	free(jobs);
	free(kids);
	sk_shared_destroy(sh);
	return r;
}

/* The parent's pgsteal (v2), or its usage in bytes (v1, see SK_RECLAIM_V1). */
static bool reclaim_snap(const struct shrinkers_state *st, uint64_t *v)
{
	return st->reclaim_key ? !cg_stat(&st->parent, st->reclaim_key, v) : !cg_usage(&st->parent, v);
}

/* Pages reclaimed between two snapshots, given what the pressers read. */
static uint64_t reclaim_pages(const struct shrinkers_state *st, uint64_t before, uint64_t after,
			      uint64_t presser_bytes)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), charged = presser_bytes / pg,
		 grew = after > before ? (after - before) / pg : 0;

	if (st->reclaim_key)
		return after >= before ? after - before : 0;
	return charged > grew ? charged - grew : 0;
}

static json_object *hist_json(const struct lat_hist *h)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int64((int64_t)h->count));
	json_object_object_add(o, "p50_us", json_object_new_double(lh_percentile(h, 50) / 1e3));
	json_object_object_add(o, "p99_us", json_object_new_double(lh_percentile(h, 99) / 1e3));
	json_object_object_add(o, "max_us", json_object_new_double((double)h->max / 1e3));
	json_object_object_add(o, "mean_us", json_object_new_double(
		h->count ? (double)h->sum / (double)h->count / 1e3 : 0));
	return o;
}

static void latencies(struct wl_samples *s, int table, const struct lat_hist *h, size_t n, size_t m)
{
	char op[96];

	if (!h->count)
		return;
	snprintf(op, sizeof(op), "p50-memcgs-%zu-mounters-%zu", n, m);
	wl_sample(s, table, op, lh_percentile(h, 50) / 1e3);
	snprintf(op, sizeof(op), "p99-memcgs-%zu-mounters-%zu", n, m);
	wl_sample(s, table, op, lh_percentile(h, 99) / 1e3);
	snprintf(op, sizeof(op), "max-memcgs-%zu-mounters-%zu", n, m);
	wl_sample(s, table, op, (double)h->max / 1e3);
}

/* What one iteration measured, from the shared area. */
static void report(struct wl_ctx *ctx, size_t step, struct wl_samples *s, const struct sk_shared *sh,
		   double window, bool have_reclaim, uint64_t before, uint64_t after)
{
	struct shrinkers_opts *o = ctx->opts;
	struct shrinkers_state *st = ctx->priv;
	const struct sk_step *k = &st->steps[step];
	struct lat_hist *mount = xcalloc(1, sizeof(*mount)), *umount = xcalloc(1, sizeof(*umount));
	json_object *d = json_object_new_object(), *per = json_object_new_array();
	double ops = 0;
	uint64_t bytes = 0, usage, pages;
	char op[64];

	for (size_t j = 0; j < k->m; j++) {
		const struct sk_task *t = &sh->task[j];
		double secs = t->t_last - t->t_first, rate = t->ops && secs > 0 ? (double)t->ops / secs : 0;

		ops += rate;
		json_object_array_add(per, json_object_new_double(rate));
		lh_merge(mount, &sh->hist[j].mount);
		lh_merge(umount, &sh->hist[j].umount);
	}
	for (size_t p = 0; p < o->pressers; p++)
		bytes += sh->task[k->m + p].ops;
	pages = have_reclaim ? reclaim_pages(st, before, after, bytes) : 0;
	snprintf(op, sizeof(op), "memcgs-%zu-mounters-%zu", k->n, k->m);
	wl_sample(s, T_OPS, op, ops);
	latencies(s, T_MOUNT, mount, k->n, k->m);
	latencies(s, T_UMOUNT, umount, k->n, k->m);
	if (have_reclaim && window > 0)
		wl_sample(s, T_RECLAIM, op, (double)pages / window);
	if (!s->discard) {
		st->ops_sum[step] += ops;
		st->ops_n[step]++;
	}
	json_object_object_add(d, "memcgs", json_object_new_int64((int64_t)k->n));
	json_object_object_add(d, "mounters", json_object_new_int64((int64_t)k->m));
	json_object_object_add(d, "pressers", json_object_new_int64((int64_t)o->pressers));
	json_object_object_add(d, "how", json_object_new_string(
		"each mounter times every mount(2) and umount(2) of its own tmpfs with CLOCK_MONOTONIC "
		"(userspace, the system calls whole) into a log-linear histogram (1.6%, exact max); ops/s "
		"is the sum over mounters of pairs over each one's first-to-last op; reclaim pages/s is "
		"reclaim_counter's pages over window_s"));
	json_object_object_add(d, "ops_per_s", json_object_new_double(ops));
	json_object_object_add(d, "mounter_ops_per_s", per);
	json_object_object_add(d, "mount", hist_json(mount));
	json_object_object_add(d, "umount", hist_json(umount));
	json_object_object_add(d, "window_s", json_object_new_double(window));
	json_object_object_add(d, "presser_bytes", json_object_new_int64((int64_t)bytes));
	if (have_reclaim) {
		json_object_object_add(d, "reclaim_counter", json_object_new_string(
			st->reclaim_key ? st->reclaim_key : SK_RECLAIM_V1));
		json_object_object_add(d, "reclaimed_pages", json_object_new_int64((int64_t)pages));
	}
	if (!cg_usage(&st->parent, &usage))
		json_object_object_add(d, "parent_usage_bytes", json_object_new_int64((int64_t)usage));
	json_object_object_add(d, "parent_limit_bytes", json_object_new_int64((int64_t)o->memcg_limit));
	wl_detail(s, d);
	free(mount);
	free(umount);
}

static enum wl_status shrinkers_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct shrinkers_opts *o = ctx->opts;
	struct shrinkers_state *st = ctx->priv;
	const struct sk_step *k = &st->steps[step];
	size_t n = k->m + (size_t)o->pressers;
	struct sk_shared *sh;
	struct child *kids;
	struct sk_job *jobs;
	struct sk_round rd = { NULL, -1 };
	struct child_set cs;
	uint64_t before = 0, after = 0;
	bool have;
	double t0;
	enum wl_status r;

	if (st->cur_n != k->n) {
		group_remove(st);
		r = group_build(ctx, k->n, &s->why);
		if (r != WL_OK) {
			/* built again by the next step */
			group_remove(st);
			return r;
		}
	}
	/* a mount point removed under a mounter failed that op; this one has it back */
	for (size_t j = 0; j < k->m; j++)
		if (mkdir(st->dirs[st->maxn + j], 0700) && errno != EEXIST)
			warning("shrinkers: cannot create the mount point %s: %s", st->dirs[st->maxn + j],
				strerror(errno));
	sh = sk_shared_create(n, k->m);
	if (!sh)
		return WL_FAILED;
	rd.sh = sh;
	kids = xcalloc(n, sizeof(*kids));
	jobs = xcalloc(n, sizeof(*jobs));
	for (size_t i = 0; i < n; i++) {
		bool mounter = i < k->m;
		/* mounter j in memcg j mod N; presser p in N-1-p mod N, from the other end */
		size_t memcg = mounter ? i % k->n : (k->n - 1 - (i - k->m) % k->n);

		jobs[i] = (struct sk_job){ .sh = sh, .slot = i,
					   .path = mounter ? st->dirs[st->maxn + i] : st->file };
		kids[i].fn = mounter ? sk_mounter_main : sk_presser_main;
		kids[i].fn_arg = &jobs[i];
		kids[i].name = mounter ? "shrinkers mounter" : "shrinkers presser";
		kids[i].cgroup_procs = st->set.procs[memcg];
	}
	cs = (struct child_set){ .n = n, .kids = kids, .bind = &ctx->env->bind, .length = o->runtime,
				 .stuck_timeout = ctx->env->g->stuck_timeout, .stop_grace = 2.0,
				 .data = &rd, .ended = task_ended, .stopping = tasks_stopping };
	have = reclaim_snap(st, &before);
	r = child_set_start(&cs);
	t0 = now_monotonic();
	if (r == WL_OK) {
		sk_shared_start(sh, o->runtime);
		r = child_set_wait(&cs, &s->why);
	}
	have = have && reclaim_snap(st, &after);
	if (r == WL_OK && rd.first_failed >= 0) {
		char what[64];
		bool mounter = (size_t)rd.first_failed < k->m;

		snprintf(what, sizeof(what), "%s %zu", mounter ? "mounter" : "presser",
			 mounter ? (size_t)rd.first_failed : (size_t)rd.first_failed - k->m);
		failure(&cs, sh, rd.first_failed, what, &s->why);
		r = WL_OP_FAILED;
	}
	if (r == WL_OK)
		report(ctx, step, s, sh, now_monotonic() - t0, have, before, after);
	/* a mounter killed between mount and umount leaves its mount */
	sk_umount_all(st->dirs + st->maxn, st->maxm);
	child_set_release(&cs);
	free(jobs);
	free(kids);
	sk_shared_destroy(sh);
	return r;
}

static void shrinkers_teardown(struct wl_ctx *ctx)
{
	struct shrinkers_state *st = ctx->priv;

	group_remove(st);
	if (st->parent.path)
		cg_destroy(&st->parent);
	if (st->mounts_id > 0)
		cleanup_pop(st->mounts_id, false);
	st->mounts_id = 0;
	for (size_t i = 0; st->dirs && i < st->maxn + st->maxm; i++)
		free(st->dirs[i]);
	free(st->dirs);
	free(st->file);
	free(st->steps);
	free(st->ops_sum);
	free(st->ops_n);
	st->dirs = NULL;
	st->file = NULL;
	st->steps = NULL;
	st->ops_sum = NULL;
	st->ops_n = NULL;
}

static void shrinkers_summary(struct wl_ctx *ctx, FILE *out)
{
	struct shrinkers_opts *o = ctx->opts;
	struct shrinkers_state *st = ctx->priv;
	char lim[32];

	format_size(o->memcg_limit, lim, sizeof(lim));
	fprintf(out, "shrinkers: parent limit %s, %llu presser%s, %.0f s an iteration\n", lim, o->pressers,
		o->pressers == 1 ? "" : "s", o->runtime);
	for (size_t s = 0; s < st->nsteps; s++)
		if (st->ops_n[s])
			fprintf(out, "  %-28s %12.0f mount+umount/s (mean of %u)\n", ctx->steps[s],
				st->ops_sum[s] / st->ops_n[s], st->ops_n[s]);
}

const struct workload_ops shrinkers_ops = {
	.name = "shrinkers",
	.summary = "mount+umount churn (shrinker registration) while N memcgs' shrinkers are reclaimed",
	.options = shrinkers_options,
	.opts_size = sizeof(struct shrinkers_opts),
	.priv_size = sizeof(struct shrinkers_state),
	.tables = shrinkers_tables,
	.probe = shrinkers_probe,
	.validate = shrinkers_validate,
	.setup = shrinkers_setup,
	.run_step = shrinkers_run_step,
	.teardown = shrinkers_teardown,
	.print_summary = shrinkers_summary,
};
