/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The call chains of the `cpu` profile (issue 27): `perf record -g` of the
 * profiled iteration, read back with `perf script -F comm,ip,sym,dso`,
 * whose samples are a line with the command name, then one line per frame,
 * leaf first, then a blank line:
 *
 *   readtwice
 *   	ffffffff8133c9e3 native_queued_spin_lock_slowpath ([kernel.kallsyms])
 *   	ffffffff815fb398 folio_lruvec_lock_irqsave ([kernel.kallsyms])
 *   	    7f385c812210 read ([unknown])
 *
 * Folded here by our own code (core/folded.h: "comm;root;...;leaf", kernel
 * frames "_[k]"), not by a flame graph script: Debian packages none.
 * A frame perf could not name keeps its address ("0xffffffff8133c9e3_[k]")
 * when it is a kernel one (no kallsyms access: the count is said), and
 * becomes "[dso]" when it is a user one (every unnamed address of a
 * program would otherwise be a stack of its own).
 *
 * From the stacks, the per-symbol shares: self (the samples whose leaf is
 * the symbol) and children (the samples with the symbol anywhere in their
 * stack, the symbol's callees included), as percents of all samples, kernel
 * and user symbols apart. Names are matched across kernels by name: the
 * compiler's clone suffixes (.part.N, .isra.N, .constprop.N, .cold) are
 * dropped, and an LRU lock function's older name (profile/lru_locks.h:
 * pagevec_lru_move_fn, isolate_lru_pages, ...) becomes its newer one, so
 * the two kernels of a comparison count it as one symbol ("raw" keeps the
 * name perf printed). A function the compiler inlined on one kernel has
 * no samples of its own there: its time is its caller's self share, so the
 * differential table shows the caller up and the function down.
 */
#ifndef LRUBENCH_PERF_SCRIPT_H
#define LRUBENCH_PERF_SCRIPT_H

#include <stddef.h>
#include <json-c/json.h>
#include "core/folded.h"
#include "core/util.h"

#define PERF_SCRIPT_MAX_FRAMES 128
/* the largest perf script output read: 2 CPUs at 499 Hz for 10 minutes with
 * 30-frame chains is ~90 MB */
#define PERF_SCRIPT_FILE_MAX ((size_t)256 << 20)

struct perf_fold_info {
	uint64_t samples;
	uint64_t kernel_frames, kernel_unnamed;  /* kernel frames perf could not name */
};

/* Fold the text of `perf script -F comm,ip,sym,dso` into out (initialised
 * here). 0, or -1 with err naming the line. */
int perf_script_fold(const char *text, size_t len, struct folded *out, struct perf_fold_info *info,
		     struct strbuf *err);

/* The symbol's name as matched across kernels ("pagevec_lru_move_fn.isra.0"
 * -> "folio_batch_move_lru"), into out (len bytes). */
char *perf_symbol_canonical(const char *sym, char *out, size_t len);

/* The shares of f's symbols as a JSON array, self share first: every
 * symbol with self >= min_self or children >= 10 * min_self (percent), at
 * most max of them, as rows [symbol, "k"|".", self, children[, raw]]
 * (raw: the name perf printed, when it is not the symbol). */
json_object *perf_symbol_shares_json(const struct folded *f, double min_self, size_t max);

#endif
