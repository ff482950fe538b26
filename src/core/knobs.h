/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The knob service: the one way lrubench changes a sysctl or sysfs value
 * (docs/ARCHITECTURE.md §7, "Knobs"). [settings] entries of a run and the
 * workloads' own knobs (thpscale's THP modes) go through it:
 *
 *   knob_resolve   a name ("vm.swappiness", or an absolute path) to its
 *                  path, refused unless it lies in the allowed trees below
 *   knob_check     the file exists on this kernel (else exit 3) and is a
 *                  setting: readable and writable by root (else exit 2)
 *   knob_apply     the old value read, a marker file holding it written in
 *                  the work folder, the undo pushed on the cleanup registry,
 *                  then the new value written and read back (a refusal:
 *                  EINVAL, or a read back that differs, is exit 2)
 *   knob_restore   the old value back now, the marker removed (also the
 *                  registry's undo: open/write/close/unlink, async-signal-
 *                  safe, reading only the struct knob)
 *   knobs_recover  SIGKILL runs no undo: the next run puts back, before
 *                  anything else, the old value of every marker whose run is
 *                  dead, when the knob still holds what that run wrote
 *
 * The allowed trees, and why no others: /proc/sys/vm/ (the memory-management
 * sysctls), /proc/sys/kernel/numa_balancing* (NUMA balancing is memory
 * placement; the rest of kernel.* decides how the machine panics, which
 * program the kernel runs as root -- core_pattern, modprobe -- or who may
 * trace: nothing a benchmark's config should change), /sys/kernel/mm/ (THP,
 * KSM, lru_gen, hugepages, NUMA demotion, DAMON) and
 * /sys/module/zswap/parameters/ (zswap has no /sys/kernel/mm folder).
 * A path with "..", "//" or a link leading elsewhere is refused.
 *
 * Test hook: LRUBENCH_SYSFS_ROOT replaces "/sys" and LRUBENCH_PROCSYS_ROOT
 * "/proc/sys" in the files opened (fake trees in unit tests); paths,
 * messages and markers keep the real names.
 */
#ifndef LRUBENCH_KNOBS_H
#define LRUBENCH_KNOBS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/util.h"

#define KNOB_NAME_MAX 200
#define KNOB_VALUE_MAX 200

/* One knob changed for the run. It must stay valid until the cleanup
 * registry has run (the undo reads it, maybe in a signal handler). */
struct knob {
	char name[KNOB_NAME_MAX];     /* as written: "vm.swappiness" or the path */
	char path[KNOB_NAME_MAX];     /* /proc/sys/vm/swappiness */
	char file[PATH_MAX];          /* the file opened: path, or under a test root */
	char origin[160];             /* "suite.conf:12", "--set ...", "thpscale.thp_enabled" */
	char value[KNOB_VALUE_MAX];   /* what the run writes */
	char old[KNOB_VALUE_MAX];     /* what was there before (knob_read's form) */
	char now[KNOB_VALUE_MAX];     /* read back after the write */
	char marker[PATH_MAX];        /* <workdir>/lrubench-knob-<pid>.<n>; "" when none */
	char what[KNOB_NAME_MAX + KNOB_VALUE_MAX + 16]; /* the undo's name */
	int id;                       /* cleanup registry id, > 0 while changed */
	bool applied;                 /* the value was written (or already held) */
};

/* The knobs of one run, in the order given. */
struct knob_set {
	struct knob *v;
	size_t n;
};

/* Is this the text of a sysctl name (a.b.c) or an absolute path? Either way
 * the path; 0, or -1 with err (exit 2: outside the allowed trees, malformed). */
int knob_resolve(const char *name, char *path, size_t len, struct strbuf *err);
/* The file of path (with the test roots). */
void knob_file(const char *path, char *file, size_t len);
/* Does the knob exist here and is it a setting? LB_EXIT_OK, or with err:
 * LB_EXIT_UNSUPPORTED (this kernel has no such file), LB_EXIT_USAGE (not a
 * regular file, read-only, write-only). */
int knob_check(const char *path, struct strbuf *err);
/* The current value: the [selected] word of a choice file ("always [madvise]
 * never" -> "madvise"), else the text with runs of white space made one
 * space and trimmed. 0, or -1 with err. */
int knob_read(const char *path, char *out, size_t len, struct strbuf *err);
/* Does the value read back say what was written? Equal text, the same
 * number ("7" and "0x0007"), or the same truth for a y/n word ("y" and
 * "0x0007", "1" and "Y"). */
bool knob_value_matches(const char *want, const char *got);
/* Is the value one a knob can take (non-empty, printable, no newline, at
 * most KNOB_VALUE_MAX - 1 bytes)? 0, or -1 with err. */
int knob_value_check(const char *value, struct strbuf *err);

/* Fill k for name = value (resolved; origin for messages). 0 or -1 (err, exit 2). */
int knob_init(struct knob *k, const char *name, const char *value, const char *origin,
	      struct strbuf *err);
/* Change the knob for the run (k filled by knob_init, markers in workdir):
 * LB_EXIT_OK; LB_EXIT_USAGE when the kernel refuses the value (nothing left
 * changed); LB_EXIT_FAIL for an I/O error; always with err. A knob already
 * at the value is not written and not registered (k->applied all the same). */
int knob_apply(struct knob *k, const char *workdir, struct strbuf *err);
/* Put the old value back now (idempotent; nothing when nothing changed). */
void knob_restore(struct knob *k);
/* Would the kernel take the value? Applied and restored at once (the
 * marker covers the moment between). LB_EXIT_* as knob_apply. */
int knob_try(struct knob *k, const char *workdir, struct strbuf *err);

/* The markers of dead runs in workdir: each knob put back to its old value
 * when it still holds what that run wrote (named in a warning), the marker
 * removed either way. Returns how many knobs were put back. */
int knobs_recover(const char *workdir);

/* The knob of set s (may be NULL) with that path, or NULL. */
const struct knob *knob_set_find(const struct knob_set *s, const char *path);
/* run.json "settings": {name: {path, value, before, during, origin}} */
json_object *knob_set_json(const struct knob_set *s);
void knob_set_release(struct knob_set *s);

#endif
