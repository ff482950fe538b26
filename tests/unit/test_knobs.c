// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The knob service (core/knobs.h) against fake trees (LRUBENCH_PROCSYS_ROOT,
 * LRUBENCH_SYSFS_ROOT): names and the allowed trees, what a read back
 * matches, apply + restore by the registry, a refused value left unchanged,
 * a marker recovered as after a SIGKILL; [settings] in the config.
 */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/config.h"
#include "core/knobs.h"
#include "core/util.h"

static char root[64], work[96];

static void put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/proc/%s", root, rel);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
}

static char *get(const char *rel)
{
	char *p = xasprintf("%s/proc/%s", root, rel);
	char *t = read_file_str(p, NULL);

	free(p);
	assert_non_null(t);
	return t;
}

static int setup(void **state)
{
	char *d;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/lrubench-knobs.XXXXXX");
	assert_non_null(mkdtemp(root));
	d = xasprintf("%s/proc/vm", root);
	assert_int_equal(mkdir_p(d, 0755), 0);
	free(d);
	d = xasprintf("%s/proc", root);
	setenv("LRUBENCH_PROCSYS_ROOT", d, 1);
	free(d);
	put("vm/swappiness", "60\n");
	snprintf(work, sizeof(work), "%s/work", root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cleanup_run_all();
	remove_tree(root);
	unsetenv("LRUBENCH_PROCSYS_ROOT");
	return 0;
}

static void test_resolve(void **state)
{
	struct strbuf err = STRBUF_INIT;
	char p[KNOB_NAME_MAX];

	(void)state;
	assert_int_equal(knob_resolve("vm.swappiness", p, sizeof(p), &err), 0);
	assert_string_equal(p, "/proc/sys/vm/swappiness");
	assert_int_equal(knob_resolve("/sys/kernel/mm/transparent_hugepage/enabled", p, sizeof(p), &err), 0);
	assert_int_equal(knob_resolve("/sys/module/zswap/parameters/enabled", p, sizeof(p), &err), 0);
	assert_int_equal(knob_resolve("kernel.numa_balancing", p, sizeof(p), &err), 0);
	assert_string_equal(p, "/proc/sys/kernel/numa_balancing");
	/* outside, or a way out */
	assert_int_equal(knob_resolve("kernel.core_pattern", p, sizeof(p), &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "outside the trees"));
	strbuf_reset(&err);
	assert_int_equal(knob_resolve("/etc/passwd", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("/sys/kernel/mm/../../../etc/x", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("/sys/kernel/mm/", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("/sys/kernel/mm", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("vm..swappiness", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("vm.swap piness", p, sizeof(p), &err), -1);
	assert_int_equal(knob_resolve("", p, sizeof(p), &err), -1);
	strbuf_release(&err);
}

static void test_value_matches(void **state)
{
	(void)state;
	assert_true(knob_value_matches("10", "10"));
	assert_true(knob_value_matches("7", "0x0007"));
	assert_true(knob_value_matches("y", "0x0007"));
	assert_true(knob_value_matches("n", "0x0000"));
	assert_true(knob_value_matches("1", "Y"));
	assert_true(knob_value_matches("always", "[always] madvise never"));
	assert_true(knob_value_matches("4096 87380", "4096\t87380\n"));
	assert_false(knob_value_matches("10", "0"));
	assert_false(knob_value_matches("y", "0x0000"));
	assert_false(knob_value_matches("always", "always [madvise] never"));
	assert_false(knob_value_matches("banana", "0"));
}

static void test_apply_and_restore(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct knob k;
	char *t;

	(void)state;
	assert_int_equal(knob_init(&k, "vm.swappiness", "10", "test", &err), 0);
	assert_int_equal(knob_check(k.path, &err), LB_EXIT_OK);
	assert_int_equal(knob_apply(&k, work, &err), LB_EXIT_OK);
	assert_string_equal(k.old, "60");
	assert_string_equal(k.now, "10");
	assert_true(path_exists(k.marker));
	t = get("vm/swappiness");
	assert_string_equal(t, "10");
	free(t);
	cleanup_run_all();   /* exit, an error path, a second SIGINT */
	t = get("vm/swappiness");
	assert_string_equal(t, "60");
	free(t);
	assert_false(path_exists(k.marker));
	knob_restore(&k);    /* already undone */
	strbuf_release(&err);
}

static void test_missing_and_refused(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct knob k;
	char *p, *t;

	(void)state;
	assert_int_equal(knob_check("/proc/sys/vm/nothing", &err), LB_EXIT_UNSUPPORTED);
	strbuf_reset(&err);
	p = xasprintf("%s/proc/vm/ro", root);
	put("vm/ro", "1\n");
	assert_int_equal(chmod(p, 0444), 0);
	assert_int_equal(knob_check("/proc/sys/vm/ro", &err), LB_EXIT_USAGE);
	assert_non_null(strstr(strbuf_str(&err), "read-only"));
	free(p);
	/* a fake file takes anything: a value that reads back different stands
	 * for the kernel's refusal (a sysfs file that rounds or ignores it) */
	strbuf_reset(&err);
	put("vm/swappiness", "60\n");
	assert_int_equal(knob_init(&k, "vm.swappiness", "10", "test", &err), 0);
	snprintf(k.file, sizeof(k.file), "%s/proc/vm/nope/x", root);   /* unwritable */
	assert_int_not_equal(knob_apply(&k, work, &err), LB_EXIT_OK);
	t = get("vm/swappiness");
	assert_string_equal(t, "60\n");
	free(t);
	assert_int_equal(k.id, 0);
	strbuf_release(&err);
}

static void test_recover_after_sigkill(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct knob k;
	char *t, *to;

	(void)state;
	assert_int_equal(knob_init(&k, "vm.swappiness", "10", "test", &err), 0);
	assert_int_equal(knob_apply(&k, work, &err), LB_EXIT_OK);
	cleanup_forget_all();   /* SIGKILL */
	to = xasprintf("%s/lrubench-knob-4194400.7", work);
	assert_int_equal(rename(k.marker, to), 0);
	/* a live run's marker is not touched */
	assert_int_equal(knobs_recover(work), 1);
	t = get("vm/swappiness");
	assert_string_equal(t, "60");
	free(t);
	assert_false(path_exists(to));
	/* a marker of a knob someone changed since: left as it is */
	put("vm/swappiness", "30\n");
	{
		static const char m[] = "lrubench knob marker 1\n/proc/sys/vm/swappiness\n60\n10\n";

		write_file_atomic(to, m, strlen(m));
	}
	assert_int_equal(knobs_recover(work), 0);
	t = get("vm/swappiness");
	assert_string_equal(t, "30\n");
	free(t);
	/* a marker naming a file outside the trees is not followed */
	{
		static const char m[] = "lrubench knob marker 1\n/etc/passwd\nx\ny\n";

		write_file_atomic(to, m, strlen(m));
	}
	assert_int_equal(knobs_recover(work), 0);
	assert_false(path_exists(to));
	free(to);
	strbuf_release(&err);
}

static void test_config_settings(void **state)
{
	struct config cfg;
	struct strbuf err = STRBUF_INIT;
	static const char ini[] = "[settings]\nvm.swappiness = 10\n/proc/sys/vm/swappiness = 20\n";
	static const char ini2[] = "[settings]\nvm.swappiness = 0,60,100\n";

	(void)state;
	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_load_text(&cfg, "a.conf", ini, strlen(ini), &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "set twice"));
	config_release(&cfg);
	strbuf_reset(&err);
	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_load_text(&cfg, "b.conf", ini2, strlen(ini2), &err), 0);
	assert_int_equal(cfg.nsettings, 1);
	assert_true(config_setting_is_axis(&cfg.settings[0]));
	assert_string_equal(cfg.settings[0].origin, "b.conf:2");
	/* --set replaces a file's value; keep drops it */
	assert_int_equal(config_set(&cfg, "settings./proc/sys/vm/swappiness=5", &err), 0);
	assert_string_equal(cfg.settings[0].value, "5");
	assert_int_equal(config_set(&cfg, "settings.vm.swappiness=7", &err), -1);   /* two --set */
	assert_int_equal(config_set(&cfg, "settings.vm.swappiness=keep", &err), -1);
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "settings.kernel.core_pattern=x", &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "--set settings.kernel.core_pattern=x: settings.kernel.core_pattern"));
	assert_int_equal(config_set(&cfg, "settings.vm.dirty_ratio=1,,2", &err), -1);
	assert_int_equal(config_set(&cfg, "settings.vm.dirty_ratio=1,1", &err), -1);
	config_release(&cfg);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_value_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_and_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recover_after_sigkill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_settings, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
