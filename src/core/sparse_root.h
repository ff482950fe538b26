/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sparse root (docs/ARCHITECTURE.md §5): a real filesystem for workload files. */
#ifndef LRUBENCH_SPARSE_ROOT_H
#define LRUBENCH_SPARSE_ROOT_H

#include <stdint.h>
#include "core/status.h"
#include "core/util.h"

struct sparse_root;   /* opaque */

/*
 * spec: "loop-ext4" | "loop-xfs" | "dir:/path". For loop-*: a private tmpfs
 * at <workdir>/tmpfs holds a sparse image of `size` bytes on a loop device
 * (autoclear), formatted and mounted at <workdir>/mnt. For dir:/path the
 * folder must exist and must not be tmpfs. Every step is in the cleanup
 * registry. Returns WL_OK with *dir the usable folder; WL_FAILED with a
 * message; WL_BAD_CONFIG for a malformed spec; WL_UNSUPPORTED when a tool
 * or loop devices are missing (the caller exits 3).
 */
enum wl_status sparse_root_setup(const char *spec, const char *workdir, uint64_t size,
				 struct sparse_root **out, const char **dir);
/* Idempotent; also pops the cleanup entries. */
void sparse_root_teardown(struct sparse_root *sr);
/* Validate a spec without doing anything: 0 ok, -1 malformed (err says why). */
int sparse_root_check_spec(const char *spec, struct strbuf *err);

#endif
