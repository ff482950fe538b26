// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * faultscale: will-it-scale's page-fault cases as a workload
 * (lrubench-faultscale(7)). Steps: per case (page_fault1/2/3), per mode
 * (processes, threads), per task count T ("page_fault1-processes-4"). An
 * iteration is one will-it-scale run: T tasks, each bound to its own CPU of
 * the node, fault their mapping over and over; per-second counters, the
 * first warmup_samples dropped, the next `samples` averaged
 * (fault_tasks.c). Tasks run in the root memory cgroup (memcgs = 0) or
 * spread over N memcgs (core/memcg_set.h), made once in setup.
 *
 * Tables: one "faultscale <case> <mode> ops/s" per case and mode (op
 * "tasks-T": x axis tasks); "faultscale linear ops/s" (T x the 1-task mean
 * of the same case and mode) and "faultscale scaling efficiency" (ops/s over
 * that), whose ops name their series ("page_fault1-processes-4").
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/memcg_set.h"
#include "core/workload.h"
#include "workloads/faultscale/fault_loop.h"
#include "workloads/faultscale/fault_tasks.h"

/* a step of more tasks than this is a typo, not an experiment (will-it-scale: 2048) */
#define FS_MAX_TASKS 2048
#define FS_THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

enum { MODE_PROCESSES, MODE_THREADS, FS_NMODES };
static const char *const mode_names[] = { "processes", "threads", NULL };

struct faultscale_opts {
	char *cases;
	char *modes;
	struct ull_list tasks;
	uint64_t mapsize;
	bool madvise_hugepage;
	unsigned long long memcgs;
	uint64_t memcg_limit;
	unsigned long long samples;
	unsigned long long warmup_samples;
	char *file_dir;
};

/* table index of (case, mode); then the two derived tables */
#define T_OPS(c, m) ((c) * FS_NMODES + (m))
enum { T_LINEAR = FS_NCASES * FS_NMODES, T_EFFICIENCY };

#define TASKS_AXIS { "tasks", "count" }
static const struct table_def faultscale_tables[] = {
	[T_OPS(0, 0)] = { "faultscale page_fault1 processes ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_OPS(0, 1)] = { "faultscale page_fault1 threads ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_OPS(1, 0)] = { "faultscale page_fault2 processes ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_OPS(1, 1)] = { "faultscale page_fault2 threads ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_OPS(2, 0)] = { "faultscale page_fault3 processes ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_OPS(2, 1)] = { "faultscale page_fault3 threads ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_LINEAR] = { "faultscale linear ops/s", "ops/s", BETTER_HIGHER, TASKS_AXIS },
	[T_EFFICIENCY] = { "faultscale scaling efficiency", "%", BETTER_HIGHER, TASKS_AXIS },
	{ NULL, NULL, 0 },
};

/* What one step is. */
struct fs_step {
	int kase, mode;
	size_t tasks;
};

/* The 1-task figure of a case and mode, for linear and efficiency. */
struct fs_one {
	double sum;
	unsigned n;
};

struct faultscale_state {
	int cases[FS_NCASES], modes[FS_NMODES];
	size_t ncases, nmodes;
	struct fs_step *steps;
	size_t nsteps;
	struct memcg_set set;
	const char *dir;           /* the files of page_fault2/3 */
	struct fs_one one[FS_NCASES][FS_NMODES];
	double *mean_sum;          /* per step: measured ops/s, for the summary */
	unsigned *mean_n;
};

/* memory.stat counters whose deltas go into the details (absent ones skipped) */
static const char *const stat_keys[] = { "pgfault", "pgmajfault", "thp_fault_alloc" };

/* will-it-scale's runtest: every count 1..CPUs; a stride past 16 so a big
 * node stays a few dozen steps: 1, then every (CPUs / 16)-th, then CPUs */
static void tasks_default(const struct sizing *sz, char *buf, size_t len)
{
	unsigned long long n = sz->node_cpus > 0 ? (unsigned long long)sz->node_cpus : 1, step = n / 16;
	size_t used;

	if (n <= 16) {
		snprintf(buf, len, n == 1 ? "1" : "1-%llu", n);
		return;
	}
	used = (size_t)snprintf(buf, len, "1");
	for (unsigned long long t = step; t < n && used < len; t += step)
		used += (size_t)snprintf(buf + used, len - used, ",%llu", t);
	if (used < len)
		snprintf(buf + used, len - used, ",%llu", n);
}

#define FOFF(f) offsetof(struct faultscale_opts, f)
static const struct option_def faultscale_options[] = {
	{ .name = "cases", .type = OPT_STR, .offset = FOFF(cases), .def = "page_fault1,page_fault2,page_fault3",
	  .quick = "page_fault1",
	  .help = "will-it-scale's cases to run, comma-separated: page_fault1 (anonymous private), "
		  "page_fault2 (private file mapping), page_fault3 (shared file mapping)" },
	{ .name = "modes", .type = OPT_STR, .offset = FOFF(modes), .def = "processes,threads",
	  .help = "processes (a process per task) and/or threads (the tasks as threads of one process "
		  "per memcg), comma-separated" },
	{ .name = "tasks", .type = OPT_LIST, .offset = FOFF(tasks), .def_fn = tasks_default, .quick = "1,2",
	  .min = 1, .max = FS_MAX_TASKS,
	  .help = "task counts, one step each (default 1..node CPUs, a stride past 16); each task on "
		  "its own CPU of the node, around again when there are more tasks than CPUs" },
	{ .name = "mapsize", .type = OPT_SIZE, .offset = FOFF(mapsize), .def = "128M",
	  .min = 4096, .max = 1ULL << 40,
	  .help = "bytes each task maps, faults and unmaps per pass (will-it-scale's MEMSIZE, 128M); "
		  "a multiple of the page size" },
	{ .name = "madvise_hugepage", .type = OPT_BOOL, .offset = FOFF(madvise_hugepage), .def = "no",
	  .help = "madvise(MADV_HUGEPAGE) each mapping (the variant of thread 001); THP must not be never" },
	{ .name = "memcgs", .type = OPT_UINT, .offset = FOFF(memcgs), .def = "0", .max = 1024,
	  .help = "memcgs the tasks are spread over (task t in memcg t / ceil(T / memcgs)); 0: the root "
		  "memory cgroup (the controller enabled, no memcg of their own)" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = FOFF(memcg_limit), .def = "none",
	  .min = 16ULL << 20, .max = 1ULL << 50, .flags = OPTF_NONE,
	  .help = "memory limit of each memcg (none: no limit; not with memcgs = 0)" },
	{ .name = "samples", .type = OPT_UINT, .offset = FOFF(samples), .def = "5", .quick = "2",
	  .min = 1, .max = 3600,
	  .help = "one-second samples averaged per iteration (will-it-scale's -s; runtest.py gives 5)" },
	{ .name = "warmup_samples", .type = OPT_UINT, .offset = FOFF(warmup_samples), .def = "6",
	  .quick = "1", .max = 3600,
	  .help = "one-second samples dropped first (will-it-scale drops WARMUP_ITERATIONS + 1 = 6)" },
	{ .name = "file_dir", .type = OPT_STR, .offset = FOFF(file_dir), .def = "sparse",
	  .help = "where page_fault2/3 make their files (unnamed, O_TMPFILE): sparse (lrubench's sparse "
		  "root, a real filesystem) or a directory (will-it-scale uses /tmp)" },
	OPT_END,
};

/* Parse a comma list of names into idx[] (each once): 0, or -1 with err. */
static int parse_names(const char *key, const char *val, const char *const *names, int *idx, size_t max,
		       size_t *n, struct strbuf *err)
{
	char *copy = xstrdup(val ? val : ""), *save = NULL;
	int ret = 0;

	*n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;

		while (*tok == ' ')
			tok++;
		for (k = 0; names[k] && strcmp(names[k], tok); k++)
			;
		if (!names[k]) {
			strbuf_addf(err, "faultscale.%s: unknown '%s' (choose from", key, tok);
			for (int j = 0; names[j]; j++)
				strbuf_addf(err, "%s %s", j ? "," : "", names[j]);
			strbuf_addstr(err, ")");
			ret = -1;
			break;
		}
		for (size_t j = 0; j < *n; j++)
			if (idx[j] == k) {
				strbuf_addf(err, "faultscale.%s: '%s' given twice", key, tok);
				ret = -1;
				goto out;
			}
		if (*n < max)
			idx[(*n)++] = k;
	}
	if (!ret && !*n) {
		strbuf_addf(err, "faultscale.%s: none given", key);
		ret = -1;
	}
out:
	free(copy);
	return ret;
}

static unsigned long long max_tasks(const struct faultscale_opts *o)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < o->tasks.n; i++)
		if (o->tasks.v[i] > m)
			m = o->tasks.v[i];
	return m;
}

static bool thp_never(void)
{
	char *text = read_file_str(FS_THP_ENABLED, NULL);
	bool never = text && strstr(text, "[never]");

	free(text);
	return never;
}

static enum wl_status faultscale_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	struct faultscale_opts *o = ctx->opts;

	if (o->memcgs && (!ctx->env->cg || ctx->env->cg->mode == CG_NONE)) {
		strbuf_addstr(why, "faultscale.memcgs: no memory cgroup controller on this machine; "
			      "set faultscale.memcgs=0 to run without memcgs");
		return WL_UNSUPPORTED;
	}
	if (o->madvise_hugepage && thp_never()) {
		strbuf_addstr(why, "faultscale.madvise_hugepage = yes, but " FS_THP_ENABLED " is never: "
			      "MADV_HUGEPAGE would fault no huge page (set it to madvise or always)");
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

/* The memory checks: what a memcg holds at most, what the node holds. */
static enum wl_status check_memory(struct wl_ctx *ctx, const struct faultscale_state *st, struct strbuf *err)
{
	struct faultscale_opts *o = ctx->opts;
	unsigned long long T = max_tasks(o);
	uint64_t per_task = 0, node = ctx->env->bind.mem_bytes;
	char a[32], b[32];

	for (size_t c = 0; c < st->ncases; c++) {
		uint64_t f = fs_loop_footprint(st->cases[c], o->mapsize);

		if (f > per_task)
			per_task = f;
	}
	if (o->memcgs && o->memcg_limit) {
		unsigned long long per = (T + o->memcgs - 1) / o->memcgs;

		if (per * per_task > o->memcg_limit) {
			format_size(per * per_task, a, sizeof(a));
			format_size(o->memcg_limit, b, sizeof(b));
			strbuf_addf(err, "faultscale: %llu task%s of a memcg at %llu tasks map %s, above "
				    "memcg_limit %s (page_fault2 holds twice the mapping): raise the limit, "
				    "lower mapsize or tasks, or add memcgs", per, per == 1 ? "" : "s", T, a, b);
			return WL_BAD_CONFIG;
		}
	}
	if (node && T * per_task > node) {
		format_size(T * per_task, a, sizeof(a));
		format_size(node, b, sizeof(b));
		strbuf_addf(err, "faultscale: %llu tasks map %s, more than the %s of memory %s "
			    "(page_fault2 holds twice the mapping): lower mapsize or tasks", T, a,
			    ctx->env->bind.node >= 0 ? "node" : "machine", b);
		return WL_BAD_CONFIG;
	}
	return WL_OK;
}

static enum wl_status faultscale_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct faultscale_opts *o = ctx->opts;
	struct faultscale_state *st = ctx->priv;
	long pg = sysconf(_SC_PAGESIZE);
	bool files = false;
	enum wl_status r;

	if (parse_names("cases", o->cases, fs_case_names, st->cases, FS_NCASES, &st->ncases, err) ||
	    parse_names("modes", o->modes, mode_names, st->modes, FS_NMODES, &st->nmodes, err))
		return WL_BAD_CONFIG;
	if (!o->tasks.n) {
		strbuf_addstr(err, "faultscale.tasks: no task counts");
		return WL_BAD_CONFIG;
	}
	if (pg > 0 && o->mapsize % (uint64_t)pg) {
		strbuf_addf(err, "faultscale.mapsize: %llu is not a multiple of the page size (%ld)",
			    (unsigned long long)o->mapsize, pg);
		return WL_BAD_CONFIG;
	}
	if (!o->memcgs && o->memcg_limit) {
		strbuf_addstr(err, "faultscale.memcg_limit needs faultscale.memcgs >= 1 "
			      "(memcgs = 0 runs in the root memory cgroup, which takes no limit)");
		return WL_BAD_CONFIG;
	}
	/* iterations = auto decides on the first table (core/schedule.c) */
	if (ctx->iterations == LB_AUTO && (st->cases[0] != FS_PAGE_FAULT1 || st->modes[0] != MODE_PROCESSES)) {
		strbuf_addf(err, "faultscale: iterations = auto decides on the first table, \"%s\", which "
			    "faultscale.cases and modes do not run: put page_fault1 and processes first, or give "
			    "a number of iterations", faultscale_tables[0].title);
		return WL_BAD_CONFIG;
	}
	for (size_t c = 0; c < st->ncases; c++)
		files |= st->cases[c] != FS_PAGE_FAULT1;
	if (files && o->file_dir && strcmp(o->file_dir, "sparse")) {
		struct stat sb;

		if (o->file_dir[0] != '/') {
			strbuf_addf(err, "faultscale.file_dir: '%s' is not an absolute path (or sparse)", o->file_dir);
			return WL_BAD_CONFIG;
		}
		if (lstat(o->file_dir, &sb) || !S_ISDIR(sb.st_mode)) {
			strbuf_addf(err, "faultscale.file_dir: %s is not a directory%s", o->file_dir,
				    errno == ENOENT ? " (it does not exist)" : "");
			return WL_BAD_CONFIG;
		}
	}
	r = check_memory(ctx, st, err);
	if (r != WL_OK)
		return r;
	if (max_tasks(o) > (unsigned long long)ctx->env->bind.nr_cpus && ctx->env->bind.nr_cpus > 0)
		warning("faultscale: %llu tasks on %d CPU%s: tasks share CPUs past %d (will-it-scale's way "
			"around); those steps measure time slicing as well as faults", max_tasks(o),
			ctx->env->bind.nr_cpus, ctx->env->bind.nr_cpus == 1 ? "" : "s", ctx->env->bind.nr_cpus);
	return WL_OK;
}

static enum wl_status faultscale_setup(struct wl_ctx *ctx)
{
	struct faultscale_opts *o = ctx->opts;
	struct faultscale_state *st = ctx->priv;
	bool files = false;
	enum wl_status r;
	char *thp;

	st->nsteps = st->ncases * st->nmodes * o->tasks.n;
	st->steps = xcalloc(st->nsteps, sizeof(*st->steps));
	st->mean_sum = xcalloc(st->nsteps, sizeof(double));
	st->mean_n = xcalloc(st->nsteps, sizeof(unsigned));
	for (size_t c = 0, s = 0; c < st->ncases; c++)
		for (size_t m = 0; m < st->nmodes; m++)
			for (size_t t = 0; t < o->tasks.n; t++, s++) {
				st->steps[s] = (struct fs_step){ st->cases[c], st->modes[m], (size_t)o->tasks.v[t] };
				wl_add_step(ctx, "%s-%s-%llu", fs_case_names[st->cases[c]],
					    mode_names[st->modes[m]], o->tasks.v[t]);
			}
	for (size_t c = 0; c < st->ncases; c++)
		files |= st->cases[c] != FS_PAGE_FAULT1;
	st->dir = o->file_dir;
	if (files && (!o->file_dir || !strcmp(o->file_dir, "sparse"))) {
		r = env_sparse_dir(ctx->env, &st->dir);
		if (r != WL_OK)
			return r;
	}
	if (files)
		env_fact(ctx->env, "faultscale", "file_dir", json_object_new_string(st->dir));
	env_fact(ctx->env, "faultscale", "mapsize", json_object_new_int64((int64_t)o->mapsize));
	thp = read_file_str(FS_THP_ENABLED, NULL);
	if (thp) {
		thp[strcspn(thp, "\n")] = '\0';
		env_fact(ctx->env, "faultscale", "thp_enabled", json_object_new_string(thp));
		free(thp);
	}
	return memcg_set_make_optional(ctx->env, "faultscale", 1, o->memcgs, o->memcg_limit, &st->set);
}

/* The CPUs of the node in order; task t gets the (t mod n)-th. */
static int *task_cpus(const struct numa_bind *b, size_t ntasks, size_t *ncpus)
{
	int *cpu = xcalloc(ntasks, sizeof(int)), list[CPU_SETSIZE];
	size_t n = 0;

	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b->cpus))
			list[n++] = c;
	if (!n)
		list[n++] = 0;
	for (size_t t = 0; t < ntasks; t++)
		cpu[t] = list[t % n];
	*ncpus = n;
	return cpu;
}

static json_object *doubles(const double *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

static void add_details(struct wl_samples *s, const struct fs_spec *spec, const struct fs_out *out,
			size_t ncpus, const struct memcg_set *set, const struct memcg_stats *before,
			const struct memcg_stats *after)
{
	json_object *d = json_object_new_object(), *cpus = json_object_new_array(),
		    *ran = json_object_new_array();

	json_object_object_add(d, "tasks", json_object_new_int((int)spec->ntasks));
	json_object_object_add(d, "processes", json_object_new_int((int)spec->ngroups));
	json_object_object_add(d, "memcgs", json_object_new_int(set->root ? 0 : (int)set->n));
	json_object_object_add(d, "how", json_object_new_string(
		"will-it-scale's way: per-second sums of the tasks' page counters; the first "
		"warmup_samples dropped, ops/s the mean of the next samples"));
	json_object_object_add(d, "ops_per_s", json_object_new_double(out->ops));
	json_object_object_add(d, "per_second", doubles(out->second, spec->samples));
	json_object_object_add(d, "task_ops_per_s", doubles(out->task, spec->ntasks));
	json_object_object_add(d, "task_min", json_object_new_double(out->min_task));
	json_object_object_add(d, "task_max", json_object_new_double(out->max_task));
	for (size_t t = 0; t < spec->ntasks; t++) {
		json_object_array_add(cpus, json_object_new_int(spec->cpus[t]));
		json_object_array_add(ran, json_object_new_int(out->ran_cpu[t]));
	}
	/* where each task was bound and where it ran: the binding held? */
	json_object_object_add(d, "task_cpus", cpus);
	json_object_object_add(d, "task_ran_on", ran);
	if (spec->ntasks > ncpus)
		json_object_object_add(d, "cpus_shared", json_object_new_string(
			"more tasks than CPUs of the node: tasks share CPUs"));
	if (!set->n)
		json_object_object_add(d, "memory_controller", json_object_new_string(
			"no memory controller: the tasks ran in lrubench's cgroup"));
	for (size_t k = 0; k < ARRAY_SIZE(stat_keys); k++) {
		uint64_t total = 0;
		char key[64];

		if (!memcg_stats_have(before, after, k))
			continue;
		for (size_t m = 0; m < set->n; m++)
			total += memcg_stats_delta(before, after, m, k);
		snprintf(key, sizeof(key), "%s_total", stat_keys[k]);
		json_object_object_add(d, key, json_object_new_int64((int64_t)total));
	}
	wl_detail(s, d);
}

static enum wl_status faultscale_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct faultscale_opts *o = ctx->opts;
	struct faultscale_state *st = ctx->priv;
	const struct fs_step *fs = &st->steps[step];
	size_t ngroups, per, ncpus;
	int *cpus = task_cpus(&ctx->env->bind, fs->tasks, &ncpus);
	const char **procs;
	struct memcg_stats before = { 0 }, after = { 0 };
	struct fs_spec spec;
	struct fs_out out;
	struct fs_one *one = &st->one[fs->kase][fs->mode];
	enum wl_status r;
	char op[64];

	fs_groups(fs->mode == MODE_THREADS, fs->tasks, st->set.root ? 0 : st->set.n, &ngroups, &per);
	procs = xcalloc(ngroups, sizeof(*procs));
	for (size_t g = 0; g < ngroups; g++)
		/* processes: task g; threads: group g's first task */
		procs[g] = fs->mode == MODE_THREADS ? memcg_set_procs(&st->set, g, 1) :
			   memcg_set_procs(&st->set, g, st->set.root || !st->set.n ? 1 :
					   (fs->tasks + st->set.n - 1) / st->set.n);
	spec = (struct fs_spec){ .kase = fs->kase, .threads = fs->mode == MODE_THREADS,
				 .ntasks = fs->tasks, .ngroups = ngroups, .per = per, .procs = procs,
				 .cpus = cpus, .len = o->mapsize, .hugepage = o->madvise_hugepage,
				 .dir = st->dir, .bind = &ctx->env->bind, .warm = (unsigned)o->warmup_samples,
				 .samples = (unsigned)o->samples, .stuck_timeout = ctx->env->g->stuck_timeout,
				 .why = &s->why };
	memcg_stats_take(&before, &st->set, stat_keys, ARRAY_SIZE(stat_keys));
	r = fs_run(&spec, &out);
	if (r == WL_OK) {
		memcg_stats_take(&after, &st->set, stat_keys, ARRAY_SIZE(stat_keys));
		snprintf(op, sizeof(op), "tasks-%zu", fs->tasks);
		wl_sample(s, T_OPS(fs->kase, fs->mode), op, out.ops);
		if (!s->discard && fs->tasks == 1) {
			one->sum += out.ops;
			one->n++;
		}
		/* against the 1-task mean of this run (no 1-task step measured: none) */
		if (one->n) {
			double linear = (double)fs->tasks * one->sum / one->n;

			snprintf(op, sizeof(op), "%s-%s-%zu", fs_case_names[fs->kase], mode_names[fs->mode],
				 fs->tasks);
			wl_sample(s, T_LINEAR, op, linear);
			/* a 1-task figure of 0 (a step that wrote nothing) scales nothing */
			if (fs->tasks > 1 && linear > 0)
				wl_sample(s, T_EFFICIENCY, op, 100.0 * out.ops / linear);
		}
		if (!s->discard) {
			st->mean_sum[step] += out.ops;
			st->mean_n[step]++;
		}
		add_details(s, &spec, &out, ncpus, &st->set, &before, &after);
		fs_out_release(&out);
	}
	memcg_stats_release(&before);
	memcg_stats_release(&after);
	free(procs);
	free(cpus);
	return r;
}

static void faultscale_teardown(struct wl_ctx *ctx)
{
	struct faultscale_state *st = ctx->priv;

	memcg_set_remove(&st->set);
	free(st->steps);
	free(st->mean_sum);
	free(st->mean_n);
	st->steps = NULL;
	st->mean_sum = NULL;
	st->mean_n = NULL;
}

/* will-it-scale's table: tasks, processes, threads, linear (per case) */
static void faultscale_summary(struct wl_ctx *ctx, FILE *out)
{
	struct faultscale_opts *o = ctx->opts;
	struct faultscale_state *st = ctx->priv;
	char size[32];

	format_size(o->mapsize, size, sizeof(size));
	fprintf(out, "faultscale: %s a task%s, %llu+%llu one-second samples an iteration, memcgs=%llu\n",
		size, o->madvise_hugepage ? " (MADV_HUGEPAGE)" : "", o->warmup_samples, o->samples, o->memcgs);
	for (size_t s = 0; s < st->nsteps; s++)
		if (st->mean_n[s])
			fprintf(out, "  %-28s %14.0f ops/s (mean of %u)\n", ctx->steps[s],
				st->mean_sum[s] / st->mean_n[s], st->mean_n[s]);
}

const struct workload_ops faultscale_ops = {
	.name = "faultscale",
	.summary = "will-it-scale's page faults: ops/s of 1..N processes or threads, in memcgs",
	.options = faultscale_options,
	.opts_size = sizeof(struct faultscale_opts),
	.priv_size = sizeof(struct faultscale_state),
	.tables = faultscale_tables,
	.probe = faultscale_probe,
	.validate = faultscale_validate,
	.setup = faultscale_setup,
	.run_step = faultscale_run_step,
	.teardown = faultscale_teardown,
	.print_summary = faultscale_summary,
};
