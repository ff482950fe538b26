/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Label folders and archives on a command line to a comparison: the start
 * that compare, plot, report and trend share; what differs between them is
 * a field of struct comparison_load_opts. */
#ifndef LRUBENCH_COMPARE_LOAD_H
#define LRUBENCH_COMPARE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include "compare/model.h"
#include "core/results.h"
#include "core/util.h"

struct comparison_load_opts {
	const char *names;        /* --names A,B,...; NULL: by start time */
	const char *baseline;     /* --baseline LABEL|DIR; NULL: the first label */
	double alpha;
	/* NULL: one label is enough (plot); else the message's tail when there
	 * is only one: "only one label (L in DIR): <needs_two>" */
	const char *needs_two;
	/* each label, before the comparison is built; -1 with err refuses it
	 * (plot: a label without tables); NULL: none */
	int (*check_label)(const struct label_result *l, struct strbuf *err);
	bool allow_no_workloads;  /* a comparison without a workload is not an error */
};

/*
 * labels_collect, --baseline, the label count, check_label, then
 * comparison_build with alpha, which must hold a workload unless
 * allow_no_workloads. 0: *cmp is built (comparison_release it) and *labels
 * loaded; -1: the message is in err, *cmp is not built, *labels (may be
 * NULL) is the caller's to release. After -1 with lb_stop_requested() the
 * load was interrupted.
 */
int comparison_load(char **dirs, size_t ndirs, const struct comparison_load_opts *o,
		    struct label_result **labels, size_t *nlabels, struct comparison *cmp,
		    struct strbuf *err);

#endif
