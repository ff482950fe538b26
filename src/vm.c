// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until the VM issue lands: replaced wholesale. */
#include "util.h"
#include "vm.h"

int cmd_run_vm(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("--kernel-a/--kernel-b: VM mode is not built yet");
	return LB_EXIT_USAGE;
}
