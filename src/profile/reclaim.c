// SPDX-License-Identifier: GPL-2.0-or-later
/* Reclaim counters and the fairness index (reclaim.h). */
#include "profile/reclaim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

const struct reclaim_rate reclaim_rates[] = {
	{ "pgscan",
	  { { "pgscan_anon", "pgscan_file" }, { "pgscan_kswapd", "pgscan_direct" } },
	  { { "pgscan" } } },
	{ "pgsteal",
	  { { "pgsteal_anon", "pgsteal_file" }, { "pgsteal_kswapd", "pgsteal_direct" } },
	  { { "pgsteal" } } },
	{ "pgactivate", { { "pgactivate" } }, { { "pgactivate" } } },
	{ "pgdeactivate", { { "pgdeactivate" } }, { { "pgdeactivate" } } },
	{ "pgrefill", { { "pgrefill" } }, { { "pgrefill" } } },
	{ "workingset_refault",
	  { { "workingset_refault_anon", "workingset_refault_file" }, { "workingset_refault" } },
	  { { "workingset_refault_anon", "workingset_refault_file" }, { "workingset_refault" } } },
};
const size_t reclaim_rates_count = sizeof(reclaim_rates) / sizeof(reclaim_rates[0]);

int counters_parse(const char *text, struct counters *c)
{
	memset(c, 0, sizeof(*c));
	for (const char *l = text; l && *l; ) {
		const char *nl = strchr(l, '\n'), *sp = strchr(l, ' ');
		unsigned long long v;

		if (sp && (!nl || sp < nl) && sp > l && sscanf(sp, " %llu", &v) == 1) {
			ALLOC_GROW(c->keys, c->n + 1, c->cap);
			c->vals = xrealloc(c->vals, c->cap * sizeof(*c->vals));
			c->keys[c->n] = xstrndup(l, (size_t)(sp - l));
			c->vals[c->n++] = v;
		}
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

int counters_read(const char *path, struct counters *c)
{
	char *text = read_file_str(path, NULL);

	memset(c, 0, sizeof(*c));
	if (!text)
		return -1;
	counters_parse(text, c);
	free(text);
	return 0;
}

bool counters_get(const struct counters *c, const char *key, unsigned long long *v)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->keys[i], key)) {
			*v = c->vals[i];
			return true;
		}
	return false;
}

void counters_release(struct counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->keys[i]);
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}

bool reclaim_value(const char *const alts[RECLAIM_ALT][RECLAIM_KEYS], const struct counters *c,
		   unsigned long long *v)
{
	for (int a = 0; a < RECLAIM_ALT && alts[a][0]; a++) {
		unsigned long long sum = 0, x;
		int k;

		for (k = 0; k < RECLAIM_KEYS && alts[a][k]; k++) {
			if (!counters_get(c, alts[a][k], &x))
				break;
			sum += x;
		}
		if (k == RECLAIM_KEYS || !alts[a][k]) {
			*v = sum;
			return true;
		}
	}
	return false;
}

double jain_index(const double *x, size_t n)
{
	double s = 0, s2 = 0;

	if (n <= 1)
		return 1;
	for (size_t i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return s2 > 0 ? s * s / ((double)n * s2) : 0;
}
