// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysbench 1.0.x summary parser. The summary is a set of "key: value" lines
 * grouped under section headers; the same short keys (min, avg, max) only
 * mean latency under "Latency (ms):", so the parser tracks the section.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/sysbench/parse.h"

enum section { SEC_NONE, SEC_SQL, SEC_QUERIES_PERFORMED, SEC_GENERAL, SEC_LATENCY, SEC_FAIRNESS };

static const struct { unsigned bit; const char *name; } field_names[] = {
	{ SB_TRANSACTIONS, "transactions" }, { SB_TPS, "transactions per second" },
	{ SB_QUERIES, "queries" }, { SB_QPS, "queries per second" },
	{ SB_ERRORS, "ignored errors" }, { SB_ERRORS_PS, "ignored errors per second" },
	{ SB_RECONNECTS, "reconnects" }, { SB_RECONNECTS_PS, "reconnects per second" },
	{ SB_TOTAL_TIME, "total time" }, { SB_EVENTS, "total number of events" },
	{ SB_LAT_MIN, "latency min" }, { SB_LAT_AVG, "latency avg" },
	{ SB_LAT_MAX, "latency max" }, { SB_LAT_PCT, "latency percentile" },
	{ SB_LAT_SUM, "latency sum" }, { SB_THREADS, "number of threads" },
};

/* "16579  (3312.19 per sec.)": count, and the rate when present. Returns a
 * mask: 1 count parsed, 2 rate parsed. */
static int parse_count_rate(const char *v, unsigned long long *count, double *rate)
{
	char *end;
	int got = 0;

	if (!isdigit((unsigned char)*v))
		return 0;
	/* beyond 64 bits is no count (strtoull would clamp it without a word) */
	errno = 0;
	*count = strtoull(v, &end, 10);
	if (errno == ERANGE) {
		*count = 0;
		return 0;
	}
	got |= 1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end == '(') {
		const char *r = end + 1;
		char *rend;
		double d = strtod(r, &rend);
		if (rend != r && isfinite(d) && !strncmp(rend, " per sec.", 9)) {
			*rate = d;
			got |= 2;
		}
	}
	return got;
}

static bool parse_double(const char *v, double *out)
{
	char *end;

	if (!isdigit((unsigned char)*v) && *v != '.')
		return false;
	*out = strtod(v, &end);
	return end != v && isfinite(*out);
}

static bool parse_ull_prefix(const char *v, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)*v))
		return false;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return end != v && errno != ERANGE;
}

static void set_pair(struct sb_result *r, const char *v, unsigned long long *count,
		     double *rate, unsigned cbit, unsigned rbit)
{
	int got = parse_count_rate(v, count, rate);
	if (got & 1)
		r->found |= cbit;
	if (got & 2)
		r->found |= rbit;
}

static void parse_line(struct sb_result *r, enum section *sec, char *line)
{
	char *key = line, *colon, *v;
	size_t klen;

	while (*key == ' ' || *key == '\t')
		key++;
	if (!strncmp(key, "FATAL:", 6)) {
		if (!r->fatal[0]) {
			size_t n = strnlen(key, sizeof(r->fatal) - 1);
			memcpy(r->fatal, key, n);
			r->fatal[n] = '\0';
		}
		return;
	}
	colon = strchr(key, ':');
	if (!colon)
		return;
	klen = (size_t)(colon - key);
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;

#define KEY(s) (klen == sizeof(s) - 1 && !strncmp(key, s, klen))
	if (!*v) {   /* a section header */
		if (KEY("SQL statistics"))
			*sec = SEC_SQL;
		else if (KEY("queries performed"))
			*sec = SEC_QUERIES_PERFORMED;
		else if (KEY("General statistics"))
			*sec = SEC_GENERAL;
		else if (KEY("Latency (ms)"))
			*sec = SEC_LATENCY;
		else if (KEY("Threads fairness"))
			*sec = SEC_FAIRNESS;
		return;
	}
	if (KEY("Number of threads")) {
		unsigned long long t;
		if (parse_ull_prefix(v, &t)) {
			r->threads = (unsigned)t;
			r->found |= SB_THREADS;
		}
		return;
	}
	switch (*sec) {
	case SEC_QUERIES_PERFORMED:
		if (KEY("read")) {
			parse_ull_prefix(v, &r->reads);
			break;
		} else if (KEY("write")) {
			parse_ull_prefix(v, &r->writes);
			break;
		} else if (KEY("other")) {
			parse_ull_prefix(v, &r->others);
			break;
		} else if (KEY("total")) {
			break;
		}
		*sec = SEC_SQL;   /* the indented sub-list ended */
		/* fall through */
	case SEC_SQL:
		if (KEY("transactions"))
			set_pair(r, v, &r->transactions, &r->tps, SB_TRANSACTIONS, SB_TPS);
		else if (KEY("queries"))
			set_pair(r, v, &r->queries, &r->qps, SB_QUERIES, SB_QPS);
		else if (KEY("ignored errors"))
			set_pair(r, v, &r->errors, &r->errors_ps, SB_ERRORS, SB_ERRORS_PS);
		else if (KEY("reconnects"))
			set_pair(r, v, &r->reconnects, &r->reconnects_ps, SB_RECONNECTS, SB_RECONNECTS_PS);
		break;
	case SEC_GENERAL:
		if (KEY("total time")) {
			if (parse_double(v, &r->total_time))
				r->found |= SB_TOTAL_TIME;
		} else if (KEY("total number of events")) {
			if (parse_ull_prefix(v, &r->events))
				r->found |= SB_EVENTS;
		}
		break;
	case SEC_LATENCY: {
		unsigned long long pct;
		char *end;

		if (KEY("min")) {
			if (parse_double(v, &r->lat_min))
				r->found |= SB_LAT_MIN;
		} else if (KEY("avg")) {
			if (parse_double(v, &r->lat_avg))
				r->found |= SB_LAT_AVG;
		} else if (KEY("max")) {
			if (parse_double(v, &r->lat_max))
				r->found |= SB_LAT_MAX;
		} else if (KEY("sum")) {
			if (parse_double(v, &r->lat_sum))
				r->found |= SB_LAT_SUM;
		} else if (isdigit((unsigned char)*key) &&
			   (pct = strtoull(key, &end, 10)) > 0 && pct <= 100 &&
			   (size_t)(end - key) + 13 == klen &&
			   !strncmp(end + 2, " percentile", 11)) {
			/* "95th percentile", "99th percentile", "1st percentile" */
			if (parse_double(v, &r->lat_pct)) {
				r->percentile = (unsigned)pct;
				r->found |= SB_LAT_PCT;
			}
		}
		break;
	}
	default:
		break;
	}
#undef KEY
}

int sb_parse(const char *buf, size_t len, struct sb_result *r)
{
	enum section sec = SEC_NONE;
	size_t i = 0;
	int n = 0;

	memset(r, 0, sizeof(*r));
	while (i < len) {
		char line[256];
		size_t start = i, l;

		while (i < len && buf[i] != '\n')
			i++;
		l = i - start;
		/* sysbench ends every line with '\n': a last line without one
		 * was cut (truncated log) and its number may be cut too. */
		if (i == len)
			break;
		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, buf + start, l);
		line[l] = '\0';
		if (l && line[l - 1] == '\r')
			line[l - 1] = '\0';
		parse_line(r, &sec, line);
		i++;   /* skip '\n' */
	}
	for (size_t k = 0; k < sizeof(field_names) / sizeof(field_names[0]); k++)
		if (r->found & field_names[k].bit)
			n++;
	return n;
}

bool sb_complete(const struct sb_result *r)
{
	return (r->found & SB_REQUIRED) == SB_REQUIRED;
}

const char *sb_missing(const struct sb_result *r, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t k = 0; k < sizeof(field_names) / sizeof(field_names[0]); k++) {
		unsigned bit = field_names[k].bit;
		if (!(SB_REQUIRED & bit) || (r->found & bit))
			continue;
		int w = snprintf(buf + used, len > used ? len - used : 0, "%s%s",
				 used ? ", " : "", field_names[k].name);
		if (w < 0 || (size_t)w >= (len > used ? len - used : 0))
			break;
		used += (size_t)w;
	}
	return buf;
}
