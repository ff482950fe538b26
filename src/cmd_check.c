// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER: the core issue replaces this. */
#include <stdio.h>
#include "commands.h"
#include "util.h"

int cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'lrubench check' is not built yet");
	return LB_EXIT_USAGE;
}
