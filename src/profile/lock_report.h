/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One profiled iteration's lock contention, whatever measured it (perf's
 * lock tracepoints or /proc/lock_stat): a list of waiters -- a caller
 * function for perf, a lock class for lock_stat -- with their contention
 * count and wait times, the LRU lock total picked out of it (lru_locks.h),
 * and the top of the list as JSON for the op's details.
 */
#ifndef LRUBENCH_LOCK_REPORT_H
#define LRUBENCH_LOCK_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct lock_entry {
	char *name;                   /* caller as printed ("folio_batch_move_lru+0x88") or class */
	char *function;               /* caller without offset and clone suffix, or the class */
	char *type;                   /* "spinlock", "mutex", "rwsem:R", ... ; "class" for lock_stat */
	char *taker;                  /* the function that took the lock, from the call stack
				       * (perf lock contention -v); NULL when not known */
	unsigned long long contended;
	double wait_total_ns;         /* < 0: the source did not print it */
	double wait_max_ns;           /* < 0: not printed */
	bool lru;                     /* an LRU lock wait (lru_locks.h) */
};

struct lock_report {
	const char *source;           /* "perf lock contention" or "lock_stat" (static) */
	struct lock_entry *e;
	size_t n, cap;
	long long bad, total;         /* perf's "bad: N, total: M" footer; -1 when absent */
};

struct lru_lock_summary {
	unsigned long long contended;
	double wait_total_ms;
	double wait_max_ms;
	size_t callers;               /* entries that matched */
};

struct lock_entry *lock_report_add(struct lock_report *r, const char *name, const char *function,
				   const char *type, unsigned long long contended, double wait_total_ns,
				   double wait_max_ns, bool lru);
/* Sum entries with the same function, lock taker and type (perf prints one
 * row per call stack, so a caller appears several times), then sort by
 * total wait, largest first (contention count when there is no wait). */
void lock_report_merge(struct lock_report *r);
void lock_report_lru(const struct lock_report *r, struct lru_lock_summary *s);
/* [{"caller","lock_taker","type","contended","wait_total_ms","wait_max_ms","wait_avg_us","lru"}]
 * of the first n entries (after lock_report_merge). */
json_object *lock_report_top_json(const struct lock_report *r, size_t n);
void lock_report_release(struct lock_report *r);

#endif
