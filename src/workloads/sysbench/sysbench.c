// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysbench OLTP read-only against a private PostgreSQL (lrubench-sysbench(7)):
 * the benchmark behind the seed thread's -20%/-35% at 18 and 20 threads.
 *
 * setup:    user, memcgs, port, initdb + postgresql.conf, postmaster (in
 *           the "server" memcg, bound to the node), role + database,
 *           sysbench prepare, one untimed warm-up run
 * run_step: one `sysbench oltp_read_only run` at one thread count; samples
 *           are its per-second transaction rate and 95th percentile latency
 * teardown: sysbench cleanup, fast/immediate/kill stop, cluster removed
 *
 * Where things run: the postmaster and its backends in the memcg
 * "server" (memcg_limit applies there); the sysbench client in its own
 * memcg "client" without a limit, so its memory is never charged to the
 * server; both bound to the run's NUMA node (like numactl --cpunodebind
 * --membind in the seed's runs). memcgs = 0 puts both in the root memory
 * cgroup: the seed's "memory controller enabled but unused" case. Without
 * a memory controller both stay in lrubench's cgroup (memcg_limit must
 * then be none).
 *
 * events > 0 runs a fixed number of transactions (--events=N --time=0)
 * instead of a fixed time: the table "sysbench Time" then holds how long
 * they took, as the seed thread posted beside TPS.
 *
 * Sizes: workload_size, shared_buffers, effective_cache_size and events =
 * auto follow the posted run's rules (sizing.h), resolved in validate() and
 * recorded in run.json (workload_facts.sysbench.sizing); the plan of run
 * --dry-run --machine applies the same rules to the shape.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_watch.h"
#include "core/memcg_set.h"
#include "core/cleanup.h"
#include "core/file_sizing.h"
#include "workloads/sysbench/driver.h"
#include "workloads/sysbench/parse.h"
#include "workloads/sysbench/sizing.h"
#include "core/workload.h"

struct sysbench_opts {
	struct ull_list threads;
	double runtime;
	double warmup_time;
	uint64_t workload_size;          /* or LB_SIZE_AUTO */
	unsigned long long tables;
	uint64_t shared_buffers;         /* or LB_SIZE_AUTO */
	uint64_t effective_cache_size;   /* or LB_SIZE_AUTO */
	uint64_t work_mem;
	char *max_connections;
	uint64_t memcg_limit;
	unsigned long long memcgs;
	unsigned long long events;       /* 0: fixed time; N; LB_AUTO */
	double events_timeout;
	char *pg_bindir;
	unsigned long long port;
};

/* The run's state (ctx->priv, zeroed and freed by the core). The cleanup
 * registry points into srv (the postmaster's stop, the cluster's removal):
 * the core frees priv only after the registry has run. */
struct sb_state {
	struct pg_server srv;
	struct cgroup server_cg, client_cg;
	bool have_server_cg, have_client_cg;
	char client_procs[PATH_MAX];
	char user[64];
	unsigned long long table_size, max_threads;
	unsigned long long events;   /* per run, resolved (0: fixed time) */
	struct sb_sizing sizing;     /* what the rules gave (validate) */
	unsigned warmup_runs;   /* per-iteration warm-up logs get unique names */
	bool prepared;
};

/* ---- defaults sized from the machine ---- */

static void def_threads(const struct sizing *sz, char *buf, size_t len)
{
	struct ull_list l;
	size_t o = 0;

	sb_thread_stride(sz->node_cpus > 0 ? (unsigned)sz->node_cpus : 1, &l);
	buf[0] = '\0';
	for (size_t i = 0; i < l.n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%llu", i ? "," : "", l.v[i]);
}

static const struct option_def sysbench_options[] = {
	{ .name = "threads", .type = OPT_LIST, .offset = offsetof(struct sysbench_opts, threads), .def_fn = def_threads, .quick = "1,2",
	  .min = 1, .max = 4096,
	  .help = "sysbench thread counts, one step each (default 1..CPUs of the node with mmtests' "
		  "sysbench stride: 1,4,7,12,18,... ending at the CPU count)" },
	{ .name = "runtime", .type = OPT_TIME, .offset = offsetof(struct sysbench_opts, runtime), .def = "60s", .quick = "3s",
	  .min = 1, .max = 86400,
	  .help = "length of one measured sysbench run (--time, whole seconds)" },
	{ .name = "warmup_time", .type = OPT_TIME, .offset = offsetof(struct sysbench_opts, warmup_time), .def = "30s", .quick = "2s",
	  .min = 1, .max = 86400,
	  .help = "one untimed sysbench run after prepare, at the largest thread count, to load the "
		  "tables into shared buffers and page cache" },
	{ .name = "workload_size", .type = OPT_SIZE, .offset = offsetof(struct sysbench_opts, workload_size), .def = "auto", .quick = "32M",
	  .min = 1024 * 1024, .flags = OPTF_AUTO,
	  .help = "size of the sbtest tables, about 4,500 rows per MB; auto = 3/4 of the memory the "
		  "run may use (memcg_limit, else the node's MemTotal), the posted run's share of its "
		  "node; must fit in the node's memory (auto: in MemAvailable)" },
	{ .name = "tables", .type = OPT_UINT, .offset = offsetof(struct sysbench_opts, tables), .def = "1",
	  .min = 1, .max = 1024,
	  .help = "number of sbtest tables the rows are spread over (prepare loads "
		  "them in parallel)" },
	{ .name = "shared_buffers", .type = OPT_SIZE, .offset = offsetof(struct sysbench_opts, shared_buffers), .def = "auto",
	  .flags = OPTF_AUTO,
	  .help = "PostgreSQL shared_buffers: a size, or auto = 1/4 of the memory the run may use "
		  "(memcg_limit, else the node's MemTotal), as posted" },
	{ .name = "effective_cache_size", .type = OPT_SIZE, .offset = offsetof(struct sysbench_opts, effective_cache_size), .def = "auto",
	  .flags = OPTF_AUTO,
	  .help = "PostgreSQL effective_cache_size: a size, or auto = 1/2 of the memory the run may use" },
	{ .name = "work_mem", .type = OPT_SIZE, .offset = offsetof(struct sysbench_opts, work_mem), .def = "32M",
	  .min = 64 * 1024,
	  .help = "PostgreSQL work_mem (mmtests' default)" },
	{ .name = "max_connections", .type = OPT_STR, .offset = offsetof(struct sysbench_opts, max_connections), .def = "auto",
	  .flags = OPTF_AUTO,
	  .help = "PostgreSQL max_connections: a number, or auto = the largest thread count + 10, "
		  "at least 100" },
	{ .name = "memcg_limit", .type = OPT_SIZE, .offset = offsetof(struct sysbench_opts, memcg_limit), .def = "none",
	  .flags = OPTF_NONE,
	  .help = "memory limit of the server's memcg (none: no limit)" },
	{ .name = "memcgs", .type = OPT_UINT, .offset = offsetof(struct sysbench_opts, memcgs), .def = "1",
	  .max = 1,
	  .help = "1: the server and the client each in a memcg of their own; 0: both in the root "
		  "memory cgroup (the controller enabled but unused)" },
	{ .name = "events", .type = OPT_UINT, .offset = offsetof(struct sysbench_opts, events), .def = "0",
	  .max = 1ULL << 40, .flags = OPTF_AUTO,
	  .help = "0: each run lasts runtime; N: each run does N transactions (--events=N --time=0) and "
		  "the table \"sysbench Time\" holds how long they took; auto = 10000, what mmtests' "
		  "MAX_TRANSACTIONS=auto ran (sysbench 0.4.12's default)" },
	{ .name = "events_timeout", .type = OPT_TIME, .offset = offsetof(struct sysbench_opts, events_timeout), .def = "30m",
	  .min = 1, .max = 7 * 86400,
	  .help = "with events > 0: a run that has not done its transactions by then fails" },
	{ .name = "pg_bindir", .type = OPT_STR, .offset = offsetof(struct sysbench_opts, pg_bindir), .def = "auto",
	  .flags = OPTF_AUTO,
	  .help = "folder of the PostgreSQL server binaries; auto = newest /usr/lib/postgresql/*/bin" },
	{ .name = "port", .type = OPT_UINT, .offset = offsetof(struct sysbench_opts, port), .def = "5433",
	  .min = 1024, .max = 65535,
	  .help = "first TCP port tried on 127.0.0.1; the first free one is used" },
	OPT_END
};

enum { TABLE_TPS, TABLE_LAT, TABLE_TIME };
static const struct table_def sysbench_tables[] = {
	[TABLE_TPS] = { "sysbench Transactions per second", "tps", BETTER_HIGHER, { "threads", "count" } },
	[TABLE_LAT] = { "sysbench Latency 95th percentile", "ms", BETTER_LOWER, { "threads", "count" } },
	/* only with events > 0: the time a fixed number of transactions took */
	[TABLE_TIME] = { "sysbench Time", "s", BETTER_LOWER, { "threads", "count" } },
	{ NULL, NULL, 0 },
};

#define PG_LIB_ROOT "/usr/lib/postgresql"

static struct sysbench_opts *opts_of(struct wl_ctx *ctx)
{
	return ctx->opts;
}

static enum wl_status sysbench_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	struct sysbench_opts *o = opts_of(ctx);
	char dir[PATH_MAX];

	if (sb_check_binary(why))
		return WL_UNSUPPORTED;
	/* an explicit pg_bindir is a config value: validate() judges it */
	if ((!o->pg_bindir || !strcmp(o->pg_bindir, "auto")) &&
	    pg_find_bindir(PG_LIB_ROOT, dir, sizeof(dir))) {
		strbuf_addstr(why, "PostgreSQL server binaries not found in " PG_LIB_ROOT
			      "/*/bin (apt-get install postgresql, or set sysbench.pg_bindir)");
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

static unsigned long long max_of(const struct ull_list *l)
{
	unsigned long long m = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] > m)
			m = l->v[i];
	return m;
}

static enum wl_status sysbench_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	struct sysbench_opts *o = opts_of(ctx);
	struct sb_state *st = ctx->priv;
	struct run_env *env = ctx->env;
	unsigned long long maxt = max_of(&o->threads);
	char node_name[32];
	struct sb_size_in in = {
		.node_mem = env->bind.mem_bytes, .node_name = NULL,
		.machine_mem = env->sys ? env->sys->mem_total_kb * 1024 : 0,
		.memcg_limit = o->memcg_limit, .workload_size = o->workload_size,
		.shared_buffers = o->shared_buffers, .effective_cache_size = o->effective_cache_size,
		.tables = o->tables, .events = o->events,
	};
	enum wl_status r;

	if (!o->threads.n || !maxt) {
		strbuf_addstr(err, "sysbench.threads: at least one thread count >= 1 is needed");
		return WL_BAD_CONFIG;
	}
	st->max_threads = maxt;

	if (o->pg_bindir && strcmp(o->pg_bindir, "auto")) {
		struct strbuf why = STRBUF_INIT;
		if (pg_check_bindir(o->pg_bindir, &why)) {
			strbuf_addf(err, "sysbench.pg_bindir: %s", strbuf_str(&why));
			strbuf_release(&why);
			return WL_BAD_CONFIG;
		}
		snprintf(st->srv.bindir, sizeof(st->srv.bindir), "%s", o->pg_bindir);
	} else if (pg_find_bindir(PG_LIB_ROOT, st->srv.bindir, sizeof(st->srv.bindir))) {
		strbuf_addstr(err, "PostgreSQL server binaries not found in " PG_LIB_ROOT "/*/bin");
		return WL_UNSUPPORTED;
	}

	if (o->memcg_limit && !o->memcgs) {
		strbuf_addstr(err, "sysbench.memcg_limit needs sysbench.memcgs = 1 (memcgs = 0 runs "
			      "in the root memory cgroup, which takes no limit)");
		return WL_BAD_CONFIG;
	}
	if (env->bind.node >= 0) {
		snprintf(node_name, sizeof(node_name), "node %d", env->bind.node);
		in.node_name = node_name;
	}
	/* auto tables must stay cached: MemAvailable as this run starts (the
	 * machine's: a node's meminfo has no MemAvailable of its own) */
	if (o->workload_size == LB_SIZE_AUTO)
		in.mem_available = mem_available_now();
	if ((r = sb_size(&in, &st->sizing, err)) != WL_OK)
		return r;
	if (o->memcg_limit && (!env->cg || env->cg->mode == CG_NONE)) {
		strbuf_addstr(err, "sysbench.memcg_limit: this machine has no memory cgroup "
			      "controller (set memcg_limit = none)");
		return WL_UNSUPPORTED;
	}
	st->table_size = st->sizing.table_rows;
	st->events = st->sizing.events;
	st->srv.conf.shared_buffers = st->sizing.shared_buffers;
	st->srv.conf.effective_cache_size = st->sizing.effective_cache_size;
	st->srv.conf.work_mem = o->work_mem;
	if (!o->max_connections || !strcmp(o->max_connections, "auto")) {
		st->srv.conf.max_connections = maxt + 10 < 100 ? 100 : maxt + 10;
	} else {
		unsigned long long mc;
		if (parse_ull(o->max_connections, &mc)) {
			strbuf_addf(err, "sysbench.max_connections: '%s' is not a number or auto",
				    o->max_connections);
			return WL_BAD_CONFIG;
		}
		/* PostgreSQL keeps 3 for superusers; we need one for psql too */
		if (mc < maxt + 4) {
			strbuf_addf(err, "sysbench.max_connections: %llu is too few for %llu "
				    "threads (needs at least %llu)", mc, maxt, maxt + 4);
			return WL_BAD_CONFIG;
		}
		st->srv.conf.max_connections = mc;
	}
	return WL_OK;
}

/* Run one sysbench command as a child in the client memcg. A timed run
 * (secs > 0, events 0) not ended global.stuck_timeout after secs is stuck:
 * the op fails with WL_OP_FAILED and why says what held it (child_watch.h);
 * a run of a fixed number of events (command run, events > 0) and an
 * untimed one (prepare, cleanup) have `timeout` seconds. */
static enum wl_status run_sysbench(struct wl_ctx *ctx, const char *command, unsigned long long threads,
			double secs, unsigned long long events, const char *log, double timeout,
			struct strbuf *why)
{
	struct sysbench_opts *o = opts_of(ctx);
	struct sb_state *st = ctx->priv;
	struct sb_cmd cmd = {
		.test = "oltp_read_only", .command = command, .host = st->srv.sockdir,
		.port = st->srv.conf.port, .user = "sbtest", .db = "sbtest",
		.tables = o->tables, .table_size = st->table_size, .threads = threads,
		.time = secs, .events = events,
	};
	struct strlist argv = STRLIST_INIT;
	struct child c = {
		.cgroup_procs = st->have_client_cg ? st->client_procs : NULL,
		.bind = &ctx->env->bind,
		.out_path = log,
		.name = "sysbench",
	};
	struct child_watch w;
	struct strbuf stuck = STRBUF_INIT;
	int code = -1, r;

	sb_argv(&cmd, &argv);
	c.argv = (const char *const *)argv.v;
	unlink(log);   /* child.c appends: one run per log */
	if (child_start(&c)) {
		strlist_release(&argv);
		return WL_FAILED;
	}
	if (secs > 0 && !events) {
		child_watch_start(&w, secs, ctx->env->g->stuck_timeout);
		r = child_wait_watched(&c, &w, 1.0, &code, NULL, why ? why : &stuck);
	} else {
		r = child_wait(&c, timeout, &code, NULL);
	}
	if (r) {
		child_stop(&c, 2.0);
		strlist_release(&argv);
		if (r == WATCH_STOP || lb_stop_requested()) {
			strbuf_release(&stuck);
			return WL_INTERRUPTED;
		}
		if (r == WATCH_STUCK) {
			error_with_log(log, "%s", why ? why->buf : stuck.buf);
			strbuf_release(&stuck);
			return WL_OP_FAILED;
		}
		if (r == 1)
			error("sysbench %s did not finish within %.0f s (log %s)", command, timeout, log);
		strbuf_release(&stuck);
		return WL_FAILED;
	}
	strbuf_release(&stuck);
	strlist_release(&argv);
	if (code) {
		child_failed(code, log, "sysbench %s", command);
		if (!pg_server_alive(&st->srv))
			error_with_log(st->srv.log_path, "postgres is no longer running");
		return WL_FAILED;
	}
	return WL_OK;
}

/* The cluster's user must reach <workdir>/pg. The folders this run created
 * (the run workdir and ours) are made traversable, not readable, for it;
 * above them the user's folders are checked, never changed. */
static int reachable_for(struct wl_ctx *ctx, uid_t uid, gid_t gid)
{
	const char *run = ctx->env->run_workdir;
	size_t runlen = run ? strlen(run) : 0;
	char path[PATH_MAX];
	char *slash;

	snprintf(path, sizeof(path), "%s", ctx->workdir);
	for (;;) {
		struct stat st;
		bool ours = runlen && !strncmp(path, run, runlen) &&
			    (path[runlen] == '\0' || path[runlen] == '/');

		if (stat(path[0] ? path : "/", &st))
			return error_errno("cannot stat %s", path[0] ? path : "/");
		if (ours) {
			if ((st.st_mode & 0111) != 0111 && chmod(path, (st.st_mode & 07777) | 0111))
				return error_errno("cannot chmod %s", path);
		} else if (!((st.st_uid == uid && (st.st_mode & S_IXUSR)) ||
			     (st.st_gid == gid && (st.st_mode & S_IXGRP)) ||
			     (st.st_mode & S_IXOTH))) {
			return error("the PostgreSQL user (uid %u) cannot enter %s (mode %o): "
				     "set global.workdir under a folder others may enter",
				     (unsigned)uid, path[0] ? path : "/", st.st_mode & 07777);
		}
		slash = strrchr(path, '/');
		if (!slash || !path[0])
			break;
		*slash = '\0';
	}
	return 0;
}

/* st was filled by validate(), which the core always calls first. */
static enum wl_status sysbench_setup(struct wl_ctx *ctx)
{
	struct sysbench_opts *o = opts_of(ctx);
	struct sb_state *st = ctx->priv;
	struct run_env *env = ctx->env;
	char *setup_log = NULL, *log = NULL;
	bool created;
	enum wl_status r = WL_FAILED;

	if (pg_user(st->user, sizeof(st->user), &st->srv.uid, &st->srv.gid, &created))
		return WL_FAILED;

	if (reachable_for(ctx, st->srv.uid, st->srv.gid))
		return WL_FAILED;
	if (snprintf(st->srv.top, sizeof(st->srv.top), "%s/pg", ctx->workdir) >= (int)sizeof(st->srv.top) ||
	    strlen(st->srv.top) + strlen("/.s.PGSQL.65535") >= 108) {
		error("the workdir path %s is too long for a unix socket (108 bytes); "
		      "set global.workdir to a shorter path", ctx->workdir);
		return WL_FAILED;
	}

	if (env->cg && env->cg->mode != CG_NONE) {
		/* memcgs = 0: both in the root memory cgroup (borrowed, never removed) */
		if (memcg_one(env, !o->memcgs, "sysbench-server", o->memcg_limit, &st->server_cg))
			return WL_FAILED;
		st->have_server_cg = true;
		cg_procs_file(&st->server_cg, st->srv.cgroup_procs, sizeof(st->srv.cgroup_procs));
		if (memcg_one(env, !o->memcgs, "sysbench-client", 0, &st->client_cg))
			return WL_FAILED;
		st->have_client_cg = true;
		cg_procs_file(&st->client_cg, st->client_procs, sizeof(st->client_procs));
	}
	st->srv.bind = &env->bind;

	st->srv.conf.port = pg_pick_port((int)o->port);
	if (st->srv.conf.port < 0) {
		error("no free TCP port on 127.0.0.1 from %llu to %llu", o->port,
		      o->port + 199 < 65535 ? o->port + 199 : 65535);
		return WL_FAILED;
	}
	if (st->srv.conf.port != (int)o->port)
		info("sysbench: port %llu is taken; PostgreSQL uses port %d", o->port, st->srv.conf.port);

	setup_log = env_log_path(env, "sysbench-setup.log");
	log = env_log_path(env, "postgres.log");
	snprintf(st->srv.log_path, sizeof(st->srv.log_path), "%s", log);
	free(log);
	log = NULL;

	env_fact(env, "sysbench", "pg_bindir", json_object_new_string(st->srv.bindir));
	env_fact(env, "sysbench", "db_user", json_object_new_string(st->user));
	env_fact(env, "sysbench", "db_user_created", json_object_new_boolean(created));
	env_fact(env, "sysbench", "port", json_object_new_int(st->srv.conf.port));
	env_fact(env, "sysbench", "cluster", json_object_new_string(st->srv.top));
	env_fact(env, "sysbench", "table_size", json_object_new_int64((int64_t)st->table_size));
	/* which rule sized what, with the numbers it read (sizing.h) */
	env_fact(env, "sysbench", "sizing", sb_sizing_json(&st->sizing));
	{
		struct strbuf lines = STRBUF_INIT;
		char *line, *save = NULL;

		sb_sizing_describe(&st->sizing, "", &lines);
		for (line = strtok_r(lines.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			info("sysbench: %s", line);
		strbuf_release(&lines);
	}
	env_fact(env, "sysbench", "shared_buffers",
		 json_object_new_int64((int64_t)st->srv.conf.shared_buffers));
	env_fact(env, "sysbench", "effective_cache_size",
		 json_object_new_int64((int64_t)st->srv.conf.effective_cache_size));
	env_fact(env, "sysbench", "max_connections",
		 json_object_new_int64((int64_t)st->srv.conf.max_connections));

	info("sysbench: PostgreSQL cluster in %s (user %s, port %d)", st->srv.top, st->user,
	     st->srv.conf.port);
	if (pg_server_init(&st->srv, setup_log))
		goto out;
	{
		/* keep the effective configuration with the results */
		char conf[PATH_MAX + 32];
		size_t len;
		char *text;
		snprintf(conf, sizeof(conf), "%s/postgresql.conf", st->srv.datadir);
		text = read_file_str(conf, &len);
		log = env_log_path(env, "postgresql.conf");
		if (text)
			write_file_atomic(log, text, len);
		free(text);
		free(log);
		log = NULL;
	}
	switch (pg_server_start(&st->srv, 120)) {
	case WL_OK: break;
	case WL_INTERRUPTED: r = WL_INTERRUPTED; goto out;
	default: goto out;
	}
	if (pg_server_sql(&st->srv, "CREATE ROLE sbtest LOGIN", setup_log) ||
	    pg_server_sql(&st->srv, "CREATE DATABASE sbtest OWNER sbtest", setup_log))
		goto out;

	info("sysbench: prepare %llu table(s) x %llu rows", o->tables, st->table_size);
	log = env_log_path(env, "sysbench-prepare.log");
	{
		unsigned long long pt = o->tables;
		if (pt > (unsigned long long)env->bind.nr_cpus && env->bind.nr_cpus > 0)
			pt = (unsigned long long)env->bind.nr_cpus;
		if ((r = run_sysbench(ctx, "prepare", pt, 0, 0, log, 24 * 3600, NULL)) != WL_OK)
			goto out;
		r = WL_FAILED;
	}
	st->prepared = true;
	/* writeback of the freshly loaded tables must not overlap the runs */
	if (pg_server_flush(&st->srv, setup_log))
		goto out;
	free(log);
	log = env_log_path(env, "sysbench-warmup.log");
	if ((r = run_sysbench(ctx, "run", st->max_threads, o->warmup_time, 0, log, 0, NULL)) != WL_OK) {
		if (r == WL_OP_FAILED)
			r = WL_FAILED;
		goto out;
	}

	for (size_t i = 0; i < o->threads.n; i++)
		wl_add_step(ctx, "threads-%llu", o->threads.v[i]);
	r = WL_OK;
out:
	free(setup_log);
	free(log);
	return r;
}

static enum wl_status sysbench_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	struct sysbench_opts *o = opts_of(ctx);
	struct sb_state *st = ctx->priv;
	unsigned long long t = o->threads.v[step];
	char *log, op[32];
	struct sb_result res;
	size_t len;
	char *text;
	enum wl_status r;

	if (s->iteration >= 0)
		log = env_log_path(ctx->env, "sysbench-t%llu-i%d.log", t, s->iteration);
	else
		log = env_log_path(ctx->env, "sysbench-t%llu-warmup%u.log", t, st->warmup_runs++);
	r = run_sysbench(ctx, "run", t, o->runtime, st->events, log,
			 st->events ? o->events_timeout : 0, &s->why);
	if (r != WL_OK) {
		free(log);
		return r;
	}
	text = read_file_str(log, &len);
	if (!text) {
		error_errno("cannot read %s", log);
		free(log);
		return WL_FAILED;
	}
	sb_parse(text, len, &res);
	free(text);
	if (!sb_complete(&res)) {
		char miss[256];
		error("sysbench output in %s is incomplete (missing %s)%s%s", log,
		      sb_missing(&res, miss, sizeof(miss)), res.fatal[0] ? ": " : "", res.fatal);
		free(log);
		return WL_FAILED;
	}
	if (st->events && res.events < st->events) {
		error("sysbench did %llu of %llu transactions at %llu threads (%s)", res.events,
		      st->events, t, log);
		free(log);
		return WL_FAILED;
	}
	snprintf(op, sizeof(op), "%llu", t);
	wl_sample(s, TABLE_TPS, op, res.tps);
	wl_sample(s, TABLE_LAT, op, res.lat_pct);
	if (st->events)
		wl_sample(s, TABLE_TIME, op, res.total_time);
	{
		json_object *d = json_object_new_object();
		const char *base = strrchr(log, '/');

		json_object_object_add(d, "threads", json_object_new_int64((int64_t)t));
		json_object_object_add(d, "transactions", json_object_new_int64((int64_t)res.transactions));
		json_object_object_add(d, "tps", json_object_new_double(res.tps));
		json_object_object_add(d, "queries", json_object_new_int64((int64_t)res.queries));
		json_object_object_add(d, "qps", json_object_new_double(res.qps));
		json_object_object_add(d, "errors", json_object_new_int64((int64_t)res.errors));
		json_object_object_add(d, "errors_per_sec", json_object_new_double(res.errors_ps));
		json_object_object_add(d, "reconnects", json_object_new_int64((int64_t)res.reconnects));
		json_object_object_add(d, "reconnects_per_sec", json_object_new_double(res.reconnects_ps));
		json_object_object_add(d, "total_time_s", json_object_new_double(res.total_time));
		json_object_object_add(d, "events", json_object_new_int64((int64_t)res.events));
		json_object_object_add(d, "latency_min_ms", json_object_new_double(res.lat_min));
		json_object_object_add(d, "latency_avg_ms", json_object_new_double(res.lat_avg));
		json_object_object_add(d, "latency_max_ms", json_object_new_double(res.lat_max));
		json_object_object_add(d, "latency_p95_ms", json_object_new_double(res.lat_pct));
		json_object_object_add(d, "log", json_object_new_string(base ? base + 1 : log));
		wl_detail(s, d);
	}
	if (res.errors)
		warning("sysbench: %llu ignored errors at %llu threads (%s)", res.errors, t, log);
	free(log);
	return WL_OK;
}

static void sysbench_teardown(struct wl_ctx *ctx)
{
	struct sb_state *st = ctx->priv;

	if (st->prepared && !lb_stop_requested() && pg_server_alive(&st->srv)) {
		char *log = env_log_path(ctx->env, "sysbench-cleanup.log");
		/* drop the tables before the server goes: mirrors mmtests, and
		 * makes a cluster that failed to be removed small */
		run_sysbench(ctx, "cleanup", 1, 0, 0, log, 300, NULL);
		free(log);
	}
	st->prepared = false;
	pg_server_destroy(&st->srv);
	if (st->have_client_cg) {
		cg_destroy(&st->client_cg);
		st->have_client_cg = false;
	}
	if (st->have_server_cg) {
		cg_destroy(&st->server_cg);
		st->have_server_cg = false;
	}
	/* nothing inside st owns heap: the core frees st itself */
}

static void sysbench_summary(struct wl_ctx *ctx, FILE *out)
{
	struct sb_state *st = ctx->priv;
	struct strbuf lines = STRBUF_INIT;

	if (!st->table_size)
		return;
	fprintf(out, "sysbench: PostgreSQL %s, %llu rows/table, shared_buffers %lluM, port %d, user %s\n",
		st->srv.bindir, st->table_size,
		(unsigned long long)(st->srv.conf.shared_buffers >> 20), st->srv.conf.port, st->user);
	sb_sizing_describe(&st->sizing, "sysbench sizing: ", &lines);
	fputs(strbuf_str(&lines), out);
	strbuf_release(&lines);
}

/* run --dry-run --machine: the sizing rules on the shape (nothing of this
 * machine is read), the steps, and the time where it is known. */
static void sysbench_plan(struct wl_ctx *ctx, struct wl_plan *p)
{
	struct sysbench_opts *o = opts_of(ctx);
	struct sb_size_in in = {
		.node_mem = p->node_mem, .machine_mem = p->machine_mem,
		.node_name = p->machine_mem && p->node_mem < p->machine_mem ? "the node's" : NULL,
		.mem_available = o->workload_size == LB_SIZE_AUTO ? p->mem_available : 0,
		.memcg_limit = o->memcg_limit, .workload_size = o->workload_size,
		.shared_buffers = o->shared_buffers, .effective_cache_size = o->effective_cache_size,
		.tables = o->tables, .events = o->events,
	};
	struct sb_sizing sz;
	struct strbuf err = STRBUF_INIT;
	unsigned long long runs = o->threads.n * (ctx->iterations + ctx->warmup);

	strbuf_addstr(&p->text, "  steps: threads");
	for (size_t i = 0; i < o->threads.n; i++)
		strbuf_addf(&p->text, "%s%llu", i ? "," : " ", o->threads.v[i]);
	strbuf_addf(&p->text, ", %llu runs in all\n", runs);
	if (sb_size(&in, &sz, &err) != WL_OK) {
		strbuf_addf(&p->text, "  cannot run there: %s\n", strbuf_str(&err));
		strbuf_release(&err);
		return;
	}
	sb_sizing_describe(&sz, "  ", &p->text);
	/* in memory: the tables in the page cache and the shared buffers' copies */
	p->working_set = (double)sz.workload_size + (double)sz.shared_buffers;
	p->memory = (double)sz.memory;
	if (sz.events) {
		strbuf_addf(&p->text, "  time: not estimated: %llu runs of %llu transactions each take "
			    "what the TPS there makes them\n", runs, sz.events);
		p->seconds = -1;
	} else {
		p->seconds = (double)runs * o->runtime + o->warmup_time;
	}
}

const struct workload_ops sysbench_ops = {
	.name = "sysbench",
	.summary = "sysbench OLTP read-only against a private PostgreSQL, per thread count",
	.options = sysbench_options,
	.opts_size = sizeof(struct sysbench_opts),
	.priv_size = sizeof(struct sb_state),
	.tables = sysbench_tables,
	.probe = sysbench_probe,
	.validate = sysbench_validate,
	.setup = sysbench_setup,
	.run_step = sysbench_run_step,
	.teardown = sysbench_teardown,
	.print_summary = sysbench_summary,
	.plan = sysbench_plan,
};
