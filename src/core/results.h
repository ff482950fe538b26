/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results schema (docs/ARCHITECTURE.md §8): results/<label>/run.json and
 * results/<label>/<workload>.json. This is the contract between run, compare
 * and plot, and users may write these files by hand, so the loader is strict
 * and its errors name the file and the place (byte offset or JSON path).
 *
 * <workload>.json, schema 1:
 *   { "schema": 1, "workload": "readtwice",
 *     "tables": [ { "title": "...", "unit": "MB/s", "better": "higher",
 *                   "x_axis": { "name": "memory cgroups", "unit": "count" },
 *                   "explains": true,                           (optional)
 *                   "ops": [ { "op": "memcgs-1", "samples": [ ... ] } ] } ],
 *     "details": [ { "step": "memcgs-1", "iteration": 0, ... } ],   (optional)
 *     "progress": [ { "step": "memcgs-1", "done": 3 } ],            (optional, for --resume)
 *     "adaptive": [ { "table": "...", "op": "memcgs-1", ... } ],      (optional, iterations = auto)
 *     "order": [ { "step": "memcgs-1", "iteration": 0 }, ... ] }      (optional, interleave = yes)
 *
 * "x_axis" (optional) says what the table's ops sweep (workload.h, struct
 * x_axis): an object with the strings "name" and "unit", or null when the
 * ops are categories. Files written before it existed have none; readers
 * then guess from the op names (plot). It was added without a new schema
 * number: a reader that does not know it ignores it.
 *
 * "adaptive" and "order" were added the same way (core/schedule.h). With
 * iterations = auto each op of a step that stopped has a record: "table",
 * "op", "step", "iterations" (its sample count), "stopped" ("reached",
 * "decided", "iteration cap", "time cap"), "precision" (percent, the 95% CI
 * half-width of its mean relative to it; null when undefined), "decides"
 * (false for ops outside the workload's first table) and, with a baseline,
 * "change_ci" [lo, hi] (percent, positive is better); the progress entry of
 * the step adds "stopped" and "seconds". With global.interleave, "order"
 * lists the measured iterations in the order they ran. They are kept as
 * JSON: the run loop and compare read them, nothing else needs a struct.
 */
#ifndef LRUBENCH_RESULTS_H
#define LRUBENCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/util.h"

#define RESULTS_SCHEMA 1

/*
 * Bounds on what one results file may hold (issue 30). json-c needs ~70
 * bytes per JSON value (~40 times a file's size), so the values are
 * counted in the text before it is parsed: RESULTS_MAX_VALUES is ~600 MB
 * of json-c at most. The largest real files are far below: bench/
 * compare-scale's 5 tables x 20,000 ops x 30 samples is 3.2 M values.
 */
#define RESULTS_MAX_VALUES (UINT64_C(8) << 20)
#define RESULTS_MAX_TABLES 1000
#define RESULTS_MAX_OPS 200000        /* per table */
#define RESULTS_MAX_SAMPLES 100000    /* per op */

enum better { BETTER_LOWER = -1, BETTER_HIGHER = 1 };

struct op_samples {
	char *op;
	double *v;
	size_t n, cap;
};

struct result_table {
	char *title;
	char *unit;
	int better;              /* enum better */
	bool explains;           /* explains the throughput tables (CPU split, reclaim, locks) */
	bool x_known;            /* "x_axis" present (false in older files) */
	char *x_name, *x_unit;   /* x_known: the axis; x_name NULL: categorical ops */
	struct op_samples *ops;  /* in first-seen order */
	size_t nops, cap;
};

struct wl_result {
	char *workload;
	struct result_table *tables;
	size_t ntables, cap;
	json_object *details;    /* array, owned; may be NULL */
	json_object *progress;   /* array, owned; may be NULL */
	json_object *adaptive;   /* array, owned; may be NULL (iterations = auto) */
	json_object *order;      /* array, owned; may be NULL (interleave = yes) */
};

struct label_result {
	char *label;
	char *dir;
	json_object *run;        /* parsed run.json, owned */
	struct wl_result *wls;   /* every <workload>.json in the folder, sorted by name */
	size_t nwls;
};

/* Find or add a table / an op. */
struct result_table *wl_result_table(struct wl_result *r, const char *title,
				     const char *unit, int better);
/* The same, for a table that explains the throughput tables ("explains":
 * true: compare groups it under its own heading, the gate skips it). */
struct result_table *wl_result_explaining_table(struct wl_result *r, const char *title,
						const char *unit, int better);
struct op_samples *result_table_op(struct result_table *t, const char *op);
void result_table_add(struct result_table *t, const char *op, double v);
/* Declare the table's x axis (name NULL: categorical ops); copies. */
void result_table_set_x_axis(struct result_table *t, const char *name, const char *unit);
/* An op's x value: the decimal number that ends its name ("memcgs-16" ->
 * 16, "4" -> 4), with *series_len (may be NULL) the length of what comes
 * before it ("memcgs-"). false when the name does not end in a plain
 * count: no digits, a fraction or exponent ("0.5", "1e+3"), or more than
 * 18 digits. */
bool results_op_x(const char *op, size_t *series_len, unsigned long long *x);
const struct result_table *wl_result_find_table(const struct wl_result *r, const char *title);
const struct op_samples *result_table_find_op(const struct result_table *t, const char *op);

json_object *wl_result_to_json(const struct wl_result *r);
int wl_result_from_json(json_object *o, const char *path, struct wl_result *out, struct strbuf *err);
int wl_result_load(const char *path, struct wl_result *out, struct strbuf *err);
int wl_result_save(const char *path, const struct wl_result *r, struct strbuf *err);
void wl_result_release(struct wl_result *r);

/* Parse a JSON file; on a syntax error err says "FILE: invalid JSON at
 * line L, byte B: <reason>", on more than RESULTS_MAX_VALUES values or a
 * failed allocation it says so. Returns NULL on error. */
json_object *json_load_file(const char *path, struct strbuf *err);
/* A JSON string holding a NUL ("a\u0000b"): its C string would silently be
 * "a" and collide with another name, so such a value is refused. */
bool json_string_has_nul(json_object *v);
/* The same for text already in memory (path names it in messages). */
json_object *json_parse_text(const char *text, size_t len, const char *path, struct strbuf *err);
/* Atomic write (temp + fsync + rename), pretty-printed. */
int json_save_file(const char *path, json_object *o, struct strbuf *err);

/* A label folder: run.json plus every other *.json. */
int label_result_load(const char *dir, struct label_result *out, struct strbuf *err);
void label_result_release(struct label_result *l);
/* The label's results of one workload, or NULL. */
const struct wl_result *label_result_find(const struct label_result *l, const char *workload);
/* Is dir a label folder (has run.json)? */
bool is_label_dir(const char *dir);

#endif
