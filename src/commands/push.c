// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench push (the options: push_options below): results archives, or
 * label folders packed on the way, uploaded to a results store by the
 * helper program (net/push.h: temporary name then MOVE, checksum header,
 * retries, what each HTTP failure means; net/store_auth.h: credentials from
 * the environment or files only).
 *
 * Exit codes: 0 ok; 1 an upload failed (nothing half-written is left in the
 * store); 2 usage, a file that is not a results archive, a folder that is
 * not a label folder; 3 the helper is missing; 130 interrupted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "commands/commands.h"
#include "compare/labels.h"
#include "core/cleanup.h"
#include "core/net_client.h"
#include "core/results_pack.h"
#include "core/results_unpack.h"
#include "core/strlist.h"

/* The command line as given; reset by every cmd_push(). */
static struct {
	const char *token_file, *netrc_file, *checksum;
	unsigned long long retries;
	double timeout;            /* seconds; 0: not given */
	bool force, direct, quiet;
} O;

static const struct popt push_options[] = {
	POPT_BOOL(0, "force", &O.force, "replace an archive of the same name in the store"),
	POPT_UINT(0, "retries", &O.retries, "N", "retries of a transient failure, 0..20 (3)", 0, 20),
	POPT_TIME(0, "timeout", &O.timeout, "SECS", "the most one request may take (600)", 0, 86400),
	POPT_STRING(0, "token-file", &O.token_file, "FILE",
		    "the bearer token's file ($LRUBENCH_TOKEN_FILE)"),
	POPT_STRING(0, "netrc-file", &O.netrc_file, "FILE", "the netrc file (~/.netrc)"),
	POPT_STRING(0, "checksum", &O.checksum, "digest|amz|none",
		    "the checksum header (digest: Repr-Digest)"),
	POPT_BOOL(0, "direct", &O.direct, "PUT the final name, no temporary one and MOVE"),
	POPT_BOOL('q', "quiet", &O.quiet, "print errors only"),
	POPT_END(),
};

const struct popt_command push_command = {
	"push", "FILE|LABELDIR... URL",
	"Upload results archives to a results store with HTTP PUT (a WebDAV server,\n"
	"or an S3 presigned URL). A LABELDIR (a label folder or a folder of them) is\n"
	"packed first, one LABEL.tar.zst per label. URL names the file, or ends in /\n"
	"to keep the file names (needed for more than one). Each upload goes to a\n"
	"hidden temporary name and is then renamed with WebDAV MOVE, so the store\n"
	"never shows half an archive; an existing archive is kept unless --force.\n"
	"A sha256 travels in a Repr-Digest header (--checksum amz: S3's header).\n"
	"Transient failures (timeouts, HTTP 408/429/5xx) are retried with backoff.\n"
	"Credentials never come from the command line: a bearer token in\n"
	"$LRUBENCH_TOKEN or in a file ($LRUBENCH_TOKEN_FILE, --token-file), else a\n"
	"netrc entry. Exit 0 ok; 1 an upload failed; 2 usage or not a results archive;\n"
	"3 no helper program lrubench-net; 130 interrupted.",
	push_options,
};

/* --retries, --timeout, --checksum into r; 0 or LB_EXIT_USAGE. */
static int check_options(struct push_request *r)
{
	memset(r, 0, sizeof(*r));
	r->retries = (int)O.retries;
	r->timeout = O.timeout;   /* 0: not given */
	if (O.checksum && strcmp(O.checksum, "digest") && strcmp(O.checksum, "amz") &&
	    strcmp(O.checksum, "none"))
		return popt_usage_error(&push_command, "--checksum: '%s' is not digest, amz or none",
					O.checksum);
	r->checksum = O.checksum;
	r->token_file = O.token_file;
	r->netrc_file = O.netrc_file;
	r->force = O.force;
	r->direct = O.direct;
	return 0;
}

/* http(s), and no user:password@ (it would show in `ps`): 0 or exit 2. */
static int check_url(const char *url)
{
	if (strncasecmp(url, "http://", 7) && strncasecmp(url, "https://", 8)) {
		char *shown = store_url_shown(url);   /* a presigned URL's signature */
		int r = popt_usage_error(&push_command, "'%s' is not an http:// or https:// URL",
					 shown);

		free(shown);
		return r;
	}
	if (fetch_url_has_credentials(url))
		return popt_usage_error(&push_command, "refusing a URL with a user name or password "
					"in it (it would show in process lists and logs): put the "
					"credentials in $LRUBENCH_TOKEN, $LRUBENCH_TOKEN_FILE or a "
					"netrc file");
	return 0;
}

int cmd_push(int argc, char **argv)
{
	struct strlist dirs = STRLIST_INIT, files = STRLIST_INIT, urls = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT, pushed = STRBUF_INIT;
	struct push_request req;
	const char *url, *tmp = NULL;
	char *helper;
	int n, r, ret = LB_EXIT_USAGE;

	memset(&O, 0, sizeof(O));
	O.retries = 3;
	n = parse_options(&push_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (O.quiet)
		lb_quiet = 1;
	if (check_options(&req))
		return LB_EXIT_USAGE;
	if (n < 2)
		return popt_usage_error(&push_command, "give what to push and the URL to push it to");
	url = argv[n - 1];
	if (check_url(url))
		return LB_EXIT_USAGE;
	if (labels_find(argv, (size_t)n - 1, &dirs, &files, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (dirs.n + files.n > 1 && url[strlen(url) - 1] != '/') {
		ret = popt_usage_error(&push_command, "%zu files to push: give a URL ending in '/' "
				       "(a folder of the store)", dirs.n + files.n);
		goto out;
	}
	helper = net_helper_path();
	if (!helper) {
		ret = LB_EXIT_UNSUPPORTED;
		goto out;
	}
	free(helper);
	if (dirs.n && !(tmp = results_private_dir(&err))) {
		error("%s", err.buf);
		ret = LB_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < dirs.n; i++) {
		char *archive;

		ret = results_pack_label(dirs.v[i], tmp, &archive);
		if (ret) {
			free(archive);
			goto out;
		}
		strlist_push(&files, archive);
		free(archive);
	}
	for (size_t i = 0; i < files.n; i++)
		strlist_push(&urls, url);
	/* the helper checks every file is a results archive before sending
	 * any: no garbage in the store (-3: exit 2) */
	r = net_push(&files, &urls, &req, &pushed);
	if (r) {
		ret = r == NET_INTERRUPTED || lb_stop_requested() ? LB_EXIT_INTERRUPTED :
		      r == NET_BAD_INPUT ? LB_EXIT_USAGE : LB_EXIT_FAIL;
		goto out;
	}
	{
		char *save = NULL, *line = strtok_r(pushed.buf, "\n", &save);

		for (size_t i = 0; line && i < files.n; i++, line = strtok_r(NULL, "\n", &save))
			info("pushed %s to %s", files.v[i], line);
	}
	ret = LB_EXIT_OK;
out:
	strlist_release(&dirs);
	strlist_release(&files);
	strlist_release(&urls);
	strbuf_release(&err);
	strbuf_release(&pushed);
	return ret;
}
