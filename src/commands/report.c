// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench report [-f text|html] [-o FILE|DIR] [--baseline LABEL|DIR]
 *                 [--names A,B,...] [--no-figures] DIR...
 *
 * text: one plain-text block for a cover letter: the machine and the
 * kernels (run.json), what was run, compare's email tables and an ASCII
 * figure per throughput table (a table where higher is better), with
 * profile = reclaim a workload's first reclaim latency histogram and, with
 * the monitors, the levels over time of the level tables that changed
 * significantly (at most LETTER_LEVEL_FIGURES), all in 72 columns of ASCII. The figures are `plot --format txt` figures, made in a
 * temporary folder that is removed on every exit path.
 * html: the same parts as one self-contained page for a browser
 * (compare/html.h), DIR/index.html, with every figure plot makes as an
 * embedded SVG, compare's JSON and a copy of each label's results files
 * beside it; staged and renamed into DIR at the end (compare/plot_stage.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands/commands.h"
#include "compare/load.h"
#include "compare/email.h"
#include "compare/html.h"
#include "compare/letter.h"
#include "compare/model.h"
#include "compare/plot.h"
#include "compare/plot_stage.h"
#include "core/cleanup.h"
#include "core/escape.h"
#include "core/parse_options.h"
#include "core/results.h"
#include "core/tmpdir.h"
#include "compare/labels.h"
#include "compare/trend.h"

/* The largest figure text read back: 72x20 characters is 1.5 KB. */
#define FIGURE_MAX (64 * 1024)
/* The level figures a letter carries at most (of the ops whose level
 * tables changed significantly; compare/plot.h): a letter is for what changed. */
#define LETTER_LEVEL_FIGURES 2
/* The largest SVG read back: gnuplot's figure of 100 ops x 10 labels is
 * about 200 KB. */
#define SVG_MAX (16 << 20)

static const char *output, *baseline, *names, *format, *trend_dir;
static bool no_figures;

static const struct popt report_opts[] = {
	POPT_STRING('f', "format", &format, "FMT",
		    "text (default) or html (a page in -o DIR)"),
	POPT_STRING('o', "output", &output, "FILE|DIR",
		    "write to FILE (stdout); -f html: folder DIR"),
	POPT_STRING(0, "baseline", &baseline, "LABEL|DIR",
		    "the label to compare against (first started)"),
	POPT_STRING(0, "names", &names, "A,B,...", "pick and order labels"),
	POPT_STRING(0, "trend", &trend_dir, "DIR",
		    "-f html: the series of all labels in DIR"),
	POPT_BOOL(0, "no-figures", &no_figures, "leave out the figures (no gnuplot needed)"),
	POPT_END(),
};

const struct popt_command report_command = {
	"report", "DIR...",
	"Write the results of two or more labels as one plain-text block for a cover\n"
	"letter (72 columns of ASCII): the machine and kernels, what was run, what\n"
	"differs, compare's email tables and an ASCII figure per throughput table.\n"
	"With -f html: the same as one self-contained page (DIR/index.html) with\n"
	"every table, its figures and links to the results' JSON.\n"
	"See lrubench-report(1).",
	report_opts,
};

/* The figure of a table for the letter: its sweep, else its bars. */
static const struct plot_figure *pick_figure(const struct plot_set *set, const char *workload,
					     const char *table)
{
	const struct plot_figure *bars = NULL;

	for (size_t i = 0; i < set->n; i++) {
		const struct plot_figure *f = &set->figs[i];

		if (strcmp(f->workload, workload) || strcmp(f->table, table))
			continue;
		if (!strncmp(f->kind, "scaling", 7))
			return f;
		if (!strcmp(f->kind, "bars") && !bars)
			bars = f;
	}
	return bars;
}

/* plot's figures of c in fmt, drawn by gnuplot in a new temporary folder
 * (remove it with tmpdir_remove, also when this fails). */
static int make_figures(const struct comparison *c, enum plot_format fmt, struct tmpdir *dir,
			struct plot_set *set)
{
	memset(dir, 0, sizeof(*dir));   /* tmpdir_remove of nothing is a no-op */
	memset(set, 0, sizeof(*set));
	if (!plot_have_gnuplot())
		return error("gnuplot is not installed (apt-get install gnuplot-nox); "
			     "use --no-figures for a report without figures");
	if (tmpdir_create(dir, NULL, "lrubench-report.", NULL))
		return -1;
	if (plot_write_figures(c, dir->path, fmt, set) || plot_run_gnuplot(set, dir->path))
		return -1;
	return 0;
}

/* A file gnuplot made in our own folder, still bounded; NULL with a message. */
static char *read_figure(const char *dir, const struct plot_figure *f, enum plot_format fmt,
			 size_t max, size_t *len)
{
	char *path = xasprintf("%s/%s.%s", dir, f->base, plot_format_ext(fmt));
	char *text = NULL;
	struct stat st;

	if (lstat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max ||
	    !(text = read_file_str(path, len)))
		error("gnuplot left no figure %s", path);
	free(path);
	return text;
}

static int add_figures(const struct comparison *c, struct strbuf *out)
{
	struct tmpdir dir;
	struct plot_set set;
	int ret = -1, nfig = 0;

	if (make_figures(c, PLOT_TXT, &dir, &set))
		goto out;
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tab = &c->wls[w].tables[t];
			const struct plot_figure *f;
			char *text, *caption;
			size_t len;

			if (tab->better <= 0 || !(f = pick_figure(&set, c->wls[w].name, tab->title)))
				continue;
			if (!(text = read_figure(dir.path, f, PLOT_TXT, FIGURE_MAX, &len)))
				goto out;
			caption = xasprintf("Figure %d: %s, %s per kernel (higher is better)", ++nfig,
					    tab->title, cmp_row_name(ROW_MEAN, tab->better));
			strbuf_addstr(out, "\n");
			letter_figure(out, caption, text);
			free(caption);
			free(text);
		}
	/* profile = reclaim: a workload's first stall histogram (its first step and
	 * pair with stalls), the one figure of the explaining tables in a letter */
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t i = 0; i < set.n; i++) {
			const struct plot_figure *f = &set.figs[i];
			char *text, *caption;
			size_t len;

			if (strcmp(f->kind, "reclaim-latency") || strcmp(f->workload, c->wls[w].name))
				continue;
			if (!(text = read_figure(dir.path, f, PLOT_TXT, FIGURE_MAX, &len)))
				goto out;
			caption = xasprintf("Figure %d: %s", ++nfig, f->caption);
			strbuf_addstr(out, "\n");
			letter_figure(out, caption, text);
			free(caption);
			free(text);
			break;
		}
	/* the monitors: the levels over time of what changed significantly */
	{
		const struct plot_figure *lv[LETTER_LEVEL_FIGURES];
		size_t all = plot_level_figures_changed(c, &set, lv, LETTER_LEVEL_FIGURES);

		for (size_t i = 0; i < all && i < LETTER_LEVEL_FIGURES; i++) {
			char *text, *caption;
			size_t len;

			if (!(text = read_figure(dir.path, lv[i], PLOT_TXT, FIGURE_MAX, &len)))
				goto out;
			caption = xasprintf("Figure %d: %s (a level that changed significantly)", ++nfig,
					    lv[i]->caption);
			strbuf_addstr(out, "\n");
			letter_figure(out, caption, text);
			free(caption);
			free(text);
		}
		if (all > LETTER_LEVEL_FIGURES) {
			size_t n = all - LETTER_LEVEL_FIGURES;
			char *more = xasprintf("(%zu more level figure%s of ops that changed significantly "
					       "left out; lrubench plot draws %s.)", n, n == 1 ? "" : "s",
					       n == 1 ? "it" : "them");

			strbuf_addstr(out, "\n");
			email_add_wrapped(out, "", "", more);
			free(more);
		}
	}
	ret = 0;
out:
	plot_set_release(&set);
	tmpdir_remove(&dir);
	return ret;
}

/* "label-2-6.8.0-patched-": the prefix of a label's copied results files
 * in the page's folder (the number keeps ARCHIVE:LABEL and LABEL apart). */
static char *raw_prefix(const struct comparison *c, size_t l)
{
	char *slug = plot_slug(c->labels[l].label);
	char *p = xasprintf("label-%zu-%s-", l + 1, slug);

	free(slug);
	return p;
}

/* A file name of ours as a link: only [A-Za-z0-9._-] as they are. */
static void add_href(struct strbuf *out, const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("._-", *p))
			strbuf_add(out, p, 1);
		else
			strbuf_addf(out, "%%%02X", *p);
}

/*
 * Copy label l's run.json and results files (the *.json the loader read,
 * results.c label_result_load) into dir as PREFIX<name>, and list them as
 * links in out. Other people's files: regular files only, no symlink,
 * bounded as results are.
 */
static int copy_raw(const struct comparison *c, size_t l, const char *dir, struct strbuf *out)
{
	const struct label_result *lr = &c->labels[l];
	char *prefix = raw_prefix(c, l);
	struct strbuf err = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(lr->dir);
	int ret = -1;
	bool first = true;

	strbuf_init(&err);
	if (!d) {
		error_errno("cannot read folder %s", lr->dir);
		goto out;
	}
	strbuf_addstr(out, "<li>");
	strbuf_add_html_text(out, lr->label);
	strbuf_addstr(out, ":");
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), len;
		char *from, *to, *data;

		if (n < 6 || strcmp(de->d_name + n - 5, ".json") || de->d_name[0] == '.')
			continue;
		from = xasprintf("%s/%s", lr->dir, de->d_name);
		to = xasprintf("%s/%s%s", dir, prefix, de->d_name);
		data = read_regular_file(from, RESULTS_FILE_MAX, READ_NOFOLLOW, &len, &err);
		free(from);
		if (!data || write_file_atomic(to, data, len)) {
			if (!data)
				error("%s", strbuf_str(&err));
			free(data);
			free(to);
			closedir(d);
			goto out;
		}
		free(data);
		free(to);
		strbuf_addf(out, "%s <a href=\"", first ? "" : ",");
		add_href(out, prefix);
		add_href(out, de->d_name);
		strbuf_addstr(out, "\">");
		strbuf_add_html_text(out, de->d_name);
		strbuf_addstr(out, "</a>");
		first = false;
	}
	closedir(d);
	strbuf_addstr(out, "</li>\n");
	ret = 0;
out:
	strbuf_release(&err);
	free(prefix);
	return ret;
}

/* Every figure plot makes, as data: URIs of its SVG for the page. */
static int html_figures(const struct comparison *c, struct html_figure **figs, size_t *nfigs)
{
	struct tmpdir dir;
	struct plot_set set;
	int ret = -1;

	*figs = NULL;
	*nfigs = 0;
	if (make_figures(c, PLOT_SVG, &dir, &set))
		goto out;
	*figs = xcalloc(set.n ? set.n : 1, sizeof(**figs));
	for (size_t i = 0; i < set.n; i++) {
		const struct plot_figure *f = &set.figs[i];
		struct html_figure *hf = &(*figs)[*nfigs];
		struct strbuf uri = STRBUF_INIT;
		size_t len;
		char *svg = read_figure(dir.path, f, PLOT_SVG, SVG_MAX, &len);

		if (!svg)
			goto out;
		strbuf_init(&uri);
		html_data_uri(&uri, "image/svg+xml", svg, len);
		free(svg);
		hf->workload = xstrdup(f->workload);
		hf->table = xstrdup(f->table);
		hf->caption = xstrdup(f->caption ? f->caption : f->base);
		hf->uri = strbuf_detach(&uri);
		(*nfigs)++;
	}
	ret = 0;
out:
	plot_set_release(&set);
	tmpdir_remove(&dir);
	return ret;
}

static void html_figures_release(struct html_figure *figs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)figs[i].workload);
		free((char *)figs[i].table);
		free((char *)figs[i].caption);
		free((char *)figs[i].uri);
	}
	free(figs);
}

/*
 * The page's Trend section: lrubench trend of every label in dir (a nightly
 * job's results folder), its text folded, its figure as an SVG. Returns an
 * exit code.
 */
static int add_trend(const char *dir, struct strbuf *page)
{
	struct label_result *labels = NULL;
	size_t nlabels = 0, len;
	struct comparison t;
	struct trend_params p = { .window = TREND_WINDOW, .threshold = TREND_THRESHOLD };
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct tmpdir tmp = { .path = "" };
	struct plot_set set = { 0 };
	char *dirs[] = { (char *)dir }, *svg = NULL;
	int ret = LB_EXIT_FAIL;

	strbuf_init(&err);
	strbuf_init(&text);
	if (comparison_load(dirs, 1, &(struct comparison_load_opts){ .alpha = 0.10,
			    .needs_two = "a trend needs two or more" },
			    &labels, &nlabels, &t, &err)) {
		error("--trend %s: %s", dir, strbuf_str(&err));
		labels_release(labels, nlabels);
		strbuf_release(&err);
		strbuf_release(&text);
		return lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_USAGE;
	}
	html_section(page, "trend", "Trend");
	strbuf_addf(page, "<p>The %zu labels of the series in time order (lrubench-trend(1): a "
		    "change is a step of the median of a sliding window beyond %g robust standard "
		    "deviations).</p>\n", nlabels, p.threshold);
	if (!no_figures) {
		ALLOC_GROW(set.figs, 1, set.cap);
		memset(&set.figs[0], 0, sizeof(set.figs[0]));
		set.figs[0].base = xstrdup("trend");
		set.n = 1;
		set.format = PLOT_SVG;
		if (tmpdir_create(&tmp, NULL, "lrubench-report.", NULL) ||
		    trend_write_figure(&t, &p, tmp.path, "trend", PLOT_SVG) ||
		    plot_run_gnuplot(&set, tmp.path) ||
		    !(svg = read_figure(tmp.path, &set.figs[0], PLOT_SVG, SVG_MAX, &len)))
			goto out;
		strbuf_reset(&text);
		html_data_uri(&text, "image/svg+xml", svg, len);
		html_add_figure(page, &(struct html_figure){
			.caption = "The mean row of each op over the labels, changes circled",
			.uri = text.buf });
	}
	strbuf_reset(&text);
	report_trend(&t, &p, &text);
	strbuf_addstr(page, "<details class=\"trend\">\n<summary>The series as text "
		       "(lrubench trend)</summary>\n");
	html_pre(page, text.buf);
	strbuf_addstr(page, "</details>\n");
	ret = LB_EXIT_OK;
out:
	free(svg);
	plot_set_release(&set);
	tmpdir_remove(&tmp);
	comparison_release(&t);
	labels_release(labels, nlabels);
	strbuf_release(&err);
	strbuf_release(&text);
	return ret;
}

/*
 * The page and what it links to, made in a staging folder inside outdir
 * and renamed into it at the end: index.html, compare.json (compare -f json
 * of the same labels), each label's results files. Returns an exit code.
 */
static int write_html(const struct comparison *c, const char *outdir)
{
	struct html_figure *figs = NULL;
	size_t nfigs = 0;
	struct plot_stage stage = { 0 };
	struct strbuf page = STRBUF_INIT, sb = STRBUF_INIT;
	char *path;
	int ret = LB_EXIT_FAIL;
	char when[32];

	strbuf_init(&page);
	strbuf_init(&sb);
	if (!no_figures && html_figures(c, &figs, &nfigs)) {
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED
		      : plot_have_gnuplot() ? LB_EXIT_FAIL : LB_EXIT_UNSUPPORTED;
		goto out;
	}
	if (mkdir_p(outdir, 0755)) {
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (access(outdir, W_OK)) {
		error_errno("cannot write to %s", outdir);
		ret = LB_EXIT_USAGE;
		goto out;
	}
	if (plot_stage_open(&stage, outdir))
		goto out;
	html_title(c, &sb);
	html_page_begin(&page, sb.buf);
	strbuf_addstr(&page, "<p>Machine, kernels, what was run, what differs; each table with its "
		       "figures, the kernel's log under it and the tables that explain it folded "
		       "below; the results' JSON at the end.</p>\n");
	html_section(&page, "machine", "Machine");
	strbuf_reset(&sb);
	letter_machine(c, &sb);
	html_pre(&page, sb.buf);
	html_section(&page, "run", "What was run");
	strbuf_reset(&sb);
	letter_run(c, &sb);
	html_pre(&page, sb.buf);
	html_section(&page, "results", "Results");
	html_comparison(c, &(struct html_figures){ figs, nfigs }, &page);
	if (lb_stop_requested()) {
		ret = LB_EXIT_INTERRUPTED;
		goto out;
	}
	if (trend_dir && (ret = add_trend(trend_dir, &page)) != LB_EXIT_OK)
		goto out;
	ret = LB_EXIT_FAIL;
	html_section(&page, "json", "The results' JSON");
	strbuf_addstr(&page, "<ul class=\"json\">\n<li><a href=\"compare.json\">compare.json</a>: "
		       "every statistic of this comparison (<code>lrubench compare -f json</code>)"
		       "</li>\n");
	for (size_t l = 0; l < c->nlabels; l++)
		if (copy_raw(c, l, stage.dir, &page))
			goto out;
	strbuf_addstr(&page, "</ul>\n");
	format_timestamp(now_realtime(), when, sizeof(when));
	strbuf_addf(&page, "<p class=\"n\">Made by lrubench report at %s.</p>\n", when);
	html_page_end(&page);
	strbuf_reset(&sb);
	report_json(c, -1, &sb);
	path = xasprintf("%s/compare.json", stage.dir);
	if (write_file_atomic(path, sb.buf, sb.len)) {
		free(path);
		goto out;
	}
	free(path);
	path = xasprintf("%s/index.html", stage.dir);
	if (write_file_atomic(path, page.buf, page.len)) {
		free(path);
		goto out;
	}
	free(path);
	if (lb_stop_requested()) {
		error("interrupted: nothing written to %s", outdir);
		ret = LB_EXIT_INTERRUPTED;
		goto out;
	}
	ret = plot_stage_publish(&stage) ? LB_EXIT_FAIL : LB_EXIT_OK;
out:
	plot_stage_abort(&stage);
	html_figures_release(figs, nfigs);
	strbuf_release(&page);
	strbuf_release(&sb);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct label_result *labels = NULL;
	size_t nlabels = 0;
	struct comparison cmp;
	bool have_cmp = false;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	int n, ret = LB_EXIT_USAGE;
	bool html;

	output = baseline = names = format = trend_dir = NULL;
	no_figures = false;
	n = parse_options(&report_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (!n)
		return popt_usage_error(&report_command, "give the results folders of two or more labels");
	if (output && !*output) {
		error("-o: empty file name");
		return LB_EXIT_USAGE;
	}
	if (format && strcmp(format, "text") && strcmp(format, "html")) {
		error("--format '%s': text or html", format);
		return LB_EXIT_USAGE;
	}
	html = format && !strcmp(format, "html");
	if (trend_dir && !html) {
		error("--trend is for -f html (the text report has no trend: see lrubench trend)");
		return LB_EXIT_USAGE;
	}
	if (html && !output) {
		error("--format html writes a page and the JSON it links to into a folder: "
		      "give it with -o DIR");
		return LB_EXIT_USAGE;
	}
	if (comparison_load(argv, (size_t)n,
			    &(struct comparison_load_opts){
				    .names = names, .baseline = baseline, .alpha = 0.10,
				    .needs_two = "a report compares a baseline and at least one more" },
			    &labels, &nlabels, &cmp, &err)) {
		error("%s", strbuf_str(&err));
		goto out;
	}
	have_cmp = true;
	if (html) {
		ret = write_html(&cmp, output);
		goto out;
	}
	letter_section(&out, "Machine");
	letter_machine(&cmp, &out);
	strbuf_addstr(&out, "\n");
	letter_section(&out, "What was run");
	letter_run(&cmp, &out);
	strbuf_addstr(&out, "\n");
	letter_section(&out, "Results");
	report_email(&cmp, &out);
	if (!no_figures && add_figures(&cmp, &out)) {
		ret = lb_stop_requested() ? LB_EXIT_INTERRUPTED
		      : plot_have_gnuplot() ? LB_EXIT_FAIL : LB_EXIT_UNSUPPORTED;
		goto out;
	}
	if (output) {
		if (write_file_atomic(output, out.buf, out.len)) {
			ret = LB_EXIT_FAIL;
			goto out;
		}
	} else if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout)) {
		error_errno("cannot write the report to standard output");
		ret = LB_EXIT_FAIL;
		goto out;
	}
	ret = LB_EXIT_OK;
out:
	if (have_cmp)
		comparison_release(&cmp);
	labels_release(labels, nlabels);
	strbuf_release(&err);
	strbuf_release(&out);
	return ret;
}
