// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Phase 2 of a run (run_state.h): from here on the label folder exists and
 * says what happened. The kernel log is opened at its end first, so that
 * nothing older counts, and the kernel's identity and the host's state are
 * what run.json records.
 */
#include "run/run_json.h"
#include "core/noise_file.h"

/* how long the other processes are watched at the start (host_state.h) */
#define BUSY_SAMPLE_SECS 0.25

int run_open_label(struct run_state *rs)
{
	json_object *old_health = NULL;

	if (rs->old_run)
		json_object_object_get_ex(rs->old_run, "kernel_health", &old_health);
	kernel_health_start(&rs->health, rs->kmsg ? rs->kmsg : "/dev/kmsg", NULL, old_health);
	if (!rs->health.have_log)
		warning("the kernel log cannot be read (%s): kernel warnings during the run "
			"will not be counted",
			json_object_get_string(json_object_object_get(kernel_health_json(&rs->health),
								      "log_unavailable")));
	sysinfo_collect_identity(rs->sys, BUSY_SAMPLE_SECS);
	if (json_object_get_boolean(json_object_object_get(rs->sys->host, "damon_moves_lru")))
		warning("DAMON is running a scheme that pages out or reorders memory (system.host.damon "
			"in run.json): it reclaims the workloads' pages at its own pace and makes runs "
			"drift; [settings] /sys/kernel/mm/damon/admin/kdamonds/N/state = off stops it "
			"for the run");

	if (rs->force && remove_tree(rs->env.label_dir)) {
		error("--force: cannot remove %s", rs->env.label_dir);
		return LB_EXIT_FAIL;
	}
	/* run_check() found the folder writable: failing now is I/O */
	if (mkdir_p(rs->env.label_dir, 0755) || mkdir_p(rs->env.log_dir, 0755))
		return LB_EXIT_FAIL;
	rs->run_json = run_json_new(rs);
	if (rs->baseline_dir)
		json_object_object_add(rs->run_json, "baseline", json_object_new_string(rs->baseline_dir));
	/* the noise.json whose spread between runs the intervals hold (--resume checks it) */
	if (noise_file_measured(rs->baseline_noise))
		json_object_object_add(rs->run_json, "baseline_noise_measured",
				       json_object_new_string(noise_file_measured(rs->baseline_noise)));
	if (rs->old_run) {
		json_object *v;
		if (json_object_object_get_ex(rs->old_run, "started", &v))
			json_object_object_add(rs->run_json, "started", json_object_get(v));
		if (json_object_object_get_ex(rs->old_run, "workload_facts", &v))
			rs->env.facts = json_object_get(v);
		json_object_object_add(rs->run_json, "resumed", json_object_new_boolean(1));
	}
	return run_json_write(rs, "running") ? LB_EXIT_FAIL : LB_EXIT_OK;
}
