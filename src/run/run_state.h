/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The life of one `lrubench run` once its config is resolved
 * (docs/ARCHITECTURE.md §3), in four phases a caller -- commands/run.c, or
 * a unit test -- drives one after the other:
 *
 *   run_check       every user and machine error, before anything exists:
 *                   the label folder (never overwriting a complete one),
 *                   --resume's config and kernel, every probe and
 *                   validation, iterations = auto and --baseline, the
 *                   profile this machine can make, the mount namespace.
 *                   --dry-run stops after it: its exit code is the run's.
 *   run_open_label  the kernel log from here on, the kernel's identity, the
 *                   label folder and run.json "running"
 *   run_workloads   the environment (mount namespace, cgroup parent,
 *                   scratch folder, profiler), then every workload: setup,
 *                   its steps' iterations, profile passes, teardown
 *   run_finish      the environment released, run.json's last status, the
 *                   summary tables; the exit code
 *
 * run_state_release frees what the phases kept, after the cleanup
 * registry ran. This layer sits above core/ and profile/ (§1): the core
 * never calls the profiler, the run loop calls both.
 */
#ifndef LRUBENCH_RUN_STATE_H
#define LRUBENCH_RUN_STATE_H

#include <stdbool.h>
#include "core/adaptive.h"
#include "core/kernel_health.h"
#include "core/knobs.h"
#include "core/workload.h"
#include "monitor/monitor.h"
#include "profile/profile.h"

struct run_state {
	/* set by the caller */
	struct config *cfg;
	struct sys_facts *sys;
	const char *outdir;
	const char *label;
	bool force, resume;
	bool dry_run;               /* check what a run checks, create nothing */
	const struct workload_ops **wls;
	size_t nwls;
	const char *baseline_dir;   /* run --baseline DIR/LABEL; NULL: none */
	struct run_env env;         /* the caller sets env.bind */

	/* where the machine is read; NULL: the real files. Unit tests point
	 * them at a cgroup tree under a temp folder (mounts, cg_prefix as
	 * tests/unit/test_cgroup.c does) and at a plain file for the log */
	const char *mounts;         /* /proc/mounts */
	const char *cg_prefix;      /* "" (a fake tree's root folder) */
	const char *kmsg;           /* /dev/kmsg */
	/* the private mount namespace (core/mount_ns.h); NULL: mount_ns_private.
	 * unshare(CLONE_NEWNS) needs root, so a unit test puts a stand-in here */
	int (*private_mounts)(const char *workdir);
	/* the clock iterations are timed by (seconds); NULL: now_monotonic. A
	 * unit test gives its iterations a length without sleeping */
	double (*clock)(void);

	/* kept by the phases */
	struct cg_env cg;
	struct cgroup run_cg;
	double started;
	json_object *run_json;
	json_object *old_run;         /* --resume: the run.json continued */
	struct profile_run prof;      /* where the kernel spent the time (profile.h) */
	struct monitor_run mon;       /* the monitors of every timed iteration (monitor.h) */
	struct kernel_health health;  /* the kernel log from the run's start */
	json_object *failed_ops;      /* run.json "failed_ops": ops that failed, the run went on */
	json_object *page_cache;      /* run.json "page_cache": per unit run, was the cache dropped */
	struct wl_ctx *ctxs;          /* one per workload, from run_check on */
	struct wl_result *res;        /* their results */
	char **summaries;             /* their print_summary text */
	size_t op_failed;             /* ops that failed (WL_OP_FAILED) */
	struct adaptive_plan plan;    /* iterations = auto (core/adaptive.h) */
	struct label_result *baseline;    /* loaded from baseline_dir */
	json_object *baseline_noise;      /* RESULTS/noise.json beside it (core/noise_file.h):
					     the spread between runs; NULL: none */
	struct knob_set knobs;        /* [settings] (core/knobs.h): checked by run_check,
				       * applied by run_workloads, restored by the registry */
};

/* Could the results folder -o be created and written? (--dry-run asks it
 * too.) 0, or -1 with a message. */
int run_state_check_outdir(const char *dir);

/* The phases above. run_check, run_open_label and run_finish return an
 * LB_EXIT_* code; run_workloads the status run_finish turns into one. */
int run_check(struct run_state *rs);
int run_open_label(struct run_state *rs);
enum wl_status run_workloads(struct run_state *rs);
int run_finish(struct run_state *rs, enum wl_status out);
void run_state_release(struct run_state *rs);

/* The whole run: the phases in order, only run_check with dry_run; then
 * run_state_release. Returns an LB_EXIT_* code: the run's, also with dry_run. */
int run_state_execute(struct run_state *rs);

#endif
