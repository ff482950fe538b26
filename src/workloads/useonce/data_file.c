// SPDX-License-Identifier: GPL-2.0-or-later
/* useonce's files of real data (data_file.h). */
#include "workloads/useonce/data_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "core/cleanup.h"

#define UO_WRITE_BLOCK (1u << 20)
#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef RAMFS_MAGIC
#define RAMFS_MAGIC 0x858458f6
#endif

uint64_t uo_disk_need(uint64_t data_bytes)
{
	uint64_t mib = 1ULL << 20, need = data_bytes + data_bytes / 100 + 16 * mib;

	return (need + mib - 1) / mib * mib;   /* whole MiB: it reads as one */
}

enum wl_status uo_disk_check(const char *folder, uint64_t need, struct strbuf *err)
{
	char *at = xstrdup(folder);
	struct statvfs sv;
	struct statfs sf;
	uint64_t avail;
	char a[32], b[32];

	/* the work folder is made by the run; before that its parent answers */
	while (!path_exists(at) && strcmp(at, "/")) {
		char *slash = strrchr(at, '/');

		if (!slash)
			break;
		if (slash == at)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (statvfs(at, &sv) || statfs(at, &sf)) {
		strbuf_addf(err, "useonce: cannot see the free space of %s (work folder %s): %s", at, folder,
			    strerror(errno));
		free(at);
		return WL_UNSUPPORTED;
	}
	if ((unsigned long)sf.f_type == (unsigned long)TMPFS_MAGIC ||
	    (unsigned long)sf.f_type == (unsigned long)RAMFS_MAGIC) {
		strbuf_addf(err, "useonce: the work folder %s is on tmpfs (%s): its data file would be shared "
			    "memory, read with no I/O; set global.workdir to a folder on a disk", folder, at);
		free(at);
		return WL_UNSUPPORTED;
	}
	avail = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
	if (avail < need) {
		format_size(need, a, sizeof(a));
		snprintf(b, sizeof(b), "%.1fM", (double)avail / (1 << 20));
		strbuf_addf(err, "useonce: the work folder %s needs %s (%llu bytes) for its data files, and "
			    "its filesystem (at %s) has %s (%llu bytes) free: lower useonce.file_size or set "
			    "global.workdir elsewhere", folder, a, (unsigned long long)need, at, b,
			    (unsigned long long)avail);
		free(at);
		return WL_UNSUPPORTED;
	}
	free(at);
	return WL_OK;
}

/* xorshift64*: bytes no filesystem compresses */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

enum wl_status uo_file_write(const char *path, uint64_t size, uint64_t seed, double *seconds)
{
	uint64_t *buf = xmalloc(UO_WRITE_BLOCK), done = 0;
	double t0 = now_monotonic();
	enum wl_status ret = WL_FAILED;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600), e;

	if (fd < 0) {
		error_errno("useonce: cannot create %s", path);
		free(buf);
		return WL_FAILED;
	}
	if ((e = posix_fallocate(fd, 0, (off_t)size))) {
		errno = e;
		error_errno("useonce: cannot reserve %llu bytes for %s", (unsigned long long)size, path);
		goto out;
	}
	while (done < size) {
		size_t len = size - done < UO_WRITE_BLOCK ? (size_t)(size - done) : UO_WRITE_BLOCK;

		if (lb_stop_requested()) {
			ret = WL_INTERRUPTED;
			goto out;
		}
		for (size_t i = 0; i < UO_WRITE_BLOCK / sizeof(uint64_t); i++)
			buf[i] = next_rand(&seed);
		for (size_t off = 0; off < len; ) {
			ssize_t w = write(fd, (char *)buf + off, len - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				error_errno("useonce: cannot write %s at %llu", path,
					    (unsigned long long)(done + off));
				goto out;
			}
			off += (size_t)w;
		}
		done += len;
	}
	if (fsync(fd)) {
		error_errno("useonce: cannot fsync %s", path);
		goto out;
	}
	/* written and clean: out of the page cache, so no pass starts warm */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	ret = WL_OK;
out:
	close(fd);
	if (ret != WL_OK)
		unlink(path);
	*seconds = now_monotonic() - t0;
	free(buf);
	return ret;
}
