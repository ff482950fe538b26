// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gnuplot scripts and data for `lrubench plot` (see plot.h for the figure
 * kinds). The numbers in every .dat come from stats.c, the same functions
 * compare uses, so a figure never disagrees with the table next to it.
 * The .gp files are written for people: one plot command per label, the
 * columns named in a comment, no generated cleverness, so restyling one is
 * an edit and `gnuplot X.gp`.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/escape.h"
#include "core/path.h"
#include "compare/flamegraph.h"
#include "compare/plot.h"
#include "compare/plot_gp.h"
#include "compare/plot_txt.h"

/* ---------- small helpers ---------- */

static void gp_quote(struct strbuf *sb, const char *s);

void plot_gp_quote(struct strbuf *sb, const char *s)
{
	gp_quote(sb, s);
}

int plot_parse_format(const char *s, enum plot_format *f)
{
	if (!strcmp(s, "png"))
		*f = PLOT_PNG;
	else if (!strcmp(s, "svg"))
		*f = PLOT_SVG;
	else if (!strcmp(s, "txt"))
		*f = PLOT_TXT;
	else
		return -1;
	return 0;
}

const char *plot_format_ext(enum plot_format f)
{
	return f == PLOT_SVG ? "svg" : f == PLOT_TXT ? "txt" : "png";
}

bool plot_sweep_doubles(const unsigned long long *v, size_t n)
{
	if (n < 2 || v[0] == 0)
		return false;
	for (size_t i = 1; i < n; i++) {
		unsigned long long r;

		if (v[i] % v[i - 1])
			return false;
		r = v[i] / v[i - 1];
		if (r < 2 || (r & (r - 1)))
			return false;
	}
	return true;
}

#define PLOT_SLUG_MAX 64

char *plot_slug(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	bool dash = false;

	strbuf_init(&sb);
	for (; *s; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_') {
			if (dash && sb.len)
				strbuf_addstr(&sb, "-");
			dash = false;
			strbuf_add(&sb, &c, 1);
		} else {
			dash = true;
		}
	}
	/* a name may not start with '.' (hidden file, "..") */
	while (sb.len && (sb.buf[0] == '.' || sb.buf[0] == '-'))
		memmove(sb.buf, sb.buf + 1, sb.len--);
	/* a 300-character title must still make a file name (255 bytes at
	 * most, with the workload, the kind and ".png" around it); alike
	 * prefixes get -2, -3 ... (base_taken) */
	if (sb.len > PLOT_SLUG_MAX) {
		sb.len = PLOT_SLUG_MAX;
		while (sb.len && sb.buf[sb.len - 1] == '-')
			sb.len--;
		sb.buf[sb.len] = '\0';
	}
	if (!sb.len)
		strbuf_addstr(&sb, "x");
	return strbuf_detach(&sb);
}

/*
 * A string in a gnuplot script. Single quotes, because gnuplot runs
 * `backquoted` text as a shell command even inside double quotes, and
 * results folders are exchanged between people: a label must never become
 * a command. Inside single quotes only '' (a quote) is special.
 */
static void gp_quote(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "'");
	for (; *s; s++) {
		/* gnuplot's '' escape fails at the start of a string ('''x' is
		 * a syntax error): a quote is shown as U+2019, which looks alike */
		if (*s == '\'')
			strbuf_addstr(sb, "\xe2\x80\x99");
		else if ((unsigned char)*s < 0x20)
			strbuf_addstr(sb, " ");
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_addstr(sb, "'");
}

/* Free text in a '#' comment line: a newline would end the comment. */
void add_comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++)
		strbuf_add(sb, (unsigned char)*s < 0x20 ? " " : s, 1);
}

/* A string column in a .dat: gnuplot data quoting has no escapes. */
void dat_quote(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "\"");
	for (; *s; s++)
		strbuf_add(sb, *s == '"' ? "'" : (unsigned char)*s < 0x20 ? " " : s, 1);
	strbuf_addstr(sb, "\"");
}

/* ---------- the table view: one table title across every label ---------- */

struct cell {
	bool present;
	size_t n;
	double mean, sd, min, max;
};

struct ptable {
	const char *workload;
	const char *title;
	const char *unit;
	int better;
	bool explains;      /* a profile table (profile.h) */
	const struct result_table *x_axis;   /* NULL: not declared (older results) */
	const char **ops;   /* union over labels, first-seen order */
	size_t nops, cap;
	struct cell *cells; /* [label * nops + op] */
};

/* A table of the comparison model, with the numbers the plots need: the
 * cells are compare's own (report.c), never recomputed here. */
static void ptable_build(struct ptable *pt, const struct comparison *c,
			 const struct cmp_workload *w, const struct cmp_table *t)
{
	size_t nl = c->nlabels;

	memset(pt, 0, sizeof(*pt));
	pt->workload = w->name;
	pt->title = t->title;
	pt->unit = t->unit ? t->unit : "";
	pt->better = t->better;
	pt->explains = t->explains;
	pt->x_axis = t->x_axis;
	pt->nops = t->nops;
	pt->ops = xcalloc(t->nops ? t->nops : 1, sizeof(*pt->ops));
	pt->cells = xcalloc(nl * (t->nops ? t->nops : 1), sizeof(*pt->cells));
	for (size_t o = 0; o < t->nops; o++) {
		pt->ops[o] = t->ops[o].op;
		for (size_t l = 0; l < nl; l++) {
			const struct cmp_cell *cc = &t->ops[o].cells[l];
			struct cell *pc = &pt->cells[l * pt->nops + o];

			if (!cc->present || !cc->n)
				continue;
			pc->present = true;
			pc->n = cc->n;
			/* undefined cells are 0, as compare prints them */
			pc->mean = cc->row[ROW_MEAN];
			pc->sd = cc->row[ROW_STDDEV];
			pc->min = cc->row[ROW_MIN];
			pc->max = cc->row[ROW_MAX];
			/* samples near DBL_MAX overflow the mean: gnuplot cannot draw
			 * "inf", so the point is left out (said once per table) */
			if (!isfinite(pc->mean) || !isfinite(pc->sd)) {
				char *tn = inert_dup(t->title), *op = inert_dup(pt->ops[o]);
				char *ln = inert_dup(c->labels[l].label);

				pc->present = false;
				warning("%s: op %s of %s: the mean or stddev overflows a double: "
					"not drawn", tn, op, ln);
				free(tn);
				free(op);
				free(ln);
			}
		}
	}
}

static void ptable_release(struct ptable *pt)
{
	free(pt->ops);
	free(pt->cells);
}

/* ---------- one figure ---------- */

enum kind { K_SCALING, K_BARS, K_CANDLES };

struct figspec {
	const struct ptable *pt;
	enum kind kind;
	size_t *ops;      /* indexes into pt->ops, in x order */
	double *x;
	size_t nops;
	const char *prefix;   /* scaling: the sweep's prefix */
	bool log2;
};

/*
 * The x axis label of a sweep: what the results declare ("threads (count)",
 * workload.h struct x_axis); for results written before tables declared
 * one, the series name the ops share ("memcgs-" gives "memcgs (N)"; plain
 * numbers "N"). Malloc'ed.
 */
static char *sweep_axis(const struct ptable *pt, const char *series)
{
	const struct result_table *ax = pt->x_axis;
	char *stem, *label;

	if (ax && ax->x_name)
		return *ax->x_unit ? xasprintf("%s (%s)", ax->x_name, ax->x_unit) : xstrdup(ax->x_name);
	if (!*series)
		return xstrdup("N");
	stem = xstrdup(series);
	if (stem[strlen(stem) - 1] == '-')
		stem[strlen(stem) - 1] = '\0';
	label = xasprintf("%s (N)", stem);
	free(stem);
	return label;
}

static const char *mean_name(int better)
{
	return stats_mean_name(better);   /* Amean for a statistic = amean table */
}

static void fmt_num(struct strbuf *sb, double v)
{
	strbuf_addf(sb, " %.6f", v);
}

/* The .dat: one block per label that has data here (two blank lines apart,
 * so gnuplot's `index i` picks label i). used[l] says which made it. */
static void dat_render(struct strbuf *sb, const struct figspec *f,
		       const struct label_result *labels, size_t nl, bool *used)
{
	const struct ptable *pt = f->pt;
	size_t blocks = 0;

	strbuf_addstr(sb, "# lrubench plot data: ");
	add_comment_text(sb, pt->workload);
	strbuf_addstr(sb, " / ");
	add_comment_text(sb, pt->title);
	strbuf_addstr(sb, " (");
	add_comment_text(sb, pt->unit);
	strbuf_addf(sb, ", %s is better)\n", pt->better > 0 ? "higher" : "lower");
	strbuf_addf(sb, "# mean = %s, stddev = sample stddev (0 when n = 1), as in 'lrubench compare'\n",
		    mean_name(pt->better));
	strbuf_addf(sb, "# columns: 1 op, 2 x (%s), 3 mean, 4 stddev, 5 min, 6 max, 7 samples\n",
		    f->kind == K_SCALING ? "N" : "op position");
	strbuf_addstr(sb, "# one block per label (gnuplot index 0, 1, ...)\n");
	for (size_t l = 0; l < nl; l++) {
		bool any = false;

		for (size_t i = 0; i < f->nops && !any; i++)
			any = pt->cells[l * pt->nops + f->ops[i]].present;
		used[l] = any;
		if (!any)
			continue;
		strbuf_addf(sb, "%s# label: ", blocks++ ? "\n\n" : "\n");
		add_comment_text(sb, labels[l].label);
		strbuf_addstr(sb, "\n");
		for (size_t i = 0; i < f->nops; i++) {
			const struct cell *c = &pt->cells[l * pt->nops + f->ops[i]];

			if (!c->present)
				continue;
			dat_quote(sb, pt->ops[f->ops[i]]);
			strbuf_addf(sb, " %g", f->x[i]);
			fmt_num(sb, c->mean);
			fmt_num(sb, c->sd);
			fmt_num(sb, c->min);
			fmt_num(sb, c->max);
			strbuf_addf(sb, " %zu\n", c->n);
		}
	}
}

void plot_gp_terminal(struct strbuf *sb, enum plot_format fmt)
{
	if (fmt == PLOT_SVG) {
		strbuf_addf(sb, "set terminal svg size %d,%d noenhanced font \"sans,12\" "
			    "background rgb \"white\"\n", PLOT_WIDTH, PLOT_HEIGHT);
	} else if (fmt == PLOT_TXT) {
		/* characters, for a monospaced mail client; no colour codes */
		strbuf_addf(sb, "set terminal dumb size %d,%d noenhanced mono\n",
			    PLOT_TXT_COLUMNS, PLOT_TXT_LINES);
	} else {
		strbuf_addf(sb, "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
			    "    set terminal pngcairo size %d,%d noenhanced font \"sans,11\"\n"
			    "} else {\n"
			    "    set terminal png size %d,%d noenhanced\n"
			    "}\n", PLOT_WIDTH, PLOT_HEIGHT, PLOT_WIDTH, PLOT_HEIGHT);
	}
}

void gp_header(struct strbuf *sb, const char *base, enum plot_format fmt,
		      const struct label_result *labels, size_t nl)
{
	strbuf_addf(sb, "# Generated by lrubench plot for labels:");
	for (size_t l = 0; l < nl; l++) {
		strbuf_addstr(sb, " ");
		add_comment_text(sb, labels[l].label);
	}
	strbuf_addf(sb, "\n# Rerun (after restyling) from this folder: gnuplot %s.gp\n"
		    "# Data: %s.dat, one block per label (index 0, 1, ...); columns:\n"
		    "#   1 op, 2 x, 3 mean, 4 stddev, 5 min, 6 max, 7 samples\n"
		    "set encoding utf8\n", base, base);
	plot_gp_terminal(sb, fmt);
	strbuf_addf(sb, "set output \"%s.%s\"\n", base, plot_format_ext(fmt));
}

/* Longest op name on the x axis, to decide whether tic labels need turning. */
static void gp_op_xtics(struct strbuf *sb, const struct figspec *f)
{
	size_t longest = 0;
	/* about 7 px per character at 11 pt; the plot area is ~85% of the width */
	double slot = PLOT_WIDTH * 0.85 / (double)(f->nops ? f->nops : 1);

	strbuf_addstr(sb, "set xtics (");
	for (size_t i = 0; i < f->nops; i++) {
		const char *op = f->pt->ops[f->ops[i]];

		if (strlen(op) > longest)
			longest = strlen(op);
		strbuf_addstr(sb, i ? ", " : "");
		/* an explicit tic label is a format: op "100%" must say "100%%" */
		if (strchr(op, '%')) {
			struct strbuf pct = STRBUF_INIT;

			for (const char *p = op; *p; p++) {
				if (*p == '%')
					strbuf_addstr(&pct, "%%");
				else
					strbuf_add(&pct, p, 1);
			}
			gp_quote(sb, pct.buf);
			strbuf_release(&pct);
		} else {
			gp_quote(sb, op);
		}
		strbuf_addf(sb, " %g", f->x[i]);
	}
	/* no tic marks: on a category axis they would poke between grouped bars */
	strbuf_addstr(sb, ") scale 0\n");
	/* room below the plot for the tic labels, the axis label and the key */
	if ((double)longest * 7.5 > slot * 0.9)
		strbuf_addf(sb, "set xtics rotate by 30 right\nset bmargin %d\n",
			    7 + (int)(longest > 12 ? (longest - 12) / 2 : 0));
	else
		strbuf_addstr(sb, "set bmargin 6\n");
	strbuf_addf(sb, "set xrange [-0.6:%g]\n", (double)f->nops - 0.4);
	strbuf_addstr(sb, "set xlabel \"op\"\n");
}

/*
 * Vertical room for the lines of a scaling plot: 8% above and below the
 * error bars, but an axis of non-negative numbers (MB/s, latencies) does not
 * dip below 0 just for padding.
 */
/* The span of the plotted means (with_sd: mean ± stddev) of the figure's
 * cells; how many there are. */
static size_t cells_span(const struct figspec *f, size_t nl, const bool *used, bool with_sd,
			 double *lo, double *hi)
{
	const struct ptable *pt = f->pt;
	size_t n = 0;

	*lo = *hi = 0;
	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; used[l] && i < f->nops; i++) {
			const struct cell *c = &pt->cells[l * pt->nops + f->ops[i]];
			double sd = with_sd ? c->sd : 0, a = c->mean - sd, b = c->mean + sd;

			if (!c->present)
				continue;
			*lo = n && *lo < a ? *lo : a;
			*hi = n && *hi > b ? *hi : b;
			n++;
		}
	return n;
}

static void gp_yoffsets(struct strbuf *sb, const struct figspec *f, size_t nl, const bool *used)
{
	double lo, hi;
	size_t n = cells_span(f, nl, used, true, &lo, &hi);
	bool from0 = n && lo >= 0 && lo - (hi - lo) * 0.08 <= 0;   /* <=: all 0 too */

	plot_gp_yrange(sb, n, lo, hi, from0);
	if (from0)
		strbuf_addstr(sb, "set offsets 0, 0, graph 0.08, 0\n");
	else
		strbuf_addstr(sb, "set offsets 0, 0, graph 0.08, graph 0.08\n");
}

/*
 * Label colours, by the label's place on the command line so that a label
 * keeps its colour in every figure, even where another label has no data:
 * gnuplot's own default line colours, written out so that boxes can be
 * filled with a lighter shade of them. A light colour rather
 * than transparency, because not every SVG viewer honours fill-opacity.
 */
static const unsigned label_rgb[] = {
	0x9400d3, 0x009e73, 0x56b4e9, 0xe69f00, 0xf0e442, 0x0072b2, 0xe51e10, 0x000000,
};

unsigned line_rgb(size_t idx)
{
	return label_rgb[idx % ARRAY_SIZE(label_rgb)];
}

/* The colour mixed with white: alpha 1 is the colour itself. */
static unsigned fill_rgb(size_t idx, double alpha)
{
	unsigned c = line_rgb(idx), out = 0;

	for (int shift = 16; shift >= 0; shift -= 8) {
		unsigned v = (c >> shift) & 0xff;

		out |= (unsigned)(v + (255 - v) * (1 - alpha) + 0.5) << shift;
	}
	return out;
}

/* A filled box in the label's colour, outlined (and whiskered) in it. */
static void add_box_style(struct strbuf *sb, size_t idx, double alpha, double lw)
{
	/* gnuplot wants lw before the fill options */
	strbuf_addf(sb, "lc rgb \"#%06x\" lw %g fc rgb \"#%06x\" fs solid 1.0 border rgb \"#%06x\"",
		    line_rgb(idx), lw, fill_rgb(idx, alpha), line_rgb(idx));
}

/* Titles name the workload and the table: "readtwice MB/s aggregate" as is,
 * "My table" of workload w as "w: My table". */
static void table_name(struct strbuf *sb, const struct ptable *pt)
{
	size_t wlen = strlen(pt->workload);

	if (strncmp(pt->title, pt->workload, wlen) || (pt->title[wlen] && pt->title[wlen] != ' '))
		strbuf_addf(sb, "%s: ", pt->workload);
	strbuf_addstr(sb, pt->title);
}

/* A tic step giving about four tics over range: 1, 2, 2.5 or 5 times 10^k. */
static double nice_step(double range)
{
	double raw = range / 4, mag, f;

	if (!(raw > 0))
		return 0;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10);
}

/*
 * Candlesticks, one small panel per op with its own y axis: ops of one table
 * often differ by orders of magnitude (1 memcg vs 8, git status vs a kernel
 * build), and on a shared axis their spread would be a flat line.
 */
static void gp_render_candles(struct strbuf *sb, const struct figspec *f, const char *base,
			      const struct label_result *labels, size_t nl, const bool *used,
			      const char *title)
{
	const struct ptable *pt = f->pt;
	size_t nused = 0, cols, rows;
	double group, w, x0 = 0.035, x1 = 0.99, y0 = 0.16, y1 = 0.92, pw, ph;
	struct strbuf tmp = STRBUF_INIT;

	strbuf_init(&tmp);
	for (size_t l = 0; l < nl; l++)
		nused += used[l];
	group = nused > 1 ? 0.8 : 0.5;
	w = group / (double)(nused ? nused : 1);
	cols = f->nops <= 4 ? f->nops : (size_t)ceil(sqrt((double)f->nops));
	if (!cols)
		cols = 1;
	rows = (f->nops + cols - 1) / cols;
	pw = (x1 - x0) / (double)cols;
	ph = (y1 - y0) / (double)(rows ? rows : 1);

	strbuf_addf(sb, "set boxwidth %.4f absolute\n", w * 0.8);
	strbuf_addstr(sb, "set multiplot title ");
	gp_quote(sb, title);
	strbuf_addstr(sb, " font \",14\"\n"
		      "unset key\nset border 3\nunset xtics\nset ytics nomirror font \",9\"\n"
		      "set grid ytics lc rgb \"#dddddd\"\n"
		      "set xrange [-0.5:0.5]\nset rmargin 1\nset tmargin 1.6\nset bmargin 0.8\n");
	strbuf_addf(sb, "set size %.4f,%.4f\n", pw, ph);
	for (size_t i = 0; i < f->nops; i++) {
		size_t idx = 0;
		double lo = 0, hi = 0, step;
		bool any = false, from0;

		for (size_t l = 0; l < nl; l++) {
			const struct cell *c = &pt->cells[l * pt->nops + f->ops[i]];
			double a = c->mean - c->sd < c->min ? c->mean - c->sd : c->min;
			double b = c->mean + c->sd > c->max ? c->mean + c->sd : c->max;

			if (!used[l] || !c->present)
				continue;
			lo = any && lo < a ? lo : a;
			hi = any && hi > b ? hi : b;
			any = true;
		}
		strbuf_addf(sb, "# panel %zu: op ", i + 1);
		add_comment_text(sb, pt->ops[f->ops[i]]);
		strbuf_addf(sb, "\nset origin %.4f,%.4f\nset title ", x0 + pw * (double)(i % cols),
			    y1 - ph * (double)(i / cols + 1));
		gp_quote(sb, pt->ops[f->ops[i]]);
		strbuf_addstr(sb, " font \",11\" offset 0,-0.6\n");
		/* ~4 tics whatever the magnitude; 10% room; no dip below 0 for padding */
		step = nice_step(hi - lo);
		if (step > 0)
			strbuf_addf(sb, "set ytics %g\n", step);
		else
			strbuf_addstr(sb, "set ytics autofreq\n");
		from0 = any && lo >= 0 && lo - (hi - lo) * 0.1 <= 0;   /* <=: all 0 too */
		plot_gp_yrange(sb, any, lo, hi, from0);
		if (from0)
			strbuf_addstr(sb, "set offsets 0, 0, graph 0.1, 0\n");
		else
			strbuf_addstr(sb, "set offsets 0, 0, graph 0.1, graph 0.1\n");
		if (!any) {   /* no label has this op: an empty panel keeps the grid in order */
			strbuf_addstr(sb, "plot NaN notitle\n");
			continue;
		}
		strbuf_addstr(sb, "plot ");
		for (size_t l = 0; l < nl; l++) {
			double off = -group / 2 + w * ((double)idx + 0.5);

			if (!used[l])
				continue;
			/* rows of other ops are NaN here, so gnuplot skips them */
			strbuf_addf(sb, "%s\"%s.dat\" index %zu using ($2==%g ? %.4f : NaN):($3-$4):5:6:($3+$4) "
				    "with candlesticks whiskerbars 0.6 ", idx ? ", \\\n     " : "", base, idx,
				    f->x[i], off);
			add_box_style(sb, l, 0.35, 1.5);
			strbuf_addf(sb, ", \\\n     \"%s.dat\" index %zu using ($2==%g ? %.4f : NaN):3:(%.4f):(0) "
				    "with vectors nohead lc rgb \"#%06x\" lw 3",
				    base, idx, f->x[i], off - w * 0.4, w * 0.8, line_rgb(l));
			idx++;
		}
		strbuf_addstr(sb, "\n");
	}
	/* the legend and the notes once, under the panels: a plot of nothing */
	strbuf_addstr(sb, "# legend and notes\n"
		      "set origin 0,0\nset size 1,0.14\nunset title\nunset border\nunset tics\n"
		      "unset grid\nset offsets 0, 0, 0, 0\nset xrange [0:1]\nset yrange [0:1]\n"
		      "set lmargin 0\nset rmargin 0\nset tmargin 0\nset bmargin 0\n"
		      "set key center center horizontal\n");
	strbuf_addstr(sb, "set label 1 ");
	gp_quote(sb, pt->better > 0 ? "higher is better" : "lower is better");
	strbuf_addstr(sb, " at screen 0.985, screen 0.965 right font \",11\" textcolor rgb \"#333333\"\n");
	strbuf_addstr(&tmp, "min, mean ± stddev, max");
	if (*pt->unit)
		strbuf_addf(&tmp, " (%s)", pt->unit);
	strbuf_addstr(sb, "set label 2 ");
	gp_quote(sb, tmp.buf);
	strbuf_addstr(sb, " at screen 0.014, screen 0.54 center rotate by 90\n"
		      "set label 3 'op per panel; box: mean ± stddev, whiskers: min … max, bar: mean' "
		      "at screen 0.5, screen 0.115 center font \",10\"\n");
	strbuf_addstr(sb, "plot ");
	for (size_t l = 0, idx = 0; l < nl; l++) {
		if (!used[l])
			continue;
		strbuf_addf(sb, "%sNaN with boxes ", idx ? ", " : "");
		add_box_style(sb, l, 0.35, 1);
		strbuf_addstr(sb, " title ");
		gp_quote(sb, labels[l].label);
		idx++;
	}
	strbuf_addstr(sb, "\nunset multiplot\n");
	strbuf_release(&tmp);
}

/* A figure in characters (plot_txt.h) from the same figure spec. */
static void gp_render_txt(struct strbuf *sb, const struct figspec *f, const char *base,
			  const struct label_result *labels, size_t nl, const bool *used,
			  const char *title)
{
	const struct ptable *pt = f->pt;
	const char **names = xcalloc(nl ? nl : 1, sizeof(*names));
	const char **tics = xcalloc(f->nops ? f->nops : 1, sizeof(*tics));
	struct strbuf full = STRBUF_INIT, ylabel = STRBUF_INIT, xlabel = STRBUF_INIT;
	struct plot_txt_fig tf = { .base = base, .sweep = f->kind == K_SCALING, .log2 = f->log2,
				   .x = f->x, .nx = f->nops, .labels = names };

	strbuf_init(&full);
	strbuf_init(&ylabel);
	strbuf_init(&xlabel);
	strbuf_addf(&full, "%s (%s is better)", title, pt->better > 0 ? "higher" : "lower");
	strbuf_addstr(&ylabel, mean_name(pt->better));
	if (*pt->unit)
		strbuf_addf(&ylabel, " (%s)", pt->unit);
	if (f->kind == K_SCALING) {
		char *axis = sweep_axis(pt, f->prefix);

		strbuf_addstr(&xlabel, axis);
		free(axis);
	} else {
		strbuf_addstr(&xlabel, "op");
		tf.from_zero = true;
		for (size_t i = 0; i < f->nops; i++) {
			tics[i] = pt->ops[f->ops[i]];
			for (size_t l = 0; l < nl; l++)
				if (pt->cells[l * pt->nops + f->ops[i]].mean < 0)
					tf.from_zero = false;
		}
		tf.xtic = tics;
	}
	for (size_t l = 0; l < nl; l++)
		if (used[l])
			names[tf.nlabels++] = labels[l].label;
	tf.ny = cells_span(f, nl, used, false, &tf.ylo, &tf.yhi);   /* the means it draws */
	tf.title = full.buf;
	tf.ylabel = ylabel.buf;
	tf.xlabel = xlabel.buf;
	plot_txt_render(sb, &tf);
	free(names);
	free(tics);
	strbuf_release(&full);
	strbuf_release(&ylabel);
	strbuf_release(&xlabel);
}

static void gp_render(struct strbuf *sb, const struct figspec *f, const char *base,
		      enum plot_format fmt, const struct label_result *labels, size_t nl,
		      const bool *used)
{
	const struct ptable *pt = f->pt;
	size_t nused = 0, idx = 0;
	struct strbuf title = STRBUF_INIT;

	strbuf_init(&title);
	for (size_t l = 0; l < nl; l++)
		nused += used[l];
	gp_header(sb, base, fmt, labels, nl);

	table_name(&title, pt);
	if (f->kind == K_SCALING)
		strbuf_addf(&title, ", %sN", f->prefix);
	else if (f->kind == K_BARS)
		strbuf_addstr(&title, ", per op");
	else
		strbuf_addstr(&title, ", spread per op");
	if (f->kind == K_CANDLES) {
		gp_render_candles(sb, f, base, labels, nl, used, title.buf);
		strbuf_release(&title);
		return;
	}
	if (fmt == PLOT_TXT) {
		gp_render_txt(sb, f, base, labels, nl, used, title.buf);
		strbuf_release(&title);
		return;
	}
	strbuf_addstr(sb, "set title ");
	gp_quote(sb, title.buf);
	strbuf_addstr(sb, " font \",14\"\n");

	strbuf_addstr(sb, "set label 1 ");
	gp_quote(sb, pt->better > 0 ? "higher is better" : "lower is better");
	strbuf_addstr(sb, " at screen 0.985, screen 0.965 right font \",11\" textcolor rgb \"#333333\"\n");

	/* the y axis carries the unit; strings from the JSON always go through gp_quote */
	strbuf_reset(&title);
	strbuf_addf(&title, "%s ± stddev", mean_name(pt->better));
	if (*pt->unit)
		strbuf_addf(&title, " (%s)", pt->unit);
	strbuf_addstr(sb, "set ylabel ");
	gp_quote(sb, title.buf);
	strbuf_addstr(sb, "\n");

	strbuf_addstr(sb, "set key below horizontal\n"
		      "set grid ytics lc rgb \"#dddddd\"\n"
		      "set border 3\nset tics nomirror\n");

	if (f->kind == K_SCALING) {
		char *axis = sweep_axis(pt, f->prefix);
		double lo = f->x[0], hi = f->x[f->nops - 1];

		strbuf_addstr(sb, "set xlabel ");
		gp_quote(sb, axis);
		strbuf_addstr(sb, "\n");
		free(axis);
		if (f->log2) {
			strbuf_addf(sb, "set logscale x 2\nset xrange [%g:%g]\n", lo / 1.4, hi * 1.4);
		} else {
			double pad = (hi - lo) * 0.06;

			strbuf_addf(sb, "set xrange [%g:%g]\n", lo - pad, hi + pad);
		}
		/* a tic at every N measured, unless there are too many to read */
		if (f->nops <= 16) {
			strbuf_addstr(sb, "set xtics (");
			for (size_t i = 0; i < f->nops; i++)
				strbuf_addf(sb, "%s%g", i ? ", " : "", f->x[i]);
			strbuf_addstr(sb, ")\n");
		}
		gp_yoffsets(sb, f, nl, used);
		strbuf_addstr(sb, "set bmargin 6\nset bars 1.5\n");
		strbuf_addstr(sb, "# lines are nudged sideways a little so error bars do not hide each other\n");
		strbuf_addstr(sb, "plot ");
		for (size_t l = 0; l < nl; l++) {
			double nudge = nused > 1 ? ((double)idx - (double)(nused - 1) / 2.0) : 0;

			if (!used[l])
				continue;
			strbuf_addf(sb, "%s\"%s.dat\" index %zu using ", idx ? ", \\\n     " : "", base, idx);
			if (f->log2)
				strbuf_addf(sb, "($2*2**(%.3f))", 0.04 * nudge);
			else
				strbuf_addf(sb, "($2+(%g))", (hi - lo) * 0.008 * nudge);
			strbuf_addf(sb, ":3:4 with yerrorlines lc rgb \"#%06x\" lw 2 pt 7 ps 1.2 title ",
				    line_rgb(l));
			gp_quote(sb, labels[l].label);
			idx++;
		}
		strbuf_addstr(sb, "\n");
	} else {   /* K_BARS */
		double group = 0.8, w = group / (double)(nused ? nused : 1), lo, hi, bottom, top;
		size_t n = cells_span(f, nl, used, false, &lo, &hi);

		cells_span(f, nl, used, true, &bottom, &top);
		gp_op_xtics(sb, f);
		/* bars stand on 0: the lowest bar, the highest error bar */
		plot_gp_yrange(sb, n, lo, top, true);
		strbuf_addstr(sb, "set offsets 0, 0, graph 0.08, 0\n"
			      "set bars 2 front lc rgb \"black\" lw 1.2\n");
		strbuf_addf(sb, "set boxwidth %.4f absolute\n", w * 0.95);
		strbuf_addstr(sb, "plot ");
		for (size_t l = 0; l < nl; l++) {
			double off = -group / 2 + w * ((double)idx + 0.5);

			if (!used[l])
				continue;
			strbuf_addf(sb, "%s\"%s.dat\" index %zu using ($2+(%.4f)):3:4 with boxerrorbars ",
				    idx ? ", \\\n     " : "", base, idx, off);
			add_box_style(sb, l, 0.6, 1);
			strbuf_addstr(sb, " title ");
			gp_quote(sb, labels[l].label);
			idx++;
		}
		strbuf_addstr(sb, "\n");
	}
	strbuf_release(&title);
}

int write_text(const char *dir, const char *name, const struct strbuf *sb)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t off = 0;
	int ret = 0;

	if (fd < 0) {
		ret = error_errno("cannot create %s", path);
		goto out;
	}
	while (off < sb->len) {
		ssize_t w = write(fd, sb->buf + off, sb->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			ret = error_errno("cannot write %s", path);
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = error_errno("cannot write %s", path);
out:
	free(path);
	return ret;
}

bool base_taken(const struct plot_set *set, const char *base)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->figs[i].base, base))
			return true;
	return false;
}

static int emit_figure(const struct figspec *f, const char *kind, const char *table_slug,
		       const struct label_result *labels, size_t nl, const char *outdir,
		       struct plot_set *set)
{
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT;
	bool *used = xcalloc(nl, sizeof(*used));
	char *wslug = plot_slug(f->pt->workload);
	char *base = xasprintf("%s-%s-%s", wslug, table_slug, kind);
	char *name;
	struct plot_figure *fig;
	int ret;

	/* two tables whose titles slug alike must not overwrite each other */
	for (int k = 2; base_taken(set, base); k++) {
		free(base);
		base = xasprintf("%s-%s-%d-%s", wslug, table_slug, k, kind);
	}
	strbuf_init(&dat);
	strbuf_init(&gp);
	dat_render(&dat, f, labels, nl, used);
	{
		bool any = false;

		for (size_t l = 0; l < nl; l++)
			any |= used[l];
		/* ops whose samples are all empty: gnuplot would have nothing to
		 * plot and fail; the other figures are drawn all the same */
		if (!any) {
			char *t = inert_dup(f->pt->title);

			warning("%s: nothing to draw (no op has samples it can plot): no %s figure", t, kind);
			free(t);
			ret = 0;
			goto out;
		}
	}
	gp_render(&gp, f, base, set->format, labels, nl, used);
	name = xasprintf("%s.dat", base);
	ret = write_text(outdir, name, &dat);
	free(name);
	if (!ret) {
		name = xasprintf("%s.gp", base);
		ret = write_text(outdir, name, &gp);
		free(name);
	}
	if (!ret) {
		ALLOC_GROW(set->figs, set->n + 1, set->cap);
		fig = &set->figs[set->n++];
		memset(fig, 0, sizeof(*fig));
		fig->base = base;
		base = NULL;
		fig->workload = xstrdup(f->pt->workload);
		fig->table = xstrdup(f->pt->title);
		fig->kind = xstrdup(kind);
		struct strbuf cap = STRBUF_INIT;

		strbuf_init(&cap);
		table_name(&cap, f->pt);
		if (f->kind == K_SCALING)
			strbuf_addf(&cap, " over %sN", f->prefix);
		else if (f->kind == K_BARS)
			strbuf_addstr(&cap, " per op");
		else
			strbuf_addstr(&cap, ", min / mean ± stddev / max per op");
		/* alt text of a markdown image: no brackets, no line breaks */
		for (size_t i = 0; i < cap.len; i++)
			if (strchr("[]\n\r", cap.buf[i]))
				cap.buf[i] = ' ';
		fig->caption = strbuf_detach(&cap);
	}
out:
	free(base);
	free(wslug);
	free(used);
	strbuf_release(&dat);
	strbuf_release(&gp);
	return ret;
}

/* ---------- sweeps ---------- */

struct sweep {
	char *prefix;
	size_t *ops;
	unsigned long long *num;
	size_t n, cap, ncap;
};

static int cmp_by_num(const void *a, const void *b, void *arg)
{
	const struct sweep *s = arg;
	unsigned long long x = s->num[*(const size_t *)a], y = s->num[*(const size_t *)b];

	return x < y ? -1 : x > y;
}

/*
 * Group the table's ops by series (the op name without its x value,
 * results_op_x); a group with two or more x values is a sweep. A table whose
 * results declare no x axis (x_axis null: categories) has none.
 */
static size_t find_sweeps(const struct ptable *pt, struct sweep **out, bool *in_sweep)
{
	struct sweep *s = NULL;
	size_t n = 0, cap = 0, nsweeps = 0;
	bool categorical = pt->x_axis && !pt->x_axis->x_name;

	for (size_t o = 0; o < pt->nops; o++) {
		char *prefix;
		unsigned long long v;
		size_t g, plen;

		in_sweep[o] = false;
		if (categorical || !results_op_x(pt->ops[o], &plen, &v))
			continue;
		prefix = xstrndup(pt->ops[o], plen);
		for (g = 0; g < n; g++)
			if (!strcmp(s[g].prefix, prefix))
				break;
		if (g == n) {
			ALLOC_GROW(s, n + 1, cap);
			memset(&s[n], 0, sizeof(s[n]));
			s[n++].prefix = prefix;
		} else {
			free(prefix);
		}
		ALLOC_GROW(s[g].ops, s[g].n + 1, s[g].cap);
		s[g].ops[s[g].n] = o;
		ALLOC_GROW(s[g].num, s[g].n + 1, s[g].ncap);
		s[g].num[s[g].n++] = v;
	}
	/* keep sweeps in place, drop groups of one (and groups with a repeated count) */
	for (size_t g = 0; g < n; g++) {
		bool ok = s[g].n >= 2;
		size_t *order = xcalloc(s[g].n, sizeof(*order));
		unsigned long long *num = xcalloc(s[g].n, sizeof(*num));

		for (size_t i = 0; i < s[g].n; i++)
			order[i] = i;
		qsort_r(order, s[g].n, sizeof(*order), cmp_by_num, &s[g]);
		for (size_t i = 0; i < s[g].n; i++)
			num[i] = s[g].num[order[i]];
		for (size_t i = 0; i < s[g].n; i++)
			order[i] = s[g].ops[order[i]];
		for (size_t i = 1; i < s[g].n; i++)
			if (num[i] == num[i - 1])
				ok = false;
		free(s[g].ops);
		free(s[g].num);
		s[g].ops = order;
		s[g].num = num;
		if (!ok) {
			free(s[g].prefix);
			free(s[g].ops);
			free(s[g].num);
			continue;
		}
		for (size_t i = 0; i < s[g].n; i++)
			in_sweep[s[g].ops[i]] = true;
		s[nsweeps++] = s[g];
	}
	*out = s;
	return nsweeps;
}

/* A profile table of one untimed pass per op (lru_lock wait): no spread to draw. */
static bool single_pass(const struct ptable *pt, size_t nl)
{
	if (!pt->explains)
		return false;
	for (size_t i = 0; i < nl * pt->nops; i++)
		if (pt->cells[i].present && pt->cells[i].n > 1)
			return false;
	return true;
}

static int table_figures(const struct ptable *pt, const struct label_result *labels, size_t nl,
			 const char *outdir, struct plot_set *set)
{
	bool *in_sweep = xcalloc(pt->nops ? pt->nops : 1, sizeof(*in_sweep));
	struct sweep *sw = NULL;
	size_t nsw = find_sweeps(pt, &sw, in_sweep), nrest = 0;
	size_t *ops = xcalloc(pt->nops ? pt->nops : 1, sizeof(*ops));
	double *x = xcalloc(pt->nops ? pt->nops : 1, sizeof(*x));
	const char *title = pt->title;
	size_t wlen = strlen(pt->workload);
	char *tslug;
	int ret = 0;

	/* "readtwice MB/s aggregate" in workload readtwice: the file name says it once */
	if (!strncmp(title, pt->workload, wlen) && title[wlen] == ' ' && title[wlen + 1])
		title += wlen + 1;
	tslug = plot_slug(title);

	for (size_t o = 0; o < pt->nops; o++)
		nrest += !in_sweep[o];
	for (size_t g = 0; g < nsw && !ret; g++) {
		struct figspec f = { .pt = pt, .kind = K_SCALING, .ops = sw[g].ops, .x = x,
				     .nops = sw[g].n, .prefix = sw[g].prefix,
				     .log2 = plot_sweep_doubles(sw[g].num, sw[g].n) };
		char *kind;

		for (size_t i = 0; i < sw[g].n; i++)
			x[i] = (double)sw[g].num[i];
		if (nsw == 1 && !nrest) {
			kind = xstrdup("scaling");
		} else {
			char *ps = plot_slug(*sw[g].prefix ? sw[g].prefix : "n");

			kind = xasprintf("scaling-%s", ps);
			free(ps);
		}
		ret = emit_figure(&f, kind, tslug, labels, nl, outdir, set);
		free(kind);
	}
	if (!ret && nrest) {
		struct figspec f = { .pt = pt, .kind = K_BARS, .ops = ops, .x = x, .prefix = "" };

		for (size_t o = 0; o < pt->nops; o++)
			if (!in_sweep[o]) {
				ops[f.nops] = o;
				x[f.nops] = (double)f.nops;
				f.nops++;
			}
		ret = emit_figure(&f, "bars", tslug, labels, nl, outdir, set);
	}
	/* candles need room: 72x20 characters hold none; and a profile table of
	 * one pass per op has no spread to draw */
	if (!ret && pt->nops && set->format != PLOT_TXT && !single_pass(pt, nl)) {
		struct figspec f = { .pt = pt, .kind = K_CANDLES, .ops = ops, .x = x,
				     .nops = pt->nops, .prefix = "" };

		for (size_t o = 0; o < pt->nops; o++) {
			ops[o] = o;
			x[o] = (double)o;
		}
		ret = emit_figure(&f, "candles", tslug, labels, nl, outdir, set);
	}
	for (size_t g = 0; g < nsw; g++) {
		free(sw[g].prefix);
		free(sw[g].ops);
		free(sw[g].num);
	}
	free(sw);
	free(tslug);
	free(ops);
	free(x);
	free(in_sweep);
	return ret;
}

int plot_write_figures(const struct comparison *c, const char *outdir,
		       enum plot_format fmt, struct plot_set *set)
{
	int ret = 0;

	memset(set, 0, sizeof(*set));
	set->format = fmt;
	for (size_t w = 0; w < c->nwls && !ret; w++)
		for (size_t t = 0; t < c->wls[w].ntables && !ret; t++) {
			struct ptable pt;

			ptable_build(&pt, c, &c->wls[w], &c->wls[w].tables[t]);
			ret = table_figures(&pt, c->labels, c->nlabels, outdir, set);
			ptable_release(&pt);
			/* after the workload's last table: where its time went */
			if (!ret && t + 1 == c->wls[w].ntables && fmt != PLOT_TXT)
				ret = plot_profile_figures(c, &c->wls[w], outdir, set);
			if (!ret && t + 1 == c->wls[w].ntables)
				ret = plot_reclaim_figures(c, &c->wls[w], outdir, set);
			if (!ret && t + 1 == c->wls[w].ntables)
				ret = plot_level_figures(c, &c->wls[w], outdir, set);
			if (!ret && t + 1 == c->wls[w].ntables && fmt != PLOT_TXT)
				ret = flamegraph_figures(c, &c->wls[w], outdir);
		}
	return ret;
}

void plot_set_release(struct plot_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->figs[i].base);
		free(set->figs[i].workload);
		free(set->figs[i].table);
		free(set->figs[i].kind);
		free(set->figs[i].caption);
		free(set->figs[i].op);
	}
	free(set->figs);
	memset(set, 0, sizeof(*set));
}

/* ---------- index.md ---------- */

static const char *run_str(const struct label_result *l, const char *obj, const char *key)
{
	json_object *o = l->run, *v;

	if (obj && (!o || !json_object_object_get_ex(o, obj, &o)))
		return NULL;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

int plot_write_index(const struct comparison *c, const struct plot_set *set,
		     const char *compare_text, const char *outdir)
{
	const struct label_result *labels = c->labels;
	size_t nl = c->nlabels;
	struct strbuf sb = STRBUF_INIT;
	const char *ext = plot_format_ext(set->format);
	const char *cur_wl = NULL, *cur_table = NULL;
	int ret;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "# lrubench plots\n\nLabels, baseline first:\n\n");
	for (size_t l = 0; l < nl; l++) {
		const char *kr = run_str(&labels[l], "system", "kernel_release");
		const char *st = run_str(&labels[l], NULL, "status");

		/* run.json is someone else's file: a kernel_release holding
		 * "\n## x" must not become a heading (escape.h) */
		strbuf_addstr(&sb, "- `");
		strbuf_add_inert(&sb, labels[l].label);
		strbuf_addstr(&sb, "`");
		if (kr) {
			strbuf_addstr(&sb, ", kernel ");
			strbuf_add_inert(&sb, kr);
		}
		if (st && strcmp(st, "complete")) {
			strbuf_addstr(&sb, " (run ");
			strbuf_add_inert(&sb, st);
			strbuf_addstr(&sb, ")");
		}
		strbuf_addstr(&sb, ", from `");
		strbuf_add_inert(&sb, labels[l].dir);
		strbuf_addstr(&sb, "`\n");
	}
	strbuf_addstr(&sb, "\nEach figure has its gnuplot script (.gp) and data (.dat) next to it: edit "
		      "the script and run `gnuplot NAME.gp` in this folder to restyle it. Lines and bars "
		      "show the mean row of the comparison (Hmean when higher is better, else Amean) "
		      "with the sample standard deviation as error bars.\n");
	if (compare_text && *compare_text) {
		/* a fence longer than any run of backticks in the text (an op
		 * named ``` must not close it) */
		size_t fence = 3, run = 0;

		for (const char *p = compare_text; *p; p++) {
			run = *p == '`' ? run + 1 : 0;
			if (run >= fence)
				fence = run + 1;
		}
		strbuf_addstr(&sb, "\n## Comparison\n\n");
		for (size_t i = 0; i < fence; i++)
			strbuf_addstr(&sb, "`");
		strbuf_addstr(&sb, "\n");
		strbuf_addstr(&sb, compare_text);
		if (compare_text[strlen(compare_text) - 1] != '\n')
			strbuf_addstr(&sb, "\n");
		for (size_t i = 0; i < fence; i++)
			strbuf_addstr(&sb, "`");
		strbuf_addstr(&sb, "\n");
	}
	for (size_t i = 0; i < set->n; i++) {
		const struct plot_figure *f = &set->figs[i];

		if (!cur_wl || strcmp(cur_wl, f->workload)) {
			strbuf_addstr(&sb, "\n## ");
			strbuf_add_inert(&sb, f->workload);
			strbuf_addstr(&sb, "\n");
			cur_wl = f->workload;
			cur_table = NULL;
		}
		if (!cur_table || strcmp(cur_table, f->table)) {
			strbuf_addstr(&sb, "\n### ");
			strbuf_add_inert(&sb, f->table);
			strbuf_addstr(&sb, "\n");
			cur_table = f->table;
		}
		strbuf_addstr(&sb, "\n![");
		strbuf_add_inert(&sb, f->caption);
		strbuf_addf(&sb, "](%s.%s)\n\n[%s.gp](%s.gp) · [%s.dat](%s.dat)\n",
			    f->base, ext, f->base, f->base, f->base, f->base);
	}
	ret = write_text(outdir, "index.md", &sb);
	strbuf_release(&sb);
	return ret;
}

/* ---------- running gnuplot ---------- */

bool plot_have_gnuplot(void)
{
	return program_in_path("gnuplot");
}

static void print_log(const char *path, bool as_error)
{
	char *text = read_file_str(path, NULL);
	char *save = NULL;

	if (!text)
		return;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!*line || strspn(line, " ^") == strlen(line))
			continue;
		if (as_error)
			fprintf(stderr, "gnuplot: %s\n", line);
		else
			warning("gnuplot: %s", line);
	}
	free(text);
}

/* cleanup registry undo: async-signal-safe */
static void unlink_log(void *path)
{
	unlink(path);
}

int plot_run_gnuplot(const struct plot_set *set, const char *outdir)
{
	const char *tmp = getenv("TMPDIR");
	char *log = xasprintf("%s/lrubench-gnuplot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(log), ret = 0, cid;

	if (fd < 0) {
		ret = error_errno("cannot create a temporary file %s", log);
		free(log);
		return ret;
	}
	close(fd);
	/* a second SIGINT exits at once: the registry still removes the log */
	cid = cleanup_push("gnuplot output file", unlink_log, log);
	/* a figure gnuplot cannot draw is an error of its own: the others are
	 * still drawn, and the exit status says some failed */
	for (size_t i = 0; i < set->n && !lb_stop_requested(); i++) {
		char *script = xasprintf("%s.gp", set->figs[i].base);
		const char *argv[] = { "gnuplot", script, NULL };
		struct child c = { .argv = argv, .dir = outdir, .out_path = log, .name = "gnuplot" };
		int code, r = 0;

		if (truncate(log, 0))
			r = error_errno("cannot truncate %s", log);
		code = r ? -1 : child_run(&c, 120.0);
		if (!r && code != 0) {
			char desc[64];

			char *fig = xasprintf("%s/%s.%s", outdir, set->figs[i].base,
					      plot_format_ext(set->format));

			/* the figure gnuplot was writing is partial: never keep it */
			unlink(fig);
			free(fig);
			if (code > 0) {
				print_log(log, true);
				child_describe_code(code, desc, sizeof(desc));
				error("gnuplot %s %s", script, desc);
			}   /* else child_run named the problem */
			r = -1;
		} else if (!r) {
			print_log(log, false);   /* warnings of a run that worked */
		}
		free(script);
		if (r)
			ret = -1;
	}
	if (lb_stop_requested())
		ret = -1;
	if (cid > 0)
		cleanup_pop(cid, false);
	unlink(log);
	free(log);
	return ret;
}
