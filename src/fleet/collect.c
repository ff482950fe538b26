// SPDX-License-Identifier: GPL-2.0-or-later
/* The collect job of a fleet: results checked, pooled, compared (task.h). */
#include "fleet/task.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "compare/labels.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/label_name.h"
#include "core/net_client.h"
#include "core/path.h"
#include "core/results.h"
#include "core/results_unpack.h"
#include "fleet/slurm.h"
#include "vm/merge.h"

/* What collect found for one task. */
struct found {
	char *dir;       /* collect's own copy of its label folder, or NULL */
	char *from;      /* that folder as found (messages, fleet_pooled_from) */
	char *node;      /* where it ran (from its label) */
	char *status;    /* run.json's status */
};

/* ---- reading what tasks wrote ---- */

/*
 * Copy src's run.json (with_run) and its results *.json into dst, by
 * descriptor: src is opened O_NOFOLLOW|O_DIRECTORY and each file with
 * openat(O_NOFOLLOW) as a regular file of at most RESULTS_FILE_MAX, so a
 * task folder on a shared path cannot lead the root collect job to a file
 * elsewhere. collect copies every task's folder once into its own state
 * (take_label) and reads only that copy afterwards: each file of a task
 * is read once, and cannot be swapped between its check and its use.
 */
static int copy_results(const char *src, const char *dst, bool with_run, struct strbuf *err)
{
	int fd = open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		strbuf_addf(err, "cannot read %s: %s", src,
			    errno == ELOOP || errno == ENOTDIR ? "not a folder (a link is not followed)"
							       : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (mkdir_p(dst, 0755)) {
		closedir(d);
		strbuf_addf(err, "cannot create %s", dst);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		size_t l = strlen(de->d_name), len;
		char *dp, *text;

		if (l < 6 || strcmp(de->d_name + l - 5, ".json") || de->d_name[0] == '.' ||
		    (!with_run && !strcmp(de->d_name, "run.json")))
			continue;
		text = read_regular_file_at(dirfd(d), de->d_name, RESULTS_FILE_MAX, READ_NOFOLLOW,
					    &len, err);
		if (!text) {
			ret = -1;
			break;
		}
		dp = xasprintf("%s/%s", dst, de->d_name);
		if (write_file_atomic(dp, text, len)) {
			strbuf_addf(err, "cannot copy %s/%s to %s", src, de->d_name, dp);
			ret = -1;
		}
		free(text);
		free(dp);
	}
	closedir(d);
	return ret;
}

/* ---- the tasks' labels ---- */

/* With only a store: each task's archive, fetched into <state>/fetched. */
static void fetch_archives(const struct fleet_plan *p, const char *state, struct strlist *archives)
{
	struct push_request req = { .retries = 1 };
	char *dir = xasprintf("%s/fetched", state);

	remove_tree(dir);
	for (size_t i = 0; i < p->ntasks; i++) {
		char *url = fleet_task_store_url(p, &p->tasks[i]);
		struct strbuf saved = STRBUF_INIT;

		if (!net_fetch_results(dir, &url, 1, &req, &saved)) {
			saved.buf[strcspn(saved.buf, "\n")] = '\0';
			strlist_push(archives, saved.buf);
		}
		strbuf_release(&saved);
		free(url);
	}
	free(dir);
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* Every label folder of the plan's tasks, into found[task id]. */
static int find_labels(const struct fleet_plan *p, const char *state, struct found *found)
{
	struct strlist dirs = STRLIST_INIT, archives = STRLIST_INIT, shown = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	char *taken;
	int ret = 0;

	if (p->results) {
		char *d = xasprintf("%s/%s", p->results, p->name);

		if (is_dir(d) && labels_find(&d, 1, &dirs, &archives, &err)) {
			warning("%s", err.buf);
			strbuf_reset(&err);
		}
		free(d);
	} else {
		fetch_archives(p, state, &archives);
	}
	for (size_t i = 0; i < dirs.n; i++)
		strlist_push(&shown, dirs.v[i]);
	if (archives.n && results_unpack(&archives, &dirs, &shown, &err)) {
		error("%s", err.buf);
		ret = -1;
	}
	taken = xasprintf("%s/taken", state);
	remove_tree(taken);
	for (size_t i = 0; i < dirs.n && !ret; i++) {
		struct label_result l;
		const struct fleet_task *t;
		char *node = NULL, *copy = xasprintf("%s/%zu", taken, i);

		strbuf_reset(&err);
		/* the task's files are read once, into our own copy: everything
		 * after this reads the copy */
		if (copy_results(dirs.v[i], copy, true, &err) ||
		    label_result_load(copy, &l, &err)) {
			warning("%s is not read: %s", shown.v[i], err.buf);
			free(copy);
			continue;
		}
		/* the label inside is someone else's text: the label rule before
		 * any part of it names anything (it becomes a pooled folder) */
		strbuf_reset(&err);
		if (label_name_check(l.label, &err)) {
			warning("%s: its run.json's label is refused: %s", shown.v[i], err.buf);
			label_result_release(&l);
			free(copy);
			continue;
		}
		t = fleet_task_of_label(p, l.label, &node);
		if (!t) {
			warning("%s: label '%s' is not one of the plan's tasks: left out", shown.v[i],
				l.label);
		} else if (found[t->id].dir) {
			warning("%s: task %zu has two labels (%s and %s): the second is left out",
				shown.v[i], t->id, found[t->id].from, shown.v[i]);
		} else {
			const char *st = jstr(l.run, "status");

			found[t->id].dir = copy;
			found[t->id].from = xstrdup(shown.v[i]);
			found[t->id].node = t->node ? xstrdup(t->node) : node;
			found[t->id].status = xstrdup(st ? st : "(none)");
			copy = NULL;
			if (!t->node)
				node = NULL;
		}
		free(copy);
		free(node);
		label_result_release(&l);
	}
	free(taken);
	strlist_release(&dirs);
	strlist_release(&archives);
	strlist_release(&shown);
	strbuf_release(&err);
	return ret;
}

/* ---- pooling the repetitions ---- */

struct pooled_meta {
	const char *label;
	json_object *from;
};

static void set_pooled(json_object *run, void *arg)
{
	struct pooled_meta *m = arg;

	json_object_object_add(run, "label", json_object_new_string(m->label));
	json_object_object_add(run, "fleet_pooled_from", json_object_get(m->from));
}

/* <state>/pooled/<kernel>-<node>: every complete repetition's samples. */
static int pool_one(const struct fleet_plan *p, size_t kernel, const char *node,
		    const struct found *found, const char *pooled, struct strlist *labels)
{
	struct strbuf err = STRBUF_INIT;
	struct pooled_meta m = { NULL, json_object_new_array() };
	char *label = xasprintf("%s-%s", p->kernels[kernel].name, node);
	char *dst = xasprintf("%s/%s", pooled, label), *tmp = xasprintf("%s/.staging", pooled);
	int n = 0, ret = 0;

	/* plan data (the kernel's name) and a node name that passed the label
	 * rule as part of a task's label: still checked, it names a folder */
	if (label_name_check(label, &err)) {
		error("cannot pool the repetitions of a kernel on node '%s': %s", node, err.buf);
		ret = -1;
	}
	for (size_t i = 0; i < p->ntasks && !ret; i++) {
		const struct fleet_task *t = &p->tasks[i];
		const struct found *f = &found[i];
		const char *base;

		if (t->kernel != kernel || !f->dir || strcmp(f->node, node) ||
		    strcmp(f->status, "complete"))
			continue;
		base = strrchr(f->from, '/');
		json_object_array_add(m.from, json_object_new_string(base ? base + 1 : f->from));
		if (!n++) {
			ret = copy_results(f->dir, dst, true, &err);
			continue;
		}
		remove_tree(tmp);
		ret = copy_results(f->dir, tmp, false, &err) ||
		      vm_merge_label(dst, tmp, (int)t->rep, &err);
		remove_tree(tmp);
	}
	m.label = label;
	if (!ret && n && vm_update_run_json(dst, set_pooled, &m, &err))
		ret = -1;
	if (ret)
		error("cannot pool the repetitions of %s: %s", label, err.buf);
	else if (n)
		strlist_push(labels, label);
	json_object_put(m.from);
	free(label);
	free(dst);
	free(tmp);
	strbuf_release(&err);
	return ret;
}

/* ---- compare (and report) of the pooled labels ---- */

static char *self_path(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return xstrdup("lrubench");
	self[n] = '\0';
	return xstrdup(self);
}

/* lrubench CMD ARGS... with its output in out_path; its exit code. */
static int run_self(const char *out_path, const char *const *args)
{
	struct strlist argv = STRLIST_INIT;
	struct child c = { .name = "lrubench", .out_path = out_path };
	char *self = self_path();
	int code;

	strlist_push(&argv, self);
	for (size_t i = 0; args[i]; i++)
		strlist_push(&argv, args[i]);
	c.argv = (const char *const *)argv.v;
	if (out_path)
		unlink(out_path);   /* child.c appends */
	else
		c.null_stdio = true;
	code = child_run(&c, 3600);
	strlist_release(&argv);
	free(self);
	return code;
}

static void print_file(const char *path)
{
	size_t len;
	char *text = read_file_str(path, &len);

	if (text) {
		fwrite(text, 1, len, stdout);
		fflush(stdout);
	}
	free(text);
}

static int compare_pooled(const char *state, const char *pooled, const struct strlist *labels)
{
	struct strbuf names = STRBUF_INIT;
	char *out = xasprintf("%s/compare.txt", state), *rep = xasprintf("%s/report.md", state);
	int code;

	for (size_t i = 0; i < labels->n; i++)
		strbuf_addf(&names, "%s%s", i ? "," : "", labels->v[i]);
	{
		const char *args[] = { "compare", "--names", names.buf, pooled, NULL };

		code = run_self(out, args);
	}
	printf("\n== lrubench compare --names %s %s\n", names.buf, pooled);
	print_file(out);
	if (code)
		error("compare of the pooled labels exited with %d (%s)", code, out);
	/* the cover-letter block too (its figures need gnuplot: without it, none) */
	if (!code) {
		char *gp = find_in_path("gnuplot");
		const char *args[] = { "report", "--names", names.buf, pooled,
				       gp ? NULL : "--no-figures", NULL };
		int rc = run_self(rep, args);

		free(gp);

		if (rc)
			warning("lrubench report exited with %d (%s)", rc, rep);
		else
			info("report: %s", rep);
	}
	strbuf_release(&names);
	free(out);
	free(rep);
	return code ? -1 : 0;
}

/* ---- the whole job ---- */

static void describe_task(const struct fleet_plan *p, const struct fleet_task *t,
			  const struct found *f, const struct slurm_states *st,
			  const struct strlist *jobs, struct strbuf *out, bool *ok)
{
	const struct slurm_task_state *s = t->group < jobs->n ?
		slurm_find_state(st, jobs->v[t->group], (long)t->index) : NULL;

	*ok = f->dir && !strcmp(f->status, "complete");
	strbuf_addf(out, "task %zu (kernel %s, repetition %u, node %s, job %s_%zu): ", t->id,
		    p->kernels[t->kernel].name, t->rep,
		    f->node ? f->node : t->node ? t->node : "(any)",
		    t->group < jobs->n ? jobs->v[t->group] : "?", t->index);
	if (*ok) {
		strbuf_addf(out, "complete, %s", f->from);
	} else {
		if (f->dir)
			strbuf_addf(out, "FAILED: run.json says status '%s' (%s)", f->status, f->from);
		else
			strbuf_addstr(out, "FAILED: no results");
		if (s)
			strbuf_addf(out, "; Slurm: %s%s%s%s%s", s->state,
				    *s->exit_code ? ", exit code " : "", s->exit_code,
				    *s->node ? " on " : "", s->node);
	}
	strbuf_addstr(out, "\n");
}

int fleet_collect(const struct fleet_plan *p, const struct strlist *jobs)
{
	struct found *found = xcalloc(p->ntasks, sizeof(*found));
	struct slurm_states st = { 0 };
	struct strbuf report = STRBUF_INIT;
	struct strlist nodes = STRLIST_INIT, labels = STRLIST_INIT;
	char *state = fleet_state_dir(p), *pooled = NULL, *rpath = NULL;
	size_t nok = 0;
	int ret = 0;

	/* Slurm opens its --output files here by name, as root */
	if (mkdir_private(state, 0755)) {
		ret = -1;
		goto out;
	}
	if (find_labels(p, state, found))
		ret = -1;
	if (jobs->n && slurm_query(jobs, &st))
		warning("the tasks' Slurm states are unknown; failed tasks are named without them");
	strbuf_addf(&report, "fleet %s (plan %s): %zu tasks\n", p->name, p->path, p->ntasks);
	for (size_t i = 0; i < p->ntasks; i++) {
		bool ok;

		describe_task(p, &p->tasks[i], &found[i], &st, jobs, &report, &ok);
		if (ok) {
			nok++;
			if (!strlist_has(&nodes, found[i].node))
				strlist_push(&nodes, found[i].node);
		}
	}
	strbuf_addf(&report, "%zu of %zu tasks complete, %zu failed\n", nok, p->ntasks,
		    p->ntasks - nok);
	/* pooled labels, node by node, baseline kernel first */
	pooled = xasprintf("%s/pooled", state);
	remove_tree(pooled);
	for (size_t n = 0; n < nodes.n && !ret; n++)
		for (size_t k = 0; k < p->nkernels && !ret; k++)
			ret = pool_one(p, k, nodes.v[n], found, pooled, &labels);
	if (!ret) {
		strbuf_addf(&report, "pooled labels (every repetition's samples) in %s:", pooled);
		for (size_t i = 0; i < labels.n; i++)
			strbuf_addf(&report, " %s", labels.v[i]);
		strbuf_addstr(&report, labels.n ? "\n" : " none\n");
	}
	rpath = xasprintf("%s/fleet-report.txt", state);
	fputs(report.buf, stdout);
	fflush(stdout);
	if (write_file_atomic(rpath, report.buf, report.len))
		ret = -1;
	if (nok < p->ntasks)
		error("%zu of %zu tasks of fleet %s have no complete results (%s)", p->ntasks - nok,
		      p->ntasks, p->name, rpath);
	if (!ret && labels.n >= 2)
		ret = compare_pooled(state, pooled, &labels);
	else if (!ret)
		error("fewer than two pooled labels: nothing to compare");
	if (!ret && (labels.n < 2 || nok < p->ntasks))
		ret = -1;
out:
	/* the tasks' copies (find_labels) served their purpose: pooled/ has the samples */
	if (state) {
		char *taken = xasprintf("%s/taken", state);

		remove_tree(taken);
		free(taken);
	}
	for (size_t i = 0; i < p->ntasks; i++) {
		free(found[i].dir);
		free(found[i].from);
		free(found[i].node);
		free(found[i].status);
	}
	free(found);
	slurm_states_release(&st);
	strbuf_release(&report);
	strlist_release(&nodes);
	strlist_release(&labels);
	free(state);
	free(pooled);
	free(rpath);
	return ret ? LB_EXIT_FAIL : LB_EXIT_OK;
}
