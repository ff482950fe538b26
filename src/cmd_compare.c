// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real command. */
#include <stdio.h>
#include "commands.h"
#include "util.h"

int cmd_compare(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'lrubench compare' is not built yet");
	return LB_EXIT_USAGE;
}
