/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Downloads of results archives from a results store into a folder, for
 * compare (`lrubench fetch --results DIR URL...`). Linked into the helper
 * program lrubench-net only; lrubench asks with net_fetch_results().
 *
 * Each URL is downloaded with fetch_url (fetch.h: retries, backoff, its
 * errors) and the store's credentials (store_auth.h) into a private temp
 * folder inside DIR, checked as a results archive (results_read.h) and only
 * then renamed to DIR/NAME, NAME being the last part of the URL's path
 * (which must end like an archive, .tar.zst ...). A download that fails or
 * is not a results archive leaves nothing in DIR; an existing DIR/NAME is
 * replaced atomically (the store is the reference).
 */
#ifndef LRUBENCH_NET_STORE_FETCH_H
#define LRUBENCH_NET_STORE_FETCH_H

#include <stddef.h>
#include "core/util.h"

struct store_fetch_opts {
	int retries;                          /* < 0: fetch_url's default */
	const char *token_file, *netrc_file;  /* NULL: from the environment */
};

/* result gets DIR/NAME per URL, one a line. 0; -1 error (printed);
 * -2 interrupted. */
int store_fetch(const char *dir, char *const *urls, size_t n, const struct store_fetch_opts *o,
		struct strbuf *result);

/* The file name a URL gives (malloc'ed), or NULL with the reason printed. */
char *store_fetch_name(const char *url);

#endif
