// SPDX-License-Identifier: GPL-2.0-or-later
/* core/tmpdir: private temp folders, removed on every path; what a killed
 * process left is swept by the next of its kind, and nothing else is. */
#include "unit.h"
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "core/cleanup.h"
#include "core/tmpdir.h"

static char *sub(const char *rel)
{
	return xasprintf("%s/%s", unit_tmp, rel);
}

/* The pid of a process that has exited and been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

static void creates_private_named_folder(void **state)
{
	struct tmpdir t;
	struct stat st;
	char *want = xasprintf("%s/kind.%d-", unit_tmp, (int)getpid());
	char *f;

	(void)state;
	assert_int_equal(tmpdir_create(&t, unit_tmp, "kind.", NULL), 0);
	assert_int_equal(strncmp(t.path, want, strlen(want)), 0);
	assert_int_equal(strlen(t.path), strlen(want) + 6);   /* mkdtemp's XXXXXX */
	assert_int_equal(lstat(t.path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	f = xasprintf("%s/a/b/c", t.path);
	assert_int_equal(mkdir_p(f, 0755), 0);
	free(f);
	f = xstrdup(t.path);
	tmpdir_remove(&t);
	assert_false(path_exists(f));
	assert_string_equal(t.path, "");
	tmpdir_remove(&t);   /* idempotent */
	free(f);
	free(want);
}

/* The registry removes it (the atexit pass and a second signal run the same
 * entries), and a later tmpdir_remove is harmless. */
static void registry_removes_it(void **state)
{
	struct tmpdir t;
	char *f, *path;

	(void)state;
	assert_int_equal(tmpdir_create(&t, unit_tmp, "reg.", NULL), 0);
	path = xstrdup(t.path);
	f = xasprintf("%s/file", t.path);
	assert_int_equal(write_file_atomic(f, "x", 1), 0);
	cleanup_run_all();
	assert_false(path_exists(path));
	assert_string_equal(t.path, "");
	tmpdir_remove(&t);
	free(f);
	free(path);
}

static void sweeps_only_dead_pids_of_its_prefix(void **state)
{
	struct tmpdir t;
	pid_t dead = dead_pid();
	char name[128];
	char *stale, *alive, *other, *nopid, *link, *target, *file, *inside;

	(void)state;
	snprintf(name, sizeof(name), ".lrubench-fetch-%d-abcdef", (int)dead);
	stale = sub(name);
	inside = xasprintf("%s/half.tar.zst/x", stale);
	assert_int_equal(mkdir_p(inside, 0755), 0);
	snprintf(name, sizeof(name), ".lrubench-fetch-%d-ghijkl", (int)getppid());
	alive = sub(name);
	assert_int_equal(mkdir(alive, 0700), 0);
	snprintf(name, sizeof(name), ".lrubench-plot.%d-abcdef", (int)dead);
	other = sub(name);   /* another kind: not this sweep's */
	assert_int_equal(mkdir(other, 0700), 0);
	nopid = sub(".lrubench-fetch-abcdef");   /* no pid: not ours to judge */
	assert_int_equal(mkdir(nopid, 0700), 0);
	/* a link with a dead pid's name is not followed, nor removed */
	target = sub("target");
	assert_int_equal(mkdir(target, 0700), 0);
	file = xasprintf("%s/keep", target);
	assert_int_equal(write_file_atomic(file, "k", 1), 0);
	snprintf(name, sizeof(name), ".lrubench-fetch-%d-linkxx", (int)dead);
	link = sub(name);
	assert_int_equal(symlink(target, link), 0);

	assert_int_equal(tmpdir_create(&t, unit_tmp, ".lrubench-fetch-", NULL), 0);
	assert_false(path_exists(stale));
	assert_true(is_dir(alive));
	assert_true(is_dir(other));
	assert_true(is_dir(nopid));
	assert_true(path_exists(link));
	assert_true(path_exists(file));
	assert_true(is_dir(t.path));
	tmpdir_remove(&t);
	remove_tree(alive);
	remove_tree(other);
	remove_tree(nopid);
	unlink(link);
	remove_tree(target);
	free(stale);
	free(alive);
	free(other);
	free(nopid);
	free(link);
	free(target);
	free(file);
	free(inside);
}

static void errors_name_the_folder(void **state)
{
	struct tmpdir t;
	struct strbuf err = STRBUF_INIT;
	char *missing = sub("no/such/folder");
	char *msg;

	(void)state;
	assert_int_equal(tmpdir_create(&t, missing, "x.", &err), -1);
	assert_non_null(strstr(err.buf, "cannot create a temporary folder in "));
	assert_non_null(strstr(err.buf, "no/such/folder: No such file or directory"));
	assert_string_equal(t.path, "");
	tmpdir_remove(&t);   /* nothing to remove */
	/* without err the message is printed */
	capture_start();
	assert_int_equal(tmpdir_create(&t, missing, "x.", NULL), -1);
	msg = capture_end();
	assert_non_null(strstr(msg, "no/such/folder: No such file or directory"));
	free(msg);
	strbuf_release(&err);
	free(missing);
}

static void root_is_an_absolute_tmpdir(void **state)
{
	(void)state;
	setenv("TMPDIR", "relative/tmp", 1);
	assert_string_equal(tmpdir_root(), "/tmp");
	setenv("TMPDIR", "", 1);
	assert_string_equal(tmpdir_root(), "/tmp");
	setenv("TMPDIR", unit_tmp, 1);
	assert_string_equal(tmpdir_root(), unit_tmp);
	unsetenv("TMPDIR");
	assert_string_equal(tmpdir_root(), "/tmp");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(creates_private_named_folder),
		cmocka_unit_test(registry_removes_it),
		cmocka_unit_test(sweeps_only_dead_pids_of_its_prefix),
		cmocka_unit_test(errors_name_the_folder),
		cmocka_unit_test(root_is_an_absolute_tmpdir),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
