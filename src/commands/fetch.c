// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench fetch (the options: fetch_options below).
 *
 * Pre-fills the download cache (for offline CI: fetch once, then every run
 * finds the source in the cache). --extract DIR also extracts the entry (or a
 * local tarball given as a path) with the same safe extraction kernbench
 * uses, which is how the extraction is tested and measured on its own.
 *
 * Exit codes: 0 ok; 1 the download, the checksum or the extraction failed;
 * 2 usage (unknown option, malformed sha256, unsupported URL; --results: a
 * file name that two URLs give or DIR holds already, DIR a link); 3 the helper
 * program lrubench-net (which does the work) is missing; 130 interrupted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "core/net_client.h"
#include "core/parse_options.h"
#include "core/results_archive.h"
#include "core/util.h"

/* The command line as given; reset by every cmd_fetch(). */
static struct {
	const char *sha256, *cache, *extract, *results, *token_file, *netrc_file;
	const char *max_size, *timeout, *x_max_size, *x_max_files, *x_max_ratio;
	unsigned long long retries;
	bool quiet;
	int progress;              /* as struct fetch_opts: -1 by the terminal, 0 never, 1 always */
} O;

static int progress_cb(const struct popt *o, const char *arg)
{
	(void)arg;
	O.progress = !strcmp(o->long_name, "progress");
	return 0;
}

static const struct popt fetch_options[] = {
	POPT_STRING(0, "sha256", &O.sha256, "HEX", "the expected sha256 (64 hex digits), verified"),
	POPT_STRING(0, "cache", &O.cache, "DIR", "the cache folder (/var/cache/lrubench)"),
	POPT_UINT(0, "retries", &O.retries, "N", "retries of a transient failure, 0..20 (3)", 0, 20),
	POPT_STRING(0, "extract", &O.extract, "DIR", "also extract the entry (or TARBALL) into DIR"),
	POPT_STRING(0, "max-size", &O.max_size, "SIZE",
		    "refuse a larger download (2G; --results 256M)"),
	POPT_STRING(0, "timeout", &O.timeout, "TIME", "give up a fetch after TIME (1h; --results 10m)"),
	POPT_STRING(0, "extract-max-size", &O.x_max_size, "SIZE", "refuse files over SIZE (16G)"),
	POPT_STRING(0, "extract-max-files", &O.x_max_files, "N", "refuse over N entries (500000)"),
	POPT_STRING(0, "extract-max-ratio", &O.x_max_ratio, "N", "refuse over N times the "
		    "archive (100)"),
	POPT_STRING(0, "results", &O.results, "DIR",
		    "URLs are results archives: check, save in DIR"),
	POPT_STRING(0, "token-file", &O.token_file, "FILE",
		    "--results: the token's file ($LRUBENCH_TOKEN_FILE)"),
	POPT_STRING(0, "netrc-file", &O.netrc_file, "FILE", "--results: the netrc file (~/.netrc)"),
	POPT_BOOL('q', "quiet", &O.quiet, "print errors only"),
	POPT_CALLBACK(0, "progress", NULL, NULL, "draw the progress bar even when not on a terminal",
		      progress_cb),
	POPT_CALLBACK(0, "no-progress", NULL, NULL, "never draw the progress bar", progress_cb),
	POPT_END(),
};

const struct popt_command fetch_command = {
	"fetch", "URL|TARBALL...",
	"Download URL (http://, https:// or file://) into lrubench's download cache,\n"
	"where kernbench's source is looked up, so machines without network can run\n"
	"it: fetch once, run many times. The entry is written whole or not at all, and\n"
	"with --sha256 only when it matches; a cached entry is verified again. With\n"
	"--extract the entry, or a local TARBALL, is extracted as kernbench does (no\n"
	"absolute names, no '..', links kept inside, devices refused).\n"
	"With --results DIR each URL is a results archive in a results store (see\n"
	"push): it is downloaded with the store's credentials ($LRUBENCH_TOKEN,\n"
	"$LRUBENCH_TOKEN_FILE or netrc), checked as compare checks archives and only\n"
	"then saved as DIR/NAME, for `lrubench compare DIR`. Exit 0 ok; 1 the\n"
	"download, checksum, check or extraction failed; 2 usage; 130 interrupted.\n"
	"See lrubench-fetch(1).",
	fetch_options,
};

/* The limits flags: sizes as SIZE (K/M/G/T), the timeout as TIME (s/m/h);
 * each a clear usage error naming the flag. */
static int fetch_limits_parse(const char *max_size, const char *timeout, const char *x_size,
			      const char *x_files, const char *x_ratio, struct fetch_opts *o,
			      struct extract_limits *lim)
{
	uint64_t b;
	double t;

	if (max_size && (parse_size(max_size, &b) || !b))
		return error("--max-size wants a size such as 500M or 4G, not '%s'", max_size);
	if (max_size)
		o->max_bytes = b;
	if (timeout && (parse_seconds(timeout, &t) || t <= 0))
		return error("--timeout wants a time such as 90s, 30m or 2h, not '%s'", timeout);
	if (timeout)
		o->timeout = t;
	if (x_size && (parse_size(x_size, &b) || !b))
		return error("--extract-max-size wants a size such as 8G, not '%s'", x_size);
	if (x_size)
		lim->max_bytes = b;
	if (x_files && (parse_ull(x_files, &lim->max_files) || !lim->max_files))
		return error("--extract-max-files wants a number > 0, not '%s'", x_files);
	if (x_ratio && (parse_ull(x_ratio, &lim->max_ratio) || !lim->max_ratio))
		return error("--extract-max-ratio wants a number > 0, not '%s'", x_ratio);
	return 0;
}

/* The helper program lrubench-net does the work: without it this machine
 * cannot (exit 3; the error names where it was looked for). */
static bool have_helper(void)
{
	char *helper = net_helper_path();
	bool found = helper != NULL;

	free(helper);
	return found;
}

/* --results DIR URL...: results archives from a store into DIR, with
 * --timeout and --max-size (small defaults, net_client.h). URLs are named
 * without their query in every message (a presigned URL's signature). */
static int fetch_results(char **urls, int n, const struct fetch_opts *fo)
{
	struct push_request req = { .retries = fo->retries, .token_file = O.token_file,
				    .netrc_file = O.netrc_file, .max_bytes = fo->max_bytes,
				    .fetch_timeout = fo->timeout };
	struct strbuf saved = STRBUF_INIT;
	int r;

	if (O.sha256 || O.extract || O.cache)
		return popt_usage_error(&fetch_command, "--results takes no --sha256, --extract or "
					"--cache (archives are checked, and saved in DIR)");
	if (!*O.results)
		return popt_usage_error(&fetch_command, "--results: empty folder name");
	if (fo->timeout > 86400)
		return popt_usage_error(&fetch_command, "--results: --timeout is at most 24h");
	for (int i = 0; i < n; i++) {
		size_t end = strcspn(urls[i], "?#"), start = end;
		char *name, *shown = store_url_shown(urls[i]);
		bool ok;

		if (strncasecmp(urls[i], "http://", 7) && strncasecmp(urls[i], "https://", 8)) {
			r = popt_usage_error(&fetch_command, "--results: '%s' is not an http:// or "
					     "https:// URL", shown);
			free(shown);
			return r;
		}
		while (start && urls[i][start - 1] != '/')
			start--;
		name = xstrndup(urls[i] + start, end - start);
		ok = ra_is_archive_name(name) && name[0] != '.';
		free(name);
		if (!ok) {
			r = popt_usage_error(&fetch_command, "--results: %s: the URL must end in a "
					     "file name like NAME.tar.zst (.tar.gz, .tar.xz, .tar), "
					     "the name it is saved as", shown);
			free(shown);
			return r;
		}
		free(shown);
	}
	if (!have_helper())
		return LB_EXIT_UNSUPPORTED;
	/* -3: a name taken (twice, or in DIR): nothing written, exit 2 */
	r = net_fetch_results(O.results, urls, (size_t)n, &req, &saved);
	if (!r) {
		char *save = NULL, *line = strtok_r(saved.buf, "\n", &save);

		for (int i = 0; line && i < n; i++, line = strtok_r(NULL, "\n", &save)) {
			char *shown = store_url_shown(urls[i]);

			info("fetched %s into %s", shown, line);
			free(shown);
		}
	}
	strbuf_release(&saved);
	if (r == NET_INTERRUPTED || lb_stop_requested())
		return LB_EXIT_INTERRUPTED;
	return r == NET_BAD_INPUT ? LB_EXIT_USAGE : r ? LB_EXIT_FAIL : LB_EXIT_OK;
}

int cmd_fetch(int argc, char **argv)
{
	struct fetch_opts o = { .retries = -1, .progress = -1 };
	struct extract_limits lim = { 0, 0, 0 };
	struct fetch_result res = { 0 };
	const char *src, *extract;
	const char *path;
	int n, r;

	memset(&O, 0, sizeof(O));
	O.progress = -1;
	O.retries = 3;
	n = parse_options(&fetch_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	o.retries = (int)O.retries;
	if (fetch_limits_parse(O.max_size, O.timeout, O.x_max_size, O.x_max_files, O.x_max_ratio,
			       &o, &lim))
		return LB_EXIT_USAGE;
	o.sha256 = O.sha256;
	o.cache_dir = O.cache;
	o.quiet = O.quiet;
	o.progress = O.progress;
	if (O.quiet)
		lb_quiet = 1;
	extract = O.extract;
	if (!n)
		return popt_usage_error(&fetch_command, "fetch needs a URL");
	if (O.results)
		return fetch_results(argv, n, &o);
	if (O.token_file || O.netrc_file)
		return popt_usage_error(&fetch_command, "--token-file and --netrc-file go with "
					"--results (a source download reads ~/.netrc only)");
	if (n > 1)
		return popt_usage_error(&fetch_command, "only one URL, not also '%s'", argv[1]);
	src = argv[0];
	if (o.sha256 && sha256_parse_hex(o.sha256, NULL)) {
		error("malformed --sha256 '%s': expected 64 hex digits", o.sha256);
		return LB_EXIT_USAGE;
	}

	if (fetch_is_url(src) && fetch_url_has_credentials(src)) {
		char *shown = fetch_url_redacted(src);

		error("%s: a password in a URL would be stored and printed; put it in ~/.netrc "
		      "(machine HOST login USER password PASSWORD)", shown);
		free(shown);
		return LB_EXIT_USAGE;
	}
	if (fetch_is_url(src)) {
		enum fetch_status st;

		if (!have_helper())
			return LB_EXIT_UNSUPPORTED;
		st = net_fetch_url(src, &o, &res);
		if (st == FETCH_INTERRUPTED)
			return LB_EXIT_INTERRUPTED;
		if (st != FETCH_OK)
			return LB_EXIT_FAIL;
		if (res.cache_hit)
			info("%s is in the cache: %s", src, res.path);
		path = res.path;
	} else if (fetch_has_scheme(src)) {
		return popt_usage_error(&fetch_command, "unsupported URL '%s': use http://, https:// "
					"or file://", src);
	} else if (!extract) {
		return popt_usage_error(&fetch_command, "'%s' is not a URL (a local tarball needs "
					"--extract DIR)", src);
	} else if (!have_helper()) {
		return LB_EXIT_UNSUPPORTED;
	} else {
		if (o.sha256) {
			char got[65];

			if (net_sha256_file(src, got))
				return lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
			if (strcasecmp(got, o.sha256)) {
				error("checksum mismatch for %s: sha256 is %s, expected %s", src, got,
				      o.sha256);
				return LB_EXIT_FAIL;
			}
		}
		path = src;
	}
	r = 0;
	if (extract) {
		double t0 = now_monotonic();

		r = net_extract_tree(path, extract, &lim);
		if (!r)
			info("extracted %s into %s in %.2f s", path, extract, now_monotonic() - t0);
	}
	fetch_result_release(&res);
	if (r == NET_INTERRUPTED || lb_stop_requested())
		return LB_EXIT_INTERRUPTED;
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}
