// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CSV output (RFC 4180): one row per (workload, table, op, label, stat).
 * An undefined statistic has an empty value; an op a label lacks has only
 * its "n" row, 0.
 */
#include <math.h>
#include <string.h>
#include "compare/model.h"
#include "core/escape.h"

/*
 * A text cell (a name from the results: workload, table, op, label). Its
 * bytes go inert first (core/escape.h: a control is "\xHH" text, so no raw
 * CR or LF either), then a cell a spreadsheet would run as a formula
 * (starting with = + - @, or a tab or CR before escaping) gets a leading
 * apostrophe, as OWASP's CSV-injection advice has it (issue 30); numbers
 * are written by num() and never start so.
 */
static void csv_field(struct strbuf *out, const char *raw)
{
	struct strbuf cell = STRBUF_INIT;
	const char *s;

	if (strchr("=+-@\t\r", raw[0]) && raw[0])
		strbuf_addstr(&cell, "'");
	strbuf_add_inert(&cell, raw);
	s = strbuf_str(&cell);   /* an empty name ("" op) has no buffer */
	if (!strpbrk(s, ",\"\r\n'") && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
		strbuf_addstr(out, s);
		strbuf_release(&cell);
		return;
	}
	strbuf_addstr(out, "\"");
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addstr(out, "\"\"");
		else
			strbuf_add(out, s, 1);
	}
	strbuf_addstr(out, "\"");
	strbuf_release(&cell);
}

struct csv_row {
	struct strbuf *out;
	const char *workload, *table, *op, *label;
};

static void row_start(const struct csv_row *r, const char *stat)
{
	csv_field(r->out, r->workload);
	strbuf_addstr(r->out, ",");
	csv_field(r->out, r->table);
	strbuf_addstr(r->out, ",");
	csv_field(r->out, r->op);
	strbuf_addstr(r->out, ",");
	csv_field(r->out, r->label);
	strbuf_addf(r->out, ",%s,", stat);
}

static void num(const struct csv_row *r, const char *stat, double v, bool ok)
{
	row_start(r, stat);
	if (ok && isfinite(v))
		strbuf_addf(r->out, "%.17g", v);
	strbuf_addstr(r->out, "\n");
}

static void word(const struct csv_row *r, const char *stat, const char *v)
{
	row_start(r, stat);
	csv_field(r->out, v);
	strbuf_addstr(r->out, "\n");
}

static const char *const pct_names[NR_ROWS] = {
	"pct_min", "pct_mean", "pct_stddev", "pct_coeffvar", "pct_max",
	"pct_bmean_50", "pct_bmean_95", "pct_bmean_99",
};

static void csv_cell(const struct csv_row *r, const struct cmp_cell *c)
{
	const struct stats *st = &c->st;

	num(r, "n", (double)(c->present ? c->n : 0), true);
	if (!c->present)
		return;
	num(r, "min", st->min, true);
	num(r, "max", st->max, true);
	num(r, "amean", st->amean, true);
	num(r, "hmean", st->hmean, st->hmean_ok);
	num(r, "gmean", st->gmean, st->gmean_ok);
	num(r, "stddev", st->stddev, st->stddev_ok);
	num(r, "coeffvar", st->coeffvar, true);
	num(r, "mean", c->row[ROW_MEAN], c->row_ok[ROW_MEAN]);
	num(r, "mean_ci95_low", c->mean_ci_lo, c->mean_ci_ok);
	num(r, "mean_ci95_high", c->mean_ci_hi, c->mean_ci_ok);
	num(r, "bmean_50", c->row[ROW_BMEAN50], c->row_ok[ROW_BMEAN50]);
	num(r, "bmean_95", c->row[ROW_BMEAN95], c->row_ok[ROW_BMEAN95]);
	num(r, "bmean_99", c->row[ROW_BMEAN99], c->row_ok[ROW_BMEAN99]);
	if (!c->compared)
		return;
	for (int i = 0; i < NR_ROWS; i++)
		num(r, pct_names[i], c->pct[i], true);
	num(r, "mmtests_t", c->mm.t, true);
	num(r, "mmtests_df", c->mm.df, true);
	num(r, "mmtests_p", c->mm.p, true);
	num(r, "mmtests_significant", c->mm.significant, true);
	num(r, "welch_t", c->welch.t, true);
	num(r, "welch_df", c->welch.df, true);
	num(r, "welch_p", c->welch.p, true);
	num(r, "change_ci95_low", c->change_ci_lo, c->change_ci_ok);
	num(r, "change_ci95_high", c->change_ci_hi, c->change_ci_ok);
	word(r, "verdict", cmp_verdict_name(c->verdict));
}

void report_csv(const struct comparison *c, struct strbuf *out)
{
	strbuf_addstr(out, "workload,table,op,label,stat,value\n");
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 0; l < c->nlabels; l++) {
					struct csv_row r = { out, c->wls[w].name, tb->title,
							     tb->ops[o].op, c->labels[l].label };

					csv_cell(&r, &tb->ops[o].cells[l]);
				}
		}
}
