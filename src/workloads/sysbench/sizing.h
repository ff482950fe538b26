/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sysbench workload's sizing rules (lrubench-sysbench(7) SIZING,
 * docs/REPRODUCING.md 000-18): what workload_size, shared_buffers,
 * effective_cache_size = auto and events = auto come to, as a pure function
 * of the machine's facts, so that validate() on this machine and the plan of
 * `run --dry-run --machine` on another size alike, and unit tests check the
 * rule on any shape.
 *
 * Memory. The posted run (000 #31) was mmtests'
 * config-db-sysbench-postgres-oltp-ro-medium -- tables 3/4, shared buffers
 * 1/4, effective cache 1/2 of MEMTOTAL_BYTES -- with every size halved "to
 * accommodate confining to one node" of two: 3/8, 1/8 and 1/4 of the 251 GB
 * machine, which is 3/4, 1/4 and 1/2 of node 1's 125.5 GB, the memory the run
 * could use. auto keeps that relation to the memory the run may use (the
 * node's MemTotal, the machine's without binding, or memcg_limit when it is
 * smaller):
 *
 *     workload_size        = 3/4 x memory   (whole MiB; 4,500 rows a MiB)
 *     shared_buffers       = 1/4 x memory
 *     effective_cache_size = 1/2 x memory
 *
 * On the posted shape that is the posted 94, 31 and 63 GB; on one node the
 * posted text (3/8 of MemTotal) would be half of what the run then had.
 *
 * Work per run. events = auto is what mmtests' SYSBENCH_MAX_TRANSACTIONS=auto
 * made sysbench do: mmtests' sysbench-bench computes a count from a curve
 * (sb_mmtests_curve_count) but never puts it on the command line, so sysbench
 * 0.4.12 ran its default --max-requests=10000; the posted Time x TPS is 10,000
 * at every thread count. The curve's count is recorded beside it.
 */
#ifndef LRUBENCH_SYSBENCH_SIZING_H
#define LRUBENCH_SYSBENCH_SIZING_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "core/status.h"
#include "core/util.h"

/* sysbench 0.4.12's --max-requests default: the posted work per run */
#define SB_AUTO_EVENTS 10000ULL
#define SB_MIN_WORKLOAD (1ULL << 20)

/* The machine's facts and the configured values (LB_SIZE_AUTO / LB_AUTO for auto). */
struct sb_size_in {
	uint64_t node_mem;        /* MemTotal of the run's node (the machine's with no binding); 0: unknown */
	const char *node_name;    /* "node 1" (of the run or the shape); NULL: no binding */
	uint64_t machine_mem;     /* MemTotal of the machine: mmtests' MEMTOTAL_BYTES; 0: unknown */
	uint64_t mem_available;   /* MemAvailable now (a plan: the shape's); 0: unknown, not checked */
	uint64_t memcg_limit;     /* of the server's memcg; 0: none */
	uint64_t workload_size;
	uint64_t shared_buffers;
	uint64_t effective_cache_size;
	unsigned long long tables;
	unsigned long long events; /* 0: runs of a fixed time; N; LB_AUTO */
};

/* What the rules gave, every number kept for run.json and the plan. */
struct sb_sizing {
	uint64_t memory;              /* the memory the run may use (the rule's base) */
	char memory_from[48];         /* "node 1 MemTotal", "MemTotal", "memcg_limit" */
	uint64_t machine_mem, mem_available;
	uint64_t workload_size;
	unsigned long long tables, table_rows;   /* rows per table */
	uint64_t shared_buffers, effective_cache_size;
	unsigned long long events;    /* 0: fixed time */
	bool workload_auto, shared_buffers_auto, effective_cache_size_auto, events_auto;
	unsigned long long mmtests_curve;  /* what mmtests' auto curve gives here (logged, not run);
					    * 0: the machine's MemTotal is unknown */
	uint64_t posted_text;         /* MEMTOTAL_BYTES*3/8 of this machine: the posted line, literally */
};

/* Apply the rules: WL_OK; WL_BAD_CONFIG (exit 2) or WL_UNSUPPORTED (exit 3:
 * this machine cannot hold the rule's size) with err naming the key and the
 * numbers. Pure. */
enum wl_status sb_size(const struct sb_size_in *in, struct sb_sizing *out, struct strbuf *err);

/* mmtests' sysbench-bench count for MAX_TRANSACTIONS=auto, read-only: a
 * natural cubic spline (gnuplot's smooth cspline) through (0, C/2),
 * (shared_buffers, C), (effective_cache_size, 3C/4), (MemTotal, C/2),
 * (4/3 MemTotal, C/4), (2 MemTotal, C/80), (8 MemTotal, C/40), C = 400,000,
 * sampled at gnuplot's 100 points from the least to the largest x; the first
 * sample at or beyond workload_size, its integer part, at least 1,000. Pure. */
unsigned long long sb_mmtests_curve_count(uint64_t shared_buffers, uint64_t effective_cache_size,
					  uint64_t memtotal, uint64_t workload_size);

/* {"rule", "memory", "memory_from", "workload_size", ...} for run.json's workload facts. */
json_object *sb_sizing_json(const struct sb_sizing *s);
/* Lines for the setup message and the dry-run plan, each "<indent>...\n". */
void sb_sizing_describe(const struct sb_sizing *s, const char *indent, struct strbuf *out);

#endif
