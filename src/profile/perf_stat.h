/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile = counters: hardware counters of the profiled pass, from
 * `perf stat -a -x ,` (on the bound CPUs). perf's CSV lines are
 *   value,unit,event,run-time,percent-running,metric-value,metric-unit
 * ("<not supported>" or "<not counted>" in place of a value; a line with
 * no value continues the previous event's metrics; '#' lines are comments).
 * The parser keeps every counted event and derives IPC (instructions /
 * cycles) and the cache miss ratio (cache-misses / cache-references).
 */
#ifndef LRUBENCH_PERF_STAT_H
#define LRUBENCH_PERF_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/util.h"

/* The events counted by default; LRUBENCH_COUNTERS_EVENTS replaces them
 * (the tests: this machine has no PMU, so they count software events). */
#define PERF_STAT_EVENTS "cycles,instructions,cache-references,cache-misses,LLC-load-misses," \
			 "dTLB-load-misses"
#define PERF_STAT_MAX_EVENTS 32

struct perf_stat_event {
	char name[64];
	char unit[16];         /* perf's ("msec" for task-clock), "" for plain counts */
	double value;          /* perf's (scaled when multiplexed) count */
	double running_pct;    /* of the time enabled; < 100 when multiplexed */
	bool counted;          /* false: "<not supported>" / "<not counted>" */
	char why[32];          /* "not supported", "not counted" */
};

struct perf_stat_report {
	struct perf_stat_event ev[PERF_STAT_MAX_EVENTS];
	size_t n;
};

/* 0, or -1 with why naming the line ("line 4: 'x,,cycles' is not perf stat -x , output"). */
int perf_stat_parse(const char *text, struct perf_stat_report *rep, struct strbuf *why);
/* The event's counted value; false when absent or not counted. */
bool perf_stat_value(const struct perf_stat_report *rep, const char *event, double *v);
/* {"events": {name: value|null}, "not_counted": {name: why}} for the details. */
json_object *perf_stat_json(const struct perf_stat_report *rep);

#endif
