/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the kernel spent the time, for every op: what the run loop
 * (src/run/step_loop.c) calls.
 *
 * Always on, around every timed iteration (cheap: a few small files read
 * before and after):
 *   "<workload> user|sys|irq|softirq|iowait CPU %"     (cpu_split.h)
 *   "<workload> vmstat <counter>/s"                   (reclaim.h)
 * and, from workloads that know their memcgs (readtwice), measured while
 * the memcgs exist:
 *   "<workload> memcg <counter>/s"                    (memcg_rates.h)
 *   "<workload> fairness", "<workload> fairness min/max"
 * With [global] profile = lock | cpu | all | counters | reclaim | c2c, after a step's timed
 * iterations,
 * profile_passes (default 1) extra iterations of the same step under the
 * profiler, one sample each:
 *   "<workload> lru_lock wait" (ms), "<workload> lru_lock contended"
 *                                                     (lock: perf lock or lock_stat)
 *   "<workload> spinlock CPU %"                       (cpu: perf record)
 *   "<workload> <pair> stalls", "... stall us p50|p99|max"
 *                                  (reclaim: tracepoints, reclaim_latency.h)
 *   "<workload> c2c HITM", "<workload> c2c remote HITM" (sampled loads)
 *                                  (c2c: perf c2c, perf_c2c.h)
 * Its own samples never enter the timed tables; they go to the op's details
 * with their ratio to the timed mean, so the profiler's overhead is visible.
 * A profile that fails (perf killed, exits non-zero, prints what lrubench
 * cannot read) marks the op's profile failed with the reason; the timed
 * samples are kept and the run goes on.
 *
 * Every such table is marked "explains" in the results (results.h): compare
 * groups them under a heading of their own and the regression gate skips
 * them. Their op is the step's name (memcgs-4, j4, threads-8).
 */
#ifndef LRUBENCH_PROFILE_H
#define LRUBENCH_PROFILE_H

#include <stdbool.h>
#include <json-c/json.h>
#include "core/workload.h"
#include "profile/caps.h"
#include "profile/cpu_split.h"
#include "profile/reclaim.h"

struct profile_run {
	enum profile_kind kind;
	unsigned passes;             /* profiled passes per step, >= 1 */
	bool lock_via_perf;          /* perf's tracepoints; else /proc/lock_stat */
	struct profile_caps caps;
	struct run_env *env;
	struct cpu_acct acct;
	const cpu_set_t *cpus;       /* the bound CPUs; NULL: all */
	char *cpu_list;              /* "0-3,8" for perf -C; NULL: all */
	char *tracefs_dir;           /* tracefs lrubench mounted; NULL when it did not */
	int tracefs_id;
	int lock_stat_id;            /* kernel.lock_stat switched on by lrubench */
	unsigned failed;             /* steps whose profile failed */
	char perf_version[64];       /* kept for run.json after the release */
	const char *cpu_source;      /* cpu_acct_source(), kept likewise */
	unsigned reclaim_pairs;      /* profile=reclaim: its tracepoint pairs, kept likewise */
	char reclaim_why[1024];      /* the pairs this kernel lacks, kept likewise */
};

/*
 * Before anything starts: probe what the requested profile needs. 0, or
 * LB_EXIT_UNSUPPORTED after printing why this machine cannot run it.
 */
int profile_run_init(struct profile_run *pr, enum profile_kind kind, unsigned passes);
/* Once the run's mount namespace and cgroup exist: the CPU accounting
 * cgroup (found in mounts, /proc/mounts's format), tracefs. 0 or -1
 * (message printed). */
int profile_run_setup(struct profile_run *pr, struct run_env *env, const char *mounts);
void profile_run_release(struct profile_run *pr);
/* Does this run make a profile pass per step? */
bool profile_wanted(const struct profile_run *pr);
/* The facts for run.json: {"kind", "lock_source", "perf_version", "cpu_source", "failed"} */
json_object *profile_run_json(const struct profile_run *pr);

/* The always-on counters around one timed iteration. */
struct iter_counters {
	struct cpu_sample cpu;
	struct counters vm;
	bool have_vm;
};
void profile_iter_begin(struct profile_run *pr, struct iter_counters *c);
/* After a successful timed iteration of step: samples into res (the
 * iteration's staging result) and "counters": {...} into the iteration's
 * first detail (a {"step","iteration","counters"} entry when the workload
 * made none). Releases c. */
void profile_iter_end(struct profile_run *pr, struct iter_counters *c, const char *workload,
		      const char *step, int iteration, struct wl_result *res, json_object *details);
void profile_iter_release(struct iter_counters *c);

/*
 * The profile passes of step: pr->passes more iterations under the
 * profiler, each a sample of its tables in res and a {"step", "profile":
 * {..., "pass", "passes"}} entry in res->details.
 * 0 when done (the profile itself may have failed: marked, warned, counted
 * in pr->failed: WL_OK); WL_INTERRUPTED when a stop was requested.
 */
enum wl_status profile_pass(struct profile_run *pr, struct wl_ctx *ctx, size_t step,
			    struct wl_result *res);

/* The explaining table "<title>" of res (wl_result_explaining_table) with
 * the x axis of the workload's own tables: its ops are the steps, which
 * sweep what those tables sweep. */
struct result_table *profile_table(struct wl_result *res, const char *title, const char *unit,
				   int better);

/* For workloads with several memcgs: Jain's index of the per-memcg
 * throughput into "<workload> fairness", and min/max into
 * "<workload> fairness min/max" (both explain, higher is better). */
void wl_sample_fairness(struct wl_samples *s, const char *op, const double *per_memcg, size_t n);

#endif
