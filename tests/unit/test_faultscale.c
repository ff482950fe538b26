// SPDX-License-Identifier: GPL-2.0-or-later
/* faultscale's parts without root: the loop of each case on real mappings
 * and a real sparse file, the groups of a step, the rate of a sample, and
 * one real measurement of forked tasks and of threads (no cgroup, no node). */
#include <errno.h>
#include <sys/stat.h>
#include "unit.h"
#include "workloads/faultscale/fault_loop.h"
#include "workloads/faultscale/fault_tasks.h"

static void loop_counts_every_page(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);

	(void)state;
	for (int k = 0; k < FS_NCASES; k++) {
		struct fs_loop l = { .kase = k, .len = 64 * (size_t)pg, .fd = -1 };
		uint64_t n = 0;

		assert_int_equal(fs_loop_prepare(&l, unit_tmp), 0);
		assert_true(k == FS_PAGE_FAULT1 ? l.fd < 0 : l.fd >= 0);
		assert_int_equal(fs_loop_run(&l, &n, 3), 0);
		assert_int_equal(n, 3 * 64);   /* one count a page, three passes */
		fs_loop_release(&l);
		assert_int_equal(l.fd, -1);
	}
	/* the file has no name: nothing is left in the folder */
	assert_int_equal(remove_tree(unit_tmp), 0);
	assert_int_equal(mkdir(unit_tmp, 0700), 0);
}

static void loop_errors(void **state)
{
	struct fs_loop l = { .kase = FS_PAGE_FAULT3, .len = 1 << 20, .fd = -1 };
	uint64_t n = 0;

	(void)state;
	assert_int_equal(fs_loop_prepare(&l, "/nonexistent/faultscale"), ENOENT);
	assert_int_equal(l.fd, -1);
	/* a mapping no machine holds fails its mmap with an errno, not a crash */
	l = (struct fs_loop){ .kase = FS_PAGE_FAULT1, .len = (size_t)1 << 62, .fd = -1 };
	assert_int_not_equal(fs_loop_run(&l, &n, 1), 0);
	assert_int_equal(n, 0);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT2, 100) == 200);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT1, 100) == 100);
	assert_true(fs_loop_footprint(FS_PAGE_FAULT3, 100) == 100);
}

static void groups_of_a_step(void **state)
{
	size_t g, per;

	(void)state;
	fs_groups(false, 4, 2, &g, &per);   /* processes: one a task */
	assert_int_equal(g, 4);
	assert_int_equal(per, 1);
	fs_groups(true, 4, 0, &g, &per);    /* threads in the root: one process */
	assert_int_equal(g, 1);
	assert_int_equal(per, 4);
	fs_groups(true, 4, 2, &g, &per);    /* a process per memcg */
	assert_int_equal(g, 2);
	assert_int_equal(per, 2);
	fs_groups(true, 1, 2, &g, &per);    /* fewer tasks than memcgs */
	assert_int_equal(g, 1);
	assert_int_equal(per, 1);
	fs_groups(true, 5, 4, &g, &per);    /* 2,2,1: three processes, not an empty fourth */
	assert_int_equal(g, 3);
	assert_int_equal(per, 2);
	assert_true(fs_rate(100, 300, 2.0) == 100.0);
	assert_true(fs_rate(300, 100, 2.0) == 0.0);
	assert_true(fs_rate(0, 100, 0.0) == 0.0);
}

static void run_one(bool threads, enum fs_case kase)
{
	struct numa_bind b = { .node = -1 };
	int cpus[2] = { 0, 0 };
	struct strbuf why = STRBUF_INIT;
	struct fs_spec spec = { .kase = kase, .threads = threads, .ntasks = 2, .cpus = cpus,
				.len = 1 << 20, .dir = unit_tmp, .bind = &b, .warm = 0, .samples = 1,
				.stuck_timeout = 30, .why = &why };
	struct fs_out out;

	sched_getaffinity(0, sizeof(b.cpus), &b.cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b.cpus)) {
			cpus[0] = cpus[1] = c;   /* both on the first CPU we may use */
			break;
		}
	fs_groups(threads, 2, 0, &spec.ngroups, &spec.per);
	assert_int_equal(fs_run(&spec, &out), WL_OK);
	assert_true(out.ops > 0);
	assert_true(out.second[0] == out.ops);
	assert_true(out.task[0] > 0 && out.task[1] > 0);
	assert_int_equal(out.ran_cpu[0], cpus[0]);
	assert_int_equal(out.ran_cpu[1], cpus[0]);
	assert_true(out.min_task <= out.max_task);
	fs_out_release(&out);
	strbuf_release(&why);
}

static void real_processes_and_threads(void **state)
{
	(void)state;
	run_one(false, FS_PAGE_FAULT1);
	run_one(true, FS_PAGE_FAULT2);
}

/* a task that cannot make its file fails the measurement, naming the folder */
static void task_without_its_file(void **state)
{
	struct numa_bind b = { .node = -1 };
	int cpus[1] = { 0 };
	struct strbuf why = STRBUF_INIT;
	struct fs_spec spec = { .kase = FS_PAGE_FAULT3, .ntasks = 1, .ngroups = 1, .per = 1, .cpus = cpus,
				.len = 1 << 20, .dir = "/nonexistent/fs", .bind = &b, .samples = 1,
				.stuck_timeout = 30, .why = &why };
	struct fs_out out;
	char *err;

	(void)state;
	sched_getaffinity(0, sizeof(b.cpus), &b.cpus);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &b.cpus)) {
			cpus[0] = c;
			break;
		}
	capture_start();
	assert_int_equal(fs_run(&spec, &out), WL_FAILED);
	err = capture_end();
	assert_non_null(strstr(err, "faultscale task 0"));
	assert_non_null(strstr(err, "its file goes in /nonexistent/fs"));
	assert_null(out.task);
	free(err);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loop_counts_every_page), cmocka_unit_test(loop_errors),
		cmocka_unit_test(groups_of_a_step), cmocka_unit_test(real_processes_and_threads),
		cmocka_unit_test(task_without_its_file),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
