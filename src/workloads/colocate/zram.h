/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Swap on a zram device that lrubench creates and removes (colocate's
 * swap = zram: the anonymous pressure needs swap, and a test machine often
 * has none). zram must be in the running kernel (built in, or its module
 * already loaded: lrubench loads no module). Steps, each registered for
 * cleanup the moment it is done and undone in reverse on every path:
 *   hot_add          /sys/class/zram-control/hot_add gives a new device N
 *                    undo: reset it, then hot_remove N
 *   disksize         /sys/block/zramN/disksize
 *   mkswap           a child (util-linux) on /dev/zramN
 *   swapon           swapon(2) at the highest priority
 *                    undo: swapoff(2)
 * Only device N, the one hot_add returned, is ever touched: a zram device
 * lrubench did not create (zram0 of the distribution, another tool's) is
 * never reset, swapped off or removed. The undo steps are async-signal-safe
 * (open/write/close, swapoff, unlink) and read only this struct, which lives
 * in the workload's private state until the registry has run.
 *
 * SIGKILL runs no undo. So that a killed run's device does not stay, a
 * marker file <workdir>/lrubench-zram-<pid>.<N> holding its size exists
 * while the device does; the next run with swap on zram removes the device
 * of a marker whose pid is dead (zram_reap_stale), when zramN still has
 * that size: it is the device that run made.
 */
#ifndef LRUBENCH_COLOCATE_ZRAM_H
#define LRUBENCH_COLOCATE_ZRAM_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"

#define ZRAM_CONTROL "/sys/class/zram-control"

struct zram_swap {
	int index;            /* N of zramN; -1 when none */
	char num[16];         /* "N", for hot_remove */
	char dev[64];         /* /dev/zramN */
	char sysdir[64];      /* /sys/block/zramN */
	char reset[80];       /* /sys/block/zramN/reset */
	char marker[4096];    /* <workdir>/lrubench-zram-<pid>.<N> */
	int device_cleanup;   /* registry ids, > 0 while registered */
	int swap_cleanup;
};

/* Can this machine do it? 0, or -1 with why naming what is missing. */
int zram_probe(struct strbuf *why);
/* Create, size, mkswap and swapon a device of `size` bytes, its marker in
 * workdir; mkswap's output goes to log. 0, or -1 (message) with whatever was
 * done already undone. */
int zram_swap_create(struct zram_swap *z, uint64_t size, const char *workdir, const char *log);
/* Remove the devices of dead runs' markers in workdir (swapoff, reset,
 * hot_remove), each named in a message. */
void zram_reap_stale(const char *workdir);
/* swapoff, reset, hot_remove: the registry's undo, run now. Idempotent. */
void zram_swap_destroy(struct zram_swap *z);

#endif
