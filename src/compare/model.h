/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The comparison model behind `lrubench compare` (docs/ARCHITECTURE.md §10): per workload,
 * per table, per op, per label the mmtests statistics, the percent columns
 * against the first label (the baseline), mmtests' Student-t significance on
 * the mean row, and beyond mmtests the Welch test, 95% confidence intervals
 * and a verdict. Renderers turn it into text (mmtests layout), markdown,
 * JSON or CSV; the regression gate and JUnit read it too.
 */
#ifndef LRUBENCH_COMPARE_MODEL_H
#define LRUBENCH_COMPARE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/results.h"
#include "compare/stats.h"
#include "core/strlist.h"
#include "core/strmap.h"
#include "core/util.h"
#include <json-c/json.h>

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
	/* fewer than 2 samples on a side: no significance test at all (mm is
	 * NaN, never significant); starred: mmtests, which counts the missing
	 * Stddev as 0, would have starred it */
	bool too_few;
	bool too_few_starred;
	/* beyond the samples (compare/notes.c), for the notes under a table */
	bool noise_ok;                    /* this machine's A/A floor is known here */
	double noise_floor;               /* percent, at this cell's and the baseline's counts */
	const char *stopped;              /* iterations = auto: why it stopped (borrowed); NULL */
	size_t rounds;                    /* stopped against a baseline at run time: after how
					     many rounds; 0: not */
	/* gathered by -i auto against a baseline (results.h "sequential",
	 * compare/sequential.h): the star is the sequential verdict when this
	 * comparison's baseline is the run's (seq_applies), else none, since
	 * a fixed-sample t-test does not hold after optional stopping */
	bool sequential, seq_applies, seq_vm;
	double seq_alpha, seq_goal;
	double seq_between;               /* percent: the spread between runs its interval held */
	size_t seq_between_runs;          /* the runs that measured it; 0: not measured */
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
	/* what happened while it ran (kernel log, taint, failed ops): printed
	 * under its last table (compare/provenance.c) */
	struct strlist notes;
};

/* One symbol of a differential CPU profile (compare/symdiff.h): its
 * share of the sampled CPU time, percent, in the baseline [0] and the
 * candidate [1]; self and with its callees (children). */
struct cmp_symrow {
	const char *symbol;               /* borrowed from the results */
	char where;                       /* 'k' kernel, '.' user */
	double self[2], children[2];
};

/* The differential CPU profile of one op against the baseline. */
struct cmp_symdiff {
	size_t wl;                        /* index in wls */
	const char *op;                   /* borrowed */
	size_t label;                     /* the candidate (> 0) */
	unsigned passes[2];               /* profile passes averaged, each side */
	bool significant;                 /* a measured table of the op changed significantly */
	struct cmp_symrow *rows;          /* the top rows, largest change of self first */
	size_t n, nsymbols;               /* rows kept; symbols on either side */
};

/* A run.json fact that differs between labels. */
struct cmp_fact {
	char *name;                       /* "system.nr_cpus", "config.readtwice.memcgs" */
	char **values;                    /* per label, printable; "(missing)" when absent */
	bool kernel;                      /* of the kernel's identity ("kernel.build_id") */
};

/* What one label's kernel logged during one step (run.json "kernel_health"). */
struct cmp_health {
	size_t label;
	char *workload;                   /* "" outside any workload */
	char *step;                       /* "memcgs-64", "setup", "teardown", "" */
	int kind;                         /* enum kh_kind (core/kernel_health.h) */
	long long count;
	char *first;                      /* the first line of the first one; NULL */
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
	struct cmp_health *health;        /* every label's kernel log events */
	size_t nhealth, healthcap;
	/* "these labels ran the same kernel build (build id ...): a, b", one per build */
	struct strlist same_kernel;
	/* "these labels ran the same kernel build (...) in different deliberate
	 * settings: a, b": the reason the gate passes them (issue 28) */
	struct strlist same_build_settings;
	char *profile_note;               /* labels profiled differently; NULL when alike */
	struct cmp_symdiff *symdiffs;     /* compare/symdiff.h; by workload, op, label */
	size_t nsymdiffs, symdiff_cap;
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

/* Read the labels' stopping records (compare/notes.c): which cells were
 * gathered sequentially, and their star; called by comparison_build. */
void cmp_sequential(struct comparison *c);
/* "decided after 4 iterations (sequential, alpha 5%)" for such a cell. */
void cmp_sequential_text(const struct cmp_cell *cell, struct strbuf *out);

/* Row names for a table: "Min", "Hmean"/"Amean", ..., "BHmean-50"/"BAmean-50". */
const char *cmp_row_name(enum cmp_row row, int better);
const char *cmp_verdict_name(enum cmp_verdict v);   /* JSON/CSV words */

/* For compare/provenance.c: a fact, kept when its values differ (takes
 * values, one per label); a JSON value as text ("(missing)" for NULL). */
void cmp_add_fact(struct comparison *c, const char *name, char **values, bool kernel);
char *cmp_json_text(json_object *v);
/* The kernel identity and host facts, the same-kernel, debug-option and
 * busy-machine warnings, the kernel log events and failed ops of every
 * label (compare/provenance.c); called by comparison_build. */
void cmp_provenance(struct comparison *c);
/* A label's run.json status ("complete", ...), NULL when it has none. */
const char *cmp_label_status(const struct comparison *c, size_t label);

/* Renderers append to out. */
void report_differences_text(const struct comparison *c, struct strbuf *out);
void report_text(const struct comparison *c, struct strbuf *out);
void report_markdown(const struct comparison *c, struct strbuf *out);
void report_json(const struct comparison *c, double fail_pct, struct strbuf *out);
void report_csv(const struct comparison *c, struct strbuf *out);
/* A whole HTML page of the comparison (compare/html.h). */
void report_html(const struct comparison *c, struct strbuf *out);

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

/* What the gate checks besides regressions, and what the user allowed. */
struct gate_opts {
	double pct;                       /* --fail-on-regression PCT (0 for JUnit alone) */
	bool allow_same_kernel;           /* two labels of one kernel build are fine */
	bool allow_kernel_warnings;       /* WARN/BUG/OOM... during a run are fine */
	bool allow_missing;               /* missing ops, partial runs, < 2 samples are fine */
};
/* A check that failed: its JUnit testcase (classname, name) and message. */
struct gate_failure {
	char *classname, *name, *type, *message;
};
/* The checks beyond regressions (gate.c): same kernel build, kernel health,
 * missing data (a workload, table or op the baseline has, a run not
 * complete, fewer than 2 samples a side). Fills *out (free with
 * gate_failures_release); returns how many. */
size_t gate_checks(const struct comparison *c, const struct gate_opts *o, struct gate_failure **out);
void gate_failures_release(struct gate_failure *f, size_t n);
/* One stderr line per regression (at o->pct); returns how many. */
size_t report_regressions(const struct comparison *c, const struct gate_opts *o, FILE *err);
/* One stderr line per failed check ("same kernel: ...", "missing data: ...");
 * returns how many. */
size_t report_checks(const struct comparison *c, const struct gate_opts *o, FILE *err);
/* JUnit XML: one testcase per (table, op), a failure per regression; a
 * testcase per failed check, and per passed check whose data was recorded
 * (build ids, kernel logs). */
void report_junit(const struct comparison *c, const struct gate_opts *o, struct strbuf *out);

/* What the gate says of a compared cell: neither pass nor fail when it has
 * fewer than 2 samples on a side or an undefined mean row (a sample <= 0
 * under Hmean). NULL when it was tested; else why not, for messages. */
const char *cmp_untested_reason(const struct cmp_cell *base, const struct cmp_cell *cell);

#endif
