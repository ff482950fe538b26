// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON output: every statistic of every (workload, table, op, label), both
 * p-values (mmtests' Student-t and Welch), the 95% CIs and the verdicts.
 * The schema is documented in man/lrubench-compare.1; undefined numbers are
 * null. Written by hand, not through json-c objects, because a large
 * comparison holds millions of numbers.
 */
#include <math.h>
#include <string.h>
#include "compare/model.h"
#include "compare/symdiff.h"
#include "core/cleanup.h"
#include "core/escape.h"

#define COMPARE_JSON_SCHEMA 1

/* any bytes in, a valid JSON string out (invalid UTF-8 becomes U+FFFD) */
static void jstr(struct strbuf *out, const char *s)
{
	strbuf_add_json_string(out, s);
}

static void jnum(struct strbuf *out, double d)
{
	if (isfinite(d))
		strbuf_addf(out, "%.17g", d);
	else
		strbuf_addstr(out, "null");
}

/* "a", "b", "c" (the inside of an array) */
static void jstr_list(struct strbuf *out, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(out, i ? ", " : "");
		jstr(out, v[i]);
	}
}

static void jkey(struct strbuf *out, const char *k)
{
	jstr(out, k);
	strbuf_addstr(out, ": ");
}

/* "k": "v" */
static void jkstr(struct strbuf *out, const char *k, const char *v)
{
	jkey(out, k);
	jstr(out, v);
}

static void jnum_ok(struct strbuf *out, const char *k, double d, bool ok)
{
	jkey(out, k);
	jnum(out, ok ? d : NAN);
	strbuf_addstr(out, ", ");
}

static void jpair(struct strbuf *out, const char *k, double lo, double hi, bool ok)
{
	jkey(out, k);
	if (!ok) {
		strbuf_addstr(out, "null, ");
		return;
	}
	strbuf_addstr(out, "[");
	jnum(out, lo);
	strbuf_addstr(out, ", ");
	jnum(out, hi);
	strbuf_addstr(out, "], ");
}

static void jtest(struct strbuf *out, const char *k, const struct ttest *t, bool with_sig)
{
	jkey(out, k);
	strbuf_addstr(out, "{\"se\": ");
	jnum(out, t->se);
	strbuf_addstr(out, ", \"t\": ");
	jnum(out, t->t);
	strbuf_addstr(out, ", \"df\": ");
	jnum(out, t->df);
	strbuf_addstr(out, ", \"p\": ");
	jnum(out, t->p);
	if (with_sig)
		strbuf_addf(out, ", \"significant\": %s", t->significant ? "true" : "false");
	strbuf_addstr(out, "}, ");
}

static const char *const row_keys[NR_ROWS] = {
	"min", "mean", "stddev", "coeffvar", "max", "bmean_50", "bmean_95", "bmean_99",
};

static void json_cell(const struct comparison *c, const struct cmp_cell *cell, size_t l,
		      double fail_pct, bool explains, struct strbuf *out)
{
	const struct stats *st = &cell->st;

	strbuf_addstr(out, "{");
	jkstr(out, "label", c->labels[l].label);
	if (!cell->present) {
		strbuf_addstr(out, ", \"present\": false, \"n\": 0}");
		return;
	}
	strbuf_addf(out, ", \"present\": true, \"n\": %zu, ", cell->n);
	jnum_ok(out, "min", st->min, true);
	jnum_ok(out, "max", st->max, true);
	jnum_ok(out, "amean", st->amean, true);
	jnum_ok(out, "hmean", st->hmean, st->hmean_ok);
	jnum_ok(out, "gmean", st->gmean, st->gmean_ok);
	jnum_ok(out, "stddev", st->stddev, st->stddev_ok);
	jnum_ok(out, "coeffvar", st->coeffvar, true);
	jnum_ok(out, "mean", cell->row[ROW_MEAN], cell->row_ok[ROW_MEAN]);
	jnum_ok(out, "mean_se", cell->mean_se, cell->mean_ci_ok);
	jpair(out, "mean_ci95", cell->mean_ci_lo, cell->mean_ci_hi, cell->mean_ci_ok);
	jnum_ok(out, "bmean_50", cell->row[ROW_BMEAN50], cell->row_ok[ROW_BMEAN50]);
	jnum_ok(out, "bmean_95", cell->row[ROW_BMEAN95], cell->row_ok[ROW_BMEAN95]);
	jnum_ok(out, "bmean_99", cell->row[ROW_BMEAN99], cell->row_ok[ROW_BMEAN99]);
	if (!cell->compared) {
		strbuf_addf(out, "\"compared\": false");
		if (!l)
			strbuf_addstr(out, ", \"baseline\": true");
		strbuf_addstr(out, "}");
		return;
	}
	strbuf_addstr(out, "\"compared\": true, \"percent\": {");
	for (int r = 0; r < NR_ROWS; r++) {
		strbuf_addstr(out, r ? ", " : "");
		jkey(out, row_keys[r]);
		jnum(out, cell->pct[r]);
	}
	strbuf_addstr(out, "}, ");
	jtest(out, "mmtests_ttest", &cell->mm, true);
	jtest(out, "welch_ttest", &cell->welch, false);
	jpair(out, "change_percent_ci95", cell->change_ci_lo, cell->change_ci_hi,
	      cell->change_ci_ok);
	jkstr(out, "verdict", cmp_verdict_name(cell->verdict));
	strbuf_addf(out, ", \"regression\": %s}",
		    !explains && cmp_is_regression(cell, fail_pct >= 0 ? fail_pct : 0) ? "true" : "false");
}

static json_object *run_get(const struct label_result *l, const char *a, const char *b)
{
	json_object *v = NULL;

	if (!l->run || !json_object_object_get_ex(l->run, a, &v))
		return NULL;
	if (b && (!json_object_is_type(v, json_type_object) || !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return v;
}

static void jrun_str(struct strbuf *out, const char *k, json_object *v)
{
	strbuf_addstr(out, ", ");
	jkey(out, k);
	if (v && json_object_is_type(v, json_type_string))
		jstr(out, json_object_get_string(v));
	else
		strbuf_addstr(out, "null");
}

void report_json(const struct comparison *c, double fail_pct, struct strbuf *out)
{
	strbuf_addf(out, "{\n  \"schema\": %d,\n  \"alpha\": ", COMPARE_JSON_SCHEMA);
	jnum(out, c->alpha);
	strbuf_addstr(out, ",\n  \"fail_on_regression\": ");
	jnum(out, fail_pct >= 0 ? fail_pct : NAN);
	strbuf_addstr(out, ",\n  \"labels\": [");
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_addstr(out, l ? ",\n    {" : "\n    {");
		jkstr(out, "label", c->labels[l].label);
		strbuf_addstr(out, ", ");
		jkstr(out, "dir", c->labels[l].dir);
		jrun_str(out, "kernel_release", run_get(&c->labels[l], "system", "kernel_release"));
		jrun_str(out, "status", run_get(&c->labels[l], "status", NULL));
		jrun_str(out, "started", run_get(&c->labels[l], "started", NULL));
		strbuf_addf(out, ", \"baseline\": %s}", l ? "false" : "true");
	}
	strbuf_addstr(out, "\n  ],\n  \"differences\": [");
	for (size_t i = 0; i < c->nfacts; i++) {
		strbuf_addstr(out, i ? ",\n    {" : "\n    {");
		jkstr(out, "fact", c->facts[i].name);
		strbuf_addstr(out, ", \"values\": [");
		jstr_list(out, (const char *const *)c->facts[i].values, c->nlabels);
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, c->nfacts ? "\n  ],\n  \"warnings\": [" : "],\n  \"warnings\": [");
	jstr_list(out, (const char *const *)c->warnings.v, c->warnings.n);
	strbuf_addstr(out, "],");
	if (c->profile_note) {
		strbuf_addstr(out, "\n  ");
		jkstr(out, "profile_note", c->profile_note);
		strbuf_addstr(out, ",");
	}
	strbuf_addstr(out, "\n  \"workloads\": [");
	for (size_t w = 0; w < c->nwls && !lb_stop_requested(); w++) {
		const struct cmp_workload *wl = &c->wls[w];

		strbuf_addstr(out, w ? ",\n    {" : "\n    {");
		jkstr(out, "workload", wl->name);
		strbuf_addstr(out, ", \"tables\": [");
		for (size_t t = 0; t < wl->ntables; t++) {
			const struct cmp_table *tb = &wl->tables[t];
			bool first = true;

			strbuf_addstr(out, t ? ",\n      {" : "\n      {");
			jkstr(out, "title", tb->title);
			strbuf_addstr(out, ", ");
			jkstr(out, "unit", tb->unit);
			if (tb->explains)
				strbuf_addstr(out, ", \"explains\": true");
			strbuf_addf(out, ", \"better\": \"%s\", \"mean_stat\": \"%s\", "
				    "\"bmean_stat\": \"%s\", \"labels_without_table\": [",
				    tb->better > 0 ? "higher" : "lower", cmp_row_name(ROW_MEAN, tb->better),
				    tb->better > 0 ? "BHmean" : "BAmean");
			for (size_t l = 0; l < c->nlabels; l++)
				if (!tb->has_table[l]) {
					strbuf_addstr(out, first ? "" : ", ");
					jstr(out, c->labels[l].label);
					first = false;
				}
			strbuf_addstr(out, "], \"ops\": [");
			for (size_t o = 0; o < tb->nops; o++) {
				strbuf_addstr(out, o ? ",\n        {" : "\n        {");
				jkstr(out, "op", tb->ops[o].op);
				strbuf_addstr(out, ", \"labels\": [");
				for (size_t l = 0; l < c->nlabels; l++) {
					strbuf_addstr(out, l ? ",\n          " : "\n          ");
					json_cell(c, &tb->ops[o].cells[l], l, fail_pct, tb->explains, out);
				}
				strbuf_addstr(out, "]}");
			}
			strbuf_addstr(out, "]}");
		}
		strbuf_addstr(out, "]");
		/* only when there is something: older results print as before */
		if (wl->notes.n) {
			strbuf_addstr(out, ", \"notes\": [");
			jstr_list(out, (const char *const *)wl->notes.v, wl->notes.n);
			strbuf_addstr(out, "]");
		}
		cmp_symdiff_json(c, w, out);
		strbuf_addstr(out, "}");
	}
	strbuf_addstr(out, "\n  ]\n}\n");
}
