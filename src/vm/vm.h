/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VM mode: `lrubench run --kernel-a IMG --kernel-b IMG ...` boots each kernel
 * in qemu with the host root shared read-only and runs `lrubench run` inside.
 * cmd_run() hands the whole command line to cmd_run_vm() when it sees
 * --kernel-a or --kernel-b.
 */
#ifndef LRUBENCH_VM_H
#define LRUBENCH_VM_H

/* argv[0] is "run"; returns an LB_EXIT_* code. */
int cmd_run_vm(int argc, char **argv);

#endif
