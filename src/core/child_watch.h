/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deadlines for a workload's children (docs/ARCHITECTURE.md §5). A child
 * stuck in the kernel under test -- a reader in D state, a build that no
 * longer runs -- must end its op, not hang the run: waiting for it ends
 * with WATCH_STUCK and a report naming the stuck processes of its process
 * group, their state and their kernel stack (/proc/PID/stack, when
 * readable). The caller kills the child and fails the op (WL_OP_FAILED);
 * the run goes on with the next step.
 *
 * Two kinds of deadline, one key (global.stuck_timeout, T):
 *  - a child with a set length of work (readtwice's readers, a sysbench
 *    run): stuck when it has not ended T seconds after that length;
 *  - a child with none (a make, a thpscale instance): stuck when its
 *    process group has used no CPU time for T seconds.
 */
#ifndef LRUBENCH_CHILD_WATCH_H
#define LRUBENCH_CHILD_WATCH_H

#include <stdbool.h>
#include <sys/resource.h>
#include "core/child.h"
#include "core/util.h"

struct child_watch {
	double start;
	double deadline;              /* monotonic; < 0: none (CPU progress) */
	double stuck_timeout;         /* seconds; <= 0: never stuck */
	unsigned long long ticks;     /* the group's CPU time when last seen moving */
	double moved;                 /* when it last moved */
	double next_look;             /* /proc is read every second at most */
};

/* Start watching now. length >= 0: the child's work takes that many
 * seconds; < 0: it has no set length. */
void child_watch_start(struct child_watch *w, double length, double stuck_timeout);
/* Does c count as stuck now? */
bool child_watch_stuck(struct child_watch *w, const struct child *c);

enum { WATCH_REAPED = 0, WATCH_ERROR = -1, WATCH_STOP = -2, WATCH_STUCK = -3 };
/*
 * child_wait() until the child ends, a stop is requested or it is stuck:
 * WATCH_REAPED (*code set), WATCH_STOP, WATCH_STUCK (why filled by
 * child_stuck_report; the child still runs: the caller stops it) or
 * WATCH_ERROR. slice: how long one wait may take before looking again.
 */
int child_wait_watched(struct child *c, struct child_watch *w, double slice, int *code,
		       struct rusage *ru, struct strbuf *why);
/* "WHAT (pid N) is stuck: ...; pid N (comm) stopped (T), kernel stack:
 * a < b < c" for every process of c's group that is not running, one line. */
void child_stuck_report(const struct child *c, const struct child_watch *w, const char *what,
			struct strbuf *why);

#endif
