/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Uploads of results archives to a results store with libcurl: HTTP PUT,
 * which WebDAV servers (nginx's dav module, Apache mod_dav, ...) and S3
 * presigned URLs all take. Linked into the helper program lrubench-net
 * only; lrubench asks with net_push() (core/net_client.h).
 *
 * Nothing half-written in the store: each file goes first to a hidden
 * temporary name beside its final one (".NAME.part-RANDOM"), then a WebDAV
 * MOVE gives it its name ("Overwrite: F" unless force, so an existing
 * archive is kept and the upload fails with 412). A store that takes PUT
 * but not MOVE (405/501) gets a direct PUT of the final name, and the
 * temporary one is deleted. A URL with a query string (an S3 presigned URL
 * signs one object name) is put directly: S3 makes an object visible only
 * once it is complete; "If-None-Match: *" asks it not to replace one unless
 * force. Whatever fails after the temporary upload, its DELETE follows.
 *
 * The checksum travels in "Repr-Digest: sha-256=:BASE64:" (RFC 9530), which
 * any HTTP server may check and the others ignore; checksum "amz" sends
 * S3's "x-amz-checksum-sha256: BASE64" instead, which S3 verifies (a
 * mismatch is a 400 and nothing is stored).
 *
 * Each request is retried with backoff (1 s, 2 s, 4 s, ...) after a
 * transient failure (a timeout, a reset, HTTP 408/429/5xx), not after one
 * that will not change (401, 403, 404, 409, 412, a redirect loop); every
 * failure is an error naming the request, the URL (without its query) and
 * what the status means. timeout bounds each request, so a store that
 * accepts the connection and never answers fails in that time.
 */
#ifndef LRUBENCH_NET_PUSH_H
#define LRUBENCH_NET_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/util.h"

enum push_checksum { CHECKSUM_DIGEST, CHECKSUM_AMZ, CHECKSUM_NONE };

struct push_opts {
	int retries;               /* extra attempts per request; < 0: 3 */
	double connect_timeout;    /* seconds; <= 0: 30 */
	double timeout;            /* seconds per request; <= 0: 600 */
	const char *token_file, *netrc_file;   /* store_auth.h; NULL: from the environment */
	bool force;                /* replace an archive of the same name */
	bool direct;               /* no temporary name: PUT the final URL */
	enum push_checksum checksum;
};

/* Upload files[i] to urls[i] (a URL ending in '/' gets the file's name).
 * result gets one line per file: its final URL (without the query).
 * NET_OK; NET_FAILED (printed); NET_INTERRUPTED (temporary uploads deleted;
 * core/net_client.h). */
int push_files(char *const *files, char *const *urls, size_t n, const struct push_opts *o,
	       struct strbuf *result);

/* Pure helpers, unit-tested. The final URL of file for url (malloc'ed):
 * url + basename(file) when url ends in '/', else url. */
char *push_final_url(const char *url, const char *file);
/* The temporary URL beside final (no query): ".NAME.part-SUFFIX" in the
 * same folder (malloc'ed). */
char *push_temp_url(const char *final, const char *suffix);

#endif
