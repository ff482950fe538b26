// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What compare notes under a table beyond the samples themselves: this
 * machine's noise floor (compare/noise_floor.h) and, for runs with
 * iterations = auto, why each op stopped and after how many rounds its
 * change against the run's --baseline (or VM mode's kernel A) was decided.
 * Only cells that have such facts get them, so a comparison without them
 * prints exactly what it printed before.
 */
#include <math.h>
#include <string.h>
#include "compare/model.h"
#include "compare/noise_floor.h"
#include "core/noise_file.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static bool is_text(json_object *o, const char *s)
{
	return o && json_object_is_type(o, json_type_string) && !strcmp(json_object_get_string(o), s);
}

/* the op's record in its label's results (results.h, "adaptive") */
static json_object *op_record(const struct label_result *l, const char *workload, const char *table,
			      const char *op)
{
	const struct wl_result *r = label_result_find(l, workload);

	for (size_t i = 0; r && r->adaptive && i < json_object_array_length(r->adaptive); i++) {
		json_object *e = json_object_array_get_idx(r->adaptive, i);
		if (is_text(get(e, "table"), table) && is_text(get(e, "op"), op))
			return e;
	}
	return NULL;
}

static void add_record(struct cmp_cell *cell, json_object *rec)
{
	json_object *st = get(rec, "stopped"), *n;

	if (!st || !json_object_is_type(st, json_type_string))
		return;
	cell->stopped = json_object_get_string(st);
	if (!get(rec, "change_ci"))
		return;
	/* VM mode counts boots of both kernels, a run --baseline its iterations */
	n = get(rec, "rounds") ? get(rec, "rounds") : get(rec, "iterations");
	if (n && json_object_is_type(n, json_type_int) && json_object_get_int(n) > 0)
		cell->rounds = (size_t)json_object_get_int(n);
}

static double number(json_object *o, double dflt)
{
	return o && (json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int))
	       ? json_object_get_double(o) : dflt;
}

/* the name of the folder a path ends in */
static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

/* Is this comparison's baseline the one the run was held against? The
 * run's --baseline folder (run.json "baseline") names the label, VM mode's
 * kernel A is the first label; and the baseline has the samples it had. */
static bool same_baseline(const struct comparison *c, size_t l, json_object *seq,
			  const struct cmp_cell *base)
{
	json_object *b = get(c->labels[l].run, "baseline");
	const char *name = b && json_object_is_type(b, json_type_string) ? json_object_get_string(b) : NULL;

	if (number(get(seq, "baseline_n"), -1) != (double)base->n)
		return false;
	if (get(c->labels[l].run, "vm"))
		return true;
	return name && !strcmp(base_name(name), base_name(c->labels[0].dir ? c->labels[0].dir
									   : c->labels[0].label));
}

/* Did label l's run of this workload stop its steps by the sequential
 * design (a record with "sequential" in any table)? */
static bool stopped_sequentially(const struct comparison *c, size_t l, const struct cmp_workload *wl)
{
	for (size_t t = 0; t < wl->ntables; t++)
		for (size_t o = 0; o < wl->tables[t].nops; o++)
			if (get(op_record(&c->labels[l], wl->name, wl->tables[t].title,
					  wl->tables[t].ops[o].op), "sequential"))
				return true;
	return false;
}

/* the spread between runs the record's interval held (a results file's
 * numbers: anything out of range is "not measured") */
static void seq_between(struct cmp_cell *cell, json_object *seq)
{
	double b = number(get(seq, "between_runs_pct"), -1), r = number(get(seq, "between_runs"), 0);

	cell->seq_between = 0;
	cell->seq_between_runs = 0;
	if (b >= 0 && b <= NOISE_PCT_MAX && r >= 2 && r <= NOISE_RUNS_MAX && r == floor(r)) {
		cell->seq_between = b;
		cell->seq_between_runs = (size_t)r;
	}
}

void cmp_sequential(struct comparison *c)
{
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];

		/* the other tables of a sequentially stopped step: their samples
		 * were gathered under the same optional stopping, so the
		 * fixed-sample t-test does not apply to them either: no star */
		for (size_t l = 1; l < c->nlabels; l++) {
			if (!stopped_sequentially(c, l, wl))
				continue;
			for (size_t t = 0; t < wl->ntables; t++)
				for (size_t o = 0; o < wl->tables[t].nops; o++) {
					struct cmp_cell *cell = &wl->tables[t].ops[o].cells[l];
					json_object *rec = op_record(&c->labels[l], wl->name,
								     wl->tables[t].title,
								     wl->tables[t].ops[o].op);

					if (rec && !get(rec, "sequential") && cell->compared &&
					    !wl->tables[t].explains)
						cell->mm.significant = false;
				}
		}
		for (size_t t = 0; t < wl->ntables; t++) {
			const struct cmp_table *tb = &wl->tables[t];

			for (size_t o = 0; o < tb->nops; o++) {
				struct cmp_cell *cells = tb->ops[o].cells;

				for (size_t l = 1; l < c->nlabels; l++) {
					json_object *rec = op_record(&c->labels[l], wl->name, tb->title,
								     tb->ops[o].op);
					json_object *seq = get(rec, "sequential");
					struct cmp_cell *cell = &cells[l];

					if (!seq || !cell->compared)
						continue;
					add_record(cell, rec);
					cell->sequential = true;
					cell->seq_vm = get(rec, "rounds") != NULL;
					cell->seq_alpha = number(get(seq, "alpha"), 0.05);
					cell->seq_goal = number(get(seq, "goal"), 0);
					seq_between(cell, seq);
					cell->seq_applies = same_baseline(c, l, seq, &cells[0]);
					/* the star is the sequential verdict, or none */
					cell->mm.significant = cell->seq_applies && cell->stopped &&
							       !strcmp(cell->stopped, "decided");
				}
			}
		}
	}
}

void cmp_sequential_text(const struct cmp_cell *cell, struct strbuf *out)
{
	const char *st = cell->stopped ? cell->stopped : "";
	const char *unit = cell->seq_vm ? "round" : "iteration";
	size_t n = cell->rounds ? cell->rounds : cell->n;

	if (!strcmp(st, "decided"))
		strbuf_addstr(out, "decided");
	else if (!strcmp(st, "reached") && cell->seq_goal > 0)
		strbuf_addf(out, "equivalent within ±%g%%", cell->seq_goal);
	else if (!strcmp(st, "reached"))
		strbuf_addstr(out, "equivalent within the goal");
	else
		strbuf_addstr(out, "not decided");
	strbuf_addf(out, " after %zu %s%s (sequential, alpha %g%%", n, unit, n == 1 ? "" : "s",
		    100 * cell->seq_alpha);
	/* what the alpha covers: with the spread between runs measured, runs
	 * of one kernel; without it, these two runs (issue 23) */
	if (!cell->seq_vm && cell->seq_between_runs)
		strbuf_addf(out, "; spread between runs %.2f%% from %zu runs", cell->seq_between,
			    cell->seq_between_runs);
	else if (!cell->seq_vm)
		strbuf_addstr(out, "; spread between runs not measured");
	if (strcmp(st, "decided") && strcmp(st, "reached"))
		strbuf_addf(out, "; %s", st);
	if (!cell->seq_applies)
		strbuf_addstr(out, "; held against another baseline: no star, the fixed-sample "
			      "t-test does not apply after optional stopping");
	strbuf_addstr(out, ")");
}

void comparison_add_notes(struct comparison *c, json_object *noise)
{
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];

		for (size_t t = 0; t < wl->ntables; t++) {
			const struct cmp_table *tb = &wl->tables[t];

			for (size_t o = 0; o < tb->nops; o++) {
				struct cmp_cell *cells = tb->ops[o].cells;
				double spread, bias, between = 0, bdf = 0;
				size_t runs = 0;
				bool known = noise && cells[0].present &&
					     noise_file_floor(noise, c->labels[0].run, wl->name, tb->title,
							      tb->ops[o].op, &spread, &bias);

				/* labels are separate runs: their levels differ by
				 * the spread between runs where noise --runs measured it */
				if (known && !noise_file_between(noise, c->labels[0].run, wl->name,
								 tb->title, tb->ops[o].op, &between,
								 &runs, &bdf))
					bdf = 0;

				for (size_t l = 0; l < c->nlabels; l++) {
					json_object *rec = op_record(&c->labels[l], wl->name, tb->title,
								     tb->ops[o].op);

					if (rec)
						add_record(&cells[l], rec);
					if (known && l && cells[l].compared) {
						double f = noise_floor_runs(spread, bias, between, bdf,
									    cells[0].n, cells[l].n);

						cells[l].noise_ok = isfinite(f);
						cells[l].noise_floor = f;
					}
				}
			}
		}
	}
}
