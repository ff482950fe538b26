// SPDX-License-Identifier: GPL-2.0-or-later
/* Sizes, times and lists as config files and --set spell them. */
#include "unit.h"
#include "core/util.h"

static void sizes(void **state)
{
	uint64_t b;
	(void)state;
	assert_int_equal(parse_size("4096", &b), 0); assert_int_equal(b, 4096);
	assert_int_equal(parse_size("64K", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("256M", &b), 0); assert_int_equal(b, 256ULL << 20);
	assert_int_equal(parse_size("1g", &b), 0); assert_int_equal(b, 1ULL << 30);
	assert_int_equal(parse_size("2GiB", &b), 0); assert_int_equal(b, 2ULL << 30);
	assert_int_equal(parse_size("1T", &b), 0); assert_int_equal(b, 1ULL << 40);
	assert_int_equal(parse_size("", &b), -1);
	assert_int_equal(parse_size("-1", &b), -1);
	assert_int_equal(parse_size("12Q", &b), -1);
	assert_int_equal(parse_size("1.5G", &b), -1);
	assert_int_equal(parse_size("M", &b), -1);
	assert_int_equal(parse_size("99999999999999999999", &b), -1);
	assert_int_equal(parse_size("17179869184T", &b), -1);   /* overflows 64 bits */
	assert_int_equal(parse_size("16777215T", &b), 0);       /* the largest in T */
	assert_int_equal(b, 16777215ULL << 40);
	/* "i" and "B" only after a unit: a plain number is bytes, nothing more */
	assert_int_equal(parse_size("64KB", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("64kb", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("1gib", &b), 0); assert_int_equal(b, 1ULL << 30);
	assert_int_equal(parse_size("5i", &b), -1);
	assert_int_equal(parse_size("5B", &b), -1);
	assert_int_equal(parse_size("1Gx", &b), -1);
	assert_int_equal(parse_size("0", &b), 0); assert_int_equal(b, 0);
}

static void whole_numbers(void **state)
{
	unsigned long long v;
	(void)state;
	assert_int_equal(parse_ull("0", &v), 0); assert_int_equal(v, 0);
	assert_int_equal(parse_ull("18446744073709551615", &v), 0);
	assert_true(v == 18446744073709551615ULL);
	assert_int_equal(parse_ull("18446744073709551616", &v), -1);   /* ERANGE */
	assert_int_equal(parse_ull("12abc", &v), -1);
	assert_int_equal(parse_ull("-1", &v), -1);   /* strtoull would say ULLONG_MAX */
	assert_int_equal(parse_ull("+1", &v), -1);
	assert_int_equal(parse_ull(" 1", &v), -1);
	assert_int_equal(parse_ull("", &v), -1);
	assert_int_equal(parse_ull(NULL, &v), -1);
}

static void times(void **state)
{
	double s;
	(void)state;
	assert_int_equal(parse_seconds("30", &s), 0); assert_true(s == 30);
	assert_int_equal(parse_seconds("30s", &s), 0); assert_true(s == 30);
	assert_int_equal(parse_seconds("2m", &s), 0); assert_true(s == 120);
	assert_int_equal(parse_seconds("1h", &s), 0); assert_true(s == 3600);
	assert_int_equal(parse_seconds("500ms", &s), 0); assert_true(s == 0.5);
	assert_int_equal(parse_seconds("1.5s", &s), 0); assert_true(s == 1.5);
	assert_int_equal(parse_seconds("-1", &s), -1);
	assert_int_equal(parse_seconds("10x", &s), -1);
	assert_int_equal(parse_seconds("", &s), -1);
	assert_int_equal(parse_seconds("2min", &s), 0); assert_true(s == 120);
	assert_int_equal(parse_seconds(".5", &s), 0); assert_true(s == 0.5);
	assert_int_equal(parse_seconds("1e999", &s), -1);
	assert_int_equal(parse_seconds("5 s", &s), -1);
	assert_int_equal(parse_seconds("1hour", &s), -1);
}

static void lists(void **state)
{
	unsigned long long v[64];
	size_t n;
	(void)state;
	assert_int_equal(parse_ull_list("1,2,4", v, 64, &n), 0);
	assert_int_equal(n, 3); assert_int_equal(v[2], 4);
	assert_int_equal(parse_ull_list("1-4", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[3], 4);
	assert_int_equal(parse_ull_list("1-32:x2", v, 64, &n), 0);
	assert_int_equal(n, 6); assert_int_equal(v[5], 32);
	/* the doubling that misses the top ends on the top */
	assert_int_equal(parse_ull_list("1-12:x2", v, 64, &n), 0);
	assert_int_equal(n, 5); assert_int_equal(v[3], 8); assert_int_equal(v[4], 12);
	assert_int_equal(parse_ull_list(" 1 , 3 ", v, 64, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(parse_ull_list("", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1,,2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("4-1", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("a", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-100", v, 64, &n), -1);   /* too many */
	assert_int_equal(parse_ull_list("0-8:x2", v, 64, &n), -1);
	/* a range of one */
	assert_int_equal(parse_ull_list("4-4", v, 64, &n), 0);
	assert_int_equal(n, 1); assert_int_equal(v[0], 4);
	assert_int_equal(parse_ull_list("4-4:x2", v, 64, &n), 0);
	assert_int_equal(n, 1); assert_int_equal(v[0], 4);
	/* doubling that lands on the top: 1,2,4,...,64 */
	assert_int_equal(parse_ull_list("1-64:x2", v, 64, &n), 0);
	assert_int_equal(n, 7); assert_int_equal(v[0], 1); assert_int_equal(v[6], 64);
	assert_int_equal(parse_ull_list("3-100:x4", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[2], 48); assert_int_equal(v[3], 100);
	/* ranges and items mixed, in the order given */
	assert_int_equal(parse_ull_list("8,1-3", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[0], 8); assert_int_equal(v[3], 3);
	/* a step needs a range and is at least x2 */
	assert_int_equal(parse_ull_list("4:x2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("4-4:x1", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-8:2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("-1", v, 64, &n), -1);
}

/* max is the size of the caller's array: never one entry more */
static void list_bounds(void **state)
{
	unsigned long long v[8];
	size_t n;
	(void)state;
	for (size_t i = 0; i < 8; i++)
		v[i] = 999;
	assert_int_equal(parse_ull_list("1-4", v, 4, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 4);
	assert_int_equal(v[4], 999);
	assert_int_equal(parse_ull_list("1-5", v, 4, &n), -1);
	assert_int_equal(v[4], 999);
	assert_int_equal(parse_ull_list("1,2,3,4,5", v, 4, &n), -1);
	assert_int_equal(v[4], 999);
}

static void strbufs(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char b[32];
	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_true(!strncmp(sb.buf, "0,1,2,", 6));
	strbuf_release(&sb);
	format_size(256ULL << 20, b, sizeof(b)); assert_string_equal(b, "256M");
	format_size(1000, b, sizeof(b)); assert_string_equal(b, "1000");
	format_size(3ULL << 30, b, sizeof(b)); assert_string_equal(b, "3G");
	format_size(1ULL << 40, b, sizeof(b)); assert_string_equal(b, "1T");
	format_size(1ULL << 50, b, sizeof(b)); assert_string_equal(b, "1024T");
	format_size(0, b, sizeof(b)); assert_string_equal(b, "0");
	format_size(1024, b, sizeof(b)); assert_string_equal(b, "1K");
	format_size(1536, b, sizeof(b)); assert_string_equal(b, "1536");
	format_size(1ULL << 20, b, sizeof(b)); assert_string_equal(b, "1M");
	format_size(3ULL << 39, b, sizeof(b)); assert_string_equal(b, "1536G");
}

static void atomic_write(void **state)
{
	char dir[] = "/tmp/lrubench-unit.XXXXXX", *path, *back;
	size_t len;
	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/a/b", dir);
	assert_int_equal(mkdir_p(path, 0755), 0);
	free(path);
	path = xasprintf("%s/a/b/c.json", dir);
	assert_int_equal(write_file_atomic(path, "{}\n", 3), 0);
	back = read_file_str(path, &len);
	assert_non_null(back);
	assert_int_equal(len, 3);
	free(back);
	assert_int_equal(remove_tree(dir), 0);
	assert_false(path_exists(dir));
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes), cmocka_unit_test(whole_numbers), cmocka_unit_test(times),
		cmocka_unit_test(lists), cmocka_unit_test(list_bounds),
		cmocka_unit_test(strbufs), cmocka_unit_test(atomic_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
