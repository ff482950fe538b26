// SPDX-License-Identifier: GPL-2.0-or-later
/* The parser of sysbench's summary (workloads/sysbench/parse.c). */
#include <string.h>
#include "fuzz/fuzz.h"
#include "workloads/sysbench/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_result r;
	char missing[512];
	int n = sb_parse((const char *)data, size, &r);

	FUZZ_CHECK(n >= 0);
	FUZZ_CHECK(memchr(r.fatal, '\0', sizeof(r.fatal)));
	sb_missing(&r, missing, sizeof(missing));
	FUZZ_CHECK(sb_complete(&r) == (missing[0] == '\0'));
	return 0;
}
