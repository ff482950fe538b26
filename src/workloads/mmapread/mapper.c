// SPDX-License-Identifier: GPL-2.0-or-later
/* The mmapread task: mapped read passes over a sparse file (mapper.h). */
#include "workloads/mmapread/mapper.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/util.h"

/* a clock read per 16 pages (64 KiB): the harness stays out of the numbers,
 * as readtwice's readers read the clock once per 64 KiB */
#define MR_CLOCK_EVERY 16

int mr_prepare(void *arg)
{
	struct mr_task *t = arg;
	struct stat st;
	long pg = sysconf(_SC_PAGESIZE);

	t->fd = open(t->file, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0)
		return errno;
	if (fstat(t->fd, &st))
		return errno;
	if (st.st_size < pg)
		return EINVAL;
	t->size = (size_t)st.st_size / (size_t)pg * (size_t)pg;
	return 0;
}

int mr_work(void *arg, double end, struct round_slot *slot)
{
	struct mr_task *t = arg;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long n = 0;
	uint64_t bytes = 0;
	bool done = false;

	while (!done) {
		const volatile unsigned char *p = mmap(NULL, t->size, PROT_READ, MAP_SHARED, t->fd, 0);

		if (p == MAP_FAILED)
			return errno;
		for (size_t off = 0; off < t->size; off += pg) {
			(void)p[off];   /* a volatile read: the fault, the page cache insertion */
			bytes += pg;
			if (++n % MR_CLOCK_EVERY == 0 && now_monotonic() >= end) {
				done = true;
				break;
			}
		}
		munmap((void *)p, t->size);
		/* unmapped pages are clean and unused: DONTNEED takes them out of
		 * the page cache, so the next pass faults every one in again */
		if (t->fadvise)
			posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
		if (!done && now_monotonic() >= end)
			done = true;
	}
	slot->bytes = bytes;
	return 0;
}
