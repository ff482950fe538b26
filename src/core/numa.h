/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NUMA: which nodes exist, which CPUs and how much memory each has, and the
 * binding every workload process gets (CPUs of the node + MPOL_BIND to it).
 */
#ifndef LRUBENCH_NUMA_H
#define LRUBENCH_NUMA_H


#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/status.h"
#include "core/util.h"

#define LB_MAX_NODES 64

struct numa_bind {
	int node;            /* -1: no binding ("none") */
	cpu_set_t cpus;      /* CPUs of that node (all online CPUs when node < 0) */
	int nr_cpus;         /* CPU_COUNT(&cpus) */
	uint64_t mem_bytes;  /* MemTotal of the node (of the machine when node < 0) */
	uint64_t free_bytes; /* MemFree of the node at resolve time */
};

/* Nodes with memory present, ascending; returns the count (>= 1). `root` is
 * the sysfs root ("" for the real one; a fake tree in unit tests). */
int numa_nodes(const char *root, int *nodes, int max);
/* Resolve "N", "auto" (node with most free memory), "last" (the highest
 * node with memory) or "none": WL_OK. A node that does not exist returns
 * WL_UNSUPPORTED with err naming it and the nodes present (the caller exits
 * 3); a malformed spec returns WL_BAD_CONFIG (exit 2). */
enum wl_status numa_resolve(const char *root, const char *spec, struct numa_bind *out, struct strbuf *err);
/* Parse a kernel CPU list ("0-3,8"; "" or "\n" is empty) into set, which is
 * zeroed first. 0, or -1 when it is malformed. */
int numa_parse_cpulist(const char *s, cpu_set_t *set);
/* Apply the binding to the calling process: sched_setaffinity + MPOL_BIND.
 * Uses only system calls, so it is safe between fork and exec. Returns 0 or
 * -errno. */
int numa_apply_self(const struct numa_bind *b);
/* The node a page of memory at addr lives on (move_pages query), or -1. */
int numa_node_of_addr(void *addr);

/* The value of `key` ("MemAvailable") in a /proc/meminfo or a node's meminfo
 * text ("Node 0 MemFree:  5194232 kB"), in bytes; 0 when absent. */
uint64_t meminfo_value(const char *text, const char *key);

#endif
