/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The labels that `compare` and `plot` read, found from their command line. */
#ifndef LRUBENCH_LABELS_H
#define LRUBENCH_LABELS_H

#include <stddef.h>
#include "core/results.h"
#include "core/strlist.h"
#include "core/util.h"

/*
 * The labels named on a command line: each DIR is a label folder, a results
 * archive (core/results_archive.h; any file, checked as one) or a folder of
 * label folders and results archives (*.tar.zst, .tar.gz, .tar.xz, .tar).
 * Archives are unpacked into a private temp folder that lives until exit,
 * and their labels' dir reads "ARCHIVE:LABEL". names (may be NULL) picks and orders labels by
 * name; otherwise labels are ordered by run.json "started". Errors: missing
 * folder, no results, unknown name in names.
 */
int labels_collect(char **dirs, size_t ndirs, const char *names,
		   struct label_result **out, size_t *nout, struct strbuf *err);
void labels_release(struct label_result *l, size_t n);
/* What DIRs name, without loading: label folders to label_dirs, results
 * archives to archives (`pack` uses it). */
int labels_find(char **dirs, size_t ndirs, struct strlist *label_dirs, struct strlist *archives,
		struct strbuf *err);

#endif
