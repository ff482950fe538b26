// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The labels named on a `compare` or `plot` command line (results.h): each
 * DIR is a label folder (has run.json) or a folder of label folders.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/results.h"

struct found {
	struct label_result *v;
	size_t n, cap;
};

/* the label folders found on the command line, before loading */
struct dirlist {
	char **v;
	size_t n, cap;
};

static void dirlist_add(struct dirlist *d, char *path)
{
	ALLOC_GROW(d->v, d->n + 1, d->cap);
	d->v[d->n++] = path;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int find_dirs(const char *dir, struct dirlist *out, struct strbuf *err)
{
	struct dirlist subs = { NULL, 0, 0 };
	struct dirent *de;
	DIR *d;

	if (!path_exists(dir)) {
		strbuf_addf(err, "%s: no such folder", dir);
		return -1;
	}
	if (!is_dir(dir)) {
		strbuf_addf(err, "%s: not a folder (give a label folder or a folder of them)", dir);
		return -1;
	}
	if (is_label_dir(dir)) {
		dirlist_add(out, xstrdup(dir));
		return 0;
	}
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
			dirlist_add(&subs, p);
			continue;
		}
		/* a results folder of someone else: say what is left out */
		if (is_dir(p))
			warning("%s: no run.json in it: not a label folder, skipped", p);
		free(p);
	}
	closedir(d);
	if (!subs.n) {
		strbuf_addf(err, "%s: no results (no run.json in it or in any folder inside it)", dir);
		return -1;
	}
	qsort(subs.v, subs.n, sizeof(*subs.v), cmp_name);
	for (size_t i = 0; i < subs.n; i++)
		dirlist_add(out, subs.v[i]);
	free(subs.v);
	return 0;
}

/*
 * Loading is most of the time of a large comparison (parsing JSON), and
 * labels are independent: load them on as many threads as there are CPUs.
 */
struct loader {
	const struct dirlist *dirs;
	struct label_result *labels;
	struct strbuf *errs;
	int *rets;
	size_t next;          /* atomic: the next label to load */
};

static void *load_worker(void *arg)
{
	struct loader *ld = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&ld->next, 1, __ATOMIC_RELAXED)) < ld->dirs->n) {
		if (lb_stop_requested()) {   /* the first Ctrl-C stops a long load */
			strbuf_addstr(&ld->errs[i], "interrupted");
			ld->rets[i] = -1;
			continue;
		}
		ld->rets[i] = label_result_load(ld->dirs->v[i], &ld->labels[i], &ld->errs[i]);
	}
	return NULL;
}

static int load_all(const struct dirlist *dirs, struct label_result *labels, struct strbuf *err)
{
	struct loader ld = { dirs, labels, xcalloc(dirs->n, sizeof(struct strbuf)),
			     xcalloc(dirs->n, sizeof(int)), 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nthreads = cpus > 1 ? (size_t)cpus : 1, started = 0;
	pthread_t *th;
	int ret = 0;

	if (nthreads > dirs->n)
		nthreads = dirs->n;
	if (nthreads > 16)
		nthreads = 16;
	th = xcalloc(nthreads, sizeof(*th));
	for (size_t i = 0; i < dirs->n; i++)
		strbuf_init(&ld.errs[i]);
	/* this thread works too; helpers are a bonus, so a failed create is fine */
	for (size_t i = 1; i < nthreads; i++)
		if (!pthread_create(&th[started], NULL, load_worker, &ld))
			started++;
	load_worker(&ld);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
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
	free(th);
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
	struct dirlist found = { NULL, 0, 0 };
	struct found f = { NULL, 0, 0 };
	int ret = -1;

	*out = NULL;
	*nout = 0;
	if (!ndirs) {
		strbuf_addf(err, "no results folder given");
		return -1;
	}
	for (size_t i = 0; i < ndirs; i++)
		if (find_dirs(dirs[i], &found, err))
			goto out;
	f.v = xcalloc(found.n, sizeof(*f.v));
	f.n = f.cap = found.n;
	if (load_all(&found, f.v, err))
		goto out;
	for (size_t i = 0; i < f.n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(f.v[i].label, f.v[j].label)) {
				strbuf_addf(err, "label '%s' is in both %s and %s", f.v[i].label,
					    f.v[j].dir, f.v[i].dir);
				goto out;
			}
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
	for (size_t i = 0; i < found.n; i++)
		free(found.v[i]);
	free(found.v);
	return ret;
}

void labels_release(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
	free(l);
}
