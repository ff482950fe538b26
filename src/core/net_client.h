/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Network and archive work, done by the helper program lrubench-net
 * (src/net/main.c says why it is a separate program): downloads into the
 * verified cache, sha256 of a file, safe extraction of a source tarball, and
 * writing a cpio archive. lrubench itself never loads libcurl, libarchive or
 * libcrypto; these functions run the helper as a child and give back what
 * the in-process calls gave: the same messages (the helper prints them, with
 * the same "lrubench: " prefix, on the inherited stderr), the same status
 * codes, and the same cleanup (a stop request -- SIGINT/SIGTERM to lrubench --
 * is passed on to the helper, which removes its temp file or partial tree
 * and exits 130 before these functions return).
 *
 * The helper is looked for next to the running program (/proc/self/exe's
 * folder: the build tree), then in LRUBENCH_LIBEXECDIR (`make install` puts
 * it there). When it is in neither, every call fails with an error naming
 * both places.
 */
#ifndef LRUBENCH_NET_CLIENT_H
#define LRUBENCH_NET_CLIENT_H

#include <stdbool.h>
#include "core/strlist.h"
#include "core/util.h"

#define NET_HELPER_NAME "lrubench-net"
#define FETCH_DEFAULT_CACHE "/var/cache/lrubench"

enum fetch_status {
	FETCH_OK = 0,
	FETCH_FAILED = -1,       /* message printed */
	FETCH_INTERRUPTED = -2,  /* a stop was requested (SIGINT); nothing left behind */
};

struct fetch_opts {
	const char *cache_dir;     /* NULL: FETCH_DEFAULT_CACHE */
	const char *sha256;        /* expected, 64 hex digits; NULL: not checked */
	int retries;               /* extra attempts after the first; < 0: default (3) */
	double connect_timeout;    /* seconds; <= 0: default (30) */
	double low_speed_time;     /* abort below 1 KiB/s for this long; <= 0: default (60) */
	int progress;              /* < 0: a bar when stderr is a terminal; 0 never; 1 always */
	bool quiet;                /* no "fetched ..." info line */
};

struct fetch_result {
	char *path;                /* malloc'ed path of the cache entry */
	bool cache_hit;
	double seconds;            /* of the download (0 on a hit; not filled by net_fetch_url) */
	unsigned long long bytes;  /* (not filled by net_fetch_url) */
};

/* Pure checks of what may be handed to the helper (no library needed). */
/* Does s look like a URL we can fetch (http://, https://, file://)? */
bool fetch_is_url(const char *s);
/* Any "scheme://" prefix at all (so "ftp://x" is an unsupported URL, not a path). */
bool fetch_has_scheme(const char *s);
/* Parse 64 hex digits (either case, surrounding blanks allowed) into 32
 * bytes; 0 or -1 (nothing printed). out may be NULL to only validate. */
int sha256_parse_hex(const char *s, unsigned char out[32]);

/* The helper's path (malloc'ed), or NULL with the reason (naming where it
 * was looked for) appended to why / printed as an error. */
char *net_helper_find(struct strbuf *why);
char *net_helper_path(void);

/* fetch_url (net/fetch.h) in the helper: url in the cache, res->path the
 * entry, res->cache_hit whether it was there already. */
enum fetch_status net_fetch_url(const char *url, const struct fetch_opts *o, struct fetch_result *res);
void fetch_result_release(struct fetch_result *res);
/* sha256 of a file as 64 lowercase hex digits; 0 or -1 (message printed). */
int net_sha256_file(const char *path, char out[65]);
/* archive_extract_tree (net/archive_extract.h) in the helper:
 * 0 ok; -1 error (printed); -2 interrupted (nothing left behind). */
int net_extract_tree(const char *path, const char *dest);
/* Write a cpio (newc) archive to path (net/cpio.h gives the entry syntax:
 * "dir NAME MODE", "chr NAME MODE MAJOR MINOR", "file NAME MODE SOURCE").
 * 0, -1 with the reason in err, -2 interrupted. */
int net_cpio_write(const char *path, const struct strlist *entries, struct strbuf *err);

/* Results archives (core/results_archive.h), in the helper. Each returns
 * 0; -1 error (printed by the helper); -2 interrupted (nothing left
 * behind). */
struct pack_result {
	size_t files;
	unsigned long long bytes_in, bytes_out;
};
/* Pack label folders dirs[i] as labels[i]/ into out (compress: "zstd",
 * "gzip" or "xz"); an existing out is an error unless force. */
int net_pack(const char *out, const char *compress, bool force, const struct strlist *labels,
	     const struct strlist *dirs, struct pack_result *res);
/* Check each archive and write it into dest/1, dest/2, ... (dest exists). */
int net_unpack(const char *dest, const struct strlist *archives);
/* Check each archive, writing nothing. */
int net_verify(const struct strlist *archives);

#endif
