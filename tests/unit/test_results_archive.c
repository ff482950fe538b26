// SPDX-License-Identifier: GPL-2.0-or-later
/* The rules of a results archive (core/results_archive.h): entry names and
 * compression suffixes. The archives themselves are tested in
 * tests/integration/pack.sh with the real helper. */
#include "unit.h"
#include "core/results_archive.h"

static void name(const char *n, const char *want)
{
	char buf[300];
	const char *why = ra_check_entry_name(n, buf, sizeof(buf));

	if (!want && why)
		fail_msg("'%s' refused: %s", n, why);
	if (want && (!why || !strstr(why, want)))
		fail_msg("'%s': got '%s', want '%s'", n, why ? why : "(accepted)", want);
}

static void entry_names(void **state)
{
	(void)state;
	name("lrubench-archive.json", NULL);
	name("6.8.0-rc2+", NULL);
	name("6.8.0-rc2+/", NULL);
	name("6.8.0-rc2+/run.json", NULL);
	name("base/logs/round-1/vm-console.log", NULL);
	name("base/logs/kernbench-build-j8-i1-m1.log", NULL);
	name("base/logs/a=b,c@d.log", NULL);
	name("", "empty name");
	name("/etc/passwd", "absolute path");
	name("base/../x", "'.' or '..' component");
	name("base/./x", "'.' or '..' component");
	name("..", "'.' or '..' component");
	name("base//x", "empty path component");
	name(".git/config", "its folder is not a label");
	name("-rf/run.json", "starts with '-'");
	name("base/.hidden", "hidden");
	name("base/a b", "the character ' '");
	name("base/a\\b", "the character '\\'");
	name("base/caf\xc3\xa9", "the byte 0xc3");
	name("base/a/b/c/d", NULL);
	name("base/a/b/c/d/e", "more than 5 levels deep");
}

static void long_names(void **state)
{
	char *n = xmalloc(RA_MAX_PATH + 16);

	(void)state;
	memcpy(n, "base/", 5);
	memset(n + 5, 'x', 256);
	n[5 + 256] = '\0';
	name(n, "longer than 255");
	memset(n + 5, 'x', RA_MAX_PATH);
	n[RA_MAX_PATH + 1] = '\0';
	name(n, "longer than 1024");
	free(n);
}

static void compressions(void **state)
{
	enum ra_compress c;

	(void)state;
	assert_true(ra_suffix_compress("a.tar.zst", &c) && c == RA_ZSTD);
	assert_true(ra_suffix_compress("a.tzst", &c) && c == RA_ZSTD);
	assert_true(ra_suffix_compress("x/a.tar.gz", &c) && c == RA_GZIP);
	assert_true(ra_suffix_compress("a.tgz", &c) && c == RA_GZIP);
	assert_true(ra_suffix_compress("a.tar.xz", &c) && c == RA_XZ);
	assert_false(ra_suffix_compress("a.tar", &c));
	assert_false(ra_suffix_compress(".tar.zst", &c));   /* nothing before the suffix */
	assert_true(ra_is_archive_name("a.tar"));
	assert_true(ra_is_archive_name("a.txz"));
	assert_false(ra_is_archive_name("run.json"));
	assert_false(ra_is_archive_name("a.zip"));
	assert_int_equal(ra_compress_parse("xz", &c), 0);
	assert_int_equal(c, RA_XZ);
	assert_int_equal(ra_compress_parse("bzip2", &c), -1);
	assert_string_equal(ra_compress_suffix(RA_GZIP), ".tar.gz");
	assert_string_equal(ra_compress_name(RA_ZSTD), "zstd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entry_names),
		cmocka_unit_test(long_names),
		cmocka_unit_test(compressions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
