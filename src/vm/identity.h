/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What VM mode knows about a kernel image that its guest cannot say: the
 * image's own config (config-<release> or .config beside it, found by
 * modules.c) with its sha256 and options, and, for a self-built kernel in a
 * git tree, `git describe --dirty` of that tree. The guest records its own
 * identity (build id, /proc/config.gz) in run.json like any run; these are
 * added to it (system.kernel.git_describe, and the image's config when the
 * guest could not read one).
 */
#ifndef LRUBENCH_VM_IDENTITY_H
#define LRUBENCH_VM_IDENTITY_H

#include <json-c/json.h>

struct vm_identity {
	json_object *config;      /* kconfig_read() of the image's config, or {"unknown": why} */
	char *git_tree;           /* the work tree holding the image, or NULL */
	char *git_describe;       /* its `git describe --always --dirty --tags`, or NULL */
	char *git_why;            /* why git_describe is NULL while git_tree is not */
};

/* The nearest folder at or above dir (at most 8 levels) that holds .git; NULL. */
char *vm_git_tree_of(const char *dir);
/* image: absolute path; config_path may be NULL; tmpdir receives git's output. */
void vm_identity_collect(const char *image, const char *config_path, const char *tmpdir,
			 struct vm_identity *id);
/* Into a guest's run.json (vm_update_run_json's callback does this). */
void vm_identity_annotate(const struct vm_identity *id, json_object *run);
void vm_identity_release(struct vm_identity *id);

#endif
