// SPDX-License-Identifier: GPL-2.0-or-later
/* The comparison model and its renderers on in-memory results (src/report*.c). */
#include "unit.h"
#include <math.h>
#include "compare/model.h"

static const char golden[] =
	"                             6.8.0                  6.8.0\n"
	"                           vanilla                patched\n"
	"Min       1      990.00 (   0.00%)      870.00 ( -12.12%)\n"
	"Min       4     3900.00 (   0.00%)     3960.00 (   1.54%)\n"
	"Hmean     1     1062.72 (   0.00%)      915.09 * -13.89%*\n"
	"Hmean     4     3998.75 (   0.00%)     4027.14 (   0.71%)\n"
	"Stddev    1       85.85 (   0.00%)       32.09 (  62.62%)\n"
	"Stddev    4       79.06 (   0.00%)       66.11 (  16.38%)\n"
	"CoeffVar  1        8.04 (   0.00%)        3.50 (  56.41%)\n"
	"CoeffVar  4        1.98 (   0.00%)        1.64 (  16.96%)\n"
	"Max       1     1200.00 (   0.00%)      950.00 ( -20.83%)\n"
	"Max       4     4100.00 (   0.00%)     4120.00 (   0.49%)\n"
	"BHmean-50 1     1147.83 (   0.00%)      944.97 ( -17.67%)\n"
	"BHmean-50 4     4074.85 (   0.00%)     4094.85 (   0.49%)\n"
	"BHmean-95 1     1082.60 (   0.00%)      927.10 ( -14.36%)\n"
	"BHmean-95 4     4024.22 (   0.00%)     4044.28 (   0.50%)\n"
	"BHmean-99 1     1082.60 (   0.00%)      927.10 ( -14.36%)\n"
	"BHmean-99 4     4024.22 (   0.00%)     4044.28 (   0.50%)\n";

static void add(struct wl_result *w, const char *title, int better, const char *op,
		const double *x, size_t n)
{
	struct result_table *t = wl_result_table(w, title, "MB/s", better);

	for (size_t i = 0; i < n; i++)
		result_table_add(t, op, x[i]);
}

static void make_label(struct label_result *l, const char *label, const char *run)
{
	memset(l, 0, sizeof(*l));
	l->label = strdup(label);
	l->dir = strdup(label);
	l->run = json_tokener_parse(run);
	l->wls = calloc(1, sizeof(*l->wls));
	l->nwls = 1;
	l->wls[0].workload = strdup("readtwice");
}

#define TITLE "readtwice MB/s aggregate"

static void golden_labels(struct label_result *l)
{
	static const double v1b[] = { 1000, 1100, 1050, 990, 1200 }, v1n[] = { 900, 950, 870, 920, 940 };
	static const double v2b[] = { 3900, 4000, 4100, 3950, 4050 }, v2n[] = { 3980, 4010, 4120, 3960, 4070 };

	make_label(&l[0], "6.8.0-vanilla", "{\"system\": {\"nr_cpus\": 2}, \"config\": {\"g\": {\"i\": 5}}}");
	make_label(&l[1], "6.8.0-patched", "{\"system\": {\"nr_cpus\": 2}, \"config\": {\"g\": {\"i\": 5}}}");
	add(&l[0].wls[0], TITLE, BETTER_HIGHER, "1", v1b, 5);
	add(&l[0].wls[0], TITLE, BETTER_HIGHER, "4", v2b, 5);
	add(&l[1].wls[0], TITLE, BETTER_HIGHER, "1", v1n, 5);
	add(&l[1].wls[0], TITLE, BETTER_HIGHER, "4", v2n, 5);
}

static void release_labels(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
}

static void test_golden_text(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;
	golden_labels(l);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "\n" TITLE "\n"));
	assert_non_null(strstr(out.buf, golden));
	assert_non_null(strstr(out.buf, "Nothing differs"));
	/* the verdicts behind the marks */
	assert_true(c.wls[0].tables[0].ops[0].cells[1].mm.significant);
	assert_int_equal(c.wls[0].tables[0].ops[0].cells[1].verdict, VERDICT_REGRESSION);
	assert_false(c.wls[0].tables[0].ops[1].cells[1].mm.significant);
	assert_int_equal(c.wls[0].tables[0].ops[1].cells[1].verdict, VERDICT_NO_CHANGE);
	assert_true(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[1], 13.0));
	assert_false(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[1], 14.0));
	assert_false(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[0], 0));
	assert_int_equal(report_regressions(&c, 5, NULL), 1);
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s++;
	}
	return n;
}

static void test_junit_and_csv(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;
	golden_labels(l);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_junit(&c, 5, &out);
	assert_int_equal(count(out.buf, "<testcase "), 2);
	assert_int_equal(count(out.buf, "<failure "), 1);
	assert_non_null(strstr(out.buf, "tests=\"2\" failures=\"1\""));
	assert_non_null(strstr(out.buf, "name=\"readtwice/" TITLE "/1\""));
	strbuf_reset(&out);
	report_csv(&c, &out);
	assert_non_null(strstr(out.buf, "readtwice," TITLE ",1,6.8.0-patched,verdict,regression\n"));
	assert_non_null(strstr(out.buf, "readtwice," TITLE ",1,6.8.0-patched,mmtests_significant,1\n"));
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

static void test_better_and_unit_disagree(void **state)
{
	static const double x[] = { 1, 2, 3 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	make_label(&l[0], "a", "{}");
	make_label(&l[1], "b", "{}");
	add(&l[0].wls[0], "t", BETTER_HIGHER, "1", x, 3);
	add(&l[1].wls[0], "t", BETTER_LOWER, "1", x, 3);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), -1);
	assert_string_equal(err.buf, "readtwice: table 't': better is \"higher\" in a but \"lower\" in b");
	l[1].wls[0].tables[0].better = BETTER_HIGHER;
	free(l[1].wls[0].tables[0].unit);
	l[1].wls[0].tables[0].unit = strdup("GB/s");
	strbuf_reset(&err);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), -1);
	assert_string_equal(err.buf, "readtwice: table 't': unit is 'MB/s' in a but 'GB/s' in b");
	strbuf_release(&err);
	release_labels(l, 2);
}

static void test_ops_union_and_facts(void **state)
{
	static const double x[] = { 1, 2, 3 }, one[] = { 5 };
	struct label_result l[3];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;
	make_label(&l[0], "a", "{\"system\": {\"cmdline\": \"BOOT_IMAGE=/a ro q\", \"virt\": \"tcg\"},"
		   " \"config\": {\"s\": {\"k\": 1}}}");
	make_label(&l[1], "b", "{\"system\": {\"cmdline\": \"BOOT_IMAGE=/b ro q\"},"
		   " \"config\": {\"s\": {\"k\": 2}}}");
	make_label(&l[2], "c", "{\"system\": {\"cmdline\": \"BOOT_IMAGE=/c ro q\"},"
		   " \"config\": {\"s\": {\"k\": 1}}}");
	add(&l[0].wls[0], "t", BETTER_LOWER, "x", x, 3);
	add(&l[1].wls[0], "t", BETTER_LOWER, "y", x, 3);
	add(&l[1].wls[0], "t", BETTER_LOWER, "x", one, 1);
	add(&l[2].wls[0], "t", BETTER_LOWER, "z", x, 3);
	assert_int_equal(comparison_build(l, 3, 0.10, &c, &err), 0);
	/* first label's ops first, then in the order the others add them */
	assert_int_equal(c.wls[0].tables[0].nops, 3);
	assert_string_equal(c.wls[0].tables[0].ops[0].op, "x");
	assert_string_equal(c.wls[0].tables[0].ops[1].op, "y");
	assert_string_equal(c.wls[0].tables[0].ops[2].op, "z");
	assert_int_equal(c.wls[0].tables[0].ops[0].cells[1].verdict, VERDICT_INSUFFICIENT);
	/* cmdline differs only by BOOT_IMAGE: not a difference; config.s.k is */
	assert_int_equal(c.nfacts, 1);
	assert_string_equal(c.facts[0].name, "config.s.k");
	assert_int_equal(c.warnings.n, 2);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "WARNING: a ran under QEMU TCG"));
	assert_non_null(strstr(out.buf, "note: c: ops x, y: no samples (printed n/a)"));
	strbuf_reset(&out);
	report_markdown(&c, &out);
	assert_non_null(strstr(out.buf, "| x |"));
	strbuf_reset(&out);
	report_json(&c, -1, &out);
	{
		json_object *j = json_tokener_parse(out.buf);
		assert_non_null(j);
		json_object_put(j);
	}
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 3);
}

static void check_split(const char *label, const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

	cmp_split_label(label, &x, &y);
	assert_string_equal(strbuf_str(&x), a);
	assert_string_equal(strbuf_str(&y), b);
	strbuf_release(&x);
	strbuf_release(&y);
}

static void test_split_label(void **state)
{
	(void)state;
	check_split("6.8.0-vanilla", "6.8.0", "vanilla");
	check_split("5.9-rc2-vanilla", "5.9-rc2", "vanilla");
	check_split("5.9-rc10-lruv18-v2", "5.9-rc10", "lruv18-v2");
	check_split("5.9-rc2", "5.9-rc2", "");
	check_split("plain", "plain", "");
	check_split("a-b-c", "a", "b-c");
	check_split("6.1-rcu-fix", "6.1", "rcu-fix");
}

static void test_fixed2_matches_printf(void **state)
{
	static const double special[] = { 0, -0.0, 0.005, -0.005, 0.125, 2.675, 1.005, -1.115,
		99.995, 1e15, -1e15, 123456789.125, 1e300, -1e300, 0.0049999999, 5e-324 };
	struct strbuf a = STRBUF_INIT;
	char b[512];
	unsigned long long seed = 42;
	(void)state;
	for (size_t i = 0; i < 200000 + ARRAY_SIZE(special); i++) {
		double v;

		if (i < ARRAY_SIZE(special)) {
			v = special[i];
		} else {
			/* xorshift: values across magnitudes, many on exact hundredths */
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			v = (double)(seed % 2000000) / (i % 3 ? 100.0 : 8.0) - 10000.0;
			if (i % 5 == 0)
				v *= 1e-3;
		}
		strbuf_reset(&a);
		report_add_fixed2(&a, 12, v);
		snprintf(b, sizeof(b), "%12.2f", v);
		if (strcmp(a.buf, b))
			fprintf(stderr, "%.17g: '%s' != '%s'\n", v, a.buf, b);
		assert_string_equal(a.buf, b);
	}
	strbuf_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_text),
		cmocka_unit_test(test_junit_and_csv),
		cmocka_unit_test(test_better_and_unit_disagree),
		cmocka_unit_test(test_ops_union_and_facts),
		cmocka_unit_test(test_split_label),
		cmocka_unit_test(test_fixed2_matches_printf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
