/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What profiling this machine can do, each "no" with its reason: the probe
 * behind `lrubench check` and behind the exit 3 of a `run` whose requested
 * profile cannot run, before anything starts.
 */
#ifndef LRUBENCH_PROFILE_CAPS_H
#define LRUBENCH_PROFILE_CAPS_H

#include <stdbool.h>
#include "core/config.h"   /* enum profile_kind: the choices of [global] profile */
#include "core/util.h"

struct profile_caps {
	bool root;
	char *perf;                  /* the perf program, NULL when not found */
	char perf_version[64];       /* "6.1.187" */
	bool perf_ok;                /* found and `perf version` ran */
	struct strbuf perf_why;
	char *tracefs;               /* mounted tracefs, NULL when not mounted */
	bool tracefs_ok;             /* mounted, or mountable by lrubench */
	struct strbuf tracefs_why;
	bool tracepoints;            /* lock:contention_begin and _end */
	struct strbuf tracepoints_why;
	int paranoid;                /* perf_event_paranoid; -100 when unreadable */
	bool paranoid_ok;
	struct strbuf paranoid_why;
	bool lock_stat;              /* /proc/lock_stat (CONFIG_LOCK_STAT) */
	struct strbuf lock_stat_why;
	bool hw_pmu;                 /* a hardware PMU: perf_event_open of "instructions" works */
	struct strbuf hw_pmu_why;
	const char *counters_events; /* what profile=counters counts (perf_stat.h) */
	bool c2c;                    /* profile=c2c: a PMU that samples memory accesses */
	char c2c_pmu[64];            /* its name ("cpu", "ibs_op") */
	struct strbuf c2c_why;
	unsigned reclaim_pairs;      /* profile=reclaim: rl_pairs present (reclaim_latency.h) */
	struct strbuf reclaim_why;   /* the pairs not available on this kernel, and why */
};

void profile_caps_probe(struct profile_caps *c);
void profile_caps_release(struct profile_caps *c);
/* Can this kind of profile run? 0 yes (*lock_via_perf: perf's tracepoints
 * rather than lock_stat); -1 with why. */
int profile_caps_allow(const struct profile_caps *c, enum profile_kind kind, bool *lock_via_perf,
		       struct strbuf *why);

/* "perf version 6.1.187" -> "6.1.187"; "" when not recognised. */
void perf_version_parse(const char *text, char *out, size_t len);

#endif
