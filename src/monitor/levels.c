// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The level tables of one iteration's series (monitor.h): for each of the
 * main levels (core/series.h series_levels) its peak (or, for MemFree, its
 * minimum) over the iteration and its value at the end, as explaining
 * tables whose op is the step. "End" is the last sample at or before the
 * moment the workload reported its first result: what was in memory when
 * the measured work stopped, before its teardown freed it.
 */
#include <math.h>
#include <stdlib.h>
#include "monitor/monitor.h"
#include "profile/profile.h"

void monitor_levels(const struct series *s, const char *workload, const char *op, int64_t end_ms,
		    struct wl_result *res)
{
	double *v = xcalloc(s->nrows + 1, sizeof(*v));

	for (size_t i = 0; i < series_levels_count && s->nrows; i++) {
		const struct series_level *l = &series_levels[i];
		double ext = NAN, end = NAN;
		char *title;

		if (!series_level_values(s, l, v))
			continue;
		for (size_t r = 0; r < s->nrows; r++) {
			if (isnan(v[r]))
				continue;
			if (isnan(ext) || (l->low ? v[r] < ext : v[r] > ext))
				ext = v[r];
			if (end_ms < 0 || s->t_ms[r] <= end_ms || isnan(end))
				end = v[r];
		}
		if (isnan(ext))
			continue;
		/* levels have no better direction: lower is what compare colours as
		 * better, and the gate never looks at explaining tables */
		title = xasprintf("%s %s (%s)", workload, l->what, l->low ? "min" : "peak");
		result_table_add(profile_table(res, title, "MB", BETTER_LOWER), op, ext);
		free(title);
		title = xasprintf("%s %s (end)", workload, l->what);
		result_table_add(profile_table(res, title, "MB", BETTER_LOWER), op, end);
		free(title);
	}
	free(v);
}
