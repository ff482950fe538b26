/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thpscale's pure arithmetic, apart from the system calls so it can be unit
 * tested: how a mapsize is split between threads, where the 1 MB holes of the
 * fragmented region are, how a fault is classified huge or base, the default
 * thread counts (mmtests' "large stride"), the automatic mapsize and the
 * memory checks, and /proc/vmstat parsing.
 */
#ifndef LRUBENCH_THPSCALE_LAYOUT_H
#define LRUBENCH_THPSCALE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/util.h"
#include "core/workload.h"

#define THP_SIZE  ((uint64_t)2 << 20)   /* one PMD-sized huge page */
#define THP_HOLE  (THP_SIZE / 2)        /* unmapped from the start of every 2 MB block */
#define THP_PROBE_PAGE 64               /* mmtests checks residency 64 pages in */

/*
 * One instance (one process) with `threads` threads and `mapsize` bytes, as
 * mmtests' thpscale splits it: each thread gets thread_size bytes (mapsize /
 * threads, rounded down to 2 MB) of first region, read-faults file_span =
 * thread_size / 4 of the data file into the holes, and write-faults
 * nr_faults = thread_size / 4 MB huge-page-sized steps of a second region.
 */
struct thp_layout {
	uint64_t mapsize;
	unsigned threads;
	uint64_t thread_size;
	uint64_t file_span;
	uint64_t nr_faults;
	uint64_t second_map;    /* bytes to mmap for the second region: faults + 2 MB to align */
	uint64_t file_region;   /* file bytes reserved per instance: mapsize / 4, 2 MB aligned */
};

/* 0, or -1 when mapsize / threads leaves less than one fault per thread. */
int thp_layout_init(struct thp_layout *l, uint64_t mapsize, unsigned threads);
/* Smallest mapsize that gives every one of `threads` threads one fault. */
uint64_t thp_min_mapsize(unsigned threads);
/* Offset into the data file of (instance, thread). */
uint64_t thp_file_offset(const struct thp_layout *l, unsigned instance, unsigned thread);

uintptr_t thp_align_up(uintptr_t a, uintptr_t align);   /* align: power of two */
/* Holes punched into [base, base + len): the first THP_HOLE bytes of every
 * 2 MB-aligned block that starts inside the range and whose hole ends
 * inside it. */
size_t thp_hole_count(uintptr_t base, size_t len);
uintptr_t thp_hole_addr(uintptr_t base, size_t i);

/*
 * Classification, after a write to the first byte of a 2 MB-aligned block
 * and before the rest of it is touched: a PMD-sized THP fault maps all 512
 * pages at once, a base fault only the first. vec is mincore()'s answer for
 * pages THP_PROBE_PAGE .. last page of the block (n entries). mmtests looks
 * only at page 64; we also require the last page, so that a multi-size THP
 * (mTHP, smaller than 2 MB) is not counted as huge.
 */
enum thp_kind { THP_BASE = 0, THP_HUGE = 1 };
size_t thp_probe_pages(size_t page_size);
int thp_classify(const unsigned char *vec, size_t n);

/*
 * Thread counts between min and max as mmtests' "large stride"
 * (bin/generate-stride-range --stride-large): odd counts up to 8, then steps
 * of 6 up to 32 (or 9, then 31, on bigger machines), always including min
 * and max; ascending, unique. Returns the count (<= cap).
 */
size_t thp_threads_stride(unsigned min, unsigned max, unsigned ncpus,
			  unsigned long long *out, size_t cap);
/* The default list as text "1,3,5,7,8": 1 .. min(4 x ncpus, 32). */
void thp_threads_default(unsigned ncpus, char *buf, size_t len);

/*
 * Memory. An instance holds about mapsize of anonymous memory at the end (the
 * half of the first region left after the holes plus the second region),
 * mapsize / 4 of page cache (reclaimable), and its mapsize / 4 of the data
 * file, which also takes memory when the sparse root is a loop image on tmpfs
 * (file_in_memory). Memory that cannot be reclaimed must stay within 90% of
 * the node. "auto" is mmtests' 80% of the node's memory over the instances
 * (60% when the file is in memory), and at most 3/4 of a memcg limit.
 */
uint64_t thp_auto_mapsize(uint64_t node_mem, unsigned instances, uint64_t memcg_limit,
			  bool file_in_memory);
/* WL_OK, or WL_BAD_CONFIG / WL_UNSUPPORTED with err saying why. */
enum wl_status thp_check_mapsize(uint64_t mapsize, unsigned instances, unsigned max_threads,
		      uint64_t node_mem, uint64_t memcg_limit, bool file_in_memory,
		      struct strbuf *err);

/* The /proc/vmstat counters recorded per iteration. */
#define THP_NVMSTAT 7
extern const char *const thp_vmstat_keys[THP_NVMSTAT];
#define THP_VMSTAT_MISSING UINT64_MAX
/* Fill v[] from the text of /proc/vmstat; absent keys get THP_VMSTAT_MISSING. */
void thp_vmstat_parse(const char *text, uint64_t v[THP_NVMSTAT]);

#endif
