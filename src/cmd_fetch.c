// SPDX-License-Identifier: GPL-2.0-or-later
/* PLACEHOLDER until its issue lands: replaced wholesale by the real command. */
#include <stdio.h>
#include "commands.h"
#include "util.h"

int cmd_fetch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("'lrubench fetch' is not built yet");
	return LB_EXIT_USAGE;
}
