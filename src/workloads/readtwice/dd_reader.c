// SPDX-License-Identifier: GPL-2.0-or-later
/* The dd-faithful readtwice reader (dd_reader.h). */
#include "workloads/readtwice/dd_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int rt_dd_open(void *p)
{
	struct rt_reader *rd = p;

	rd->fd = open(rd->file, O_RDONLY | O_CLOEXEC);
	if (rd->fd < 0)
		return errno;
	rd->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return rd->null_fd < 0 ? errno : 0;
}

int rt_dd_read(void *p, double end, struct round_slot *slot)
{
	struct rt_reader *rd = p;
	/* dd aligns its buffer to the page size */
	static char buf[READTWICE_BLOCK] __attribute__((aligned(4096)));
	uint64_t bytes = 0;
	unsigned n = 0;

	for (;;) {
		ssize_t r = read(rd->fd, buf, sizeof(buf));

		if (r == 0)
			break;   /* dd stops at end of file */
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		/* of=/dev/null: dd writes every block it read */
		for (ssize_t off = 0; off < r; ) {
			ssize_t w = write(rd->null_fd, buf + off, (size_t)(r - off));

			if (w < 0) {
				if (errno == EINTR)
					continue;
				return errno;
			}
			off += w;
		}
		bytes += (uint64_t)r;
		/* dd ends by timeout's SIGINT; a vDSO clock read per 64 KiB is no system call */
		if (++n % 16 == 0 && now_monotonic() >= end)
			break;
	}
	slot->bytes = bytes;
	return 0;
}
