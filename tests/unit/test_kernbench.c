// SPDX-License-Identifier: GPL-2.0-or-later
/* kernbench and fetch/extract pure parts: jobs defaults, config_target kinds,
 * URL -> cache key, sha256 hex parsing, transient errors, entry checks. */
#include "unit.h"
#include <curl/curl.h>
#include "net/archive_extract.h"
#include "net/fetch.h"
#include "workloads/kernbench/kernbench.h"

static void jobs_list(int cpus, const char *want)
{
	unsigned long long v[64];
	size_t n = kernbench_default_jobs(cpus, v, 64);
	char buf[256] = "";
	size_t o = 0;

	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%llu", i ? "," : "", v[i]);
	assert_string_equal(buf, want);
}

static void test_jobs_default(void **state)
{
	(void)state;
	jobs_list(1, "1,2");
	jobs_list(2, "1,2,4");
	jobs_list(3, "1,2,4,6");
	jobs_list(4, "1,2,4,8");
	jobs_list(6, "1,2,4,8,12");
	jobs_list(0, "1,2");       /* unknown CPU count counts as 1 */
	jobs_list(64, "1,2,4,8,16,32,64,128");
}

static void test_jobs_default_bounded(void **state)
{
	unsigned long long v[3];

	(void)state;
	assert_int_equal(kernbench_default_jobs(64, v, 3), 3);
	assert_int_equal(v[2], 4);
}

static void test_config_kind(void **state)
{
	(void)state;
	assert_int_equal(kernbench_config_kind("defconfig"), 0);
	assert_int_equal(kernbench_config_kind("tinyconfig"), 0);
	assert_int_equal(kernbench_config_kind("allnoconfig"), 0);
	assert_int_equal(kernbench_config_kind("/boot/config-6.1"), 1);
	assert_int_equal(kernbench_config_kind("./my.config"), 1);
	assert_int_equal(kernbench_config_kind("allyesconfig"), -1);
	assert_int_equal(kernbench_config_kind(""), -1);
	assert_int_equal(kernbench_config_kind(NULL), -1);
}

static void test_cache_key(void **state)
{
	char k[65];

	(void)state;
	/* sha256("") and sha256("abc"), the FIPS 180-2 vectors */
	fetch_cache_key("", k);
	assert_string_equal(k, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	fetch_cache_key("abc", k);
	assert_string_equal(k, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	fetch_cache_key("http://127.0.0.1:8000/linux.tar.xz", k);
	assert_int_equal(strlen(k), 64);
}

static void test_sha256_parse(void **state)
{
	unsigned char md[32];
	const char *good = "BA7816BF8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

	(void)state;
	assert_int_equal(sha256_parse_hex(good, md), 0);
	assert_int_equal(md[0], 0xba);
	assert_int_equal(md[31], 0xad);
	assert_int_equal(sha256_parse_hex("  ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n", NULL), 0);
	assert_int_equal(sha256_parse_hex("ba7816bf", NULL), -1);
	assert_int_equal(sha256_parse_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015adff", NULL), -1);
	assert_int_equal(sha256_parse_hex("za7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", NULL), -1);
	assert_int_equal(sha256_parse_hex("", NULL), -1);
	assert_int_equal(sha256_parse_hex(NULL, NULL), -1);
}

static void test_url_kinds(void **state)
{
	(void)state;
	assert_true(fetch_is_url("http://x/y"));
	assert_true(fetch_is_url("HTTPS://x/y"));
	assert_true(fetch_is_url("file:///usr/src/linux.tar.xz"));
	assert_false(fetch_is_url("ftp://x/y"));
	assert_true(fetch_has_scheme("ftp://x/y"));
	assert_false(fetch_is_url("/usr/src/linux-source-6.1.tar.xz"));
	assert_false(fetch_has_scheme("/usr/src/linux-source-6.1.tar.xz"));
	assert_false(fetch_has_scheme("dir/a://b"));
}

static void test_transient(void **state)
{
	(void)state;
	assert_false(fetch_is_transient(CURLE_COULDNT_CONNECT, 0, "127.0.0.1"));
	assert_false(fetch_is_transient(CURLE_COULDNT_CONNECT, 0, "::1"));
	assert_false(fetch_is_transient(CURLE_COULDNT_CONNECT, 0, "localhost"));
	assert_true(fetch_is_transient(CURLE_COULDNT_CONNECT, 0, "192.0.2.1"));
	assert_true(fetch_is_transient(CURLE_PARTIAL_FILE, 200, "127.0.0.1"));
	assert_true(fetch_is_transient(CURLE_OPERATION_TIMEDOUT, 0, ""));
	assert_true(fetch_is_transient(CURLE_HTTP_RETURNED_ERROR, 503, ""));
	assert_true(fetch_is_transient(CURLE_HTTP_RETURNED_ERROR, 429, ""));
	assert_false(fetch_is_transient(CURLE_HTTP_RETURNED_ERROR, 404, ""));
	assert_false(fetch_is_transient(CURLE_HTTP_RETURNED_ERROR, 403, ""));
	assert_false(fetch_is_transient(CURLE_FILE_COULDNT_READ_FILE, 0, ""));
	assert_false(fetch_is_transient(CURLE_WRITE_ERROR, 0, ""));
}

static void test_entry_names(void **state)
{
	(void)state;
	assert_null(archive_check_name("linux-6.1/mm/vmscan.c"));
	assert_null(archive_check_name("./linux/a..b/..c"));
	assert_non_null(archive_check_name("/etc/passwd"));
	assert_non_null(archive_check_name("linux/../../x"));
	assert_non_null(archive_check_name(".."));
	assert_non_null(archive_check_name("a/.."));
	assert_non_null(archive_check_name("a/../b"));
	assert_non_null(archive_check_name(""));
	assert_non_null(archive_check_name("/x"));
	assert_null(archive_check_name("x/"));
}

static void test_symlink_targets(void **state)
{
	(void)state;
	/* kernel-style relative links inside the tree are fine */
	assert_null(archive_check_symlink("linux/arch/arm64/boot/dts/arm/x.dtsi",
					  "../../../../arm/boot/dts/x.dtsi"));
	assert_null(archive_check_symlink("linux/a/l", "b/c"));
	assert_null(archive_check_symlink("linux/a/l", "../b"));
	assert_null(archive_check_symlink("toplink", "somefile"));
	/* leaving the top-level folder (it may be stripped) or the extraction */
	assert_non_null(archive_check_symlink("linux/l", ".."));
	assert_non_null(archive_check_symlink("linux/a/l", "../../x"));
	assert_non_null(archive_check_symlink("linux/a/l", "b/../../../x"));
	assert_non_null(archive_check_symlink("toplink", "../x"));
	assert_non_null(archive_check_symlink("linux/l", "/etc"));
	assert_non_null(archive_check_symlink("linux/l", "/usr/lib/x"));
	assert_non_null(archive_check_symlink("linux/l", ""));
	/* '.' components are no folders, in the name or in the target */
	assert_non_null(archive_check_symlink("./././linux/l", "../../../x"));
	assert_non_null(archive_check_symlink("./linux/l", ".."));
	assert_null(archive_check_symlink("./linux/a/l", "../b"));
	assert_null(archive_check_symlink("linux/./a/l", "../b"));
	assert_non_null(archive_check_symlink("linux/a/l", "./.././../x"));
	assert_null(archive_check_symlink("linux/a/l", "./../././b"));
	/* empty components ("a//b") are no folders either */
	assert_non_null(archive_check_symlink("linux//l", "../x"));
}

static void test_safe_perm(void **state)
{
	(void)state;
	assert_int_equal(archive_safe_perm(04755), 0755);
	assert_int_equal(archive_safe_perm(02755), 0755);
	assert_int_equal(archive_safe_perm(01777), 0775);
	assert_int_equal(archive_safe_perm(0666), 0664);
	assert_int_equal(archive_safe_perm(0644), 0644);
	assert_int_equal(archive_safe_perm(0700), 0700);
	assert_int_equal(archive_safe_perm(06775), 0775);
	assert_int_equal(archive_safe_perm(02775), 0775);
	assert_int_equal(archive_safe_perm(07777), 0775);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_default),
		cmocka_unit_test(test_jobs_default_bounded),
		cmocka_unit_test(test_config_kind),
		cmocka_unit_test(test_cache_key),
		cmocka_unit_test(test_sha256_parse),
		cmocka_unit_test(test_url_kinds),
		cmocka_unit_test(test_transient),
		cmocka_unit_test(test_entry_names),
		cmocka_unit_test(test_symlink_targets),
		cmocka_unit_test(test_safe_perm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
