// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fleet plan (fleet/plan.c): the INI file a CI repository or a colleague
 * hands to a root `lrubench fleet submit`. The input is written to a file
 * in a private folder and loaded. Properties, when it loads: the printed
 * plan is inert text; every task's job script (fleet/slurm.c) is "#!/bin/sh",
 * comments and one exec line whose words, read back as sh single-quoted
 * words, are exactly the task's argv; no sbatch option the plan adds names
 * or abbreviates (sbatch takes any unique prefix) an option lrubench sets
 * itself or one that reads, writes or changes what the root job sees
 * (--output, --error, --input, --chdir, --export ...); every task label
 * follows the label rule and reads back as its task. When it does not
 * load: a message.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz/fuzz.h"
#include "core/escape.h"
#include "core/label_name.h"
#include "fleet/plan.h"
#include "fleet/slurm.h"

/* Options a plan must never reach, in full (fleet/plan.c allows a list). */
static const char *const forbidden[] = {
	"--array", "--dependency", "--wrap", "--output", "--error", "--input", "--chdir",
	"--export", "--export-file", "--open-mode", "--uid", "--gid", "--get-user-env",
	"--propagate", "--container", "--bb", "--bbf", "--job-name", "--parsable",
	"--partition", "--nodelist", "--constraint", "--time", "--exclusive", "--nodes",
	"--ntasks", "--test-only", "--hold", "--kill-on-invalid-dep", "--batch", NULL,
};

static void check_sbatch_arg(const char *a)
{
	const char *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);

	FUZZ_CHECK(!strncmp(a, "--", 2) && n > 2);
	for (size_t i = 0; forbidden[i]; i++)
		FUZZ_CHECK(strncmp(forbidden[i], a, n) || n > strlen(forbidden[i]));
	fuzz_check_inert(a, strlen(a), 0);
}

/* The words of sh single-quoted text ('a' 'it'\''s' ...), or -1. */
static int sh_words(const char *s, struct strlist *out)
{
	struct strbuf w = STRBUF_INIT;
	bool in_word = false;

	for (; *s; s++) {
		if (*s == ' ' && in_word) {
			strlist_push(out, w.buf ? w.buf : "");
			strbuf_reset(&w);
			in_word = false;
		} else if (*s == '\'') {
			const char *e = strchr(s + 1, '\'');

			if (!e)
				return strbuf_release(&w), -1;
			strbuf_add(&w, s + 1, (size_t)(e - s - 1));
			s = e;
			in_word = true;
		} else if (*s == '\\' && s[1] == '\'') {
			strbuf_addstr(&w, "'");
			s++;
			in_word = true;
		} else if (*s != ' ') {
			return strbuf_release(&w), -1;   /* an unquoted character */
		}
	}
	if (in_word)
		strlist_push(out, w.buf ? w.buf : "");
	strbuf_release(&w);
	return 0;
}

static void check_script(const struct fleet_plan *p, const struct fleet_task *t)
{
	struct strlist argv = STRLIST_INIT, words = STRLIST_INIT;
	struct strbuf script = STRBUF_INIT;
	char *label = fleet_task_label(p, t, t->node ? t->node : "node1"), *node = NULL;
	const struct fleet_task *back;
	const char *exec;

	FUZZ_CHECK(!label_name_check(label, &script));
	strbuf_reset(&script);
	back = fleet_task_of_label(p, label, &node);
	FUZZ_CHECK(back && back->id == t->id);
	FUZZ_CHECK(!strcmp(node, t->node ? t->node : "node1"));
	strlist_push(&argv, p->lrubench);
	strlist_push(&argv, "run");
	fleet_task_run_args(p, t, label, "/r/out", &argv);
	slurm_script("a job script\nof the fuzzer", &argv, &script);
	FUZZ_CHECK(!strncmp(script.buf, "#!/bin/sh\n", 10));
	exec = strstr(script.buf, "\nexec ");
	FUZZ_CHECK(exec);
	/* only comments between the first line and the exec line */
	for (const char *l = script.buf + 10; l < exec; l = strchr(l, '\n') + 1)
		FUZZ_CHECK(*l == '#');
	{
		char *line = xstrdup(exec + 6), *nl = strchr(line, '\n');

		FUZZ_CHECK(nl && nl[1] == '\0');
		*nl = '\0';
		FUZZ_CHECK(!sh_words(line, &words));
		FUZZ_CHECK(words.n == argv.n);
		for (size_t i = 0; i < argv.n; i++)
			FUZZ_CHECK(!strcmp(words.v[i], argv.v[i]));
		free(line);
	}
	free(node);
	free(label);
	strlist_release(&argv);
	strlist_release(&words);
	strbuf_release(&script);
}

static char *dir, *path;

/* the plan file and its folder go when the fuzzer or the corpus replay exits,
 * so a run of either leaves nothing in /tmp */
static void remove_plan_dir(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct fleet_plan p;
	FILE *f;

	if (!dir) {
		char tmpl[] = "/tmp/lrubench-fuzz-plan.XXXXXX";

		if (!mkdtemp(tmpl))
			abort();
		dir = xstrdup(tmpl);
		path = xasprintf("%s/plan.ini", dir);
		atexit(remove_plan_dir);
		lb_quiet = 1;   /* the plan's warnings, once per input */
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (!fleet_plan_load(path, &p, &err)) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		fleet_plan_print(&p, m);
		fclose(m);
		fuzz_check_inert(text, len, 1);
		free(text);
		for (size_t i = 0; i < p.sbatch_args.n; i++)
			check_sbatch_arg(p.sbatch_args.v[i]);
		for (size_t i = 0; i < p.ntasks && i < 64; i++)
			check_script(&p, &p.tasks[i]);
		fleet_plan_release(&p);
	} else {
		FUZZ_CHECK(err.len > 0);
	}
	strbuf_release(&err);
	return 0;
}
