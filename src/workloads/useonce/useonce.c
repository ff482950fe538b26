// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * useonce: streaming reads of real data larger than memory
 * (lrubench-useonce(7)), after thread 003's iozone test of the use-once
 * cleanup ("larger than RAM sequential access with mmap()": a 140 MB file
 * read four times in 128 MB, elapsed and CPU% per kernel).
 *
 * Setup writes the data file once per run (data_file.h: real blocks on the
 * run's filesystem, not holes), larger than the memcg limit, and with
 * protect = mapped a second file for the protected set. Steps: per mode and
 * block size ("read-4096", "read-5000", "mmap"). An iteration makes a fresh
 * memcg, drops both files from the page cache (POSIX_FADV_DONTNEED: our own
 * files, always; global.drop_caches too when set), starts the protected set
 * there when asked and waits until it is warm, then runs the streamer
 * (tasks.h): `passes` whole-file passes, a fixed amount of work, each timed
 * by the streamer itself; then stops the protected set and removes the memcg.
 *
 * Tables: elapsed s, CPU % and MB/s of all passes (op = step) and of each
 * pass (op "<step>-pass-N", x axis pass), the LRU counters of each pass as
 * rates, the MB each pass read from storage (what the page cache did not
 * hold), the protected set's major faults and touch p99; the run layer adds
 * the vmstat and memcg rates of the whole iteration (wl_memcg_report).
 * The streamer measures the cache state too: the bytes of the file in the
 * page cache before its first pass and after each (details); an iteration
 * that did not start cold says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/child_set.h"
#include "core/child_watch.h"
#include "core/cleanup.h"
#include "core/lat_hist.h"
#include "core/memcg_set.h"
#include "core/workload.h"
#include "workloads/useonce/data_file.h"
#include "workloads/useonce/tasks.h"

/* a read() block above this is a typo, not a reader */
#define UO_MAX_BLOCK (64u << 20)
/* seconds the protected set may take to become warm (it reads its file once) */
#define UO_WARM_MAX 300.0

enum { MODE_READ, MODE_MMAP, UO_NMODES };
static const char *const mode_names[] = { "read", "mmap", NULL };
enum { PROTECT_NONE, PROTECT_ANON, PROTECT_MAPPED };
static const char *const protect_names[] = { "none", "anon", "mapped", NULL };

struct useonce_opts {
	char *modes;
	struct ull_list block_sizes;
	unsigned long long passes;
	uint64_t file_size;
	uint64_t memcg_limit;
	int protect;
	uint64_t protect_size;
	double protect_pause;
};

enum {
	T_ELAPSED, T_CPU, T_MBPS, T_PASS_ELAPSED, T_PASS_CPU, T_PASS_MBPS,
	T_RATE0,                       /* + UO_* counter */
	T_PROT_MAJFLT = T_RATE0 + UO_NCOUNTERS, T_PROT_P99, T_PASS_STORAGE,
};

#define NO_AXIS { NULL, NULL }
#define PASS_AXIS { "pass", "count" }
static const struct table_def useonce_tables[] = {
	[T_ELAPSED] = { "useonce elapsed s", "s", BETTER_LOWER, NO_AXIS },
	[T_CPU] = { "useonce CPU %", "%", BETTER_LOWER, NO_AXIS },
	[T_MBPS] = { "useonce MB/s", "MB/s", BETTER_HIGHER, NO_AXIS },
	[T_PASS_ELAPSED] = { "useonce elapsed s per pass", "s", BETTER_LOWER, PASS_AXIS },
	[T_PASS_CPU] = { "useonce CPU % per pass", "%", BETTER_LOWER, PASS_AXIS },
	[T_PASS_MBPS] = { "useonce MB/s per pass", "MB/s", BETTER_HIGHER, PASS_AXIS },
	[T_RATE0 + UO_PGACTIVATE] = { "useonce pgactivate/s per pass", "pages/s", BETTER_LOWER, PASS_AXIS },
	[T_RATE0 + UO_PGDEACTIVATE] = { "useonce pgdeactivate/s per pass", "pages/s", BETTER_LOWER, PASS_AXIS },
	[T_RATE0 + UO_REFAULT] = { "useonce workingset_refault/s per pass", "pages/s", BETTER_LOWER, PASS_AXIS },
	[T_RATE0 + UO_ACTIVATE] = { "useonce workingset_activate/s per pass", "pages/s", BETTER_LOWER, PASS_AXIS },
	[T_PROT_MAJFLT] = { "useonce protected set major faults", "faults", BETTER_LOWER, NO_AXIS },
	[T_PROT_P99] = { "useonce protected set touch p99", "us", BETTER_LOWER, NO_AXIS },
	[T_PASS_STORAGE] = { "useonce MB read from storage per pass", "MB", BETTER_LOWER, PASS_AXIS },
	{ NULL, NULL, 0 },
};

struct uo_step {
	int mode;
	size_t block;
};

struct uo_mean {
	double elapsed, cpu, majflt;
	unsigned n;
};

struct useonce_state {
	int modes[UO_NMODES];
	size_t nmodes;
	uint64_t file_size;      /* file_size, or what auto made of it */
	struct uo_step *steps;
	size_t nsteps;
	char *data, *pfile;      /* the files, once written */
	bool data_made, pfile_made;
	struct uo_mean *mean;    /* per step, for the summary */
};

/* memory.stat counters of the whole iteration into the details (absent ones skipped) */
static const char *const stat_keys[] = { "pgmajfault", "workingset_refault" };

#define UOFF(f) offsetof(struct useonce_opts, f)
static const struct option_def useonce_options[] = {
	{ .name = "modes", .type = OPT_STR, .offset = UOFF(modes), .def = "read,mmap",
	  .help = "how the streamer reads, comma-separated: read (read() of each block size) and/or mmap "
		  "(map the file, read a byte of every page: iozone -B)" },
	{ .name = "block_sizes", .type = OPT_LIST, .offset = UOFF(block_sizes), .def = "4096,5000",
	  .min = 1, .max = UO_MAX_BLOCK,
	  .help = "read() block sizes in bytes, one step each (5000: a reader that is not a page "
		  "multiple, the thread's partial-page case)" },
	{ .name = "passes", .type = OPT_UINT, .offset = UOFF(passes), .def = "4", .quick = "2",
	  .min = 1, .max = UO_MAX_PASSES,
	  .help = "whole-file passes an iteration (iozone -i 1 -i 1 -i 1 -i 1: 4)" },
	{ .name = "file_size", .type = OPT_SIZE, .offset = UOFF(file_size), .def = "auto",
	  .min = 1ULL << 20, .max = 1ULL << 42, .flags = OPTF_AUTO,
	  .help = "the data file, written once per run in the work folder; auto: twice memcg_limit, or "
		  "with no limit 140/128 of the node's memory (the thread's 140 MB in 128 MB)" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = UOFF(memcg_limit), .def = "256M",
	  .quick = "64M", .min = 16ULL << 20, .max = 1ULL << 50, .flags = OPTF_NONE,
	  .help = "memory limit of the memcg the streamer (and the protected set) run in; none: a memcg "
		  "without a limit, the node's memory is the limit" },
	{ .name = "protect", .type = OPT_ENUM, .offset = UOFF(protect), .def = "none",
	  .choices = protect_names,
	  .help = "a protected working set in the same memcg, touched in a loop: none, anon (anonymous "
		  "memory: without swap it cannot be pushed out) or mapped (a mapping of a second file "
		  "of real data: a page pushed out comes back by a major fault)" },
	{ .name = "protect_size", .type = OPT_SIZE, .offset = UOFF(protect_size), .def = "32M",
	  .quick = "16M", .min = 1ULL << 20, .max = 1ULL << 40,
	  .help = "bytes of the protected working set (below memcg_limit)" },
	{ .name = "protect_pause", .type = OPT_TIME, .offset = UOFF(protect_pause), .def = "100ms",
	  .max = 60,
	  .help = "pause between two sweeps of the protected set over its pages (an application that "
		  "comes back to its memory now and then; 0: touch without pause)" },
	OPT_END,
};

/* Parse a comma list of names into idx[] (each once): 0, or -1 with err. */
static int parse_modes(const char *val, int *idx, size_t *n, struct strbuf *err)
{
	char *copy = xstrdup(val ? val : ""), *save = NULL;
	int ret = 0;

	*n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		int k;

		while (*tok == ' ')
			tok++;
		for (k = 0; mode_names[k] && strcmp(mode_names[k], tok); k++)
			;
		if (!mode_names[k]) {
			strbuf_addf(err, "useonce.modes: unknown '%s' (choose from read, mmap)", tok);
			ret = -1;
		}
		for (size_t j = 0; !ret && j < *n; j++)
			if (idx[j] == k) {
				strbuf_addf(err, "useonce.modes: '%s' given twice", tok);
				ret = -1;
			}
		if (!ret)
			idx[(*n)++] = k;
	}
	if (!ret && !*n) {
		strbuf_addstr(err, "useonce.modes: none given");
		ret = -1;
	}
	free(copy);
	return ret;
}

static uint64_t resolve_file_size(const struct useonce_opts *o, const struct run_env *env)
{
	if (o->file_size != LB_SIZE_AUTO)
		return o->file_size;
	if (o->memcg_limit)
		return 2 * o->memcg_limit;
	return env->bind.mem_bytes / 128 * 140;
}

static uint64_t data_bytes(const struct useonce_opts *o, uint64_t file_size)
{
	return file_size + (o->protect == PROTECT_MAPPED ? o->protect_size : 0);
}

static enum wl_status useonce_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	if (!ctx->env->cg || ctx->env->cg->mode == CG_NONE) {
		strbuf_addstr(why, "useonce: no memory cgroup controller on this machine: the streamer "
			      "runs in a memcg of its own (its limit is the memory it streams through)");
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static enum wl_status useonce_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	uint64_t need;
	char a[32], b[32];

	if (parse_modes(o->modes, st->modes, &st->nmodes, err))
		return WL_BAD_CONFIG;
	if (!o->block_sizes.n) {
		for (size_t m = 0; m < st->nmodes; m++)
			if (st->modes[m] == MODE_READ) {
				strbuf_addstr(err, "useonce.block_sizes: no block size for mode read");
				return WL_BAD_CONFIG;
			}
	}
	if (o->protect != PROTECT_NONE && o->memcg_limit && o->protect_size >= o->memcg_limit) {
		format_size(o->protect_size, a, sizeof(a));
		format_size(o->memcg_limit, b, sizeof(b));
		strbuf_addf(err, "useonce.protect_size: %s is not below useonce.memcg_limit %s: the protected "
			    "set must fit in the memcg beside the streamer", a, b);
		return WL_BAD_CONFIG;
	}
	st->file_size = resolve_file_size(o, ctx->env);
	if (!st->file_size) {
		strbuf_addstr(err, "useonce.file_size: auto with no memcg_limit needs the node's memory, "
			      "which is unknown here: give a size");
		return WL_BAD_CONFIG;
	}
	if (st->file_size > 1ULL << 42) {
		strbuf_addf(err, "useonce.file_size: auto made %llu bytes, above the limit of 4T",
			    (unsigned long long)st->file_size);
		return WL_BAD_CONFIG;
	}
	if (o->memcg_limit && st->file_size <= o->memcg_limit) {
		format_size(st->file_size, a, sizeof(a));
		format_size(o->memcg_limit, b, sizeof(b));
		warning("useonce.file_size %s is not above memcg_limit %s: after the first pass the file is "
			"cached and nothing is streamed through reclaim", a, b);
	}
	/* the disk the run needs, said on every run (and --dry-run), refused when missing */
	need = uo_disk_need(data_bytes(o, st->file_size));
	format_size(need, a, sizeof(a));
	if (!lb_quiet)
		fprintf(stderr, "lrubench: useonce needs %s (%llu bytes) of disk in the work folder %s: the "
			"data file%s, written once per run\n", a, (unsigned long long)need,
			ctx->env->g->workdir, o->protect == PROTECT_MAPPED ? " and the protected file" : "");
	return uo_disk_check(ctx->env->g->workdir, need, err);
}

static enum wl_status make_file(struct wl_ctx *ctx, const char *path, uint64_t size, uint64_t seed,
				const char *fact)
{
	double secs = 0;
	enum wl_status r = uo_file_write(path, size, seed, &secs);
	json_object *f;

	if (r != WL_OK)
		return r;
	f = json_object_new_object();
	json_object_object_add(f, "bytes", json_object_new_int64((int64_t)size));
	json_object_object_add(f, "write_seconds", json_object_new_double(secs));
	json_object_object_add(f, "write_mbps", json_object_new_double(secs > 0 ? (double)size / secs / 1e6 : 0));
	json_object_object_add(f, "how", json_object_new_string(
		"posix_fallocate, then 1 MiB write()s of pseudo-random bytes, fsync, POSIX_FADV_DONTNEED; "
		"written by lrubench in its own cgroup, once per run"));
	env_fact(ctx->env, "useonce", fact, f);
	return WL_OK;
}

static enum wl_status useonce_setup(struct wl_ctx *ctx)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	enum wl_status r;

	for (size_t m = 0; m < st->nmodes; m++)
		st->nsteps += st->modes[m] == MODE_READ ? o->block_sizes.n : 1;
	st->steps = xcalloc(st->nsteps, sizeof(*st->steps));
	st->mean = xcalloc(st->nsteps, sizeof(*st->mean));
	for (size_t m = 0, s = 0; m < st->nmodes; m++) {
		if (st->modes[m] == MODE_MMAP) {
			st->steps[s++] = (struct uo_step){ MODE_MMAP, 0 };
			wl_add_step(ctx, "mmap");
			continue;
		}
		for (size_t b = 0; b < o->block_sizes.n; b++) {
			st->steps[s++] = (struct uo_step){ MODE_READ, (size_t)o->block_sizes.v[b] };
			wl_add_step(ctx, "read-%llu", o->block_sizes.v[b]);
		}
	}
	st->data = xasprintf("%s/useonce-data", ctx->workdir);
	r = make_file(ctx, st->data, st->file_size, 0x5eed, "data_file");
	if (r != WL_OK)
		return r;
	st->data_made = true;
	if (o->protect == PROTECT_MAPPED) {
		st->pfile = xasprintf("%s/useonce-protected", ctx->workdir);
		r = make_file(ctx, st->pfile, o->protect_size, 0x9a7e, "protected_file");
		if (r != WL_OK)
			return r;
		st->pfile_made = true;
	}
	env_fact(ctx->env, "useonce", "memcg_limit", json_object_new_int64((int64_t)o->memcg_limit));
	return WL_OK;
}

/* Our own file out of the page cache: every iteration starts cold. */
static int drop_file(const char *path)
{
	int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1, e;

	if (!path)
		return 0;
	if (fd < 0)
		return error_errno("useonce: cannot open %s", path);
	e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (e) {
		errno = e;
		return error_errno("useonce: cannot drop %s from the page cache", path);
	}
	return 0;
}

/* An iteration is meant to start cold (drop_file): say so when the
 * streamer found more than 1% of the file cached before its first pass
 * (another reader of the file, a drop that could not drop). */
static void warn_not_cold(struct wl_ctx *ctx, size_t step, const struct uo_stream_result *r)
{
	struct useonce_state *st = ctx->priv;
	char a[32];

	if (!r->resident_known || r->resident_start <= st->file_size / 100)
		return;
	format_size(r->resident_start, a, sizeof(a));
	warning("useonce: %s: %s of the data file (%.0f%%) was in the page cache before the first pass: "
		"the iteration did not start cold", ctx->steps[step], a,
		100.0 * (double)r->resident_start / (double)st->file_size);
}

/* What the tasks report, in memory shared with them. */
struct uo_shared {
	struct uo_stream_result stream;
	struct uo_protect_result protect;
};

static const char *source_name(int src)
{
	return src == UO_SRC_MEMCG ? "memory.stat of the memcg" :
	       src == UO_SRC_VMSTAT ? "/proc/vmstat (the whole machine)" : "unavailable";
}

static void add_details(struct wl_samples *s, struct wl_ctx *ctx, const struct uo_step *us,
			const struct uo_shared *sh, const struct memcg_stats *before,
			const struct memcg_stats *after)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	json_object *d = json_object_new_object(), *passes = json_object_new_array(), *src = json_object_new_object();

	json_object_object_add(d, "mode", json_object_new_string(mode_names[us->mode]));
	if (us->mode == MODE_READ)
		json_object_object_add(d, "block", json_object_new_int64((int64_t)us->block));
	json_object_object_add(d, "file_bytes", json_object_new_int64((int64_t)st->file_size));
	json_object_object_add(d, "memcg_limit", json_object_new_int64((int64_t)o->memcg_limit));
	json_object_object_add(d, "how", json_object_new_string(
		"the streamer times each whole-file pass itself (CLOCK_MONOTONIC) and takes its own CPU "
		"time from getrusage (user + sys over elapsed: time(1)'s percent of CPU) and the bytes "
		"it read from storage (ru_inblock x 512: task I/O accounting, readahead included); LRU "
		"counters and the file's bytes in the page cache (mincore) read between passes, untimed"));
	json_object_object_add(d, "io_accounting", json_object_new_boolean(sh->stream.io_accounting));
	if (sh->stream.resident_known)
		json_object_object_add(d, "resident_at_start_bytes",
				       json_object_new_int64((int64_t)sh->stream.resident_start));
	for (unsigned p = 0; p < sh->stream.done; p++) {
		const struct uo_pass *ps = &sh->stream.pass[p];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "elapsed", json_object_new_double(ps->elapsed));
		json_object_object_add(j, "user", json_object_new_double(ps->user));
		json_object_object_add(j, "sys", json_object_new_double(ps->sys));
		json_object_object_add(j, "bytes", json_object_new_int64((int64_t)ps->bytes));
		json_object_object_add(j, "majflt", json_object_new_int64((int64_t)ps->majflt));
		json_object_object_add(j, "minflt", json_object_new_int64((int64_t)ps->minflt));
		if (sh->stream.io_accounting)
			json_object_object_add(j, "storage_bytes", json_object_new_int64((int64_t)ps->storage_bytes));
		if (sh->stream.resident_known)
			json_object_object_add(j, "resident_after_bytes",
					       json_object_new_int64((int64_t)ps->resident_after));
		for (int c = 0; c < UO_NCOUNTERS; c++)
			json_object_object_add(j, uo_counter_names[c], json_object_new_int64((int64_t)ps->count[c]));
		json_object_array_add(passes, j);
	}
	json_object_object_add(d, "passes", passes);
	for (int c = 0; c < UO_NCOUNTERS; c++)
		json_object_object_add(src, uo_counter_names[c], json_object_new_string(source_name(sh->stream.source[c])));
	json_object_object_add(d, "counter_source", src);
	if (o->protect != PROTECT_NONE) {
		const struct lat_hist *h = &sh->protect.hist;
		json_object *p = json_object_new_object();

		json_object_object_add(p, "kind", json_object_new_string(protect_names[o->protect]));
		json_object_object_add(p, "bytes", json_object_new_int64((int64_t)o->protect_size));
		json_object_object_add(p, "sweeps", json_object_new_int64((int64_t)sh->protect.sweeps));
		json_object_object_add(p, "touches", json_object_new_int64((int64_t)h->count));
		json_object_object_add(p, "majflt", json_object_new_int64((int64_t)sh->protect.majflt));
		json_object_object_add(p, "minflt", json_object_new_int64((int64_t)sh->protect.minflt));
		json_object_object_add(p, "p50_us", json_object_new_double(lh_percentile(h, 50) / 1e3));
		json_object_object_add(p, "p99_us", json_object_new_double(lh_percentile(h, 99) / 1e3));
		json_object_object_add(p, "max_us", json_object_new_double((double)h->max / 1e3));
		json_object_object_add(p, "how", json_object_new_string(
			"every page touched once untimed (warm), then sweeps over its pages with a pause "
			"between them while the streamer ran, each touch timed into a log-linear histogram "
			"(1.6%); major faults from getrusage since warm"));
		json_object_object_add(d, "protected", p);
	}
	for (size_t k = 0; k < ARRAY_SIZE(stat_keys); k++) {
		char key[64];

		if (!memcg_stats_have(before, after, k))
			continue;
		snprintf(key, sizeof(key), "memcg_%s", stat_keys[k]);
		json_object_object_add(d, key, json_object_new_int64((int64_t)memcg_stats_delta(before, after, 0, k)));
	}
	wl_detail(s, d);
}

static void add_samples(struct wl_samples *s, struct wl_ctx *ctx, size_t step, const struct uo_shared *sh)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	const char *name = ctx->steps[step];
	double el = 0, cpu = 0, bytes = 0;
	char op[96];

	for (unsigned p = 0; p < sh->stream.done; p++) {
		const struct uo_pass *ps = &sh->stream.pass[p];

		el += ps->elapsed;
		cpu += ps->user + ps->sys;
		bytes += (double)ps->bytes;
		snprintf(op, sizeof(op), "%s-pass-%u", name, p + 1);
		wl_sample(s, T_PASS_ELAPSED, op, ps->elapsed);
		wl_sample(s, T_PASS_CPU, op, ps->elapsed > 0 ? 100.0 * (ps->user + ps->sys) / ps->elapsed : 0);
		wl_sample(s, T_PASS_MBPS, op, ps->elapsed > 0 ? (double)ps->bytes / ps->elapsed / 1e6 : 0);
		for (int c = 0; c < UO_NCOUNTERS; c++)
			if (sh->stream.source[c] != UO_SRC_NONE)
				wl_sample(s, T_RATE0 + c, op, ps->elapsed > 0 ? (double)ps->count[c] / ps->elapsed : 0);
		if (sh->stream.io_accounting)
			wl_sample(s, T_PASS_STORAGE, op, (double)ps->storage_bytes / 1e6);
	}
	wl_sample(s, T_ELAPSED, name, el);
	wl_sample(s, T_CPU, name, el > 0 ? 100.0 * cpu / el : 0);
	wl_sample(s, T_MBPS, name, el > 0 ? bytes / el / 1e6 : 0);
	if (o->protect != PROTECT_NONE) {
		wl_sample(s, T_PROT_MAJFLT, name, (double)sh->protect.majflt);
		wl_sample(s, T_PROT_P99, name, lh_percentile(&sh->protect.hist, 99) / 1e3);
	}
	if (!s->discard) {
		st->mean[step].elapsed += el;
		st->mean[step].cpu += el > 0 ? 100.0 * cpu / el : 0;
		st->mean[step].majflt += (double)sh->protect.majflt;
		st->mean[step].n++;
	}
}

/* The protected set ended on its own (OOM-killed, failed): the op fails. */
static bool protect_died(struct child_set *ps, struct wl_samples *s)
{
	size_t i;
	int code;
	char why[128];

	if (!ps->started || !child_set_poll(ps, &i, &code))
		return false;
	child_describe_code(code, why, sizeof(why));
	strbuf_addf(&s->why, "useonce protected set (pid %d) %s%s", (int)ps->kids[i].pid, why,
		    code == 128 + 9 ? " (OOM-killed? the memcg limit is too small for it)" : "");
	error("%s", s->why.buf);
	return true;
}

static enum wl_status wait_warm(struct child_set *ps, const struct uo_shared *sh, struct wl_samples *s)
{
	double t0 = now_monotonic();

	while (!sh->protect.ready) {
		if (protect_died(ps, s))
			return WL_OP_FAILED;
		if (now_monotonic() - t0 > UO_WARM_MAX) {
			strbuf_addf(&s->why, "useonce protected set not warm within %.0f s", UO_WARM_MAX);
			error("%s", s->why.buf);
			return WL_OP_FAILED;
		}
		if (lb_sleep(0.01))
			return WL_INTERRUPTED;
	}
	return WL_OK;
}

/* Start the streamer and wait for it (a deadline: stuck when it uses no CPU). */
static enum wl_status run_streamer(struct wl_ctx *ctx, struct child *c, struct wl_samples *s,
				   const struct uo_shared *sh)
{
	struct child_watch w;
	int code = 0, r;
	char why[128];

	if (child_start(c))
		return WL_FAILED;
	child_watch_start(&w, -1, ctx->env->g->stuck_timeout);
	r = child_wait_watched(c, &w, 0.1, &code, NULL, &s->why);
	if (r != WATCH_REAPED)
		child_stop(c, 2.0);
	if (r == WATCH_STOP || lb_stop_requested())
		return WL_INTERRUPTED;
	if (r == WATCH_STUCK) {
		error("%s", s->why.buf);
		return WL_OP_FAILED;
	}
	if (r != WATCH_REAPED)
		return WL_FAILED;
	if (code) {
		child_describe_code(code, why, sizeof(why));
		strbuf_addf(&s->why, "useonce streamer (pid %d) %s%s%s", (int)c->pid, why,
			    sh->stream.err ? ": " : "", sh->stream.err ? strerror(sh->stream.err) : "");
		error("%s", s->why.buf);
		return WL_OP_FAILED;
	}
	return WL_OK;
}

static enum wl_status useonce_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	const struct uo_step *us = &st->steps[step];
	struct memcg_set set = { 0 };
	struct memcg_stats before = { 0 }, after = { 0 };
	struct uo_shared *sh;
	struct uo_stream_arg sa;
	struct uo_protect_arg pa;
	struct child pkid, rc;
	/* the protected set runs until it is stopped: no length, no deadline of
	 * its own (the streamer has one) */
	struct child_set ps = { .n = 1, .kids = &pkid, .memcgs = &set, .per = 1, .bind = &ctx->env->bind,
				.stop_grace = 1.0 };
	char *memstat = NULL;
	enum wl_status ret = WL_FAILED;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		error_errno("useonce: cannot map the tasks' results");
		return WL_FAILED;
	}
	if (drop_file(st->data) || drop_file(st->pfile))
		goto out;
	ret = memcg_set_make(ctx->env, "useonce", 0, 1, o->memcg_limit, &set);
	if (ret != WL_OK)
		goto out;
	ret = WL_FAILED;
	memstat = xasprintf("%s/memory.stat", set.cg[0].path);
	if (o->protect != PROTECT_NONE) {
		pa = (struct uo_protect_arg){ o->protect == PROTECT_MAPPED, st->pfile, (size_t)o->protect_size,
					      o->protect_pause, &sh->protect };
		pkid = (struct child){ .fn = uo_protect_main, .fn_arg = &pa, .name = "useonce protected set" };
		if ((ret = child_set_start(&ps)) != WL_OK)
			goto out;
		if ((ret = wait_warm(&ps, sh, s)) != WL_OK)
			goto out;
	}
	sa = (struct uo_stream_arg){ st->data, us->mode == MODE_MMAP, us->block, (unsigned)o->passes, memstat,
				     &sh->stream };
	rc = (struct child){ .fn = uo_stream_main, .fn_arg = &sa, .cgroup_procs = memcg_set_procs(&set, 0, 1),
			     .bind = &ctx->env->bind, .name = "useonce streamer" };
	memcg_stats_take(&before, &set, stat_keys, ARRAY_SIZE(stat_keys));
	if ((ret = run_streamer(ctx, &rc, s, sh)) != WL_OK)
		goto out;
	memcg_stats_take(&after, &set, stat_keys, ARRAY_SIZE(stat_keys));
	if (o->protect != PROTECT_NONE && protect_died(&ps, s)) {
		ret = WL_OP_FAILED;
		goto out;
	}
	child_set_stop(&ps);
	warn_not_cold(ctx, step, &sh->stream);
	add_samples(s, ctx, step, sh);
	{
		double el = 0, mbps;

		for (unsigned p = 0; p < sh->stream.done; p++)
			el += sh->stream.pass[p].elapsed;
		mbps = el > 0 ? (double)st->file_size * sh->stream.done / el / 1e6 : 0;
		wl_memcg_report(ctx->env, s, &(struct wl_memcg_report){ ctx->steps[step], &mbps, 1, &before,
									&after, el });
	}
	add_details(s, ctx, us, sh, &before, &after);
	ret = WL_OK;
out:
	if (ps.started || ps.code)
		child_set_release(&ps);
	memcg_stats_release(&before);
	memcg_stats_release(&after);
	if (memcg_set_remove(&set) && ret == WL_OK)
		ret = WL_FAILED;
	free(memstat);
	munmap(sh, sizeof(*sh));
	return ret;
}

static void useonce_teardown(struct wl_ctx *ctx)
{
	struct useonce_state *st = ctx->priv;

	/* the work folder goes with the run too; the files go now (and
	 * uo_file_write removed a half-written one) */
	if (st->data_made)
		unlink(st->data);
	if (st->pfile_made)
		unlink(st->pfile);
	free(st->data);
	free(st->pfile);
	free(st->steps);
	free(st->mean);
	st->data = st->pfile = NULL;
	st->steps = NULL;
	st->mean = NULL;
	st->data_made = st->pfile_made = false;
}

/* time(1)'s two numbers of the thread, per step */
static void useonce_summary(struct wl_ctx *ctx, FILE *out)
{
	struct useonce_opts *o = ctx->opts;
	struct useonce_state *st = ctx->priv;
	char fs[32], lim[32], ps[32];

	format_size(st->file_size, fs, sizeof(fs));
	if (o->memcg_limit)
		format_size(o->memcg_limit, lim, sizeof(lim));
	else
		snprintf(lim, sizeof(lim), "no limit");
	format_size(o->protect_size, ps, sizeof(ps));
	fprintf(out, "useonce: %s of data read %llu times in a memcg of %s", fs, o->passes, lim);
	if (o->protect != PROTECT_NONE)
		fprintf(out, ", a protected set (%s) of %s", protect_names[o->protect], ps);
	fputc('\n', out);
	for (size_t s = 0; s < st->nsteps; s++) {
		const struct uo_mean *m = &st->mean[s];

		if (!m->n)
			continue;
		fprintf(out, "  %-12s elapsed %8.2f s  CPU %5.1f %%", ctx->steps[s], m->elapsed / m->n, m->cpu / m->n);
		if (o->protect != PROTECT_NONE)
			fprintf(out, "  protected major faults %.0f", m->majflt / m->n);
		fprintf(out, "  (mean of %u)\n", m->n);
	}
}

const struct workload_ops useonce_ops = {
	.name = "useonce",
	.summary = "use-once streaming: a file of real data larger than the memcg read k times by read() and mmap",
	.options = useonce_options,
	.opts_size = sizeof(struct useonce_opts),
	.priv_size = sizeof(struct useonce_state),
	.tables = useonce_tables,
	.probe = useonce_probe,
	.validate = useonce_validate,
	.setup = useonce_setup,
	.run_step = useonce_run_step,
	.teardown = useonce_teardown,
	.print_summary = useonce_summary,
};
