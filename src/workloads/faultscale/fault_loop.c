// SPDX-License-Identifier: GPL-2.0-or-later
/* One faultscale task's loop (fault_loop.h). */
#include "workloads/faultscale/fault_loop.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

const char *const fs_case_names[] = { "page_fault1", "page_fault2", "page_fault3", NULL };

int fs_loop_prepare(struct fs_loop *l, const char *dir)
{
	l->fd = -1;
	if (l->kase == FS_PAGE_FAULT1)
		return 0;
	/* will-it-scale makes a file per task and unlinks it at once; a file
	 * with no name is the same without the moment it has one */
	l->fd = open(dir, O_TMPFILE | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (l->fd < 0)
		return errno;
	if (ftruncate(l->fd, (off_t)l->len)) {
		int e = errno;

		close(l->fd);
		l->fd = -1;
		return e;
	}
	return 0;
}

int fs_loop_run(const struct fs_loop *l, volatile uint64_t *count, uint64_t passes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = l->len;
	int prot = PROT_READ | PROT_WRITE, fd = l->fd;
	int flags = l->kase == FS_PAGE_FAULT1 ? MAP_PRIVATE | MAP_ANONYMOUS :
		    l->kase == FS_PAGE_FAULT2 ? MAP_PRIVATE : MAP_SHARED;

	for (uint64_t p = 0; !passes || p < passes; p++) {
		char *c = mmap(NULL, len, prot, flags, fd, 0);

		if (c == MAP_FAILED)
			return errno;
		if (l->hugepage && madvise(c, len, MADV_HUGEPAGE)) {
			int e = errno;

			munmap(c, len);
			return e;
		}
		/* the loop is will-it-scale's: a store to each page, one count each */
		for (size_t i = 0; i < len; i += pg) {
			c[i] = 0;
			(*count)++;
		}
		munmap(c, len);
	}
	return 0;
}

void fs_loop_release(struct fs_loop *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

uint64_t fs_loop_footprint(enum fs_case kase, uint64_t len)
{
	return kase == FS_PAGE_FAULT2 ? 2 * len : len;
}
