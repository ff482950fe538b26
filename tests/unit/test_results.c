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

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(round_trip), cmocka_unit_test(errors) };
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
