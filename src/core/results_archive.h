/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results archive (docs/ARCHITECTURE.md §8, "Results archives"): one
 * or more label folders in a compressed tar, as `lrubench pack` writes it
 * and `compare`, `plot`, `push` and `fetch --results` read it.
 *
 *   lrubench-archive.json        the manifest, always the first entry:
 *                                {"format": "lrubench-results", "schema": 1,
 *                                 "lrubench_version": "...", "created": "...",
 *                                 "labels": ["a", "b"]}
 *   LABEL/                       one folder per label, named by its label
 *   LABEL/run.json               as in results/<label>/
 *   LABEL/<workload>.json
 *   LABEL/logs/...               the logs, each up to RA_LOG_MAX
 *   LABEL/series/...             the monitors' series (core/series.h), the same
 *
 * This file holds the rules both sides share, with no library behind them:
 * the pack side (lrubench-net, net/results_write.c) writes nothing else,
 * and the read side (net/results_read.c) refuses anything else, before a
 * byte of it reaches the disk. The manifest's content is checked by
 * lrubench (core/results_unpack.c), where json-c lives.
 */
#ifndef LRUBENCH_RESULTS_ARCHIVE_H
#define LRUBENCH_RESULTS_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/util.h"

#define RA_MANIFEST "lrubench-archive.json"
#define RA_FORMAT "lrubench-results"
#define RA_SCHEMA 1

/*
 * Limits on what is read (a results archive comes from other machines and
 * stores, and is unpacked as root). They are far above real results: a
 * label holds a few to a few hundred files, and one of 4 workloads x 5
 * tables x 20,000 ops x 30 samples is ~250 MB.
 */
#define RA_MAX_ENTRIES 20000               /* files and folders */
#define RA_MAX_FILE (UINT64_C(1) << 30)    /* one file: 1 GiB */
#define RA_MAX_TOTAL (UINT64_C(4) << 30)   /* all files: 4 GiB */
#define RA_MAX_MANIFEST (1024 * 1024)
#define RA_MAX_DEPTH 5                     /* LABEL/logs/round-1/x.log is 4 */
#define RA_MAX_PATH 1024
/* The results files (each label's top-level *.json, what compare, plot and
 * trend load) against the archive's size: results JSON holds numbers and
 * names, which zstd and gzip shrink 3 to 20 times, and json-c needs ~40
 * times a file's size in memory, so results that claim more than
 * RA_MAX_RESULTS_RATIO times the archive, past RA_RESULTS_RATIO_FLOOR in
 * all, are refused at the entry's header, before a byte is written (a
 * 12 KB archive holding two 60 MiB results files took compare to 2.9 GB;
 * issue 30). The logs keep the looser rule of fetch's extraction. */
#define RA_MAX_RESULTS_RATIO 200
#define RA_RESULTS_RATIO_FLOOR (UINT64_C(8) << 20)
/* pack leaves out a log bigger than this (with a warning): results archives
 * are mailed and stored by the thousand; a build log that big says nothing a
 * reader needs that its last lines (kept by the failure message) do not */
#define RA_LOG_MAX (UINT64_C(16) << 20)

enum ra_compress { RA_ZSTD, RA_GZIP, RA_XZ };

/* "zstd", "gzip" or "xz" -> *c; 0 or -1. */
int ra_compress_parse(const char *name, enum ra_compress *c);
const char *ra_compress_name(enum ra_compress c);
/* The usual file suffix: ".tar.zst", ".tar.gz", ".tar.xz". */
const char *ra_compress_suffix(enum ra_compress c);
/* The compression a file name's suffix implies (.tar.zst, .tzst, .tar.gz,
 * .tgz, .tar.xz, .txz); false when it has none of them. */
bool ra_suffix_compress(const char *name, enum ra_compress *c);
/* Does the name end like a results archive (one of the suffixes above, or
 * .tar)? What `compare DIR` picks up beside label folders. */
bool ra_is_archive_name(const char *name);

/*
 * May an entry of this name be in a results archive? name is as stored
 * (a folder's may end in '/'). Allowed: RA_MANIFEST, and LABEL[/PART...]
 * where LABEL follows the label rule (core/label_name.h) and each PART is
 * 1 to 255 characters of A-Z a-z 0-9 . _ + - = , @ not starting with '.',
 * at most RA_MAX_DEPTH components and RA_MAX_PATH bytes in all.
 * NULL when fine, else the reason (static, or in why_buf).
 */
const char *ra_check_entry_name(const char *name, char *why_buf, size_t len);

#endif
