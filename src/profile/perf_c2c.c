// SPDX-License-Identifier: GPL-2.0-or-later
/* perf c2c report --stdio output (perf_c2c.h). */
#include "profile/perf_c2c.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/escape.h"

/* a results folder's copy of perf's output is not trusted: bounded */
#define MAX_TOKENS 64
#define MAX_CACHELINES 100000
#define MAX_LINES 1000000

enum section { S_NONE, S_TRACE, S_TABLE, S_PARETO, S_OTHER };

struct cl_row {
	unsigned long long addr, lcl, rmt;
};

struct parser {
	const char *version;
	size_t no;                   /* line number */
	enum section sec;
	bool expect_title;           /* between a "====" line and the title */
	bool have_trace, have_lcl, have_rmt, table_seen, table_hitm, table_peer, pareto_seen;
	struct cl_row *cls;          /* the cache line table's rows */
	size_t ncls;
	bool cl_open;                /* after a pareto dashed line: the line's own row next */
	bool have_cl;
	struct cl_row cur;           /* the pareto's current cache line */
	size_t pareto_cls;
	struct strbuf *why;
};

static int bad(struct parser *p, const char *what, const char *line)
{
	char head[81];

	snprintf(head, sizeof(head), "%s", line ? line : "");
	strbuf_addf(p->why, "perf c2c report (perf %s), line %zu: %s", p->version[0] ? p->version : "?",
		    p->no, what);
	if (line) {
		strbuf_addstr(p->why, ": '");
		strbuf_add_inert(p->why, head);
		strbuf_addstr(p->why, "'");
	}
	return -1;
}

static size_t tokens(char *s, char **t)
{
	size_t n = 0;

	for (char *tok = strtok(s, " \t"); tok && n < MAX_TOKENS; tok = strtok(NULL, " \t"))
		t[n++] = tok;
	return n;
}

static bool all_of(const char *s, char c)
{
	s += strspn(s, " \t");
	if (strlen(s) < 4)
		return false;
	for (; *s; s++)
		if (*s != c && *s != ' ' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

static bool ull(const char *s, unsigned long long *v)
{
	return !parse_ull(s, v);
}

static bool hex(const char *s, unsigned long long *v)
{
	char *end;

	if (strncmp(s, "0x", 2) || !isxdigit((unsigned char)s[2]))
		return false;
	errno = 0;
	*v = strtoull(s + 2, &end, 16);
	return !errno && !*end;
}

/* "99.80%" */
static bool pct(const char *s, double *v)
{
	char *end;
	size_t n = strlen(s);

	if (n < 2 || s[n - 1] != '%' || !isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && end == s + n - 1 && *v >= 0 && *v <= 100.0001;
}

static void title(struct parser *p, const char *line)
{
	char *t = xstrdup_trim(line);

	if (!strcmp(t, "Trace Event Information")) {
		p->sec = S_TRACE;
		p->have_trace = true;
	} else if (!strcmp(t, "Shared Data Cache Line Table")) {
		p->sec = S_TABLE;
		p->table_seen = true;
	} else if (!strcmp(t, "Shared Cache Line Distribution Pareto")) {
		p->sec = S_PARETO;
		p->pareto_seen = true;
	} else {
		p->sec = S_OTHER;
	}
	free(t);
}

/* "  Load Local HITM                   :      86212" */
static int trace_line(struct parser *p, struct c2c_report *r, const char *line)
{
	const char *colon = strchr(line, ':');
	char *key, *val;
	unsigned long long v, *dst = NULL;
	int ret = 0;

	if (!colon)
		return bad(p, "not a 'name : count' line of the Trace Event Information", line);
	key = xstrndup(line, (size_t)(colon - line));
	val = xstrdup_trim(colon + 1);
	{
		char *k = xstrdup_trim(key);

		free(key);
		key = k;
	}
	if (!strcmp(key, "Total records"))
		dst = &r->records;
	else if (!strcmp(key, "Load Operations"))
		dst = &r->loads;
	else if (!strcmp(key, "Store Operations"))
		dst = &r->stores;
	else if (!strcmp(key, "Load Local HITM"))
		dst = &r->hitm_local, p->have_lcl = true;
	else if (!strcmp(key, "Load Remote HITM"))
		dst = &r->hitm_remote, p->have_rmt = true;
	/* the other counters (newer perfs add some) are not used */
	if (dst && !ull(val, &v))
		ret = bad(p, "the count is not a number", line);
	else if (dst)
		*dst = v;
	free(key);
	free(val);
	return ret;
}

/* "      0  0xff2dfd8dfd4cd200     1   86964   99.80%    86058    86058        0 ..." */
static int table_line(struct parser *p, struct c2c_report *r, char *line)
{
	char *copy = xstrdup(line), *t[MAX_TOKENS];
	size_t n = tokens(copy, t), k;
	unsigned long long idx, tot, lcl, rmt, addr;
	double share;
	int ret = 0;

	for (k = 2; k < n && !pct(t[k], &share); k++)
		;
	if (!p->table_hitm)
		ret = bad(p, "the cache line table is not sorted on HITMs (run perf c2c report -d tot)",
			  line);
	else if (n < 2 || !ull(t[0], &idx) || !hex(t[1], &addr))
		ret = bad(p, "not a row of the Shared Data Cache Line Table (index, address, ...)", line);
	else if (k + 3 >= n || !ull(t[k + 1], &tot) || !ull(t[k + 2], &lcl) || !ull(t[k + 3], &rmt))
		ret = bad(p, "no HITM share and Total, LclHitm, RmtHitm counts in the row", line);
	else if (tot != lcl + rmt)
		ret = bad(p, "the row's HITM columns do not add up (Total != LclHitm + RmtHitm)", line);
	else if (p->ncls == MAX_CACHELINES)
		ret = bad(p, "too many cache lines", NULL);
	if (!ret) {
		if (!(p->ncls & (p->ncls + 1)))
			p->cls = xrealloc(p->cls, (p->ncls * 2 + 1) * sizeof(*p->cls));
		p->cls[p->ncls++] = (struct cl_row){ addr, lcl, rmt };
		r->cachelines++;
	}
	free(copy);
	return ret;
}

static const struct cl_row *find_cl(const struct parser *p, unsigned long long addr)
{
	for (size_t i = 0; i < p->ncls; i++)
		if (p->cls[i].addr == addr)
			return &p->cls[i];
	return NULL;
}

/* the line's own row, between the dashed lines: "  0  0  86058  0  0  0  0xff2d...200" */
static int pareto_cacheline(struct parser *p, const char *line)
{
	char *copy = xstrdup(line), *t[MAX_TOKENS];
	size_t n = tokens(copy, t);
	unsigned long long num;
	const struct cl_row *c;
	int ret = 0;

	if (n < 4 || !ull(t[0], &num) || !ull(t[1], &p->cur.rmt) || !ull(t[2], &p->cur.lcl) ||
	    !hex(t[n - 1], &p->cur.addr))
		ret = bad(p, "not a cache line row of the Pareto (Num, Rmt, Lcl, ..., address)", line);
	else if (!(c = find_cl(p, p->cur.addr)))
		ret = bad(p, "a cache line that is not in the Shared Data Cache Line Table", line);
	else if (c->lcl != p->cur.lcl || c->rmt != p->cur.rmt)
		ret = bad(p, "the line's HITMs differ from the Shared Data Cache Line Table's", line);
	p->have_cl = !ret;
	p->pareto_cls += !ret;
	free(copy);
	return ret;
}

/* "   0.00%  100.00%  0.00%  0.00%  0.00%  0x8  0  1  0xffffffff8139ed45  ...  [k] __fget_light  [kernel.kallsyms]  0" */
static int pareto_offset(struct parser *p, struct c2c_report *r, const char *line)
{
	char *copy = xstrdup(line), *t[MAX_TOKENS];
	size_t n = tokens(copy, t), k, s;
	double rmt, lcl;
	unsigned long long off = 0;
	int ret = 0;

	for (k = 2; k < n && !hex(t[k], &off); k++)
		;
	for (s = k; s < n && !(strlen(t[s]) == 3 && t[s][0] == '[' && t[s][2] == ']'); s++)
		;
	if (!p->have_cl)
		ret = bad(p, "an offset row before its cache line's row", line);
	else if (n < 2 || !pct(t[0], &rmt) || !pct(t[1], &lcl))
		ret = bad(p, "not an offset row of the Pareto (Rmt and Lcl HITM %, ...)", line);
	else if (k >= n)
		ret = bad(p, "no data offset (0x...) in the row", line);
	else if (s + 1 >= n)
		ret = bad(p, "no symbol ('[k] name') in the row", line);
	else if (r->n == MAX_LINES)
		ret = bad(p, "too many rows", NULL);
	if (!ret) {
		double hl = lcl * (double)p->cur.lcl / 100, hr = rmt * (double)p->cur.rmt / 100;

		if (hl + hr > 0) {
			struct c2c_line *l;

			if (r->n == r->cap) {
				r->cap = r->cap ? 2 * r->cap : 16;
				r->lines = xrealloc(r->lines, r->cap * sizeof(*r->lines));
			}
			l = &r->lines[r->n++];
			l->cacheline = p->cur.addr;
			l->offset = off;
			l->where = t[s][1];
			l->symbol = xstrdup(t[s + 1]);
			l->dso = s + 2 < n ? xstrdup(t[s + 2]) : xstrdup("");
			l->hitm_local = hl;
			l->hitm_remote = hr;
		}
	}
	free(copy);
	return ret;
}

static int pareto_line(struct parser *p, struct c2c_report *r, const char *line)
{
	if (all_of(line, '-')) {
		p->cl_open = !p->cl_open;
		return 0;
	}
	if (p->cl_open)
		return pareto_cacheline(p, line);
	return pareto_offset(p, r, line);
}

static int one_line(struct parser *p, struct c2c_report *r, char *line)
{
	const char *s = line + strspn(line, " \t");

	if (all_of(line, '=')) {
		p->expect_title = !p->expect_title;
		return 0;
	}
	if (p->expect_title) {
		title(p, line);
		return 0;
	}
	if (!*s || *s == '\r')
		return 0;
	if (*s == '#') {
		/* -d tot, as lrubench asks; Arm64's default -d peer has "Load Peer" columns */
		if (p->sec == S_TABLE && strstr(s, "Peer"))
			p->table_peer = true;
		if (p->sec == S_TABLE && strstr(s, "Hitm") && !p->table_peer)
			p->table_hitm = true;
		if (p->table_peer)
			p->table_hitm = false;
		return 0;
	}
	switch (p->sec) {
	case S_TRACE:
		return trace_line(p, r, line);
	case S_TABLE:
		return table_line(p, r, line);
	case S_PARETO:
		return pareto_line(p, r, line);
	default:
		return 0;   /* perf's own warnings before the report, the other summaries */
	}
}

static int by_hitm(const void *a, const void *b)
{
	const struct c2c_line *x = a, *y = b;
	double hx = x->hitm_local + x->hitm_remote, hy = y->hitm_local + y->hitm_remote;
	int c;

	if (hx != hy)
		return hx < hy ? 1 : -1;
	c = strcmp(x->symbol, y->symbol);
	if (c)
		return c;
	return x->cacheline + x->offset < y->cacheline + y->offset ? -1 : 1;
}

int perf_c2c_parse(const char *text, size_t len, const char *perf_version, struct c2c_report *r,
		   struct strbuf *why)
{
	struct parser p = { .version = perf_version ? perf_version : "", .why = why };
	char *copy = xstrndup(text, len);
	int ret = 0;

	memset(r, 0, sizeof(*r));
	if (memchr(text, '\0', len))
		ret = bad(&p, "a NUL byte: not text", NULL);
	/* strtok_r skips empty lines: count them by hand for the line numbers */
	for (char *line = copy, *nl; !ret && line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		p.no++;
		/* perf ends every line: one without its end was cut (a half symbol name) */
		if (!nl && line[strspn(line, " \t\r")])
			ret = bad(&p, "cut short: the last line has no end", line);
		else
			ret = one_line(&p, r, line);
	}
	if (!ret && (!p.have_trace || !p.have_lcl || !p.have_rmt))
		ret = bad(&p, "no Load Local HITM and Load Remote HITM counts (not perf c2c report "
			  "--stdio output, or cut short)", NULL);
	else if (!ret && (!p.table_seen || !p.pareto_seen))
		ret = bad(&p, "no Shared Data Cache Line Table and Pareto (cut short, or perf c2c "
			  "report --stats)", NULL);
	else if (!ret && p.pareto_cls != p.ncls)
		ret = bad(&p, "cut short: the Pareto shows fewer cache lines than the table", NULL);
	if (!ret && r->n)
		qsort(r->lines, r->n, sizeof(*r->lines), by_hitm);
	else if (ret)
		c2c_report_release(r);
	free(p.cls);
	free(copy);
	return ret;
}

void c2c_report_release(struct c2c_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->lines[i].symbol);
		free(r->lines[i].dso);
	}
	free(r->lines);
	memset(r, 0, sizeof(*r));
}

static json_object *hex_json(unsigned long long v)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%llx", v);
	return json_object_new_string(b);
}

json_object *c2c_report_json(const struct c2c_report *r, size_t top)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "records", json_object_new_int64((int64_t)r->records));
	json_object_object_add(o, "loads", json_object_new_int64((int64_t)r->loads));
	json_object_object_add(o, "stores", json_object_new_int64((int64_t)r->stores));
	json_object_object_add(o, "hitm_local", json_object_new_int64((int64_t)r->hitm_local));
	json_object_object_add(o, "hitm_remote", json_object_new_int64((int64_t)r->hitm_remote));
	json_object_object_add(o, "cachelines", json_object_new_int64((int64_t)r->cachelines));
	for (size_t i = 0; i < r->n && i < top; i++) {
		const struct c2c_line *l = &r->lines[i];
		json_object *e = json_object_new_object();
		char w[2] = { l->where, '\0' };

		json_object_object_add(e, "data_address", hex_json(l->cacheline + l->offset));
		json_object_object_add(e, "cacheline", hex_json(l->cacheline));
		json_object_object_add(e, "offset", hex_json(l->offset));
		json_object_object_add(e, "symbol", json_object_new_string(l->symbol));
		json_object_object_add(e, "where", json_object_new_string(w));
		json_object_object_add(e, "dso", json_object_new_string(l->dso));
		json_object_object_add(e, "hitm", json_object_new_double(l->hitm_local + l->hitm_remote));
		json_object_object_add(e, "hitm_local", json_object_new_double(l->hitm_local));
		json_object_object_add(e, "hitm_remote", json_object_new_double(l->hitm_remote));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "lines", a);
	json_object_object_add(o, "note", json_object_new_string(
		"HITM counts are perf c2c's sampled loads (load-latency sampling), not every HITM of the "
		"machine; a data address's count is its share of its cache line's count, as perf c2c "
		"report's Pareto gives it"));
	return o;
}

bool perf_c2c_mem_pmu(const char *devices, char *name, size_t len)
{
	DIR *d = opendir(devices);
	struct dirent *e;
	bool found = false;

	if (len)
		name[0] = '\0';
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char *ev;

		if (e->d_name[0] == '.')
			continue;
		ev = xasprintf("%s/%s/events/mem-loads", devices, e->d_name);
		found = !strcmp(e->d_name, "ibs_op") || !strncmp(e->d_name, "arm_spe", 7) ||
			access(ev, F_OK) == 0;
		free(ev);
		if (found && len)
			snprintf(name, len, "%s", e->d_name);
	}
	closedir(d);
	return found;
}
