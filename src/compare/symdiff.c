// SPDX-License-Identifier: GPL-2.0-or-later
/* The differential CPU profile of each op (symdiff.h). */
#include "compare/symdiff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/email.h"
#include "core/escape.h"
#include "core/strmap.h"

/* the symbols of one op of one label, summed over its passes */
struct symset {
	struct cmp_symrow *v;      /* self[0], children[0] hold the sums */
	size_t n, cap;
	struct strmap map;         /* "k:name" -> index */
	struct strlist keys;
	unsigned passes;
};

static void symset_release(struct symset *s)
{
	free(s->v);
	strmap_release(&s->map);
	strlist_release(&s->keys);
	memset(s, 0, sizeof(*s));
}

/* a cpu_symbols row: [symbol, where, self, children(, raw)] */
static const char *row_str(json_object *row, size_t i)
{
	json_object *v = json_object_is_type(row, json_type_array) && json_object_array_length(row) > i
			 ? json_object_array_get_idx(row, i) : NULL;

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static double row_num(json_object *row, size_t i)
{
	json_object *v = json_object_is_type(row, json_type_array) && json_object_array_length(row) > i
			 ? json_object_array_get_idx(row, i) : NULL;

	if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

static const char *str(json_object *o, const char *k)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A pass's "cpu_symbols" into s; malformed entries (not a name, a share
 * outside 0..100) are skipped: they are someone else's file. */
static void add_pass(struct symset *s, json_object *syms)
{
	size_t n = json_object_array_length(syms);

	s->passes++;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(syms, i);
		const char *name = row_str(o, 0), *w = row_str(o, 1);
		double self = row_num(o, 2), ch = row_num(o, 3);
		char key[600];
		size_t k;

		if (!name || !w || !(self >= 0 && self <= 100) || !(ch >= 0 && ch <= 100))
			continue;
		snprintf(key, sizeof(key), "%c:%.590s", w[0] == 'k' ? 'k' : '.', name);
		if (!strmap_get(&s->map, key, &k)) {
			strlist_push(&s->keys, key);
			ALLOC_GROW(s->v, s->n + 1, s->cap);
			k = s->n++;
			s->v[k] = (struct cmp_symrow){ name, w[0] == 'k' ? 'k' : '.', { 0, 0 }, { 0, 0 } };
			strmap_put(&s->map, s->keys.v[s->keys.n - 1], k);
		}
		s->v[k].self[0] += self;
		s->v[k].children[0] += ch;
	}
}

/* The passes of op in r's details (entries {"step", "profile": {"status": "ok",
 * "cpu_symbols": [...]}}). */
static void collect(const struct wl_result *r, const char *op, struct symset *s)
{
	size_t n = r && r->details && json_object_is_type(r->details, json_type_array)
		   ? json_object_array_length(r->details) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(r->details, i), *p, *syms;
		const char *step = str(e, "step"), *status;

		if (!step || strcmp(step, op) || !json_object_object_get_ex(e, "profile", &p))
			continue;
		status = str(p, "status");
		if ((status && strcmp(status, "ok")) || !json_object_object_get_ex(p, "cpu_symbols", &syms) ||
		    !json_object_is_type(syms, json_type_array))
			continue;
		add_pass(s, syms);
	}
}

static int by_change(const void *a, const void *b)
{
	const struct cmp_symrow *x = a, *y = b;
	double dx = fabs(x->self[1] - x->self[0]), dy = fabs(y->self[1] - y->self[0]);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	dx = fabs(x->children[1] - x->children[0]);
	dy = fabs(y->children[1] - y->children[0]);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->symbol, y->symbol);
}

/* Did a measured table of workload w change significantly at op for label l? */
static bool op_significant(const struct cmp_workload *w, const char *op, size_t l)
{
	for (size_t t = 0; t < w->ntables; t++) {
		size_t o;

		if (w->tables[t].explains || !strmap_get(&w->tables[t].opmap, op, &o))
			continue;
		if (w->tables[t].ops[o].cells[l].compared && w->tables[t].ops[o].cells[l].mm.significant)
			return true;
	}
	return false;
}

static void diff_op(struct comparison *c, size_t w, const char *op, const struct symset *a,
		    size_t l, size_t top)
{
	struct symset b = { 0 };
	struct cmp_symrow *u;
	size_t n = 0;
	struct cmp_symdiff *d;

	collect(label_result_find(&c->labels[l], c->wls[w].name), op, &b);
	if (!b.passes) {
		symset_release(&b);
		return;
	}
	/* the union: each side's mean over its passes, 0 where it has none */
	u = xcalloc(a->n + b.n + 1, sizeof(*u));
	for (size_t i = 0; i < a->n; i++) {
		u[n] = a->v[i];
		u[n].self[0] /= a->passes;
		u[n].children[0] /= a->passes;
		n++;
	}
	for (size_t i = 0; i < b.n; i++) {
		size_t k;

		if (!strmap_get(&a->map, b.keys.v[i], &k)) {
			u[n] = b.v[i];
			u[n].self[0] = u[n].children[0] = 0;
			k = n++;
		}
		u[k].self[1] = b.v[i].self[0] / b.passes;
		u[k].children[1] = b.v[i].children[0] / b.passes;
	}
	if (n > 1)
		qsort(u, n, sizeof(*u), by_change);
	ALLOC_GROW(c->symdiffs, c->nsymdiffs + 1, c->symdiff_cap);
	d = &c->symdiffs[c->nsymdiffs++];
	*d = (struct cmp_symdiff){ .wl = w, .op = op, .label = l, .passes = { a->passes, b.passes },
				   .significant = op_significant(&c->wls[w], op, l), .rows = u,
				   .n = n < top ? n : top, .nsymbols = n };
	symset_release(&b);
}

void cmp_symdiff_build(struct comparison *c, size_t top)
{
	cmp_symdiff_release(c);
	if (!top || c->nlabels < 2)
		return;
	for (size_t w = 0; w < c->nwls; w++) {
		const struct wl_result *r = label_result_find(&c->labels[0], c->wls[w].name);
		size_t n = r && r->details && json_object_is_type(r->details, json_type_array)
			   ? json_object_array_length(r->details) : 0;
		struct strmap seen = STRMAP_INIT;

		/* the baseline's profiled ops, in the order they ran */
		for (size_t i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(r->details, i), *p;
			const char *op = str(e, "step");
			struct symset a = { 0 };
			size_t k;

			if (!op || !json_object_object_get_ex(e, "profile", &p) || strmap_get(&seen, op, &k))
				continue;
			strmap_put(&seen, op, 0);
			collect(r, op, &a);
			for (size_t l = 1; a.passes && l < c->nlabels; l++)
				diff_op(c, w, op, &a, l, top);
			symset_release(&a);
		}
		strmap_release(&seen);
	}
}

void cmp_symdiff_release(struct comparison *c)
{
	for (size_t i = 0; i < c->nsymdiffs; i++)
		free(c->symdiffs[i].rows);
	free(c->symdiffs);
	c->symdiffs = NULL;
	c->nsymdiffs = c->symdiff_cap = 0;
}

static void add_name(struct strbuf *out, const char *s, bool narrow)
{
	if (narrow)
		email_add_ascii(out, s);
	else
		strbuf_add_inert(out, s);
}

/* A line of prose: wrapped at 72 columns (ASCII) for mail, else as it is. */
static void add_prose(struct strbuf *out, const char *indent, const struct strbuf *text, bool narrow)
{
	if (narrow) {
		email_add_wrapped(out, indent, "    ", text->buf);
		return;
	}
	strbuf_addf(out, "%s%s\n", indent, text->buf);
}

void cmp_symdiff_text(const struct comparison *c, const struct cmp_symdiff *d, size_t rows,
		      bool narrow, struct strbuf *out)
{
	const char *a = c->labels[0].label, *b = c->labels[d->label].label;
	size_t sw = narrow ? 40 : 44;
	struct strbuf sb = STRBUF_INIT;

	add_name(&sb, c->wls[d->wl].name, narrow);
	strbuf_addstr(&sb, " ");
	add_name(&sb, d->op, narrow);
	strbuf_addstr(&sb, ": CPU profile of ");
	add_name(&sb, b, narrow);
	strbuf_addstr(&sb, " (B) against ");
	add_name(&sb, a, narrow);
	strbuf_addstr(&sb, " (A)");
	add_prose(out, "", &sb, narrow);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "share of the sampled CPU time, %%, mean of %u and %u profiled pass%s; "
		    "change in points", d->passes[0], d->passes[1],
		    d->passes[0] == 1 && d->passes[1] == 1 ? "" : "es");
	add_prose(out, "  ", &sb, narrow);
	strbuf_addf(out, "  %-*s %7s %7s %7s", (int)sw, "symbol ([k] kernel, [.] user)", "A self",
		    "B self", "change");
	if (!narrow)
		strbuf_addf(out, " %8s %8s %7s", "A total", "B total", "change");
	strbuf_addstr(out, "\n");
	for (size_t i = 0; i < d->n && i < rows; i++) {
		const struct cmp_symrow *r = &d->rows[i];
		struct strbuf name = STRBUF_INIT;

		strbuf_addstr(&name, r->where == 'k' ? "[k] " : "[.] ");
		add_name(&name, r->symbol, narrow);
		if (narrow && name.len > sw) {
			name.len = sw - 3;
			strbuf_addstr(&name, "...");
		}
		strbuf_addf(out, "  %-*s %7.2f %7.2f %+7.2f", (int)sw, name.buf, r->self[0], r->self[1],
			    r->self[1] - r->self[0]);
		if (!narrow)
			strbuf_addf(out, " %8.2f %8.2f %+7.2f", r->children[0], r->children[1],
				    r->children[1] - r->children[0]);
		strbuf_addstr(out, "\n");
		strbuf_release(&name);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "(%zu of %zu symbols, by the change of the self share%s; a symbol only "
		    "one kernel has (renamed, inlined) counts 0 on the other)", d->n < rows ? d->n : rows,
		    d->nsymbols, narrow ? "" : "; total: with its callees");
	add_prose(out, "  ", &sb, narrow);
	strbuf_release(&sb);
}

static void jnum(struct strbuf *out, double v)
{
	strbuf_addf(out, "%.4f", isfinite(v) ? v : 0);
}

void cmp_symdiff_json(const struct comparison *c, size_t w, struct strbuf *out)
{
	bool first = true;

	for (size_t i = 0; i < c->nsymdiffs; i++) {
		const struct cmp_symdiff *d = &c->symdiffs[i];

		if (d->wl != w)
			continue;
		strbuf_addstr(out, first ? ", \"cpu_profile_diff\": [\n      {" : ",\n      {");
		first = false;
		strbuf_addstr(out, "\"op\": ");
		strbuf_add_json_string(out, d->op);
		strbuf_addstr(out, ", \"baseline\": ");
		strbuf_add_json_string(out, c->labels[0].label);
		strbuf_addstr(out, ", \"label\": ");
		strbuf_add_json_string(out, c->labels[d->label].label);
		strbuf_addf(out, ", \"passes\": [%u, %u], \"significant\": %s, \"symbols\": %zu, "
			    "\"unit\": \"percent of the sampled CPU time\", \"top\": [",
			    d->passes[0], d->passes[1], d->significant ? "true" : "false", d->nsymbols);
		for (size_t r = 0; r < d->n; r++) {
			const struct cmp_symrow *s = &d->rows[r];

			strbuf_addstr(out, r ? ",\n        {\"symbol\": " : "\n        {\"symbol\": ");
			strbuf_add_json_string(out, s->symbol);
			strbuf_addf(out, ", \"where\": \"%c\", \"self\": [", s->where);
			jnum(out, s->self[0]);
			strbuf_addstr(out, ", ");
			jnum(out, s->self[1]);
			strbuf_addstr(out, "], \"self_change\": ");
			jnum(out, s->self[1] - s->self[0]);
			strbuf_addstr(out, ", \"children\": [");
			jnum(out, s->children[0]);
			strbuf_addstr(out, ", ");
			jnum(out, s->children[1]);
			strbuf_addstr(out, "], \"children_change\": ");
			jnum(out, s->children[1] - s->children[0]);
			strbuf_addstr(out, "}");
		}
		strbuf_addstr(out, "]}");
	}
	if (!first)
		strbuf_addstr(out, "]");
}
