// SPDX-License-Identifier: GPL-2.0-or-later
/* find_in_path: the one PATH search (core/path.h), on real files in a
 * scratch folder and a PATH set for each case. */
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "core/path.h"

static char *make_prog(const char *rel, mode_t mode)
{
	char *p = unit_put(rel, "#!/bin/sh\nexit 0\n");

	assert_int_equal(chmod(p, mode), 0);
	return p;
}

static void with_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void with_path(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	assert_int_equal(setenv("PATH", sb.buf, 1), 0);
	strbuf_release(&sb);
}

static void first_executable_file_wins(void **state)
{
	char *noexec = make_prog("a/tool", 0644);
	char *dir = xasprintf("%s/b/tool", unit_tmp);
	char *good = make_prog("c/tool", 0755);
	char *later = make_prog("d/tool", 0755);
	char *got;

	(void)state;
	assert_int_equal(mkdir_p(dir, 0755), 0);   /* a folder called tool: not a program */
	with_path("%s/a:%s/b:%s/c:%s/d", unit_tmp, unit_tmp, unit_tmp, unit_tmp);
	got = find_in_path("tool");
	assert_non_null(got);
	assert_string_equal(got, good);
	assert_true(program_in_path("tool"));
	assert_false(program_in_path("no-such-tool"));
	assert_null(find_in_path("no-such-tool"));
	assert_null(find_in_path(""));
	free(got);
	free(noexec);
	free(dir);
	free(good);
	free(later);
}

/* an empty entry means the current folder to execvp; not to us (root) */
static void empty_entries_are_not_the_current_folder(void **state)
{
	char *here = make_prog("cwd/tool2", 0755);
	char *old = getcwd(NULL, 0);
	char *dir = xasprintf("%s/cwd", unit_tmp);

	(void)state;
	assert_int_equal(chdir(dir), 0);
	with_path("::%s/nothing:", unit_tmp);
	assert_null(find_in_path("tool2"));
	assert_int_equal(chdir(old), 0);
	free(here);
	free(old);
	free(dir);
}

/* PATH unset or empty: FALLBACK_PATH, which holds /bin and /usr/bin (sh is in one) */
static void unset_or_empty_path_uses_the_fallback(void **state)
{
	char *got;

	(void)state;
	assert_int_equal(unsetenv("PATH"), 0);
	got = find_in_path("sh");
	assert_non_null(got);
	assert_true(!strcmp(got, "/bin/sh") || !strcmp(got, "/usr/bin/sh") ||
		    !strcmp(got, "/usr/local/bin/sh"));
	free(got);
	with_path("%s", "");
	got = find_in_path("sh");
	assert_non_null(got);
	free(got);
	/* a PATH that is set is the whole search: no fallback behind it */
	with_path("%s/nothing", unit_tmp);
	assert_null(find_in_path("sh"));
}

static void a_name_with_a_slash_is_not_searched(void **state)
{
	char *good = make_prog("e/tool3", 0755);
	char *noexec = make_prog("e/tool4", 0644);
	char *got;

	(void)state;
	with_path("%s/e", unit_tmp);
	got = find_in_path(good);
	assert_non_null(got);
	assert_string_equal(got, good);
	free(got);
	assert_null(find_in_path(noexec));
	assert_null(find_in_path("e/tool3"));   /* relative to the current folder, not PATH */
	free(good);
	free(noexec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_executable_file_wins),
		cmocka_unit_test(empty_entries_are_not_the_current_folder),
		cmocka_unit_test(unset_or_empty_path_uses_the_fallback),
		cmocka_unit_test(a_name_with_a_slash_is_not_searched),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
