// SPDX-License-Identifier: GPL-2.0-or-later
/* The phases of one run in order, and what they kept (run_state.h). */
#include "run/run_state.h"

#include "core/cleanup.h"

void run_state_release(struct run_state *rs)
{
	profile_run_release(&rs->prof);
	cleanup_run_all();
	for (size_t i = 0; rs->ctxs && i < rs->nwls; i++) {
		for (size_t s = 0; s < rs->ctxs[i].nsteps; s++)
			free(rs->ctxs[i].steps[s]);
		free(rs->ctxs[i].steps);
		free(rs->ctxs[i].workdir);
		free(rs->ctxs[i].priv);   /* after the registry: its undo may point here */
		free(rs->summaries[i]);
		wl_result_release(&rs->res[i]);
	}
	knob_set_release(&rs->knobs);   /* after the registry: its undo reads them */
	free(rs->ctxs);
	free(rs->res);
	free(rs->summaries);
	rs->ctxs = NULL;
	rs->res = NULL;
	rs->summaries = NULL;
	json_object_put(rs->old_run);
	json_object_put(rs->run_json);
	json_object_put(rs->env.facts);
	json_object_put(rs->failed_ops);
	json_object_put(rs->page_cache);
	rs->old_run = rs->run_json = rs->env.facts = rs->failed_ops = rs->page_cache = NULL;
	kernel_health_end(&rs->health);
	free(rs->env.label_dir);
	free(rs->env.log_dir);
	free(rs->env.run_workdir);
	free(rs->env.sparse_dir);
	rs->env.label_dir = rs->env.log_dir = rs->env.run_workdir = rs->env.sparse_dir = NULL;
	cg_env_release(&rs->cg);
	json_object_put(rs->baseline_noise);
	rs->baseline_noise = NULL;
	if (rs->baseline) {
		label_result_release(rs->baseline);
		free(rs->baseline);
		rs->baseline = NULL;
	}
}

int run_state_execute(struct run_state *rs)
{
	int ret = run_check(rs);

	/* --dry-run: everything a run checks before it creates anything */
	if (!ret && !rs->dry_run) {
		ret = run_open_label(rs);
		if (!ret)
			ret = run_finish(rs, run_workloads(rs));
	}
	run_state_release(rs);
	if (ret == LB_EXIT_OK && lb_stop_requested())
		ret = LB_EXIT_INTERRUPTED;
	return ret;
}
