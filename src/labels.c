// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The labels named on a `compare` or `plot` command line (results.h): each
 * DIR is a label folder (has run.json) or a folder of label folders.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

struct found {
	struct label_result *v;
	size_t n, cap;
};

static int load_one(const char *dir, struct found *f, struct strbuf *err)
{
	ALLOC_GROW(f->v, f->n + 1, f->cap);
	if (label_result_load(dir, &f->v[f->n], err))
		return -1;
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].label, f->v[f->n].label)) {
			strbuf_addf(err, "label '%s' is in both %s and %s", f->v[i].label,
				    f->v[i].dir, dir);
			label_result_release(&f->v[f->n]);
			return -1;
		}
	f->n++;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(const char *dir, struct found *f, struct strbuf *err)
{
	char **subs = NULL;
	size_t nsubs = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!path_exists(dir)) {
		strbuf_addf(err, "%s: no such folder", dir);
		return -1;
	}
	if (!is_dir(dir)) {
		strbuf_addf(err, "%s: not a folder (give a label folder or a folder of them)", dir);
		return -1;
	}
	if (is_label_dir(dir))
		return load_one(dir, f, err);
	d = opendir(dir);
	if (!d) {
		strbuf_addf(err, "cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (is_dir(p) && is_label_dir(p)) {
			ALLOC_GROW(subs, nsubs + 1, cap);
			subs[nsubs++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
	if (!nsubs) {
		strbuf_addf(err, "%s: no results (no run.json in it or in any folder inside it)", dir);
		return -1;
	}
	qsort(subs, nsubs, sizeof(*subs), cmp_name);
	for (size_t i = 0; i < nsubs && !ret; i++)
		ret = load_one(subs[i], f, err);
	for (size_t i = 0; i < nsubs; i++)
		free(subs[i]);
	free(subs);
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

/* insertion sort: stable, and label counts are small */
static void sort_by_started(struct label_result *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct label_result x = v[i];
		size_t j = i;

		while (j > 0 && strcmp(started_of(&v[j - 1]), started_of(&x)) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
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
	struct found f = { NULL, 0, 0 };

	*out = NULL;
	*nout = 0;
	if (!ndirs) {
		strbuf_addf(err, "no results folder given");
		return -1;
	}
	for (size_t i = 0; i < ndirs; i++)
		if (load_dir(dirs[i], &f, err))
			goto fail;
	if (names) {
		if (pick_names(&f, names, err))
			goto fail;
	} else {
		sort_by_started(f.v, f.n);
	}
	*out = f.v;
	*nout = f.n;
	return 0;
fail:
	labels_release(f.v, f.n);
	return -1;
}

void labels_release(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
	free(l);
}
