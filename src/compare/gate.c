// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CI gate of `compare --fail-on-regression PCT`: a regression is a mean
 * row that mmtests' test finds significant at --alpha and that is worse by
 * at least PCT percent. One stderr line each, and JUnit XML with one
 * testcase per (table, op) and a failure element per regression.
 *
 * Beyond regressions the gate fails on what makes a comparison untrue
 * (gate_checks): two labels of one kernel build (--allow-same-kernel), a
 * kernel that logged WARN/BUG/Oops/lockdep/lockups/hung tasks/RCU stalls/
 * OOM kills during a run (--allow-kernel-warnings), and missing data: a
 * workload, table or op of the baseline that a candidate lacks, a run that
 * is not complete, fewer than 2 samples a side (--allow-missing). Each is
 * its own JUnit testcase with its reason.
 */
#include <stdlib.h>
#include <string.h>
#include <stdlib.h>
#include "compare/model.h"
#include "core/escape.h"
#include "core/kernel_health.h"

/* Checks need two samples a side: the t-test and the intervals do. */
#define GATE_MIN_SAMPLES 2

static void add_failure(struct gate_failure **f, size_t *n, size_t *cap, const char *classname,
			const char *type, char *name, char *message)
{
	ALLOC_GROW(*f, *n + 1, *cap);
	(*f)[*n].classname = xstrdup(classname);
	(*f)[*n].type = xstrdup(type);
	(*f)[*n].name = name;
	(*f)[*n].message = message;
	(*n)++;
}

void gate_failures_release(struct gate_failure *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].classname);
		free(f[i].type);
		free(f[i].name);
		free(f[i].message);
	}
	free(f);
}

static void missing_data(const struct comparison *c, struct gate_failure **f, size_t *n, size_t *cap)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		const char *st = cmp_label_status(c, l);

		if (st && strcmp(st, "complete"))
			add_failure(f, n, cap, "lrubench.compare.data", "missing data",
				    xasprintf("run status of %s", c->labels[l].label),
				    xasprintf("%s: run status is '%s', not complete: its results may be partial",
					      c->labels[l].label, st));
	}
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];

		for (size_t l = 1; l < c->nlabels; l++) {
			bool base = false, cand = false;

			/* tables that explain the others (profile.h) are not measured data */
			for (size_t t = 0; t < wl->ntables; t++) {
				base |= wl->tables[t].has_table[0] && !wl->tables[t].explains;
				cand |= wl->tables[t].has_table[l] && !wl->tables[t].explains;
			}
			if (base && !cand)
				add_failure(f, n, cap, "lrubench.compare.data", "missing data",
					    xasprintf("%s of %s", wl->name, c->labels[l].label),
					    xasprintf("%s has no results of workload %s; the baseline %s has",
						      c->labels[l].label, wl->name, c->labels[0].label));
			if (!base || !cand)
				continue;
			for (size_t t = 0; t < wl->ntables; t++) {
				const struct cmp_table *tb = &wl->tables[t];

				if (tb->explains)
					continue;
				if (tb->has_table[0] && !tb->has_table[l])
					add_failure(f, n, cap, "lrubench.compare.data", "missing data",
						    xasprintf("%s/%s of %s", wl->name, tb->title, c->labels[l].label),
						    xasprintf("%s has no table '%s' of %s; the baseline %s has",
							      c->labels[l].label, tb->title, wl->name,
							      c->labels[0].label));
				if (!tb->has_table[0] || !tb->has_table[l])
					continue;
				for (size_t o = 0; o < tb->nops; o++)
					if (tb->ops[o].cells[0].present && !tb->ops[o].cells[l].present)
						add_failure(f, n, cap, "lrubench.compare.data", "missing data",
							    xasprintf("%s/%s/%s of %s", wl->name, tb->title,
								      tb->ops[o].op, c->labels[l].label),
							    xasprintf("%s has no samples of %s / %s / %s; the "
								      "baseline %s has", c->labels[l].label,
								      wl->name, tb->title, tb->ops[o].op,
								      c->labels[0].label));
			}
		}
		/* a test needs two samples on each side it compares */
		for (size_t t = 0; t < wl->ntables; t++) {
			const struct cmp_table *tb = &wl->tables[t];

			if (tb->explains)
				continue;
			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 0; l < c->nlabels; l++) {
					const struct cmp_cell *x = &tb->ops[o].cells[l];

					if (x->n >= GATE_MIN_SAMPLES || !tb->has_table[l])
						continue;
					/* no samples at all: a candidate's was named above
					 * when the baseline has some; a baseline's, or both
					 * sides', only here (issue 30: nothing compared) */
					if (!x->present && l > 0 && tb->ops[o].cells[0].present)
						continue;
					add_failure(f, n, cap, "lrubench.compare.data", "insufficient data",
						    xasprintf("%s/%s/%s samples of %s", wl->name, tb->title,
							      tb->ops[o].op, c->labels[l].label),
						    xasprintf("%s / %s / %s: %s has %zu sample%s; %d a side are "
							      "needed to test a change", wl->name, tb->title,
							      tb->ops[o].op, c->labels[l].label, x->n,
							      x->n == 1 ? "" : "s", GATE_MIN_SAMPLES));
				}
		}
	}
}

/* The gate passes only on something compared: some measured op with
 * samples in the baseline and in another label. Labels with no ops at all
 * (JUnit tests="0") or only empty ones are missing data, not a pass. */
static void nothing_compared(const struct comparison *c, struct gate_failure **f, size_t *n,
			     size_t *cap)
{
	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;
			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 1; l < c->nlabels; l++)
					if (tb->ops[o].cells[0].present && tb->ops[o].cells[l].present)
						return;
		}
	add_failure(f, n, cap, "lrubench.compare.data", "missing data", xstrdup("anything compared"),
		    xasprintf("no measured op has samples in both the baseline %s and another label: "
			      "there is nothing for the gate to pass", c->labels[0].label));
}

/* "2 warnings and 1 OOM kill during memcgs-64, 1 BUG during setup" of one label */
static char *health_summary(const struct comparison *c, size_t label, const char *workload)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->nhealth; i++) {
		const struct cmp_health *h = &c->health[i];

		if (h->label != label || (workload && strcmp(h->workload, workload)))
			continue;
		strbuf_addf(&sb, "%s%lld %s during %s%s%s", sb.len ? ", " : "", h->count,
			    kh_kind_words(h->kind, (unsigned long long)h->count),
			    *h->workload ? h->workload : "the run", *h->step ? " " : "", h->step);
	}
	return strbuf_detach(&sb);
}

size_t gate_checks(const struct comparison *c, const struct gate_opts *o, struct gate_failure **out)
{
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!o->allow_same_kernel)
		for (size_t i = 0; i < c->same_kernel.n; i++)
			add_failure(out, &n, &cap, "lrubench.compare.kernel", "same kernel",
				    xstrdup("distinct kernel builds"),
				    xasprintf("%s (--allow-same-kernel if that is what was meant)",
					      c->same_kernel.v[i]));
	if (!o->allow_kernel_warnings)
		for (size_t l = 0; l < c->nlabels; l++) {
			char *what = health_summary(c, l, NULL);

			if (*what)
				add_failure(out, &n, &cap, "lrubench.compare.kernel", "kernel health",
					    xasprintf("kernel health of %s", c->labels[l].label),
					    xasprintf("kernel %s logged %s (--allow-kernel-warnings to compare "
						      "anyway)", c->labels[l].label, what));
			free(what);
		}
	if (!o->allow_missing)
		missing_data(c, out, &n, &cap);
	if (!o->allow_missing && c->nlabels >= 2)
		nothing_compared(c, out, &n, &cap);
	return n;
}

size_t report_checks(const struct comparison *c, const struct gate_opts *o, FILE *err)
{
	struct gate_failure *f;
	size_t nf = gate_checks(c, o, &f);

	for (size_t i = 0; i < nf && err; i++)
		fprintf(err, "%s: %s: %s\n", lb_progname, f[i].type, f[i].message);
	/* one build in two deliberate settings passes the same-build check: say why */
	for (size_t i = 0; i < c->same_build_settings.n && err && !o->allow_same_kernel; i++) {
		char *why = inert_dup(c->same_build_settings.v[i]);

		fprintf(err, "%s: same kernel, compared on purpose: %s\n", lb_progname, why);
		free(why);
	}
	gate_failures_release(f, nf);
	return nf;
}

size_t report_regressions(const struct comparison *c, const struct gate_opts *opts, FILE *err)
{
	double pct = opts->pct;
	size_t n = 0;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;   /* context for the measured tables, not a measure */
			for (size_t o = 0; o < tb->nops; o++)
				for (size_t l = 1; l < c->nlabels; l++) {
					const struct cmp_cell *b = &tb->ops[o].cells[0];
					const struct cmp_cell *x = &tb->ops[o].cells[l];

					const char *why = cmp_untested_reason(b, x);
					bool reg = cmp_is_regression(x, pct);
					char *wn, *tn, *on, *bl, *cl;

					n += reg;
					if (!err || (!why && !reg))
						continue;
					/* a terminal reads these: names inert */
					wn = inert_dup(c->wls[w].name);
					tn = inert_dup(tb->title);
					on = inert_dup(tb->ops[o].op);
					bl = inert_dup(c->labels[0].label);
					cl = inert_dup(c->labels[l].label);
					if (why)
						fprintf(err, "%s: not gated: %s / %s / %s: %s: %s\n",
							lb_progname, wn, tn, on, cl, why);
					if (reg)
						fprintf(err, "%s: regression: %s / %s / %s: %s %s %.2f → "
							"%s %.2f (%.2f%%, p = %.3g)\n",
							lb_progname, wn, tn, on,
							cmp_row_name(ROW_MEAN, tb->better),
							bl, b->row[ROW_MEAN], cl, x->row[ROW_MEAN],
							x->pct[ROW_MEAN], x->mm.p);
					free(wn);
					free(tn);
					free(on);
					free(bl);
					free(cl);
				}
		}
	return n;
}

/* XML 1.0 text and attribute values: escape markup, drop what XML forbids */
static void xml(struct strbuf *out, const char *s)
{
	strbuf_add_xml_text(out, s);
}

static void junit_case(const struct comparison *c, const struct cmp_workload *wl,
		       const struct cmp_table *tb, const struct cmp_op *op, double pct,
		       struct strbuf *out)
{
	struct strbuf name = STRBUF_INIT, why = STRBUF_INIT;
	bool any = false;

	strbuf_addf(&name, "%s/%s/%s", wl->name, tb->title, op->op);
	strbuf_addstr(out, "    <testcase classname=\"lrubench.compare.");
	xml(out, wl->name);
	strbuf_addstr(out, "\" name=\"");
	xml(out, name.buf);
	strbuf_addstr(out, "\"");
	for (size_t l = 1; l < c->nlabels; l++) {
		const struct cmp_cell *b = &op->cells[0], *x = &op->cells[l];
		struct strbuf msg = STRBUF_INIT;

		if (!cmp_is_regression(x, pct))
			continue;
		if (!any)
			strbuf_addstr(out, ">\n");
		any = true;
		strbuf_addf(&msg, "%s is %.2f%% worse than %s (p = %.4g)", c->labels[l].label,
			    -x->pct[ROW_MEAN], c->labels[0].label, x->mm.p);
		strbuf_addstr(out, "      <failure type=\"regression\" message=\"");
		xml(out, msg.buf);
		strbuf_addstr(out, "\">");
		strbuf_reset(&msg);
		strbuf_addf(&msg, "%s %s: %s %.2f -> %s %.2f %s (%.2f%%), mmtests t-test p = %.6g "
			    "(alpha %g), threshold %g%%", name.buf, cmp_row_name(ROW_MEAN, tb->better),
			    c->labels[0].label, b->row[ROW_MEAN], c->labels[l].label,
			    x->row[ROW_MEAN], tb->unit, x->pct[ROW_MEAN], x->mm.p, c->alpha, pct);
		xml(out, msg.buf);
		strbuf_addstr(out, "</failure>\n");
		strbuf_release(&msg);
	}
	/* not a pass and not a failure: JUnit's own outcome for "not run" */
	for (size_t l = 1; l < c->nlabels && !any; l++) {
		const char *reason = cmp_untested_reason(&op->cells[0], &op->cells[l]);

		if (reason)
			strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", c->labels[l].label, reason);
	}
	if (why.len) {
		strbuf_addstr(out, ">\n      <skipped message=\"");
		xml(out, why.buf);
		strbuf_addstr(out, "\"/>\n");
		any = true;
	}
	strbuf_addstr(out, any ? "    </testcase>\n" : "/>\n");
	strbuf_release(&name);
	strbuf_release(&why);
}

/* the testcase of op is skipped: no candidate regressed, one was not tested */
static bool junit_skipped(const struct comparison *c, const struct cmp_op *op, double pct)
{
	bool untested = false;

	for (size_t l = 1; l < c->nlabels; l++) {
		if (cmp_is_regression(&op->cells[l], pct))
			return false;
		if (cmp_untested_reason(&op->cells[0], &op->cells[l]))
			untested = true;
	}
	return untested;
}

/* A check's testcase: passed (f NULL) or failed. */
static void junit_check(const char *classname, const char *name, const struct gate_failure *f,
			struct strbuf *out)
{
	strbuf_addstr(out, "    <testcase classname=\"");
	xml(out, classname);
	strbuf_addstr(out, "\" name=\"");
	xml(out, name);
	if (!f) {
		strbuf_addstr(out, "\"/>\n");
		return;
	}
	strbuf_addstr(out, "\">\n      <failure type=\"");
	xml(out, f->type);
	strbuf_addstr(out, "\" message=\"");
	xml(out, f->message);
	strbuf_addstr(out, "\">");
	xml(out, f->message);
	strbuf_addstr(out, "</failure>\n    </testcase>\n");
}

/* The checks' testcases: every failure, and the passed checks whose data
 * was recorded (build ids of two labels or more, a label's kernel log). */
static void junit_checks(const struct comparison *c, const struct gate_opts *o, struct gate_failure *f,
			 size_t nf, struct strbuf *cases, size_t *tests)
{
	size_t ids = 0;

	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *sys = NULL, *k = NULL, *id = NULL;

		if (c->labels[l].run && json_object_object_get_ex(c->labels[l].run, "system", &sys) &&
		    json_object_object_get_ex(sys, "kernel", &k) && json_object_object_get_ex(k, "build_id", &id) &&
		    json_object_is_type(id, json_type_string))
			ids++;
	}
	if (ids > 1 && !c->same_kernel.n && !o->allow_same_kernel) {
		junit_check("lrubench.compare.kernel", "distinct kernel builds", NULL, cases);
		(*tests)++;
	}
	if (!o->allow_kernel_warnings)
		for (size_t l = 0; l < c->nlabels; l++) {
			json_object *kh = NULL;
			char *name = xasprintf("kernel health of %s", c->labels[l].label);
			bool failed = false;

			for (size_t i = 0; i < nf; i++)
				failed |= !strcmp(f[i].name, name);
			if (!failed && c->labels[l].run &&
			    json_object_object_get_ex(c->labels[l].run, "kernel_health", &kh)) {
				junit_check("lrubench.compare.kernel", name, NULL, cases);
				(*tests)++;
			}
			free(name);
		}
	for (size_t i = 0; i < nf; i++) {
		junit_check(f[i].classname, f[i].name, &f[i], cases);
		(*tests)++;
	}
}

void report_junit(const struct comparison *c, const struct gate_opts *opts, struct strbuf *out)
{
	double pct = opts->pct;
	size_t tests = 0, failures = 0, ctests = 0, skipped = 0;
	struct gate_failure *f;
	size_t nf = gate_checks(c, opts, &f);
	struct strbuf checks = STRBUF_INIT;

	for (size_t w = 0; w < c->nwls; w++)
		for (size_t t = 0; t < c->wls[w].ntables; t++) {
			const struct cmp_table *tb = &c->wls[w].tables[t];

			if (tb->explains)
				continue;
			tests += tb->nops;
			for (size_t o = 0; o < tb->nops; o++) {
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&tb->ops[o].cells[l], pct)) {
						failures++;
						break;
					}
				skipped += junit_skipped(c, &tb->ops[o], pct);
			}
		}
	junit_checks(c, opts, f, nf, &checks, &ctests);
	tests += ctests;
	failures += nf;
	strbuf_addf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<testsuites name=\"lrubench compare\" tests=\"%zu\" failures=\"%zu\" "
		    "errors=\"0\" skipped=\"%zu\">\n", tests, failures, skipped);
	/* what makes the comparison true or not comes first, in a suite of its own */
	if (ctests) {
		strbuf_addf(out, "  <testsuite name=\"checks\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
			    "skipped=\"0\">\n", ctests, nf);
		strbuf_addstr(out, checks.buf);
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_release(&checks);
	gate_failures_release(f, nf);
	for (size_t w = 0; w < c->nwls; w++) {
		const struct cmp_workload *wl = &c->wls[w];
		size_t wt = 0, wf = 0, ws = 0;

		for (size_t t = 0; t < wl->ntables; t++) {
			if (wl->tables[t].explains)
				continue;
			wt += wl->tables[t].nops;
			for (size_t o = 0; o < wl->tables[t].nops; o++) {
				for (size_t l = 1; l < c->nlabels; l++)
					if (cmp_is_regression(&wl->tables[t].ops[o].cells[l], pct)) {
						wf++;
						break;
					}
				ws += junit_skipped(c, &wl->tables[t].ops[o], pct);
			}
		}
		strbuf_addstr(out, "  <testsuite name=\"");
		xml(out, wl->name);
		strbuf_addf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
			    wt, wf, ws);
		for (size_t t = 0; t < wl->ntables; t++)
			for (size_t o = 0; o < wl->tables[t].nops && !wl->tables[t].explains; o++)
				junit_case(c, wl, &wl->tables[t], &wl->tables[t].ops[o], pct, out);
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_addstr(out, "</testsuites>\n");
}
