// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thpscale's engine on the real kernel, in-process and small (no root):
 * every fault is timed and classified, the counts are what the layout says,
 * the cross-instance barrier releases everybody, and an abort breaks it.
 */
#include "unit.h"
#include <pthread.h>
#include <unistd.h>
#include "workloads/thpscale/engine.h"
#include "core/util.h"

#define MB (1ull << 20)

static char dir[64], file[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/lrubench-thpengine.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/data", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(dir);
	return 0;
}

static void test_data_file(void **state)
{
	struct thp_layout l;
	char *t;
	size_t len;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 16 * MB, 2), 0);
	assert_int_equal(thp_write_data_file(file, 2 * l.file_region), 0);
	t = read_file_str(file, &len);
	assert_non_null(t);
	assert_int_equal(len, 2 * l.file_region);
	assert_true(memchr(t, 0, len) == NULL);   /* real data, no holes */
	free(t);
}

static void check_complete(const struct thp_shared *sh, const struct thp_layout *l)
{
	for (unsigned i = 0; i < sh->instances * sh->threads; i++) {
		assert_int_equal(sh->res[i].failed, 0);
		assert_int_equal(sh->res[i].faults, l->nr_faults);
		assert_true(sh->res[i].anon_init_us > 0);
		assert_true(sh->res[i].file_init_us > 0);
	}
	for (size_t k = 0; k < (size_t)sh->instances * sh->threads * l->nr_faults; k++) {
		assert_true(sh->lat_us[k] > 0);
		assert_true(sh->kind[k] == THP_BASE || sh->kind[k] == THP_HUGE);
	}
}

static void test_one_instance(void **state)
{
	struct thp_layout l;
	struct thp_shared *sh;
	struct thp_instance in;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 16 * MB, 2), 0);
	assert_int_equal(l.nr_faults, 2);
	assert_int_equal(thp_write_data_file(file, l.file_region), 0);
	sh = thp_shared_create(1, 2, l.nr_faults);
	assert_non_null(sh);
	in = (struct thp_instance){ .sh = sh, .layout = &l, .index = 0, .file = file, .madvise = true };
	assert_int_equal(thp_instance_main(&in), 0);
	check_complete(sh, &l);
	thp_shared_destroy(sh);
}

static void *run_instance(void *arg)
{
	return (void *)(intptr_t)thp_instance_main(arg);
}

static void test_barrier_across_instances(void **state)
{
	struct thp_layout l;
	struct thp_shared *sh;
	struct thp_instance in[3];
	pthread_t t[3];
	void *rv;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 12 * MB, 1), 0);
	assert_int_equal(thp_write_data_file(file, 3 * l.file_region), 0);
	sh = thp_shared_create(3, 1, l.nr_faults);
	assert_non_null(sh);
	for (unsigned i = 0; i < 3; i++) {
		in[i] = (struct thp_instance){ .sh = sh, .layout = &l, .index = i, .file = file };
		assert_int_equal(pthread_create(&t[i], NULL, run_instance, &in[i]), 0);
	}
	for (unsigned i = 0; i < 3; i++) {
		pthread_join(t[i], &rv);
		assert_int_equal((intptr_t)rv, 0);
	}
	assert_int_equal(sh->arrived, 3);
	check_complete(sh, &l);
	thp_shared_destroy(sh);
}

static void test_abort_breaks_barrier(void **state)
{
	struct thp_layout l;
	struct thp_shared *sh;
	struct thp_instance in;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 8 * MB, 1), 0);
	assert_int_equal(thp_write_data_file(file, 2 * l.file_region), 0);
	/* two instances expected at the barrier, only one runs: without the
	 * abort this would wait forever */
	sh = thp_shared_create(2, 1, l.nr_faults);
	thp_shared_abort(sh);
	in = (struct thp_instance){ .sh = sh, .layout = &l, .index = 0, .file = file };
	assert_int_equal(thp_instance_main(&in), 1);
	assert_int_equal(sh->res[0].failed, 1);
	assert_int_equal(sh->res[0].faults, 0);
	thp_shared_destroy(sh);
}

static void test_missing_file_fails_cleanly(void **state)
{
	struct thp_layout l;
	struct thp_shared *sh;
	struct thp_instance in;

	(void)state;
	assert_int_equal(thp_layout_init(&l, 8 * MB, 2), 0);
	sh = thp_shared_create(1, 2, l.nr_faults);
	in = (struct thp_instance){ .sh = sh, .layout = &l, .index = 0, .file = "/nonexistent/x" };
	assert_int_equal(thp_instance_main(&in), 1);
	assert_non_null(strstr(sh->res[0].msg, "data file"));
	thp_shared_destroy(sh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_data_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_instance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_barrier_across_instances, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_breaks_barrier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file_fails_cleanly, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
