// SPDX-License-Identifier: GPL-2.0-or-later
/* The results schema: round trip, and errors that name file and place;
 * label folders and the labels of a command line (labels.c). */
#include "unit.h"
#include <sys/resource.h>
#include <sys/wait.h>
#include "core/results.h"
#include "compare/labels.h"

/* A results file with one table "t" (lower is better) of the given ops text */
#define ONE_TABLE(ops) "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", " \
	"\"unit\": \"u\", \"better\": \"lower\", \"ops\": [" ops "]}]}"

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
		/* json-c reads NaN and Infinity; a sample must be a finite number */
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": [1, NaN]}"),
		  "tables[0].ops[0].samples[1]: not a finite number" },
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": [Infinity]}"),
		  "tables[0].ops[0].samples[0]: not a finite number" },
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": [2, -Infinity]}"),
		  "tables[0].ops[0].samples[1]: not a finite number" },
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": [1e999]}"),
		  "tables[0].ops[0].samples[0]: not a finite number" },
		/* a table or an op twice is an error, not a merge */
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": ["
		  "{\"title\": \"t\", \"unit\": \"u\", \"better\": \"lower\", \"ops\": []},"
		  "{\"title\": \"t\", \"unit\": \"u\", \"better\": \"lower\", \"ops\": []}]}",
		  "tables[1]: table \"t\" appears twice" },
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": [1]}, {\"op\": \"2\", \"samples\": [1]},"
			    "{\"op\": \"1\", \"samples\": [2]}"),
		  "tables[0].ops[2]: op \"1\" appears twice in \"t\"" },
		{ "{\"schema\": 0, \"workload\": \"x\", \"tables\": []}", "schema version 0 is not known" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": []} {}",
		  "invalid JSON at line 1, byte 45: unexpected data after the JSON value" },
		{ ONE_TABLE("{\"op\": \"1\", \"samples\": {}}"),
		  "tables[0].ops[0].\"samples\" has the wrong type" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"lower\", \"x_axis\": \"threads\", \"ops\": []}]}",
		  "tables[0].x_axis is neither an object nor null" },
		{ "{\"schema\": 1, \"workload\": \"x\", \"tables\": [{\"title\": \"t\", \"unit\": \"u\", "
		  "\"better\": \"lower\", \"x_axis\": {\"name\": \"n\"}, \"ops\": []}]}",
		  "tables[0].x_axis.\"unit\" is missing" },
		{ NULL, NULL },
	};
	(void)state;
	for (size_t i = 0; cases[i].want; i++) {
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

/* What the loader accepts beyond its own output: integer samples (files
 * written by hand), an op name in two tables, white space after the value. */
static void accepted(void **state)
{
	struct wl_result r;
	struct strbuf e = STRBUF_INIT;
	char *p = unit_put("ok.json", "{\"schema\": 1, \"workload\": \"x\", \"tables\": ["
			   "{\"title\": \"a\", \"unit\": \"u\", \"better\": \"higher\", \"ops\": ["
			   "{\"op\": \"1\", \"samples\": [1000, 2.5]}]},"
			   "{\"title\": \"b\", \"unit\": \"u\", \"better\": \"lower\", \"ops\": ["
			   "{\"op\": \"1\", \"samples\": [-3]}, {\"op\": \"2\", \"samples\": []}]}]}\n\n");
	(void)state;
	if (wl_result_load(p, &r, &e))
		fail_msg("%s", strbuf_str(&e));
	assert_int_equal(r.ntables, 2);
	assert_int_equal(r.tables[0].better, BETTER_HIGHER);
	assert_int_equal(r.tables[1].better, BETTER_LOWER);
	assert_int_equal(r.tables[0].ops[0].n, 2);
	assert_true(r.tables[0].ops[0].v[0] == 1000 && r.tables[0].ops[0].v[1] == 2.5);
	assert_int_equal(r.tables[1].nops, 2);
	assert_true(r.tables[1].ops[0].v[0] == -3);
	assert_int_equal(r.tables[1].ops[1].n, 0);
	wl_result_release(&r);
	strbuf_release(&e);
	free(p);
}

/* a label folder: run.json plus one file per workload */
static char *put_label(const char *dir, const char *run, const char *workload)
{
	char *rel = xasprintf("%s/run.json", dir), *p;

	free(unit_put(rel, run));
	free(rel);
	rel = xasprintf("%s/%s.json", dir, workload);
	p = xasprintf("{\"schema\": 1, \"workload\": \"%s\", \"tables\": []}", workload);
	free(unit_put(rel, p));
	free(p);
	free(rel);
	return xasprintf("%s/%s", unit_tmp, dir);
}

static void label_folder(void **state)
{
	struct label_result l;
	struct strbuf e = STRBUF_INIT;
	char *d = put_label("lf/6.1-base", "{\"schema\": 1}", "readtwice");
	(void)state;
	free(unit_put("lf/6.1-base/notes.txt", "not results"));
	if (label_result_load(d, &l, &e))
		fail_msg("%s", strbuf_str(&e));
	/* no "label" in run.json: the folder's name, not its path */
	assert_string_equal(l.label, "6.1-base");
	assert_string_equal(l.dir, d);
	assert_int_equal(l.nwls, 1);   /* run.json and notes.txt are not workloads */
	assert_string_equal(l.wls[0].workload, "readtwice");
	label_result_release(&l);
	free(d);
	d = put_label("lf/other", "{\"schema\": 1, \"label\": \"named\"}", "thpscale");
	assert_int_equal(label_result_load(d, &l, &e), 0);
	assert_string_equal(l.label, "named");
	label_result_release(&l);
	free(d);
	strbuf_release(&e);
}

static void collect(char **dirs, size_t n, const char *names, const char *want_err,
		    const char *want_order)
{
	struct label_result *l;
	struct strbuf e = STRBUF_INIT, order = STRBUF_INIT;
	size_t nl;
	int ret = labels_collect(dirs, n, names, &l, &nl, &e);

	if (want_err) {
		assert_int_equal(ret, -1);
		if (!strstr(strbuf_str(&e), want_err))
			fail_msg("got '%s', want '%s'", strbuf_str(&e), want_err);
	} else {
		if (ret)
			fail_msg("%s", strbuf_str(&e));
		for (size_t i = 0; i < nl; i++)
			strbuf_addf(&order, "%s%s", i ? "," : "", l[i].label);
		assert_string_equal(strbuf_str(&order), want_order);
		labels_release(l, nl);
	}
	strbuf_release(&e);
	strbuf_release(&order);
}

static void labels_of_command_line(void **state)
{
	char *dirs[2];
	(void)state;
	/* sorted by run.json "started", not by name */
	free(put_label("lc/r/a", "{\"schema\": 1, \"started\": \"2026-01-03T00:00:00Z\"}", "w"));
	free(put_label("lc/r/b", "{\"schema\": 1, \"started\": \"2026-01-01T00:00:00Z\"}", "w"));
	free(put_label("lc/r/c", "{\"schema\": 1, \"started\": \"2026-01-02T00:00:00Z\"}", "w"));
	/* hidden folders (an editor's, a half-copied run) are no labels */
	free(put_label("lc/r/.old", "{\"schema\": 1, \"started\": \"2020-01-01T00:00:00Z\"}", "w"));
	dirs[0] = xasprintf("%s/lc/r", unit_tmp);
	collect(dirs, 1, NULL, NULL, "b,c,a");
	collect(dirs, 1, "a,b", NULL, "a,b");
	collect(dirs, 1, "a,a", "--names: label 'a' named twice", NULL);
	collect(dirs, 1, "a,zz", "--names: no label 'zz' in the results given (found: a b c)", NULL);
	/* the same label in two folders, anywhere on the command line */
	free(put_label("lc/s/b", "{\"schema\": 1}", "w"));
	dirs[1] = xasprintf("%s/lc/s/b", unit_tmp);
	collect(dirs, 2, NULL, "label 'b' is in both", NULL);
	free(dirs[0]);
	dirs[0] = xasprintf("%s/lc/r/b", unit_tmp);
	collect(dirs, 2, NULL, "label 'b' is in both", NULL);
	free(dirs[0]);
	free(dirs[1]);
	dirs[0] = xasprintf("%s/lc/none", unit_tmp);
	collect(dirs, 1, NULL, "no such folder", NULL);
	free(dirs[0]);
}

/* The x value of an op: the decimal number that ends its name. */
static void op_x(void **state)
{
	unsigned long long x = 0;
	size_t series = 99;

	(void)state;
	assert_true(results_op_x("memcgs-16", &series, &x));
	assert_int_equal(series, strlen("memcgs-"));
	assert_int_equal(x, 16);
	assert_true(results_op_x("4", &series, &x));
	assert_int_equal(series, 0);
	assert_int_equal(x, 4);
	assert_true(results_op_x("fault-huge-128", NULL, &x));
	assert_int_equal(x, 128);
	assert_true(results_op_x("j0", &series, &x));
	assert_int_equal(x, 0);
	assert_false(results_op_x("git-checkout", NULL, &x));
	assert_false(results_op_x("4k-read", NULL, &x));
	assert_false(results_op_x("0.5", NULL, &x));
	assert_false(results_op_x("1e+3", NULL, &x));
	assert_false(results_op_x("", NULL, &x));
	assert_false(results_op_x("x12345678901234567890", NULL, &x));   /* would overflow */
}

/* "x_axis": an object, null (categories), or absent (files from before it). */
static void x_axis_round_trip(void **state)
{
	struct wl_result r = { 0 }, back;
	struct strbuf e = STRBUF_INIT;
	struct result_table *t;
	char *p = xasprintf("%s/axes.json", unit_tmp), *text;

	(void)state;
	r.workload = xstrdup("w");
	t = wl_result_table(&r, "declared", "s", BETTER_LOWER);
	result_table_set_x_axis(t, "threads", "count");
	result_table_add(t, "t-1", 1);
	t = wl_result_table(&r, "categories", "s", BETTER_LOWER);
	result_table_set_x_axis(t, NULL, NULL);
	result_table_add(t, "a", 1);
	t = wl_result_table(&r, "unsaid", "s", BETTER_LOWER);
	result_table_add(t, "b", 1);
	assert_int_equal(wl_result_save(p, &r, &e), 0);
	text = read_file_str(p, NULL);
	assert_non_null(strstr(text, "\"x_axis\": {"));
	assert_non_null(strstr(text, "\"x_axis\": null"));
	free(text);
	assert_int_equal(wl_result_load(p, &back, &e), 0);
	assert_true(back.tables[0].x_known);
	assert_string_equal(back.tables[0].x_name, "threads");
	assert_string_equal(back.tables[0].x_unit, "count");
	assert_true(back.tables[1].x_known);
	assert_null(back.tables[1].x_name);
	assert_false(back.tables[2].x_known);
	wl_result_release(&r);
	wl_result_release(&back);
	strbuf_release(&e);
	free(p);
}

/* An array of n one-digit numbers: "[0,1,2,...]". */
static char *many_values(size_t n, size_t *len)
{
	char *t = xmalloc(2 * n + 2);

	t[0] = '[';
	for (size_t i = 0; i < n; i++) {
		t[1 + 2 * i] = (char)('0' + i % 10);
		t[2 + 2 * i] = ',';
	}
	t[2 * n] = ']';
	t[2 * n + 1] = '\0';
	*len = 2 * n + 1;
	return t;
}

/* Results size (issue 30, 6): a file of more values than a results file
 * holds is refused before json-c parses it (8 M values took ~600 MB), and
 * tables, ops and samples are bounded with messages that say so. */
static void size_bounds(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct wl_result r;
	size_t len;
	char *t = many_values(RESULTS_MAX_VALUES + 1, &len), *path;
	json_object *o;

	(void)state;
	assert_null(json_parse_text(t, len, "big.json", &err));
	assert_non_null(strstr(err.buf, "big.json: more than 8388608 JSON values"));
	assert_null(strstr(err.buf, "invalid JSON"));
	free(t);
	strbuf_reset(&err);
	/* a string holding ',' is one value */
	o = json_parse_text("[\",,,,\", 1]", 11, "s.json", &err);
	assert_non_null(o);
	json_object_put(o);
	{
		struct strbuf f = STRBUF_INIT;

		strbuf_addstr(&f, "{\"schema\": 1, \"workload\": \"w\", \"tables\": [");
		for (int i = 0; i <= RESULTS_MAX_TABLES; i++)
			strbuf_addf(&f, "%s{\"title\": \"t%d\", \"unit\": \"u\", \"better\": \"higher\", "
				    "\"ops\": []}", i ? "," : "", i);
		strbuf_addstr(&f, "]}");
		path = unit_put("tables.json", f.buf);
		assert_int_equal(wl_result_load(path, &r, &err), -1);
		assert_non_null(strstr(err.buf, "1001 tables: a results file holds at most 1000"));
		free(path);
		strbuf_reset(&err);
		strbuf_reset(&f);
		strbuf_addstr(&f, "{\"schema\": 1, \"workload\": \"w\", \"tables\": [{\"title\": \"t\", "
			      "\"unit\": \"u\", \"better\": \"higher\", \"ops\": [{\"op\": \"a\", \"samples\": [");
		for (int i = 0; i <= RESULTS_MAX_SAMPLES; i++)
			strbuf_addstr(&f, i ? ",1" : "1");
		strbuf_addstr(&f, "]}]}]}");
		path = unit_put("samples.json", f.buf);
		assert_int_equal(wl_result_load(path, &r, &err), -1);
		assert_non_null(strstr(err.buf, "tables[0].ops[0]: 100001 samples: an op holds at most "
				       "100000"));
		free(path);
		strbuf_release(&f);
	}
	strbuf_release(&err);
}

/* An allocation that fails while json-c parses says "out of memory", not
 * "invalid JSON" (issue 30, 6): in a child whose address space is capped.
 * Not under AddressSanitizer, which reserves terabytes of address space. */
static void out_of_memory_is_said(void **state)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)state;
	skip();
#else
	size_t len;
	char *t = many_values(4 << 20, &len), *path = xasprintf("%s/oom.err", unit_tmp);
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct strbuf err = STRBUF_INIT;
		/* what the child uses now, plus 64 MiB: json-c needs ~280 MB */
		struct rlimit rl;
		FILE *f = fopen(path, "w");
		char line[256];
		unsigned long vm = 0;
		FILE *s = fopen("/proc/self/status", "r");

		while (s && fgets(line, sizeof(line), s))
			if (sscanf(line, "VmSize: %lu kB", &vm) == 1)
				break;
		if (s)
			fclose(s);
		rl.rlim_cur = rl.rlim_max = (vm << 10) + (64 << 20);
		if (!f || !vm || setrlimit(RLIMIT_AS, &rl))
			_exit(3);
		if (json_parse_text(t, len, "oom.json", &err))
			_exit(4);
		fputs(err.buf, f);
		fclose(f);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	{
		char *msg = read_file_str(path, &len);

		assert_non_null(msg);
		assert_non_null(strstr(msg, "oom.json: out of memory while parsing it"));
		assert_null(strstr(msg, "invalid JSON"));
		free(msg);
	}
	free(path);
	free(t);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip), cmocka_unit_test(errors), cmocka_unit_test(accepted),
		cmocka_unit_test(size_bounds), cmocka_unit_test(out_of_memory_is_said),
		cmocka_unit_test(label_folder), cmocka_unit_test(labels_of_command_line),
		cmocka_unit_test(op_x), cmocka_unit_test(x_axis_round_trip),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
