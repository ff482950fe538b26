/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Label folders and archives on a command line to a comparison: the start
 * that `report` and `trend` share (compare and plot add their own checks
 * between the steps). */
#ifndef LRUBENCH_COMPARE_LOAD_H
#define LRUBENCH_COMPARE_LOAD_H

#include <stddef.h>
#include "compare/model.h"
#include "core/results.h"
#include "core/util.h"

/*
 * labels_collect (names may be NULL), --baseline when baseline is not NULL,
 * at least two labels ("only one label (L in DIR): <needs_two>"), then
 * comparison_build with alpha, which must hold a workload. 0: *cmp is built
 * (comparison_release it) and *labels loaded; -1: the message is in err,
 * *cmp is not built, *labels (may be NULL) is the caller's to release.
 */
int comparison_load(char **dirs, size_t ndirs, const char *names, const char *baseline,
		    double alpha, const char *needs_two, struct label_result **labels,
		    size_t *nlabels, struct comparison *cmp, struct strbuf *err);

#endif
