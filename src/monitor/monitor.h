/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitors (docs/ARCHITECTURE.md §3 step 5, §8 "series", §12): what the
 * machine's memory did during every timed iteration, sampled every
 * [global] monitor_interval ms by one forked sampler process bound to one
 * CPU, into a time series file beside the results (core/series.h):
 *
 *   <label>/series/<workload>/<step>.<iteration>.series
 *
 * Monitors (global.monitors, a comma list, "all" or "none"):
 *   vmstat   /proc/vmstat levels and counters (nr_*_file/anon, nr_dirty,
 *            workingset_*, pgscan_*, pgsteal_*, compact_*, thp_*, pswp*)
 *   meminfo  /proc/meminfo (MemFree, Cached, SwapTotal, SwapFree,
 *            AnonHugePages, Shmem, Slab, ...), kB
 *   memcg    the run's memcg parent and each memcg below it (the memcgs
 *            the workloads made, core/memcg_set.h and env_memcg): usage,
 *            swap, LRU sizes of memory.stat, nr_dying_descendants
 *   cpu      /proc/stat ticks of the run's bound CPUs: the CPU split
 *   psi      /proc/pressure/{memory,cpu,io} totals, µs
 *   node     /sys/devices/system/node/nodeN/meminfo of the run's node, kB
 * A counter a kernel lacks is absent from the series ("m absent NAME"),
 * never an error.
 *
 * After the iteration the run reads the series back (series_load, the one
 * reader) into explaining tables "<workload> <level> MB (peak)" and
 * "(end)" (monitor_levels), and records the sampler's cost in the
 * iteration's detail ("monitors": samples, bytes, cpu_ms, cpu).
 */
#ifndef LRUBENCH_MONITOR_H
#define LRUBENCH_MONITOR_H

#include <stdbool.h>
#include <json-c/json.h>
#include "core/child.h"
#include "core/results.h"
#include "core/series.h"
#include "core/workload.h"

enum {
	MON_VMSTAT = 1 << 0,
	MON_MEMINFO = 1 << 1,
	MON_MEMCG = 1 << 2,
	MON_CPU = 1 << 3,
	MON_PSI = 1 << 4,
	MON_NODE = 1 << 5,
	MON_ALL = (1 << 6) - 1,
};

/* "vmstat,meminfo" / "all" / "none" -> mask; -1 with err naming the key and
 * the unknown name (exit 2). */
int monitor_parse(const char *list, unsigned *mask, struct strbuf *err);

/* The run's side: what global.monitors asked and where the sampler runs. */
struct monitor_run {
	unsigned mask;             /* 0: none */
	unsigned interval_ms;
	int cpu;                   /* the sampler's CPU; -1: not chosen yet */
	bool spare;                /* a CPU the workloads are not bound to */
	struct run_env *env;
	bool verbose;
	unsigned killed;           /* iterations whose sampler died */
};

/* From the config: 0, or -1 with err (monitor_parse). */
int monitor_run_init(struct monitor_run *m, const char *list, unsigned long long interval_ms,
		     struct strbuf *err);
/* Once the run's environment exists: chooses the sampler's CPU (an online
 * CPU outside env->bind.cpus, else the highest of them, shared). */
void monitor_run_setup(struct monitor_run *m, struct run_env *env, bool verbose);
/* {"monitors": [...], "interval_ms", "cpu", "spare_cpu", "killed"} for run.json */
json_object *monitor_run_json(const struct monitor_run *m);
/* Is anything sampled? */
static inline bool monitor_on(const struct monitor_run *m) { return m && m->mask; }

/* One timed iteration's sampler. */
struct monitor_iter {
	struct child c;
	int fd;                    /* the series file, -1: no sampler */
	char *path;
	double t0;                 /* monotonic seconds of the series' 0 */
	void *arg;                 /* the sampler's arguments */
};

/* Start the sampler for (workload, step, iteration); a failure to start is
 * a warning and no series, never a failed iteration. */
void monitor_iter_begin(struct monitor_run *m, struct monitor_iter *mi, const char *workload,
			const char *step, int iteration);
/* Stop it (a last sample, the end record), read the series back and add
 * the level tables of op `step` to res and the cost to the first entry of
 * details. end_at (monotonic seconds, 0: none) is when the workload
 * reported its first result: "(end)" is the last sample up to it. A
 * sampler that died is said (a warning and a note in the series); the
 * samples before are kept. ok false (the iteration failed): the series is
 * kept, no tables. */
void monitor_iter_end(struct monitor_run *m, struct monitor_iter *mi, const char *workload,
		      const char *step, double end_at, bool ok, struct wl_result *res,
		      json_object *details);

/* The level tables of one series into res (op), with "(end)" the last
 * sample at or before end_ms (< 0: the last). Exposed for the unit tests. */
void monitor_levels(const struct series *s, const char *workload, const char *op, int64_t end_ms,
		    struct wl_result *res);

/* The sampler (sampler.c): the fork child's whole life. */
struct sampler_arg {
	unsigned mask, interval_ms;
	int fd;                    /* the series file */
	int cpu;                   /* -1: stay */
	bool spare;
	double t0;
	int node;                  /* -1: every node */
	cpu_set_t cpus;            /* the CPUs of the cpu monitor */
	const char *memcg_dir;     /* the run's memcg parent; NULL: none */
	int cg_v2;                 /* 1: cgroup v2 file names */
};
int sampler_main(void *arg);

#endif
