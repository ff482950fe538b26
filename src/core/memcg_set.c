// SPDX-License-Identifier: GPL-2.0-or-later
/* A set of memcgs, made, read and removed together (memcg_set.h). */
#include "core/memcg_set.h"

#include <errno.h>
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

/* The length of the name at line (up to its space), or 0 when the line is
 * not "NAME VALUE"; *v the value. */
static size_t stat_line(const char *line, uint64_t *v)
{
	size_t l = strcspn(line, " \n");
	unsigned long long x;
	char *end;

	if (!l || line[l] != ' ')
		return 0;
	errno = 0;
	x = strtoull(line + l + 1, &end, 10);
	if (errno || end == line + l + 1)
		return 0;
	*v = x;
	return l;
}

/* Counter c of the names, given that a member's line number j often is c. */
static long name_index(const struct memcg_stats *st, size_t j, const char *name, size_t len)
{
	if (j < st->nnames && strlen(st->names[j]) == len && !strncmp(st->names[j], name, len))
		return (long)j;
	for (size_t c = 0; c < st->nnames; c++)
		if (strlen(st->names[c]) == len && !strncmp(st->names[c], name, len))
			return (long)c;
	return -1;
}

/* Member m's every counter from its memory.stat text (NULL: unreadable,
 * all absent). The first readable member names the counters: every member
 * of one kernel and cgroup version has the same lines. */
static void parse_all(struct memcg_stats *st, size_t m, const char *text)
{
	size_t j = 0;

	if (text && !st->names) {
		size_t lines = 0;

		for (const char *p = text; *p; p++)
			lines += *p == '\n';
		st->names = xcalloc(lines + 2, sizeof(*st->names));
		for (const char *p = text; *p; ) {
			uint64_t v;
			size_t l = stat_line(p, &v);

			if (l && st->nnames <= lines)
				st->names[st->nnames++] = xstrndup(p, l);
			p = strchr(p, '\n');
			p = p ? p + 1 : "";
		}
		st->all = xmalloc((st->n * st->nnames + 1) * sizeof(*st->all));
		for (size_t i = 0; i < st->n * st->nnames; i++)
			st->all[i] = MEMCG_STAT_NONE;
	}
	if (!text || !st->all)
		return;
	for (const char *p = text; *p; j++) {
		uint64_t v;
		size_t l = stat_line(p, &v);
		long c = l ? name_index(st, j, p, l) : -1;

		if (c >= 0)
			st->all[m * st->nnames + (size_t)c] = v;
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
}

void memcg_stats_take(struct memcg_stats *st, const struct memcg_set *set, const char *const *keys,
		      size_t nkeys)
{
	st->keys = keys;
	st->nkeys = nkeys;
	st->n = set->n;
	st->vals = xcalloc(set->n * nkeys + 1, sizeof(*st->vals));
	st->have = xcalloc(nkeys + 1, sizeof(*st->have));
	st->names = NULL;
	st->nnames = 0;
	st->all = NULL;
	for (size_t k = 0; k < nkeys; k++)
		st->have[k] = set->n > 0;
	/* one read of memory.stat per member, every key from it: a v1
	 * memory.stat costs as much to read as it has lines, whatever is asked */
	for (size_t m = 0; m < set->n; m++) {
		char *text = cg_stat_text(&set->cg[m]);

		for (size_t k = 0; k < nkeys; k++)
			if (cg_stat_in(&set->cg[m], text, keys[k], &st->vals[m * nkeys + k]))
				st->have[k] = false;
		parse_all(st, m, text);
		free(text);
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

bool memcg_stats_get(const struct memcg_stats *st, size_t m, const char *name, uint64_t *v)
{
	long c;

	if (!st->all || m >= st->n)
		return false;
	c = name_index(st, 0, name, strlen(name));
	if (c < 0 || st->all[m * st->nnames + (size_t)c] == MEMCG_STAT_NONE)
		return false;
	*v = st->all[m * st->nnames + (size_t)c];
	return true;
}

void memcg_stats_release(struct memcg_stats *st)
{
	for (size_t c = 0; st->names && c < st->nnames; c++)
		free(st->names[c]);
	free(st->names);
	free(st->all);
	free(st->vals);
	free(st->have);
	memset(st, 0, sizeof(*st));
}
