/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cpio (newc) archive written with libarchive from a list of entries: the
 * VM's initramfs (vm/initramfs.c decides what goes in). Linked into the
 * helper program lrubench-net only; lrubench calls net_cpio_write().
 *
 * Entries are argv words, so a name or a source path may hold any byte:
 *   dir  NAME MODE
 *   chr  NAME MODE MAJOR MINOR      a character device node
 *   file NAME MODE SOURCE           SOURCE's content; a SOURCE ending in .xz,
 *                                   .zst or .gz is stored decompressed
 *                                   (busybox insmod may not read those)
 * NAME is relative (no leading '/'); MODE is octal permission bits.
 */
#ifndef LRUBENCH_NET_CPIO_H
#define LRUBENCH_NET_CPIO_H

#include <stddef.h>
#include "core/util.h"

/* 0, or -1 with the reason in err. */
int cpio_write(const char *path, char *const *words, size_t n, struct strbuf *err);

#endif
