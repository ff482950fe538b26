// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config parsers (core/config.c, core/util.c): the first line of the
 * input is a --set assignment and a value for the size, time and list
 * parsers; the rest is an INI file. Property: a parsed list holds no more
 * entries than asked and each doubling/range entry lies within its bounds.
 */
#include <string.h>
#include "fuzz/fuzz.h"
#include "core/config.h"
#include "core/sysinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sys_facts si = { .nr_cpus = 4, .mem_total_kb = 8 << 20, .numa_nodes = 1 };
	struct sizing sz = { &si, 4, 8ULL << 30 };
	struct strbuf err = STRBUF_INIT;
	unsigned long long v[64], u;
	struct config cfg;
	char *text = fuzz_cstr(data, size), *nl = strchr(text, '\n'), *ini;
	uint64_t bytes;
	double secs;
	size_t n;

	ini = nl ? nl + 1 : text + size;
	if (nl)
		*nl = '\0';
	if (!parse_ull_list(text, v, 64, &n))
		FUZZ_CHECK(n >= 1 && n <= 64);
	(void)parse_size(text, &bytes);
	(void)parse_ull(text, &u);
	if (!parse_seconds(text, &secs))
		FUZZ_CHECK(secs >= 0);
	if (config_init(&cfg, &sz, size & 1))
		abort();
	(void)config_set(&cfg, text, &err);
	strbuf_reset(&err);
	if (!config_load_text(&cfg, "fuzz.conf", ini, size - (size_t)(ini - text), &err)) {
		json_object *o = config_to_json(&cfg);

		json_object_put(o);
	}
	config_release(&cfg);
	strbuf_release(&err);
	free(text);
	return 0;
}
