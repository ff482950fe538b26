// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgroup_setup.c on fake trees (no root): discovery from v1, v2, hybrid and
 * memory-less mounts files, path logic, the limit files and values written,
 * memory.stat key mapping, stale run-parent removal. The fake tree is plain
 * folders under a mktemp dir; files a real cgroupfs would create on mkdir are
 * created by the test (and removed before cg_destroy, since rmdir of a real
 * cgroup ignores its control files but a plain folder does not).
 */
#include "unit.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/cgroup_setup.h"
#include "core/cleanup.h"
#include "core/util.h"

static void put(const char *rel, const char *text)
{
	free(unit_put(rel, text));
}

static char *get(const char *path)
{
	char *s = read_file_str(path, NULL);

	assert_non_null(s);
	return s;
}

static void rm(const char *dir, const char *file)
{
	char p[4096];

	assert_int_equal(cg_path_join(p, sizeof(p), dir, file), 0);
	unlink(p);
}

static char *mounts(const char *name, const char *text)
{
	return unit_put(name, text);
}

static void test_path_join(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(cg_path_join(buf, sizeof(buf), "/a/b/", "c"), 0);
	assert_string_equal(buf, "/a/b/c");
	assert_int_equal(cg_path_join(buf, sizeof(buf), "/a", "/memory.max"), 0);
	assert_string_equal(buf, "/a/memory.max");
	assert_int_equal(cg_path_join(buf, 8, "/abcdef", "ghij"), -1);
	assert_string_equal(cg_mode_name(CG_V1), "v1");
	assert_string_equal(cg_mode_name(CG_V2), "v2");
	assert_string_equal(cg_mode_name(CG_NONE), "none");
}

static void test_discover_v1(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	char *m = mounts("m-v1",
		"sysfs /sys sysfs rw 0 0\n"
		"cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
		"cgroup /sys/fs/cgroup/mem\\040ory cgroup rw,relatime,memory 0 0\n");
	char *want = xasprintf("%s/sys/fs/cgroup/mem ory", unit_tmp);

	(void)state;
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), 0);
	assert_int_equal(env.mode, CG_V1);
	assert_string_equal(env.root, want);
	assert_null(env.v2_root);
	assert_false(env.hybrid);
	cg_env_release(&env);
	strbuf_release(&err);
	free(want);
	free(m);
}

static void test_discover_v2(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	char *m = mounts("m-v2", "cgroup2 /v2/sys/fs/cgroup cgroup2 rw,nosuid 0 0\n");
	char *want = xasprintf("%s/v2/sys/fs/cgroup", unit_tmp);

	(void)state;
	put("/v2/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids\n");
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), 0);
	assert_int_equal(env.mode, CG_V2);
	assert_string_equal(env.root, want);
	assert_string_equal(env.v2_root, want);
	assert_false(env.hybrid);
	cg_env_release(&env);
	strbuf_release(&err);
	free(want);
	free(m);
}

/* This machine's layout: cgroup2 without memory, memory on v1. */
static void test_discover_hybrid(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	char *m = mounts("m-hy",
		"tmpfs /hy/sys/fs/cgroup tmpfs rw 0 0\n"
		"cgroup /hy/sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n"
		"cgroup2 /hy/sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n");
	char *want = xasprintf("%s/hy/sys/fs/cgroup/memory", unit_tmp);

	(void)state;
	put("/hy/sys/fs/cgroup/unified/cgroup.controllers", "\n");
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), 0);
	assert_int_equal(env.mode, CG_V1);
	assert_string_equal(env.root, want);
	assert_non_null(env.v2_root);
	assert_true(env.hybrid);
	cg_env_release(&env);
	strbuf_release(&err);
	free(want);
	free(m);
}

static void test_discover_none(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	char *m = mounts("m-none",
		"cgroup /no/cpu cgroup rw,cpu 0 0\n"
		"cgroup /no/memoryless cgroup rw,name=memory 0 0\n"
		"cgroup2 /no/unified cgroup2 rw 0 0\n");

	(void)state;
	put("/no/unified/cgroup.controllers", "cpu io memoryx pids\n");
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), -1);
	assert_int_equal(env.mode, CG_NONE);
	assert_non_null(strstr(strbuf_str(&err), "no memory cgroup controller"));
	assert_non_null(strstr(strbuf_str(&err), "cgroup.controllers lacks memory"));
	cg_env_release(&env);
	strbuf_reset(&err);
	assert_int_equal(cg_discover(&env, "/nonexistent/mounts", "", &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "/nonexistent/mounts"));
	cg_env_release(&env);
	strbuf_release(&err);
	free(m);
}

static pid_t dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

static void test_v1_create_limits_stat(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	struct cgroup run, child;
	char *m = mounts("m-v1b", "cgroup /v1b/memory cgroup rw,memory 0 0\n");
	char *stale = xasprintf("/v1b/memory/lrubench-%d/m0/keep", (int)dead_pid());
	char *alive = xasprintf("/v1b/memory/lrubench-%d/x", (int)getppid());
	char *want = xasprintf("%s/v1b/memory/lrubench-%d", unit_tmp, (int)getpid());
	char buf[4096], *s;
	uint64_t v = 0;

	(void)state;
	/* a stale run parent (dead pid) with a sub-cgroup; a live one */
	put(stale, "");
	s = xasprintf("%s%s", unit_tmp, stale);
	unlink(s);   /* leave only folders, like a real cgroup tree */
	free(s);
	put(alive, "");
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), 0);
	assert_int_equal(cg_create_run_parent(&env, &run), 0);
	assert_string_equal(run.path, want);
	assert_int_equal(run.mode, CG_V1);
	assert_true(run.cleanup_id > 0);
	*strstr(stale, "/m0") = '\0';
	s = xasprintf("%s%s", unit_tmp, stale);
	assert_false(path_exists(s));   /* the dead run's folder is gone */
	free(s);
	s = xasprintf("%s%s", unit_tmp, alive);
	assert_true(path_exists(s));    /* the live run's folder is kept */
	unlink(s);
	*strrchr(s, '/') = '\0';
	rmdir(s);
	free(s);

	/* a second create of the same name fails */
	assert_int_equal(cg_create(&env, NULL, strrchr(want, '/') + 1, &child), -1);
	assert_null(child.path);
	assert_int_equal(cg_create(&env, &run, "a/b", &child), -1);

	assert_int_equal(cg_create(&env, &run, "m0", &child), 0);
	assert_string_equal(cg_procs_file(&child, buf, sizeof(buf)) + strlen(want), "/m0/cgroup.procs");
	s = xasprintf("%s/memory.limit_in_bytes", child.path);
	put(s + strlen(unit_tmp), "");
	assert_int_equal(cg_set_limit(&child, 256ULL << 20), 0);
	free(s);
	s = get(strcat(strcpy(buf, child.path), "/memory.limit_in_bytes"));
	assert_string_equal(s, "268435456");
	free(s);
	put(buf + strlen(unit_tmp), "");   /* cgroupfs files need no truncation, plain files do */
	assert_int_equal(cg_set_limit(&child, 0), 0);
	s = get(buf);
	assert_string_equal(s, "-1");
	free(s);

	/* memory.stat: v1 names mapped, v2-only counters absent */
	s = xasprintf("%s/memory.stat", child.path);
	put(s + strlen(unit_tmp), "cache 40960\nrss 8192\nworkingset_refault_anon 1\n"
	    "workingset_refault_file 77\ninactive_file 4096\nactive_file 36864\n"
	    "total_cache 40960\n");
	free(s);
	assert_int_equal(cg_stat(&child, "file", &v), 0);
	assert_int_equal(v, 40960);
	assert_int_equal(cg_stat(&child, "anon", &v), 0);
	assert_int_equal(v, 8192);
	assert_int_equal(cg_stat(&child, "workingset_refault", &v), 0);
	assert_int_equal(v, 77);
	assert_int_equal(cg_stat(&child, "active_file", &v), 0);
	assert_int_equal(v, 36864);
	assert_int_equal(cg_stat(&child, "pgscan", &v), -1);
	assert_int_equal(cg_stat(&child, "pgsteal", &v), -1);
	assert_int_equal(cg_stat(&child, "cach", &v), -1);

	s = xasprintf("%s/memory.usage_in_bytes", child.path);
	put(s + strlen(unit_tmp), "12288\n");
	free(s);
	assert_int_equal(cg_usage(&child, &v), 0);
	assert_int_equal(v, 12288);
	s = xasprintf("%s/cgroup.procs", child.path);
	put(s + strlen(unit_tmp), "");
	free(s);
	assert_int_equal(cg_nr_procs(&child), 0);

	rm(child.path, "memory.limit_in_bytes");
	rm(child.path, "memory.stat");
	rm(child.path, "memory.usage_in_bytes");
	rm(child.path, "cgroup.procs");
	assert_int_equal(cg_destroy(&child), 0);
	assert_null(child.path);
	assert_int_equal(cg_destroy(&child), 0);   /* idempotent */
	assert_false(path_exists(buf));
	assert_int_equal(cg_destroy(&run), 0);
	assert_false(path_exists(want));
	cg_env_release(&env);
	strbuf_release(&err);
	free(want);
	free(stale);
	free(alive);
	free(m);
}

static void test_v2_create_limits_stat(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct cg_env env;
	struct cgroup run, child;
	char *m = mounts("m-v2b", "cgroup2 /v2b cgroup2 rw 0 0\n");
	char *subtree = xasprintf("%s/v2b/cgroup.subtree_control", unit_tmp);
	char buf[4096], *s;
	uint64_t v = 0;

	(void)state;
	put("/v2b/cgroup.controllers", "cpu memory pids\n");
	put("/v2b/cgroup.subtree_control", "");
	assert_int_equal(cg_discover(&env, m, unit_tmp, &err), 0);
	assert_int_equal(env.mode, CG_V2);
	/* a plain folder has no cgroup.subtree_control after mkdir: a real error, named */
	assert_int_equal(cg_create_run_parent(&env, &run), -1);
	assert_null(run.path);
	/* the root's subtree_control got +memory, and its undo is registered */
	s = get(subtree);
	assert_string_equal(s, "+memory");
	free(s);
	assert_true(env.subtree_id > 0);

	/* a parent that already delegates memory: no write needed */
	put("/v2b/p/cgroup.subtree_control", "memory\n");
	run.path = xasprintf("%s/v2b/p", unit_tmp);
	run.mode = CG_V2;
	run.cleanup_id = 0;
	assert_int_equal(cg_create(&env, &run, "m1", &child), 0);
	assert_int_equal(child.mode, CG_V2);
	s = xasprintf("%s/memory.max", child.path);
	put(s + strlen(unit_tmp), "");
	free(s);
	assert_int_equal(cg_set_limit(&child, 64ULL << 20), 0);
	s = get(strcat(strcpy(buf, child.path), "/memory.max"));
	assert_string_equal(s, "67108864");
	free(s);
	put(buf + strlen(unit_tmp), "");
	assert_int_equal(cg_set_limit(&child, 0), 0);
	s = get(buf);
	assert_string_equal(s, "max");
	free(s);

	s = xasprintf("%s/memory.stat", child.path);
	put(s + strlen(unit_tmp), "anon 4096\nfile 81920\nactive_file 8192\ninactive_file 73728\n"
	    "workingset_refault_anon 3\nworkingset_refault_file 11\npgscan 500\npgsteal 450\n"
	    "pgactivate 9\npgscan_kswapd 400\n");
	free(s);
	assert_int_equal(cg_stat(&child, "pgscan", &v), 0);
	assert_int_equal(v, 500);
	assert_int_equal(cg_stat(&child, "pgsteal", &v), 0);
	assert_int_equal(v, 450);
	assert_int_equal(cg_stat(&child, "pgactivate", &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(cg_stat(&child, "workingset_refault", &v), 0);
	assert_int_equal(v, 11);
	assert_int_equal(cg_stat(&child, "file", &v), 0);
	assert_int_equal(v, 81920);
	assert_int_equal(cg_stat(&child, "anon", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cg_stat(&child, "inactive_file", &v), 0);
	assert_int_equal(v, 73728);
	assert_int_equal(cg_stat(&child, "cache", &v), -1);
	s = xasprintf("%s/memory.current", child.path);
	put(s + strlen(unit_tmp), "999\n");
	free(s);
	assert_int_equal(cg_usage(&child, &v), 0);
	assert_int_equal(v, 999);

	rm(child.path, "memory.max");
	rm(child.path, "memory.stat");
	rm(child.path, "memory.current");
	assert_int_equal(cg_destroy(&child), 0);
	free(run.path);
	/* releasing the env undoes "+memory" in the root */
	cg_env_release(&env);
	assert_int_equal(env.subtree_id, 0);
	s = get(subtree);
	assert_string_equal(s, "-memory");
	free(s);
	strbuf_release(&err);
	free(subtree);
	free(m);
}

/* Before 5.9 the refault counter had no _file/_anon split. */
static void test_stat_old_kernel_names(void **state)
{
	char *dir = xasprintf("%s/old", unit_tmp);
	struct cgroup cg = { dir, CG_V2, 0 };
	uint64_t v = 0;

	(void)state;
	put("/old/memory.stat", "file 4096\nworkingset_refault 42\nworkingset_activate 1\n");
	assert_int_equal(cg_stat(&cg, "workingset_refault", &v), 0);
	assert_int_equal(v, 42);
	cg.mode = CG_V1;
	assert_int_equal(cg_stat(&cg, "workingset_refault", &v), 0);
	assert_int_equal(v, 42);
	/* a missing memory.stat is "not present", not a crash */
	free(dir);
	cg.path = dir = xasprintf("%s/nonexistent", unit_tmp);
	assert_int_equal(cg_stat(&cg, "file", &v), -1);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_join),
		cmocka_unit_test(test_discover_v1),
		cmocka_unit_test(test_discover_v2),
		cmocka_unit_test(test_discover_hybrid),
		cmocka_unit_test(test_discover_none),
		cmocka_unit_test(test_v1_create_limits_stat),
		cmocka_unit_test(test_v2_create_limits_stat),
		cmocka_unit_test(test_stat_old_kernel_names),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
