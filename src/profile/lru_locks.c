// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LRU lock names (lru_locks.h). "checked" says on which kernels the name
 * was seen and how:
 *   6.18 kallsyms  - present in /proc/kallsyms of 6.18.44 (the CI machine);
 *   6.18 perf      - reported as a caller by perf lock contention on 6.18.44
 *                    under readtwice (so it is what perf prints there);
 *   6.1 source     - defined in Debian's linux-source-6.1 (6.1.192) and
 *                    taking the lru_lock there (mm/swap.c, mm/vmscan.c,
 *                    mm/memcontrol.c, mm/mlock.c);
 *   5.10 source    - defined in a 5.10.264 tree (Android common kernel 5.10)
 *                    and taking pgdat->lru_lock there;
 *   history        - named after the kernel's git history only, not seen
 *                    here (kept so old kernels are counted at all).
 * A caller that is absent on a kernel costs nothing: it simply never matches.
 */
#include "profile/lru_locks.h"

#include <stdio.h>
#include <string.h>

const struct lru_lock_name lru_lock_names[] = {
	/* adding folios to, moving them on, and draining the per-CPU batches */
	{ "folio_batch_move_lru", LRU_CALLER, "moves a per-CPU folio batch onto the LRU",
	  "6.18 perf, 6.18 kallsyms, 6.1 source" },
	{ "pagevec_lru_move_fn", LRU_CALLER, "older name of folio_batch_move_lru",
	  "5.10 source (absent in 6.1 source)" },
	{ "__pagevec_lru_add", LRU_CALLER, "adds a pagevec to the LRU (before folio batches)",
	  "5.10 source (absent in 6.1 source)" },
	{ "lru_add_drain*", LRU_CALLER, "drains the per-CPU batches onto the LRU",
	  "6.18 kallsyms, 6.1 source, 5.10 source" },
	{ "lru_note_cost", LRU_CALLER, "updates the lruvec's reclaim cost under its lock",
	  "6.1 source (inlined on 6.18: absent from kallsyms)" },
	{ "folio_activate", LRU_CALLER, "activates a folio (uniprocessor path takes the lock)",
	  "6.18 kallsyms, 6.1 source" },
	{ "activate_page", LRU_CALLER, "older name of folio_activate", "5.10 source" },
	/* freeing */
	{ "release_pages", LRU_CALLER, "frees pages, taking them off the LRU",
	  "6.18 kallsyms, 6.1 source, 5.10 source" },
	{ "folios_put_refs", LRU_CALLER, "frees folios, taking them off the LRU (6.9 on)",
	  "6.18 kallsyms (absent in 6.1 source)" },
	{ "__page_cache_release", LRU_CALLER, "takes a freed folio off the LRU",
	  "6.18 perf (as __page_cache_release.part.0), 6.1 source, 5.10 source" },
	/* the lock helpers themselves (the waiter when perf does not skip them) */
	{ "folio_lruvec_lock*", LRU_CALLER, "locks a folio's lruvec", "6.18 kallsyms, 6.1 source" },
	{ "folio_lruvec_relock*", LRU_CALLER, "relocks when the folio's lruvec changes",
	  "6.1 source (inline there)" },
	{ "lock_page_lruvec*", LRU_CALLER, "older name of folio_lruvec_lock* (5.11-5.15)",
	  "history (absent in 6.1 and 5.10 source)" },
	/* reclaim and isolation */
	{ "isolate_lru_folios", LRU_CALLER, "isolates folios for reclaim (called under the lock)",
	  "6.18 kallsyms, 6.1 source" },
	{ "isolate_lru_pages", LRU_CALLER, "older name of isolate_lru_folios", "5.10 source" },
	{ "folio_isolate_lru", LRU_CALLER, "isolates one folio", "6.18 kallsyms, 6.1 source" },
	{ "isolate_lru_page", LRU_CALLER, "older name of folio_isolate_lru", "5.10 source" },
	{ "shrink_active_list", LRU_CALLER, "deactivates: isolates and puts back under the lock",
	  "6.18 kallsyms, 6.1 source, 5.10 source" },
	{ "shrink_inactive_list", LRU_CALLER, "reclaims: isolates and puts back under the lock",
	  "6.1 source, 5.10 source (inlined on 6.18)" },
	{ "shrink_lruvec", LRU_CALLER, "takes lru_lock where shrink_inactive_list and "
	  "shrink_active_list are inlined into it", "6.18 perf -v (the lock taker under reclaim)" },
	/* not shrink_folio_list (shrink_page_list before 6.1): it works on a list
	 * already isolated, without lru_lock (6.1 source), and the spinlock waits
	 * perf -v showed in it on 6.18 were the zone lock (free_one_page) */
	{ "move_folios_to_lru", LRU_CALLER, "puts isolated folios back", "6.18 kallsyms, 6.1 source" },
	{ "move_pages_to_lru", LRU_CALLER, "older name of move_folios_to_lru", "5.10 source" },
	{ "check_move_unevictable_folios", LRU_CALLER, "rescues unevictable folios",
	  "6.1 source" },
	{ "check_move_unevictable_pages", LRU_CALLER, "older name of check_move_unevictable_folios",
	  "6.1 source" },
	/* multi-gen LRU */
	{ "evict_folios", LRU_CALLER, "MGLRU eviction", "6.1 source (inlined on 6.18)" },
	{ "inc_max_seq", LRU_CALLER, "MGLRU generation aging", "6.1 source" },
	{ "lru_gen_look_around", LRU_CALLER, "MGLRU look-around", "6.1 source" },
	/* mlock batches */
	{ "mlock_folio_batch", LRU_CALLER, "moves mlocked folios", "6.18 kallsyms" },
	{ "mlock_pagevec", LRU_CALLER, "older name of mlock_folio_batch", "6.1 source" },
	/* lock_stat lock classes */
	{ "&lruvec->lru_lock", LRU_LOCK_CLASS, "the per-memcg, per-node LRU lock (5.11 on)",
	  "6.1 source" },
	{ "&pgdat->lru_lock", LRU_LOCK_CLASS, "the per-node LRU lock (4.8-5.10)", "5.10 source" },
	{ "&zone->lru_lock", LRU_LOCK_CLASS, "the per-zone LRU lock (before 4.8)", "history" },
};
const size_t lru_lock_names_count = sizeof(lru_lock_names) / sizeof(lru_lock_names[0]);

/* ".part.0", ".isra.3", ".constprop.0", ".cold", ".cold.12", ".llvm.123" at the end */
static size_t strip_clone_suffix(const char *s, size_t n)
{
	static const char *const tags[] = { ".part.", ".isra.", ".constprop.", ".cold", ".llvm." };
	bool again = true;

	while (again) {
		again = false;
		for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
			size_t tl = strlen(tags[t]);

			for (size_t i = 1; i + tl <= n; i++) {
				size_t j = i + tl;

				if (memcmp(s + i, tags[t], tl))
					continue;
				while (j < n && s[j] >= '0' && s[j] <= '9')
					j++;
				if (j == n) {
					n = i;
					again = true;
					break;
				}
			}
		}
	}
	return n;
}

char *lru_caller_function(const char *caller, char *out, size_t len)
{
	size_t n = strcspn(caller, "+ \t");

	n = strip_clone_suffix(caller, n);
	if (len) {
		if (n >= len)
			n = len - 1;
		memcpy(out, caller, n);
		out[n] = '\0';
	}
	return out;
}

static bool name_matches(const char *pattern, const char *s)
{
	size_t pl = strlen(pattern);

	if (pl && pattern[pl - 1] == '*')
		return !strncmp(pattern, s, pl - 1);
	return !strcmp(pattern, s);
}

bool lru_is_lru_caller(const char *caller)
{
	char fn[256];

	lru_caller_function(caller, fn, sizeof(fn));
	for (size_t i = 0; i < lru_lock_names_count; i++)
		if (lru_lock_names[i].kind == LRU_CALLER && name_matches(lru_lock_names[i].name, fn))
			return true;
	return false;
}

bool lru_is_lru_class(const char *class_name)
{
	char c[256];
	size_t n;

	/* rw lock classes carry -R / -W in lock_stat */
	snprintf(c, sizeof(c), "%s", class_name);
	n = strlen(c);
	if (n > 2 && c[n - 2] == '-' && (c[n - 1] == 'R' || c[n - 1] == 'W'))
		c[n - 2] = '\0';
	for (size_t i = 0; i < lru_lock_names_count; i++)
		if (lru_lock_names[i].kind == LRU_LOCK_CLASS && name_matches(lru_lock_names[i].name, c))
			return true;
	return false;
}
