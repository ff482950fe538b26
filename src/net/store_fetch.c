// SPDX-License-Identifier: GPL-2.0-or-later
/* Results archives from a store into a folder (store_fetch.h). */
#include "net/store_fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/net_client.h"
#include "core/results_archive.h"
#include "core/tmpdir.h"
#include "net/fetch.h"
#include "net/results_read.h"
#include "net/store_auth.h"

char *store_fetch_name(const char *url)
{
	size_t end = strcspn(url, "?#"), start = end;
	char *name, *probe, *shown;
	char why[300];

	while (start > 0 && url[start - 1] != '/')
		start--;
	name = xstrndup(url + start, end - start);
	probe = xasprintf("x/%s", name);   /* the rules of a file inside a label */
	if (!ra_is_archive_name(name) || ra_check_entry_name(probe, why, sizeof(why))) {
		shown = store_url_shown(url);
		error("%s: the URL must end in a file name like NAME.tar.zst (.tar.gz, .tar.xz, "
		      ".tar) of A-Z a-z 0-9 . _ + - = , @, to name the file it is saved as", shown);
		free(shown);
		free(name);
		name = NULL;
	}
	free(probe);
	return name;
}

int store_fetch_conflict(const char *dir, char *const *urls, char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(names[i], names[j])) {
				char *a = store_url_shown(urls[j]), *b = store_url_shown(urls[i]);

				error("%s and %s would both be saved as %s/%s: fetch them into "
				      "different folders (nothing fetched)", a, b, dir, names[i]);
				free(a);
				free(b);
				return -1;
			}
	return 0;
}

int store_fetch_open_dir(const char *dir, bool create)
{
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	int fd;

	/* mkdir_p would accept a link to a folder: looked at first */
	if (create && (lstat(dir, &st) || !S_ISLNK(st.st_mode)) && mkdir_p(dir, 0755))
		return -1;
	fd = open_output_dir(dir, &err);
	if (fd == -1 && errno == ENOENT && !create) {
		strbuf_release(&err);
		return STORE_DIR_MISSING;   /* not there yet: made later */
	}
	if (fd < 0)
		error("fetch --results: %s", err.buf);
	strbuf_release(&err);
	if (fd == OUTPUT_DIR_REFUSED)
		return STORE_DIR_REFUSED;   /* a link or not a folder: a usage error */
	return fd < 0 ? STORE_DIR_FAILED : fd;
}

int store_fetch_taken(int dirfd, const char *dir, char *const *names, size_t n)
{
	struct stat st;

	for (size_t i = 0; dirfd >= 0 && i < n; i++)
		if (!fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW))
			return error("%s/%s exists already: fetch --results never replaces a file "
				     "(remove it, or fetch into another folder; nothing fetched)",
				     dir, names[i]);
	return 0;
}

enum net_status store_fetch(const char *dir, char *const *urls, size_t n, const struct store_fetch_opts *o,
		struct strbuf *result)
{
	struct tmpdir *t = xcalloc(1, sizeof(*t));
	struct store_auth auth;
	struct fetch_opts fo = { .retries = o->retries, .progress = 0, .quiet = true,
				 .max_bytes = o->max_bytes ? o->max_bytes : FETCH_RESULTS_MAX_BYTES,
				 .timeout = o->timeout > 0 ? o->timeout : FETCH_RESULTS_TIMEOUT };
	struct fetch_result *res = xcalloc(n + 1, sizeof(*res));
	char **names = xcalloc(n + 1, sizeof(*names));
	enum net_status ret = NET_OK;
	int dfd = -1;

	for (size_t i = 0; i < n && !ret; i++)
		if (store_url_check(urls[i]) || !(names[i] = store_fetch_name(urls[i])))
			ret = NET_FAILED;
	/* a name taken, twice or in DIR: refused before anything is written */
	if (!ret && store_fetch_conflict(dir, urls, names, n))
		ret = NET_BAD_INPUT;
	if (!ret) {
		dfd = store_fetch_open_dir(dir, false);
		if (dfd == STORE_DIR_FAILED)
			ret = NET_FAILED;
		else if (dfd == STORE_DIR_REFUSED)
			ret = NET_BAD_INPUT;
		else if (store_fetch_taken(dfd, dir, names, n))
			ret = NET_BAD_INPUT;
		if (dfd >= 0)
			close(dfd);
	}
	if (ret || store_auth_load(&auth, o->token_file, o->netrc_file)) {
		free_strv(names);
		free(res);
		free(t);
		return ret ? ret : NET_FAILED;
	}
	fo.auth = &auth;
	/* DIR by descriptor from here: a link swapped in for it is not followed
	 * (the files are renamed into this folder, the one opened) */
	dfd = store_fetch_open_dir(dir, true);
	if (dfd < 0) {
		ret = dfd == STORE_DIR_REFUSED ? NET_BAD_INPUT : NET_FAILED;
		goto out_auth;
	}
	/* partial downloads; one a killed helper left is swept by the next */
	if (tmpdir_create(t, dir, ".lrubench-fetch-", NULL)) {
		ret = NET_FAILED;
		goto out_auth;
	}
	if (!output_dir_holds(dfd, t->path)) {
		ret = error("%s changed while it was being used (a link put in its place?): "
			    "nothing fetched", dir);
		goto out_tmp;
	}
	fo.cache_dir = t->path;
	/* every archive downloaded and checked before any is saved: a failure
	 * leaves nothing in DIR */
	for (size_t i = 0; i < n && !ret; i++) {
		enum fetch_status st = fetch_url(urls[i], &fo, &res[i]);

		if (st != FETCH_OK) {
			ret = st == FETCH_INTERRUPTED ? NET_INTERRUPTED : NET_FAILED;
			break;
		}
		ret = results_read(res[i].path, NULL, false);
		if (ret == NET_FAILED) {
			char *shown = store_url_shown(urls[i]);

			error("%s is not a results archive that lrubench can read: not saved", shown);
			free(shown);
		}
	}
	for (size_t i = 0; i < n && !ret; i++) {
		/* never over a file: one that appeared since the check stays */
		if (renameat2(AT_FDCWD, res[i].path, dfd, names[i], RENAME_NOREPLACE))
			ret = errno == EEXIST ?
			      error("%s/%s appeared while fetching: kept, %s not saved", dir,
				    names[i], names[i]) :
			      error_errno("cannot rename %s to %s/%s", res[i].path, dir, names[i]);
		else
			strbuf_addf(result, "%s/%s\n", dir, names[i]);
	}
out_tmp:
	tmpdir_remove(t);
out_auth:
	if (dfd >= 0)
		close(dfd);
	store_auth_release(&auth);
	for (size_t i = 0; i < n; i++)
		fetch_result_release(&res[i]);
	free(res);
	free_strv(names);
	free(t);
	if (ret && lb_stop_requested())
		ret = NET_INTERRUPTED;
	return ret;
}
