/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Transparent huge page settings in sysfs: /sys/kernel/mm/transparent_hugepage
 * {enabled,defrag}. Reading the selected mode, checking THP is there at all,
 * and changing a mode for the run through the knob service (core/knobs.h):
 * the old value restored from the cleanup registry on every exit path, and
 * after a SIGKILL by the next run, from the marker written before the change.
 *
 * Test hook: LRUBENCH_SYSFS_ROOT replaces "/sys" (a fake tree in unit tests,
 * e.g. LRUBENCH_SYSFS_ROOT=/tmp/x reads /tmp/x/kernel/mm/transparent_hugepage).
 */
#ifndef LRUBENCH_THP_SYSFS_H
#define LRUBENCH_THP_SYSFS_H

#include <limits.h>
#include <stddef.h>
#include "core/knobs.h"
#include "core/util.h"

enum thp_knob { THP_ENABLED = 0, THP_DEFRAG = 1 };

/* The knob's path ("<root>/kernel/mm/transparent_hugepage/enabled"). */
void thp_knob_path(enum thp_knob k, char *buf, size_t len);
/* The knob's path as the knob service names it, "/sys/kernel/mm/..." (the
 * test root is its business: core/knobs.h). */
const char *thp_knob_logical(enum thp_knob k);
/* The selected ("[bracketed]") mode, or the whole value when the file has no
 * brackets; 0, or -1 with a message. */
int thp_knob_read(enum thp_knob k, char *mode, size_t len);
/* Is `mode` one of the words the knob offers? 1 yes, 0 no, -1 unreadable. */
int thp_knob_offers(enum thp_knob k, const char *mode);
/* 0 when THP is present; 1 with why filled when it is not. */
int thp_probe(struct strbuf *why);
/* Select `mode` through the knob service: *saved (which must stay valid
 * until the cleanup registry has run: the workload's priv) remembers the
 * old one, its marker lives in workdir; restored by thp_knob_restore(saved),
 * or by the cleanup registry on any exit, or by the next run after a
 * SIGKILL. No change (and nothing registered) when the mode is already
 * selected. `origin` names the config key. 0 or -1 with a message. */
int thp_knob_set(struct knob *saved, enum thp_knob k, const char *mode, const char *workdir,
		 const char *origin);
/* Put the old mode back now (idempotent; nothing when nothing was saved). */
void thp_knob_restore(struct knob *saved);

#endif
