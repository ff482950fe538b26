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
/* The helper's exit status for input that is not what the command takes
 * (push given a file that is not a results archive): NET_BAD_INPUT. */
#define NET_EXIT_BAD_INPUT 65

/* What the helper's commands below return. */
enum net_status {
	NET_OK = 0,
	NET_FAILED = -1,       /* a message was printed */
	NET_INTERRUPTED = -2,  /* a stop was requested; nothing left behind */
	NET_BAD_INPUT = -3,    /* the input is not what the command takes (printed) */
};

enum fetch_status {
	FETCH_OK = 0,
	FETCH_FAILED = -1,       /* message printed */
	FETCH_INTERRUPTED = -2,  /* a stop was requested (SIGINT); nothing left behind */
};

/*
 * Limits on what a download or an extraction may cost (issue 12): a server
 * trickling bytes forever, a gigabyte of zeros in a megabyte of gzip, 100k
 * files or a 1 TB sparse file in a tarball. 0 means the default; a
 * refusal is an error naming the limit and its flag/config key.
 */
#define FETCH_DEFAULT_MAX_BYTES (2ULL << 30)     /* a kernel tarball is ~140 MB */
#define FETCH_DEFAULT_TIMEOUT 3600.0             /* seconds, all attempts together */
/* fetch --results: a results archive is JSON and logs of at most 16 MiB
 * each, compressed (a few MiB for a suite's labels); 256 MiB and 10 minutes
 * (push's per-request default) hold the largest honest one with room, and
 * bound what a hostile or broken store can cost (issue 30, 8). */
#define FETCH_RESULTS_MAX_BYTES (256ULL << 20)
#define FETCH_RESULTS_TIMEOUT 600.0
#define EXTRACT_DEFAULT_MAX_BYTES (16ULL << 30)  /* a kernel tree is ~1.5 GB */
#define EXTRACT_DEFAULT_MAX_FILES 500000ULL      /* a kernel tree has ~85,000 */
#define EXTRACT_DEFAULT_MAX_RATIO 100ULL         /* xz of a kernel tree: ~10 */
#define EXTRACT_RATIO_FLOOR (256ULL << 20)       /* small archives may compress more */

struct extract_limits {
	unsigned long long max_bytes;   /* the entries' sizes added up (a sparse file whole) */
	unsigned long long max_files;   /* entries */
	unsigned long long max_ratio;   /* those bytes / the archive's size, past the floor */
};

struct store_auth;

struct fetch_opts {
	unsigned long long max_bytes; /* the download's size; 0: FETCH_DEFAULT_MAX_BYTES */
	double timeout;            /* seconds for the whole fetch, retries included; 0: default */
	const char *cache_dir;     /* NULL: FETCH_DEFAULT_CACHE */
	const char *sha256;        /* expected, 64 hex digits; NULL: not checked */
	int retries;               /* extra attempts after the first; < 0: default (3) */
	double connect_timeout;    /* seconds; <= 0: default (30) */
	double low_speed_time;     /* abort below 1 KiB/s for this long; <= 0: default (60) */
	int progress;              /* < 0: a bar when stderr is a terminal; 0 never; 1 always */
	bool quiet;                /* no "fetched ..." info line */
	/* helper side only: a results store's credentials (net/store_auth.h),
	 * which downloads of sources never get */
	const struct store_auth *auth;
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
/* user:password@ in a URL: refused everywhere, since the URL is stored (the
 * cache's .url file, run.json's config) and printed; ~/.netrc holds such
 * credentials instead. fetch_url_redacted: the URL with them as "***"
 * (malloc'ed), for the message that refuses it. */
bool fetch_url_has_credentials(const char *url);
char *fetch_url_redacted(const char *url);
/* url without its query string and fragment, for every message that names
 * a URL of fetch --results or push (malloc'ed): an S3 presigned URL carries
 * its signature there. The one helper, both sides of the helper program. */
char *store_url_shown(const char *url);
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
 * NET_OK, NET_FAILED (printed), NET_INTERRUPTED (nothing left behind). */
enum net_status net_extract_tree(const char *path, const char *dest, const struct extract_limits *lim);
/* Write a cpio (newc) archive to path (net/cpio.h gives the entry syntax:
 * "dir NAME MODE", "chr NAME MODE MAJOR MINOR", "file NAME MODE SOURCE").
 * NET_OK, NET_FAILED with the reason in err, NET_INTERRUPTED. */
enum net_status net_cpio_write(const char *path, const struct strlist *entries, struct strbuf *err);

/* Results archives (core/results_archive.h), in the helper. Each returns
 * NET_OK, NET_FAILED (printed by the helper) or NET_INTERRUPTED (nothing
 * left behind). */
struct pack_result {
	size_t files;
	unsigned long long bytes_in, bytes_out;
};
/* Pack label folders dirs[i] as labels[i]/ into out (compress: "zstd",
 * "gzip" or "xz"); an existing out is an error unless force. */
enum net_status net_pack(const char *out, const char *compress, bool force, const struct strlist *labels,
	     const struct strlist *dirs, struct pack_result *res);
/* Check each archive and write it into dest/1, dest/2, ... (dest exists);
 * with results_only, not the logs (results_read.h). */
enum net_status net_unpack(const char *dest, const struct strlist *archives, bool results_only);

/* Uploads to a results store (net/push.h) and downloads from it
 * (net/store_fetch.h). Credentials come from the environment or the files
 * named (never a command line); each returns NET_OK, NET_FAILED (printed),
 * NET_INTERRUPTED. */
struct push_request {
	int retries;              /* < 0: default (3) */
	double timeout;           /* per request, seconds; <= 0: default (600) */
	double connect_timeout;   /* <= 0: default (30) */
	const char *token_file, *netrc_file;   /* NULL: from the environment */
	const char *checksum;     /* "digest", "amz" or "none"; NULL: digest */
	bool force, direct;
	/* fetch --results: each archive's size and the whole fetch's time
	 * (0: FETCH_RESULTS_MAX_BYTES, FETCH_RESULTS_TIMEOUT) */
	unsigned long long max_bytes;
	double fetch_timeout;
};
/* files[i] to urls[i]; pushed gets the final URLs, one a line.
 * NET_BAD_INPUT (and nothing sent) when a file is not a results archive. */
enum net_status net_push(const struct strlist *files, const struct strlist *urls,
	     const struct push_request *o, struct strbuf *pushed);
/* Each URL's archive, checked, into dir; saved gets the paths, one a line. */
enum net_status net_fetch_results(const char *dir, char *const *urls, size_t n,
		      const struct push_request *o, struct strbuf *saved);

/* A kernel config file, plain or gzip (/proc/config.gz), read by the helper:
 * at most max bytes of text (malloc'ed into *text) and its sha256. 0, or -1
 * with the reason in why (the helper missing, the file unreadable). */
int net_kconfig_read(const char *path, size_t max, char sha[65], char **text, struct strbuf *why);

#endif
