// SPDX-License-Identifier: GPL-2.0-or-later
/* sparse_root.c without root: spec validation and the dir: variant (loop-*
 * needs root and mounts: tests/integration/coresys.sh covers it). */
#include "unit.h"
#include <sys/statfs.h>
#include <linux/magic.h>
#include <unistd.h>
#include "core/sparse_root.h"
#include "core/util.h"

static void test_check_spec(void **state)
{
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(sparse_root_check_spec("loop-ext4", &err), 0);
	assert_int_equal(sparse_root_check_spec("loop-xfs", &err), 0);
	assert_int_equal(sparse_root_check_spec("dir:/srv/data", &err), 0);
	assert_string_equal(strbuf_str(&err), "");
	assert_int_equal(sparse_root_check_spec("loop-btrfs", &err), -1);
	assert_string_equal(strbuf_str(&err), "sparse_root=loop-btrfs: expected loop-ext4, loop-xfs or dir:/path");
	strbuf_reset(&err);
	assert_int_equal(sparse_root_check_spec("dir:relative/path", &err), -1);
	assert_non_null(strstr(strbuf_str(&err), "absolute path"));
	strbuf_reset(&err);
	assert_int_equal(sparse_root_check_spec("dir:", &err), -1);
	strbuf_reset(&err);
	assert_int_equal(sparse_root_check_spec("", &err), -1);
	strbuf_reset(&err);
	assert_int_equal(sparse_root_check_spec(NULL, &err), -1);
	strbuf_release(&err);
}

static void test_dir_real_folder(void **state)
{
	char tmp[] = "/var/tmp/lrubench-unit-sparse.XXXXXX";
	struct sparse_root *sr = NULL;
	struct statfs sfs;
	const char *dir = NULL;

	(void)state;
	if (!mkdtemp(tmp))
		skip();
	if (statfs(tmp, &sfs) || sfs.f_type == TMPFS_MAGIC) {
		rmdir(tmp);
		skip();   /* /var/tmp is tmpfs on this machine */
	}
	{
		char *spec = xasprintf("dir:%s", tmp);
		assert_int_equal(sparse_root_setup(spec, "/nonexistent/workdir", 1 << 20, &sr, &dir), WL_OK);
		free(spec);
	}
	assert_non_null(sr);
	assert_string_equal(dir, tmp);
	sparse_root_teardown(sr);
	sparse_root_teardown(sr);   /* idempotent */
	sparse_root_teardown(NULL);
	assert_true(is_dir(tmp));   /* the user's folder is never removed */
	rmdir(tmp);
}

static void test_dir_refused(void **state)
{
	struct sparse_root *sr = (struct sparse_root *)1;
	struct statfs sfs;
	const char *dir = "x";

	(void)state;
	assert_int_equal(sparse_root_setup("dir:/nonexistent/lrubench-folder", "/tmp", 1 << 20, &sr, &dir), WL_FAILED);
	assert_null(sr);
	assert_null(dir);
	assert_int_equal(sparse_root_setup("loop-zfs", "/tmp", 1 << 20, &sr, &dir), WL_BAD_CONFIG);
	if (!statfs("/dev/shm", &sfs) && sfs.f_type == TMPFS_MAGIC)
		assert_int_equal(sparse_root_setup("dir:/dev/shm", "/tmp", 1 << 20, &sr, &dir), WL_FAILED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_spec),
		cmocka_unit_test(test_dir_real_folder),
		cmocka_unit_test(test_dir_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
