// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading `perf report --stdio --sort sym` (perf_cpu.h). */
#include "profile/perf_cpu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "profile/lru_locks.h"

/* where a contended spinlock burns its time on x86 and arm64 */
static const char *const spin_symbols[] = {
	"native_queued_spin_lock_slowpath", "queued_spin_lock_slowpath",
	"__pv_queued_spin_lock_slowpath", "pv_queued_spin_lock_slowpath",
	"queued_read_lock_slowpath", "queued_write_lock_slowpath",
	"do_raw_spin_lock", "_raw_spin_lock", "_raw_spin_lock_irq", "_raw_spin_lock_irqsave",
	"_raw_spin_lock_bh",
};

bool perf_cpu_is_spin_symbol(const char *sym)
{
	char fn[256];

	lru_caller_function(sym, fn, sizeof(fn));
	for (size_t i = 0; i < sizeof(spin_symbols) / sizeof(spin_symbols[0]); i++)
		if (!strcmp(fn, spin_symbols[i]))
			return true;
	return false;
}

static int by_pct(const void *a, const void *b)
{
	const struct cpu_symbol *x = a, *y = b;

	if (x->pct != y->pct)
		return x->pct < y->pct ? 1 : -1;
	return strcmp(x->symbol, y->symbol);
}

int perf_cpu_parse(const char *text, const char *perf_version, struct cpu_profile *out,
		   struct strbuf *err)
{
	const char *line = text;
	size_t lineno = 0;

	memset(out, 0, sizeof(*out));
	while (*line) {
		const char *nl = strchr(line, '\n');
		char *l = nl ? xstrndup(line, (size_t)(nl - line)) : xstrdup(line), *s = l, *e;
		double pct;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\r'); )
			*--e = '\0';
		if (*s && *s != '#') {
			struct cpu_symbol *cs;

			errno = 0;
			pct = strtod(s, &e);
			if (errno || e == s || *e != '%' || e[1] != ' ')
				goto bad;
			s = e + 1;
			while (*s == ' ')
				s++;
			if (s[0] != '[' || !s[1] || s[2] != ']' || s[3] != ' ')
				goto bad;
			ALLOC_GROW(out->s, out->n + 1, out->cap);
			cs = &out->s[out->n++];
			cs->pct = pct;
			cs->where = s[1];
			s += 4;
			while (*s == ' ')
				s++;
			cs->symbol = xstrdup(*s ? s : "?");
			if (cs->where == 'k' && perf_cpu_is_spin_symbol(cs->symbol))
				out->spin_pct += pct;
		}
		free(l);
		if (!nl)
			break;
		line = nl + 1;
		continue;
bad:
		strbuf_addf(err, "cannot read the output of perf %s report, line %zu: '%.200s': expected "
			    "\"NN.NN%%  [k] symbol\"", perf_version && *perf_version ? perf_version : "(unknown version)",
			    lineno, l);
		free(l);
		cpu_profile_release(out);
		return -1;
	}
	if (out->n > 1)
		qsort(out->s, out->n, sizeof(*out->s), by_pct);
	return 0;
}

json_object *cpu_profile_top_json(const struct cpu_profile *p, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < p->n && i < n; i++) {
		json_object *o = json_object_new_object();
		char w[2] = { p->s[i].where, '\0' };

		json_object_object_add(o, "symbol", json_object_new_string(p->s[i].symbol));
		json_object_object_add(o, "where", json_object_new_string(w));
		json_object_object_add(o, "percent", json_object_new_double(p->s[i].pct));
		json_object_array_add(a, o);
	}
	return a;
}

void cpu_profile_release(struct cpu_profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->s[i].symbol);
	free(p->s);
	memset(p, 0, sizeof(*p));
}
