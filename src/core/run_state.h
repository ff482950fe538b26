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
#include "core/kernel_health.h"
#include "core/workload.h"
#include "profile/profile.h"

struct run_state {
	struct config *cfg;
	struct sys_facts *sys;
	const char *outdir;
	const char *label;
	bool force, resume;
	bool dry_run;               /* check what a run checks (the label folder,
				     * probes, validation), create nothing */
	const struct workload_ops **wls;
	size_t nwls;
	struct run_env env;
	struct cg_env cg;
	struct cgroup run_cg;
	double started;
	json_object *run_json;
	struct profile_run prof;    /* where the kernel spent the time (profile.h) */
	struct kernel_health health;  /* the kernel log from the run's start */
	json_object *failed_ops;      /* run.json "failed_ops": ops that failed, the run went on */
	/* iterations = auto (core/adaptive.h) */
	struct adaptive_plan plan;
	const char *baseline_dir;         /* run --baseline DIR/LABEL; NULL: none */
	struct label_result *baseline;    /* loaded from it */
};

/* Returns an LB_EXIT_* code: the run's, also with dry_run. */
/* Could the results folder -o be created and written? (--dry-run asks it
 * too.) 0, or -1 with a message. */
int run_state_check_outdir(const char *dir);
int run_state_execute(struct run_state *rs);

#endif
