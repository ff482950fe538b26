// SPDX-License-Identifier: GPL-2.0-or-later
/* compare's output formats (compare/format.h). */
#include "compare/format.h"

#include <string.h>
#include "core/cleanup.h"
#include "compare/email.h"
#include "compare/symdiff.h"

static void text(const struct comparison *c, const struct cmp_render_opts *o, struct strbuf *out)
{
	(void)o;
	report_text(c, out);
}

static void markdown(const struct comparison *c, const struct cmp_render_opts *o,
		     struct strbuf *out)
{
	(void)o;
	report_markdown(c, out);
}

static void json(const struct comparison *c, const struct cmp_render_opts *o, struct strbuf *out)
{
	report_json(c, o->fail_pct, out);
}

static void csv(const struct comparison *c, const struct cmp_render_opts *o, struct strbuf *out)
{
	(void)o;
	report_csv(c, out);
}

static void email(const struct comparison *c, const struct cmp_render_opts *o, struct strbuf *out)
{
	(void)o;
	report_email(c, out);
}

static void html(const struct comparison *c, const struct cmp_render_opts *o, struct strbuf *out)
{
	(void)o;
	report_html(c, out);
}

/* the first row is the default; the order is the order of the help text */
static const struct cmp_format formats[] = {
	{ .name = "text", .render = text },
	{ .name = "markdown", .alias = "md", .render = markdown },
	{ .name = "json", .render = json },
	{ .name = "csv", .render = csv, .warnings_to_stderr = true },
	{ .name = "email", .render = email },
	{ .name = "html", .render = html },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

void cmp_walk(const struct comparison *c, const struct cmp_walk *how, struct strbuf *out)
{
	if (how->header)
		how->header(c, out);
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];

		/* the measured tables, then those that explain them (profile.h) */
		for (int explaining = 0; explaining < 2; explaining++) {
			if (explaining && how->explaining_heading && cmp_has_explaining(wl))
				how->explaining_heading(wl, out);
			for (size_t t = 0; t < wl->ntables; t++) {
				if (wl->tables[t].explains != (explaining == 1))
					continue;
				if (lb_stop_requested())
					return;
				how->table(c, &wl->tables[t], out);
			}
			for (size_t i = 0; explaining && how->symdiff && i < c->nsymdiffs; i++) {
				struct strbuf sb = STRBUF_INIT;

				if (c->symdiffs[i].wl != w)
					continue;
				cmp_symdiff_text(c, &c->symdiffs[i], c->symdiffs[i].n, false, &sb);
				how->symdiff(sb.buf, out);
				strbuf_release(&sb);
			}
			/* under the measured tables: what the kernel logged while the
			 * workload ran, failed ops (compare/provenance.c) */
			if (explaining || !wl->notes.n)
				continue;
			if (how->notes_begin)
				how->notes_begin(wl, out);
			for (size_t i = 0; how->note && i < wl->notes.n; i++)
				how->note(wl, wl->notes.v[i], out);
		}
	}
}

const struct cmp_format *cmp_format_find(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i].name, name) ||
		    (formats[i].alias && !strcmp(formats[i].alias, name)))
			return &formats[i];
	return NULL;
}

void cmp_format_names(struct strbuf *out)
{
	for (size_t i = 0; i < NFORMATS; i++)
		strbuf_addf(out, "%s%s", i ? (i + 1 == NFORMATS ? " or " : ", ") : "",
			    formats[i].name);
}

void cmp_format_render(const struct cmp_format *f, const struct comparison *c,
		       const struct cmp_render_opts *o, struct strbuf *out)
{
	f->render(c, o, out);
	if (!f->warnings_to_stderr)
		return;
	for (size_t i = 0; i < c->warnings.n; i++)
		warning("%s", c->warnings.v[i]);
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t i = 0; i < c->wls[w].notes.n; i++)
			warning("%s: %s", c->wls[w].name, c->wls[w].notes.v[i]);
}
