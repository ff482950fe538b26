// SPDX-License-Identifier: GPL-2.0-or-later
/* colocate's pure parts: the latency histogram's buckets (exact below 128 ns,
 * 64 per power of two above), its percentiles against sorted samples, and
 * the probe's random numbers. */
#include "unit.h"
#include "core/hist.h"
#include "workloads/colocate/tasks.h"

static void buckets(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < LH_EXACT; v++) {
		assert_int_equal(lh_index(v), v);
		assert_int_equal(lh_lower(lh_index(v)), v);
		assert_int_equal(lh_width(lh_index(v)), 1);
	}
	/* 128..255: width 2; every value falls inside its bucket, at every scale */
	assert_int_equal(lh_index(128), LH_EXACT);
	assert_int_equal(lh_index(129), LH_EXACT);
	assert_int_equal(lh_index(130), LH_EXACT + 1);
	assert_int_equal(lh_index(UINT64_MAX), LH_BUCKETS - 1);
	for (uint64_t v = 100; v < (1ULL << 62); v = v * 3 + 7) {
		unsigned i = lh_index(v);

		assert_true(i < LH_BUCKETS);
		assert_true(lh_lower(i) <= v && v < lh_lower(i) + lh_width(i));
		/* relative width at most 1/64 */
		assert_true(lh_width(i) * 64 <= lh_lower(i) || i < LH_EXACT);
		if (i + 1 < LH_BUCKETS)
			assert_int_equal(lh_lower(i) + lh_width(i), lh_lower(i + 1));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the 0-based index of the value of rank ceil(p/100 * N) in sorted samples */
static double ceil_rank(double p)
{
	double r = p / 100.0 * 100000;
	double c = (double)(long)r;

	return (c < r ? c + 1 : c) - 1;
}

static void percentiles(void **state)
{
	static struct lat_hist h;
	enum { N = 100000 };
	uint64_t *v = xcalloc(N, sizeof(*v)), seed = 42;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_true(lh_percentile(&h, 50) == 0);
	for (int i = 0; i < N; i++) {
		/* mostly ~1 us, a tail to milliseconds */
		v[i] = 500 + co_rand(&seed) % 1000 + (i % 100 == 0 ? co_rand(&seed) % 5000000 : 0);
		lh_record(&h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	assert_int_equal(h.count, N);
	assert_int_equal(h.max, v[N - 1]);
	assert_true(lh_percentile(&h, 100) == (double)v[N - 1]);
	for (double p = 10; p < 100; p += 0.5) {
		uint64_t want = v[(size_t)ceil_rank(p)];
		double got = lh_percentile(&h, p);

		if (got < (double)want * (1 - 1.0 / 64) || got > (double)want * (1 + 1.0 / 64))
			fail_msg("p%.1f: %.1f, the sorted samples say %llu", p, got, (unsigned long long)want);
	}
	free(v);
}

static void exact_small_values(void **state)
{
	static struct lat_hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (uint64_t v = 1; v <= 100; v++)
		lh_record(&h, v);
	assert_true(lh_percentile(&h, 50) == 50);
	assert_true(lh_percentile(&h, 99) == 99);
	assert_true(lh_percentile(&h, 1) == 1);
	assert_int_equal(h.sum, 5050);
}

static void random_numbers(void **state)
{
	uint64_t a = 1, b = 1, z = 0;

	(void)state;
	assert_int_equal(co_rand(&a), co_rand(&b));   /* the same seed, the same sequence */
	assert_true(co_rand(&a) != co_rand(&a));
	assert_true(co_rand(&z) != 0);                /* a zero seed still moves */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets), cmocka_unit_test(percentiles),
		cmocka_unit_test(exact_small_values), cmocka_unit_test(random_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
