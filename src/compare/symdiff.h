/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The differential CPU profile of an op (issue 27): from the "cpu_symbols"
 * of the op's profile passes (profile/perf_script.h: the share of the
 * sampled CPU time of each symbol, self and children, averaged over the
 * passes), the symbols whose self share changed most between the baseline
 * and each other label, in points, largest change first. Symbols are
 * matched by name and kernel/user; the profile pass already mapped the LRU
 * lock functions' older names to their newer ones, and a symbol the other
 * kernel has not (renamed, inlined) counts 0 there (said under the table).
 *
 * Part of the comparison model (model.h: c->symdiffs): the renderers print
 * it with cmp_symdiff_text under the explaining heading (cmp_walk's
 * symdiff), JSON with cmp_symdiff_json, email only the ops whose measured
 * tables changed significantly.
 */
#ifndef LRUBENCH_COMPARE_SYMDIFF_H
#define LRUBENCH_COMPARE_SYMDIFF_H

#include <stdbool.h>
#include "compare/model.h"
#include "core/util.h"

#define CMP_SYMDIFF_TOP 10   /* rows per op unless compare --profile-top says */

/* (Re)build c->symdiffs with at most top rows each (0: none at all). */
void cmp_symdiff_build(struct comparison *c, size_t top);
void cmp_symdiff_release(struct comparison *c);
/* The table as plain text; narrow: the self columns only, names shortened
 * to fit 72 columns, ASCII only (email), at most rows rows. */
void cmp_symdiff_text(const struct comparison *c, const struct cmp_symdiff *d, size_t rows,
		      bool narrow, struct strbuf *out);
/* ', "cpu_profile_diff": [...]' for workload w, nothing when it has none. */
void cmp_symdiff_json(const struct comparison *c, size_t w, struct strbuf *out);

#endif
