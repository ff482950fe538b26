// SPDX-License-Identifier: GPL-2.0-or-later
/* VM mode's rounds until decided (iterations = auto); see rounds.h. */
#include "vm/rounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/results.h"
#include "core/workload.h"

const char *vm_verdicts_stopped(const struct vm_verdicts *v)
{
	unsigned kinds = !!v->decided + !!v->reached + !!v->noisy;

	if (v->open)
		return "round cap";
	if (kinds > 1)
		return "mixed";
	return v->noisy ? "too noisy" : v->reached ? "reached" : "decided";
}

void vm_verdicts_describe(const struct vm_verdicts *v, double precision, struct strbuf *out)
{
	const char *s = vm_verdicts_stopped(v);

	if (!strcmp(s, "round cap"))
		strbuf_addstr(out, "not decided");
	else if (!strcmp(s, "reached"))
		strbuf_addf(out, "equivalent within ±%g%%", precision);
	else if (!strcmp(s, "too noisy"))
		strbuf_addstr(out, "too noisy to decide");
	else if (!strcmp(s, "mixed")) {
		const char *sep = "";

		strbuf_addstr(out, "stopped (");
		if (v->decided) {
			strbuf_addf(out, "%u decided", v->decided);
			sep = ", ";
		}
		if (v->reached) {
			strbuf_addf(out, "%s%u equivalent within ±%g%%", sep, v->reached, precision);
			sep = ", ";
		}
		if (v->noisy)
			strbuf_addf(out, "%s%u too noisy", sep, v->noisy);
		strbuf_addstr(out, ")");
	} else
		strbuf_addstr(out, s);
}

unsigned vm_rounds_cap(const struct adaptive_plan *p, unsigned rounds, bool rounds_set)
{
	size_t cap;

	if (rounds_set)
		return rounds;
	cap = (p->max_iterations + p->min_iterations - 1) / p->min_iterations;
	return cap < 2 ? 2 : cap > 100 ? 100 : (unsigned)cap;
}

static json_object *jpct(double v)
{
	return json_object_new_double(round(v * 1000) / 1000);
}

/* written only when the rounds end: an op still open stopped at the cap */
static json_object *op_record(const struct adaptive_plan *p, const char *table, const char *op,
			      const struct adaptive_op *o, unsigned round)
{
	json_object *rec = json_object_new_object();
	const char *stopped = o->state == ADAPTIVE_OP_DECIDED ? "decided"
			    : o->state == ADAPTIVE_OP_REACHED ? "reached"
			    : o->state == ADAPTIVE_OP_NOISY ? "too noisy" : "round cap";

	json_object_object_add(rec, "table", json_object_new_string(table));
	json_object_object_add(rec, "op", json_object_new_string(op));
	json_object_object_add(rec, "iterations", json_object_new_int((int)o->n));
	json_object_object_add(rec, "rounds", json_object_new_int((int)round));
	json_object_object_add(rec, "stopped", json_object_new_string(stopped));
	json_object_object_add(rec, "precision", o->precision_ok ? jpct(o->precision) : NULL);
	json_object_object_add(rec, "decides", json_object_new_boolean(1));
	/* the change's sequential interval and how it was gathered */
	if (o->change_ok)
		adaptive_record_sequential(p, o, rec);
	return rec;
}

/* B's <workload>.json gets its records; the rest of the file stays as it is */
static int write_records(const char *dir_b, const char *workload, json_object *records,
			 struct strbuf *err)
{
	char *path = xasprintf("%s/%s.json", dir_b, workload);
	json_object *o = json_load_file(path, err);
	int ret = -1;

	if (o) {
		json_object_object_add(o, "adaptive", json_object_get(records));
		ret = json_save_file(path, o, err);
		json_object_put(o);
	}
	free(path);
	return ret;
}

int vm_rounds_check(const char *dir_a, const char *dir_b, const struct adaptive_plan *p,
		    unsigned round, unsigned cap, bool write, bool *decided, struct vm_verdicts *v,
		    struct strbuf *err)
{
	struct label_result a, b;
	int ret = 0;

	*decided = true;
	memset(&a, 0, sizeof(a));
	if (dir_a && label_result_load(dir_a, &a, err))
		return -1;
	if (label_result_load(dir_b, &b, err)) {
		label_result_release(&a);
		return -1;
	}
	for (int pass = 0; pass < 2 && !ret; pass++) {
		/* pass 0 decides; pass 1 writes, when the rounds end here */
		if (pass && !write)
			break;
		for (size_t w = 0; w < b.nwls && !ret; w++) {
			const struct wl_result *rb = &b.wls[w], *ra = label_result_find(&a, rb->workload);
			const struct workload_ops *ops = workload_find(rb->workload);
			const struct result_table *tb, *ta;
			json_object *records = json_object_new_array();

			/* the workload's first table decides, as on the host (adaptive.h) */
			tb = ops ? wl_result_find_table(rb, ops->tables[0].title) : NULL;
			ta = tb && ra ? wl_result_find_table(ra, tb->title) : NULL;
			for (size_t i = 0; tb && i < tb->nops; i++) {
				const struct op_samples *base = ta ? result_table_find_op(ta, tb->ops[i].op) : NULL;
				struct adaptive_op o = { 0 };

				o.x = tb->ops[i].v;
				o.n = tb->ops[i].n;
				o.better = tb->better;
				if (base) {
					o.base = base->v;
					o.nbase = base->n;
					/* both kernels grow a round at a time: the
					 * design's looks are the rounds */
					o.round = round;
					o.rounds = cap > round ? cap : round;
				}
				adaptive_op_eval(p, &o);
				if (o.state == ADAPTIVE_OP_OPEN)
					*decided = false;
				if (v && !pass) {
					v->decided += o.state == ADAPTIVE_OP_DECIDED;
					v->reached += o.state == ADAPTIVE_OP_REACHED;
					v->noisy += o.state == ADAPTIVE_OP_NOISY;
					v->open += o.state == ADAPTIVE_OP_OPEN;
				}
				if (pass)
					json_object_array_add(records, op_record(p, tb->title, tb->ops[i].op,
										 &o, round));
			}
			if (pass && tb)
				ret = write_records(dir_b, rb->workload, records, err);
			json_object_put(records);
		}
	}
	label_result_release(&a);
	label_result_release(&b);
	return ret;
}
