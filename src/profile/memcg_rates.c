// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-memcg reclaim rates and fairness (memcg_rates.h). */
#include "profile/memcg_rates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/memcg_set.h"
#include "profile/profile.h"
#include "profile/reclaim.h"

/* Member m's memory.stat of st as counters (empty when it was unreadable).
 * The names are st's: free only the two arrays (member_release). */
static void member_counters(const struct memcg_stats *st, size_t m, struct counters *c)
{
	memset(c, 0, sizeof(*c));
	c->keys = xcalloc(st->nnames + 1, sizeof(*c->keys));
	c->vals = xcalloc(st->nnames + 1, sizeof(*c->vals));
	for (size_t k = 0; st->all && m < st->n && k < st->nnames; k++)
		if (st->all[m * st->nnames + k] != MEMCG_STAT_NONE) {
			c->keys[c->n] = st->names[k];
			c->vals[c->n++] = st->all[m * st->nnames + k];
		}
}

static void member_release(struct counters *c)
{
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}

static void memcg_rates(struct wl_samples *s, const char *op, const struct memcg_stats *before,
			const struct memcg_stats *after, double seconds)
{
	size_t n = before->n;
	struct counters *b, *a;

	if (s->discard || seconds <= 0 || n != after->n || !n)
		return;
	/* parsed once per member, not once per rate */
	b = xcalloc(n, sizeof(*b));
	a = xcalloc(n, sizeof(*a));
	for (size_t m = 0; m < n; m++) {
		member_counters(before, m, &b[m]);
		member_counters(after, m, &a[m]);
	}
	for (size_t r = 0; r < reclaim_rates_count; r++) {
		const struct reclaim_rate *rt = &reclaim_rates[r];
		unsigned long long sum = 0, x, y;
		size_t m;
		char *title;

		for (m = 0; m < n; m++) {
			if (!reclaim_value(rt->memcg, &b[m], &x) || !reclaim_value(rt->memcg, &a[m], &y))
				break;
			sum += y >= x ? y - x : 0;
		}
		if (m < n)
			continue;   /* not a counter of this kernel or cgroup version */
		title = xasprintf("%s memcg %s/s", s->res->workload, rt->name);
		result_table_add(profile_table(s->res, title, "pages/s", BETTER_LOWER), op,
				 (double)sum / seconds);
		free(title);
	}
	for (size_t m = 0; m < n; m++) {
		member_release(&b[m]);
		member_release(&a[m]);
	}
	free(b);
	free(a);
}

void memcg_report_tables(struct wl_samples *s, const struct wl_memcg_report *r)
{
	/* does every memcg get its share? how hard did reclaim work? */
	if (r->per_memcg)
		wl_sample_fairness(s, r->op, r->per_memcg, r->n);
	if (r->before && r->after)
		memcg_rates(s, r->op, r->before, r->after, r->seconds);
}
