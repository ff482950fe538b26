// SPDX-License-Identifier: GPL-2.0-or-later
/* readtwice's sums: per memcg = sum of its readers' MB/s (1 MB = 10^6 bytes,
 * core/task_round's round_mbps, tested in test_task_round). */
#include "unit.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(summary) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
