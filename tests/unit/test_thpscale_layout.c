// SPDX-License-Identifier: GPL-2.0-or-later
/* thpscale's arithmetic: layout, holes, classification, defaults, checks. */
#include "unit.h"
#include "workloads/thpscale/layout.h"

#define MB (1ull << 20)

static void test_layout_split(void **state)
{
	struct thp_layout l;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 512 * MB, 1), 0);
	assert_int_equal(l.thread_size, 512 * MB);
	assert_int_equal(l.nr_faults, 128);            /* half the region in 2 MB steps */
	assert_int_equal(l.file_span, 128 * MB);
	assert_int_equal(l.second_map, 128 * 2 * MB + 2 * MB);
	assert_int_equal(l.file_region, 128 * MB);

	assert_int_equal(thp_layout_init(&l, 512 * MB, 2), 0);
	assert_int_equal(l.thread_size, 256 * MB);
	assert_int_equal(l.nr_faults, 64);

	/* 512M / 3 = 170.67M, rounded down to 2 MB */
	assert_int_equal(thp_layout_init(&l, 512 * MB, 3), 0);
	assert_int_equal(l.thread_size, 170 * MB);
	assert_int_equal(l.nr_faults, 42);
	assert_int_equal(l.file_span % 4096, 0);
}

static void test_layout_too_small(void **state)
{
	struct thp_layout l;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 3 * MB, 1), -1);
	assert_int_equal(thp_layout_init(&l, 4 * MB, 1), 0);
	assert_int_equal(l.nr_faults, 1);
	assert_int_equal(thp_layout_init(&l, 8 * MB, 3), -1);
	assert_int_equal(thp_layout_init(&l, 8 * MB, 0), -1);
	assert_int_equal(thp_min_mapsize(3), 12 * MB);
	assert_int_equal(thp_layout_init(&l, thp_min_mapsize(3), 3), 0);
}

static void test_file_offsets_stay_in_region(void **state)
{
	(void)state;
	for (uint64_t ms = 4 * MB; ms <= 1024 * MB; ms = ms * 3 + 2 * MB) {
		for (unsigned t = 1; t <= 64; t++) {
			struct thp_layout l;
			if (thp_layout_init(&l, ms, t))
				continue;
			/* last thread's span of instance 1 ends inside instance 1's region */
			uint64_t end = thp_file_offset(&l, 1, t - 1) + l.file_span;
			assert_true(end <= 2 * l.file_region);
			assert_true(thp_file_offset(&l, 1, 0) == l.file_region);
			assert_int_equal(thp_file_offset(&l, 1, t - 1) % 4096, 0);
		}
	}
}

static void test_align_and_holes(void **state)
{
	uintptr_t a = 0x40000000;

	(void)state;
	assert_int_equal(thp_align_up(a, 2 * MB), a);
	assert_int_equal(thp_align_up(a + 1, 2 * MB), a + 2 * MB);
	assert_int_equal(thp_align_up(a + 2 * MB - 1, 2 * MB), a + 2 * MB);

	/* aligned start: a hole at the start of each of the 4 blocks */
	assert_int_equal(thp_hole_count(a, 8 * MB), 4);
	assert_int_equal(thp_hole_addr(a, 0), a);
	assert_int_equal(thp_hole_addr(a, 3), a + 6 * MB);
	/* one page in: the first aligned block is 2 MB on, and the block at
	 * 8 MB has only 4K of its hole inside the range */
	assert_int_equal(thp_hole_count(a + 4096, 8 * MB), 3);
	assert_int_equal(thp_hole_addr(a + 4096, 0), a + 2 * MB);
	/* a hole exactly fits / does not */
	assert_int_equal(thp_hole_count(a, 1 * MB), 1);
	assert_int_equal(thp_hole_count(a, 1 * MB - 4096), 0);
	/* no aligned block starts inside the range */
	assert_int_equal(thp_hole_count(a + MB + MB / 2, MB), 0);
	assert_int_equal(thp_hole_count(a, 0), 0);
}

static void test_holes_inside_range(void **state)
{
	(void)state;
	for (uintptr_t base = 0x7f0000000000; base < 0x7f0000000000 + 4 * MB; base += 4096 * 37) {
		for (size_t len = 1 * MB; len < 12 * MB; len += 4096 * 113) {
			size_t n = thp_hole_count(base, len);
			for (size_t i = 0; i < n; i++) {
				uintptr_t h = thp_hole_addr(base, i);
				assert_int_equal(h % (2 * MB), 0);
				assert_true(h >= base);
				assert_true(h + MB <= base + len);
			}
			/* and the next one would not fit */
			assert_true(thp_hole_addr(base, n) + MB > base + len);
		}
	}
}

static void test_classify(void **state)
{
	unsigned char v[448];
	size_t n = thp_probe_pages(4096);

	(void)state;
	assert_int_equal(n, 448);               /* pages 64..511 */
	assert_int_equal(thp_probe_pages(65536), 1);
	memset(v, 1, sizeof(v));
	assert_int_equal(thp_classify(v, n), THP_HUGE);
	/* a base fault maps only page 0: nothing from page 64 on is resident */
	memset(v, 0, sizeof(v));
	assert_int_equal(thp_classify(v, n), THP_BASE);
	/* an mTHP (e.g. 512K) covers page 64 but not the last page */
	memset(v, 0, sizeof(v));
	memset(v, 1, 64);
	assert_int_equal(thp_classify(v, n), THP_BASE);
	/* only bit 0 means resident; the other bits are reserved */
	memset(v, 0xfe, sizeof(v));
	assert_int_equal(thp_classify(v, n), THP_BASE);
	assert_int_equal(thp_classify(v, 0), THP_BASE);
}

static void expect_list(unsigned min, unsigned max, unsigned cpus, const char *want)
{
	unsigned long long v[128];
	size_t n = thp_threads_stride(min, max, cpus, v, 128);
	char buf[512] = "";
	size_t o = 0;

	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%llu", i ? "," : "", v[i]);
	assert_string_equal(buf, want);
}

static void test_threads_stride(void **state)
{
	char buf[128];

	(void)state;
	expect_list(1, 1, 1, "1");
	expect_list(1, 4, 1, "1,3,4");
	expect_list(1, 8, 2, "1,3,5,7,8");
	expect_list(1, 32, 8, "1,3,5,7,12,18,24,30,32");
	expect_list(2, 8, 2, "2,4,6,8");
	expect_list(1, 48, 8, "1,4,7,12,21,30,48");
	expect_list(1, 64, 4, "1,4,7,8,12,15,21,22,29,30,36,43,50,57,64");
	expect_list(0, 8, 2, "");
	thp_threads_default(2, buf, sizeof(buf));
	assert_string_equal(buf, "1,3,5,7,8");
	thp_threads_default(16, buf, sizeof(buf));
	assert_string_equal(buf, "1,3,5,7,12,18,24,30,32");
	thp_threads_default(0, buf, sizeof(buf));
	assert_string_equal(buf, "1,3,4");
}

static void test_auto_mapsize(void **state)
{
	(void)state;
	/* mmtests' 80% of memory; 60% when the data file is in memory too */
	assert_int_equal(thp_auto_mapsize(10ull << 30, 1, 0, false), 8ull << 30);
	assert_int_equal(thp_auto_mapsize(10ull << 30, 1, 0, true), 6ull << 30);
	assert_int_equal(thp_auto_mapsize(10ull << 30, 2, 0, false), 4ull << 30);
	assert_int_equal(thp_auto_mapsize(24ull << 30, 1, 1ull << 30, true), 768 * MB);
	assert_int_equal(thp_auto_mapsize(0, 1, 1ull << 30, false), 768 * MB);
	assert_int_equal(thp_auto_mapsize(0, 1, 0, false), 0);
	assert_int_equal(thp_auto_mapsize(1000 * MB + 12345, 3, 0, true) % (2 * MB), 0);
	/* what auto picks always passes the check */
	for (unsigned inst = 1; inst <= 8; inst++) {
		struct strbuf err = STRBUF_INIT;
		for (int mem = 0; mem < 2; mem++) {
			uint64_t node = (7898ull << 20) + 4096, lim = inst == 3 ? 1ull << 30 : 0;
			uint64_t m = thp_auto_mapsize(node, inst, lim, mem);
			assert_int_equal(thp_check_mapsize(m, inst, 8, node, lim, mem, &err), WL_OK);
		}
		strbuf_release(&err);
	}
}

static void test_check_mapsize(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(thp_check_mapsize(512 * MB, 1, 2, 24ull << 30, 0, true, &err), WL_OK);
	assert_int_equal(thp_check_mapsize(512 * MB, 1, 2, 0, 0, true, &err), WL_OK);

	assert_int_equal(thp_check_mapsize(20ull << 30, 1, 2, 24ull << 30, 0, true, &err), WL_UNSUPPORTED);
	assert_non_null(strstr(strbuf_str(&err), "node"));
	strbuf_reset(&err);
	/* 4G x 5/4 = 5G, well within 90% of 24G */
	assert_int_equal(thp_check_mapsize(4ull << 30, 1, 2, 24ull << 30, 0, true, &err), WL_OK);
	/* 5G x 4 = 20G of 24G: fits only when the file is on a real disk */
	assert_int_equal(thp_check_mapsize(5ull << 30, 4, 2, 24ull << 30, 0, false, &err), WL_OK);
	assert_int_equal(thp_check_mapsize(5ull << 30, 4, 2, 24ull << 30, 0, true, &err), WL_UNSUPPORTED);
	strbuf_reset(&err);

	assert_int_equal(thp_check_mapsize(512 * MB, 1, 2, 24ull << 30, 256 * MB, true, &err), WL_BAD_CONFIG);
	assert_non_null(strstr(strbuf_str(&err), "memcg_limit"));
	strbuf_reset(&err);
	assert_int_equal(thp_check_mapsize(224 * MB, 1, 2, 24ull << 30, 256 * MB, true, &err), WL_OK);

	assert_int_equal(thp_check_mapsize(4 * MB, 1, 2, 24ull << 30, 0, true, &err), WL_BAD_CONFIG);
	assert_non_null(strstr(strbuf_str(&err), "too small"));
	strbuf_release(&err);
}

static void test_vmstat_parse(void **state)
{
	uint64_t v[THP_NVMSTAT];
	const char *text =
		"nr_free_pages 123\n"
		"thp_fault_alloc_extra 99\n"
		"thp_fault_alloc 7\n"
		"thp_fault_fallback 3\n"
		"compact_stall 11\n"
		"compact_fail 1\n"
		"compact_success 10\n"
		"pgmigrate_success 4096";   /* last line without newline */

	(void)state;
	thp_vmstat_parse(text, v);
	assert_int_equal(v[0], 7);
	assert_int_equal(v[1], 3);
	assert_int_equal(v[2], 11);
	assert_int_equal(v[3], 1);
	assert_int_equal(v[4], 10);
	assert_true(v[5] == THP_VMSTAT_MISSING);   /* compact_isolated absent */
	assert_int_equal(v[6], 4096);
	assert_string_equal(thp_vmstat_keys[5], "compact_isolated");

	/* since 5.8 a longer key follows each fallback counter: a key matches
	 * only whole, whatever comes after it */
	thp_vmstat_parse("thp_fault_alloc 20\n"
			 "thp_fault_fallback 3\n"
			 "thp_fault_fallback_charge 5\n"
			 "compact_stall 0\n"
			 "compact_stall_extra 9\n", v);
	assert_int_equal(v[0], 20);
	assert_int_equal(v[1], 3);
	assert_int_equal(v[2], 0);
	assert_true(v[3] == THP_VMSTAT_MISSING);
	/* no text, no counters */
	thp_vmstat_parse("", v);
	for (int k = 0; k < THP_NVMSTAT; k++)
		assert_true(v[k] == THP_VMSTAT_MISSING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_split),
		cmocka_unit_test(test_layout_too_small),
		cmocka_unit_test(test_file_offsets_stay_in_region),
		cmocka_unit_test(test_align_and_holes),
		cmocka_unit_test(test_holes_inside_range),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_threads_stride),
		cmocka_unit_test(test_auto_mapsize),
		cmocka_unit_test(test_check_mapsize),
		cmocka_unit_test(test_vmstat_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
