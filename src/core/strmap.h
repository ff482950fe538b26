/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small string -> index hash map (open addressing), so that looking up an
 * op among thousands stays O(1) and loading or comparing results stays
 * linear in their size. Keys are borrowed: they must outlive the map.
 */
#ifndef LRUBENCH_STRMAP_H
#define LRUBENCH_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap {
	const char **keys;
	size_t *vals;
	size_t n, cap;
};
#define STRMAP_INIT { NULL, NULL, 0, 0 }

bool strmap_get(const struct strmap *m, const char *key, size_t *val);
/* Adds or replaces. */
void strmap_put(struct strmap *m, const char *key, size_t val);
void strmap_release(struct strmap *m);

#endif
