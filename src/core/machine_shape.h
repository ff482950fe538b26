/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * run --dry-run --machine cpus=80,memory=251G,nodes=2: the plan of a suite on
 * a machine shape other than this one (the posted machines), without running
 * or touching anything: the config sized for the shape (what "cpus" stands
 * for, the node's memory, file_size = auto from the shape's memory), each
 * workload's plan hook (workload.h: how every step sizes, its working set
 * against the memory that can hold it, its time), and for workloads without
 * the hook their sized config. Probes and validation are this machine's and
 * are not run. lrubench-run(1) documents the syntax.
 */
#ifndef LRUBENCH_MACHINE_SHAPE_H
#define LRUBENCH_MACHINE_SHAPE_H

#include <stdint.h>
#include <stdio.h>
#include "core/config.h"
#include "core/util.h"

struct workload_ops;

struct machine_shape {
	int cpus;                 /* cpus=N (required) */
	uint64_t memory;          /* memory=SIZE: MemTotal (required) */
	int nodes;                /* nodes=N (default 1); CPUs and memory split evenly */
	uint64_t available;       /* available=SIZE: MemAvailable (default: memory) */
};

/* Parse "cpus=80,memory=251G,nodes=2[,available=240G]": 0, or -1 with err. */
int machine_shape_parse(const char *spec, struct machine_shape *m, struct strbuf *err);
/* The CPUs and memory a run with global.numa_node = numa_node would size
 * for there: the whole machine for "none", one node (an even share) else. */
void machine_shape_node(const struct machine_shape *m, const char *numa_node, int *cpus,
			uint64_t *mem);
/* Print the plan of the selected workloads (cfg sized for the shape
 * already). Returns 0. */
int machine_plan_print(struct config *cfg, const struct machine_shape *m,
		       const struct workload_ops *const *wls, size_t n, FILE *out);
#endif
