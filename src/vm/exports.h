/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a guest sees of the host (issue 30 point 9; lrubench-vm(7)
 * SECURITY). Not the host's root: the guest's / is a tmpfs of its own,
 * and into it go, read-only,
 *
 *   - the host's system programs and libraries: /usr (and /bin, /sbin,
 *     /lib, /lib64 ... where they are folders and not links into /usr,
 *     which the guest makes the same links for), because the suite runs
 *     the host's programs (dd, perf, make, mkfs.ext4, sysbench, postgres);
 *   - a staging folder made for the run: etc/, a copy of the few /etc
 *     files programs need (passwd and group, never shadow; the dynamic
 *     loader's cache, alternatives, mke2fs.conf ...), and in/N, copies of
 *     the files the suite names -- this lrubench and its helper when they
 *     are not under /usr, the -c files, a --set value that is a file --
 *     shown in the guest at the path they have on the host.
 *
 * And one folder writable: each boot's empty results folder (import.h).
 * Nothing else of the host -- /etc, /root, /home, /var, /srv, /opt, the
 * current folder, other labels -- is exported.
 */
#ifndef LRUBENCH_VM_EXPORTS_H
#define LRUBENCH_VM_EXPORTS_H

#include "core/strlist.h"
#include "core/util.h"

struct vm_exports {
	struct strlist sys;     /* host folders exported read-only, at the same path */
	struct strlist links;   /* pairs: "/bin", "usr/bin": top-level links the guest makes */
	struct strlist inputs;  /* the guest path of staged file in/N, N its index */
	char *stage;            /* the staging folder (NULL until vm_exports_stage) */
};

/* The system folders and links of this host (no writes): enough for a
 * --dry-run's qemu command line. */
void vm_exports_plan(struct vm_exports *x);
/* Does the guest see host path p through the system folders? */
bool vm_exports_visible(const struct vm_exports *x, const char *p);
/* Add a host file the guest must see at guest_path (absolute): staged
 * unless a system folder shows it already; a path added twice once. */
void vm_exports_add_input(struct vm_exports *x, const char *guest_path);
/*
 * Make the staging folder dir (a folder that does not exist yet, inside a
 * private temp folder): etc/ and the inputs (regular files only, read
 * through links as the user named them, copied 0644, 0755 when
 * executable). 0, or -1 with err naming the file.
 */
int vm_exports_stage(struct vm_exports *x, const char *dir, struct strbuf *err);
void vm_exports_release(struct vm_exports *x);

#endif
