/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload interface (DESIGN §2). A workload is a row in the table of
 * src/workloads/table.c, not a special case in the core.
 *
 * The core owns cgroups (the run parent), NUMA binding, the sparse root,
 * iterations and warm-up, signals, progress, sysinfo and results. A workload
 * owns its own files and children and reports samples as (table, op, value).
 *
 * Life cycle, driven by src/cmd_run.c:
 *   probe     -> can it run here? (0 yes; 1 no, `why` says why; the run exits 3)
 *   validate  -> cross-key checks on its options (returns an LB_EXIT_* code)
 *   setup     -> once: files, database, source tree; fills steps[]
 *   for each step s, warm-up iterations then measured iterations:
 *       run_step(ctx, s, samples)   -> one iteration of one step
 *   teardown  -> idempotent; runs on every path. Whatever setup creates that
 *                must be undone even on a second SIGINT is also pushed on the
 *                cleanup registry (cleanup.h) when created.
 *
 * A "step" is the unit of the sweep (memcgs-4, 8 threads, make -j4) and of
 * progress and --resume. One step may feed several ops (kernbench step j4
 * gives ops elsp-4, user-4, syst-4).
 */
#ifndef LRUBENCH_WORKLOAD_H
#define LRUBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stdio.h>
#include <json-c/json.h>
#include "core/cgroup_setup.h"
#include "core/config.h"
#include "core/numa.h"
#include "core/results.h"
#include "core/sysinfo.h"
#include "core/util.h"

struct wl_ctx;

struct table_def {
	const char *title;   /* "readtwice MB/s aggregate" */
	const char *unit;    /* "MB/s" */
	int better;          /* BETTER_HIGHER / BETTER_LOWER */
};

/* Where run_step puts what it measured. */
struct wl_samples {
	struct wl_result *res;          /* the workload's results (core-owned) */
	const struct table_def *tables; /* the workload's table_defs */
	const char *step;
	int iteration;                  /* 0-based measured iteration; < 0 in warm-up */
	bool discard;                   /* warm-up: samples are dropped */
	size_t added;
	json_object *pending_details;   /* core-owned array */
};
/* Record one sample of table index `table` (into ops->tables[]) for op. */
void wl_sample(struct wl_samples *s, int table, const char *op, double v);
/* Attach a free-form JSON object to this (step, iteration); the core adds
 * "step" and "iteration" and stores it under "details". Takes ownership. */
void wl_detail(struct wl_samples *s, json_object *obj);

struct workload_ops {
	const char *name;
	const char *summary;                 /* one line for `lrubench list` */
	const struct option_def *options;    /* keys of [name] */
	size_t opts_size;                    /* sizeof its option struct */
	const struct table_def *tables;      /* NULL-title terminated */
	int (*probe)(struct wl_ctx *ctx, struct strbuf *why);
	int (*validate)(struct wl_ctx *ctx, struct strbuf *err);   /* may be NULL */
	int (*setup)(struct wl_ctx *ctx);
	int (*run_step)(struct wl_ctx *ctx, size_t step, struct wl_samples *s);
	void (*teardown)(struct wl_ctx *ctx);
	/* optional: extra lines for run's end-of-run summary */
	void (*print_summary)(struct wl_ctx *ctx, FILE *out);
};

struct run_env {
	struct sys_facts *sys;
	struct cg_env *cg;          /* mode CG_NONE when no memory controller */
	struct cgroup *run_cg;      /* lrubench-<pid>; NULL when mode is CG_NONE */
	struct numa_bind bind;      /* the run's node (node < 0: none) */
	struct global_opts *g;
	char *run_workdir;          /* <workdir>/run-<pid>, removed at the end */
	char *sparse_dir;           /* mounted lazily by env_sparse_dir() */
	char *label_dir;            /* results/<label> */
	char *log_dir;              /* results/<label>/logs */
	void *sparse_state;         /* core-private */
	json_object *facts;         /* core-owned; see env_fact() */
};

struct wl_ctx {
	const struct workload_ops *ops;
	struct run_env *env;
	void *opts;                 /* the workload's option struct, filled */
	const struct config_section *sec;
	unsigned long long iterations, warmup;  /* effective for this workload */
	char *workdir;              /* <run_workdir>/<workload>, created by the core */
	char **steps;               /* filled by setup: step names ("memcgs-4") */
	size_t nsteps;
	void *priv;                 /* workload-private state */
	bool verbose;
};

/* Set the steps (copies the strings). */
void wl_set_steps(struct wl_ctx *ctx, const char *const *names, size_t n);
void wl_add_step(struct wl_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A directory on a real (non-tmpfs) filesystem for workload files: the
 * sparse root (DESIGN §5 sparse_root), set up on first use, torn down by the
 * core. Returns NULL with a message on failure. */
const char *env_sparse_dir(struct run_env *env);
/* Create a child memcg of the run parent, named "<workload>-<n>", with a
 * limit (0 = none), registered for cleanup. Fails (message) with CG_NONE. */
int env_memcg(struct run_env *env, const char *name, uint64_t limit, struct cgroup *out);
/* A log file path results/<label>/logs/<name>; creates logs/. Returns malloc'ed. */
char *env_log_path(struct run_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a fact about how this workload ran (e.g. the effective THP mode
 * it set) in run.json under "workload_facts": {"<workload>": {key: val}}.
 * Takes ownership of val. */
void env_fact(struct run_env *env, const char *workload, const char *key, json_object *val);
/* Drop the page cache (sync; echo 3 > drop_caches) when the config asks. */
int env_drop_caches(struct run_env *env);

extern const struct workload_ops *const workloads[];  /* NULL-terminated */
const struct workload_ops *workload_find(const char *name);

#endif
