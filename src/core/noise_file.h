/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RESULTS/noise.json, the last noise floor measured on this machine
 * (`lrubench noise`, docs/ARCHITECTURE.md §10; its statistics are
 * compare/noise_floor.h): written by the noise command into the results
 * folder, read from the folder that holds a baseline label by compare (the
 * floor note) and by run (-i auto --baseline: the spread between runs the
 * sequential interval must hold, core/adaptive.h). A results file, so the
 * core reads it: bounded, a regular file, and only this machine's.
 */
#ifndef LRUBENCH_NOISE_FILE_H
#define LRUBENCH_NOISE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/results.h"

#define NOISE_FILE "noise.json"
#define NOISE_SCHEMA 1
/* the most runs `noise --runs` makes */
#define NOISE_RUNS_MAX 100
/* a spread (percent) above this is no measurement of a throughput */
#define NOISE_PCT_MAX 1000

/*
 * RESULTS/noise.json of the folder that holds the baseline label, when
 * it was measured on the same machine (hostname, CPU model, CPU count,
 * memory). Returns the parsed file (the caller puts it), or NULL when
 * there is none or it belongs to another machine; a file that is there but
 * unreadable is NULL with a warning, never an error: the floor is a note.
 */
json_object *noise_file_load(const struct label_result *baseline);
/* The op's spread and bias in the file, when the workload's config there
 * matches the label's (iterations and warmup aside). */
bool noise_file_floor(json_object *noise, json_object *label_run, const char *workload,
		      const char *table, const char *op, double *spread, double *bias);
/* The op's spread between runs (percent), the runs that measured it
 * (noise --runs R, R >= 2) and the degrees of freedom of its variance
 * (at most R - 1), on the same condition. */
bool noise_file_between(json_object *noise, json_object *label_run, const char *workload,
			const char *table, const char *op, double *between, size_t *runs,
			double *df);
/* When the file was measured (its "measured" string; NULL: none): a
 * resumed run holds the same file it started with. */
const char *noise_file_measured(json_object *noise);
/* The most runs any op of the workload's spread between runs came from;
 * 0 when the file has none for it (or for the label's config). */
size_t noise_file_runs(json_object *noise, json_object *label_run, const char *workload);

#endif
