/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Removing a folder tree from the cleanup registry's second-signal path,
 * where malloc and stdio are off limits: only system calls and stack
 * buffers (getdents64, unlinkat, openat).
 */
#ifndef LRUBENCH_FS_SIGSAFE_H
#define LRUBENCH_FS_SIGSAFE_H

/* Remove path and everything below it. Never follows a symlink and never
 * descends into another filesystem (a mount point inside is left alone, so
 * a failed unmount cannot turn into deleting someone's files). Returns 0,
 * or -1 with errno set (ENOENT when there was nothing to remove). */
int remove_tree_sigsafe(const char *path);

#endif
