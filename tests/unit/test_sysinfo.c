// SPDX-License-Identifier: GPL-2.0-or-later
/* sysinfo.c: the bracketed sysfs choice, and the JSON keys run.json promises. */
#include "unit.h"
#include <json-c/json.h>
#include <unistd.h>
#include "core/sysinfo.h"

static void test_selected(void **state)
{
	char out[32];

	(void)state;
	sysfs_selected("always [madvise] never\n", out, sizeof(out));
	assert_string_equal(out, "madvise");
	sysfs_selected("[always] defer defer+madvise madvise never\n", out, sizeof(out));
	assert_string_equal(out, "always");
	sysfs_selected("always defer defer+madvise madvise [never]", out, sizeof(out));
	assert_string_equal(out, "never");
	sysfs_selected("always defer [defer+madvise] madvise never", out, sizeof(out));
	assert_string_equal(out, "defer+madvise");
	sysfs_selected("no brackets here", out, sizeof(out));
	assert_string_equal(out, "");
	sysfs_selected("unclosed [bracket", out, sizeof(out));
	assert_string_equal(out, "");
	sysfs_selected(NULL, out, sizeof(out));
	assert_string_equal(out, "");
	sysfs_selected("a [verylongvalue] b", out, 5);   /* truncated, still terminated */
	assert_string_equal(out, "very");
}

static void test_collect_json(void **state)
{
	static const char *const keys[] = {
		"kernel_release", "kernel_version", "machine", "hostname", "cmdline", "nr_cpus",
		"mem_total_kb", "numa_nodes", "thp_enabled", "thp_defrag", "cgroup_mode",
		"cpu_model", "virt",
	};
	struct sys_facts si;
	json_object *o, *v;

	(void)state;
	assert_int_equal(sysinfo_collect(&si), 0);
	assert_true(si.kernel_release[0] != '\0');
	assert_true(si.nr_cpus >= 1);
	assert_int_equal(si.nr_cpus, (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(si.mem_total_kb > 0);
	assert_true(si.numa_nodes >= 1);
	assert_non_null(si.cmdline);
	assert_true(!strcmp(si.cgroup_mode, "v1") || !strcmp(si.cgroup_mode, "v2") ||
		    !strcmp(si.cgroup_mode, "none"));
	if (!strstr(si.cmdline, "lrubench.virt="))
		assert_string_equal(si.virt, "host");
	o = sysinfo_to_json(&si);
	assert_int_equal(json_object_object_length(o), (int)(sizeof(keys) / sizeof(keys[0])));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_true(json_object_object_get_ex(o, keys[i], &v));
	json_object_object_get_ex(o, "mem_total_kb", &v);
	assert_int_equal(json_object_get_int64(v), (int64_t)si.mem_total_kb);
	json_object_object_get_ex(o, "kernel_release", &v);
	assert_string_equal(json_object_get_string(v), si.kernel_release);
	json_object_put(o);
	sysinfo_release(&si);
	assert_null(si.cmdline);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_collect_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
