/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line of `lrubench run --kernel-a IMG --kernel-b IMG ...`: the
 * VM options are taken out, everything else (the suite: -c, -w, -i,
 * --quick, --set ...) is kept to be passed to `lrubench run` in each guest.
 * VM settings are long options (--vm-memory 2G) or `--set vm.KEY=VAL` with
 * KEY memory, cpus, numa_nodes, rounds, cmdline_extra, timeout (a vm_
 * prefix is accepted too: --set vm.vm_memory=2G).
 */
#ifndef LRUBENCH_VM_ARGS_H
#define LRUBENCH_VM_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"
#include "core/strlist.h"

#define VM_HOST "host"   /* --kernel-a host: run on the running kernel, natively */

struct vm_args {
	const char *kernel[2];     /* image path, VM_HOST, or NULL */
	const char *label[2];
	const char *modules[2];
	const char *results;       /* -o DIR, NULL: "results" */
	uint64_t memory;           /* bytes */
	unsigned cpus, numa_nodes, rounds;
	const char *cmdline_extra;
	double timeout;            /* seconds per boot */
	bool quick, force, resume;
	bool dry_run;              /* print the plan (labels, modules, qemu argv), boot nothing */
	struct strlist suite;      /* passed to every `lrubench run` */
	struct strlist tmpfs;      /* folders to give a tmpfs in the guest (workdir) */
};

/* host_cpus sizes the vm_cpus default. 0, or -1 with err (usage error). */
int vm_args_parse(int argc, char **argv, unsigned host_cpus, struct vm_args *a, struct strbuf *err);
void vm_args_release(struct vm_args *a);
/* The [global] workdir of an INI text (the guest must get a tmpfs there, its
 * root is read-only): appended to tmpfs when absolute. */
void vm_ini_workdir(const char *ini, struct strlist *tmpfs);

#endif
