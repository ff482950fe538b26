// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reclaim latency histograms (plot_gp.h): for each step and tracepoint
 * pair of a workload's profile = reclaim passes, the share of its stalls
 * per latency bucket, one line per label, x the latency on a log scale.
 * The numbers are the histograms in the results' details (the passes of a
 * step added up), read with core/latency_hist.h's bounded reader.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/plot_gp.h"
#include "compare/plot_txt.h"
#include "core/latency_hist.h"

/* one label's histogram of one (step, pair): the passes' buckets summed */
struct merged {
	size_t n;
	double lo[LHIST_NBUCKETS], hi[LHIST_NBUCKETS];
	uint64_t count[LHIST_NBUCKETS];
	uint64_t total;
};

struct key {
	char *step, *pair;
	/* the pair's words from the results ("stall latency", "stalls"; kswapd's
	 * "time", "periods"), or those of a stall for older results */
	char *histogram, *periods;
};

/* A word of the results' own for a title: a few lowercase words, else dflt. */
static char *word_of(json_object *op, const char *key, const char *dflt)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(op, key, &v) || !json_object_is_type(v, json_type_string))
		return xstrdup(dflt);
	s = json_object_get_string(v);
	if (!*s || strlen(s) > 32 || strspn(s, "abcdefghijklmnopqrstuvwxyz -") != strlen(s))
		return xstrdup(dflt);
	return xstrdup(s);
}

static json_object *rl_ops(json_object *entry, const char **step)
{
	json_object *p, *rl, *ops, *s;

	if (!json_object_is_type(entry, json_type_object) ||
	    !json_object_object_get_ex(entry, "step", &s) || !json_object_is_type(s, json_type_string) ||
	    !json_object_object_get_ex(entry, "profile", &p) ||
	    !json_object_object_get_ex(p, "reclaim_latency", &rl) ||
	    !json_object_object_get_ex(rl, "ops", &ops) || !json_object_is_type(ops, json_type_array))
		return NULL;
	*step = json_object_get_string(s);
	return ops;
}

static const char *op_name(json_object *op)
{
	json_object *n;

	return json_object_object_get_ex(op, "name", &n) && json_object_is_type(n, json_type_string)
	       ? json_object_get_string(n) : NULL;
}

/* add h into m: the same buckets add up; others are inserted in order.
 * -1 when more distinct buckets than a histogram has */
static int merge(struct merged *m, const struct lhist_read *h)
{
	for (size_t k = 0; k < h->n; k++) {
		size_t i = 0;

		while (i < m->n && m->lo[i] < h->lo[k])
			i++;
		if (i < m->n && m->lo[i] == h->lo[k] && m->hi[i] == h->hi[k]) {
			m->count[i] += h->count[k];
		} else {
			if (m->n == LHIST_NBUCKETS)
				return -1;
			memmove(&m->lo[i + 1], &m->lo[i], (m->n - i) * sizeof(double));
			memmove(&m->hi[i + 1], &m->hi[i], (m->n - i) * sizeof(double));
			memmove(&m->count[i + 1], &m->count[i], (m->n - i) * sizeof(uint64_t));
			m->lo[i] = h->lo[k];
			m->hi[i] = h->hi[k];
			m->count[i] = h->count[k];
			m->n++;
		}
		m->total += h->count[k];
	}
	return 0;
}

/* label l's histogram of (step, pair); -1 after a message naming the file */
static int label_hist(const struct label_result *lr, const char *workload, const struct key *k,
		      struct merged *m)
{
	const struct wl_result *wr = label_result_find(lr, workload);
	struct lhist_read *h;
	size_t n;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (!wr || !wr->details)
		return 0;
	h = xmalloc(sizeof(*h));
	n = json_object_array_length(wr->details);
	for (size_t i = 0; i < n && !ret; i++) {
		const char *step;
		json_object *ops = rl_ops(json_object_array_get_idx(wr->details, i), &step);

		if (!ops || strcmp(step, k->step))
			continue;
		for (size_t j = 0; j < json_object_array_length(ops) && !ret; j++) {
			json_object *op = json_object_array_get_idx(ops, j), *b;
			const char *name = op_name(op);
			struct strbuf err = STRBUF_INIT;
			char *file, *path;

			if (!name || strcmp(name, k->pair) || !json_object_object_get_ex(op, "buckets", &b))
				continue;
			file = xasprintf("%s/%s.json", lr->dir, workload);
			path = xasprintf("details[%zu].profile.reclaim_latency.ops[%zu].buckets", i, j);
			if (lhist_read_json(b, file, path, h, &err))
				ret = error("plot: %s", err.buf);
			else if (merge(m, h))
				ret = error("plot: %s: %s: more distinct buckets than a histogram has", file, path);
			strbuf_release(&err);
			free(file);
			free(path);
		}
	}
	free(h);
	return ret;
}

static void bucket_name(struct strbuf *sb, double lo, double hi)
{
	char t[96];

	snprintf(t, sizeof(t), "%.3g-%.3gus", lo, hi);
	dat_quote(sb, t);
}

static int one_figure(const struct comparison *c, const struct cmp_workload *w, const struct key *k,
		      const char *outdir, struct plot_set *set)
{
	size_t nl = c->nlabels, blocks = 0;
	struct merged *m = xcalloc(nl, sizeof(*m));
	struct strbuf dat = STRBUF_INIT, gp = STRBUF_INIT;
	const char **names = xcalloc(nl, sizeof(*names));
	char **titles = xcalloc(nl, sizeof(*titles));
	double xmin = INFINITY, xmax = 0, ylo = INFINITY, yhi = -INFINITY;
	size_t ny = 0;
	char *wslug = NULL, *pslug = NULL, *sslug = NULL, *want = NULL, *base = NULL, *title = NULL,
	     *ylabel = NULL;
	int ret = 0;

	for (size_t l = 0; l < nl && !ret; l++)
		ret = label_hist(&c->labels[l], w->name, k, &m[l]);
	if (ret)
		goto out;
	strbuf_addstr(&dat, "# lrubench plot data: ");
	add_comment_text(&dat, w->name);
	strbuf_addstr(&dat, " / ");
	add_comment_text(&dat, k->step);
	strbuf_addstr(&dat, " / ");
	add_comment_text(&dat, k->pair);
	strbuf_addf(&dat, " %s (profile = reclaim; a step's passes added up)\n"
		    "# columns: 1 bucket, 2 x (us, the bucket's geometric middle), 3 %% of the label's "
		    "%s,\n#          4 %s, 5 lo (us), 6 hi (us)\n"
		    "# one block per label with %s (gnuplot index 0, 1, ...)\n", k->histogram,
		    k->periods, k->periods, k->periods);
	for (size_t l = 0; l < nl; l++) {
		if (!m[l].total)
			continue;
		strbuf_addf(&dat, "%s# label: ", blocks ? "\n\n" : "\n");
		add_comment_text(&dat, c->labels[l].label);
		strbuf_addf(&dat, " (%llu %s)\n", (unsigned long long)m[l].total, k->periods);
		for (size_t i = 0; i < m[l].n; i++) {
			double x = m[l].lo[i] > 0 ? sqrt(m[l].lo[i] * m[l].hi[i]) : m[l].hi[i] / 2;

			bucket_name(&dat, m[l].lo[i], m[l].hi[i]);
			strbuf_addf(&dat, " %.6g %.6f %llu %.6g %.6g\n", x,
				    100.0 * (double)m[l].count[i] / (double)m[l].total,
				    (unsigned long long)m[l].count[i], m[l].lo[i], m[l].hi[i]);
			double pct = 100.0 * (double)m[l].count[i] / (double)m[l].total;

			ylo = pct < ylo ? pct : ylo;
			yhi = pct > yhi ? pct : yhi;
			ny++;
			xmin = x < xmin ? x : xmin;
			xmax = x > xmax ? x : xmax;
		}
		names[blocks] = c->labels[l].label;
		titles[blocks] = xasprintf("%s (%llu %s)", c->labels[l].label,
					   (unsigned long long)m[l].total, k->periods);
		blocks++;
	}
	if (!blocks)
		goto out;   /* no label stalled here: nothing to draw */
	wslug = plot_slug(w->name);
	pslug = plot_slug(k->pair);
	sslug = plot_slug(k->step);
	want = xasprintf("%s-reclaim-latency-%s-%s", wslug, pslug, sslug);
	base = unique_base(set, want);
	title = xasprintf("%s %s: %s %s", w->name, k->step, k->pair, k->histogram);
	gp_header(&gp, base, set->format, c->labels, nl);
	if (set->format == PLOT_TXT) {
		double x[16];
		size_t nx = 0;
		struct plot_txt_fig f;

		for (double d = 1; d <= xmax * 10 && nx < 16; d *= 10)
			if (d >= xmin / 10)
				x[nx++] = d;
		memset(&f, 0, sizeof(f));
		f.base = base;
		f.title = title;
		ylabel = xasprintf("%% of %s", k->periods);
		f.ylabel = ylabel;
		f.xlabel = strcmp(k->periods, "stalls") ? "period (us, log)" : "stall (us, log)";
		f.sweep = f.log2 = f.from_zero = true;
		f.x = x;
		f.nx = nx;
		/* the y range of the shares drawn (plot_gp_yrange), not an empty [0:1] */
		f.ny = ny;
		f.ylo = ylo;
		f.yhi = yhi;
		f.labels = (const char *const *)titles;
		f.nlabels = blocks;
		plot_txt_render(&gp, &f);
	} else {
		size_t idx = 0;

		strbuf_addstr(&gp, "set title ");
		plot_gp_quote(&gp, title);
		strbuf_addf(&gp, " font \",14\"\nset xlabel '%s (us, log scale; buckets of 2^(1/8))'\n"
			    "set ylabel ", strcmp(k->periods, "stalls") ? "period" : "stall");
		ylabel = xasprintf("%% of the label's %s", k->periods);
		plot_gp_quote(&gp, ylabel);
		strbuf_addstr(&gp, "\nset logscale x 10\nset yrange [0:*]\n"
			      "set key top right\nset grid xtics ytics lc rgb \"#dddddd\"\n"
			      "set border 3\nset tics nomirror\nplot ");
		for (size_t l = 0; l < nl; l++) {
			if (!m[l].total)
				continue;
			strbuf_addf(&gp, "%s\"%s.dat\" index %zu using 2:3 with linespoints lw 2 pt 7 ps 0.6 "
				    "lc rgb \"#%06x\" title ", idx ? ", \\\n     " : "", base, idx, line_rgb(l));
			plot_gp_quote(&gp, titles[idx]);
			idx++;
		}
		strbuf_addstr(&gp, "\n");
	}
	ret = write_pair(outdir, base, &dat, &gp);
	if (!ret) {
		char *table = xasprintf("%s %s", k->pair, k->histogram);
		char *cap = xasprintf("%s %s: %s %s histogram (profile = reclaim), labels overlaid",
				      w->name, k->step, k->pair, k->histogram);

		add_figure(set, base, w->name, table, "reclaim-latency", cap);
		base = NULL;
		free(table);
		free(cap);
	}
out:
	(void)names;
	for (size_t l = 0; l < nl; l++)
		free(titles[l]);
	free(titles);
	free(names);
	free(m);
	free(wslug);
	free(pslug);
	free(sslug);
	free(want);
	free(base);
	free(title);
	free(ylabel);
	strbuf_release(&dat);
	strbuf_release(&gp);
	return ret;
}

int plot_reclaim_figures(const struct comparison *c, const struct cmp_workload *w,
			 const char *outdir, struct plot_set *set)
{
	struct key *keys = NULL;
	size_t nk = 0, cap = 0;
	int ret = 0;

	/* every (step, pair) of any label, in first-seen order */
	for (size_t l = 0; l < c->nlabels; l++) {
		const struct wl_result *wr = label_result_find(&c->labels[l], w->name);

		for (size_t i = 0; wr && wr->details && i < json_object_array_length(wr->details); i++) {
			const char *step;
			json_object *ops = rl_ops(json_object_array_get_idx(wr->details, i), &step);

			for (size_t j = 0; ops && j < json_object_array_length(ops); j++) {
				json_object *op = json_object_array_get_idx(ops, j);
				const char *name = op_name(op);
				size_t k;

				if (!name)
					continue;
				for (k = 0; k < nk; k++)
					if (!strcmp(keys[k].step, step) && !strcmp(keys[k].pair, name))
						break;
				if (k < nk)
					continue;
				ALLOC_GROW(keys, nk + 1, cap);
				keys[nk].step = xstrdup(step);
				keys[nk].histogram = word_of(op, "histogram", "stall latency");
				keys[nk].periods = word_of(op, "periods", "stalls");
				keys[nk++].pair = xstrdup(name);
			}
		}
	}
	for (size_t k = 0; k < nk && !ret; k++)
		ret = one_figure(c, w, &keys[k], outdir, set);
	for (size_t k = 0; k < nk; k++) {
		free(keys[k].step);
		free(keys[k].pair);
		free(keys[k].histogram);
		free(keys[k].periods);
	}
	free(keys);
	return ret;
}
