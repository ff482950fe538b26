// SPDX-License-Identifier: GPL-2.0-or-later
/* A bisect step's decision (compare/bisect.c) and kbuild's "does this
 * .config build modules" (vm/kbuild.c). */
#include <math.h>
#include "unit.h"
#include "compare/bisect.h"
#include "compare/stats.h"
#include "vm/kbuild.h"

static void test_stats(void **state)
{
	enum bisect_stat s;
	double x[] = { 1, 2, 4 }, bad[] = { 1, -1 };
	bool ok;
	(void)state;

	assert_int_equal(bisect_stat_parse("hmean", &s), 0);
	assert_int_equal(s, BISECT_HMEAN);
	assert_int_equal(bisect_stat_parse("median", &s), -1);
	assert_int_equal(bisect_stat_resolve(BISECT_MEAN, BETTER_HIGHER), BISECT_HMEAN);
	assert_int_equal(bisect_stat_resolve(BISECT_MEAN, BETTER_LOWER), BISECT_AMEAN);
	assert_int_equal(bisect_stat_resolve(BISECT_GMEAN, BETTER_LOWER), BISECT_GMEAN);
	assert_string_equal(bisect_stat_name(BISECT_HMEAN), "Hmean");
	assert_true(fabs(bisect_stat_value(BISECT_AMEAN, x, 3, &ok) - 7.0 / 3) < 1e-12 && ok);
	assert_true(fabs(bisect_stat_value(BISECT_HMEAN, x, 3, &ok) - 3 / 1.75) < 1e-12 && ok);
	assert_true(fabs(bisect_stat_value(BISECT_GMEAN, x, 3, &ok) - 2) < 1e-12 && ok);
	/* the same statistic mmtests' compare prints */
	{
		struct stats st;

		stats_compute(x, 3, &st);
		assert_true(fabs(bisect_stat_value(BISECT_HMEAN, x, 3, &ok) - st.hmean) < 1e-12);
	}
	bisect_stat_value(BISECT_HMEAN, bad, 2, &ok);
	assert_false(ok);
	assert_true(bisect_stat_value(BISECT_AMEAN, bad, 2, &ok) == 0 && ok);
	bisect_stat_value(BISECT_AMEAN, x, 0, &ok);
	assert_false(ok);
}

static void test_decide(void **state)
{
	/* elsp (lower is better): good 2.1 s, bad 5.1 s, midpoint 3.6 */
	double near_good[] = { 2.0, 2.3, 2.2 }, near_bad[] = { 5.3, 4.9, 5.0 };
	double at_mid[] = { 3.0, 4.2, 3.6 }, one[] = { 2.0 }, same[] = { 2.0, 2.0 };
	struct bisect_verdict v;
	(void)state;

	bisect_decide(BISECT_AMEAN, 2.1, 5.1, near_good, 3, 0.10, &v);
	assert_int_equal(v.side, BISECT_GOOD);
	assert_true(fabs(v.midpoint - 3.6) < 1e-12);
	assert_true(v.p < 0.01 && v.t < 0);
	assert_int_equal(v.n, 3);
	/* the p is Student's: t with n - 1 degrees of freedom */
	assert_true(fabs(v.p - stats_t_pvalue(v.t, 2)) < 1e-15);
	bisect_decide(BISECT_AMEAN, 2.1, 5.1, near_bad, 3, 0.10, &v);
	assert_int_equal(v.side, BISECT_BAD);
	/* right at the midpoint: cannot be told */
	bisect_decide(BISECT_AMEAN, 2.1, 5.1, at_mid, 3, 0.10, &v);
	assert_int_equal(v.side, BISECT_UNDECIDED);
	assert_true(v.p > 0.5);
	/* one sample: no test */
	bisect_decide(BISECT_AMEAN, 2.1, 5.1, one, 1, 0.10, &v);
	assert_int_equal(v.side, BISECT_UNDECIDED);
	assert_true(v.p == 1 && v.value == 2.0);
	/* identical samples away from the midpoint: certain */
	bisect_decide(BISECT_AMEAN, 2.1, 5.1, same, 2, 0.10, &v);
	assert_int_equal(v.side, BISECT_GOOD);
	assert_true(v.p == 0);
	/* higher is better, good above bad: the same samples read the other way */
	bisect_decide(BISECT_HMEAN, 5.1, 2.1, near_bad, 3, 0.10, &v);
	assert_int_equal(v.side, BISECT_GOOD);
	bisect_decide(BISECT_HMEAN, 5.1, 2.1, near_good, 3, 0.10, &v);
	assert_int_equal(v.side, BISECT_BAD);
	/* a stricter alpha leaves a weaker difference undecided */
	{
		double weak[] = { 3.0, 3.9, 3.3 };

		bisect_decide(BISECT_AMEAN, 2.1, 5.1, weak, 3, 0.10, &v);
		assert_true(v.p > 0.01);
		bisect_decide(BISECT_AMEAN, 2.1, 5.1, weak, 3, 0.01, &v);
		assert_int_equal(v.side, BISECT_UNDECIDED);
	}
}

static void add(struct wl_result *w, const char *title, const char *op, double v)
{
	struct result_table *t = wl_result_table(w, title, "s", BETTER_LOWER);

	result_table_add(t, op, v);
}

static void test_find_op(void **state)
{
	struct wl_result w[2];
	struct label_result l = { .label = "x", .dir = "res/x", .wls = w, .nwls = 2 };
	const struct result_table *t;
	const struct op_samples *os;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	memset(w, 0, sizeof(w));
	w[0].workload = xstrdup("kernbench");
	w[1].workload = xstrdup("readtwice");
	add(&w[0], "kernbench", "elsp-2", 3.0);
	add(&w[1], "readtwice MB/s aggregate", "memcgs-1", 100);
	add(&w[1], "readtwice MB/s per memcg", "memcgs-1", 50);
	/* a table that explains the others repeats their op names */
	add(&w[0], "kernbench sys CPU %", "elsp-2", 40);
	w[0].tables[1].explains = true;
	assert_int_equal(bisect_find_op(&l, NULL, "elsp-2", &t, &os, &err), 0);
	assert_string_equal(t->title, "kernbench");
	assert_true(os->n == 1 && os->v[0] == 3.0);
	/* the explaining table when asked by name */
	assert_int_equal(bisect_find_op(&l, "kernbench sys CPU %", "elsp-2", &t, &os, &err), 0);
	assert_true(os->v[0] == 40);
	/* in two tables: ambiguous, the tables are named */
	assert_int_equal(bisect_find_op(&l, NULL, "memcgs-1", &t, &os, &err), -1);
	assert_string_equal(err.buf, "res/x: op 'memcgs-1' is in 2 tables: 'readtwice MB/s aggregate' "
			    "(readtwice), 'readtwice MB/s per memcg' (readtwice); pick one with --table TITLE");
	assert_int_equal(bisect_find_op(&l, "readtwice MB/s per memcg", "memcgs-1", &t, &os, &err), 0);
	assert_true(os->v[0] == 50);
	strbuf_reset(&err);
	assert_int_equal(bisect_find_op(&l, "kernbench", "memcgs-1", &t, &os, &err), -1);
	assert_string_equal(err.buf, "res/x: no op 'memcgs-1' in a table 'kernbench'");
	wl_result_release(&w[0]);
	wl_result_release(&w[1]);
	strbuf_release(&err);
}

static void test_config_has_modules(void **state)
{
	(void)state;
	assert_true(kbuild_config_has_modules("CONFIG_MODULES=y\nCONFIG_EXT4_FS=m\n"));
	assert_false(kbuild_config_has_modules("CONFIG_MODULES=y\nCONFIG_EXT4_FS=y\n"));
	/* =m without module support builds nothing */
	assert_false(kbuild_config_has_modules("# CONFIG_MODULES is not set\nCONFIG_EXT4_FS=m\n"));
	assert_false(kbuild_config_has_modules("CONFIG_MODULES=y\n# CONFIG_X=m is a comment\n"));
	assert_false(kbuild_config_has_modules(""));
	assert_false(kbuild_config_has_modules(NULL));
	assert_true(kbuild_config_has_modules("CONFIG_9P_FS=m\nCONFIG_MODULES=y"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_find_op),
		cmocka_unit_test(test_config_has_modules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
