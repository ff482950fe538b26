/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bringing a guest's results home (issue 30 point 9; lrubench-vm(7)
 * SECURITY). Each boot writes into an empty folder of its own, exported
 * with security_model=mapped-xattr: what the guest calls a device node, a
 * symlink, a FIFO or a setuid file is a plain file on the host with the
 * guest's idea of it in user.virtfs.* attributes. The host then copies the
 * one label folder the guest was asked to write into the label's real
 * place, by descriptor (openat with O_NOFOLLOW, fdopendir), never by path
 * again:
 *
 *   - folders and regular files only; a file the guest made as anything
 *     else (its user.virtfs.mode says so) is left behind, as is anything
 *     the host sees as not regular (a link, a device, a FIFO, a socket);
 *   - files are written anew, 0644, folders 0755, owned by us: no set-id
 *     bits, no guest owner;
 *   - limits: VM_IMPORT_FILE_MAX a file (larger ones are left behind),
 *     VM_IMPORT_TOTAL_MAX and VM_IMPORT_ENTRIES_MAX in all, VM_IMPORT_DEPTH
 *     levels (beyond them the import fails);
 *   - an existing destination is replaced only when it is a regular file
 *     (temp file, then renameat), a folder is entered only when it is one.
 *
 * The same walk fills a boot's folder from the host (--resume: the label as
 * it stands), so both directions keep these rules.
 */
#ifndef LRUBENCH_VM_IMPORT_H
#define LRUBENCH_VM_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "core/strlist.h"
#include "core/util.h"

#define VM_IMPORT_FILE_MAX ((uint64_t)1 << 30)
#define VM_IMPORT_TOTAL_MAX ((uint64_t)4 << 30)
#define VM_IMPORT_ENTRIES_MAX 20000
#define VM_IMPORT_DEPTH 8

struct vm_import {
	size_t files, dirs;        /* copied */
	uint64_t bytes;
	size_t entries;            /* seen, for the limit */
	struct strlist left;       /* "NAME (why)" of what was left behind, printed inert; first 10 */
	size_t nleft;
};

/*
 * Copy the folder `label` of from_root (a boot's results folder) into
 * to_root/label (created when missing). Anything at the top of from_root
 * but `label` is left behind (the guest may write only its own label).
 * A missing from_root/label copies nothing. 0, or -1 with err (a limit, an
 * I/O error, a destination that is not a folder); im says what was copied
 * and what was left behind either way.
 */
int vm_import_label(const char *from_root, const char *label, const char *to_root,
		    struct vm_import *im, struct strbuf *err);
/* One line for a warning: "3 entries left behind: a (a symbolic link), ..." */
void vm_import_describe_left(const struct vm_import *im, struct strbuf *out);
void vm_import_release(struct vm_import *im);

/*
 * Copy the open regular file sfd (at most max bytes, else -1) to a new
 * file of mode `mode` in dstfd, renamed to name when name is absent or a
 * regular file (1 when it is anything else: nothing written). *done: the
 * bytes copied. -1 with err (naming `name`) on an I/O error.
 */
int vm_copy_fd_at(int sfd, uint64_t max, int dstfd, const char *name, mode_t mode, uint64_t *done,
		  struct strbuf *err);

#endif
