/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a file that may be compressed (gzip, xz, zstd, bzip2... whatever
 * libarchive's filters recognise from the content), such as a kernel's
 * /proc/config.gz: the bytes, up to a limit. Linked into the helper program
 * lrubench-net only; lrubench asks for it with net_kconfig_read().
 */
#ifndef LRUBENCH_DECOMPRESS_H
#define LRUBENCH_DECOMPRESS_H

#include <stddef.h>
#include "core/util.h"

/* The uncompressed content of path (a plain file is returned as it is) into
 * out. 0, or -1 with err naming the file (unreadable, not a regular file,
 * more than max bytes once uncompressed, corrupt). */
int decompress_file(const char *path, size_t max, struct strbuf *out, struct strbuf *err);

#endif
