// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The labels named on a `compare` or `plot` command line (labels.h): each
 * DIR is a label folder (has run.json), a results archive, or a folder of
 * label folders and results archives. Archives are unpacked by the helper
 * program into a private temp folder (core/results_unpack.h) and then read
 * as folders; a label from one is shown as ARCHIVE:LABEL.
 */
#include "compare/labels.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/cleanup.h"
#include "core/label_name.h"
#include "core/parallel.h"
#include "core/results_archive.h"
#include "core/results_unpack.h"
#include "core/strlist.h"

struct found {
	struct label_result *v;
	size_t n, cap;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The label folders and results archives that dir names, appended to
 * out and archives (each sorted by name). */
static int find_dirs(const char *dir, struct strlist *out, struct strlist *archives,
		     struct strbuf *err)
{
	struct strlist subs = STRLIST_INIT, arch = STRLIST_INIT;
	struct dirent *de;
	DIR *d;

	if (!path_exists(dir)) {
		strbuf_addf(err, "%s: no such folder or file", dir);
		return -1;
	}
	if (!is_dir(dir)) {
		/* a file: the helper tells whether it is a results archive */
		strlist_push(archives, dir);
		return 0;
	}
	if (is_label_dir(dir)) {
		strlist_push(out, dir);
		return 0;
	}
	d = opendir(dir);
	if (!d) {
		strbuf_addf(err, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct strbuf why = STRBUF_INIT;
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (is_dir(p) && is_label_dir(p)) {
			/* the folders `run` can write, no others (.git, .snapshots...) */
			if (!label_name_check(de->d_name, &why))
				strlist_push(&subs, p);
			else if (de->d_name[0] != '.')   /* hidden ones are meant to be */
				warning("%s is not read: %s", p, why.buf);
		} else if (de->d_name[0] != '.' && ra_is_archive_name(de->d_name) && !is_dir(p)) {
			strlist_push(&arch, p);
		} else if (de->d_name[0] != '.' && is_dir(p)) {
			/* a results folder of someone else: say what is left out */
			warning("%s: no run.json in it: not a label folder, skipped", p);
		}
		strbuf_release(&why);
		free(p);
	}
	closedir(d);
	if (!subs.n && !arch.n) {
		strbuf_addf(err, "%s: no results (no run.json in it, and no label folder or results "
			    "archive inside it)", dir);
		return -1;
	}
	if (subs.n)
		qsort(subs.v, subs.n, sizeof(*subs.v), cmp_name);
	if (arch.n)
		qsort(arch.v, arch.n, sizeof(*arch.v), cmp_name);
	for (size_t i = 0; i < subs.n; i++)
		strlist_push(out, subs.v[i]);
	for (size_t i = 0; i < arch.n; i++)
		strlist_push(archives, arch.v[i]);
	strlist_release(&subs);
	strlist_release(&arch);
	return 0;
}

int labels_find(char **dirs, size_t ndirs, struct strlist *label_dirs, struct strlist *archives,
		struct strbuf *err)
{
	for (size_t i = 0; i < ndirs; i++)
		if (find_dirs(dirs[i], label_dirs, archives, err))
			return -1;
	return 0;
}

/* s with the first "from" replaced by "to" (a temp path by ARCHIVE:LABEL). */
static void replace_first(struct strbuf *s, const char *from, const char *to)
{
	char *at = s->len ? strstr(s->buf, from) : NULL;
	struct strbuf r = STRBUF_INIT;

	if (!at)
		return;
	strbuf_add(&r, s->buf, (size_t)(at - s->buf));
	strbuf_addstr(&r, to);
	strbuf_addstr(&r, at + strlen(from));
	strbuf_release(s);
	*s = r;
}

/*
 * Loading is most of the time of a large comparison (parsing JSON), and
 * labels are independent: load them in parallel, each into its own slot.
 */
struct loader {
	const struct strlist *dirs, *shown;
	struct label_result *labels;
	struct strbuf *errs;
	int *rets;
};

static void load_one(void *arg, size_t i)
{
	struct loader *ld = arg;

	if (lb_stop_requested()) {   /* the first Ctrl-C stops a long load */
		strbuf_addstr(&ld->errs[i], "interrupted");
		ld->rets[i] = -1;
		return;
	}
	ld->rets[i] = label_result_load(ld->dirs->v[i], &ld->labels[i], &ld->errs[i]);
	if (strcmp(ld->shown->v[i], ld->dirs->v[i])) {
		/* from an archive: name it, not the temp folder */
		replace_first(&ld->errs[i], ld->dirs->v[i], ld->shown->v[i]);
		if (!ld->rets[i]) {
			free(ld->labels[i].dir);
			ld->labels[i].dir = xstrdup(ld->shown->v[i]);
		}
	}
}

static int load_all(const struct strlist *dirs, const struct strlist *shown,
		    struct label_result *labels, struct strbuf *err)
{
	struct loader ld = { dirs, shown, labels, xcalloc(dirs->n, sizeof(struct strbuf)),
			     xcalloc(dirs->n, sizeof(int)) };
	int ret = 0;

	for (size_t i = 0; i < dirs->n; i++)
		strbuf_init(&ld.errs[i]);
	parallel_for(dirs->n, load_one, &ld);
	/* report the first failure in command-line order, as a serial load would */
	for (size_t i = 0; i < dirs->n; i++) {
		if (ld.rets[i] && !ret) {
			strbuf_addstr(err, ld.errs[i].buf);
			ret = -1;
		}
		strbuf_release(&ld.errs[i]);
	}
	free(ld.errs);
	free(ld.rets);
	return ret;
}

static const char *started_of(const struct label_result *l)
{
	json_object *v;

	if (l->run && json_object_object_get_ex(l->run, "started", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "";
}

/* label i's place in a sort: its key, its index (the tie-break that makes
 * qsort stable) */
struct label_key {
	const char *key;
	size_t i;
};

static int key_cmp(const void *a, const void *b)
{
	const struct label_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Stable sort by "started" in O(n log n): a nightly history has thousands
 * of labels (bench/labels-scale). */
static void sort_by_started(struct label_result *v, size_t n)
{
	struct label_key *k = xcalloc(n ? n : 1, sizeof(*k));
	struct label_result *sorted = xcalloc(n ? n : 1, sizeof(*sorted));

	for (size_t i = 0; i < n; i++)
		k[i] = (struct label_key){ started_of(&v[i]), i };
	qsort(k, n, sizeof(*k), key_cmp);
	for (size_t i = 0; i < n; i++)
		sorted[i] = v[k[i].i];
	memcpy(v, sorted, n * sizeof(*v));
	free(sorted);
	free(k);
}

/* Two folders holding one label: found by sorting the names, O(n log n).
 * The message names the first pair in folder order, as before. */
static int check_unique_labels(const struct label_result *v, size_t n, struct strbuf *err)
{
	struct label_key *k = xcalloc(n ? n : 1, sizeof(*k));
	size_t first = n, second = n;

	for (size_t i = 0; i < n; i++)
		k[i] = (struct label_key){ v[i].label, i };
	qsort(k, n, sizeof(*k), key_cmp);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(k[i - 1].key, k[i].key) && (second == n || k[i].i < second)) {
			first = k[i - 1].i;
			second = k[i].i;
		}
	free(k);
	if (second == n)
		return 0;
	strbuf_addf(err, "label '%s' is in both %s and %s", v[second].label, v[first].dir,
		    v[second].dir);
	return -1;
}

static int pick_names(struct found *f, const char *names, struct strbuf *err)
{
	size_t nn = 0;
	char **want = split_commas(names, &nn);
	struct label_result *picked;
	bool *used;
	int ret = 0;

	if (!nn) {
		strbuf_addf(err, "--names: no label given");
		free_strv(want);
		return -1;
	}
	picked = xcalloc(nn, sizeof(*picked));
	used = xcalloc(f->n ? f->n : 1, sizeof(*used));
	for (size_t i = 0; i < nn && !ret; i++) {
		size_t j;

		for (j = 0; j < f->n; j++)
			if (!strcmp(f->v[j].label, want[i]))
				break;
		if (j == f->n) {
			strbuf_addf(err, "--names: no label '%s' in the results given (found:", want[i]);
			for (size_t k = 0; k < f->n; k++)
				strbuf_addf(err, " %s", f->v[k].label);
			strbuf_addstr(err, ")");
			ret = -1;
		} else if (used[j]) {
			strbuf_addf(err, "--names: label '%s' named twice", want[i]);
			ret = -1;
		} else {
			used[j] = true;
			picked[i] = f->v[j];
		}
	}
	if (!ret) {
		for (size_t j = 0; j < f->n; j++)
			if (!used[j])
				label_result_release(&f->v[j]);
		free(f->v);
		f->v = picked;
		f->n = f->cap = nn;
	} else {
		free(picked);
	}
	free(used);
	free_strv(want);
	return ret;
}

int labels_collect(char **dirs, size_t ndirs, const char *names,
		   struct label_result **out, size_t *nout, struct strbuf *err)
{
	struct strlist found = STRLIST_INIT, shown = STRLIST_INIT, archives = STRLIST_INIT;
	struct found f = { NULL, 0, 0 };
	int ret = -1;

	*out = NULL;
	*nout = 0;
	if (!ndirs) {
		strbuf_addf(err, "no results folder given");
		return -1;
	}
	if (labels_find(dirs, ndirs, &found, &archives, err))
		goto out;
	for (size_t i = 0; i < found.n; i++)
		strlist_push(&shown, found.v[i]);
	if (results_unpack(&archives, &found, &shown, err))
		goto out;
	f.v = xcalloc(found.n, sizeof(*f.v));
	f.n = f.cap = found.n;
	if (load_all(&found, &shown, f.v, err))
		goto out;
	if (check_unique_labels(f.v, f.n, err))
		goto out;
	if (names) {
		if (pick_names(&f, names, err))
			goto out;
	} else {
		sort_by_started(f.v, f.n);
	}
	*out = f.v;
	*nout = f.n;
	f.v = NULL;
	f.n = 0;
	ret = 0;
out:
	labels_release(f.v, f.n);
	strlist_release(&found);
	strlist_release(&shown);
	strlist_release(&archives);
	return ret;
}

void labels_release(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
	free(l);
}
