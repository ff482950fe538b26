/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The end-of-run summary: per table and op, the mean row, stddev, CoeffVar. */
#ifndef LRUBENCH_RUN_SUMMARY_H
#define LRUBENCH_RUN_SUMMARY_H

#include <stdio.h>
#include "core/workload.h"

/* The workload's own lines (its print_summary hook), taken while its state
 * is still there, before teardown: malloc'ed text, NULL when it has none. */
char *run_summary_capture(struct wl_ctx *ctx);
/* The tables of res, then `extra` (from run_summary_capture, may be NULL).
 * statistic: the workload's config statistic word (wl_statistics: "amean"
 * gives its throughput tables the Amean row, as compare prints them). */
void run_summary_print(const struct wl_result *res, const char *statistic, const char *extra,
		       FILE *out);

#endif
