/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mmapread task (lrubench-mmapread(7)), after vm-scalability's
 * case-lru-file-mmap-read: map a sparse file read-only and read one byte of
 * every page, so each page is a page-cache fault; the holes read as zeroes
 * without block I/O, so the fault allocates a page, inserts it into the page
 * cache and the LRU, and maps it. Then unmap, and (evict = fadvise) drop the
 * file from the page cache so the next pass inserts every page again.
 *
 * These run inside the forked tasks of a core/task_round.h round.
 */
#ifndef LRUBENCH_MMAPREAD_MAPPER_H
#define LRUBENCH_MMAPREAD_MAPPER_H

#include <stdbool.h>
#include <stddef.h>
#include "core/task_round.h"

struct mr_task {
	const char *file;
	bool fadvise;      /* drop the file's pages after every pass */
	int fd;            /* set by mr_prepare, in the task */
	size_t size;
};

/* Open the file and learn its size: 0 or an errno (EINVAL: shorter than a page). */
int mr_prepare(void *task);
/* Read passes over the mapped file until `end` (CLOCK_MONOTONIC seconds):
 * slot->bytes counts the bytes of the pages read. 0 or an errno. */
int mr_work(void *task, double end, struct round_slot *slot);

#endif
