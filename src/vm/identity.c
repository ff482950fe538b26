// SPDX-License-Identifier: GPL-2.0-or-later
/* What VM mode knows about a kernel image; see identity.h. */
#include "vm/identity.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/child.h"
#include "core/kernel_id.h"
#include "core/path.h"
#include "core/util.h"

/* an image sits in arch/x86/boot of its tree, or a level or two below it */
#define GIT_TREE_DEPTH 8
/* git describe takes milliseconds; a tree on a hung NFS must not hold the run */
#define GIT_TIMEOUT 60.0

char *vm_git_tree_of(const char *dir)
{
	char *p = xstrdup(dir);

	for (int depth = 0; depth < GIT_TREE_DEPTH; depth++) {
		char *dotgit = xasprintf("%s/.git", p), *slash;
		bool found = path_exists(dotgit);

		free(dotgit);
		if (found)
			return p;
		slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	free(p);
	return NULL;
}

static void git_describe(struct vm_identity *id, const char *tmpdir)
{
	char *git = find_in_path("git"), *out, *text, *safe;
	const char *argv[10];
	struct child c = { .name = "git describe" };
	int code, n = 0;

	if (!git) {
		id->git_why = xstrdup("git is not installed");
		return;
	}
	out = xasprintf("%s/git-describe.%d", tmpdir, (int)getpid());
	/* a tree owned by another user is "dubious" to git run as root: this
	 * one tree is trusted for this one command */
	safe = xasprintf("safe.directory=%s", id->git_tree);
	argv[n++] = git;
	argv[n++] = "-c";
	argv[n++] = safe;
	argv[n++] = "-C";
	argv[n++] = id->git_tree;
	argv[n++] = "describe";
	argv[n++] = "--always";
	argv[n++] = "--dirty";
	argv[n++] = "--tags";
	argv[n] = NULL;
	c.argv = argv;
	c.out_path = out;
	unlink(out);
	code = child_run(&c, GIT_TIMEOUT);
	text = read_file_str(out, NULL);
	if (code == 0 && text && *text) {
		text[strcspn(text, "\n")] = '\0';
		id->git_describe = xstrdup(text);
	} else {
		if (text)
			text[strcspn(text, "\n")] = '\0';
		id->git_why = xasprintf("git describe in %s failed%s%s", id->git_tree, text && *text ? ": " : "",
					text ? text : "");
	}
	unlink(out);
	free(text);
	free(out);
	free(safe);
	free(git);
}

void vm_identity_collect(const char *image, const char *config_path, const char *tmpdir,
			 struct vm_identity *id)
{
	struct strbuf why = STRBUF_INIT;
	char *copy = xstrdup(image);

	memset(id, 0, sizeof(*id));
	if (config_path)
		id->config = kconfig_read(config_path, &why);
	if (!id->config) {
		id->config = json_object_new_object();
		json_object_object_add(id->config, "unknown", json_object_new_string(
			config_path ? why.buf : "no config-<release> or .config beside the image"));
	}
	id->git_tree = vm_git_tree_of(dirname(copy));
	if (id->git_tree)
		git_describe(id, tmpdir);
	free(copy);
	strbuf_release(&why);
}

void vm_identity_annotate(const struct vm_identity *id, json_object *run)
{
	json_object *sys, *k, *cfg;

	if (!json_object_object_get_ex(run, "system", &sys) || !json_object_object_get_ex(sys, "kernel", &k) ||
	    !json_object_is_type(k, json_type_object))
		return;   /* a guest of an older lrubench: nothing to add to */
	if (id->git_tree) {
		json_object_object_add(k, "git_tree", json_object_new_string(id->git_tree));
		if (id->git_describe)
			json_object_object_add(k, "git_describe", json_object_new_string(id->git_describe));
		else
			json_object_object_add(k, "git_describe_unknown",
					       json_object_new_string(id->git_why ? id->git_why : "?"));
	}
	/* the guest's own config (/proc/config.gz) says it best; else the image's */
	if (json_object_object_get_ex(k, "config", &cfg) && json_object_object_get_ex(cfg, "unknown", NULL) &&
	    !json_object_object_get_ex(id->config, "unknown", NULL))
		json_object_object_add(k, "config", json_object_get(id->config));
	json_object_object_add(k, "image_config", json_object_get(id->config));
}

void vm_identity_release(struct vm_identity *id)
{
	json_object_put(id->config);
	free(id->git_tree);
	free(id->git_describe);
	free(id->git_why);
	memset(id, 0, sizeof(*id));
}
