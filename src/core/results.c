// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading and writing the results schema (docs/ARCHITECTURE.md §8). Users may write these
 * files by hand, so the loader checks every field and names the file and the
 * JSON path of whatever is wrong; writes are atomic.
 */
#include "core/results.h"
#include "core/strmap.h"
#include "core/cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct result_table *wl_result_table(struct wl_result *r, const char *title,
				     const char *unit, int better)
{
	struct result_table *t;

	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].title, title))
			return &r->tables[i];
	ALLOC_GROW(r->tables, r->ntables + 1, r->cap);
	t = &r->tables[r->ntables++];
	memset(t, 0, sizeof(*t));
	t->title = xstrdup(title);
	t->unit = xstrdup(unit);
	t->better = better;
	return t;
}

struct result_table *wl_result_explaining_table(struct wl_result *r, const char *title,
						const char *unit, int better)
{
	struct result_table *t = wl_result_table(r, title, unit, better);

	t->explains = true;
	return t;
}

struct op_samples *result_table_op(struct result_table *t, const char *op)
{
	struct op_samples *o;

	for (size_t i = 0; i < t->nops; i++)
		if (!strcmp(t->ops[i].op, op))
			return &t->ops[i];
	ALLOC_GROW(t->ops, t->nops + 1, t->cap);
	o = &t->ops[t->nops++];
	memset(o, 0, sizeof(*o));
	o->op = xstrdup(op);
	return o;
}

void result_table_add(struct result_table *t, const char *op, double v)
{
	struct op_samples *o = result_table_op(t, op);

	ALLOC_GROW(o->v, o->n + 1, o->cap);
	o->v[o->n++] = v;
}

void result_table_set_x_axis(struct result_table *t, const char *name, const char *unit)
{
	free(t->x_name);
	free(t->x_unit);
	t->x_known = true;
	t->x_name = name ? xstrdup(name) : NULL;
	t->x_unit = name ? xstrdup(unit ? unit : "") : NULL;
}

bool results_op_x(const char *op, size_t *series_len, unsigned long long *x)
{
	size_t len = strlen(op), i = len;
	unsigned long long v = 0;

	while (i > 0 && op[i - 1] >= '0' && op[i - 1] <= '9')
		i--;
	if (i == len || len - i > 18)
		return false;
	/* "0.5" or "1e+3" are not a count: a sweep is a series name + integer */
	if (i > 0 && (op[i - 1] == '.' || op[i - 1] == '+'))
		return false;
	for (size_t k = i; k < len; k++)
		v = v * 10 + (unsigned long long)(op[k] - '0');
	if (series_len)
		*series_len = i;
	*x = v;
	return true;
}

const struct result_table *wl_result_find_table(const struct wl_result *r, const char *title)
{
	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].title, title))
			return &r->tables[i];
	return NULL;
}

const struct op_samples *result_table_find_op(const struct result_table *t, const char *op)
{
	for (size_t i = 0; i < t->nops; i++)
		if (!strcmp(t->ops[i].op, op))
			return &t->ops[i];
	return NULL;
}

json_object *wl_result_to_json(const struct wl_result *r)
{
	json_object *root = json_object_new_object(), *tables = json_object_new_array();

	json_object_object_add(root, "schema", json_object_new_int(RESULTS_SCHEMA));
	json_object_object_add(root, "workload", json_object_new_string(r->workload));
	for (size_t i = 0; i < r->ntables; i++) {
		const struct result_table *t = &r->tables[i];
		json_object *jt = json_object_new_object(), *ops = json_object_new_array();

		json_object_object_add(jt, "title", json_object_new_string(t->title));
		json_object_object_add(jt, "unit", json_object_new_string(t->unit));
		json_object_object_add(jt, "better",
				       json_object_new_string(t->better == BETTER_HIGHER ? "higher" : "lower"));
		if (t->explains)
			json_object_object_add(jt, "explains", json_object_new_boolean(1));
		if (t->x_known) {
			json_object *ax = NULL;

			if (t->x_name) {
				ax = json_object_new_object();
				json_object_object_add(ax, "name", json_object_new_string(t->x_name));
				json_object_object_add(ax, "unit", json_object_new_string(t->x_unit));
			}
			json_object_object_add(jt, "x_axis", ax);
		}
		for (size_t j = 0; j < t->nops; j++) {
			json_object *jo = json_object_new_object(), *s = json_object_new_array();

			json_object_object_add(jo, "op", json_object_new_string(t->ops[j].op));
			for (size_t k = 0; k < t->ops[j].n; k++)
				json_object_array_add(s, json_object_new_double(t->ops[j].v[k]));
			json_object_object_add(jo, "samples", s);
			json_object_array_add(ops, jo);
		}
		json_object_object_add(jt, "ops", ops);
		json_object_array_add(tables, jt);
	}
	json_object_object_add(root, "tables", tables);
	if (r->details)
		json_object_object_add(root, "details", json_object_get(r->details));
	if (r->progress)
		json_object_object_add(root, "progress", json_object_get(r->progress));
	if (r->adaptive)
		json_object_object_add(root, "adaptive", json_object_get(r->adaptive));
	if (r->order)
		json_object_object_add(root, "order", json_object_get(r->order));
	return root;
}

static json_object *get_typed(json_object *o, const char *key, json_type type, const char *path,
			      const char *where, struct strbuf *err)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v)) {
		strbuf_addf(err, "%s: %s%s\"%s\" is missing", path, where, *where ? "." : "", key);
		return NULL;
	}
	if (!json_object_is_type(v, type)) {
		strbuf_addf(err, "%s: %s%s\"%s\" has the wrong type (expected %s)", path, where,
			    *where ? "." : "", key, json_type_to_name(type));
		return NULL;
	}
	/* "a\u0000b" would silently become "a" (and collide with it) */
	if (type == json_type_string && json_string_has_nul(v)) {
		strbuf_addf(err, "%s: %s%s\"%s\" holds a NUL character (\\u0000)", path, where,
			    *where ? "." : "", key);
		return NULL;
	}
	return v;
}

int wl_result_from_json(json_object *o, const char *path, struct wl_result *out, struct strbuf *err)
{
	json_object *v, *tables;
	struct strmap seen = STRMAP_INIT;   /* op names of the current table */
	int64_t schema;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(o, json_type_object)) {
		strbuf_addf(err, "%s: not a JSON object", path);
		return -1;
	}
	if (!(v = get_typed(o, "schema", json_type_int, path, "", err)))
		return -1;
	schema = json_object_get_int64(v);
	if (schema != RESULTS_SCHEMA) {
		strbuf_addf(err, "%s: schema version %lld is not known (this lrubench reads %d)", path,
			    (long long)schema, RESULTS_SCHEMA);
		return -1;
	}
	if (!(v = get_typed(o, "workload", json_type_string, path, "", err)))
		return -1;
	out->workload = xstrdup(json_object_get_string(v));
	if (!(tables = get_typed(o, "tables", json_type_array, path, "", err)))
		goto fail;
	if (json_object_array_length(tables) > RESULTS_MAX_TABLES) {
		strbuf_addf(err, "%s: %zu tables: a results file holds at most %d", path,
			    json_object_array_length(tables), RESULTS_MAX_TABLES);
		goto fail;
	}
	for (size_t i = 0; i < json_object_array_length(tables); i++) {
		json_object *jt = json_object_array_get_idx(tables, i), *title, *unit, *better, *ops;
		char where[64];
		struct result_table *t;
		int b;

		snprintf(where, sizeof(where), "tables[%zu]", i);
		if (!json_object_is_type(jt, json_type_object)) {
			strbuf_addf(err, "%s: %s is not an object", path, where);
			goto fail;
		}
		if (!(title = get_typed(jt, "title", json_type_string, path, where, err)) ||
		    !(unit = get_typed(jt, "unit", json_type_string, path, where, err)) ||
		    !(better = get_typed(jt, "better", json_type_string, path, where, err)) ||
		    !(ops = get_typed(jt, "ops", json_type_array, path, where, err)))
			goto fail;
		if (!strcmp(json_object_get_string(better), "higher"))
			b = BETTER_HIGHER;
		else if (!strcmp(json_object_get_string(better), "lower"))
			b = BETTER_LOWER;
		else {
			strbuf_addf(err, "%s: %s.better is \"%s\" (expected \"higher\" or \"lower\")", path,
				    where, json_object_get_string(better));
			goto fail;
		}
		if (wl_result_find_table(out, json_object_get_string(title))) {
			strbuf_addf(err, "%s: %s: table \"%s\" appears twice", path, where,
				    json_object_get_string(title));
			goto fail;
		}
		t = wl_result_table(out, json_object_get_string(title), json_object_get_string(unit), b);
		if (json_object_object_get_ex(jt, "explains", &v)) {
			if (!json_object_is_type(v, json_type_boolean)) {
				strbuf_addf(err, "%s: %s.explains is not true or false", path, where);
				goto fail;
			}
			t->explains = json_object_get_boolean(v);
		}
		if (json_object_object_get_ex(jt, "x_axis", &v)) {
			json_object *xn, *xu;
			char w2[96];

			snprintf(w2, sizeof(w2), "%s.x_axis", where);
			if (!v) {
				result_table_set_x_axis(t, NULL, NULL);
			} else if (!json_object_is_type(v, json_type_object)) {
				strbuf_addf(err, "%s: %s is neither an object nor null", path, w2);
				goto fail;
			} else if (!(xn = get_typed(v, "name", json_type_string, path, w2, err)) ||
				   !(xu = get_typed(v, "unit", json_type_string, path, w2, err))) {
				goto fail;
			} else {
				result_table_set_x_axis(t, json_object_get_string(xn), json_object_get_string(xu));
			}
		}
		if (json_object_array_length(ops) > RESULTS_MAX_OPS) {
			strbuf_addf(err, "%s: %s: %zu ops: a table holds at most %d", path, where,
				    json_object_array_length(ops), RESULTS_MAX_OPS);
			goto fail;
		}
		strmap_release(&seen);
		for (size_t j = 0; j < json_object_array_length(ops); j++) {
			json_object *jo = json_object_array_get_idx(ops, j), *op, *samples;
			char w2[96];
			struct op_samples *os;

			snprintf(w2, sizeof(w2), "%s.ops[%zu]", where, j);
			if (!json_object_is_type(jo, json_type_object)) {
				strbuf_addf(err, "%s: %s is not an object", path, w2);
				goto fail;
			}
			if (!(op = get_typed(jo, "op", json_type_string, path, w2, err)) ||
			    !(samples = get_typed(jo, "samples", json_type_array, path, w2, err)))
				goto fail;
			/* a hash, not result_table_find_op(): with 20,000 ops a linear
			 * lookup per op made loading quadratic (bench/compare-scale) */
			if (strmap_get(&seen, json_object_get_string(op), NULL)) {
				strbuf_addf(err, "%s: %s: op \"%s\" appears twice in \"%s\"", path, w2,
					    json_object_get_string(op), t->title);
				goto fail;
			}
			ALLOC_GROW(t->ops, t->nops + 1, t->cap);
			os = &t->ops[t->nops++];
			memset(os, 0, sizeof(*os));
			os->op = xstrdup(json_object_get_string(op));
			strmap_put(&seen, os->op, t->nops - 1);
			if (json_object_array_length(samples) > RESULTS_MAX_SAMPLES) {
				strbuf_addf(err, "%s: %s: %zu samples: an op holds at most %d", path, w2,
					    json_object_array_length(samples), RESULTS_MAX_SAMPLES);
				goto fail;
			}
			for (size_t k = 0; k < json_object_array_length(samples); k++) {
				json_object *s = json_object_array_get_idx(samples, k);
				double d;

				if (!json_object_is_type(s, json_type_double) &&
				    !json_object_is_type(s, json_type_int)) {
					strbuf_addf(err, "%s: %s.samples[%zu]: not a number", path, w2, k);
					goto fail;
				}
				d = json_object_get_double(s);
				if (!isfinite(d)) {
					strbuf_addf(err, "%s: %s.samples[%zu]: not a finite number", path, w2, k);
					goto fail;
				}
				ALLOC_GROW(os->v, os->n + 1, os->cap);
				os->v[os->n++] = d;
			}
		}
	}
	strmap_release(&seen);
	if (json_object_object_get_ex(o, "details", &v) && json_object_is_type(v, json_type_array))
		out->details = json_object_get(v);
	if (json_object_object_get_ex(o, "progress", &v) && json_object_is_type(v, json_type_array))
		out->progress = json_object_get(v);
	if (json_object_object_get_ex(o, "adaptive", &v) && json_object_is_type(v, json_type_array))
		out->adaptive = json_object_get(v);
	if (json_object_object_get_ex(o, "order", &v) && json_object_is_type(v, json_type_array))
		out->order = json_object_get(v);
	return 0;
fail:
	strmap_release(&seen);
	wl_result_release(out);
	return -1;
}

/*
 * json-c clamps an integer beyond 64 bits to INT64_MIN or UINT64_MAX without
 * a word: find such a literal ourselves (outside strings, a number without
 * '.' or an exponent) and return its offset, or -1 when every one fits.
 */
static long long find_huge_integer(const char *t, size_t len)
{
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = t[i];
		size_t start = i, digits = 0;
		bool frac = false, neg = false;

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"') {
			in_str = true;
			continue;
		}
		if (c != '-' && !(c >= '0' && c <= '9'))
			continue;
		if (c == '-') {
			neg = true;
			i++;
		}
		while (i < len && t[i] >= '0' && t[i] <= '9') {
			i++;
			digits++;
		}
		while (i < len && ((t[i] && strchr(".eE+-", t[i])) || (t[i] >= '0' && t[i] <= '9'))) {
			frac = true;
			i++;
		}
		if (!frac && digits) {
			char buf[32];
			size_t n = i - start;

			if (n >= sizeof(buf))
				return (long long)start;
			memcpy(buf, t + start, n);
			buf[n] = '\0';
			errno = 0;
			if (neg)
				(void)strtoll(buf, NULL, 10);
			else
				(void)strtoull(buf, NULL, 10);
			if (errno == ERANGE)
				return (long long)start;
		}
		i--;   /* the loop's i++ looks at the character after the number */
	}
	return -1;
}

/*
 * An upper bound on the JSON values in text: every value but the first
 * follows a ',' or a '[' or ':' outside a string. Counted before json-c
 * parses, so a file of millions of tiny values is refused before it costs
 * gigabytes (RESULTS_MAX_VALUES).
 */
static uint64_t count_values(const char *t, size_t len)
{
	uint64_t n = 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = t[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == ',' || c == '[' || c == ':') {
			n++;
		}
	}
	return n;
}

static size_t line_of(const char *text, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

bool json_string_has_nul(json_object *v)
{
	return json_object_is_type(v, json_type_string) &&
	       strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v);
}

json_object *json_load_file(const char *path, struct strbuf *err)
{
	size_t len;
	char *text = read_regular_file(path, RESULTS_FILE_MAX, READ_NOFOLLOW, &len, err);
	json_object *o;

	if (!text)
		return NULL;
	o = json_parse_text(text, len, path, err);
	free(text);
	return o;
}

json_object *json_parse_text(const char *text, size_t len, const char *path, struct strbuf *err)
{
	/* parsed in slices so that a stop request is seen within a second
	 * however large the file is; the first slice is always parsed, so a
	 * small file (a run.json VM mode marks "interrupted" after SIGINT)
	 * still loads while the run unwinds */
	const size_t slice = 4 << 20;
	size_t done = 0, off;
	json_tokener *tok;
	json_object *o = NULL;
	enum json_tokener_error jerr = json_tokener_continue;
	long long huge;
	uint64_t values = count_values(text, len);

	if (values > RESULTS_MAX_VALUES) {
		strbuf_addf(err, "%s: more than %llu JSON values (about %llu): a results file holds "
			    "at most that many (samples, ops, tables), and json-c would need ~70 bytes "
			    "for each", path, (unsigned long long)RESULTS_MAX_VALUES,
			    (unsigned long long)values);
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		strbuf_addf(err, "%s: out of memory while reading it", path);
		return NULL;
	}
	while (done < len) {
		size_t n = len - done < slice ? len - done : slice;

		if (done && lb_stop_requested()) {
			strbuf_addf(err, "%s: interrupted while reading it", path);
			goto out;
		}
		o = json_tokener_parse_ex(tok, text + done, (int)n);
		jerr = json_tokener_get_error(tok);
		if (jerr != json_tokener_continue || o) {
			done += (size_t)json_tokener_get_parse_end(tok);
			break;
		}
		done += n;
	}
	if (!o && jerr == json_tokener_continue && done == len) {
		/* a bare number at the very end needs the end of input to finish */
		o = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
	}
	if (!o && jerr == json_tokener_success) {
		/* json-c 0.16 stops with no value and no error when an
		 * allocation fails: that is not the file's fault */
		strbuf_addf(err, "%s: out of memory while parsing it (%zu MiB; json-c needs about "
			    "40 times a file's size)", path, len >> 20);
		goto out;
	}
	if (!o || jerr != json_tokener_success || done < len) {
		const char *why = jerr == json_tokener_success ? "unexpected data after the JSON value"
			: jerr == json_tokener_continue ? "unexpected end of file"
			: json_tokener_error_desc(jerr);

		off = done;
		/* trailing white space after a complete value is fine */
		if (o && jerr == json_tokener_success) {
			size_t i = off;
			while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
					   text[i] == '\n'))
				i++;
			if (i == len)
				goto ok;
		}
		strbuf_addf(err, "%s: invalid JSON at line %zu, byte %zu: %s", path,
			    line_of(text, off < len ? off : len), off, why);
		json_object_put(o);
		o = NULL;
		goto out;
	}
ok:
	huge = find_huge_integer(text, len);
	if (huge >= 0) {
		size_t n = 0;

		/* the text need not be NUL-terminated: count within len */
		while ((size_t)huge + n < len && n < 40 && strchr("-0123456789", text[huge + n]) &&
		       text[huge + n])
			n++;
		strbuf_addf(err, "%s: line %zu, byte %lld: integer %.*s is out of range (beyond 64 bits)",
			    path, line_of(text, (size_t)huge), huge, (int)n, text + huge);
		json_object_put(o);
		o = NULL;
	}
out:
	json_tokener_free(tok);
	return o;
}

int json_save_file(const char *path, json_object *o, struct strbuf *err)
{
	size_t len;
	const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	char *buf = xmalloc(len + 2);

	memcpy(buf, s, len);
	buf[len] = '\n';
	if (write_file_atomic(path, buf, len + 1)) {
		strbuf_addf(err, "cannot write %s", path);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

int wl_result_load(const char *path, struct wl_result *out, struct strbuf *err)
{
	json_object *o = json_load_file(path, err);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!o)
		return -1;
	ret = wl_result_from_json(o, path, out, err);
	json_object_put(o);
	return ret;
}

int wl_result_save(const char *path, const struct wl_result *r, struct strbuf *err)
{
	json_object *o = wl_result_to_json(r);
	int ret = json_save_file(path, o, err);

	json_object_put(o);
	return ret;
}

void wl_result_release(struct wl_result *r)
{
	for (size_t i = 0; i < r->ntables; i++) {
		struct result_table *t = &r->tables[i];
		for (size_t j = 0; j < t->nops; j++) {
			free(t->ops[j].op);
			free(t->ops[j].v);
		}
		free(t->ops);
		free(t->title);
		free(t->unit);
		free(t->x_name);
		free(t->x_unit);
	}
	free(r->tables);
	free(r->workload);
	json_object_put(r->details);
	json_object_put(r->progress);
	json_object_put(r->adaptive);
	json_object_put(r->order);
	memset(r, 0, sizeof(*r));
}

bool is_label_dir(const char *dir)
{
	char *p = xasprintf("%s/run.json", dir);
	bool ok = path_exists(p);

	free(p);
	return ok;
}

static int cmp_wl(const void *a, const void *b)
{
	return strcmp(((const struct wl_result *)a)->workload, ((const struct wl_result *)b)->workload);
}

int label_result_load(const char *dir, struct label_result *out, struct strbuf *err)
{
	char *p = xasprintf("%s/run.json", dir);
	size_t cap = 0;
	json_object *v;
	DIR *d;
	struct dirent *de;

	memset(out, 0, sizeof(*out));
	out->dir = xstrdup(dir);
	out->run = json_load_file(p, err);
	free(p);
	if (!out->run)
		goto fail;
	if (!json_object_is_type(out->run, json_type_object)) {
		strbuf_addf(err, "%s/run.json: not a JSON object", dir);
		goto fail;
	}
	if (!json_object_object_get_ex(out->run, "schema", &v))
		v = NULL;
	/* an integer: json-c would read "1abc" as 1 */
	if (!v || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != RESULTS_SCHEMA) {
		strbuf_addf(err, "%s/run.json: schema version %s is not known (this lrubench reads %d)",
			    dir, v ? json_object_to_json_string(v) : "(missing)", RESULTS_SCHEMA);
		goto fail;
	}
	if (json_object_object_get_ex(out->run, "label", &v) && json_object_is_type(v, json_type_string)) {
		if (json_string_has_nul(v)) {
			strbuf_addf(err, "%s/run.json: \"label\" holds a NUL character (\\u0000)", dir);
			goto fail;
		}
		out->label = xstrdup(json_object_get_string(v));
	}
	else {
		const char *slash = strrchr(dir, '/');
		out->label = xstrdup(slash && slash[1] ? slash + 1 : dir);
	}
	d = opendir(dir);
	if (!d) {
		strbuf_addf(err, "cannot read folder %s: %s", dir, strerror(errno));
		goto fail;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char *path;

		if (l < 6 || strcmp(de->d_name + l - 5, ".json") || !strcmp(de->d_name, "run.json") ||
		    de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		ALLOC_GROW(out->wls, out->nwls + 1, cap);
		if (wl_result_load(path, &out->wls[out->nwls], err)) {
			free(path);
			closedir(d);
			goto fail;
		}
		out->nwls++;
		free(path);
	}
	closedir(d);
	if (out->nwls)
		qsort(out->wls, out->nwls, sizeof(*out->wls), cmp_wl);
	return 0;
fail:
	label_result_release(out);
	return -1;
}

const struct wl_result *label_result_find(const struct label_result *l, const char *workload)
{
	for (size_t i = 0; i < l->nwls; i++)
		if (!strcmp(l->wls[i].workload, workload))
			return &l->wls[i];
	return NULL;
}

void label_result_release(struct label_result *l)
{
	for (size_t i = 0; i < l->nwls; i++)
		wl_result_release(&l->wls[i]);
	free(l->wls);
	free(l->label);
	free(l->dir);
	json_object_put(l->run);
	memset(l, 0, sizeof(*l));
}
