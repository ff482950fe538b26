/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Downloads with a verified local cache (libcurl): http, https and file URLs.
 * Linked into the helper program lrubench-net only; lrubench asks for a
 * download with net_fetch_url() (core/net_client.h).
 *
 * The cache is a folder (default /var/cache/lrubench) keyed by URL: the data
 * is <dir>/<sha256 of the URL in hex> and a sidecar <key>.url holds the URL
 * for humans. A download goes to a temp file in the same folder (registered
 * for cleanup, so SIGINT never leaves a partial entry), is checked against the
 * expected sha256 when one is given (a mismatch deletes the temp file: it
 * never enters the cache) and is then renamed into place. A cache hit with a
 * sha256 given is verified again; a stale entry that does not match is
 * replaced by a fresh download.
 *
 * Retries with exponential backoff (1 s, 2 s, 4 s, ...) cover transient
 * failures: timeouts, resets, truncated transfers, HTTP 408/429/5xx, and a
 * refused connection to a remote host. A refused connection to a loopback
 * address is not retried: nobody is listening on this machine, and waiting
 * will not change that (it also keeps tests and offline CI fast).
 */
#ifndef LRUBENCH_FETCH_H
#define LRUBENCH_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/net_client.h"

/* FETCH_DEFAULT_CACHE, struct fetch_opts, struct fetch_result, enum
 * fetch_status and the pure URL/sha256 checks are in core/net_client.h:
 * lrubench uses them to ask this helper-side code for a download. */

/* The cache key of a URL: sha256 of its bytes as 64 lowercase hex digits. */
void fetch_cache_key(const char *url, char out[65]);
/* sha256 of a buffer / a file as 64 lowercase hex digits; file: 0 or -1 with a message. */
void sha256_hex_buf(const void *data, size_t len, char out[65]);
int sha256_hex_file(const char *path, char out[65]);
/* Should a failure of this kind be retried? curl_code is a CURLcode, http
 * the HTTP status (0 if none), ip the address tried ("" if unknown). */
bool fetch_is_transient(int curl_code, long http, const char *ip);

/* Make url available in the cache; res->path is the entry. */
enum fetch_status fetch_url(const char *url, const struct fetch_opts *o, struct fetch_result *res);

#endif
