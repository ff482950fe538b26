// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The levels over time (plot_gp.h): for each op of a workload's level
 * tables (the steps, monitor.h) and each group of levels that moved, the
 * median iteration's series of every label overlaid, read through the one
 * bounded series reader (core/series.h). Colour is the label (as in every
 * figure), the dash the level. A series that is missing (monitors = none,
 * older results) leaves its label out; one that is hostile or truncated
 * fails plot with its file and offset.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/plot_gp.h"
#include "core/series.h"

/* Levels drawn together: what the threads asked to see side by side. */
static const struct {
	const char *slug, *title;
	const char *levels[3];   /* series_levels' "what" */
} groups[] = {
	{ "file-lru", "active and inactive file", { "active file MB", "inactive file MB", NULL } },
	{ "anon-lru", "active and inactive anon", { "active anon MB", "inactive anon MB", NULL } },
	{ "swap-memcg", "swap used and memcg usage", { "swap used MB", "memcg usage MB", "memcg swap MB" } },
	{ "thp", "AnonHugePages", { "AnonHugePages MB", NULL, NULL } },
	{ "free-cache", "MemFree, Cached and Slab", { "MemFree MB", "Cached MB", "Slab MB" } },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))
/* a level that moved less than this over the iteration is not drawn */
#define MOVED_MB 1.0

static const struct series_level *level_named(const char *what)
{
	for (size_t i = 0; i < series_levels_count; i++)
		if (!strcmp(series_levels[i].what, what))
			return &series_levels[i];
	return NULL;
}

/* The iteration whose sample of the workload's first throughput table for
 * op is the median (by the order samples were added, the iterations'
 * order); else the middle one of the level table's samples. -1: none. */
static int median_iteration(const struct wl_result *r, const char *op, const char *peak_title)
{
	const struct op_samples *o = NULL;
	size_t n, *idx;
	int it;

	for (size_t t = 0; t < r->ntables && !o; t++)
		if (!r->tables[t].explains)
			o = result_table_find_op(&r->tables[t], op);
	if (!o || !o->n) {
		const struct result_table *pt = wl_result_find_table(r, peak_title);
		const struct op_samples *po = pt ? result_table_find_op(pt, op) : NULL;

		return po && po->n ? (int)(po->n / 2) : -1;
	}
	n = o->n;
	idx = xcalloc(n, sizeof(*idx));
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* a small insertion sort: a handful of iterations */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && o->v[idx[j - 1]] > o->v[idx[j]]; j--) {
			size_t x = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = x;
		}
	it = (int)idx[(n - 1) / 2];
	free(idx);
	return it;
}

struct label_series {
	struct series s;
	bool have;
	int iteration;
};

static int load_all(const struct comparison *c, const char *wl, const char *op, const char *peak,
		    struct label_series *ls)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		const struct wl_result *r = label_result_find(&c->labels[l], wl);
		struct strbuf err = STRBUF_INIT;
		char *path;

		ls[l].iteration = r ? median_iteration(r, op, peak) : -1;
		if (ls[l].iteration < 0 || !c->labels[l].dir)
			continue;
		path = series_path(c->labels[l].dir, wl, op, ls[l].iteration);
		if (!path_exists(path)) {
			free(path);
			continue;
		}
		if (series_load(path, &ls[l].s, &err)) {
			error("%s", strbuf_str(&err));
			strbuf_release(&err);
			free(path);
			return -1;
		}
		ls[l].have = true;
		free(path);
	}
	return 0;
}

/* One group's figure for op; 0 when drawn or nothing moved, -1 on a write error. */
static int group_figure(const struct comparison *c, const struct cmp_workload *w, const char *op,
			size_t g, struct label_series *ls, const char *outdir, struct plot_set *set)
{
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT;
	char *wslug = plot_slug(w->name), *oslug = plot_slug(op), *want, *base, *title;
	size_t block = 0;
	bool moved = false;
	int ret = 0;

	strbuf_init(&dat);
	strbuf_init(&gp);
	strbuf_addstr(&dat, "# lrubench plot data: ");
	add_comment_text(&dat, w->name);
	strbuf_addstr(&dat, " ");
	add_comment_text(&dat, op);
	strbuf_addstr(&dat, ": levels over the median iteration, one block per label and level;\n"
		      "# columns: 1 seconds since the iteration's start, 2 MB\n");
	want = xasprintf("%s-levels-%s-%s", wslug, oslug, groups[g].slug);
	base = xstrdup(want);
	for (int k = 2; base_taken(set, base); k++) {
		free(base);
		base = xasprintf("%s-%d", want, k);
	}
	gp_header(&gp, base, set->format, c->labels, c->nlabels);
	title = xasprintf("%s %s: %s over the median iteration", w->name, op, groups[g].title);
	strbuf_addstr(&gp, "set title ");
	plot_gp_quote(&gp, title);
	strbuf_addstr(&gp, "\nset xlabel 'seconds since the iteration started'\nset ylabel 'MB'\n");
	/* txt (a letter): one curve per legend line, each its own character,
	 * no grid dots among them (plot_txt.h) */
	strbuf_addstr(&gp, set->format == PLOT_TXT ? "set key outside below vertical Left reverse\n"
		      : "set key below horizontal\nset grid ytics lc rgb \"#dddddd\"\n");
	strbuf_addstr(&gp, "set border 3\nset tics nomirror\nset yrange [0:*]\nplot ");
	for (size_t l = 0; l < c->nlabels; l++) {
		double *v;

		if (!ls[l].have)
			continue;
		v = xcalloc(ls[l].s.nrows + 1, sizeof(*v));
		for (size_t k = 0; k < 3 && groups[g].levels[k]; k++) {
			const struct series_level *lv = level_named(groups[g].levels[k]);
			double lo = INFINITY, hi = -INFINITY;
			char *t;

			if (!lv || !series_level_values(&ls[l].s, lv, v))
				continue;
			strbuf_addf(&dat, "%s# ", block ? "\n\n" : "");
			add_comment_text(&dat, c->labels[l].label);
			strbuf_addf(&dat, ": %s, iteration %d\n", lv->what, ls[l].iteration + 1);
			for (size_t r = 0; r < ls[l].s.nrows; r++) {
				if (isnan(v[r]))
					continue;
				lo = v[r] < lo ? v[r] : lo;
				hi = v[r] > hi ? v[r] : hi;
				strbuf_addf(&dat, "%.3f %.3f\n", (double)ls[l].s.t_ms[r] / 1000, v[r]);
			}
			if (hi - lo >= MOVED_MB)
				moved = true;
			strbuf_addf(&gp, "%s\"%s.dat\" index %zu using 1:2 with lines lw 2 lc rgb \"#%06x\" dt %zu title ",
				    block ? ", \\\n     " : "", base, block, line_rgb(l), k + 1);
			/* txt: a blank between the legend's sample and its text */
			t = xasprintf("%s%s: %s", set->format == PLOT_TXT ? " " : "", c->labels[l].label,
				      lv->what);
			plot_gp_quote(&gp, t);
			free(t);
			block++;
		}
		free(v);
	}
	strbuf_addstr(&gp, "\n");
	if (block && moved) {
		char *d = xasprintf("%s.dat", base), *gpn = xasprintf("%s.gp", base);

		ret = write_text(outdir, d, &dat) || write_text(outdir, gpn, &gp) ? -1 : 0;
		free(d);
		free(gpn);
		if (!ret) {
			struct plot_figure *f;
			char *kind = xasprintf("levels-%s", groups[g].slug);

			ALLOC_GROW(set->figs, set->n + 1, set->cap);
			f = &set->figs[set->n++];
			memset(f, 0, sizeof(*f));
			f->op = xstrdup(op);
			f->base = base;
			base = NULL;
			f->workload = xstrdup(w->name);
			f->table = xasprintf("%s levels over time", w->name);
			f->kind = kind;
			f->caption = xasprintf("%s %s: %s over the median iteration, per label", w->name, op,
					       groups[g].title);
		}
	}
	free(title);
	free(base);
	free(want);
	free(wslug);
	free(oslug);
	strbuf_release(&dat);
	strbuf_release(&gp);
	return ret;
}

int plot_level_figures(const struct comparison *c, const struct cmp_workload *w, const char *outdir,
		       struct plot_set *set)
{
	/* the ops of the level tables: any "(peak)" one has them all */
	char *peak = xasprintf("%s %s (peak)", w->name, series_levels[0].what);
	const struct cmp_table *t = NULL;
	int ret = 0;

	for (size_t i = 0; i < w->ntables && !t; i++)
		if (!strcmp(w->tables[i].title, peak))
			t = &w->tables[i];
	for (size_t o = 0; t && o < t->nops && !ret; o++) {
		struct label_series *ls = xcalloc(c->nlabels + 1, sizeof(*ls));

		ret = load_all(c, w->name, t->ops[o].op, peak, ls);
		for (size_t g = 0; g < NGROUPS && !ret; g++)
			ret = group_figure(c, w, t->ops[o].op, g, ls, outdir, set);
		for (size_t l = 0; l < c->nlabels; l++)
			if (ls[l].have)
				series_release(&ls[l].s);
		free(ls);
	}
	free(peak);
	return ret;
}

/* ---- the figures a letter carries ---- */

/* The group of the level table "<workload> <what> (peak|min|end)"; -1 when none. */
static int group_of_table(const char *workload, const char *title)
{
	size_t n = strlen(workload);
	const char *what = title + n + 1;

	if (!series_level_title(workload, title))
		return -1;
	for (size_t g = 0; g < NGROUPS; g++)
		for (size_t k = 0; k < 3 && groups[g].levels[k]; k++) {
			size_t l = strlen(groups[g].levels[k]);

			if (!strncmp(what, groups[g].levels[k], l) && !strncmp(what + l, " (", 2))
				return (int)g;
		}
	return -1;
}

static bool changed(const struct comparison *c, const struct cmp_op *o, double *by)
{
	bool any = false;

	for (size_t l = 1; l < c->nlabels; l++) {
		const struct cmp_cell *cell = &o->cells[l];

		if (cell->verdict != VERDICT_IMPROVEMENT && cell->verdict != VERDICT_REGRESSION)
			continue;
		any = true;
		if (by && fabs(cell->pct[ROW_MEAN]) > *by)
			*by = fabs(cell->pct[ROW_MEAN]);
	}
	return any;
}

/* Did a measured (not explaining) table of w change significantly in op? */
static bool op_changed(const struct comparison *c, const struct cmp_workload *w, const char *op)
{
	for (size_t t = 0; t < w->ntables; t++) {
		const struct cmp_table *tb = &w->tables[t];

		if (tb->explains)
			continue;
		for (size_t o = 0; o < tb->nops; o++)
			if (!strcmp(tb->ops[o].op, op) && changed(c, &tb->ops[o], NULL))
				return true;
	}
	return false;
}

static const struct plot_figure *figure_of(const struct plot_set *set, const char *workload,
					   const char *op, size_t g)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct plot_figure *f = &set->figs[i];

		if (f->op && !strcmp(f->op, op) && !strcmp(f->workload, workload) &&
		    !strncmp(f->kind, "levels-", 7) && !strcmp(f->kind + 7, groups[g].slug))
			return f;
	}
	return NULL;
}

size_t plot_level_figures_changed(const struct comparison *c, const struct plot_set *set,
				  const struct plot_figure **out, size_t max)
{
	struct cand {
		const struct plot_figure *f;
		bool op_changed;
		double by;
	} *cs = NULL;
	size_t n = 0, cap = 0;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];
			int g = tb->explains ? group_of_table(c->wls[w].name, tb->title) : -1;

			for (size_t o = 0; g >= 0 && o < tb->nops; o++) {
				const struct plot_figure *f;
				double by = 0;
				size_t k;

				if (!changed(c, &tb->ops[o], &by) ||
				    !(f = figure_of(set, c->wls[w].name, tb->ops[o].op, (size_t)g)))
					continue;
				for (k = 0; k < n && cs[k].f != f; k++)
					;
				if (k == n) {
					ALLOC_GROW(cs, n + 1, cap);
					cs[n++] = (struct cand){ f, op_changed(c, &c->wls[w], tb->ops[o].op), by };
				} else if (by > cs[k].by) {
					cs[k].by = by;
				}
			}
		}
	/* insertion sort, stable: the op's measured change first, then the level's */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && (cs[j].op_changed > cs[j - 1].op_changed ||
					    (cs[j].op_changed == cs[j - 1].op_changed && cs[j].by > cs[j - 1].by));
		     j--) {
			struct cand x = cs[j];

			cs[j] = cs[j - 1];
			cs[j - 1] = x;
		}
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = cs[i].f;
	free(cs);
	return n;
}
