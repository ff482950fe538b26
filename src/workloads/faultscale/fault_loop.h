/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one faultscale task does, will-it-scale's page-fault cases
 * (lrubench-faultscale(7)): map `len` bytes, write one byte of every page,
 * counting each page, unmap; again, for as long as it is let run.
 *
 *   page_fault1  anonymous private mapping
 *   page_fault2  private mapping of a sparse file of the task's own
 *                (every write fault copies a page-cache page)
 *   page_fault3  shared mapping of a sparse file of the task's own
 *                (write faults on page-cache pages)
 *
 * The file is an O_TMPFILE: it has no name, so a task that is killed at any
 * moment leaves nothing behind. hugepage: madvise(MADV_HUGEPAGE) on every
 * new mapping (the variant of the review thread 001).
 */
#ifndef LRUBENCH_FAULTSCALE_FAULT_LOOP_H
#define LRUBENCH_FAULTSCALE_FAULT_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fs_case { FS_PAGE_FAULT1, FS_PAGE_FAULT2, FS_PAGE_FAULT3, FS_NCASES };
extern const char *const fs_case_names[];   /* "page_fault1" ... NULL-terminated */

struct fs_loop {
	enum fs_case kase;
	size_t len;           /* bytes mapped each pass, a multiple of the page size */
	bool hugepage;        /* MADV_HUGEPAGE on each mapping */
	int fd;               /* the file of page_fault2/3; -1 for page_fault1 */
};

/* Make the task's file in dir (page_fault2/3; nothing for page_fault1):
 * 0, or an errno (EOPNOTSUPP: the filesystem has no O_TMPFILE). */
int fs_loop_prepare(struct fs_loop *l, const char *dir);
/* Run passes (0: forever), adding one to *count per page written. 0 after
 * the passes, or the errno of a failed mmap or madvise. */
int fs_loop_run(const struct fs_loop *l, volatile uint64_t *count, uint64_t passes);
void fs_loop_release(struct fs_loop *l);
/* Memory one task holds at most: the mapping, and for page_fault2 the
 * file's page cache besides its private copy. */
uint64_t fs_loop_footprint(enum fs_case kase, uint64_t len);

#endif
