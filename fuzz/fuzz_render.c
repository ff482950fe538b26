// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CSV and markdown renderers (compare/render_csv.c,
 * render_markdown.c) with names from the input: the input is split at NUL
 * bytes into a workload name, two table titles and units, three op names,
 * three labels and their kernel releases; what follows the last NUL gives
 * the samples (a byte each). The names go through the comparison model
 * (compare/model.c, provenance facts and warnings included) into both
 * renderers. Properties:
 *   CSV: every record is one line of 6 RFC 4180 fields (header included);
 *   no text field a spreadsheet would run as a formula (= + - @ TAB CR
 *   first), the only field that may start with '-' being a number; the
 *   output is inert text (no control but the record's newline).
 *   markdown: inert text; each table's rows have as many cell separators as
 *   its header; outside code spans no unescaped markup that makes a name
 *   something else (a link or image '[', HTML '<' before a letter, '/' '!'
 *   or '?', an entity '&'), and code spans close on the line they open.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz/fuzz.h"
#include "compare/model.h"
#include "core/results.h"

#define NFIELDS 14   /* wl, title x2, unit x2, op x3, label x3, release x3 */

/* One CSV record of line; fields into f (quotes removed), their count. */
static size_t csv_fields(const char *line, size_t len, char **f, size_t max)
{
	size_t n = 0, i = 0;

	for (;;) {
		struct strbuf v = STRBUF_INIT;

		if (i < len && line[i] == '"') {
			for (i++;; i++) {
				FUZZ_CHECK(i < len);   /* a quoted field ends on its line */
				if (line[i] == '"' && i + 1 < len && line[i + 1] == '"') {
					strbuf_addstr(&v, "\"");
					i++;
				} else if (line[i] == '"') {
					i++;
					break;
				} else {
					strbuf_add(&v, line + i, 1);
				}
			}
			FUZZ_CHECK(i == len || line[i] == ',');
		} else {
			size_t s = i;

			while (i < len && line[i] != ',') {
				FUZZ_CHECK(line[i] != '"');
				i++;
			}
			strbuf_add(&v, line + s, i - s);
		}
		if (n < max)
			f[n] = xstrdup(v.buf ? v.buf : "");
		n++;
		strbuf_release(&v);
		if (i == len)
			return n;
		i++;   /* the comma */
	}
}

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	(void)strtod(s, &end);
	return !*end;
}

static void check_csv(const struct strbuf *out)
{
	const char *p = out->buf, *end = p + out->len;

	fuzz_check_inert(out->buf, out->len, 1);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *f[6];
		size_t n;

		FUZZ_CHECK(nl);   /* every record ends with a newline */
		n = csv_fields(p, (size_t)(nl - p), f, 6);
		FUZZ_CHECK(n == 6);
		for (size_t i = 0; i < 6; i++) {
			if (!(i == 5 && is_number(f[i])))
				FUZZ_CHECK(!f[i][0] || !strchr("=+-@\t\r", f[i][0]));
			free(f[i]);
		}
		p = nl + 1;
	}
}

/* Is the character at i escaped by an odd run of backslashes before it? */
static bool escaped(const char *line, size_t i)
{
	size_t b = 0;

	while (i > b && line[i - b - 1] == '\\')
		b++;
	return b & 1;
}

static void check_md_line(const char *line, size_t len, size_t *pipes)
{
	bool span = false;
	size_t bars = 0;

	for (size_t i = 0; i < len; i++) {
		char c = line[i];

		if (c == '`' && (span || !escaped(line, i))) {
			span = !span;
			continue;
		}
		if (span) {
			if (c == '|' && !escaped(line, i))
				bars++;
			continue;
		}
		if (escaped(line, i))
			continue;
		FUZZ_CHECK(c != '[' && c != ']');
		FUZZ_CHECK(c != '&');
		if (c == '<' && i + 1 < len) {
			char d = line[i + 1];

			FUZZ_CHECK(!((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') || d == '/' ||
				     d == '!' || d == '?'));
		}
		if (c == '|')
			bars++;
	}
	FUZZ_CHECK(!span);   /* a code span closes on its line */
	if (line[0] == '|') {
		if (!*pipes)
			*pipes = bars;   /* the header sets the count */
		FUZZ_CHECK(bars == *pipes);
	} else {
		*pipes = 0;
	}
}

static void check_markdown(const struct strbuf *out)
{
	const char *p = out->buf, *end = p + out->len;
	size_t pipes = 0;

	fuzz_check_inert(out->buf, out->len, 1);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		check_md_line(p, len, &pipes);
		p += len + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *f[NFIELDS];
	struct label_result labels[3];
	struct wl_result wl[3];
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct comparison c;
	size_t nf = 0, off = 0, nlabels;
	char *text = fuzz_cstr(data, size);

	/* NUL-separated names; missing ones are plain */
	while (nf < NFIELDS && off < size) {
		f[nf++] = text + off;
		off += strlen(text + off) + 1;
	}
	for (size_t i = nf; i < NFIELDS; i++)
		f[i] = i < 5 ? "t" : "x";
	nlabels = size && (data[0] & 1) ? 3 : 2;
	memset(labels, 0, sizeof(labels));
	memset(wl, 0, sizeof(wl));
	for (size_t l = 0; l < nlabels; l++) {
		json_object *run = json_object_new_object(), *sys = json_object_new_object();

		json_object_object_add(sys, "kernel_release", json_object_new_string(f[11 + l]));
		json_object_object_add(run, "system", sys);
		json_object_object_add(run, "label", json_object_new_string(f[8 + l]));
		json_object_object_add(run, "status", json_object_new_string(l == 2 ? f[0] : "complete"));
		labels[l].label = (char *)f[8 + l];
		labels[l].dir = (char *)f[8 + l];
		labels[l].run = run;
		wl[l].workload = xstrdup(f[0]);
		for (size_t t = 0; t < 2; t++) {
			struct result_table *rt = wl_result_table(&wl[l], f[1 + t], f[3 + t],
								  t ? BETTER_LOWER : BETTER_HIGHER);

			for (size_t o = 0; o < 3; o++)
				for (size_t s = 0; s < 3 + (l + o) % 3; s++) {
					size_t at = off + (l * 31 + t * 7 + o * 5 + s) % (size > off ? size - off : 1);
					double v = at < size ? (double)data[at] - (o == 2 ? 128 : 0) : 100.0 + s;

					if (!(o == 1 && l == 1 && at % 5 == 0))   /* an op one label lacks */
						result_table_add(rt, f[5 + o], v);
				}
		}
		labels[l].wls = &wl[l];
		labels[l].nwls = 1;
	}
	if (!comparison_build(labels, nlabels, 0.05, &c, &err)) {
		report_csv(&c, &out);
		check_csv(&out);
		strbuf_reset(&out);
		report_markdown(&c, &out);
		check_markdown(&out);
		comparison_release(&c);
	}
	for (size_t l = 0; l < nlabels; l++) {
		json_object_put(labels[l].run);
		wl_result_release(&wl[l]);
	}
	strbuf_release(&err);
	strbuf_release(&out);
	free(text);
	return 0;
}
