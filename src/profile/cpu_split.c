// SPDX-License-Identifier: GPL-2.0-or-later
/* The CPU split of an iteration (cpu_split.h). */
#include "profile/cpu_split.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"

/* cpu of /proc/stat's "cpu " line (the sum of every CPU), beside -1 (no cpu line) */
#define CPU_LINE_TOTAL (-2)

int procstat_sum(const char *text, const cpu_set_t *set, long hz, struct cpu_times *out, int *ncpus)
{
	const char *line = text;

	memset(out, 0, sizeof(*out));
	*ncpus = 0;
	if (hz <= 0)
		hz = 100;
	while (line && *line) {
		unsigned long long f[8] = { 0 };
		int cpu = -1, n = 0;

		if (!strncmp(line, "cpu", 3)) {
			const char *p = line + 3;
			char *e;

			if (*p == ' ') {
				cpu = CPU_LINE_TOTAL;   /* the total line */
			} else {
				cpu = (int)strtol(p, &e, 10);
				p = e;
				if (*p != ' ')
					cpu = -1;
			}
			if (cpu != -1)
				n = sscanf(p, " %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
					   &f[3], &f[4], &f[5], &f[6], &f[7]);
		}
		if (n >= 4 && ((set == NULL && cpu == CPU_LINE_TOTAL) ||
			       (set && cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, set)))) {
			out->user += (double)f[0] / (double)hz;
			out->nice += (double)f[1] / (double)hz;
			out->system += (double)f[2] / (double)hz;
			out->idle += (double)f[3] / (double)hz;
			out->iowait += (double)f[4] / (double)hz;
			out->irq += (double)f[5] / (double)hz;
			out->softirq += (double)f[6] / (double)hz;
			out->steal += (double)f[7] / (double)hz;
			(*ncpus)++;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!set && *ncpus) {
		/* the total line stands for every online CPU */
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		*ncpus = online > 0 ? (int)online : 1;
	}
	return *ncpus ? 0 : -1;
}

static bool key_value(const char *text, const char *key, unsigned long long *v)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == ' ')
			return sscanf(l + kl, " %llu", v) == 1;
	return false;
}

int cgroup2_cpu_stat_parse(const char *text, double *user, double *sys)
{
	unsigned long long u, s;

	if (!key_value(text, "user_usec", &u) || !key_value(text, "system_usec", &s))
		return -1;
	*user = (double)u / 1e6;
	*sys = (double)s / 1e6;
	return 0;
}

int cpuacct_stat_parse(const char *text, long hz, double *user, double *sys)
{
	unsigned long long u, s;

	if (!key_value(text, "user", &u) || !key_value(text, "system", &s) || hz <= 0)
		return -1;
	*user = (double)u / (double)hz;
	*sys = (double)s / (double)hz;
	return 0;
}

char *cpuacct_mount(const char *mounts)
{
	char *text = read_file_str(mounts, NULL), *save = NULL, *found = NULL;

	if (!text)
		return NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *sp = NULL;
		int n = 0;

		for (char *t = strtok_r(line, " ", &sp); t && n < 4; t = strtok_r(NULL, " ", &sp))
			f[n++] = t;
		if (n < 4 || strcmp(f[2], "cgroup"))
			continue;
		for (char *o = f[3], *osave = NULL, *tok; (tok = strtok_r(o, ",", &osave)); o = NULL)
			if (!strcmp(tok, "cpuacct"))
				found = xstrdup(f[1]);
	}
	free(text);
	return found;
}

/* The folder of our own cgroup in the hierarchy mounted at root: the line of
 * /proc/self/cgroup whose controllers hold ctrl (v1) or the "0::" line (v2). */
static char *own_cgroup(const char *root, const char *ctrl)
{
	char *text = read_file_str("/proc/self/cgroup", NULL), *save = NULL, *dir = NULL;

	if (!text)
		return NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !dir; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		*c2 = '\0';
		if (ctrl) {
			for (char *o = c1 + 1, *osave = NULL, *tok; (tok = strtok_r(o, ",", &osave)); o = NULL)
				if (!strcmp(tok, ctrl))
					dir = xasprintf("%s%s", root, c2[1] == '/' && !c2[2] ? "" : c2 + 1);
		} else if (c1 == line + 1 && line[0] == '0' && c1[1] == '\0') {
			dir = xasprintf("%s%s", root, c2[1] == '/' && !c2[2] ? "" : c2 + 1);
		}
	}
	free(text);
	return dir;
}

/* registry undo, async-signal-safe: move back, then remove the folder */
static void leave_cgroup(void *arg)
{
	struct cpu_acct *a = arg;
	int fd = open(a->back_procs, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, a->pid, strlen(a->pid)) < 0)
			cleanup_msg("cannot move back to ", a->back_procs);
		close(fd);
	}
	if (rmdir(a->dir) && errno != ENOENT)
		cleanup_msg("cannot remove ", a->dir);
}

/* Make root/lrubench-<pid> and move this process into it. */
static int join_own_cgroup(struct cpu_acct *a, const char *root, const char *ctrl)
{
	char *back = own_cgroup(root, ctrl), *procs;
	int ret = -1;

	if (!back) {
		warning("CPU split: cannot find this process's cgroup under %s", root);
		return -1;
	}
	cg_remove_stale(root);
	a->dir = xasprintf("%s/lrubench-%d", root, (int)getpid());
	a->back_procs = xasprintf("%s/cgroup.procs", back);
	snprintf(a->pid, sizeof(a->pid), "%d", (int)getpid());
	if (mkdir(a->dir, 0755)) {
		warning("CPU split: cannot create %s: %s", a->dir, strerror(errno));
		goto out;
	}
	a->cleanup_id = cleanup_push("CPU accounting cgroup", leave_cgroup, a);
	if (a->cleanup_id < 0) {
		rmdir(a->dir);
		a->cleanup_id = 0;
		goto out;
	}
	procs = xasprintf("%s/cgroup.procs", a->dir);
	ret = write_str_file(procs, a->pid);
	free(procs);
	if (ret) {
		cleanup_pop(a->cleanup_id, true);
		a->cleanup_id = 0;
	}
out:
	free(back);
	if (ret) {
		free(a->dir);
		free(a->back_procs);
		a->dir = a->back_procs = NULL;
	}
	return ret;
}

void cpu_acct_setup(struct cpu_acct *a, const struct cg_env *cg, const struct cgroup *run_cg,
		    const char *mounts)
{
	char *v1;

	memset(a, 0, sizeof(*a));
	if (cg && cg->mode == CG_V2 && run_cg && run_cg->path) {
		char *f = xasprintf("%s/cpu.stat", run_cg->path);
		bool ok = access(f, R_OK) == 0;

		free(f);
		if (ok) {
			a->kind = CPU_ACCT_V2_RUN;
			a->dir = xstrdup(run_cg->path);
			return;
		}
	}
	v1 = cpuacct_mount(mounts);
	if (v1 && !join_own_cgroup(a, v1, "cpuacct"))
		a->kind = CPU_ACCT_V1_CPUACCT;
	else if (cg && cg->v2_root && cg->mode != CG_V2 && !join_own_cgroup(a, cg->v2_root, NULL))
		a->kind = CPU_ACCT_V2_SELF;
	free(v1);
}

const char *cpu_acct_source(const struct cpu_acct *a)
{
	switch (a->kind) {
	case CPU_ACCT_V2_RUN: return "cgroup2 cpu.stat of the run cgroup";
	case CPU_ACCT_V1_CPUACCT: return "cpuacct cgroup of the run";
	case CPU_ACCT_V2_SELF: return "cgroup2 cpu.stat of the run's own cgroup";
	default: return "/proc/stat of the bound CPUs";
	}
}

void cpu_acct_release(struct cpu_acct *a)
{
	cleanup_pop(a->cleanup_id, true);
	free(a->dir);
	free(a->back_procs);
	memset(a, 0, sizeof(*a));
}

static bool read_cgroup_times(const struct cpu_acct *a, double *user, double *sys)
{
	char *path, *text;
	bool ok = false;

	if (a->kind == CPU_ACCT_V2_RUN || a->kind == CPU_ACCT_V2_SELF) {
		path = xasprintf("%s/cpu.stat", a->dir);
		text = read_file_str(path, NULL);
		ok = text && !cgroup2_cpu_stat_parse(text, user, sys);
		free(text);
		free(path);
	} else if (a->kind == CPU_ACCT_V1_CPUACCT) {
		unsigned long long u, s;
		char *pu = xasprintf("%s/cpuacct.usage_user", a->dir);
		char *ps = xasprintf("%s/cpuacct.usage_sys", a->dir);
		char *tu = read_file_str(pu, NULL), *ts = read_file_str(ps, NULL);

		if (tu && ts && sscanf(tu, "%llu", &u) == 1 && sscanf(ts, "%llu", &s) == 1) {
			*user = (double)u / 1e9;
			*sys = (double)s / 1e9;
			ok = true;
		} else {
			/* kernels before 4.7 have only cpuacct.stat */
			path = xasprintf("%s/cpuacct.stat", a->dir);
			text = read_file_str(path, NULL);
			ok = text && !cpuacct_stat_parse(text, sysconf(_SC_CLK_TCK), user, sys);
			free(text);
			free(path);
		}
		free(tu);
		free(ts);
		free(pu);
		free(ps);
	}
	return ok;
}

void cpu_sample_take(const struct cpu_acct *a, const cpu_set_t *set, struct cpu_sample *s)
{
	char *text = read_file_str("/proc/stat", NULL);

	memset(s, 0, sizeof(*s));
	s->t = now_monotonic();
	if (!text || procstat_sum(text, set, sysconf(_SC_CLK_TCK), &s->st, &s->ncpus))
		s->ncpus = 0;
	free(text);
	s->have_cg = read_cgroup_times(a, &s->cg_user, &s->cg_sys);
}

int cpu_split_compute(const struct cpu_sample *b, const struct cpu_sample *a, struct cpu_split *out)
{
	double cap;

	memset(out, 0, sizeof(*out));
	out->wall = a->t - b->t;
	out->ncpus = a->ncpus;
	if (!a->ncpus || a->ncpus != b->ncpus || out->wall <= 0)
		return -1;
	cap = out->wall * a->ncpus / 100.0;
	out->irq = (a->st.irq - b->st.irq) / cap;
	out->softirq = (a->st.softirq - b->st.softirq) / cap;
	out->iowait = (a->st.iowait - b->st.iowait) / cap;
	out->steal = (a->st.steal - b->st.steal) / cap;
	if (a->have_cg && b->have_cg) {
		out->from_cgroup = true;
		out->user = (a->cg_user - b->cg_user) / cap;
		out->sys = (a->cg_sys - b->cg_sys) / cap;
	} else {
		out->user = (a->st.user + a->st.nice - b->st.user - b->st.nice) / cap;
		out->sys = (a->st.system - b->st.system) / cap;
	}
	/* tick-based counters can step past the wall time by a tick */
	if (out->user < 0)
		out->user = 0;
	if (out->sys < 0)
		out->sys = 0;
	return 0;
}
