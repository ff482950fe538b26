// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Phase 1 of a run (run_state.h): every error a run can report before it
 * creates anything -- the user's (exit 2) and the machine's (exit 3) -- so
 * that --dry-run, which stops after it, exits as the run would.
 */
#include "run/run_state.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "core/kernel_id.h"
#include "core/mount_ns.h"
#include "core/noise_file.h"
#include "profile/memcg_rates.h"

/* Would mkdir_p(dir) work? Checked on the nearest existing ancestor, so a bad
 * -o fails before anything is created. */
int run_state_check_outdir(const char *dir)
{
	char *p = xstrdup(dir);

	for (;;) {
		if (path_exists(p)) {
			int ok = is_dir(p) && access(p, W_OK | X_OK) == 0;
			if (!ok)
				error("results folder %s is not writable (%s: %s)", dir, p,
				      is_dir(p) ? strerror(EACCES) : "not a folder");
			free(p);
			return ok ? 0 : -1;
		}
		char *slash = strrchr(p, '/');
		if (!slash) {
			free(p);
			p = xstrdup(".");
		} else if (slash == p) {
			p[1] = '\0';
		} else {
			*slash = '\0';
		}
	}
}

static int check_label_dir(struct run_state *rs, json_object **old_run)
{
	char *runjson = xasprintf("%s/run.json", rs->env.label_dir);
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	*old_run = NULL;
	if (run_state_check_outdir(rs->outdir)) {
		ret = -1;
	} else if (!path_exists(rs->env.label_dir)) {
		if (rs->resume)
			ret = error("--resume: nothing to resume in %s (no such folder)", rs->env.label_dir);
	} else if (!is_dir(rs->env.label_dir) || !path_exists(runjson)) {
		/* --force removes a label folder, never what else may be there
		 * (-o /lib/modules --label "$(uname -r)" --force): issue 30 */
		ret = error("%s exists but is not a label folder (no run.json of lrubench in it): "
			    "pick another --label%s", rs->env.label_dir,
			    rs->force ? "; --force removes only label folders" : "");
	} else {
		json_object *o = json_load_file(runjson, &err), *st = NULL;
		const char *status = "?";

		if (!o || !json_object_object_get_ex(o, "schema", NULL)) {
			/* not lrubench's: never removed, --force or not */
			ret = !o ? error("%s", strbuf_str(&err))
				 : error("%s is not lrubench's run.json (no \"schema\"): %s is not "
					 "removed, --force or not", runjson, rs->env.label_dir);
		} else if (o) {
			if (json_object_object_get_ex(o, "status", &st))
				status = json_object_get_string(st);
			if (!strcmp(status, "complete") && !rs->force)
				ret = error("%s holds a complete run; use --force to overwrite it or pick another --label",
					    rs->env.label_dir);
			else if (strcmp(status, "complete") && !rs->force && !rs->resume)
				ret = error("%s holds a run that did not complete (status %s): --resume continues it, "
					    "--force starts over", rs->env.label_dir, status);
			else if (rs->resume && !strcmp(status, "complete"))
				ret = error("--resume: %s is already complete", rs->env.label_dir);
		}
		if (!ret && rs->resume)
			*old_run = o;
		else
			json_object_put(o);
	}
	strbuf_release(&err);
	free(runjson);
	return ret;
}

/* A resumed run continues on the kernel build the run began on: one label,
 * one kernel (unknown on either side: not held against it). */
static int check_resume_kernel(struct run_state *rs, json_object *old_run)
{
	json_object *sys, *k, *id;
	char now[129], *why;
	int ret = 0;

	if (!json_object_object_get_ex(old_run, "system", &sys) || !json_object_object_get_ex(sys, "kernel", &k) ||
	    !json_object_object_get_ex(k, "build_id", &id) || !json_object_is_type(id, json_type_string))
		return 0;
	if (!kernel_build_id_read(now, sizeof(now), &why) && strcmp(now, json_object_get_string(id)))
		ret = error("--resume: %s began on kernel build %s, this kernel is build %s: its results "
			    "would mix two kernels (--force starts over)", rs->env.label_dir,
			    json_object_get_string(id), now);
	free(why);
	return ret;
}

/* A resumed run must measure the same work as the one it continues. */
static int check_resume_config(struct run_state *rs, json_object *old_run)
{
	json_object *old_cfg, *new_cfg = config_to_json(rs->cfg);
	int ret = 0;

	if (check_resume_kernel(rs, old_run)) {
		json_object_put(new_cfg);
		return -1;
	}
	if (!json_object_object_get_ex(old_run, "config", &old_cfg)) {
		ret = error("--resume: %s/run.json has no config", rs->env.label_dir);
	} else if (!json_object_equal(old_cfg, new_cfg)) {
		struct strbuf d = STRBUF_INIT;
		json_object_object_foreach(new_cfg, sec, keys) {
			json_object *os = NULL;
			json_object_object_get_ex(old_cfg, sec, &os);
			json_object_object_foreach(keys, k, v) {
				json_object *ov = NULL;
				if (os)
					json_object_object_get_ex(os, k, &ov);
				if (!ov || strcmp(json_object_get_string(ov), json_object_get_string(v)))
					strbuf_addf(&d, "%s%s.%s=%s (was %s)", d.len ? ", " : "", sec, k,
						    json_object_get_string(v), ov ? json_object_get_string(ov) : "unset");
			}
		}
		ret = error("--resume: the config differs from the interrupted run in %s: %s",
			    rs->env.label_dir, d.len ? strbuf_str(&d) : "(workloads differ)");
		strbuf_release(&d);
	}
	json_object_put(new_cfg);
	return ret;
}

/* [settings]: every knob resolved, on this kernel and a setting (exit 3 or
 * 2), before the workloads' validation (which may refuse one of their own
 * knobs set here to another value). */
static int plan_settings(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	int ret = LB_EXIT_OK;

	rs->knobs.v = xcalloc(rs->cfg->nsettings ? rs->cfg->nsettings : 1, sizeof(*rs->knobs.v));
	rs->knobs.n = 0;
	for (size_t i = 0; i < rs->cfg->nsettings && !ret; i++) {
		const struct config_setting *s = &rs->cfg->settings[i];
		struct knob *k = &rs->knobs.v[rs->knobs.n];

		/* an axis' first value stands for it here; every value is tried below */
		if (knob_init(k, s->name, config_setting_value(s), s->origin, &err)) {
			ret = LB_EXIT_USAGE;
		} else if ((ret = knob_check(k->path, &err)) == LB_EXIT_OK) {
			char *comma = strchr(k->value, ',');

			if (comma)
				*comma = '\0';
			rs->knobs.n++;
		}
		if (ret)
			error("%s: settings.%s: %s", s->origin, s->name, strbuf_str(&err));
	}
	rs->env.settings = &rs->knobs;
	strbuf_release(&err);
	return ret;
}

/* Would the kernel take every value (each value of an axis too)? Written,
 * read back and restored at once, covered by a marker (core/knobs.h). */
static int try_settings(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	int ret = LB_EXIT_OK;

	for (size_t i = 0; i < rs->cfg->nsettings && !ret; i++) {
		const struct config_setting *s = &rs->cfg->settings[i];
		char **v;
		size_t n;

		v = split_commas(s->current ? s->current : s->value, &n);
		for (size_t j = 0; j < n && !ret; j++) {
			struct knob k;

			if (knob_init(&k, s->name, v[j], s->origin, &err) ||
			    (ret = knob_try(&k, rs->cfg->g.workdir, &err))) {
				ret = ret ? ret : LB_EXIT_USAGE;
				error("%s: settings.%s: %s", s->origin, s->name, strbuf_str(&err));
			}
		}
		free_strv(v);
	}
	strbuf_release(&err);
	return ret;
}

/* Every workload's probe (exit 3) and validation (exit 2, or 3). */
static int check_workloads(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	int ret = LB_EXIT_OK;

	for (size_t i = 0; i < rs->nwls && !ret; i++) {
		struct wl_ctx *c = &rs->ctxs[i];
		/* NULL for a row outside the table (a unit test's): the [global] counts */
		struct wl_common_opts *co = config_common(rs->cfg, rs->wls[i]->name);
		enum wl_status st;

		c->ops = rs->wls[i];
		c->env = &rs->env;
		c->opts = config_section(rs->cfg, c->ops->name);
		c->sec = config_find_section(rs->cfg, c->ops->name);
		c->iterations = !co || co->iterations == LB_INHERIT ? rs->cfg->g.iterations : co->iterations;
		c->warmup = !co || co->warmup == LB_INHERIT ? rs->cfg->g.warmup : co->warmup;
		if (c->ops->probe && (st = c->ops->probe(c, &err)) != WL_OK) {
			error("workload %s cannot run here: %s", c->ops->name, strbuf_str(&err));
			ret = wl_status_exit(st);
			break;
		}
		/* zeroed, and freed only after the cleanup registry ran (workload.h) */
		if (c->ops->priv_size)
			c->priv = xcalloc(1, c->ops->priv_size);
		if (c->ops->validate && (st = c->ops->validate(c, &err)) != WL_OK) {
			error("%s", err.len ? strbuf_str(&err) : "invalid configuration");
			ret = wl_status_exit(st);
		}
	}
	strbuf_release(&err);
	return ret;
}

/* iterations = auto: its keys fit together; run --baseline names a label
 * folder (the same one a resumed run had) and is read. */
static int prepare_adaptive(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	json_object *old = NULL, *old_run = rs->old_run;
	bool any = false;
	int ret = 0;

	for (size_t i = 0; i < rs->nwls; i++)
		any |= rs->ctxs[i].iterations == LB_AUTO;
	if (any && adaptive_plan_from_config(&rs->cfg->g, &rs->plan, &err))
		ret = error("%s", strbuf_str(&err));
	else if (rs->baseline_dir && !any)
		ret = error("--baseline %s: only iterations = auto (-i auto) stops on a baseline",
			    rs->baseline_dir);
	else if (old_run && (json_object_object_get_ex(old_run, "baseline", &old) || rs->baseline_dir) &&
		 (!old || !rs->baseline_dir || strcmp(json_object_get_string(old), rs->baseline_dir)))
		ret = error("--resume: the interrupted run in %s had %s%s, this one %s%s",
			    rs->env.label_dir, old ? "--baseline " : "no --baseline",
			    old ? json_object_get_string(old) : "",
			    rs->baseline_dir ? "--baseline " : "no --baseline",
			    rs->baseline_dir ? rs->baseline_dir : "");
	else if (rs->baseline_dir && !is_label_dir(rs->baseline_dir))
		ret = error("--baseline %s: not a label folder (it has no run.json)", rs->baseline_dir);
	if (!ret && rs->baseline_dir) {
		rs->baseline = xcalloc(1, sizeof(*rs->baseline));
		if (label_result_load(rs->baseline_dir, rs->baseline, &err))
			ret = error("--baseline: %s", strbuf_str(&err));
		if (!ret)
			rs->baseline_noise = noise_file_load(rs->baseline);
		/* a step's design is fixed before its first look: a resumed run
		 * holds the spread between runs it started with */
		if (!ret && old_run) {
			json_object *was = NULL;
			const char *now = noise_file_measured(rs->baseline_noise);

			json_object_object_get_ex(old_run, "baseline_noise_measured", &was);
			if ((was != NULL) != (now != NULL) ||
			    (was && strcmp(json_object_get_string(was), now)))
				ret = error("--resume: the noise.json beside the baseline changed since "
					    "the interrupted run (measured %s, now %s): its steps' "
					    "designs were fixed at their first look; run %s anew "
					    "with --force", was ? json_object_get_string(was) : "none",
					    now ? now : "none", rs->env.label_dir);
		}
		for (size_t i = 0; !ret && i < rs->nwls; i++) {
			const char *name = rs->ctxs[i].ops->name;
			size_t runs;

			if (rs->ctxs[i].iterations != LB_AUTO)
				continue;
			if (!label_result_find(rs->baseline, name)) {
				warning("--baseline %s has no %s results: its steps stop on precision alone",
					rs->baseline_dir, name);
				continue;
			}
			/* what the sequential alpha covers (issue 23): two runs of one
			 * kernel differ by more than their iterations do */
			runs = noise_file_runs(rs->baseline_noise, rs->baseline->run, name);
			if (runs)
				info("%s: the spread between runs measured by lrubench noise --runs %zu "
				     "beside the baseline is in every change's interval", name, runs);
			else
				warning("%s: no spread between runs measured beside the baseline "
					"(lrubench noise --runs 8 with its config, in its results folder): "
					"a \"decided\" holds for these two runs only", name);
		}
	}
	strbuf_release(&err);
	return ret;
}

int run_check(struct run_state *rs)
{
	struct strbuf err = STRBUF_INIT;
	int ret = LB_EXIT_OK;

	rs->env.sys = rs->sys;
	rs->env.g = &rs->cfg->g;
	rs->env.label_dir = xasprintf("%s/%s", rs->outdir, rs->label);
	rs->env.log_dir = xasprintf("%s/logs", rs->env.label_dir);
	rs->env.cg = &rs->cg;
	/* a workload's memcg facts become tables here, in profile/ (§1) */
	rs->env.memcg_tables = memcg_report_tables;
	rs->started = now_realtime();
	rs->ctxs = xcalloc(rs->nwls, sizeof(*rs->ctxs));
	rs->res = xcalloc(rs->nwls, sizeof(*rs->res));
	rs->summaries = xcalloc(rs->nwls, sizeof(*rs->summaries));

	/* a work folder another user made or can write: refused (issue 30) */
	if (path_exists(rs->cfg->g.workdir) && check_private_dir(rs->cfg->g.workdir)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	/* knobs a SIGKILLed run changed go back before anything else, whatever
	 * this run then finds wrong (core/knobs.h) */
	if (path_exists(rs->cfg->g.workdir))
		knobs_recover(rs->cfg->g.workdir);
	/* user errors first */
	if (check_label_dir(rs, &rs->old_run) || (rs->old_run && check_resume_config(rs, rs->old_run))) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (cg_discover(&rs->cg, rs->mounts ? rs->mounts : "/proc/mounts",
			rs->cg_prefix ? rs->cg_prefix : "", &err)) {
		rs->cg.mode = CG_NONE;
		strbuf_reset(&err);
	}
	if ((ret = plan_settings(rs)) || (ret = check_workloads(rs)))
		goto out;
	/* iterations = auto and --baseline: user errors too */
	if (prepare_adaptive(rs)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	/* an unknown monitor is a config error */
	if (monitor_run_init(&rs->mon, rs->cfg->g.monitors, rs->cfg->g.monitor_interval, &err)) {
		error("%s", strbuf_str(&err));
		ret = LB_EXIT_USAGE;
		goto out;
	}
	/* a requested profile this machine cannot make is exit 3 */
	if ((ret = profile_run_init(&rs->prof, (enum profile_kind)rs->cfg->g.profile,
				    (unsigned)rs->cfg->g.profile_passes)))
		goto out;
	/* every value given is tried */
	if ((ret = try_settings(rs)))
		goto out;
	/* a chroot whose / is not a mount point: refused */
	if (mount_ns_check(rs->cfg->g.workdir, &err)) {
		error("%s", strbuf_str(&err));
		ret = LB_EXIT_UNSUPPORTED;
	}
out:
	strbuf_release(&err);
	return ret;
}
