// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Phase 4 of a run (run_state.h): the environment goes, run.json gets its
 * last status (complete, interrupted, failed), the summary tables are
 * printed, and the status becomes the exit code.
 */
#include "run/run_json.h"

#include "core/cleanup.h"
#include "core/run_summary.h"
#include "core/sparse_root.h"

static void release_env(struct run_state *rs)
{
	if (rs->env.sparse_state) {
		sparse_root_teardown(rs->env.sparse_state);
		rs->env.sparse_state = NULL;
	}
	if (rs->env.run_cg) {
		cg_destroy(&rs->run_cg);
		rs->env.run_cg = NULL;
	}
	cleanup_run_all();   /* the scratch folder and anything a workload left registered */
}

int run_finish(struct run_state *rs, enum wl_status out)
{
	profile_run_release(&rs->prof);
	release_env(rs);
	kernel_health_poll(&rs->health, NULL, NULL);
	if (out == WL_OK && lb_stop_requested())
		out = WL_INTERRUPTED;
	if (out == WL_OK && rs->op_failed)
		out = WL_OP_FAILED;
	run_json_write(rs, out == WL_OK ? "complete" : out == WL_INTERRUPTED ? "interrupted" : "failed");
	if (out == WL_OK || out == WL_OP_FAILED) {
		for (size_t i = 0; i < rs->nwls; i++) {
			const struct wl_common_opts *co = config_common(rs->cfg, rs->wls[i]->name);

			run_summary_print(&rs->res[i], co ? wl_statistics[co->statistic] : NULL,
					  rs->summaries[i], stdout);
		}
		if (rs->prof.failed)
			warning("the profile of %u step%s failed (see \"profile\" in the details): the "
				"timed samples are complete", rs->prof.failed, rs->prof.failed > 1 ? "s" : "");
		info("results: %s/", rs->env.label_dir);
	}
	if (out == WL_OP_FAILED) {
		error("%zu op%s failed (run.json \"failed_ops\"); the run is marked failed", rs->op_failed,
		      rs->op_failed == 1 ? "" : "s");
	} else if (out == WL_INTERRUPTED) {
		error("interrupted; what was measured is in %s/ ('lrubench run --resume' with the same "
		      "options continues it)", rs->env.label_dir);
	}
	return wl_status_exit(out);
}
