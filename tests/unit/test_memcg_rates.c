// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memcg tables through the workload contract: a workload hands its
 * per-memcg throughput and two core memcg_stats snapshots to
 * wl_memcg_report; the run layer's hook (profile/memcg_rates.c) makes the
 * fairness tables and the memcg rates from the memory.stat counters the
 * core read (and parsed) once per member. Fake memcg folders under a temp dir stand for
 * cgroupfs (no root).
 */
#include "unit.h"
#include <math.h>
#include "core/memcg_set.h"
#include "core/results.h"
#include "core/workload.h"
#include "profile/memcg_rates.h"

static const char *const keys[] = { "pgfault" };

static void put_stat(size_t m, unsigned long long anon, unsigned long long file)
{
	char rel[32], text[160];

	snprintf(rel, sizeof(rel), "m%zu/memory.stat", m);
	snprintf(text, sizeof(text), "pgfault 1\nworkingset_refault_anon %llu\nworkingset_refault_file %llu\n",
		 anon, file);
	free(unit_put(rel, text));
}

static const struct result_table *table(const struct wl_result *r, const char *title)
{
	for (size_t t = 0; t < r->ntables; t++)
		if (!strcmp(r->tables[t].title, title))
			return &r->tables[t];
	return NULL;
}

static void test_report_makes_the_tables(void **state)
{
	struct memcg_set set = { 0 };
	struct memcg_stats a, b;
	struct wl_result res = { 0 };
	struct wl_samples s = { .res = &res };
	struct run_env env = { .memcg_tables = memcg_report_tables }, bare = { 0 };
	double mbps[2] = { 10, 30 };
	const struct result_table *t;

	(void)state;
	set.cg = xcalloc(2, sizeof(*set.cg));
	set.n = 2;
	for (size_t m = 0; m < 2; m++) {
		set.cg[m].path = xasprintf("%s/m%zu", unit_tmp, m);
		set.cg[m].mode = CG_V1;
	}
	put_stat(0, 1, 10);
	put_stat(1, 0, 100);
	memcg_stats_take(&a, &set, keys, 1);
	put_stat(0, 3, 30);    /* +22 */
	put_stat(1, 0, 178);   /* +78 */
	memcg_stats_take(&b, &set, keys, 1);
	res.workload = xstrdup("w");

	/* without the run layer's hook (a unit test's env): no table */
	wl_memcg_report(&bare, &s, &(struct wl_memcg_report){ "memcgs-2", mbps, 2, &a, &b, 2.0 });
	assert_int_equal(res.ntables, 0);

	wl_memcg_report(&env, &s, &(struct wl_memcg_report){ "memcgs-2", mbps, 2, &a, &b, 2.0 });
	t = table(&res, "w fairness");
	assert_non_null(t);
	assert_true(t->explains);
	/* Jain: (10 + 30)^2 / (2 (100 + 900)) = 0.8 */
	assert_true(fabs(t->ops[0].v[0] - 0.8) < 1e-9);
	t = table(&res, "w fairness min/max");
	assert_non_null(t);
	assert_true(fabs(t->ops[0].v[0] - 1.0 / 3) < 1e-9);
	/* (22 + 78) pages over 2 s, from the counters each snapshot kept */
	t = table(&res, "w memcg workingset_refault/s");
	assert_non_null(t);
	assert_string_equal(t->ops[0].op, "memcgs-2");
	assert_true(fabs(t->ops[0].v[0] - 50.0) < 1e-9);
	/* a counter the members do not have is no table */
	assert_null(table(&res, "w memcg pgscan/s"));

	memcg_stats_release(&a);
	memcg_stats_release(&b);
	wl_result_release(&res);
	for (size_t m = 0; m < set.n; m++)
		free(set.cg[m].path);
	free(set.cg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_makes_the_tables),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
