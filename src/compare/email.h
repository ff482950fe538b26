/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plain-text output for mail (`compare -f email`, `lrubench report`):
 * printable ASCII only, no line longer than EMAIL_WIDTH columns, so that a
 * cover letter to a mailing list shows it as written in any monospaced mail
 * client (no format=flowed re-wrapping, no tabs, no UTF-8).
 */
#ifndef LRUBENCH_EMAIL_H
#define LRUBENCH_EMAIL_H

#include "compare/model.h"
#include "core/util.h"

#define EMAIL_WIDTH 72

/*
 * The comparison for a cover letter: the kernels, what differs besides the
 * kernel, then per table one row per op with the mean row (Hmean, or Amean
 * where mmtests uses it) and stddev per kernel, the percent change against
 * the baseline and mmtests' significance mark. A comparison too wide for
 * EMAIL_WIDTH is split into blocks, each repeating the op and baseline
 * columns; labels too long for a column header become letters with a key.
 */
void report_email(const struct comparison *c, struct strbuf *out);

/* Append s with every byte that is not printable ASCII replaced by '?'. */
void email_add_ascii(struct strbuf *out, const char *s);
/*
 * Append text word-wrapped to EMAIL_WIDTH: the first line starts with
 * first, the others with cont; a word longer than a line is cut. Not
 * printable ASCII becomes '?'. Ends with a newline.
 */
void email_add_wrapped(struct strbuf *out, const char *first, const char *cont,
		       const char *text);

#endif
