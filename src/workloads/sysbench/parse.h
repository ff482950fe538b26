/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parser for the text summary sysbench 1.0.x prints at the end of a run
 * (oltp_* tests). Pure: works on a buffer, no I/O, no allocation, so it is
 * unit-tested on output captured from the real sysbench (tests/fixtures/sysbench).
 *
 * sysbench prints the summary only when the run finished; a run that died
 * (server gone, segfault, killed) leaves a prefix of it or nothing. `found`
 * says which fields were seen so the caller can tell a complete summary
 * from a truncated one instead of recording zeros.
 */
#ifndef LRUBENCH_SYSBENCH_PARSE_H
#define LRUBENCH_SYSBENCH_PARSE_H

#include <stdbool.h>
#include <stddef.h>

enum sb_field {
	SB_TRANSACTIONS    = 1u << 0,   /* "transactions: N (R per sec.)" */
	SB_TPS             = 1u << 1,
	SB_QUERIES         = 1u << 2,
	SB_QPS             = 1u << 3,
	SB_ERRORS          = 1u << 4,   /* "ignored errors: N (R per sec.)" */
	SB_ERRORS_PS       = 1u << 5,
	SB_RECONNECTS      = 1u << 6,
	SB_RECONNECTS_PS   = 1u << 7,
	SB_TOTAL_TIME      = 1u << 8,   /* "total time: 5.0049s" */
	SB_EVENTS          = 1u << 9,   /* "total number of events: N" */
	SB_LAT_MIN         = 1u << 10,  /* under "Latency (ms):" */
	SB_LAT_AVG         = 1u << 11,
	SB_LAT_MAX         = 1u << 12,
	SB_LAT_PCT         = 1u << 13,  /* "95th percentile:" (any Nth) */
	SB_LAT_SUM         = 1u << 14,
	SB_THREADS         = 1u << 15,  /* "Number of threads: N" (header) */
};

/* Everything a caller needs before it may record a sample. */
#define SB_REQUIRED (SB_TRANSACTIONS | SB_TPS | SB_QUERIES | SB_QPS | SB_ERRORS | \
		     SB_ERRORS_PS | SB_RECONNECTS | SB_TOTAL_TIME | SB_EVENTS | \
		     SB_LAT_MIN | SB_LAT_AVG | SB_LAT_MAX | SB_LAT_PCT)

struct sb_result {
	unsigned found;                 /* enum sb_field bits */
	unsigned long long transactions, queries, errors, reconnects, events;
	unsigned long long reads, writes, others;   /* "queries performed:" (informational) */
	double tps, qps, errors_ps, reconnects_ps;
	double total_time;              /* seconds */
	double lat_min, lat_avg, lat_max, lat_pct, lat_sum;   /* ms */
	unsigned percentile;            /* N of "Nth percentile" (95 by default) */
	unsigned threads;
	char fatal[160];                /* first "FATAL: ..." line, "" if none */
};

/* Parse len bytes of buf (need not be NUL-terminated). Always fills r
 * (zeroed first); returns the number of fields found. */
int sb_parse(const char *buf, size_t len, struct sb_result *r);

/* True when every SB_REQUIRED field was found. */
bool sb_complete(const struct sb_result *r);

/* Names of the required fields that are missing, comma-separated, into buf
 * ("" when complete). Returns buf. */
const char *sb_missing(const struct sb_result *r, char *buf, size_t len);

#endif
