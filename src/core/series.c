// SPDX-License-Identifier: GPL-2.0-or-later
/* The monitors' time series file: its one writer and its one bounded reader (series.h). */
#include "core/series.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/escape.h"

/* A file name from a workload's or step's name: [A-Za-z0-9._+-], never a leading '.'. */
static void safe_name(struct strbuf *sb, const char *s)
{
	for (const char *p = s; *p; p++) {
		char ch = *p;

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == '+' || ch == '-' || (ch == '.' && p != s)))
			ch = '_';
		strbuf_add(sb, &ch, 1);
	}
}

char *series_path(const char *label_dir, const char *workload, const char *step, int iteration)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/series/", label_dir);
	safe_name(&sb, workload);
	strbuf_addstr(&sb, "/");
	safe_name(&sb, step);
	strbuf_addf(&sb, ".%d.series", iteration);
	return strbuf_detach(&sb);
}

/* ---- reading ---- */

static bool name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("_.:()+-", c);
}

static int fail(struct strbuf *err, const char *path, size_t off, const char *what)
{
	strbuf_addf(err, "%s: offset %zu: ", path, off);
	strbuf_add_inert_message(err, what);
	return -1;
}

/* The next space-separated token of [*p, end): its start and length; false at the end. */
static bool token(const char **p, const char *end, const char **tok, size_t *len)
{
	while (*p < end && **p == ' ')
		(*p)++;
	if (*p >= end)
		return false;
	*tok = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	*len = (size_t)(*p - *tok);
	return true;
}

/* A signed decimal of at most 19 digits; false when it is not one. */
static bool parse_i64(const char *t, size_t n, int64_t *out)
{
	bool neg = n && t[0] == '-';
	uint64_t v = 0;
	size_t i = neg;

	if (i >= n || n - i > 19)
		return false;
	for (; i < n; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(t[i] - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

static int grow_rows(struct series *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;

	s->t_ms = xrealloc(s->t_ms, cap * sizeof(*s->t_ms));
	for (size_t c = 0; c < s->ncols; c++)
		s->v[c] = xrealloc(s->v[c], cap * sizeof(**s->v));
	s->cap = cap;
	return 0;
}

static int add_column(struct series *s, const char *name, size_t n, const char *path, size_t off,
		      struct strbuf *err)
{
	if (!n || n > SERIES_NAME_MAX)
		return fail(err, path, off, "a column name that is empty or longer than 128 bytes");
	for (size_t i = 0; i < n; i++)
		if (!name_char((unsigned char)name[i]))
			return fail(err, path, off, "a column name with a character other than A-Z a-z 0-9 _.:()+-");
	if (s->ncols >= SERIES_MAX_COLS)
		return fail(err, path, off, "more than 4096 columns");
	if ((s->ncols + 1) * (s->cap > s->nrows ? s->cap : s->nrows + 1) > SERIES_MAX_CELLS)
		return fail(err, path, off, "more than 8M values (rows x columns)");
	for (size_t c = 0; c < s->ncols; c++)
		if (strlen(s->cols[c]) == n && !memcmp(s->cols[c], name, n))
			return fail(err, path, off, "a column declared twice");
	s->cols = xrealloc(s->cols, (s->ncols + 1) * sizeof(*s->cols));
	s->v = xrealloc(s->v, (s->ncols + 1) * sizeof(*s->v));
	s->cols[s->ncols] = xstrndup(name, n);
	s->v[s->ncols] = xmalloc((s->cap ? s->cap : 1) * sizeof(**s->v));
	/* the rows before it did not have it */
	for (size_t r = 0; r < s->nrows; r++)
		s->v[s->ncols][r] = SERIES_ABSENT;
	s->ncols++;
	return 0;
}

/* One "r" record; last[] holds each column's last value. */
static int add_row(struct series *s, const char *p, const char *end, int64_t *last, int64_t *last_t,
		   const char *path, const char *text, struct strbuf *err)
{
	const char *tok;
	size_t n, c = 0;
	int64_t d;

	if (!token(&p, end, &tok, &n) || !parse_i64(tok, n, &d))
		return fail(err, path, (size_t)(p - text), "a sample without its time");
	if (__builtin_add_overflow(*last_t, d, last_t) || *last_t < 0)
		return fail(err, path, (size_t)(tok - text), "a sample time out of range");
	if (s->nrows > 0 && *last_t < s->t_ms[s->nrows - 1])
		return fail(err, path, (size_t)(tok - text), "a sample time going backwards");
	if ((s->nrows + 1) * (s->ncols ? s->ncols : 1) > SERIES_MAX_CELLS)
		return fail(err, path, (size_t)(tok - text), "more than 8M values (rows x columns)");
	if (s->nrows >= s->cap)
		grow_rows(s);
	s->t_ms[s->nrows] = *last_t;
	while (token(&p, end, &tok, &n)) {
		if (c >= s->ncols)
			return fail(err, path, (size_t)(tok - text), "more values than declared columns");
		if (n == 1 && tok[0] == '.') {
			s->v[c][s->nrows] = SERIES_ABSENT;
		} else {
			if (!parse_i64(tok, n, &d))
				return fail(err, path, (size_t)(tok - text), "a value that is not an integer");
			if (__builtin_add_overflow(last[c], d, &last[c]) || last[c] == SERIES_ABSENT)
				return fail(err, path, (size_t)(tok - text), "a value out of range");
			s->v[c][s->nrows] = last[c];
		}
		c++;
	}
	if (c != s->ncols)
		return fail(err, path, (size_t)(p - text), "fewer values than declared columns");
	s->nrows++;
	return 0;
}

int series_parse(const char *text, size_t len, const char *path, struct series *s, struct strbuf *err)
{
	size_t ml = strlen(SERIES_MAGIC), off;
	int64_t *last = NULL, last_t = 0;
	int ret = -1;

	memset(s, 0, sizeof(*s));
	if (len < ml + 1 || memcmp(text, SERIES_MAGIC, ml) || text[ml] != '\n')
		return fail(err, path, 0, "not a series file (its first line is not \"" SERIES_MAGIC "\")");
	for (off = ml + 1; off < len;) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off), *p = line + 1, *tok;
		size_t n;

		if (!nl)
			{ fail(err, path, off, "truncated: the last line has no newline"); goto out; }
		if (memchr(line, '\0', (size_t)(nl - line)))
			{ fail(err, path, off, "a NUL byte"); goto out; }
		if (s->ended)
			{ fail(err, path, off, "a record after the end record"); goto out; }
		if (nl - line < 1 || (nl - line > 1 && line[1] != ' '))
			{ fail(err, path, off, "a record that is not \"m\", \"c\", \"r\", \"x\" or \"e\""); goto out; }
		switch (line[0]) {
		case 'm': {
			const char *k;
			size_t kn;

			if (s->nmeta >= SERIES_MAX_META)
				{ fail(err, path, off, "more than 256 facts"); goto out; }
			if (!token(&p, nl, &k, &kn))
				{ fail(err, path, off, "a fact without its key"); goto out; }
			while (p < nl && *p == ' ')
				p++;
			s->meta_key = xrealloc(s->meta_key, (s->nmeta + 1) * sizeof(char *));
			s->meta_val = xrealloc(s->meta_val, (s->nmeta + 1) * sizeof(char *));
			s->meta_key[s->nmeta] = xstrndup(k, kn);
			s->meta_val[s->nmeta] = xstrndup(p, (size_t)(nl - p));
			s->nmeta++;
			break;
		}
		case 'c':
			while (token(&p, nl, &tok, &n)) {
				if (add_column(s, tok, n, path, (size_t)(tok - text), err))
					goto out;
				last = xrealloc(last, s->ncols * sizeof(*last));
				last[s->ncols - 1] = 0;
			}
			break;
		case 'r':
			if (add_row(s, p, nl, last, &last_t, path, text, err))
				goto out;
			break;
		case 'x':
			while (p < nl && *p == ' ')
				p++;
			free(s->note);
			s->note = xstrndup(p, (size_t)(nl - p));
			break;
		case 'e': {
			int64_t rows;

			if (!token(&p, nl, &tok, &n) || !parse_i64(tok, n, &rows) || rows != (int64_t)s->nrows)
				{ fail(err, path, off, "an end record whose count is not the samples' count"); goto out; }
			s->ended = true;
			break;
		}
		default:
			fail(err, path, off, "a record that is not \"m\", \"c\", \"r\", \"x\" or \"e\"");
			goto out;
		}
		off = (size_t)(nl - text) + 1;
	}
	ret = 0;
out:
	free(last);
	if (ret)
		series_release(s);
	return ret;
}

int series_load(const char *path, struct series *s, struct strbuf *err)
{
	size_t len;
	char *text = read_regular_file(path, SERIES_FILE_MAX, READ_NOFOLLOW, &len, err);
	int r;

	memset(s, 0, sizeof(*s));
	if (!text)
		return -1;
	r = series_parse(text, len, path, s, err);
	free(text);
	return r;
}

void series_release(struct series *s)
{
	for (size_t c = 0; c < s->ncols; c++) {
		free(s->cols[c]);
		free(s->v[c]);
	}
	for (size_t m = 0; m < s->nmeta; m++) {
		free(s->meta_key[m]);
		free(s->meta_val[m]);
	}
	free(s->cols);
	free(s->v);
	free(s->t_ms);
	free(s->meta_key);
	free(s->meta_val);
	free(s->note);
	memset(s, 0, sizeof(*s));
}

long series_col(const struct series *s, const char *name)
{
	for (size_t c = 0; c < s->ncols; c++)
		if (!strcmp(s->cols[c], name))
			return (long)c;
	return -1;
}

const char *series_meta(const struct series *s, const char *key)
{
	for (size_t m = 0; m < s->nmeta; m++)
		if (!strcmp(s->meta_key[m], key))
			return s->meta_val[m];
	return NULL;
}

/* ---- the levels ---- */

const struct series_level series_levels[] = {
	{ "active file MB", "active-file", false,
	  { { "vmstat.nr_active_file", NULL, SU_PAGES }, { "meminfo.Active(file)", NULL, SU_KB } } },
	{ "inactive file MB", "inactive-file", false,
	  { { "vmstat.nr_inactive_file", NULL, SU_PAGES }, { "meminfo.Inactive(file)", NULL, SU_KB } } },
	{ "active anon MB", "active-anon", false,
	  { { "vmstat.nr_active_anon", NULL, SU_PAGES }, { "meminfo.Active(anon)", NULL, SU_KB } } },
	{ "inactive anon MB", "inactive-anon", false,
	  { { "vmstat.nr_inactive_anon", NULL, SU_PAGES }, { "meminfo.Inactive(anon)", NULL, SU_KB } } },
	{ "swap used MB", "swap-used", false,
	  { { "meminfo.SwapTotal", "meminfo.SwapFree", SU_KB }, { NULL, NULL, SU_KB } } },
	{ "AnonHugePages MB", "anonhugepages", false,
	  { { "meminfo.AnonHugePages", NULL, SU_KB },
	    { "vmstat.nr_anon_transparent_hugepages", NULL, SU_PAGES } } },
	{ "Cached MB", "cached", false, { { "meminfo.Cached", NULL, SU_KB }, { NULL, NULL, SU_KB } } },
	{ "Slab MB", "slab", false, { { "meminfo.Slab", NULL, SU_KB }, { NULL, NULL, SU_KB } } },
	{ "MemFree MB", "memfree", true,
	  { { "meminfo.MemFree", NULL, SU_KB }, { "vmstat.nr_free_pages", NULL, SU_PAGES } } },
	{ "memcg usage MB", "memcg-usage", false,
	  { { "memcg.all.current", NULL, SU_BYTES }, { NULL, NULL, SU_BYTES } } },
	{ "memcg swap MB", "memcg-swap", false,
	  { { "memcg.all.swap_current", NULL, SU_BYTES }, { "memcg.all.total_swap", NULL, SU_BYTES } } },
};
const size_t series_levels_count = sizeof(series_levels) / sizeof(series_levels[0]);

bool series_level_values(const struct series *s, const struct series_level *l, double *out)
{
	const char *ps = series_meta(s, "page_size");
	double page = ps && atof(ps) > 0 ? atof(ps) : 4096;

	for (size_t a = 0; a < 2; a++) {
		long c, m = -1;
		double scale;

		if (!l->alt[a].col || (c = series_col(s, l->alt[a].col)) < 0 ||
		    (l->alt[a].minus && (m = series_col(s, l->alt[a].minus)) < 0))
			continue;
		scale = l->alt[a].unit == SU_PAGES ? page : l->alt[a].unit == SU_KB ? 1024 : 1;
		scale /= 1048576.0;
		for (size_t r = 0; r < s->nrows; r++) {
			int64_t x = s->v[c][r], y = m >= 0 ? s->v[m][r] : 0;

			out[r] = x == SERIES_ABSENT || y == SERIES_ABSENT ? NAN : ((double)x - (double)y) * scale;
		}
		return true;
	}
	return false;
}

/* ---- writing ---- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Write the line built in w->line and empty it. */
static int flush_line(struct series_writer *w)
{
	int r = 0;

	if (!w->failed && write_all(w->fd, w->line.buf, w->line.len))
		w->failed = errno ? errno : EIO;
	if (w->failed)
		r = -1;
	strbuf_reset(&w->line);
	return r;
}

int series_writer_init(struct series_writer *w, int fd)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	strbuf_init(&w->line);
	strbuf_addstr(&w->line, SERIES_MAGIC "\n");
	return flush_line(w);
}

/* text with control bytes and newlines as '?': one line, whatever it holds */
static void add_one_line(struct strbuf *sb, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		strbuf_add(sb, *p < 0x20 || *p == 0x7f ? "?" : (const char *)p, 1);
}

int series_writer_meta(struct series_writer *w, const char *key, const char *text)
{
	strbuf_addstr(&w->line, "m ");
	add_one_line(&w->line, key);
	strbuf_addstr(&w->line, " ");
	add_one_line(&w->line, text);
	strbuf_addstr(&w->line, "\n");
	return flush_line(w);
}

int series_writer_columns(struct series_writer *w, const char *const *names, size_t n)
{
	if (!n)
		return 0;
	w->prev = xrealloc(w->prev, (w->ncols + n) * sizeof(*w->prev));
	strbuf_addstr(&w->line, "c");
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(&w->line, " %s", names[i]);
		w->prev[w->ncols + i] = 0;
	}
	strbuf_addstr(&w->line, "\n");
	w->ncols += n;
	return flush_line(w);
}

int series_writer_row(struct series_writer *w, int64_t t_ms, const int64_t *vals)
{
	strbuf_addf(&w->line, "r %lld", (long long)(t_ms - w->prev_t));
	w->prev_t = t_ms;
	for (size_t c = 0; c < w->ncols; c++) {
		if (vals[c] == SERIES_ABSENT) {
			strbuf_addstr(&w->line, " .");
			continue;
		}
		/* counters are far below 2^62: the difference cannot overflow */
		strbuf_addf(&w->line, " %lld", (long long)(vals[c] - w->prev[c]));
		w->prev[c] = vals[c];
	}
	strbuf_addstr(&w->line, "\n");
	w->rows++;
	return flush_line(w);
}

int series_writer_end(struct series_writer *w)
{
	strbuf_addf(&w->line, "e %zu\n", w->rows);
	return flush_line(w);
}

void series_writer_release(struct series_writer *w)
{
	free(w->prev);
	strbuf_release(&w->line);
	w->prev = NULL;
}

int series_seal(int fd, const char *note)
{
	char buf[4096];
	off_t end = lseek(fd, 0, SEEK_END), pos = end, keep = -1;
	struct strbuf sb = STRBUF_INIT;
	int r;

	if (end < 0)
		return -1;
	/* back from the end to the last newline */
	while (pos > 0 && keep < 0) {
		size_t n = pos > (off_t)sizeof(buf) ? sizeof(buf) : (size_t)pos;
		ssize_t got = pread(fd, buf, n, pos - (off_t)n);

		if (got != (ssize_t)n)
			return -1;
		for (size_t i = n; i-- > 0;)
			if (buf[i] == '\n') {
				keep = pos - (off_t)n + (off_t)i + 1;
				break;
			}
		pos -= (off_t)n;
	}
	if (keep < 0)
		keep = 0;
	if (ftruncate(fd, keep) || lseek(fd, keep, SEEK_SET) < 0)
		return -1;
	if (!keep)
		strbuf_addstr(&sb, SERIES_MAGIC "\n");
	strbuf_addstr(&sb, "x ");
	add_one_line(&sb, note);
	strbuf_addstr(&sb, "\n");
	r = write_all(fd, sb.buf, sb.len);
	strbuf_release(&sb);
	return r;
}

bool series_level_title(const char *workload, const char *title)
{
	size_t wl = strlen(workload);

	if (strncmp(title, workload, wl) || title[wl] != ' ')
		return false;
	title += wl + 1;
	for (size_t i = 0; i < series_levels_count; i++) {
		size_t n = strlen(series_levels[i].what);

		if (!strncmp(title, series_levels[i].what, n) &&
		    (!strcmp(title + n, " (peak)") || !strcmp(title + n, " (min)") ||
		     !strcmp(title + n, " (end)")))
			return true;
	}
	return false;
}
