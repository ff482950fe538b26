// SPDX-License-Identifier: GPL-2.0-or-later
/* src/compare/stats.c against the golden vectors V1-V4 (computed with
 * mmtests' own Perl statistics; their samples and values are written out
 * below, and compare's print of V1+V2 is
 * tests/fixtures/compare/expected/golden-v1v2.txt), the percent rules of
 * docs/ARCHITECTURE.md §10 and R's pt() (tests/fixtures/compare/t_table.csv). */
#include "unit.h"
#include <math.h>
#include "compare/stats.h"
#include "core/results.h"
#include "core/run_summary.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
/* "reproduced to the printed precision": within half a unit of the last digit */
#define AT(a, b, digits) NEAR(a, b, 0.5 * pow(10, -(digits)) + 1e-12)

static const double v1b[] = { 1000, 1100, 1050, 990, 1200 };
static const double v1n[] = { 900, 950, 870, 920, 940 };
static const double v2b[] = { 3900, 4000, 4100, 3950, 4050 };
static const double v2n[] = { 3980, 4010, 4120, 3960, 4070 };

static void test_v1(void **state)
{
	struct stats b, n;
	struct ttest tt;
	(void)state;
	stats_compute(v1b, 5, &b);
	stats_compute(v1n, 5, &n);
	AT(b.min, 990.00, 2);
	AT(n.min, 870.00, 2);
	AT(stats_pdiff(n.min, b.min), -12.12, 2);
	AT(b.hmean, 1062.7204, 4);
	AT(n.hmean, 915.0882, 4);
	AT(stats_mean(&b, 1), 1062.7204, 4);
	AT(stats_pdiff(stats_mean(&n, 1), stats_mean(&b, 1)), -13.89, 2);
	AT(b.amean, 1068.0, 1);
	AT(n.amean, 916.0, 1);
	AT(b.gmean, 1065.3190, 4);
	AT(n.gmean, 915.5461, 4);
	AT(b.stddev, 85.8487, 4);
	AT(n.stddev, 32.0936, 4);
	AT(stats_pndiff(n.stddev, b.stddev), 62.62, 2);
	AT(b.coeffvar, 8.0383, 4);
	AT(n.coeffvar, 3.5037, 4);
	AT(stats_pndiff(n.coeffvar, b.coeffvar), 56.41, 2);
	AT(stats_pdiff(n.max, b.max), -20.83, 2);
	AT(stats_bmean(v1b, 5, 50, 1, NULL), 1147.8261, 4);
	AT(stats_bmean(v1n, 5, 50, 1, NULL), 944.9735, 4);
	AT(stats_pdiff(944.9735, 1147.8261), -17.67, 2);
	AT(stats_bmean(v1b, 5, 95, 1, NULL), 1082.6011, 4);
	AT(stats_bmean(v1b, 5, 99, 1, NULL), 1082.6011, 4);
	AT(stats_bmean(v1n, 5, 95, 1, NULL), 927.1000, 4);
	AT(stats_pdiff(stats_bmean(v1n, 5, 95, 1, NULL), stats_bmean(v1b, 5, 95, 1, NULL)),
	   -14.36, 2);
	stats_ttest_mmtests(&b, &n, 1, 0.10, &tt);
	AT(tt.se, 40.987803, 6);
	AT(tt.t, 3.601858, 6);
	AT(tt.df, 8, 0);
	AT(tt.p, 0.006963, 6);
	assert_true(tt.significant);
}

static void test_v2(void **state)
{
	struct stats b, n;
	struct ttest tt;
	(void)state;
	stats_compute(v2b, 5, &b);
	stats_compute(v2n, 5, &n);
	AT(b.hmean, 3998.75, 2);
	AT(n.hmean, 4027.14, 2);
	AT(stats_pdiff(n.hmean, b.hmean), 0.71, 2);
	stats_ttest_mmtests(&b, &n, 1, 0.10, &tt);
	AT(tt.p, 0.5550, 4);
	assert_false(tt.significant);
	AT(b.stddev, 79.06, 2);
	AT(n.stddev, 66.11, 2);
	AT(stats_pndiff(n.stddev, b.stddev), 16.38, 2);
	AT(stats_bmean(v2b, 5, 95, 1, NULL), 4024.22, 2);
	AT(stats_bmean(v2n, 5, 95, 1, NULL), 4044.28, 2);
}

static void test_v3(void **state)
{
	static const double hb[] = { 120, 130, 125, 140 }, hn[] = { 100, 110, 105, 108, 112 };
	static const double fb[] = { 20, 25, 22 }, fn[] = { 18, 19 };
	struct stats b, n;
	struct ttest tt;
	(void)state;
	stats_compute(hb, 4, &b);
	stats_compute(hn, 5, &n);
	AT(stats_mean(&b, -1), 128.75, 2);
	AT(stats_mean(&n, -1), 107.00, 2);
	AT(stats_pndiff(n.amean, b.amean), 16.89, 2);
	AT(b.stddev, 8.54, 2);
	AT(n.stddev, 4.69, 2);
	stats_ttest_mmtests(&b, &n, -1, 0.10, &tt);
	AT(tt.t, 4.572197, 6);
	AT(tt.df, 7, 0);
	AT(tt.p, 0.00257, 5);
	assert_true(tt.significant);
	AT(stats_bmean(hb, 4, 95, -1, NULL), 125.00, 2);
	AT(stats_bmean(hn, 5, 95, -1, NULL), 105.75, 2);

	stats_compute(fb, 3, &b);
	stats_compute(fn, 2, &n);
	AT(b.amean, 22.33, 2);
	AT(n.amean, 18.50, 2);
	AT(stats_pndiff(n.amean, b.amean), 17.16, 2);
	stats_ttest_mmtests(&b, &n, -1, 0.10, &tt);
	AT(tt.t, 2.4947, 4);
	AT(tt.df, 3, 0);
	AT(tt.p, 0.0881, 4);
	assert_true(tt.significant);
	stats_ttest_mmtests(&b, &n, -1, 0.05, &tt);
	assert_false(tt.significant);

	/* huge-1, higher is better: 66.67 -> 83.33 is 25.00% */
	AT(stats_pdiff(250.0 / 3, 200.0 / 3), 25.00, 2);
}

static void test_single_sample(void **state)
{
	static const double one[] = { 42 }, base[] = { 40, 44, 41 };
	struct stats b, n;
	struct ttest tt;
	double t;
	(void)state;
	stats_compute(base, 3, &b);
	stats_compute(one, 1, &n);
	assert_false(n.stddev_ok);
	assert_true(n.stddev == 0);
	assert_true(n.coeffvar == 0);
	assert_true(n.min == 42 && n.max == 42 && n.amean == 42);
	assert_true(n.hmean_ok);
	AT(n.hmean, 42, 9);
	/* Stddev prints 0.00 ( 0.00%)? only against an equal baseline; CoeffVar
	 * against a real one is pndiff(0, x) = 100 */
	AT(stats_pndiff(n.coeffvar, b.coeffvar), 100.00, 2);
	AT(stats_pndiff(0, 0), 0, 2);
	/* one sample against three: SE from the baseline's spread alone, the
	 * pooled df = 3 + 1 - 2, and for df = 2 the two-sided p has the closed
	 * form 1 - |t| / sqrt(t^2 + 2) */
	stats_ttest_mmtests(&b, &n, 1, 0.10, &tt);
	assert_true(tt.df == 2);
	AT(tt.se, 2.0816659995 / sqrt(3), 9);
	t = fabs(b.hmean - 42) / tt.se;
	AT(tt.t, t, 9);
	AT(tt.t, 0.3338433925, 9);
	AT(tt.p, 1 - t / sqrt(t * t + 2), 9);
	AT(tt.p, 0.7702517357, 9);
	assert_false(tt.significant);
	/* both single samples: SE = 0, significant iff the means differ */
	stats_ttest_mmtests(&n, &n, 1, 0.10, &tt);
	assert_false(tt.significant);
	assert_true(tt.t == 0 && tt.p == 1);
	stats_compute(base, 1, &b);
	stats_ttest_mmtests(&b, &n, 1, 0.10, &tt);
	assert_true(tt.significant);
	assert_true(isinf(tt.t) && tt.p == 0);
}

/* Constant samples (every run gave the same count) have no spread: equal
 * means are no change at all, different ones are certainly different. */
static void test_no_spread(void **state)
{
	static const double five[] = { 5, 5, 5 }, six[] = { 6, 6, 6 };
	struct stats a, b;
	struct ttest tt;
	(void)state;
	stats_compute(five, 3, &a);
	stats_compute(six, 3, &b);
	assert_true(a.stddev_ok && a.stddev == 0);
	stats_ttest_mmtests(&a, &a, -1, 0.10, &tt);
	assert_true(tt.df == 4);
	assert_true(tt.t == 0);
	assert_true(tt.p == 1);
	assert_false(tt.significant);
	stats_ttest_mmtests(&a, &b, -1, 0.10, &tt);
	assert_true(isinf(tt.t));
	assert_true(tt.p == 0);
	assert_true(tt.significant);
	stats_welch_se(5, 0, 3, 5, 0, 3, &tt);
	assert_true(tt.p == 1 && !tt.significant);
	stats_welch_se(5, 0, 3, 6, 0, 3, &tt);
	assert_true(tt.p == 0 && tt.significant);
	/* an infinite t is as significant as it gets */
	assert_true(stats_t_pvalue(INFINITY, 5) == 0);
	assert_true(stats_t_pvalue(-INFINITY, 5) == 0);
	assert_true(stats_t_pvalue(0, 5) == 1);
}

static void test_v4(void **state)
{
	static const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s;
	bool ok = false;
	(void)state;
	stats_compute(x, 8, &s);
	AT(s.amean, 5, 6);
	AT(s.hmean, 4.201751, 6);
	AT(s.gmean, 4.603216, 6);
	AT(s.stddev, 2.138090, 6);
	AT(s.coeffvar, 42.761799, 6);
	AT(stats_bmean(x, 8, 95, 1, &ok), 4.985868, 6);
	assert_true(ok);
	AT(stats_bmean(x, 8, 50, 1, NULL), 6.116505, 6);
	AT(stats_bmean(x, 8, 95, -1, NULL), 4.428571, 6);
	AT(stats_bmean(x, 8, 50, -1, NULL), 3.5, 6);
}

static void test_percent_rules(void **state)
{
	(void)state;
	assert_true(stats_pdiff(5, 5) == 0);
	assert_true(stats_pdiff(0, 0) == 0);
	assert_true(stats_pdiff(5, 0) == 100);
	assert_true(stats_pdiff(0, 5) == -100);
	assert_true(stats_pndiff(5, 5) == 0);
	assert_true(stats_pndiff(0, 0) == 0);
	assert_true(stats_pndiff(5, 0) == -99);
	assert_true(stats_pndiff(0, 5) == 100);
	AT(stats_pdiff(110, 100), 10, 9);
	AT(stats_pndiff(110, 100), -10, 9);
}

/* issue 12: positive is better whatever the signs; a zero baseline follows
 * the direction of the change */
static void test_percent_negative_and_zero_baselines(void **state)
{
	(void)state;
	assert_true(stats_pndiff(-5, -2) == 150);    /* lower is better: -5 beats -2 */
	assert_true(stats_pdiff(-5, -2) == -150);    /* higher is better: -5 is worse */
	assert_true(stats_pdiff(-1, -2) == 50);
	assert_true(stats_pndiff(0, -2) == -100);    /* 0 is higher: worse */
	assert_true(stats_pdiff(-3, 0) == -100);
	assert_true(stats_pndiff(-3, 0) == 100);
	/* positive samples keep mmtests' numbers */
	assert_true(stats_pdiff(3, 0) == 100);
	assert_true(stats_pndiff(3, 0) == -99);
}

static void test_coeffvar_of_negative_samples(void **state)
{
	static const double x[] = { -1, -2, -3 };
	struct stats s;
	(void)state;
	stats_compute(x, 3, &s);
	AT(s.coeffvar, 50, 9);
	assert_false(s.hmean_ok);
	assert_false(s.gmean_ok);
}

static void test_undefined_hmean(void **state)
{
	static const double x[] = { 3, 0, 5 }, y[] = { -1, 2 };
	struct stats s;
	bool ok = true;
	(void)state;
	stats_compute(x, 3, &s);
	assert_false(s.hmean_ok);
	assert_false(s.gmean_ok);
	assert_true(s.hmean == 0 && s.gmean == 0);
	assert_true(s.min == 0 && s.max == 5);
	assert_true(stats_mean(&s, 1) == 0);
	AT(stats_mean(&s, -1), 8.0 / 3, 9);
	/* best 50% of {5,3,0} is {5}: defined */
	AT(stats_bmean(x, 3, 50, 1, &ok), 5, 9);
	assert_true(ok);
	/* k = 2: {5, 3}, Hmean 2 / (1/5 + 1/3) */
	AT(stats_bmean(x, 3, 99, 1, &ok), 3.75, 9);
	assert_true(ok);
	/* the 0 is in: undefined, 0 */
	assert_true(stats_bmean(x, 3, 100, 1, &ok) == 0);
	assert_false(ok);
	/* lower is better: the best two are {0, 3}, an Amean, defined */
	AT(stats_bmean(x, 3, 99, -1, &ok), 1.5, 9);
	assert_true(ok);
	/* no standard error for an undefined Hmean */
	assert_true(stats_mean_se(x, 3, 1, &ok) == 0);
	assert_false(ok);
	AT(stats_mean_se(x, 3, -1, &ok), sqrt(19.0 / 3 / 3), 9);
	assert_true(ok);
	stats_compute(y, 2, &s);
	assert_false(s.hmean_ok);
	stats_compute(NULL, 0, &s);
	assert_true(s.n == 0);
	assert_true(stats_mean(&s, -1) == 0);
	assert_true(stats_bmean(NULL, 0, 50, 1, &ok) == 0);
	assert_false(ok);
}

/* B?mean trimming: k = n * pct / 100 samples in integer arithmetic, at least
 * one; up to 48 samples are sorted by insertion, more by qsort. */
static void test_bmean_trimming(void **state)
{
	static const double one[] = { 7 }, two[] = { 4, 8 };
	double many[60], back[60];
	bool ok = false;
	(void)state;
	/* small n: 1 * 50 / 100 = 0 is raised to 1 */
	AT(stats_bmean(one, 1, 50, 1, &ok), 7, 9);
	assert_true(ok);
	AT(stats_bmean(one, 1, 50, -1, &ok), 7, 9);
	AT(stats_bmean(two, 2, 50, 1, &ok), 8, 9);
	AT(stats_bmean(two, 2, 50, -1, &ok), 4, 9);
	AT(stats_bmean(two, 2, 99, 1, &ok), 8, 9);
	AT(stats_bmean(two, 2, 100, 1, &ok), 2 / (1.0 / 4 + 1.0 / 8), 9);
	/* n > 48, shuffled: 1..60 */
	for (int i = 0; i < 60; i++)
		many[i] = (double)((i * 37) % 60 + 1);
	memcpy(back, many, sizeof(many));
	AT(stats_bmean(many, 60, 50, 1, &ok), 43.8030840978, 9);   /* Hmean of 31..60 */
	assert_true(ok);
	AT(stats_bmean(many, 60, 95, 1, &ok), 20.0243307590, 9);   /* Hmean of 4..60 */
	AT(stats_bmean(many, 60, 50, -1, &ok), 15.5, 9);           /* Amean of 1..30 */
	AT(stats_bmean(many, 60, 95, -1, &ok), 29, 9);             /* Amean of 1..57 */
	/* the caller's samples are not reordered */
	assert_memory_equal(many, back, sizeof(many));
	/* both sort paths agree on order, best first */
	stats_sort_best_first(many, 60, 1);
	for (int i = 0; i < 60; i++)
		assert_true(many[i] == 60 - i);
	stats_sort_best_first(many, 60, -1);
	for (int i = 0; i < 60; i++)
		assert_true(many[i] == i + 1);
	stats_sort_best_first(many, 48, 1);
	for (int i = 0; i < 48; i++)
		assert_true(many[i] == 48 - i);
}

static void test_incbeta(void **state)
{
	(void)state;
	assert_true(stats_incbeta(2, 3, 0) == 0);
	assert_true(stats_incbeta(2, 3, 1) == 1);
	/* I_x(1,1) = x; I_x(a,1) = x^a; I_0.5(a,a) = 0.5 */
	AT(stats_incbeta(1, 1, 0.3), 0.3, 12);
	AT(stats_incbeta(3, 1, 0.7), 0.343, 12);
	AT(stats_incbeta(7.5, 7.5, 0.5), 0.5, 12);
	assert_true(isnan(stats_incbeta(-1, 1, 0.5)));
}

static void test_t_table(void **state)
{
	const char *src = getenv("LRUBENCH_SRC");
	char path[4096], line[256];
	FILE *f;
	size_t rows = 0;
	double worst = 0;
	(void)state;
	snprintf(path, sizeof(path), "%s/tests/fixtures/compare/t_table.csv", src ? src : ".");
	f = fopen(path, "r");
	if (!f)
		f = fopen("tests/fixtures/compare/t_table.csv", "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		double df, t, p, got;
		assert_int_equal(sscanf(line, "%lf,%lf,%lf", &df, &t, &p), 3);
		got = stats_t_pvalue(t, df);
		if (fabs(got - p) > worst)
			worst = fabs(got - p);
		if (fabs(got - p) > 1e-6)
			fprintf(stderr, "df %g t %g: R %.17g, ours %.17g\n", df, t, p, got);
		NEAR(got, p, 1e-6);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 9000);
	fprintf(stderr, "t table: %zu rows, worst |diff| %.3g\n", rows, worst);
}

static void test_t_quantile(void **state)
{
	(void)state;
	/* qt(0.975, df) from R */
	AT(stats_t_quantile(0.975, 1), 12.706204736174707, 9);
	AT(stats_t_quantile(0.975, 4), 2.7764451051977934, 9);
	AT(stats_t_quantile(0.975, 8), 2.3060041352041662, 9);
	AT(stats_t_quantile(0.975, 200), 1.9718962236339079, 9);
	AT(stats_t_quantile(0.025, 8), -2.3060041352041662, 9);
	AT(stats_t_quantile(0.95, 2.5), 2.5582186141359453, 9);
	assert_true(stats_t_quantile(0.5, 3) == 0);
	assert_true(isnan(stats_t_quantile(1, 3)));
	/* round trip through the CDF */
	for (double df = 0.3; df <= 1e5; df *= 1.7)
		for (double p = 0.6; p < 0.9999; p += 0.05) {
			double t = stats_t_quantile(p, df);
			NEAR(stats_t_pvalue(t, df) / 2, 1 - p, 1e-9);
		}
}

static void test_welch(void **state)
{
	static const double two_b[] = { 10, 12 }, two_n[] = { 11, 15 };
	struct stats b, n;
	struct ttest tt;
	bool ok;
	(void)state;
	stats_compute(v1b, 5, &b);
	stats_compute(v1n, 5, &n);
	stats_ttest_welch(&b, &n, &tt);
	/* R: t.test(new, base) */
	NEAR(tt.t, -3.7084202772044264, 1e-9);
	NEAR(tt.df, 5.0966271682876538, 1e-9);
	NEAR(tt.p, 0.013407275331288713, 1e-9);
	NEAR(tt.se, sqrt(85.84870412533 * 85.84870412533 / 5 + 32.09361307176 * 32.09361307176 / 5),
	     1e-6);
	/* significant at Welch's 5%, which a 1% test would not be */
	assert_true(tt.significant);
	/* R: t.test(c(11, 15), c(10, 12)): t 0.894427, df 1.470588, p 0.4964 */
	stats_compute(two_b, 2, &b);
	stats_compute(two_n, 2, &n);
	stats_ttest_welch(&b, &n, &tt);
	NEAR(tt.t, 0.89442719099991586, 1e-9);
	NEAR(tt.df, 1.4705882352941178, 1e-9);
	assert_false(tt.significant);
	/* lower is better: the Amean standard error is s/sqrt(n) */
	AT(stats_mean_se(v1b, 5, -1, &ok), 85.8487 / sqrt(5), 4);
	assert_true(ok);
	stats_mean_se(v1b, 1, 1, &ok);
	assert_false(ok);
	stats_mean_se(v1b, 1, -1, &ok);
	assert_false(ok);
	/* higher is better: Hmean's standard error by the delta method,
	 * Hmean^2 * SE(mean(1/x)) */
	AT(stats_mean_se(v1b, 5, 1, &ok), 36.5922426459, 9);
	assert_true(ok);
}

/* run's end-of-run summary of one throughput table {1000, 4000} (Hmean 1600,
 * Amean 2500) under the workload's statistic word */
static char *summary_of(const char *statistic)
{
	struct wl_result r = { 0 };
	struct result_table *t;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	r.workload = xstrdup("readtwice");
	t = wl_result_table(&r, "readtwice MB/s per reader", "MB/s", BETTER_HIGHER);
	result_table_add(t, "memcgs-2", 1000);
	result_table_add(t, "memcgs-2", 4000);
	t = wl_result_explaining_table(&r, "readtwice CPU %", "%", BETTER_HIGHER);
	result_table_add(t, "memcgs-2", 1);
	result_table_add(t, "memcgs-2", 4);
	run_summary_print(&r, statistic, NULL, f);
	fclose(f);
	wl_result_release(&r);
	return text;
}

/* statistic = amean: run's summary names and prints the Amean, as compare
 * does (one rule: stats_mean_better); the explaining tables keep mmtests'. */
static void test_run_summary_statistic(void **state)
{
	char *am = summary_of("amean"), *mm = summary_of("mmtests"), *none = summary_of(NULL);
	(void)state;
	assert_non_null(strstr(am, "Amean      2500.00"));
	assert_null(strstr(am, "Hmean"));
	assert_non_null(strstr(am, "memcgs-2 1.60  (%)"));   /* Hmean of {1, 4} */
	assert_non_null(strstr(mm, "Hmean      1600.00"));
	assert_non_null(strstr(none, "Hmean      1600.00"));
	assert_int_equal(stats_mean_better(BETTER_HIGHER, false, "amean"), BETTER_HIGHER_AMEAN);
	assert_int_equal(stats_mean_better(BETTER_HIGHER, true, "amean"), BETTER_HIGHER);
	assert_int_equal(stats_mean_better(BETTER_LOWER, false, "amean"), BETTER_LOWER);
	assert_int_equal(stats_mean_better(BETTER_HIGHER, false, "mmtests"), BETTER_HIGHER);
	free(am);
	free(mm);
	free(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_v4),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_no_spread),
		cmocka_unit_test(test_percent_rules),
		cmocka_unit_test(test_percent_negative_and_zero_baselines),
		cmocka_unit_test(test_coeffvar_of_negative_samples),
		cmocka_unit_test(test_undefined_hmean),
		cmocka_unit_test(test_bmean_trimming),
		cmocka_unit_test(test_incbeta),
		cmocka_unit_test(test_t_table),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_run_summary_statistic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
