// SPDX-License-Identifier: GPL-2.0-or-later
/* Folded call stacks: the set, its writer and its one reader (folded.h). */
#include "core/folded.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "# lrubench folded stacks 1:"

void folded_init(struct folded *f)
{
	memset(f, 0, sizeof(*f));
}

void folded_add(struct folded *f, const char *stack, uint64_t count)
{
	size_t i;

	f->total += count;
	if (strmap_get(&f->map, stack, &i)) {
		f->s[i].count += count;
		return;
	}
	ALLOC_GROW(f->s, f->n + 1, f->cap);
	f->s[f->n].stack = xstrdup(stack);
	f->s[f->n].count = count;
	/* the key is the heap string, which stays where it is when s grows */
	strmap_put(&f->map, f->s[f->n].stack, f->n);
	f->n++;
}

static int by_count(const void *a, const void *b)
{
	const struct folded_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->stack, y->stack);
}

void folded_sort(struct folded *f)
{
	if (f->n > 1)
		qsort(f->s, f->n, sizeof(*f->s), by_count);
	/* the indexes moved: rebuild the map */
	strmap_release(&f->map);
	for (size_t i = 0; i < f->n; i++)
		strmap_put(&f->map, f->s[i].stack, i);
}

int folded_write(const struct folded *f, const char *path, size_t max, size_t *written_stacks,
		 struct strbuf *err)
{
	struct strbuf body = STRBUF_INIT, out = STRBUF_INIT;
	uint64_t left = f->left_out, kept = 0;
	size_t left_stacks = f->left_out_stacks, n = 0;
	/* room for the header line, whose numbers are at most 20 digits each */
	size_t room;
	int ret;

	if (max > FOLDED_FILE_MAX)
		max = FOLDED_FILE_MAX;
	room = max > 160 ? max - 160 : 0;
	for (size_t i = 0; i < f->n; i++) {
		size_t len = strlen(f->s[i].stack) + 22;

		if ((double)f->s[i].count < FOLDED_MIN_SHARE * (double)f->total || len > FOLDED_LINE_MAX ||
		    body.len + len > room) {
			left += f->s[i].count;
			left_stacks++;
			continue;
		}
		strbuf_addf(&body, "%s %" PRIu64 "\n", f->s[i].stack, f->s[i].count);
		kept += f->s[i].count;
		n++;
	}
	strbuf_addf(&out, HEADER " samples %" PRIu64 ", stacks %zu, left out %" PRIu64 " in %zu\n",
		    kept + left, n, left, left_stacks);
	strbuf_add(&out, body.buf ? body.buf : "", body.len);
	ret = write_file_atomic(path, out.buf, out.len);
	if (ret)
		strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	if (written_stacks)
		*written_stacks = n;
	strbuf_release(&body);
	strbuf_release(&out);
	return ret ? -1 : 0;
}

/* "samples N, stacks M, left out K in D" after the header's prefix */
static int parse_header(const char *s, uint64_t *samples, uint64_t *left)
{
	unsigned long long a, b, c, d;
	int end = -1;

	if (sscanf(s, " samples %llu, stacks %llu, left out %llu in %llu%n", &a, &b, &c, &d, &end) != 4 ||
	    end < 0 || s[end] || c > a || a > FOLDED_COUNT_MAX)
		return -1;
	*samples = a;
	*left = c;
	return 0;
}

int folded_parse(const char *text, size_t len, const char *name, struct folded *out,
		 struct strbuf *err)
{
	const char *p = text, *end = text + len;
	uint64_t header_total = 0, header_left = 0;
	bool have_header = false;
	size_t lineno = 0;
	char *line = NULL;

	folded_init(out);
	if (memchr(text, '\0', len)) {
		strbuf_addf(err, "%s: holds a NUL byte: not a folded stacks file", name);
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l;
		char *sp, *e;
		unsigned long long count;

		lineno++;
		if (!nl) {
			strbuf_addf(err, "%s: line %zu: truncated (no newline at the end of the file)",
				    name, lineno);
			goto bad;
		}
		l = (size_t)(nl - p);
		if (l > FOLDED_LINE_MAX) {
			strbuf_addf(err, "%s: line %zu: longer than %d bytes", name, lineno, FOLDED_LINE_MAX);
			goto bad;
		}
		free(line);
		line = xstrndup(p, l);
		p = nl + 1;
		if (lineno == 1 && !strncmp(line, HEADER, strlen(HEADER))) {
			if (parse_header(line + strlen(HEADER), &header_total, &header_left)) {
				strbuf_addf(err, "%s: line 1: a header lrubench cannot read", name);
				goto bad;
			}
			have_header = true;
			continue;
		}
		if (line[0] == '#' || !line[0])
			continue;
		for (const unsigned char *c = (const unsigned char *)line; *c; c++)
			if (*c < 0x20 || *c == 0x7f) {
				strbuf_addf(err, "%s: line %zu: a control character (0x%02x)", name, lineno, *c);
				goto bad;
			}
		sp = strrchr(line, ' ');
		if (!sp || sp == line || sp[1] < '0' || sp[1] > '9') {
			strbuf_addf(err, "%s: line %zu: expected \"frame;frame;... COUNT\"", name, lineno);
			goto bad;
		}
		errno = 0;
		count = strtoull(sp + 1, &e, 10);
		if (errno || *e || count == 0 || count > FOLDED_COUNT_MAX) {
			strbuf_addf(err, "%s: line %zu: the count is not a number from 1 to %llu", name,
				    lineno, FOLDED_COUNT_MAX);
			goto bad;
		}
		*sp = '\0';
		if (line[0] == ';' || sp[-1] == ';' || strstr(line, ";;")) {
			strbuf_addf(err, "%s: line %zu: an empty frame", name, lineno);
			goto bad;
		}
		if (out->total + count > FOLDED_COUNT_MAX) {
			strbuf_addf(err, "%s: line %zu: more than %llu samples in all", name, lineno,
				    FOLDED_COUNT_MAX);
			goto bad;
		}
		folded_add(out, line, count);
	}
	free(line);
	line = NULL;
	if (have_header) {
		if (out->total + header_left != header_total) {
			strbuf_addf(err, "%s: the stacks hold %" PRIu64 " samples, the header says %" PRIu64
				    " with %" PRIu64 " left out: truncated or altered", name, out->total,
				    header_total, header_left);
			goto bad;
		}
		out->left_out = header_left;
		out->total = header_total;
	}
	return 0;
bad:
	free(line);
	folded_release(out);
	return -1;
}

int folded_read(const char *path, struct folded *out, struct strbuf *err)
{
	size_t len;
	char *text = read_regular_file(path, FOLDED_FILE_MAX, READ_NOFOLLOW, &len, err);
	int ret;

	folded_init(out);
	if (!text)
		return -1;
	ret = folded_parse(text, len, path, out, err);
	free(text);
	return ret;
}

void folded_release(struct folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->s[i].stack);
	free(f->s);
	strmap_release(&f->map);
	memset(f, 0, sizeof(*f));
}
