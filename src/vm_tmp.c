// SPDX-License-Identifier: GPL-2.0-or-later
/* Temporary folders removable from a signal handler (see vm_tmp.h). */
#include "vm_tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cleanup.h"
#include "util.h"

struct lx_dirent {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int rm_at(int dirfd, const char *name, int depth)
{
	char buf[4096];
	int fd;
	long n;

	if (depth > 32)
		return -1;
	if (!unlinkat(dirfd, name, 0))
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return errno == ENOENT ? 0 : -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* deleting while reading: read again from the start until the folder is empty */
	for (;;) {
		int removed = 0;
		lseek(fd, 0, SEEK_SET);
		n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct lx_dirent *d = (struct lx_dirent *)(buf + off);
			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (!rm_at(fd, d->d_name, depth + 1))
				removed++;
		}
		if (!removed)
			break;
	}
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

int rmtree_async_safe(const char *path)
{
	return rm_at(AT_FDCWD, path, 0);
}

static void undo_tmpdir(void *arg)
{
	struct vm_tmpdir *t = arg;

	if (t->path[0] && rmtree_async_safe(t->path) && errno != ENOENT)
		cleanup_msg("cannot remove ", t->path);
	t->path[0] = '\0';
}

int vm_tmpdir_create(struct vm_tmpdir *t, const char *parent, const char *prefix)
{
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/%sXXXXXX", parent, prefix) >= sizeof(t->path))
		return error("temporary folder name under %s is too long", parent);
	if (!mkdtemp(t->path)) {
		int e = errno;
		t->path[0] = '\0';
		return error("cannot create a temporary folder in %s: %s", parent, strerror(e));
	}
	t->cleanup_id = cleanup_push(t->path, undo_tmpdir, t);
	return 0;
}

void vm_tmpdir_adopt(struct vm_tmpdir *t, const char *path)
{
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->cleanup_id = cleanup_push(t->path, undo_tmpdir, t);
}

void vm_tmpdir_remove(struct vm_tmpdir *t)
{
	if (!t->cleanup_id)
		return;
	cleanup_pop(t->cleanup_id, true);
	t->cleanup_id = 0;
}
