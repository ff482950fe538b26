// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_size = auto (core/file_sizing.c): vm-scalability's hw_vars rule
 * ROTATE_BYTES = min(1 << 42, MemAvailable << 8) on several memory shapes,
 * divided between files as the cases do (readtwice's container case: 1;
 * case-lru-file-mmap-read: nr_task), and what the results record.
 */
#include "unit.h"
#include "core/file_sizing.h"

#define GiB (1ULL << 30)
#define TiB (1ULL << 40)

static void rule_shapes(void **state)
{
	(void)state;
	/* below 16 GiB available the 256x limit wins, above it the 4 TiB cap */
	assert_true(rotate_bytes(1 * GiB) == 256 * GiB);
	assert_true(rotate_bytes(4 * GiB) == 1 * TiB);
	assert_true(rotate_bytes(16 * GiB - 4096) == (16 * GiB - 4096) << 8);
	assert_true(rotate_bytes(16 * GiB) == 4 * TiB);
	assert_true(rotate_bytes(251 * GiB) == 4 * TiB);      /* the posted 251 GB machines */
	assert_true(rotate_bytes(~0ULL >> 1) == 4 * TiB);      /* no overflow */
	assert_true(rotate_bytes(0) == 0);
}

static void divided(void **state)
{
	struct file_sizing fs;

	(void)state;
	/* Alex Shi's containers: one file of the whole ROTATE_BYTES in each of 80 */
	file_size_auto(251 * GiB, 1, 80, 1 << 20, "per memcg", &fs);
	assert_true(fs.rotate_bytes == 4 * TiB);
	assert_true(fs.file_size == 4 * TiB);
	assert_int_equal(fs.files, 80);
	/* the stock mmap-read case on 96 threads: ROTATE_BYTES / 96 each, whole pages */
	file_size_auto(200 * GiB, 96, 96, 1 << 20, "per task", &fs);
	assert_true(fs.file_size == 4 * TiB / 96 / 4096 * 4096);
	assert_true(fs.file_size % 4096 == 0);
	assert_true(fs.file_size * 96 <= 4 * TiB);
	/* this machine's shape: 24 GiB, 2 tasks */
	file_size_auto(20 * GiB, 2, 2, 1 << 20, "per task", &fs);
	assert_true(fs.file_size == 2 * TiB);
	/* a tiny machine: 256 x 64 MiB = 16 GiB over 4096 files is 4 MiB each */
	file_size_auto(64ULL << 20, 4096, 4096, 1 << 20, "per task", &fs);
	assert_true(fs.file_size == 4ULL << 20);
	/* never below the option's minimum; divisor 0 counts as 1 */
	file_size_auto(1ULL << 20, 100000, 1, 1 << 20, "x", &fs);
	assert_true(fs.file_size == 1 << 20);
	file_size_auto(1 * GiB, 0, 1, 1 << 20, "x", &fs);
	assert_int_equal(fs.divisor, 1);
	assert_true(fs.file_size == 256 * GiB);
}

static void recorded(void **state)
{
	struct file_sizing fs;
	json_object *o, *v;
	char line[256];

	(void)state;
	file_size_auto(8 * GiB, 2, 2, 1 << 20, "ROTATE_BYTES / tasks", &fs);
	o = file_sizing_json(&fs);
	assert_true(json_object_object_get_ex(o, "rotate_bytes", &v));
	assert_true((uint64_t)json_object_get_int64(v) == 2 * TiB);
	assert_true(json_object_object_get_ex(o, "file_size", &v));
	assert_true((uint64_t)json_object_get_int64(v) == 1 * TiB);
	assert_true(json_object_object_get_ex(o, "mem_available", &v));
	assert_true((uint64_t)json_object_get_int64(v) == 8 * GiB);
	assert_true(json_object_object_get_ex(o, "rule", &v));
	assert_string_equal(json_object_get_string(v), "ROTATE_BYTES / tasks");
	json_object_put(o);
	file_sizing_describe(&fs, line, sizeof(line));
	assert_non_null(strstr(line, "ROTATE_BYTES"));
	assert_non_null(strstr(line, "2 files"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_shapes),
		cmocka_unit_test(divided),
		cmocka_unit_test(recorded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
