// SPDX-License-Identifier: GPL-2.0-or-later
/* This machine's noise floor: the A/A statistics and RESULTS/noise.json; see noise_floor.h. */
#include "compare/noise_floor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compare/stats.h"
#include "core/util.h"

/* noise.json is small (a few numbers per op): anything larger is not ours */
#define NOISE_FILE_MAX (16 << 20)

/* relative standard deviation of one sample, from the mean row's SE */
static bool side(const double *x, size_t n, int better, double *mean, double *spread)
{
	struct stats st;
	bool ok;
	double se = stats_mean_se(x, n, better, &ok);

	if (!ok)
		return false;
	stats_compute(x, n, &st);
	*mean = stats_mean(&st, better);
	if (*mean == 0)
		return false;
	*spread = 100 * se / fabs(*mean) * sqrt((double)n);
	return true;
}

double noise_floor_at(double spread, double bias, size_t nb, size_t nn)
{
	if (nb + nn <= 2 || !nb || !nn)
		return NAN;
	return fabs(bias) + stats_t_quantile(0.975, (double)(nb + nn - 2)) * spread *
			    sqrt(1 / (double)nb + 1 / (double)nn);
}

bool noise_aa(const double *x, size_t n, int better, struct noise_op *out)
{
	double *a = xmalloc((n / 2 + 1) * sizeof(*a)), *b = xmalloc((n / 2 + 1) * sizeof(*b));
	double ma, mb, sa, sb;
	bool ok;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (i % 2)
			b[out->nb++] = x[i];
		else
			a[out->na++] = x[i];
	}
	ok = side(a, out->na, better, &ma, &sa) && side(b, out->nb, better, &mb, &sb);
	if (ok) {
		out->spread = sqrt((sa * sa + sb * sb) / 2);
		out->bias = better > 0 ? stats_pdiff(mb, ma) : stats_pndiff(mb, ma);
		out->floor = noise_floor_at(out->spread, out->bias, out->na, out->nb);
	}
	free(a);
	free(b);
	return ok;
}

bool noise_between(const double *const *x, const size_t *n, size_t runs, double *within,
		   double *between)
{
	double total = 0, sumsq_n = 0, grand, ssw = 0, ssb = 0, msw, msb, n0;
	size_t N = 0;

	if (runs < 2)
		return false;
	for (size_t r = 0; r < runs; r++) {
		if (n[r] < 2)
			return false;
		for (size_t i = 0; i < n[r]; i++)
			total += x[r][i];
		N += n[r];
		sumsq_n += (double)n[r] * (double)n[r];
	}
	grand = total / (double)N;
	if (grand == 0 || !isfinite(grand))
		return false;
	for (size_t r = 0; r < runs; r++) {
		double m = 0;

		for (size_t i = 0; i < n[r]; i++)
			m += x[r][i];
		m /= (double)n[r];
		for (size_t i = 0; i < n[r]; i++)
			ssw += (x[r][i] - m) * (x[r][i] - m);
		ssb += (double)n[r] * (m - grand) * (m - grand);
	}
	msw = ssw / (double)(N - runs);
	msb = ssb / (double)(runs - 1);
	n0 = ((double)N - sumsq_n / (double)N) / (double)(runs - 1);
	*within = 100 * sqrt(msw) / fabs(grand);
	*between = msb > msw ? 100 * sqrt((msb - msw) / n0) / fabs(grand) : 0;
	return true;
}

/* ---- RESULTS/noise.json ---- */

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

json_object *noise_floor_load(const struct label_result *baseline)
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

bool noise_floor_find(json_object *noise, json_object *label_run, const char *workload,
		      const char *table, const char *op, double *spread, double *bias)
{
	json_object *w = find_named(get(noise, "workloads"), "workload", workload), *t, *o, *s, *b;

	if (!w || !same_workload_config(get(get(noise, "config"), workload),
					get(get(label_run, "config"), workload)))
		return false;
	t = find_named(get(w, "tables"), "title", table);
	o = t ? find_named(get(t, "ops"), "op", op) : NULL;
	s = get(o, "spread_pct");
	b = get(o, "aa_change_pct");
	if (!s || !b || !(json_object_is_type(s, json_type_double) || json_object_is_type(s, json_type_int)) ||
	    !(json_object_is_type(b, json_type_double) || json_object_is_type(b, json_type_int)))
		return false;
	*spread = json_object_get_double(s);
	*bias = json_object_get_double(b);
	return isfinite(*spread) && isfinite(*bias) && *spread >= 0;
}
