// SPDX-License-Identifier: GPL-2.0-or-later
/* The cleanup registry (core/cleanup.c): undo newest first, pop by id (with
 * or without running), stale ids, slot reuse, forgetting in a child, growth,
 * and room for the largest run the config allows; lb_poll's wait ends with a
 * stop request, whether it came before the wait or during it. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
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

/* Each action appends its letter, so a test reads the order things ran in. */
static char ran[64];

static void note(void *arg)
{
	size_t n = strlen(ran);

	if (n + 1 < sizeof(ran)) {
		ran[n] = *(const char *)arg;
		ran[n + 1] = '\0';
	}
}

static void nothing(void *arg)
{
	(void)arg;
}

static int reset(void **state)
{
	(void)state;
	cleanup_run_all();   /* whatever a failed test left */
	ran[0] = '\0';
	return 0;
}

static void test_newest_first(void **state)
{
	(void)state;
	assert_true(cleanup_push("a", note, "a") > 0);
	assert_true(cleanup_push("b", note, "b") > 0);
	assert_true(cleanup_push("c", note, "c") > 0);
	cleanup_run_all();
	assert_string_equal(ran, "cba");
	/* nothing is left to run twice */
	cleanup_run_all();
	assert_string_equal(ran, "cba");
}

static void test_pop_by_id(void **state)
{
	int a, b, c, d;
	(void)state;
	a = cleanup_push("a", note, "a");
	b = cleanup_push("b", note, "b");
	c = cleanup_push("c", note, "c");
	d = cleanup_push("d", note, "d");
	assert_true(a > 0 && b > 0 && c > 0 && d > 0);
	assert_true(a != b && b != c && c != d);
	cleanup_pop(b, true);             /* undone now, in the middle */
	assert_string_equal(ran, "b");
	cleanup_pop(c, false);            /* forgotten: never run */
	assert_string_equal(ran, "b");
	cleanup_pop(b, true);             /* twice is nothing */
	cleanup_pop(0, true);
	cleanup_pop(-1, true);
	assert_string_equal(ran, "b");
	cleanup_run_all();
	assert_string_equal(ran, "bda");
}

/* An id is never valid again once popped, even when its slot is reused. */
static void test_stale_id(void **state)
{
	int a, b;
	(void)state;
	a = cleanup_push("a", note, "a");
	cleanup_pop(a, false);
	b = cleanup_push("b", note, "b");   /* takes the slot a had */
	assert_true(b > 0);
	assert_true(b != a);
	cleanup_pop(a, true);
	assert_string_equal(ran, "");
	cleanup_run_all();
	assert_string_equal(ran, "b");
}

/* Children come and go by the thousand: popped slots must be reused, or the
 * registry fills up after CLEANUP_MAX pushes in a long run. */
static void test_slots_reused(void **state)
{
	int keep;
	(void)state;
	keep = cleanup_push("keep", note, "k");
	for (int i = 0; i < 140000; i++) {   /* CLEANUP_MAX is 131072 */
		int id = cleanup_push("child", nothing, NULL);

		if (id <= 0)
			fail_msg("push %d failed: popped slots are not reused", i);
		cleanup_pop(id, i % 2);
	}
	assert_true(keep > 0);
	cleanup_run_all();
	assert_string_equal(ran, "k");
}

/* A forked child forgets its parent's entries: its exit undoes nothing. */
static void test_forget_all(void **state)
{
	(void)state;
	cleanup_push("a", note, "a");
	cleanup_push("b", note, "b");
	cleanup_forget_all();
	cleanup_run_all();
	assert_string_equal(ran, "");
	cleanup_push("c", note, "c");
	cleanup_run_all();
	assert_string_equal(ran, "c");
}

/* A stop requested before the wait: no wait (a wait with no limit would
 * hang the test until its timeout fails it). */
static void test_poll_stop_before(void **state)
{
	int p[2];
	struct pollfd f;

	(void)state;
	signals_install();
	assert_int_equal(pipe(p), 0);
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	lb_interrupted = SIGINT;
	assert_int_equal(lb_poll(&f, 1, -1), 0);
	lb_interrupted = 0;
	close(p[0]);
	close(p[1]);
}

/* A SIGINT from another process during a wait with no limit on a pipe nobody
 * writes ends it, with the stop requested; one that lands before the wait
 * ends it too (the check inside lb_poll: 0). */
static void test_poll_signal_ends_wait(void **state)
{
	int p[2], r, e;
	struct pollfd f;
	pid_t kid;

	(void)state;
	signals_install();
	assert_int_equal(pipe(p), 0);
	f = (struct pollfd){ .fd = p[0], .events = POLLIN };
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		usleep(100 * 1000);
		kill(getppid(), SIGINT);
		_exit(0);
	}
	r = lb_poll(&f, 1, -1);
	e = errno;
	assert_int_equal(lb_interrupted, SIGINT);
	assert_true(r == 0 || (r < 0 && e == EINTR));
	assert_int_equal(waitpid(kid, NULL, 0), kid);
	lb_interrupted = 0;
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newest_first_and_pops),
		cmocka_unit_test(test_room_for_the_largest_run),
		cmocka_unit_test_setup(test_newest_first, reset),
		cmocka_unit_test_setup(test_pop_by_id, reset),
		cmocka_unit_test_setup(test_stale_id, reset),
		cmocka_unit_test_setup(test_slots_reused, reset),
		cmocka_unit_test_setup(test_forget_all, reset),
		cmocka_unit_test(test_poll_stop_before),
		cmocka_unit_test(test_poll_signal_ends_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
