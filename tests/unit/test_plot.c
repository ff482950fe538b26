// SPDX-License-Identifier: GPL-2.0-or-later
/* plot.c: sweep detection, x axes from the results, file-name slugs, and the figures a table gives. */
#include "unit.h"
#include <unistd.h>
#include "compare/plot.h"
#include "compare/model.h"
#include "core/results.h"

static void test_sweep_doubles(void **state)
{
	static const unsigned long long dbl[] = { 1, 2, 4, 8, 16 };
	static const unsigned long long quad[] = { 1, 4, 16 };
	static const unsigned long long lin[] = { 1, 2, 3, 4 };
	static const unsigned long long zero[] = { 0, 1, 2 };
	static const unsigned long long two[] = { 2, 4 };

	(void)state;
	assert_true(plot_sweep_doubles(dbl, 5));
	assert_true(plot_sweep_doubles(quad, 3));
	assert_true(plot_sweep_doubles(two, 2));
	assert_false(plot_sweep_doubles(lin, 4));
	assert_false(plot_sweep_doubles(zero, 3));
	assert_false(plot_sweep_doubles(dbl, 1));
}

static void test_slug(void **state)
{
	static const char *cases[][2] = {
		{ "MB/s aggregate", "mb-s-aggregate" },
		{ "Fault Latencies", "fault-latencies" },
		{ "  ../etc/passwd ", "etc-passwd" },
		{ "a__b.c", "a__b.c" },
		{ "µs", "s" },
		{ "///", "x" },
		{ "..", "x" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = plot_slug(cases[i][0]);

		assert_string_equal(s, cases[i][1]);
		free(s);
	}
}

static void test_format(void **state)
{
	enum plot_format f;

	(void)state;
	assert_int_equal(plot_parse_format("png", &f), 0);
	assert_int_equal(f, PLOT_PNG);
	assert_int_equal(plot_parse_format("svg", &f), 0);
	assert_int_equal(f, PLOT_SVG);
	assert_string_equal(plot_format_ext(f), "svg");
	assert_int_equal(plot_parse_format("bogus", &f), -1);
	assert_int_equal(plot_parse_format("PNG", &f), -1);
}

static bool has_fig(const struct plot_set *s, const char *base)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->figs[i].base, base))
			return true;
	return false;
}

/* The file outdir/name holds exactly want. */
static void expect_file(const char *outdir, const char *name, const char *want)
{
	char *path = xasprintf("%s/%s", outdir, name), *text = read_file_str(path, NULL);

	if (!text)
		fail_msg("cannot read %s", path);
	assert_string_equal(text, want);
	free(text);
	free(path);
}

/* One label, built in memory: which figures does each kind of table give? */
static void test_figures_per_table(void **state)
{
	char dir[] = "/tmp/lrubench-unit-plot.XXXXXX";
	struct label_result l = { 0 };
	struct wl_result w = { 0 };
	struct result_table *t;
	struct plot_set set;
	struct comparison cmp;
	struct strbuf err = STRBUF_INIT;
	char *path;

	(void)state;
	assert_non_null(mkdtemp(dir));
	w.workload = strdup("kb");
	/* one sweep and a leftover op: scaling-elsp + bars + candles */
	t = wl_result_table(&w, "kb Elapsed", "s", BETTER_LOWER);
	result_table_add(t, "elsp-1", 10);
	result_table_add(t, "elsp-1", 12);
	result_table_add(t, "elsp-2", 6);
	result_table_add(t, "elsp-4", 4);
	result_table_add(t, "elsp-4", 4);
	result_table_add(t, "elsp-4", 5);
	result_table_add(t, "warmup", 30);
	/* a lone count is no sweep: bars + candles */
	t = wl_result_table(&w, "kb Single", "s", BETTER_LOWER);
	result_table_add(t, "elsp-8", 3);
	/* same slug as "kb Single": the second gets a number, no overwrite */
	t = wl_result_table(&w, "kb single!", "s", BETTER_LOWER);
	result_table_add(t, "a", 1);
	l.label = strdup("L");
	l.dir = strdup(dir);
	l.wls = &w;
	l.nwls = 1;

	assert_int_equal(comparison_build(&l, 1, 0.10, &cmp, &err), 0);
	assert_int_equal(plot_write_figures(&cmp, dir, PLOT_PNG, &set), 0);
	assert_true(has_fig(&set, "kb-elapsed-scaling-elsp"));
	assert_true(has_fig(&set, "kb-elapsed-bars"));
	assert_true(has_fig(&set, "kb-elapsed-candles"));
	assert_true(has_fig(&set, "kb-single-bars"));
	assert_true(has_fig(&set, "kb-single-candles"));
	assert_true(has_fig(&set, "kb-single-2-bars"));
	assert_true(has_fig(&set, "kb-single-2-candles"));
	assert_int_equal(set.n, 7);
	/* the scaling data: x is N, the mean row is compare's Amean (lower is
	 * better) with the sample stddev, min, max and the sample count */
	expect_file(dir, "kb-elapsed-scaling-elsp.dat",
		    "# lrubench plot data: kb / kb Elapsed (s, lower is better)\n"
		    "# mean = Amean, stddev = sample stddev (0 when n = 1), as in 'lrubench compare'\n"
		    "# columns: 1 op, 2 x (N), 3 mean, 4 stddev, 5 min, 6 max, 7 samples\n"
		    "# one block per label (gnuplot index 0, 1, ...)\n"
		    "\n# label: L\n"
		    "\"elsp-1\" 1 11.000000 1.414214 10.000000 12.000000 2\n"
		    "\"elsp-2\" 2 6.000000 0.000000 6.000000 6.000000 1\n"
		    "\"elsp-4\" 4 4.333333 0.577350 4.000000 5.000000 3\n");
	/* the bars: the op that is not part of the sweep, x its position */
	expect_file(dir, "kb-elapsed-bars.dat",
		    "# lrubench plot data: kb / kb Elapsed (s, lower is better)\n"
		    "# mean = Amean, stddev = sample stddev (0 when n = 1), as in 'lrubench compare'\n"
		    "# columns: 1 op, 2 x (op position), 3 mean, 4 stddev, 5 min, 6 max, 7 samples\n"
		    "# one block per label (gnuplot index 0, 1, ...)\n"
		    "\n# label: L\n"
		    "\"warmup\" 0 30.000000 0.000000 30.000000 30.000000 1\n");
	assert_int_equal(plot_write_index(&cmp, &set, "the compare table", dir), 0);
	path = xasprintf("%s/index.md", dir);
	{
		char *md = read_file_str(path, NULL), *want;

		assert_non_null(md);
		assert_true(!strncmp(md, "# lrubench plots\n\nLabels, baseline first:\n\n", 42));
		want = xasprintf("\n- `L`, from `%s`\n", dir);
		assert_non_null(strstr(md, want));
		free(want);
		assert_non_null(strstr(md, "\n## Comparison\n\n```\nthe compare table\n```\n"));
		/* per workload, per table, each figure with its script and data */
		assert_non_null(strstr(md, "\n## kb\n\n### kb Elapsed\n\n"
				       "![kb Elapsed over elsp-N](kb-elapsed-scaling-elsp.png)\n\n"
				       "[kb-elapsed-scaling-elsp.gp](kb-elapsed-scaling-elsp.gp) · "
				       "[kb-elapsed-scaling-elsp.dat](kb-elapsed-scaling-elsp.dat)\n"
				       "\n![kb Elapsed per op](kb-elapsed-bars.png)\n"));
		assert_non_null(strstr(md, "\n### kb single!\n\n![kb single! per op](kb-single-2-bars.png)"));
		/* every figure once, in the set's order */
		for (size_t i = 0, at = 0; i < set.n; i++) {
			char *img = xasprintf("](%s.png)", set.figs[i].base);
			const char *p = strstr(md, img);

			assert_non_null(p);
			assert_true((size_t)(p - md) > at);
			at = (size_t)(p - md);
			assert_null(strstr(p + 1, img));
			free(img);
		}
		free(md);
	}
	free(path);
	plot_set_release(&set);
	comparison_release(&cmp);
	strbuf_release(&err);
	assert_int_equal(remove_tree(dir), 0);
	wl_result_release(&w);
	free(l.label);
	free(l.dir);
}

/* The x axis comes from the results, whatever the workload is called:
 * declared, declared categorical (null), and not declared (older files). */
static void test_axis_from_results(void **state)
{
	char dir[] = "/tmp/lrubench-unit-plot.XXXXXX";
	struct label_result l = { 0 };
	struct wl_result w = { 0 };
	struct result_table *t;
	struct plot_set set;
	struct comparison cmp;
	struct strbuf err = STRBUF_INIT;
	char *path, *gp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	w.workload = strdup("nobody-knows-me");
	t = wl_result_table(&w, "Declared", "ops/s", BETTER_HIGHER);
	result_table_set_x_axis(t, "widgets", "each");
	result_table_add(t, "w-1", 10);
	result_table_add(t, "w-2", 20);
	t = wl_result_table(&w, "Categories", "s", BETTER_LOWER);
	result_table_set_x_axis(t, NULL, NULL);
	result_table_add(t, "pass-1", 3);
	result_table_add(t, "pass-2", 4);
	t = wl_result_table(&w, "Old", "s", BETTER_LOWER);
	result_table_add(t, "memcgs-1", 3);
	result_table_add(t, "memcgs-2", 4);
	l.label = strdup("L");
	l.dir = strdup(dir);
	l.wls = &w;
	l.nwls = 1;

	assert_int_equal(comparison_build(&l, 1, 0.10, &cmp, &err), 0);
	assert_int_equal(plot_write_figures(&cmp, dir, PLOT_PNG, &set), 0);
	assert_true(has_fig(&set, "nobody-knows-me-declared-scaling"));
	assert_true(has_fig(&set, "nobody-knows-me-categories-bars"));
	assert_false(has_fig(&set, "nobody-knows-me-categories-scaling"));
	assert_true(has_fig(&set, "nobody-knows-me-old-scaling"));
	path = xasprintf("%s/nobody-knows-me-declared-scaling.gp", dir);
	gp = read_file_str(path, NULL);
	assert_non_null(strstr(gp, "set xlabel 'widgets (each)'\n"));
	free(gp);
	free(path);
	path = xasprintf("%s/nobody-knows-me-old-scaling.gp", dir);
	gp = read_file_str(path, NULL);
	assert_non_null(strstr(gp, "set xlabel 'memcgs (N)'\n"));
	free(gp);
	free(path);
	plot_set_release(&set);
	comparison_release(&cmp);
	strbuf_release(&err);
	assert_int_equal(remove_tree(dir), 0);
	wl_result_release(&w);
	free(l.label);
	free(l.dir);
}

static void add_fig(struct plot_set *set, const char *base, const char *kind, const char *op)
{
	struct plot_figure *f;

	ALLOC_GROW(set->figs, set->n + 1, set->cap);
	f = &set->figs[set->n++];
	memset(f, 0, sizeof(*f));
	f->base = xstrdup(base);
	f->workload = xstrdup("readtwice");
	f->table = xstrdup("readtwice levels over time");
	f->kind = xstrdup(kind);
	f->caption = xstrdup(base);
	f->op = op ? xstrdup(op) : NULL;
}

/* report's level figures: those of the level tables that changed significantly, the op whose
 * throughput changed first, then the largest change; each figure once; at most max */
static void test_level_figures_changed(void **state)
{
	static const double same[] = { 100, 101, 99, 100 }, up50[] = { 150, 151, 149, 150 },
			    up90[] = { 190, 191, 189, 190 }, down[] = { 800, 810, 790, 805 },
			    mbs[] = { 1000, 1010, 990, 1003 };
	struct label_result l[2];
	struct comparison c;
	struct plot_set set = { 0 };
	const struct plot_figure *out[2];
	struct strbuf err = STRBUF_INIT;

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct wl_result *w;

		memset(&l[i], 0, sizeof(l[i]));
		l[i].label = xstrdup(i ? "new" : "base");
		l[i].run = json_tokener_parse("{}");
		l[i].wls = xcalloc(1, sizeof(*l[i].wls));
		l[i].nwls = 1;
		w = &l[i].wls[0];
		w->workload = xstrdup("readtwice");
		for (size_t k = 0; k < 4; k++) {
			struct result_table *t = wl_result_table(w, "readtwice MB/s aggregate", "MB/s",
								 BETTER_HIGHER);

			/* memcgs-1's throughput changed, memcgs-2's did not */
			result_table_add(t, "memcgs-1", i ? down[k] : mbs[k]);
			result_table_add(t, "memcgs-2", mbs[k]);
			t = wl_result_explaining_table(w, "readtwice active file MB (peak)", "MB", BETTER_LOWER);
			result_table_add(t, "memcgs-1", i ? up50[k] : same[k]);
			result_table_add(t, "memcgs-2", i ? up50[k] : same[k]);
			t = wl_result_explaining_table(w, "readtwice active file MB (end)", "MB", BETTER_LOWER);
			result_table_add(t, "memcgs-1", i ? up50[k] : same[k]);
			t = wl_result_explaining_table(w, "readtwice Cached MB (peak)", "MB", BETTER_LOWER);
			result_table_add(t, "memcgs-1", same[k]);
			result_table_add(t, "memcgs-2", i ? up90[k] : same[k]);
			t = wl_result_explaining_table(w, "readtwice AnonHugePages MB (peak)", "MB", BETTER_LOWER);
			result_table_add(t, "memcgs-1", same[k]);
		}
	}
	add_fig(&set, "bars", "bars", NULL);
	add_fig(&set, "thp-1", "levels-thp", "memcgs-1");
	add_fig(&set, "cache-1", "levels-free-cache", "memcgs-1");
	add_fig(&set, "cache-2", "levels-free-cache", "memcgs-2");
	add_fig(&set, "file-2", "levels-file-lru", "memcgs-2");
	add_fig(&set, "file-1", "levels-file-lru", "memcgs-1");
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	/* file-lru of memcgs-1 (its peak and end changed: one figure), of memcgs-2, and
	 * free-cache of memcgs-2; not thp or memcgs-1's free-cache: nothing changed there */
	assert_int_equal(plot_level_figures_changed(&c, &set, out, 2), 3);
	assert_string_equal(out[0]->base, "file-1");    /* its throughput changed too */
	assert_string_equal(out[1]->base, "cache-2");   /* +90% before file-2's +50% */
	assert_int_equal(plot_level_figures_changed(&c, &set, out, 1), 3);
	assert_string_equal(out[0]->base, "file-1");
	comparison_release(&c);
	/* one label: nothing compared, no figure */
	assert_int_equal(comparison_build(l, 1, 0.10, &c, &err), 0);
	assert_int_equal(plot_level_figures_changed(&c, &set, out, 2), 0);
	comparison_release(&c);
	plot_set_release(&set);
	for (int i = 0; i < 2; i++)
		label_result_release(&l[i]);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_axis_from_results),
		cmocka_unit_test(test_sweep_doubles),
		cmocka_unit_test(test_slug),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_figures_per_table),
		cmocka_unit_test(test_level_figures_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
