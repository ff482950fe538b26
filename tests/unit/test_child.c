// SPDX-License-Identifier: GPL-2.0-or-later
/* child.c without root: exec failures as messages, exit codes, timeouts, output capture. */
#include "unit.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/util.h"


static void test_exec_not_found(void **state)
{
	const char *argv[] = { "lrubench-no-such-program-xyz", NULL };
	struct child c = { .argv = argv };
	char *msg;
	int r;

	(void)state;
	capture_start();
	r = child_start(&c);
	msg = capture_end();
	assert_int_equal(r, -1);
	assert_false(c.running);
	assert_non_null(strstr(msg, "cannot run 'lrubench-no-such-program-xyz': No such file or directory"));
	free(msg);
}

/* A path with '/' goes through execve in the child: the errno comes back through the pipe. */
static void test_exec_failure_through_pipe(void **state)
{
	char path[512], *msg;
	const char *argv[] = { path, NULL };
	struct child c = { .argv = argv };
	int fd, r;

	(void)state;
	snprintf(path, sizeof(path), "%s/not-executable", unit_tmp);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	close(fd);
	/* found by stat but not executable: EACCES from execve in the child */
	chmod(path, 0644);
	capture_start();
	r = child_start(&c);
	msg = capture_end();
	assert_int_equal(r, -1);
	assert_non_null(strstr(msg, "cannot run '"));
	assert_non_null(strstr(msg, "Permission denied"));
	free(msg);

	snprintf(path, sizeof(path), "%s/missing/prog", unit_tmp);
	capture_start();
	r = child_start(&c);
	msg = capture_end();
	assert_int_equal(r, -1);
	assert_non_null(strstr(msg, "No such file or directory"));
	free(msg);
}

static void test_exit_codes(void **state)
{
	const char *ok[] = { "true", NULL };
	const char *bad[] = { "sh", "-c", "exit 3", NULL };
	const char *sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	struct child c1 = { .argv = ok }, c2 = { .argv = bad }, c3 = { .argv = sig };
	char buf[64];

	(void)state;
	assert_int_equal(child_run(&c1, -1), 0);
	assert_int_equal(child_run(&c2, -1), 3);
	assert_int_equal(child_run(&c3, -1), 128 + SIGTERM);
	child_describe_code(128 + SIGKILL, buf, sizeof(buf));
	assert_string_equal(buf, "killed by signal 9 (Killed)");
	child_describe_code(3, buf, sizeof(buf));
	assert_string_equal(buf, "exited with 3");
}

static int fn_exit(void *arg)
{
	return *(int *)arg;
}

static void test_fn_child(void **state)
{
	int v = 42, code = -1;
	struct child c = { .fn = fn_exit, .fn_arg = &v };

	(void)state;
	assert_int_equal(child_start(&c), 0);
	assert_true(c.running);
	assert_true(c.cleanup_id > 0);
	assert_int_equal(child_wait(&c, 10, &code, NULL), 0);
	assert_int_equal(code, 42);
	assert_false(c.running);
	assert_int_equal(c.cleanup_id, 0);
}

static void test_timeout_and_stop(void **state)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child c = { .argv = argv };
	int code = -1;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* the child is its own process group leader */
	assert_int_equal(getpgid(c.pid), c.pid);
	assert_int_equal(child_wait(&c, 0.05, &code, NULL), 1);
	assert_true(c.running);
	child_stop(&c, 5);
	assert_false(c.running);
	assert_int_equal(c.cleanup_id, 0);
	assert_int_equal(kill(c.pid, 0), -1);
	child_stop(&c, 5);   /* idempotent */
}

/* Dead, or a zombie waiting for init to reap it. */
static bool pid_dead(pid_t pid)
{
	char path[64], *st, *p;
	bool dead;

	if (kill(pid, 0))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	st = read_file_str(path, NULL);
	p = st ? strrchr(st, ')') : NULL;
	dead = !st || (p && (p[2] == 'Z' || p[2] == 'X'));
	free(st);
	return dead;
}

/* A child that ignores SIGTERM is killed after the grace period, and the
 * whole process group goes with it. */
static void test_stop_kills_group_after_grace(void **state)
{
	char out[512], *text = NULL;
	const char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30 & echo $!; sleep 30 & echo $!; wait", NULL };
	struct child c = { .argv = argv, .out_path = out };
	pid_t p1 = 0, p2 = 0;

	(void)state;
	snprintf(out, sizeof(out), "%s/group.log", unit_tmp);
	assert_int_equal(child_start(&c), 0);
	for (int i = 0; i < 1000; i++) {   /* until both pids are printed */
		free(text);
		text = read_file_str(out, NULL);
		if (text && sscanf(text, "%d\n%d\n", &p1, &p2) == 2)
			break;
		lb_sleep(0.01);
	}
	free(text);
	assert_true(p1 > 0 && p2 > 0);
	assert_int_equal(getpgid(p1), c.pid);
	child_stop(&c, 0.2);
	assert_false(c.running);
	for (int i = 0; i < 500 && !(pid_dead(p1) && pid_dead(p2)); i++)
		lb_sleep(0.01);
	assert_true(pid_dead(p1));
	assert_true(pid_dead(p2));
}

/* The leader dies of SIGTERM at once, a descendant ignores it: the group is
 * SIGKILLed while the leader is still an unreaped zombie (its pid, the group
 * id, cannot have been reused), so the descendant goes too. */
static void test_stop_kills_group_when_leader_exits(void **state)
{
	char out[512], *text = NULL;
	const char *argv[] = { "sh", "-c", "(trap '' TERM; exec sleep 30) & echo $!; wait", NULL };
	struct child c = { .argv = argv, .out_path = out };
	pid_t p1 = 0;

	(void)state;
	snprintf(out, sizeof(out), "%s/leader.log", unit_tmp);
	assert_int_equal(child_start(&c), 0);
	for (int i = 0; i < 1000; i++) {   /* until the pid is printed */
		free(text);
		text = read_file_str(out, NULL);
		if (text && sscanf(text, "%d\n", &p1) == 1)
			break;
		lb_sleep(0.01);
	}
	free(text);
	assert_true(p1 > 0);
	assert_int_equal(getpgid(p1), c.pid);
	child_stop(&c, 5.0);
	assert_false(c.running);
	for (int i = 0; i < 500 && !pid_dead(p1); i++)
		lb_sleep(0.01);
	assert_true(pid_dead(p1));
}

static void test_interrupted_wait(void **state)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child c = { .argv = argv };
	int code = -1;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	lb_interrupted = SIGINT;
	assert_int_equal(child_wait(&c, -1, &code, NULL), -2);
	lb_interrupted = 0;
	assert_true(c.running);
	child_stop(&c, 0);
	assert_false(c.running);
}

/* A SIGINT that arrives while child_wait sleeps ends the wait (-2), long
 * before the child would exit on its own. */
static void test_sigint_during_wait(void **state)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child c = { .argv = argv };
	pid_t killer;
	int code = -1;

	(void)state;
	signals_install();
	assert_int_equal(child_start(&c), 0);
	killer = fork();
	if (killer == 0) {
		usleep(100 * 1000);
		kill(getppid(), SIGINT);
		_exit(0);
	}
	assert_int_equal(child_wait(&c, 60, &code, NULL), -2);
	assert_true(c.running);
	waitpid(killer, NULL, 0);
	lb_interrupted = 0;
	child_stop(&c, 0);
	assert_false(c.running);
}

static void test_out_path_env_dir(void **state)
{
	char out[512], *text;
	const char *argv[] = { "sh", "-c", "echo out:$LB_TEST_VAR; echo err >&2; pwd", NULL };
	const char *env[] = { "LB_TEST_VAR=hello", NULL };
	struct child c = { .argv = argv, .out_path = out, .env_add = env, .dir = "/" };

	(void)state;
	snprintf(out, sizeof(out), "%s/out.log", unit_tmp);
	assert_int_equal(child_run(&c, 10), 0);
	assert_int_equal(child_run(&c, 10), 0);   /* appends */
	text = read_file_str(out, NULL);
	assert_non_null(text);
	assert_string_equal(text, "out:hello\nerr\n/\nout:hello\nerr\n/\n");
	free(text);
}

static void test_cleanup_registry_kills(void **state)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child c = { .argv = argv };
	pid_t pid;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	pid = c.pid;
	cleanup_run_all();
	assert_false(c.running);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_bad_cgroup_file(void **state)
{
	const char *argv[] = { "true", NULL };
	struct child c = { .argv = argv, .cgroup_procs = "/nonexistent-lrubench/cgroup.procs" };
	char *msg;

	(void)state;
	capture_start();
	assert_int_equal(child_start(&c), -1);
	msg = capture_end();
	assert_non_null(strstr(msg, "cannot join cgroup /nonexistent-lrubench/cgroup.procs"));
	free(msg);
}

/*
 * A child stuck before exec does not hold its starter: here its "cgroup
 * file" is a FIFO nobody reads, so the child's open blocks for good. The
 * start gives up at its deadline, kills the child and says why.
 */
static void test_start_deadline(void **state)
{
	const char *argv[] = { "true", NULL };
	char *fifo = xasprintf("%s/stuck.procs", unit_tmp), *msg;
	struct child c = { .argv = argv, .start_timeout = 0.3, .name = "stuck-reader" };
	double t0;
	int status;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	c.cgroup_procs = fifo;
	capture_start();
	t0 = now_monotonic();
	assert_int_equal(child_start(&c), -1);
	msg = capture_end();
	/* it waited for the deadline, not for ever (nor returned at once) */
	assert_true(now_monotonic() - t0 >= 0.3);
	assert_non_null(strstr(msg, "cannot run 'stuck-reader': it did not start within 0.3 s"));
	/* reaped: nothing of it is left */
	assert_false(c.running);
	assert_int_equal(waitpid(c.pid, &status, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	free(msg);
	unlink(fifo);
	free(fifo);
}

static void unlink_marker(void *arg)
{
	unlink(arg);
}

static int fn_exit_via_exit(void *arg)
{
	(void)arg;
	exit(5);   /* runs atexit handlers in the child */
}

/* A fork-only child that calls exit() must not run the parent's undo actions. */
static void test_fn_exit_keeps_parent_cleanups(void **state)
{
	char marker[512];
	struct child c = { .fn = fn_exit_via_exit };
	int id, code = -1;

	(void)state;
	signals_install();   /* registers cleanup_run_all with atexit, as lrubench does */
	snprintf(marker, sizeof(marker), "%s/marker", unit_tmp);
	assert_int_equal(write_file_atomic(marker, "x", 1), 0);
	id = cleanup_push(marker, unlink_marker, marker);
	assert_true(id > 0);
	assert_int_equal(child_start(&c), 0);
	assert_int_equal(child_wait(&c, 10, &code, NULL), 0);
	assert_int_equal(code, 5);
	assert_true(path_exists(marker));
	cleanup_pop(id, false);
}

static void test_null_stdio(void **state)
{
	char out[512];
	const char *argv[] = { "sh", "-c", "echo shown; echo hidden >&2", NULL };
	struct child c = { .argv = argv, .out_path = out };

	(void)state;
	snprintf(out, sizeof(out), "%s/null.log", unit_tmp);
	c.null_stdio = true;
	assert_int_equal(child_run(&c, 10), 0);
	assert_false(path_exists(out));   /* null_stdio wins over out_path */
}

/* Root only: a child of root runs with the uid and gid it is given. */
static void test_set_ids(void **state)
{
	char out[512], *text;
	const char *argv[] = { "sh", "-c", "id -u; id -g; id -G; echo hidden >&2", NULL };
	struct child c = { .argv = argv, .out_path = out };

	(void)state;
	if (getuid() != 0)
		skip();   /* changing ids needs root: reported as skipped, not passed */
	snprintf(out, sizeof(out), "%s/ids.log", unit_tmp);
	c.set_ids = true;
	c.uid = 65534;
	c.gid = 65534;
	assert_int_equal(child_run(&c, 10), 0);
	text = read_file_str(out, NULL);
	assert_non_null(text);
	/* no supplementary group of root's is kept */
	assert_string_equal(text, "65534\n65534\n65534\nhidden\n");
	free(text);
}

/* The binding is in place when the program starts (set before exec). */
static void test_numa_bound_child(void **state)
{
	char out[512], want[32], *text;
	const char *argv[] = { "grep", "-m1", "-o", "bind:[0-9]*", "/proc/self/numa_maps", NULL };
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;
	struct child c = { .argv = argv, .out_path = out, .bind = &b };

	(void)state;
	if (numa_resolve("", "auto", &b, &err) || access("/proc/self/numa_maps", R_OK)) {
		strbuf_release(&err);
		skip();
	}
	snprintf(out, sizeof(out), "%s/numa.log", unit_tmp);
	assert_int_equal(child_run(&c, 10), 0);
	text = read_file_str(out, NULL);
	snprintf(want, sizeof(want), "bind:%d\n", b.node);
	assert_non_null(text);
	assert_string_equal(text, want);
	free(text);
	strbuf_release(&err);
}

static void noop(void *arg)
{
	(void)arg;
}

/* A child that cannot be tracked for cleanup is not left running. */
static void test_registry_full(void **state)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child c = { .argv = argv };
	int cap = cleanup_capacity(), *ids = calloc((size_t)cap + 1, sizeof(*ids)), n = 0, id;
	char *msg;

	(void)state;
	capture_start();
	while (n <= cap && (id = cleanup_push("filler", noop, NULL)) > 0)
		ids[n++] = id;
	assert_int_equal(n, cap);
	assert_int_equal(child_start(&c), -1);
	msg = capture_end();
	assert_non_null(strstr(msg, "cannot run 'sleep': the cleanup registry is full"));
	assert_false(c.running);
	assert_int_equal(kill(c.pid, 0), -1);
	while (n > 0)
		cleanup_pop(ids[--n], false);
	free(ids);
	free(msg);
}

/* child_failed on a real child's exit code and log: status, then the tail */
static void test_child_failed_message(void **state)
{
	char *log = xasprintf("%s/failing.log", unit_tmp);
	const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 30 ]; do i=$((i+1)); echo out$i; done; exit 3", NULL };
	struct child c = { .argv = argv, .out_path = log };
	char *msg, *want = xasprintf("lrubench: error: sh -c in /x exited with 3; last lines of %s:\n", log);
	int code;

	(void)state;
	unlink(log);
	code = child_run(&c, 10);
	assert_int_equal(code, 3);
	capture_start();
	assert_int_equal(child_failed(code, log, "sh -c in %s", "/x"), -1);
	assert_int_equal(child_failed(128 + SIGKILL, NULL, "make"), -1);
	msg = capture_end();
	assert_true(!strncmp(msg, want, strlen(want)));
	assert_non_null(strstr(msg, "\nout11\nout12\n"));   /* 30 - LOG_TAIL_LINES + 1 = 11 */
	assert_null(strstr(msg, "out10\n"));
	assert_non_null(strstr(msg, "out30\nlrubench: error: make killed by signal 9 (Killed)\n"));
	free(msg);
	free(want);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_not_found),
		cmocka_unit_test(test_exec_failure_through_pipe),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_fn_child),
		cmocka_unit_test(test_timeout_and_stop),
		cmocka_unit_test(test_stop_kills_group_after_grace),
		cmocka_unit_test(test_stop_kills_group_when_leader_exits),
		cmocka_unit_test(test_interrupted_wait),
		cmocka_unit_test(test_sigint_during_wait),
		cmocka_unit_test(test_out_path_env_dir),
		cmocka_unit_test(test_cleanup_registry_kills),
		cmocka_unit_test(test_bad_cgroup_file),
		cmocka_unit_test(test_start_deadline),
		cmocka_unit_test(test_fn_exit_keeps_parent_cleanups),
		cmocka_unit_test(test_null_stdio),
		cmocka_unit_test(test_set_ids),
		cmocka_unit_test(test_registry_full),
		cmocka_unit_test(test_numa_bound_child),
		cmocka_unit_test(test_child_failed_message),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
