/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building the checked-out commit of a kernel tree for `lrubench
 * bisect-step`: kbuild's out-of-tree build (make O=) into a folder kept
 * between steps, so each step recompiles only what the commit changed;
 * olddefconfig from a given .config, bzImage, and modules installed into
 * the step's folder when the config has any (=m). Or the user's own build
 * command, run in the tree.
 */
#ifndef LRUBENCH_VM_KBUILD_H
#define LRUBENCH_VM_KBUILD_H

#include <stdbool.h>
#include "core/strlist.h"
#include "core/util.h"

struct kbuild {
	const char *tree;          /* the kernel tree (absolute) */
	const char *build_dir;     /* O= folder (absolute), the cache between steps */
	const char *config;        /* .config copied into build_dir first, or NULL */
	unsigned jobs;
	const char *log;           /* every command's output is appended here */
	const char *modroot;       /* INSTALL_MOD_PATH for modules (absolute) */
	const struct strlist *cmd; /* the user's build command (argv), or NULL: make */
	const char *const *env;    /* extra "K=V" for the build command */
	/* filled in */
	bool modules;              /* modules were installed under modroot */
	double seconds;
};

enum kbuild_result { KBUILD_OK = 0, KBUILD_FAILED = -1, KBUILD_INTERRUPTED = -2 };

/* Build; err says which step failed (and where its log is). */
enum kbuild_result kbuild_run(struct kbuild *b, struct strbuf *err);
/* Does this .config text build modules? (CONFIG_MODULES=y and any =m) */
bool kbuild_config_has_modules(const char *config_text);

#endif
