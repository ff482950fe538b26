/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs, where perf finds the lock:contention_begin/end tracepoints.
 *
 * When it is not mounted, lrubench mounts it at /sys/kernel/tracing for the
 * run -- inside the run's private mount namespace, so nobody else sees it --
 * and unmounts it at the end (cleanup registry). perf would otherwise mount
 * it itself and leave it mounted. A tracefs that was already mounted is
 * used as it is and never unmounted.
 *
 * LRUBENCH_TRACEFS=DIR (for tests) makes lrubench look for the tracepoints
 * in DIR instead and never mount anything: a folder without events/lock
 * plays a kernel without the lock tracepoints, which no kernel here lacks.
 */
#ifndef LRUBENCH_TRACEFS_H
#define LRUBENCH_TRACEFS_H

#include <stdbool.h>
#include "core/util.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

/* The mounted tracefs (a tracefs mount in mounts, or debugfs/tracing), or
 * the LRUBENCH_TRACEFS folder; malloc'ed, NULL when none. */
char *tracefs_find(const char *mounts);
/* Are SYSTEM/EVENT's id readable under root/events? */
bool tracefs_has_event(const char *root, const char *system, const char *event);
/* Mount tracefs at dir (in the current mount namespace) and register its
 * unmount. 0, or -1 with why. */
int tracefs_mount(const char *dir, int *cleanup_id, struct strbuf *why);
/*
 * Can tracefs be mounted here, and does it have SYSTEM/EVENT? Tried in a
 * child in a mount namespace of its own, so nothing is mounted anywhere
 * once it returns. 0 yes; 1 tracefs cannot be mounted; 2 mounted but no
 * such event; why says which and why.
 */
int tracefs_probe_mount(const char *system, const char *event, struct strbuf *why);

#endif
