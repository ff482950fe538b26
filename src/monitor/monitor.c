// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitors, the run's side: which, where the sampler runs, one iteration's series (monitor.h). */
#include "monitor/monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/escape.h"

static const struct {
	const char *name;
	unsigned bit;
} monitor_names[] = {
	{ "vmstat", MON_VMSTAT }, { "meminfo", MON_MEMINFO }, { "memcg", MON_MEMCG },
	{ "cpu", MON_CPU },       { "psi", MON_PSI },         { "node", MON_NODE },
};
#define NMON (sizeof(monitor_names) / sizeof(monitor_names[0]))

int monitor_parse(const char *list, unsigned *mask, struct strbuf *err)
{
	size_t n;
	char **v;
	int ret = 0;

	*mask = 0;
	if (!strcmp(list, "none"))
		return 0;
	if (!strcmp(list, "all")) {
		*mask = MON_ALL;
		return 0;
	}
	v = split_commas(list, &n);
	for (size_t i = 0; i < n && !ret; i++) {
		size_t k;

		for (k = 0; k < NMON && strcmp(v[i], monitor_names[k].name); k++)
			;
		if (k < NMON) {
			*mask |= monitor_names[k].bit;
			continue;
		}
		strbuf_addstr(err, "global.monitors: unknown monitor '");
		strbuf_add_inert(err, v[i]);
		strbuf_addstr(err, "' (known: vmstat, meminfo, memcg, cpu, psi, node; or all, none)");
		ret = -1;
	}
	if (!ret && !n) {
		strbuf_addstr(err, "global.monitors: an empty list (say none to sample nothing)");
		ret = -1;
	}
	free_strv(v);
	return ret;
}

int monitor_run_init(struct monitor_run *m, const char *list, unsigned long long interval_ms,
		     struct strbuf *err)
{
	memset(m, 0, sizeof(*m));
	m->cpu = -1;
	m->interval_ms = (unsigned)interval_ms;
	return monitor_parse(list ? list : "none", &m->mask, err);
}

void monitor_run_setup(struct monitor_run *m, struct run_env *env, bool verbose)
{
	cpu_set_t online;
	int last = -1;

	m->env = env;
	m->verbose = verbose;
	if (!m->mask)
		return;
	CPU_ZERO(&online);
	if (sched_getaffinity(0, sizeof(online), &online))
		CPU_ZERO(&online);
	/* a CPU the workloads are not bound to, else the last of theirs */
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &online))
			continue;
		if (!CPU_ISSET(c, &env->bind.cpus)) {
			m->cpu = c;
			m->spare = true;
			break;
		}
		last = c;
	}
	if (m->cpu < 0)
		m->cpu = last;
	info("monitors: sampled every %u ms on CPU %d (%s)", m->interval_ms, m->cpu,
		     m->spare ? "a CPU the workloads are not bound to"
			      : "shared with the workloads: the run's node has no spare CPU");
}

json_object *monitor_run_json(const struct monitor_run *m)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (size_t k = 0; k < NMON; k++)
		if (m->mask & monitor_names[k].bit)
			json_object_array_add(a, json_object_new_string(monitor_names[k].name));
	json_object_object_add(o, "monitors", a);
	json_object_object_add(o, "interval_ms", json_object_new_int((int)m->interval_ms));
	json_object_object_add(o, "cpu", json_object_new_int(m->cpu));
	json_object_object_add(o, "spare_cpu", json_object_new_boolean(m->spare));
	json_object_object_add(o, "killed", json_object_new_int((int)m->killed));
	return o;
}

/* A new file at path: an old regular file is replaced, anything else refused. */
static int open_new(const char *path)
{
	struct stat st;

	if (!lstat(path, &st)) {
		if (!S_ISREG(st.st_mode)) {
			errno = EEXIST;
			return -1;
		}
		if (unlink(path))
			return -1;
	}
	return open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

void monitor_iter_begin(struct monitor_run *m, struct monitor_iter *mi, const char *workload,
			const char *step, int iteration)
{
	struct run_env *env = m ? m->env : NULL;
	struct sampler_arg *a;
	char *dir;

	memset(mi, 0, sizeof(*mi));
	mi->fd = -1;
	if (!monitor_on(m) || !env || !env->label_dir || iteration < 0)
		return;
	mi->path = series_path(env->label_dir, workload, step, iteration);
	dir = xstrdup(mi->path);
	*strrchr(dir, '/') = '\0';
	if (mkdir_p(dir, 0755) || (mi->fd = open_new(mi->path)) < 0) {
		warning("monitors: cannot write %s: %s; this iteration has no series", mi->path,
			strerror(errno));
		free(dir);
		free(mi->path);
		mi->path = NULL;
		return;
	}
	free(dir);
	a = xcalloc(1, sizeof(*a));
	*a = (struct sampler_arg){ .mask = m->mask, .interval_ms = m->interval_ms, .fd = mi->fd,
				   .cpu = m->cpu, .spare = m->spare, .node = env->bind.node,
				   .cpus = env->bind.cpus,
				   .memcg_dir = env->run_cg ? env->run_cg->path : NULL,
				   .cg_v2 = env->cg && env->cg->mode == CG_V2 };
	mi->t0 = a->t0 = now_monotonic();
	mi->arg = a;
	mi->c = (struct child){ .fn = sampler_main, .fn_arg = a, .name = "the monitors' sampler",
				.null_stdio = true };
	if (child_start(&mi->c)) {
		warning("monitors: the sampler did not start; this iteration has no series");
		close(mi->fd);
		unlink(mi->path);
		mi->fd = -1;
		return;
	}
	if (m->verbose)
		info("monitors: sampler pid %d on CPU %d for %s %s iteration %d", (int)mi->c.pid, m->cpu,
		     workload, step, iteration + 1);
}

static void add_cost(json_object *details, const char *step, int iteration, json_object *o)
{
	json_object *d;

	if (json_object_array_length(details) > 0) {
		d = json_object_array_get_idx(details, 0);
	} else {
		d = json_object_new_object();
		json_object_object_add(d, "step", json_object_new_string(step));
		json_object_object_add(d, "iteration", json_object_new_int(iteration));
		json_object_array_add(details, d);
	}
	json_object_object_add(d, "monitors", o);
}

void monitor_iter_end(struct monitor_run *m, struct monitor_iter *mi, const char *workload,
		      const char *step, double end_at, bool ok, struct wl_result *res,
		      json_object *details)
{
	struct strbuf err = STRBUF_INIT;
	struct series s;
	struct stat st;
	struct rusage ru;
	int code = 0, w;
	const char *cpu_us;
	json_object *o;
	char what[96];

	if (mi->fd < 0)
		goto out;
	/* a last sample and the end record, then reaped */
	child_signal(&mi->c, SIGTERM);
	memset(&ru, 0, sizeof(ru));
	w = child_wait(&mi->c, 5.0, &code, &ru);
	if (w == CHILD_STOP) {
		/* the run is being interrupted: the iteration is not saved, its
		 * series is rewritten by --resume; the sampler only has to go */
		child_stop(&mi->c, 1.0);
		close(mi->fd);
		mi->fd = -1;
		goto out;
	}
	if (w != CHILD_REAPED) {
		child_stop(&mi->c, 0.5);
		code = 128 + SIGKILL;
	}
	if (code) {
		child_describe_code(code, what, sizeof(what));
		m->killed++;
		/* what it wrote before stays; the cut line goes */
		if (series_seal(mi->fd, code > 128 ? "the sampler was killed" : "the sampler failed"))
			warning("monitors: cannot seal %s: %s", mi->path, strerror(errno));
		warning("monitors: the sampler of %s %s was %s before the end; its samples up to then "
			"are kept in %s", workload, step, code > 128 ? "killed" : "stopped", mi->path);
	}
	close(mi->fd);
	mi->fd = -1;
	if (series_load(mi->path, &s, &err)) {
		warning("monitors: %s", strbuf_str(&err));
		goto out;
	}
	o = json_object_new_object();
	json_object_object_add(o, "series", json_object_new_string(strrchr(mi->path, '/') + 1));
	json_object_object_add(o, "samples", json_object_new_int64((int64_t)s.nrows));
	if (!stat(mi->path, &st))
		json_object_object_add(o, "bytes", json_object_new_int64((int64_t)st.st_size));
	cpu_us = series_meta(&s, "cpu_us");
	if (cpu_us)
		json_object_object_add(o, "cpu_ms", json_object_new_double(atof(cpu_us) / 1000));
	json_object_object_add(o, "cpu", json_object_new_int(m->cpu));
	if (!s.ended)
		json_object_object_add(o, "stopped_early",
				       json_object_new_string(s.note ? s.note : "no end record"));
	add_cost(details, step, 0, o);
	if (ok)
		monitor_levels(&s, workload, step,
			       end_at > mi->t0 ? (int64_t)((end_at - mi->t0) * 1000 + 0.5) : -1, res);
	series_release(&s);
out:
	strbuf_release(&err);
	free(mi->path);
	free(mi->arg);
	mi->path = NULL;
	mi->arg = NULL;
}
