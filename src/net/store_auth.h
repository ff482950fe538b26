/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Credentials and URLs for a results store (push, fetch --results), in the
 * helper program lrubench-net only.
 *
 * Credentials never travel on a command line (where `ps` and shell history
 * show them) and are never printed:
 *   - a bearer token, from $LRUBENCH_TOKEN, else from the file named by
 *     --token-file or $LRUBENCH_TOKEN_FILE (a regular file of at most
 *     4 KiB; surrounding white space is dropped). It is sent as
 *     "Authorization: Bearer ..." by libcurl, which drops it on a redirect
 *     to another host;
 *   - else a netrc entry for the store's host: --netrc-file or
 *     $LRUBENCH_NETRC, else ~/.netrc when it exists. It is read here, not
 *     by libcurl (which would look the host of every redirect up again,
 *     whatever its port, and give a "default" entry to any host): the
 *     entry of the URL's host ("machine HOST", else "default") becomes the
 *     request's own user and password, which libcurl sends to that scheme,
 *     host and port only. Sent over plain http to a host that is not
 *     loopback, a warning says so (once).
 * Source downloads (fetch.c) get the netrc part only (store_netrc_load),
 * never a token.
 * A token is never sent for downloads of kernel sources: only the store
 * commands call store_auth_load.
 *
 * URLs: http:// or https:// only; a user:password@ part is refused (it
 * would show in process lists). Messages show a URL without its query
 * string: an S3 presigned URL carries its signature there.
 */
#ifndef LRUBENCH_NET_STORE_AUTH_H
#define LRUBENCH_NET_STORE_AUTH_H

#include <stdbool.h>
#include "core/net_client.h"
#include "core/util.h"

struct store_auth {
	char *token;              /* NULL: none */
	const char *token_from;   /* "$LRUBENCH_TOKEN" or the file, for messages */
	char *netrc_file;         /* the netrc file read, for messages; NULL: none */
	char *netrc;              /* its text (wiped on release); NULL: none */
};

/* token_file / netrc_file: from the command line, may be NULL. 0 or -1
 * with a message (the token's value is never in it). */
int store_auth_load(struct store_auth *a, const char *token_file, const char *netrc_file);
/* Only the netrc: file, else ~/.netrc if it exists (none is no error). 0
 * or -1 with a message. */
int store_netrc_load(struct store_auth *a, const char *file);
/* Set the credentials for url (and nothing else) on a libcurl handle. */
void store_auth_apply(void *curl, const struct store_auth *a, const char *url);
/* The entry of netrc text for host: "machine HOST", else "default"; its
 * login and password (each at most n-1 bytes) and true, or false when
 * there is none with a password. Pure, unit-tested. */
#define NETRC_WORD 1024
bool store_netrc_lookup(const char *text, const char *host, char *login, char *password,
			size_t n);
/* Did the request carry credentials (for "refused" vs "wants" on 401)? */
bool store_auth_given(const struct store_auth *a);
/* Wipes the token. */
void store_auth_release(struct store_auth *a);

/* 0 when url is an http(s) URL without user:password@; else -1 with the
 * reason printed. */
int store_url_check(const char *url);
/* store_url_shown (url without its query, for messages) is in
 * core/net_client.h: lrubench's side prints URLs too. */
/* Is the host of url a loopback address (no token warning for those)? */
bool store_url_loopback(const char *url);

/* What an HTTP status means for a store request, one phrase. */
const char *store_http_meaning(long code, bool auth_given);

#endif
