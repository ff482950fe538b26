// SPDX-License-Identifier: GPL-2.0-or-later
/* core/task_round without root (no cgroups): the tasks start together,
 * work until one deadline, are timed from the release and report through
 * shared memory; a task whose prepare
 * fails, one that dies and one that is stuck past its grace (or not ready
 * within it) each fail the round with a message naming it; with `why` set
 * (readtwice's readers), a killed or stuck task fails the op (-3, reason in
 * why) while a failed work is still an error naming its file; MB/s. */
#include <errno.h>
#include <signal.h>
#include "unit.h"
#include "core/task_round.h"

/* counts one "byte" per loop until the end: what a task does in the round */
static int count_work(void *arg, double end, struct round_slot *slot)
{
	(void)arg;
	while (now_monotonic() < end)
		slot->bytes++;
	return 0;
}

static int prepare_fails_for_1(void *arg)
{
	return *(int *)arg == 1 ? ENOENT : 0;
}

static int work_dies_for_2(void *arg, double end, struct round_slot *slot)
{
	if (*(int *)arg == 2)
		raise(SIGKILL);
	return count_work(arg, end, slot);
}

/* ignores its end: a task stuck in the kernel looks like this from outside */
static int work_stuck(void *arg, double end, struct round_slot *slot)
{
	(void)arg;
	(void)end;
	(void)slot;
	for (;;)
		pause();
	return 0;
}

static int work_fails_for_1(void *arg, double end, struct round_slot *slot)
{
	if (*(int *)arg == 1)
		return EIO;
	return count_work(arg, end, slot);
}

/* never says ready: a task stuck while it prepares */
static int prepare_stuck(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

static struct round_spec spec_of(struct round_task *t, int *ids, size_t n,
				 int (*prepare)(void *), int (*work)(void *, double, struct round_slot *))
{
	for (size_t i = 0; i < n; i++) {
		ids[i] = (int)i;
		t[i] = (struct round_task){ &ids[i], NULL };
	}
	return (struct round_spec){ n, t, prepare, work, NULL, 0.2, 5, "test task" };
}

static void tasks_time_themselves(void **state)
{
	struct round_task t[3];
	struct round_slot out[3];
	int ids[3];
	struct round_spec s = spec_of(t, ids, 3, NULL, count_work);

	(void)state;
	memset(out, 0, sizeof(out));
	assert_int_equal(round_run(&s, out), WL_OK);
	for (int i = 0; i < 3; i++) {
		assert_true(out[i].bytes > 0);
		/* each timed from the release to the deadline, release + runtime */
		assert_true(out[i].late >= 0);
		assert_true(out[i].elapsed >= 0.2);
		assert_int_equal(out[i].err, 0);
		assert_true(out[i].cpu >= 0);
	}
}

/* records the end it was given (ns), busy until then */
static int work_records_end(void *arg, double end, struct round_slot *slot)
{
	(void)arg;
	while (now_monotonic() < end)
		;
	slot->bytes = (uint64_t)(end * 1e9);
	return 0;
}

/* More tasks than CPUs, some of them first run late: every task still has
 * the one deadline, release + runtime, not its own start + runtime (a late
 * task would hold the round that much longer: task_round.h). */
static void tasks_share_one_deadline(void **state)
{
	enum { N = 8 };
	struct round_task t[N];
	struct round_slot out[N];
	int ids[N];
	struct round_spec s = spec_of(t, ids, N, NULL, work_records_end);
	struct round_times times = { 0 };
	double t0 = now_monotonic();

	(void)state;
	s.times = &times;
	memset(out, 0, sizeof(out));
	assert_int_equal(round_run(&s, out), WL_OK);
	for (int i = 0; i < N; i++) {
		assert_true(out[i].bytes == out[0].bytes);
		assert_true(out[i].late >= 0 && out[i].late <= times.late);
	}
	/* the deadline is runtime after a release that came after t0 */
	assert_true((double)out[0].bytes / 1e9 >= t0 + 0.2);
	assert_true(times.start >= 0 && times.reap >= 0);
	for (int i = 0; i < N; i++)
		assert_true(out[i].elapsed >= 0.2);   /* from the release, late or not */
}

/* A task that first runs at or past the deadline (runtime 0: every one of
 * them) does no work: nothing it did fell in the window. */
static void task_past_the_deadline_does_nothing(void **state)
{
	struct round_task t[3];
	struct round_slot out[3];
	int ids[3];
	struct round_spec s = spec_of(t, ids, 3, NULL, count_work);

	(void)state;
	s.runtime = 0;
	memset(out, 0xff, sizeof(out));
	assert_int_equal(round_run(&s, out), WL_OK);
	for (int i = 0; i < 3; i++) {
		assert_true(out[i].bytes == 0);
		assert_int_equal(out[i].err, 0);
		assert_true(out[i].elapsed >= 0 && out[i].late >= 0);
	}
}

/* Run the round, which must return want; what it printed on stderr. */
static char *round_message(const struct round_spec *s, struct round_slot *out, int want)
{
	capture_start();
	assert_int_equal(round_run(s, out), want);
	return capture_end();
}

static void failed_prepare_is_named(void **state)
{
	struct round_task t[3];
	struct round_slot out[3];
	int ids[3];
	struct round_spec s = spec_of(t, ids, 3, prepare_fails_for_1, count_work);
	char *msg;

	(void)state;
	msg = round_message(&s, out, WL_FAILED);
	if (!strstr(msg, "test task 1 (pid ") || !strstr(msg, "exited before it started: No such file"))
		fail_msg("message: %s", msg);
	free(msg);
}

static void dead_task_is_named(void **state)
{
	struct round_task t[3];
	struct round_slot out[3];
	int ids[3];
	struct round_spec s = spec_of(t, ids, 3, NULL, work_dies_for_2);
	char *msg;

	(void)state;
	msg = round_message(&s, out, WL_FAILED);
	if (!strstr(msg, "test task 2 (pid ") || !strstr(msg, "killed by signal 9"))
		fail_msg("message: %s", msg);
	free(msg);
}

static void stuck_task_fails_the_round(void **state)
{
	struct round_task t[1];
	struct round_slot out[1];
	int ids[1];
	struct round_spec s = spec_of(t, ids, 1, NULL, work_stuck);
	char *msg;

	(void)state;
	s.grace = 0.3;
	msg = round_message(&s, out, WL_FAILED);
	if (!strstr(msg, "test task 0 (pid ") || !strstr(msg, "did not end 0 s after its runtime (state S)"))
		fail_msg("message: %s", msg);
	free(msg);
}

static void stuck_before_ready_fails_the_round(void **state)
{
	struct round_task t[2];
	struct round_slot out[2];
	int ids[2];
	struct round_spec s = spec_of(t, ids, 2, prepare_stuck, count_work);
	char *msg;

	(void)state;
	s.grace = 0.3;
	msg = round_message(&s, out, WL_FAILED);
	if (!strstr(msg, "test task 0 (pid ") || !strstr(msg, "not ready 0 s after the tasks were started (state S)"))
		fail_msg("message: %s", msg);
	free(msg);
}

/* why set: a killed task fails the op (-3), named by its own name */
static void killed_task_fails_the_op(void **state)
{
	struct round_task t[3];
	struct round_slot out[3];
	int ids[3];
	struct round_spec s = spec_of(t, ids, 3, NULL, work_dies_for_2);
	struct strbuf why;
	char *msg;

	(void)state;
	strbuf_init(&why);
	s.why = &why;
	t[2].name = "reader 2 of memcg 1";
	msg = round_message(&s, out, WL_OP_FAILED);
	if (!strstr(why.buf, "reader 2 of memcg 1 (pid ") || !strstr(why.buf, "killed by signal 9") ||
	    !strstr(msg, why.buf))
		fail_msg("why: %s; message: %s", why.buf, msg);
	free(msg);
	strbuf_release(&why);
}

/* why set: a work that failed with an errno is still an error (-1), naming its file */
static void failed_work_is_an_error_with_why(void **state)
{
	struct round_task t[2];
	struct round_slot out[2];
	int ids[2];
	struct round_spec s = spec_of(t, ids, 2, NULL, work_fails_for_1);
	struct strbuf why;
	char *msg;

	(void)state;
	strbuf_init(&why);
	s.why = &why;
	t[1].file = "/some/file";
	msg = round_message(&s, out, WL_FAILED);
	if (!strstr(msg, "test task 1 (pid ") || !strstr(msg, "failed on /some/file: Input/output error") ||
	    why.len)
		fail_msg("why: %s; message: %s", why.buf, msg);
	free(msg);
	strbuf_release(&why);
}

/* why set: stuck before ready or after the runtime, the op fails with the report */
static void stuck_task_fails_the_op(void **state)
{
	struct round_task t[1];
	struct round_slot out[1];
	int ids[1];
	struct round_spec s = spec_of(t, ids, 1, NULL, work_stuck);
	struct strbuf why;
	char *msg;

	(void)state;
	strbuf_init(&why);
	s.why = &why;
	s.grace = 0.3;
	msg = round_message(&s, out, WL_OP_FAILED);
	if (!strstr(why.buf, "test task 0 (pid ") || !strstr(why.buf, "is stuck: not done 0.3 s past its deadline") ||
	    strstr(why.buf, "not ready"))
		fail_msg("why: %s; message: %s", why.buf, msg);
	free(msg);
	strbuf_reset(&why);
	s.prepare = prepare_stuck;
	msg = round_message(&s, out, WL_OP_FAILED);
	if (!strstr(why.buf, "test task 0 (not ready to start) (pid ") || !strstr(why.buf, "is stuck: "))
		fail_msg("why: %s; message: %s", why.buf, msg);
	free(msg);
	strbuf_release(&why);
}

static void mbps(void **state)
{
	(void)state;
	assert_true(round_mbps(1000000, 1.0) == 1.0);
	assert_true(round_mbps(3000000000ULL, 2.0) == 1500.0);
	assert_true(round_mbps(5, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tasks_time_themselves), cmocka_unit_test(tasks_share_one_deadline),
		cmocka_unit_test(task_past_the_deadline_does_nothing),
		cmocka_unit_test(failed_prepare_is_named),
		cmocka_unit_test(dead_task_is_named), cmocka_unit_test(stuck_task_fails_the_round),
		cmocka_unit_test(stuck_before_ready_fails_the_round), cmocka_unit_test(killed_task_fails_the_op),
		cmocka_unit_test(failed_work_is_an_error_with_why), cmocka_unit_test(stuck_task_fails_the_op),
		cmocka_unit_test(mbps),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
