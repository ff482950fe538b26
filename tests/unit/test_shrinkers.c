// SPDX-License-Identifier: GPL-2.0-or-later
/* shrinkers' pure parts: the mounters' histograms merged into one table
 * (lh_merge: the same as one histogram of every value), and the layout of
 * the shared area (the histograms after the tasks, none overlapping). */
#include "unit.h"
#include <string.h>
#include "core/lat_hist.h"
#include "workloads/shrinkers/mount_loop.h"

static void merge_is_one_histogram(void **state)
{
	static struct lat_hist a, b, all;
	uint64_t v = 17;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		v = v * 6364136223846793005ULL + 1442695040888963407ULL;
		uint64_t ns = (v >> 40) % 5000000;

		lh_record(i % 3 ? &a : &b, ns);
		lh_record(&all, ns);
	}
	lh_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.sum, all.sum);
	assert_int_equal(a.max, all.max);
	assert_memory_equal(a.bucket, all.bucket, sizeof(all.bucket));
	assert_true(lh_percentile(&a, 99) == lh_percentile(&all, 99));
	/* into an empty one: a copy */
	memset(&b, 0, sizeof(b));
	lh_merge(&b, &all);
	assert_int_equal(b.max, all.max);
	assert_true(lh_percentile(&b, 50) == lh_percentile(&all, 50));
}

static void shared_layout(void **state)
{
	struct sk_shared *sh = sk_shared_create(5, 3);

	(void)state;
	assert_non_null(sh);
	assert_int_equal(sh->n, 5);
	assert_int_equal(sh->nhists, 3);
	assert_int_equal((uintptr_t)sh->hist % 8, 0);
	assert_true((char *)sh->hist >= (char *)&sh->task[5]);
	/* zeroed, and the last histogram writable without touching the tasks */
	assert_int_equal(sh->task[4].ops, 0);
	assert_int_equal(sh->hist[2].umount.count, 0);
	memset(&sh->hist[2], 0xff, sizeof(sh->hist[2]));
	assert_int_equal(sh->task[4].ops, 0);
	assert_int_equal(sh->task[4].msg[0], 0);
	sk_shared_start(sh, 1.0);
	assert_int_equal(sh->go, 1);
	assert_int_equal(sh->stop, 0);
	sk_shared_abort(sh);
	assert_int_equal(sh->stop, 1);
	sk_shared_destroy(sh);
	/* settlers: no histograms */
	sh = sk_shared_create(4096, 0);
	assert_non_null(sh);
	sk_shared_destroy(sh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merge_is_one_histogram), cmocka_unit_test(shared_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
