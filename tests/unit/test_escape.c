// SPDX-License-Identifier: GPL-2.0-or-later
/* Text from files printed inert (core/escape.h): what a terminal, a text
 * file or markdown would obey comes out as a visible escape. */
#include "unit.h"
#include "core/escape.h"

static void check_inert(const char *in, const char *want)
{
	char *got = inert_dup(in);

	assert_string_equal(got, want);
	free(got);
}

static void controls_and_invalid_bytes(void **state)
{
	(void)state;
	check_inert("plain 6.8.0-rc1+ name", "plain 6.8.0-rc1+ name");
	check_inert("a\x1b[31mred", "a\\x1b[31mred");
	check_inert("line\r\nnext\a", "line\\x0d\\x0anext\\x07");
	check_inert("del\x7f", "del\\x7f");
	check_inert("bad \xff\xfe utf8", "bad \\xff\\xfe utf8");
	check_inert("back\\x1b", "back\\\\x1b");
	/* C1: CSI (U+009B) and OSC (U+009D) as terminals read them */
	check_inert("c1 \xc2\x9b" "31m \xc2\x9d" "8;;x", "c1 \\u009b31m \\u009d8;;x");
	/* printable UTF-8 stays as it is */
	check_inert("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\xa7", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\xa7");
	assert_false(text_needs_escape("caf\xc3\xa9"));
	assert_true(text_needs_escape("a\x1b"));
}

/* issue 30: the bidirectional controls passed the filter and could make a
 * label read as another ("Trojan Source") */
static void bidi_controls(void **state)
{
	(void)state;
	check_inert("a\xe2\x80\xae" "cba", "a\\u202ecba");                 /* RLO */
	check_inert("\xe2\x80\xaa" "x\xe2\x80\xac", "\\u202ax\\u202c");   /* LRE, PDF */
	check_inert("\xe2\x81\xa6" "x\xe2\x81\xa9", "\\u2066x\\u2069");   /* LRI, PDI */
	check_inert("m\xe2\x80\x8f" "n\xd8\x9c", "m\\u200fn\\u061c");      /* RLM, ALM */
	assert_true(text_needs_escape("x\xe2\x80\xae"));
	/* neighbours of the ranges are ordinary characters */
	check_inert("\xe2\x80\xaf\xe2\x81\xaa", "\xe2\x80\xaf\xe2\x81\xaa");   /* U+202F, U+206A */
}

static void check_html(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_init(&sb);
	strbuf_add_html_text(&sb, in);
	assert_string_equal(strbuf_str(&sb), want);
	strbuf_release(&sb);
}

/* issue 29: HTML text and attribute values: markup as character
 * references, and inert first, so controls show as in the text output */
static void html_text(void **state)
{
	(void)state;
	check_html("6.8.0-rc1+", "6.8.0-rc1+");
	check_html("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	check_html("\"><img src=x onerror=y>", "&quot;&gt;&lt;img src=x onerror=y&gt;");
	check_html("a&amp;b", "a&amp;amp;b");
	check_html("esc\x1b[31m\nx", "esc\\x1b[31m\\x0ax");
	check_html("a\xe2\x80\xae" "cba \xff", "a\\u202ecba \\xff");
	check_html("caf\xc3\xa9", "caf\xc3\xa9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controls_and_invalid_bytes),
		cmocka_unit_test(bidi_controls),
		cmocka_unit_test(html_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
