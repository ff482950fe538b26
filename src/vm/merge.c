// SPDX-License-Identifier: GPL-2.0-or-later
/* Pooling the samples of several VM rounds into one label (see vm_merge.h). */
#include "vm/merge.h"
#include "core/results.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_object *find_by(json_object *arr, const char *key, const char *val)
{
	size_t n = arr ? json_object_array_length(arr) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *k;
		if (json_object_object_get_ex(o, key, &k) && !strcmp(json_object_get_string(k), val))
			return o;
	}
	return NULL;
}

static json_object *get_array(json_object *o, const char *key, bool create)
{
	json_object *a;

	if (json_object_object_get_ex(o, key, &a) && json_object_is_type(a, json_type_array))
		return a;
	if (!create)
		return NULL;
	a = json_object_new_array();
	json_object_object_add(o, key, a);
	return a;
}

/* A later round's logs move to logs/round-N/ (vm_merge_label): the paths its
 * profile passes recorded ("folded", "perf_cpu_output", ...) move with them,
 * so plot reads that round's stacks, not the first round's. */
static void relocate_profile_logs(json_object *detail, int round)
{
	json_object *p;

	if (!json_object_object_get_ex(detail, "profile", &p) || !json_object_is_type(p, json_type_object))
		return;
	json_object_object_foreach(p, k, v) {
		const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;

		if (s && !strncmp(s, "logs/", 5) && strncmp(s, "logs/round-", 11)) {
			char *moved = xasprintf("logs/round-%d/%s", round, s + 5);

			json_object_object_add(p, k, json_object_new_string(moved));
			free(moved);
		}
	}
}

int vm_merge_samples(json_object *dst, json_object *src, int round, struct strbuf *err)
{
	json_object *stables = get_array(src, "tables", false);
	json_object *dtables = get_array(dst, "tables", true);
	json_object *sdetails = get_array(src, "details", false);
	size_t nt = stables ? json_object_array_length(stables) : 0;

	if (!stables) {
		strbuf_addstr(err, "no \"tables\" array");
		return -1;
	}
	for (size_t t = 0; t < nt; t++) {
		json_object *st = json_object_array_get_idx(stables, t), *title, *dt, *sops, *dops;
		size_t no;

		if (!json_object_object_get_ex(st, "title", &title)) {
			strbuf_addf(err, "tables[%zu] has no title", t);
			return -1;
		}
		dt = find_by(dtables, "title", json_object_get_string(title));
		if (!dt) {
			json_object_array_add(dtables, json_object_get(st));
			continue;
		}
		sops = get_array(st, "ops", false);
		dops = get_array(dt, "ops", true);
		no = sops ? json_object_array_length(sops) : 0;
		for (size_t o = 0; o < no; o++) {
			json_object *so = json_object_array_get_idx(sops, o), *opname, *dop, *ss, *ds;
			if (!json_object_object_get_ex(so, "op", &opname)) {
				strbuf_addf(err, "tables[%zu].ops[%zu] has no op", t, o);
				return -1;
			}
			dop = find_by(dops, "op", json_object_get_string(opname));
			if (!dop) {
				json_object_array_add(dops, json_object_get(so));
				continue;
			}
			ss = get_array(so, "samples", false);
			ds = get_array(dop, "samples", true);
			for (size_t i = 0; ss && i < json_object_array_length(ss); i++)
				json_object_array_add(ds, json_object_get(json_object_array_get_idx(ss, i)));
		}
	}
	if (sdetails) {
		json_object *dd = get_array(dst, "details", true);
		for (size_t i = 0; i < json_object_array_length(sdetails); i++) {
			json_object *d = json_object_array_get_idx(sdetails, i);
			if (json_object_is_type(d, json_type_object)) {
				json_object *c = NULL;
				json_object_deep_copy(d, &c, NULL);
				json_object_object_add(c, "vm_round", json_object_new_int(round));
				relocate_profile_logs(c, round);
				json_object_array_add(dd, c);
			}
		}
	}
	/* the resume bookkeeping of one round means nothing for the pool */
	json_object_object_del(dst, "progress");
	return 0;
}

static int save(const char *path, json_object *o, struct strbuf *err)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (write_file_atomic(path, s, strlen(s))) {
		strbuf_addf(err, "cannot write %s", path);
		return -1;
	}
	return 0;
}

static json_object *load(const char *path, struct strbuf *err)
{
	/* the guest wrote these files: the same checks as any results file */
	return json_load_file(path, err);
}

/* "<step>.<N>.series": the length of <step> and N; false for any other name. */
static bool series_name(const char *name, size_t *step_len, unsigned long *n)
{
	size_t l = strlen(name);
	const char *dot, *end = name + l - 7;
	char *stop;

	if (l < 10 || strcmp(end, ".series"))
		return false;
	for (dot = end - 1; dot > name && *dot != '.'; dot--)
		;
	if (dot <= name || dot + 1 == end)
		return false;
	*n = strtoul(dot + 1, &stop, 10);
	*step_len = (size_t)(dot - name);
	return stop == end;
}

/* How many series of step (step_len bytes of name) dir holds. */
static unsigned long series_count(const char *dir, const char *name, size_t step_len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned long k = 0, n;
	size_t sl;

	while (d && (de = readdir(d)))
		if (series_name(de->d_name, &sl, &n) && sl == step_len && !strncmp(de->d_name, name, sl))
			k++;
	if (d)
		closedir(d);
	return k;
}

/*
 * A later round's monitor series (core/series.h): its samples are appended
 * after the label's, so its iteration N of a step is the label's iteration
 * (series of that step so far) + N. Renamed into place; every name is
 * worked out before the first one moves.
 */
static int merge_series(const char *dst_dir, const char *src_dir, struct strbuf *err)
{
	char *ss = xasprintf("%s/series", src_dir);
	DIR *d = opendir(ss);
	struct dirent *de;
	int ret = 0;

	while (!ret && d && (de = readdir(d))) {
		char *sw, *dw, **from = NULL, **to = NULL;
		size_t n = 0, sl;
		unsigned long it;
		DIR *w;
		struct dirent *e;

		if (de->d_name[0] == '.')
			continue;
		sw = xasprintf("%s/%s", ss, de->d_name);
		dw = xasprintf("%s/series/%s", dst_dir, de->d_name);
		w = is_dir(sw) ? opendir(sw) : NULL;
		if (w && mkdir_p(dw, 0755)) {
			strbuf_addf(err, "cannot make %s: %s", dw, strerror(errno));
			ret = -1;
		}
		while (!ret && w && (e = readdir(w))) {
			if (!series_name(e->d_name, &sl, &it))
				continue;
			from = xrealloc(from, (n + 1) * sizeof(*from));
			to = xrealloc(to, (n + 1) * sizeof(*to));
			from[n] = xasprintf("%s/%s", sw, e->d_name);
			to[n] = xasprintf("%s/%.*s.%lu.series", dw, (int)sl, e->d_name,
					  series_count(dw, e->d_name, sl) + it);
			n++;
		}
		for (size_t i = 0; i < n; i++) {
			if (!ret && rename(from[i], to[i])) {
				strbuf_addf(err, "cannot move %s to %s: %s", from[i], to[i], strerror(errno));
				ret = -1;
			}
			free(from[i]);
			free(to[i]);
		}
		free(from);
		free(to);
		if (w)
			closedir(w);
		free(sw);
		free(dw);
	}
	if (d)
		closedir(d);
	free(ss);
	return ret;
}

int vm_merge_label(const char *dst_dir, const char *src_dir, int round, struct strbuf *err)
{
	DIR *d = opendir(src_dir);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		strbuf_addf(err, "cannot read %s: %s", src_dir, strerror(errno));
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char *sp, *dp;
		json_object *s, *t;

		if (l < 6 || strcmp(de->d_name + l - 5, ".json") || !strcmp(de->d_name, "run.json"))
			continue;
		sp = xasprintf("%s/%s", src_dir, de->d_name);
		dp = xasprintf("%s/%s", dst_dir, de->d_name);
		if (!path_exists(dp)) {
			if (rename(sp, dp)) {
				strbuf_addf(err, "cannot move %s to %s: %s", sp, dp, strerror(errno));
				ret = -1;
			}
		} else if (!(s = load(sp, err))) {
			ret = -1;
		} else if (!(t = load(dp, err))) {
			json_object_put(s);
			ret = -1;
		} else {
			struct strbuf why = STRBUF_INIT;
			if (vm_merge_samples(t, s, round, &why)) {
				strbuf_addf(err, "%s: %s", sp, why.buf);
				ret = -1;
			} else {
				ret = save(dp, t, err);
			}
			strbuf_release(&why);
			json_object_put(s);
			json_object_put(t);
		}
		free(sp);
		free(dp);
	}
	closedir(d);
	if (!ret)
		ret = merge_series(dst_dir, src_dir, err);
	if (!ret) {
		char *sl = xasprintf("%s/logs", src_dir);
		char *dl = xasprintf("%s/logs", dst_dir);
		char *dr = xasprintf("%s/logs/round-%d", dst_dir, round);
		if (is_dir(sl) && (mkdir_p(dl, 0755) || rename(sl, dr))) {
			strbuf_addf(err, "cannot move %s to %s: %s", sl, dr, strerror(errno));
			ret = -1;
		}
		free(sl);
		free(dl);
		free(dr);
	}
	return ret;
}

int vm_update_run_json(const char *dir, void (*fn)(json_object *run, void *arg), void *arg,
		       struct strbuf *err)
{
	char *path = xasprintf("%s/run.json", dir);
	json_object *run = load(path, err);
	int ret = -1;

	if (run) {
		fn(run, arg);
		ret = save(path, run, err);
		json_object_put(run);
	}
	free(path);
	return ret;
}
