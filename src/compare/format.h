/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare's output formats, one table: the name -f takes (and its aliases),
 * the renderer, and where the comparison's warnings and notes go. A new
 * format is a renderer and a row here; `compare -f` and its error message
 * follow from the table.
 */
#ifndef LRUBENCH_COMPARE_FORMAT_H
#define LRUBENCH_COMPARE_FORMAT_H

#include <stdbool.h>
#include "compare/model.h"
#include "core/util.h"

/* What a renderer may need besides the comparison. */
struct cmp_render_opts {
	double fail_pct;           /* --fail-on-regression, < 0 when not given (json) */
};

struct cmp_format {
	const char *name;
	const char *alias;         /* another spelling ("md"), or NULL */
	void (*render)(const struct comparison *c, const struct cmp_render_opts *o,
		       struct strbuf *out);
	/* the format has no room for warnings and notes: they go to standard
	 * error (csv), one line each, "WORKLOAD: note" for a workload's notes */
	bool warnings_to_stderr;
};

/*
 * The one walk of a comparison that the renderers share: the header (labels,
 * what differs, warnings, notes on the whole), then per workload its
 * measured tables, the notes under them, and the tables that explain them
 * under their heading (profile.h). A renderer fills in how each part looks;
 * a NULL callback prints nothing for that part. The walk gives up at the
 * first SIGINT/SIGTERM (the caller prints nothing then).
 */
struct cmp_walk {
	void (*header)(const struct comparison *c, struct strbuf *out);
	/* before a workload's explaining tables, when it has some */
	void (*explaining_heading)(const struct cmp_workload *w, struct strbuf *out);
	void (*table)(const struct comparison *c, const struct cmp_table *t, struct strbuf *out);
	/* before the notes under a workload's measured tables, when it has some */
	void (*notes_begin)(const struct cmp_workload *w, struct strbuf *out);
	void (*note)(const struct cmp_workload *w, const char *note, struct strbuf *out);
	/* after a workload's explaining tables: its ops' differential CPU
	 * profiles (compare/symdiff.h), one call each, as plain text */
	void (*symdiff)(const char *text, struct strbuf *out);
};
void cmp_walk(const struct comparison *c, const struct cmp_walk *how, struct strbuf *out);

/* The row whose name or alias is name, or NULL. */
const struct cmp_format *cmp_format_find(const char *name);
/* "text, markdown, json, csv, email or html": the names, for messages and help. */
void cmp_format_names(struct strbuf *out);
/* Render c in format f into out; with warnings_to_stderr, print them. */
void cmp_format_render(const struct cmp_format *f, const struct comparison *c,
		       const struct cmp_render_opts *o, struct strbuf *out);

#endif
