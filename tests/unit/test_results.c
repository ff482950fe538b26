// SPDX-License-Identifier: GPL-2.0-or-later
/* The results schema: round trip, and errors that name file and place. */
#include "unit.h"
#include "core/results.h"

static void round_trip(void **state)
{
	struct wl_result r = { 0 }, back;
	struct strbuf e = STRBUF_INIT;
	struct result_table *t;
	char *p = xasprintf("%s/readtwice.json", unit_tmp);
	(void)state;
	r.workload = xstrdup("readtwice");
	t = wl_result_table(&r, "readtwice MB/s aggregate", "MB/s", BETTER_HIGHER);
	result_table_add(t, "memcgs-1", 1204.5);
	result_table_add(t, "memcgs-1", 1300.25);
	result_table_add(t, "memcgs-2", 0.1);
	wl_result_table(&r, "lat", "us", BETTER_LOWER);
	assert_int_equal(wl_result_save(p, &r, &e), 0);
	assert_int_equal(wl_result_load(p, &back, &e), 0);
	assert_string_equal(back.workload, "readtwice");
	assert_int_equal(back.ntables, 2);
	assert_int_equal(back.tables[0].better, BETTER_HIGHER);
	assert_int_equal(back.tables[1].better, BETTER_LOWER);
	assert_int_equal(back.tables[0].nops, 2);
	assert_int_equal(back.tables[0].ops[0].n, 2);
	assert_true(back.tables[0].ops[0].v[1] == 1300.25);
	assert_true(back.tables[0].ops[1].v[0] == 0.1);
	wl_result_release(&r);
	wl_result_release(&back);
	strbuf_release(&e);
	free(p);
}

static void errors(void **state)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "{\"schema\": 1,\n \"workload\": \"x\", \"tables\": [ }", "invalid JSON at line 2" },
		{ "{\"schema\": 2, \"workload\": \"x\", \"tables\": []}", "schema version 2 is not known" },
		{ "{\"schema\": 1, \"tables\": []}", "\"workload\" is missing" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"sideways\", \"ops\": []}]}", "tables[0].better is \"sideways\"" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"lower\", \"ops\": [{\"op\": \"1\", \"samples\": [1, \"a\"]}]}]}",
		  "tables[0].ops[0].samples[1]: not a number" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": {}}", "\"tables\" has the wrong type" },
		{ "", "invalid JSON at line 1, byte 0" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"lower\", \"x_axis\": \"threads\", \"ops\": []}]}",
		  "tables[0].x_axis is neither an object nor null" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"lower\", \"x_axis\": {\"name\": \"n\"}, \"ops\": []}]}",
		  "tables[0].x_axis.\"unit\" is missing" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wl_result r;
		struct strbuf e = STRBUF_INIT;
		char *p = unit_put("bad.json", cases[i].text);

		assert_int_equal(wl_result_load(p, &r, &e), -1);
		if (!strstr(strbuf_str(&e), cases[i].want) || !strstr(strbuf_str(&e), "bad.json"))
			fail_msg("case %zu: got '%s', want '%s'", i, strbuf_str(&e), cases[i].want);
		strbuf_release(&e);
		free(p);
	}
}

/* The x value of an op: the decimal number that ends its name. */
static void op_x(void **state)
{
	unsigned long long x = 0;
	size_t series = 99;

	(void)state;
	assert_true(results_op_x("memcgs-16", &series, &x));
	assert_int_equal(series, strlen("memcgs-"));
	assert_int_equal(x, 16);
	assert_true(results_op_x("4", &series, &x));
	assert_int_equal(series, 0);
	assert_int_equal(x, 4);
	assert_true(results_op_x("fault-huge-128", NULL, &x));
	assert_int_equal(x, 128);
	assert_true(results_op_x("j0", &series, &x));
	assert_int_equal(x, 0);
	assert_false(results_op_x("git-checkout", NULL, &x));
	assert_false(results_op_x("4k-read", NULL, &x));
	assert_false(results_op_x("0.5", NULL, &x));
	assert_false(results_op_x("1e+3", NULL, &x));
	assert_false(results_op_x("", NULL, &x));
	assert_false(results_op_x("x12345678901234567890", NULL, &x));   /* would overflow */
}

/* "x_axis": an object, null (categories), or absent (files from before it). */
static void x_axis_round_trip(void **state)
{
	struct wl_result r = { 0 }, back;
	struct strbuf e = STRBUF_INIT;
	struct result_table *t;
	char *p = xasprintf("%s/axes.json", unit_tmp), *text;

	(void)state;
	r.workload = xstrdup("w");
	t = wl_result_table(&r, "declared", "s", BETTER_LOWER);
	result_table_set_x_axis(t, "threads", "count");
	result_table_add(t, "t-1", 1);
	t = wl_result_table(&r, "categories", "s", BETTER_LOWER);
	result_table_set_x_axis(t, NULL, NULL);
	result_table_add(t, "a", 1);
	t = wl_result_table(&r, "unsaid", "s", BETTER_LOWER);
	result_table_add(t, "b", 1);
	assert_int_equal(wl_result_save(p, &r, &e), 0);
	text = read_file_str(p, NULL);
	assert_non_null(strstr(text, "\"x_axis\": {"));
	assert_non_null(strstr(text, "\"x_axis\": null"));
	free(text);
	assert_int_equal(wl_result_load(p, &back, &e), 0);
	assert_true(back.tables[0].x_known);
	assert_string_equal(back.tables[0].x_name, "threads");
	assert_string_equal(back.tables[0].x_unit, "count");
	assert_true(back.tables[1].x_known);
	assert_null(back.tables[1].x_name);
	assert_false(back.tables[2].x_known);
	wl_result_release(&r);
	wl_result_release(&back);
	strbuf_release(&e);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip), cmocka_unit_test(errors), cmocka_unit_test(op_x),
		cmocka_unit_test(x_axis_round_trip),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
