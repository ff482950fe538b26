// SPDX-License-Identifier: GPL-2.0-or-later
/* The comparison model and its renderers on in-memory results (src/report*.c). */
#include "unit.h"
#include <math.h>
#include "compare/format.h"
#include "compare/html.h"
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

/* ---- helpers ---- */

#define AT(a, b, digits) assert_true(fabs((a) - (b)) <= 0.5 * pow(10, -(digits)) + 1e-12)

static void add_u(struct wl_result *w, const char *title, const char *unit, int better,
		  const char *op, const double *x, size_t n)
{
	struct result_table *t = wl_result_table(w, title, unit, better);

	result_table_op(t, op);   /* the op exists even with no samples */
	for (size_t i = 0; i < n; i++)
		result_table_add(t, op, x[i]);
}

/* The cell of (table ti, op name, label li). */
static const struct cmp_cell *cell_of(const struct comparison *c, size_t ti, const char *op,
				      size_t li)
{
	const struct cmp_table *t = &c->wls[0].tables[ti];

	for (size_t o = 0; o < t->nops; o++)
		if (!strcmp(t->ops[o].op, op))
			return &t->ops[o].cells[li];
	fail_msg("no op '%s'", op);
	return NULL;
}

/* The line of text that starts with prefix (a static copy), or fail. */
static const char *line_of(const char *text, const char *prefix)
{
	static char line[1024];

	for (const char *p = text; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, prefix, strlen(prefix))) {
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			return line;
		}
		p = nl ? nl + 1 : NULL;
	}
	fail_msg("no line starting '%s' in:\n%s", prefix, text);
	return NULL;
}

#define assert_in(hay, needle)                                                     \
	do {                                                                       \
		if (!strstr((hay), (needle)))                                      \
			fail_msg("'%s' not in '%s'", (needle), (hay));             \
	} while (0)

/* json-c navigation: "workloads.0.tables.1.ops" (numbers index arrays);
 * fails when a key is missing; a JSON null is NULL */
static json_object *jat(json_object *o, const char *path)
{
	char *s = xstrdup(path), *save = NULL;
	bool found = true;

	for (char *k = strtok_r(s, ".", &save); k; k = strtok_r(NULL, ".", &save)) {
		if (!o)
			found = false;
		else if (*k >= '0' && *k <= '9')
			found = (o = json_object_array_get_idx(o, (size_t)atoi(k))) != NULL;
		else
			found = json_object_object_get_ex(o, k, &o);
		if (!found)
			break;
	}
	free(s);
	if (!found)
		fail_msg("no %s in the JSON", path);
	return o;
}

static const char *jstr_at(json_object *o, const char *path)
{
	return json_object_get_string(jat(o, path));
}

static json_object *parse_json(const char *text)
{
	json_object *j = json_tokener_parse(text);

	if (!j)
		fail_msg("not JSON:\n%s", text);
	return j;
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
	assert_int_equal(c.nfacts, 0);
	assert_int_equal(c.warnings.n, 0);
	assert_null(strstr(out.buf, "WARNING"));
	/* the verdicts behind the marks */
	assert_true(c.wls[0].tables[0].ops[0].cells[1].mm.significant);
	assert_int_equal(c.wls[0].tables[0].ops[0].cells[1].verdict, VERDICT_REGRESSION);
	assert_false(c.wls[0].tables[0].ops[1].cells[1].mm.significant);
	assert_int_equal(c.wls[0].tables[0].ops[1].cells[1].verdict, VERDICT_NO_CHANGE);
	assert_true(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[1], 13.0));
	assert_false(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[1], 14.0));
	assert_false(cmp_is_regression(&c.wls[0].tables[0].ops[0].cells[0], 0));
	{
		struct gate_opts g = { .pct = 5 };

		assert_int_equal(report_regressions(&c, &g, NULL), 1);
		assert_int_equal(report_checks(&c, &g, NULL), 0);
	}
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

static void test_junit_and_csv(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	(void)state;
	golden_labels(l);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	{
		struct gate_opts g = { .pct = 5 };

		report_junit(&c, &g, &out);
	}
	assert_int_equal(count(out.buf, "<testcase "), 2);
	assert_int_equal(count(out.buf, "<failure "), 1);
	assert_non_null(strstr(out.buf, "<testsuites name=\"lrubench compare\" tests=\"2\" failures=\"1\" "
				"errors=\"0\" skipped=\"0\">\n"));
	assert_non_null(strstr(out.buf, "name=\"readtwice/" TITLE "/1\""));
	assert_non_null(strstr(out.buf, "<testsuite name=\"readtwice\" tests=\"2\" failures=\"1\" "));
	/* the failing case says by how much and how sure; the passing one is closed */
	assert_non_null(strstr(out.buf, "message=\"6.8.0-patched is 13.89% worse than 6.8.0-vanilla "
				"(p = 0.006963)\">"));
	assert_non_null(strstr(out.buf, "<testcase classname=\"lrubench.compare.readtwice\" "
				"name=\"readtwice/" TITLE "/4\"/>\n"));
	assert_int_equal(count(out.buf, "</testcase>"), 1);
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
	assert_in(out.buf, "**Labels:** `a` (baseline), `b`, `c`\n");
	assert_in(out.buf, "**Differs besides the kernel:**\n\n| fact | a | b | c |\n|---|---|---|---|\n"
		  "| config.s.k | 1 | 2 | 1 |\n");
	assert_in(out.buf, "\n> **Warning:** a ran under QEMU TCG emulation");
	assert_in(out.buf, "\n> **Warning:** the lrubench configs differ");
	/* three labels: each candidate's columns are named */
	assert_in(out.buf, "| b: change (95% CI) | Welch p | verdict | c: change (95% CI) |");
	/* x: 3 samples in a, 1 in b, none in c */
	assert_in(line_of(out.buf, "| x |"), "| x | 3 / 1 / 0 | 2.00 ± ");
	assert_in(line_of(out.buf, "| x |"), "| 5.00 (n=1) | n/a |");
	assert_in(line_of(out.buf, "| x |"), "| -150.00% | n/a | insufficient data | n/a | n/a | n/a |");
	assert_in(line_of(out.buf, "| y |"), "| y | 0 / 3 / 0 | n/a |");
	strbuf_reset(&out);
	report_json(&c, -1, &out);
	{
		json_object *j = parse_json(out.buf);
		json_object *vals = jat(j, "differences.0.values");

		assert_int_equal(json_object_array_length(jat(j, "labels")), 3);
		assert_true(json_object_get_boolean(jat(j, "labels.0.baseline")));
		assert_false(json_object_get_boolean(jat(j, "labels.1.baseline")));
		assert_int_equal(json_object_array_length(jat(j, "differences")), 1);
		assert_string_equal(jstr_at(j, "differences.0.fact"), "config.s.k");
		assert_int_equal(json_object_array_length(vals), 3);
		assert_string_equal(json_object_get_string(json_object_array_get_idx(vals, 0)), "1");
		assert_string_equal(json_object_get_string(json_object_array_get_idx(vals, 1)), "2");
		assert_string_equal(json_object_get_string(json_object_array_get_idx(vals, 2)), "1");
		assert_int_equal(json_object_array_length(jat(j, "warnings")), 2);
		assert_in(jstr_at(j, "warnings.1"), "a ran under QEMU TCG");
		/* the union of ops, in order, each with every label */
		assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.0.op"), "x");
		assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.1.op"), "y");
		assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.2.op"), "z");
		assert_int_equal(json_object_get_int(jat(j, "workloads.0.tables.0.ops.0.labels.1.n")), 1);
		assert_false(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.0.labels.2.present")));
		assert_false(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.1.labels.0.present")));
		assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.0.labels.1.verdict"),
				    "insufficient data");
		json_object_put(j);
	}
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 3);
}

static const double ten[] = { 10, 10.1, 9.9, 10.05, 9.95 };
static const double twelve[] = { 12, 12.1, 11.9, 12.05, 11.95 };
static const double eight[] = { 8, 8.1, 7.9, 8.05, 7.95 };
static const double ten_again[] = { 10.02, 9.98, 10.1, 9.9, 10.0 };

/*
 * (Issue 20's first example.) Lower is better: a latency going from 10 to 12
 * is a regression in the model, the gate, markdown, CSV and JSON alike, and
 * the numbers behind the verdict are those of the formulas.
 */
static void test_lower_is_better(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	const struct cmp_cell *b, *x;
	json_object *j;
	double half, want_lo, want_hi;
	char want[128];
	(void)state;
	make_label(&l[0], "base", "{}");
	make_label(&l[1], "cand", "{}");
	add_u(&l[0].wls[0], "lat", "us", BETTER_LOWER, "slower", ten, 5);
	add_u(&l[0].wls[0], "lat", "us", BETTER_LOWER, "faster", ten, 5);
	add_u(&l[0].wls[0], "lat", "us", BETTER_LOWER, "same", ten, 5);
	add_u(&l[1].wls[0], "lat", "us", BETTER_LOWER, "slower", twelve, 5);
	add_u(&l[1].wls[0], "lat", "us", BETTER_LOWER, "faster", eight, 5);
	add_u(&l[1].wls[0], "lat", "us", BETTER_LOWER, "same", ten_again, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);

	b = cell_of(&c, 0, "slower", 0);
	x = cell_of(&c, 0, "slower", 1);
	assert_int_equal(x->verdict, VERDICT_REGRESSION);
	AT(x->pct[ROW_MEAN], -20.0, 9);
	assert_true(x->mm.significant);
	/* the 95% CI of the change: Welch's SE times t(0.975, Welch df), over
	 * the baseline mean, sign turned so that positive is better */
	half = stats_t_quantile(0.975, x->welch.df) * x->welch.se;
	want_lo = -(2.0 + half) / 10.0 * 100;
	want_hi = -(2.0 - half) / 10.0 * 100;
	assert_true(x->change_ci_ok);
	AT(x->change_ci_lo, want_lo, 9);
	AT(x->change_ci_hi, want_hi, 9);
	assert_true(x->change_ci_hi < 0);
	/* each label's 95% CI of its Amean: t(0.975, n - 1) x s / sqrt(n) */
	AT(b->mean_se, b->st.stddev / sqrt(5), 12);
	AT(b->mean_ci_hi - b->mean_ci_lo, 2 * stats_t_quantile(0.975, 4) * b->mean_se, 12);
	AT(b->mean_ci_lo + b->mean_ci_hi, 2 * b->row[ROW_MEAN], 12);
	assert_int_equal(cell_of(&c, 0, "faster", 1)->verdict, VERDICT_IMPROVEMENT);
	AT(cell_of(&c, 0, "faster", 1)->pct[ROW_MEAN], 20.0, 9);
	assert_true(cell_of(&c, 0, "faster", 1)->change_ci_lo > 0);
	assert_int_equal(cell_of(&c, 0, "same", 1)->verdict, VERDICT_NO_CHANGE);

	/* the gate: 20% worse fails at 20% and passes at a hair above */
	assert_true(cmp_is_regression(x, 20.0 - 1e-9));
	assert_true(cmp_is_regression(x, -x->pct[ROW_MEAN]));
	assert_false(cmp_is_regression(x, -x->pct[ROW_MEAN] + 1e-9));
	assert_false(cmp_is_regression(cell_of(&c, 0, "faster", 1), 0));
	assert_int_equal(report_regressions(&c, &(struct gate_opts){ .pct = 5 }, NULL), 1);

	report_markdown(&c, &out);
	assert_in(out.buf, "\n### lat (us, lower is better)\n");
	assert_in(out.buf, "| op | n | base Amean ± 95% CI | cand Amean ± 95% CI | change (95% CI) "
		  "| Welch p | verdict |\n");
	snprintf(want, sizeof(want), "| slower | 5 / 5 | 10.00 ± %.2f | 12.00 ± %.2f | -20.00%% "
		 "(%+.2f%% to %+.2f%%) | ", (b->mean_ci_hi - b->mean_ci_lo) / 2,
		 (x->mean_ci_hi - x->mean_ci_lo) / 2, want_lo, want_hi);
	assert_in(line_of(out.buf, "| slower |"), want);
	assert_in(line_of(out.buf, "| slower |"), " | worse |");
	assert_in(line_of(out.buf, "| faster |"), " +20.00% (");
	assert_in(line_of(out.buf, "| faster |"), " | better |");
	assert_in(line_of(out.buf, "| same |"), " | no significant change |");

	strbuf_reset(&out);
	report_csv(&c, &out);
	assert_in(out.buf, "readtwice,lat,slower,cand,verdict,regression\n");
	assert_in(out.buf, "readtwice,lat,faster,cand,verdict,improvement\n");
	assert_in(out.buf, "readtwice,lat,same,cand,verdict,no significant change\n");
	assert_in(out.buf, "readtwice,lat,slower,cand,pct_mean,-20");
	assert_in(out.buf, "readtwice,lat,slower,base,mean,10\n");

	strbuf_reset(&out);
	report_json(&c, 5, &out);
	j = parse_json(out.buf);
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.better"), "lower");
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.mean_stat"), "Amean");
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.0.op"), "slower");
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.0.labels.1.verdict"), "regression");
	assert_true(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.0.labels.1.regression")));
	AT(json_object_get_double(jat(j, "workloads.0.tables.0.ops.0.labels.1.percent.mean")), -20, 9);
	AT(json_object_get_double(jat(j, "workloads.0.tables.0.ops.0.labels.1.change_percent_ci95.0")),
	   want_lo, 9);
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.1.labels.1.verdict"), "improvement");
	assert_false(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.1.labels.1.regression")));
	assert_true(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.0.labels.0.baseline")));
	json_object_put(j);
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

/*
 * Missing and undefined data: a zero sample where Hmean is the mean, one
 * sample, an op without samples, a zero baseline. None gets a verdict or
 * fails the gate, and every renderer says why instead of printing numbers.
 */
static void test_missing_data(void **state)
{
	static const double hundred[] = { 100, 101, 99, 100, 102 };
	static const double with_zero[] = { 100, 0, 99, 101, 100 };
	static const double one[] = { 100 };
	static const double zeros[] = { 0, 0, 0 }, small[] = { 1, 2, 3 }, fails[] = { 0, 1, 2 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	const struct cmp_cell *x;
	json_object *j;
	(void)state;
	make_label(&l[0], "base", "{}");
	make_label(&l[1], "cand", "{}");
	add_u(&l[0].wls[0], "tp", "MB/s", BETTER_HIGHER, "zero", hundred, 5);
	add_u(&l[0].wls[0], "tp", "MB/s", BETTER_HIGHER, "one", hundred, 5);
	add_u(&l[0].wls[0], "tp", "MB/s", BETTER_HIGHER, "empty", hundred, 5);
	add_u(&l[1].wls[0], "tp", "MB/s", BETTER_HIGHER, "zero", with_zero, 5);
	add_u(&l[1].wls[0], "tp", "MB/s", BETTER_HIGHER, "one", one, 1);
	add_u(&l[1].wls[0], "tp", "MB/s", BETTER_HIGHER, "empty", NULL, 0);
	add_u(&l[0].wls[0], "errors", "count", BETTER_LOWER, "zeros", zeros, 3);
	add_u(&l[0].wls[0], "errors", "count", BETTER_LOWER, "fails", fails, 3);
	add_u(&l[1].wls[0], "errors", "count", BETTER_LOWER, "zeros", small, 3);
	add_u(&l[1].wls[0], "errors", "count", BETTER_LOWER, "fails", fails, 3);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);

	/* a zero sample: Hmean undefined, no percent, no test, no verdict */
	x = cell_of(&c, 0, "zero", 1);
	assert_true(x->present && x->compared);
	assert_false(x->row_ok[ROW_MEAN]);
	assert_true(x->pct[ROW_MEAN] == 0);
	assert_true(isnan(x->mm.p) && isnan(x->welch.p));
	assert_false(x->mm.significant);
	assert_int_equal(x->verdict, VERDICT_INSUFFICIENT);
	assert_false(cmp_is_regression(x, 0));
	/* the other rows stay defined and compared */
	assert_true(x->row_ok[ROW_MIN]);
	AT(x->pct[ROW_MIN], -100, 9);
	/* one sample: no CI, no verdict */
	x = cell_of(&c, 0, "one", 1);
	assert_false(x->mean_ci_ok);
	assert_false(x->change_ci_ok);
	assert_int_equal(x->verdict, VERDICT_INSUFFICIENT);
	/* no samples at all: absent */
	x = cell_of(&c, 0, "empty", 1);
	assert_false(x->present);
	assert_false(x->compared);
	assert_int_equal(x->verdict, VERDICT_NONE);
	/* a zero baseline mean has no percent change to give a CI of */
	x = cell_of(&c, 1, "zeros", 1);
	assert_int_equal(x->verdict, VERDICT_INSUFFICIENT);
	assert_false(x->change_ci_ok);
	/* lower is better: a zero sample is a fine Amean */
	x = cell_of(&c, 1, "fails", 1);
	assert_true(x->row_ok[ROW_MEAN]);
	assert_true(cell_of(&c, 1, "fails", 0)->row_ok[ROW_MEAN]);
	assert_int_equal(x->verdict, VERDICT_NO_CHANGE);
	/* the gate is mmtests' test on the mean row: 0 errors becoming 2 is a
	 * significant -99% even though the change has no CI; nothing else fails */
	assert_true(cmp_is_regression(cell_of(&c, 1, "zeros", 1), 50));
	assert_int_equal(report_regressions(&c, &(struct gate_opts){ .pct = 0 }, NULL), 1);

	report_csv(&c, &out);
	assert_in(out.buf, "readtwice,tp,zero,cand,hmean,\n");
	assert_in(out.buf, "readtwice,tp,zero,cand,mean,\n");
	assert_in(out.buf, "readtwice,tp,zero,cand,gmean,\n");
	assert_in(out.buf, "readtwice,tp,zero,cand,verdict,insufficient data\n");
	assert_in(out.buf, "readtwice,tp,one,cand,stddev,\n");
	assert_in(out.buf, "readtwice,tp,empty,cand,n,0\n");
	assert_null(strstr(out.buf, "readtwice,tp,empty,cand,min"));

	strbuf_reset(&out);
	report_markdown(&c, &out);
	assert_in(line_of(out.buf, "| zero |"), "| undefined (sample <= 0), n=5 |");
	assert_in(line_of(out.buf, "| zero |"), "| n/a | insufficient data |");
	assert_in(line_of(out.buf, "| one |"), "| 100.00 (n=1) |");
	assert_in(line_of(out.buf, "| one |"), "| n/a | insufficient data |");
	assert_in(line_of(out.buf, "| empty |"), "| empty | 5 / 0 |");
	assert_in(line_of(out.buf, "| empty |"), "| n/a | n/a | n/a | n/a |");

	strbuf_reset(&out);
	report_json(&c, -1, &out);
	j = parse_json(out.buf);
	assert_true(json_object_is_type(jat(j, "workloads.0.tables.0.ops.0.labels.1.hmean"),
					json_type_null));
	assert_true(json_object_is_type(jat(j, "workloads.0.tables.0.ops.0.labels.1.mean"),
					json_type_null));
	assert_true(json_object_is_type(jat(j, "workloads.0.tables.0.ops.0.labels.1.mmtests_ttest.p"),
					json_type_null));
	assert_string_equal(jstr_at(j, "workloads.0.tables.0.ops.0.labels.1.verdict"),
			    "insufficient data");
	assert_false(json_object_get_boolean(jat(j, "workloads.0.tables.0.ops.2.labels.1.present")));
	assert_true(json_object_is_type(jat(j, "fail_on_regression"), json_type_null));
	json_object_put(j);
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

/* The gate wants significance: a worse mean within the noise passes. */
static void test_gate_needs_significance(void **state)
{
	static const double b[] = { 100, 120, 80, 110, 90 }, n[] = { 98, 118, 79, 108, 89 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	const struct cmp_cell *x;
	(void)state;
	make_label(&l[0], "base", "{}");
	make_label(&l[1], "cand", "{}");
	add(&l[0].wls[0], "tp", BETTER_HIGHER, "noisy", b, 5);
	add(&l[1].wls[0], "tp", BETTER_HIGHER, "noisy", n, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	x = cell_of(&c, 0, "noisy", 1);
	assert_true(x->pct[ROW_MEAN] < 0);
	assert_false(x->mm.significant);
	assert_int_equal(x->verdict, VERDICT_NO_CHANGE);
	assert_false(cmp_is_regression(x, 0));
	assert_int_equal(report_regressions(&c, &(struct gate_opts){ .pct = 0 }, NULL), 0);
	comparison_release(&c);
	strbuf_release(&err);
	release_labels(l, 2);
}

/* Names are data: every output format escapes what would break it. */
static void test_escaping(void **state)
{
	static const char *const ops[] = { "a,b", "say \"hi\"", "p|q", "l1\nl2", "x<y>&z",
					   "back\\slash", "esc\x1b" "x", "it's", "=1+2",
					   "@SUM(A1)", "+x", "-y", "\tz", "\rw" };
	static const double x1[] = { 10, 11, 12 }, x2[] = { 20, 21, 22 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_object *j;
	(void)state;
	make_label(&l[0], " lead", "{}");
	make_label(&l[1], "cand", "{}");
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		add(&l[0].wls[0], "t", BETTER_LOWER, ops[i], x1, 3);
		add(&l[1].wls[0], "t", BETTER_LOWER, ops[i], x2, 3);   /* all regressions */
	}
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);

	report_csv(&c, &out);
	assert_in(out.buf, "readtwice,t,\"a,b\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"say \"\"hi\"\"\",cand,n,3\n");
	/* issue 30: names go inert (no raw control byte at all), and a cell a
	 * spreadsheet would run as a formula starts with an apostrophe */
	assert_in(out.buf, "readtwice,t,l1\\x0al2,cand,n,3\n");
	assert_in(out.buf, "readtwice,t,p|q,\" lead\",n,3\n");
	assert_in(out.buf, "readtwice,t,esc\\x1bx,cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'=1+2\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'@SUM(A1)\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'+x\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'-y\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'\\x09z\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"'\\x0dw\",cand,n,3\n");
	assert_in(out.buf, "readtwice,t,\"it's\",cand,n,3\n");
	for (const char *p = out.buf; *p; p++)
		assert_true((unsigned char)*p >= 0x20 || *p == '\n');

	strbuf_reset(&out);
	report_json(&c, 0, &out);
	assert_null(strchr(out.buf, '\x1b'));
	assert_in(out.buf, "\"esc\\u001bx\"");
	assert_in(out.buf, "\"back\\\\slash\"");
	assert_in(out.buf, "\"say \\\"hi\\\"\"");
	j = parse_json(out.buf);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		char path[64];

		snprintf(path, sizeof(path), "workloads.0.tables.0.ops.%zu.op", i);
		assert_string_equal(jstr_at(j, path), ops[i]);
	}
	assert_string_equal(jstr_at(j, "labels.0.label"), " lead");
	json_object_put(j);

	strbuf_reset(&out);
	report_markdown(&c, &out);
	assert_in(out.buf, "\n| p\\|q | 3 / 3 |");
	assert_in(out.buf, "\n| l1 l2 | 3 / 3 |");
	assert_null(strstr(out.buf, "\nl2"));

	/* issue 29: the HTML page shows every name as text: markup escaped
	 * (in text and in attributes), controls as visible escapes */
	strbuf_reset(&out);
	report_html(&c, &out);
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">x&lt;y&gt;&amp;z</th>");
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">say &quot;hi&quot;</th>");
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">it&#39;s</th>");
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">esc\\x1bx</th>");
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">l1\\x0al2</th>");
	assert_in(out.buf, "<th scope=\"row\" class=\"op\">back\\\\slash</th>");
	assert_null(strstr(out.buf, "x<y>"));
	assert_null(strstr(out.buf, "say \"hi\""));
	assert_null(strchr(out.buf, '\x1b'));
	assert_null(strstr(out.buf, "<script"));
	assert_in(out.buf, "Content-Security-Policy\" content=\"default-src 'none';");
	assert_int_equal(count(out.buf, "class=\"op\">"), ARRAY_SIZE(ops));
	assert_int_equal(count(out.buf, "<span class=\"mark\" title="), ARRAY_SIZE(ops));
	/* a figure's data: URI cannot end its attribute or start a reference */
	strbuf_reset(&out);
	html_data_uri(&out, "image/svg+xml", "<svg a=\"1\">&amp; #%\t\n\xc2\xb1</svg>", 29);
	assert_string_equal(out.buf, "data:image/svg+xml,<svg a=%221%22>%26amp; %23%25%09%0A%C2%B1</svg>");

	strbuf_reset(&out);
	report_junit(&c, &(struct gate_opts){ .pct = 0 }, &out);
	assert_in(out.buf, "name=\"readtwice/t/x&lt;y&gt;&amp;z\"");
	assert_in(out.buf, "name=\"readtwice/t/say &quot;hi&quot;\"");
	assert_in(out.buf, "name=\"readtwice/t/it&apos;s\"");
	assert_in(out.buf, "name=\"readtwice/t/esc?x\"");
	assert_in(out.buf, "name=\"readtwice/t/l1\nl2\"");   /* XML keeps a newline */
	assert_null(strstr(out.buf, "x<y>"));
	assert_null(strchr(out.buf, '\x1b'));
	assert_int_equal(count(out.buf, "<failure "), ARRAY_SIZE(ops));
	assert_in(out.buf, "failures=\"14\"");
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

/* No spread at all (an infinite t) and a table one label lacks, in JSON. */
static void test_json_edges(void **state)
{
	static const double five[] = { 5, 5, 5 }, six[] = { 6, 6, 6 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	json_object *j, *without;
	(void)state;
	make_label(&l[0], "a", "{}");
	make_label(&l[1], "b", "{}");
	add(&l[0].wls[0], "t1", BETTER_LOWER, "const", five, 3);
	add(&l[1].wls[0], "t1", BETTER_LOWER, "const", six, 3);
	add(&l[0].wls[0], "t2", BETTER_LOWER, "only-a", five, 3);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	assert_true(isinf(cell_of(&c, 0, "const", 1)->mm.t));
	report_json(&c, -1, &out);
	j = parse_json(out.buf);
	assert_true(json_object_is_type(jat(j, "workloads.0.tables.0.ops.0.labels.1.mmtests_ttest.t"),
					json_type_null));
	assert_true(json_object_get_boolean(
		jat(j, "workloads.0.tables.0.ops.0.labels.1.mmtests_ttest.significant")));
	assert_int_equal(json_object_array_length(jat(j, "workloads.0.tables.0.labels_without_table")), 0);
	without = jat(j, "workloads.0.tables.1.labels_without_table");
	assert_int_equal(json_object_array_length(without), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(without, 0)), "b");
	json_object_put(j);
	comparison_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	release_labels(l, 2);
}

/* One label's table in two of its files: an error, not a silent merge. */
static void test_table_in_two_files(void **state)
{
	static const double x[] = { 1, 2, 3 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	(void)state;
	make_label(&l[0], "a", "{}");
	make_label(&l[1], "b", "{}");
	l[1].wls = realloc(l[1].wls, 2 * sizeof(*l[1].wls));
	memset(&l[1].wls[1], 0, sizeof(l[1].wls[1]));
	l[1].wls[1].workload = strdup("readtwice");
	l[1].nwls = 2;
	add(&l[0].wls[0], "t", BETTER_LOWER, "1", x, 3);
	add(&l[1].wls[0], "t", BETTER_LOWER, "1", x, 3);
	add(&l[1].wls[1], "t", BETTER_LOWER, "2", x, 3);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), -1);
	assert_string_equal(err.buf, "b: table 't' of workload readtwice is in two files");
	strbuf_release(&err);
	release_labels(l, 2);
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

/* The format table: every spelling -f takes, the message's list, csv's warnings */
static void test_format_table(void **state)
{
	struct strbuf names = STRBUF_INIT;
	static const char *const ok[] = { "text", "markdown", "md", "json", "csv", "email", "html" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		assert_non_null(cmp_format_find(ok[i]));
	assert_ptr_equal(cmp_format_find("md"), cmp_format_find("markdown"));
	assert_null(cmp_format_find("xml"));
	assert_null(cmp_format_find("Text"));
	assert_null(cmp_format_find(""));
	cmp_format_names(&names);
	assert_string_equal(strbuf_str(&names), "text, markdown, json, csv, email or html");
	strbuf_release(&names);
	assert_true(cmp_format_find("csv")->warnings_to_stderr);
	assert_false(cmp_format_find("text")->warnings_to_stderr);
	assert_false(cmp_format_find("json")->warnings_to_stderr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_text),
		cmocka_unit_test(test_junit_and_csv),
		cmocka_unit_test(test_better_and_unit_disagree),
		cmocka_unit_test(test_ops_union_and_facts),
		cmocka_unit_test(test_lower_is_better),
		cmocka_unit_test(test_missing_data),
		cmocka_unit_test(test_gate_needs_significance),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_json_edges),
		cmocka_unit_test(test_table_in_two_files),
		cmocka_unit_test(test_split_label),
		cmocka_unit_test(test_fixed2_matches_printf),
		cmocka_unit_test(test_format_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
