// SPDX-License-Identifier: GPL-2.0-or-later
/* Results archives read as label folders (results_unpack.h). */
#include "core/results_unpack.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "core/label_name.h"
#include "core/net_client.h"
#include "core/results.h"
#include "core/results_archive.h"
#include "core/strmap.h"
#include "core/tmpdir.h"

/* The temp folder lives until exit: the labels are read from it (the
 * registry's atexit pass removes it, as does a signal; the next one sweeps
 * it after a SIGKILL). */
static struct tmpdir *make_unpack_dir(struct strbuf *err)
{
	struct tmpdir *u = xcalloc(1, sizeof(*u));

	if (tmpdir_create(u, NULL, "lrubench-results-", err)) {
		strbuf_addstr(err, " (for results archives)");
		free(u);
		return NULL;
	}
	return u;
}

const char *results_private_dir(struct strbuf *err)
{
	struct tmpdir *u = make_unpack_dir(err);

	return u ? u->path : NULL;
}

static const char *jstr(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* Folders in dir that the manifest does not list. */
static int check_no_extra(const char *archive, const char *dir, const struct strlist *labels,
			  struct strbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		strbuf_addf(err, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		bool listed = !strcmp(de->d_name, RA_MANIFEST) || strlist_has(labels, de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!listed) {
			strbuf_addf(err, "%s: holds the folder '%s', which its manifest does not list",
				    archive, de->d_name);
			ret = -1;
		}
	}
	closedir(d);
	return ret;
}

int results_manifest_labels(const char *text, size_t len, const char *archive,
			    struct strlist *labels_out, struct strbuf *err)
{
	struct strbuf jerr = STRBUF_INIT, why = STRBUF_INIT;
	struct strmap seen = STRMAP_INIT;   /* a hash: a 1 MiB manifest lists ~100,000 */
	json_object *m = json_parse_text(text, len, RA_MANIFEST, &jerr), *schema, *labels;
	const char *format;
	size_t n;
	int ret = -1;

	if (!m) {
		/* name the archive, not the temp folder */
		const char *at = strstr(jerr.buf, ": ");

		strbuf_addf(err, "%s: %s%s", archive, RA_MANIFEST, at ? at : ": cannot be read");
		goto out;
	}
	format = json_object_is_type(m, json_type_object) ? jstr(m, "format") : NULL;
	if (!format || strcmp(format, RA_FORMAT)) {
		strbuf_addf(err, "%s: its manifest does not say \"format\": \"%s\": not an lrubench "
			    "results archive", archive, RA_FORMAT);
		goto out;
	}
	if (!json_object_object_get_ex(m, "schema", &schema) ||
	    !json_object_is_type(schema, json_type_int) || json_object_get_int64(schema) != RA_SCHEMA) {
		strbuf_addf(err, "%s: results archive schema %s is not known (this lrubench reads "
			    "schema %d; a newer lrubench made it?)", archive,
			    schema ? json_object_to_json_string(schema) : "(missing)", RA_SCHEMA);
		goto out;
	}
	if (!json_object_object_get_ex(m, "labels", &labels) ||
	    !json_object_is_type(labels, json_type_array) || !json_object_array_length(labels)) {
		strbuf_addf(err, "%s: its manifest lists no labels", archive);
		goto out;
	}
	n = json_object_array_length(labels);
	for (size_t i = 0; i < n; i++) {
		json_object *l = json_object_array_get_idx(labels, i);
		const char *name = json_object_is_type(l, json_type_string) ? json_object_get_string(l)
									    : NULL;

		if (!name || json_string_has_nul(l) || label_name_check(name, &why)) {
			strbuf_addf(err, "%s: its manifest lists a bad label: %s", archive,
				    !name ? "not a string" : json_string_has_nul(l) ?
				    "it holds a NUL character (\\u0000)" : why.buf);
			goto out;
		}
		if (strmap_get(&seen, name, NULL)) {
			strbuf_addf(err, "%s: its manifest lists label '%s' twice", archive, name);
			goto out;
		}
		strmap_put(&seen, name, i);   /* name lives in m, which outlives seen */
		strlist_push(labels_out, name);
	}
	ret = 0;
out:
	if (ret)
		strlist_release(labels_out);
	strmap_release(&seen);
	json_object_put(m);
	strbuf_release(&jerr);
	strbuf_release(&why);
	return ret;
}

/* The manifest of the archive unpacked into dir; its labels' folders. */
static int check_manifest(const char *archive, const char *dir, struct strlist *dirs,
			  struct strlist *shown, struct strbuf *err)
{
	char *mpath = xasprintf("%s/%s", dir, RA_MANIFEST);
	struct strlist labels = STRLIST_INIT;
	struct strbuf rerr = STRBUF_INIT;
	size_t len;
	char *text = read_regular_file(mpath, RA_MAX_MANIFEST, READ_NOFOLLOW, &len, &rerr);
	int ret = -1;

	free(mpath);
	if (!text) {
		strbuf_addf(err, "%s: %s: cannot be read", archive, RA_MANIFEST);
		goto out;
	}
	if (results_manifest_labels(text, len, archive, &labels, err))
		goto out;
	for (size_t i = 0; i < labels.n; i++) {
		char *ldir = xasprintf("%s/%s", dir, labels.v[i]);

		if (!is_label_dir(ldir)) {
			strbuf_addf(err, "%s: label '%s' of its manifest has no run.json", archive,
				    labels.v[i]);
			free(ldir);
			goto out;
		}
		strlist_push(dirs, ldir);
		strlist_pushf(shown, "%s:%s", archive, labels.v[i]);
		free(ldir);
	}
	ret = check_no_extra(archive, dir, &labels, err);
out:
	free(text);
	strlist_release(&labels);
	strbuf_release(&rerr);
	return ret;
}

int results_unpack(const struct strlist *archives, struct strlist *dirs, struct strlist *shown,
		   struct strbuf *err)
{
	struct tmpdir *u;
	int r;

	if (!archives->n)
		return 0;
	u = make_unpack_dir(err);
	if (!u)
		return -1;
	/* compare and plot read no logs: leave them out */
	r = net_unpack(u->path, archives, true);
	if (r) {
		if (archives->n == 1)
			strbuf_addf(err, "cannot read the results archive %s%s", archives->v[0],
				    r == NET_INTERRUPTED ? ": interrupted" : "");
		else
			strbuf_addf(err, "cannot read the results archives%s",
				    r == NET_INTERRUPTED ? ": interrupted" : "");
		return -1;
	}
	for (size_t i = 0; i < archives->n; i++) {
		char *dir = xasprintf("%s/%zu", u->path, i + 1);

		r = check_manifest(archives->v[i], dir, dirs, shown, err);
		free(dir);
		if (r)
			return -1;
	}
	return 0;
}
