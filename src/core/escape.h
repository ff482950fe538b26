/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names from results folders (op names, labels, titles, kernel_release ...)
 * are other people's bytes. Every output keeps them inert: text and
 * markdown for people show any byte that is not printable UTF-8 as a
 * visible escape, JSON and XML stay valid documents whatever the bytes.
 */
#ifndef LRUBENCH_ESCAPE_H
#define LRUBENCH_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/util.h"

/* Length (1-4) of the valid UTF-8 sequence at p (at most avail bytes), its
 * code point in *cp; 0 when the bytes there are not valid UTF-8 (overlong,
 * a surrogate, above U+10FFFF, truncated, a stray continuation byte). */
size_t utf8_seq(const unsigned char *p, size_t avail, unsigned *cp);

/* Does s hold anything strbuf_add_inert would escape? (plain names: no) */
bool text_needs_escape(const char *s);
/*
 * For a terminal, a text file or markdown: C0 controls (ESC, CR, newline,
 * tab, ...), DEL and invalid UTF-8 bytes as "\xHH", C1 controls (U+0080 to
 * U+009F, which terminals obey too) and the bidirectional controls (U+202A
 * to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C, which reorder what a
 * reader sees) as "\uHHHH", and a backslash that would
 * start such an escape as "\\"; everything else as is. A name can then
 * never move the cursor, recolour the terminal or start a line (so never a
 * markdown heading).
 */
void strbuf_add_inert(struct strbuf *sb, const char *s);
/* A whole message (error, warning, info): the same, but its own newlines
 * and tabs stay, and a backslash stays one. error(), warning() and info()
 * print every message through it, so a name quoted in any message is
 * inert whoever forgot to escape it. */
void strbuf_add_inert_message(struct strbuf *sb, const char *s);
/* The same into a new string (free it), for "%s" in messages. */
char *inert_dup(const char *s);

/* A JSON string with its quotes: escapes as RFC 8259 asks, and invalid
 * UTF-8 bytes become U+FFFD, so the document always parses. */
void strbuf_add_json_string(struct strbuf *sb, const char *s);
/* HTML text or a quoted attribute value, for people: inert first (as
 * strbuf_add_inert: controls, bidi controls and invalid UTF-8 shown as
 * escapes), then & < > " ' as character references, so a name from a
 * results file never becomes markup, a script or a link. */
void strbuf_add_html_text(struct strbuf *sb, const char *s);
/* XML 1.0 text or attribute value: markup escaped, control characters XML
 * forbids as '?', invalid UTF-8 (and U+FFFE, U+FFFF) as U+FFFD. */
void strbuf_add_xml_text(struct strbuf *sb, const char *s);

#endif
