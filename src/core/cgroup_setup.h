/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory cgroups, written directly in cgroupfs (no libcgroup).
 *
 * Discovery finds the hierarchy that has the memory controller: cgroup v2
 * (unified, memory in cgroup.controllers), v1 (a "cgroup" mount with the
 * memory option) or a hybrid machine (v2 mounted but memory on v1, like the
 * CI machine). A run creates one parent, lrubench-<pid>, directly under the
 * hierarchy's root, and its children under it. Every created directory is
 * in the cleanup registry; removal kills member processes and retries rmdir
 * while the kernel still reports EBUSY (a dying memcg drains asynchronously).
 */
#ifndef LRUBENCH_CGROUP_SETUP_H
#define LRUBENCH_CGROUP_SETUP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/util.h"

enum cg_mode { CG_NONE = 0, CG_V1, CG_V2 };

struct cg_env {
	enum cg_mode mode;
	char *root;      /* mount point of the memory hierarchy, e.g. /sys/fs/cgroup/memory */
	char *v2_root;   /* a cgroup2 mount even when memory is on v1 (informational) */
	bool hybrid;     /* v1 memory with a v2 mount beside it */
	int subtree_id;  /* cleanup id when we enabled +memory in root's subtree_control (v2) */
	void *subtree_undo;  /* what that entry undoes; freed by cg_env_release */
};

struct cgroup {
	char *path;          /* absolute directory */
	enum cg_mode mode;
	int cleanup_id;      /* > 0 while registered */
	bool borrowed;       /* the hierarchy's root (cg_borrow_root): not ours, never
			      * limited, emptied or removed */
};

const char *cg_mode_name(enum cg_mode m);   /* "v1", "v2", "none" */

/* Parse a mounts file (normally /proc/mounts) and find the memory controller.
 * `prefix` is prepended to every path read from the tree (tests use a fake
 * tree; "" for the real one). Returns 0, or -1 with err saying what is
 * missing (the caller exits 3). */
int cg_discover(struct cg_env *env, const char *mounts_path, const char *prefix, struct strbuf *err);
void cg_env_release(struct cg_env *env);

/* Create `name` under parent (NULL: the hierarchy root), registered for
 * cleanup. On v2, enables +memory in the parent's cgroup.subtree_control
 * (recording the change so it is undone). Fails if it already exists. */
int cg_create(struct cg_env *env, const struct cgroup *parent, const char *name, struct cgroup *out);
/* The run-scoped parent "lrubench-<pid>"; also removes stale lrubench-<pid>
 * directories whose pid is no longer alive (left by a SIGKILLed run). */
int cg_create_run_parent(struct cg_env *env, struct cgroup *out);
/* Remove the lrubench-<pid> folders directly under root whose pid is gone
 * (a SIGKILLed run's), in any hierarchy; cg_create_run_parent calls it. */
void cg_remove_stale(const char *root);
/* The root of the memory hierarchy as a cgroup tasks can be placed in:
 * "memcgs = 0" (docs/ARCHITECTURE.md §5): the controller is enabled, the
 * tasks belong to no memcg of their own. out->borrowed is set: cg_destroy
 * only forgets it, cg_set_limit refuses it. -1 (message) with CG_NONE. */
int cg_borrow_root(const struct cg_env *env, struct cgroup *out);
/* memory.max (v2) / memory.limit_in_bytes (v1); 0 = no limit. */
int cg_set_limit(const struct cgroup *cg, uint64_t bytes);
/* The file a process writes its pid to: cgroup.procs. */
const char *cg_procs_file(const struct cgroup *cg, char *buf, size_t len);
/* Read one counter from memory.stat; v1 names are mapped to v2 names where
 * they exist (e.g. "workingset_refault" = workingset_refault_file on v1).
 * Returns 0, or -1 when the key is not present on this kernel/mode. */
int cg_stat(const struct cgroup *cg, const char *key, uint64_t *val);
/* cg_stat in two halves, for reading several keys from one read of the
 * file (memcg_stats_take): its memory.stat (NULL when unreadable; free
 * it), and one key looked up in that text as cg_stat does. */
char *cg_stat_text(const struct cgroup *cg);
int cg_stat_in(const struct cgroup *cg, const char *text, const char *key, uint64_t *val);
/* memory.current / memory.usage_in_bytes */
int cg_usage(const struct cgroup *cg, uint64_t *bytes);
/* Number of processes inside. */
int cg_nr_procs(const struct cgroup *cg);
/* SIGKILL every member, wait for it to empty, rmdir (retrying on EBUSY for
 * up to a few seconds). Unregisters. Idempotent. A borrowed root is only
 * forgotten (its path freed): nothing in it is touched. */
int cg_destroy(struct cgroup *cg);

/* Path helpers, pure, unit-tested on fake trees. */
int cg_path_join(char *buf, size_t len, const char *dir, const char *file);

#endif
