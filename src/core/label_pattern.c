// SPDX-License-Identifier: GPL-2.0-or-later
/* `run --label` patterns (label_pattern.h). */
#include <string.h>
#include "core/label_pattern.h"

char *label_expand(const char *spec, const char *release, time_t now, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct tm tm;
	char buf[32];

	if (!strcmp(spec, "auto"))
		spec = LABEL_AUTO_PATTERN;
	if (!gmtime_r(&now, &tm)) {
		strbuf_addstr(err, "--label: the clock gives no date");
		return NULL;
	}
	strbuf_init(&sb);
	for (const char *p = spec; *p; p++) {
		if (*p != '%') {
			strbuf_add(&sb, p, 1);
			continue;
		}
		switch (p[1]) {
		case 'r':
			strbuf_addstr(&sb, release);
			break;
		case 'd':
			strftime(buf, sizeof(buf), "%Y%m%d", &tm);
			strbuf_addstr(&sb, buf);
			break;
		case 't':
			strftime(buf, sizeof(buf), "%H%M%S", &tm);
			strbuf_addstr(&sb, buf);
			break;
		case '%':
			strbuf_addstr(&sb, "%");
			break;
		default:
			strbuf_addf(err, "--label '%s': '%%%.1s' is not a pattern field "
				    "(%%r release, %%d date, %%t time, %%%% a '%%')", spec, p + 1);
			strbuf_release(&sb);
			return NULL;
		}
		p++;
	}
	return strbuf_detach(&sb);
}
