/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reclaim and LRU counters per timed iteration, as rates: the deltas of
 * /proc/vmstat (the whole machine; the core reads it around every timed
 * iteration) and of each memcg's memory.stat, summed over the memcgs
 * (memcg_rates.h; the workload reads them while its memcgs exist), divided
 * by the iteration's wall time. Counter names changed across kernels, so
 * each rate is a list of alternatives, the first one whose keys all exist
 * wins (pgscan = pgscan_anon + pgscan_file since 5.8, pgscan_kswapd +
 * pgscan_direct before). cgroup v1 has no pgscan, pgsteal, pgactivate,
 * pgdeactivate or pgrefill per memcg: those tables are simply absent there.
 *
 * Why not the run cgroup's hierarchical memory.stat: a memcg removed at the
 * end of an iteration (readtwice makes fresh ones each time) hands its
 * counts to its parent only when its css is freed, after an RCU grace
 * period, so the parent's delta over that iteration came out short (by 75%
 * in one iteration on 6.18) and the next one long.
 */
#ifndef LRUBENCH_RECLAIM_H
#define LRUBENCH_RECLAIM_H

#include <stdbool.h>
#include <stddef.h>

/* "key value" lines (vmstat, memory.stat) */
struct counters {
	char **keys;
	unsigned long long *vals;
	size_t n, cap;
};
int counters_parse(const char *text, struct counters *c);
/* Read path into c; -1 when it cannot be read. */
int counters_read(const char *path, struct counters *c);
bool counters_get(const struct counters *c, const char *key, unsigned long long *v);
void counters_release(struct counters *c);

#define RECLAIM_ALT 3   /* alternatives per rate */
#define RECLAIM_KEYS 4  /* keys summed per alternative */

struct reclaim_rate {
	const char *name;                                   /* "pgscan" */
	const char *vmstat[RECLAIM_ALT][RECLAIM_KEYS];
	const char *memcg[RECLAIM_ALT][RECLAIM_KEYS];       /* a memcg's memory.stat (v2, or v1 local) */
};
extern const struct reclaim_rate reclaim_rates[];
extern const size_t reclaim_rates_count;

/* The value of a rate's counter in c, by the first complete alternative. */
bool reclaim_value(const char *const alts[RECLAIM_ALT][RECLAIM_KEYS], const struct counters *c,
		   unsigned long long *v);

/* Jain's fairness index of x[0..n): (sum x)^2 / (n sum x^2), 1 when all are
 * equal, 1/n when one gets everything; 1 for n <= 1; 0 when all are 0. */
double jain_index(const double *x, size_t n);

#endif
