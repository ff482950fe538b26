/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One faultscale measurement, will-it-scale's way (lrubench-faultscale(7)):
 * N tasks, processes or threads, each bound to its own CPU, run the fault
 * loop (fault_loop.h) from one release on and add to a counter of their own
 * in shared memory (one per 256 bytes, will-it-scale's spacing); the parent
 * reads the counters once a second, drops the first `warm` one-second
 * samples and averages the next `samples`, then kills the tasks.
 *
 * Processes: one process per task, in memcg (task / per). Threads: one
 * process per memcg group holding its tasks as threads (threads share an mm,
 * so they are charged to one memcg); memcgs = 0 is one process of N threads.
 * Those processes are a core/child_set.h set, started together and watched
 * between two samples (child_set_watch), stopped together: faultscale has no
 * wait loop of its own. A thread is no child: one that fails ends its
 * process (the set sees that end), one that is held shows in its counter,
 * which faultscale watches itself (child_set_stuck).
 *
 * What the kernel under test does to a task -- kills it (the OOM killer),
 * fails its mmap, holds it (no CPU time, or its counter still, for
 * stuck_timeout) -- fails the op (WL_OP_FAILED) with the reason in why; a
 * task that cannot make its file (a bad file_dir) fails the workload.
 */
#ifndef LRUBENCH_FAULTSCALE_FAULT_TASKS_H
#define LRUBENCH_FAULTSCALE_FAULT_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/numa.h"
#include "core/status.h"
#include "core/util.h"
#include "workloads/faultscale/fault_loop.h"

struct fs_spec {
	enum fs_case kase;
	bool threads;
	size_t ntasks;
	size_t ngroups;             /* processes: ntasks; threads: processes of threads */
	size_t per;                 /* tasks per group (the last may hold fewer) */
	const char *const *procs;   /* ngroups cgroup.procs (NULL entries: stay) */
	const int *cpus;            /* ntasks: the CPU of each task */
	uint64_t len;
	bool hugepage;
	const char *dir;            /* the files of page_fault2/3 */
	const struct numa_bind *bind;
	unsigned warm, samples;     /* one-second samples dropped, then averaged */
	double stuck_timeout;       /* <= 0: never stuck */
	struct strbuf *why;         /* the reason of WL_OP_FAILED */
};

struct fs_out {
	double ops;                 /* mean of the measured samples' ops/s: will-it-scale's average */
	double *second;             /* samples: each measured second's ops/s, all tasks */
	double *task;               /* ntasks: each task's ops/s over the measured samples */
	double min_task, max_task;  /* will-it-scale's min and max: of one task over a second */
	int *ran_cpu;               /* ntasks: the CPU each task was on at the end (-1: unknown) */
};

/* Tasks per group and groups for a step (memcgs 0: one group; processes:
 * a group per task). */
void fs_groups(bool threads, size_t ntasks, size_t memcgs, size_t *ngroups, size_t *per);
/* The ops/s of one sample: counts over dt seconds. */
double fs_rate(uint64_t before, uint64_t after, double dt);

/* Run one measurement: WL_OK with out filled (arrays allocated here, freed
 * by fs_out_release); WL_OP_FAILED (why), WL_FAILED, WL_INTERRUPTED. Every
 * task is gone when it returns. */
enum wl_status fs_run(const struct fs_spec *spec, struct fs_out *out);
void fs_out_release(struct fs_out *out);

#endif
