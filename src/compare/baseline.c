// SPDX-License-Identifier: GPL-2.0-or-later
/* --baseline (baseline.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "compare/baseline.h"

static void move_to_front(struct label_result *v, size_t i)
{
	struct label_result x = v[i];

	memmove(v + 1, v, i * sizeof(*v));
	v[0] = x;
}

static bool same_folder(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

int labels_pick_baseline(struct label_result **labels, size_t *n, const char *which,
			 struct strbuf *err)
{
	struct label_result *v = *labels, extra;

	if (!*which) {
		strbuf_addstr(err, "--baseline: empty label name");
		return -1;
	}
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i].label, which)) {
			move_to_front(v, i);
			return 0;
		}
	if (!is_dir(which) || !is_label_dir(which)) {
		strbuf_addf(err, "--baseline '%s': neither a label among the results given "
			    "(found:", which);
		for (size_t i = 0; i < *n; i++)
			strbuf_addf(err, " %s", v[i].label);
		strbuf_addstr(err, ") nor a label folder (a folder with run.json)");
		return -1;
	}
	if (label_result_load(which, &extra, err))
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i].label, extra.label)) {
			if (!same_folder(v[i].dir, extra.dir)) {
				strbuf_addf(err, "--baseline: label '%s' is in both %s and %s",
					    extra.label, v[i].dir, extra.dir);
				label_result_release(&extra);
				return -1;
			}
			label_result_release(&extra);
			move_to_front(v, i);
			return 0;
		}
	v = xrealloc(v, (*n + 1) * sizeof(*v));
	memmove(v + 1, v, *n * sizeof(*v));
	v[0] = extra;
	*labels = v;
	(*n)++;
	return 0;
}
