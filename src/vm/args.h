/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings of `lrubench run --kernel-a IMG --kernel-b IMG ...`: the [vm]
 * keys of the resolved config (core/config.h: INI, --set vm.KEY=VAL, and
 * run's aliases --kernel-a, --kernel NAME=IMG, --vm-memory ...), and from the
 * rest of the command line the suite (-c, -w, -i, --quick, --set ...) that
 * `lrubench run` gets in each guest. commands/run.c fills the second part.
 */
#ifndef LRUBENCH_VM_ARGS_H
#define LRUBENCH_VM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/adaptive.h"
#include "core/config.h"
#include "core/knobs.h"
#include "core/util.h"
#include "core/strlist.h"

#define VM_HOST "host"   /* --kernel-a host: run on the running kernel, natively */
#define VM_MAX_KERNELS 16
#define VM_MAX_CPUS 256  /* vm.cpus' range */
#define VM_MAX_NODES 8   /* vm.numa_nodes' range */

/* One kernel of the comparison, in round order: kernel_a, kernel_b, then
 * vm.kernels. Strings belong to the config or to vm_args.owned. */
struct vm_kernel_arg {
	const char *image;     /* a bzImage path, or VM_HOST */
	const char *label;     /* NULL: the image's release */
	const char *modules;   /* NULL: found beside the image */
	const char *cmdline;   /* its own boot options (after vm.cmdline_extra); "" none */
	struct knob_set settings;  /* knobs set inside its guest (vm_args_settings), or none */
	char flag[48];         /* how the user named it, for messages: "--kernel-a", "--kernel rt" */
};

enum vm_cpus_from {
	VM_CPUS_FLOAT,   /* none: vCPU threads go where the host scheduler puts them */
	VM_CPUS_NODE,    /* the CPUs of each guest node's host node, in order */
	VM_CPUS_LIST,    /* cpu_list[i] for vCPU i */
};

enum vm_backend { VM_BACKEND_RAM, VM_BACKEND_MEMFD, VM_BACKEND_HUGETLB };

struct vm_args {
	struct vm_kernel_arg kernel[VM_MAX_KERNELS];
	unsigned nkernels;
	const char *results;       /* -o DIR, NULL: "results" */
	uint64_t memory;           /* bytes */
	unsigned cpus, numa_nodes, rounds;
	const char *cmdline_extra;
	const char *host_settings; /* vm.host_settings: "KNOB=VALUE, ..." ("" none) */
	const char *host_settings_from;   /* where it was set, for messages */
	const char *workdir;       /* global.workdir: the host knobs' markers (core/knobs.h) */
	bool balloon;              /* vm.balloon = free-page-reporting */
	uint64_t balloon_target;   /* bytes, 0: none */
	double rss_interval;       /* seconds between samples of qemu's VmRSS */
	double timeout;            /* seconds per boot */
	/* placement (vm/placement.h resolves it against this host) */
	enum vm_cpus_from cpus_from;
	unsigned cpu_list[VM_MAX_CPUS];
	size_t ncpu_list;
	int host_node;             /* -1: auto */
	enum vm_backend backend;
	bool quick, force, resume;
	bool dry_run;              /* print the plan (labels, modules, qemu argv), boot nothing */
	bool adaptive;             /* iterations = auto: rounds until decided (vm/rounds.h) */
	struct adaptive_plan plan;
	struct strlist suite;      /* passed to every `lrubench run` */
	struct strlist tmpfs;      /* folders to give a tmpfs in the guest (workdir) */
	struct strlist inputs;     /* host files the config names (a key's value that is the
				    * absolute path of a file): staged for the guest (exports.h) */
	struct strlist owned;      /* strings split out of vm.kernels */
};

/* Copy the [vm] keys into a, whose results, quick, force, resume, dry_run,
 * suite and tmpfs the caller has set, and check the rules between them.
 * 0, or -1 with err (a usage error). */
int vm_args_from_config(struct vm_args *a, const struct vm_opts *vm, struct strbuf *err);
/*
 * A kernel's own boot options (vm.cmdline_a, _b, after IMG in vm.kernels,
 * vm.cmdline_extra): printable ASCII words separated by single blanks, no
 * quote (the kernel's parser would join words), no option VM mode sets
 * itself (console=, panic=, oops=, rdinit=, init=; with own_ok, as for
 * vm.cmdline_extra, these are allowed), no lrubench.*, at most
 * VM_CMDLINE_MAX bytes so that the whole line stays within the x86
 * kernel's 2048 bytes. what names it in err. 0, or -1 with err.
 */
#define VM_CMDLINE_MAX 1024
int vm_cmdline_check(const char *s, const char *what, bool own_ok, struct strbuf *err);
/*
 * The knobs each kernel's guest sets (issue 28): vm.settings_a, _b and, for
 * the kernels of vm.kernels, vm.kernel_settings = NAME:KNOB=VALUE, ... into
 * a->kernel[i].settings, each with its origin from cfg. What needs no kernel
 * is checked here, before anything boots, with the [settings] rules
 * (core/knobs.h: the allowed trees, the value's text), and a knob named
 * twice for one guest or also set by the suite's own [settings] (which
 * every guest applies: which value would one guest take?) is refused;
 * whether a guest kernel has the knob and takes the value is its own run's
 * check, before its suite starts (exit 3 or 2 for that kernel's cell). The
 * guests get them as --set settings.KNOB=VALUE (vm/vm.c). 0, or -1 with err.
 */
int vm_args_settings(struct vm_args *a, struct config *cfg, struct strbuf *err);
/*
 * "KNOB=VALUE, ..." (vm.host_settings, vm.settings_a ...) into out, each by
 * knob_init (origin for messages and run.json); a knob named twice is
 * refused ("X is set twice (one value for one knob of " whose ")").
 * Appends to out. 0, or -1 with err.
 */
int vm_knob_list_parse(const char *list, const char *origin, const char *whose, struct knob_set *out,
		       struct strbuf *err);
void vm_args_release(struct vm_args *a);

#endif
