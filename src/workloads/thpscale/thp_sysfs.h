/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transparent huge page settings in sysfs: /sys/kernel/mm/transparent_hugepage
 * {enabled,defrag}. Reading the selected mode, checking THP is there at all,
 * and changing a mode for the run with the old value restored from the
 * cleanup registry on every exit path (the undo is open/write/close on the
 * caller's struct thp_saved_knob, so it is async-signal-safe).
 *
 * Test hook: LRUBENCH_SYSFS_ROOT replaces "/sys" (a fake tree in unit tests,
 * e.g. LRUBENCH_SYSFS_ROOT=/tmp/x reads /tmp/x/kernel/mm/transparent_hugepage).
 */
#ifndef LRUBENCH_THP_SYSFS_H
#define LRUBENCH_THP_SYSFS_H

#include <limits.h>
#include <stddef.h>
#include "core/util.h"

enum thp_knob { THP_ENABLED = 0, THP_DEFRAG = 1 };

/* What putting one knob back needs. It must stay valid until the cleanup
 * registry has run (the workload's priv does): the undo may run from a
 * signal handler, so it only reads these buffers. Zeroed: nothing saved. */
struct thp_saved_knob {
	char path[PATH_MAX];
	char old[64];
	char what[96];
	int id;
};

/* The knob's path ("<root>/kernel/mm/transparent_hugepage/enabled"). */
void thp_knob_path(enum thp_knob k, char *buf, size_t len);
/* The selected ("[bracketed]") mode, or the whole value when the file has no
 * brackets; 0, or -1 with a message. */
int thp_knob_read(enum thp_knob k, char *mode, size_t len);
/* Is `mode` one of the words the knob offers? 1 yes, 0 no, -1 unreadable. */
int thp_knob_offers(enum thp_knob k, const char *mode);
/* 0 when THP is present; 1 with why filled when it is not. */
int thp_probe(struct strbuf *why);
/* Select `mode`, remembering the old one in *saved; restored by
 * thp_knob_restore(saved), or by the cleanup registry on any exit. No
 * change (and nothing registered) when the mode is already selected. 0 or
 * -1 with a message. */
int thp_knob_set(struct thp_saved_knob *saved, enum thp_knob k, const char *mode);
/* Put the old mode back now (idempotent; nothing when nothing was saved). */
void thp_knob_restore(struct thp_saved_knob *saved);

#endif
