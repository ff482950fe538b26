// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench bisect-log DIR: the folder `lrubench bisect-step` keeps (see
 * bisect.c), as a table: what is bisected, then one line per step with its
 * commit, verdict, statistic, distance from the midpoint, p, samples and
 * boots, and why a skipped step was skipped.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "core/parse_options.h"
#include "core/results.h"
#include "core/strlist.h"

static const struct popt bisect_log_options[] = {
	POPT_END(),
};

const struct popt_command bisect_log_command = {
	"bisect-log", "DIR",
	"Print the log of a bisect folder made by 'lrubench bisect-step': what is\n"
	"bisected, then one line per step with its commit, verdict, the statistic,\n"
	"its distance to the midpoint, p, samples and boots.",
	bisect_log_options,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ? json_object_get_string(v) : "";
}

static double num_of(json_object *o, const char *key, bool *ok)
{
	json_object *v;

	*ok = json_object_object_get_ex(o, key, &v) && v &&
	      (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int));
	return *ok ? json_object_get_double(v) : 0;
}

static int bisect_log(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct strlist names = STRLIST_INIT;
	json_object *setup;
	char *path, *steps;
	int n, counts[3] = { 0 };
	DIR *d;
	struct dirent *de;
	double mid;
	bool ok;

	n = parse_options(&bisect_log_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (n != 1)
		return popt_usage_error(&bisect_log_command, "give one bisect folder (bisect-step --dir)");
	path = xasprintf("%s/bisect.json", argv[0]);
	if (!path_exists(path)) {
		error("%s: not a bisect folder (no bisect.json: 'lrubench bisect-step --dir' makes one)",
		      argv[0]);
		free(path);
		return LB_EXIT_USAGE;
	}
	setup = json_load_file(path, &err);
	free(path);
	if (!setup) {
		error("%s", err.buf);
		strbuf_release(&err);
		return LB_EXIT_FAIL;
	}
	mid = num_of(setup, "midpoint", &ok);
	printf("bisect of op %s in '%s' (%s, %s is better), %s:\n", str_of(setup, "op"),
	       str_of(setup, "table"), str_of(setup, "unit"), str_of(setup, "better"), str_of(setup, "stat"));
	printf("  good %-14g %s\n  bad  %-14g %s\n  midpoint %g\n\n", num_of(setup, "good_value", &ok),
	       str_of(setup, "good"), num_of(setup, "bad_value", &ok), str_of(setup, "bad"), mid);
	printf("%-4s  %-12s  %-7s  %12s  %8s  %8s  %3s  %6s  %s\n", "step", "commit", "verdict",
	       str_of(setup, "stat"), "vs mid", "p", "n", "boots", "subject / reason");
	steps = xasprintf("%s/steps", argv[0]);
	d = opendir(steps);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			strlist_push(&names, de->d_name);
	if (d)
		closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.n; i++) {
		char *dp = xasprintf("%s/%s/decision.json", steps, names.v[i]);
		json_object *o = path_exists(dp) ? json_load_file(dp, &err) : NULL;
		const char *verdict = o ? str_of(o, "verdict") : "?";
		double v, p;
		bool have_v, have_p;

		free(dp);
		if (!o) {
			printf("%-4s  %-12s  %-7s  (no decision: the step did not finish)\n",
			       names.v[i], "", "-");
			strbuf_reset(&err);
			continue;
		}
		v = num_of(o, "value", &have_v);
		p = num_of(o, "p", &have_p);
		counts[!strcmp(verdict, "good") ? 0 : !strcmp(verdict, "bad") ? 1 : 2]++;
		printf("%-4d  %-12.12s  %-7s  ", json_object_get_int(json_object_object_get(o, "step")),
		       str_of(o, "commit"), verdict);
		if (have_v)
			printf("%12.2f  %+7.2f%%  %8.3g  %3d  %6d  ", v, mid ? (v - mid) * 100 / fabs(mid) : 0,
			       have_p ? p : 1, json_object_get_int(json_object_object_get(o, "n")),
			       json_object_get_int(json_object_object_get(o, "rounds")));
		else
			printf("%12s  %8s  %8s  %3s  %6d  ", "-", "-", "-", "-",
			       json_object_get_int(json_object_object_get(o, "rounds")));
		printf("%s\n", str_of(o, "subject"));
		if (strcmp(verdict, "good") && strcmp(verdict, "bad"))
			printf("%-4s  %s\n", "", str_of(o, "reason"));
		json_object_put(o);
	}
	printf("\n%zu step%s: %d good, %d bad, %d skipped\n", names.n, names.n == 1 ? "" : "s",
	       counts[0], counts[1], counts[2]);
	free(steps);
	strlist_release(&names);
	json_object_put(setup);
	strbuf_release(&err);
	return LB_EXIT_OK;
}

int cmd_bisect_log(int argc, char **argv)
{
	return bisect_log(argc, argv);
}
