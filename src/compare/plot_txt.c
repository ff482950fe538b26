// SPDX-License-Identifier: GPL-2.0-or-later
/* Figures in characters for a plain-text mail (plot_txt.h). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "compare/email.h"
#include "compare/plot_txt.h"

/* A figure file is 72x20 characters; anything much larger is not ours. */
#define TXT_MAX (256 * 1024)

void plot_txt_render(struct strbuf *sb, const struct plot_txt_fig *f)
{
	strbuf_addstr(sb, "set title ");
	plot_gp_quote(sb, f->title);
	strbuf_addstr(sb, "\nset ylabel ");
	plot_gp_quote(sb, f->ylabel);
	strbuf_addstr(sb, "\nset xlabel ");
	plot_gp_quote(sb, f->xlabel);
	/* one label per line under the plot: a mail reader matches the letter */
	strbuf_addstr(sb, "\nset key outside below vertical Left reverse noautotitle\n"
		      "set border 3\nset tics nomirror\n"
		      "set offsets graph 0.04, graph 0.04, graph 0.08, graph 0.08\n");
	plot_gp_yrange(sb, f->ny, f->ylo, f->yhi, f->from_zero);
	if (f->log2 && f->nx)
		strbuf_addf(sb, "set logscale x 2\nset xrange [%g:%g]\n", f->x[0] / 1.2,
			    f->x[f->nx - 1] * 1.2);
	else if (f->nx)
		strbuf_addf(sb, "set xrange [%g:%g]\n", f->x[0] - 0.5, f->x[f->nx - 1] + 0.5);
	strbuf_addstr(sb, "set xtics (");
	for (size_t i = 0; i < f->nx; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		if (f->xtic && f->xtic[i])
			plot_gp_quote(sb, f->xtic[i]);
		else
			strbuf_addf(sb, "'%g'", f->x[i]);
		strbuf_addf(sb, " %g", f->x[i]);
	}
	strbuf_addstr(sb, ")\n# label k: line type k (the dumb terminal's k-th character), "
		      "point k (letter k);\n# categories nudged apart so that no letter hides "
		      "another\nplot ");
	for (size_t l = 0; l < f->nlabels; l++) {
		double nudge = f->sweep ? 0 : ((double)l - (double)(f->nlabels - 1) / 2) * 0.12;
		char *title = xasprintf(" %s", f->labels[l]);   /* a blank after the sample */

		strbuf_addf(sb, "%s'%s.dat' index %zu using ($2+(%g)):3 with %s lt %zu pt %zu title ",
			    l ? ", \\\n     " : "", f->base, l, nudge,
			    f->sweep ? "linespoints" : "points", l + 1, l + 1);
		plot_gp_quote(sb, title);
		free(title);
	}
	if (!f->nlabels)
		strbuf_addstr(sb, "NaN notitle");
	strbuf_addstr(sb, "\n");
}

void plot_txt_tidy_text(struct strbuf *out, const char *text)
{
	size_t keep = out->len;   /* out's length up to the last line with ink */
	bool ink = false;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), start = out->len;
		char *line = xstrndup(p, n > EMAIL_WIDTH ? EMAIL_WIDTH : n);

		for (char *q = line; *q; q++)
			if (*q == '\f' || *q == '\r')
				*q = ' ';
		email_add_ascii(out, line);
		free(line);
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		if (out->len > start || ink) {   /* blank lines above the figure go */
			strbuf_addstr(out, "\n");
			ink = true;
			if (out->len > start + 1)
				keep = out->len;
		}
		p += n + (p[n] == '\n');
	}
	/* and those below it */
	out->len = keep;
	out->buf[keep] = '\0';
}

int plot_txt_tidy(const char *path)
{
	struct strbuf out = STRBUF_INIT;
	struct stat st;
	size_t len;
	char *text;
	int ret;

	if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > TXT_MAX)
		return error("%s: not a figure gnuplot wrote (missing, not a file or too large)", path);
	text = read_file_str(path, &len);
	if (!text)
		return error_errno("cannot read %s", path);
	strbuf_init(&out);
	plot_txt_tidy_text(&out, text);
	ret = write_file_atomic(path, out.buf, out.len);
	free(text);
	strbuf_release(&out);
	return ret;
}

int plot_txt_tidy_set(const struct plot_set *set, const char *outdir)
{
	for (size_t i = 0; i < set->n; i++) {
		char *path = xasprintf("%s/%s.txt", outdir, set->figs[i].base);
		int r = plot_txt_tidy(path);

		free(path);
		if (r)
			return -1;
	}
	return 0;
}
