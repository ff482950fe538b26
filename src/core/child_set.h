/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * N children started together and waited for together (docs/ARCHITECTURE.md
 * §5), in the spirit of git's run_processes_parallel: the workload says what
 * each child runs (a struct child: argv or fn, its folder, its log), the set
 * places child i in member memcg_set_procs(memcgs, i, per) of a memcg set and
 * on the run's node, starts them all without waiting for each in turn
 * (child_start_begin/_finish, at most CHILD_START_WINDOW unfinished), and
 * waits for all of them on their pidfds, so each end time is its own. Every
 * child has a deadline (core/child_watch.h): a stuck one is named in a
 * report of its process group and the whole set is stopped. A workload keeps
 * no wait loop of its own for several children.
 *
 * Output capture is each child's out_path (stdout and stderr appended there):
 * child_set_failed finds the first child that failed, child_failed() prints
 * its code and the last lines of its log.
 *
 * Children that run until they are stopped (faultscale's tasks, colocate's
 * pressure) are not waited for but watched: child_set_watch until the next
 * sample, child_set_poll between the workload's own looks, child_set_stuck
 * when the workload sees one held by a measure of its own, child_set_stop.
 */
#ifndef LRUBENCH_CHILD_SET_H
#define LRUBENCH_CHILD_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include "core/child.h"
#include "core/child_watch.h"
#include "core/numa.h"
#include "core/status.h"
#include "core/util.h"

struct memcg_set;

struct child_set {
	/* the caller's part, set before child_set_start */
	size_t n;
	struct child *kids;             /* n children: what each runs (argv or fn, dir,
					 * out_path, env_add, name); cgroup_procs and bind
					 * are the set's unless set here */
	const struct memcg_set *memcgs; /* child i joins memcg_set_procs(memcgs, i, per);
					 * NULL: stays in lrubench's cgroup */
	size_t per;                     /* children per member (0 counts as 1) */
	const struct numa_bind *bind;   /* NULL: no binding */
	double length;                  /* seconds of work each child has; < 0: none
					 * (stuck when its group uses no CPU) */
	double stuck_timeout;           /* global.stuck_timeout; <= 0: never stuck */
	double stop_grace;              /* SIGTERM to SIGKILL when the set is stopped */
	void *data;                     /* given to the callbacks */
	/* child i in the stuck report ("make -j4 in tree 2"); NULL: kids[i].name */
	void (*what)(void *data, size_t i, char *buf, size_t len);
	/* child i was reaped with code (exit status or 128 + signal) */
	void (*ended)(void *data, size_t i, int code);
	/* the set is about to be stopped (stuck, interrupted, an error): break
	 * whatever barrier the children wait at */
	void (*stopping)(void *data);

	/* filled in */
	size_t started;                 /* kids[0..started) were started */
	int *code;                      /* n: exit status or 128 + signal, once done */
	struct rusage *ru;              /* n: rusage of the child and its reaped descendants */
	double *end;                    /* n: now_monotonic() when it was reaped */
	bool *done;                     /* n: reaped */
	struct child_watch *watch;      /* n */
	int *pidfd;                     /* n: while waiting, -1 when none (then the wait
					 * looks every 20 ms) */
};

/*
 * Start every child. WL_OK; WL_FAILED (a child could not start: the message
 * names it, the started ones are stopped); WL_INTERRUPTED (a stop was
 * requested while starting; the started ones are stopped).
 */
enum wl_status child_set_start(struct child_set *s);
/*
 * Wait until every started child has ended: WL_OK (codes in s->code; see
 * child_set_failed); WL_OP_FAILED when one is stuck (why filled by
 * child_stuck_report and printed; the set stopped); WL_INTERRUPTED when a
 * stop was requested; WL_FAILED when waiting failed (the set stopped).
 */
enum wl_status child_set_wait(struct child_set *s, struct strbuf *why);
/*
 * Watch the set until `until` (now_monotonic() seconds) or until a child
 * ends, whichever comes first: for children that run until they are stopped
 * while the workload does something of its own between two looks (reads
 * their counters every second, waits for them to be ready: faultscale).
 * Every call looks at each child once, however close `until` is, and never
 * returns before `until` otherwise. WL_OK with *ended = -1: `until` came
 * and every child still runs (or none is left to watch); WL_OK with *ended
 * = i: child i ended (reaped, code in s->code[i], its ended callback
 * called; any other that ended at the same look is reaped too, s->done),
 * the others still run. WL_OP_FAILED (stuck), WL_INTERRUPTED, WL_FAILED as
 * child_set_wait, the set stopped.
 */
enum wl_status child_set_watch(struct child_set *s, double until, long *ended, struct strbuf *why);
/*
 * Child i is stuck by the workload's own measure (a counter of its that no
 * longer moves, not ready within a grace) rather than by its deadline: the
 * stuck report of its process group as `what` into why (and printed), the
 * stopping callback, the set stopped, as for a deadline. WL_OP_FAILED.
 */
enum wl_status child_set_stuck(struct child_set *s, size_t i, const char *what, struct strbuf *why);
/* Without waiting: has a child ended? true with *i and *code of the first
 * one found (it is reaped and its ended callback called). */
bool child_set_poll(struct child_set *s, size_t *i, int *code);
/* The first child (in index order) that ended with a code other than 0,
 * or -1. */
long child_set_failed(const struct child_set *s);
/* Stop every child still running (SIGTERM, stop_grace, SIGKILL) and reap it.
 * Idempotent. */
void child_set_stop(struct child_set *s);
/* Stop what runs, free what the set allocated (not kids). */
void child_set_release(struct child_set *s);

#endif
