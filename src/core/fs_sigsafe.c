// SPDX-License-Identifier: GPL-2.0-or-later
/* Async-signal-safe removal of a folder tree (see fs_sigsafe.h). */
#include "core/fs_sigsafe.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's record for getdents64; glibc's struct dirent is for readdir. */
struct lb_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int rm_at(int dirfd, const char *name, dev_t dev, int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	struct stat st;
	int fd;

	if (depth > 64) {
		errno = ELOOP;
		return -1;
	}
	if (!unlinkat(dirfd, name, 0))
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (dev && st.st_dev != dev)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	/* entries move while we delete: read again from the start until a pass
	 * removes nothing */
	for (;;) {
		int removed = 0;
		long n;

		lseek(fd, 0, SEEK_SET);
		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct lb_dirent64 *d = (struct lb_dirent64 *)(buf + off);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (!rm_at(fd, d->d_name, st.st_dev, depth + 1))
				removed++;
		}
		if (!removed)
			break;
	}
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

int remove_tree_sigsafe(const char *path)
{
	return rm_at(AT_FDCWD, path, 0, 0);
}
