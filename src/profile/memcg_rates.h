/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-memcg half of the reclaim counters (reclaim.h), for a workload
 * that knows its memcgs: snapshots of each memcg's memory.stat taken while
 * the memcgs exist, and the rates summed over them as the tables
 * "<workload> memcg <counter>/s" (explaining, lower is better). Only the
 * counters this kernel and cgroup version have become tables.
 */
#ifndef LRUBENCH_MEMCG_RATES_H
#define LRUBENCH_MEMCG_RATES_H

#include <stddef.h>
#include "core/cgroup_setup.h"
#include "core/workload.h"
#include "profile/reclaim.h"

struct memcg_snapshot {
	struct counters *c;     /* one per memcg; empty when unreadable */
	size_t n;
};

void memcg_snapshot_take(struct memcg_snapshot *s, const struct cgroup *cgs, size_t n);
void memcg_snapshot_release(struct memcg_snapshot *s);
/* Record the rates over seconds; nothing in warm-up or when seconds <= 0. */
void wl_sample_memcg_rates(struct wl_samples *s, const char *op, const struct memcg_snapshot *before,
			   const struct memcg_snapshot *after, double seconds);

#endif
