// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench fetch URL [--sha256 HEX] [--cache DIR] [--retries N] [--extract DIR] [-q]
 *
 * Pre-fills the download cache (for offline CI: fetch once, then every run
 * finds the source in the cache). --extract DIR also extracts the entry (or a
 * local tarball given as a path) with the same safe extraction kernbench
 * uses, which is how the extraction is tested and measured on its own.
 *
 * Exit codes: 0 ok; 1 the download, the checksum or the extraction failed;
 * 2 usage (unknown option, malformed sha256, unsupported URL); 3 the helper
 * program lrubench-net (which does the work) is missing; 130 interrupted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "core/net_client.h"
#include "core/util.h"

/* Every usage error also shows the usage line (not usage_of(): main.c is
 * not linked into the unit tests, which link every other object). */
#define FETCH_USAGE "usage: lrubench fetch URL [--sha256 HEX] [--cache DIR] [--retries N] " \
	"[--extract DIR] [-q]\n"
#define usage_error(...) (error(__VA_ARGS__), fputs(FETCH_USAGE, stderr), LB_EXIT_USAGE)

/* The helper program lrubench-net does the work: without it this machine
 * cannot (exit 3; the error names where it was looked for). */
static bool have_helper(void)
{
	char *helper = net_helper_path();
	bool found = helper != NULL;

	free(helper);
	return found;
}

int cmd_fetch(int argc, char **argv)
{
	struct fetch_opts o = { .retries = -1, .progress = -1 };
	struct fetch_result res = { 0 };
	const char *src = NULL, *extract = NULL;
	const char *path;
	int r;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--sha256") || !strcmp(a, "--cache") || !strcmp(a, "--extract") ||
		    !strcmp(a, "--retries")) {
			if (!val)
				return usage_error("option %s needs a value", a);
			i++;
			if (!strcmp(a, "--sha256"))
				o.sha256 = val;
			else if (!strcmp(a, "--cache"))
				o.cache_dir = val;
			else if (!strcmp(a, "--extract"))
				extract = val;
			else {
				unsigned long long n;

				if (parse_ull(val, &n) || n > 20)
					return usage_error("--retries wants a number 0..20, not '%s'", val);
				o.retries = (int)n;
			}
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o.quiet = true;
			lb_quiet = 1;
		} else if (!strcmp(a, "--progress")) {
			o.progress = 1;
		} else if (!strcmp(a, "--no-progress")) {
			o.progress = 0;
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (src) {
			return usage_error("only one URL, not also '%s'", a);
		} else {
			src = a;
		}
	}
	if (!src)
		return usage_error("%s", "fetch needs a URL");
	if (o.sha256 && sha256_parse_hex(o.sha256, NULL))
		return usage_error("malformed --sha256 '%s': expected 64 hex digits", o.sha256);

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
		return usage_error("unsupported URL '%s': use http://, https:// or file://", src);
	} else if (!extract) {
		return usage_error("'%s' is not a URL (a local tarball needs --extract DIR)", src);
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

		r = net_extract_tree(path, extract);
		if (!r)
			info("extracted %s into %s in %.2f s", path, extract, now_monotonic() - t0);
	}
	fetch_result_release(&res);
	if (r == -2 || lb_stop_requested())
		return LB_EXIT_INTERRUPTED;
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}
