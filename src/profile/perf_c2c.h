/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile = c2c: cache lines bounced between CPUs (the "zone->free_pages and
 * lruvec lock cache lines" that review thread 000 talks about without a
 * measurement), from `perf c2c record -a` around the profiled pass and
 *   perf c2c report --stdio -d tot -c iaddr --no-source --full-symbols
 * perf c2c has no machine-readable output, so its stdio report is read:
 *
 *   "Trace Event Information": "  Load Local HITM   :   86212" lines, the
 *     totals of the sampled loads that hit a line modified in another
 *     core's cache (local: same socket; remote: another one);
 *   "Shared Data Cache Line Table": a row per cache line, its HITM share
 *     ("99.80%") followed by its Total, LclHitm and RmtHitm counts (the
 *     order of every perf since 4.10; the columns before and after the
 *     share vary, so they are not relied on);
 *   "Shared Cache Line Distribution Pareto": per cache line a row between
 *     dashed lines (Num, Rmt HITM, Lcl HITM, ..., the line's address) and
 *     a row per data offset and code address whose first two percentages
 *     are its share of the line's Rmt and Lcl HITMs, then the offset
 *     (0x..), and later "[k] symbol" and its object.
 *
 * A row's HITMs = its shares of the line's counts. The counts are samples
 * (perf c2c's load-latency sampling, ldlat 30 cycles on Intel), not every
 * HITM of the machine: say so wherever they are shown.
 *
 * It needs a PMU that samples memory accesses with their data address
 * (Intel's mem-loads/mem-stores, AMD's IBS op, Arm's SPE): a VM without a
 * virtual PMU (this machine) has none, and perf c2c record says "failed:
 * memory events not supported".
 */
#ifndef LRUBENCH_PERF_C2C_H
#define LRUBENCH_PERF_C2C_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/util.h"

#define PERF_C2C_FILE_MAX (16u << 20)   /* the report lrubench reads, bounded */
#define PERF_C2C_TOP 10                 /* data addresses kept per pass */

struct c2c_line {
	unsigned long long cacheline;   /* the line's address */
	unsigned long long offset;      /* the data's offset in it */
	char where;                     /* perf's level: 'k' kernel, '.' user, ... */
	char *symbol;                   /* the code that loaded or stored it */
	char *dso;
	double hitm_local, hitm_remote; /* its shares of the line's sampled HITMs */
};

struct c2c_report {
	unsigned long long records, loads, stores;
	unsigned long long hitm_local, hitm_remote;   /* Trace Event Information */
	size_t cachelines;                            /* rows of the cache line table */
	struct c2c_line *lines;                       /* pareto rows, most HITMs first */
	size_t n, cap;
};

/*
 * Parse perf c2c report --stdio output (len bytes, need not end in NUL).
 * 0, or -1 with why naming perf's version and the line ("perf c2c report
 * (perf 6.1.187), line 41: ..."); nothing to release on -1.
 */
int perf_c2c_parse(const char *text, size_t len, const char *perf_version, struct c2c_report *r,
		   struct strbuf *why);
void c2c_report_release(struct c2c_report *r);
/* {"records", "loads", "stores", "hitm_local", "hitm_remote", "cachelines",
 *  "lines": [{"data_address", "cacheline", "offset", "symbol", "where", "dso",
 *  "hitm", "hitm_local", "hitm_remote"}] (at most top), "note"} */
json_object *c2c_report_json(const struct c2c_report *r, size_t top);

/*
 * A PMU that samples memory accesses under devices
 * (/sys/bus/event_source/devices): a PMU with events/mem-loads (Intel,
 * POWER), ibs_op (AMD) or arm_spe* (Arm). true with its name in name.
 */
bool perf_c2c_mem_pmu(const char *devices, char *name, size_t len);

#endif
