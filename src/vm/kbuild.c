// SPDX-License-Identifier: GPL-2.0-or-later
/* Building a kernel for a bisect step (see kbuild.h). */
#include "vm/kbuild.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/child.h"
#include "core/cleanup.h"

bool kbuild_config_has_modules(const char *text)
{
	bool modules = false, any_m = false;

	for (const char *l = text; l && *l; ) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (len == 16 && !strncmp(l, "CONFIG_MODULES=y", 16))
			modules = true;
		else if (len > 9 && !strncmp(l, "CONFIG_", 7) && !strncmp(l + len - 2, "=m", 2))
			any_m = true;
		l = nl ? nl + 1 : NULL;
	}
	return modules && any_m;
}

/* One command to its end, output to the log; a stop reaches it as SIGTERM. */
static enum kbuild_result step(struct kbuild *b, const char *what, const char *const *argv,
			       struct strbuf *err)
{
	struct child c = { .argv = argv, .name = what, .dir = b->tree, .out_path = b->log,
			   .env_add = b->env };
	int code = -1, w;

	if (child_start(&c)) {
		strbuf_addf(err, "%s could not start", what);
		return KBUILD_FAILED;
	}
	w = child_wait(&c, -1, &code, NULL);
	if (w == CHILD_STOP) {
		child_stop(&c, 10);
		return KBUILD_INTERRUPTED;
	}
	if (w < 0) {
		child_stop(&c, 0);
		code = -1;
	}
	if (code) {
		char how[64];

		child_describe_code(code, how, sizeof(how));
		strbuf_addf(err, "%s %s (log: %s)", what, how, b->log);
		return KBUILD_FAILED;
	}
	return KBUILD_OK;
}

/* make O=BUILD -jN TARGET [VAR=VALUE...] in the tree */
static enum kbuild_result make(struct kbuild *b, const char *target, const char *var1,
			       const char *var2, struct strbuf *err)
{
	char *o = xasprintf("O=%s", b->build_dir), *j = xasprintf("-j%u", b->jobs ? b->jobs : 1);
	char *what = xasprintf("make %s", target);
	const char *argv[] = { "make", o, j, target, var1, var2, NULL };
	enum kbuild_result r = step(b, what, argv, err);

	free(o);
	free(j);
	free(what);
	return r;
}

enum kbuild_result kbuild_run(struct kbuild *b, struct strbuf *err)
{
	double start = now_monotonic();
	enum kbuild_result r;
	char *dotconfig, *text;

	b->modules = false;
	if (b->cmd) {
		r = step(b, "the build command", (const char *const *)b->cmd->v, err);
		b->seconds = now_monotonic() - start;
		return r;
	}
	if (mkdir_p(b->build_dir, 0755)) {
		strbuf_addf(err, "cannot make the build folder %s", b->build_dir);
		return KBUILD_FAILED;
	}
	dotconfig = xasprintf("%s/.config", b->build_dir);
	if (b->config) {
		/* the same starting point for every commit */
		size_t len = 0;
		char *c = read_file_str(b->config, &len);

		if (!c || write_file_atomic(dotconfig, c, len)) {
			strbuf_addf(err, "cannot copy %s to %s", b->config, dotconfig);
			free(c);
			free(dotconfig);
			return KBUILD_FAILED;
		}
		free(c);
	}
	if ((r = make(b, "olddefconfig", NULL, NULL, err)) || (r = make(b, "bzImage", NULL, NULL, err)))
		goto out;
	text = read_file_str(dotconfig, NULL);
	if (kbuild_config_has_modules(text)) {
		char *mp = xasprintf("INSTALL_MOD_PATH=%s", b->modroot);

		r = make(b, "modules", NULL, NULL, err);
		if (!r)
			r = make(b, "modules_install", mp, "INSTALL_MOD_STRIP=1", err);
		b->modules = !r;
		free(mp);
	}
	free(text);
out:
	free(dotconfig);
	b->seconds = now_monotonic() - start;
	return r;
}
