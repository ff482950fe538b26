/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folded call stacks (issue 27): the format of the flame graph tools, one
 * line per distinct stack, root first, frames separated by ';', a space
 * and the number of samples:
 *
 *   # lrubench folded stacks 1: samples 1234, stacks 56, left out 7 in 3
 *   readtwice;entry_SYSCALL_64_[k];...;native_queued_spin_lock_slowpath_[k] 210
 *
 * Kernel frames end in "_[k]" (the flame graph tools' own convention). The
 * profile pass writes them (profile/perf_script.c), plot reads them back
 * (compare/flamegraph.c): the format, the writer and the ONE reader of
 * such a file live here, in core/, because both layers use them.
 *
 * Size: a file stays under FOLDED_FILE_MAX. The writer keeps the stacks in
 * the order of their samples, largest first, and leaves out what does not
 * fit, and every stack under FOLDED_MIN_SHARE of the samples; the header
 * says how many samples and stacks were left out, so the shares read back
 * stay shares of all the samples. The reader refuses a larger file, and
 * any line it cannot take, naming the file and the line.
 */
#ifndef LRUBENCH_FOLDED_H
#define LRUBENCH_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include "core/strmap.h"
#include "core/util.h"

#define FOLDED_FILE_MAX ((size_t)1 << 20)   /* 1 MiB: the bound per op */
#define FOLDED_MIN_SHARE 0.0001             /* 0.01% of the samples */
#define FOLDED_LINE_MAX 65536
#define FOLDED_COUNT_MAX 1000000000000ULL

struct folded_stack {
	char *stack;           /* "comm;root;...;leaf" */
	uint64_t count;
};

struct folded {
	struct folded_stack *s;
	size_t n, cap;
	struct strmap map;     /* stack -> index */
	uint64_t total;        /* every sample, the left-out ones included */
	uint64_t left_out;     /* samples not in s (the writer's caps) */
	size_t left_out_stacks;
};

void folded_init(struct folded *f);
/* Count samples of stack (merged with an equal one); total grows by count. */
void folded_add(struct folded *f, const char *stack, uint64_t count);
/* Largest count first, then by name: the writer's order. */
void folded_sort(struct folded *f);
/* Write f (sorted) to path atomically within max bytes (<= FOLDED_FILE_MAX),
 * leaving out stacks under FOLDED_MIN_SHARE; *written_stacks (may be NULL)
 * says how many went in. 0, or -1 with err. */
int folded_write(const struct folded *f, const char *path, size_t max, size_t *written_stacks,
		 struct strbuf *err);
/* Parse the text of a folded file: name is for messages ("DIR/x.folded").
 * 0, or -1 with err "NAME: line N: ..." (nothing kept in out). */
int folded_parse(const char *text, size_t len, const char *name, struct folded *out,
		 struct strbuf *err);
/* Read path (a regular file, not followed when a link, at most
 * FOLDED_FILE_MAX) and parse it. 0 or -1 with err. */
int folded_read(const char *path, struct folded *out, struct strbuf *err);
void folded_release(struct folded *f);

#endif
