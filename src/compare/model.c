// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison model of `lrubench compare`: the union of workloads, tables
 * and ops over all labels (first label's order first, then what the others
 * add), every statistic per (op, label), and the tests against the baseline.
 * Renderers live in report_*.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare/model.h"
#include "compare/symdiff.h"
#include "core/cleanup.h"
#include "core/parallel.h"
#include "core/strlist.h"

const char *cmp_row_name(enum cmp_row row, int better)
{
	bool hi = better > 0 && better != BETTER_HIGHER_AMEAN;   /* the harmonic mean */

	switch (row) {
	case ROW_MIN: return "Min";
	case ROW_MEAN: return stats_mean_name(better);
	case ROW_STDDEV: return "Stddev";
	case ROW_COEFFVAR: return "CoeffVar";
	case ROW_MAX: return "Max";
	case ROW_BMEAN50: return hi ? "BHmean-50" : "BAmean-50";
	case ROW_BMEAN95: return hi ? "BHmean-95" : "BAmean-95";
	case ROW_BMEAN99: return hi ? "BHmean-99" : "BAmean-99";
	default: return "?";
	}
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case VERDICT_NO_CHANGE: return "no significant change";
	case VERDICT_IMPROVEMENT: return "improvement";
	case VERDICT_REGRESSION: return "regression";
	case VERDICT_INSUFFICIENT: return "insufficient data";
	default: return "";
	}
}

void cmp_split_label(const char *label, struct strbuf *first, struct strbuf *second)
{
	const char *dash = strchr(label, '-');

	strbuf_reset(first);
	strbuf_reset(second);
	if (dash && dash[1] == 'r' && dash[2] == 'c' && dash[3] >= '0' && dash[3] <= '9') {
		/* 5.9-rc2-vanilla: "5.9-rc2" / "vanilla" (rc10 too, unlike mmtests' bodge) */
		const char *p = dash + 3;

		while (*p >= '0' && *p <= '9')
			p++;
		dash = *p == '-' ? p : (*p ? strchr(p, '-') : NULL);
	}
	if (!dash) {
		strbuf_addstr(first, label);
		return;
	}
	strbuf_add(first, label, (size_t)(dash - label));
	strbuf_addstr(second, dash + 1);
}

/* t quantiles for integer df (the per-label CIs) are asked for again and again */
static double t975(double df)
{
	static __thread double cache[1024];   /* per thread: no data race */

	if (df >= 1 && df < 1024 && df == floor(df)) {
		size_t i = (size_t)df;
		if (!cache[i])
			cache[i] = stats_t_quantile(0.975, df);
		return cache[i];
	}
	return stats_t_quantile(0.975, df);
}

static void compute_cell(struct cmp_cell *c, int better)
{
	double stackbuf[256], *sorted;
	bool ok;

	stats_compute(c->x, c->n, &c->st);
	c->row[ROW_MIN] = c->st.min;
	c->row_ok[ROW_MIN] = true;
	c->row[ROW_MAX] = c->st.max;
	c->row_ok[ROW_MAX] = true;
	c->row[ROW_MEAN] = stats_mean(&c->st, better);
	c->row_ok[ROW_MEAN] = better > 0 && better != BETTER_HIGHER_AMEAN ? c->st.hmean_ok : true;
	c->row[ROW_STDDEV] = c->st.stddev_ok ? c->st.stddev : 0;
	c->row_ok[ROW_STDDEV] = c->st.stddev_ok;
	/* CoeffVar is defined as 0 when Stddev is not (docs/ARCHITECTURE.md §10) */
	c->row[ROW_COEFFVAR] = c->st.coeffvar;
	c->row_ok[ROW_COEFFVAR] = true;
	/* one sort for the three B?mean rows; small cells sort on the stack */
	if (c->n <= ARRAY_SIZE(stackbuf))
		sorted = stackbuf;
	else
		sorted = xmalloc(c->n * sizeof(*sorted));
	memcpy(sorted, c->x, c->n * sizeof(*sorted));
	stats_sort_best_first(sorted, c->n, better);
	c->row[ROW_BMEAN50] = stats_bmean_sorted(sorted, c->n, 50, better, &ok);
	c->row_ok[ROW_BMEAN50] = ok;
	c->row[ROW_BMEAN95] = stats_bmean_sorted(sorted, c->n, 95, better, &ok);
	c->row_ok[ROW_BMEAN95] = ok;
	c->row[ROW_BMEAN99] = stats_bmean_sorted(sorted, c->n, 99, better, &ok);
	c->row_ok[ROW_BMEAN99] = ok;
	if (sorted != stackbuf)
		free(sorted);
	c->mean_se = stats_mean_se(c->x, c->n, better, &c->mean_ci_ok);
	if (c->mean_ci_ok) {
		double h = t975((double)(c->n - 1)) * c->mean_se;
		c->mean_ci_lo = c->row[ROW_MEAN] - h;
		c->mean_ci_hi = c->row[ROW_MEAN] + h;
	}
}

static void compare_cell(const struct cmp_cell *b, struct cmp_cell *c, int better, double alpha)
{
	double mb = b->row[ROW_MEAN], mn = c->row[ROW_MEAN];

	c->compared = true;
	for (int r = 0; r < NR_ROWS; r++) {
		bool lower = better < 0 || r == ROW_STDDEV || r == ROW_COEFFVAR;

		if (!b->row_ok[r] || !c->row_ok[r])
			c->pct[r] = 0;   /* an undefined cell has no percent: printed 0.00 and noted */
		else
			c->pct[r] = lower ? stats_pndiff(c->row[r], b->row[r])
					  : stats_pdiff(c->row[r], b->row[r]);
	}
	if (b->row_ok[ROW_MEAN] && c->row_ok[ROW_MEAN]) {
		stats_ttest_mmtests(&b->st, &c->st, better, alpha, &c->mm);
	} else {
		memset(&c->mm, 0, sizeof(c->mm));
		c->mm.t = c->mm.p = c->mm.df = NAN;
	}
	/* one sample has no spread: mmtests' SE would be 0 and any difference
	 * "significant" (6 vs 5.9, p = 0). No test below 2 samples a side. */
	c->too_few = b->n < 2 || c->n < 2;
	c->too_few_starred = false;
	if (c->too_few) {
		c->too_few_starred = c->mm.significant;
		memset(&c->mm, 0, sizeof(c->mm));
		c->mm.se = c->mm.t = c->mm.p = c->mm.df = NAN;
	}
	c->welch.t = c->welch.p = c->welch.df = NAN;
	if (!b->mean_ci_ok || !c->mean_ci_ok || mb == 0) {
		c->verdict = VERDICT_INSUFFICIENT;
		return;
	}
	stats_welch_se(mb, b->mean_se, b->n, mn, c->mean_se, c->n, &c->welch);
	stats_change_ci(mb, mn, &c->welch, c->welch.se > 0 ? t975(c->welch.df) : 0, better,
			&c->change_ci_lo, &c->change_ci_hi);
	c->change_ci_ok = true;
	if (c->change_ci_lo > 0)
		c->verdict = VERDICT_IMPROVEMENT;
	else if (c->change_ci_hi < 0)
		c->verdict = VERDICT_REGRESSION;
	else
		c->verdict = VERDICT_NO_CHANGE;
}

/*
 * The statistics of every cell, in parallel: a large comparison has 10^5
 * cells, each independent. Work is handed out in chunks of ops.
 */
#define OPS_PER_CHUNK 512

struct chunk {
	struct cmp_table *t;
	size_t from, to;
};

struct computer {
	struct chunk *chunks;
	size_t nlabels;
	double alpha;
};

static void compute_chunk(void *arg, size_t i)
{
	struct computer *cp = arg;
	struct chunk *ch = &cp->chunks[i];

	if (lb_stop_requested())   /* compare gives up at once (exit 130) */
		return;
	for (size_t oi = ch->from; oi < ch->to; oi++) {
		struct cmp_cell *cells = ch->t->ops[oi].cells;

		for (size_t li = 0; li < cp->nlabels; li++)
			if (cells[li].present)
				compute_cell(&cells[li], ch->t->better);
		if (!cells[0].present)
			continue;
		for (size_t li = 1; li < cp->nlabels; li++) {
			if (!cells[li].present)
				continue;
			compare_cell(&cells[0], &cells[li], ch->t->better, cp->alpha);
			/* one profiled pass per op has no variance to test against:
			 * no star for a profile table with a single sample a side */
			if (ch->t->explains && (cells[0].n < 2 || cells[li].n < 2))
				cells[li].mm.significant = false;
		}
	}
}

static void compute_all(struct comparison *c)
{
	struct computer cp = { NULL, c->nlabels, c->alpha };
	size_t nchunks = 0, cap = 0;

	for (size_t wi = 0; wi < c->nwls; wi++)
		for (size_t ti = 0; ti < c->wls[wi].ntables; ti++) {
			struct cmp_table *t = &c->wls[wi].tables[ti];

			for (size_t from = 0; from < t->nops; from += OPS_PER_CHUNK) {
				ALLOC_GROW(cp.chunks, nchunks + 1, cap);
				cp.chunks[nchunks].t = t;
				cp.chunks[nchunks].from = from;
				cp.chunks[nchunks].to = from + OPS_PER_CHUNK < t->nops ? from + OPS_PER_CHUNK
										: t->nops;
				nchunks++;
			}
		}
	parallel_for(nchunks, compute_chunk, &cp);
	free(cp.chunks);
}

bool cmp_has_explaining(const struct cmp_workload *w)
{
	for (size_t i = 0; i < w->ntables; i++)
		if (w->tables[i].explains)
			return true;
	return false;
}

bool cmp_is_regression(const struct cmp_cell *c, double pct)
{
	return c->compared && !c->too_few && c->mm.significant && c->pct[ROW_MEAN] < 0 &&
	       -c->pct[ROW_MEAN] >= pct;
}

const char *cmp_untested_reason(const struct cmp_cell *b, const struct cmp_cell *c)
{
	if (!c->compared)
		return NULL;
	if (c->too_few)
		return "insufficient data (fewer than 2 samples on a side)";
	if (!b->row_ok[ROW_MEAN] || !c->row_ok[ROW_MEAN])
		return "insufficient data (the mean is undefined: a sample <= 0)";
	return NULL;
}

static const char *better_word(int better)
{
	return better > 0 ? "higher" : "lower";
}

/*
 * config.<workload>.statistic = amean in a label's run.json (the suite says
 * the experiment posted arithmetic means): that workload's throughput tables
 * get the Amean row (docs/ARCHITECTURE.md §8). The first label that says
 * decides; the tables that explain (CPU split, reclaim) keep mmtests' rows.
 */
static void apply_statistic_hints(struct comparison *c, const struct label_result *labels,
				  size_t nlabels)
{
	for (size_t wi = 0; wi < c->nwls; wi++) {
		struct cmp_workload *w = &c->wls[wi];
		const char *said = NULL;

		for (size_t li = 0; li < nlabels && !said; li++) {
			json_object *cfg, *sec, *v;

			if (labels[li].run && json_object_object_get_ex(labels[li].run, "config", &cfg) &&
			    json_object_object_get_ex(cfg, w->name, &sec) &&
			    json_object_object_get_ex(sec, "statistic", &v) &&
			    json_object_is_type(v, json_type_string))
				said = json_object_get_string(v);
		}
		for (size_t ti = 0; ti < w->ntables; ti++)
			w->tables[ti].better = stats_mean_better(w->tables[ti].better,
								 w->tables[ti].explains, said);
	}
}

static int add_table(struct comparison *c, struct cmp_workload *w, size_t li,
		     const struct result_table *rt, struct strbuf *err)
{
	struct cmp_table *t = NULL;
	size_t first = 0;

	for (size_t i = 0; i < w->ntables; i++)
		if (!strcmp(w->tables[i].title, rt->title))
			t = &w->tables[i];
	if (!t) {
		ALLOC_GROW(w->tables, w->ntables + 1, w->cap);
		t = &w->tables[w->ntables++];
		memset(t, 0, sizeof(*t));
		t->title = rt->title;
		t->unit = rt->unit;
		t->better = rt->better;
		t->explains = rt->explains;
		t->has_table = xcalloc(c->nlabels, sizeof(*t->has_table));
	} else {
		while (!t->has_table[first])
			first++;
		if (t->better != rt->better) {
			strbuf_addf(err, "%s: table '%s': better is \"%s\" in %s but \"%s\" in %s",
				    w->name, rt->title, better_word(t->better), c->labels[first].label,
				    better_word(rt->better), c->labels[li].label);
			return -1;
		}
		if (strcmp(t->unit, rt->unit)) {
			strbuf_addf(err, "%s: table '%s': unit is '%s' in %s but '%s' in %s",
				    w->name, rt->title, t->unit, c->labels[first].label, rt->unit,
				    c->labels[li].label);
			return -1;
		}
	}
	t->has_table[li] = true;
	t->explains |= rt->explains;
	/* the first label that declares an x axis gives it (older files have none) */
	if (!t->x_axis && rt->x_known)
		t->x_axis = rt;
	for (size_t j = 0; j < rt->nops; j++) {
		const struct op_samples *os = &rt->ops[j];
		struct cmp_op *op;
		size_t idx;

		if (strmap_get(&t->opmap, os->op, &idx)) {
			op = &t->ops[idx];
		} else {
			ALLOC_GROW(t->ops, t->nops + 1, t->cap);
			op = &t->ops[t->nops];
			op->op = os->op;
			op->cells = xcalloc(c->nlabels, sizeof(*op->cells));
			strmap_put(&t->opmap, os->op, t->nops++);
		}
		/* an op with no samples at all counts as absent */
		op->cells[li].present = os->n > 0;
		op->cells[li].x = os->v;
		op->cells[li].n = os->n;
	}
	return 0;
}

/* ---- what differs between the labels' run.json, besides the kernel ---- */

char *cmp_json_text(json_object *v)
{
	if (!v)
		return xstrdup("(missing)");
	if (json_object_is_type(v, json_type_string))
		return xstrdup(json_object_get_string(v));
	return xstrdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* BOOT_IMAGE= names the kernel, which is what differs on purpose */
static void strip_boot_image(char *s)
{
	char *p = s;

	while ((p = strstr(p, "BOOT_IMAGE="))) {
		char *end = p + strcspn(p, " ");

		if (p != s && p[-1] != ' ') {
			p = end;
			continue;
		}
		while (*end == ' ')
			end++;
		memmove(p, end, strlen(end) + 1);
	}
	for (size_t n = strlen(s); n && s[n - 1] == ' '; n--)
		s[n - 1] = '\0';
}

static json_object *json_path(json_object *o, const char *a, const char *b)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, a, &v))
		return NULL;
	if (b && (!json_object_is_type(v, json_type_object) ||
		  !json_object_object_get_ex(v, b, &v)))
		return NULL;
	return v;
}

/* A label whose guest crashed before `lrubench run` started has no system
 * facts: it takes no part in "what differs" (its failure is a warning). */
static bool label_ran(const struct comparison *c, size_t i)
{
	return json_path(c->labels[i].run, "system", NULL) != NULL;
}

void cmp_add_fact(struct comparison *c, const char *name, char **values, bool kernel)
{
	bool same = true;
	size_t first = c->nlabels;

	for (size_t i = 0; i < c->nlabels; i++) {
		if (!label_ran(c, i)) {
			free(values[i]);
			values[i] = xstrdup("-");
			continue;
		}
		if (first == c->nlabels)
			first = i;
		else if (strcmp(values[i], values[first]))
			same = false;
	}
	if (same) {
		for (size_t i = 0; i < c->nlabels; i++)
			free(values[i]);
		free(values);
		return;
	}
	ALLOC_GROW(c->facts, c->nfacts + 1, c->factcap);
	c->facts[c->nfacts].name = xstrdup(name);
	c->facts[c->nfacts].values = values;
	c->facts[c->nfacts].kernel = kernel;
	c->nfacts++;
}

/* config keys flattened to "section.key", in first-seen order over labels */
static void config_keys(json_object *o, const char *prefix, struct strlist *keys)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v) {
		char *name = prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);

		if (json_object_is_type(v, json_type_object))
			config_keys(v, name, keys);
		else if (!strlist_has(keys, name))
			strlist_push(keys, name);
		free(name);
	}
}

static json_object *config_get(json_object *o, const char *dotted)
{
	char *s = xstrdup(dotted), *p = s, *dot;

	while (o && (dot = strchr(p, '.'))) {
		*dot = 0;
		if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, p, &o))
			o = NULL;
		p = dot + 1;
	}
	if (o && (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, p, &o)))
		o = NULL;
	free(s);
	return o;
}

/* VM mode's failed rounds (run.json vm.failures, vm/vm.c): a guest that
 * panicked, oopsed, locked up or hung is a result, said in one line each. */
static bool vm_failures(struct comparison *c, size_t li)
{
	json_object *f = config_get(c->labels[li].run, "vm.failures");
	size_t n = f && json_object_is_type(f, json_type_array) ? json_object_array_length(f) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(f, i);
		json_object *what = config_get(e, "what"), *round = config_get(e, "round");
		json_object *line = config_get(e, "first_line"), *log = config_get(e, "console_log");
		const char *l = line && json_object_is_type(line, json_type_string) ?
				json_object_get_string(line) : NULL;

		strlist_pushf(&c->warnings, "%s: %s in round %d%s%s%s%s%s", c->labels[li].label,
			      what ? json_object_get_string(what) : "failed",
			      round ? json_object_get_int(round) : 0,
			      l ? " (first line: " : "", l ? l : "", l ? ")" : "",
			      log ? "; console: " : "", log ? json_object_get_string(log) : "");
	}
	if (n && !c->labels[li].nwls)
		strlist_pushf(&c->warnings, "%s has no results: its guest never finished a round",
			      c->labels[li].label);
	else if (n)
		strlist_pushf(&c->warnings, "%s: its numbers are from the rounds before the failure",
			      c->labels[li].label);
	return n > 0;
}

/*
 * [global] profile adds an untimed pass: the timed samples of a profiled and
 * an unprofiled label are comparable, so a difference is a note, not the
 * "configs differ" warning. A label from before the key existed was not
 * profiled.
 */
static void profile_difference(struct comparison *c)
{
	struct strbuf yes = STRBUF_INIT, no = STRBUF_INIT;
	char **vals = xcalloc(c->nlabels, sizeof(*vals));

	for (size_t i = 0; i < c->nlabels; i++) {
		json_object *v = json_path(json_path(c->labels[i].run, "config", NULL), "global", "profile");
		const char *kind = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v)
										 : "none";

		vals[i] = xstrdup(kind);
		if (strcmp(kind, "none"))
			strbuf_addf(&yes, "%s%s (%s)", yes.len ? ", " : "", c->labels[i].label, kind);
		else
			strbuf_addf(&no, "%s%s", no.len ? ", " : "", c->labels[i].label);
	}
	if (yes.len && no.len)
		c->profile_note = xasprintf("profiled: %s; not profiled: %s. Profiling adds an untimed "
					    "pass, so the timed samples of all labels compare; the "
					    "profile tables (lru_lock, spinlock) exist only for the "
					    "profiled labels", yes.buf, no.buf);
	else if (yes.len)
		for (size_t i = 1; i < c->nlabels && !c->profile_note; i++)
			if (strcmp(vals[i], vals[0]))
				c->profile_note = xasprintf("profiled differently: %s; the profile "
							    "tables of each kind exist only where it "
							    "ran", yes.buf);
	for (size_t i = 0; i < c->nlabels; i++)
		free(vals[i]);
	free(vals);
	strbuf_release(&yes);
	strbuf_release(&no);
}

static void find_differences(struct comparison *c)
{
	static const char *const sys[] = {
		"cmdline", "thp_enabled", "thp_defrag", "nr_cpus", "mem_total_kb",
		"numa_nodes", "cgroup_mode",
	};
	struct strlist keys = STRLIST_INIT;
	size_t before;
	char name[256];

	for (size_t f = 0; f < ARRAY_SIZE(sys); f++) {
		char **vals = xcalloc(c->nlabels, sizeof(*vals));

		for (size_t i = 0; i < c->nlabels; i++) {
			vals[i] = cmp_json_text(json_path(c->labels[i].run, "system", sys[f]));
			if (!strcmp(sys[f], "cmdline"))
				strip_boot_image(vals[i]);
		}
		snprintf(name, sizeof(name), "system.%s", sys[f]);
		cmp_add_fact(c, name, vals, false);
	}
	{
		char **vals = xcalloc(c->nlabels, sizeof(*vals));

		for (size_t i = 0; i < c->nlabels; i++)
			vals[i] = cmp_json_text(json_path(c->labels[i].run, "lrubench_version", NULL));
		cmp_add_fact(c, "lrubench_version", vals, false);
	}
	/* VM mode's facts (run.json "vm"): the image is the kernel and differs
	 * on purpose; how each guest was built and placed should not */
	{
		static const char *const vmf[] = {
			"vm.accel", "vm.memory", "vm.cpus", "vm.numa_nodes", "vm.placement.summary",
		};

		for (size_t f = 0; f < ARRAY_SIZE(vmf); f++) {
			char **vals = xcalloc(c->nlabels, sizeof(*vals));

			for (size_t i = 0; i < c->nlabels; i++)
				vals[i] = cmp_json_text(config_get(c->labels[i].run, vmf[f]));
			cmp_add_fact(c, vmf[f], vals, false);
		}
	}
	for (size_t i = 0; i < c->nlabels; i++)
		config_keys(json_path(c->labels[i].run, "config", NULL), NULL, &keys);
	profile_difference(c);
	before = c->nfacts;
	for (size_t k = 0; k < keys.n; k++) {
		char **vals = xcalloc(c->nlabels, sizeof(*vals));
		json_object *cfg;

		/* [settings]: "set by the run", first among the facts (provenance.c) */
		if (!strncmp(keys.v[k], "settings.", 9)) {
			free(vals);
			continue;
		}
		if (!strcmp(keys.v[k], "global.profile")) {
			/* not the measured work: the profile pass is untimed (profile_difference) */
			free(vals);
			continue;
		}
		for (size_t i = 0; i < c->nlabels; i++) {
			cfg = json_path(c->labels[i].run, "config", NULL);
			vals[i] = cmp_json_text(config_get(cfg, keys.v[k]));
		}
		snprintf(name, sizeof(name), "config.%s", keys.v[k]);
		cmp_add_fact(c, name, vals, false);
	}
	strlist_release(&keys);
	if (c->nfacts > before)
		strlist_push(&c->warnings, "the lrubench configs differ: the kernels were not "
			     "measured on the same work");
	for (size_t i = 0; i < c->nlabels; i++) {
		json_object *v = json_path(c->labels[i].run, "system", "virt");
		json_object *st = json_path(c->labels[i].run, "status", NULL);

		if (v && json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), "tcg"))
			strlist_pushf(&c->warnings, "%s ran under QEMU TCG emulation: its timings "
				      "are not kernel timings", c->labels[i].label);
		if (vm_failures(c, i))
			continue;   /* said more precisely than the status */
		if (st && json_object_is_type(st, json_type_string) &&
		    strcmp(json_object_get_string(st), "complete"))
			strlist_pushf(&c->warnings, "%s: run status is '%s': its results may be partial",
				      c->labels[i].label, json_object_get_string(st));
	}
}

int comparison_build(const struct label_result *labels, size_t nlabels, double alpha,
		     struct comparison *c, struct strbuf *err)
{
	memset(c, 0, sizeof(*c));
	c->labels = labels;
	c->nlabels = nlabels;
	c->alpha = alpha;
	for (size_t li = 0; li < nlabels; li++) {
		for (size_t wi = 0; wi < labels[li].nwls; wi++) {
			const struct wl_result *r = &labels[li].wls[wi];
			struct cmp_workload *w = NULL;

			for (size_t i = 0; i < c->nwls; i++)
				if (!strcmp(c->wls[i].name, r->workload))
					w = &c->wls[i];
			if (!w) {
				ALLOC_GROW(c->wls, c->nwls + 1, c->cap);
				w = &c->wls[c->nwls++];
				memset(w, 0, sizeof(*w));
				w->name = r->workload;
			}
			for (size_t ti = 0; ti < r->ntables; ti++) {
				const struct result_table *rt = &r->tables[ti];

				for (size_t i = 0; i < w->ntables; i++)
					if (!strcmp(w->tables[i].title, rt->title) &&
					    w->tables[i].has_table[li]) {
						strbuf_addf(err, "%s: table '%s' of workload %s is in two "
							    "files", labels[li].dir, rt->title, r->workload);
						goto fail;
					}
				if (add_table(c, w, li, rt, err))
					goto fail;
			}
		}
	}
	apply_statistic_hints(c, labels, nlabels);
	compute_all(c);
	find_differences(c);
	cmp_sequential(c);
	cmp_provenance(c);
	cmp_symdiff_build(c, CMP_SYMDIFF_TOP);
	return 0;
fail:
	comparison_release(c);
	return -1;
}

void comparison_release(struct comparison *c)
{
	for (size_t wi = 0; wi < c->nwls; wi++) {
		struct cmp_workload *w = &c->wls[wi];

		for (size_t ti = 0; ti < w->ntables; ti++) {
			struct cmp_table *t = &w->tables[ti];

			for (size_t oi = 0; oi < t->nops; oi++)
				free(t->ops[oi].cells);
			free(t->ops);
			free(t->has_table);
			strmap_release(&t->opmap);
		}
		free(w->tables);
		strlist_release(&w->notes);
	}
	free(c->wls);
	for (size_t i = 0; i < c->nfacts; i++) {
		for (size_t j = 0; j < c->nlabels; j++)
			free(c->facts[i].values[j]);
		free(c->facts[i].values);
		free(c->facts[i].name);
	}
	free(c->facts);
	strlist_release(&c->warnings);
	for (size_t i = 0; i < c->nhealth; i++) {
		free(c->health[i].workload);
		free(c->health[i].step);
		free(c->health[i].first);
	}
	free(c->health);
	strlist_release(&c->same_kernel);
	strlist_release(&c->same_build_settings);
	free(c->profile_note);
	cmp_symdiff_release(c);
	memset(c, 0, sizeof(*c));
}
