// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading `perf lock contention` output (perf_lock.h). */
#include "profile/perf_lock.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/lru_locks.h"

enum col {
	COL_CONTENDED, COL_ACQUIRED, COL_WAIT_TOTAL, COL_WAIT_MAX, COL_WAIT_MIN, COL_WAIT_AVG,
	COL_TYPE, COL_CALLER,
};

static const struct {
	const char *header;
	enum col col;
} columns[] = {
	{ "contended", COL_CONTENDED }, { "acquired", COL_ACQUIRED },
	{ "total wait", COL_WAIT_TOTAL }, { "max wait", COL_WAIT_MAX },
	{ "min wait", COL_WAIT_MIN }, { "avg wait", COL_WAIT_AVG },
	{ "type", COL_TYPE }, { "caller", COL_CALLER },
};

#define MAX_COLS 16

struct parser {
	const char *version;
	struct strbuf *err;
	size_t lineno;
	enum col cols[MAX_COLS];
	size_t ncols;
};

static int bad_line(struct parser *p, const char *line, size_t len, const char *why)
{
	int show = len > 200 ? 200 : (int)len;

	strbuf_addf(p->err, "cannot read the output of perf %s lock contention, line %zu: '%.*s%s': %s",
		    p->version, p->lineno, show, line, len > 200 ? "..." : "", why);
	return -1;
}

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* The column names of a header line; 1 when the line is a header, 0 when it
 * is not one, -1 when it looks like one but holds an unknown column. */
static int parse_header(struct parser *p, const char *line, const char *end)
{
	const char *s = skip_ws(line, end);

	if (!memmem(line, (size_t)(end - line), "caller", 6) ||
	    !(memmem(line, (size_t)(end - line), "contended", 9) ||
	      memmem(line, (size_t)(end - line), "wait", 4)))
		return 0;
	p->ncols = 0;
	while (s < end) {
		size_t k;

		for (k = 0; k < sizeof(columns) / sizeof(columns[0]); k++) {
			size_t l = strlen(columns[k].header);
			if ((size_t)(end - s) >= l && !memcmp(s, columns[k].header, l) &&
			    (s + l == end || s[l] == ' ' || s[l] == '\t'))
				break;
		}
		if (k == sizeof(columns) / sizeof(columns[0]) || p->ncols == MAX_COLS)
			return bad_line(p, line, (size_t)(end - line),
					"a header with a column this lrubench does not know");
		p->cols[p->ncols++] = columns[k].col;
		s = skip_ws(s + strlen(columns[k].header), end);
	}
	if (p->ncols < 3 || p->cols[p->ncols - 1] != COL_CALLER || p->cols[p->ncols - 2] != COL_TYPE)
		return bad_line(p, line, (size_t)(end - line),
				"the header does not end in \"type caller\" (not caller mode?)");
	return 1;
}

static int next_token(const char **s, const char *end, const char **tok, size_t *len)
{
	*s = skip_ws(*s, end);
	if (*s == end)
		return -1;
	*tok = *s;
	while (*s < end && **s != ' ' && **s != '\t')
		(*s)++;
	*len = (size_t)(*s - *tok);
	return 0;
}

static double unit_ns(const char *u, size_t l)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].u) == l && !memcmp(units[i].u, u, l))
			return units[i].ns;
	return 0;
}

static bool parse_number(const char *tok, size_t len, double *v, bool integer)
{
	char buf[64], *e;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)tok[0]))
		return false;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	errno = 0;
	if (integer) {
		unsigned long long u = strtoull(buf, &e, 10);
		*v = (double)u;
	} else {
		*v = strtod(buf, &e);
	}
	return !errno && *e == '\0';
}

/* Functions that are the lock itself, not who took it: skipped in a stack. */
static bool lock_primitive(const char *fn)
{
	static const char *const prefixes[] = {
		"_raw_", "__raw_", "raw_spin_", "do_raw_", "queued_", "native_queued_", "__pv_queued_",
		"pv_queued_", "__mutex_lock", "mutex_lock", "mutex_spin", "__mutex_", "rwsem_down_",
		"down_read", "down_write", "__down_", "rt_mutex", "rt_spin", "__rt_mutex", "percpu_down",
		"__percpu_down", "osq_lock", "lock_acquire", "_spin_lock",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* "\t\t\t0xffffffff8168e8bf  folio_lruvec_lock_irqsave+0x5f" under a row (perf
 * lock contention -v): the first frame that is not the lock itself is the
 * function that took the lock, which decides whether it is an LRU lock. */
static int parse_stack_line(struct parser *p, const char *line, const char *end,
			    struct lock_entry *row, bool *found)
{
	const char *s = skip_ws(line, end), *sym;
	char fn[256], *raw;

	if (!row)
		return bad_line(p, line, (size_t)(end - line), "a call stack line before any row");
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	sym = skip_ws(s, end);
	while (end > sym && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if (*found || sym == end)
		return 0;   /* taker known already, or a frame with no symbol */
	raw = xstrndup(sym, (size_t)(end - sym));
	lru_caller_function(raw, fn, sizeof(fn));
	free(raw);
	if (lock_primitive(fn))
		return 0;
	*found = true;
	row->taker = xstrdup(fn);
	row->lru = lru_is_lru_caller(fn);
	return 0;
}

static struct lock_entry *parse_row(struct parser *p, const char *line, const char *end,
				    struct lock_report *out)
{
	const char *s = line, *tok, *type = NULL, *caller;
	size_t len, type_len = 0;
	double contended = -1, total = -1, max = -1;

	for (size_t c = 0; c < p->ncols; c++) {
		double v;

		switch (p->cols[c]) {
		case COL_CONTENDED:
		case COL_ACQUIRED:
			if (next_token(&s, end, &tok, &len) || !parse_number(tok, len, &v, true)) {
				bad_line(p, line, (size_t)(end - line), "expected a count");
				return NULL;
			}
			if (p->cols[c] == COL_CONTENDED)
				contended = v;
			break;
		case COL_WAIT_TOTAL:
		case COL_WAIT_MAX:
		case COL_WAIT_MIN:
		case COL_WAIT_AVG: {
			const char *save;
			double ns;

			if (next_token(&s, end, &tok, &len) || !parse_number(tok, len, &v, false)) {
				bad_line(p, line, (size_t)(end - line), "expected a time");
				return NULL;
			}
			/* "1.40 ms"; perf before 6.1 printed bare nanoseconds */
			save = s;
			if (!next_token(&s, end, &tok, &len) && (ns = unit_ns(tok, len)) > 0)
				v *= ns;
			else
				s = save;
			if (p->cols[c] == COL_WAIT_TOTAL)
				total = v;
			else if (p->cols[c] == COL_WAIT_MAX)
				max = v;
			break;
		}
		case COL_TYPE:
			if (next_token(&s, end, &type, &type_len)) {
				bad_line(p, line, (size_t)(end - line), "expected the lock type");
				return NULL;
			}
			break;
		case COL_CALLER:
			caller = skip_ws(s, end);
			while (end > caller && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
				end--;
			if (caller == end) {
				bad_line(p, line, (size_t)(end - line), "expected the caller");
				return NULL;
			}
			{
				char *name = xstrndup(caller, (size_t)(end - caller));
				char *ty = type ? xstrndup(type, type_len) : xstrdup("?");
				char fn[256];

				if (contended < 0) {
					free(name);
					free(ty);
					bad_line(p, line, (size_t)(end - line), "no \"contended\" column");
					return NULL;
				}
				struct lock_entry *e;

				lru_caller_function(name, fn, sizeof(fn));
				e = lock_report_add(out, name, fn, ty, (unsigned long long)contended, total, max,
						    lru_is_lru_caller(name));
				free(name);
				free(ty);
				return e;
			}
		}
	}
	bad_line(p, line, (size_t)(end - line), "no caller column");
	return NULL;
}

/* "bad: 3, total: 1200" */
static void parse_footer_line(const char *line, const char *end, struct lock_report *out)
{
	long long bad, total;
	char *l = xstrndup(line, (size_t)(end - line));

	if (sscanf(l, " bad: %lld, total: %lld", &bad, &total) == 2) {
		out->bad = bad;
		out->total = total;
	}
	free(l);
}

int perf_lock_parse(const char *text, const char *perf_version, struct lock_report *out,
		    struct strbuf *err)
{
	struct parser p = { perf_version && *perf_version ? perf_version : "(unknown version)", err, 0 };
	bool header = false, footer = false, any = false, taker = false;
	struct lock_entry *row = NULL;
	const char *line = text;

	memset(out, 0, sizeof(*out));
	out->source = "perf lock contention";
	out->bad = out->total = -1;
	while (*line) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		const char *s = skip_ws(line, end);

		p.lineno++;
		if (s != end)
			any = true;
		if (s == end || *s == '#') {
			/* blank, or a comment */
		} else if (!header) {
			int r = parse_header(&p, line, end);
			if (r < 0)
				goto fail;
			header = r > 0;
			/* before the header: perf's warnings and notes, not data */
		} else if (!strncmp(s, "===", 3)) {
			footer = true;
		} else if (footer) {
			parse_footer_line(s, end, out);
		} else if (!strncmp(s, "0x", 2) && s != line) {
			/* rows may move as the report grows: keep an index, not a pointer */
			if (parse_stack_line(&p, line, end, row ? &out->e[out->n - 1] : NULL, &taker))
				goto fail;
		} else if ((row = parse_row(&p, line, end, out)) == NULL) {
			goto fail;
		} else {
			taker = false;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!header) {
		strbuf_addf(err, "cannot read the output of perf %s lock contention: %s", p.version,
			    any ? "it has no header line (\"contended ... type caller\")" : "it is empty");
		goto fail;
	}
	return 0;
fail:
	lock_report_release(out);
	return -1;
}
