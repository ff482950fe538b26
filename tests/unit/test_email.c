// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare -f email (compare/render_email.c) and the report's letter parts
 * on in-memory comparisons: the golden layout, and the 72-column bound for
 * 2, 3 and 5 labels with long op names, long labels and huge numbers.
 */
#include "unit.h"
#include "compare/email.h"
#include "compare/letter.h"
#include "compare/model.h"

static void make_label(struct label_result *l, const char *label)
{
	memset(l, 0, sizeof(*l));
	l->label = xstrdup(label);
	l->dir = xstrdup(label);
	l->run = json_tokener_parse("{\"system\": {\"nr_cpus\": 2}}");
	l->wls = xcalloc(1, sizeof(*l->wls));
	l->nwls = 1;
	l->wls[0].workload = xstrdup("readtwice");
}

static void add(struct label_result *l, const char *title, int better, const char *op,
		const double *x, size_t n)
{
	struct result_table *t = wl_result_table(&l->wls[0], title, "MB/s", better);

	for (size_t i = 0; i < n; i++)
		result_table_add(t, op, x[i]);
}

static void release(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
}

/* Every line at most EMAIL_WIDTH columns, printable ASCII, no trailing blank. */
static void assert_mail_safe(const char *s)
{
	size_t col = 0;

	for (const char *p = s; *p; p++) {
		if (*p == '\n') {
			if (col && p[-1] == ' ')
				fail_msg("trailing blank before: %.40s", p + 1);
			col = 0;
			continue;
		}
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			fail_msg("byte 0x%02x is not printable ASCII", (unsigned char)*p);
		if (++col > EMAIL_WIDTH)
			fail_msg("a line is longer than %d columns: %.80s", EMAIL_WIDTH, p - col + 1);
	}
	assert_true(s[0] && s[strlen(s) - 1] == '\n');
}

static void test_golden(void **state)
{
	static const double v1b[] = { 1000, 1100, 1050, 990, 1200 }, v1n[] = { 900, 950, 870, 920, 940 };
	static const double v4b[] = { 3900, 4000, 4100, 3950, 4050 };
	static const double v4n[] = { 3980, 4010, 4120, 3960, 4070 };
	static const char want[] =
		"Kernels: 6.8.0-vanilla (baseline), 6.8.0-patched\n"
		"Nothing differs between the labels besides the kernel.\n"
		"\n"
		"readtwice MB/s aggregate\n"
		"Hmean (stddev) in MB/s; higher is better\n"
		"op    6.8.0-vanilla    6.8.0-patched   change\n"
		"1   1062.72 (85.85)   915.09 (32.09)  -13.89% *\n"
		"4   3998.75 (79.06)  4027.14 (66.11)   +0.71%\n"
		"\n"
		"change: of the Hmean (Amean where lower is better) against the baseline\n"
		"6.8.0-vanilla, positive is better; * marks a significant change\n"
		"(mmtests' t-test at alpha 0.1).\n";
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	make_label(&l[0], "6.8.0-vanilla");
	make_label(&l[1], "6.8.0-patched");
	add(&l[0], "readtwice MB/s aggregate", BETTER_HIGHER, "1", v1b, 5);
	add(&l[0], "readtwice MB/s aggregate", BETTER_HIGHER, "4", v4b, 5);
	add(&l[1], "readtwice MB/s aggregate", BETTER_HIGHER, "1", v1n, 5);
	add(&l[1], "readtwice MB/s aggregate", BETTER_HIGHER, "4", v4n, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	strbuf_init(&out);
	report_email(&c, &out);
	assert_string_equal(out.buf, want);
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* a workload measured by statistic = amean (the thread's arithmetic mean):
 * its row says Amean, and the footnote does not call the change the Hmean's */
static void test_amean_statistic_footnote(void **state)
{
	static const double vb[] = { 1000, 4000 }, vn[] = { 1100, 4100 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	make_label(&l[0], "base");
	make_label(&l[1], "new");
	for (int i = 0; i < 2; i++) {
		json_object_put(l[i].run);
		l[i].run = json_tokener_parse("{\"system\": {\"nr_cpus\": 2}, \"config\": "
					      "{\"readtwice\": {\"statistic\": \"amean\"}}}");
	}
	add(&l[0], "readtwice MB/s aggregate", BETTER_HIGHER, "1", vb, 2);
	add(&l[1], "readtwice MB/s aggregate", BETTER_HIGHER, "1", vn, 2);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_email(&c, &out);
	assert_non_null(strstr(out.buf, "Amean (stddev)"));
	assert_mail_safe(out.buf);
	/* the footnote is wrapped: read it as one line */
	for (char *p = out.buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	assert_non_null(strstr(out.buf, "where the run says statistic = amean"));
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* the monitors' level tables: one without a significant change is left out
 * of the letter with a line that says so; one that changed stays */
static void test_quiet_level_tables_left_out(void **state)
{
	static const double same[] = { 100, 101, 99, 100 }, big[] = { 300, 301, 299, 300 };
	static const double mbs[] = { 1000, 1010, 990, 1003 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	make_label(&l[0], "base");
	make_label(&l[1], "new");
	for (int i = 0; i < 2; i++) {
		add(&l[i], "readtwice MB/s aggregate", BETTER_HIGHER, "memcgs-1", mbs, 4);
		for (size_t k = 0; k < 4; k++) {
			result_table_add(wl_result_explaining_table(&l[i].wls[0],
					 "readtwice Cached MB (peak)", "MB", BETTER_LOWER),
					 "memcgs-1", same[k]);
			result_table_add(wl_result_explaining_table(&l[i].wls[0],
					 "readtwice active file MB (peak)", "MB", BETTER_LOWER),
					 "memcgs-1", i ? big[k] : same[k]);
		}
	}
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_email(&c, &out);
	assert_mail_safe(out.buf);
	assert_null(strstr(out.buf, "readtwice Cached MB (peak)"));
	assert_non_null(strstr(out.buf, "readtwice active file MB (peak)"));
	assert_non_null(strstr(out.buf, "(1 level table of the monitors with no significant"));
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

/*
 * nl labels named prefix0, prefix1, ..., a throughput table with short and very long op
 * names and a latency table whose numbers need every digit; returns the
 * email text (malloc'ed).
 */
static char *wide_email(size_t nl, const char *label_prefix, const char *long_op)
{
	struct label_result *l = xcalloc(nl, sizeof(*l));
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	for (size_t i = 0; i < nl; i++) {
		char *name = xasprintf("%s%zu", label_prefix, i);
		double a[] = { 1000 + 7.0 * (double)i, 1010, 990 - 3.0 * (double)i, 1003 };
		double big[] = { 123456789012.5, 98765432109.25 * (double)(i + 1), 5e11 };
		double neg[] = { -99999.99, -12345.5 - (double)i, -50000 };

		make_label(&l[i], name);
		add(&l[i], "readtwice MB/s aggregate", BETTER_HIGHER, "memcgs-1", a, 4);
		add(&l[i], "readtwice MB/s aggregate", BETTER_HIGHER, long_op, a, 4);
		add(&l[i], "readtwice MB/s aggregate", BETTER_HIGHER, "huge", big, 3);
		add(&l[i], "a latency table whose title alone is longer than seventy-two columns "
			   "of text", BETTER_LOWER, "neg", neg, 3);
		free(name);
	}
	assert_int_equal(comparison_build(l, nl, 0.10, &c, &err), 0);
	strbuf_init(&out);
	report_email(&c, &out);
	comparison_release(&c);
	release(l, nl);
	free(l);
	strbuf_release(&err);
	return strbuf_detach(&out);
}

static const char long_op[] =
	"an-op-name-of-sixty-characters-or-so-which-no-column-holds-x";

static void test_width_2_3_5_labels(void **state)
{
	static const size_t ns[] = { 2, 3, 5 };
	static const char *fmts[] = { "6.8.0-k", "6.1.0-13-amd64-20261130T221530-with-a-suffix-" };

	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(fmts); f++)
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			char *s = wide_email(ns[i], fmts[f], long_op);

			assert_mail_safe(s);
			/* nothing dropped: every op, on its own line when too long */
			assert_non_null(strstr(s, "\nmemcgs-1 "));
			assert_non_null(strstr(s, "\nhuge "));
			assert_non_null(strstr(s, long_op));
			/* every candidate has its change column in each of the two tables */
			assert_int_equal(count(s, "  change"), (ns[i] - 1) * 2);
			free(s);
		}
}

static void test_two_short_labels_one_block(void **state)
{
	char *s;

	(void)state;
	s = wide_email(2, "6.8.0-k", "memcgs-2");
	assert_mail_safe(s);
	/* one block per table, the labels as headers, no key */
	assert_int_equal(count(s, "\nop "), 2);
	assert_non_null(strstr(s, "Kernels: 6.8.0-k0 (baseline), 6.8.0-k1\n"));
	assert_non_null(strstr(s, " 6.8.0-k0 "));
	free(s);
	/* five short labels: split into blocks, each led by the baseline */
	s = wide_email(5, "6.8.0-k", "memcgs-2");
	assert_mail_safe(s);
	assert_true(count(s, "\nop ") > 2);
	assert_int_equal(count(s, "6.8.0-k0"), count(s, "\nop ") + 2);
	free(s);
}

static void test_long_labels_become_letters(void **state)
{
	char *s;

	(void)state;
	s = wide_email(2, "a-label-so-long-that-two-of-them-cannot-share-one-line-", "m");
	assert_mail_safe(s);
	assert_non_null(strstr(s, "Kernels:\n  A  a-label-so-long"));
	assert_non_null(strstr(s, "(baseline)\n  B  a-label-so-long"));
	assert_non_null(strstr(s, "\nop "));
	free(s);
}

static void test_wrap_and_ascii(void **state)
{
	struct strbuf out = STRBUF_INIT;
	char word[200];

	(void)state;
	strbuf_init(&out);
	memset(word, 'x', sizeof(word) - 1);
	word[sizeof(word) - 1] = '\0';
	email_add_wrapped(&out, "WARNING: ", "  ", "short \xc2\xb1 words then");
	assert_string_equal(out.buf, "WARNING: short ?? words then\n");
	strbuf_reset(&out);
	email_add_wrapped(&out, "", "  ", word);
	assert_mail_safe(out.buf);
	assert_int_equal(count(out.buf, "\n"), 3);   /* 72 + 70 + 57 */
	strbuf_release(&out);
}

static void test_letter_figure_trims(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	strbuf_init(&out);
	letter_figure(&out, "Figure 1: x",
		      "\n   \n  a  \n\n  b\xe2\x80\xa6\f\n   \n\n");
	assert_string_equal(out.buf, "Figure 1: x\n  a\n\n  b???\n");
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_amean_statistic_footnote),
		cmocka_unit_test(test_quiet_level_tables_left_out),
		cmocka_unit_test(test_width_2_3_5_labels),
		cmocka_unit_test(test_two_short_labels_one_block),
		cmocka_unit_test(test_long_labels_become_letters),
		cmocka_unit_test(test_wrap_and_ascii),
		cmocka_unit_test(test_letter_figure_trims),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
