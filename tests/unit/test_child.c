// SPDX-License-Identifier: GPL-2.0-or-later
/* child.c without root: exec failures as messages, exit codes, timeouts, output capture. */
#include "unit.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include "child.h"
#include "cleanup.h"
#include "util.h"

static char tmpdir[] = "/tmp/lrubench-unit-child.XXXXXX";

/* Capture stderr around fn-calls so error() messages can be checked. */
static int saved_err = -1;
static char errpath[256];

static void capture_start(void)
{
	int fd;

	snprintf(errpath, sizeof(errpath), "%s/stderr", tmpdir);
	fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	fflush(stderr);
	saved_err = dup(2);
	dup2(fd, 2);
	close(fd);
}

static char *capture_end(void)
{
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	return read_file_str(errpath, NULL);
}

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
	snprintf(path, sizeof(path), "%s/not-executable", tmpdir);
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

	snprintf(path, sizeof(path), "%s/missing/prog", tmpdir);
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
	double t0;

	(void)state;
	assert_int_equal(child_start(&c), 0);
	/* the child is its own process group leader */
	assert_int_equal(getpgid(c.pid), c.pid);
	assert_int_equal(child_wait(&c, 0.05, &code, NULL), 1);
	assert_true(c.running);
	t0 = now_monotonic();
	child_stop(&c, 5);
	assert_false(c.running);
	assert_true(now_monotonic() - t0 < 5);   /* SIGTERM worked, no SIGKILL wait */
	assert_int_equal(kill(c.pid, 0), -1);
	child_stop(&c, 5);   /* idempotent */
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

static void test_out_path_env_dir(void **state)
{
	char out[512], *text;
	const char *argv[] = { "sh", "-c", "echo out:$LB_TEST_VAR; echo err >&2; pwd", NULL };
	const char *env[] = { "LB_TEST_VAR=hello", NULL };
	struct child c = { .argv = argv, .out_path = out, .env_add = env, .dir = "/" };

	(void)state;
	snprintf(out, sizeof(out), "%s/out.log", tmpdir);
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

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_not_found),
		cmocka_unit_test(test_exec_failure_through_pipe),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_fn_child),
		cmocka_unit_test(test_timeout_and_stop),
		cmocka_unit_test(test_interrupted_wait),
		cmocka_unit_test(test_out_path_env_dir),
		cmocka_unit_test(test_cleanup_registry_kills),
		cmocka_unit_test(test_bad_cgroup_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
