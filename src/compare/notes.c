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

void comparison_add_notes(struct comparison *c, json_object *noise)
{
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];

		for (size_t t = 0; t < wl->ntables; t++) {
			const struct cmp_table *tb = &wl->tables[t];

			for (size_t o = 0; o < tb->nops; o++) {
				struct cmp_cell *cells = tb->ops[o].cells;
				double spread, bias;
				bool known = noise && cells[0].present &&
					     noise_floor_find(noise, c->labels[0].run, wl->name, tb->title,
							      tb->ops[o].op, &spread, &bias);

				for (size_t l = 0; l < c->nlabels; l++) {
					json_object *rec = op_record(&c->labels[l], wl->name, tb->title,
								     tb->ops[o].op);

					if (rec)
						add_record(&cells[l], rec);
					if (known && l && cells[l].compared) {
						double f = noise_floor_at(spread, bias, cells[0].n, cells[l].n);

						cells[l].noise_ok = isfinite(f);
						cells[l].noise_floor = f;
					}
				}
			}
		}
	}
}
