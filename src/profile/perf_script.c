// SPDX-License-Identifier: GPL-2.0-or-later
/* Folding `perf script` and the per-symbol shares (perf_script.h). */
#include "profile/perf_script.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/strlist.h"
#include "core/strmap.h"
#include "profile/lru_locks.h"

#define KERNEL_MIN 0xffff800000000000ULL   /* x86-64 and arm64 kernel halves */
#define KMARK "_[k]"
#define OLDER "older name of "

/* The frame as it goes into a stack: ';' would split it, so it is ':' */
static void add_frame(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_add(sb, s[i] == ';' ? ":" : &s[i], 1);
}

/* The frames of one sample, leaf first, into one folded stack. */
static void flush(struct folded *out, const char *comm, struct strlist *frames)
{
	struct strbuf sb = STRBUF_INIT;

	if (!comm)
		return;
	add_frame(&sb, comm[0] ? comm : "?", strlen(comm[0] ? comm : "?"));
	for (size_t i = frames->n; i-- > 0; ) {
		strbuf_addstr(&sb, ";");
		strbuf_addstr(&sb, frames->v[i]);
	}
	folded_add(out, sb.buf, 1);
	strbuf_release(&sb);
	strlist_release(frames);
}

/* "	ffffffff8133c9e3 sym (dso)" into a frame; -1 when it is not one. */
static int parse_frame(const char *s, struct perf_fold_info *info, struct strbuf *frame)
{
	char *e;
	unsigned long long ip;
	const char *sym, *dso, *end;
	bool kernel;

	while (*s == ' ' || *s == '\t')
		s++;
	errno = 0;
	ip = strtoull(s, &e, 16);
	if (errno || e == s || *e != ' ')
		return -1;
	sym = e + 1;
	end = sym + strlen(sym);
	if (end == sym || end[-1] != ')')
		return -1;
	/* the dso is the last " (...)": a C++ symbol may hold parentheses */
	for (dso = end - 1; dso > sym && !(dso[0] == '(' && dso[-1] == ' '); dso--)
		;
	if (dso <= sym)
		return -1;
	kernel = ip >= KERNEL_MIN;
	strbuf_reset(frame);
	if (kernel)
		info->kernel_frames++;
	if (!strncmp(sym, "[unknown] ", 10)) {
		if (kernel) {
			info->kernel_unnamed++;
			strbuf_addf(frame, "0x%llx", ip);
		} else {
			const char *base = dso + 1, *slash;
			size_t n;

			for (slash = base; slash < end - 1; slash++)
				if (*slash == '/')
					base = slash + 1;
			n = (size_t)(end - 1 - base);
			/* perf's own "[unknown]", "[vdso]" stay as they are */
			if (n && base[0] == '[') {
				add_frame(frame, base, n);
			} else {
				strbuf_addstr(frame, "[");
				add_frame(frame, base, n);
				strbuf_addstr(frame, n ? "]" : "unknown]");
			}
		}
	} else {
		const char *plus = NULL;

		/* "sym+0x79" when perf prints offsets: the offset is not the symbol */
		for (const char *q = sym; q < dso - 1; q++)
			if (q[0] == '+' && q[1] == '0' && q[2] == 'x')
				plus = q;
		add_frame(frame, sym, (size_t)((plus ? plus : dso - 1) - sym));
	}
	if (kernel)
		strbuf_addstr(frame, KMARK);
	return 0;
}

int perf_script_fold(const char *text, size_t len, struct folded *out, struct perf_fold_info *info,
		     struct strbuf *err)
{
	const char *p = text, *end = text + len;
	struct strlist frames = STRLIST_INIT;
	struct strbuf frame = STRBUF_INIT;
	char *comm = NULL, *line = NULL;
	size_t lineno = 0;

	folded_init(out);
	memset(info, 0, sizeof(*info));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		free(line);
		line = xstrndup(p, l);
		p = nl ? nl + 1 : end;
		if (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (!line[0]) {
			flush(out, comm, &frames);
			free(comm);
			comm = NULL;
			continue;
		}
		if (l > FOLDED_LINE_MAX)
			goto bad;
		if (line[0] == ' ' || line[0] == '\t') {
			if (!comm || parse_frame(line, info, &frame))
				goto bad;
			if (frames.n < PERF_SCRIPT_MAX_FRAMES)
				strlist_push(&frames, frame.buf);
			continue;
		}
		/* a sample's first line: the command name (trailing spaces dropped) */
		flush(out, comm, &frames);
		free(comm);
		while (l && line[l - 1] == ' ')
			line[--l] = '\0';
		comm = xstrdup(line);
		info->samples++;
	}
	flush(out, comm, &frames);
	free(comm);
	free(line);
	strbuf_release(&frame);
	return 0;
bad:
	strbuf_addf(err, "cannot read the output of perf script, line %zu: '%.200s': expected a "
		    "command name or \"<tab>ADDRESS SYMBOL (DSO)\"", lineno, line);
	free(comm);
	free(line);
	strbuf_release(&frame);
	strlist_release(&frames);
	folded_release(out);
	return -1;
}

char *perf_symbol_canonical(const char *sym, char *out, size_t len)
{
	char fn[512];

	lru_caller_function(sym, fn, sizeof(fn));
	for (size_t i = 0; i < lru_lock_names_count; i++) {
		const struct lru_lock_name *n = &lru_lock_names[i];
		size_t nl = strlen(n->name);
		bool prefix = nl && n->name[nl - 1] == '*';
		const char *to, *rest;
		size_t tl;

		if (strncmp(n->why, OLDER, strlen(OLDER)))
			continue;
		if (prefix ? strncmp(fn, n->name, nl - 1) : strcmp(fn, n->name))
			continue;
		to = n->why + strlen(OLDER);
		tl = strcspn(to, " *(,");
		rest = prefix && to[tl] == '*' ? fn + nl - 1 : "";
		snprintf(out, len, "%.*s%s", (int)tl, to, rest);
		return out;
	}
	snprintf(out, len, "%s", fn);
	return out;
}

struct share {
	char *name, *raw;       /* raw: the first name perf printed, when it differs */
	char where;
	uint64_t self, children;
	size_t stamp;           /* the last stack that counted it in children */
};

static int by_share(const void *a, const void *b)
{
	const struct share *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* One key per (where, name): "k:name" */
static size_t find_share(struct share **v, size_t *n, size_t *cap, struct strmap *map,
			 struct strlist *keys, const char *frame, size_t flen)
{
	char raw[512], canon[512], key[520];
	bool kernel = flen >= strlen(KMARK) && !strncmp(frame + flen - strlen(KMARK), KMARK,
							   strlen(KMARK));
	size_t i;

	if (kernel)
		flen -= strlen(KMARK);
	snprintf(raw, sizeof(raw), "%.*s", (int)flen, frame);
	perf_symbol_canonical(raw, canon, sizeof(canon));
	snprintf(key, sizeof(key), "%c:%s", kernel ? 'k' : '.', canon);
	if (strmap_get(map, key, &i))
		return i;
	strlist_push(keys, key);
	ALLOC_GROW(*v, *n + 1, *cap);
	(*v)[*n] = (struct share){ xstrdup(canon), strcmp(raw, canon) ? xstrdup(raw) : NULL,
				   kernel ? 'k' : '.', 0, 0, (size_t)-1 };
	strmap_put(map, keys->v[keys->n - 1], *n);
	return (*n)++;
}

json_object *perf_symbol_shares_json(const struct folded *f, double min_self, size_t max)
{
	struct share *v = NULL;
	size_t n = 0, cap = 0;
	struct strmap map = STRMAP_INIT;
	struct strlist keys = STRLIST_INIT;
	json_object *a = json_object_new_array();
	double total = f->total ? (double)f->total : 1;

	for (size_t s = 0; s < f->n; s++) {
		const char *st = f->s[s].stack, *semi = strchr(st, ';');
		size_t leaf = (size_t)-1;

		/* the first field is the command, not a symbol */
		while (semi) {
			const char *fr = semi + 1, *next = strchr(fr, ';');
			size_t len = next ? (size_t)(next - fr) : strlen(fr);
			size_t i = find_share(&v, &n, &cap, &map, &keys, fr, len);

			if (v[i].stamp != s) {
				v[i].children += f->s[s].count;
				v[i].stamp = s;
			}
			leaf = i;
			semi = next;
		}
		if (leaf != (size_t)-1)
			v[leaf].self += f->s[s].count;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_share);
	for (size_t i = 0, k = 0; i < n; i++) {
		double self = 100.0 * (double)v[i].self / total;
		double ch = 100.0 * (double)v[i].children / total;
		char w[2] = { v[i].where, '\0' };
		json_object *o;

		if (k >= max || (self < min_self && ch < 10 * min_self))
			continue;
		/* a row, not an object: results of 20 ops x 3 passes hold 10,000s of
		 * them, and an object costs json-c a hash table each (bench/profile-overhead) */
		o = json_object_new_array_ext(v[i].raw ? 5 : 4);
		json_object_array_add(o, json_object_new_string(v[i].name));
		json_object_array_add(o, json_object_new_string(w));
		json_object_array_add(o, json_object_new_double(round(self * 1e4) / 1e4));
		json_object_array_add(o, json_object_new_double(round(ch * 1e4) / 1e4));
		if (v[i].raw)
			json_object_array_add(o, json_object_new_string(v[i].raw));
		json_object_array_add(a, o);
		k++;
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].raw);
	}
	free(v);
	strmap_release(&map);
	strlist_release(&keys);
	return a;
}
