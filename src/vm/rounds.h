/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iterations = auto in VM mode: rounds until decided. Each round boots
 * every kernel in turn (A, B, C ...), each running min_iterations measured
 * iterations per step (merge.h pools them into the labels); after every
 * round the ops of each other kernel are held against A's, the baseline,
 * with core/adaptive.h's rule (the change's 95% interval excludes 0, or is
 * within global.precision). The rounds end when every op of each
 * workload's first table is done for every kernel still running, or at
 * the round cap: vm.rounds when it was set, else max_iterations /
 * min_iterations rounds (so an op gets at most about max_iterations
 * samples, as on the host). A kernel that failed (a crash is a result,
 * vm/record.h) drops out of the decision; without A, or with A alone, an
 * op's own precision decides. The judged kernels' results then carry a
 * record per op (results.h, "adaptive") with "rounds", which compare
 * prints as "decided after N rounds".
 */
#ifndef LRUBENCH_VM_ROUNDS_H
#define LRUBENCH_VM_ROUNDS_H

#include <stdbool.h>
#include "core/adaptive.h"
#include "core/util.h"

/* How the judged ops of the kernels stand after a round (the sequential
 * design's verdicts, core/adaptive.h enum adaptive_op_state). */
struct vm_verdicts {
	unsigned decided;   /* the change's sequential interval excludes 0 */
	unsigned reached;   /* equivalent within ±precision (or precise enough, no baseline) */
	unsigned noisy;     /* can never be decided at this goal */
	unsigned open;      /* none yet: at the last round, the round cap */
};
/*
 * What run.json's vm.adaptive.stopped says (issue 23: what the verdicts
 * really were, never "decided" for a stop that decided nothing): the one
 * verdict every op has -- "decided", "reached", "too noisy", "round cap"
 * (some op still open) -- or "mixed" when the ops stopped differently
 * (vm.adaptive.verdicts has the counts).
 */
const char *vm_verdicts_stopped(const struct vm_verdicts *v);
/* A line for people: "decided", "equivalent within ±2%", "too noisy to
 * decide", "not decided", "stopped (1 decided, 1 too noisy)". */
void vm_verdicts_describe(const struct vm_verdicts *v, double precision, struct strbuf *out);

/* The round cap: vm.rounds when given (rounds_set), else from the plan. */
unsigned vm_rounds_cap(const struct adaptive_plan *p, unsigned rounds, bool rounds_set);

/*
 * After round `round` of every kernel: are the ops of the kernel in label
 * folder dir_b decided against A's (dir_a; NULL when there is no baseline:
 * then each op's own precision decides)? *decided says so. With write (the
 * rounds end here), each op's record is also written into dir_b's
 * <workload>.json ("round cap" for an op still open). v (may be NULL)
 * counts the ops' verdicts (added to, so several kernels sum). 0, or -1
 * with err.
 */
int vm_rounds_check(const char *dir_a, const char *dir_b, const struct adaptive_plan *p,
		    unsigned round, unsigned cap, bool write, bool *decided, struct vm_verdicts *v,
		    struct strbuf *err);

#endif
