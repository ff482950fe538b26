/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PostgreSQL lifecycle and sysbench prepare/run/cleanup for the sysbench
 * workload (lrubench-sysbench(7)). The workload file (sysbench.c) owns the
 * options and the sweep; this file owns the server and the client commands.
 *
 * The cluster is private to one run: <workdir>/pg (owned by the database
 * user, mode 0700) holds data/ and the unix socket. The postmaster is started
 * directly (not via pg_ctl) so it is our child: in its own memcg, bound to
 * the NUMA node, in the cleanup registry. Stopping is fast shutdown (SIGINT),
 * then immediate (SIGQUIT), then SIGKILL of its process group; the cluster
 * directory is then removed. On a second SIGINT the registry does the same
 * from the signal handler with async-signal-safe code only.
 */
#ifndef LRUBENCH_SYSBENCH_DRIVER_H
#define LRUBENCH_SYSBENCH_DRIVER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/status.h"
#include "core/child.h"
struct config;   /* config.h uses it before defining it */
#include "core/config.h"
#include "core/numa.h"
#include "core/strlist.h"
#include "core/util.h"

/* mmtests: "1 megabyte is around 4500 rows" of sysbench's sbtest table. */
#define SB_ROWS_PER_MB 4500ULL
#define PG_FIRST_PORT 5433
#define PG_USER_FALLBACK "lrubench"

/* ---- pure helpers (unit-tested) ---- */

/* Thread counts 1..max with the stride mmtests used for sysbench and
 * pgbench (shellpack threads_huge_stride_begin, the pattern of the seed's
 * runs: max 20 gives 1,4,7,12,18,20). */
void sb_thread_stride(unsigned max, struct ull_list *out);
/* Rows per table for a workload size and table count (>= 1). */
unsigned long long sb_table_rows(uint64_t workload_bytes, unsigned long long tables);

struct pg_conf {
	uint64_t shared_buffers;        /* bytes */
	uint64_t effective_cache_size;  /* bytes */
	uint64_t work_mem;              /* bytes */
	unsigned long long max_connections;
	int port;
	const char *socket_dir;
};
/* The block lrubench appends to the postgresql.conf initdb wrote (later
 * settings win). Sizes are written in kB, the unit PostgreSQL accepts for
 * all three; a value PostgreSQL rejects makes the server fail to start. */
void pg_format_conf(struct strbuf *sb, const struct pg_conf *c);
/* Newest "<root>/<version>/bin" that holds a postgres binary (root is
 * /usr/lib/postgresql); 0 with out filled, or -1. */
int pg_find_bindir(const char *root, char *out, size_t len);
/* Does dir hold the server binaries we run (postgres, initdb, psql)? 0, or
 * -1 with why naming what is missing. */
int pg_check_bindir(const char *dir, struct strbuf *why);
/* The state word of postmaster.pid (line 8: "starting", "ready", ...), or
 * "" when the file is not there or not yet complete. */
void pg_pidfile_status(const char *pidfile_text, char *out, size_t len);

/* ---- machine ---- */

/* Is 127.0.0.1:port free? (bind probe) */
bool pg_port_free(int port);
/* First free port from `from` upward (at most 200 tried), or -1. */
int pg_pick_port(int from);
/* The unprivileged user the cluster belongs to: "postgres" when it exists,
 * else the system user PG_USER_FALLBACK, created with useradd when missing
 * (never deleted: *created says whether this run made it). */
int pg_user(char *name, size_t len, uid_t *uid, gid_t *gid, bool *created);

struct pg_server {
	char bindir[PATH_MAX];
	char top[PATH_MAX / 2];     /* <workdir>/pg: removed on stop */
	char datadir[PATH_MAX];
	char sockdir[PATH_MAX];     /* = top */
	char log_path[PATH_MAX];    /* the server's stderr */
	char cgroup_procs[PATH_MAX];/* "" = stay in lrubench's cgroup */
	const struct numa_bind *bind;
	uid_t uid;
	gid_t gid;
	struct pg_conf conf;
	struct child pm;
	bool started;
	bool made_top;              /* top was created by us: remove it */
	volatile pid_t pm_pid;      /* for the async-signal-safe undo */
	int dir_cleanup;            /* registry handle of the tree removal */
	int stop_cleanup;           /* registry handle of the immediate stop */
};

/* Create top/ and data/ (owned by the user), run initdb, append the conf. */
int pg_server_init(struct pg_server *s, const char *helper_log);
/* Start the postmaster and wait (bounded) until it accepts connections.
 * WL_OK; WL_FAILED when it dies or never gets ready, with the tail of its
 * log in the message; WL_INTERRUPTED when a stop was requested. */
enum wl_status pg_server_start(struct pg_server *s, double timeout);
/* Run SQL as the superuser through psql over the socket; output to log. */
int pg_server_sql(struct pg_server *s, const char *sql, const char *log);
/* CHECKPOINT, then syncfs() the data folder's filesystem: the load's dirty
 * pages are written before anything is measured (fsync is off). */
int pg_server_flush(struct pg_server *s, const char *log);
/* Is the postmaster still running? */
bool pg_server_alive(struct pg_server *s);
/* Fast, then immediate, then kill; then remove the cluster. Idempotent;
 * safe after a stop was requested. */
void pg_server_destroy(struct pg_server *s);

/* ---- sysbench ---- */
struct sb_cmd {
	const char *test;           /* "oltp_read_only" */
	const char *command;        /* "prepare" | "run" | "cleanup" */
	const char *host;           /* socket dir or address */
	int port;
	const char *user, *db;
	unsigned long long tables, table_size, threads;
	double time;                /* run only; seconds */
	unsigned long long events;  /* run only; > 0: this many transactions, --time=0 */
};
/* Append sysbench's argv for c to argv. Pure. */
void sb_argv(const struct sb_cmd *c, struct strlist *argv);
/* Does sysbench exist and have the pgsql driver? 0, or -1 with why. */
int sb_check_binary(struct strbuf *why);

#endif
