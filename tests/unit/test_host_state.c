// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host_state.c on a fake /proc and /sys tree (every value known), its
 * parsers, procfs.c's stat parser, and the real machine's host state.
 */
#include "unit.h"
#include <json-c/json.h>
#include <pthread.h>
#include "core/host_state.h"
#include "core/procfs.h"

static const char *str_at(json_object *o, const char *a, const char *b)
{
	json_object *v = json_object_object_get(o, a);

	if (b)
		v = v ? json_object_object_get(v, b) : NULL;
	return v ? json_object_get_string(v) : NULL;
}

static void test_parse_swaps(void **state)
{
	json_object *a;

	(void)state;
	a = host_parse_swaps("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	assert_int_equal(json_object_array_length(a), 0);
	json_object_put(a);
	a = host_parse_swaps("Filename Type Size Used Priority\n"
			     "/dev/zram0                              partition\t4194300\t\t0\t\t100\n"
			     "/swap\\040file file 1048572 12 -2\n");
	assert_int_equal(json_object_array_length(a), 2);
	assert_string_equal(str_at(json_object_array_get_idx(a, 0), "device", NULL), "/dev/zram0");
	assert_int_equal(json_object_get_int64(json_object_object_get(json_object_array_get_idx(a, 0), "size_kb")),
			 4194300);
	assert_string_equal(str_at(json_object_array_get_idx(a, 1), "type", NULL), "file");
	assert_int_equal(json_object_get_int(json_object_object_get(json_object_array_get_idx(a, 1), "priority")), -2);
	json_object_put(a);
}

static void test_proc_stat(void **state)
{
	struct proc_stat st;

	(void)state;
	/* a comm with spaces and a ')' inside */
	assert_int_equal(proc_stat_parse("123 (a) b (c)) T 1 123 123 0 -1 4194560 10 0 0 0 7 5 3 2 20 0 1 0",
					 &st), 0);
	assert_string_equal(st.comm, "a) b (c)");
	assert_int_equal(st.state, 'T');
	assert_int_equal(st.ppid, 1);
	assert_int_equal(st.pgrp, 123);
	assert_int_equal(st.ticks, 12);
	assert_int_equal(st.child_ticks, 5);
	assert_int_equal(proc_stat_parse("123 (x) R 1 2", &st), -1);
	assert_int_equal(proc_stat_parse("no parentheses", &st), -1);
	assert_int_equal(proc_stat_parse(NULL, &st), -1);
	assert_string_equal(proc_state_name('D'), "uninterruptible sleep (D)");
	/* our own stat: running, in our own process group */
	assert_int_equal(proc_stat_read("", getpid(), &st), 0);
	assert_int_equal(st.pgrp, getpgrp());
}

static void test_fake_tree(void **state)
{
	json_object *o;

	(void)state;
	free(unit_put("host/proc/cpuinfo", "processor\t: 0\nmicrocode\t: 0xb4\n\nprocessor\t: 1\nmicrocode\t: 0xb4\n"));
	free(unit_put("host/sys/devices/system/cpu/smt/control", "on\n"));
	free(unit_put("host/sys/devices/system/cpu/smt/active", "1\n"));
	free(unit_put("host/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n"));
	free(unit_put("host/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n"));
	free(unit_put("host/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n"));
	free(unit_put("host/proc/swaps", "Filename Type Size Used Priority\n/dev/sda2 partition 100 0 -2\n"));
	free(unit_put("host/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n"));
	free(unit_put("host/sys/kernel/mm/transparent_hugepage/shmem_enabled", "always within_size advise [never] deny force\n"));
	free(unit_put("host/sys/kernel/mm/transparent_hugepage/khugepaged/defrag", "1\n"));
	free(unit_put("host/proc/sys/kernel/numa_balancing", "1\n"));
	free(unit_put("host/proc/sys/vm/zone_reclaim_mode", "0\n"));
	free(unit_put("host/proc/sys/vm/swappiness", "10\n"));
	free(unit_put("host/proc/sys/vm/lowmem_reserve_ratio", "256\t256\t32\t0\n"));
	free(unit_put("host/sys/devices/system/node/node1/meminfo", "Node 1 MemTotal:        2048 kB\nNode 1 MemFree: 1 kB\n"));
	free(unit_put("host/sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:        4096 kB\n"));
	free(unit_put("host/sys/devices/system/node/node10/meminfo", "Node 10 MemTotal:        8 kB\n"));
	free(unit_put("host/proc/loadavg", "1.50 0.75 0.25 2/300 4242\n"));
	{
		char *prefix = xasprintf("%s/host", unit_tmp);

		o = host_state_collect(prefix, 0);
		free(prefix);
	}
	assert_string_equal(str_at(o, "microcode", NULL), "0xb4");
	assert_string_equal(str_at(o, "smt", NULL), "on");
	/* cpu2.. of this machine have no files in the fake tree */
	assert_string_equal(str_at(o, "cpufreq_governor", NULL), "performance,powersave");
	assert_string_equal(str_at(o, "cpufreq_boost", NULL), "off");
	assert_int_equal(json_object_array_length(json_object_object_get(o, "swaps")), 1);
	assert_string_equal(str_at(o, "thp", "enabled"), "madvise");
	assert_string_equal(str_at(o, "thp", "shmem_enabled"), "never");
	assert_null(str_at(o, "thp", "defrag"));   /* absent: not made up */
	assert_string_equal(str_at(o, "numa_balancing", NULL), "1");
	assert_string_equal(str_at(o, "sysctl", "vm.swappiness"), "10");
	assert_string_equal(str_at(o, "sysctl", "vm.lowmem_reserve_ratio"), "256 256 32 0");
	assert_null(str_at(o, "sysctl", "vm.min_free_kbytes"));
	/* nodes in numeric order */
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(o, "node_mem_kb"),
							   JSON_C_TO_STRING_PLAIN),
			    "{\"0\":4096,\"1\":2048,\"10\":8}");
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(o, "load_avg"),
							   JSON_C_TO_STRING_PLAIN), "[1.5,0.75,0.25]");
	assert_null(json_object_object_get(o, "busy_processes"));
	json_object_put(o);
}

/* DAMON: absent, no kdamond on, and a running pageout scheme with filters
 * (the shape of the kdamond found on this project's machines, issue 23). */
static void test_damon(void **state)
{
	const char *kd = "damon/sys/kernel/mm/damon/admin/kdamonds";
	char *prefix = xasprintf("%s/damon", unit_tmp), *p;
	json_object *o;

	(void)state;
	o = host_state_collect(prefix, 0);   /* nothing there yet */
	assert_string_equal(str_at(o, "damon", NULL), "absent");
	assert_false(json_object_get_boolean(json_object_object_get(o, "damon_moves_lru")));
	json_object_put(o);

#define PUT(rel, text) (p = xasprintf("%s/%s", kd, rel), free(unit_put(p, text)), free(p))
	PUT("nr_kdamonds", "2\n");
	PUT("0/state", "off\n");
	PUT("1/state", "off\n");
	o = host_state_collect(prefix, 0);
	assert_string_equal(str_at(o, "damon", NULL), "off");
	assert_false(json_object_get_boolean(json_object_object_get(o, "damon_moves_lru")));
	json_object_put(o);

	PUT("1/state", "on\n");
	PUT("1/contexts/nr_contexts", "1\n");
	PUT("1/contexts/0/operations", "paddr\n");
	PUT("1/contexts/0/monitoring_attrs/intervals/aggr_us", "5000000\n");
	PUT("1/contexts/0/schemes/nr_schemes", "2\n");
	PUT("1/contexts/0/schemes/0/action", "stat\n");
	PUT("1/contexts/0/schemes/1/action", "pageout\n");
	PUT("1/contexts/0/schemes/1/access_pattern/age/min", "12\n");
	PUT("1/contexts/0/schemes/1/access_pattern/nr_accesses/min", "0\n");
	PUT("1/contexts/0/schemes/1/access_pattern/nr_accesses/max", "1\n");
	PUT("1/contexts/0/schemes/1/quotas/bytes", "134217728\n");
	PUT("1/contexts/0/schemes/1/quotas/ms", "50\n");
	PUT("1/contexts/0/schemes/1/quotas/reset_interval_ms", "1000\n");
	PUT("1/contexts/0/schemes/1/ops_filters/nr_filters", "2\n");
	PUT("1/contexts/0/schemes/1/ops_filters/0/type", "anon\n");
	PUT("1/contexts/0/schemes/1/ops_filters/0/matching", "Y\n");
	PUT("1/contexts/0/schemes/1/ops_filters/0/allow", "N\n");
	PUT("1/contexts/0/schemes/1/ops_filters/1/type", "unmapped\n");
	PUT("1/contexts/0/schemes/1/ops_filters/1/matching", "Y\n");
	PUT("1/contexts/0/schemes/1/ops_filters/1/allow", "Y\n");
#undef PUT
	o = host_state_collect(prefix, 0);
	assert_string_equal(str_at(o, "damon", NULL),
			    "kdamond 1 on (paddr: stat / pageout of regions idle >= 12 x 5000 ms, 0-1 accesses; "
			    "quota 128 MiB, 50 ms per 1000 ms; ops_filters: anon reject, unmapped allow)");
	assert_true(json_object_get_boolean(json_object_object_get(o, "damon_moves_lru")));
	json_object_put(o);
	free(prefix);
}

/* The real machine: this process spins a thread while the others are
 * watched, so it would be among the busiest -- and must not be listed. */
static volatile int spin_stop;

static void *spin(void *arg)
{
	(void)arg;
	while (!spin_stop)
		;
	return NULL;
}

static void test_real_busy(void **state)
{
	json_object *o, *busy;
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, spin, NULL), 0);
	o = host_state_collect("", 0.5);
	spin_stop = 1;
	pthread_join(t, NULL);
	busy = json_object_object_get(o, "busy_processes");
	assert_non_null(busy);
	assert_true(json_object_array_length(busy) <= 5);
	for (size_t i = 0; i < json_object_array_length(busy); i++) {
		json_object *p = json_object_array_get_idx(busy, i);

		assert_int_not_equal(json_object_get_int(json_object_object_get(p, "pid")), (int)getpid());
		assert_true(json_object_get_double(json_object_object_get(p, "cpu_percent")) > 0);
	}
	assert_non_null(json_object_object_get(o, "node_mem_kb"));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_swaps),
		cmocka_unit_test(test_proc_stat),
		cmocka_unit_test(test_fake_tree),
		cmocka_unit_test(test_damon),
		cmocka_unit_test(test_real_busy),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
