/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readtwice.reader = dd: a reader that makes the system calls GNU dd makes
 * for `dd bs=4k if=FILE of=/dev/null`, the reader of every posted readtwice
 * number: per 4 KiB block one read() of the file into a page-aligned buffer
 * and one write() of what was read to /dev/null, and it stops at end of file
 * as dd does (no wrap), so its rate is dd's: its bytes over its own time.
 * The native reader (readers.c) makes one read() per block and wraps at EOF.
 * bench/readtwice-vs-dd compares both with dd itself (strace -c and MB/s).
 */
#ifndef LRUBENCH_READTWICE_DD_READER_H
#define LRUBENCH_READTWICE_DD_READER_H

#include "workloads/readtwice/readers.h"

/* In the reader, before it says ready: open the file and /dev/null, as dd's
 * if= and of=. 0 or an errno. */
int rt_dd_open(void *reader);
/* In the reader, after the release: read()+write() per block until `end`
 * or end of file. 0 or an errno. */
int rt_dd_read(void *reader, double end, struct round_slot *slot);

#endif
