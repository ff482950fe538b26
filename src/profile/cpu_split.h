/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where an iteration's CPU time went: user, sys, irq, softirq, iowait (and
 * steal), as percent of the capacity of the CPUs the run is bound to over
 * the iteration's wall time -- the "very high sys time" of an lru_lock
 * bottleneck shows here on every timed iteration, at the cost of reading
 * two small files before and after.
 *
 * user and sys come from a cgroup that holds the run's processes and only
 * them, where one exists, so other work on the machine does not count:
 *   cgroup v2: the run cgroup's cpu.stat (user_usec, system_usec), which
 *              covers every memcg lrubench creates under it;
 *   cgroup v1: a cpuacct cgroup lrubench-<pid> that lrubench moves itself
 *              into at the start (its children inherit it; it moves back
 *              and removes it at the end, on every path), read through
 *              cpuacct.usage_user/usage_sys (ns) or cpuacct.stat (ticks);
 *   hybrid without cpuacct: the same on the cgroup2 mount (cpu.stat);
 * else from /proc/stat, summed over the bound CPUs. irq, softirq, iowait and
 * steal have no per-cgroup counter: they always come from /proc/stat on the
 * bound CPUs. details say which source was used.
 */
#ifndef LRUBENCH_CPU_SPLIT_H
#define LRUBENCH_CPU_SPLIT_H

#include <sched.h>
#include <stdbool.h>
#include "core/cgroup_setup.h"
#include "core/util.h"

struct cpu_times {      /* seconds */
	double user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Sum the "cpuN" lines of /proc/stat text for the CPUs in set, or the "cpu"
 * total line when set is NULL; hz is USER_HZ. *ncpus gets how many lines
 * were summed. 0, or -1 when no line matched. */
int procstat_sum(const char *text, const cpu_set_t *set, long hz, struct cpu_times *out, int *ncpus);

enum cpu_acct_kind { CPU_ACCT_PROCSTAT = 0, CPU_ACCT_V2_RUN, CPU_ACCT_V1_CPUACCT, CPU_ACCT_V2_SELF };

struct cpu_acct {
	enum cpu_acct_kind kind;
	char *dir;              /* the cgroup folder read */
	/* a cgroup lrubench joined itself (V1_CPUACCT, V2_SELF) */
	char *back_procs;       /* cgroup.procs of where lrubench was before */
	char pid[24];
	int cleanup_id;
};

/* Pick the source (see above) for this run; mounts is /proc/mounts. On
 * failure to create or join a cgroup, falls back to /proc/stat with a
 * warning: the CPU split is never a reason for a run to fail. */
void cpu_acct_setup(struct cpu_acct *a, const struct cg_env *cg, const struct cgroup *run_cg,
		    const char *mounts);
const char *cpu_acct_source(const struct cpu_acct *a);  /* for details */
void cpu_acct_release(struct cpu_acct *a);

struct cpu_sample {
	double t;               /* monotonic seconds */
	struct cpu_times st;    /* /proc/stat over the bound CPUs */
	int ncpus;
	bool have_cg;
	double cg_user, cg_sys; /* seconds, from the cgroup */
};
/* set: the bound CPUs, NULL for all. */
void cpu_sample_take(const struct cpu_acct *a, const cpu_set_t *set, struct cpu_sample *s);

struct cpu_split {      /* percent of ncpus x wall */
	double user, sys, irq, softirq, iowait, steal;
	double wall;
	int ncpus;
	bool from_cgroup;   /* user and sys came from the cgroup */
};
/* 0, or -1 when the samples cannot be compared (no /proc/stat, no time). */
int cpu_split_compute(const struct cpu_sample *before, const struct cpu_sample *after,
		      struct cpu_split *out);

/* Parsers, exposed for the unit tests. */
/* "user_usec 123\nsystem_usec 45\n" (cgroup2 cpu.stat) -> seconds */
int cgroup2_cpu_stat_parse(const char *text, double *user, double *sys);
/* "user 12\nsystem 3\n" (cpuacct.stat, USER_HZ ticks) -> seconds */
int cpuacct_stat_parse(const char *text, long hz, double *user, double *sys);
/* Find a v1 mount whose options hold "cpuacct" in a mounts file; malloc'ed path or NULL. */
char *cpuacct_mount(const char *mounts);

#endif
