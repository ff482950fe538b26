// SPDX-License-Identifier: GPL-2.0-or-later
/* Temporary folders removable from a signal handler (see vm_tmp.h). */
#include "vm/tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"
#include "core/util.h"

static void undo_tmpdir(void *arg)
{
	struct vm_tmpdir *t = arg;

	if (t->path[0] && remove_tree_sigsafe(t->path) && errno != ENOENT)
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
