// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench report [-o FILE] [--baseline LABEL|DIR] [--names A,B,...]
 *                 [--no-figures] DIR...
 *
 * One plain-text block for a cover letter: the machine and the kernels
 * (run.json), what was run, compare's email tables and an ASCII figure per
 * throughput table (a table where higher is better), all in 72 columns of
 * ASCII. The figures are `plot --format txt` figures, made in a temporary
 * folder that is removed on every exit path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "commands/commands.h"
#include "compare/load.h"
#include "compare/email.h"
#include "compare/letter.h"
#include "compare/model.h"
#include "compare/plot.h"
#include "core/cleanup.h"
#include "core/parse_options.h"
#include "core/results.h"
#include "core/tmpdir.h"
#include "compare/labels.h"

/* The largest figure text read back: 72x20 characters is 1.5 KB. */
#define FIGURE_MAX (64 * 1024)

static const char *output, *baseline, *names;
static bool no_figures;

static const struct popt report_opts[] = {
	POPT_STRING('o', "output", &output, "FILE", "write the report to FILE (default: stdout)"),
	POPT_STRING(0, "baseline", &baseline, "LABEL|DIR",
		    "the label to compare against (first started)"),
	POPT_STRING(0, "names", &names, "A,B,...", "pick and order labels"),
	POPT_BOOL(0, "no-figures", &no_figures, "leave out the ASCII figures (no gnuplot needed)"),
	POPT_END(),
};

const struct popt_command report_command = {
	"report", "DIR...",
	"Write the results of two or more labels as one plain-text block for a cover\n"
	"letter (72 columns of ASCII): the machine and kernels, what was run, what\n"
	"differs, compare's email tables and an ASCII figure per throughput table.\n"
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

static int add_figures(const struct comparison *c, struct strbuf *out)
{
	struct tmpdir dir;
	struct plot_set set = { 0 };
	int ret = -1, nfig = 0;

	if (!plot_have_gnuplot())
		return error("gnuplot is not installed (apt-get install gnuplot-nox); "
			     "use --no-figures for a report without figures");
	if (tmpdir_create(&dir, NULL, "lrubench-report.", NULL))
		return -1;
	if (plot_write_figures(c, dir.path, PLOT_TXT, &set) || plot_run_gnuplot(&set, dir.path))
		goto out;
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tab = &c->wls[w].tables[t];
			const struct plot_figure *f;
			char *path, *text, *caption;
			struct stat st;
			size_t len;

			if (tab->better <= 0 || !(f = pick_figure(&set, c->wls[w].name, tab->title)))
				continue;
			path = xasprintf("%s/%s.%s", dir.path, f->base, plot_format_ext(PLOT_TXT));
			/* gnuplot's own output in our own folder, still bounded */
			if (lstat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > FIGURE_MAX ||
			    !(text = read_file_str(path, &len))) {
				error("gnuplot left no figure %s", path);
				free(path);
				goto out;
			}
			caption = xasprintf("Figure %d: %s, %s per kernel (higher is better)", ++nfig,
					    tab->title, cmp_row_name(ROW_MEAN, tab->better));
			strbuf_addstr(out, "\n");
			letter_figure(out, caption, text);
			free(caption);
			free(text);
			free(path);
		}
	ret = 0;
out:
	plot_set_release(&set);
	tmpdir_remove(&dir);
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

	output = baseline = names = NULL;
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
	if (comparison_load(argv, (size_t)n,
			    &(struct comparison_load_opts){
				    .names = names, .baseline = baseline, .alpha = 0.10,
				    .needs_two = "a report compares a baseline and at least one more" },
			    &labels, &nlabels, &cmp, &err)) {
		error("%s", strbuf_str(&err));
		goto out;
	}
	have_cmp = true;
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
