// SPDX-License-Identifier: GPL-2.0-or-later
/* The cleanup registry: order, pops, growth, and room for the largest run the config allows. */
#include "unit.h"
#include "core/cleanup.h"
#include "core/config.h"
#include "core/workload.h"

static int order[8], norder;

static void record(void *arg)
{
	order[norder++] = (int)(intptr_t)arg;
}

static void noop(void *arg)
{
	(void)arg;
}

static void test_newest_first_and_pops(void **state)
{
	int a, b, c;

	(void)state;
	norder = 0;
	a = cleanup_push("a", record, (void *)1);
	b = cleanup_push("b", record, (void *)2);
	c = cleanup_push("c", record, (void *)3);
	assert_true(a > 0 && b > 0 && c > 0);
	cleanup_pop(b, true);          /* runs now, not again */
	cleanup_pop(b, true);          /* a stale id does nothing */
	cleanup_run_all();
	assert_int_equal(norder, 3);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 1);
	cleanup_pop(a, true);          /* already run: nothing */
	assert_int_equal(norder, 3);
}

static unsigned long long option_max(const struct workload_ops *w, const char *name)
{
	for (const struct option_def *o = w->options; o->name; o++)
		if (!strcmp(o->name, name))
			return o->max;
	fail_msg("%s has no option %s", w->name, name);
	return 0;
}

/*
 * The largest run the config allows holds one entry per memcg and per
 * reader: readtwice at its maxima, read from its option table so that a
 * raised limit fails here rather than in a run ("registry full"). Every one
 * of those pushes must succeed, and popping them in any order must work.
 */
static void test_room_for_the_largest_run(void **state)
{
	const struct workload_ops *rt = workload_find("readtwice");
	unsigned long long need;
	int *ids;

	(void)state;
	assert_non_null(rt);
	need = option_max(rt, "memcgs") * (option_max(rt, "readers_per_memcg") + 1) + 64;
	assert_true(need <= (unsigned long long)cleanup_capacity());
	ids = calloc(need, sizeof(*ids));
	for (unsigned long long i = 0; i < need; i++) {
		ids[i] = cleanup_push("filler", noop, NULL);
		assert_true(ids[i] > 0);
	}
	/* readers end in any order: every other one first, then the rest */
	for (unsigned long long i = 0; i < need; i += 2)
		cleanup_pop(ids[i], false);
	for (unsigned long long i = need; i-- > 0;)
		if (i % 2)
			cleanup_pop(ids[i], false);
	free(ids);
	/* empty again: a fresh push runs alone */
	norder = 0;
	cleanup_push("after", record, (void *)7);
	cleanup_run_all();
	assert_int_equal(norder, 1);
	assert_int_equal(order[0], 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newest_first_and_pops),
		cmocka_unit_test(test_room_for_the_largest_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
