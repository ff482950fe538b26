// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's side of profiling (profile.h): capability check, the always-on
 * counters of every timed iteration, and the profile pass of every step.
 */
#include "profile/profile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "profile/lock_stat.h"
#include "profile/perf_c2c.h"
#include "profile/perf_cpu.h"
#include "profile/perf_lock.h"
#include "profile/perf_record.h"
#include "profile/perf_script.h"
#include "profile/perf_stat.h"
#include "profile/reclaim_latency.h"
#include "profile/tracefs.h"

#define TOP_LOCKS 10
#define TOP_SYMBOLS 15
#define CPU_SYMBOLS_MAX 200   /* per pass, for the differential profile */
#define REPORT_SECONDS 600.0   /* perf lock contention over a big perf.data is slow */

/* ---- set-up ---- */

int profile_run_init(struct profile_run *pr, enum profile_kind kind, unsigned passes)
{
	struct strbuf why = STRBUF_INIT;

	memset(pr, 0, sizeof(*pr));
	pr->kind = kind;
	pr->passes = passes ? passes : 1;
	if (kind == PROFILE_NONE)
		return 0;
	profile_caps_probe(&pr->caps);
	snprintf(pr->perf_version, sizeof(pr->perf_version), "%s", pr->caps.perf_version);
	if (profile_caps_allow(&pr->caps, kind, &pr->lock_via_perf, &why)) {
		error("%s", why.buf);
		strbuf_release(&why);
		return LB_EXIT_UNSUPPORTED;
	}
	if ((kind == PROFILE_LOCK || kind == PROFILE_ALL) && !pr->lock_via_perf)
		info("profile: lock contention from /proc/lock_stat (perf's lock tracepoints: %s)",
		     !pr->caps.perf_ok ? pr->caps.perf_why.buf
		     : !pr->caps.tracefs_ok ? pr->caps.tracefs_why.buf : pr->caps.tracepoints_why.buf);
	pr->reclaim_pairs = pr->caps.reclaim_pairs;
	snprintf(pr->reclaim_why, sizeof(pr->reclaim_why), "%s", pr->caps.reclaim_why.buf);
	if (kind == PROFILE_RECLAIM && pr->caps.reclaim_why.len)
		info("profile: reclaim latency: %s", pr->caps.reclaim_why.buf);
	strbuf_release(&why);
	return 0;
}

static char *cpu_list(const cpu_set_t *set)
{
	struct strbuf sb = STRBUF_INIT;

	for (int c = 0; c < CPU_SETSIZE; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		strbuf_addf(&sb, sb.len ? ",%d" : "%d", c);
		if (e > c)
			strbuf_addf(&sb, "-%d", e);
		c = e;
	}
	return strbuf_detach(&sb);
}

int profile_run_setup(struct profile_run *pr, struct run_env *env, const char *mounts)
{
	pr->env = env;
	cpu_acct_setup(&pr->acct, env->cg, env->run_cg, mounts);
	pr->cpu_source = cpu_acct_source(&pr->acct);
	if (env->bind.node >= 0 && CPU_COUNT(&env->bind.cpus) > 0) {
		pr->cpus = &env->bind.cpus;
		pr->cpu_list = cpu_list(&env->bind.cpus);
	}
	if ((pr->lock_via_perf || pr->kind == PROFILE_RECLAIM) && !pr->caps.tracefs) {
		struct strbuf why = STRBUF_INIT;

		/* we are in the run's own mount namespace (run/workloads.c): nobody else sees it */
		if (tracefs_mount(TRACEFS_DEFAULT, &pr->tracefs_id, &why)) {
			error("profile: %s", why.buf);
			strbuf_release(&why);
			return -1;
		}
		strbuf_release(&why);
		pr->tracefs_dir = xstrdup(TRACEFS_DEFAULT);
	}
	if (pr->kind == PROFILE_RECLAIM)
		/* instances of runs killed by SIGKILL, which no registry undoes */
		rl_sweep_stale(pr->tracefs_dir ? pr->tracefs_dir : pr->caps.tracefs);
	if ((pr->kind == PROFILE_LOCK || pr->kind == PROFILE_ALL) && !pr->lock_via_perf) {
		struct strbuf why = STRBUF_INIT;
		int r = lock_stat_enable(&pr->lock_stat_id, &why);

		if (r)
			error("profile: %s", why.buf);
		strbuf_release(&why);
		if (r)
			return -1;
	}
	return 0;
}

void profile_run_release(struct profile_run *pr)
{
	if (pr->tracefs_id > 0)
		cleanup_pop(pr->tracefs_id, true);
	if (pr->lock_stat_id > 0)
		cleanup_pop(pr->lock_stat_id, true);
	pr->tracefs_id = pr->lock_stat_id = 0;
	cpu_acct_release(&pr->acct);
	profile_caps_release(&pr->caps);
	free(pr->cpu_list);
	free(pr->tracefs_dir);
	pr->cpu_list = pr->tracefs_dir = NULL;
}

bool profile_wanted(const struct profile_run *pr)
{
	return pr && pr->kind != PROFILE_NONE;
}

json_object *profile_run_json(const struct profile_run *pr)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kind", json_object_new_string(profile_kind_names[pr->kind]));
	if (pr->kind == PROFILE_LOCK || pr->kind == PROFILE_ALL)
		json_object_object_add(o, "lock_source", json_object_new_string(
					       pr->lock_via_perf ? "perf lock contention" : "lock_stat"));
	if (pr->perf_version[0])
		json_object_object_add(o, "perf_version", json_object_new_string(pr->perf_version));
	if (pr->cpu_source)
		json_object_object_add(o, "cpu_source", json_object_new_string(pr->cpu_source));
	if (pr->cpu_list)
		json_object_object_add(o, "cpus", json_object_new_string(pr->cpu_list));
	if (pr->kind == PROFILE_RECLAIM) {
		json_object *a = json_object_new_array();

		for (unsigned i = 0; i < RL_NPAIRS; i++)
			if (pr->reclaim_pairs & (1u << i))
				json_object_array_add(a, json_object_new_string(rl_pairs[i].name));
		json_object_object_add(o, "reclaim_pairs", a);
		if (pr->reclaim_why[0])
			json_object_object_add(o, "reclaim_not_available",
					       json_object_new_string(pr->reclaim_why));
	}
	json_object_object_add(o, "passes", json_object_new_int((int)pr->passes));
	json_object_object_add(o, "failed_steps", json_object_new_int((int)pr->failed));
	return o;
}

/* ---- the always-on counters ---- */

void profile_iter_begin(struct profile_run *pr, struct iter_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->have_vm = !counters_read("/proc/vmstat", &c->vm);
	cpu_sample_take(&pr->acct, pr->cpus, &c->cpu);
}

void profile_iter_release(struct iter_counters *c)
{
	counters_release(&c->vm);
}

struct result_table *profile_table(struct wl_result *res, const char *title, const char *unit,
				   int better)
{
	struct result_table *t = wl_result_explaining_table(res, title, unit, better);

	for (size_t i = 0; i < res->ntables && !t->x_known; i++)
		if (!res->tables[i].explains && res->tables[i].x_known)
			result_table_set_x_axis(t, res->tables[i].x_name, res->tables[i].x_unit);
	return t;
}

static void sample(struct wl_result *res, const char *workload, const char *what, const char *unit,
		   int better, const char *op, double v)
{
	char *title = xasprintf("%s %s", workload, what);

	result_table_add(profile_table(res, title, unit, better), op, v);
	free(title);
}

/* the /proc/vmstat rates into tables and a JSON object of the deltas */
static json_object *vmstat_rates(const struct counters *b, const struct counters *a, double wall,
				 const char *workload, const char *op, struct wl_result *res)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < reclaim_rates_count; i++) {
		const struct reclaim_rate *r = &reclaim_rates[i];
		unsigned long long x, y;
		char what[96];

		if (!reclaim_value(r->vmstat, b, &x) || !reclaim_value(r->vmstat, a, &y))
			continue;
		json_object_object_add(o, r->name, json_object_new_int64((int64_t)(y >= x ? y - x : 0)));
		if (res) {
			snprintf(what, sizeof(what), "vmstat %s/s", r->name);
			sample(res, workload, what, "pages/s", BETTER_LOWER, op,
			       y >= x ? (double)(y - x) / wall : 0);
		}
	}
	return o;
}

/* The counters' JSON; samples into res when res is not NULL. */
static json_object *counters_result(struct profile_run *pr, struct iter_counters *b,
				    const char *workload, const char *op, struct wl_result *res)
{
	struct iter_counters a;
	struct cpu_split sp;
	json_object *o = json_object_new_object();

	memset(&a, 0, sizeof(a));
	cpu_sample_take(&pr->acct, pr->cpus, &a.cpu);
	a.have_vm = b->have_vm && !counters_read("/proc/vmstat", &a.vm);
	if (!cpu_split_compute(&b->cpu, &a.cpu, &sp)) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "user", json_object_new_double(sp.user));
		json_object_object_add(c, "sys", json_object_new_double(sp.sys));
		json_object_object_add(c, "irq", json_object_new_double(sp.irq));
		json_object_object_add(c, "softirq", json_object_new_double(sp.softirq));
		json_object_object_add(c, "iowait", json_object_new_double(sp.iowait));
		json_object_object_add(c, "steal", json_object_new_double(sp.steal));
		json_object_object_add(c, "cpus", json_object_new_int(sp.ncpus));
		json_object_object_add(c, "user_sys_source", json_object_new_string(
					       sp.from_cgroup ? cpu_acct_source(&pr->acct)
							      : "/proc/stat of the bound CPUs"));
		json_object_object_add(o, "cpu_percent", c);
		if (res) {
			sample(res, workload, "user CPU %", "%", BETTER_LOWER, op, sp.user);
			sample(res, workload, "sys CPU %", "%", BETTER_LOWER, op, sp.sys);
			sample(res, workload, "irq CPU %", "%", BETTER_LOWER, op, sp.irq);
			sample(res, workload, "softirq CPU %", "%", BETTER_LOWER, op, sp.softirq);
			sample(res, workload, "iowait CPU %", "%", BETTER_LOWER, op, sp.iowait);
		}
	}
	if (sp.wall > 0) {
		json_object_object_add(o, "seconds", json_object_new_double(sp.wall));
		if (a.have_vm)
			json_object_object_add(o, "vmstat_delta",
					       vmstat_rates(&b->vm, &a.vm, sp.wall, workload, op, res));
	}
	profile_iter_release(&a);
	return o;
}

void profile_iter_end(struct profile_run *pr, struct iter_counters *c, const char *workload,
		      const char *step, int iteration, struct wl_result *res, json_object *details)
{
	json_object *counters = counters_result(pr, c, workload, step, res), *d;

	/* into the iteration's own detail, so a workload keeps one detail per
	 * iteration; a new entry only when the workload made none */
	if (json_object_array_length(details) > 0) {
		d = json_object_array_get_idx(details, 0);
		json_object_object_add(d, "counters", counters);
	} else {
		d = json_object_new_object();
		json_object_object_add(d, "step", json_object_new_string(step));
		json_object_object_add(d, "iteration", json_object_new_int(iteration));
		json_object_object_add(d, "counters", counters);
		json_object_array_add(details, d);
	}
	profile_iter_release(c);
}

/* ---- fairness, for workloads with several memcgs ---- */

void wl_sample_fairness(struct wl_samples *s, const char *op, const double *x, size_t n)
{
	char *t1, *t2;
	double lo = INFINITY, hi = 0;

	if (s->discard || !n)
		return;
	for (size_t i = 0; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	t1 = xasprintf("%s fairness", s->res->workload);
	t2 = xasprintf("%s fairness min/max", s->res->workload);
	result_table_add(profile_table(s->res, t1, "Jain index", BETTER_HIGHER), op, jain_index(x, n));
	result_table_add(profile_table(s->res, t2, "ratio", BETTER_HIGHER), op, hi > 0 ? lo / hi : 0);
	free(t1);
	free(t2);
}

/* ---- the profile pass ---- */

struct pass {
	struct profile_run *pr;
	struct wl_ctx *ctx;
	const char *step;
	unsigned no;             /* this pass, 1..pr->passes */
	json_object *d;          /* the "profile" object */
	struct strbuf why;       /* the first failure */
	struct perf_record lock, cpu, stat, c2c;
	struct lock_stat_snapshot ls_before;
	struct rl_session *rl;   /* profile=reclaim */
	bool want_reclaim;
	bool want_lock, want_cpu, want_counters, lock_started, cpu_started, stat_started, ls_started;
	bool want_c2c, c2c_started;
};

static void fail(struct pass *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct pass *p, const char *fmt, ...)
{
	va_list ap;

	if (p->why.len)
		return;   /* the first reason is the one that matters */
	va_start(ap, fmt);
	strbuf_vaddf(&p->why, fmt, ap);
	va_end(ap);
}

/* profile-<workload>-<step>[-pass<k>]-<what>: the pass's own file when there are several */
static char *pass_log(const struct pass *p, const char *what)
{
	char k[32] = "";

	if (p->pr->passes > 1 && p->no > 1)
		snprintf(k, sizeof(k), "-pass%u", p->no);
	return env_log_path(p->pr->env, "profile-%s-%s%s-%s", p->ctx->ops->name, p->step, k, what);
}

static char *log_rel(const char *abs)
{
	const char *s = strstr(abs, "/logs/");

	return xstrdup(s ? s + 1 : abs);
}

/* Start one perf recorder of the pass (KIND: "lock" or "cpu"): its log is
 * profile-<workload>-<step>-<kind>-record.log. true when it runs. */
static bool start_recorder(struct pass *p, struct perf_record *r, const char *what,
			   const char *kind, const char *const *sub)
{
	struct profile_run *pr = p->pr;
	struct strbuf why = STRBUF_INIT;
	char *what_log = xasprintf("%s-record.log", kind);
	char *log = pass_log(p, what_log);
	char *name = xasprintf("profile-%s-%s", kind, p->step);
	bool ok;

	r->what = what;
	ok = !perf_record_start(r, pr->caps.perf, sub, pr->env->run_workdir, name, log, &why);
	if (!ok)
		fail(p, "%s", why.buf);
	strbuf_release(&why);
	free(what_log);
	free(log);
	free(name);
	return ok;
}

static void start_profilers(struct pass *p)
{
	struct profile_run *pr = p->pr;

	if (p->want_lock && pr->lock_via_perf) {
		const char *sub[] = { "lock", "record", "-a", "-B", pr->cpu_list ? "-C" : NULL,
				      pr->cpu_list, NULL };

		p->lock_started = start_recorder(p, &p->lock, "perf lock record", "lock", sub);
	} else if (p->want_lock) {
		struct strbuf err = STRBUF_INIT;

		if (lock_stat_read("/proc/lock_stat", &p->ls_before, &err))
			fail(p, "%s", err.buf);
		else
			p->ls_started = true;
		strbuf_release(&err);
	}
	if (p->want_cpu && !p->why.len) {
		/* -g: the call chains of the differential profile and flame graphs */
		const char *sub[] = { "record", "-a", "-B", "-g", "-F", "499", pr->cpu_list ? "-C" : NULL,
				      pr->cpu_list, NULL };

		p->cpu_started = start_recorder(p, &p->cpu, "perf record", "cpu", sub);
	}
	if (p->want_counters && !p->why.len) {
		const char *sub[] = { "stat", "-a", "-x", ",", "-e", pr->caps.counters_events,
				      pr->cpu_list ? "-C" : NULL, pr->cpu_list, NULL };

		p->stat.sigint_stop = true;
		p->stat_started = start_recorder(p, &p->stat, "perf stat", "counters", sub);
	}
	if (p->want_c2c && !p->why.len) {
		/* perf c2c record passes what follows "--" to perf record (and so do
		 * perf_record_start's -o, -D and --control after it) */
		const char *sub[] = { "c2c", "record", "--", "-a", pr->cpu_list ? "-C" : NULL,
				      pr->cpu_list, NULL };

		p->c2c_started = start_recorder(p, &p->c2c, "perf c2c record", "c2c", sub);
	}
	if (p->want_reclaim && !p->why.len) {
		struct strbuf why = STRBUF_INIT;

		if (rl_start(&p->rl, pr->tracefs_dir ? pr->tracefs_dir : pr->caps.tracefs,
			     pr->caps.reclaim_pairs, &why))
			fail(p, "%s", why.buf);
		strbuf_release(&why);
	}
}

static void stop_profilers(struct pass *p)
{
	struct strbuf why = STRBUF_INIT;

	if (p->lock_started && perf_record_stop(&p->lock, &why))
		fail(p, "%s", why.buf);
	strbuf_reset(&why);
	if (p->cpu_started && perf_record_stop(&p->cpu, &why))
		fail(p, "%s", why.buf);
	strbuf_reset(&why);
	if (p->stat_started && perf_record_stop(&p->stat, &why))
		fail(p, "%s", why.buf);
	strbuf_reset(&why);
	if (p->c2c_started && perf_record_stop(&p->c2c, &why))
		fail(p, "%s", why.buf);
	strbuf_reset(&why);
	if (p->rl && rl_stop(p->rl, &why))
		fail(p, "%s", why.buf);
	strbuf_release(&why);
}

static void lock_tables(struct pass *p, struct lock_report *rep, struct wl_result *res)
{
	struct lru_lock_summary lru;
	json_object *o = json_object_new_object();
	const char *wl = p->ctx->ops->name;

	lock_report_merge(rep);
	lock_report_lru(rep, &lru);
	sample(res, wl, "lru_lock wait", "ms", BETTER_LOWER, p->step, lru.wait_total_ms);
	sample(res, wl, "lru_lock contended", "count", BETTER_LOWER, p->step, (double)lru.contended);
	json_object_object_add(o, "source", json_object_new_string(rep->source));
	json_object_object_add(o, "contended", json_object_new_int64((int64_t)lru.contended));
	json_object_object_add(o, "wait_total_ms", json_object_new_double(lru.wait_total_ms));
	json_object_object_add(o, "wait_max_ms", json_object_new_double(lru.wait_max_ms));
	json_object_object_add(o, "callers_matched", json_object_new_int((int)lru.callers));
	json_object_object_add(p->d, "lru_lock", o);
	json_object_object_add(p->d, "top_locks", lock_report_top_json(rep, TOP_LOCKS));
	if (rep->total >= 0) {
		json_object_object_add(p->d, "perf_bad", json_object_new_int64(rep->bad));
		json_object_object_add(p->d, "perf_total", json_object_new_int64(rep->total));
	}
}

static void read_lock(struct pass *p, struct wl_result *res)
{
	struct profile_run *pr = p->pr;
	struct lock_report rep;
	struct strbuf why = STRBUF_INIT;

	if (p->ls_started) {
		struct lock_stat_snapshot after;

		if (lock_stat_read("/proc/lock_stat", &after, &why)) {
			fail(p, "%s", why.buf);
		} else {
			lock_stat_diff(&p->ls_before, &after, &rep);
			lock_tables(p, &rep, res);
			lock_report_release(&rep);
			lock_stat_release(&after);
		}
	} else if (p->lock_started) {
		char *out = pass_log(p, "lock.txt");
		/* -v: each row's call stack, to see which function took the lock */
		const char *args[] = { "lock", "contention", "-i", p->lock.data, "-v", NULL };
		char *text;

		char *rel = log_rel(out);

		json_object_object_add(p->d, "perf_output", json_object_new_string(rel));
		free(rel);
		if (perf_run_report(pr->caps.perf, args, out, REPORT_SECONDS, &why)) {
			fail(p, "%s", why.buf);
		} else if (!(text = read_file_str(out, NULL))) {
			fail(p, "cannot read %s: %s", out, strerror(errno));
		} else {
			if (perf_lock_parse(text, pr->caps.perf_version, &rep, &why))
				fail(p, "%s", why.buf);
			else {
				lock_tables(p, &rep, res);
				lock_report_release(&rep);
			}
			free(text);
		}
		free(out);
	}
	strbuf_release(&why);
}

/* The call chains: perf script, folded by perf_script.c into
 * logs/profile-<workload>-<step>[-pass<k>]-cpu.folded (core/folded.h: under
 * 1 MiB), and the per-symbol shares into the pass's "cpu_symbols". */
static void read_stacks(struct pass *p)
{
	struct profile_run *pr = p->pr;
	char *out = pass_log(p, "cpu-script.txt"), *fpath = pass_log(p, "cpu.folded");
	const char *args[] = { "script", "-i", p->cpu.data, "-F", "comm,ip,sym,dso", NULL };
	struct strbuf why = STRBUF_INIT;
	struct perf_fold_info info;
	struct folded f;
	size_t len, kept;
	char *text = NULL, *rel;

	if (perf_run_report_stdout(pr->caps.perf, args, out, REPORT_SECONDS, &why)) {
		fail(p, "%s", why.buf);
	} else if (!(text = read_regular_file(out, PERF_SCRIPT_FILE_MAX, 0, &len, &why))) {
		fail(p, "perf script's output: %s", why.buf);
	} else if (perf_script_fold(text, len, &f, &info, &why)) {
		fail(p, "%s", why.buf);
	} else {
		folded_sort(&f);
		json_object_object_add(p->d, "cpu_symbols", perf_symbol_shares_json(&f, 0.01, CPU_SYMBOLS_MAX));
		json_object_object_add(p->d, "cpu_samples", json_object_new_int64((int64_t)f.total));
		if (info.kernel_frames && info.kernel_unnamed * 2 > info.kernel_frames)
			json_object_object_add(p->d, "cpu_symbols_note", json_object_new_string(
				"perf could not name most kernel frames (no access to kallsyms or vmlinux): "
				"their addresses are kept"));
		if (folded_write(&f, fpath, FOLDED_FILE_MAX, &kept, &why)) {
			fail(p, "%s", why.buf);
		} else {
			rel = log_rel(fpath);
			json_object_object_add(p->d, "folded", json_object_new_string(rel));
			json_object_object_add(p->d, "folded_stacks", json_object_new_int64((int64_t)kept));
			json_object_object_add(p->d, "folded_stacks_all", json_object_new_int64((int64_t)f.n));
			free(rel);
		}
		folded_release(&f);
	}
	/* the folded file keeps what perf script said; its own output is large */
	if (!p->why.len)
		unlink(out);
	free(text);
	free(out);
	free(fpath);
	strbuf_release(&why);
}

static void read_cpu(struct pass *p, struct wl_result *res)
{
	struct profile_run *pr = p->pr;
	char *out = pass_log(p, "cpu.txt");
	/* -g none: the chains are read by perf script (read_stacks) */
	const char *args[] = { "report", "-i", p->cpu.data, "--stdio", "--no-children", "-g", "none",
			       "--sort", "sym", "--percent-limit", "0.1", NULL };
	struct strbuf why = STRBUF_INIT;
	struct cpu_profile cp;
	char *text, *rel = log_rel(out);

	json_object_object_add(p->d, "perf_cpu_output", json_object_new_string(rel));
	free(rel);
	if (perf_run_report_stdout(pr->caps.perf, args, out, REPORT_SECONDS, &why)) {
		fail(p, "%s", why.buf);
	} else if (!(text = read_file_str(out, NULL))) {
		fail(p, "cannot read %s: %s", out, strerror(errno));
	} else {
		if (perf_cpu_parse(text, pr->caps.perf_version, &cp, &why)) {
			fail(p, "%s", why.buf);
		} else {
			sample(res, p->ctx->ops->name, "spinlock CPU %", "%", BETTER_LOWER, p->step,
			       cp.spin_pct);
			json_object_object_add(p->d, "spinlock_cpu_percent", json_object_new_double(cp.spin_pct));
			json_object_object_add(p->d, "top_symbols", cpu_profile_top_json(&cp, TOP_SYMBOLS));
			cpu_profile_release(&cp);
		}
		free(text);
	}
	free(out);
	strbuf_release(&why);
	if (!p->why.len)
		read_stacks(p);
}

/* perf stat's counts into "<workload> <event>" tables, IPC and the cache
 * miss ratio when both of their events were counted; perf's output kept in
 * logs/profile-<workload>-<step>-counters.txt. */
static void read_counters(struct pass *p, struct wl_result *res)
{
	const char *wl = p->ctx->ops->name;
	char *out = pass_log(p, "counters.txt"), *rel = log_rel(out), *text;
	struct strbuf why = STRBUF_INIT;
	struct perf_stat_report rep;
	size_t len;
	double a, b;

	json_object_object_add(p->d, "perf_counters_output", json_object_new_string(rel));
	free(rel);
	text = read_regular_file(p->stat.data, 1 << 20, 0, &len, &why);
	if (!text) {
		fail(p, "perf stat's output: %s", why.buf);
	} else if (write_file_atomic(out, text, len)) {
		fail(p, "cannot write %s: %s", out, strerror(errno));
	} else if (perf_stat_parse(text, &rep, &why)) {
		fail(p, "%s", why.buf);
	} else {
		for (size_t i = 0; i < rep.n; i++)
			if (rep.ev[i].counted)
				sample(res, wl, rep.ev[i].name, rep.ev[i].unit[0] ? rep.ev[i].unit : "count",
				       BETTER_LOWER, p->step, rep.ev[i].value);
		if (perf_stat_value(&rep, "instructions", &a) && perf_stat_value(&rep, "cycles", &b) &&
		    b > 0)
			sample(res, wl, "IPC", "instructions/cycle", BETTER_HIGHER, p->step, a / b);
		if (perf_stat_value(&rep, "cache-misses", &a) &&
		    perf_stat_value(&rep, "cache-references", &b) && b > 0)
			sample(res, wl, "cache miss %", "%", BETTER_LOWER, p->step, 100 * a / b);
		json_object_object_add(p->d, "counters_hw", perf_stat_json(&rep));
	}
	free(text);
	free(out);
	strbuf_release(&why);
}

/* perf c2c report's HITMs into "<workload> c2c HITM" and "<workload> c2c
 * remote HITM" (sampled loads), the top data addresses and symbols into the
 * pass's "c2c"; perf's report kept in logs/profile-<workload>-<step>-c2c.txt. */
static void read_c2c(struct pass *p, struct wl_result *res)
{
	struct profile_run *pr = p->pr;
	char *out = pass_log(p, "c2c.txt"), *rel = log_rel(out), *text;
	const char *args[] = { "c2c", "report", "-i", p->c2c.data, "--stdio", "-d", "tot", "-c", "iaddr",
			       "--no-source", "--full-symbols", NULL };
	struct strbuf why = STRBUF_INIT;
	struct c2c_report rep;
	size_t len;

	json_object_object_add(p->d, "perf_c2c_output", json_object_new_string(rel));
	free(rel);
	if (perf_run_report(pr->caps.perf, args, out, REPORT_SECONDS, &why)) {
		fail(p, "%s", why.buf);
	} else if (!(text = read_regular_file(out, PERF_C2C_FILE_MAX, 0, &len, &why))) {
		fail(p, "perf c2c report's output: %s", why.buf);
	} else {
		if (perf_c2c_parse(text, len, pr->caps.perf_version, &rep, &why)) {
			fail(p, "%s", why.buf);
		} else {
			sample(res, p->ctx->ops->name, "c2c HITM", "samples", BETTER_LOWER, p->step,
			       (double)(rep.hitm_local + rep.hitm_remote));
			sample(res, p->ctx->ops->name, "c2c remote HITM", "samples", BETTER_LOWER, p->step,
			       (double)rep.hitm_remote);
			json_object_object_add(p->d, "c2c", c2c_report_json(&rep, PERF_C2C_TOP));
			c2c_report_release(&rep);
		}
		free(text);
	}
	free(out);
	strbuf_release(&why);
}

/* The profiled iteration's own samples, each with its ratio to the timed mean. */
static json_object *throughput(const struct wl_result *staging, const struct wl_result *res)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < staging->ntables; i++) {
		const struct result_table *t = &staging->tables[i];
		const struct result_table *timed = wl_result_find_table(res, t->title);

		for (size_t j = 0; j < t->nops; j++) {
			const struct op_samples *tos = timed ? result_table_find_op(timed, t->ops[j].op) : NULL;
			double mean = 0, v;
			json_object *o;

			/* latency tables hold thousands of samples per op: their mean */
			v = 0;
			for (size_t k = 0; k < t->ops[j].n; k++)
				v += t->ops[j].v[k] / (double)t->ops[j].n;
			for (size_t k = 0; tos && k < tos->n; k++)
				mean += tos->v[k] / (double)tos->n;
			o = json_object_new_object();
			json_object_object_add(o, "table", json_object_new_string(t->title));
			json_object_object_add(o, "op", json_object_new_string(t->ops[j].op));
			json_object_object_add(o, "value", json_object_new_double(v));
			if (tos && tos->n) {
				json_object_object_add(o, "timed_mean", json_object_new_double(mean));
				if (mean != 0)
					json_object_object_add(o, "ratio", json_object_new_double(v / mean));
			}
			json_object_array_add(a, o);
		}
	}
	return a;
}

/* One profiled pass (no of pr->passes) of step. */
static enum wl_status one_pass(struct profile_run *pr, struct wl_ctx *ctx, size_t step,
			       struct wl_result *res, unsigned no)
{
	struct pass p;
	struct wl_result staging = { 0 };
	struct wl_samples smp;
	struct iter_counters ic;
	json_object *entry;
	double t0;
	enum wl_status r, ret = WL_OK;

	memset(&p, 0, sizeof(p));
	p.pr = pr;
	p.ctx = ctx;
	p.step = ctx->steps[step];
	p.no = no;
	p.d = json_object_new_object();
	strbuf_init(&p.why);
	p.want_lock = pr->kind == PROFILE_LOCK || pr->kind == PROFILE_ALL;
	p.want_cpu = pr->kind == PROFILE_CPU || pr->kind == PROFILE_ALL;
	p.want_counters = pr->kind == PROFILE_COUNTERS;
	p.want_reclaim = pr->kind == PROFILE_RECLAIM;
	p.want_c2c = pr->kind == PROFILE_C2C;
	json_object_object_add(p.d, "kind", json_object_new_string(profile_kind_names[pr->kind]));
	if (pr->caps.perf_version[0])
		json_object_object_add(p.d, "perf_version", json_object_new_string(pr->caps.perf_version));
	json_object_object_add(p.d, "pass", json_object_new_int((int)no));
	json_object_object_add(p.d, "passes", json_object_new_int((int)pr->passes));
	if (pr->passes > 1)
		info("%s: %s: profile pass %u/%u (profile=%s), not timed", ctx->ops->name, p.step, no,
		     pr->passes, profile_kind_names[pr->kind]);
	else
		info("%s: %s: profile pass (profile=%s), not timed", ctx->ops->name, p.step,
		     profile_kind_names[pr->kind]);

	if (env_drop_caches(pr->env))
		fail(&p, "cannot drop the page cache before the profiled iteration");
	if (!p.why.len)
		start_profilers(&p);
	if (!p.why.len) {
		staging.workload = xstrdup(ctx->ops->name);
		smp = (struct wl_samples){ &staging, ctx->ops->tables, p.step, (int)ctx->iterations, false,
					   0, json_object_new_array() };
		profile_iter_begin(pr, &ic);
		t0 = now_monotonic();
		r = ctx->ops->run_step(ctx, step, &smp);
		json_object_object_add(p.d, "seconds", json_object_new_double(now_monotonic() - t0));
		json_object_object_add(p.d, "counters", counters_result(pr, &ic, ctx->ops->name, p.step, NULL));
		profile_iter_release(&ic);
		if (r == WL_INTERRUPTED || lb_stop_requested()) {
			ret = WL_INTERRUPTED;
		} else {
			stop_profilers(&p);
			if (r)
				fail(&p, "the profiled iteration itself failed");
			json_object_object_add(p.d, "throughput", throughput(&staging, res));
			json_object_object_add(p.d, "workload_details", json_object_get(smp.pending_details));
			if (!p.why.len && p.want_lock)
				read_lock(&p, res);
			if (!p.why.len && p.want_cpu && p.cpu_started)
				read_cpu(&p, res);
			if (!p.why.len && p.want_counters && p.stat_started)
				read_counters(&p, res);
			if (!p.why.len && p.want_c2c && p.c2c_started)
				read_c2c(&p, res);
			if (!p.why.len && p.rl) {
				rl_results(p.rl, ctx->ops->name, p.step, res, p.d);
				if (pr->caps.reclaim_why.len)
					json_object_object_add(json_object_object_get(p.d, "reclaim_latency"),
							       "not_available", json_object_new_string(
								       pr->caps.reclaim_why.buf));
			}
		}
		json_object_put(smp.pending_details);
		wl_result_release(&staging);
	}
	perf_record_release(&p.lock);
	perf_record_release(&p.cpu);
	perf_record_release(&p.stat);
	perf_record_release(&p.c2c);
	rl_release(p.rl);
	lock_stat_release(&p.ls_before);
	if (ret == WL_INTERRUPTED || lb_stop_requested()) {
		json_object_put(p.d);
		strbuf_release(&p.why);
		return WL_INTERRUPTED;
	}
	json_object_object_add(p.d, "status", json_object_new_string(p.why.len ? "failed" : "ok"));
	if (p.why.len) {
		json_object_object_add(p.d, "reason", json_object_new_string(p.why.buf));
		warning("%s: %s: profile failed (the timed samples are kept): %s", ctx->ops->name, p.step,
			p.why.buf);
		pr->failed++;
	}
	entry = json_object_new_object();
	json_object_object_add(entry, "step", json_object_new_string(p.step));
	json_object_object_add(entry, "profile", p.d);
	if (!res->details)
		res->details = json_object_new_array();
	json_object_array_add(res->details, entry);
	strbuf_release(&p.why);
	return WL_OK;
}

enum wl_status profile_pass(struct profile_run *pr, struct wl_ctx *ctx, size_t step,
			    struct wl_result *res)
{
	unsigned failed = pr->failed;

	for (unsigned k = 1; k <= pr->passes; k++)
		if (one_pass(pr, ctx, step, res, k) == WL_INTERRUPTED)
			return WL_INTERRUPTED;
	/* pr->failed counts steps, not passes */
	if (pr->failed > failed)
		pr->failed = failed + 1;
	return WL_OK;
}
