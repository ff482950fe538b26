/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A latency histogram of fixed size (colocate's probe, useonce's protected
 * set; moved here from workloads/colocate/ when the second workload needed
 * it, unchanged): millions of
 * operations per iteration are recorded without storing them, and p50/p99
 * come back within 1/64 (1.6%) of the true value; the maximum is exact.
 * Values are nanoseconds. Below 128 ns every value has its own bucket;
 * above, each power of two is split into 64 equal buckets (log-linear, as
 * HdrHistogram does). Fixed layout and no pointers: it lives in memory
 * shared between the probe process and lrubench.
 */
#ifndef LRUBENCH_HIST_H
#define LRUBENCH_HIST_H

#include <stdint.h>

#define LH_EXACT 128                          /* values below are exact */
#define LH_SUB 64                             /* buckets per power of two above */
#define LH_BUCKETS (LH_EXACT + (64 - 7) * LH_SUB)

struct lat_hist {
	uint64_t count;
	uint64_t max;      /* ns, exact */
	uint64_t sum;      /* ns, for the mean */
	uint64_t bucket[LH_BUCKETS];
};

/* The bucket of a value, and the lowest value of a bucket and its width. */
unsigned lh_index(uint64_t ns);
uint64_t lh_lower(unsigned idx);
uint64_t lh_width(unsigned idx);

static inline void lh_record(struct lat_hist *h, uint64_t ns)
{
	h->bucket[lh_index(ns)]++;
	h->count++;
	h->sum += ns;
	if (ns > h->max)
		h->max = ns;
}

/* The pct-th percentile (0 < pct <= 100) in ns: the middle of the bucket
 * that holds the value of rank ceil(pct/100 * count), never above max; 0
 * for an empty histogram. */
double lh_percentile(const struct lat_hist *h, double pct);

#endif
