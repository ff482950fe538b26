// SPDX-License-Identifier: GPL-2.0-or-later
/* sysbench summary parser, on output captured from the real sysbench 1.0.20
 * against PostgreSQL 15 on the CI machine (tests/fixtures/sysbench/README). */
#include "unit.h"
#include <math.h>
#include "workloads/sysbench/parse.h"
#include "core/util.h"

static char *load(const char *name, size_t *len)
{
	char *rel = xasprintf("sysbench/%s", name), *buf = unit_fixture(rel, len);

	free(rel);
	return buf;
}

static void assert_close(double a, double b)
{
	if (fabs(a - b) > 1e-9 * (fabs(b) + 1))
		fail_msg("%.6f != %.6f", a, b);
}

static void test_normal_run(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("run-t2.txt", &len);
	struct sb_result r;
	char miss[256];

	sb_parse(buf, len, &r);
	assert_true(sb_complete(&r));
	assert_string_equal(sb_missing(&r, miss, sizeof(miss)), "");
	assert_int_equal(r.threads, 2);
	assert_int_equal(r.transactions, 16579);
	assert_close(r.tps, 3312.19);
	assert_int_equal(r.queries, 265264);
	assert_close(r.qps, 52995.03);
	assert_int_equal(r.errors, 0);
	assert_close(r.errors_ps, 0.0);
	assert_int_equal(r.reconnects, 0);
	assert_close(r.total_time, 5.0049);
	assert_int_equal(r.events, 16579);
	assert_close(r.lat_min, 0.46);
	assert_close(r.lat_avg, 0.60);
	assert_close(r.lat_max, 6.71);
	assert_close(r.lat_pct, 0.89);
	assert_int_equal(r.percentile, 95);
	assert_close(r.lat_sum, 9980.30);
	assert_int_equal(r.reads, 232106);
	assert_int_equal(r.writes, 0);
	assert_int_equal(r.others, 33158);
	assert_string_equal(r.fatal, "");
	free(buf);
}

static void test_one_thread(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("run-t1.txt", &len);
	struct sb_result r;

	sb_parse(buf, len, &r);
	assert_true(sb_complete(&r));
	assert_int_equal(r.threads, 1);
	assert_int_equal(r.transactions, 1722);
	assert_close(r.tps, 573.51);
	assert_close(r.lat_pct, 2.26);
	free(buf);
}

static void test_errors(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("run-rw-serializable-errors.txt", &len);
	struct sb_result r;

	sb_parse(buf, len, &r);
	assert_true(sb_complete(&r));
	assert_int_equal(r.threads, 8);
	assert_int_equal(r.errors, 5823);
	assert_close(r.errors_ps, 1156.66);
	assert_int_equal(r.transactions, 1352);
	assert_close(r.tps, 268.56);
	assert_int_equal(r.writes, 9247);
	assert_close(r.lat_pct, 101.13);
	assert_close(r.lat_max, 630.81);
	free(buf);
}

static void test_truncated_file(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("run-t2-truncated.txt", &len);
	struct sb_result r;
	char miss[256];

	sb_parse(buf, len, &r);
	assert_false(sb_complete(&r));
	/* what was there is still read */
	assert_true(r.found & SB_TPS);
	assert_close(r.tps, 3312.19);
	assert_false(r.found & SB_QUERIES);
	assert_false(r.found & SB_LAT_PCT);
	sb_missing(&r, miss, sizeof(miss));
	assert_non_null(strstr(miss, "queries"));
	assert_non_null(strstr(miss, "latency percentile"));
	assert_null(strstr(miss, "transactions per second"));
	free(buf);
}

/* Every prefix of a real summary: a field is either absent or has exactly
 * the value of the full parse (a number cut mid-line is never taken), and
 * the summary is complete only once the percentile line is whole. */
static void test_every_prefix(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("run-t2.txt", &len);
	struct sb_result full, r;
	const char *pl = strstr(buf, "95th percentile:");
	size_t need = (size_t)(strchr(pl, '\n') - buf) + 1;

	sb_parse(buf, len, &full);
	for (size_t n = 0; n <= len; n++) {
		sb_parse(buf, n, &r);
		assert_int_equal(r.found & ~full.found, 0);
		if (r.found & SB_TPS)
			assert_close(r.tps, full.tps);
		if (r.found & SB_TRANSACTIONS)
			assert_int_equal(r.transactions, full.transactions);
		if (r.found & SB_QUERIES)
			assert_int_equal(r.queries, full.queries);
		if (r.found & SB_TOTAL_TIME)
			assert_close(r.total_time, full.total_time);
		if (r.found & SB_LAT_PCT)
			assert_close(r.lat_pct, full.lat_pct);
		if (r.found & SB_LAT_MAX)
			assert_close(r.lat_max, full.lat_max);
		assert_int_equal(sb_complete(&r), n >= need);
	}
	free(buf);
}

static void test_connect_failed(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("connect-failed.txt", &len);
	struct sb_result r;

	sb_parse(buf, len, &r);
	assert_false(sb_complete(&r));
	assert_int_equal(r.found, SB_THREADS);
	assert_non_null(strstr(r.fatal, "FATAL: Connection to database failed"));
	free(buf);
}

static void test_backend_terminated(void **state)
{
	(void)state;
	size_t len;
	char *buf = load("backend-terminated-segv.txt", &len);
	struct sb_result r;

	sb_parse(buf, len, &r);
	assert_false(sb_complete(&r));
	assert_int_equal(r.found, SB_THREADS);
	assert_string_equal(r.fatal, "");
	free(buf);
}

static void test_other_percentile_and_crlf(void **state)
{
	(void)state;
	const char *s =
		"SQL statistics:\r\n"
		"    transactions:                        10  (2.00 per sec.)\r\n"
		"    queries:                             160 (32.00 per sec.)\r\n"
		"    ignored errors:                      3      (0.60 per sec.)\r\n"
		"    reconnects:                          1      (0.20 per sec.)\r\n"
		"General statistics:\r\n"
		"    total time:                          5.0000s\r\n"
		"    total number of events:              10\r\n"
		"Latency (ms):\r\n"
		"         min:                                    1.00\r\n"
		"         avg:                                    2.00\r\n"
		"         max:                                    3.00\r\n"
		"         99th percentile:                        2.90\r\n"
		"Threads fairness:\r\n"
		"    events (avg/stddev):           8289.5000/416.50\r\n";
	struct sb_result r;

	sb_parse(s, strlen(s), &r);
	assert_true(sb_complete(&r));
	assert_int_equal(r.percentile, 99);
	assert_close(r.lat_pct, 2.90);
	assert_int_equal(r.reconnects, 1);
	assert_close(r.reconnects_ps, 0.2);
	assert_int_equal(r.events, 10);
}

static void test_garbage_and_empty(void **state)
{
	(void)state;
	struct sb_result r;
	const char *g = "min: 1\nmax: 2\ntransactions: x (y per sec.)\nLatency (ms):\n"
			"  min: abc\n  1000th percentile: 3\n";

	assert_int_equal(sb_parse("", 0, &r), 0);
	assert_false(sb_complete(&r));
	sb_parse(g, strlen(g), &r);
	assert_int_equal(r.found, 0);
}

/* issue 12: a count beyond 64 bits is no count (strtoull clamped it) */
static void test_count_beyond_64_bits(void **state)
{
	static const char out[] =
		"SQL statistics:\n"
		"    transactions:                        99999999999999999999999 (3312.19 per sec.)\n"
		"    queries:                             265264 (52995.04 per sec.)\n"
		"General statistics:\n"
		"    total number of events:              18446744073709551616\n"
		"Latency (ms):\n"
		"         avg:                                    1e999\n";
	struct sb_result r;
	(void)state;
	sb_parse(out, sizeof(out) - 1, &r);
	assert_false(r.found & SB_TRANSACTIONS);
	assert_false(r.found & SB_EVENTS);
	assert_false(r.found & SB_LAT_AVG);
	assert_true(r.found & SB_QUERIES);   /* the lines around are still read */
	assert_false(sb_complete(&r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal_run),
		cmocka_unit_test(test_one_thread),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_truncated_file),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_connect_failed),
		cmocka_unit_test(test_backend_terminated),
		cmocka_unit_test(test_other_percentile_and_crlf),
		cmocka_unit_test(test_garbage_and_empty),
		cmocka_unit_test(test_count_beyond_64_bits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
