/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private temporary folders, the one implementation (docs/ARCHITECTURE.md
 * §7): mkdtemp (mode 0700, so nobody else can plant a name in it), named
 * <parent>/<prefix><pid>-XXXXXX, registered in the cleanup registry the
 * moment it exists, so it goes on every path: tmpdir_remove, the registry's
 * atexit pass, and a second signal, whose removal is remove_tree_sigsafe
 * (core/fs_sigsafe.h: system calls only, reading the path from the struct,
 * never crossing a mount point).
 *
 * SIGKILL runs no registry: the pid in the name is what lets the next
 * tmpdir_create of the same prefix in the same folder remove what a killed
 * lrubench (or lrubench-net) left there, a folder of a dead pid owned by us.
 *
 * Users: results archives read by compare (core/results_unpack.c), the
 * staging folder of plot and trend (compare/plot_stage.c, which publishes
 * by rename on top of it), partial downloads of `fetch --results`
 * (net/store_fetch.c), VM mode's files and round staging (vm/vm.c) and
 * report's figures (commands/report.c).
 */
#ifndef LRUBENCH_TMPDIR_H
#define LRUBENCH_TMPDIR_H

#include <limits.h>
#include "core/util.h"

/* Kept alive until removed or until exit: the registry's entry points into
 * it (the signal path reads path, no malloc). */
struct tmpdir {
	char path[PATH_MAX];   /* "" when there is none */
	int cleanup_id;
};

/* Where temp folders go: $TMPDIR when it is an absolute path, else /tmp. */
const char *tmpdir_root(void);

/*
 * Create <parent>/<prefix><pid>-XXXXXX (parent NULL: tmpdir_root()) and
 * register its removal. First the stale folders of that prefix in parent
 * are removed: <prefix><pid>-* of a pid that no longer exists, real folders
 * (not links) owned by our user; a live pid, or one we may not signal
 * (someone else's), is left alone. 0, or -1 with the reason appended to err (printed
 * with error() when err is NULL).
 */
int tmpdir_create(struct tmpdir *t, const char *parent, const char *prefix, struct strbuf *err);
/* Remove the folder and all in it now, and unregister. Idempotent; a zeroed
 * struct is a no-op. */
void tmpdir_remove(struct tmpdir *t);

#endif
