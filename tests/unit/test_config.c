// SPDX-License-Identifier: GPL-2.0-or-later
/* Config: defaults, --quick, INI files with file:line errors, --set, JSON. */
#include "unit.h"
#include "core/config.h"
#include "core/workload.h"

struct rt_opts_view {          /* the head of readtwice's option struct */
	struct ull_list memcgs;
	unsigned long long readers_per_memcg;
	uint64_t file_size;
	uint64_t memcg_limit;
	double runtime;
};

static const struct sizing sz4 = { NULL, 4, 8ULL << 30 };

static void defaults_and_quick(void **state)
{
	struct config c;
	struct rt_opts_view *rt;
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(c.g.iterations, 5);
	assert_string_equal(c.g.numa_node, "auto");
	rt = config_section(&c, "readtwice");
	assert_non_null(rt);
	/* sized from the machine: doubling up to 2 x 4 CPUs */
	assert_int_equal(rt->memcgs.n, 4);
	assert_int_equal(rt->memcgs.v[3], 8);
	assert_int_equal(rt->memcg_limit, 256ULL << 20);
	assert_int_equal(config_common(&c, "readtwice")->iterations, LB_INHERIT);
	config_release(&c);

	assert_int_equal(config_init(&c, &sz4, true), 0);
	rt = config_section(&c, "readtwice");
	assert_int_equal(c.g.iterations, 3);
	assert_true(rt->runtime == 3.0);
	assert_int_equal(rt->memcgs.n, 3);
	config_release(&c);
}

static void resize_keeps_explicit_values(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	struct sizing sz1 = { NULL, 1, 1ULL << 30 };
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	config_resize(&c, &sz1);
	assert_int_equal(((struct rt_opts_view *)config_section(&c, "readtwice"))->memcgs.n, 2);
	assert_int_equal(config_set(&c, "readtwice.memcgs=3,5", &e), 0);
	config_resize(&c, &sz4);
	assert_int_equal(((struct rt_opts_view *)config_section(&c, "readtwice"))->memcgs.v[1], 5);
	config_release(&c);
	strbuf_release(&e);
}

/* "cpus" terms: expanded for the sizing's CPUs, and again when the node
 * (so the count) changes; the effective text is the number. */
static void cpus_word(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT, x = STRBUF_INIT;
	struct sizing sz1 = { NULL, 1, 1ULL << 30 }, sz40 = { NULL, 40, 1ULL << 30 };
	struct rt_opts_view *rt;
	(void)state;
	assert_int_equal(config_expand_cpus("1,2,4", 8, &x, &e), 0);
	assert_int_equal(config_expand_cpus("cpus", 8, &x, &e), 1);
	assert_string_equal(x.buf, "8");
	assert_int_equal(config_expand_cpus("1-2*cpus:x2,cpus/2,cpus/16", 8, &x, &e), 1);
	assert_string_equal(x.buf, "1-16:x2,4,1");
	assert_int_equal(config_expand_cpus("12,cpus", 3, &x, &e), 1);
	assert_string_equal(x.buf, "12,3");
	assert_int_equal(config_expand_cpus("cpus*2", 3, &x, &e), -1);

	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_set(&c, "readtwice.memcgs=cpus,2*cpus", &e), 0);
	assert_int_equal(config_set(&c, "readtwice.readers_per_memcg=cpus/2", &e), 0);
	rt = config_section(&c, "readtwice");
	assert_int_equal(rt->memcgs.n, 2);
	assert_int_equal(rt->memcgs.v[0], 4);
	assert_int_equal(rt->memcgs.v[1], 8);
	assert_int_equal(rt->readers_per_memcg, 2);
	config_resize(&c, &sz40);
	assert_int_equal(rt->memcgs.v[0], 40);
	assert_int_equal(rt->memcgs.v[1], 80);
	assert_string_equal(config_find_section(&c, "readtwice")->text[0], "40,80");
	config_resize(&c, &sz1);
	assert_int_equal(rt->memcgs.v[1], 2);
	assert_int_equal(rt->readers_per_memcg, 1);
	/* a plain value set later forgets the cpus form */
	assert_int_equal(config_set(&c, "readtwice.memcgs=3", &e), 0);
	config_resize(&c, &sz40);
	assert_int_equal(rt->memcgs.v[0], 3);
	config_release(&c);
	strbuf_release(&e);
	strbuf_release(&x);
}

static void ini_file(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	struct rt_opts_view *rt;
	char *p = unit_put("ok.conf",
		"# a comment\n[global]\niterations = 7 ; inline\nwarmup = 0   # hash comment\n"
		"[readtwice]\nmemcgs = 1,2,4\nfile_size = 64M\nmemcg_limit = none\nruntime = 2m\n"
		"iterations = 2\n");
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_load_file(&c, p, &e), 0);
	rt = config_section(&c, "readtwice");
	assert_int_equal(c.g.iterations, 7);
	assert_int_equal(c.g.warmup, 0);
	assert_int_equal(rt->memcgs.n, 3);
	assert_int_equal(rt->file_size, 64ULL << 20);
	assert_int_equal(rt->memcg_limit, 0);
	assert_true(rt->runtime == 120);
	assert_int_equal(config_common(&c, "readtwice")->iterations, 2);
	config_release(&c);
	free(p);
	strbuf_release(&e);
}

/* Each bad input names the file, the line and the key. */
static void ini_errors(void **state)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "[global]\niterations = 3\nbogus = 1\n", "bad.conf:3: unknown key 'bogus' in [global]" },
		{ "[readtwice]\n\nfile_size = 12Q\n", "bad.conf:3: readtwice.file_size: '12Q' is not a size" },
		{ "[readtwice]\nmemcgs = 4097\n", "bad.conf:2: readtwice.memcgs: 4097 is out of range (0..4096)" },
		{ "[readtwice]\nmemcgs = 2cpus\n", "bad.conf:2: readtwice.memcgs: '2cpus': write cpus as" },
		{ "[readtwice]\nmemcgs = cpus/0\n", "bad.conf:2: readtwice.memcgs: 'cpus/0': cpus/N needs" },
		{ "[readtwice]\nfile_size = cpus\n", "readtwice.file_size: 'cpus' is not a size" },
		{ "[readtwice]\nruntime = -1\n", "bad.conf:2: readtwice.runtime: '-1' is not a time" },
		{ "[nosuch]\nx = 1\n", "bad.conf:2: unknown section [nosuch]" },
		{ "iterations = 1\n", "bad.conf:1: key 'iterations' outside of any [section]" },
		{ "[global]\nthis line is broken\n", "bad.conf:2: cannot parse this line" },
		{ "[global]\ndrop_caches = maybe\n", "'maybe' is not yes or no" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c;
		struct strbuf e = STRBUF_INIT;
		char *p = unit_put("bad.conf", cases[i].text);

		assert_int_equal(config_init(&c, &sz4, false), 0);
		assert_int_equal(config_load_file(&c, p, &e), -1);
		if (!strstr(strbuf_str(&e), cases[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, strbuf_str(&e), cases[i].want);
		config_release(&c);
		strbuf_release(&e);
		free(p);
	}
}

static void missing_file(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_load_file(&c, "/nonexistent/x.conf", &e), -1);
	assert_non_null(strstr(strbuf_str(&e), "cannot read config file /nonexistent/x.conf"));
	config_release(&c);
	strbuf_release(&e);
}

static void set_args(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_set(&c, "global.iterations=9", &e), 0);
	assert_int_equal(c.g.iterations, 9);
	assert_int_equal(config_set(&c, "iterations=9", &e), -1);
	assert_non_null(strstr(strbuf_str(&e), "expected SECTION.KEY=VALUE"));
	strbuf_reset(&e);
	assert_int_equal(config_set(&c, "readtwice.memcgs", &e), -1);
	strbuf_reset(&e);
	assert_int_equal(config_set(&c, "readtwice.nokey=1", &e), -1);
	assert_non_null(strstr(strbuf_str(&e), "unknown key 'nokey' in [readtwice]"));
	strbuf_reset(&e);
	assert_int_equal(config_set(&c, "readtwice.readers_per_memcg=0", &e), -1);
	assert_non_null(strstr(strbuf_str(&e), "--set readtwice.readers_per_memcg=0"));
	config_release(&c);
	strbuf_release(&e);
}

static void to_json(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	json_object *o, *sec, *v;
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_set(&c, "readtwice.file_size=64M", &e), 0);
	config_find_section(&c, "readtwice")->enabled = true;
	o = config_to_json(&c);
	assert_true(json_object_object_get_ex(o, "readtwice", &sec));
	assert_true(json_object_object_get_ex(sec, "file_size", &v));
	assert_string_equal(json_object_get_string(v), "64M");
	/* the common keys land in the same section */
	assert_true(json_object_object_get_ex(sec, "iterations", &v));
	/* sections of workloads not selected stay out */
	assert_false(json_object_object_get_ex(o, "thpscale", &sec));
	json_object_put(o);
	config_release(&c);
	strbuf_release(&e);
}

/* option_parse on tables of our own: the bounds of every option kind, both
 * edges, independent of what the workloads' tables say today. */
static const char *const modes[] = { "keep", "always", "never", NULL };
static const struct option_def d_uint = { "n", OPT_UINT, 0, "1", NULL, NULL, 1, 10, NULL, 0, "" };
static const struct option_def d_size = { "s", OPT_SIZE, 0, "1M", NULL, NULL, 1ULL << 20, 16ULL << 40,
					  NULL, 0, "" };
static const struct option_def d_size_none = { "s", OPT_SIZE, 0, "none", NULL, NULL, 0, 0, NULL,
					       OPTF_NONE, "" };
static const struct option_def d_time = { "t", OPT_TIME, 0, "1", NULL, NULL, 0, 60, NULL, 0, "" };
static const struct option_def d_time1 = { "t", OPT_TIME, 0, "1", NULL, NULL, 1, 0, NULL, 0, "" };
static const struct option_def d_bool = { "b", OPT_BOOL, 0, "yes", NULL, NULL, 0, 0, NULL, 0, "" };
static const struct option_def d_enum = { "e", OPT_ENUM, 0, "keep", NULL, NULL, 0, 0, modes, 0, "" };
static const struct option_def d_str = { "c", OPT_STR, 0, "keep", NULL, NULL, 0, 0, modes, 0, "" };
static const struct option_def d_list = { "l", OPT_LIST, 0, "1", NULL, NULL, 1, 64, NULL, 0, "" };

/* parse val with d into dst; the error text (if any) into e */
static int parse(const struct option_def *d, const char *val, void *dst, struct strbuf *e)
{
	strbuf_reset(e);
	return option_parse(d, val, dst, e);
}

static void option_bounds(void **state)
{
	struct strbuf e = STRBUF_INIT;
	unsigned long long u = 77;
	uint64_t z = 77;
	double t = 77;
	(void)state;
	assert_int_equal(parse(&d_uint, "1", &u, &e), 0); assert_int_equal(u, 1);
	assert_int_equal(parse(&d_uint, "10", &u, &e), 0); assert_int_equal(u, 10);
	assert_int_equal(parse(&d_uint, "0", &u, &e), -1);
	assert_string_equal(strbuf_str(&e), "0 is out of range (1..10)");
	assert_int_equal(parse(&d_uint, "11", &u, &e), -1);
	assert_string_equal(strbuf_str(&e), "11 is out of range (1..10)");
	assert_int_equal(u, 10);   /* a refused value leaves the field alone */
	assert_int_equal(parse(&d_uint, "inherit", &u, &e), -1);   /* only where the default is */
	assert_int_equal(parse(&wl_common_options[0], "inherit", &u, &e), 0);
	assert_true(u == LB_INHERIT);

	assert_int_equal(parse(&d_size, "1M", &z, &e), 0); assert_int_equal(z, 1ULL << 20);
	assert_int_equal(parse(&d_size, "16T", &z, &e), 0); assert_int_equal(z, 16ULL << 40);
	assert_int_equal(parse(&d_size, "1023K", &z, &e), -1);
	assert_string_equal(strbuf_str(&e), "1023K is out of range (1M..16T)");
	assert_int_equal(parse(&d_size, "17T", &z, &e), -1);
	assert_int_equal(parse(&d_size, "none", &z, &e), -1);
	assert_non_null(strstr(strbuf_str(&e), "'none' is not a size"));
	assert_int_equal(z, 16ULL << 40);
	assert_int_equal(parse(&d_size_none, "none", &z, &e), 0); assert_int_equal(z, 0);
	assert_int_equal(parse(&d_size_none, "NONE", &z, &e), 0); assert_int_equal(z, 0);
	assert_int_equal(parse(&d_size_none, "1T", &z, &e), 0); assert_int_equal(z, 1ULL << 40);

	assert_int_equal(parse(&d_time, "60", &t, &e), 0); assert_true(t == 60);
	assert_int_equal(parse(&d_time, "1m", &t, &e), 0); assert_true(t == 60);
	assert_int_equal(parse(&d_time, "1ms", &t, &e), 0); assert_true(t == 0.001);
	assert_int_equal(parse(&d_time, "61", &t, &e), -1);
	assert_string_equal(strbuf_str(&e), "61 is out of range (0s..60s)");
	assert_int_equal(parse(&d_time, "2m", &t, &e), -1);
	assert_int_equal(parse(&d_time, "0", &t, &e), -1);   /* a time is never 0 */
	assert_int_equal(parse(&d_time1, "0.5", &t, &e), -1);
	assert_int_equal(parse(&d_time1, "1", &t, &e), 0);
	assert_int_equal(parse(&d_time1, "100h", &t, &e), 0);   /* no maximum */
	assert_true(t == 360000);
	strbuf_release(&e);
}

static void option_words(void **state)
{
	static const char *yes[] = { "yes", "true", "on", "1", "Yes", "TRUE", "On" };
	static const char *no[] = { "no", "false", "off", "0", "No", "FALSE", "OFF" };
	struct strbuf e = STRBUF_INIT;
	struct ull_list l;
	bool b;
	int x = 77;
	char *str = NULL;
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		assert_int_equal(parse(&d_bool, yes[i], &b, &e), 0);
		assert_true(b);
		assert_int_equal(parse(&d_bool, no[i], &b, &e), 0);
		assert_false(b);
	}
	assert_int_equal(parse(&d_bool, "maybe", &b, &e), -1);
	assert_int_equal(parse(&d_bool, "", &b, &e), -1);

	assert_int_equal(parse(&d_enum, "never", &x, &e), 0); assert_int_equal(x, 2);
	assert_int_equal(parse(&d_enum, "always", &x, &e), 0); assert_int_equal(x, 1);
	assert_int_equal(parse(&d_enum, "keep", &x, &e), 0); assert_int_equal(x, 0);
	assert_int_equal(parse(&d_enum, "sometimes", &x, &e), -1);
	assert_string_equal(strbuf_str(&e), "'sometimes' is not one of keep|always|never");
	assert_int_equal(parse(&d_enum, "Never", &x, &e), -1);   /* enum words are exact */

	assert_int_equal(parse(&d_str, "always", &str, &e), 0);
	assert_string_equal(str, "always");
	assert_int_equal(parse(&d_str, "often", &str, &e), -1);
	assert_string_equal(strbuf_str(&e), "'often' is not one of keep|always|never");
	assert_string_equal(str, "always");
	free(str);

	assert_int_equal(parse(&d_list, "1,64", &l, &e), 0);
	assert_int_equal(l.n, 2); assert_int_equal(l.v[1], 64);
	assert_int_equal(parse(&d_list, "1-64:x2", &l, &e), 0);
	assert_int_equal(l.n, 7);
	assert_int_equal(parse(&d_list, "2,65", &l, &e), -1);
	assert_string_equal(strbuf_str(&e), "65 is out of range (1..64)");
	assert_int_equal(l.n, 0);
	assert_int_equal(parse(&d_list, "0-4", &l, &e), -1);
	assert_string_equal(strbuf_str(&e), "0 is out of range (1..64)");
	strbuf_release(&e);
}

/* --set needs SECTION.KEY=VALUE, with the dot before the '=' */
static void set_syntax(void **state)
{
	static const char *bad[] = { "global=1.5", ".iterations=3", "global.=3", "global.iterations" };
	struct config c;
	struct strbuf e = STRBUF_INIT;
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&e);
		assert_int_equal(config_set(&c, bad[i], &e), -1);
		if (!strstr(strbuf_str(&e), "expected SECTION.KEY=VALUE"))
			fail_msg("--set '%s': got '%s'", bad[i], strbuf_str(&e));
	}
	/* a dot in the value is the value's */
	assert_int_equal(config_set(&c, "global.workdir=/tmp/a.b", &e), 0);
	assert_string_equal(c.g.workdir, "/tmp/a.b");
	config_release(&c);
	strbuf_release(&e);
}

/* '#' starts a comment at the start of a value or after white space only */
static void ini_hash(void **state)
{
	struct config c;
	struct strbuf e = STRBUF_INIT;
	char *p = unit_put("hash.conf", "[global]\nworkdir = /tmp/a#b # the scratch\n"
			   "numa_node = #0\n");
	(void)state;
	assert_int_equal(config_init(&c, &sz4, false), 0);
	assert_int_equal(config_load_file(&c, p, &e), 0);
	assert_string_equal(c.g.workdir, "/tmp/a#b");
	assert_string_equal(c.g.numa_node, "");
	config_release(&c);
	free(p);
	strbuf_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_quick), cmocka_unit_test(resize_keeps_explicit_values),
		cmocka_unit_test(cpus_word),
		cmocka_unit_test(ini_file), cmocka_unit_test(ini_errors), cmocka_unit_test(missing_file),
		cmocka_unit_test(set_args), cmocka_unit_test(to_json),
		cmocka_unit_test(option_bounds), cmocka_unit_test(option_words),
		cmocka_unit_test(set_syntax), cmocka_unit_test(ini_hash),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
