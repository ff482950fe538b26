// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vm/identity.c: the git tree that holds a kernel image and its `git
 * describe --dirty` (a real git repository made here; skipped without
 * git), the image's config, and what is added to a guest's run.json.
 */
#include "unit.h"
#include <json-c/json.h>
#include "core/child.h"
#include "core/path.h"
#include "vm/identity.h"

/* git -C dir args... with a fixed identity; 0 when it exited 0 */
static int git(const char *dir, const char *a, const char *b, const char *c)
{
	const char *argv[] = { "git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", dir, a, b, c, NULL };
	struct child ch = { .argv = argv, .null_stdio = true };

	return child_run(&ch, 60);
}

static void test_tree_of(void **state)
{
	char *img, *tree, *dir;

	(void)state;
	img = unit_put("tree/arch/x86/boot/bzImage", "not really a kernel");
	dir = xasprintf("%s/tree/.git", unit_tmp);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	free(dir);
	dir = xasprintf("%s/tree/arch/x86/boot", unit_tmp);
	tree = vm_git_tree_of(dir);
	assert_non_null(tree);
	assert_true(!strcmp(tree + strlen(tree) - 5, "/tree"));
	free(tree);
	free(dir);
	dir = xasprintf("%s/elsewhere", unit_tmp);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	/* /tmp and / hold no .git (the test machine's / is no git tree) */
	tree = vm_git_tree_of(dir);
	if (tree)
		assert_false(!strncmp(tree, unit_tmp, strlen(unit_tmp)));
	free(tree);
	free(dir);
	free(img);
}

static void test_describe_and_annotate(void **state)
{
	struct vm_identity id;
	char *git_path = find_in_path("git"), *repo, *img, *cfg;
	json_object *run, *k, *v;

	(void)state;
	if (!git_path) {
		print_message("skipped: git is not installed\n");
		return;
	}
	free(git_path);
	repo = xasprintf("%s/linux", unit_tmp);
	img = unit_put("linux/arch/x86/boot/bzImage", "image v1");
	cfg = unit_put("linux/.config", "CONFIG_MEMCG=y\n# CONFIG_LOCKDEP is not set\n");
	assert_int_equal(git(repo, "init", "-q", "."), 0);
	assert_int_equal(git(repo, "add", "arch", ".config"), 0);
	assert_int_equal(git(repo, "commit", "-qm", "v1"), 0);
	assert_int_equal(git(repo, "tag", "v6.99", "HEAD"), 0);
	vm_identity_collect(img, cfg, unit_tmp, &id);
	assert_non_null(id.git_tree);
	assert_string_equal(id.git_describe, "v6.99");
	/* the config is read by the helper program, which sits beside lrubench,
	 * not beside this test: integration tests check its sha256 */
	if (!json_object_object_get_ex(id.config, "sha256", NULL)) {
		assert_non_null(strstr(json_object_get_string(json_object_object_get(id.config, "unknown")),
				       "lrubench-net"));
		json_object_put(id.config);
		id.config = json_tokener_parse("{\"source\": \"x\", \"sha256\": \"00\", \"options\": "
					       "{\"CONFIG_LOCKDEP\": \"n\"}}");
		json_object_object_add(id.config, "source", json_object_new_string(cfg));
	}
	/* a guest that could not read its own config gets the image's */
	run = json_tokener_parse("{\"system\": {\"kernel\": {\"build_id\": \"ab\", \"config\": {\"unknown\": \"no "
				 "/proc/config.gz\"}}}}");
	vm_identity_annotate(&id, run);
	k = json_object_object_get(json_object_object_get(run, "system"), "kernel");
	assert_string_equal(json_object_get_string(json_object_object_get(k, "git_describe")), "v6.99");
	v = json_object_object_get(k, "config");
	assert_string_equal(json_object_get_string(json_object_object_get(v, "source")), cfg);
	assert_string_equal(json_object_get_string(json_object_object_get(json_object_object_get(v, "options"),
									  "CONFIG_LOCKDEP")), "n");
	json_object_put(run);
	vm_identity_release(&id);
	/* a change to a tracked file: -dirty */
	free(unit_put("linux/arch/x86/boot/bzImage", "image v2"));
	vm_identity_collect(img, NULL, unit_tmp, &id);
	assert_string_equal(id.git_describe, "v6.99-dirty");
	assert_true(json_object_object_get_ex(id.config, "unknown", NULL));
	vm_identity_release(&id);
	free(repo);
	free(img);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_of),
		cmocka_unit_test(test_describe_and_annotate),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
