// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Markdown output, ready to paste into a cover letter or a review: per table
 * a GitHub table of the mean row ± its 95% CI per label, and per candidate
 * the percent change (positive is better, as in the text tables) with its
 * 95% CI, the Welch p-value and a verdict read from the CI.
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "compare/format.h"
#include "compare/model.h"
#include "core/cleanup.h"
#include "core/escape.h"

/* a table cell: '|' would end it, a newline would end the table (and
 * could start a heading): control characters are shown escaped. Markup
 * that would make a name something else is backslash-escaped (CommonMark
 * lets any ASCII punctuation be): [ ] < > ` & (links, images, HTML, code
 * spans, entities such as &#x202e;), so a label is always shown as text */
static void md_cell(struct strbuf *out, const char *s)
{
	char *tmp = text_needs_escape(s) ? inert_dup(s) : NULL;

	for (const char *p = tmp ? tmp : s; *p; p++) {
		if (strchr("|[]<>`&", *p)) {
			strbuf_addf(out, "\\%c", *p);
		} else if (tmp && p[0] == '\\' && p[1] == '\\') {
			strbuf_addstr(out, "\\\\");   /* an escaped backslash */
			p++;
		} else if (tmp && (!strncmp(p, "\\x0a", 4) || !strncmp(p, "\\x0d", 4))) {
			strbuf_addstr(out, " ");   /* a line break reads as a space in a cell */
			p += 3;
		} else {
			strbuf_add(out, p, 1);
		}
	}
	free(tmp);
}

/* the text of a code span (no backtick in it): inert, '|' escaped as GFM
 * tables need even there; nothing else is markup inside a span */
static void md_code(struct strbuf *out, const char *s)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_add_inert(&t, s);
	for (const char *p = t.buf; *p; p++)
		if (*p == '|')
			strbuf_addstr(out, "\\|");
		else
			strbuf_add(out, p, 1);
	strbuf_release(&t);
}

static const char *md_verdict(enum cmp_verdict v)
{
	switch (v) {
	case VERDICT_IMPROVEMENT: return "better";
	case VERDICT_REGRESSION: return "worse";
	case VERDICT_NO_CHANGE: return "no significant change";
	case VERDICT_INSUFFICIENT: return "insufficient data";
	default: return "";
	}
}

static void md_p(struct strbuf *out, double p)
{
	if (isnan(p))
		strbuf_addstr(out, "n/a");
	else if (p < 0.0001)
		strbuf_addstr(out, "<0.0001");
	else
		strbuf_addf(out, "%.4f", p);
}

static void md_table(const struct comparison *c, const struct cmp_table *t, struct strbuf *out)
{
	const char *mean = cmp_row_name(ROW_MEAN, t->better);

	strbuf_addstr(out, "\n### ");
	md_cell(out, t->title);
	strbuf_addf(out, " (");
	md_cell(out, t->unit);
	strbuf_addf(out, ", %s is better)\n\n| op | n |", t->better > 0 ? "higher" : "lower");
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_addstr(out, " ");
		md_cell(out, c->labels[l].label);
		strbuf_addf(out, " %s ± 95%% CI |", mean);
	}
	for (size_t l = 1; l < c->nlabels; l++) {
		strbuf_addstr(out, " ");
		if (c->nlabels > 2) {
			md_cell(out, c->labels[l].label);
			strbuf_addstr(out, ": ");
		}
		strbuf_addstr(out, "change (95% CI) | Welch p | verdict |");
	}
	strbuf_addstr(out, "\n|---|---:|");
	for (size_t l = 0; l < c->nlabels; l++)
		strbuf_addstr(out, "---:|");
	for (size_t l = 1; l < c->nlabels; l++)
		strbuf_addstr(out, "---:|---:|---|");
	strbuf_addstr(out, "\n");
	for (size_t o = 0; o < t->nops; o++) {
		const struct cmp_op *op = &t->ops[o];

		strbuf_addstr(out, "| ");
		md_cell(out, op->op);
		strbuf_addstr(out, " |");
		/* samples per label, "5 / 5" */
		for (size_t l = 0; l < c->nlabels; l++)
			strbuf_addf(out, "%s%zu", l ? " / " : " ", op->cells[l].present ? op->cells[l].n : 0);
		strbuf_addstr(out, " |");
		for (size_t l = 0; l < c->nlabels; l++) {
			const struct cmp_cell *cell = &op->cells[l];

			if (!cell->present)
				strbuf_addstr(out, " n/a |");
			else if (!cell->row_ok[ROW_MEAN])
				strbuf_addf(out, " undefined (sample <= 0), n=%zu |", cell->n);
			else if (!cell->mean_ci_ok)
				strbuf_addf(out, " %.2f (n=%zu) |", cell->row[ROW_MEAN], cell->n);
			else
				strbuf_addf(out, " %.2f ± %.2f |", cell->row[ROW_MEAN],
					    (cell->mean_ci_hi - cell->mean_ci_lo) / 2);
		}
		for (size_t l = 1; l < c->nlabels; l++) {
			const struct cmp_cell *cell = &op->cells[l];

			if (!cell->compared) {
				strbuf_addstr(out, " n/a | n/a | n/a |");
				continue;
			}
			strbuf_addf(out, " %+.2f%%", cell->pct[ROW_MEAN]);
			if (cell->change_ci_ok)
				strbuf_addf(out, " (%+.2f%% to %+.2f%%)", cell->change_ci_lo,
					    cell->change_ci_hi);
			strbuf_addstr(out, " | ");
			md_p(out, cell->welch.p);
			strbuf_addf(out, " | %s |", md_verdict(cell->verdict));
		}
		strbuf_addstr(out, "\n");
	}
}

/* labels, what differs, warnings, the note on the whole */
static void md_header(const struct comparison *c, struct strbuf *out)
{
	strbuf_addstr(out, "**Labels:**");
	for (size_t l = 0; l < c->nlabels; l++) {
		/* a code span shows its text literally; one holding a backtick
		 * would end early, so such a label is escaped text instead */
		bool span = !strchr(c->labels[l].label, '`');

		strbuf_addf(out, "%s %s", l ? "," : "", span ? "`" : "");
		if (span)
			md_code(out, c->labels[l].label);
		else
			md_cell(out, c->labels[l].label);
		strbuf_addf(out, "%s%s", span ? "`" : "", l ? "" : " (baseline)");
	}
	strbuf_addstr(out, "\n\n");
	if (!c->nfacts) {
		strbuf_addstr(out, c->same_kernel.n ?
			      "Nothing differs between the labels, not even the kernel build.\n" :
			      "Nothing differs between the labels besides the kernel.\n");
	} else {
		bool kernel = false;

		for (size_t i = 0; i < c->nfacts; i++)
			kernel |= c->facts[i].kernel;
		strbuf_addstr(out, kernel ? "**Differs:**\n\n| fact |" : "**Differs besides the kernel:**\n\n| fact |");
		for (size_t l = 0; l < c->nlabels; l++) {
			strbuf_addstr(out, " ");
			md_cell(out, c->labels[l].label);
			strbuf_addstr(out, " |");
		}
		strbuf_addstr(out, "\n|---|");
		for (size_t l = 0; l < c->nlabels; l++)
			strbuf_addstr(out, "---|");
		strbuf_addstr(out, "\n");
		for (size_t i = 0; i < c->nfacts; i++) {
			strbuf_addstr(out, "| ");
			md_cell(out, c->facts[i].name);
			strbuf_addstr(out, " |");
			for (size_t l = 0; l < c->nlabels; l++) {
				strbuf_addstr(out, " ");
				md_cell(out, c->facts[i].values[l]);
				strbuf_addstr(out, " |");
			}
			strbuf_addstr(out, "\n");
		}
	}
	for (size_t i = 0; i < c->warnings.n; i++) {
		strbuf_addstr(out, "\n> **Warning:** ");
		md_cell(out, c->warnings.v[i]);
		strbuf_addstr(out, "\n");
	}
	if (c->profile_note) {
		strbuf_addstr(out, "\n> **Note:** ");
		md_cell(out, c->profile_note);
		strbuf_addstr(out, ".\n");
	}
	strbuf_addstr(out, "\nChanges are against the baseline; a positive change is better. "
		       "Verdicts come from the 95% confidence interval of the change.\n");
}

static void md_heading(const struct cmp_workload *w, struct strbuf *out)
{
	strbuf_addstr(out, "\n## ");
	md_cell(out, w->name);
	strbuf_addstr(out, ": " CMP_EXPLAINING_HEADING "\n\nCPU split, reclaim "
		       "rates, fairness and lock contention of the same ops; a "
		       "profiled pass (lru_lock, spinlock) is one untimed iteration "
		       "per op.\n");
}

static void md_notes_begin(const struct cmp_workload *w, struct strbuf *out)
{
	(void)w;
	strbuf_addstr(out, "\n");
}

static void md_note(const struct cmp_workload *w, const char *note, struct strbuf *out)
{
	(void)w;
	strbuf_addstr(out, "> ");
	md_cell(out, note);
	strbuf_addstr(out, "\n");
}

/* an indented code block: its text is inert already, and no fence to close */
static void md_symdiff(const char *text, struct strbuf *out)
{
	strbuf_addstr(out, "\n");
	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addstr(out, "    ");
		strbuf_add(out, p, n);
		strbuf_addstr(out, "\n");
		p += n + (nl != NULL);
	}
}

void report_markdown(const struct comparison *c, struct strbuf *out)
{
	static const struct cmp_walk how = {
		.header = md_header,
		.explaining_heading = md_heading,
		.table = md_table,
		.notes_begin = md_notes_begin,
		.note = md_note,
		.symdiff = md_symdiff,
	};

	cmp_walk(c, &how, out);
}
