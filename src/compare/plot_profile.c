// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The two figures of the profile tables (plot_gp.h): a stacked CPU-split bar
 * per op and label, and the lru_lock wait beside the throughput it explains.
 * Numbers are compare's own (the mean row of each cell, Amean for the CPU
 * tables, which are lower-is-better).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/plot_gp.h"

static const struct {
	const char *what;     /* "<workload> <what>" */
	const char *name;
	unsigned rgb;
} parts[] = {
	{ "user CPU %", "user", 0x0072b2 },
	{ "sys CPU %", "sys", 0xe51e10 },
	{ "irq CPU %", "irq", 0xe69f00 },
	{ "softirq CPU %", "softirq", 0xf0e442 },
	{ "iowait CPU %", "iowait", 0x999999 },
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

static const struct cmp_table *find_table(const struct cmp_workload *w, const char *what)
{
	char *title = xasprintf("%s %s", w->name, what);
	const struct cmp_table *t = NULL;

	for (size_t i = 0; i < w->ntables && !t; i++)
		if (!strcmp(w->tables[i].title, title))
			t = &w->tables[i];
	free(title);
	return t;
}

static const struct cmp_cell *cell(const struct cmp_table *t, const char *op, size_t l)
{
	for (size_t o = 0; t && o < t->nops; o++)
		if (!strcmp(t->ops[o].op, op))
			return t->ops[o].cells[l].present ? &t->ops[o].cells[l] : NULL;
	return NULL;
}

/* The ops of t in x order: a numeric sweep (memcgs-1, -2, -4) by its number. */
struct oporder {
	const char *op;
	unsigned long long num;
	bool numbered;
};

static int by_num(const void *a, const void *b)
{
	const struct oporder *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static struct oporder *op_order(const struct cmp_table *t, bool *sweep)
{
	struct oporder *o = xcalloc(t->nops ? t->nops : 1, sizeof(*o));
	size_t series = 0;

	*sweep = t->nops >= 2 && !(t->x_axis && !t->x_axis->x_name);   /* declared categories */
	for (size_t i = 0; i < t->nops; i++) {
		size_t len;

		o[i].op = t->ops[i].op;
		o[i].numbered = results_op_x(o[i].op, &len, &o[i].num);
		/* one series: every op the same text before its number */
		if (!o[i].numbered || (i && (len != series || strncmp(o[i].op, o[0].op, len))))
			*sweep = false;
		series = len;
	}
	if (*sweep)
		qsort(o, t->nops, sizeof(*o), by_num);
	return o;
}

/* The x label of a sweep: the declared axis, else "<series>N". Malloc'ed. */
static char *axis_label(const struct cmp_table *t, const char *op)
{
	unsigned long long x;
	size_t len = 0;

	if (t->x_axis && t->x_axis->x_name)
		return *t->x_axis->x_unit ? xasprintf("%s (%s)", t->x_axis->x_name, t->x_axis->x_unit)
					  : xstrdup(t->x_axis->x_name);
	results_op_x(op, &len, &x);
	return xasprintf("%.*sN", (int)len, op);
}

int add_figure(struct plot_set *set, char *base, const char *workload, const char *table,
		      const char *kind, const char *caption)
{
	struct plot_figure *f;

	ALLOC_GROW(set->figs, set->n + 1, set->cap);
	f = &set->figs[set->n++];
	memset(f, 0, sizeof(*f));
	f->base = base;
	f->workload = xstrdup(workload);
	f->table = xstrdup(table);
	f->kind = xstrdup(kind);
	f->caption = xstrdup(caption);
	return 0;
}

char *unique_base(const struct plot_set *set, const char *want)
{
	char *base = xstrdup(want);

	for (int k = 2; base_taken(set, base); k++) {
		free(base);
		base = xasprintf("%s-%d", want, k);
	}
	return base;
}

int write_pair(const char *outdir, const char *base, const struct strbuf *dat,
		      const struct strbuf *gp)
{
	char *d = xasprintf("%s.dat", base), *g = xasprintf("%s.gp", base);
	int ret = write_text(outdir, d, dat) || write_text(outdir, g, gp) ? -1 : 0;

	free(d);
	free(g);
	return ret;
}

/* ---- stacked CPU split ---- */

static int cpu_split_figure(const struct comparison *c, const struct cmp_workload *w,
			    const char *outdir, struct plot_set *set)
{
	const struct cmp_table *t[NPARTS];
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT, tics = STRBUF_INIT;
	struct oporder *ops;
	char *wslug = plot_slug(w->name), *want, *base;
	size_t nl = c->nlabels, bars = 0, longest = 0;
	double tallest = 0;   /* the highest stack */
	bool sweep;
	int ret;

	for (size_t p = 0; p < NPARTS; p++)
		t[p] = find_table(w, parts[p].what);
	if (!t[0] || !t[1] || !t[0]->nops) {
		free(wslug);
		return 0;
	}
	want = xasprintf("%s-cpu-split", wslug);
	base = unique_base(set, want);
	ops = op_order(t[0], &sweep);
	strbuf_init(&dat);
	strbuf_addstr(&dat, "# lrubench plot data: ");
	add_comment_text(&dat, w->name);
	strbuf_addstr(&dat, " / CPU split (% of the bound CPUs, Amean per op, as in 'lrubench compare')\n"
		      "# columns: 1 op, 2 label, 3 x, 4 user, 5 sys, 6 irq, 7 softirq, 8 iowait,\n"
		      "#          9-13 the same stacked (user, +sys, +irq, +softirq, +iowait)\n");
	strbuf_init(&tics);
	for (size_t o = 0; o < t[0]->nops; o++) {
		for (size_t l = 0; l < nl; l++) {
			double v[NPARTS], cum = 0;
			double x = (double)o * ((double)nl + 1) + (double)l;

			if (!cell(t[0], ops[o].op, l))
				continue;
			for (size_t p = 0; p < NPARTS; p++) {
				const struct cmp_cell *cc = cell(t[p], ops[o].op, l);
				v[p] = cc && cc->row_ok[ROW_MEAN] ? cc->row[ROW_MEAN] : 0;
			}
			dat_quote(&dat, ops[o].op);
			strbuf_addstr(&dat, " ");
			dat_quote(&dat, c->labels[l].label);
			strbuf_addf(&dat, " %g", x);
			for (size_t p = 0; p < NPARTS; p++)
				strbuf_addf(&dat, " %.6f", v[p]);
			for (size_t p = 0; p < NPARTS; p++) {
				cum += v[p];
				strbuf_addf(&dat, " %.6f", cum);
			}
			tallest = cum > tallest ? cum : tallest;
			strbuf_addstr(&dat, "\n");
			strbuf_addstr(&tics, bars++ ? ", " : "");
			plot_gp_quote(&tics, c->labels[l].label);
			strbuf_addf(&tics, " %g", x);
			if (strlen(c->labels[l].label) > longest)
				longest = strlen(c->labels[l].label);
		}
	}
	strbuf_init(&gp);
	gp_header(&gp, base, set->format, c->labels, nl);
	strbuf_addstr(&gp, "set title ");
	{
		char *title = xasprintf("%s: where the CPU time went, per op and label", w->name);
		plot_gp_quote(&gp, title);
		free(title);
	}
	strbuf_addstr(&gp, " font \",14\"\nset ylabel '% of the bound CPUs (Amean)'\n");
	plot_gp_yrange(&gp, bars, 0, tallest, true);   /* no CPU time at all: 0 .. 1 */
	strbuf_addstr(&gp, "set offsets 0, 0, graph 0.08, 0\n"
		      "set style fill solid 0.9 border rgb \"#333333\"\nset boxwidth 0.8\n"
		      "set key below horizontal\nset grid ytics lc rgb \"#dddddd\"\n"
		      "set border 3\nset tics nomirror\nset bmargin 8\n");
	strbuf_addf(&gp, "set xtics (%s)%s\n", tics.buf, longest > 6 ? " rotate by -30" : "");
	/* the op under its group of bars */
	for (size_t o = 0; o < t[0]->nops; o++) {
		strbuf_addf(&gp, "set label %zu ", o + 1);
		plot_gp_quote(&gp, ops[o].op);
		strbuf_addf(&gp, " at first %g, graph -0.%d center font \",12\"\n",
			    (double)o * ((double)nl + 1) + ((double)nl - 1) / 2.0, longest > 6 ? 22 : 10);
	}
	/* tallest first, so each smaller stack is drawn over it */
	strbuf_addstr(&gp, "plot ");
	for (size_t p = NPARTS; p-- > 0; ) {
		strbuf_addf(&gp, "%s\"%s.dat\" using 3:%zu with boxes lc rgb \"#%06x\" title '%s'",
			    p + 1 < NPARTS ? ", \\\n     " : "", base, 9 + p, parts[p].rgb, parts[p].name);
	}
	strbuf_addstr(&gp, "\n");
	ret = write_pair(outdir, base, &dat, &gp);
	if (!ret) {
		char *cap = xasprintf("%s: CPU split (user, sys, irq, softirq, iowait) per op and label",
				      w->name);
		add_figure(set, base, w->name, "CPU split", "cpu-split", cap);
		free(cap);
		base = NULL;
	}
	free(base);
	free(want);
	free(wslug);
	free(ops);
	strbuf_release(&dat);
	strbuf_release(&gp);
	strbuf_release(&tics);
	return ret;
}

/* ---- lru_lock wait beside throughput ---- */

static bool shares_ops(const struct cmp_table *a, const struct cmp_table *b)
{
	for (size_t i = 0; i < a->nops; i++)
		for (size_t j = 0; j < b->nops; j++)
			if (!strcmp(a->ops[i].op, b->ops[j].op))
				return true;
	return false;
}

/* The span of a panel's values (mean ± stddev) and how many. */
struct span {
	size_t n;
	double lo, hi;
};

static void span_add(struct span *s, const struct cmp_cell *cc)
{
	double a = cc->row[ROW_MEAN] - cc->row[ROW_STDDEV], b = cc->row[ROW_MEAN] + cc->row[ROW_STDDEV];

	s->lo = s->n && s->lo < a ? s->lo : a;
	s->hi = s->n && s->hi > b ? s->hi : b;
	s->n++;
}

static void panel(struct strbuf *gp, const char *base, const struct comparison *c,
		  const bool *used, const bool *has, int ycol, const char *title, const char *ylabel,
		  const struct span *sp)
{
	size_t idx = 0, shown = 0;

	strbuf_addstr(gp, "set title ");
	plot_gp_quote(gp, title);
	strbuf_addstr(gp, "\nset ylabel ");
	plot_gp_quote(gp, ylabel);
	strbuf_addstr(gp, "\n");
	plot_gp_yrange(gp, sp->n, sp->lo, sp->hi, true);
	strbuf_addstr(gp, "plot ");
	for (size_t l = 0; l < c->nlabels; l++) {
		if (!used[l])
			continue;
		/* a label without this table (not profiled) is left out of the panel */
		if (has[l]) {
			strbuf_addf(gp, "%s\"%s.dat\" index %zu using 2:%d:%d with yerrorlines lc rgb "
				    "\"#%06x\" lw 2 pt 7 title ", shown++ ? ", \\\n     " : "", base, idx,
				    ycol, ycol + 1, line_rgb(l));
			plot_gp_quote(gp, c->labels[l].label);
		}
		idx++;
	}
	strbuf_addstr(gp, "\n");
}

static int beside_figure(const struct comparison *c, const struct cmp_workload *w,
			 const char *outdir, struct plot_set *set)
{
	const struct cmp_table *wait = find_table(w, "lru_lock wait"), *thr = NULL;
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT;
	struct oporder *ops;
	bool sweep, *used, *has_thr, *has_wait;
	char *wslug, *tslug, *want, *base, *title;
	size_t nl = c->nlabels, blocks = 0;
	struct span sthr = { 0 }, swait = { 0 };
	int ret;

	if (!wait)
		return 0;
	for (size_t i = 0; i < w->ntables && !thr; i++)
		if (!w->tables[i].explains && shares_ops(&w->tables[i], wait))
			thr = &w->tables[i];
	if (!thr)
		return 0;
	used = xcalloc(nl, sizeof(*used));
	has_thr = xcalloc(nl, sizeof(*has_thr));
	has_wait = xcalloc(nl, sizeof(*has_wait));
	ops = op_order(wait, &sweep);
	title = xstrdup(!strncmp(thr->title, w->name, strlen(w->name)) && thr->title[strlen(w->name)] == ' '
			? thr->title + strlen(w->name) + 1 : thr->title);
	wslug = plot_slug(w->name);
	tslug = plot_slug(title);
	want = xasprintf("%s-lru-lock-wait-beside-%s", wslug, tslug);
	base = unique_base(set, want);
	strbuf_init(&dat);
	strbuf_addstr(&dat, "# lrubench plot data: ");
	add_comment_text(&dat, w->name);
	strbuf_addstr(&dat, " / lru_lock wait beside ");
	add_comment_text(&dat, thr->title);
	strbuf_addstr(&dat, "\n# columns: 1 op, 2 x, 3 throughput mean, 4 its stddev, 5 lru_lock wait (ms), "
		      "6 its stddev (0: one profiled pass)\n# one block per label (gnuplot index 0, 1, ...)\n");
	for (size_t l = 0; l < nl; l++) {
		bool any = false;

		for (size_t o = 0; o < wait->nops; o++) {
			const struct cmp_cell *a = cell(thr, ops[o].op, l), *b = cell(wait, ops[o].op, l);

			if (!a && !b)
				continue;
			has_thr[l] |= a != NULL;
			has_wait[l] |= b != NULL;
			if (!any)
				strbuf_addf(&dat, "%s# label: %s\n", blocks++ ? "\n\n" : "\n", c->labels[l].label);
			any = true;
			dat_quote(&dat, ops[o].op);
			strbuf_addf(&dat, " %g", sweep ? (double)ops[o].num : (double)o);
			if (a) {
				strbuf_addf(&dat, " %.6f %.6f", a->row[ROW_MEAN], a->row[ROW_STDDEV]);
				span_add(&sthr, a);
			}
			else
				strbuf_addstr(&dat, " NaN NaN");
			if (b) {
				strbuf_addf(&dat, " %.6f %.6f\n", b->row[ROW_MEAN], b->row[ROW_STDDEV]);
				span_add(&swait, b);
			}
			else
				strbuf_addstr(&dat, " NaN NaN\n");
		}
		used[l] = any;
	}
	strbuf_init(&gp);
	gp_header(&gp, base, set->format, c->labels, nl);
	strbuf_addstr(&gp, "set key below horizontal\nset grid ytics lc rgb \"#dddddd\"\n"
		      "set border 3\nset tics nomirror\nset bars 1.5\nset bmargin 6\n");
	if (sweep) {
		char *xl = axis_label(thr, ops[0].op);

		strbuf_addstr(&gp, "set xlabel ");
		plot_gp_quote(&gp, xl);
		strbuf_addstr(&gp, "\n");
		free(xl);
		if (wait->nops >= 2 && ops[0].num && ops[wait->nops - 1].num >= 4 * ops[0].num)
			strbuf_addf(&gp, "set logscale x 2\nset xrange [%g:%g]\n", ops[0].num / 1.4,
				    ops[wait->nops - 1].num * 1.4);
	} else {
		strbuf_addstr(&gp, "set xtics (");
		for (size_t o = 0; o < wait->nops; o++) {
			strbuf_addstr(&gp, o ? ", " : "");
			plot_gp_quote(&gp, ops[o].op);
			strbuf_addf(&gp, " %zu", o);
		}
		strbuf_addf(&gp, ")\nset xrange [-0.5:%g]\n", (double)wait->nops - 0.5);
	}
	strbuf_addstr(&gp, "set multiplot layout 1,2 title ");
	{
		char *t = xasprintf("%s: %s and the lru_lock wait beside it", w->name, title);
		plot_gp_quote(&gp, t);
		free(t);
	}
	strbuf_addstr(&gp, " font \",14\"\n");
	{
		char *yl = xasprintf("%s (%s)", stats_mean_name(thr->better), thr->unit);
		panel(&gp, base, c, used, has_thr, 3, title, yl, &sthr);
		free(yl);
	}
	panel(&gp, base, c, used, has_wait, 5, "lru_lock wait (one profiled pass per op)",
	      "ms (lower is better)", &swait);
	strbuf_addstr(&gp, "unset multiplot\n");
	ret = blocks ? write_pair(outdir, base, &dat, &gp) : 0;
	if (!ret && blocks) {
		char *cap = xasprintf("%s: %s beside the lru_lock wait, per op", w->name, title);
		add_figure(set, base, w->name, "lru_lock wait", "beside", cap);
		free(cap);
		base = NULL;
	}
	free(base);
	free(want);
	free(wslug);
	free(tslug);
	free(title);
	free(ops);
	free(used);
	free(has_thr);
	free(has_wait);
	strbuf_release(&dat);
	strbuf_release(&gp);
	return ret;
}

int plot_profile_figures(const struct comparison *c, const struct cmp_workload *w,
			 const char *outdir, struct plot_set *set)
{
	if (!cmp_has_explaining(w))
		return 0;
	if (cpu_split_figure(c, w, outdir, set))
		return -1;
	return beside_figure(c, w, outdir, set);
}
