// SPDX-License-Identifier: GPL-2.0-or-later
/* Results archives from a store into a folder (store_fetch.h). */
#include "net/store_fetch.h"

#include <errno.h>
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

int store_fetch(const char *dir, char *const *urls, size_t n, const struct store_fetch_opts *o,
		struct strbuf *result)
{
	struct tmpdir *t = xcalloc(1, sizeof(*t));
	struct store_auth auth;
	struct fetch_opts fo = { .retries = o->retries, .progress = 0, .quiet = true };
	char **names = xcalloc(n + 1, sizeof(*names));
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		if (store_url_check(urls[i]) || !(names[i] = store_fetch_name(urls[i])))
			ret = -1;
	if (ret || store_auth_load(&auth, o->token_file, o->netrc_file)) {
		free_strv(names);
		free(t);
		return -1;
	}
	fo.auth = &auth;
	/* partial downloads; one a killed helper left is swept by the next */
	if (mkdir_p(dir, 0755) || tmpdir_create(t, dir, ".lrubench-fetch-", NULL)) {
		ret = -1;
		goto out_auth;
	}
	fo.cache_dir = t->path;
	for (size_t i = 0; i < n && !ret; i++) {
		struct fetch_result res = { 0 };
		enum fetch_status st = fetch_url(urls[i], &fo, &res);
		char *dest;

		if (st != FETCH_OK) {
			ret = st == FETCH_INTERRUPTED ? -2 : -1;
			break;
		}
		ret = results_read(res.path, NULL, false);
		if (ret) {
			char *shown = store_url_shown(urls[i]);

			if (ret == -1)
				error("%s is not a results archive that lrubench can read: not saved",
				      shown);
			free(shown);
			fetch_result_release(&res);
			break;
		}
		dest = xasprintf("%s/%s", dir, names[i]);
		if (rename(res.path, dest))
			ret = error_errno("cannot rename %s to %s", res.path, dest);
		else
			strbuf_addf(result, "%s\n", dest);
		free(dest);
		fetch_result_release(&res);
	}
	tmpdir_remove(t);
out_auth:
	store_auth_release(&auth);
	free_strv(names);
	free(t);
	if (ret && lb_stop_requested())
		ret = -2;
	return ret;
}
