/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results archives read as label folders (docs/ARCHITECTURE.md §4): the
 * archives named on a `compare` or `plot` command line (or found in a
 * folder given there) are unpacked by the helper program (net_unpack:
 * every entry checked before it is written, results_read.h) into one
 * private temp folder, $TMPDIR/lrubench-results-<pid>-XXXXXX (mode 0700,
 * registered for cleanup, so it goes at exit, on SIGINT and on a second
 * signal; one left by a SIGKILLed lrubench is removed by the next unpack,
 * found by its dead pid). Then each archive's manifest is checked here:
 * format, schema, a non-empty list of labels that matches its folders,
 * each a label folder. The caller loads the folders as any others.
 *
 * Why unpack to disk rather than parse from the helper's output: the
 * loader (core/results.c) reads folders, and everything that reads labels
 * then takes archives with no second code path; the data is small and the
 * temp folder is usually tmpfs (bench/pack measures what it costs).
 */
#ifndef LRUBENCH_RESULTS_UNPACK_H
#define LRUBENCH_RESULTS_UNPACK_H

#include "core/strlist.h"
#include "core/util.h"

/*
 * Unpack archives; for each label inside, push its folder to dirs and the
 * name to show for it, "ARCHIVE:LABEL", to shown (same index). 0, or -1
 * with the reason in err (the helper prints the reason of a refused entry
 * itself, and err then says which archive).
 */
int results_unpack(const struct strlist *archives, struct strlist *dirs, struct strlist *shown,
		   struct strbuf *err);

/*
 * The manifest's text (archive names the archive in messages): format,
 * schema, a non-empty list of labels, each by the label rule, none twice.
 * 0 with the labels appended to labels (empty before), or -1 with err and
 * labels empty. Pure (fuzz/fuzz_manifest.c): the folders are checked by
 * the caller.
 */
int results_manifest_labels(const char *text, size_t len, const char *archive,
			    struct strlist *labels, struct strbuf *err);

/* A new private temp folder of the same kind (0700, removed at exit or on
 * a signal), for archives `push` packs on the way; NULL with err. */
const char *results_private_dir(struct strbuf *err);

#endif
