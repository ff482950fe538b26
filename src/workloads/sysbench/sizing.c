// SPDX-License-Identifier: GPL-2.0-or-later
/* The sysbench workload's sizing rules (sizing.h says which and why). */
#include "workloads/sysbench/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/config.h"
#include "workloads/sysbench/driver.h"

#define MIB (1ULL << 20)

static void size_text(uint64_t v, char *buf, size_t len)
{
	format_size(v, buf, len);
}

/* ---- mmtests' curve ---- */

struct pt {
	double x, y;
};

static int pt_cmp(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

unsigned long long sb_mmtests_curve_count(uint64_t shared_buffers, uint64_t effective_cache_size,
					  uint64_t memtotal, uint64_t workload_size)
{
	/* sysbench-bench, read-only: CEILING 400000, FLOOR 1000, WEIGHT_MAINMEMORY 2,
	 * WEIGHT_DISK 80, in the shell's integer arithmetic */
	const double C = 400000, floor_count = 1000;
	struct pt p[7] = {
		{ 0, C / 2 },
		{ (double)shared_buffers, C },
		{ (double)effective_cache_size, C / 2 * 3 / 2 },
		{ (double)memtotal, C / 2 },
		{ (double)(memtotal * 4 / 3), C / 2 / 2 },
		{ (double)(memtotal * 2), C / 80 },
		{ (double)(memtotal * 8), C / 80 * 2 },
	};
	double h[7], M[7] = { 0 }, diag[7], rhs[7];
	size_t n = 0;
	double x0, x1, step, y = -1;

	/* gnuplot's smooth: sorted by x, points of one x merged into their mean */
	qsort(p, 7, sizeof(p[0]), pt_cmp);
	for (size_t i = 0, k; i < 7; i = k) {
		double sum = 0;
		for (k = i; k < 7 && p[k].x == p[i].x; k++)
			sum += p[k].y;
		p[n].x = p[i].x;
		p[n++].y = sum / (double)(k - i);
	}
	if (n < 2 || (double)workload_size > p[n - 1].x)
		return (unsigned long long)floor_count;   /* awk finds no line: FLOOR */
	/* natural cubic spline: the second derivatives M at the points, M = 0 at
	 * both ends, from the tridiagonal system of the inner points (Thomas) */
	for (size_t i = 0; i + 1 < n; i++)
		h[i] = p[i + 1].x - p[i].x;
	for (size_t i = 1; i + 1 < n; i++) {
		diag[i] = 2 * (h[i - 1] + h[i]);
		rhs[i] = 6 * ((p[i + 1].y - p[i].y) / h[i] - (p[i].y - p[i - 1].y) / h[i - 1]);
		if (i > 1) {
			double w = h[i - 1] / diag[i - 1];

			diag[i] -= w * h[i - 1];
			rhs[i] -= w * rhs[i - 1];
		}
	}
	for (size_t i = n - 2; i >= 1 && i + 1 < n; i--)
		M[i] = (rhs[i] - h[i] * M[i + 1]) / diag[i];
	/* gnuplot's samples (100) from the least to the largest x */
	x0 = p[0].x;
	x1 = p[n - 1].x;
	step = (x1 - x0) / 99;
	for (int s = 0, l = 0; s < 100; s++) {
		double x = x0 + s * step, t, b;
		char g[32];

		while (l < (int)n - 2 && x >= p[l + 1].x)
			l++;
		/* the table holds x as %g: the awk compares that with WORKLOAD_SIZE */
		snprintf(g, sizeof(g), "%g", x);
		if (strtod(g, NULL) < (double)workload_size)
			continue;
		t = x - p[l].x;
		b = (p[l + 1].y - p[l].y) / h[l] - h[l] * (2 * M[l] + M[l + 1]) / 6;
		y = p[l].y + t * (b + t * (M[l] / 2 + t * (M[l + 1] - M[l]) / (6 * h[l])));
		/* ... and y as %g, of which perl takes the integer part */
		snprintf(g, sizeof(g), "%g", y);
		y = strtod(g, NULL);
		break;
	}
	if (y < floor_count)
		return (unsigned long long)floor_count;
	return (unsigned long long)y;
}

/* ---- the rules ---- */

static uint64_t whole_mib(uint64_t v)
{
	return v / MIB * MIB;
}

enum wl_status sb_size(const struct sb_size_in *in, struct sb_sizing *out, struct strbuf *err)
{
	bool any_auto = in->workload_size == LB_SIZE_AUTO || in->shared_buffers == LB_SIZE_AUTO ||
			in->effective_cache_size == LB_SIZE_AUTO;
	char a[32], b[32], c[32];

	memset(out, 0, sizeof(*out));
	out->machine_mem = in->machine_mem;
	out->mem_available = in->mem_available;
	out->tables = in->tables;
	/* the memory the run may use: the server's limit, else the node's memory */
	if (in->memcg_limit && (!in->node_mem || in->memcg_limit < in->node_mem)) {
		out->memory = in->memcg_limit;
		snprintf(out->memory_from, sizeof(out->memory_from), "memcg_limit");
	} else {
		out->memory = in->node_mem;
		if (in->node_name)
			snprintf(out->memory_from, sizeof(out->memory_from), "%s MemTotal", in->node_name);
		else
			snprintf(out->memory_from, sizeof(out->memory_from), "MemTotal");
	}
	if (any_auto && !out->memory) {
		strbuf_addf(err, "sysbench: the auto sizes cannot run here: the memory of %s is not "
			    "known (set workload_size, shared_buffers and effective_cache_size)",
			    in->node_name ? "the NUMA node" : "this machine");
		return WL_UNSUPPORTED;
	}

	if (in->workload_size == LB_SIZE_AUTO) {
		out->workload_auto = true;
		out->workload_size = whole_mib(out->memory / 4 * 3);
		if (out->workload_size < SB_MIN_WORKLOAD) {
			size_text(out->memory, a, sizeof(a));
			strbuf_addf(err, "sysbench.workload_size = auto: 3/4 of %s %s is below the 1M "
				    "minimum; raise sysbench.memcg_limit or set sysbench.workload_size",
				    out->memory_from, a);
			return WL_BAD_CONFIG;
		}
		/* the posted run's tables stayed cached: they must fit in what is free now */
		if (in->mem_available && out->workload_size > in->mem_available) {
			size_text(out->memory, a, sizeof(a));
			size_text(out->workload_size, b, sizeof(b));
			size_text(in->mem_available, c, sizeof(c));
			strbuf_addf(err, "sysbench.workload_size = auto cannot run here: 3/4 of %s %s is "
				    "%s of tables, more than MemAvailable %s, so they would not stay "
				    "cached as in the posted run (free memory, or set "
				    "sysbench.workload_size)", out->memory_from, a, b, c);
			return WL_UNSUPPORTED;
		}
	} else {
		out->workload_size = in->workload_size;
		if (in->node_mem && out->workload_size > in->node_mem) {
			size_text(out->workload_size, a, sizeof(a));
			size_text(in->node_mem, b, sizeof(b));
			strbuf_addf(err, "sysbench.workload_size: %s is bigger than the memory of %s "
				    "(%s): it cannot run here", a, in->node_name ? "the NUMA node" :
				    "this machine", b);
			return WL_UNSUPPORTED;
		}
	}
	out->table_rows = sb_table_rows(out->workload_size, in->tables);
	if (!out->table_rows) {
		size_text(out->workload_size, a, sizeof(a));
		strbuf_addf(err, "sysbench.workload_size: %s is too small for %llu tables "
			    "(about 4,500 rows per MB)", a, in->tables);
		return WL_BAD_CONFIG;
	}

	out->shared_buffers_auto = in->shared_buffers == LB_SIZE_AUTO;
	out->shared_buffers = out->shared_buffers_auto ? whole_mib(out->memory / 4) : in->shared_buffers;
	out->effective_cache_size_auto = in->effective_cache_size == LB_SIZE_AUTO;
	out->effective_cache_size = out->effective_cache_size_auto ? whole_mib(out->memory / 2) :
				    in->effective_cache_size;

	out->events_auto = in->events == LB_AUTO;
	out->events = out->events_auto ? SB_AUTO_EVENTS : in->events;
	if (in->machine_mem) {
		out->posted_text = whole_mib(in->machine_mem / 8 * 3);
		out->mmtests_curve = sb_mmtests_curve_count(out->shared_buffers, out->effective_cache_size,
							    in->machine_mem, out->workload_size);
	}
	return WL_OK;
}

/* ---- records ---- */

#define RULE_MEMORY "posted 000-18: mmtests' oltp-ro-medium fractions halved for one node of two: " \
		    "tables 3/4, shared_buffers 1/4, effective_cache_size 1/2 of the memory the run " \
		    "may use"
#define RULE_EVENTS "mmtests SYSBENCH_MAX_TRANSACTIONS=auto as it ran: the computed count is " \
		    "never passed to sysbench, whose 0.4.12 default --max-requests=10000 applied"

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

static json_object *sized(uint64_t v, bool is_auto, const char *rule)
{
	json_object *o = json_object_new_object();

	add_u64(o, "bytes", v);
	json_object_object_add(o, "rule", json_object_new_string(is_auto ? rule : "as configured"));
	return o;
}

json_object *sb_sizing_json(const struct sb_sizing *s)
{
	json_object *o = json_object_new_object(), *e;

	json_object_object_add(o, "rule", json_object_new_string(RULE_MEMORY));
	add_u64(o, "memory", s->memory);
	json_object_object_add(o, "memory_from", json_object_new_string(s->memory_from));
	add_u64(o, "machine_mem_total", s->machine_mem);
	add_u64(o, "mem_available", s->mem_available);
	json_object_object_add(o, "workload_size", sized(s->workload_size, s->workload_auto,
							 "3/4 x memory, whole MiB"));
	add_u64(o, "tables", s->tables);
	add_u64(o, "rows_per_table", s->table_rows);
	json_object_object_add(o, "shared_buffers", sized(s->shared_buffers, s->shared_buffers_auto,
							  "1/4 x memory, whole MiB"));
	json_object_object_add(o, "effective_cache_size",
			       sized(s->effective_cache_size, s->effective_cache_size_auto,
				     "1/2 x memory, whole MiB"));
	e = json_object_new_object();
	add_u64(e, "count", s->events);
	json_object_object_add(e, "rule", json_object_new_string(
		s->events_auto ? RULE_EVENTS : s->events ? "as configured" : "none: runs of a fixed time"));
	if (s->mmtests_curve)
		add_u64(e, "mmtests_curve", s->mmtests_curve);
	json_object_object_add(o, "events", e);
	if (s->posted_text)
		add_u64(o, "posted_text_here", s->posted_text);
	return o;
}

void sb_sizing_describe(const struct sb_sizing *s, const char *indent, struct strbuf *out)
{
	char m[32], w[32], sb[32], ec[32], pt[32];

	size_text(s->memory, m, sizeof(m));
	size_text(s->workload_size, w, sizeof(w));
	size_text(s->shared_buffers, sb, sizeof(sb));
	size_text(s->effective_cache_size, ec, sizeof(ec));
	strbuf_addf(out, "%smemory the run may use: %s %s\n", indent, s->memory_from, m);
	strbuf_addf(out, "%sworkload_size = %s%s: %llu table%s x %llu rows\n", indent, w,
		    s->workload_auto ? " (auto: 3/4 x memory)" : "", s->tables,
		    s->tables == 1 ? "" : "s", s->table_rows);
	strbuf_addf(out, "%sshared_buffers = %s%s, effective_cache_size = %s%s\n", indent, sb,
		    s->shared_buffers_auto ? " (auto: 1/4)" : "", ec,
		    s->effective_cache_size_auto ? " (auto: 1/2)" : "");
	if (s->events_auto)
		strbuf_addf(out, "%sevents = auto: %llu transactions a run (mmtests' auto as it ran: "
			    "sysbench 0.4.12's default; mmtests' curve gives %llu here, never passed)\n",
			    indent, s->events, s->mmtests_curve);
	else if (s->events)
		strbuf_addf(out, "%sevents = %llu transactions a run\n", indent, s->events);
	if (s->posted_text && s->posted_text != s->workload_size && s->workload_auto) {
		size_text(s->posted_text, pt, sizeof(pt));
		strbuf_addf(out, "%s(the posted line MEMTOTAL_BYTES*3/8 would be %s here: it was 3/4 of "
			    "the posted run's node)\n", indent, pt);
	}
}
