// SPDX-License-Identifier: GPL-2.0-or-later
/* core/memcg_set: memory.stat of every member read once per snapshot, the
 * v1 names mapped as cg_stat maps them, deltas and "every member had it";
 * which cgroup.procs each task joins. Fake memcg folders under a temp dir
 * stand for cgroupfs (no root). */
#include "unit.h"
#include "core/memcg_set.h"

static const char *const keys[] = { "pgfault", "workingset_refault", "pgscan" };

/* A set of n fake v1 memcgs m0..m(n-1) under unit_tmp. */
static void fake_set(struct memcg_set *set, size_t n)
{
	memset(set, 0, sizeof(*set));
	set->cg = xcalloc(n, sizeof(*set->cg));
	set->procs = xcalloc(n, sizeof(*set->procs));
	set->n = n;
	for (size_t m = 0; m < n; m++) {
		set->cg[m].path = xasprintf("%s/m%zu", unit_tmp, m);
		set->cg[m].mode = CG_V1;
		snprintf(set->procs[m], sizeof(set->procs[m]), "%s/cgroup.procs", set->cg[m].path);
	}
}

static void put_stat(size_t m, unsigned long long fault, unsigned long long refault)
{
	char rel[32], text[160];

	snprintf(rel, sizeof(rel), "m%zu/memory.stat", m);
	/* v1 has no pgscan per memcg; workingset_refault is workingset_refault_file there */
	snprintf(text, sizeof(text), "cache 4096\npgfault %llu\nworkingset_refault_file %llu\n", fault,
		 refault);
	free(unit_put(rel, text));
}

static void test_stats_deltas(void **state)
{
	struct memcg_set set;
	struct memcg_stats a, b;

	(void)state;
	fake_set(&set, 2);
	put_stat(0, 10, 1);
	put_stat(1, 100, 5);
	memcg_stats_take(&a, &set, keys, 3);
	put_stat(0, 15, 4);
	put_stat(1, 90, 9);   /* a counter that went backwards counts 0, never wraps */
	memcg_stats_take(&b, &set, keys, 3);
	assert_true(memcg_stats_have(&a, &b, 0));
	assert_true(memcg_stats_have(&a, &b, 1));
	assert_false(memcg_stats_have(&a, &b, 2));   /* pgscan: not on v1 */
	assert_int_equal(memcg_stats_delta(&a, &b, 0, 0), 5);
	assert_int_equal(memcg_stats_delta(&a, &b, 1, 0), 0);
	assert_int_equal(memcg_stats_delta(&a, &b, 0, 1), 3);
	assert_int_equal(memcg_stats_delta(&a, &b, 1, 1), 4);
	/* every counter is kept parsed (the memcg rates' beyond keys), as spelled */
	{
		uint64_t v = 0;

		assert_true(memcg_stats_get(&b, 1, "workingset_refault_file", &v));
		assert_int_equal(v, 9);
		assert_true(memcg_stats_get(&a, 0, "cache", &v));
		assert_int_equal(v, 4096);
		assert_false(memcg_stats_get(&a, 0, "pgscan", &v));
		assert_false(memcg_stats_get(&a, 2, "cache", &v));   /* no member 2 */
	}
	memcg_stats_release(&a);
	memcg_stats_release(&b);
	/* a member whose memory.stat is gone: the key is not had by the set */
	{
		char *gone = xasprintf("%s/memory.stat", set.cg[1].path);

		assert_int_equal(unlink(gone), 0);
		free(gone);
	}
	memcg_stats_take(&a, &set, keys, 3);
	memcg_stats_take(&b, &set, keys, 3);
	assert_false(memcg_stats_have(&a, &b, 0));
	{
		uint64_t v = 0;

		assert_true(memcg_stats_get(&a, 0, "cache", &v));
		assert_false(memcg_stats_get(&a, 1, "cache", &v));   /* unreadable: absent */
	}
	memcg_stats_release(&a);
	memcg_stats_release(&b);
	for (size_t m = 0; m < set.n; m++) {
		free(set.cg[m].path);
		set.cg[m].path = NULL;
	}
	free(set.cg);
	free(set.procs);
}

static void test_procs_of_tasks(void **state)
{
	struct memcg_set set, none = { 0 };

	(void)state;
	fake_set(&set, 3);
	/* two tasks per member: tasks 0,1 in m0, 2,3 in m1, 4,5 in m2 */
	assert_string_equal(memcg_set_procs(&set, 1, 2), set.procs[0]);
	assert_string_equal(memcg_set_procs(&set, 2, 2), set.procs[1]);
	assert_string_equal(memcg_set_procs(&set, 5, 2), set.procs[2]);
	/* a borrowed root holds every task */
	set.root = true;
	set.n = 1;
	assert_string_equal(memcg_set_procs(&set, 5, 2), set.procs[0]);
	/* an empty set (no controller): the tasks stay where lrubench is */
	assert_null(memcg_set_procs(&none, 0, 1));
	for (size_t m = 0; m < 3; m++)
		free(set.cg[m].path);
	free(set.cg);
	free(set.procs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_deltas),
		cmocka_unit_test(test_procs_of_tasks),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
