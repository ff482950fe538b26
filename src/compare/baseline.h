/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `--baseline LABEL|DIR` of compare and report: which label the others are
 * measured against, named instead of taken from run.json "started" order
 * (a nightly compares tonight's label against a fixed reference).
 */
#ifndef LRUBENCH_BASELINE_H
#define LRUBENCH_BASELINE_H

#include <stddef.h>
#include "core/results.h"
#include "compare/labels.h"

/*
 * Move the baseline to the front of labels (from labels_collect), the other
 * labels keeping their order. which is a label name among them, else a
 * label folder, loaded and put in front when it is not among them already.
 * Returns 0, or -1 with err naming which and what was found.
 */
int labels_pick_baseline(struct label_result **labels, size_t *n, const char *which,
			 struct strbuf *err);

#endif
