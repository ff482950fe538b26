// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * readtwice and mmapread with no memory controller (core/memcg_optional.c):
 * a fake cgroup tree without memory (as test_cgroup.c builds them) is
 * discovered as CG_NONE, and then the workloads' probes accept memcgs = 0
 * (the tasks run in no memcg) and refuse a count > 0, naming it. The kernel
 * booted with cgroup_disable=memory is what this stands in for; the fake
 * tree is the only way to have no controller on this machine.
 */
#include "unit.h"
#include "core/cgroup_setup.h"
#include "core/config.h"
#include "core/memcg_optional.h"
#include "core/workload.h"

static enum wl_status probe(struct cg_env *cg, const char *wl, const char *memcgs, struct strbuf *why)
{
	struct config cfg;
	struct strbuf err = STRBUF_INIT;
	struct run_env env = { 0 };
	struct wl_ctx ctx = { 0 };
	char set[64];
	enum wl_status st;

	assert_int_equal(config_init(&cfg, NULL, false), 0);
	snprintf(set, sizeof(set), "%s.memcgs=%s", wl, memcgs);
	assert_int_equal(config_set(&cfg, set, &err), 0);
	env.cg = cg;
	ctx.ops = workload_find(wl);
	assert_non_null(ctx.ops);
	ctx.env = &env;
	ctx.opts = config_section(&cfg, wl);
	st = ctx.ops->probe(&ctx, why);
	config_release(&cfg);
	strbuf_release(&err);
	return st;
}

static void no_controller(void **state)
{
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;
	struct cg_env env;
	char *m = unit_put("mounts-nomem",
		"cgroup /nm/cpu cgroup rw,cpu 0 0\n"
		"cgroup2 /nm/unified cgroup2 rw 0 0\n");
	const char *wls[] = { "readtwice", "mmapread" };

	(void)state;
	free(unit_put("/nm/unified/cgroup.controllers", "cpu io pids\n"));
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), -1);
	assert_int_equal(env.mode, CG_NONE);
	for (size_t i = 0; i < 2; i++) {
		strbuf_reset(&why);
		assert_int_equal(probe(&env, wls[i], "0", &why), WL_OK);
		assert_int_equal(probe(&env, wls[i], "0,4", &why), WL_UNSUPPORTED);
		assert_non_null(strstr(strbuf_str(&why), "memcgs = 4 needs one"));
		assert_non_null(strstr(strbuf_str(&why), wls[i]));
	}
	/* and with no cgroup facts at all (lrubench check outside a run) */
	strbuf_reset(&why);
	{
		struct ull_list l = { 1, { 0 } };
		assert_int_equal(memcgs_without_controller(&l, "readtwice", &why), WL_OK);
		l.v[0] = 2;
		assert_int_equal(memcgs_without_controller(&l, "readtwice", &why), WL_UNSUPPORTED);
	}
	cg_env_release(&env);
	strbuf_release(&err);
	strbuf_release(&why);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(no_controller) };
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
