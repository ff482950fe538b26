/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `run --label`: a label with '%' in it is a pattern, so that a nightly job
 * gets a new, sortable label every night without computing one itself.
 *   %r  the kernel release (uname -r)
 *   %d  the date, YYYYMMDD        (UTC, so that labels sort in time order
 *   %t  the time, HHMMSS           across daylight saving changes)
 *   %%  a '%'
 * "auto" is the pattern "%r-%dT%t": 6.1.0-13-amd64-20261130T221530.
 */
#ifndef LRUBENCH_LABEL_PATTERN_H
#define LRUBENCH_LABEL_PATTERN_H

#include <time.h>
#include "core/util.h"

#define LABEL_AUTO_PATTERN "%r-%dT%t"

/* The label for spec at time now; NULL with a message in err naming the
 * unknown %-sequence. A spec without '%' (other than "auto") is returned
 * as it is. Malloc'ed. */
char *label_expand(const char *spec, const char *release, time_t now, struct strbuf *err);

#endif
