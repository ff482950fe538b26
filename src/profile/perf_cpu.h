/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `cpu` profile: a sampling profile of the profiled iteration
 * (`perf record -a -F 499`, the cycles event or, where there is no PMU as on
 * most VMs, cpu-clock), read back with
 * `perf report --stdio --no-children --sort sym`, whose rows are
 * "    43.39%  [k] copy_folio_from_iter_atomic" ([k] kernel, [.] user,
 * [g]/[u] guest, [H] hypervisor) after '#' comment lines.
 *
 * Idle time is sampled too, so a symbol's share is a share of the bound
 * CPUs' time; the share of the spin-lock paths (the "very high sys time on
 * lru_lock" of the review that motivates lrubench) becomes the table
 * "<workload> spinlock CPU %".
 */
#ifndef LRUBENCH_PERF_CPU_H
#define LRUBENCH_PERF_CPU_H

#include <stddef.h>
#include <json-c/json.h>
#include "core/util.h"

struct cpu_symbol {
	double pct;
	char where;        /* 'k', '.', 'g', 'u', 'H' */
	char *symbol;
};

struct cpu_profile {
	struct cpu_symbol *s;
	size_t n, cap;
	double spin_pct;   /* sum over spin-lock symbols */
};

/* 0, or -1 with err naming perf's version and the line. */
int perf_cpu_parse(const char *text, const char *perf_version, struct cpu_profile *out,
		   struct strbuf *err);
/* Is this kernel symbol a spin-lock acquisition path? */
bool perf_cpu_is_spin_symbol(const char *sym);
json_object *cpu_profile_top_json(const struct cpu_profile *p, size_t n);
void cpu_profile_release(struct cpu_profile *p);

#endif
