// SPDX-License-Identifier: GPL-2.0-or-later
/* The log-linear latency histogram (hist.h). */
#include "core/hist.h"

#include <math.h>

unsigned lh_index(uint64_t ns)
{
	unsigned e;

	if (ns < LH_EXACT)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns);          /* 7..63 */
	/* the 6 bits after the leading one pick one of 64 equal slices */
	return LH_EXACT + (e - 7) * LH_SUB + (unsigned)((ns >> (e - 6)) - LH_SUB);
}

uint64_t lh_width(unsigned idx)
{
	return idx < LH_EXACT ? 1 : 1ULL << ((idx - LH_EXACT) / LH_SUB + 1);
}

uint64_t lh_lower(unsigned idx)
{
	unsigned g, m;

	if (idx < LH_EXACT)
		return idx;
	g = (idx - LH_EXACT) / LH_SUB;
	m = (idx - LH_EXACT) % LH_SUB;
	return (uint64_t)(LH_SUB + m) << (g + 1);
}

double lh_percentile(const struct lat_hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < LH_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			double mid = (double)lh_lower(i) + (double)(lh_width(i) - 1) / 2.0;

			return mid > (double)h->max ? (double)h->max : mid;
		}
	}
	return (double)h->max;
}
