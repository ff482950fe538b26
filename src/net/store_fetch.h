/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Downloads of results archives from a results store into a folder, for
 * compare (`lrubench fetch --results DIR URL...`). Linked into the helper
 * program lrubench-net only; lrubench asks with net_fetch_results().
 *
 * Each URL is downloaded with fetch_url (fetch.h: retries, backoff, its
 * errors; at most max_bytes, all within timeout: small defaults, a results
 * archive is small) and the store's credentials (store_auth.h) into a
 * private temp folder inside DIR, checked as a results archive
 * (results_read.h); when all are, each is renamed to DIR/NAME, NAME being
 * the last part of the URL's path (which must end like an archive,
 * .tar.zst ...). A download that fails or is not a results archive leaves
 * nothing in DIR.
 *
 * Nothing is ever replaced (issue 30, 18): two URLs of one NAME, or a
 * DIR/NAME that exists, are refused before anything is downloaded (-3:
 * lrubench's exit 2), and the rename is RENAME_NOREPLACE. DIR itself is
 * opened O_DIRECTORY|O_NOFOLLOW (a symlink is refused, issue 30, 22) and
 * the files are renamed into that descriptor. Messages name URLs without
 * their query (store_url_shown: a presigned URL's signature).
 */
#ifndef LRUBENCH_NET_STORE_FETCH_H
#define LRUBENCH_NET_STORE_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/util.h"

struct store_fetch_opts {
	int retries;                          /* < 0: fetch_url's default */
	unsigned long long max_bytes;         /* per archive; 0: FETCH_RESULTS_MAX_BYTES */
	double timeout;                       /* per URL, retries included; 0: FETCH_RESULTS_TIMEOUT */
	const char *token_file, *netrc_file;  /* NULL: from the environment */
};

/* result gets DIR/NAME per URL, one a line. NET_OK; NET_FAILED (printed);
 * NET_INTERRUPTED; NET_BAD_INPUT: a name taken, DIR a link or not a folder
 * (printed, nothing written). */
enum net_status store_fetch(const char *dir, char *const *urls, size_t n, const struct store_fetch_opts *o,
		struct strbuf *result);

/* The file name a URL gives (malloc'ed), or NULL with the reason printed. */
char *store_fetch_name(const char *url);
/* Two URLs of one name: -1 with both named (lrubench checks this too,
 * before it starts the helper). */
int store_fetch_conflict(const char *dir, char *const *urls, char *const *names, size_t n);
/* What store_fetch_open_dir returns in place of a descriptor. */
enum store_dir_status {
	STORE_DIR_FAILED = -1,   /* an error (printed) */
	STORE_DIR_MISSING = -2,  /* it does not exist and !create (nothing printed) */
	STORE_DIR_REFUSED = -3,  /* a link or not a folder (printed): a usage error */
};
/* DIR opened O_DIRECTORY|O_NOFOLLOW (created first when create): the fd,
 * or an enum store_dir_status. */
int store_fetch_open_dir(const char *dir, bool create);
/* A name of names[] already in the folder dirfd (< 0: none): -1 with a message. */
int store_fetch_taken(int dirfd, const char *dir, char *const *names, size_t n);

#endif
