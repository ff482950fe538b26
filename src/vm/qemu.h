/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One qemu boot: its argv (pure), and running it while watching the console. */
#ifndef LRUBENCH_VM_QEMU_H
#define LRUBENCH_VM_QEMU_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "core/util.h"
#include "core/strlist.h"

struct vm_placement;

/* One 9p export (vm/exports.h, vm/import.h). */
struct vm_share {
	const char *tag, *path;
	bool writable;        /* the boot's results: security_model=mapped-xattr (or
			       * mapped-file); read-only ones: none */
	bool mapped_file;     /* mapped-file: the folder's file system has no user xattrs */
};
#define VM_MAX_SHARES 12

struct vm_qemu_spec {
	const char *qemu;          /* "qemu-system-x86_64" */
	const char *kernel, *initrd;
	const char *append;        /* kernel command line */
	struct vm_share shares[VM_MAX_SHARES];   /* what the guest sees of the host */
	size_t nshares;
	const char *console_path;  /* serial console goes to this file */
	const char *qmp_path;      /* QMP socket; NULL: none (and qemu is not paused) */
	const struct vm_placement *place;  /* NULL: nothing bound or pinned */
	bool kvm;
	uint64_t mem_bytes;
	unsigned cpus, numa_nodes;
	bool balloon;              /* a virtio-balloon device with free page reporting */
	uint64_t balloon_target;   /* asked through QMP once the guest runs; 0: none */
	double rss_interval;       /* seconds between samples of qemu's VmRSS; 0: none */
};

/* The kernel command line: console, panic handling, the virt marker the
 * core's sysinfo reads (lrubench.virt=kvm|tcg), then extra. */
void vm_kernel_cmdline(struct strbuf *sb, bool kvm, const char *extra);
/* Fill argv; -1 with err when the NUMA layout cannot be built. */
int vm_qemu_argv(const struct vm_qemu_spec *s, struct strlist *argv, struct strbuf *err);

/* What a console line says about the guest kernel's health. */
enum vm_crash {
	VM_CRASH_NONE,
	VM_CRASH_OOPS,       /* Oops, BUG, general protection fault */
	VM_CRASH_PANIC,      /* Kernel panic - not syncing */
	VM_CRASH_LOCKUP,     /* soft/hard lockup, RCU stall */
	VM_CRASH_HUNG_TASK,  /* task blocked for more than N seconds */
};
enum vm_crash vm_console_crash(const char *line);
/* "oops", "panic", "lockup", "hung task" */
const char *vm_crash_name(enum vm_crash c);

enum vm_outcome {
	VM_DONE,        /* the guest reported an exit code */
	VM_CRASHED,     /* the console showed a crash (b->crash, b->first_line) */
	VM_TIMEOUT,     /* no verdict by the deadline: the guest hung */
	VM_INTERRUPTED,
	VM_INIT_FAILED, /* the guest's init could not set up (modules, mounts) */
	VM_LOST,        /* qemu ended without a verdict from the guest */
};

struct vm_boot {
	enum vm_outcome outcome;
	int guest_code;       /* exit code of `lrubench run` in the guest, when VM_DONE */
	int qemu_code;        /* qemu's own exit code, -1 if killed by us */
	double seconds;       /* wall time of the whole boot */
	struct strbuf reason; /* init failure line */
	enum vm_crash crash;  /* the crash that decided VM_CRASHED */
	struct strbuf first_line;   /* its first console line */
	struct strlist warnings;    /* lockup lines that did not fail the round (TCG) */
	json_object *placement;     /* read back from /proc (vm/placement.h), or NULL */
	json_object *memory;        /* qemu's own memory over the boot (vm_qemu_memory_new) */
};

/*
 * run.json vm.qemu_memory[] of one boot: {"interval_s", "rss_kb": [VmRSS of
 * the qemu process every interval], "max_rss_kb", "hwm_kb" (VmHWM, its
 * peak), "balloon": {"target", "asked", "error"} with a balloon target}.
 * What the host paid for the guest, as /proc/<qemu pid>/status said; with a
 * balloon also the guest's view (vm_qemu_memory_add_guest).
 */
json_object *vm_qemu_memory_new(double interval);
void vm_qemu_memory_add(json_object *m, unsigned long long rss_kb, unsigned long long hwm_kb);
/*
 * With a balloon, the guest's side of each sample (issue 28: the memory
 * story of free page reporting is qemu's RSS falling while the guest's own
 * free memory stays): "balloon_actual_kb" (QMP query-balloon: the guest's
 * RAM less what the balloon holds), "guest_free_kb" and "guest_available_kb"
 * (the guest's MemFree and MemAvailable, as its virtio_balloon driver
 * reported them through the device's stats queue: qom-get guest-stats),
 * arrays beside rss_kb, entry i from the same moment as rss_kb[i]; null
 * where the guest had not reported yet (its driver not loaded) or QMP
 * failed (then "guest_stats_error" says why and the sampling of the guest
 * stops). A negative value is null.
 */
void vm_qemu_memory_add_guest(json_object *m, long long actual_kb, long long free_kb, long long avail_kb);
/* The guest's free and available memory in KiB from qom-get guest-stats'
 * reply ({"stats": {"stat-free-memory": bytes, ...}, "last-update": s}):
 * -1 each when the guest has reported nothing (last-update 0, or qemu's
 * "not reported" value, all ones). */
void vm_balloon_guest_stats(json_object *reply, long long *free_kb, long long *avail_kb);

/* Boot and wait. Guest output between the begin and exit markers is echoed
 * to stdout with `prefix`. qemu's own stderr goes to qemu_log. Under KVM a
 * lockup or hung task fails the round; under TCG they are warnings (an
 * emulated CPU stalls for reasons of its own). Returns 0 when qemu ran (see
 * b->outcome), -1 when it could not start or be placed (message printed). */
int vm_qemu_run(const struct vm_qemu_spec *s, double timeout, const char *prefix,
		const char *qemu_log, struct vm_boot *b);
void vm_boot_release(struct vm_boot *b);

#endif
