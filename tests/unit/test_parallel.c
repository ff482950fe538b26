// SPDX-License-Identifier: GPL-2.0-or-later
/* parallel_for: every index exactly once on at most PARALLEL_MAX_THREADS
 * threads, serial on the caller when there is one item, no call for none. */
#include <pthread.h>
#include "unit.h"
#include "core/parallel.h"

struct seen {
	unsigned *calls;          /* per index: how many times fn ran for it */
	pthread_t threads[64];    /* room beyond the cap, so too many can be seen */
	size_t nthreads;          /* distinct threads seen (under lock) */
	pthread_mutex_t lock;
};

static void note(void *arg, size_t i)
{
	struct seen *s = arg;
	pthread_t me = pthread_self();
	bool known = false;

	__atomic_fetch_add(&s->calls[i], 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&s->lock);
	for (size_t t = 0; t < s->nthreads; t++)
		known |= pthread_equal(s->threads[t], me);
	if (!known && s->nthreads < ARRAY_SIZE(s->threads))   /* asserts stay on the main thread */
		s->threads[s->nthreads++] = me;
	pthread_mutex_unlock(&s->lock);
}

static void run(size_t n, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->calls = xcalloc(n ? n : 1, sizeof(*s->calls));
	parallel_for(n, note, s);
	pthread_mutex_destroy(&s->lock);
}

static void every_index_once(void **state)
{
	struct seen s;

	(void)state;
	run(10000, &s);
	for (size_t i = 0; i < 10000; i++)
		assert_int_equal(s.calls[i], 1);
	/* whether the caller got an item depends on timing: not asserted here */
	assert_true(s.nthreads >= 1 && s.nthreads <= PARALLEL_MAX_THREADS);
	free(s.calls);
}

static void one_item_runs_on_the_caller(void **state)
{
	struct seen s;

	(void)state;
	run(1, &s);
	assert_int_equal(s.calls[0], 1);
	assert_int_equal(s.nthreads, 1);
	assert_true(pthread_equal(s.threads[0], pthread_self()));
	free(s.calls);
}

static void no_item_no_call(void **state)
{
	struct seen s;

	(void)state;
	run(0, &s);
	assert_int_equal(s.calls[0], 0);
	assert_int_equal(s.nthreads, 0);
	free(s.calls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_index_once),
		cmocka_unit_test(one_item_runs_on_the_caller),
		cmocka_unit_test(no_item_no_call),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
