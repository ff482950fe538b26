/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernbench's pure parts, shared with its unit test. */
#ifndef LRUBENCH_KERNBENCH_H
#define LRUBENCH_KERNBENCH_H

#include <stddef.h>

/* The default jobs list: powers of two up to 2 x cpus, then 2 x cpus itself
 * (cpus 3 -> 1,2,4,6). cpus < 1 counts as 1. Returns the count (<= max). */
size_t kernbench_default_jobs(int cpus, unsigned long long *v, size_t max);

/* config_target: 0 for a make target (defconfig, tinyconfig, allnoconfig),
 * 1 for a path to a .config (anything with a '/'), -1 for anything else. */
int kernbench_config_kind(const char *target);


#endif
