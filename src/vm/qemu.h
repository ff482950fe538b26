/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One qemu boot: its argv (pure), and running it while watching the console. */
#ifndef LRUBENCH_VM_QEMU_H
#define LRUBENCH_VM_QEMU_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"
#include "core/strlist.h"

struct vm_qemu_spec {
	const char *qemu;          /* "qemu-system-x86_64" */
	const char *kernel, *initrd;
	const char *append;        /* kernel command line */
	const char *results_dir;   /* writable share */
	const char *console_path;  /* serial console goes to this file */
	bool kvm;
	uint64_t mem_bytes;
	unsigned cpus, numa_nodes;
};

/* The kernel command line: console, panic handling, the virt marker the
 * core's sysinfo reads (lrubench.virt=kvm|tcg), then extra. */
void vm_kernel_cmdline(struct strbuf *sb, bool kvm, const char *extra);
/* Fill argv; -1 with err when the NUMA layout cannot be built. */
int vm_qemu_argv(const struct vm_qemu_spec *s, struct strlist *argv, struct strbuf *err);

enum vm_outcome {
	VM_DONE,        /* the guest reported an exit code */
	VM_PANIC,       /* "Kernel panic" on the console */
	VM_TIMEOUT,
	VM_INTERRUPTED,
	VM_INIT_FAILED, /* the guest's init could not set up (modules, mounts) */
	VM_LOST,        /* qemu ended without a verdict from the guest */
};

struct vm_boot {
	enum vm_outcome outcome;
	int guest_code;       /* exit code of `lrubench run` in the guest, when VM_DONE */
	int qemu_code;        /* qemu's own exit code, -1 if killed by us */
	double seconds;       /* wall time of the whole boot */
	struct strbuf reason; /* init failure line, panic line */
};

/* Boot and wait. Guest output between the begin and exit markers is echoed
 * to stdout with `prefix`. qemu's own stderr goes to qemu_log. Returns 0
 * when qemu ran (see b->outcome), -1 when it could not start. */
int vm_qemu_run(const struct vm_qemu_spec *s, double timeout, const char *prefix,
		const char *qemu_log, struct vm_boot *b);
void vm_boot_release(struct vm_boot *b);

#endif
