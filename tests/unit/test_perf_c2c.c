// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile = c2c (src/profile/perf_c2c.c): the parser of `perf c2c report
 * --stdio`, its refusal where there is no PMU, and the memory-sampling PMU
 * probe on fake sysfs trees.
 *
 * The fixture tests/fixtures/profile/perf-6.1-c2c-report-stdio.txt is NOT
 * captured: this machine (a VM) has no hardware PMU, and `perf c2c record`
 * says "failed: memory events not supported". It is written by hand after
 * perf 6.1's builtin-c2c.c and perf-c2c(1), and says so in its first lines.
 * The expected numbers below were worked out by hand from the fixture's
 * rows (a row's HITMs = Rmt% x the line's RmtHitm + Lcl% x its LclHitm).
 */
#include "unit.h"
#include <math.h>
#include "profile/caps.h"
#include "profile/perf_c2c.h"

static char *fixture(void)
{
	return unit_fixture("profile/perf-6.1-c2c-report-stdio.txt", NULL);
}

static int parse(const char *text, struct c2c_report *r, struct strbuf *why)
{
	strbuf_reset(why);
	return perf_c2c_parse(text, strlen(text), "6.1.187", r, why);
}

static void test_c2c_fixture(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct c2c_report r;
	char *text = fixture();
	json_object *j, *lines, *first;

	(void)state;
	assert_int_equal(parse(text, &r, &why), 0);
	assert_int_equal(r.records, 612844);
	assert_int_equal(r.loads, 288410);
	assert_int_equal(r.stores, 324434);
	assert_int_equal(r.hitm_local, 6520);
	assert_int_equal(r.hitm_remote, 602);
	assert_int_equal(r.cachelines, 3);
	/* seven offset rows; __count_vm_events only stored (no HITM): left out */
	assert_int_equal(r.n, 6);
	assert_string_equal(r.lines[0].symbol, "_raw_spin_lock_irqsave");
	assert_int_equal(r.lines[0].where, 'k');
	assert_string_equal(r.lines[0].dso, "[kernel.kallsyms]");
	assert_true(r.lines[0].cacheline == 0xffff88810a3c4a40ULL && r.lines[0].offset == 0);
	assert_near(r.lines[0].hitm_remote, 0.8012 * 322);
	assert_near(r.lines[0].hitm_local, 0.7105 * 3890);
	/* 1090.0 beats the lock's slow path (1042.9) from the first line */
	assert_string_equal(r.lines[1].symbol, "rmqueue_bulk");
	assert_true(r.lines[1].cacheline + r.lines[1].offset == 0xffff88903fffa5a8ULL);
	assert_near(r.lines[1].hitm_local + r.lines[1].hitm_remote, 0.6134 * 238 + 0.5889 * 1603);
	assert_string_equal(r.lines[2].symbol, "native_queued_spin_lock_slowpath");
	assert_string_equal(r.lines[3].symbol, "__mod_node_page_state");
	assert_near(r.lines[3].hitm_local, 905);
	assert_near(r.lines[3].hitm_remote, 0);
	assert_string_equal(r.lines[4].symbol, "free_pcppages_bulk");
	assert_string_equal(r.lines[5].symbol, "lru_add_fn");
	assert_int_equal(r.lines[5].offset, 0x10);

	j = c2c_report_json(&r, 3);
	lines = json_object_object_get(j, "lines");
	assert_int_equal(json_object_array_length(lines), 3);
	first = json_object_array_get_idx(lines, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(first, "data_address")),
			    "0xffff88810a3c4a40");
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(lines, 1), "data_address")), "0xffff88903fffa5a8");
	assert_int_equal(json_object_get_int64(json_object_object_get(j, "hitm_remote")), 602);
	assert_non_null(strstr(json_object_get_string(json_object_object_get(j, "note")), "sampled"));
	json_object_put(j);
	c2c_report_release(&r);
	free(text);
	strbuf_release(&why);
}

/* the fixture with one substring replaced (must be there) */
static char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(at);
	strbuf_add(&sb, text, (size_t)(at - text));
	strbuf_addstr(&sb, to);
	strbuf_addstr(&sb, at + strlen(from));
	return strbuf_detach(&sb);
}

static void expect_error(const char *text, const char *what)
{
	struct strbuf why = STRBUF_INIT;
	struct c2c_report r;

	if (!parse(text, &r, &why) || !strstr(why.buf, what))
		fail_msg("expected an error with '%s', got '%s'", what, why.buf);
	assert_non_null(strstr(why.buf, "perf c2c report (perf 6.1.187)"));
	assert_null(strchr(why.buf, '\033'));
	assert_int_equal(r.n, 0);
	strbuf_release(&why);
}

static void test_c2c_bad(void **state)
{
	char *text = fixture(), *t;
	const char *cut;

	(void)state;
	/* cut short in the Pareto: the third line is in the table, not in the Pareto */
	cut = strstr(text, "      2        0      905");
	assert_non_null(cut);
	t = xstrndup(text, (size_t)(cut - text));
	expect_error(t, "cut short");
	free(t);
	/* cut short before the HITM counts */
	t = xstrndup(text, (size_t)(strstr(text, "  Load Local HITM") - text));
	expect_error(t, "no Load Local HITM");
	free(t);
	/* a table row whose HITM columns do not add up: a misread column, refused */
	t = edit(text, "4212     3890      322", "4212     3890      320");
	expect_error(t, "line 81: the row's HITM columns do not add up");
	free(t);
	/* the Pareto's counts of a line disagree with the table's */
	t = edit(text, "      0      322     3890", "      0      321     3890");
	expect_error(t, "differ from the Shared Data Cache Line Table");
	free(t);
	/* a count that is not a number, with a terminal escape: shown inert */
	t = edit(text, ":       6520", ": \033[31m6520");
	expect_error(t, "the count is not a number");
	free(t);
	/* peer display (Arm64's default): no HITM columns */
	t = edit(text, "------- Load Hitm -------", "------- Load Peer -------");
	expect_error(t, "not sorted on HITMs");
	free(t);
	/* an offset row without a symbol */
	t = edit(text, "[k] lru_add_fn  [kernel.kallsyms]  0-1", "");
	expect_error(t, "no symbol");
	free(t);
	/* not perf c2c output at all */
	expect_error("hello\nworld\n", "not perf c2c report --stdio output");
	expect_error("", "no Load Local HITM");
	{
		struct strbuf why = STRBUF_INIT;
		struct c2c_report r;

		assert_int_equal(perf_c2c_parse("a\0b", 3, "6.1.187", &r, &why), -1);
		assert_non_null(strstr(why.buf, "NUL"));
		strbuf_release(&why);
	}
	free(text);
}

/* perf killed mid-report: every cut at a line end, and mid-line, parses or
 * is an error with a reason (under ASan: never a read past the end). A cut
 * inside the Pareto is always an error: the table promised more lines. */
static void test_c2c_every_cut(void **state)
{
	char *text = fixture();
	size_t len = strlen(text), pareto = (size_t)(strstr(text, "Distribution Pareto") - text);
	size_t last_row = (size_t)(strstr(text, "      2        0      905") - text);

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		struct strbuf why = STRBUF_INIT;
		struct c2c_report r;
		int rc;

		if (text[cut] != '\n' && cut % 7)
			continue;
		rc = perf_c2c_parse(text, cut, "6.1.187", &r, &why);
		if (rc)
			assert_true(why.len > 0);
		else
			c2c_report_release(&r);
		if (cut > pareto && cut < last_row)
			assert_int_equal(rc, -1);
		/* mid-line: refused, never a half row read as a whole */
		if (cut && text[cut - 1] != '\n' && text[cut - 1] != ' ')
			assert_int_equal(rc, -1);
		strbuf_release(&why);
	}
	free(text);
}

/* No report at all is fine: a pass without shared lines (0 HITMs) */
static void test_c2c_no_hitm(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct c2c_report r;
	char *text = fixture();
	char *t = xstrndup(text, (size_t)(strstr(text, "      0  0xffff88810a3c4a40     0   12040") - text));

	(void)state;
	strbuf_addstr(&why, "");
	{
		char *u = xasprintf("%s\n=================================================\n"
				    "      Shared Cache Line Distribution Pareto\n"
				    "=================================================\n#\n", t);

		assert_int_equal(parse(u, &r, &why), 0);
		assert_int_equal(r.cachelines, 0);
		assert_int_equal(r.n, 0);
		assert_int_equal(r.hitm_local, 6520);
		c2c_report_release(&r);
		free(u);
	}
	free(t);
	free(text);
	strbuf_release(&why);
}

static void test_c2c_mem_pmu(void **state)
{
	char dir[128], name[64];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/none", unit_tmp);
	assert_false(perf_c2c_mem_pmu(dir, name, sizeof(name)));
	/* this VM's PMUs: software ones only */
	free(unit_put("vm/software/type", "1\n"));
	free(unit_put("vm/tracepoint/type", "2\n"));
	free(unit_put("vm/msr/events/tsc", "event=0x00\n"));
	snprintf(dir, sizeof(dir), "%s/vm", unit_tmp);
	assert_false(perf_c2c_mem_pmu(dir, name, sizeof(name)));
	assert_string_equal(name, "");
	free(unit_put("intel/cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n"));
	snprintf(dir, sizeof(dir), "%s/intel", unit_tmp);
	assert_true(perf_c2c_mem_pmu(dir, name, sizeof(name)));
	assert_string_equal(name, "cpu");
	free(unit_put("amd/ibs_op/type", "11\n"));
	snprintf(dir, sizeof(dir), "%s/amd", unit_tmp);
	assert_true(perf_c2c_mem_pmu(dir, name, sizeof(name)));
	assert_string_equal(name, "ibs_op");
}

/* The refusal's words, whatever machine runs the test: the reason comes
 * from the probe (caps.c), the kind only puts it in a sentence. */
static void test_c2c_allow(void **state)
{
	struct profile_caps c;
	struct strbuf why = STRBUF_INIT;
	bool via;

	(void)state;
	memset(&c, 0, sizeof(c));
	strbuf_init(&c.perf_why);
	strbuf_init(&c.paranoid_why);
	strbuf_init(&c.c2c_why);
	c.perf_ok = c.paranoid_ok = true;
	strbuf_addstr(&c.c2c_why, "not available: no hardware PMU (perf_event_open of the "
		      "instructions counter: No such file or directory)");
	assert_int_equal(profile_caps_allow(&c, PROFILE_C2C, &via, &why), -1);
	assert_non_null(strstr(why.buf, "profile=c2c is not available: no hardware PMU"));
	strbuf_reset(&why);
	c.c2c = true;
	assert_int_equal(profile_caps_allow(&c, PROFILE_C2C, &via, &why), 0);
	c.perf_ok = false;
	strbuf_addstr(&c.perf_why, "no perf in PATH (apt-get install linux-perf)");
	assert_int_equal(profile_caps_allow(&c, PROFILE_C2C, &via, &why), -1);
	assert_non_null(strstr(why.buf, "profile=c2c needs perf c2c: no perf in PATH"));
	strbuf_release(&c.perf_why);
	strbuf_release(&c.paranoid_why);
	strbuf_release(&c.c2c_why);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c2c_fixture),
		cmocka_unit_test(test_c2c_bad),
		cmocka_unit_test(test_c2c_every_cut),
		cmocka_unit_test(test_c2c_no_hitm),
		cmocka_unit_test(test_c2c_mem_pmu),
		cmocka_unit_test(test_c2c_allow),
	};

	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
