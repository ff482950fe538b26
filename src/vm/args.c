// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings of `lrubench run --kernel-a ...`: [vm] keys and their rules. */
#include "vm/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *unless_empty(const char *s)
{
	return s && *s ? s : NULL;
}

int vm_args_from_config(struct vm_args *a, const struct vm_opts *vm, struct strbuf *err)
{
	for (int k = 0; k < 2; k++) {
		a->kernel[k] = unless_empty(vm->kernel[k]);
		a->label[k] = unless_empty(vm->label[k]);
		a->modules[k] = unless_empty(vm->modules[k]);
	}
	a->memory = vm->memory;
	a->cpus = (unsigned)vm->cpus;
	a->numa_nodes = (unsigned)vm->numa_nodes;
	a->rounds = (unsigned)vm->rounds;
	a->cmdline_extra = vm->cmdline_extra ? vm->cmdline_extra : "";
	a->timeout = vm->timeout;

	if (a->kernel[1] && !a->kernel[0]) {
		strbuf_addstr(err, "--kernel-b needs --kernel-a (kernel A is the baseline of the comparison)");
		return -1;
	}
	if (!a->kernel[0]) {
		strbuf_addstr(err, "VM mode needs --kernel-a IMG (and usually --kernel-b IMG)");
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		if ((a->label[k] || a->modules[k]) && !a->kernel[k]) {
			strbuf_addf(err, "--%s-%c without --kernel-%c", a->label[k] ? "label" : "modules",
				    'a' + k, 'a' + k);
			return -1;
		}
	}
	if (a->force && a->resume) {
		strbuf_addstr(err, "--force and --resume exclude each other");
		return -1;
	}
	if (a->resume && a->rounds > 1) {
		strbuf_addstr(err, "--resume cannot continue a run with vm.rounds > 1; start it again with --force");
		return -1;
	}
	if (a->numa_nodes > a->cpus) {
		strbuf_addf(err, "vm.numa_nodes=%u needs at least as many vm.cpus (%u)", a->numa_nodes, a->cpus);
		return -1;
	}
	return 0;
}

void vm_args_release(struct vm_args *a)
{
	strlist_release(&a->suite);
	strlist_release(&a->tmpfs);
}
