// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child_watch.c with real children: a child past its deadline, a child
 * that uses no CPU (stuck) and one that spins (not stuck), a stopped child
 * (SIGSTOP, a stand-in for a process in D state) named in the report with
 * its state, and one that ends in time.
 */
#include "unit.h"
#include <signal.h>
#include "core/child_watch.h"
#include "core/cleanup.h"

static int sleeper(void *arg)
{
	(void)arg;
	sleep(30);
	return 0;
}

static int spinner(void *arg)
{
	double end = now_monotonic() + *(double *)arg;

	while (now_monotonic() < end)
		;
	return 7;
}

static int quick(void *arg)
{
	(void)arg;
	return 3;
}

static void test_deadline(void **state)
{
	struct child c = { .fn = sleeper, .name = "sleeper" };
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	int code = -1;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* 0.2 s of work, stuck 0.3 s later */
	child_watch_start(&w, 0.2, 0.3);
	assert_false(child_watch_stuck(&w, &c));
	assert_int_equal(child_wait_watched(&c, &w, 0.1, &code, NULL, &why), WATCH_STUCK);
	assert_true(now_monotonic() >= w.deadline);
	assert_true(c.running);   /* the caller stops it */
	assert_non_null(strstr(why.buf, "sleeper (pid "));
	assert_non_null(strstr(why.buf, "not done 0.3 s past its deadline"));
	/* the sleeping process itself is named, with its state */
	assert_non_null(strstr(why.buf, "sleeping (S)"));
	child_stop(&c, 0);
	strbuf_release(&why);
}

static void test_ends_in_time(void **state)
{
	struct child c = { .fn = quick };
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	int code = -1;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	child_watch_start(&w, 5, 5);
	assert_int_equal(child_wait_watched(&c, &w, 0.1, &code, NULL, &why), WATCH_REAPED);
	assert_int_equal(code, 3);
	assert_int_equal(why.len, 0);
	strbuf_release(&why);
}

static void test_no_cpu_is_stuck(void **state)
{
	struct child c = { .fn = sleeper, .name = "idle" };
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	int code;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* no set length: stuck after 1 s without CPU time */
	child_watch_start(&w, -1, 1);
	assert_int_equal(child_wait_watched(&c, &w, 0.2, &code, NULL, &why), WATCH_STUCK);
	assert_non_null(strstr(why.buf, "no CPU time used for 1 s"));
	child_stop(&c, 0);
	strbuf_release(&why);
}

static void test_spinning_is_not_stuck(void **state)
{
	double secs = 4;
	struct child c = { .fn = spinner, .fn_arg = &secs, .name = "spinner" };
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	int code = -1;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* it uses CPU all along, for longer than the 2 s it may go without */
	child_watch_start(&w, -1, 2);
	assert_int_equal(child_wait_watched(&c, &w, 0.2, &code, NULL, &why), WATCH_REAPED);
	assert_int_equal(code, 7);
	strbuf_release(&why);
}

static void test_stopped_child_report(void **state)
{
	struct child c = { .fn = sleeper, .name = "reader" };
	struct child_watch w;
	struct strbuf why = STRBUF_INIT;
	char pid[32];
	int code;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* SIGSTOP stands in for a process the kernel holds in D state */
	assert_int_equal(kill(c.pid, SIGSTOP), 0);
	child_watch_start(&w, 0, 0.5);
	assert_int_equal(child_wait_watched(&c, &w, 0.1, &code, NULL, &why), WATCH_STUCK);
	snprintf(pid, sizeof(pid), "pid %d ", (int)c.pid);
	assert_non_null(strstr(why.buf, pid));
	assert_non_null(strstr(why.buf, "stopped (T)"));
	/* as root the kernel stack is there: a stopped task sits in do_signal_stop */
	if (geteuid() == 0 && !strstr(why.buf, "kernel stack: not readable"))
		assert_non_null(strstr(why.buf, "do_signal_stop"));
	child_stop(&c, 0);   /* SIGKILL ends a stopped process too */
	assert_false(c.running);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_ends_in_time),
		cmocka_unit_test(test_no_cpu_is_stuck),
		cmocka_unit_test(test_spinning_is_not_stuck),
		cmocka_unit_test(test_stopped_child_report),
	};
	signals_install();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
