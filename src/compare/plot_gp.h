/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What plot.c's figure writers share with plot_profile.c: quoting for
 * comments and data (plot.h has plot_gp_quote for scripts), the script
 * header, label colours, writing a file into the output folder, and the
 * figures of the profile tables.
 * Internal to `lrubench plot`.
 */
#ifndef LRUBENCH_PLOT_GP_H
#define LRUBENCH_PLOT_GP_H

#include <stdbool.h>
#include "compare/model.h"
#include "compare/plot.h"
#include "core/util.h"

/* Free text in a '#' comment line. */
void add_comment_text(struct strbuf *sb, const char *s);
/* A string column of a .dat. */
void dat_quote(struct strbuf *sb, const char *s);
/* Terminal, size and output file of a script. */
void gp_header(struct strbuf *sb, const char *base, enum plot_format fmt,
	       const struct label_result *labels, size_t nl);
/* A label's line colour, the same in every figure. */
unsigned line_rgb(size_t idx);
/* Write sb to dir/name; 0 or -1 with a message. */
int write_text(const char *dir, const char *name, const struct strbuf *sb);
/* Is a figure of that base name in set already? */
bool base_taken(const struct plot_set *set, const char *base);
/* want, or want-2, want-3 ...: a base name not in set yet. Malloc'ed. */
char *unique_base(const struct plot_set *set, const char *want);
/* Add a figure to set; takes base, copies the rest. 0. */
int add_figure(struct plot_set *set, char *base, const char *workload, const char *table,
	       const char *kind, const char *caption);
/* <base>.dat and <base>.gp into outdir; 0 or -1 with a message. */
int write_pair(const char *outdir, const char *base, const struct strbuf *dat,
	       const struct strbuf *gp);

/*
 * The figures of a workload's profile tables (profile.h), when it has them
 * (not for --format txt: they are drawn in colour):
 *   <workload>-cpu-split                 stacked user/sys/irq/softirq/iowait
 *                                        bars, per op and label;
 *   <workload>-lru-lock-wait-beside-<t>  the lru_lock wait next to the
 *                                        throughput table t, per op.
 */
int plot_profile_figures(const struct comparison *c, const struct cmp_workload *w,
			 const char *outdir, struct plot_set *set);
/* The levels over time (plot_levels.c): <workload>-levels-<op>-<group> for
 * each op of its level tables and each group of levels that moved, the
 * median iteration's series of every label overlaid. -1 with a message
 * naming the file (and offset) of a series that cannot be read. */
int plot_level_figures(const struct comparison *c, const struct cmp_workload *w, const char *outdir,
		       struct plot_set *set);

/*
 * The reclaim latency histograms of a workload's profile = reclaim passes
 * (profile/reclaim_latency.h), from the details of each label's results
 * (plot_reclaim.c): one figure per step and tracepoint pair with stalls,
 * the labels overlaid: <workload>-reclaim-latency-<pair>-<step>. txt too.
 */
int plot_reclaim_figures(const struct comparison *c, const struct cmp_workload *w,
			 const char *outdir, struct plot_set *set);

#endif
