// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text output: mmtests' compare-kernels layout byte for byte (docs/ARCHITECTURE.md
 * §10; golden outputs in tests/fixtures/compare/golden), preceded by the "what differs" block and
 * followed, per table, by notes for anything printed as 0.00 or n/a so that
 * no number is silently wrong.
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "compare/format.h"
#include "compare/model.h"
#include "core/cleanup.h"
#include "core/escape.h"

#define FIELD_LEN 12    /* %12.2f */
#define COMPARE_LEN 7   /* (%7.2f%%) */

/*
 * Names come from other people's files: whatever they hold (ESC, CR, a
 * newline, invalid UTF-8) prints inert (escape.h). Plain names, the usual
 * case, are used as they are, with no copy.
 */
static const char *inert(const char *s, char **copy)
{
	*copy = text_needs_escape(s) ? inert_dup(s) : NULL;
	return *copy ? *copy : s;
}

static void add_inert(struct strbuf *out, const char *s)
{
	if (text_needs_escape(s))
		strbuf_add_inert(out, s);
	else
		strbuf_addstr(out, s);
}

/* The facts of one group (kernel or not), names padded to one width. */
static void fact_lines(const struct comparison *c, bool kernel, struct strbuf *out)
{
	size_t w = 0;
	char *copy;

	for (size_t i = 0; i < c->nfacts; i++) {
		size_t l;

		if (c->facts[i].kernel != kernel)
			continue;
		l = strlen(inert(c->facts[i].name, &copy));
		if (l > w)
			w = l;
		free(copy);
	}
	for (size_t i = 0; i < c->nfacts; i++) {
		if (c->facts[i].kernel != kernel)
			continue;
		strbuf_addf(out, "  %-*s ", (int)w, inert(c->facts[i].name, &copy));
		free(copy);
		for (size_t l = 0; l < c->nlabels; l++) {
			strbuf_addstr(out, l ? " | " : "");
			add_inert(out, c->facts[i].values[l]);
		}
		strbuf_addstr(out, "\n");
	}
}

void report_differences_text(const struct comparison *c, struct strbuf *out)
{
	size_t nkernel = 0;

	for (size_t i = 0; i < c->nfacts; i++)
		nkernel += c->facts[i].kernel;
	strbuf_addstr(out, "Labels:");
	for (size_t i = 0; i < c->nlabels; i++) {
		strbuf_addstr(out, i ? ", " : " ");
		add_inert(out, c->labels[i].label);
		strbuf_addstr(out, i ? "" : " (baseline)");
	}
	strbuf_addstr(out, "\n");
	if (c->nfacts == nkernel) {
		strbuf_addstr(out, !nkernel && c->same_kernel.n ?
			      "Nothing differs between the labels, not even the kernel build.\n" :
			      "Nothing differs between the labels besides the kernel.\n");
	} else {
		strbuf_addstr(out, "Differs besides the kernel:\n");
		fact_lines(c, false, out);
	}
	if (nkernel) {
		strbuf_addstr(out, "Kernel:\n");
		fact_lines(c, true, out);
	}
	for (size_t i = 0; i < c->warnings.n; i++) {
		strbuf_addstr(out, "WARNING: ");
		add_inert(out, c->warnings.v[i]);
		strbuf_addstr(out, "\n");
	}
	for (size_t i = 0; i < c->same_build_settings.n; i++) {
		strbuf_addstr(out, "Note: ");
		add_inert(out, c->same_build_settings.v[i]);
		strbuf_addstr(out, ".\n");
	}
	if (c->profile_note)
		strbuf_addf(out, "Note: %s.\n", c->profile_note);
}

/* "note: LABEL: WHAT for op a, b, c" with at most 8 ops named */
struct note {
	struct strbuf ops;
	size_t count;
};

static void note_add(struct note *n, const char *op)
{
	if (n->count < 8) {
		strbuf_addstr(&n->ops, n->count ? ", " : "");
		add_inert(&n->ops, op);
	}
	n->count++;
}

static void note_flush(struct note *n, const char *label, const char *what, struct strbuf *out)
{
	if (n->count) {
		strbuf_addstr(out, "note: ");
		add_inert(out, label);
		strbuf_addf(out, ": op%s %s", n->count > 1 ? "s" : "", n->ops.buf);
		if (n->count > 8)
			strbuf_addf(out, " and %zu more", n->count - 8);
		strbuf_addf(out, ": %s\n", what);
	}
	strbuf_release(&n->ops);
	n->count = 0;
}

/* iterations = auto against a baseline (compare/notes.c): "decided after N
 * rounds", grouped by N, and the ops a cap stopped first */
static void decided_notes(const struct comparison *c, const struct cmp_table *t, size_t l,
			  struct strbuf *out)
{
	for (size_t o = 0; o < t->nops; o++) {
		const struct cmp_cell *first = &t->ops[o].cells[l];
		bool decided = first->stopped && (!strcmp(first->stopped, "decided") ||
						  !strcmp(first->stopped, "reached"));
		struct note n = { STRBUF_INIT, 0 };
		struct strbuf what = STRBUF_INIT;
		bool seen = false;

		if (!first->rounds)
			continue;
		/* print each (rounds, outcome) group once, where it first appears */
		for (size_t p = 0; p < o && !seen; p++) {
			const struct cmp_cell *e = &t->ops[p].cells[l];
			seen = e->rounds == first->rounds && e->stopped && !strcmp(e->stopped, first->stopped);
		}
		if (seen)
			continue;
		for (size_t p = o; p < t->nops; p++) {
			const struct cmp_cell *e = &t->ops[p].cells[l];
			if (e->rounds == first->rounds && e->stopped && !strcmp(e->stopped, first->stopped))
				note_add(&n, t->ops[p].op);
		}
		if (first->sequential) {
			/* how the samples were gathered, and what the star means */
			cmp_sequential_text(first, &what);
		} else {
			strbuf_addf(&what, "%sdecided after %zu round%s", decided ? "" : "not ",
				    first->rounds, first->rounds == 1 ? "" : "s");
			if (!decided)
				strbuf_addf(&what, " (%s)", first->stopped);
		}
		note_flush(&n, c->labels[l].label, what.buf, out);
		strbuf_release(&what);
	}
}

/* changes smaller than this machine's noise floor (compare/noise_floor.h);
 * not under the tables that explain others: they are not what was compared */
static void noise_notes(const struct comparison *c, const struct cmp_table *t, size_t l,
			struct strbuf *out)
{
	for (size_t o = 0; o < t->nops && !t->explains; o++) {
		const struct cmp_cell *cell = &t->ops[o].cells[l];

		if (!cell->noise_ok || !(fabs(cell->pct[ROW_MEAN]) < cell->noise_floor))
			continue;
		/* names from results files are printed inert (issue 12) */
		strbuf_addstr(out, "note: ");
		add_inert(out, c->labels[l].label);
		strbuf_addstr(out, ": op ");
		add_inert(out, t->ops[o].op);
		strbuf_addf(out, ": %+.2f%%, within this machine's noise (%.2f%%)\n", cell->pct[ROW_MEAN],
			    cell->noise_floor);
	}
}

static void table_notes(const struct comparison *c, const struct cmp_table *t,
			struct strbuf *out)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		struct note missing = { STRBUF_INIT, 0 }, single = { STRBUF_INIT, 0 };
		struct note hmean = { STRBUF_INIT, 0 }, bmean = { STRBUF_INIT, 0 };
		struct note nobase = { STRBUF_INIT, 0 }, toofew = { STRBUF_INIT, 0 };
		struct note negative = { STRBUF_INIT, 0 };

		if (!t->has_table[l]) {
			strbuf_addstr(out, "note: ");
			add_inert(out, c->labels[l].label);
			strbuf_addstr(out, ": no such table in its results (printed n/a)\n");
			continue;
		}
		for (size_t o = 0; o < t->nops; o++) {
			const struct cmp_cell *cell = &t->ops[o].cells[l];

			if (!cell->present) {
				note_add(&missing, t->ops[o].op);
				continue;
			}
			if (l && !t->ops[o].cells[0].present)
				note_add(&nobase, t->ops[o].op);
			if (!cell->row_ok[ROW_STDDEV])
				note_add(&single, t->ops[o].op);
			if (cell->too_few_starred)
				note_add(&toofew, t->ops[o].op);
			if (cell->compared && (cell->st.min < 0 || t->ops[o].cells[0].st.min < 0))
				note_add(&negative, t->ops[o].op);
			if (!cell->row_ok[ROW_MEAN])
				note_add(&hmean, t->ops[o].op);
			else if (!cell->row_ok[ROW_BMEAN50] || !cell->row_ok[ROW_BMEAN95] ||
				 !cell->row_ok[ROW_BMEAN99])
				note_add(&bmean, t->ops[o].op);
		}
		note_flush(&missing, c->labels[l].label, "no samples (printed n/a)", out);
		note_flush(&nobase, c->labels[l].label,
			   "not in the baseline (percent printed as 0.00)", out);
		note_flush(&single, c->labels[l].label,
			   "1 sample: Stddev undefined (printed as 0.00)", out);
		note_flush(&hmean, c->labels[l].label,
			   "a sample <= 0: Hmean undefined (printed as 0.00, not tested)", out);
		note_flush(&bmean, c->labels[l].label,
			   "a sample <= 0: a BHmean undefined (printed as 0.00)", out);
		note_flush(&toofew, c->labels[l].label,
			   "fewer than 2 samples on a side: insufficient data, not tested "
			   "(mmtests would mark it significant)", out);
		note_flush(&negative, c->labels[l].label,
			   "negative samples: percents are relative to the baseline's magnitude "
			   "(positive is still better)", out);
		if (l) {
			decided_notes(c, t, l, out);
			noise_notes(c, t, l, out);
		}
	}
}

/*
 * "%*.2f" without printf, which is a quarter of the time of a large text
 * comparison. Only where the rounding is unambiguous: a value whose
 * hundredths sit (nearly) on .5 goes to snprintf, so the output stays
 * byte-identical to printf's (and so to mmtests' Perl sprintf).
 */
void report_add_fixed2(struct strbuf *out, int width, double v)
{
	char buf[64], *p = buf + sizeof(buf);
	double x = fabs(v) * 100, fl = floor(x), frac = x - fl;
	unsigned long long r;
	int len;

	if (!(x < 1e17) || fabs(frac - 0.5) < 1e-6) {
		strbuf_addf(out, "%*.2f", width, v);
		return;
	}
	r = (unsigned long long)fl + (frac > 0.5);
	*--p = (char)('0' + r % 10);
	r /= 10;
	*--p = (char)('0' + r % 10);
	r /= 10;
	*--p = '.';
	do {
		*--p = (char)('0' + r % 10);
		r /= 10;
	} while (r);
	if (signbit(v))
		*--p = '-';
	len = (int)(buf + sizeof(buf) - p);
	while (len < width) {
		static const char spaces[] = "                ";
		int k = width - len < 16 ? width - len : 16;

		strbuf_add(out, spaces, (size_t)k);
		len += k;
	}
	strbuf_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

/*
 * mmtests' %12.2f runs a value of 1e9 or more into the op name before it
 * ("memcgs-11500000000.00"): such a table widens its value fields so that
 * one space always stays. Tables of ordinary values keep the exact layout.
 */
static int value_width(const struct comparison *c, const struct cmp_table *t)
{
	int w = FIELD_LEN;

	for (size_t o = 0; o < t->nops; o++)
		for (size_t l = 0; l < c->nlabels; l++) {
			const struct cmp_cell *cell = &t->ops[o].cells[l];

			if (!cell->present)
				continue;
			for (int r = 0; r < NR_ROWS; r++) {
				double v = cell->row_ok[r] ? cell->row[r] : 0;

				/* below 1e7, "%.2f" is at most 11 characters */
				if (fabs(v) >= 1e7) {
					int len = snprintf(NULL, 0, "%.2f", v);

					if (len + 1 > w)
						w = len + 1;
				}
			}
		}
	return w;
}

static void text_table(const struct comparison *c, const struct cmp_table *t,
		       struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t sw = 0, ow = 0;
	int field = value_width(c, t), column = field + COMPARE_LEN + 4;
	/* op names as printed: the same pointer unless they need escaping */
	char **copies = xcalloc(t->nops, sizeof(*copies)), *copy;
	const char **names = xcalloc(t->nops, sizeof(*names));

	for (int r = 0; r < NR_ROWS; r++)
		if (strlen(cmp_row_name(r, t->better)) > sw)
			sw = strlen(cmp_row_name(r, t->better));
	for (size_t o = 0; o < t->nops; o++) {
		names[o] = inert(t->ops[o].op, &copies[o]);
		if (strlen(names[o]) > ow)
			ow = strlen(names[o]);
	}

	add_inert(out, t->title);
	strbuf_addstr(out, "\n");
	/* two header rows, each label split at its first '-' */
	for (int hdr = 0; hdr < 2; hdr++) {
		strbuf_addf(out, "%*s", (int)(sw + 1 + ow), "");
		for (size_t l = 0; l < c->nlabels; l++) {
			cmp_split_label(inert(c->labels[l].label, &copy), &a, &b);
			free(copy);
			strbuf_addf(out, "%*s", column, hdr ? strbuf_str(&b) : strbuf_str(&a));
		}
		strbuf_addstr(out, "\n");
	}
	for (int r = 0; r < NR_ROWS; r++) {
		for (size_t o = 0; o < t->nops; o++) {
			const struct cmp_op *op = &t->ops[o];

			strbuf_addf(out, "%-*s %-*s", (int)sw, cmp_row_name(r, t->better), (int)ow,
				    names[o]);
			for (size_t l = 0; l < c->nlabels; l++) {
				const struct cmp_cell *cell = &op->cells[l];

				if (!cell->present) {
					strbuf_addf(out, "%*s%*s", field, "n/a", COMPARE_LEN + 4, "");
					continue;
				}
				report_add_fixed2(out, field, cell->row_ok[r] ? cell->row[r] : 0);
				if (r == ROW_MEAN && cell->compared && cell->mm.significant) {
					strbuf_addstr(out, " *");
					report_add_fixed2(out, COMPARE_LEN, cell->pct[r]);
					strbuf_addstr(out, "%*");
				} else {
					strbuf_addstr(out, " (");
					report_add_fixed2(out, COMPARE_LEN, cell->compared ? cell->pct[r] : 0.0);
					strbuf_addstr(out, "%)");
				}
			}
			while (out->len && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			strbuf_addstr(out, "\n");
		}
	}
	table_notes(c, t, out);
	for (size_t o = 0; o < t->nops; o++)
		free(copies[o]);
	free(copies);
	free(names);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void text_heading(const struct cmp_workload *w, struct strbuf *out)
{
	strbuf_addstr(out, "\n== ");
	add_inert(out, w->name);
	strbuf_addf(out, ": %s ==\n", CMP_EXPLAINING_HEADING);
}

static void text_table_after_blank(const struct comparison *c, const struct cmp_table *t,
				   struct strbuf *out)
{
	strbuf_addstr(out, "\n");
	text_table(c, t, out);
}

static void text_note(const struct cmp_workload *w, const char *note, struct strbuf *out)
{
	(void)w;
	strbuf_addf(out, "%s\n", note);
}

static void text_symdiff(const char *text, struct strbuf *out)
{
	strbuf_addf(out, "\n%s", text);
}

void report_text(const struct comparison *c, struct strbuf *out)
{
	static const struct cmp_walk how = {
		.header = report_differences_text,
		.explaining_heading = text_heading,
		.table = text_table_after_blank,
		.note = text_note,
		.symdiff = text_symdiff,
	};

	cmp_walk(c, &how, out);
}
