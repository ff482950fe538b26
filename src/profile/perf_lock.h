/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading `perf lock contention -i FILE` (caller mode, perf's default).
 *
 * Facts about the format, from perf's builtin-lock.c and from perf 6.1.187
 * on the CI machine (tests/fixtures/profile/):
 *   - it goes to stderr (lrubench captures stdout and stderr in one file);
 *   - a header names the columns: some of "contended", "acquired",
 *     "total wait", "max wait", "min wait", "avg wait" (right-aligned, width
 *     10 or 12), then "type" and "caller";
 *   - one row per call stack (so a caller can appear several times): counts
 *     as integers; times as "%.2f" with a unit ns/us/ms/s/m/h (6.1 and
 *     later), or as plain nanoseconds (5.19 and 6.0 printed raw integers);
 *     then the lock type ("spinlock", "rwsem:R", "mutex", ...) and the
 *     caller "symbol+0xoff";
 *   - rows with no wait time are not printed;
 *   - with -v, each row is followed by its call stack, one frame a line
 *     ("\t\t\t0xffffffff8168e8bf  folio_lruvec_lock_irqsave+0x5f");
 *   - a debug footer "=== output for debug ===" (or "===") with
 *     "bad: N, total: M" may follow.
 *
 * The caller perf prints is the first non-lock frame after skipping three
 * (--stack-skip), so on 6.18 a wait in shrink_lruvec (where the inlined
 * shrink_inactive_list takes lru_lock) is printed as shrink_node, and one
 * in folio_lruvec_lock_irqsave as folio_batch_move_lru. When the stack is
 * there, the first frame that is not a lock primitive -- the function that
 * took the lock -- decides whether the wait is an LRU lock wait; without
 * it (perf run without -v), the caller does.
 * Anything else after the header is an error that names perf's version and
 * the line, so a format change is noticed, not misread.
 */
#ifndef LRUBENCH_PERF_LOCK_H
#define LRUBENCH_PERF_LOCK_H

#include "core/util.h"
#include "profile/lock_report.h"

/* Parse text (NUL-terminated). perf_version ("6.1.187") is for messages.
 * 0, or -1 with err: "cannot read the output of perf 6.1.187 lock
 * contention, line 7: '...': <why>". */
int perf_lock_parse(const char *text, const char *perf_version, struct lock_report *out,
		    struct strbuf *err);

#endif
