// SPDX-License-Identifier: GPL-2.0-or-later
/* The one label-name rule (core/label_name.h). */
#include "unit.h"
#include "core/label_name.h"

static void check(const char *name, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	int r = label_name_check(name, &err);

	if (!want) {
		assert_int_equal(r, 0);
		assert_string_equal(strbuf_str(&err), "");
	} else {
		assert_int_equal(r, -1);
		if (!strstr(err.buf, want))
			fail_msg("'%s': got '%s', want '%s'", name, err.buf, want);
	}
	strbuf_release(&err);
}

static void kernel_releases_are_labels(void **state)
{
	(void)state;
	check("6.8.0-rc2+", NULL);
	check("5.15.0-91-generic", NULL);
	check("4.18.0-513.el8.x86_64", NULL);
	check("6.7.4-arch1-1", NULL);
	check("base", NULL);
	check("a", NULL);
}

static void the_rule(void **state)
{
	char *longest = xmalloc(LABEL_NAME_MAX + 2);

	(void)state;
	check("", "label '' is empty");
	check(".", "starts with '.'");
	check("..", "label '..' starts with '.': a label is 1 to 200 characters from "
	      "A-Z a-z 0-9 . _ + -, not starting with '.' or '-'");
	check(".hidden", "starts with '.'");
	check("-x", "starts with '-'");
	check("a/b", "has '/'");
	check("a,b", "has ','");
	check("old results", "has ' '");
	check("tab\there", "has the byte 0x09");
	check("caf\xc3\xa9", "has the byte 0xc3");
	/* the name is quoted inert: a newline or an escape cannot forge a line */
	check("a\nerror: forged\x1b[2J", "label 'a\\x0aerror: forged\\x1b[2J' has the byte 0x0a");
	check("x\xe2\x80\xaey", "label 'x\\u202ey' has the byte 0xe2");
	memset(longest, 'x', LABEL_NAME_MAX);
	longest[LABEL_NAME_MAX] = '\0';
	check(longest, NULL);
	longest[LABEL_NAME_MAX] = 'x';
	longest[LABEL_NAME_MAX + 1] = '\0';
	check(longest, "is too long");
	free(longest);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_releases_are_labels),
		cmocka_unit_test(the_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
