// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fuzzers' seed corpora (fuzz/corpus/<harness>/, every hostile input of
 * issue 12 among them) replayed as a plain test: each harness is compiled
 * by the normal cc with its entry point renamed fuzz_one_<harness>, and this
 * driver feeds it every corpus file. A failed property abort()s, which
 * fails the test with the file named on stderr first.
 */
#include <dirent.h>
#include <errno.h>
#include "unit.h"

#define HARNESSES(X) X(results) X(config) X(sysbench) X(kimage) X(archive_policy) X(perf) \
	X(plan) X(manifest) X(render)
#define DECLARE(name) int fuzz_one_##name(const uint8_t *data, size_t size);
HARNESSES(DECLARE)

static void replay(const char *name, int (*one)(const uint8_t *, size_t))
{
	char *dir = xasprintf("fuzz/corpus/%s", name);
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t files = 0;

	if (!d)
		fail_msg("cannot open %s: %s (run from the source folder)", dir, strerror(errno));
	while ((de = readdir(d))) {
		char *path, *data;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		data = read_file_str(path, &len);
		if (!data)
			fail_msg("cannot read %s", path);
		fprintf(stderr, "%s\n", path);   /* named before a crash */
		one((const uint8_t *)data, len);
		free(data);
		free(path);
		files++;
	}
	closedir(d);
	free(dir);
	assert_true(files > 0);
}

#define TEST(name) \
	static void test_##name(void **state) { (void)state; replay(#name, fuzz_one_##name); }
HARNESSES(TEST)
#define ENTRY(name) cmocka_unit_test(test_##name),

int main(void)
{
	const struct CMUnitTest tests[] = { HARNESSES(ENTRY) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
