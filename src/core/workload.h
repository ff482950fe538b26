/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload interface. A workload is a folder src/workloads/<name>/ and a
 * row in the table of src/workloads/table.c, never a special case in the
 * core: nothing outside src/workloads/ chooses behaviour by workload name.
 *
 * The core owns cgroups (the run parent), NUMA binding, the sparse root,
 * iterations and warm-up, signals, progress, sysinfo, results, and each
 * workload's private state (ctx->priv). A workload owns its own files and
 * children and reports samples as (table, op, value).
 *
 * Life cycle of the workloads of one `lrubench run` (src/run/, run_state.h):
 *
 *   for every selected workload, before anything is created:
 *     probe(ctx, why)      can it run on this machine? ctx->opts is filled,
 *                          ctx->priv is NULL (`lrubench check` calls probe
 *                          too, outside any run): WL_OK or WL_UNSUPPORTED
 *     ctx->priv = priv_size zeroed bytes, allocated by the core
 *     validate(ctx, err)   checks across its options; may resolve values
 *                          into priv: WL_OK, WL_BAD_CONFIG or WL_UNSUPPORTED
 *   then, one workload after the other:
 *     setup(ctx)           once: files, database, source tree, memcgs
 *                          (env_memcg); adds the steps (wl_add_step)
 *     for each step s: ctx->warmup warm-up iterations, then ctx->iterations
 *     measured ones (--resume skips those already saved):
 *       run_step(ctx, s, samples)   one iteration of one step
 *     print_summary(ctx, out)       only when setup and every iteration
 *                          succeeded, before teardown, so priv still holds
 *                          what was measured; the text is shown at the end
 *                          of the run after the core's summary tables
 *     teardown(ctx)        whenever setup was called, whatever it and the
 *                          steps returned (also after a failure or the
 *                          first SIGINT); must cope with a half-done setup
 *   the cleanup registry runs: whatever any workload left registered
 *   the core frees every priv
 *
 * Status: probe, validate, setup and run_step return an enum wl_status (one
 * set for every hook, below); the first status other than WL_OK ends the
 * run, whose exit code is wl_status_exit(status). A hook that fails while a
 * stop was requested (SIGINT) counts as WL_INTERRUPTED. why/err name the
 * problem for probe and validate; the later hooks print their own message.
 *
 * State: what a run keeps between hooks lives in priv, never in static
 * storage. Whatever setup or run_step creates that must be undone even if
 * lrubench is interrupted in between -- a child, a mount, a sysfs value, a
 * server -- is pushed on the cleanup registry (cleanup.h) the moment it
 * exists. Its undo may point into priv: priv is freed only after the
 * registry has run. A second SIGINT runs the registry from the signal
 * handler and exits at once; teardown does not run then.
 *
 * Steps, ops, tables: a step is the unit of the sweep (memcgs-4, threads-8,
 * j4) and of progress and --resume. One step may feed several ops of
 * several tables (kernbench's step j4 gives the ops elsp-4, user-4 and
 * syst-4). A table declares its x axis (struct x_axis): what its ops sweep,
 * written into the results and read by plot, which never names a workload.
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
#include "core/status.h"
#include "core/sysinfo.h"
#include "core/util.h"

struct wl_ctx;
struct knob_set;

/* The LB_EXIT_* code of a status. */
int wl_status_exit(enum wl_status st);
/* "ok", "failed", "bad config", "unsupported", "interrupted". */
const char *wl_status_name(enum wl_status st);

/*
 * What the ops of a table sweep: plot's x axis, stored with the results
 * ("x_axis" in results.h). The x value of an op is the decimal number that
 * ends its name (results_op_x: "memcgs-8" -> 8, "fault-huge-16" -> 16, "18"
 * -> 18); what comes before the number names a series ("fault-huge-"), so
 * one table may hold several sweeps over the same axis. name NULL: the ops
 * are categories with no order (plot draws bars).
 */
struct x_axis {
	const char *name;    /* what varies: "memory cgroups", "threads", "make jobs" */
	const char *unit;    /* how it is counted: "count", "-j"; "" for none */
};

struct table_def {
	const char *title;   /* "readtwice MB/s aggregate" */
	const char *unit;    /* "MB/s" */
	int better;          /* BETTER_HIGHER / BETTER_LOWER */
	struct x_axis x_axis;
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
	struct strbuf why;              /* why run_step returned WL_OP_FAILED (core-owned;
					 * child_stuck_report and task_round fill it) */
	double first_at;                /* monotonic seconds of the first wl_sample: when the
					 * measured work ended (the monitors' "end"); 0: none */
};
/* Record one sample of table index `table` (into ops->tables[]) for op. */
void wl_sample(struct wl_samples *s, int table, const char *op, double v);
/*
 * What a workload of the "N children in N memcgs" shape knows about its
 * memcgs in one iteration (docs/ARCHITECTURE.md §5): the throughput of each
 * (NULL or n = 0: none) and memory.stat of every member of its set before
 * and after (core/memcg_set.h memcg_stats_take), over seconds. The run layer
 * makes the explaining tables of them: "<workload> fairness" (Jain index),
 * "fairness min/max" and the memcg reclaim rates "<workload> memcg
 * <counter>/s"; a workload names no profile/ function.
 */
struct memcg_stats;
struct run_env;
struct wl_memcg_report {
	const char *op;
	const double *per_memcg;
	size_t n;
	const struct memcg_stats *before, *after;
	double seconds;
};
void wl_memcg_report(struct run_env *env, struct wl_samples *s, const struct wl_memcg_report *r);
/* Attach a free-form JSON object to this (step, iteration); the core adds
 * "step" and "iteration" and stores it under "details". Takes ownership. */
void wl_detail(struct wl_samples *s, json_object *obj);

/*
 * run --dry-run --machine (core/machine_shape.h): how a workload sizes on a
 * machine shape that is not this one, without running. The plan hook fills
 * what it can; the core prints it and says "reclaims" when the working set
 * is larger than the memory that can hold it.
 */
struct wl_plan {
	int node_cpus;               /* of the shape's node the run would use (or the machine) */
	uint64_t node_mem;           /* its memory, bytes */
	uint64_t mem_available;      /* what file_size = auto would read as MemAvailable */
	struct strbuf text;          /* lines, each ending in \n: how each step sizes */
	double seconds;              /* the time of the measured iterations and warm-ups; < 0: unknown */
	double working_set;          /* bytes the largest step asks of memory; 0: not said */
	double memory;               /* bytes that can hold it there (memcg limits, or node memory) */
	uint64_t machine_mem;        /* the shape's MemTotal, all nodes (mmtests' MEMTOTAL_BYTES) */
};

struct workload_ops {
	const char *name;
	const char *summary;                 /* one line for `lrubench list` */
	const struct option_def *options;    /* keys of [name] */
	size_t opts_size;                    /* sizeof its option struct */
	size_t priv_size;                    /* sizeof its run state (ctx->priv); 0: none */
	const struct table_def *tables;      /* NULL-title terminated */
	/* the life cycle above; every hook but setup, run_step and teardown may be NULL */
	enum wl_status (*probe)(struct wl_ctx *ctx, struct strbuf *why);
	enum wl_status (*validate)(struct wl_ctx *ctx, struct strbuf *err);
	enum wl_status (*setup)(struct wl_ctx *ctx);
	enum wl_status (*run_step)(struct wl_ctx *ctx, size_t step, struct wl_samples *s);
	void (*teardown)(struct wl_ctx *ctx);
	/* extra lines for run's end-of-run summary */
	void (*print_summary)(struct wl_ctx *ctx, FILE *out);
	/* run --dry-run --machine: fill p from ctx->opts (sized for the shape) without touching
	 * this machine; NULL: the plan prints the config only */
	void (*plan)(struct wl_ctx *ctx, struct wl_plan *p);
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
	/* turns a wl_memcg_report into its explaining tables; set by the run
	 * layer (profile/memcg_rates.h), NULL: none (unit tests) */
	void (*memcg_tables)(struct wl_samples *s, const struct wl_memcg_report *r);
	/* the run's [settings] (core/knobs.h), applied before the first setup; a
	 * workload that sets a knob itself refuses one set here to another value */
	const struct knob_set *settings;
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
	void *priv;                 /* ops->priv_size zeroed bytes, core-owned (see above) */
	bool verbose;
};

/* Add a step (the name is formatted and copied). */
void wl_add_step(struct wl_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A directory on a real (non-tmpfs) filesystem for workload files: the
 * sparse root (global.sparse_root), set up on first use, torn down by the
 * core. WL_OK with *dir set; else a message, and WL_UNSUPPORTED when a tool
 * or the loop devices are missing. */
enum wl_status env_sparse_dir(struct run_env *env, const char **dir);
/* Create a child memcg of the run parent, named "<workload>-<n>", with a
 * limit (0 = none), registered for cleanup. Fails (message) with CG_NONE. */
int env_memcg(struct run_env *env, const char *name, uint64_t limit, struct cgroup *out);
/* Where "memcgs = 0" puts a workload's tasks: the root of the memory
 * hierarchy, so the controller is enabled but the tasks belong to no memcg
 * of their own (the case of the seed thread's first -10%). A borrowed
 * cgroup: place children with cg_procs_file, read cg_stat; cg_destroy only
 * forgets it. Fails (message) with CG_NONE. */
int env_root_memcg(struct run_env *env, struct cgroup *out);
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
