/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A time series file: what the monitors sampled during one timed iteration
 * (src/monitor/, docs/ARCHITECTURE.md §8 and §12). Written by the sampler as
 * it goes, read by the run (the level tables), compare and plot through the
 * one bounded reader here.
 *
 * Text, one record a line, integers only, each value the difference from
 * the previous value of its column (most levels change little between two
 * samples, so most values are "0"):
 *
 *   lrubench-series 1                  the first line
 *   m KEY TEXT                         a fact (interval_ms, cpu, absent ...)
 *   c NAME NAME ...                    columns, appended to those declared
 *   r T V V ...                        a sample: T ms since the start (a
 *                                      delta), one value per declared column,
 *                                      "." when it was not read this time
 *   x TEXT                             a note: why the series stopped early
 *   e N                                the end: N samples were written
 *
 * A column's first value is a delta from 0; an absent value leaves its
 * column's last value as it was. A file without "e" is a series that was
 * cut short (the sampler killed): its complete lines are read, and
 * series.ended says so. Hostile or truncated files are refused with the
 * file and the byte offset, in bounded memory (SERIES_MAX_*).
 */
#ifndef LRUBENCH_SERIES_H
#define LRUBENCH_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/util.h"

#define SERIES_MAGIC "lrubench-series 1"
#define SERIES_ABSENT INT64_MIN
#define SERIES_FILE_MAX ((size_t)64 << 20)
#define SERIES_MAX_COLS 4096
#define SERIES_MAX_CELLS ((size_t)8 << 20)   /* rows x columns, absent ones included */
#define SERIES_MAX_META 256
#define SERIES_NAME_MAX 128

struct series {
	char **cols;
	size_t ncols;
	size_t nrows;
	int64_t *t_ms;          /* nrows: ms since the start */
	int64_t **v;            /* ncols arrays of nrows; SERIES_ABSENT when not read */
	char **meta_key, **meta_val;
	size_t nmeta;
	bool ended;             /* an "e" record: the sampler stopped as asked */
	char *note;             /* the "x" record, or NULL */
	size_t cap;             /* rows allocated per column */
};

/* Where the series of (workload, step, iteration) is in a label folder:
 * LABEL/series/<workload>/<step>.<iteration>.series, the names kept to
 * A-Z a-z 0-9 . _ + - (others '_'; a results archive's rule). Malloc'ed. */
char *series_path(const char *label_dir, const char *workload, const char *step, int iteration);

/* Parse text (len bytes; path names it in messages). 0, or -1 with err
 * "PATH: offset N: what"; *s is released on error. */
int series_parse(const char *text, size_t len, const char *path, struct series *s, struct strbuf *err);
/* Read a regular file (no symlink) of at most SERIES_FILE_MAX and parse it. */
int series_load(const char *path, struct series *s, struct strbuf *err);
void series_release(struct series *s);
/* Index of column name, or -1. */
long series_col(const struct series *s, const char *name);
/* The value of meta key, or NULL. */
const char *series_meta(const struct series *s, const char *key);

/*
 * The main levels of a series, in MB (2^20 bytes), each from the first of
 * its alternatives whose columns the series has: what the run turns into
 * the tables "<workload> <what> (peak)" / "(min)" and "(end)", and what
 * plot draws over time. The one list, so the tables and the figures agree.
 */
enum series_unit { SU_BYTES, SU_KB, SU_PAGES };
struct series_level {
	const char *what;          /* "active file MB" */
	const char *slug;          /* "active-file": figure names */
	bool low;                  /* its interesting extreme is the minimum (MemFree) */
	struct { const char *col, *minus; enum series_unit unit; } alt[2];
};
extern const struct series_level series_levels[];
extern const size_t series_levels_count;
/* Is title one of the level tables monitor_levels makes for workload
 * ("<workload> <what> (peak|min|end)")? */
bool series_level_title(const char *workload, const char *title);
/* The level over the rows into out[nrows] (NAN where not read); false when
 * the series has none of its alternatives. */
bool series_level_values(const struct series *s, const struct series_level *l, double *out);

/* Writing, as the sampler does: every record is written whole with write(2)
 * as it is made, so a killed writer leaves complete lines (and at most one
 * partial one, which series_seal cuts). */
struct series_writer {
	int fd;
	size_t ncols, rows;
	int64_t *prev;          /* each column's last value */
	int64_t prev_t;
	struct strbuf line;
	int failed;             /* errno of the first failed write, 0 */
};
/* Write the magic line to fd (not closed by the writer). 0 or -1. */
int series_writer_init(struct series_writer *w, int fd);
int series_writer_meta(struct series_writer *w, const char *key, const char *text);
int series_writer_columns(struct series_writer *w, const char *const *names, size_t n);
/* One sample of all declared columns (SERIES_ABSENT: not read). */
int series_writer_row(struct series_writer *w, int64_t t_ms, const int64_t *vals);
int series_writer_end(struct series_writer *w);
void series_writer_release(struct series_writer *w);
/* A series whose writer died: cut what follows its last newline and add an
 * "x note" record. 0 or -1 (errno). */
int series_seal(int fd, const char *note);

#endif
