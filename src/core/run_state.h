/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The life of one `lrubench run` once its config is resolved: the label
 * folder (never overwriting a complete one), probes, the run's cgroup parent
 * and scratch folder, every workload's steps and iterations, results saved
 * after each iteration, run.json status, and the end-of-run summary.
 */
#ifndef LRUBENCH_RUN_STATE_H
#define LRUBENCH_RUN_STATE_H

#include <stdbool.h>
#include "core/adaptive.h"
#include "core/workload.h"
#include "profile/profile.h"

struct run_state {
	struct config *cfg;
	struct sys_facts *sys;
	const char *outdir;
	const char *label;
	bool force, resume;
	const struct workload_ops **wls;
	size_t nwls;
	struct run_env env;
	struct cg_env cg;
	struct cgroup run_cg;
	double started;
	json_object *run_json;
	struct profile_run prof;    /* where the kernel spent the time (profile.h) */
	/* iterations = auto (core/adaptive.h) */
	struct adaptive_plan plan;
	const char *baseline_dir;         /* run --baseline DIR/LABEL; NULL: none */
	struct label_result *baseline;    /* loaded from it */
};

/* Returns an LB_EXIT_* code. */
int run_state_execute(struct run_state *rs);

#endif
