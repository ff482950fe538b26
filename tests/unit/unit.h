/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Common includes for the cmocka unit tests (no root needed). */
#ifndef LRUBENCH_UNIT_H
#define LRUBENCH_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#endif
