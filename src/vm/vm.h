/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VM mode: `lrubench run --kernel-a IMG --kernel-b IMG ...` boots each kernel
 * in qemu with the host root shared read-only and runs `lrubench run` inside.
 * cmd_run() hands over to cmd_run_vm() when the config names a kernel
 * (vm.kernel_a or vm.kernel_b, set by --kernel-a/--kernel-b among others).
 */
#ifndef LRUBENCH_VM_H
#define LRUBENCH_VM_H

struct vm_args;
/* Runs what a (vm/args.h) describes and releases it; returns an LB_EXIT_* code. */
int cmd_run_vm(struct vm_args *a);

#endif
