// SPDX-License-Identifier: GPL-2.0-or-later
/* String -> index hash map; see strmap.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/strmap.h"
#include "core/util.h"

static size_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t i = hash_str(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

bool strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot_of(m, key);
	if (!m->keys[i])
		return false;
	if (val)
		*val = m->vals[i];
	return true;
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->vals = xcalloc(m->cap, sizeof(*m->vals));
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			strmap_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

void strmap_put(struct strmap *m, const char *key, size_t val)
{
	size_t i;

	/* keep the load under 1/2 so probes stay short */
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	i = slot_of(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->n++;
	}
	m->vals[i] = val;
}

void strmap_release(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
