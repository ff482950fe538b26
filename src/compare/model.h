/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The comparison model behind `lrubench compare` (docs/ARCHITECTURE.md §10): per workload,
 * per table, per op, per label the mmtests statistics, the percent columns
 * against the first label (the baseline), mmtests' Student-t significance on
 * the mean row, and beyond mmtests the Welch test, 95% confidence intervals
 * and a verdict. Renderers turn it into text (mmtests layout), markdown,
 * JSON or CSV; the regression gate and JUnit read it too.
 */
#ifndef LRUBENCH_REPORT_H
#define LRUBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/results.h"
#include "compare/stats.h"
#include "core/strlist.h"
#include "core/strmap.h"
#include "core/util.h"

/* The rows of a text table, in mmtests order. */
enum cmp_row {
	ROW_MIN, ROW_MEAN, ROW_STDDEV, ROW_COEFFVAR, ROW_MAX,
	ROW_BMEAN50, ROW_BMEAN95, ROW_BMEAN99, NR_ROWS
};

enum cmp_verdict {
	VERDICT_NONE = 0,      /* baseline, or op missing on one side */
	VERDICT_NO_CHANGE,     /* the 95% CI of the change contains 0 */
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
	VERDICT_INSUFFICIENT,  /* fewer than 2 samples on a side, or the baseline mean is 0 */
};

/* One op of one label. */
struct cmp_cell {
	bool present;                     /* the label has samples for this op */
	const double *x;                  /* the samples (borrowed) */
	size_t n;
	struct stats st;
	double row[NR_ROWS];              /* printed value; 0 when undefined */
	bool row_ok[NR_ROWS];             /* false: undefined (printed 0.00, marked) */
	double pct[NR_ROWS];              /* vs baseline, positive is better */
	bool mean_ci_ok;                  /* 95% CI of the mean row (n >= 2) */
	double mean_se, mean_ci_lo, mean_ci_hi;
	/* candidates only (label > 0) and only when both sides are present */
	bool compared;
	struct ttest mm;                  /* mmtests: pooled df, at --alpha */
	struct ttest welch;               /* Welch on the mean row, 95% */
	bool change_ci_ok;
	double change_ci_lo, change_ci_hi; /* 95% CI of pct[ROW_MEAN] */
	enum cmp_verdict verdict;
	/* beyond the samples (compare/notes.c), for the notes under a table */
	bool noise_ok;                    /* this machine's A/A floor is known here */
	double noise_floor;               /* percent, at this cell's and the baseline's counts */
	const char *stopped;              /* iterations = auto: why it stopped (borrowed); NULL */
	size_t rounds;                    /* stopped against a baseline at run time: after how
					     many rounds; 0: not */
};

struct cmp_op {
	const char *op;                   /* borrowed from a label's results */
	struct cmp_cell *cells;           /* one per label */
};

struct cmp_table {
	const char *title, *unit;         /* borrowed */
	int better;                       /* BETTER_HIGHER / BETTER_LOWER */
	bool explains;                    /* explains the throughput tables (results.h): grouped
					   * under a heading of its own, never a regression */
	/* the label's table that declares the x axis (x_name, x_unit; results.h),
	 * NULL when no label's results say (files older than "x_axis") */
	const struct result_table *x_axis;
	bool *has_table;                  /* per label */
	struct cmp_op *ops;
	size_t nops, cap;
	struct strmap opmap;              /* op name -> index in ops */
};

struct cmp_workload {
	const char *name;
	struct cmp_table *tables;
	size_t ntables, cap;
};

/* A run.json fact that differs between labels (besides the kernel). */
struct cmp_fact {
	char *name;                       /* "system.nr_cpus", "config.readtwice.memcgs" */
	char **values;                    /* per label, printable; "(missing)" when absent */
};

struct comparison {
	const struct label_result *labels;
	size_t nlabels;
	double alpha;
	struct cmp_workload *wls;
	size_t nwls, cap;
	struct cmp_fact *facts;
	size_t nfacts, factcap;
	struct strlist warnings;          /* configs differ, TCG, ... */
	char *profile_note;               /* labels profiled differently; NULL when alike */
};

/* The significance level of the mmtests t-test when none is given: what
 * mmtests' compare-kernels uses, so the marks match its reports. compare's
 * --alpha changes it; plot always uses it. */
#define CMP_DEFAULT_ALPHA 0.10

/* Build the model; errors (better or unit disagreeing between labels) go to
 * err naming the workload, table and labels. */
int comparison_build(const struct label_result *labels, size_t nlabels, double alpha,
		     struct comparison *c, struct strbuf *err);
void comparison_release(struct comparison *c);
/* Fill the cells' notes: the noise floor from noise (noise_floor_load; may
 * be NULL), and the labels' iterations = auto records (core/schedule.h). */
void comparison_add_notes(struct comparison *c, json_object *noise);

/* Row names for a table: "Min", "Hmean"/"Amean", ..., "BHmean-50"/"BAmean-50". */
const char *cmp_row_name(enum cmp_row row, int better);
const char *cmp_verdict_name(enum cmp_verdict v);   /* JSON/CSV words */

/* Renderers append to out. */
void report_differences_text(const struct comparison *c, struct strbuf *out);
void report_text(const struct comparison *c, struct strbuf *out);
void report_markdown(const struct comparison *c, struct strbuf *out);
void report_json(const struct comparison *c, double fail_pct, struct strbuf *out);
void report_csv(const struct comparison *c, struct strbuf *out);

/* snprintf's "%*.2f", byte for byte, faster. */
void report_add_fixed2(struct strbuf *out, int width, double v);

/* Header rows: a label split at its first '-' (a following rcN stays on the
 * first row); no '-' puts the whole label on the first row. */
void cmp_split_label(const char *label, struct strbuf *first, struct strbuf *second);

/* Does workload w have tables that explain its throughput tables? */
bool cmp_has_explaining(const struct cmp_workload *w);
/* The heading those tables are grouped under, for text and markdown. */
#define CMP_EXPLAINING_HEADING "where the kernel spent the time: these tables explain the tables above"

/* The regression gate: is this cell a significant regression of at least
 * pct percent on the mean row? (Explaining tables are never gated: callers
 * skip them.) */
bool cmp_is_regression(const struct cmp_cell *cell, double pct);
/* One stderr line per regression; returns how many. */
size_t report_regressions(const struct comparison *c, double pct, FILE *err);
/* JUnit XML: one testcase per (table, op), a failure per regression. */
void report_junit(const struct comparison *c, double pct, struct strbuf *out);

#endif
