// SPDX-License-Identifier: GPL-2.0-or-later
/* remove_tree_sigsafe: removes a whole tree, never what a symlink points to. */
#include "unit.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/fs_sigsafe.h"
#include "core/util.h"

static void touch(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	free(p);
}

static void removes_tree_not_link_targets(void **state)
{
	char outside[] = "/tmp/lrubench-unit-out.XXXXXX", tree[] = "/tmp/lrubench-unit-tree.XXXXXX";
	char *p;
	(void)state;
	assert_non_null(mkdtemp(outside));
	assert_non_null(mkdtemp(tree));
	touch(outside, "keep");
	/* many entries, so getdents64 needs several passes */
	for (int d = 0; d < 3; d++) {
		p = xasprintf("%s/d%d/e/f", tree, d);
		assert_int_equal(mkdir_p(p, 0755), 0);
		for (int i = 0; i < 300; i++) {
			char name[32];
			snprintf(name, sizeof(name), "file-with-a-long-name-%04d", i);
			touch(p, name);
		}
		free(p);
	}
	p = xasprintf("%s/link", tree);
	assert_int_equal(symlink(outside, p), 0);
	free(p);
	assert_int_equal(remove_tree_sigsafe(tree), 0);
	assert_false(path_exists(tree));
	p = xasprintf("%s/keep", outside);
	assert_true(path_exists(p));
	free(p);
	assert_int_equal(remove_tree_sigsafe(tree), -1);   /* already gone: ENOENT */
	assert_int_equal(remove_tree(outside), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(removes_tree_not_link_targets) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
