/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One workload's part of run_workloads (run_state.h): its iterations. */
#ifndef LRUBENCH_STEP_LOOP_H
#define LRUBENCH_STEP_LOOP_H

#include "run/run_state.h"

/*
 * setup, then every step's warm-up and measured iterations, in the order
 * and number the schedule gives (core/schedule.h), each step's profile
 * pass after its timed iterations. An op that fails (WL_OP_FAILED) ends
 * its step -- no more iterations, no profile pass -- and the other steps
 * go on; *op_failed counts them. Results are saved to path after every
 * measured iteration and profile pass.
 */
enum wl_status run_workload(struct run_state *rs, struct wl_ctx *ctx, struct wl_result *res,
			    const char *path, size_t *op_failed);

/* Which steps of ctx get a profile pass (profile.h): every step not yet
 * profiled (--resume: "profiled" in res's progress) when the run profiles.
 * Decided once, after setup; want[s] for each step. Returns how many. */
size_t run_profile_plan(const struct profile_run *pr, const struct wl_ctx *ctx,
			const struct wl_result *res, bool *want);

#endif
