// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * THP sysfs knobs against a fake tree (LRUBENCH_SYSFS_ROOT, the test hook):
 * probe without THP, reading the selected mode, set + restore, restore from
 * the cleanup registry (the exit and signal path).
 */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "workloads/thpscale/thp_sysfs.h"
#include "core/util.h"

static char root[64], work[96];

static void put(const char *name, const char *text)
{
	char *p = xasprintf("%s/kernel/mm/transparent_hugepage/%s", root, name);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static char *get(const char *name)
{
	char *p = xasprintf("%s/kernel/mm/transparent_hugepage/%s", root, name);
	char *t = read_file_str(p, NULL);

	free(p);
	assert_non_null(t);
	return t;
}

static int setup(void **state)
{
	char *d;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/lrubench-thpsysfs.XXXXXX");
	assert_non_null(mkdtemp(root));
	setenv("LRUBENCH_SYSFS_ROOT", root, 1);
	d = xasprintf("%s/kernel/mm/transparent_hugepage", root);
	assert_int_equal(mkdir_p(d, 0755), 0);
	free(d);
	put("enabled", "always [madvise] never\n");
	put("defrag", "always defer defer+madvise [madvise] never\n");
	snprintf(work, sizeof(work), "%s/work", root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cleanup_run_all();
	remove_tree(root);
	unsetenv("LRUBENCH_SYSFS_ROOT");
	return 0;
}

static void test_probe_without_thp(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char *p = xasprintf("%s/kernel/mm/transparent_hugepage/enabled", root);

	(void)state;
	assert_int_equal(thp_probe(&why), 0);
	unlink(p);
	assert_int_equal(thp_probe(&why), 1);
	assert_non_null(strstr(strbuf_str(&why), "CONFIG_TRANSPARENT_HUGEPAGE"));
	assert_non_null(strstr(strbuf_str(&why), p));
	free(p);
	strbuf_release(&why);
}

static void test_read_and_offers(void **state)
{
	char m[64];

	(void)state;
	assert_int_equal(thp_knob_read(THP_ENABLED, m, sizeof(m)), 0);
	assert_string_equal(m, "madvise");
	assert_int_equal(thp_knob_read(THP_DEFRAG, m, sizeof(m)), 0);
	assert_string_equal(m, "madvise");
	assert_int_equal(thp_knob_offers(THP_ENABLED, "never"), 1);
	assert_int_equal(thp_knob_offers(THP_ENABLED, "madvise"), 1);   /* the bracketed one */
	assert_int_equal(thp_knob_offers(THP_ENABLED, "defer"), 0);
	assert_int_equal(thp_knob_offers(THP_DEFRAG, "defer+madvise"), 1);
	/* an old kernel without defer+madvise */
	put("defrag", "[always] madvise never\n");
	assert_int_equal(thp_knob_offers(THP_DEFRAG, "defer+madvise"), 0);
}

static void test_set_and_restore(void **state)
{
	struct knob sv = { 0 };
	char *t, m[64];

	(void)state;
	assert_int_equal(thp_knob_set(&sv, THP_ENABLED, "never", work, "test"), 0);
	t = get("enabled");
	assert_string_equal(t, "never");
	free(t);
	/* the fake file now has no brackets: the whole value is the mode */
	assert_int_equal(thp_knob_read(THP_ENABLED, m, sizeof(m)), 0);
	assert_string_equal(m, "never");
	thp_knob_restore(&sv);
	t = get("enabled");
	assert_string_equal(t, "madvise");
	free(t);
	thp_knob_restore(&sv);   /* idempotent */
}

static void test_same_mode_changes_nothing(void **state)
{
	struct knob sv = { 0 };
	char *t;

	(void)state;
	assert_int_equal(thp_knob_set(&sv, THP_ENABLED, "madvise", work, "test"), 0);
	assert_int_equal(sv.id, 0);   /* nothing registered */
	t = get("enabled");
	assert_string_equal(t, "always [madvise] never\n");
	free(t);
}

static void test_restored_by_cleanup_registry(void **state)
{
	struct knob en = { 0 }, de = { 0 };
	char *t;

	(void)state;
	assert_int_equal(thp_knob_set(&en, THP_ENABLED, "always", work, "test"), 0);
	assert_int_equal(thp_knob_set(&de, THP_DEFRAG, "defer", work, "test"), 0);
	/* what exit(), an error path or a second SIGINT runs */
	cleanup_run_all();
	t = get("enabled");
	assert_string_equal(t, "madvise");
	free(t);
	t = get("defrag");
	assert_string_equal(t, "madvise");
	free(t);
	/* already undone: restore is a no-op now */
	thp_knob_restore(&en);
}

/* What a SIGKILL leaves: the knob changed, its marker, no undo run. The next
 * run (knobs_recover, here as if the run's pid were dead) puts back the
 * value from before, not the one it finds (issue 28: always/always stayed). */
static void test_recovered_after_sigkill(void **state)
{
	struct knob en = { 0 }, de = { 0 };
	char *t, *from, *to;

	(void)state;
	assert_int_equal(thp_knob_set(&en, THP_ENABLED, "always", work, "test"), 0);
	assert_int_equal(thp_knob_set(&de, THP_DEFRAG, "always", work, "test"), 0);
	assert_true(path_exists(en.marker) && path_exists(de.marker));
	cleanup_forget_all();   /* SIGKILL: no undo runs */
	/* the markers of a dead pid (pid_max is below 2^22 + 1) */
	from = xstrdup(en.marker);
	to = xasprintf("%s/lrubench-knob-4194400.0", work);
	assert_int_equal(rename(from, to), 0);
	free(from);
	free(to);
	from = xstrdup(de.marker);
	to = xasprintf("%s/lrubench-knob-4194400.1", work);
	assert_int_equal(rename(from, to), 0);
	free(from);
	free(to);
	t = get("enabled");
	assert_string_equal(t, "always");
	free(t);
	assert_int_equal(knobs_recover(work), 2);
	t = get("enabled");
	assert_string_equal(t, "madvise");
	free(t);
	t = get("defrag");
	assert_string_equal(t, "madvise");
	free(t);
	/* the markers are gone: a second run finds nothing to do */
	assert_int_equal(knobs_recover(work), 0);
}

static void test_set_fails_on_missing_file(void **state)
{
	char *p = xasprintf("%s/kernel/mm/transparent_hugepage/defrag", root);
	struct knob sv = { 0 };

	(void)state;
	unlink(p);
	free(p);
	assert_int_equal(thp_knob_set(&sv, THP_DEFRAG, "never", work, "test"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_probe_without_thp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_and_offers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_and_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_mode_changes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restored_by_cleanup_registry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_fails_on_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recovered_after_sigkill, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
