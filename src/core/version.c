// SPDX-License-Identifier: GPL-2.0-or-later
/* Only this file is rebuilt when the git tree moves (the Makefile's stamp). */
#include "core/version.h"

#ifndef LRUBENCH_GIT_DESCRIBE
#define LRUBENCH_GIT_DESCRIBE ""
#endif

const char *lrubench_git_describe(void)
{
	return LRUBENCH_GIT_DESCRIBE;
}
