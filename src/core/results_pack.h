/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packing label folders into a results archive, for `pack`, `push` (label
 * folders packed on the way) and fleet tasks: lrubench loads each folder's
 * results first -- a folder compare could not read is not packed -- and the
 * helper program writes the archive (net/results_write.h).
 * Each returns an LB_EXIT_* code, with a message printed when not 0.
 */
#ifndef LRUBENCH_RESULTS_PACK_H
#define LRUBENCH_RESULTS_PACK_H

#include <stdbool.h>
#include "core/results_archive.h"
#include "core/strlist.h"

/* Load each folder's results; their labels to names, each once (exit 2
 * for a folder that does not load or a label given twice). */
int results_pack_check(const struct strlist *dirs, struct strlist *names);
/* dirs[i] as names[i]/ into out (exit 1 writing failed, 3 no helper). */
int results_pack_write(const struct strlist *dirs, const struct strlist *names,
		       const char *out, enum ra_compress c, bool force);
/* The label folder dir into OUTDIR/LABEL.tar.zst (*out, malloc'ed). */
int results_pack_label(const char *dir, const char *outdir, char **out);

#endif
