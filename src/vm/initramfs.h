/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest's initramfs: static busybox, the kernel's modules in load order
 * and an /init script that builds the guest's root on a tmpfs of its own
 * from what the host exports (vm/exports.h: its system folders and the
 * staging folder, read-only), mounts cgroup v2 and the boot's results
 * folder (vm/import.h), chroots there and runs `lrubench run`.
 */
#ifndef LRUBENCH_VM_INITRAMFS_H
#define LRUBENCH_VM_INITRAMFS_H

#include "core/util.h"
#include "core/strlist.h"

/* Console lines the host watches for. */
#define VM_MARK_BEGIN "LRUBENCH-BEGIN"
#define VM_MARK_EXIT "LRUBENCH-EXIT "
#define VM_MARK_FAIL "LRUBENCH-INIT-FAILED: "
#define VM_TAG_SYS "sys"        /* sys0, sys1 ...: the host's system folders */
#define VM_TAG_STAGE "stage"    /* the staging folder */
#define VM_TAG_RESULTS "results"

struct vm_exports;

struct vm_guest {
	const struct strlist *ko;   /* host paths of the modules, in load order */
	const struct vm_exports *x; /* what the host exports (vm/exports.h) */
	const char *results_dir;    /* absolute: the boot's results share is mounted there
				     * (the -o of the guest's run) */
	const char *cwd;            /* the host's cwd (made, empty), so relative -c paths work */
	const struct strlist *tmpfs;/* extra folders to give a tmpfs (e.g. the workdir) */
	const struct strlist *cmd;  /* what to run inside the chroot (absolute argv[0]) */
	unsigned round;             /* LRUBENCH_VM_ROUND in the guest's environment */
};

/* The /init text (pure: no I/O), malloc'ed. Modules are /modules/NN-name.ko. */
char *vm_init_script(const struct vm_guest *g);
/* "a'b" -> 'a'\''b' appended to sb. */
void sh_quote(struct strbuf *sb, const char *s);
/* Write the cpio (newc) archive to path (through the helper lrubench-net,
 * which prints its own errors; err then says which archive failed). */
int vm_initramfs_write(const char *path, const char *busybox, const char *init,
		       const struct strlist *ko, struct strbuf *err);
/* Is path an ELF executable without a program interpreter (static)? */
int elf_is_static(const char *path, struct strbuf *err);

#endif
