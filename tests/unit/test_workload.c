// SPDX-License-Identifier: GPL-2.0-or-later
/* The workload interface: hook statuses and their exit codes, the table of
 * workloads, and what wl_sample records (the x axis with the samples). */
#include "unit.h"
#include "core/workload.h"

static void test_status_exit_codes(void **state)
{
	(void)state;
	assert_int_equal(wl_status_exit(WL_OK), 0);
	assert_int_equal(wl_status_exit(WL_FAILED), 1);
	assert_int_equal(wl_status_exit(WL_BAD_CONFIG), 2);
	assert_int_equal(wl_status_exit(WL_UNSUPPORTED), 3);
	assert_int_equal(wl_status_exit(WL_INTERRUPTED), 130);
	assert_string_equal(wl_status_name(WL_OK), "ok");
	assert_string_equal(wl_status_name(WL_FAILED), "failed");
	assert_string_equal(wl_status_name(WL_BAD_CONFIG), "bad config");
	assert_string_equal(wl_status_name(WL_UNSUPPORTED), "unsupported");
	assert_string_equal(wl_status_name(WL_INTERRUPTED), "interrupted");
}

/* Every row of the table: the hooks the core calls unconditionally, a
 * name workload_find() finds, and tables whose x axis says its unit. */
static void test_table_rows(void **state)
{
	(void)state;
	assert_non_null(workloads[0]);
	for (size_t i = 0; workloads[i]; i++) {
		const struct workload_ops *w = workloads[i];

		assert_ptr_equal(workload_find(w->name), w);
		assert_non_null(w->setup);
		assert_non_null(w->run_step);
		assert_non_null(w->tables);
		assert_non_null(w->tables[0].title);
		for (const struct table_def *t = w->tables; t->title; t++)
			if (t->x_axis.name && !t->x_axis.unit)
				fail_msg("%s: table '%s' names its x axis without a unit", w->name, t->title);
	}
	assert_null(workload_find("no-such-workload"));
}

/* wl_sample writes the table's x axis (or its absence: null) with the
 * samples, and drops warm-up samples. */
static void test_sample_carries_the_axis(void **state)
{
	static const struct table_def tables[] = {
		{ "sweep", "s", BETTER_LOWER, { "widgets", "each" } },
		{ "kinds", "s", BETTER_LOWER, { NULL, NULL } },
		{ NULL, NULL, 0, { NULL, NULL } },
	};
	struct wl_result r = { 0 };
	struct wl_samples s = { .res = &r, .tables = tables, .step = "w-1" };

	(void)state;
	s.discard = true;
	wl_sample(&s, 0, "w-1", 1.0);
	assert_int_equal(r.ntables, 0);
	assert_int_equal(s.added, 0);
	s.discard = false;
	wl_sample(&s, 0, "w-1", 1.0);
	wl_sample(&s, 1, "read", 2.0);
	assert_int_equal(s.added, 2);
	assert_int_equal(r.ntables, 2);
	assert_true(r.tables[0].x_known);
	assert_string_equal(r.tables[0].x_name, "widgets");
	assert_string_equal(r.tables[0].x_unit, "each");
	assert_true(r.tables[1].x_known);
	assert_null(r.tables[1].x_name);
	wl_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_exit_codes),
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_sample_carries_the_axis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
