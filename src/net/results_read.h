/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a results archive (core/results_archive.h) with every check made
 * before a byte reaches the disk. Linked into the helper program
 * lrubench-net only: lrubench unpacks with net_unpack() (core/net_client.h)
 * into a private temp folder, and `fetch --results` and `push` check a file
 * with it before it enters a folder or a store.
 *
 * The archive is untrusted (another machine made it, a store served it) and
 * is read as root. Refused, with an error naming the entry:
 *   - a file that is not a regular file, or not a tar (optionally zstd,
 *     gzip or xz compressed), or is damaged or truncated;
 *   - a first entry other than the manifest (an archive of something else,
 *     say a kernel tarball), a manifest above RA_MAX_MANIFEST;
 *   - names outside ra_check_entry_name(): absolute, '..', hidden, deeper
 *     than RA_MAX_DEPTH, a top folder that is not a label, odd characters;
 *   - anything but regular files and folders: symlinks, hard links,
 *     devices, FIFOs; a file beside the label folders; a duplicate entry;
 *   - more than RA_MAX_ENTRIES entries, a file above RA_MAX_FILE, more than
 *     RA_MAX_TOTAL bytes in all, or -- past EXTRACT_RATIO_FLOOR, as fetch's
 *     extraction -- more than EXTRACT_DEFAULT_MAX_RATIO times the archive's
 *     size (a compression bomb stops there); the labels' top-level files
 *     (the results JSON compare loads) more than RA_MAX_RESULTS_RATIO times
 *     it past RA_RESULTS_RATIO_FLOOR (results_archive.h).
 * What is written gets mode 0644 (folders 0755) whatever the archive says:
 * no setuid, no world-writable file. Files are created with O_EXCL and
 * O_NOFOLLOW below dest, which holds nothing but what this code made, so
 * no name can lead outside it.
 */
#ifndef LRUBENCH_NET_RESULTS_READ_H
#define LRUBENCH_NET_RESULTS_READ_H

#include <stdbool.h>
#include "core/net_client.h"

/* Check path; with dest (an existing empty folder) also write it there,
 * all of it, or with results_only just the manifest, each label's
 * top-level files and its series/ (run.json, the workload results and the
 * monitors' series: what compare and plot read; the logs are checked and
 * dropped, which halves the files to create and remove). NET_OK; NET_FAILED (printed; dest may hold part of it:
 * the caller owns dest and removes it); NET_INTERRUPTED. */
enum net_status results_read(const char *path, const char *dest, bool results_only);

/* Only the first entry: is path a results archive at all (its manifest
 * first)? The quick check of `push`, which sends archives on and leaves the
 * full checks to whoever reads them. NET_OK; NET_FAILED (printed);
 * NET_INTERRUPTED. */
enum net_status results_check_head(const char *path);

#endif
