// SPDX-License-Identifier: GPL-2.0-or-later
/* readtwice's sums: per memcg = sum of its readers' MB/s (1 MB = 10^6 bytes,
 * core/task_round's round_mbps, tested in test_task_round). */
#include "unit.h"
#include <math.h>
#include "workloads/readtwice/readers.h"

static void summary(void **state)
{
	/* 2 memcgs x 2 readers: memcg0 = 100 + 300 MB/s, memcg1 = 50 + 50 MB/s */
	struct round_slot r[4] = {
		{ 200000000, 2.0, 0 }, { 600000000, 2.0, 0 },
		{ 100000000, 2.0, 0 }, { 50000000, 1.0, 0 },
	};
	double m[2];
	struct rt_summary s;
	(void)state;
	rt_summarize(r, 2, 2, m, &s);
	assert_true(m[0] == 400.0);
	assert_true(m[1] == 100.0);
	assert_true(s.aggregate == 500.0);
	assert_true(s.per_memcg_mean == 250.0);
	assert_true(s.per_memcg_min == 100.0);
	assert_true(s.per_memcg_max == 400.0);
}

/* The per-reader table is the dd-style mean: each reader's bytes over its own
 * time, averaged over the readers (the posted awk: sum of dd's MB/s / NR). */
static void per_reader_mean(void **state)
{
	/* readers that ran different times: 3 memcgs x 2 readers */
	struct round_slot r[6] = {
		{ 300000000, 1.5, 0 }, { 123456789, 0.9, 0 },
		{ 0, 2.0, 0 }, { 987654321, 3.3, 0 },
		{ 500000000, 2.5, 0 }, { 42000000, 0.1, 0 },
	};
	double m[3], own = 0;
	struct rt_summary s;

	(void)state;
	rt_summarize(r, 3, 2, m, &s);
	for (size_t i = 0; i < 6; i++)
		own += (double)r[i].bytes / 1e6 / r[i].elapsed;
	own /= 6;
	assert_true(fabs(s.per_reader_mean - own) < 1e-9 * own);
	/* not the aggregate's bytes over a common time, and half the per-memcg mean */
	assert_true(fabs(s.per_memcg_mean - 2 * s.per_reader_mean) < 1e-9 * own);
	rt_summarize(r, 1, 1, m, &s);
	assert_true(fabs(s.per_reader_mean - 200.0) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(summary), cmocka_unit_test(per_reader_mean) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
