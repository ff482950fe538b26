// SPDX-License-Identifier: GPL-2.0-or-later
/* The option table: parsing, errors, help and synopsis. */
#include "unit.h"
#include "core/parse_options.h"

static const char *fmt, *out;
static bool quiet, force;
static struct strlist sets = STRLIST_INIT;
static int cb_calls;
static struct strlist seen = STRLIST_INIT;

static int count_cb(const struct popt *o, const char *arg)
{
	(void)o;
	if (!strcmp(arg, "bad"))
		return error("--count: bad value");
	cb_calls++;
	return 0;
}

/* a repeatable option with an action of its own */
static int define_cb(const struct popt *o, const char *arg)
{
	strlist_pushf(&seen, "--%s %s", o->long_name, arg);
	return 0;
}

static const struct popt opts[] = {
	POPT_STRING('f', "format", &fmt, "FMT", "output format"),
	POPT_STRING('o', "output", &out, "DIR", "where results go"),
	POPT_BOOL('q', "quiet", &quiet, "print errors only"),
	POPT_BOOL(0, "force", &force, "overwrite"),
	POPT_STRLIST(0, "set", &sets, "SEC.KEY=VAL", "set a key"),
	POPT_CALLBACK(0, "count", NULL, "N", "counted", count_cb),
	POPT_STRING(0, "old-name", &out, "DIR", NULL),   /* hidden alias */
	POPT_STRLIST_CB('D', "define", NULL, "K=V", "define K", define_cb),
	POPT_END(),
};
static const struct popt_command cmd = { "demo", "DIR...", "A demo command.", opts };

static int reset(void **state)
{
	(void)state;
	fmt = out = NULL;
	quiet = force = false;
	strlist_release(&sets);
	strlist_release(&seen);
	cb_calls = 0;
	return 0;
}

#define PARSE(...) ({ char *v_[] = { "demo", __VA_ARGS__, NULL }; \
	int r_ = parse_options(&cmd, (int)ARRAY_SIZE(v_) - 1, v_); \
	memcpy(argv_out, v_, sizeof(v_) < sizeof(argv_out) ? sizeof(v_) : sizeof(argv_out)); r_; })

static void test_forms(void **state)
{
	char *argv_out[16];

	reset(state);
	assert_int_equal(PARSE("a", "-fjson", "--output=x", "b", "-q", "--set", "g.k=1",
			       "--set=r.m=2", "--", "-c"), 3);
	assert_string_equal(fmt, "json");
	assert_string_equal(out, "x");
	assert_true(quiet);
	assert_false(force);
	assert_int_equal(sets.n, 2);
	assert_string_equal(sets.v[0], "g.k=1");
	assert_string_equal(sets.v[1], "r.m=2");
	assert_string_equal(argv_out[0], "a");
	assert_string_equal(argv_out[1], "b");
	assert_string_equal(argv_out[2], "-c");
	assert_null(argv_out[3]);
	reset(state);
	assert_int_equal(PARSE("-f", "csv", "-qo", "d", "--old-name", "e"), 0);
	assert_string_equal(fmt, "csv");
	assert_string_equal(out, "e");
	assert_true(quiet);
	reset(state);
	assert_int_equal(PARSE("-Da=1", "--define", "b=2"), 0);
	assert_int_equal(seen.n, 2);
	assert_string_equal(seen.v[0], "--define a=1");
	assert_string_equal(seen.v[1], "--define b=2");
	assert_int_equal(sets.n, 0);
}

static void test_errors(void **state)
{
	char *argv_out[16];

	reset(state);
	assert_int_equal(PARSE("--bogus"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("-x"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("--format"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("-f"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("--force=yes"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("--count", "bad"), POPT_USAGE_ERROR);
	assert_int_equal(PARSE("--count", "3", "--count=4"), 0);
	assert_int_equal(cb_calls, 2);
	assert_int_equal(popt_exit(POPT_USAGE_ERROR), LB_EXIT_USAGE);
	assert_int_equal(popt_exit(POPT_HELP_SHOWN), LB_EXIT_OK);
	/* --version, like --help, is every command's */
	assert_int_equal(PARSE("a", "--version"), POPT_HELP_SHOWN);
	/* a lone "-" is an argument (stdin, by convention) */
	assert_int_equal(PARSE("-"), 1);
	assert_string_equal(argv_out[0], "-");
}

/* Typed values: config.c's syntax per type, the range, the flag named. */
static unsigned long long retries = 3;
static double alpha = 0.10, pct = -1, timeout;
static uint64_t max_size;

static const struct popt typed[] = {
	POPT_UINT(0, "retries", &retries, "N", "retries", 0, 20),
	POPT_DOUBLE(0, "alpha", &alpha, "P", "a probability", 0, 1,
		    POPTF_ABOVE_MIN | POPTF_BELOW_MAX),
	POPT_DOUBLE(0, "pct", &pct, "PCT", "a percentage", 0, 0, 0),
	POPT_TIME('t', "timeout", &timeout, "TIME", "a time", 0, 86400),
	POPT_SIZE(0, "max-size", &max_size, "SIZE", "a size", 1, 0),
	POPT_END(),
};
static const struct popt_command typed_cmd = { "typed", "", "Typed options.", typed };

/* parse argv against typed_cmd; returns parse_options' result, *err what it printed */
static int parse_typed(char **err, int argc, char **argv)
{
	int r;

	capture_start();
	r = parse_options(&typed_cmd, argc, argv);
	*err = capture_end();
	return r;
}

#define TYPED(err, ...) ({ char *v_[] = { "typed", __VA_ARGS__, NULL }; \
	parse_typed(err, (int)ARRAY_SIZE(v_) - 1, v_); })

static void test_typed(void **state)
{
	char *err;

	(void)state;
	/* not given: the defaults stay */
	assert_int_equal(TYPED(&err, "x"), 1);
	assert_int_equal(retries, 3);
	assert_true(alpha == 0.10 && pct == -1);
	free(err);
	assert_int_equal(TYPED(&err, "--retries", "0", "--alpha=0.05", "--pct", "0", "-t2m",
			       "--max-size", "64K"), 0);
	assert_int_equal(retries, 0);
	assert_true(alpha == 0.05 && pct == 0 && timeout == 120);
	assert_int_equal(max_size, 65536);
	free(err);

	/* each error names the flag and what it accepts; the value stays */
	assert_int_equal(TYPED(&err, "--retries", "99"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--retries: 99 is out of range (0..20)"));
	assert_int_equal(retries, 0);
	free(err);
	assert_int_equal(TYPED(&err, "--retries", "-1"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--retries: '-1' is not a whole number"));
	free(err);
	assert_int_equal(TYPED(&err, "--alpha", "1"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--alpha: 1 is out of range (0 < P < 1)"));
	free(err);
	assert_int_equal(TYPED(&err, "--alpha", "0"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--alpha: 0 is out of range (0 < P < 1)"));
	free(err);
	assert_int_equal(TYPED(&err, "--alpha", "0.1x"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--alpha: '0.1x' is not a number"));
	free(err);
	assert_int_equal(TYPED(&err, "--alpha", "nan"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--alpha: 'nan' is not a number"));
	free(err);
	assert_int_equal(TYPED(&err, "--alpha", ""), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--alpha: '' is not a number"));
	free(err);
	assert_int_equal(TYPED(&err, "--pct", "-3"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--pct: -3 is out of range (PCT >= 0)"));
	free(err);
	assert_int_equal(TYPED(&err, "--timeout", "soon"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--timeout: 'soon' is not a time"));
	free(err);
	assert_int_equal(TYPED(&err, "-t", "25h"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--timeout: 25h is out of range (0s..86400s)"));
	free(err);
	assert_int_equal(TYPED(&err, "-t", "0"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--timeout: 0 is out of range"));
	free(err);
	assert_int_equal(TYPED(&err, "--max-size", "lots"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--max-size: 'lots' is not a size"));
	free(err);
	assert_int_equal(TYPED(&err, "--max-size", "0"), POPT_USAGE_ERROR);
	assert_non_null(strstr(err, "--max-size: 0 is out of range"));
	free(err);
}

/* The suite options: the same flags everywhere, passed on to run in order */
static void test_suite_options(void **state)
{
	static struct popt_suite suite;
	static const struct popt sopts[] = {
		POPT_SUITE_CONFIG(&suite, "a config"),
		POPT_SUITE_WORKLOADS(&suite, "workloads"),
		POPT_SUITE_ITERATIONS(&suite, "iterations"),
		POPT_SUITE_QUICK(&suite, "quick"),
		POPT_SUITE_SET(&suite, "a key"),
		POPT_END(),
	};
	static const struct popt_command scmd = { "suite", "", "Suite options.", sopts };
	char *v[] = { "suite", "--set", "g.a=1", "-c", "a.conf", "-i3", "--quick", "-c", "b.conf",
		      "-w", "readtwice", "--set=g.b=2", NULL };
	struct strlist argv = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(parse_options(&scmd, (int)ARRAY_SIZE(v) - 1, v), 0);
	popt_suite_argv(&suite, true, &argv);
	for (size_t i = 0; i < argv.n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", argv.v[i]);
	assert_string_equal(strbuf_str(&sb), "-c a.conf -c b.conf -w readtwice -i 3 --quick "
			    "--set g.a=1 --set g.b=2");
	strlist_release(&argv);
	strbuf_reset(&sb);
	popt_suite_argv(&suite, false, &argv);   /* noise passes its own counts */
	for (size_t i = 0; i < argv.n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", argv.v[i]);
	assert_null(strstr(strbuf_str(&sb), "-i"));
	strlist_release(&argv);
	strbuf_release(&sb);
	popt_suite_release(&suite);
	assert_int_equal(suite.configs.n, 0);
	assert_null(suite.workloads);
}

static void test_synopsis_and_help(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	popt_synopsis(&cmd, &sb);
	assert_string_equal(strbuf_str(&sb), "demo [-f FMT] [-o DIR] [-q] [--force] "
			    "[--set SEC.KEY=VAL]... [--count N] [-D K=V]... DIR...");
	popt_help(&cmd, f);
	fclose(f);
	assert_non_null(strstr(buf, "usage: lrubench demo [-f FMT]"));
	assert_non_null(strstr(buf, "A demo command."));
	assert_non_null(strstr(buf, "    -f, --format FMT"));
	assert_non_null(strstr(buf, "        --force "));
	assert_null(strstr(buf, "old-name"));
	free(buf);

	/* the usage wraps before 80 columns, between bracketed options, and
	 * continues under the first option */
	f = open_memstream(&buf, &len);
	popt_usage(&cmd, "usage: ", f);
	fclose(f);
	assert_string_equal(buf, "usage: lrubench demo [-f FMT] [-o DIR] [-q] [--force] "
			    "[--set SEC.KEY=VAL]...\n"
			    "                     [--count N] [-D K=V]... DIR...\n");
	free(buf);
	assert_int_equal(popt_usage_error(&cmd, "no %s", "DIR"), LB_EXIT_USAGE);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_synopsis_and_help),
		cmocka_unit_test(test_typed),
		cmocka_unit_test(test_suite_options),
	};
	int r = cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);

	strlist_release(&sets);
	strlist_release(&seen);
	return r;
}
