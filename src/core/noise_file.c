// SPDX-License-Identifier: GPL-2.0-or-later
/* RESULTS/noise.json: finding this machine's file and its numbers; see noise_file.h. */
#include "core/noise_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/util.h"

/* noise.json is small (a few numbers per op): anything larger is not ours */
#define NOISE_FILE_MAX (16 << 20)

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool same_text(json_object *a, json_object *b)
{
	return a && b && !strcmp(json_object_get_string(a), json_object_get_string(b));
}

/* the facts that make a machine this machine, as run.json records them */
static bool same_machine(json_object *noise_sys, json_object *run_sys)
{
	static const char *const keys[] = { "hostname", "cpu_model", "nr_cpus", "mem_total_kb" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!same_text(get(noise_sys, keys[i]), get(run_sys, keys[i])))
			return false;
	return true;
}

json_object *noise_file_load(const struct label_result *baseline)
{
	const char *slash = strrchr(baseline->dir, '/');
	char *dir = slash ? xstrndup(baseline->dir, (size_t)(slash - baseline->dir + (slash == baseline->dir)))
			  : xstrdup(".");
	char *path = xasprintf("%s/%s", dir, NOISE_FILE);
	struct strbuf err = STRBUF_INIT;
	json_object *o = NULL, *v;
	struct stat st;

	if (lstat(path, &st))
		goto out;
	if (!S_ISREG(st.st_mode) || st.st_size > NOISE_FILE_MAX) {
		warning("%s: not a regular file of at most %d MiB: no noise floor", path, NOISE_FILE_MAX >> 20);
		goto out;
	}
	o = json_load_file(path, &err);
	if (!o) {
		warning("%s: no noise floor", strbuf_str(&err));
		goto out;
	}
	v = get(o, "schema");
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int(v) != NOISE_SCHEMA ||
	    !json_object_is_type(get(o, "workloads"), json_type_array)) {
		warning("%s: schema not known: no noise floor", path);
		json_object_put(o);
		o = NULL;
	} else if (!same_machine(get(o, "system"), get(baseline->run, "system"))) {
		json_object_put(o);   /* another machine's floor says nothing about this one */
		o = NULL;
	}
out:
	strbuf_release(&err);
	free(path);
	free(dir);
	return o;
}

/* the workload's keys of both configs, iterations and warmup aside (the
 * floor is scaled to the sample counts) */
static bool same_workload_config(json_object *a, json_object *b)
{
	if (!a || !b || !json_object_is_type(a, json_type_object) || !json_object_is_type(b, json_type_object))
		return false;
	for (int pass = 0; pass < 2; pass++) {
		json_object_object_foreach(pass ? b : a, k, v) {
			if (!strcmp(k, "iterations") || !strcmp(k, "warmup"))
				continue;
			if (!same_text(v, get(pass ? a : b, k)))
				return false;
		}
	}
	return true;
}

static json_object *find_named(json_object *arr, const char *key, const char *name)
{
	for (size_t i = 0; json_object_is_type(arr, json_type_array) && i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i), *k = get(e, key);

		if (k && json_object_is_type(k, json_type_string) && !strcmp(json_object_get_string(k), name))
			return e;
	}
	return NULL;
}

/* the op's entry in the file, when the workload's config there matches the label's */
static json_object *find_op(json_object *noise, json_object *label_run, const char *workload,
			    const char *table, const char *op)
{
	json_object *w = find_named(get(noise, "workloads"), "workload", workload), *t;

	if (!w || !same_workload_config(get(get(noise, "config"), workload),
					get(get(label_run, "config"), workload)))
		return NULL;
	t = find_named(get(w, "tables"), "title", table);
	return t ? find_named(get(t, "ops"), "op", op) : NULL;
}

/* a finite number of the entry; false when absent or of another type */
static bool number(json_object *o, const char *key, double *v)
{
	json_object *n = get(o, key);

	if (!n || !(json_object_is_type(n, json_type_double) || json_object_is_type(n, json_type_int)))
		return false;
	*v = json_object_get_double(n);
	return isfinite(*v);
}

bool noise_file_floor(json_object *noise, json_object *label_run, const char *workload,
		      const char *table, const char *op, double *spread, double *bias)
{
	json_object *o = find_op(noise, label_run, workload, table, op);

	return o && number(o, "spread_pct", spread) && number(o, "aa_change_pct", bias) &&
	       *spread >= 0;
}

/* an op entry's spread between runs, its runs and degrees of freedom, all
 * in range (a spread with no degrees of freedom would pass for known) */
static bool op_between(json_object *o, double *between, size_t *runs, double *df)
{
	double r;

	if (!o || !number(o, "between_runs_pct", between) || !number(o, "runs", &r) ||
	    !number(o, "between_df", df) || *between < 0 || *between > NOISE_PCT_MAX || r < 2 ||
	    r > NOISE_RUNS_MAX || r != floor(r) || *df < 0 || *df > r - 1 + 1e-9 ||
	    (*between > 0 && !(*df > 0)))
		return false;
	*runs = (size_t)r;
	return true;
}

bool noise_file_between(json_object *noise, json_object *label_run, const char *workload,
			const char *table, const char *op, double *between, size_t *runs,
			double *df)
{
	return op_between(find_op(noise, label_run, workload, table, op), between, runs, df);
}

const char *noise_file_measured(json_object *noise)
{
	json_object *m = get(noise, "measured");

	return m && json_object_is_type(m, json_type_string) ? json_object_get_string(m) : NULL;
}

size_t noise_file_runs(json_object *noise, json_object *label_run, const char *workload)
{
	json_object *w = find_named(get(noise, "workloads"), "workload", workload), *tables;
	size_t most = 0;

	if (!w || !same_workload_config(get(get(noise, "config"), workload),
					get(get(label_run, "config"), workload)))
		return 0;
	tables = get(w, "tables");
	for (size_t t = 0; json_object_is_type(tables, json_type_array) &&
			   t < json_object_array_length(tables); t++) {
		json_object *ops = get(json_object_array_get_idx(tables, t), "ops");

		for (size_t o = 0; json_object_is_type(ops, json_type_array) &&
				   o < json_object_array_length(ops); o++) {
			double b, d;
			size_t r;

			if (op_between(json_object_array_get_idx(ops, o), &b, &r, &d) && r > most)
				most = r;
		}
	}
	return most;
}
