// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The differential CPU profile (issue 27): folding `perf script` output
 * (profile/perf_script.c; the text is the format perf 6.1.187 prints here,
 * written by hand so every case is in it), the per-symbol shares and their
 * names across kernels, the folded file's writer and its one reader
 * (core/folded.c, hostile files refused with file and line), the SVG flame
 * graph (compare/flamegraph.c) and the differential ranking in the
 * comparison model (compare/symdiff.c) on in-memory labels.
 */
#include "unit.h"
#include <math.h>
#include <sys/stat.h>
#include "compare/email.h"
#include "compare/flamegraph.h"
#include "compare/model.h"
#include "compare/symdiff.h"
#include "core/folded.h"
#include "profile/perf_script.h"

static const char script[] =
	"readtwice \n"
	"\tffffffff8133c9e3 native_queued_spin_lock_slowpath ([kernel.kallsyms])\n"
	"\tffffffff815fb398 folio_lruvec_lock_irqsave ([kernel.kallsyms])\n"
	"\tffffffff815fb76a pagevec_lru_move_fn.isra.0 ([kernel.kallsyms])\n"
	"\t    7f385c812210 read+0x12 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\n"
	"readtwice \n"
	"\tffffffff8133c9e3 native_queued_spin_lock_slowpath ([kernel.kallsyms])\n"
	"\tffffffff815fb398 folio_lruvec_lock_irqsave ([kernel.kallsyms])\n"
	"\tffffffff815fb76a pagevec_lru_move_fn.isra.0 ([kernel.kallsyms])\n"
	"\t    7f385c812210 read+0x12 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	"\n"
	"swapper \n"
	"\tffffffff81234567 [unknown] ([kernel.kallsyms])\n"
	"\n"
	"a.out \n"
	"\t          6a23b [unknown] (/usr/bin/a.out)\n"
	"\t    55c03d5c3ed8 [unknown] ([unknown])\n"
	"\t          1234 ns::f(int; x) (/usr/bin/a.out)\n"
	"\n"
	"kworker/0:1 \n";

static void test_fold_perf_script(void **state)
{
	struct folded f;
	struct perf_fold_info info;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	assert_int_equal(perf_script_fold(script, strlen(script), &f, &info, &err), 0);
	assert_int_equal(f.total, 5);
	assert_int_equal(info.samples, 5);
	assert_int_equal(f.n, 4);
	/* root first, kernel frames marked, the libc offset dropped */
	assert_true(strmap_get(&f.map, "readtwice;read;pagevec_lru_move_fn.isra.0_[k];"
			       "folio_lruvec_lock_irqsave_[k];native_queued_spin_lock_slowpath_[k]", &i));
	assert_int_equal(f.s[i].count, 2);
	/* an unnamed kernel frame keeps its address; unnamed user frames their dso;
	 * a ';' in a name would split the frame */
	assert_true(strmap_get(&f.map, "swapper;0xffffffff81234567_[k]", &i));
	assert_true(strmap_get(&f.map, "a.out;ns::f(int: x);[unknown];[a.out]", &i));
	/* a sample without frames is its command alone */
	assert_true(strmap_get(&f.map, "kworker/0:1", &i));
	assert_int_equal(info.kernel_frames, 7);
	assert_int_equal(info.kernel_unnamed, 1);
	folded_release(&f);

	/* a frame before any sample line, and a frame line without its dso */
	assert_int_equal(perf_script_fold("\tffff x (y)\n", 12, &f, &info, &err), -1);
	assert_non_null(strstr(err.buf, "line 1"));
	strbuf_reset(&err);
	assert_int_equal(perf_script_fold("a\n\tffffffff81000000 sym\n", 24, &f, &info, &err), -1);
	assert_non_null(strstr(err.buf, "perf script, line 2"));
	strbuf_release(&err);
}

static json_object *sym(json_object *a, const char *name, const char *where)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i);

		if (!strcmp(json_object_get_string(json_object_array_get_idx(o, 0)), name) &&
		    !strcmp(json_object_get_string(json_object_array_get_idx(o, 1)), where))
			return o;
	}
	fail_msg("no symbol %s [%s] in %s", name, where, json_object_to_json_string(a));
	return NULL;
}

static double get(json_object *o, const char *k)
{
	return json_object_get_double(json_object_array_get_idx(o, !strcmp(k, "self") ? 2 : 3));
}

static void test_symbol_shares(void **state)
{
	struct folded f;
	json_object *a, *o, *v;
	char canon[128];

	(void)state;
	/* older LRU lock names become the newer ones (profile/lru_locks.c) */
	assert_string_equal(perf_symbol_canonical("pagevec_lru_move_fn.isra.0", canon, sizeof(canon)),
			    "folio_batch_move_lru");
	assert_string_equal(perf_symbol_canonical("lock_page_lruvec_irqsave", canon, sizeof(canon)),
			    "folio_lruvec_lock_irqsave");
	assert_string_equal(perf_symbol_canonical("isolate_lru_pages", canon, sizeof(canon)),
			    "isolate_lru_folios");
	assert_string_equal(perf_symbol_canonical("copy_page_to_iter", canon, sizeof(canon)),
			    "copy_page_to_iter");

	folded_init(&f);
	folded_add(&f, "t;main;f;g_[k]", 6);
	folded_add(&f, "t;main;f;f", 2);         /* recursion: f counted once per stack */
	folded_add(&f, "t;main;pagevec_lru_move_fn_[k]", 1);
	folded_add(&f, "t;main;folio_batch_move_lru_[k]", 1);
	a = perf_symbol_shares_json(&f, 0.01, 100);
	o = sym(a, "g", "k");
	assert_true(fabs(get(o, "self") - 60) < 1e-9);
	assert_true(fabs(get(o, "children") - 60) < 1e-9);
	o = sym(a, "f", ".");
	assert_true(fabs(get(o, "self") - 20) < 1e-9);
	assert_true(fabs(get(o, "children") - 80) < 1e-9);
	assert_true(fabs(get(sym(a, "main", "."), "children") - 100) < 1e-9);
	/* the old and the new name are one symbol; "raw" says what perf printed */
	o = sym(a, "folio_batch_move_lru", "k");
	assert_true(fabs(get(o, "self") - 20) < 1e-9);
	/* sorted by self share */
	o = json_object_array_get_idx(a, 0);
	v = json_object_array_get_idx(o, 0);
	assert_string_equal(json_object_get_string(v), "g");
	/* the name perf printed, beside the one both kernels share */
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
		sym(a, "folio_batch_move_lru", "k"), 4)), "pagevec_lru_move_fn");
	json_object_put(a);
	/* the bound: at most max symbols */
	a = perf_symbol_shares_json(&f, 0.01, 2);
	assert_int_equal(json_object_array_length(a), 2);
	json_object_put(a);
	folded_release(&f);
}

static void test_folded_write_read_cap(void **state)
{
	struct folded f, g;
	struct strbuf err = STRBUF_INIT;
	char *path = xasprintf("%s/x.folded", unit_tmp);
	struct stat st;
	size_t kept;

	(void)state;
	folded_init(&f);
	for (int i = 0; i < 2000; i++) {
		char s[128];

		snprintf(s, sizeof(s), "cmd;root_function_with_a_long_name;leaf_%04d_[k]", i);
		folded_add(&f, s, (uint64_t)(1 + i % 50));
	}
	folded_add(&f, "cmd;tiny", 1);
	folded_sort(&f);
	/* 4 KiB: the largest stacks first, the rest counted as left out */
	assert_int_equal(folded_write(&f, path, 4096, &kept, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 4096);
	assert_true(kept > 10 && kept < 2001);
	assert_int_equal(folded_read(path, &g, &err), 0);
	assert_int_equal(g.total, f.total);
	assert_int_equal(g.n, kept);
	assert_true(g.left_out > 0);
	assert_int_equal(g.s[0].count, 50);
	folded_release(&g);
	/* 1 MiB holds them all but those under the minimum share (0.01%) */
	assert_int_equal(folded_write(&f, path, FOLDED_FILE_MAX, &kept, &err), 0);
	{
		size_t want = 0;
		uint64_t left = 0;

		for (size_t i = 0; i < f.n; i++) {
			if ((double)f.s[i].count >= FOLDED_MIN_SHARE * (double)f.total)
				want++;
			else
				left += f.s[i].count;
		}
		assert_int_equal(kept, want);
		assert_int_equal(folded_read(path, &g, &err), 0);
		assert_int_equal(g.n, want);
		assert_int_equal(g.left_out, left);
		assert_int_equal(g.total, f.total);
	}
	folded_release(&g);
	folded_release(&f);
	free(path);
	strbuf_release(&err);
}

static void refused(const char *text, const char *want)
{
	char *path = unit_put("hostile.folded", text);
	struct folded f;
	struct strbuf err = STRBUF_INIT;

	if (folded_read(path, &f, &err) != -1)
		fail_msg("accepted %s", text);
	if (!strstr(err.buf, path) || !strstr(err.buf, want))
		fail_msg("'%s' does not name the file and '%s'", err.buf, want);
	assert_int_equal(f.n, 0);
	strbuf_release(&err);
	free(path);
}

static void test_folded_hostile(void **state)
{
	(void)state;
	refused("a;b 1\nno count here\n", "line 2: expected");
	refused("a;b 0\n", "line 1: the count");
	refused("a;b 99999999999999999999\n", "line 1: the count");
	refused("a;b 1x\n", "line 1: the count");
	refused("a;;b 3\n", "line 1: an empty frame");
	refused(";b 3\n", "line 1: an empty frame");
	refused("a;b\x1b[31m 3\n", "line 1: a control character");
	refused("a;b 1\na;c 2", "line 2: truncated");
	refused("# lrubench folded stacks 1: samples 10, stacks 2, left out 0 in 0\na 1\nb 2\n",
		"truncated or altered");
	refused("# lrubench folded stacks 1: samples x\na 1\n", "line 1: a header");
	{
		/* a line longer than the reader takes */
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < FOLDED_LINE_MAX / 8 + 2; i++)
			strbuf_addstr(&sb, "abcdefg;");
		strbuf_addstr(&sb, "z 1\n");
		refused(sb.buf, "line 1: longer than");
		strbuf_release(&sb);
	}
	{
		/* larger than 1 MiB: refused unread */
		char *path = xasprintf("%s/big.folded", unit_tmp);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		struct folded f;
		struct strbuf err = STRBUF_INIT;

		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, (off_t)FOLDED_FILE_MAX + 1), 0);
		close(fd);
		assert_int_equal(folded_read(path, &f, &err), -1);
		assert_non_null(strstr(err.buf, "larger than"));
		free(path);
		strbuf_release(&err);
	}
}

static void test_svg(void **state)
{
	struct folded a, b;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	folded_init(&a);
	folded_init(&b);
	folded_add(&b, "cmd;main;<script>&\"x\"_[k]", 70);
	folded_add(&b, "cmd;main;other", 30);
	folded_add(&a, "cmd;main;<script>&\"x\"_[k]", 10);
	folded_add(&a, "cmd;main;other", 90);
	flamegraph_svg(&b, NULL, "t <&>", "s", &out);
	assert_true(!strncmp(out.buf, "<?xml", 5));
	assert_true(out.len > 7 && !strcmp(out.buf + out.len - 7, "</svg>\n"));
	/* names from stacks are escaped: no markup of theirs gets in */
	assert_null(strstr(out.buf, "<script"));
	assert_non_null(strstr(out.buf, "&lt;script&gt;&amp;"));
	assert_non_null(strstr(out.buf, "t &lt;&amp;&gt;"));
	/* one box per frame: cmd, main, the two leaves; no script, no link */
	assert_int_equal(count(out.buf, "<rect x="), 4);
	assert_null(strstr(out.buf, "href"));
	assert_non_null(strstr(out.buf, "(70 samples, 70.00%"));
	strbuf_reset(&out);
	/* differential: the grown leaf is red, the shrunk one blue */
	flamegraph_svg(&b, &a, "d", "s", &out);
	assert_non_null(strstr(out.buf, "change +60.00 points)</title><rect"));
	assert_non_null(strstr(out.buf, "fill=\"rgb(255,45,45)\""));
	assert_non_null(strstr(out.buf, "fill=\"rgb(45,45,255)\""));
	strbuf_release(&out);
	folded_release(&a);
	folded_release(&b);
}

/* ---- the differential table in the model ---- */

static void make_label(struct label_result *l, const char *label)
{
	memset(l, 0, sizeof(*l));
	l->label = xstrdup(label);
	l->dir = xstrdup(label);
	l->run = json_tokener_parse("{\"system\": {\"nr_cpus\": 2}}");
	l->wls = xcalloc(1, sizeof(*l->wls));
	l->nwls = 1;
	l->wls[0].workload = xstrdup("readtwice");
	l->wls[0].details = json_object_new_array();
}

/* a profile pass of op with "name:where:self:children,..." */
static void add_pass(struct label_result *l, const char *op, const char *syms)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	char **v = split_commas(syms, &n);

	strbuf_addf(&sb, "{\"step\": \"%s\", \"profile\": {\"kind\": \"cpu\", \"status\": \"ok\", "
		    "\"cpu_symbols\": [", op);
	for (size_t i = 0; i < n; i++) {
		char name[64], where[4];
		double self, ch;

		assert_int_equal(sscanf(v[i], "%63[^:]:%3[^:]:%lf:%lf", name, where, &self, &ch), 4);
		strbuf_addf(&sb, "%s[\"%s\", \"%s\", %g, %g]",
			    i ? ", " : "", name, where, self, ch);
	}
	strbuf_addstr(&sb, "]}}");
	json_object_array_add(l->wls[0].details, json_tokener_parse(sb.buf));
	free_strv(v);
	strbuf_release(&sb);
}

static void add(struct label_result *l, const char *op, const double *x, size_t n)
{
	struct result_table *t = wl_result_table(&l->wls[0], "readtwice MB/s aggregate", "MB/s",
						 BETTER_HIGHER);

	for (size_t i = 0; i < n; i++)
		result_table_add(t, op, x[i]);
}

static void test_symdiff_ranking(void **state)
{
	static const double fast[] = { 1000, 1010, 990, 1005 }, slow[] = { 700, 710, 690, 705 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	const struct cmp_symdiff *d;
	json_object *j;

	(void)state;
	make_label(&l[0], "6.18-base");
	make_label(&l[1], "6.18-patched");
	add(&l[0], "memcgs-4", fast, 4);
	add(&l[1], "memcgs-4", slow, 4);
	add(&l[0], "memcgs-1", fast, 4);
	add(&l[1], "memcgs-1", fast, 4);
	/* two passes in the baseline: their mean */
	add_pass(&l[0], "memcgs-4", "copy_page_to_iter:k:30:30,native_queued_spin_lock_slowpath:k:2:2,"
		 "read:.:1:40");
	add_pass(&l[0], "memcgs-4", "copy_page_to_iter:k:34:34,native_queued_spin_lock_slowpath:k:4:4,"
		 "read:.:1:40");
	add_pass(&l[1], "memcgs-4", "copy_page_to_iter:k:20:20,native_queued_spin_lock_slowpath:k:25:25,"
		 "folio_batch_move_lru:k:5:30,read:.:1:45");
	add_pass(&l[0], "memcgs-1", "copy_page_to_iter:k:40:40");
	add_pass(&l[1], "memcgs-1", "copy_page_to_iter:k:41:41");
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	assert_int_equal(c.nsymdiffs, 2);
	d = &c.symdiffs[0];
	assert_string_equal(d->op, "memcgs-4");
	assert_true(d->significant);
	assert_false(c.symdiffs[1].significant);
	assert_int_equal(d->passes[0], 2);
	assert_int_equal(d->nsymbols, 4);
	/* largest change of the self share first: +22, -12, +5 (only in B), 0 */
	assert_string_equal(d->rows[0].symbol, "native_queued_spin_lock_slowpath");
	assert_true(fabs(d->rows[0].self[0] - 3) < 1e-9 && fabs(d->rows[0].self[1] - 25) < 1e-9);
	assert_string_equal(d->rows[1].symbol, "copy_page_to_iter");
	assert_string_equal(d->rows[2].symbol, "folio_batch_move_lru");
	assert_true(d->rows[2].self[0] == 0 && fabs(d->rows[2].children[1] - 30) < 1e-9);
	assert_string_equal(d->rows[3].symbol, "read");
	assert_int_equal(d->rows[3].where, '.');

	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "readtwice memcgs-4: CPU profile of 6.18-patched (B) against "
				       "6.18-base (A)"));
	assert_non_null(strstr(out.buf, "[k] native_queued_spin_lock_slowpath"));
	assert_non_null(strstr(out.buf, "  3.00   25.00  +22.00"));
	/* under the explaining heading, after the tables */
	assert_true(strstr(out.buf, "CPU profile of") > strstr(out.buf, CMP_EXPLAINING_HEADING) ||
		    !strstr(out.buf, CMP_EXPLAINING_HEADING));
	strbuf_reset(&out);

	/* top N */
	cmp_symdiff_build(&c, 2);
	assert_int_equal(c.symdiffs[0].n, 2);
	assert_int_equal(c.symdiffs[0].nsymbols, 4);
	report_json(&c, -1, &out);
	j = json_tokener_parse(out.buf);
	assert_non_null(j);
	{
		json_object *w = json_object_array_get_idx(json_object_object_get(j, "workloads"), 0);
		json_object *cd = json_object_object_get(w, "cpu_profile_diff");
		json_object *top = json_object_object_get(json_object_array_get_idx(cd, 0), "top");

		assert_int_equal(json_object_array_length(cd), 2);
		assert_int_equal(json_object_array_length(top), 2);
		assert_true(fabs(json_object_get_double(json_object_object_get(
			json_object_array_get_idx(top, 0), "self_change")) - 22) < 1e-9);
	}
	json_object_put(j);
	strbuf_reset(&out);

	/* email: only the op that changed significantly, in 72 columns of ASCII */
	report_email(&c, &out);
	assert_int_equal(count(out.buf, "CPU profile of"), 1);
	assert_non_null(strstr(out.buf, "memcgs-4: CPU profile"));
	for (const char *p = out.buf; *p; ) {
		const char *nl = strchr(p, '\n');

		assert_true((size_t)(nl - p) <= EMAIL_WIDTH);
		p = nl + 1;
	}
	/* none at all */
	cmp_symdiff_build(&c, 0);
	assert_int_equal(c.nsymdiffs, 0);
	comparison_release(&c);
	for (int i = 0; i < 2; i++)
		label_result_release(&l[i]);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* The same table in markdown (an indented code block: inert, nothing to
 * close) and html (a <pre>, its text escaped), under each format's
 * explaining heading; a user symbol with markup characters in its name
 * (C++ templates) stays text in both. */
static void test_symdiff_markdown_html(void **state)
{
	static const double fast[] = { 1000, 1010, 990, 1005 }, slow[] = { 700, 710, 690, 705 };
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	const char *head, *p, *pre, *end;

	(void)state;
	make_label(&l[0], "6.18-base");
	make_label(&l[1], "6.18-patched");
	add(&l[0], "memcgs-4", fast, 4);
	add(&l[1], "memcgs-4", slow, 4);
	add_pass(&l[0], "memcgs-4", "copy_page_to_iter:k:30:30,native_queued_spin_lock_slowpath:k:2:2,"
		 "vec<int>&push:.:1:40");
	add_pass(&l[1], "memcgs-4", "copy_page_to_iter:k:20:20,native_queued_spin_lock_slowpath:k:25:25,"
		 "vec<int>&push:.:9:45");
	/* a profiled run has explaining tables (the CPU split at least): the heading */
	for (int i = 0; i < 2; i++)
		result_table_add(wl_result_explaining_table(&l[i].wls[0], "readtwice spinlock CPU %",
							    "%", BETTER_LOWER), "memcgs-4", i ? 25 : 2);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	assert_int_equal(c.nsymdiffs, 1);

	report_markdown(&c, &out);
	head = strstr(out.buf, "    readtwice memcgs-4: CPU profile of 6.18-patched (B) against 6.18-base (A)");
	assert_non_null(head);
	/* after the explaining heading, the block's first line after a blank one */
	assert_non_null(strstr(out.buf, CMP_EXPLAINING_HEADING));
	assert_true(head > strstr(out.buf, CMP_EXPLAINING_HEADING));
	assert_true(head[-1] == '\n' && head[-2] == '\n');
	assert_non_null(strstr(out.buf, "    [k] native_queued_spin_lock_slowpath"));
	assert_non_null(strstr(out.buf, "  2.00   25.00  +23.00"));
	assert_non_null(strstr(out.buf, "[.] vec<int>&push"));
	/* every line of the block is indented: none can end it or become a table row */
	for (p = head; *p && *p != '\n'; ) {
		const char *nl = strchr(p, '\n');

		assert_memory_equal(p, "    ", 4);
		p = nl + 1;
		if (*p == '\n')
			break;
	}
	strbuf_reset(&out);

	report_html(&c, &out);
	pre = strstr(out.buf, "<pre class=\"symdiff\">");
	assert_non_null(pre);
	end = strstr(pre, "</pre>");
	assert_non_null(end);
	assert_true(pre > strstr(out.buf, CMP_EXPLAINING_HEADING));
	head = strstr(pre, "readtwice memcgs-4: CPU profile of 6.18-patched (B) against 6.18-base (A)");
	assert_true(head && head < end);
	p = strstr(pre, "[k] native_queued_spin_lock_slowpath");
	assert_true(p && p < end);
	p = strstr(pre, "[.] vec&lt;int&gt;&amp;push");
	assert_true(p && p < end);
	assert_null(strstr(out.buf, "vec<int>"));
	/* one table, one <pre> */
	assert_int_equal(count(out.buf, "<pre class=\"symdiff\">"), 1);
	comparison_release(&c);
	for (int i = 0; i < 2; i++)
		label_result_release(&l[i]);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_perf_script),
		cmocka_unit_test(test_symbol_shares),
		cmocka_unit_test(test_folded_write_read_cap),
		cmocka_unit_test(test_folded_hostile),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_symdiff_ranking),
		cmocka_unit_test(test_symdiff_markdown_html),
	};

	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
