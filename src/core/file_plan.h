/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan (workload.h struct wl_plan, run --dry-run --machine) of a
 * workload of "N memcgs x K tasks on sparse files for a runtime"
 * (readtwice, mmapread): per step its files and their size (file_size =
 * auto by core/file_sizing.h from the shape's MemAvailable), the working set
 * against the memory that can hold it (the memcgs' limits, or the node), and
 * the time. The plan's working set is that of the step with the least of it
 * against its memory: "reclaims" holds for every step or is "no".
 */
#ifndef LRUBENCH_FILE_PLAN_H
#define LRUBENCH_FILE_PLAN_H

#include <stdbool.h>
#include "core/config.h"
#include "core/workload.h"

struct file_plan_spec {
	const struct ull_list *memcgs;          /* the steps; 0 is one group in the root */
	unsigned long long tasks_per_memcg;
	unsigned long long files_per_memcg;     /* readtwice 1, mmapread tasks_per_memcg */
	bool shared_file;                       /* one file for every task */
	bool auto_divides;                      /* auto: ROTATE_BYTES / files (stock cases); else
						 * every file is ROTATE_BYTES (the container case) */
	uint64_t file_size;                     /* or LB_SIZE_AUTO */
	uint64_t memcg_limit;                   /* 0: none */
	double runtime;
	const char *rule;                       /* for the auto line */
	const char *tasks;                      /* "readers (dd)", "tasks" */
};

void file_plan(const struct wl_ctx *ctx, struct wl_plan *p, const struct file_plan_spec *s);

#endif
