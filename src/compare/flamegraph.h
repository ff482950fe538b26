/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Flame graphs of the `cpu` profile (issue 27), written by `lrubench plot`
 * beside its gnuplot figures: Debian packages no flame graph tool, so the
 * layout and the SVG are our own, small (docs/ARCHITECTURE.md §12).
 *
 *   <workload>-<op>-<label>-flamegraph.svg
 *       the folded stacks of the op's profile passes (core/folded.h, the
 *       "folded" file of each pass in the label's results), one box per
 *       frame, as wide as its share of the samples, callers below callees;
 *   <workload>-<op>-<label>-vs-<baseline>-flamegraph-diff.svg
 *       the label's graph coloured by the change of each frame's share
 *       (with its callees) against the baseline: red grew, blue shrank,
 *       the deeper the colour the larger the change; frames only the
 *       baseline has are not drawn (their share is said in the subtitle).
 *
 * Self-contained SVG 1.1: no script, no style sheet, no font or link to
 * fetch; each box's <title> holds its name and numbers (the tooltip of a
 * browser). Every name from a stack is XML-escaped (core/escape.h).
 */
#ifndef LRUBENCH_FLAMEGRAPH_H
#define LRUBENCH_FLAMEGRAPH_H

#include "compare/model.h"
#include "core/folded.h"
#include "core/util.h"

/* The SVG of f; with base, the differential graph of f against base. */
void flamegraph_svg(const struct folded *f, const struct folded *base, const char *title,
		    const char *subtitle, struct strbuf *out);

/* Every flame graph of workload w into outdir (which exists). 0, or -1
 * after an error naming the folded file (and its line) that was refused. */
int flamegraph_figures(const struct comparison *c, const struct cmp_workload *w, const char *outdir);

#endif
