// SPDX-License-Identifier: GPL-2.0-or-later
/* The label-name rule (label_name.h). */
#include "core/label_name.h"
#include "core/escape.h"

#include <stdio.h>
#include <string.h>

static bool label_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '+' || c == '-';
}

/* Why name is not a label, or NULL; reason has room for one phrase. */
static const char *why_not(const char *name, char *reason, size_t len)
{
	size_t n = strlen(name);

	if (!n)
		return "is empty";
	if (n > LABEL_NAME_MAX)
		return "is too long";
	if (name[0] == '.' || name[0] == '-') {
		snprintf(reason, len, "starts with '%c'", name[0]);
		return reason;
	}
	for (const char *p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (label_char(*p))
			continue;
		if (c >= 0x20 && c < 0x7f)
			snprintf(reason, len, "has '%c'", c);
		else
			snprintf(reason, len, "has the byte 0x%02x", c);
		return reason;
	}
	return NULL;
}

int label_name_check(const char *name, struct strbuf *err)
{
	char reason[32];
	const char *why = why_not(name, reason, sizeof(reason));

	if (!why)
		return 0;
	/* the name is someone's bytes (a folder, a plan, a URL): quoted inert,
	 * so a newline or an escape in it cannot forge a line of the message */
	char head[65];

	snprintf(head, sizeof(head), "%s", name);
	strbuf_addstr(err, "label '");
	strbuf_add_inert(err, head);
	strbuf_addf(err, "%s' %s: a label is 1 to %d characters from A-Z a-z 0-9 . _ + -, "
		    "not starting with '.' or '-'", strlen(name) > 64 ? "..." : "", why,
		    LABEL_NAME_MAX);
	return -1;
}
