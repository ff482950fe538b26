/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * useonce's files of real data (lrubench-useonce(7)): every other lrubench
 * file workload reads the holes of sparse files, so a refault costs no I/O
 * and "larger than memory" is cheap; these files hold written blocks on the
 * run's own filesystem (the work folder), so every pass past the memcg limit
 * reads the disk again, as the thread's iozone did.
 *
 * How a file is made (once per run, in setup): posix_fallocate reserves all
 * of it first (a full disk fails at once, not half-way), then 1 MiB write()s
 * of pseudo-random bytes (no filesystem can compress or share them), fsync,
 * and POSIX_FADV_DONTNEED so the first pass starts with nothing cached.
 * lrubench writes it from its own cgroup: none of it is charged to the memcg
 * the passes run in.
 */
#ifndef LRUBENCH_USEONCE_DATA_FILE_H
#define LRUBENCH_USEONCE_DATA_FILE_H

#include <stdint.h>
#include "core/status.h"
#include "core/util.h"

/* bytes a filesystem needs beside the data (extent blocks, journal growth):
 * 1% of it and 16 MiB, rounded up to a MiB */
uint64_t uo_disk_need(uint64_t data_bytes);

/*
 * Can `folder` (or, when it does not exist yet, its nearest existing parent)
 * hold `need` bytes? WL_OK; WL_UNSUPPORTED with a message in err naming the
 * folder, the need and what is free, or the tmpfs it lies on (a file in
 * tmpfs is shared memory: no I/O, no use-once page cache).
 */
enum wl_status uo_disk_check(const char *folder, uint64_t need, struct strbuf *err);

/* Write `path` (O_EXCL: never a file of someone else's) of `size` bytes as
 * above; *seconds is the time it took. WL_OK, WL_FAILED (printed, the file
 * removed), WL_INTERRUPTED (a stop was requested; the file removed). */
enum wl_status uo_file_write(const char *path, uint64_t size, uint64_t seed, double *seconds);

#endif
