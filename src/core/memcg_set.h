/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set of memcgs for the "N children in N memcgs" shape (docs/ARCHITECTURE.md
 * §5): N memcgs created under the run parent with one limit, or, for
 * memcgs = 0, the root memory cgroup borrowed as the set's one member (the
 * controller on, the tasks in no memcg of their own). Each member's
 * cgroup.procs path is ready for struct child / struct round_task; memory.stat
 * counters are snapshotted and subtracted one way (memcg_stats_*); removal
 * is cg_destroy of each member (cheap once the tasks are reaped: an empty
 * memcg costs a few system calls). Every created memcg is in the cleanup
 * registry from the moment it exists.
 */
#ifndef LRUBENCH_MEMCG_SET_H
#define LRUBENCH_MEMCG_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/cgroup_setup.h"
#include "core/status.h"

struct run_env;

struct memcg_set {
	struct cgroup *cg;       /* n members */
	char (*procs)[4096];     /* member i's cgroup.procs */
	size_t n;                /* members made so far (what memcg_set_remove removes) */
	bool root;               /* memcgs = 0: cg[0] is the borrowed root */
};

/*
 * Make "<prefix>-<i>" (i from first) for i < count with limit (0: none), or
 * borrow the root for count = 0 (limit ignored: the root takes none). A
 * half-made set is kept for memcg_set_remove. WL_OK, WL_FAILED (printed) or
 * WL_INTERRUPTED (a stop was requested between two memcgs).
 */
enum wl_status memcg_set_make(struct run_env *env, const char *prefix, unsigned first, size_t count,
			      uint64_t limit, struct memcg_set *set);
/* The same, for workloads that can run without memcgs (thpscale, kernbench):
 * count = 0 on a machine without the memory controller is an empty set
 * (n = 0), whose tasks stay in lrubench's cgroup. */
enum wl_status memcg_set_make_optional(struct run_env *env, const char *prefix, unsigned first,
				       size_t count, uint64_t limit, struct memcg_set *set);
/* Exactly count memcgs (0: an empty set), for a workload whose count 0 means
 * "none" rather than the root (colocate's low memcgs). */
enum wl_status memcg_set_make_n(struct run_env *env, const char *prefix, unsigned first, size_t count,
				uint64_t limit, struct memcg_set *set);
/* Exactly count memcgs below parent (a memcg of the run, e.g. one made with
 * env_memcg and a limit; not the borrowed root) instead of the run parent:
 * the "parent with a limit, N children below it" shape (shrinkers, whose
 * limit reclaim walks every child). Removed like any set, before parent. */
enum wl_status memcg_set_make_under(struct run_env *env, const struct cgroup *parent, const char *prefix,
				    unsigned first, size_t count, uint64_t limit, struct memcg_set *set);
/* The cgroup.procs of task t when each member holds per tasks (the root's
 * for every task of a borrowed root; NULL for an empty set). */
static inline const char *memcg_set_procs(const struct memcg_set *set, size_t t, size_t per)
{
	return set->n ? set->procs[set->root ? 0 : t / per] : NULL;
}
/* One memcg of its own, or (root) the borrowed root: the if/else of
 * memcgs = 0 for a workload with named memcgs (sysbench's server and client).
 * 0, or -1 (printed). Removed with cg_destroy. */
int memcg_one(struct run_env *env, bool root, const char *name, uint64_t limit, struct cgroup *out);
/* Remove every member (the borrowed root is only forgotten); 0, or -1 when
 * one could not be removed (printed). Idempotent; frees the set. */
int memcg_set_remove(struct memcg_set *set);

/* Counters of memory.stat, for every member of a set, read one way. */
struct memcg_stats {
	const char *const *keys; /* cg_stat names ("pgscan", "workingset_refault") */
	size_t nkeys, n;
	uint64_t *vals;          /* n * nkeys: member m, key k at [m * nkeys + k] */
	bool *have;              /* nkeys: key k was read in every member */
	/* every counter of memory.stat, parsed, for counters beyond keys (the
	 * memcg rates, §5): numbers only, not each member's text (a thousand
	 * memcgs' texts were megabytes) */
	char **names;            /* nnames: the counters' names (the first readable member's) */
	size_t nnames;
	uint64_t *all;           /* n * nnames: member m, counter c at [m * nnames + c];
				  * MEMCG_STAT_NONE where member m had no such line */
};
#define MEMCG_STAT_NONE UINT64_MAX

/* Read keys of every member into st (allocated here). */
void memcg_stats_take(struct memcg_stats *st, const struct memcg_set *set, const char *const *keys,
		      size_t nkeys);
/* after - before of key k in member m; 0 when it went backwards. */
uint64_t memcg_stats_delta(const struct memcg_stats *before, const struct memcg_stats *after, size_t m,
			   size_t k);
/* Key k was read in every member both times. */
bool memcg_stats_have(const struct memcg_stats *before, const struct memcg_stats *after, size_t k);
/* Counter `name` of member m as memory.stat spelled it (no v1/v2 mapping):
 * true with *v, false when the member had no such line. */
bool memcg_stats_get(const struct memcg_stats *st, size_t m, const char *name, uint64_t *v);
void memcg_stats_release(struct memcg_stats *st);

#endif
