/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/lock_stat, the fallback for kernels built with CONFIG_LOCK_STAT
 * (Documentation/locking/lockstat.rst). Its format, "lock_stat version 0.4"
 * (kernel/locking/lockdep_proc.c): one line per lock class,
 *   "<class name>: con-bounces contentions waittime-min waittime-max
 *    waittime-total waittime-avg acq-bounces acquisitions holdtime-min
 *    holdtime-max holdtime-total holdtime-avg"
 * with times in microseconds ("%.2f"), read-write classes split into
 * "<name>-W:" and "<name>-R:", each followed by its contention points
 * ("<name> <count> [<addr>] symbol+0x../0x..") between dashed lines.
 *
 * The counters are cumulative since boot (or the last clear), so a profiled
 * iteration is the difference of a snapshot before and one after; lrubench
 * never clears them (they are not its to clear).
 */
#ifndef LRUBENCH_LOCK_STAT_H
#define LRUBENCH_LOCK_STAT_H

#include <stddef.h>
#include "core/util.h"
#include "profile/lock_report.h"

struct lock_stat_class {
	char *name;
	unsigned long long contentions;
	double wait_total_us, wait_max_us;
};

struct lock_stat_snapshot {
	struct lock_stat_class *c;
	size_t n, cap;
};

/* Parse the text of /proc/lock_stat. 0, or -1 with err naming the line. */
int lock_stat_parse(const char *text, struct lock_stat_snapshot *out, struct strbuf *err);
/* after - before, per class, as a lock report (type "class"); classes with
 * no new contention are left out; max wait is the after snapshot's (a
 * maximum cannot be differenced). */
void lock_stat_diff(const struct lock_stat_snapshot *before, const struct lock_stat_snapshot *after,
		    struct lock_report *out);
void lock_stat_release(struct lock_stat_snapshot *s);

/* lock_stat counts only while /proc/sys/kernel/lock_stat is 1: set it when
 * it is 0, with its restore in the cleanup registry (*cleanup_id > 0 then).
 * 0, or -1 with why. */
int lock_stat_enable(int *cleanup_id, struct strbuf *why);

/* Read and parse path (normally /proc/lock_stat). */
int lock_stat_read(const char *path, struct lock_stat_snapshot *out, struct strbuf *err);

#endif
