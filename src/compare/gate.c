// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CI gate of `compare --fail-on-regression PCT`: a regression is a mean
 * row that mmtests' test finds significant at --alpha and that is worse by
 * at least PCT percent. One stderr line each, and JUnit XML with one
 * testcase per (table, op) and a failure element per regression.
 */
#include <string.h>
#include <stdlib.h>
#include "compare/model.h"
#include "core/escape.h"

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

					const char *why = cmp_untested_reason(b, x);
					bool reg = cmp_is_regression(x, pct);
					char *wn, *tn, *on, *bl, *cl;

					n += reg;
					if (!err || (!why && !reg))
						continue;
					/* a terminal reads these: names inert */
					wn = inert_dup(c->wls[w].name);
					tn = inert_dup(tb->title);
					on = inert_dup(tb->ops[o].op);
					bl = inert_dup(c->labels[0].label);
					cl = inert_dup(c->labels[l].label);
					if (why)
						fprintf(err, "%s: not gated: %s / %s / %s: %s: %s\n",
							lb_progname, wn, tn, on, cl, why);
					if (reg)
						fprintf(err, "%s: regression: %s / %s / %s: %s %s %.2f → "
							"%s %.2f (%.2f%%, p = %.3g)\n",
							lb_progname, wn, tn, on,
							cmp_row_name(ROW_MEAN, tb->better),
							bl, b->row[ROW_MEAN], cl, x->row[ROW_MEAN],
							x->pct[ROW_MEAN], x->mm.p);
					free(wn);
					free(tn);
					free(on);
					free(bl);
					free(cl);
				}
		}
	return n;
}

/* XML 1.0 text and attribute values: escape markup, drop what XML forbids */
static void xml(struct strbuf *out, const char *s)
{
	strbuf_add_xml_text(out, s);
}

static void junit_case(const struct comparison *c, const struct cmp_workload *wl,
		       const struct cmp_table *tb, const struct cmp_op *op, double pct,
		       struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT, why = STRBUF_INIT;
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
	/* not a pass and not a failure: JUnit's own outcome for "not run" */
	for (size_t l = 1; l < c->nlabels && !any; l++) {
		const char *reason = cmp_untested_reason(&op->cells[0], &op->cells[l]);

		if (reason)
			strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", c->labels[l].label, reason);
	}
	if (why.len) {
		strbuf_addstr(out, ">\n      <skipped message=\"");
		xml(out, why.buf);
		strbuf_addstr(out, "\"/>\n");
		any = true;
	}
	strbuf_addstr(out, any ? "    </testcase>\n" : "/>\n");
	strbuf_release(&name);
	strbuf_release(&why);
}

/* the testcase of op is skipped: no candidate regressed, one was not tested */
static bool junit_skipped(const struct comparison *c, const struct cmp_op *op, double pct)
{
	bool untested = false;

	for (size_t l = 1; l < c->nlabels; l++) {
		if (cmp_is_regression(&op->cells[l], pct))
			return false;
		if (cmp_untested_reason(&op->cells[0], &op->cells[l]))
			untested = true;
	}
	return untested;
}

void report_junit(const struct comparison *c, double pct, struct strbuf *out)
{
	size_t tests = 0, failures = 0, skipped = 0;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;
			tests += tb->nops;
			for (size_t o = 0; o < tb->nops; o++) {
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&tb->ops[o].cells[l], pct)) {
						failures++;
						break;
					}
				skipped += junit_skipped(c, &tb->ops[o], pct);
			}
		}
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<testsuites name=\"lrubench compare\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"0\" skipped=\"%zu\">\n", tests, failures, skipped);
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];
		size_t wt = 0, wf = 0, ws = 0;

		for (size_t t = 0; t < wl->ntables; t++) {
			if (wl->tables[t].explains)
				continue;
			wt += wl->tables[t].nops;
			for (size_t o = 0; o < wl->tables[t].nops; o++) {
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&wl->tables[t].ops[o].cells[l], pct)) {
						wf++;
						break;
					}
				ws += junit_skipped(c, &wl->tables[t].ops[o], pct);
			}
		}
		strbuf_addstr(out, "  <testsuite name=\"");
		xml(out, wl->name);
		strbuf_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
			    wt, wf, ws);
		for (size_t t = 0; t < wl->ntables; t++)
			for (size_t o = 0; o < wl->tables[t].nops && !wl->tables[t].explains; o++)
				junit_case(c, wl, &wl->tables[t], &wl->tables[t].ops[o], pct, out);
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_addstr(out, "</testsuites>\n");
}
