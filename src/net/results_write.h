/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing a results archive (core/results_archive.h gives the layout) with
 * libarchive. Linked into the helper program lrubench-net only; lrubench
 * asks for it with net_pack() (core/net_client.h) after checking that every
 * folder is a label folder whose results load.
 *
 * What goes in, per label: run.json, every other top-level *.json (the
 * workload results), and the regular files below logs/ up to RA_LOG_MAX
 * each (a bigger one, a symlink or a name outside the archive's rules is
 * left out with a warning naming it). Nothing else: scratch files, hidden
 * files and whatever a user dropped beside the results stay home. Entries
 * are sorted by name, owned by 0:0, mode 0644 (folders 0755), mtime kept,
 * so two packs of the same folders hold the same tar stream. Files are
 * opened without following symlinks, and a file that shrinks while it is
 * read fails the pack.
 *
 * The archive is written to a hidden temp file beside out (registered for
 * cleanup), fsynced and renamed into place: out never holds half an
 * archive. Without force an existing out is an error, checked again at the
 * rename (RENAME_NOREPLACE) so a racing writer is not clobbered either.
 */
#ifndef LRUBENCH_NET_RESULTS_WRITE_H
#define LRUBENCH_NET_RESULTS_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/results_archive.h"

struct pack_stats {
	size_t files;
	unsigned long long bytes_in, bytes_out;
};

/* labels[i] is packed from dirs[i] as folder labels[i]/. NET_OK; NET_FAILED
 * (printed); NET_INTERRUPTED (nothing left behind; core/net_client.h). */
int results_write(const char *out, enum ra_compress c, bool force, char *const *labels,
		  char *const *dirs, size_t n, struct pack_stats *st);

#endif
