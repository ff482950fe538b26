// SPDX-License-Identifier: GPL-2.0-or-later
/* A growable, NULL-terminated list of owned strings. */
#include "core/strlist.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"

static void push_owned(struct strlist *l, char *s)
{
	ALLOC_GROW(l->v, l->n + 2, l->cap);
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void strlist_push(struct strlist *l, const char *s)
{
	push_owned(l, xstrdup(s));
}

void strlist_pushf(struct strlist *l, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	push_owned(l, strbuf_detach(&sb));
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

void strlist_release(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
