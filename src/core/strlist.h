/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable list of owned strings, NULL-terminated: argv arrays, module
 * lists, repeatable options. The one string vector of the code base. */
#ifndef LRUBENCH_STRLIST_H
#define LRUBENCH_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

struct strlist {
	char **v;      /* v[n] is NULL once anything was pushed */
	size_t n, cap;
};
#define STRLIST_INIT { NULL, 0, 0 }

void strlist_push(struct strlist *l, const char *s);
void strlist_pushf(struct strlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool strlist_has(const struct strlist *l, const char *s);
void strlist_release(struct strlist *l);

#endif
