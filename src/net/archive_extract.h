/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * (Not archive.h: that name belongs to libarchive and -Isrc would shadow it.)
 * Linked into the helper program lrubench-net only; lrubench extracts with
 * net_extract_tree() (core/net_client.h).
 *
 * Safe extraction of source tarballs (libarchive): .tar, .tar.gz, .tar.xz,
 * .tar.zst (the compression is recognised from the content, not the name).
 *
 * An archive is untrusted input extracted as root, so beyond libarchive's
 * ARCHIVE_EXTRACT_SECURE_NODOTDOT | _SECURE_SYMLINKS | _SECURE_NOABSOLUTEPATHS
 * every entry is checked before it is written, and the first bad one stops
 * the extraction with an error naming it:
 *   - names: no absolute paths, no ".." components;
 *   - symbolic links: the target must be relative and, resolved lexically
 *     from the link's folder, stay inside the link's top-level folder (which
 *     may be stripped);
 *   - hard links: the target must be relative, without "..", and name a
 *     regular file already extracted, reached through real folders only
 *     (a hard link to /etc/passwd is refused);
 *   - device nodes, FIFOs and sockets are refused;
 *   - modes are masked (archive_safe_perm): no setuid, setgid, sticky or
 *     world-writable file or folder is ever created.
 * Extraction goes into "<dest>.extracting" (registered for cleanup, so SIGINT
 * or an error leaves nothing behind); at the end a single top-level folder is
 * renamed to dest (stripping it), otherwise the whole staging folder is.
 *
 * Compressed input is decompressed in a second thread feeding the tar reader
 * through a pipe, like `tar -xJf` runs xz beside tar.
 */
#ifndef LRUBENCH_ARCHIVE_EXTRACT_H
#define LRUBENCH_ARCHIVE_EXTRACT_H

#include <stdbool.h>
#include <sys/types.h>
#include "core/net_client.h"

/* NET_OK; NET_FAILED (printed); NET_INTERRUPTED (nothing left behind). dest must not exist. */
int archive_extract_tree(const char *path, const char *dest, const struct extract_limits *lim);

/* Pure checks, unit-tested. Each returns NULL when fine, else a static
 * reason ("absolute path", "'..' component", ...). */
const char *archive_check_name(const char *name);
const char *archive_check_symlink(const char *name, const char *target);
/* The permission bits an extracted entry gets from the archive's perm. */
mode_t archive_safe_perm(mode_t perm);

#endif
