// SPDX-License-Identifier: GPL-2.0-or-later
/* Flame graphs: folded stacks to a tree, the tree to SVG (flamegraph.h). */
#include "compare/flamegraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/plot.h"
#include "compare/plot_gp.h"
#include "core/escape.h"

#define WIDTH 1200.0
#define PAD 10.0
#define FRAME_H 16.0
#define TOP 52.0           /* title and subtitle */
#define MIN_PX 0.3         /* narrower boxes are not drawn */
#define CHAR_PX 6.6        /* a character of the 11px sans-serif text */

struct node {
	const char *name;      /* borrowed from the stack strings (NUL-split copies) */
	size_t nlen;
	uint64_t count[2];     /* [0] the graph's, [1] the baseline's (diff) */
	size_t child, next;    /* first child, next sibling; 0: none (0 is the root) */
	unsigned depth;
};

struct tree {
	struct node *v;
	size_t n, cap;
	unsigned depth;
	uint64_t total[2];
};

static size_t child_of(struct tree *t, size_t parent, const char *name, size_t len)
{
	size_t k;

	for (k = t->v[parent].child; k; k = t->v[k].next)
		if (t->v[k].nlen == len && !memcmp(t->v[k].name, name, len))
			return k;
	ALLOC_GROW(t->v, t->n + 1, t->cap);
	k = t->n++;
	t->v[k] = (struct node){ name, len, { 0, 0 }, 0, 0, t->v[parent].depth + 1 };
	if (!t->v[parent].child) {
		t->v[parent].child = k;
	} else {
		size_t s = t->v[parent].child;

		while (t->v[s].next)
			s = t->v[s].next;
		t->v[s].next = k;
	}
	if (t->v[k].depth > t->depth)
		t->depth = t->v[k].depth;
	return k;
}

static void tree_add(struct tree *t, const struct folded *f, int side)
{
	t->total[side] += f->total;
	t->v[0].count[side] += f->total;
	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->s[i].stack;
		size_t at = 0;

		while (*p) {
			size_t len = strcspn(p, ";");

			at = child_of(t, at, p, len);
			t->v[at].count[side] += f->s[i].count;
			p += len + (p[len] == ';');
		}
	}
}

static unsigned hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static bool is_kernel(const struct node *nd)
{
	return nd->nlen > 4 && !memcmp(nd->name + nd->nlen - 4, "_[k]", 4);
}

/* The fill of a box: warm colours (kernel orange, user yellow) varied by
 * name; in a differential graph red for a share that grew, blue for one
 * that shrank, white for none. */
static void fill(const struct tree *t, const struct node *nd, bool diff, double maxd, char *out,
		 size_t len)
{
	if (diff) {
		double a = t->total[1] ? (double)nd->count[1] / (double)t->total[1] : 0;
		double b = t->total[0] ? (double)nd->count[0] / (double)t->total[0] : 0;
		double x = maxd > 0 ? (b - a) / maxd : 0;
		int c = (int)lround(210 * (1 - fmin(fabs(x), 1.0)));
		c = c < 0 ? 0 : c > 210 ? 210 : c;

		if (x >= 0)
			snprintf(out, len, "rgb(255,%d,%d)", 45 + c, 45 + c);
		else
			snprintf(out, len, "rgb(%d,%d,255)", 45 + c, 45 + c);
		return;
	}
	{
		unsigned h = hash(nd->name, nd->nlen);

		if (is_kernel(nd))
			snprintf(out, len, "rgb(%u,%u,%u)", 225 + h % 30, 90 + (h >> 8) % 90, 40 + (h >> 16) % 30);
		else
			snprintf(out, len, "rgb(%u,%u,%u)", 200 + h % 40, 180 + (h >> 8) % 60, 50 + (h >> 16) % 40);
	}
}

static void add_name(struct strbuf *out, const struct node *nd, size_t max)
{
	char *s = xstrndup(nd->name, nd->nlen < max ? nd->nlen : max);

	strbuf_add_xml_text(out, s);
	if (nd->nlen > max)
		strbuf_addstr(out, "..");
	free(s);
}

/* The largest change of a frame's share, for the colour scale. */
static double max_change(const struct tree *t)
{
	double m = 0;

	for (size_t i = 1; i < t->n; i++) {
		double a = t->total[1] ? (double)t->v[i].count[1] / (double)t->total[1] : 0;
		double b = t->total[0] ? (double)t->v[i].count[0] / (double)t->total[0] : 0;

		if (fabs(b - a) > m)
			m = fabs(b - a);
	}
	return m;
}

static void draw(const struct tree *t, size_t k, double x, double height, bool diff, double maxd,
		 struct strbuf *out)
{
	const struct node *nd = &t->v[k];
	double w = (WIDTH - 2 * PAD) * (double)nd->count[0] / (double)t->total[0];
	double y = height - PAD - FRAME_H * (nd->depth + 1);
	char rgb[48];

	if (w < MIN_PX)
		return;
	if (k) {
		fill(t, nd, diff, maxd, rgb, sizeof(rgb));
		strbuf_addstr(out, "<g><title>");
		add_name(out, nd, nd->nlen);
		strbuf_addf(out, " (%llu samples, %.2f%%", (unsigned long long)nd->count[0],
			    100.0 * (double)nd->count[0] / (double)t->total[0]);
		if (diff)
			strbuf_addf(out, "; baseline %.2f%%, change %+.2f points",
				    t->total[1] ? 100.0 * (double)nd->count[1] / (double)t->total[1] : 0,
				    100.0 * ((double)nd->count[0] / (double)t->total[0] -
					     (t->total[1] ? (double)nd->count[1] / (double)t->total[1] : 0)));
		strbuf_addf(out, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"%s\" rx=\"2\"/>", x, y, w, FRAME_H - 1, rgb);
		if (w > 3 * CHAR_PX) {
			strbuf_addf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
			add_name(out, nd, (size_t)((w - 6) / CHAR_PX) > 2 ? (size_t)((w - 6) / CHAR_PX) - 2 : 1);
			strbuf_addstr(out, "</text>");
		}
		strbuf_addstr(out, "</g>\n");
	}
	for (size_t c = nd->child; c; c = t->v[c].next) {
		draw(t, c, x, height, diff, maxd, out);
		x += (WIDTH - 2 * PAD) * (double)t->v[c].count[0] / (double)t->total[0];
	}
}

void flamegraph_svg(const struct folded *f, const struct folded *base, const char *title,
		    const char *subtitle, struct strbuf *out)
{
	struct tree t = { 0 };
	double height, maxd = 0;

	ALLOC_GROW(t.v, 1, t.cap);
	t.v[0] = (struct node){ "all", 3, { 0, 0 }, 0, 0, 0 };
	t.n = 1;
	tree_add(&t, f, 0);
	if (base)
		tree_add(&t, base, 1);
	/* the root itself is not drawn: depth 1 is the command */
	height = TOP + FRAME_H * (t.depth + 1) + 2 * PAD;
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
		    "font-size=\"11\">\n<title>", WIDTH, height, WIDTH, height);
	strbuf_add_xml_text(out, title);
	strbuf_addf(out, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
		    "<text x=\"%.0f\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">", WIDTH / 2);
	strbuf_add_xml_text(out, title);
	strbuf_addf(out, "</text>\n<text x=\"%.0f\" y=\"38\" text-anchor=\"middle\">", WIDTH / 2);
	strbuf_add_xml_text(out, subtitle);
	strbuf_addstr(out, "</text>\n");
	if (!t.total[0]) {
		strbuf_addf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no samples</text>\n",
			    WIDTH / 2, TOP + 10);
	} else {
		if (base)
			maxd = max_change(&t);
		draw(&t, 0, PAD, height, base != NULL, maxd, out);
	}
	strbuf_addstr(out, "</svg>\n");
	free(t.v);
}

/* ---- the figures of a comparison ---- */

static const char *jstr(json_object *o, const char *k)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A relative path inside the label folder, nothing that climbs out of it. */
static bool inside(const char *rel)
{
	if (!*rel || rel[0] == '/')
		return false;
	for (const char *p = rel; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

/* The folded stacks of op's passes in label l, summed: 1 found, 0 none,
 * -1 refused (error printed). */
static int load_op(const struct label_result *lr, const char *wl, const char *op, struct folded *out)
{
	const struct wl_result *r = label_result_find(lr, wl);
	size_t n = r && r->details && json_object_is_type(r->details, json_type_array)
		   ? json_object_array_length(r->details) : 0;
	int found = 0;

	folded_init(out);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(r->details, i), *p;
		const char *step = jstr(e, "step"), *rel;
		struct strbuf err = STRBUF_INIT;
		struct folded f;
		char *path;

		if (!step || strcmp(step, op) || !json_object_object_get_ex(e, "profile", &p) ||
		    !(rel = jstr(p, "folded")))
			continue;
		if (!inside(rel)) {
			strbuf_add_inert(&err, rel);
			error("%s/%s.json: the folded stacks of %s are not inside the label's folder: %s",
			      lr->dir, wl, op, err.buf);
			strbuf_release(&err);
			folded_release(out);
			return -1;
		}
		path = xasprintf("%s/%s", lr->dir, rel);
		if (!path_exists(path)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add_inert(&sb, path);
			warning("no flame graph of %s %s from %s: %s is missing", wl, op, lr->label, sb.buf);
			strbuf_release(&sb);
			free(path);
			continue;
		}
		if (folded_read(path, &f, &err)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add_inert(&sb, err.buf);
			error("%s", sb.buf);
			strbuf_release(&sb);
			strbuf_release(&err);
			free(path);
			folded_release(out);
			return -1;
		}
		for (size_t s = 0; s < f.n; s++)
			folded_add(out, f.s[s].stack, f.s[s].count);
		/* the left-out samples still count in the shares */
		out->total += f.left_out;
		out->left_out += f.left_out;
		folded_release(&f);
		strbuf_release(&err);
		free(path);
		found = 1;
	}
	return found;
}

static int write_svg(const char *outdir, const char *name, const struct strbuf *sb)
{
	return write_text(outdir, name, sb);
}

int flamegraph_figures(const struct comparison *c, const struct cmp_workload *w, const char *outdir)
{
	const struct wl_result *r0 = NULL;
	struct strmap seen = STRMAP_INIT;
	int ret = 0;

	/* the ops, in the order of the first label that profiled them */
	for (size_t l = 0; l < c->nlabels && !ret; l++) {
		size_t n;

		r0 = label_result_find(&c->labels[l], w->name);
		n = r0 && r0->details && json_object_is_type(r0->details, json_type_array)
		    ? json_object_array_length(r0->details) : 0;
		for (size_t i = 0; i < n && !ret; i++) {
			json_object *e = json_object_array_get_idx(r0->details, i), *p;
			const char *op = jstr(e, "step");
			struct folded *f;
			char *wslug, *oslug, *bslug;
			size_t k;

			if (!op || !json_object_object_get_ex(e, "profile", &p) || !jstr(p, "folded") ||
			    strmap_get(&seen, op, &k))
				continue;
			strmap_put(&seen, op, 0);
			f = xcalloc(c->nlabels, sizeof(*f));
			wslug = plot_slug(w->name);
			oslug = plot_slug(op);
			bslug = plot_slug(c->labels[0].label);
			for (size_t m = 0; m < c->nlabels && !ret; m++) {
				struct strbuf sb = STRBUF_INIT, title = STRBUF_INIT, sub = STRBUF_INIT;
				char *lslug, *name;
				int got = load_op(&c->labels[m], w->name, op, &f[m]);

				if (got < 0)
					ret = -1;
				if (got <= 0)
					continue;
				lslug = plot_slug(c->labels[m].label);
				strbuf_addf(&title, "%s %s: %s", w->name, op, c->labels[m].label);
				strbuf_addf(&sub, "CPU flame graph: perf record -g of the untimed profile pass, "
					    "%llu samples; width: share of the samples", (unsigned long long)f[m].total);
				flamegraph_svg(&f[m], NULL, title.buf, sub.buf, &sb);
				name = xasprintf("%s-%s-%s-flamegraph.svg", wslug, oslug, lslug);
				ret = write_svg(outdir, name, &sb);
				free(name);
				if (!ret && m > 0 && f[0].total) {
					strbuf_reset(&sb);
					strbuf_reset(&title);
					strbuf_reset(&sub);
					strbuf_addf(&title, "%s %s: %s against %s", w->name, op, c->labels[m].label,
						    c->labels[0].label);
					strbuf_addf(&sub, "width: share of %s's samples; red: its share grew, blue: "
						    "shrank (deepest: the largest change); frames only %s has are "
						    "not drawn", c->labels[m].label, c->labels[0].label);
					flamegraph_svg(&f[m], &f[0], title.buf, sub.buf, &sb);
					name = xasprintf("%s-%s-%s-vs-%s-flamegraph-diff.svg", wslug, oslug, lslug, bslug);
					ret = write_svg(outdir, name, &sb);
					free(name);
				}
				free(lslug);
				strbuf_release(&sb);
				strbuf_release(&title);
				strbuf_release(&sub);
			}
			for (size_t m = 0; m < c->nlabels; m++)
				folded_release(&f[m]);
			free(f);
			free(wslug);
			free(oslug);
			free(bslug);
		}
	}
	strmap_release(&seen);
	return ret;
}
