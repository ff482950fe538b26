/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a program is found: the one PATH search of the code base, so that
 * `lrubench check` and the command that later runs the program (run, plot,
 * the VM mode, child_start) always agree on whether it exists.
 */
#ifndef LRUBENCH_PATH_H
#define LRUBENCH_PATH_H

#include <stdbool.h>

/* Searched when PATH is unset or empty: root's usual PATH (and sudo's
 * secure_path), sbin folders included, since mkfs.* live there. */
#define FALLBACK_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/*
 * The first executable regular file called `name` in the folders of $PATH
 * (FALLBACK_PATH when PATH is unset or empty), as a malloc'ed path; NULL
 * when there is none. A name holding a '/' is not searched: it is returned
 * when it is itself an executable regular file. Empty PATH entries, which
 * execvp reads as the current folder, are skipped: lrubench runs as root
 * and must not run whatever the current folder holds.
 */
char *find_in_path(const char *name);
/* find_in_path(name) found something: for checks that only ask. */
bool program_in_path(const char *name);

/* The folder of the running binary (/proc/self/exe), malloc'ed; NULL when
 * it cannot be read. The build tree keeps what lrubench ships beside it. */
char *self_dir(void);
/* What lrubench ships (e.g. "configs/suites"): beside the binary when it
 * runs from a build tree, else under the installed data folder
 * ($(DATADIR), make install); malloc'ed, NULL when neither exists. */
char *shipped_path(const char *rel);

#endif
