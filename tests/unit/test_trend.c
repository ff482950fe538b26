// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench trend's change-point method (compare/trend.c) on synthetic
 * series, and run --label patterns (core/label_pattern.c).
 */
#include "unit.h"
#include <math.h>
#include "compare/trend.h"
#include "core/label_pattern.h"

static const struct trend_params defaults = { TREND_WINDOW, TREND_THRESHOLD, 0 };

/* Deterministic noise: a small LCG mapped to roughly normal (sum of 4). */
static double noise(unsigned *seed)
{
	double s = 0;

	for (int i = 0; i < 4; i++) {
		*seed = *seed * 1103515245u + 12345u;
		s += (double)((*seed >> 8) & 0xffff) / 65536.0 - 0.5;
	}
	return s * sqrt(3.0);   /* sd about 1 */
}

static void series(double *x, size_t n, double level, double sd, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = level + sd * noise(&seed);
}

static void test_robust_sd(void **state)
{
	double x[400];

	(void)state;
	series(x, 400, 1000, 10, 1);
	/* the noise's sd, within sampling error */
	assert_true(fabs(trend_robust_sd(x, 400) - 10) < 1.5);
	/* a big step moves one difference only */
	for (size_t i = 200; i < 400; i++)
		x[i] -= 300;
	assert_true(fabs(trend_robust_sd(x, 400) - 10) < 1.5);
	assert_true(trend_robust_sd(x, 2) == 0);
}

static void test_step_found_where_it_is(void **state)
{
	struct trend_change ch[40];
	double x[40];

	(void)state;
	for (size_t at = 3; at <= 37; at += 2) {
		series(x, 40, 1000, 5, (unsigned)at);
		for (size_t i = at; i < 40; i++)
			x[i] -= 150;   /* -15%, 30 sd */
		assert_int_equal(trend_changes(x, 40, &defaults, ch), 1);
		assert_int_equal(ch[0].at, at);
		assert_true(fabs(ch[0].before - 1000) < 10 && fabs(ch[0].after - 850) < 10);
		if (!(ch[0].score > 15))
			fail_msg("step at %zu: score %.2f", at, ch[0].score);
	}
}

static void test_noise_and_outliers_are_not_changes(void **state)
{
	struct trend_change ch[60];
	double x[60];
	size_t n;

	(void)state;
	for (unsigned seed = 1; seed < 50; seed++) {
		series(x, 60, 500, 8, seed);
		x[10] += 400;   /* one bad night each way */
		x[30] -= 300;
		x[59] += 200;   /* and the newest: one point is never a change */
		n = trend_changes(x, 60, &defaults, ch);
		if (n)
			fail_msg("seed %u: a change at %zu, score %.2f", seed, ch[0].at, ch[0].score);
	}
}

static void test_two_steps_and_noiseless(void **state)
{
	struct trend_change ch[30];
	double x[30];

	(void)state;
	for (size_t i = 0; i < 30; i++)
		x[i] = i < 10 ? 100 : i < 20 ? 120 : 90;
	assert_int_equal(trend_changes(x, 30, &defaults, ch), 2);
	assert_int_equal(ch[0].at, 10);
	assert_true(ch[0].before == 100 && ch[0].after == 120);
	assert_int_equal(ch[1].at, 20);
	assert_true(ch[1].before == 120 && ch[1].after == 90);
	/* constant: nothing; a step at the very end needs three points */
	for (size_t i = 0; i < 30; i++)
		x[i] = 7;
	assert_int_equal(trend_changes(x, 30, &defaults, ch), 0);
	x[29] = 9;
	assert_int_equal(trend_changes(x, 30, &defaults, ch), 0);
	x[28] = 9;
	assert_int_equal(trend_changes(x, 30, &defaults, ch), 0);
	x[27] = 9;
	assert_int_equal(trend_changes(x, 30, &defaults, ch), 1);
	assert_int_equal(ch[0].at, 27);
	/* too short a series for two sides of three */
	assert_int_equal(trend_changes(x + 25, 5, &defaults, ch), 0);
}

static void test_threshold_and_window(void **state)
{
	struct trend_change ch[40];
	struct trend_params strict = { TREND_WINDOW, 50, 0 }, wide = { 10, 3, 0 };
	double x[40];

	(void)state;
	series(x, 40, 1000, 5, 3);
	for (size_t i = 20; i < 40; i++)
		x[i] += 100;   /* 20 sd */
	assert_int_equal(trend_changes(x, 40, &strict, ch), 0);
	assert_int_equal(trend_changes(x, 40, &wide, ch), 1);
	assert_int_equal(ch[0].at, 20);
}

/* Quantized values: most night-to-night differences equal, their MAD 0. */
static void test_noise_floor(void **state)
{
	static const double cycle[] = { 4, 6, 3, 5, 2 };
	struct trend_change ch[20];
	struct trend_params floor = { TREND_WINDOW, TREND_THRESHOLD, 1.0 };
	double x[20];

	(void)state;
	for (size_t i = 0; i < 20; i++)
		x[i] = 1000 + cycle[i % 5];
	x[12] = 1500;   /* one bad night */
	assert_true(trend_robust_sd(x, 20) < 1e-9);
	/* without a floor every wiggle is a change; with the samples' own noise none is */
	assert_true(trend_changes(x, 20, &defaults, ch) > 0);
	assert_int_equal(trend_changes(x, 20, &floor, ch), 0);
	for (size_t i = 10; i < 20; i++)
		x[i] -= 150;
	assert_int_equal(trend_changes(x, 20, &floor, ch), 1);
	assert_int_equal(ch[0].at, 10);
}

static void test_label_patterns(void **state)
{
	struct strbuf err = STRBUF_INIT;
	time_t t = 1796076930;   /* 2026-11-30T22:15:30Z */
	char *s;

	(void)state;
	s = label_expand("auto", "6.1.0-13-amd64", t, &err);
	assert_string_equal(s, "6.1.0-13-amd64-20261130T221530");
	free(s);
	s = label_expand("nightly-%d-%t-%r-100%%", "6.8.0", t, &err);
	assert_string_equal(s, "nightly-20261130-221530-6.8.0-100%");
	free(s);
	s = label_expand("plain", "6.8.0", t, &err);
	assert_string_equal(s, "plain");
	free(s);
	/* sortable: a later time sorts later */
	{
		char *a = label_expand("auto", "r", t, &err), *b = label_expand("auto", "r", t + 59, &err);

		assert_true(strcmp(a, b) < 0);
		free(a);
		free(b);
	}
	strbuf_init(&err);
	assert_null(label_expand("x-%q", "r", t, &err));
	assert_non_null(strstr(err.buf, "'%q'"));
	strbuf_reset(&err);
	assert_null(label_expand("x-%", "r", t, &err));
	assert_non_null(strstr(err.buf, "--label"));
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust_sd),
		cmocka_unit_test(test_step_found_where_it_is),
		cmocka_unit_test(test_noise_and_outliers_are_not_changes),
		cmocka_unit_test(test_two_steps_and_noiseless),
		cmocka_unit_test(test_threshold_and_window),
		cmocka_unit_test(test_noise_floor),
		cmocka_unit_test(test_label_patterns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
