// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-memcg reclaim rates (memcg_rates.h). */
#include "profile/memcg_rates.h"
#include "profile/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void memcg_snapshot_take(struct memcg_snapshot *s, const struct cgroup *cgs, size_t n)
{
	s->n = n;
	s->c = xcalloc(n ? n : 1, sizeof(*s->c));
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s/memory.stat", cgs[i].path);

		if (counters_read(p, &s->c[i]))
			memset(&s->c[i], 0, sizeof(s->c[i]));
		free(p);
	}
}

void memcg_snapshot_release(struct memcg_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		counters_release(&s->c[i]);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

void wl_sample_memcg_rates(struct wl_samples *s, const char *op, const struct memcg_snapshot *before,
			   const struct memcg_snapshot *after, double seconds)
{
	if (s->discard || seconds <= 0 || before->n != after->n || !before->n)
		return;
	for (size_t r = 0; r < reclaim_rates_count; r++) {
		const struct reclaim_rate *rt = &reclaim_rates[r];
		unsigned long long sum = 0, x, y;
		size_t m;
		char *title;

		for (m = 0; m < before->n; m++) {
			if (!reclaim_value(rt->memcg, &before->c[m], &x) ||
			    !reclaim_value(rt->memcg, &after->c[m], &y))
				break;
			sum += y >= x ? y - x : 0;
		}
		if (m < before->n)
			continue;   /* not a counter of this kernel or cgroup version */
		title = xasprintf("%s memcg %s/s", s->res->workload, rt->name);
		result_table_add(profile_table(s->res, title, "pages/s", BETTER_LOWER), op,
				 (double)sum / seconds);
		free(title);
	}
}
