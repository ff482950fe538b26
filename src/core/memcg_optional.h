/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workloads whose memcgs = 0 needs no memory controller (readtwice,
 * mmapread): on a kernel with none (booted with cgroup_disable=memory, the
 * review's diagnostic baseline of the mmap-read regression) their tasks run
 * in lrubench's own cgroup, in no memcg, and the per-memcg tables stay empty;
 * a step of memcgs > 0 cannot run there (docs/ARCHITECTURE.md §5).
 */
#ifndef LRUBENCH_MEMCG_OPTIONAL_H
#define LRUBENCH_MEMCG_OPTIONAL_H

#include "core/config.h"
#include "core/workload.h"

/* The probe's answer with no memory controller: WL_OK when every count of
 * memcgs is 0, else WL_UNSUPPORTED with why naming the first count > 0. */
enum wl_status memcgs_without_controller(const struct ull_list *memcgs, const char *workload,
					 struct strbuf *why);
/* The sentence the results carry in place of per-memcg numbers. */
#define NO_MEMCG_NOTE "no memory controller: the tasks ran in lrubench's cgroup, in no memcg; " \
	"per-memcg tables and memory.stat counters are empty"

#endif
