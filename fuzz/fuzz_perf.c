// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parsers of the profiles' outside input (src/profile/): perf report's
 * symbol rows, perf lock contention's table and /proc/lock_stat, each on
 * the same bytes. Property: a parse that succeeds gives shares that are
 * numbers (no NaN) and every entry named.
 */
#include <math.h>
#include <string.h>
#include "fuzz/fuzz.h"
#include "profile/lock_stat.h"
#include "profile/perf_cpu.h"
#include "profile/perf_lock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct strbuf err = STRBUF_INIT;
	struct cpu_profile cpu;
	struct lock_report lr;
	struct lock_stat_snapshot ls;

	memset(&cpu, 0, sizeof(cpu));
	if (!perf_cpu_parse(text, "6.1.187", &cpu, &err)) {
		FUZZ_CHECK(!isnan(cpu.spin_pct));
		for (size_t i = 0; i < cpu.n; i++)
			FUZZ_CHECK(cpu.s[i].symbol && !isnan(cpu.s[i].pct));
	}
	cpu_profile_release(&cpu);
	strbuf_reset(&err);
	memset(&lr, 0, sizeof(lr));
	(void)perf_lock_parse(text, "6.1.187", &lr, &err);
	lock_report_release(&lr);
	strbuf_reset(&err);
	memset(&ls, 0, sizeof(ls));
	(void)lock_stat_parse(text, &ls, &err);
	lock_stat_release(&ls);
	strbuf_release(&err);
	free(text);
	return 0;
}
