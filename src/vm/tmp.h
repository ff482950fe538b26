/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Temporary folders of VM mode (the initramfs, console files, depmod's view,
 * a staging results folder for rounds after the first), registered for
 * cleanup. Their removal runs from the signal path too, so it uses only
 * system calls (open, getdents64, unlinkat) and static storage.
 */
#ifndef LRUBENCH_VM_TMP_H
#define LRUBENCH_VM_TMP_H

#include <limits.h>

struct vm_tmpdir {
	char path[PATH_MAX];
	int cleanup_id;
};

/* mkdtemp("<parent>/<prefix>XXXXXX") and register its removal. */
int vm_tmpdir_create(struct vm_tmpdir *t, const char *parent, const char *prefix);
/* Register removal of an existing folder. */
void vm_tmpdir_adopt(struct vm_tmpdir *t, const char *path);
/* Remove now and unregister. Idempotent. */
void vm_tmpdir_remove(struct vm_tmpdir *t);

#endif
