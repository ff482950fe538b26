// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitors' series file (core/series.h): what the writer writes the
 * reader reads back exactly, and a truncated or hostile file is refused with
 * the file and the byte offset; the level tables of a series (monitor.h). */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
#include "unit.h"
#include "core/series.h"
#include "monitor/monitor.h"
#include "vm/merge.h"

/* A temp file of the writer's output: 3 columns, then a fourth, 4 rows. */
static char *write_sample(int *fdp)
{
	char *path = xstrdup("/tmp/lrubench-series-XXXXXX");
	int fd = mkstemp(path);
	struct series_writer w;
	const char *a[] = { "vmstat.nr_active_file", "meminfo.SwapTotal", "meminfo.SwapFree" };
	const char *b[] = { "memcg.all.current" };
	int64_t r0[] = { 100, 1024, 1024 }, r1[] = { 250, 1024, 512, 4 << 20 },
		r2[] = { 200, 1024, SERIES_ABSENT, SERIES_ABSENT }, r3[] = { -5, 1024, 0, 1 };

	assert_true(fd >= 0);
	assert_int_equal(series_writer_init(&w, fd), 0);
	assert_int_equal(series_writer_meta(&w, "page_size", "4096"), 0);
	assert_int_equal(series_writer_columns(&w, a, 3), 0);
	assert_int_equal(series_writer_row(&w, 0, r0), 0);
	assert_int_equal(series_writer_columns(&w, b, 1), 0);
	assert_int_equal(series_writer_row(&w, 250, r1), 0);
	assert_int_equal(series_writer_row(&w, 500, r2), 0);
	assert_int_equal(series_writer_row(&w, 750, r3), 0);
	*fdp = fd;
	series_writer_release(&w);
	return path;
}

static void round_trip(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct series s;
	struct series_writer w = { .fd = -1 };
	int fd;
	char *path = write_sample(&fd);

	(void)state;
	/* not ended yet: read, but not "ended" */
	assert_int_equal(series_load(path, &s, &err), 0);
	assert_false(s.ended);
	series_release(&s);
	w.fd = fd;
	strbuf_init(&w.line);
	w.rows = 4;
	assert_int_equal(series_writer_end(&w), 0);
	series_writer_release(&w);
	close(fd);
	assert_int_equal(series_load(path, &s, &err), 0);
	assert_true(s.ended);
	assert_int_equal(s.nrows, 4);
	assert_int_equal(s.ncols, 4);
	assert_int_equal(s.t_ms[3], 750);
	assert_string_equal(series_meta(&s, "page_size"), "4096");
	assert_true(s.v[0][1] == 250 && s.v[0][2] == 200 && s.v[0][3] == -5);
	assert_true(s.v[2][2] == SERIES_ABSENT && s.v[2][3] == 0);
	/* a column declared after the first row: absent before */
	assert_true(s.v[3][0] == SERIES_ABSENT && s.v[3][1] == (4 << 20) && s.v[3][3] == 1);
	assert_int_equal(series_col(&s, "memcg.all.current"), 3);
	assert_int_equal(series_col(&s, "nope"), -1);
	series_release(&s);
	unlink(path);
	free(path);
	strbuf_release(&err);
}

static void refused_n(const char *text, size_t len, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct series s;

	assert_int_equal(series_parse(text, len, "F", &s, &err), -1);
	if (!strstr(err.buf, want))
		fail_msg("'%s': got '%s', want '%s'", text, err.buf, want);
	strbuf_release(&err);
}

static void refused(const char *text, const char *want)
{
	refused_n(text, strlen(text), want);
}

static void hostile_files(void **state)
{
	(void)state;
	refused("", "F: offset 0: not a series file");
	refused("lrubench-series 2\n", "F: offset 0: not a series file");
	refused("lrubench-series 1\nc a b\nr 0 1 2\nr 10 1", "F: offset 32: truncated");
	refused("lrubench-series 1\nc a b\nr 0 1 2 3\n", "F: offset 32: more values than declared");
	refused("lrubench-series 1\nc a b\nr 0 1\n", "fewer values than declared");
	refused("lrubench-series 1\nc a\nr 0 x\n", "F: offset 26: a value that is not an integer");
	refused("lrubench-series 1\nc a\nr 0 9223372036854775807\nr 1 1\n", "a value out of range");
	refused("lrubench-series 1\nc a\nr 5 1\nr -3 1\n", "a sample time going backwards");
	refused("lrubench-series 1\nc a a\n", "a column declared twice");
	refused("lrubench-series 1\nc a/b\n", "a column name with a character");
	refused("lrubench-series 1\nz\n", "F: offset 18: a record that is not");
	refused("lrubench-series 1\nc a\nr 0 1\ne 2\n", "an end record whose count");
	refused("lrubench-series 1\ne 0\nr 0\n", "a record after the end record");
	refused_n("lrubench-series 1\nm a\0b\n", 24, "F: offset 18: a NUL byte");
	refused("lrubench-series 1\nc a\nr 0 99999999999999999999\n", "not an integer");
}

/* More columns x rows than SERIES_MAX_CELLS is refused before it is held. */
static void bounded_memory(void **state)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct series s;

	(void)state;
	strbuf_addstr(&text, SERIES_MAGIC "\nc");
	for (int c = 0; c < 4096; c++)
		strbuf_addf(&text, " c%d", c);
	strbuf_addstr(&text, "\n");
	for (int r = 0; r < 2100; r++) {
		strbuf_addstr(&text, "r 1");
		for (int c = 0; c < 4096; c++)
			strbuf_addstr(&text, " .");
		strbuf_addstr(&text, "\n");
	}
	assert_int_equal(series_parse(text.buf, text.len, "F", &s, &err), -1);
	assert_non_null(strstr(err.buf, "more than 8M values"));
	strbuf_release(&text);
	strbuf_release(&err);
}

/* A writer killed mid-line: series_seal cuts the partial line and says why. */
static void seal_after_kill(void **state)
{
	char path[] = "/tmp/lrubench-series-XXXXXX";
	int fd = mkstemp(path);
	const char *text = SERIES_MAGIC "\nc a\nr 0 1\nr 250 2\nr 50";
	struct strbuf err = STRBUF_INIT;
	struct series s;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	assert_int_equal(series_seal(fd, "the sampler was\nkilled"), 0);
	close(fd);
	assert_int_equal(series_load(path, &s, &err), 0);
	assert_int_equal(s.nrows, 2);
	assert_false(s.ended);
	assert_string_equal(s.note, "the sampler was?killed");
	series_release(&s);
	unlink(path);
	strbuf_release(&err);
}

/* Peak and end of the levels: end is the last sample up to the workload's first result. */
static void level_tables(void **state)
{
	const char *text = SERIES_MAGIC "\nm page_size 4096\n"
			   "c vmstat.nr_active_file meminfo.SwapTotal meminfo.SwapFree\n"
			   "r 0 256 1048576 1048576\n"        /* 1 MB active, no swap used */
			   "r 250 768 0 -102400\n"             /* 4 MB, 100 MB swap */
			   "r 250 -512 0 -102400\n"            /* 2 MB, 200 MB */
			   "r 250 0 0 204800\n";               /* after the end: all swap freed */
	struct strbuf err = STRBUF_INIT;
	struct wl_result res = { 0 };
	const struct result_table *t;
	struct series s;

	(void)state;
	assert_int_equal(series_parse(text, strlen(text), "F", &s, &err), 0);
	monitor_levels(&s, "w", "op", 500, &res);
	t = wl_result_find_table(&res, "w active file MB (peak)");
	assert_non_null(t);
	assert_true(t->explains);
	assert_true(fabs(t->ops[0].v[0] - 4) < 1e-9);
	t = wl_result_find_table(&res, "w active file MB (end)");
	assert_true(fabs(t->ops[0].v[0] - 2) < 1e-9);
	t = wl_result_find_table(&res, "w swap used MB (end)");
	assert_true(fabs(t->ops[0].v[0] - 200) < 1e-9);
	t = wl_result_find_table(&res, "w swap used MB (peak)");
	assert_true(fabs(t->ops[0].v[0] - 200) < 1e-9);
	/* levels the series has no column for make no table */
	assert_null(wl_result_find_table(&res, "w AnonHugePages MB (peak)"));
	wl_result_release(&res);
	series_release(&s);
	strbuf_release(&err);
}

static void monitor_names(void **state)
{
	struct strbuf err = STRBUF_INIT;
	unsigned m;

	(void)state;
	assert_int_equal(monitor_parse("all", &m, &err), 0);
	assert_int_equal(m, MON_ALL);
	assert_int_equal(monitor_parse("none", &m, &err), 0);
	assert_int_equal(m, 0);
	assert_int_equal(monitor_parse("vmstat,psi", &m, &err), 0);
	assert_int_equal(m, MON_VMSTAT | MON_PSI);
	assert_int_equal(monitor_parse("vmstat,slabinfo", &m, &err), -1);
	assert_non_null(strstr(err.buf, "global.monitors: unknown monitor 'slabinfo'"));
	strbuf_release(&err);
}

static void touch(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	free(p);
}

static char *slurp(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name), *t = read_file_str(p, NULL);

	free(p);
	return t;
}

/* VM mode, round 2: its series continue the label's iteration numbers, as
 * its samples are appended after the label's. */
static void vm_rounds_renumber_series(void **state)
{
	char root[] = "/tmp/lrubench-series-merge-XXXXXX";
	struct strbuf err = STRBUF_INIT;
	char *dst, *src, *dw, *sw, *t;

	(void)state;
	assert_non_null(mkdtemp(root));
	dst = xasprintf("%s/dst", root);
	src = xasprintf("%s/src", root);
	dw = xasprintf("%s/series/readtwice", dst);
	sw = xasprintf("%s/series/readtwice", src);
	touch(dw, "memcgs-1.0.series", "d0");
	touch(dw, "memcgs-1.1.series", "d1");
	touch(sw, "memcgs-1.0.series", "s0");
	touch(sw, "memcgs-1.1.series", "s1");
	touch(sw, "memcgs-2.0.series", "t0");
	assert_int_equal(vm_merge_label(dst, src, 2, &err), 0);
	t = slurp(dw, "memcgs-1.2.series");
	assert_string_equal(t ? t : "(none)", "s0");
	free(t);
	t = slurp(dw, "memcgs-1.3.series");
	assert_string_equal(t ? t : "(none)", "s1");
	free(t);
	t = slurp(dw, "memcgs-1.0.series");
	assert_string_equal(t ? t : "(none)", "d0");
	free(t);
	t = slurp(dw, "memcgs-2.0.series");
	assert_string_equal(t ? t : "(none)", "t0");
	free(t);
	assert_int_equal(remove_tree(root), 0);
	free(dst);
	free(src);
	free(dw);
	free(sw);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(hostile_files),
		cmocka_unit_test(bounded_memory),
		cmocka_unit_test(seal_after_kill),
		cmocka_unit_test(level_tables),
		cmocka_unit_test(monitor_names),
		cmocka_unit_test(vm_rounds_renumber_series),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
