// SPDX-License-Identifier: GPL-2.0-or-later
/* One bisect step's decision (see bisect.h). */
#include "compare/bisect.h"

#include <math.h>
#include <string.h>
#include "compare/stats.h"

int bisect_stat_parse(const char *s, enum bisect_stat *out)
{
	static const char *const names[] = { "mean", "amean", "hmean", "gmean" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum bisect_stat)i;
			return 0;
		}
	return -1;
}

enum bisect_stat bisect_stat_resolve(enum bisect_stat s, int better)
{
	if (s != BISECT_MEAN)
		return s;
	return better == BETTER_HIGHER ? BISECT_HMEAN : BISECT_AMEAN;
}

const char *bisect_stat_name(enum bisect_stat s)
{
	switch (s) {
	case BISECT_HMEAN: return "Hmean";
	case BISECT_GMEAN: return "Gmean";
	case BISECT_AMEAN:
	case BISECT_MEAN: break;
	}
	return "Amean";
}

/* The space in which the statistic is an arithmetic mean. */
static double forward(enum bisect_stat s, double x)
{
	return s == BISECT_HMEAN ? 1 / x : s == BISECT_GMEAN ? log(x) : x;
}

static double inverse(enum bisect_stat s, double y)
{
	return s == BISECT_HMEAN ? 1 / y : s == BISECT_GMEAN ? exp(y) : y;
}

double bisect_stat_value(enum bisect_stat s, const double *x, size_t n, bool *ok)
{
	double sum = 0;

	*ok = n > 0;
	for (size_t i = 0; i < n; i++) {
		if (s != BISECT_AMEAN && !(x[i] > 0)) {
			*ok = false;
			return 0;
		}
		sum += forward(s, x[i]);
	}
	return *ok ? inverse(s, sum / (double)n) : 0;
}

/* Tables having op: the measured ones (explaining=false), or the tables
 * that explain them (true). */
static size_t find_in(const struct label_result *l, const char *table, const char *op, bool explaining,
		      const struct result_table **t, const struct op_samples **os, struct strbuf *where)
{
	size_t found = 0;

	for (size_t w = 0; w < l->nwls; w++)
		for (size_t i = 0; i < l->wls[w].ntables; i++) {
			const struct result_table *rt = &l->wls[w].tables[i];
			const struct op_samples *o = result_table_find_op(rt, op);

			if (!o || (table && strcmp(rt->title, table)) || (!table && rt->explains != explaining))
				continue;
			strbuf_addf(where, "%s'%s' (%s)", found ? ", " : "", rt->title, l->wls[w].workload);
			if (!found++) {
				*t = rt;
				*os = o;
			}
		}
	return found;
}

int bisect_find_op(const struct label_result *l, const char *table, const char *op,
		   const struct result_table **t, const struct op_samples **os, struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT;
	size_t found;

	*t = NULL;
	*os = NULL;
	/* an op of a workload's own tables, before the tables that explain them
	 * (CPU split, reclaim, locks), which repeat its op names */
	found = find_in(l, table, op, false, t, os, &where);
	if (!found && !table)
		found = find_in(l, table, op, true, t, os, &where);
	if (found == 1) {
		strbuf_release(&where);
		return 0;
	}
	if (!found)
		strbuf_addf(err, "%s: no op '%s'%s%s%s", l->dir, op, table ? " in a table '" : "",
			    table ? table : "", table ? "'" : "");
	else
		strbuf_addf(err, "%s: op '%s' is in %zu tables: %s; pick one with --table TITLE", l->dir,
			    op, found, where.buf);
	strbuf_release(&where);
	return -1;
}

void bisect_decide(enum bisect_stat s, double good, double bad, const double *x, size_t n,
		   double alpha, struct bisect_verdict *v)
{
	double m = (good + bad) / 2, mt = forward(s, m), sum = 0, ss = 0, mean, sd;
	bool ok;

	memset(v, 0, sizeof(*v));
	v->midpoint = m;
	v->n = n;
	v->p = 1;
	v->side = BISECT_UNDECIDED;
	v->value = bisect_stat_value(s, x, n, &ok);
	if (!ok || n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		sum += forward(s, x[i]);
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (forward(s, x[i]) - mean) * (forward(s, x[i]) - mean);
	sd = sqrt(ss / (double)(n - 1));
	if (sd == 0) {
		/* identical samples: exactly where they are */
		v->t = mean == mt ? 0 : mean > mt ? INFINITY : -INFINITY;
		v->p = mean == mt ? 1 : 0;
	} else {
		v->t = (mean - mt) / (sd / sqrt((double)n));
		v->p = stats_t_pvalue(v->t, (double)(n - 1));
	}
	if (!(v->p < alpha))
		return;
	/* the good side is where good is: compare in the statistic's own units */
	v->side = (v->value > m) == (good > m) ? BISECT_GOOD : BISECT_BAD;
}
