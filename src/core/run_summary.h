/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end-of-run summary: per table and op, the mean row, stddev, CoeffVar. */
#ifndef LRUBENCH_RUN_SUMMARY_H
#define LRUBENCH_RUN_SUMMARY_H

#include <stdio.h>
#include "core/workload.h"

void run_summary_print(struct wl_ctx *ctx, const struct wl_result *res, FILE *out);

#endif
