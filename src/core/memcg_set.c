// SPDX-License-Identifier: GPL-2.0-or-later
/* A set of memcgs, made, read and removed together (memcg_set.h). */
#include "core/memcg_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cleanup.h"
#include "core/workload.h"

/* One member: below the run parent (env_memcg), or below parent. */
static int make_one(struct run_env *env, const struct cgroup *parent, const char *name, uint64_t limit,
		    struct cgroup *out)
{
	if (!parent)
		return env_memcg(env, name, limit, out);
	memset(out, 0, sizeof(*out));
	if (cg_create(env->cg, parent, name, out))
		return -1;
	if (cg_set_limit(out, limit)) {
		cg_destroy(out);
		return -1;
	}
	return 0;
}

/* Room for want members; the root borrowed as the first when root. */
static enum wl_status make(struct run_env *env, const struct cgroup *parent, const char *prefix,
			   unsigned first, size_t want, bool root, uint64_t limit, struct memcg_set *set)
{
	memset(set, 0, sizeof(*set));
	set->cg = xcalloc(want + 1, sizeof(*set->cg));
	set->procs = xcalloc(want + 1, sizeof(*set->procs));
	if (root) {
		/* memcgs = 0: the root memory cgroup, the controller on, no memcg of their own */
		if (env_root_memcg(env, &set->cg[0]))
			return WL_FAILED;
		cg_procs_file(&set->cg[0], set->procs[0], sizeof(set->procs[0]));
		set->root = true;
		set->n = 1;
		return WL_OK;
	}
	for (; set->n < want; set->n++) {
		char name[64];

		if (lb_stop_requested())
			return WL_INTERRUPTED;
		snprintf(name, sizeof(name), "%s-%zu", prefix, first + set->n);
		if (make_one(env, parent, name, limit, &set->cg[set->n]))
			return WL_FAILED;
	}
	for (size_t m = 0; m < set->n; m++)
		cg_procs_file(&set->cg[m], set->procs[m], sizeof(set->procs[m]));
	return WL_OK;
}

enum wl_status memcg_set_make(struct run_env *env, const char *prefix, unsigned first, size_t count,
			      uint64_t limit, struct memcg_set *set)
{
	return make(env, NULL, prefix, first, count, !count, limit, set);
}

enum wl_status memcg_set_make_n(struct run_env *env, const char *prefix, unsigned first, size_t count,
				uint64_t limit, struct memcg_set *set)
{
	return make(env, NULL, prefix, first, count, false, limit, set);
}

enum wl_status memcg_set_make_under(struct run_env *env, const struct cgroup *parent, const char *prefix,
				    unsigned first, size_t count, uint64_t limit, struct memcg_set *set)
{
	if (!env->cg || env->cg->mode == CG_NONE || !parent || parent->borrowed) {
		memset(set, 0, sizeof(*set));
		error("cannot create memcgs %s-*: %s", prefix, parent && parent->borrowed ?
		      "the root memory cgroup is not a parent of a set" : "no memory cgroup controller");
		return WL_FAILED;
	}
	return make(env, parent, prefix, first, count, false, limit, set);
}

enum wl_status memcg_set_make_optional(struct run_env *env, const char *prefix, unsigned first,
				       size_t count, uint64_t limit, struct memcg_set *set)
{
	if (!count && (!env->cg || env->cg->mode == CG_NONE)) {
		memset(set, 0, sizeof(*set));
		return WL_OK;
	}
	return memcg_set_make(env, prefix, first, count, limit, set);
}

int memcg_one(struct run_env *env, bool root, const char *name, uint64_t limit, struct cgroup *out)
{
	return root ? env_root_memcg(env, out) : env_memcg(env, name, limit, out);
}

int memcg_set_remove(struct memcg_set *set)
{
	int ret = 0;

	for (size_t m = 0; m < set->n; m++)
		if (cg_destroy(&set->cg[m]))
			ret = -1;
	free(set->cg);
	free(set->procs);
	memset(set, 0, sizeof(*set));
	return ret;
}

void memcg_stats_take(struct memcg_stats *st, const struct memcg_set *set, const char *const *keys,
		      size_t nkeys)
{
	st->keys = keys;
	st->nkeys = nkeys;
	st->n = set->n;
	st->vals = xcalloc(set->n * nkeys + 1, sizeof(*st->vals));
	st->have = xcalloc(nkeys + 1, sizeof(*st->have));
	st->text = xcalloc(set->n + 1, sizeof(*st->text));
	for (size_t k = 0; k < nkeys; k++)
		st->have[k] = set->n > 0;
	/* one read of memory.stat per member, every key from it: a v1
	 * memory.stat costs as much to read as it has lines, whatever is asked */
	for (size_t m = 0; m < set->n; m++) {
		char *text = cg_stat_text(&set->cg[m]);

		for (size_t k = 0; k < nkeys; k++)
			if (cg_stat_in(&set->cg[m], text, keys[k], &st->vals[m * nkeys + k]))
				st->have[k] = false;
		st->text[m] = text;
	}
}

uint64_t memcg_stats_delta(const struct memcg_stats *before, const struct memcg_stats *after, size_t m,
			   size_t k)
{
	uint64_t x = before->vals[m * before->nkeys + k], y = after->vals[m * after->nkeys + k];

	return y >= x ? y - x : 0;
}

bool memcg_stats_have(const struct memcg_stats *before, const struct memcg_stats *after, size_t k)
{
	return before->have && after->have && before->n == after->n && before->have[k] && after->have[k];
}

void memcg_stats_release(struct memcg_stats *st)
{
	for (size_t m = 0; st->text && m < st->n; m++)
		free(st->text[m]);
	free(st->text);
	free(st->vals);
	free(st->have);
	memset(st, 0, sizeof(*st));
}
