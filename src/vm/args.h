/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings of `lrubench run --kernel-a IMG --kernel-b IMG ...`: the [vm]
 * keys of the resolved config (core/config.h: INI, --set vm.KEY=VAL, and
 * run's aliases --kernel-a, --vm-memory ...), and from the rest of the
 * command line the suite (-c, -w, -i, --quick, --set ...) that `lrubench
 * run` gets in each guest. commands/run.c fills the second part.
 */
#ifndef LRUBENCH_VM_ARGS_H
#define LRUBENCH_VM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/adaptive.h"
#include "core/config.h"
#include "core/util.h"
#include "core/strlist.h"

#define VM_HOST "host"   /* --kernel-a host: run on the running kernel, natively */

struct vm_args {
	const char *kernel[2];     /* image path, VM_HOST, or NULL (strings of the config) */
	const char *label[2];
	const char *modules[2];
	const char *results;       /* -o DIR, NULL: "results" */
	uint64_t memory;           /* bytes */
	unsigned cpus, numa_nodes, rounds;
	const char *cmdline_extra;
	double timeout;            /* seconds per boot */
	bool quick, force, resume;
	bool dry_run;              /* print the plan (labels, modules, qemu argv), boot nothing */
	bool adaptive;             /* iterations = auto: rounds until decided (vm/rounds.h) */
	struct adaptive_plan plan;
	struct strlist suite;      /* passed to every `lrubench run` */
	struct strlist tmpfs;      /* folders to give a tmpfs in the guest (workdir) */
};

/* Copy the [vm] keys into a, whose results, quick, force, resume, dry_run,
 * suite and tmpfs the caller has set, and check the rules between them.
 * 0, or -1 with err (a usage error). */
int vm_args_from_config(struct vm_args *a, const struct vm_opts *vm, struct strbuf *err);
void vm_args_release(struct vm_args *a);

#endif
