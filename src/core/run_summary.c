// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End-of-run summary, hyperfine-like: mean ± σ, CoeffVar, min … max, n per
 * op, with the same statistics compare uses (Hmean when higher is better,
 * Amean where the workload says statistic = amean: stats_mean_better), and
 * advice when the spread is large.
 */
#include "core/run_summary.h"

#include <stdlib.h>
#include <string.h>
#include "compare/stats.h"

/* The tables that explain the ones above (CPU split, reclaim rates, lock
 * contention, fairness), one line each: the mean per op. */
static void summary_explaining(const struct wl_result *res, FILE *out)
{
	size_t prefix = strlen(res->workload), w = 0;
	bool any = false;

	for (size_t t = 0; t < res->ntables; t++)
		if (res->tables[t].explains && strlen(res->tables[t].title) > w)
			w = strlen(res->tables[t].title);
	for (size_t t = 0; t < res->ntables; t++) {
		const struct result_table *tb = &res->tables[t];
		const char *title = tb->title;

		if (!tb->explains)
			continue;
		if (!any)
			fprintf(out, "\nwhere the time went (mean per op; all samples in %s.json, "
				"'lrubench compare' tests them):\n", res->workload);
		any = true;
		if (!strncmp(title, res->workload, prefix) && title[prefix] == ' ')
			title += prefix + 1;
		fprintf(out, "  %-*s", (int)(w - prefix), title);
		for (size_t o = 0; o < tb->nops; o++) {
			struct stats st;

			stats_compute(tb->ops[o].v, tb->ops[o].n, &st);
			fprintf(out, "  %s %.2f", tb->ops[o].op, stats_mean(&st, tb->better));
		}
		fprintf(out, "  (%s)\n", tb->unit);
	}
}

char *run_summary_capture(struct wl_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!ctx->ops->print_summary)
		return NULL;
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	ctx->ops->print_summary(ctx, f);
	if (fclose(f) || !len) {
		free(text);
		return NULL;
	}
	return text;
}

/* iterations = auto: " ±1.8% reached" from the op's record (results.h) */
static void adaptive_suffix(const struct wl_result *res, const char *table, const char *op,
			    FILE *out)
{
	for (size_t i = 0; res->adaptive && i < json_object_array_length(res->adaptive); i++) {
		json_object *e = json_object_array_get_idx(res->adaptive, i), *t, *o, *p, *st;

		if (!json_object_object_get_ex(e, "table", &t) || strcmp(json_object_get_string(t), table) ||
		    !json_object_object_get_ex(e, "op", &o) || strcmp(json_object_get_string(o), op))
			continue;
		json_object_object_get_ex(e, "precision", &p);
		json_object_object_get_ex(e, "stopped", &st);
		if (p)
			fprintf(out, "  ±%.1f%%", json_object_get_double(p));
		else
			fprintf(out, "  ± ?");
		fprintf(out, " %s", st ? json_object_get_string(st) : "?");
		return;
	}
}

void run_summary_print(const struct wl_result *res, const char *statistic, const char *extra,
		       FILE *out)
{
	bool noisy = false;

	if (lb_quiet)
		return;
	for (size_t t = 0; t < res->ntables; t++) {
		const struct result_table *tb = &res->tables[t];
		int better = stats_mean_better(tb->better, tb->explains, statistic);
		size_t w = 2;

		if (tb->explains)
			continue;   /* summed up below, one line each */
		for (size_t o = 0; o < tb->nops; o++)
			if (strlen(tb->ops[o].op) > w)
				w = strlen(tb->ops[o].op);
		fprintf(out, "\n%s (%s, %s is better)\n", tb->title, tb->unit,
			tb->better == BETTER_HIGHER ? "higher" : "lower");
		for (size_t o = 0; o < tb->nops; o++) {
			const struct op_samples *op = &tb->ops[o];
			struct stats st;

			stats_compute(op->v, op->n, &st);
			fprintf(out, "  %-*s  %s %12.2f ± %9.2f  CoeffVar %6.2f%%  min %.2f … max %.2f  n=%zu",
				(int)w, op->op, stats_mean_name(better),
				stats_mean(&st, better), st.stddev_ok ? st.stddev : 0.0, st.coeffvar,
				st.min, st.max, st.n);
			adaptive_suffix(res, tb->title, op->op, out);
			fputc('\n', out);
			if (st.coeffvar > 10 && st.n > 1)
				noisy = true;
		}
	}
	if (noisy)
		fprintf(out, "  note: CoeffVar above 10%% somewhere: more iterations (-i N, or -i auto), a longer runtime or "
			     "a quieter machine make a comparison more telling\n");
	summary_explaining(res, out);
	if (extra)
		fputs(extra, out);
}
