// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTML output (compare/html.h): per table the mean row (Hmean, or Amean
 * where lower is better) ± its 95% CI per label, and per candidate the
 * percent change with mmtests' significance mark, the 95% CI of the change,
 * the Welch p-value and the verdict: the numbers of the markdown tables,
 * with the exact values in data- attributes (what `compare -f json` holds),
 * so a reader or a test can check the page against compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/format.h"
#include "compare/html.h"
#include "compare/model.h"
#include "core/escape.h"

/* Text from results: always through here. */
static void h(struct strbuf *out, const char *s)
{
	strbuf_add_html_text(out, s);
}

/*
 * The page's only rules of presentation. Tables scroll sideways in their
 * own box on a narrow screen; figures shrink to the width; printed, the
 * folded tables are unfolded and nothing scrolls.
 */
static const char style[] =
	":root{color-scheme:light dark}"
	"body{font:15px/1.45 system-ui,sans-serif;max-width:75rem;margin:0 auto;padding:0 .8rem 2rem}"
	"h1{font-size:1.45rem}h2{font-size:1.2rem;border-bottom:1px solid #8886;padding-bottom:.15rem}"
	"h3{font-size:1.02rem;margin:1.1rem 0 .3rem}"
	".scroll{overflow-x:auto;max-width:100%}"
	"table{border-collapse:collapse;margin:.3rem 0 .8rem;font-variant-numeric:tabular-nums}"
	"th,td{border:1px solid #8887;padding:.2rem .45rem;text-align:right;white-space:nowrap}"
	"th{background:#8882;vertical-align:bottom}th:first-child,td:first-child{text-align:left}"
	"td.better{background:#2da44e33}td.worse{background:#cf222e33}"
	".mark{font-weight:bold}.n{color:#888;font-size:.85em}"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#8881;padding:.5rem;margin:.3rem 0}"
	"figure{margin:.4rem 0 1rem}figure img{max-width:100%;height:auto;background:#fff}"
	"figcaption{font-size:.9em;color:#777}"
	".warning{border-left:4px solid #d29922;padding:.15rem .6rem;margin:.4rem 0}"
	".notes{margin:.3rem 0 .8rem}.notes li{overflow-wrap:anywhere}"
	"details{margin:.8rem 0;border-left:3px solid #8885;padding-left:.6rem}"
	"summary{cursor:pointer;font-weight:600}"
	"@media (max-width:40rem){body{font-size:14px}th,td{padding:.15rem .3rem}}"
	"@media print{body{max-width:none;font-size:10pt}.scroll{overflow:visible}"
	"details::details-content{content-visibility:visible;display:contents}"
	"figure,table{break-inside:avoid}h2,h3{break-after:avoid}}";

void html_page_begin(struct strbuf *out, const char *title)
{
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		       /* nothing to fetch, nothing to run: images are data: URIs */
		       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		       "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
		       "<meta name=\"generator\" content=\"lrubench\">\n<title>");
	h(out, title);
	strbuf_addf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", style);
	h(out, title);
	strbuf_addstr(out, "</h1>\n");
}

void html_page_end(struct strbuf *out)
{
	strbuf_addstr(out, "</body>\n</html>\n");
}

void html_section(struct strbuf *out, const char *id, const char *title)
{
	strbuf_addf(out, "<h2 id=\"%s\">%s</h2>\n", id, title);
}

void html_pre(struct strbuf *out, const char *text)
{
	struct strbuf line = STRBUF_INIT;

	/* the line breaks are the caller's; each line is escaped */
	strbuf_init(&line);
	strbuf_addstr(out, "<pre>");
	for (const char *p = text, *nl; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		strbuf_reset(&line);
		strbuf_add(&line, p, (size_t)(nl - p));
		h(out, line.buf);
		if (*nl)
			strbuf_addstr(out, "\n");
	}
	strbuf_addstr(out, "</pre>\n");
	strbuf_release(&line);
}

void html_data_uri(struct strbuf *out, const char *mime, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t run = 0;

	/* percent-encoded, not base64: an SVG is text, so this is about its
	 * own size where base64 is a third more. Encoded are what would end
	 * the attribute or start a reference (" &), a fragment or an escape
	 * (# %), what a URL parser drops (tabs, line breaks) and every byte
	 * that is not printable ASCII; < and > may stand in a quoted value. */
	strbuf_addf(out, "data:%s,", mime);
	for (size_t i = 0; i < len; i++) {
		if (p[i] > 0x20 && p[i] < 0x7f && !strchr("\"&#%", p[i])) {
			run++;
			continue;
		}
		strbuf_add(out, p + i - run, run);
		run = 0;
		if (p[i] == ' ')
			strbuf_addstr(out, " ");
		else
			strbuf_addf(out, "%%%02X", p[i]);
	}
	strbuf_add(out, p + len - run, run);
}

/*
 * Where the walk is: the workload being shown, whether a notes list or the
 * explaining tables' <details> is open, the figures to place. cmp_walk's
 * callbacks carry no context of their own; one walk runs at a time per
 * thread.
 */
static _Thread_local struct html_walk {
	const struct comparison *c;
	const struct html_figures *figs;
	const struct cmp_workload *wl;
	bool *shown;                       /* per figure */
	bool notes_open, details_open;
} walk;

static void close_notes(struct strbuf *out)
{
	if (walk.notes_open)
		strbuf_addstr(out, "</ul>\n");
	walk.notes_open = false;
}

void html_add_figure(struct strbuf *out, const struct html_figure *f)
{
	/* html_data_uri left nothing in the uri to escape */
	strbuf_addf(out, "<figure><img src=\"%s\" alt=\"", f->uri);
	h(out, f->caption);
	strbuf_addstr(out, "\"><figcaption>");
	h(out, f->caption);
	strbuf_addstr(out, "</figcaption></figure>\n");
}

/* The figures of (workload, table); table NULL: those of the workload that
 * no table took (plot's CPU split and lock wait). */
static void add_figures(const struct cmp_workload *w, const char *table, struct strbuf *out)
{
	for (size_t i = 0; walk.figs && i < walk.figs->n; i++) {
		const struct html_figure *f = &walk.figs->v[i];

		if (walk.shown[i] || strcmp(f->workload, w->name) || (table && strcmp(f->table, table)))
			continue;
		walk.shown[i] = true;
		html_add_figure(out, f);
	}
}

/* After a workload's last table: its remaining figures, then close it. */
static void end_workload(struct strbuf *out)
{
	if (!walk.wl)
		return;
	close_notes(out);
	add_figures(walk.wl, NULL, out);
	if (walk.details_open)
		strbuf_addstr(out, "</details>\n");
	walk.details_open = false;
	strbuf_addstr(out, "</section>\n");
	walk.wl = NULL;
}

static void begin_workload(const struct cmp_workload *w, struct strbuf *out)
{
	if (walk.wl == w)
		return;
	end_workload(out);
	walk.wl = w;
	strbuf_addstr(out, "<section class=\"workload\">\n<h2>");
	h(out, w->name);
	strbuf_addstr(out, "</h2>\n");
}

static const struct cmp_workload *workload_of(const struct cmp_table *t)
{
	for (size_t w = 0; w < walk.c->nwls; w++)
		if (t >= walk.c->wls[w].tables && t < walk.c->wls[w].tables + walk.c->wls[w].ntables)
			return &walk.c->wls[w];
	return NULL;
}

static void add_p(struct strbuf *out, double p)
{
	if (isnan(p))
		strbuf_addstr(out, "n/a");
	else if (p < 0.0001)
		strbuf_addstr(out, "&lt;0.0001");
	else
		strbuf_addf(out, "%.4f", p);
}

/* A number for a data- attribute: exact, as compare's JSON writes it. */
static void add_exact(struct strbuf *out, const char *attr, double v)
{
	if (isfinite(v))
		strbuf_addf(out, " %s=\"%.17g\"", attr, v);
}

static const char *verdict_words(enum cmp_verdict v)
{
	switch (v) {
	case VERDICT_IMPROVEMENT: return "better";
	case VERDICT_REGRESSION: return "worse";
	case VERDICT_NO_CHANGE: return "no significant change";
	case VERDICT_INSUFFICIENT: return "insufficient data";
	default: return "";
	}
}

static void table_head(const struct comparison *c, const struct cmp_table *t, struct strbuf *out)
{
	const char *mean = cmp_row_name(ROW_MEAN, t->better);

	strbuf_addstr(out, "<thead><tr><th scope=\"col\">op</th>");
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_addstr(out, "<th scope=\"col\">");
		h(out, c->labels[l].label);
		strbuf_addf(out, "<br>%s ± 95%% CI</th>", mean);
	}
	for (size_t l = 1; l < c->nlabels; l++) {
		const char *cols[] = { "change", "95% CI of the change", "Welch p", "verdict" };

		for (size_t i = 0; i < 4; i++) {
			strbuf_addstr(out, "<th scope=\"col\">");
			if (c->nlabels > 2) {
				h(out, c->labels[l].label);
				strbuf_addstr(out, "<br>");
			}
			strbuf_addf(out, "%s</th>", cols[i]);
		}
	}
	strbuf_addstr(out, "</tr></thead>\n");
}

static void mean_cell(const struct cmp_cell *cell, struct strbuf *out)
{
	strbuf_addstr(out, "<td class=\"mean\"");
	if (!cell->present) {
		strbuf_addstr(out, ">n/a</td>");
		return;
	}
	if (cell->row_ok[ROW_MEAN])
		add_exact(out, "data-mean", cell->row[ROW_MEAN]);
	strbuf_addf(out, " data-n=\"%zu\">", cell->n);
	if (!cell->row_ok[ROW_MEAN])
		strbuf_addstr(out, "undefined (a sample &lt;= 0)");
	else if (!cell->mean_ci_ok)
		strbuf_addf(out, "%.2f", cell->row[ROW_MEAN]);
	else
		strbuf_addf(out, "%.2f ± %.2f", cell->row[ROW_MEAN],
			    (cell->mean_ci_hi - cell->mean_ci_lo) / 2);
	strbuf_addf(out, " <span class=\"n\">n=%zu</span></td>", cell->n);
}

static void change_cells(const struct comparison *c, const struct cmp_cell *cell,
			 struct strbuf *out)
{
	bool sig;

	if (!cell->compared) {
		strbuf_addstr(out, "<td class=\"change\">n/a</td><td>n/a</td><td>n/a</td><td>n/a</td>");
		return;
	}
	/* mmtests' mark: its t-test at --alpha (the sequential verdict for
	 * ops gathered by -i auto against this baseline, model.h) */
	sig = cell->mm.significant;
	strbuf_addf(out, "<td class=\"change%s\"", !sig ? "" : cell->pct[ROW_MEAN] >= 0 ?
		    " better" : " worse");
	add_exact(out, "data-pct", cell->pct[ROW_MEAN]);
	strbuf_addf(out, " data-significant=\"%s\">%+.2f%%", sig ? "yes" : "no", cell->pct[ROW_MEAN]);
	if (sig)
		strbuf_addf(out, " <span class=\"mark\" title=\"significant (alpha %g)\">*</span>",
			    c->alpha);
	strbuf_addstr(out, "</td><td>");
	if (cell->change_ci_ok)
		strbuf_addf(out, "%+.2f%% to %+.2f%%", cell->change_ci_lo, cell->change_ci_hi);
	else
		strbuf_addstr(out, "n/a");
	strbuf_addstr(out, "</td><td>");
	add_p(out, cell->welch.p);
	strbuf_addf(out, "</td><td class=\"verdict\">%s</td>", verdict_words(cell->verdict));
}

/* What a reader needs besides the numbers: how a cell was gathered, and
 * where mmtests would have marked what we did not test. */
static void table_notes(const struct comparison *c, const struct cmp_table *t, struct strbuf *out)
{
	bool open = false;

	for (size_t o = 0; o < t->nops; o++)
		for (size_t l = 1; l < c->nlabels; l++) {
			const struct cmp_cell *cell = &t->ops[o].cells[l];
			struct strbuf sb = STRBUF_INIT;

			strbuf_init(&sb);
			if (cell->sequential)
				cmp_sequential_text(cell, &sb);
			else if (cell->too_few_starred)
				strbuf_addstr(&sb, "fewer than 2 samples on a side: insufficient data, "
					      "not tested (mmtests would mark it significant)");
			else if (cell->compared && !t->explains && cell->noise_ok &&
				 fabs(cell->pct[ROW_MEAN]) < cell->noise_floor)
				strbuf_addf(&sb, "%+.2f%%, within this machine's noise (%.2f%%)",
					    cell->pct[ROW_MEAN], cell->noise_floor);
			if (sb.len) {
				if (!open)
					strbuf_addstr(out, "<ul class=\"notes\">\n");
				open = true;
				strbuf_addstr(out, "<li>");
				h(out, c->labels[l].label);
				strbuf_addstr(out, ": op ");
				h(out, t->ops[o].op);
				strbuf_addstr(out, ": ");
				h(out, sb.buf);
				strbuf_addstr(out, "</li>\n");
			}
			strbuf_release(&sb);
		}
	if (open)
		strbuf_addstr(out, "</ul>\n");
}

static void html_table(const struct comparison *c, const struct cmp_table *t, struct strbuf *out)
{
	const struct cmp_workload *w = workload_of(t);

	if (w)
		begin_workload(w, out);
	close_notes(out);
	strbuf_addstr(out, "<h3>");
	h(out, t->title);
	strbuf_addstr(out, " <span class=\"n\">(");
	h(out, t->unit);
	strbuf_addf(out, ", %s is better)</span></h3>\n<div class=\"scroll\"><table class=\"results\" "
		    "data-workload=\"", t->better > 0 ? "higher" : "lower");
	if (w)
		h(out, w->name);
	strbuf_addstr(out, "\" data-table=\"");
	h(out, t->title);
	strbuf_addstr(out, "\">\n");
	table_head(c, t, out);
	strbuf_addstr(out, "<tbody>\n");
	for (size_t o = 0; o < t->nops; o++) {
		const struct cmp_op *op = &t->ops[o];

		strbuf_addstr(out, "<tr><th scope=\"row\" class=\"op\">");
		h(out, op->op);
		strbuf_addstr(out, "</th>");
		for (size_t l = 0; l < c->nlabels; l++)
			mean_cell(&op->cells[l], out);
		for (size_t l = 1; l < c->nlabels; l++)
			change_cells(c, &op->cells[l], out);
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody></table></div>\n");
	table_notes(c, t, out);
	if (w)
		add_figures(w, t->title, out);
}

static void html_header(const struct comparison *c, struct strbuf *out)
{
	strbuf_addstr(out, "<p class=\"labels\"><b>Labels:</b> ");
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_addstr(out, l ? ", <span class=\"label\">" : "<span class=\"label\">");
		h(out, c->labels[l].label);
		strbuf_addf(out, "</span>%s", l ? "" : " (baseline)");
	}
	strbuf_addstr(out, "</p>\n");
	if (!c->nfacts) {
		strbuf_addf(out, "<p>%s</p>\n", c->same_kernel.n ?
			    "Nothing differs between the labels, not even the kernel build." :
			    "Nothing differs between the labels besides the kernel.");
	} else {
		bool kernel = false;

		for (size_t i = 0; i < c->nfacts; i++)
			kernel |= c->facts[i].kernel;
		strbuf_addf(out, "<h3>%s</h3>\n<div class=\"scroll\"><table class=\"differs\">"
			    "<thead><tr><th scope=\"col\">fact</th>",
			    kernel ? "What differs" : "What differs besides the kernel");
		for (size_t l = 0; l < c->nlabels; l++) {
			strbuf_addstr(out, "<th scope=\"col\">");
			h(out, c->labels[l].label);
			strbuf_addstr(out, "</th>");
		}
		strbuf_addstr(out, "</tr></thead>\n<tbody>\n");
		for (size_t i = 0; i < c->nfacts; i++) {
			strbuf_addstr(out, "<tr><th scope=\"row\">");
			h(out, c->facts[i].name);
			strbuf_addstr(out, "</th>");
			for (size_t l = 0; l < c->nlabels; l++) {
				strbuf_addstr(out, "<td>");
				h(out, c->facts[i].values[l]);
				strbuf_addstr(out, "</td>");
			}
			strbuf_addstr(out, "</tr>\n");
		}
		strbuf_addstr(out, "</tbody></table></div>\n");
	}
	for (size_t i = 0; i < c->warnings.n; i++) {
		strbuf_addstr(out, "<p class=\"warning\"><b>Warning:</b> ");
		h(out, c->warnings.v[i]);
		strbuf_addstr(out, "</p>\n");
	}
	if (c->profile_note) {
		strbuf_addstr(out, "<p class=\"warning\"><b>Note:</b> ");
		h(out, c->profile_note);
		strbuf_addstr(out, ".</p>\n");
	}
	strbuf_addf(out, "<p>Changes are of the mean row (Hmean, or Amean where lower is better) "
		    "against the baseline; a positive change is better. <span class=\"mark\">*</span> "
		    "marks a significant change: mmtests' t-test at alpha %g, or for ops gathered by "
		    "<code>-i auto</code> against that baseline the sequential test's verdict at its "
		    "alpha (noted under the table). Verdicts come from the 95%% confidence interval of "
		    "the change; p is Welch's t-test.</p>\n", c->alpha);
}

static void html_explaining(const struct cmp_workload *w, struct strbuf *out)
{
	begin_workload(w, out);
	close_notes(out);
	strbuf_addstr(out, "<details class=\"explaining\">\n<summary>");
	h(out, w->name);
	strbuf_addstr(out, ": " CMP_EXPLAINING_HEADING "</summary>\n<p>CPU split, reclaim rates, "
		       "fairness and lock contention of the same ops; a profiled pass (lru_lock, "
		       "spinlock) is one untimed iteration per op.</p>\n");
	walk.details_open = true;
}

static void html_notes_begin(const struct cmp_workload *w, struct strbuf *out)
{
	begin_workload(w, out);
	close_notes(out);
	strbuf_addstr(out, "<ul class=\"notes kernel\">\n");
	walk.notes_open = true;
}

static void html_symdiff(const char *text, struct strbuf *out)
{
	strbuf_addstr(out, "<pre class=\"symdiff\">");
	strbuf_add_html_text(out, text);
	strbuf_addstr(out, "</pre>\n");
}

static void html_note(const struct cmp_workload *w, const char *note, struct strbuf *out)
{
	(void)w;
	strbuf_addstr(out, "<li>");
	h(out, note);
	strbuf_addstr(out, "</li>\n");
}

void html_comparison(const struct comparison *c, const struct html_figures *figs,
		     struct strbuf *out)
{
	static const struct cmp_walk how = {
		.header = html_header,
		.explaining_heading = html_explaining,
		.table = html_table,
		.notes_begin = html_notes_begin,
		.note = html_note,
		.symdiff = html_symdiff,
	};

	walk = (struct html_walk){ .c = c, .figs = figs };
	if (figs && figs->n)
		walk.shown = xcalloc(figs->n, sizeof(*walk.shown));
	cmp_walk(c, &how, out);
	end_workload(out);
	free(walk.shown);
	walk = (struct html_walk){ 0 };
}

void html_title(const struct comparison *c, struct strbuf *sb)
{
	strbuf_addstr(sb, "lrubench: ");
	for (size_t l = 0; l < c->nlabels; l++)
		strbuf_addf(sb, "%s%s", l == 0 ? "" : l == 1 ? " vs " : ", ", c->labels[l].label);
}

void report_html(const struct comparison *c, struct strbuf *out)
{
	struct strbuf title = STRBUF_INIT;

	strbuf_init(&title);
	html_title(c, &title);
	html_page_begin(out, title.buf);
	html_comparison(c, NULL, out);
	html_page_end(out);
	strbuf_release(&title);
}
