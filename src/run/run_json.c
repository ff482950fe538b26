// SPDX-License-Identifier: GPL-2.0-or-later
/* run.json of the run (run_json.h). */
#include "run/run_json.h"

#include <sched.h>
#include <string.h>
#include <unistd.h>
#include "core/kernel_id.h"
#include "core/version.h"

static json_object *numa_json(const struct numa_bind *b)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array();

	json_object_object_add(o, "node", b->node < 0 ? json_object_new_string("none")
							: json_object_new_int(b->node));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b->cpus))
			json_object_array_add(cpus, json_object_new_int(c));
	json_object_object_add(o, "cpus", cpus);
	json_object_object_add(o, "mem_bytes", json_object_new_int64((int64_t)b->mem_bytes));
	return o;
}

json_object *run_json_new(struct run_state *rs)
{
	json_object *o = json_object_new_object(), *wl = json_object_new_array();
	char ts[64];

	format_timestamp(rs->started, ts, sizeof(ts));
	json_object_object_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
	json_object_object_add(o, "label", json_object_new_string(rs->label));
	json_object_object_add(o, "status", json_object_new_string("interrupted"));
	json_object_object_add(o, "started", json_object_new_string(ts));
	json_object_object_add(o, "finished", NULL);
	json_object_object_add(o, "lrubench_version", json_object_new_string(LRUBENCH_VERSION));
	if (*lrubench_git_describe())
		json_object_object_add(o, "lrubench_git", json_object_new_string(lrubench_git_describe()));
	json_object_object_add(o, "pid", json_object_new_int((int)getpid()));
	json_object_object_add(o, "system", sysinfo_to_json(rs->sys));
	json_object_object_add(o, "numa_binding", numa_json(&rs->env.bind));
	json_object_object_add(o, "config", config_to_json(rs->cfg));
	for (size_t i = 0; i < rs->nwls; i++)
		json_object_array_add(wl, json_object_new_string(rs->wls[i]->name));
	json_object_object_add(o, "workloads", wl);
	return o;
}

/* system.kernel.taint_end: what the taint flags were when the run ended */
static void record_taint_end(json_object *run)
{
	json_object *sys, *k;
	unsigned long long t;
	char letters[96];

	if (!json_object_object_get_ex(run, "system", &sys) || !json_object_object_get_ex(sys, "kernel", &k) ||
	    kernel_taint_read(&t))
		return;
	kernel_taint_letters(t, letters, sizeof(letters));
	json_object_object_add(k, "taint_end", json_object_new_int64((int64_t)t));
	json_object_object_add(k, "taint_end_flags", json_object_new_string(letters));
}

int run_json_write(struct run_state *rs, const char *status)
{
	struct strbuf err = STRBUF_INIT;
	char *path = xasprintf("%s/run.json", rs->env.label_dir);
	int ret;

	json_object_object_add(rs->run_json, "status", json_object_new_string(status));
	if (strcmp(status, "running")) {
		char ts[64];
		format_timestamp(now_realtime(), ts, sizeof(ts));
		json_object_object_add(rs->run_json, "finished", json_object_new_string(ts));
	}
	if (rs->env.facts)
		json_object_object_add(rs->run_json, "workload_facts", json_object_get(rs->env.facts));
	if (kernel_health_json(&rs->health)) {
		json_object_object_add(rs->run_json, "kernel_health",
				       json_object_get(kernel_health_json(&rs->health)));
		rs->health.changed = false;
	}
	if (rs->failed_ops)
		json_object_object_add(rs->run_json, "failed_ops", json_object_get(rs->failed_ops));
	if (rs->page_cache)
		json_object_object_add(rs->run_json, "page_cache", json_object_get(rs->page_cache));
	/* the deliberate settings (core/knobs.h): what was set, the value before
	 * and the one read back while the run held it; compare names them first */
	if (rs->knobs.n)
		json_object_object_add(rs->run_json, "settings", knob_set_json(&rs->knobs));
	if (strcmp(status, "running"))
		record_taint_end(rs->run_json);
	json_object_object_add(rs->run_json, "profile", profile_run_json(&rs->prof));
	json_object_object_add(rs->run_json, "monitors", monitor_run_json(&rs->mon));
	ret = json_save_file(path, rs->run_json, &err);
	if (ret)
		error("%s", strbuf_str(&err));
	strbuf_release(&err);
	free(path);
	return ret;
}
