// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CI gate of `compare --fail-on-regression PCT`: a regression is a mean
 * row that mmtests' test finds significant at --alpha and that is worse by
 * at least PCT percent. One stderr line each, and JUnit XML with one
 * testcase per (table, op) and a failure element per regression.
 */
#include <string.h>
#include "compare/model.h"

size_t report_regressions(const struct comparison *c, double pct, FILE *err)
{
	size_t n = 0;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;   /* context for the measured tables, not a measure */
			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 1; l < c->nlabels; l++) {
					const struct cmp_cell *b = &tb->ops[o].cells[0];
					const struct cmp_cell *x = &tb->ops[o].cells[l];

					if (!cmp_is_regression(x, pct))
						continue;
					n++;
					if (err)
						fprintf(err, "%s: regression: %s / %s / %s: %s %s %.2f → "
							"%s %.2f (%.2f%%, p = %.3g)\n",
							lb_progname, c->wls[w].name, tb->title,
							tb->ops[o].op, cmp_row_name(ROW_MEAN, tb->better),
							c->labels[0].label, b->row[ROW_MEAN],
							c->labels[l].label, x->row[ROW_MEAN],
							x->pct[ROW_MEAN], x->mm.p);
				}
		}
	return n;
}

/* XML 1.0 text and attribute values: escape markup, drop what XML forbids */
static void xml(struct strbuf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&apos;"); break;
		default:
			if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
				strbuf_addstr(out, "?");
			else
				strbuf_add(out, p, 1);
		}
	}
}

static void junit_case(const struct comparison *c, const struct cmp_workload *wl,
		       const struct cmp_table *tb, const struct cmp_op *op, double pct,
		       struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT;
	bool any = false;

	strbuf_addf(&name, "%s/%s/%s", wl->name, tb->title, op->op);
	strbuf_addstr(out, "    <testcase classname=\"lrubench.compare.");
	xml(out, wl->name);
	strbuf_addstr(out, "\" name=\"");
	xml(out, name.buf);
	strbuf_addstr(out, "\"");
	for (size_t l = 1; l < c->nlabels; l++) {
		const struct cmp_cell *b = &op->cells[0], *x = &op->cells[l];
		struct strbuf msg = STRBUF_INIT;

		if (!cmp_is_regression(x, pct))
			continue;
		if (!any)
			strbuf_addstr(out, ">\n");
		any = true;
		strbuf_addf(&msg, "%s is %.2f%% worse than %s (p = %.4g)", c->labels[l].label,
			    -x->pct[ROW_MEAN], c->labels[0].label, x->mm.p);
		strbuf_addstr(out, "      <failure type=\"regression\" message=\"");
		xml(out, msg.buf);
		strbuf_addstr(out, "\">");
		strbuf_reset(&msg);
		strbuf_addf(&msg, "%s %s: %s %.2f -> %s %.2f %s (%.2f%%), mmtests t-test p = %.6g "
			    "(alpha %g), threshold %g%%", name.buf, cmp_row_name(ROW_MEAN, tb->better),
			    c->labels[0].label, b->row[ROW_MEAN], c->labels[l].label,
			    x->row[ROW_MEAN], tb->unit, x->pct[ROW_MEAN], x->mm.p, c->alpha, pct);
		xml(out, msg.buf);
		strbuf_addstr(out, "</failure>\n");
		strbuf_release(&msg);
	}
	strbuf_addstr(out, any ? "    </testcase>\n" : "/>\n");
	strbuf_release(&name);
}

void report_junit(const struct comparison *c, double pct, struct strbuf *out)
{
	size_t tests = 0, failures = 0;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;
			tests += tb->nops;
			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&tb->ops[o].cells[l], pct)) {
						failures++;
						break;
					}
		}
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<testsuites name=\"lrubench compare\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"0\">\n", tests, failures);
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];
		size_t wt = 0, wf = 0;

		for (size_t t = 0; t < wl->ntables; t++) {
			if (wl->tables[t].explains)
				continue;
			wt += wl->tables[t].nops;
			for (size_t o = 0; o < wl->tables[t].nops; o++)
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&wl->tables[t].ops[o].cells[l], pct)) {
						wf++;
						break;
					}
		}
		strbuf_addstr(out, "  <testsuite name=\"");
		xml(out, wl->name);
		strbuf_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
			    wt, wf);
		for (size_t t = 0; t < wl->ntables; t++)
			for (size_t o = 0; o < wl->tables[t].nops && !wl->tables[t].explains; o++)
				junit_case(c, wl, &wl->tables[t], &wl->tables[t].ops[o], pct, out);
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_addstr(out, "</testsuites>\n");
}
