/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A timed round of forked tasks started together (docs/ARCHITECTURE.md §5),
 * for workloads whose result is "how much N tasks did in T seconds"
 * (readtwice's readers, mmapread's mappers).
 *
 * Each task is a child (core/child.h), placed in its cgroup and on the run's
 * node before it runs. It prepares (opens, maps), says it is ready through a
 * pipe, and waits; when every task is ready, closing a second pipe releases
 * them all at once. Every task works until one deadline, the release plus
 * `runtime`, and records what it did and its time from the release to the
 * end of its work in its slot, in memory shared with the parent: the fork,
 * getting ready and a slow exit are not counted as working time. The window
 * is the same for every task: with more tasks than CPUs (1000 memcgs x 2
 * readers on 2 CPUs) the last task first runs a whole scheduler rotation
 * after the release. A deadline of its own would keep it, and the tasks
 * that share its CPU, working that much past the others' end -- seconds of
 * wall time that are no one's work (issue 31); a window from its own first
 * run would rate it over the short time it held a CPU, not the time it
 * waited for one, and inflate the sum of the rates. Its wait for the first
 * turn counts as its waits between turns do; `late` says how long it was. A
 * task that first runs past the deadline does no work (bytes 0).
 *
 * Every wait has a deadline (core/child_watch.h): a task not ready `grace`
 * seconds after the last one was started, or not ended `grace` seconds after
 * its runtime, is stuck. By default a stuck task, like one that dies, fails
 * the round with a message naming it, its pid and its state. With `why`
 * set, what the kernel under test did to a task -- killed it (the OOM
 * killer) or holds it (a task in D state) -- fails the op instead
 * (WL_OP_FAILED), with the stuck task's kernel stack in the reason; a task
 * whose own prepare or work failed with an errno is still an error of the
 * workload (WL_FAILED).
 */
#ifndef LRUBENCH_TASK_ROUND_H
#define LRUBENCH_TASK_ROUND_H

#include <stddef.h>
#include <stdint.h>
#include "core/numa.h"
#include "core/status.h"
#include "core/util.h"

/* What one task did; one per task, in memory shared with the parent. */
struct round_slot {
	uint64_t bytes;   /* what the work counted */
	double elapsed;   /* seconds between the release and the end of its work */
	double late;      /* seconds from the release until it first ran */
	int err;          /* errno of a failed prepare or work; 0 when fine */
	int cpu, node;    /* where it ran when it stopped (getcpu): the binding held? */
};

struct round_task {
	void *arg;                 /* given to prepare and work */
	const char *cgroup_procs;  /* cgroup.procs to join; NULL: stay in lrubench's */
	const char *name;          /* in messages ("readtwice reader 3 of memcg 1");
				    * NULL: "<spec->name> <index>" */
	const char *file;          /* named when its work fails ("failed on FILE: ...");
				    * NULL: not named */
};

struct round_spec {
	size_t ntasks;
	const struct round_task *tasks;
	/* in the task, before it says ready: 0 or an errno */
	int (*prepare)(void *arg);
	/* in the task, after the release: work until now_monotonic() >= end
	 * (reading the clock often enough that the overshoot is small), adding
	 * to slot->bytes; 0 or an errno */
	int (*work)(void *arg, double end, struct round_slot *slot);
	const struct numa_bind *bind;
	double runtime;            /* seconds */
	double grace;              /* seconds to get ready, or past runtime to end, before a
				    * task counts as stuck; <= 0: never stuck */
	const char *name;          /* "mmapread task": the tasks' process name in messages */
	struct strbuf *why;        /* NULL: a killed or stuck task is an error (WL_FAILED);
				    * set: it fails the op (WL_OP_FAILED), the message
				    * printed is put here */
	struct round_times *times; /* NULL: not recorded */
};

/* Where a round's wall time went (bench/memcg-scale), seconds. */
struct round_times {
	double start;   /* every task forked and started (child_set_start) */
	double ready;   /* from then until the last one said it is ready */
	double reap;    /* from the deadline (release + runtime) until the last one was reaped */
	double late;    /* the latest first run after the release (round_slot.late) */
};

/* Run one round: WL_OK with out[ntasks] filled; WL_FAILED when a task
 * failed, died or got stuck (the message names it); WL_OP_FAILED (why set
 * only) when a task was killed by a signal or got stuck: the op failed,
 * spec->why says why; WL_INTERRUPTED when a stop was requested. Every task
 * is gone when it returns. */
enum wl_status round_run(const struct round_spec *spec, struct round_slot *out);

/* MB/s with 1 MB = 10^6 bytes; 0 when secs <= 0. */
double round_mbps(uint64_t bytes, double secs);

#endif
