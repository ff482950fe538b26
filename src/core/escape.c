// SPDX-License-Identifier: GPL-2.0-or-later
/* Inert and valid output of other people's names (escape.h). */
#include "core/escape.h"

#include <stdlib.h>
#include <string.h>

size_t utf8_seq(const unsigned char *p, size_t avail, unsigned *cp)
{
	unsigned c = p[0], v, min;
	size_t n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		n = 2, v = c & 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3, v = c & 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* The bidirectional controls: embeddings and overrides (U+202A..U+202E),
 * isolates (U+2066..U+2069), and the marks (U+200E, U+200F, U+061C). They
 * print nothing and reorder what follows ("Trojan Source"): a label could
 * show a regression's sign or another label's name. */
static bool is_bidi_control(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* printable: not C0, DEL, C1 or a bidi control, and valid UTF-8 */
static size_t printable_seq(const unsigned char *p, size_t avail, unsigned *cp)
{
	size_t n = utf8_seq(p, avail, cp);

	if (!n || *cp < 0x20 || *cp == 0x7f || (*cp >= 0x80 && *cp <= 0x9f) ||
	    is_bidi_control(*cp))
		return 0;
	return n;
}

bool text_needs_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	unsigned cp;

	for (size_t i = 0; i < len; ) {
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			i++;
			continue;
		}
		if (p[i] == '\\')
			return true;
		n = printable_seq(p + i, len - i, &cp);
		if (!n)
			return true;
		i += n;
	}
	return false;
}

/* message: a whole message of ours (lines and tabs of its own, backslashes
 * as written), with other people's bytes inside it */
static void add_inert(struct strbuf *sb, const char *s, bool message)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	unsigned cp;

	/* an empty name still leaves a buffer: callers read sb->buf after it
	 * (csv_field, md_code: an op named "" crashed compare -f csv/markdown) */
	strbuf_add(sb, "", 0);
	for (size_t i = 0; i < len; ) {
		size_t n = printable_seq(p + i, len - i, &cp);

		if (message && (p[i] == '\n' || p[i] == '\t')) {
			strbuf_add(sb, p + i, 1);
			i++;
		} else if (n) {
			/* a backslash before "x" or "u" would read as an escape */
			if (p[i] == '\\' && !message)
				strbuf_addstr(sb, "\\\\");
			else
				strbuf_add(sb, p + i, n);
			i += n;
		} else if ((n = utf8_seq(p + i, len - i, &cp)) >= 2) {
			strbuf_addf(sb, "\\u%04x", cp);   /* a C1 or bidi control */
			i += n;
		} else {
			strbuf_addf(sb, "\\x%02x", p[i]);
			i++;
		}
	}
}

void strbuf_add_inert(struct strbuf *sb, const char *s)
{
	add_inert(sb, s, false);
}

void strbuf_add_inert_message(struct strbuf *sb, const char *s)
{
	add_inert(sb, s, true);
}

char *inert_dup(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	strbuf_add_inert(&sb, s);
	return strbuf_detach(&sb);
}

void strbuf_add_json_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), run = 0;
	unsigned cp;

	strbuf_addstr(sb, "\"");
	for (size_t i = 0; i < len; ) {
		size_t n;

		/* plain ASCII goes out in runs: names are mostly that */
		if (p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\') {
			run++;
			i++;
			continue;
		}
		strbuf_add(sb, p + i - run, run);
		run = 0;
		switch (p[i]) {
		case '"': strbuf_addstr(sb, "\\\""); i++; continue;
		case '\\': strbuf_addstr(sb, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(sb, "\\n"); i++; continue;
		case '\r': strbuf_addstr(sb, "\\r"); i++; continue;
		case '\t': strbuf_addstr(sb, "\\t"); i++; continue;
		}
		if (p[i] < 0x20) {
			strbuf_addf(sb, "\\u%04x", p[i]);
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i, &cp);
		if (n) {
			strbuf_add(sb, p + i, n);
			i += n;
		} else {
			strbuf_addstr(sb, "\\ufffd");
			i++;
		}
	}
	strbuf_add(sb, p + len - run, run);
	strbuf_addstr(sb, "\"");
}

void strbuf_add_html_text(struct strbuf *sb, const char *s)
{
	char *tmp = text_needs_escape(s) ? inert_dup(s) : NULL;

	for (const char *p = tmp ? tmp : s; *p; p++)
		switch (*p) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_add(sb, p, 1);
		}
	free(tmp);
}

void strbuf_add_xml_text(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	unsigned cp;

	for (size_t i = 0; i < len; ) {
		size_t n;

		switch (p[i]) {
		case '&': strbuf_addstr(sb, "&amp;"); i++; continue;
		case '<': strbuf_addstr(sb, "&lt;"); i++; continue;
		case '>': strbuf_addstr(sb, "&gt;"); i++; continue;
		case '"': strbuf_addstr(sb, "&quot;"); i++; continue;
		case '\'': strbuf_addstr(sb, "&apos;"); i++; continue;
		}
		if (p[i] < 0x20) {
			strbuf_add(sb, p[i] == '\t' || p[i] == '\n' || p[i] == '\r' ? (const char *)p + i : "?", 1);
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i, &cp);
		if (n && cp != 0xfffe && cp != 0xffff) {
			strbuf_add(sb, p + i, n);
			i += n;
		} else {
			strbuf_addstr(sb, "\xef\xbf\xbd");   /* U+FFFD */
			i += n ? n : 1;
		}
	}
}
