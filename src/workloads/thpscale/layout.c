// SPDX-License-Identifier: GPL-2.0-or-later
/* thpscale's arithmetic: layout, holes, classification, defaults, checks. */
#include "workloads/thpscale/layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int thp_layout_init(struct thp_layout *l, uint64_t mapsize, unsigned threads)
{
	memset(l, 0, sizeof(*l));
	if (!threads)
		return -1;
	l->mapsize = mapsize;
	l->threads = threads;
	l->thread_size = (mapsize / threads) & ~(THP_SIZE - 1);
	/* the second region is half the first, in 2 MB steps */
	l->nr_faults = l->thread_size / (2 * THP_SIZE);
	if (!l->nr_faults)
		return -1;
	l->file_span = l->thread_size / 4;
	l->second_map = l->nr_faults * THP_SIZE + THP_SIZE;
	/* every thread count fits the same per-instance file region:
	 * threads * thread_size / 4 <= mapsize / 4 */
	l->file_region = ((mapsize / 4) + THP_SIZE - 1) & ~(THP_SIZE - 1);
	return 0;
}

uint64_t thp_min_mapsize(unsigned threads)
{
	return (uint64_t)threads * 2 * THP_SIZE;
}

uint64_t thp_file_offset(const struct thp_layout *l, unsigned instance, unsigned thread)
{
	return (uint64_t)instance * l->file_region + (uint64_t)thread * l->file_span;
}

uintptr_t thp_align_up(uintptr_t a, uintptr_t align)
{
	return (a + align - 1) & ~(align - 1);
}

size_t thp_hole_count(uintptr_t base, size_t len)
{
	uintptr_t first = thp_align_up(base, (uintptr_t)THP_SIZE);
	uintptr_t end = base + len;

	if (end < base || first + THP_HOLE > end || first < base)
		return 0;
	return (size_t)((end - first - THP_HOLE) / THP_SIZE) + 1;
}

uintptr_t thp_hole_addr(uintptr_t base, size_t i)
{
	return thp_align_up(base, (uintptr_t)THP_SIZE) + (uintptr_t)i * THP_SIZE;
}

size_t thp_probe_pages(size_t page_size)
{
	size_t per = (size_t)(THP_SIZE / page_size);

	return per > THP_PROBE_PAGE ? per - THP_PROBE_PAGE : 1;
}

int thp_classify(const unsigned char *vec, size_t n)
{
	if (!n)
		return THP_BASE;
	return (vec[0] & 1) && (vec[n - 1] & 1) ? THP_HUGE : THP_BASE;
}

/* Append start, start+step, ... <= end (seq(1) semantics; nothing when start > end). */
static void seq(unsigned long long *v, size_t *n, size_t cap,
		long long start, long long step, long long end)
{
	for (long long x = start; x <= end && *n < cap; x += step)
		if (x > 0)
			v[(*n)++] = (unsigned long long)x;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

size_t thp_threads_stride(unsigned min, unsigned max, unsigned ncpus,
			  unsigned long long *out, size_t cap)
{
	unsigned long long v[512];
	size_t n = 0, m = 0;
	long long lo = min, hi = max, cpus = ncpus ? ncpus : 1;

	if (!min || min > max)
		return 0;
	v[n++] = min;
	v[n++] = max;
	if (hi > cpus * 8) {
		long long last = (hi - cpus * 2) / 8;

		seq(v, &n, ARRAY_SIZE(v), lo, 3, 8);
		seq(v, &n, ARRAY_SIZE(v), 12, 9, 32);
		seq(v, &n, ARRAY_SIZE(v), 48, 31, cpus);
		seq(v, &n, ARRAY_SIZE(v), cpus * 2, last > 0 ? last : 31, hi);
	} else if (hi > 32) {
		seq(v, &n, ARRAY_SIZE(v), lo, 3, 8);
		seq(v, &n, ARRAY_SIZE(v), 12, 9, 32);
		seq(v, &n, ARRAY_SIZE(v), 48, 31, hi);
	} else if (hi > 8) {
		seq(v, &n, ARRAY_SIZE(v), lo, 2, 8);
		seq(v, &n, ARRAY_SIZE(v), 12, 6, hi);
	} else {
		seq(v, &n, ARRAY_SIZE(v), lo, 2, hi);
	}
	qsort(v, n, sizeof(v[0]), cmp_ull);
	for (size_t i = 0; i < n && m < cap; i++) {
		if (v[i] < min || v[i] > max || (m && out[m - 1] == v[i]))
			continue;
		out[m++] = v[i];
	}
	return m;
}

void thp_threads_default(unsigned ncpus, char *buf, size_t len)
{
	unsigned long long v[64];
	unsigned max = (ncpus ? ncpus : 1) * 4;
	size_t n, off = 0;

	if (max > 32)
		max = 32;
	n = thp_threads_stride(1, max, ncpus, v, ARRAY_SIZE(v));
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%llu", i ? "," : "", v[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

uint64_t thp_auto_mapsize(uint64_t node_mem, unsigned instances, uint64_t memcg_limit,
			  bool file_in_memory)
{
	uint64_t m;

	if (!instances)
		instances = 1;
	m = node_mem / 10 * (file_in_memory ? 6 : 8) / instances;
	if (memcg_limit && (!m || memcg_limit / 4 * 3 < m))
		m = memcg_limit / 4 * 3;
	return m & ~(THP_SIZE - 1);
}

/* "512M" when exact, else "7.7G": messages people read */
static void human_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ull << 30) && bytes % (1ull << 30))
		snprintf(buf, len, "%.1fG", (double)bytes / (double)(1ull << 30));
	else if (bytes >= (1ull << 20) && bytes % (1ull << 20))
		snprintf(buf, len, "%.1fM", (double)bytes / (double)(1ull << 20));
	else
		format_size(bytes, buf, len);
}

enum wl_status thp_check_mapsize(uint64_t mapsize, unsigned instances, unsigned max_threads,
		      uint64_t node_mem, uint64_t memcg_limit, bool file_in_memory,
		      struct strbuf *err)
{
	char a[32], b[32];

	if (!instances)
		instances = 1;
	if (mapsize < thp_min_mapsize(max_threads)) {
		human_size(mapsize, a, sizeof(a));
		human_size(thp_min_mapsize(max_threads), b, sizeof(b));
		strbuf_addf(err, "thpscale.mapsize %s is too small for %u threads: "
			    "each thread needs 4M (at least %s)", a, max_threads, b);
		return WL_BAD_CONFIG;
	}
	/* anonymous memory of one instance is about mapsize; leave the memcg
	 * 1/8 for page tables and the page cache it reclaims */
	if (memcg_limit && mapsize > memcg_limit / 8 * 7) {
		human_size(mapsize, a, sizeof(a));
		human_size(memcg_limit, b, sizeof(b));
		strbuf_addf(err, "thpscale.mapsize %s does not fit thpscale.memcg_limit %s: "
			    "each instance needs about mapsize of anonymous memory "
			    "(at most 7/8 of the limit)", a, b);
		return WL_BAD_CONFIG;
	}
	/* what cannot be reclaimed: anon (mapsize), plus the data file's
	 * blocks (mapsize / 4) when they live in memory, within 90% */
	if (node_mem && (file_in_memory ? mapsize / 4 * 5 : mapsize) > node_mem / 10 * 9 / instances) {
		human_size(mapsize, a, sizeof(a));
		human_size(node_mem, b, sizeof(b));
		strbuf_addf(err, "thpscale.mapsize %s x %u instance%s needs more memory than the "
			    "node has (%s; mapsize%s per instance must stay within 90%%)",
			    a, instances, instances > 1 ? "s" : "", b,
			    file_in_memory ? " x 5/4 (the data file is on a loop image in memory)" : "");
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

const char *const thp_vmstat_keys[THP_NVMSTAT] = {
	"thp_fault_alloc", "thp_fault_fallback", "compact_stall", "compact_fail",
	"compact_success", "compact_isolated", "pgmigrate_success",
};

void thp_vmstat_parse(const char *text, uint64_t v[THP_NVMSTAT])
{
	for (size_t k = 0; k < THP_NVMSTAT; k++)
		v[k] = THP_VMSTAT_MISSING;
	for (const char *line = text; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		for (size_t k = 0; k < THP_NVMSTAT; k++) {
			size_t kl = strlen(thp_vmstat_keys[k]);
			if (len > kl && !strncmp(line, thp_vmstat_keys[k], kl) && line[kl] == ' ')
				v[k] = strtoull(line + kl + 1, NULL, 10);
		}
		line = nl ? nl + 1 : NULL;
	}
}
