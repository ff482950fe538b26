/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A latency histogram of bounded size: log buckets, LHIST_SUB per doubling
 * of the microseconds, so any latency lands in one of LHIST_NBUCKETS
 * counters whatever the number of events (the reclaim latency profile,
 * profile/reclaim_latency.h), and its reader, shared by the writer and
 * by compare/plot (docs/ARCHITECTURE.md §8, §12).
 *
 * Buckets: 0 is [0, 1) us; bucket i >= 1 is [2^((i-1)/8), 2^(i/8)) us, up
 * to 2^32 us (71 minutes; longer stalls go to the last bucket). A
 * percentile is the upper edge of the bucket that holds it, clamped to the
 * exact maximum: an upper bound, at most 9% (2^(1/8)) above the truth.
 *
 * In results files (an op of a "reclaim_latency" profile detail):
 *   "buckets": [[lo_us, hi_us, count], ...]   the non-empty buckets, ascending
 */
#ifndef LRUBENCH_LATENCY_HIST_H
#define LRUBENCH_LATENCY_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "core/util.h"

#define LHIST_SUB 8
#define LHIST_NBUCKETS (1 + LHIST_SUB * 32)

struct lhist {
	uint64_t count;
	uint64_t b[LHIST_NBUCKETS];
	double max_us, sum_us;
};

size_t lhist_bucket(double us);
double lhist_lo(size_t i);
double lhist_hi(size_t i);
void lhist_add(struct lhist *h, double us);
/* q in (0, 1]: the bucket's upper edge holding the ceil(q*count)-th
 * value, at most max_us; 0 when empty. */
double lhist_percentile(const struct lhist *h, double q);
/* [[lo, hi, count], ...] of the non-empty buckets. */
json_object *lhist_buckets_json(const struct lhist *h);

/* A histogram read back from a results file. */
struct lhist_read {
	size_t n;
	double lo[LHIST_NBUCKETS], hi[LHIST_NBUCKETS];
	uint64_t count[LHIST_NBUCKETS];
	uint64_t total;
};
/* Read and check "buckets" (at most LHIST_NBUCKETS of [lo, hi, count],
 * finite, 0 <= lo < hi, ascending without overlap, integer counts >= 1);
 * -1 with "FILE: PATH[k]: why" in err. */
int lhist_read_json(json_object *buckets, const char *file, const char *path,
		    struct lhist_read *out, struct strbuf *err);

/*
 * Every "reclaim_latency" profile detail of a workload's results
 * (details[i].profile.reclaim_latency.ops[j]): "name" a string, "count" an
 * integer that its buckets add up to, "buckets" as above. compare, plot
 * and report refuse a file where one is not: -1 with the file and the JSON
 * path in err. NULL details is fine.
 */
int lhist_check_details(json_object *details, const char *file, struct strbuf *err);

#endif
