// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lrubench trend`: change points of nightly series (method in trend.h) and
 * their text and gnuplot renderings. The values are the mean row of
 * compare's model, so a trend and a compare of the same labels agree.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compare/plot.h"
#include "compare/trend.h"

/* ---------- the method ---------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of x[0..n), n >= 1; tmp has room for n. */
static double median(const double *x, size_t n, double *tmp)
{
	memcpy(tmp, x, n * sizeof(*x));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

static double mean(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double trend_robust_sd(const double *x, size_t n)
{
	double *d, *tmp, med, mad;

	if (n < 3)
		return 0;
	d = xcalloc(n - 1, sizeof(*d));
	tmp = xcalloc(n - 1, sizeof(*tmp));
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = x[i + 1] - x[i];
	med = median(d, n - 1, tmp);
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(d[i] - med);
	mad = median(d, n - 1, tmp);
	free(d);
	free(tmp);
	/* 1.4826: MAD to sd for normal noise; sqrt(2): a difference of two nights */
	return 1.4826 * mad / sqrt(2.0);
}

struct boundary {
	double score, meanstep, before, after;
	bool ok;
};

/* Is a a stronger boundary than b? The score first, then the mean step. */
static bool stronger(const struct boundary *a, const struct boundary *b)
{
	if (!b->ok)
		return a->ok;
	if (!a->ok)
		return false;
	if (a->score != b->score)
		return a->score > b->score;
	return a->meanstep > b->meanstep;
}

/* Sum of |x - median| over x[0..n), n >= 1. */
static double l1_cost(const double *x, size_t n, double *tmp, double *med)
{
	double sum = 0;

	*med = median(x, n, tmp);
	for (size_t i = 0; i < n; i++)
		sum += fabs(x[i] - *med);
	return sum;
}

/*
 * Where exactly is the step found at boundary i? A median ignores one odd
 * point on purpose, so neighbouring boundaries score alike; the step is
 * the split of x[i-w, i+w) into two parts that deviate least (in absolute
 * value) from their own medians, the robust one-change fit of that stretch.
 */
static struct trend_change locate(const double *x, size_t n, size_t i, size_t w, double *tmp)
{
	size_t lo = i > w ? i - w : 0, hi = i + w < n ? i + w : n;
	struct trend_change best = { 0, 0, 0, 0 };
	double best_cost = INFINITY;

	for (size_t j = lo + 1; j < hi; j++) {
		double mb, ma, cost = l1_cost(x + lo, j - lo, tmp, &mb) +
				      l1_cost(x + j, hi - j, tmp, &ma);
		size_t dj = j > i ? j - i : i - j, dbest = best.at > i ? best.at - i : i - best.at;

		/* ties: the split nearest the boundary that found the step */
		if (cost < best_cost || (cost == best_cost && dj < dbest)) {
			best_cost = cost;
			best = (struct trend_change){ j, mb, ma, 0 };
		}
	}
	return best;
}

size_t trend_changes(const double *x, size_t n, const struct trend_params *p,
		     struct trend_change *out)
{
	size_t w = p->window ? p->window : 1, nout = 0;
	struct boundary *b;
	double *tmp, sigma, floor_;

	if (n < 2 * TREND_MIN_SIDE)
		return 0;
	b = xcalloc(n, sizeof(*b));
	tmp = xcalloc(n, sizeof(*tmp));
	sigma = trend_robust_sd(x, n);
	floor_ = 1e-9 * fabs(median(x, n, tmp));
	if (floor_ < p->min_sigma)
		floor_ = p->min_sigma;
	if (sigma < floor_)
		sigma = floor_;
	if (!(sigma > 0))
		sigma = 1e-300;   /* an all-zero series: any step is a change */
	for (size_t i = TREND_MIN_SIDE; i + TREND_MIN_SIDE <= n; i++) {
		size_t k = w;

		if (k > i)
			k = i;
		if (k > n - i)
			k = n - i;
		b[i].before = median(x + i - k, k, tmp);
		b[i].after = median(x + i, k, tmp);
		b[i].score = fabs(b[i].after - b[i].before) / sigma;
		b[i].meanstep = fabs(mean(x + i, k) - mean(x + i - k, k));
		b[i].ok = true;
	}
	for (size_t i = TREND_MIN_SIDE; i + TREND_MIN_SIDE <= n; i++) {
		bool best = b[i].score > p->threshold;
		struct trend_change ch;

		for (size_t j = i > w ? i - w : 0; best && j <= i + w && j < n; j++)
			if (j != i && stronger(&b[j], &b[i]))
				best = false;
		/* an exact tie on both keys: the earlier boundary takes it */
		for (size_t j = i > w ? i - w : 0; best && j < i; j++)
			if (b[j].ok && b[j].score == b[i].score && b[j].meanstep == b[i].meanstep)
				best = false;
		if (!best)
			continue;
		ch = locate(x, n, i, w, tmp);
		ch.score = fabs(ch.after - ch.before) / sigma;
		/* two windows may find the same step; a step at either end of the
		 * series waits until TREND_MIN_SIDE points are past it */
		if (ch.score > p->threshold && ch.at >= TREND_MIN_SIDE &&
		    ch.at + TREND_MIN_SIDE <= n && (!nout || out[nout - 1].at != ch.at))
			out[nout++] = ch;
	}
	free(b);
	free(tmp);
	return nout;
}

/* ---------- one op's series ---------- */

struct series {
	double *x;          /* the defined values, in label order */
	size_t *label;      /* x[i] is of label label[i] */
	size_t n;
	struct trend_change *ch;
	size_t nch;
};

static void series_of(const struct comparison *c, const struct cmp_op *op,
		      const struct trend_params *p, struct series *s)
{
	struct trend_params q = *p;
	double *se = xcalloc(c->nlabels, sizeof(*se)), *tmp = xcalloc(c->nlabels, sizeof(*tmp));
	size_t nse = 0;

	s->x = xcalloc(c->nlabels, sizeof(*s->x));
	s->label = xcalloc(c->nlabels, sizeof(*s->label));
	s->ch = xcalloc(c->nlabels, sizeof(*s->ch));
	s->n = 0;
	for (size_t l = 0; l < c->nlabels; l++) {
		const struct cmp_cell *cell = &op->cells[l];

		if (cell->present && cell->row_ok[ROW_MEAN]) {
			s->x[s->n] = cell->row[ROW_MEAN];
			s->label[s->n++] = l;
		}
		if (cell->present && cell->mean_ci_ok)
			se[nse++] = cell->mean_se;
	}
	if (nse)
		q.min_sigma = median(se, nse, tmp);
	s->nch = trend_changes(s->x, s->n, &q, s->ch);
	free(se);
	free(tmp);
}

static void series_release(struct series *s)
{
	free(s->x);
	free(s->label);
	free(s->ch);
}

/* Does a change of s start at label l? */
static bool change_at(const struct series *s, size_t l)
{
	for (size_t i = 0; i < s->nch; i++)
		if (s->label[s->ch[i].at] == l)
			return true;
	return false;
}

/* ---------- text ---------- */

static const char *started_of(const struct label_result *l)
{
	json_object *v;

	if (l->run && json_object_object_get_ex(l->run, "started", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "?";
}

static void trend_table(const struct comparison *c, const struct cmp_table *t,
			const struct trend_params *p, struct strbuf *out)
{
	struct series *s = xcalloc(t->nops ? t->nops : 1, sizeof(*s));
	size_t lw = strlen("label"), *cw = xcalloc(t->nops ? t->nops : 1, sizeof(*cw));
	struct strbuf v = STRBUF_INIT;
	size_t nchanges = 0;

	strbuf_init(&v);
	for (size_t l = 0; l < c->nlabels; l++)
		if (strlen(c->labels[l].label) > lw)
			lw = strlen(c->labels[l].label);
	for (size_t o = 0; o < t->nops; o++) {
		series_of(c, &t->ops[o], p, &s[o]);
		nchanges += s[o].nch;
		cw[o] = strlen(t->ops[o].op);
		for (size_t i = 0; i < s[o].n; i++) {
			strbuf_reset(&v);
			strbuf_addf(&v, "%.2f *", s[o].x[i]);
			if (v.len > cw[o])
				cw[o] = v.len;
		}
	}
	strbuf_addf(out, "%s: %s", t->title, cmp_row_name(ROW_MEAN, t->better));
	if (*t->unit)
		strbuf_addf(out, " in %s", t->unit);
	strbuf_addf(out, ", %s is better\n%-*s", t->better > 0 ? "higher" : "lower", (int)lw,
		    "label");
	for (size_t o = 0; o < t->nops; o++)
		strbuf_addf(out, "  %*s", (int)cw[o], t->ops[o].op);
	strbuf_addstr(out, "\n");
	for (size_t l = 0; l < c->nlabels; l++) {
		strbuf_addf(out, "%-*s", (int)lw, c->labels[l].label);
		for (size_t o = 0; o < t->nops; o++) {
			const struct cmp_cell *cell = &t->ops[o].cells[l];

			strbuf_reset(&v);
			if (!cell->present)
				strbuf_addstr(&v, "n/a  ");
			else if (!cell->row_ok[ROW_MEAN])
				strbuf_addstr(&v, "undef  ");
			else
				strbuf_addf(&v, "%.2f %s", cell->row[ROW_MEAN],
					    change_at(&s[o], l) ? "*" : " ");
			strbuf_addf(out, "  %*s", (int)cw[o], v.buf);
		}
		while (out->len && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addstr(out, "\n");
	}
	if (!nchanges)
		strbuf_addf(out, "No change beyond %g robust sd.\n", p->threshold);
	for (size_t o = 0; o < t->nops; o++)
		for (size_t i = 0; i < s[o].nch; i++) {
			const struct trend_change *ch = &s[o].ch[i];
			double pct = ch->before ? (ch->after - ch->before) / fabs(ch->before) * 100 : 0;
			bool better = (ch->after > ch->before) == (t->better > 0);

			strbuf_addf(out, "* %s changed at %s: %.2f -> %.2f", t->ops[o].op,
				    c->labels[s[o].label[ch->at]].label, ch->before, ch->after);
			if (ch->before)
				strbuf_addf(out, " (%+.2f%%)", pct);
			strbuf_addf(out, ", %.1f robust sd, %s\n", ch->score,
				    better ? "better" : "worse");
		}
	for (size_t o = 0; o < t->nops; o++)
		series_release(&s[o]);
	free(s);
	free(cw);
	strbuf_release(&v);
}

void report_trend(const struct comparison *c, const struct trend_params *p,
		  struct strbuf *out)
{
	strbuf_addf(out, "%zu labels in time order (run.json started):\n", c->nlabels);
	for (size_t l = 0; l < c->nlabels; l++)
		strbuf_addf(out, "%3zu  %s  %s\n", l + 1, started_of(&c->labels[l]),
			    c->labels[l].label);
	if (c->nfacts) {
		strbuf_addstr(out, "Differs besides the kernel (is this one machine?):\n");
		for (size_t i = 0; i < c->nfacts; i++) {
			strbuf_addf(out, "  %s:", c->facts[i].name);
			for (size_t l = 0; l < c->nlabels; l++)
				strbuf_addf(out, "%s%s", l ? " | " : " ", c->facts[i].values[l]);
			strbuf_addstr(out, "\n");
		}
	}
	for (size_t i = 0; i < c->warnings.n; i++)
		strbuf_addf(out, "WARNING: %s\n", c->warnings.v[i]);
	strbuf_addf(out, "A change: the median of up to %zu labels after a point differs from "
		    "that of up to %zu before by more than %g robust standard deviations of "
		    "the label-to-label differences (lrubench-trend(1)).\n",
		    p->window, p->window, p->threshold);
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			strbuf_addstr(out, "\n");
			trend_table(c, &c->wls[w].tables[t], p, out);
		}
}

/* ---------- figure ---------- */

/* A name in a .dat comment line: a newline would end the comment. */
static void add_comment_word(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		char ch = (unsigned char)*s < 0x20 ? '_' : *s;

		strbuf_add(sb, &ch, 1);
	}
}

int trend_write_figure(const struct comparison *c, const struct trend_params *p,
		       const char *dir, const char *base, enum plot_format fmt)
{
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT, t = STRBUF_INIT;
	size_t ntables = 0, block = 0;
	char *path, *image = xasprintf("%s.%s", base, plot_format_ext(fmt));
	int ret;

	strbuf_init(&dat);
	strbuf_init(&gp);
	strbuf_init(&t);
	for (size_t w = 0; w < c->nwls; w++)
		ntables += c->wls[w].ntables;
	strbuf_addf(&gp, "# Generated by lrubench trend; rerun from this folder: gnuplot %s.gp\n"
		    "# Data: %s.dat, one block per (table, op); columns:\n"
		    "#   1 label number (time order, from 1), 2 mean row, 3 1 where a change starts\n",
		    base, base);
	plot_gp_terminal(&gp, fmt);
	strbuf_addstr(&gp, "set output ");
	plot_gp_quote(&gp, image);
	strbuf_addstr(&gp, "\nset encoding utf8\n");
	if (ntables > 1)
		strbuf_addf(&gp, "set multiplot layout %zu,1\n", ntables);
	/* label numbers on the x axis, as in the text's list: full labels would not fit */
	strbuf_addf(&gp, "set xlabel 'label number (time order)'\nset xtics 1\n"
		    "set xrange [0.5:%g]\nset key outside right top vertical\n"
		    "set grid ytics\n", (double)c->nlabels + 0.5);
	if (c->nlabels > 12)
		strbuf_addf(&gp, "set xtics %zu\n", (c->nlabels + 9) / 10);
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t ti = 0; ti < c->wls[w].ntables; ti++) {
			const struct cmp_table *tab = &c->wls[w].tables[ti];

			strbuf_reset(&t);
			strbuf_addf(&t, "%s (%s)", tab->title, cmp_row_name(ROW_MEAN, tab->better));
			strbuf_addstr(&gp, "set title ");
			plot_gp_quote(&gp, t.buf);
			strbuf_addstr(&gp, "\nset ylabel ");
			plot_gp_quote(&gp, tab->unit);
			strbuf_addstr(&gp, "\nplot ");
			for (size_t o = 0; o < tab->nops; o++, block++) {
				struct series s;

				series_of(c, &tab->ops[o], p, &s);
				strbuf_addf(&dat, "# index %zu: table ", block);
				add_comment_word(&dat, tab->title);
				strbuf_addstr(&dat, ", op ");
				add_comment_word(&dat, tab->ops[o].op);
				strbuf_addstr(&dat, "\n");
				for (size_t i = 0; i < s.n; i++)
					strbuf_addf(&dat, "%zu %.17g %d\n", s.label[i] + 1, s.x[i],
						    change_at(&s, s.label[i]));
				/* an empty block still counts as an index for gnuplot */
				if (!s.n)
					strbuf_addstr(&dat, "1 NaN 0\n");
				strbuf_addstr(&dat, "\n\n");
				series_release(&s);
				strbuf_addf(&gp, "%s'%s.dat' index %zu using 1:2 with linespoints title ",
					    o ? ", \\\n     " : "", base, block);
				plot_gp_quote(&gp, tab->ops[o].op);
				strbuf_addf(&gp, ", \\\n     '%s.dat' index %zu using 1:($3 > 0 ? $2 : NaN) "
					    "with points pt 6 ps 3 lc rgb 'red' notitle", base, block);
			}
			if (!tab->nops)
				strbuf_addstr(&gp, "NaN notitle");
			strbuf_addstr(&gp, "\n");
		}
	if (ntables > 1)
		strbuf_addstr(&gp, "unset multiplot\n");
	path = xasprintf("%s/%s.dat", dir, base);
	ret = write_file_atomic(path, dat.buf, dat.len);
	free(path);
	if (!ret) {
		path = xasprintf("%s/%s.gp", dir, base);
		ret = write_file_atomic(path, gp.buf, gp.len);
		free(path);
	}
	free(image);
	strbuf_release(&dat);
	strbuf_release(&gp);
	strbuf_release(&t);
	return ret;
}
