/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The readtwice engine: per memcg, `readers` processes read the memcg's
 * sparse file sequentially with 4 KiB read()s for a fixed time, wrapping to
 * offset 0 at EOF. Holes read as zeroes without block I/O, so every read
 * after the first pass is page-cache LRU work (activation, and reclaim
 * within the memcg limit): vm-scalability's case-lru-file-readtwice, per
 * memcg. The readers are the tasks of a core/task_round.h round.
 */
#ifndef LRUBENCH_READTWICE_READERS_H
#define LRUBENCH_READTWICE_READERS_H

#include <stddef.h>
#include <stdint.h>
#include "core/memcg_set.h"
#include "core/numa.h"
#include "core/task_round.h"
#include "core/util.h"

#define READTWICE_BLOCK 4096

/* One reader: its file and, in the reader, its descriptors. */
struct rt_reader {
	const char *file;
	int fd;              /* set by the open function, in the reader */
	int null_fd;         /* /dev/null of the dd reader (dd_reader.h); -1 otherwise */
};

enum rt_reader_mode { RT_READER_NATIVE, RT_READER_DD };

struct rt_spec {
	size_t nmemcg;
	size_t readers_per_memcg;
	char **files;                 /* one per memcg */
	const struct memcg_set *set;  /* one member per memcg */
	const struct numa_bind *bind;
	double runtime;               /* seconds */
	double stuck_timeout;         /* a reader not ready this long after the start, or
				       * not ended this long after runtime, is stuck */
	struct strbuf *why;           /* the reason of a WL_OP_FAILED */
	enum rt_reader_mode reader;   /* native: one read() per block, wraps at EOF;
				       * dd: read() + write() to /dev/null, stops at EOF */
	struct round_times *times;    /* NULL, or where the round's time went */
};

/* Run one round (a core/task_round.h round of readers). out has nmemcg *
 * readers_per_memcg entries, reader r of memcg m at [m * readers_per_memcg
 * + r]. Returns round_run's status: WL_OP_FAILED when a reader got stuck or
 * was killed (the message printed is in spec->why, every reader is
 * stopped); WL_FAILED on other failures, a reader's failed open or read
 * among them (message printed, names the reader). */
enum wl_status readtwice_round(const struct rt_spec *spec, struct round_slot *out);

/* Per-memcg MB/s (sum of its readers' rates), their mean, min and max, the
 * aggregate (sum of every reader's rate) and the per-reader mean: each
 * reader's bytes over its own time, averaged over the readers -- the posted
 * scripts' awk mean over dd outputs. memcg_mbps has nmemcg entries. */
struct rt_summary {
	double aggregate, per_memcg_mean, per_memcg_min, per_memcg_max;
	double per_reader_mean;
};
void rt_summarize(const struct round_slot *r, size_t nmemcg, size_t readers_per_memcg,
		  double *memcg_mbps, struct rt_summary *sum);

#endif
