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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_and_quick), cmocka_unit_test(resize_keeps_explicit_values),
		cmocka_unit_test(cpus_word),
		cmocka_unit_test(ini_file), cmocka_unit_test(ini_errors), cmocka_unit_test(missing_file),
		cmocka_unit_test(set_args), cmocka_unit_test(to_json),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
