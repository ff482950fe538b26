/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two kinds of colocate task (lrubench-colocate(7)), each a forked child
 * placed in its memcg and on the run's node:
 *
 * the probe, in the high-priority memcg, times every operation for
 *   `runtime` into a histogram in shared memory: a 4 KiB pread() of a
 *   random page of a file it read once beforehand (read: the page-cache
 *   hit path: lookup, mark accessed, copy), or the first write to a page of
 *   anonymous memory (anon: fault, allocation, memcg charge, LRU insertion;
 *   the region is emptied with MADV_DONTNEED, untimed, when every page was
 *   touched);
 * the pressure, in a low-priority memcg whose limit is below its working
 *   set, cycles over that working set until it is killed: sequential reads
 *   of a sparse file (file: page-cache reclaim) or writes to every page of
 *   anonymous memory (anon: needs swap; a page's first word gets a
 *   pseudo-random value, so zram must store it rather than note a page of
 *   zeroes).
 */
#ifndef LRUBENCH_COLOCATE_TASKS_H
#define LRUBENCH_COLOCATE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/hist.h"

enum co_kind { CO_READ_OR_FILE = 0, CO_ANON = 1 };

/* What the probe measured; in memory shared with lrubench. */
struct probe_result {
	struct lat_hist hist;
	double elapsed;    /* seconds of timed operations, their loop included */
	int err;           /* errno of a failed setup or operation, 0 when fine */
	int ready;         /* set once the untimed preparation is done */
};

struct probe_arg {
	enum co_kind kind;      /* CO_READ_OR_FILE: pread of file; CO_ANON: anonymous faults */
	const char *file;       /* read probe */
	size_t size;            /* file size, or the anonymous region */
	double runtime;
	uint64_t seed;
	struct probe_result *res;
};

struct pressure_arg {
	enum co_kind kind;      /* CO_READ_OR_FILE: read file in a loop; CO_ANON: write anon */
	const char *file;
	size_t size;            /* bytes cycled over */
	uint64_t seed;
};

/* child bodies (core/child.h fn): 0, or 1 with res->err set */
int co_probe_main(void *probe_arg);
/* loops until killed; returns only on an error (its errno, as exit 1) */
int co_pressure_main(void *pressure_arg);

/* xorshift64*: the probe's random pages and the pressure's page values */
uint64_t co_rand(uint64_t *state);

#endif
