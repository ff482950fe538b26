// SPDX-License-Identifier: GPL-2.0-or-later
/* perf stat -x , output (perf_stat.h). */
#include "profile/perf_stat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"

/* a results folder's copy of perf's output is not trusted: bounded */
#define MAX_LINES 4096

/* The next comma-separated field of *s (NUL-terminated in place). */
static char *field(char **s)
{
	char *f = *s, *c;

	if (!f)
		return NULL;
	c = strchr(f, ',');
	if (c) {
		*c = '\0';
		*s = c + 1;
	} else {
		*s = NULL;
	}
	return f;
}

/* event names and units become table titles: perf's own spelling only
 * ("cycles", "cpu_core/cycles/", "dTLB-load-misses:u", "msec") */
static bool plain(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:-=") ==
	       strlen(s);
}

static bool number(const char *s, double *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && !*end && isfinite(*v) && *v >= 0;
}

static void bad_line(struct strbuf *why, size_t no, const char *line)
{
	char head[81];

	snprintf(head, sizeof(head), "%s", line);
	strbuf_addf(why, "perf stat output, line %zu: '", no);
	strbuf_add_inert(why, head);
	strbuf_addstr(why, "' is not perf stat -x , output");
}

int perf_stat_parse(const char *text, struct perf_stat_report *rep, struct strbuf *why)
{
	char *copy = xstrdup(text), *save = NULL, *line;
	size_t no = 0;
	int ret = 0;

	memset(rep, 0, sizeof(*rep));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *rest, *val, *unit, *ev, *rt, *pct;
		struct perf_stat_event *e;
		double x;

		if (++no > MAX_LINES) {
			strbuf_addf(why, "perf stat output: more than %d lines", MAX_LINES);
			ret = -1;
			break;
		}
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		{
			char *orig = xstrdup(line);

			rest = line;
			val = field(&rest);
			unit = field(&rest);
			ev = field(&rest);
			rt = field(&rest);
			pct = field(&rest);
			(void)rt;
			/* ",,,,,0.04,stalled cycles per insn": a metric of the event above */
			if (val && !*val && ev && !*ev) {
				free(orig);
				continue;
			}
			if (!val || !ev || !*ev || strlen(ev) >= sizeof(e->name) || !pct || !unit ||
			    strlen(unit) >= sizeof(e->unit) || !plain(ev) || !plain(unit)) {
				bad_line(why, no, orig);
				free(orig);
				ret = -1;
				break;
			}
			free(orig);
		}
		if (rep->n == PERF_STAT_MAX_EVENTS) {
			strbuf_addf(why, "perf stat output: more than %d events", PERF_STAT_MAX_EVENTS);
			ret = -1;
			break;
		}
		e = &rep->ev[rep->n];
		snprintf(e->name, sizeof(e->name), "%s", ev);
		snprintf(e->unit, sizeof(e->unit), "%s", unit);
		if (!strcmp(val, "<not supported>") || !strcmp(val, "<not counted>")) {
			snprintf(e->why, sizeof(e->why), "%s", val[5] == 's' ? "not supported" : "not counted");
		} else if (number(val, &x)) {
			e->value = x;
			e->counted = true;
			e->running_pct = number(pct, &x) ? x : 100;
		} else {
			strbuf_addf(why, "perf stat output, line %zu: the count of '", no);
			strbuf_add_inert(why, ev);
			strbuf_addstr(why, "' is not a number");
			ret = -1;
			break;
		}
		rep->n++;
	}
	if (!ret && !rep->n) {
		strbuf_addstr(why, "perf stat output holds no counter");
		ret = -1;
	}
	free(copy);
	return ret;
}

bool perf_stat_value(const struct perf_stat_report *rep, const char *event, double *v)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->ev[i].name, event) && rep->ev[i].counted) {
			*v = rep->ev[i].value;
			return true;
		}
	return false;
}

json_object *perf_stat_json(const struct perf_stat_report *rep)
{
	json_object *o = json_object_new_object(), *ev = json_object_new_object(), *nc = NULL;

	for (size_t i = 0; i < rep->n; i++) {
		const struct perf_stat_event *e = &rep->ev[i];

		if (e->counted) {
			json_object_object_add(ev, e->name, json_object_new_double(e->value));
			continue;
		}
		if (!nc)
			nc = json_object_new_object();
		json_object_object_add(nc, e->name, json_object_new_string(e->why));
	}
	json_object_object_add(o, "events", ev);
	if (nc)
		json_object_object_add(o, "not_counted", nc);
	return o;
}
