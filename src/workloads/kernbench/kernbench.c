// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernbench: time kernel compiles, optionally several at once, each in its
 * own memory cgroup on its own copy of the tree (lrubench(1)).
 *
 * setup:   source (URL -> verified cache, or a local tarball) -> safe
 *          extraction into the workdir -> `make <config_target>` (or a .config
 *          + olddefconfig) -> one copy of the configured tree per memcg ->
 *          memcgs -> warm-up build (see below) -> one step per jobs value.
 * step:    per iteration an untimed `make clean` in every tree, then the
 *          timed `make -jJ <build_target>` in every tree at once. elsp-J is
 *          the wall time (CLOCK_MONOTONIC) until the last build finished;
 *          user-J and syst-J are the CPU times of the whole process trees
 *          (wait4 rusage of each make, which includes every compiler it
 *          waited for), summed over the concurrent builds.
 *
 * Warm-up: there is always at least one untimed full build before the first
 * timed one. When the workload's `warmup` is 1 or more, the core's warm-up
 * iterations are those builds (make clean + make, samples dropped); when it
 * is 0, setup runs one build of every tree with the largest jobs value.
 *
 * memcgs = 0 runs one build in the root memory cgroup (the memory controller
 * enabled but unused; lrubench's own cgroup on a machine without the
 * controller); memcgs = N runs N concurrent builds, build i in memcg
 * kernbench-i with memory limit memcg_limit.
 *
 * A source that cannot be fetched or fails its checksum fails the run with
 * exit 1 (the machine is able; the download is not): nothing enters the cache.
 */
#include "workloads/kernbench/kernbench.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_set.h"
#include "core/child_watch.h"
#include "core/memcg_set.h"
#include "core/cleanup.h"
#include "core/net_client.h"
#include "core/path.h"
#include "core/workload.h"

#define KB_DEFAULT_SOURCE "/usr/src/linux-source-6.1.tar.xz"

struct kb_opts {
	char *source;
	char *sha256;
	char *cache;
	char *config_target;
	char *build_target;
	struct ull_list jobs;
	unsigned long long memcgs;
	uint64_t memcg_limit;
	/* what the download and the extraction may cost (core/net_client.h) */
	uint64_t fetch_max_size;
	double fetch_timeout;
	uint64_t extract_max_size;
	unsigned long long extract_max_files, extract_max_ratio;
};

struct kb_build {
	char *log;
	double end;
	int code;
	struct rusage ru;
};

/* The run's state (ctx->priv, zeroed and freed by the core). */
struct kb_state {
	char *archive;            /* the tarball extracted */
	bool cache_hit;
	size_t ntrees;
	char **trees;
	struct memcg_set set;     /* one member per tree; the root for memcgs = 0; empty
				   * without a memory controller */
	struct kb_build *builds;  /* ntrees entries, reused per iteration */
	struct child *makes;      /* ntrees: the timed makes (core/child_set.h) */
	double t0;                /* start of the timed builds */
};

/* ---- pure parts ---- */

size_t kernbench_default_jobs(int cpus, unsigned long long *v, size_t max)
{
	unsigned long long top = 2ULL * (unsigned long long)(cpus < 1 ? 1 : cpus);
	size_t n = 0;

	for (unsigned long long j = 1; j < top && n < max; j *= 2)
		v[n++] = j;
	if (n < max)
		v[n++] = top;
	return n;
}

int kernbench_config_kind(const char *t)
{
	if (!t || !*t)
		return -1;
	if (strchr(t, '/'))
		return 1;
	if (!strcmp(t, "defconfig") || !strcmp(t, "tinyconfig") || !strcmp(t, "allnoconfig"))
		return 0;
	return -1;
}

static void jobs_default(const struct sizing *sz, char *buf, size_t len)
{
	unsigned long long v[LB_LIST_MAX];
	size_t n = kernbench_default_jobs(sz ? sz->node_cpus : 1, v, LB_LIST_MAX), o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu", i ? "," : "", v[i]);
}

#define KOFF(f) offsetof(struct kb_opts, f)
static const struct option_def kernbench_options[] = {
	{ .name = "source", .type = OPT_STR, .offset = KOFF(source), .def = KB_DEFAULT_SOURCE,
	  .help = "kernel source tarball: a path, or an http/https/file URL fetched into the cache "
		  "(Debian: apt-get install linux-source-6.1)" },
	{ .name = "sha256", .type = OPT_STR, .offset = KOFF(sha256), .def = "",
	  .help = "expected sha256 of the source (64 hex digits); empty: not checked" },
	{ .name = "cache", .type = OPT_STR, .offset = KOFF(cache), .def = FETCH_DEFAULT_CACHE,
	  .help = "download cache folder (see 'lrubench fetch')" },
	{ .name = "config_target", .type = OPT_STR, .offset = KOFF(config_target), .def = "defconfig", .quick = "tinyconfig",
	  .help = "defconfig, tinyconfig, allnoconfig, or a path to a .config (+ olddefconfig)" },
	{ .name = "build_target", .type = OPT_STR, .offset = KOFF(build_target), .def = "vmlinux", .quick = "init/",
	  .help = "the make target that is timed (--quick: init/, a few files: a smoke test)" },
	{ .name = "jobs", .type = OPT_LIST, .offset = KOFF(jobs), .def_fn = jobs_default, .quick = "2",
	  .min = 1, .max = 1024,
	  .help = "make -j values, one step each (default: powers of two up to 2 x CPUs of the node, "
		  "then that maximum)" },
	{ .name = "memcgs", .type = OPT_UINT, .offset = KOFF(memcgs), .def = "0",
	  .max = 64,
	  .help = "0: one build in the root memory cgroup; N: N concurrent builds, each in its own memcg "
		  "on its own copy of the tree" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = KOFF(memcg_limit), .def = "none",
	  .flags = OPTF_NONE,
	  .help = "memory limit of each build's memcg (needs memcgs >= 1)" },
	{ .name = "fetch_max_size", .type = OPT_SIZE, .offset = KOFF(fetch_max_size), .def = "2G",
	  .min = 1,
	  .help = "a source URL larger than this is refused" },
	{ .name = "fetch_timeout", .type = OPT_TIME, .offset = KOFF(fetch_timeout), .def = "1h",
	  .help = "a source download (retries included) taking longer is given up" },
	{ .name = "extract_max_size", .type = OPT_SIZE, .offset = KOFF(extract_max_size), .def = "16G",
	  .min = 1,
	  .help = "a source tarball whose files add up to more is refused (a sparse file counts whole)" },
	{ .name = "extract_max_files", .type = OPT_UINT, .offset = KOFF(extract_max_files), .def = "500000",
	  .min = 1,
	  .help = "a source tarball of more entries is refused" },
	{ .name = "extract_max_ratio", .type = OPT_UINT, .offset = KOFF(extract_max_ratio), .def = "100",
	  .min = 1,
	  .help = "a source tarball whose files hold more than this many times its size (past 256M) "
		  "is refused" },
	OPT_END
};

static const struct table_def kernbench_tables[] = {
	{ "kernbench", "s", BETTER_LOWER, { "make jobs", "-j" } },
	{ NULL, NULL, 0 },
};

static bool str_set(const char *s)
{
	return s && *s;
}

/* ---- probe / validate ---- */

static enum wl_status kernbench_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	static const char *const tools[][2] = {
		{ "make", "make" }, { "gcc", "gcc" }, { "flex", "flex" },
		{ "bison", "bison" }, { "bc", "bc" }, { "cp", "coreutils" },
	};
	struct kb_opts *o = ctx->opts;
	struct strbuf pk = STRBUF_INIT;
	int missing = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
		if (!program_in_path(tools[i][0])) {
			strbuf_addf(why, "%s%s", missing++ ? ", " : "", tools[i][0]);
			strbuf_addf(&pk, " %s", tools[i][1]);
		}
	}
	if (!path_exists("/usr/include/libelf.h") && !path_exists("/usr/include/gelf.h")) {
		strbuf_addf(why, "%slibelf headers", missing++ ? ", " : "");
		strbuf_addstr(&pk, " libelf-dev");
	}
	if (!path_exists("/usr/include/openssl/ssl.h")) {
		strbuf_addf(why, "%slibssl headers", missing++ ? ", " : "");
		strbuf_addstr(&pk, " libssl-dev");
	}
	if (missing) {
		strbuf_addf(why, " missing for kernel builds (apt-get install%s)", pk.buf);
		strbuf_release(&pk);
		return WL_UNSUPPORTED;
	}
	strbuf_release(&pk);
	{
		/* fetch and extraction run in the helper program lrubench-net */
		char *helper = net_helper_find(why);

		if (!helper)
			return WL_UNSUPPORTED;
		free(helper);
	}
	if (o && !strcmp(o->source ? o->source : "", KB_DEFAULT_SOURCE) &&
	    !path_exists(KB_DEFAULT_SOURCE)) {
		strbuf_addf(why, "no kernel source at %s (apt-get install linux-source-6.1, or set "
			    "kernbench.source)", KB_DEFAULT_SOURCE);
		return WL_UNSUPPORTED;
	}
	if (o && o->memcgs && (!ctx->env || !ctx->env->cg || ctx->env->cg->mode == CG_NONE)) {
		strbuf_addf(why, "kernbench.memcgs=%llu needs the memory cgroup controller, which "
			    "this machine does not have", o->memcgs);
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static enum wl_status kernbench_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct kb_opts *o = ctx->opts;

	if (str_set(o->sha256) && sha256_parse_hex(o->sha256, NULL)) {
		strbuf_addf(err, "kernbench.sha256 '%s': expected 64 hex digits", o->sha256);
		return WL_BAD_CONFIG;
	}
	if (!str_set(o->source)) {
		strbuf_addstr(err, "kernbench.source is empty: give a path or a URL");
		return WL_BAD_CONFIG;
	}
	if (fetch_is_url(o->source) && fetch_url_has_credentials(o->source)) {
		char *r = fetch_url_redacted(o->source);

		/* run.json records the config: a password would be stored there too */
		strbuf_addf(err, "kernbench.source %s: a password in a URL would be stored and "
			    "printed; put it in ~/.netrc", r);
		free(r);
		return WL_BAD_CONFIG;
	}
	if (!fetch_is_url(o->source)) {
		struct stat st;

		if (fetch_has_scheme(o->source)) {
			strbuf_addf(err, "kernbench.source '%s': unsupported URL (http, https or file)",
				    o->source);
			return WL_BAD_CONFIG;
		}
		if (stat(o->source, &st)) {
			strbuf_addf(err, "kernbench.source %s: %s", o->source, strerror(errno));
			return WL_BAD_CONFIG;
		}
	}
	switch (kernbench_config_kind(o->config_target)) {
	case -1:
		strbuf_addf(err, "kernbench.config_target '%s': expected defconfig, tinyconfig, "
			    "allnoconfig or a path to a .config", o->config_target ? o->config_target : "");
		return WL_BAD_CONFIG;
	case 1:
		if (!path_exists(o->config_target) || is_dir(o->config_target)) {
			strbuf_addf(err, "kernbench.config_target %s: not a readable .config file",
				    o->config_target);
			return WL_BAD_CONFIG;
		}
		break;
	}
	if (!str_set(o->build_target) || o->build_target[0] == '-') {
		strbuf_addf(err, "kernbench.build_target '%s': expected a make target",
			    o->build_target ? o->build_target : "");
		return WL_BAD_CONFIG;
	}
	if (!o->jobs.n) {
		strbuf_addstr(err, "kernbench.jobs is empty");
		return WL_BAD_CONFIG;
	}
	if (o->memcg_limit && !o->memcgs) {
		strbuf_addstr(err, "kernbench.memcg_limit needs kernbench.memcgs >= 1 (memcgs = 0 "
			      "builds in the root memory cgroup, which takes no limit)");
		return WL_BAD_CONFIG;
	}
	return WL_OK;
}

/* ---- running make ---- */

static const char *const make_env[] = {
	/* a `make check` around us must not hand its flags or jobserver down */
	"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", NULL,
};

/* Run make synchronously (configure, clean, copy): 0, -1 error, -1 on SIGINT too. */
static int run_tool(struct wl_ctx *ctx, const char *const *argv, const char *dir,
		    const char *procs, const char *log, const char *what)
{
	struct child c = {
		.argv = argv, .dir = dir, .out_path = log, .bind = &ctx->env->bind,
		.cgroup_procs = procs, .env_add = make_env, .name = what,
	};
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	int code = -1, r;

	if (lb_stop_requested() || child_start(&c))
		return -1;
	/* no set length: stuck when make and its compilers use no CPU (child_watch.h) */
	child_watch_start(&w, -1, ctx->env->g->stuck_timeout);
	r = child_wait_watched(&c, &w, 1.0, &code, NULL, &why);
	if (r != WATCH_REAPED)
		child_stop(&c, 2.0);
	if (r == WATCH_STUCK)
		error("%s", why.buf);
	strbuf_release(&why);
	if (lb_stop_requested() || r != WATCH_REAPED)
		return -1;
	if (code)
		return child_failed(code, log, "%s in %s", what, dir);
	return 0;
}

static char *log_name(struct wl_ctx *ctx, const char *kind, unsigned long long jobs, int iter,
		      size_t tree)
{
	char it[32];

	if (iter == -1000)
		snprintf(it, sizeof(it), "setup");
	else if (iter < 0)
		snprintf(it, sizeof(it), "w%d", -iter);
	else
		snprintf(it, sizeof(it), "i%d", iter);
	return env_log_path(ctx->env, "kernbench-%s-j%llu-%s-m%zu.log", kind, jobs, it, tree + 1);
}

static void stop_builds(struct kb_state *st)
{
	for (size_t i = 0; i < st->ntrees; i++)
		if (st->makes[i].running)
			child_stop(&st->makes[i], 5.0);
}

struct kb_round {
	const char *jarg;
};

static void build_what(void *data, size_t i, char *buf, size_t len)
{
	struct kb_round *rd = data;

	snprintf(buf, len, "make %s in tree %zu", rd->jarg, i + 1);
}

/* make clean in every tree, then the timed builds at once. Fills builds[].
 * WL_OK; WL_FAILED; WL_OP_FAILED a build got stuck (child_watch.h: why says
 * which, every build is stopped). */
static enum wl_status build_all(struct wl_ctx *ctx, unsigned long long jobs, int iter, double *elapsed,
		     struct strbuf *why)
{
	struct kb_opts *o = ctx->opts;
	struct kb_state *st = ctx->priv;
	char jarg[32];
	const char *argv[] = { "make", jarg, o->build_target, NULL };
	struct kb_round rd = { jarg };
	struct child_set set;
	double t0;
	long bad;
	enum wl_status ret = WL_OK;

	snprintf(jarg, sizeof(jarg), "-j%llu", jobs);
	for (size_t i = 0; i < st->ntrees; i++) {
		static const char *const clean[] = { "make", "clean", NULL };
		char *log = log_name(ctx, "clean", jobs, iter, i);
		int r = run_tool(ctx, clean, st->trees[i], memcg_set_procs(&st->set, i, 1), log,
				 "make clean");

		free(log);
		if (r)
			return WL_FAILED;
	}
	st->t0 = t0 = now_monotonic();
	for (size_t i = 0; i < st->ntrees; i++) {
		struct kb_build *b = &st->builds[i];

		free(b->log);
		memset(b, 0, sizeof(*b));
		b->log = log_name(ctx, "build", jobs, iter, i);
		st->makes[i] = (struct child){ .argv = argv, .dir = st->trees[i], .out_path = b->log,
					       .env_add = make_env, .name = "make" };
	}
	/* every build at once, each in its memcg; reaped in whatever order they
	 * finish, so each end time is its own */
	set = (struct child_set){
		.n = st->ntrees, .kids = st->makes, .memcgs = &st->set, .per = 1,
		.bind = &ctx->env->bind, .length = -1, .stuck_timeout = ctx->env->g->stuck_timeout,
		.stop_grace = 5.0, .data = &rd, .what = build_what,
	};
	ret = child_set_start(&set);
	if (ret == WL_OK)
		ret = child_set_wait(&set, why);
	if (ret == WL_INTERRUPTED || (ret == WL_FAILED && lb_stop_requested()))
		error("interrupted during make %s %s", jarg, o->build_target);
	for (size_t i = 0; ret == WL_OK && i < st->ntrees; i++) {
		st->builds[i].end = set.end[i];
		st->builds[i].code = set.code[i];
		st->builds[i].ru = set.ru[i];
	}
	bad = ret == WL_OK ? child_set_failed(&set) : -1;
	child_set_release(&set);
	if (ret != WL_OK)
		return ret == WL_OP_FAILED ? WL_OP_FAILED : WL_FAILED;
	*elapsed = 0;
	for (size_t i = 0; i < st->ntrees; i++)
		if (st->builds[i].end - t0 > *elapsed)
			*elapsed = st->builds[i].end - t0;
	if (bad >= 0) {
		/* the first build that failed, with the end of its log */
		child_failed(st->builds[bad].code, st->builds[bad].log, "make %s %s in %s", jarg,
			     o->build_target, st->trees[bad]);
		ret = WL_FAILED;
	}
	return ret;
}

static double tv_secs(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* ---- setup ---- */

static int get_source(struct wl_ctx *ctx)
{
	struct kb_opts *o = ctx->opts;
	struct kb_state *st = ctx->priv;

	if (fetch_is_url(o->source)) {
		struct fetch_opts fo = {
			.cache_dir = o->cache, .sha256 = str_set(o->sha256) ? o->sha256 : NULL,
			.retries = -1, .progress = -1, .quiet = lb_quiet != 0,
			.max_bytes = o->fetch_max_size, .timeout = o->fetch_timeout,
		};
		struct fetch_result res;

		if (net_fetch_url(o->source, &fo, &res) != FETCH_OK)
			return -1;
		st->archive = res.path;
		st->cache_hit = res.cache_hit;
		if (res.cache_hit)
			info("kernbench: %s found in the cache (%s)", o->source, res.path);
		return 0;
	}
	if (str_set(o->sha256)) {
		char got[65];

		if (net_sha256_file(o->source, got))
			return -1;
		if (strcasecmp(got, o->sha256))
			return error("checksum mismatch for %s: sha256 is %s, expected %s",
				     o->source, got, o->sha256);
	}
	st->archive = xstrdup(o->source);
	return 0;
}

static int configure(struct wl_ctx *ctx, const char *tree)
{
	struct kb_opts *o = ctx->opts;
	char *log = env_log_path(ctx->env, "kernbench-config.log");
	const char *argv[] = { "make", o->config_target, NULL };
	int ret;

	if (kernbench_config_kind(o->config_target) == 1) {
		size_t len;
		char *cfg = read_file_str(o->config_target, &len);
		char *dst = xasprintf("%s/.config", tree);

		if (!cfg) {
			free(dst);
			free(log);
			return error_errno("cannot read kernbench.config_target %s", o->config_target);
		}
		ret = write_file_atomic(dst, cfg, len);
		free(cfg);
		free(dst);
		if (ret) {
			free(log);
			return -1;
		}
		argv[1] = "olddefconfig";
	}
	info("kernbench: make %s in %s", argv[1], tree);
	ret = run_tool(ctx, argv, tree, NULL, log, argv[1]);
	free(log);
	return ret;
}

static enum wl_status kernbench_setup(struct wl_ctx *ctx)
{
	struct kb_opts *o = ctx->opts;
	struct kb_state *st = ctx->priv;
	struct run_env *env = ctx->env;
	double t0;

	st->ntrees = o->memcgs ? o->memcgs : 1;
	st->trees = xcalloc(st->ntrees, sizeof(*st->trees));
	st->builds = xcalloc(st->ntrees, sizeof(*st->builds));
	st->makes = xcalloc(st->ntrees, sizeof(*st->makes));
	for (size_t i = 0; i < st->ntrees; i++)
		st->trees[i] = xasprintf("%s/tree-%zu", ctx->workdir, i + 1);

	if (get_source(ctx))
		return WL_FAILED;
	env_fact(env, "kernbench", "source", json_object_new_string(o->source));
	env_fact(env, "kernbench", "source_cache_hit", json_object_new_boolean(st->cache_hit));

	info("kernbench: extracting %s", st->archive);
	t0 = now_monotonic();
	if (net_extract_tree(st->archive, st->trees[0], &(struct extract_limits){
			o->extract_max_size, o->extract_max_files, o->extract_max_ratio }))
		return WL_FAILED;
	env_fact(env, "kernbench", "extract_seconds", json_object_new_double(now_monotonic() - t0));
	if (configure(ctx, st->trees[0]))
		return WL_FAILED;
	for (size_t i = 1; i < st->ntrees; i++) {
		const char *argv[] = { "cp", "-a", st->trees[0], st->trees[i], NULL };
		char *log = env_log_path(env, "kernbench-copy-%zu.log", i + 1);
		int r = run_tool(ctx, argv, NULL, NULL, log, "cp -a");

		free(log);
		if (r)
			return WL_FAILED;
	}
	if (memcg_set_make_optional(env, "kernbench", 1, o->memcgs, o->memcg_limit, &st->set) != WL_OK)
		return WL_FAILED;
	for (size_t i = 0; i < o->jobs.n; i++)
		wl_add_step(ctx, "j%llu", o->jobs.v[i]);
	env_fact(env, "kernbench", "warmup_build",
		 json_object_new_string(ctx->warmup ? "core warm-up iterations" : "setup"));
	if (!ctx->warmup) {
		unsigned long long jmax = 1;
		double el;

		for (size_t i = 0; i < o->jobs.n; i++)
			if (o->jobs.v[i] > jmax)
				jmax = o->jobs.v[i];
		info("kernbench: untimed warm-up build (make -j%llu %s)", jmax, o->build_target);
		struct strbuf why = STRBUF_INIT;
		enum wl_status r;

		r = build_all(ctx, jmax, -1000, &el, &why);
		strbuf_release(&why);
		if (r != WL_OK)
			return WL_FAILED;
	}
	return WL_OK;
}

static enum wl_status kernbench_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct kb_opts *o = ctx->opts;
	struct kb_state *st = ctx->priv;
	unsigned long long jobs = o->jobs.v[step];
	json_object *det, *arr;
	double elapsed, user = 0, sys = 0;
	char op[48];

	switch (build_all(ctx, jobs, s->iteration, &elapsed, &s->why)) {
	case WL_OK: break;
	case WL_OP_FAILED: return WL_OP_FAILED;   /* a stuck build ends the op */
	default: return WL_FAILED;
	}
	det = json_object_new_object();
	arr = json_object_new_array();
	for (size_t i = 0; i < st->ntrees; i++) {
		struct kb_build *b = &st->builds[i];
		json_object *one = json_object_new_object();
		double u = tv_secs(&b->ru.ru_utime), y = tv_secs(&b->ru.ru_stime);

		user += u;
		sys += y;
		json_object_object_add(one, "tree", json_object_new_int((int)i + 1));
		if (st->set.n)
			json_object_object_add(one, "memcg", json_object_new_string(st->set.cg[i].path));
		json_object_object_add(one, "elapsed", json_object_new_double(b->end - st->t0));
		json_object_object_add(one, "user", json_object_new_double(u));
		json_object_object_add(one, "system", json_object_new_double(y));
		json_object_object_add(one, "max_rss_kb", json_object_new_int64(b->ru.ru_maxrss));
		json_object_object_add(one, "log", json_object_new_string(b->log));
		json_object_array_add(arr, one);
	}
	json_object_object_add(det, "jobs", json_object_new_int64((int64_t)jobs));
	json_object_object_add(det, "builds", arr);
	wl_detail(s, det);
	snprintf(op, sizeof(op), "elsp-%llu", jobs);
	wl_sample(s, 0, op, elapsed);
	snprintf(op, sizeof(op), "user-%llu", jobs);
	wl_sample(s, 0, op, user);
	snprintf(op, sizeof(op), "syst-%llu", jobs);
	wl_sample(s, 0, op, sys);
	return WL_OK;
}

static void kernbench_teardown(struct wl_ctx *ctx)
{
	struct kb_state *st = ctx->priv;

	if (st->makes)
		stop_builds(st);
	memcg_set_remove(&st->set);
	for (size_t i = 0; st->builds && i < st->ntrees; i++)
		free(st->builds[i].log);
	for (size_t i = 0; st->trees && i < st->ntrees; i++)
		free(st->trees[i]);
	free(st->trees);
	free(st->builds);
	free(st->makes);
	free(st->archive);
	memset(st, 0, sizeof(*st));   /* teardown may not free st: the core does */
}

static void kernbench_summary(struct wl_ctx *ctx, FILE *out)
{
	struct kb_opts *o = ctx->opts;
	struct kb_state *st = ctx->priv;

	fprintf(out, "kernbench: %s, make %s, %zu build%s at once%s\n", st->archive,
		o->build_target, st->ntrees, st->ntrees == 1 ? "" : "s",
		o->memcgs ? " (one memcg each)" : st->set.n ? " (root memory cgroup)" : " (no memcg)");
}

const struct workload_ops kernbench_ops = {
	.name = "kernbench",
	.summary = "kernel compile time (make -jJ) from a verified source tarball, in memcgs",
	.options = kernbench_options,
	.opts_size = sizeof(struct kb_opts),
	.priv_size = sizeof(struct kb_state),
	.tables = kernbench_tables,
	.probe = kernbench_probe,
	.validate = kernbench_validate,
	.setup = kernbench_setup,
	.run_step = kernbench_run_step,
	.teardown = kernbench_teardown,
	.print_summary = kernbench_summary,
};
