// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench pack (the options: pack_options below): label folders into one
 * results archive (core/results_archive.h gives its layout). lrubench
 * finds the folders and loads each one's results -- a folder compare could
 * not read is not packed -- and the helper program writes the archive
 * (net/results_write.h: what goes in, and the atomic rename).
 *
 * Exit codes: 0 ok; 1 writing failed; 2 usage, or a folder that is not a
 * label folder or whose results do not load; 3 the helper is missing;
 * 130 interrupted (no partial archive is left).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "compare/labels.h"
#include "core/cleanup.h"
#include "core/net_client.h"
#include "core/results.h"
#include "core/results_archive.h"
#include "core/results_pack.h"
#include "core/strlist.h"

/* The command line as given; reset by every cmd_pack(). */
static struct {
	const char *out, *compress;
	bool force, quiet;
} O;

static const struct popt pack_options[] = {
	POPT_STRING('o', "output", &O.out, "FILE", "the archive (LABEL.tar.zst for one label)"),
	POPT_STRING(0, "compress", &O.compress, "zstd|gzip|xz",
		    "compression (zstd, or what FILE's suffix says)"),
	POPT_BOOL(0, "force", &O.force, "replace FILE if it exists"),
	POPT_BOOL('q', "quiet", &O.quiet, "print errors only"),
	POPT_END(),
};

const struct popt_command pack_command = {
	"pack", "LABELDIR...",
	"Pack label folders into one results archive, a compressed tar that compare,\n"
	"plot, push and fetch --results read wherever they read label folders.\n"
	"LABELDIR is a label folder (it holds run.json) or a folder of them. Each label\n"
	"keeps run.json, its <workload>.json results and its logs (each up to 16 MiB);\n"
	"nothing else. A folder whose results do not load is not packed. The archive is\n"
	"written whole or not at all; an existing FILE is kept unless --force. Exit 0\n"
	"ok; 1 writing failed; 2 usage or unreadable results; 3 no helper program\n"
	"lrubench-net; 130 interrupted.",
	pack_options,
};

/* -o and --compress, agreeing with each other; *out is malloc'ed. */
static int pick_output(const struct label_result *first, size_t nlabels, char **out,
		       enum ra_compress *c)
{
	enum ra_compress by_suffix;
	bool has_suffix = O.out && ra_suffix_compress(O.out, &by_suffix);

	*c = has_suffix ? by_suffix : RA_ZSTD;
	if (O.compress) {
		if (ra_compress_parse(O.compress, c))
			return popt_usage_error(&pack_command, "--compress: '%s' is not zstd, gzip or xz",
						O.compress);
		if (has_suffix && *c != by_suffix)
			return popt_usage_error(&pack_command, "--compress %s, but %s ends like a %s "
						"archive", O.compress, O.out,
						ra_compress_name(by_suffix));
	}
	if (O.out && !*O.out)
		return popt_usage_error(&pack_command, "-o: empty file name");
	if (!O.out && nlabels != 1)
		return popt_usage_error(&pack_command, "%zu labels: name the archive with -o FILE",
					nlabels);
	*out = O.out ? xstrdup(O.out) : xasprintf("%s%s", first->label, ra_compress_suffix(*c));
	return 0;
}

int cmd_pack(int argc, char **argv)
{
	struct strlist dirs = STRLIST_INIT, archives = STRLIST_INIT, names = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	struct label_result first = { 0 };
	enum ra_compress c;
	char *out = NULL;
	int n, ret = LB_EXIT_USAGE;

	memset(&O, 0, sizeof(O));
	n = parse_options(&pack_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (O.quiet)
		lb_quiet = 1;
	if (!n)
		return popt_usage_error(&pack_command, "give at least one label folder");
	if (labels_find(argv, (size_t)n, &dirs, &archives, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (archives.n) {
		error("%s is a file, not a label folder (pack reads label folders; an archive is "
		      "packed already)", archives.v[0]);
		goto out;
	}
	if ((ret = results_pack_check(&dirs, &names)))
		goto out;
	ret = LB_EXIT_USAGE;
	first.label = names.v[0];
	if (pick_output(&first, dirs.n, &out, &c))
		goto out;
	if (!O.force && path_exists(out)) {
		error("%s exists already (--force replaces it)", out);
		goto out;
	}
	ret = results_pack_write(&dirs, &names, out, c, O.force);
out:
	free(out);
	strlist_release(&dirs);
	strlist_release(&archives);
	strlist_release(&names);
	strbuf_release(&err);
	return ret;
}
