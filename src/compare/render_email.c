// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `compare -f email`: the compact tables people write by hand for a cover
 * letter to linux-mm, one row per op with "mean (stddev)" per kernel and
 * the change, from compare's model (model.h) so the numbers are the text
 * output's to the digit. Everything fits EMAIL_WIDTH columns: a comparison
 * of many kernels is split into blocks (op and baseline columns repeated),
 * labels too long for a header become letters with a key, and op names too
 * long for their column get a line of their own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/email.h"
#include "core/series.h"
#include "compare/symdiff.h"

#define EMAIL_SYMDIFF_ROWS 5   /* the top lines of a differential profile in a mail */

#define GAP 2   /* spaces between columns */

/* ---------- text helpers ---------- */

void email_add_ascii(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char c = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';

		strbuf_add(out, &c, 1);
	}
}

/* End a line: no trailing blanks (some mailers strip them, diffs show them). */
static void end_line(struct strbuf *out)
{
	while (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	strbuf_addstr(out, "\n");
}

static void add_spaces(struct strbuf *out, size_t n)
{
	while (n--)
		strbuf_addstr(out, " ");
}

void email_add_wrapped(struct strbuf *out, const char *first, const char *cont,
		       const char *text)
{
	struct strbuf clean = STRBUF_INIT;
	size_t col = strlen(first), contw = strlen(cont);
	bool empty = true;   /* nothing but the prefix on this line yet */
	const char *p;

	strbuf_init(&clean);
	email_add_ascii(&clean, text);
	strbuf_addstr(out, first);
	for (p = clean.buf; *p;) {
		size_t wl;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		wl = strcspn(p, " ");
		if (!empty && col + 1 + wl > EMAIL_WIDTH) {
			end_line(out);
			strbuf_addstr(out, cont);
			col = contw;
			empty = true;
		}
		if (!empty) {
			strbuf_addstr(out, " ");
			col++;
		}
		/* a word longer than a whole line (a path, a long label) is cut */
		while (col + wl > EMAIL_WIDTH) {
			size_t room = EMAIL_WIDTH > col + 1 ? EMAIL_WIDTH - col : 1;

			strbuf_add(out, p, room);
			p += room;
			wl -= room;
			end_line(out);
			strbuf_addstr(out, cont);
			col = contw;
		}
		strbuf_add(out, p, wl);
		p += wl;
		col += wl;
		empty = false;
	}
	end_line(out);
	strbuf_release(&clean);
}

/* ---------- one table's strings ---------- */

struct etable {
	const struct comparison *c;
	const struct cmp_table *t;
	size_t nl;
	char **op;          /* per op, ASCII */
	char **val;         /* [o * nl + l]: "mean (stddev)", "n/a", "undef" */
	char **chg;         /* [o * nl + l], l > 0: "-13.89% *", "+0.71%  ", "n/a" */
	size_t *valw;       /* per label: the widest value */
	size_t *chgw;       /* per label: the widest change or "change" */
	size_t opw;         /* the widest op, at least "op" */
	bool missing, undef, single;   /* marks used, explained under the table */
};

/*
 * Two decimals, as mmtests prints, while that stays narrow; an op whose
 * numbers reach 100000 drops the decimals, one reaching 10^9 goes to
 * exponent form, so that two kernels always fit 72 columns. Decided per op
 * so that all the kernels' numbers of one row read alike.
 */
static int op_precision(const struct cmp_op *op, size_t nl)
{
	double big = 0;

	for (size_t l = 0; l < nl; l++) {
		const struct cmp_cell *cell = &op->cells[l];

		if (!cell->present)
			continue;
		if (cell->row_ok[ROW_MEAN] && fabs(cell->row[ROW_MEAN]) > big)
			big = fabs(cell->row[ROW_MEAN]);
		if (cell->row_ok[ROW_STDDEV] && fabs(cell->row[ROW_STDDEV]) > big)
			big = fabs(cell->row[ROW_STDDEV]);
	}
	return big < 99999.995 ? 2 : big < 999999999.5 ? 0 : -1;
}

static void add_number(struct strbuf *sb, double v, int prec)
{
	if (prec < 0)
		strbuf_addf(sb, "%.3e", v);
	else
		strbuf_addf(sb, "%.*f", prec, v);
}

static void add_change(struct strbuf *sb, double pct)
{
	if (fabs(pct) < 9999.995)
		strbuf_addf(sb, "%+.2f%%", pct);
	else if (fabs(pct) < 99999999.5)
		strbuf_addf(sb, "%+.0f%%", pct);
	else
		strbuf_addf(sb, "%+.1e%%", pct);
}

static void etable_init(struct etable *e, const struct comparison *c, const struct cmp_table *t)
{
	size_t nl = c->nlabels;
	struct strbuf sb = STRBUF_INIT;

	memset(e, 0, sizeof(*e));
	e->c = c;
	e->t = t;
	e->nl = nl;
	e->op = xcalloc(t->nops ? t->nops : 1, sizeof(*e->op));
	e->val = xcalloc(t->nops * nl + 1, sizeof(*e->val));
	e->chg = xcalloc(t->nops * nl + 1, sizeof(*e->chg));
	e->valw = xcalloc(nl, sizeof(*e->valw));
	e->chgw = xcalloc(nl, sizeof(*e->chgw));
	e->opw = strlen("op");
	strbuf_init(&sb);
	for (size_t l = 0; l < nl; l++)
		e->chgw[l] = strlen("change") + GAP;   /* the header sits over the '%' */
	for (size_t o = 0; o < t->nops; o++) {
		const struct cmp_cell *base = &t->ops[o].cells[0];
		int prec = op_precision(&t->ops[o], nl);

		strbuf_reset(&sb);
		email_add_ascii(&sb, t->ops[o].op);
		e->op[o] = xstrdup(sb.buf);
		if (strlen(e->op[o]) > e->opw)
			e->opw = strlen(e->op[o]);
		for (size_t l = 0; l < nl; l++) {
			const struct cmp_cell *cell = &t->ops[o].cells[l];

			strbuf_reset(&sb);
			if (!cell->present) {
				strbuf_addstr(&sb, "n/a");
				e->missing = true;
			} else if (!cell->row_ok[ROW_MEAN]) {
				strbuf_addstr(&sb, "undef");
				e->undef = true;
			} else {
				add_number(&sb, cell->row[ROW_MEAN], prec);
				strbuf_addstr(&sb, " (");
				if (cell->row_ok[ROW_STDDEV]) {
					add_number(&sb, cell->row[ROW_STDDEV], prec);
				} else {
					strbuf_addstr(&sb, "-");
					e->single = true;
				}
				strbuf_addstr(&sb, ")");
			}
			e->val[o * nl + l] = xstrdup(sb.buf);
			if (sb.len > e->valw[l])
				e->valw[l] = sb.len;
			if (!l)
				continue;
			strbuf_reset(&sb);
			if (!cell->compared || !cell->row_ok[ROW_MEAN] || !base->row_ok[ROW_MEAN]) {
				strbuf_addstr(&sb, "n/a  ");
				e->missing = true;
			} else {
				add_change(&sb, cell->pct[ROW_MEAN]);
				strbuf_addstr(&sb, cell->mm.significant ? " *" : "  ");
			}
			e->chg[o * nl + l] = xstrdup(sb.buf);
			if (sb.len > e->chgw[l])
				e->chgw[l] = sb.len;
		}
	}
	strbuf_release(&sb);
}

static void etable_release(struct etable *e)
{
	for (size_t o = 0; o < e->t->nops; o++) {
		free(e->op[o]);
		for (size_t l = 0; l < e->nl; l++) {
			free(e->val[o * e->nl + l]);
			free(e->chg[o * e->nl + l]);
		}
	}
	free(e->op);
	free(e->val);
	free(e->chg);
	free(e->valw);
	free(e->chgw);
}

/* ---------- layout ---------- */

/* Column headers: the labels, or A, B, ..., Z, AA, AB ... with a key. */
static char *letter_name(size_t i)
{
	char buf[16], *p = buf + sizeof(buf);

	*--p = '\0';
	do {
		*--p = (char)('A' + i % 26);
		i = i / 26;
	} while (i-- > 0 && p > buf + 1);
	return xstrdup(p);
}

struct headers {
	char **name;     /* per label */
	bool letters;
};

static size_t colw(const struct etable *e, const struct headers *h, size_t l)
{
	size_t w = strlen(h->name[l]);

	return e->valw[l] > w ? e->valw[l] : w;
}

/* Width of the columns of baseline and candidate l, without the op column. */
static size_t pair_width(const struct etable *e, const struct headers *h, size_t l)
{
	size_t w = GAP + colw(e, h, 0);

	if (l)
		w += GAP + colw(e, h, l) + GAP + e->chgw[l];
	return w;
}

/* The widest single-candidate block, without the op column. */
static size_t widest_pair(const struct etable *e, const struct headers *h)
{
	size_t w = pair_width(e, h, 0);

	for (size_t l = 1; l < e->nl; l++)
		if (pair_width(e, h, l) > w)
			w = pair_width(e, h, l);
	return w;
}

/* An op column narrower than this puts every op on a line of its own. */
#define OP_MIN 8

/* Can every table be laid out with these headers and an op column of OP_MIN? */
static bool headers_fit(const struct etable *tabs, size_t ntabs, const struct headers *h)
{
	for (size_t i = 0; i < ntabs; i++)
		if (OP_MIN + widest_pair(&tabs[i], h) > EMAIL_WIDTH)
			return false;
	return true;
}

static void block_header(const struct etable *e, const struct headers *h, size_t opw,
			 const size_t *blk, size_t nblk, struct strbuf *out)
{
	strbuf_addf(out, "%-*s", (int)opw, "op");
	for (size_t i = 0; i < nblk; i++) {
		size_t l = blk[i];

		add_spaces(out, GAP);
		strbuf_addf(out, "%*s", (int)colw(e, h, l), h->name[l]);
		if (l) {
			add_spaces(out, GAP);
			strbuf_addf(out, "%*s", (int)(e->chgw[l] - GAP), "change");
			add_spaces(out, GAP);
		}
	}
	end_line(out);
}

static void block_rows(const struct etable *e, const struct headers *h, size_t opw,
		       const size_t *blk, size_t nblk, struct strbuf *out)
{
	for (size_t o = 0; o < e->t->nops; o++) {
		if (strlen(e->op[o]) > opw) {   /* too long for the column: its own line */
			strbuf_addstr(out, e->op[o]);
			end_line(out);
			add_spaces(out, opw);
		} else {
			strbuf_addf(out, "%-*s", (int)opw, e->op[o]);
		}
		for (size_t i = 0; i < nblk; i++) {
			size_t l = blk[i];

			add_spaces(out, GAP);
			strbuf_addf(out, "%*s", (int)colw(e, h, l), e->val[o * e->nl + l]);
			if (l) {
				add_spaces(out, GAP);
				strbuf_addf(out, "%*s", (int)e->chgw[l], e->chg[o * e->nl + l]);
			}
		}
		end_line(out);
	}
}

static void email_table(const struct etable *e, const struct headers *h, struct strbuf *out)
{
	const struct cmp_table *t = e->t;
	size_t widest = widest_pair(e, h), opw = e->opw;
	size_t *blk = xcalloc(e->nl, sizeof(*blk));
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	email_add_wrapped(out, "", "  ", t->title);
	strbuf_addf(&sb, "%s (stddev)", cmp_row_name(ROW_MEAN, t->better));
	if (*t->unit) {
		strbuf_addstr(&sb, " in ");
		strbuf_addstr(&sb, t->unit);
	}
	strbuf_addf(&sb, "; %s is better", t->better > 0 ? "higher" : "lower");
	email_add_wrapped(out, "", "", sb.buf);
	/* ops too long for the room left by the widest block get a line of their own */
	if (opw + widest > EMAIL_WIDTH)
		opw = EMAIL_WIDTH > widest + OP_MIN ? EMAIL_WIDTH - widest : OP_MIN;
	if (!t->nops) {
		strbuf_addstr(out, "(no ops)\n");
	} else if (e->nl == 1) {
		blk[0] = 0;
		block_header(e, h, opw, blk, 1, out);
		block_rows(e, h, opw, blk, 1, out);
	}
	/* candidates packed greedily into blocks, each led by the baseline */
	for (size_t next = 1; t->nops && next < e->nl;) {
		size_t nblk = 1, w = opw + GAP + colw(e, h, 0);

		blk[0] = 0;
		do {
			w += pair_width(e, h, next) - pair_width(e, h, 0);
			blk[nblk++] = next++;
		} while (next < e->nl &&
			 w + pair_width(e, h, next) - pair_width(e, h, 0) <= EMAIL_WIDTH);
		if (blk[1] > 1)
			strbuf_addstr(out, "\n");
		block_header(e, h, opw, blk, nblk, out);
		block_rows(e, h, opw, blk, nblk, out);
	}
	if (e->missing)
		email_add_wrapped(out, "", "  ", "n/a: no samples, or none on the baseline "
				  "side to compare with.");
	if (e->undef) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "undef: a sample <= 0, so the %s is undefined and not tested.",
			    cmp_row_name(ROW_MEAN, t->better));
		email_add_wrapped(out, "", "  ", sb.buf);
	}
	if (e->single)
		email_add_wrapped(out, "", "  ", "(-): one sample, the stddev is undefined.");
	strbuf_release(&sb);
	free(blk);
}

static void email_head(const struct comparison *c, const struct headers *h, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nkernel = 0;

	strbuf_init(&sb);
	if (!h->letters) {
		strbuf_addstr(&sb, "Kernels:");
		for (size_t l = 0; l < c->nlabels; l++)
			strbuf_addf(&sb, "%s %s%s", l ? "," : "", c->labels[l].label,
				    l ? "" : " (baseline)");
		email_add_wrapped(out, "", "  ", sb.buf);
	} else {
		strbuf_addstr(out, "Kernels:\n");
		for (size_t l = 0; l < c->nlabels; l++) {
			char *first = xasprintf("  %-3s", h->name[l]);

			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s%s", c->labels[l].label, l ? "" : " (baseline)");
			email_add_wrapped(out, first, "       ", sb.buf);
			free(first);
		}
	}
	for (size_t i = 0; i < c->nfacts; i++)
		nkernel += c->facts[i].kernel;
	if (c->nfacts == nkernel)
		strbuf_addstr(out, !nkernel && c->same_kernel.n ?
			      "Nothing differs between the labels, not even the kernel build.\n" :
			      "Nothing differs between the labels besides the kernel.\n");
	/* the facts besides the kernel, then the kernel's (compare/provenance.c) */
	for (int kernel = 0; kernel < 2; kernel++) {
		if (c->nfacts > nkernel && !kernel)
			strbuf_addstr(out, "Differs besides the kernel:\n");
		if (nkernel && kernel)
			strbuf_addstr(out, "Kernel:\n");
		for (size_t i = 0; i < c->nfacts; i++) {
			if (c->facts[i].kernel != (kernel == 1))
				continue;
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s:", c->facts[i].name);
			for (size_t l = 0; l < c->nlabels; l++)
				strbuf_addf(&sb, "%s%s", l ? " | " : " ", c->facts[i].values[l]);
			email_add_wrapped(out, "  ", "      ", sb.buf);
		}
	}
	for (size_t i = 0; i < c->warnings.n; i++)
		email_add_wrapped(out, "WARNING: ", "  ", c->warnings.v[i]);
	strbuf_release(&sb);
}

static bool any_sequential(const struct comparison *c)
{
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++)
			for (size_t o = 0; o < c->wls[w].tables[t].nops; o++)
				for (size_t l = 1; l < c->nlabels; l++)
					if (c->wls[w].tables[t].ops[o].cells[l].sequential)
						return true;
	return false;
}

/*
 * A level table of the monitors (core/series.h: active file MB (peak), ...)
 * in which no op changed significantly: a letter is for what changed, and a
 * run has two dozen of them per workload; compare and the html report keep
 * them all. With one label nothing is compared: all of them are left out.
 */
static bool quiet_level_table(const struct comparison *c, const char *wl,
			      const struct cmp_table *t)
{
	if (!t->explains || !series_level_title(wl, t->title))
		return false;
	for (size_t o = 0; o < t->nops; o++)
		for (size_t l = 1; l < c->nlabels; l++) {
			enum cmp_verdict v = t->ops[o].cells[l].verdict;

			if (v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION)
				return false;
		}
	return true;
}

/* a table whose mean row is the Amean because the run said statistic = amean */
static bool any_amean_throughput(const struct comparison *c)
{
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++)
			if (c->wls[w].tables[t].better == BETTER_HIGHER_AMEAN)
				return true;
	return false;
}

void report_email(const struct comparison *c, struct strbuf *out)
{
	size_t ntabs = 0, k = 0, quiet = 0;
	struct etable *tabs;
	struct headers h = { xcalloc(c->nlabels, sizeof(char *)), false };
	struct strbuf sb = STRBUF_INIT;

	for (size_t w = 0; w < c->nwls; w++)
		ntabs += c->wls[w].ntables;
	tabs = xcalloc(ntabs ? ntabs : 1, sizeof(*tabs));
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			if (quiet_level_table(c, c->wls[w].name, &c->wls[w].tables[t])) {
				quiet++;
				continue;
			}
			etable_init(&tabs[k++], c, &c->wls[w].tables[t]);
		}
	ntabs = k;
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_init(&sb);
		email_add_ascii(&sb, c->labels[l].label);
		h.name[l] = strbuf_detach(&sb);
	}
	if (!headers_fit(tabs, ntabs, &h)) {
		h.letters = true;
		for (size_t l = 0; l < c->nlabels; l++) {
			free(h.name[l]);
			h.name[l] = letter_name(l);
		}
	}
	email_head(c, &h, out);
	for (size_t i = 0; i < ntabs; i++) {
		strbuf_addstr(out, "\n");
		email_table(&tabs[i], &h, out);
	}
	if (quiet) {
		strbuf_init(&sb);
		strbuf_addf(&sb, "(%zu level table%s of the monitors with no significant change "
			    "left out; lrubench compare shows %s.)", quiet, quiet == 1 ? "" : "s",
			    quiet == 1 ? "it" : "them");
		strbuf_addstr(out, "\n");
		email_add_wrapped(out, "", "", sb.buf);
		strbuf_release(&sb);
	}
	/* what the kernel logged while a workload ran, failed ops (provenance.c),
	 * and how the samples of -i auto against a baseline were gathered */
	for (size_t w = 0; w < c->nwls; w++) {
		bool head = c->wls[w].notes.n > 0;

		if (head)
			strbuf_addf(out, "\n%s:\n", c->wls[w].name);
		for (size_t i = 0; i < c->wls[w].notes.n; i++)
			email_add_wrapped(out, "", "    ", c->wls[w].notes.v[i]);
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 1; l < c->nlabels; l++) {
					const struct cmp_cell *cell = &tb->ops[o].cells[l];

					if (!cell->sequential)
						continue;
					if (!head)
						strbuf_addf(out, "\n%s:\n", c->wls[w].name);
					head = true;
					strbuf_init(&sb);
					email_add_ascii(&sb, h.name[l]);
					strbuf_addstr(&sb, ": ");
					email_add_ascii(&sb, tb->ops[o].op);
					strbuf_addstr(&sb, ": ");
					cmp_sequential_text(cell, &sb);
					email_add_wrapped(out, "", "    ", sb.buf);
					strbuf_release(&sb);
				}
		}
	}
	/* where the CPU time moved, for the ops that changed significantly */
	for (size_t i = 0, shown = 0; i < c->nsymdiffs; i++) {
		if (!c->symdiffs[i].significant)
			continue;
		if (!shown++)
			strbuf_addstr(out, "\nWhere the CPU time moved in the ops that changed "
				      "significantly\n(perf record, one untimed profile pass per op):\n");
		strbuf_addstr(out, "\n");
		cmp_symdiff_text(c, &c->symdiffs[i], EMAIL_SYMDIFF_ROWS, true, out);
	}
	if (c->nlabels > 1) {
		strbuf_init(&sb);
		strbuf_addf(&sb, "change: of the Hmean (Amean where lower is better%s) against "
			    "the baseline %s, positive is better; * marks a significant change "
			    "(mmtests' t-test at alpha %g%s).",
			    any_amean_throughput(c) ? ", and where the run says statistic = amean" : "",
			    h.name[0], c->alpha,
			    any_sequential(c) ? "; for ops gathered by -i auto against that "
			    "baseline, the sequential test's verdict at its alpha" : "");
		strbuf_addstr(out, "\n");
		email_add_wrapped(out, "", "", sb.buf);
		strbuf_release(&sb);
	}
	for (size_t i = 0; i < ntabs; i++)
		etable_release(&tabs[i]);
	free(tabs);
	for (size_t l = 0; l < c->nlabels; l++)
		free(h.name[l]);
	free(h.name);
}
