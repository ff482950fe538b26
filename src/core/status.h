/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one status enum of the code base for results that are more than
 * "worked / failed": a workload hook's end (workload.h) and every core
 * service that can also end in "interrupted", "op failed" or "cannot run
 * here" (task_round, child_set, memcg_set, sparse_root, net_client ...).
 * Plain int functions return 0 or -1 (error() printed the message); a
 * function with a third outcome returns enum wl_status, never a magic -2 or
 * -3.
 */
#ifndef LRUBENCH_STATUS_H
#define LRUBENCH_STATUS_H

/*
 * How the workload's hooks end. Exit codes of the run (wl_status_exit):
 *   WL_OK           0    go on
 *   WL_FAILED       1    something broke; the message is printed
 *   WL_BAD_CONFIG   2    the options cannot work together (validate)
 *   WL_UNSUPPORTED  3    this machine cannot run what was asked (a tool,
 *                        a kernel feature, a device is missing)
 *   WL_INTERRUPTED  130  a stop was requested (SIGINT, SIGTERM, SIGHUP)
 *   WL_OP_FAILED    1    run_step only: this iteration failed (a stuck or
 *                        OOM-killed child) but the workload is sound; the
 *                        core records the op as failed (run.json
 *                        "failed_ops"), skips the rest of its step and goes
 *                        on with the next step; the run ends "failed"
 */
enum wl_status {
	WL_OK = 0,
	WL_FAILED,
	WL_BAD_CONFIG,
	WL_UNSUPPORTED,
	WL_INTERRUPTED,
	WL_OP_FAILED,
};

#endif
