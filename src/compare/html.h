/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML results page (`compare -f html`, `report --format html`): one
 * self-contained document a browser shows with no network and no script.
 * Its style is inline, its figures are data: URIs of SVG images (an image
 * runs no script and loads nothing), a Content-Security-Policy meta tag
 * forbids every fetch and every script besides, and every text from results
 * files goes through strbuf_add_html_text (core/escape.h). The comparison is
 * compare's one walk (format.h cmp_walk): the header, then per workload its
 * tables with their marks and figures, the notes under them (kernel health,
 * failed ops), and the explaining tables folded under them (<details>).
 */
#ifndef LRUBENCH_HTML_H
#define LRUBENCH_HTML_H

#include <stddef.h>
#include "compare/model.h"
#include "core/util.h"

/* A figure to show under a table: workload and table name the table it
 * belongs to (a table title that is none of the workload's tables, such as
 * plot's "CPU split", shows it at the end of the workload), uri is its
 * data: URI (html_data_uri). All owned by the caller. */
struct html_figure {
	const char *workload, *table;
	const char *caption;
	const char *uri;
};

struct html_figures {
	const struct html_figure *v;
	size_t n;
};

/* The page's title: "lrubench: A vs B, C" (the labels, unescaped). */
void html_title(const struct comparison *c, struct strbuf *sb);
/* <!DOCTYPE html> up to <body>: charset, viewport, the policy, the style;
 * title is other people's text (escaped here). */
void html_page_begin(struct strbuf *out, const char *title);
void html_page_end(struct strbuf *out);
/* <h2 id=id>title</h2> (our own words, not escaped). */
void html_section(struct strbuf *out, const char *id, const char *title);
/* text (from results, any bytes) in a <pre>: its lines, each escaped. */
void html_pre(struct strbuf *out, const char *text);
/* The comparison: its header and every workload's tables, notes and
 * explaining tables, each table followed by its figures (figs may be NULL). */
void html_comparison(const struct comparison *c, const struct html_figures *figs,
		     struct strbuf *out);
/* <figure> of one image under its caption (the other fields unused). */
void html_add_figure(struct strbuf *out, const struct html_figure *f);
/* "data:MIME,..." of len bytes of data, percent-encoded so that it can
 * stand in a double-quoted attribute as it is. */
void html_data_uri(struct strbuf *out, const char *mime, const void *data, size_t len);

#endif
