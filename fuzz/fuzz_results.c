// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results JSON loading (core/results.c) and everything compare does with
 * what loads: the input is both a <workload>.json and a run.json; when it
 * loads, two labels made of it (the second named by its "label", so names
 * come from the input too) go through the comparison model and every
 * renderer. Properties: the JSON output parses as strict, valid UTF-8 JSON,
 * and the JUnit output is valid UTF-8 without a control character XML
 * forbids, whatever bytes the names hold.
 */
#include <string.h>
#include "fuzz/fuzz.h"
#include "compare/model.h"
#include "core/results.h"

static void check_utf8_no_ctl(const struct strbuf *sb, bool allow_nl)
{
	const unsigned char *p = (const unsigned char *)sb->buf, *end = p + sb->len;

	while (p < end) {
		unsigned c = *p;
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			 : (c & 0xf8) == 0xf0 ? 4 : 0;

		FUZZ_CHECK(n && p + n <= end);
		for (size_t i = 1; i < n; i++)
			FUZZ_CHECK((p[i] & 0xc0) == 0x80);
		if (n == 1)
			FUZZ_CHECK(c >= 0x20 || (allow_nl && c == '\n') || c == '\t' || (c == '\r' && allow_nl));
		FUZZ_CHECK(c != 0x7f || allow_nl);
		p += n;
	}
}

static void check_json(const struct strbuf *sb)
{
	json_tokener *tok = json_tokener_new();
	json_object *o;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, sb->buf, (int)sb->len);
	FUZZ_CHECK(o && json_tokener_get_error(tok) == json_tokener_success);
	json_object_put(o);
	json_tokener_free(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct label_result labels[2];
	struct wl_result wl;
	struct comparison c;
	json_object *o, *v;

	o = json_parse_text((const char *)data, size, "fuzz.json", &err);
	if (!o)
		goto out;
	if (wl_result_from_json(o, "fuzz.json", &wl, &err)) {
		json_object_put(o);
		goto out;
	}
	memset(labels, 0, sizeof(labels));
	labels[0].label = "base";
	labels[0].dir = "base";
	labels[1].label = json_object_object_get_ex(o, "label", &v) &&
			  json_object_is_type(v, json_type_string) ?
			  (char *)json_object_get_string(v) : "cand";
	labels[1].dir = labels[1].label;
	for (int i = 0; i < 2; i++) {
		labels[i].run = o;
		labels[i].wls = &wl;
		labels[i].nwls = 1;
	}
	if (!comparison_build(labels, 2, 0.10, &c, &err)) {
		report_text(&c, &out);
		check_utf8_no_ctl(&out, true);
		strbuf_reset(&out);
		report_markdown(&c, &out);
		check_utf8_no_ctl(&out, true);
		strbuf_reset(&out);
		report_csv(&c, &out);
		strbuf_reset(&out);
		report_json(&c, 5, &out);
		check_json(&out);
		strbuf_reset(&out);
		{
			struct gate_opts g = { .pct = 5 };

			report_junit(&c, &g, &out);
			check_utf8_no_ctl(&out, true);
			report_regressions(&c, &g, NULL);
			report_checks(&c, &g, NULL);
		}
		comparison_release(&c);
	}
	wl_result_release(&wl);
	json_object_put(o);
out:
	strbuf_release(&err);
	strbuf_release(&out);
	return 0;
}
