/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which lock contention is LRU lock contention. perf's lock tracepoints
 * (lock:contention_begin/end) say who waited (the caller symbol), not which
 * lock: lrubench counts a contention as an LRU lock wait when its caller is a
 * kernel function that takes the lruvec (or, before 5.11, the per-node or
 * per-zone) lru_lock. lock_stat names the lock class itself, so its class
 * names are in the same table.
 *
 * This is the ONE list of those names (lru_locks.c), each with the kernel
 * versions it was checked on, because function names change across kernels
 * (pagevec_lru_move_fn became folio_batch_move_lru, lock_page_lruvec became
 * folio_lruvec_lock, ...) and a comparison of an old and a new kernel must
 * count the same lock on both.
 */
#ifndef LRUBENCH_LRU_LOCKS_H
#define LRUBENCH_LRU_LOCKS_H

#include <stdbool.h>
#include <stddef.h>

enum lru_name_kind {
	LRU_CALLER,      /* a function named as the waiter by perf lock contention */
	LRU_LOCK_CLASS,  /* a lock class name in /proc/lock_stat */
};

struct lru_lock_name {
	const char *name;     /* exact, or a prefix when it ends in '*' */
	enum lru_name_kind kind;
	const char *why;      /* what it does with the lock */
	const char *checked;  /* the kernels this name was checked on, and how */
};

extern const struct lru_lock_name lru_lock_names[];
extern const size_t lru_lock_names_count;

/*
 * The function name of a perf caller: "folio_batch_move_lru+0x88" and
 * "__page_cache_release.part.0+0x58" become "folio_batch_move_lru" and
 * "__page_cache_release" (the offset and the compiler's clone suffixes --
 * .part.N, .isra.N, .constprop.N, .cold, .llvm.N -- are dropped). Writes at
 * most len bytes (NUL included) to out and returns out.
 */
char *lru_caller_function(const char *caller, char *out, size_t len);
/* Is this perf caller (raw, with offset) an LRU lock taker? */
bool lru_is_lru_caller(const char *caller);
/* Is this lock_stat class name ("&lruvec->lru_lock", maybe with -R/-W) an LRU lock? */
bool lru_is_lru_class(const char *class_name);

#endif
