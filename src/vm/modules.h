/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which kernel modules a guest needs before it can mount the host root over
 * 9p (and later loop + ext4 for the sparse root), where they are, and in
 * which order to load them: dependencies first, from modules.dep.
 */
#ifndef LRUBENCH_VM_MODULES_H
#define LRUBENCH_VM_MODULES_H

#include <stdbool.h>
#include "core/util.h"
#include "core/strlist.h"

struct moddep_entry {
	char *path;          /* as written in modules.dep: "kernel/fs/9p/9p.ko" */
	char *name;          /* "9p" (dashes folded to underscores) */
	struct strlist deps; /* paths */
};

struct moddep {
	struct moddep_entry *e;
	size_t n, cap;
};

/* Parse modules.dep text; -1 with err naming the line on a malformed one. */
int moddep_parse(const char *text, struct moddep *md, struct strbuf *err);
void moddep_release(struct moddep *md);
const struct moddep_entry *moddep_find(const struct moddep *md, const char *name);
/* Append the module `name` to order after its dependencies (recursively),
 * skipping what is already there. -1 with err when name or a dependency is
 * not in md. */
int moddep_order(const struct moddep *md, const char *name, struct strlist *order, struct strbuf *err);
/* "kernel/net/9p/9pnet_virtio.ko.xz" -> "9pnet_virtio" */
void module_name_of(const char *path, char *out, size_t len);

/* A config-<release> value: 'y', 'm', 'n' (unset) or 0 (not mentioned). */
char kconfig_state(const char *config, const char *key);

/*
 * The plan for one kernel, from what is known about it (each may be NULL):
 * its config file text, modules.builtin text and parsed modules.dep.
 * order gets modules.dep paths in load order; warnings gets one line per
 * optional feature (loop, ext4) that will be missing. -1 with err naming the
 * CONFIG_ options when the kernel cannot mount the host root.
 */
int vm_plan_modules(const char *config, const char *builtin, const struct moddep *md,
		    struct strlist *order, struct strlist *warnings, struct strbuf *err);

struct vm_modset {
	char *moddir;          /* lib/modules/<release> used, or NULL */
	char *config_path;     /* config-<release> consulted, or NULL */
	struct strlist ko;     /* absolute paths of the modules to load, in order */
	struct strlist warnings;
};

/*
 * Resolve everything for an image: modules_opt (--modules-a DIR: a
 * lib/modules/<release> folder or a root holding one), else
 * <root>/lib/modules/<release> beside <root>/boot/<image>, else
 * /lib/modules/<release>. When the folder has no modules.dep, depmod runs on
 * a symlinked copy under tmpdir. Returns 0, or -1 with err (bad input).
 */
int vm_modules_resolve(const char *image, const char *release, const char *modules_opt,
		       const char *tmpdir, struct vm_modset *out, struct strbuf *err);
void vm_modset_release(struct vm_modset *m);

#endif
