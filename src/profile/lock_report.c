// SPDX-License-Identifier: GPL-2.0-or-later
/* A profiled iteration's lock contention (lock_report.h). */
#include "profile/lock_report.h"

#include <stdlib.h>
#include <string.h>
#include "core/util.h"

struct lock_entry *lock_report_add(struct lock_report *r, const char *name, const char *function,
				   const char *type, unsigned long long contended, double wait_total_ns,
				   double wait_max_ns, bool lru)
{
	struct lock_entry *e;

	ALLOC_GROW(r->e, r->n + 1, r->cap);
	e = &r->e[r->n++];
	e->name = xstrdup(name);
	e->function = xstrdup(function);
	e->type = xstrdup(type);
	e->contended = contended;
	e->wait_total_ns = wait_total_ns;
	e->wait_max_ns = wait_max_ns;
	e->lru = lru;
	e->taker = NULL;
	return e;
}

static void entry_free(struct lock_entry *e)
{
	free(e->name);
	free(e->function);
	free(e->type);
	free(e->taker);
}

static int by_wait(const void *a, const void *b)
{
	const struct lock_entry *x = a, *y = b;
	double wx = x->wait_total_ns >= 0 ? x->wait_total_ns : 0;
	double wy = y->wait_total_ns >= 0 ? y->wait_total_ns : 0;

	if (wx != wy)
		return wx < wy ? 1 : -1;
	if (x->contended != y->contended)
		return x->contended < y->contended ? 1 : -1;
	return strcmp(x->function, y->function);
}

void lock_report_merge(struct lock_report *r)
{
	size_t out = 0;

	for (size_t i = 0; i < r->n; i++) {
		struct lock_entry *e = &r->e[i];
		size_t j;

		for (j = 0; j < out; j++)
			if (!strcmp(r->e[j].function, e->function) && !strcmp(r->e[j].type, e->type) &&
			    !strcmp(r->e[j].taker ? r->e[j].taker : "", e->taker ? e->taker : ""))
				break;
		if (j == out) {
			if (out != i) {
				r->e[out] = *e;
				/* the entry moved: the source is now a hole, not freed twice */
				memset(e, 0, sizeof(*e));
			}
			/* the merged row is named by its function, not one call site */
			free(r->e[out].name);
			r->e[out].name = xstrdup(r->e[out].function);
			out++;
			continue;
		}
		r->e[j].contended += e->contended;
		if (e->wait_total_ns >= 0)
			r->e[j].wait_total_ns = (r->e[j].wait_total_ns >= 0 ? r->e[j].wait_total_ns : 0) +
						e->wait_total_ns;
		if (e->wait_max_ns > r->e[j].wait_max_ns)
			r->e[j].wait_max_ns = e->wait_max_ns;
		r->e[j].lru |= e->lru;
		entry_free(e);
		memset(e, 0, sizeof(*e));
	}
	r->n = out;
	if (r->n > 1)
		qsort(r->e, r->n, sizeof(*r->e), by_wait);
}

void lock_report_lru(const struct lock_report *r, struct lru_lock_summary *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->n; i++) {
		const struct lock_entry *e = &r->e[i];

		if (!e->lru)
			continue;
		s->callers++;
		s->contended += e->contended;
		if (e->wait_total_ns > 0)
			s->wait_total_ms += e->wait_total_ns / 1e6;
		if (e->wait_max_ns / 1e6 > s->wait_max_ms)
			s->wait_max_ms = e->wait_max_ns / 1e6;
	}
}

json_object *lock_report_top_json(const struct lock_report *r, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->n && i < n; i++) {
		const struct lock_entry *e = &r->e[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "caller", json_object_new_string(e->function));
		if (e->taker)
			json_object_object_add(o, "lock_taker", json_object_new_string(e->taker));
		json_object_object_add(o, "type", json_object_new_string(e->type));
		json_object_object_add(o, "contended", json_object_new_int64((int64_t)e->contended));
		if (e->wait_total_ns >= 0) {
			json_object_object_add(o, "wait_total_ms", json_object_new_double(e->wait_total_ns / 1e6));
			if (e->contended)
				json_object_object_add(o, "wait_avg_us",
						       json_object_new_double(e->wait_total_ns / 1e3 /
									      (double)e->contended));
		}
		if (e->wait_max_ns >= 0)
			json_object_object_add(o, "wait_max_ms", json_object_new_double(e->wait_max_ns / 1e6));
		json_object_object_add(o, "lru", json_object_new_boolean(e->lru));
		json_object_array_add(a, o);
	}
	return a;
}

void lock_report_release(struct lock_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		entry_free(&r->e[i]);
	free(r->e);
	r->e = NULL;
	r->n = r->cap = 0;
}
