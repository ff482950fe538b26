// SPDX-License-Identifier: GPL-2.0-or-later
/* Slurm's commands as children, and their output (slurm.h). */
#include "fleet/slurm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/path.h"

#define SLURM_OUT_MAX (4 * 1024 * 1024)
#define SLURM_TIMEOUT 120.0   /* a controller that does not answer */

/* The output file of one command: in a private temp folder. */
static char *temp_output(void)
{
	const char *t = getenv("TMPDIR");
	char *p = xasprintf("%s/lrubench-slurm-%d-XXXXXX", t && *t == '/' ? t : "/tmp", (int)getpid());
	int fd = mkostemp(p, O_CLOEXEC);

	if (fd < 0) {
		error_errno("cannot create a temp file for Slurm's output");
		free(p);
		return NULL;
	}
	close(fd);
	return p;
}

static void unlink_output(void *arg)
{
	unlink(arg);
}

int slurm_run(const char *prog, const struct strlist *args, struct strbuf *out)
{
	char *path = find_in_path(prog), *log;
	struct strlist argv = STRLIST_INIT;
	struct child c = { .name = prog };
	int code, id;

	if (!path) {
		error("Slurm's %s is not installed here (not found in PATH): run lrubench fleet on a "
		      "machine of the cluster (a login node), or install slurm-client", prog);
		return SLURM_NOT_INSTALLED;
	}
	log = temp_output();
	if (!log) {
		free(path);
		return SLURM_CANNOT_RUN;
	}
	id = cleanup_push("Slurm output file", unlink_output, log);
	strlist_push(&argv, path);
	for (size_t i = 0; i < args->n; i++)
		strlist_push(&argv, args->v[i]);
	c.argv = (const char *const *)argv.v;
	c.out_path = log;
	code = child_run(&c, SLURM_TIMEOUT);
	if (code >= 0) {
		size_t len = 0;
		char *text = read_file_str(log, &len);

		if (text)
			strbuf_add(out, text, len < SLURM_OUT_MAX ? len : SLURM_OUT_MAX);
		free(text);
	}
	cleanup_pop(id, true);
	free(log);
	free(path);
	strlist_release(&argv);
	return code;
}

void shell_quote(const char *s, struct strbuf *out)
{
	strbuf_addstr(out, "'");
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_add(out, s, 1);
	strbuf_addstr(out, "'");
}

void slurm_script(const char *comment, const struct strlist *argv, struct strbuf *out)
{
	strbuf_addstr(out, "#!/bin/sh\n# ");
	for (const char *c = comment; *c; c++)
		strbuf_add(out, *c == '\n' ? " " : c, 1);
	strbuf_addstr(out, "\nexec");
	for (size_t i = 0; i < argv->n; i++) {
		strbuf_addstr(out, " ");
		shell_quote(argv->v[i], out);
	}
	strbuf_addstr(out, "\n");
}

char *slurm_parse_jobid(const char *out)
{
	const char *line = out;

	/* the last line of digits (sbatch may warn before it) */
	char *found = NULL;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		size_t digits = strspn(line, "0123456789");

		if (digits && (digits == len || line[digits] == ';')) {
			free(found);
			found = xstrndup(line, digits);
		}
		line = end ? end + 1 : NULL;
	}
	return found;
}

static void add_state(struct slurm_states *st, const char *job, long index, const char *state,
		      const char *node, const char *exit_code)
{
	struct slurm_task_state *s;

	st->v = xrealloc(st->v, (st->n + 1) * sizeof(*st->v));
	s = &st->v[st->n++];
	s->job = xstrdup(job);
	s->index = index;
	/* "CANCELLED by 0" -> "CANCELLED" */
	s->state = xstrndup(state, strcspn(state, " "));
	s->node = xstrdup(node);
	s->exit_code = xstrdup(exit_code);
}

/* "5-9%2" or "1,3,7-8" of a pending array's "123_[...]" */
static void add_range(struct slurm_states *st, const char *job, const char *spec,
		      const char *state, const char *node, const char *exit_code)
{
	char *s = xstrndup(spec, strcspn(spec, "%]")), *save = NULL;

	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long a = strtol(tok, &end, 10), b = a;

		if (end == tok)
			continue;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long i = a; i <= b && i - a < 100000; i++)
			add_state(st, job, i, state, node, exit_code);
	}
	free(s);
}

void slurm_parse_states(const char *text, struct slurm_states *st)
{
	char *copy = xstrdup(text), *save = NULL;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { NULL, NULL, NULL, NULL }, *p = line, *us, *job;
		int nf = 0;

		while (nf < 4) {
			f[nf++] = p;
			p = strchr(p, '|');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (nf < 3 || !f[0][0] || strchr(f[0], '.'))
			continue;   /* not ours, or a step (123_4.batch) */
		job = f[0];
		if (strspn(job, "0123456789") == 0)
			continue;
		us = strchr(job, '_');
		if (!us) {
			if (job[strspn(job, "0123456789")])
				continue;
			add_state(st, job, -1, f[1], f[2], nf > 3 ? f[3] : "");
			continue;
		}
		*us = '\0';
		if (us[1] == '[')
			add_range(st, job, us + 2, f[1], f[2], nf > 3 ? f[3] : "");
		else if (us[1] && !us[1 + strspn(us + 1, "0123456789")])
			add_state(st, job, strtol(us + 1, NULL, 10), f[1], f[2], nf > 3 ? f[3] : "");
	}
	free(copy);
}

const struct slurm_task_state *slurm_find_state(const struct slurm_states *st, const char *job,
						long index)
{
	/* the last one wins: sacct's lines come after squeue's and know more */
	for (size_t i = st->n; i-- > 0;)
		if (!strcmp(st->v[i].job, job) && st->v[i].index == index)
			return &st->v[i];
	return NULL;
}

void slurm_states_release(struct slurm_states *st)
{
	for (size_t i = 0; i < st->n; i++) {
		free(st->v[i].job);
		free(st->v[i].state);
		free(st->v[i].node);
		free(st->v[i].exit_code);
	}
	free(st->v);
	memset(st, 0, sizeof(*st));
}

int slurm_query(const struct strlist *jobs, struct slurm_states *st)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf ids = STRBUF_INIT, out = STRBUF_INIT;
	int rq, ra;

	for (size_t i = 0; i < jobs->n; i++)
		strbuf_addf(&ids, "%s%s", i ? "," : "", jobs->v[i]);
	/* every task on its own line (-r), finished ones too while Slurm holds them */
	strlist_push(&a, "-h");
	strlist_push(&a, "-r");
	strlist_push(&a, "--states=all");
	strlist_push(&a, "-j");
	strlist_push(&a, ids.buf);
	strlist_push(&a, "-o");
	strlist_push(&a, "%i|%T|%N");
	rq = slurm_run("squeue", &a, &out);
	if (rq == SLURM_NOT_INSTALLED)
		goto out;
	if (rq == 0)
		slurm_parse_states(out.buf, st);
	strlist_release(&a);
	strbuf_reset(&out);
	/* sacct knows exit codes and jobs squeue forgot, where accounting is on */
	strlist_push(&a, "-n");
	strlist_push(&a, "-P");
	strlist_push(&a, "-X");
	strlist_push(&a, "-j");
	strlist_push(&a, ids.buf);
	strlist_push(&a, "-o");
	strlist_push(&a, "JobID,State,NodeList,ExitCode");
	ra = program_in_path("sacct") ? slurm_run("sacct", &a, &out) : SLURM_NOT_INSTALLED;
	if (ra == 0)
		slurm_parse_states(out.buf, st);
	if (rq && ra) {
		error("neither squeue nor sacct could tell the state of jobs %s: %s", ids.buf,
		      out.len ? out.buf : "(no output)");
		rq = SLURM_CANNOT_RUN;
	} else {
		rq = 0;
	}
out:
	strlist_release(&a);
	strbuf_release(&ids);
	strbuf_release(&out);
	return rq;
}
