/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `lrubench report`: the parts of a cover letter's results block besides
 * compare's email tables (email.h), all within EMAIL_WIDTH columns of
 * printable ASCII.
 */
#ifndef LRUBENCH_LETTER_H
#define LRUBENCH_LETTER_H

#include "compare/model.h"
#include "core/util.h"

/* A section title, underlined. */
void letter_section(struct strbuf *out, const char *title);
/* The machine (run.json "system" of the baseline) and a line per kernel
 * (its label, uname -r and uname -v). */
void letter_machine(const struct comparison *c, struct strbuf *out);
/* What was run: the workloads, iterations and warm-ups, and each
 * workload's settings (run.json "config" of the baseline). */
void letter_run(const struct comparison *c, struct strbuf *out);
/* A figure (gnuplot dumb terminal text) under its caption, tidied by
 * plot_txt_tidy_text(). */
void letter_figure(struct strbuf *out, const char *caption, const char *text);

#endif
