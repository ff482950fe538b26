// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child_set.c with real children (no root, no cgroup): exec'ed children and
 * forked ones waited for together, each end time its own, codes and the
 * ended callback per child, the first failure in index order, a child that
 * cannot start (named; the started ones stopped), a stuck child named by the
 * report with the set stopped and the stopping callback called, the output
 * of an exec'ed child captured in its log, a poll that sees a child end
 * without waiting, and the watch of children that run until stopped: until
 * a time or the first end, a deadline or the workload's own measure of
 * stuck, a stop request.
 */
#include "unit.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/child_set.h"
#include "core/cleanup.h"

static int sleeper(void *arg)
{
	(void)arg;
	sleep(30);
	return 0;
}

static int code_of(void *arg)
{
	return *(int *)arg;
}

struct seen {
	int ended[8];
	int codes[8];
	int stopping;
};

static void on_ended(void *data, size_t i, int code)
{
	struct seen *s = data;

	s->ended[i]++;
	s->codes[i] = code;
}

static void on_stopping(void *data)
{
	((struct seen *)data)->stopping++;
}

static void what(void *data, size_t i, char *buf, size_t len)
{
	(void)data;
	snprintf(buf, len, "task %zu of the set", i + 1);
}

static void test_waits_for_all(void **state)
{
	static const char *const sh_quick[] = { "sh", "-c", "exit 0", NULL };
	static const char *const sh_slow[] = { "sh", "-c", "sleep 0.4; exit 4", NULL };
	int three = 3;
	struct child kids[3] = {
		{ .argv = sh_slow }, { .argv = sh_quick }, { .fn = code_of, .fn_arg = &three },
	};
	struct seen seen = { 0 };
	struct child_set set = { .n = 3, .kids = kids, .length = -1, .stuck_timeout = 10,
				 .data = &seen, .ended = on_ended };
	struct strbuf why = STRBUF_INIT;
	double t0 = now_monotonic();

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	assert_int_equal(set.started, 3);
	assert_int_equal(child_set_wait(&set, &why), WL_OK);
	for (int i = 0; i < 3; i++) {
		assert_true(set.done[i]);
		assert_int_equal(seen.ended[i], 1);
		assert_false(kids[i].running);
	}
	assert_int_equal(set.code[0], 4);
	assert_int_equal(set.code[1], 0);
	assert_int_equal(set.code[2], 3);
	assert_int_equal(seen.codes[0], 4);
	/* each end time its own: the quick ones did not wait for the slow one */
	assert_true(set.end[1] < set.end[0]);
	assert_true(set.end[0] - t0 >= 0.4);
	/* the first failure in index order */
	assert_int_equal(child_set_failed(&set), 0);
	assert_int_equal(seen.stopping, 0);
	assert_int_equal(why.len, 0);
	child_set_release(&set);
	strbuf_release(&why);
}

static void test_start_failure_stops_the_started(void **state)
{
	static const char *const missing[] = { "lrubench-no-such-program", NULL };
	struct child kids[2] = { { .fn = sleeper, .name = "sleeper" }, { .argv = missing } };
	struct seen seen = { 0 };
	struct child_set set = { .n = 2, .kids = kids, .length = -1, .data = &seen,
				 .stopping = on_stopping };

	(void)state;
	assert_int_equal(child_set_start(&set), WL_FAILED);
	assert_int_equal(seen.stopping, 1);
	assert_false(kids[0].running);   /* the sleeper was stopped */
	child_set_release(&set);
}

static void test_stuck_child_is_named_and_the_set_stopped(void **state)
{
	int zero = 0;
	struct child kids[2] = { { .fn = sleeper, .name = "sleeper" }, { .fn = code_of, .fn_arg = &zero } };
	struct seen seen = { 0 };
	/* no set length: stuck after 0.5 s without CPU time */
	struct child_set set = { .n = 2, .kids = kids, .length = -1, .stuck_timeout = 0.5,
				 .stop_grace = 1, .data = &seen, .what = what,
				 .ended = on_ended, .stopping = on_stopping };
	struct strbuf why = STRBUF_INIT;
	char pid[32];

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	snprintf(pid, sizeof(pid), "(pid %d) is stuck", (int)kids[0].pid);
	assert_int_equal(child_set_wait(&set, &why), WL_OP_FAILED);
	assert_non_null(strstr(why.buf, "task 1 of the set"));
	assert_non_null(strstr(why.buf, pid));
	assert_non_null(strstr(why.buf, "no CPU time used for 0.5 s"));
	assert_int_equal(seen.stopping, 1);
	assert_int_equal(seen.ended[1], 1);   /* the quick one ended on its own */
	assert_false(kids[0].running);
	assert_false(kids[1].running);
	child_set_release(&set);
	strbuf_release(&why);
}

static void test_output_is_captured(void **state)
{
	static const char *const echo[] = { "sh", "-c", "echo out-$0; echo err-$0 >&2", "x", NULL };
	char dir[] = "/tmp/lrubench-child-set.XXXXXX", log[64];
	struct child kids[1] = { { .argv = echo } };
	struct child_set set = { .n = 1, .kids = kids, .length = 5, .stuck_timeout = 10 };
	struct strbuf why = STRBUF_INIT;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(log, sizeof(log), "%s/log", dir);
	kids[0].out_path = log;
	assert_int_equal(child_set_start(&set), WL_OK);
	assert_int_equal(child_set_wait(&set, &why), WL_OK);
	assert_int_equal(child_set_failed(&set), -1);
	text = read_file_str(log, NULL);
	assert_non_null(text);
	assert_string_equal(text, "out-x\nerr-x\n");
	free(text);
	child_set_release(&set);
	unlink(log);
	rmdir(dir);
	strbuf_release(&why);
}

static void test_poll_sees_an_end(void **state)
{
	int nine = 9;
	struct child kids[2] = { { .fn = sleeper }, { .fn = code_of, .fn_arg = &nine } };
	struct child_set set = { .n = 2, .kids = kids, .length = -1 };
	double end = now_monotonic() + 10;
	size_t i = 99;
	int code = -1;

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	while (!child_set_poll(&set, &i, &code) && now_monotonic() < end)
		usleep(10 * 1000);
	assert_int_equal(i, 1);
	assert_int_equal(code, 9);
	assert_false(child_set_poll(&set, &i, &code));   /* the sleeper still runs */
	assert_true(kids[0].running);
	child_set_release(&set);   /* stops it */
	assert_false(kids[0].running);
}

/* Watched, not waited for: back at `until` with every child running, then
 * at the first end (the others run on), never before `until` otherwise. */
static void test_watch_until_or_an_end(void **state)
{
	static const char *const sh_ends[] = { "sh", "-c", "sleep 0.3; exit 5", NULL };
	struct child kids[2] = { { .fn = sleeper, .name = "sleeper" }, { .argv = sh_ends } };
	struct seen seen = { 0 };
	struct child_set set = { .n = 2, .kids = kids, .length = -1, .stuck_timeout = 30,
				 .stop_grace = 1, .data = &seen, .ended = on_ended,
				 .stopping = on_stopping };
	struct strbuf why = STRBUF_INIT;
	double until;
	long ended = 99;

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	until = now_monotonic() + 0.05;
	assert_int_equal(child_set_watch(&set, until, &ended, &why), WL_OK);
	assert_int_equal(ended, -1);
	assert_true(now_monotonic() >= until);
	assert_true(kids[0].running && kids[1].running);
	/* the shell ends long before this `until`: the watch is back with it */
	assert_int_equal(child_set_watch(&set, now_monotonic() + 60, &ended, &why), WL_OK);
	assert_int_equal(ended, 1);
	assert_true(set.done[1]);
	assert_int_equal(set.code[1], 5);
	assert_int_equal(seen.ended[1], 1);
	assert_int_equal(child_set_failed(&set), 1);
	assert_true(kids[0].running);   /* the others run on */
	assert_false(set.done[0]);
	/* an `until` already past: one look, and back */
	assert_int_equal(child_set_watch(&set, now_monotonic() - 1, &ended, &why), WL_OK);
	assert_int_equal(ended, -1);
	assert_true(kids[0].running);
	assert_int_equal(seen.stopping, 0);
	assert_int_equal(why.len, 0);
	child_set_release(&set);
	assert_false(kids[0].running);
	strbuf_release(&why);
}

/* A watched child past its deadline is stuck as in child_set_wait. */
static void test_watch_sees_a_stuck_child(void **state)
{
	struct child kids[1] = { { .fn = sleeper, .name = "sleeper" } };
	struct seen seen = { 0 };
	struct child_set set = { .n = 1, .kids = kids, .length = -1, .stuck_timeout = 0.5,
				 .stop_grace = 1, .data = &seen, .what = what, .stopping = on_stopping };
	struct strbuf why = STRBUF_INIT;
	long ended = 99;

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	assert_int_equal(child_set_watch(&set, now_monotonic() + 60, &ended, &why), WL_OP_FAILED);
	assert_non_null(strstr(why.buf, "task 1 of the set"));
	assert_non_null(strstr(why.buf, "no CPU time used for 0.5 s"));
	assert_int_equal(seen.stopping, 1);
	assert_false(kids[0].running);
	child_set_release(&set);
	strbuf_release(&why);
}

/* Stuck by the workload's own measure (its counter stopped): the report
 * names what the workload says and the child's pid, the set is stopped. */
static void test_stuck_by_the_workloads_measure(void **state)
{
	struct child kids[2] = { { .fn = sleeper }, { .fn = sleeper } };
	struct seen seen = { 0 };
	struct child_set set = { .n = 2, .kids = kids, .length = -1, .stuck_timeout = 30,
				 .stop_grace = 1, .data = &seen, .stopping = on_stopping };
	struct strbuf why = STRBUF_INIT;
	char pid[32];

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	snprintf(pid, sizeof(pid), "(pid %d) is stuck", (int)kids[1].pid);
	assert_int_equal(child_set_stuck(&set, 1, "counter 1 (still for 3 s)", &why), WL_OP_FAILED);
	assert_non_null(strstr(why.buf, "counter 1 (still for 3 s)"));
	assert_non_null(strstr(why.buf, pid));
	assert_int_equal(seen.stopping, 1);
	assert_false(kids[0].running);
	assert_false(kids[1].running);
	child_set_release(&set);
	strbuf_release(&why);
}

/* A stop request ends the watch (WL_INTERRUPTED), the set stopped. */
static void test_watch_interrupted(void **state)
{
	struct child kids[1] = { { .fn = sleeper } };
	struct seen seen = { 0 };
	struct child_set set = { .n = 1, .kids = kids, .length = -1, .stuck_timeout = 30,
				 .stop_grace = 1, .data = &seen, .stopping = on_stopping };
	struct strbuf why = STRBUF_INIT;
	long ended = 99;

	(void)state;
	assert_int_equal(child_set_start(&set), WL_OK);
	lb_interrupted = SIGINT;
	assert_int_equal(child_set_watch(&set, now_monotonic() + 60, &ended, &why), WL_INTERRUPTED);
	lb_interrupted = 0;
	assert_int_equal(seen.stopping, 1);
	assert_false(kids[0].running);
	child_set_release(&set);
	strbuf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits_for_all),
		cmocka_unit_test(test_start_failure_stops_the_started),
		cmocka_unit_test(test_stuck_child_is_named_and_the_set_stopped),
		cmocka_unit_test(test_output_is_captured),
		cmocka_unit_test(test_poll_sees_an_end),
		cmocka_unit_test(test_watch_until_or_an_end),
		cmocka_unit_test(test_watch_sees_a_stuck_child),
		cmocka_unit_test(test_stuck_by_the_workloads_measure),
		cmocka_unit_test(test_watch_interrupted),
	};
	signals_install();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
