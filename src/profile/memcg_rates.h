/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-memcg half of the reclaim counters (reclaim.h), for a workload
 * that knows its memcgs and says so through the workload contract
 * (wl_memcg_report, core/workload.h): from each member's memory.stat as the
 * core's memcg set read it before and after (core/memcg_set.h), the rates
 * summed over them as the tables "<workload> memcg <counter>/s"
 * (explaining, lower is better), and from the throughput of each memcg the
 * fairness tables (profile.h wl_sample_fairness). Only the counters this
 * kernel and cgroup version have become tables.
 */
#ifndef LRUBENCH_MEMCG_RATES_H
#define LRUBENCH_MEMCG_RATES_H

#include "core/workload.h"

/* The run_env.memcg_tables hook: fairness first, then the memcg rates
 * (nothing in warm-up, nor when seconds <= 0). */
void memcg_report_tables(struct wl_samples *s, const struct wl_memcg_report *r);

#endif
