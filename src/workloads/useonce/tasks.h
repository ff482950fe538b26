/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two useonce tasks (lrubench-useonce(7)), forked children placed in the
 * step's memcg and on the run's node, reporting into memory shared with
 * lrubench:
 *
 * the streamer reads the data file `passes` times, a fixed amount of work:
 *   by read() of `block` bytes into a page-aligned buffer (4096, or an
 *   unaligned size such as 5000, the partial-page reader the thread's reply
 *   asked about), or by mmap (map the file read-only, read one byte of every
 *   page, unmap; iozone -B's access). Per pass it records the wall time, its
 *   own user and system CPU time (getrusage, as time(1)'s "Percent of CPU this
 *   job got"), its faults, the bytes it read from storage (getrusage's
 *   ru_inblock: task I/O accounting, readahead included, since the reader
 *   issues it) and the LRU counters before and after; and before the first
 *   pass and after each, how much of the file is in the page cache (mincore:
 *   the cache state an iteration claims, "cold", is measured, not assumed).
 *   All of it untimed, between passes;
 * the protected set, a working set of a fixed size (anonymous memory, or a
 *   mapping of a file of real data so that a page pushed out is a real major
 *   fault), touched page by page in a loop with a pause between sweeps until
 *   it is stopped: each touch timed into a histogram (core/lat_hist.h), its major
 *   faults counted from when it was warm.
 */
#ifndef LRUBENCH_USEONCE_TASKS_H
#define LRUBENCH_USEONCE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/lat_hist.h"

#define UO_MAX_PASSES 64

/* the LRU counters of each pass, in this order */
enum { UO_PGACTIVATE, UO_PGDEACTIVATE, UO_REFAULT, UO_ACTIVATE, UO_NCOUNTERS };
extern const char *const uo_counter_names[UO_NCOUNTERS];
/* where a counter was read: the memcg's memory.stat when it has it, else /proc/vmstat */
enum { UO_SRC_NONE, UO_SRC_MEMCG, UO_SRC_VMSTAT };

struct uo_pass {
	double elapsed, user, sys;        /* seconds */
	uint64_t bytes, majflt, minflt;
	uint64_t storage_bytes;           /* read from storage during the pass (ru_inblock x 512) */
	uint64_t resident_after;          /* bytes of the file in the page cache after it */
	uint64_t count[UO_NCOUNTERS];     /* delta over the pass */
};

struct uo_stream_result {
	int err;                          /* errno of what failed, 0 when fine */
	unsigned done;                    /* passes finished */
	int source[UO_NCOUNTERS];         /* UO_SRC_* */
	bool io_accounting;               /* the kernel counts a task's storage reads (/proc/self/io) */
	bool resident_known;              /* mincore answered: resident_* are valid */
	uint64_t resident_start;          /* bytes of the file in the page cache before pass 1 */
	struct uo_pass pass[UO_MAX_PASSES];
};

struct uo_stream_arg {
	const char *file;
	bool mmap;
	size_t block;                     /* read(): bytes a call */
	unsigned passes;
	const char *memory_stat;          /* the memcg's memory.stat */
	struct uo_stream_result *res;
};

struct uo_protect_result {
	struct lat_hist hist;             /* every timed touch, ns */
	uint64_t majflt, minflt;          /* since it was warm */
	uint64_t sweeps;
	int err;
	int ready;                        /* warm: every page touched once */
};

struct uo_protect_arg {
	bool mapped;                      /* mapping of file; else anonymous */
	const char *file;
	size_t size;
	double pause;                     /* seconds between sweeps */
	struct uo_protect_result *res;
};

/* "KEY VALUE" at the start of a line of text (memory.stat, /proc/vmstat):
 * true with *v; false when no line has exactly that key */
bool uo_stat_lookup(const char *text, const char *key, uint64_t *v);

/* Bytes of the first size bytes of the open file fd that are in the page
 * cache (mincore of a read-only mapping, a window at a time: nothing is
 * faulted in); 0 with *bytes, or -1 with errno. */
int uo_resident_bytes(int fd, uint64_t size, uint64_t *bytes);

/* child bodies (core/child.h fn): 0, or 1 with res->err set */
int uo_stream_main(void *stream_arg);
/* runs until killed; returns only on an error */
int uo_protect_main(void *protect_arg);

#endif
