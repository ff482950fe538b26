/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a guest runs on the host: the host node behind each guest node
 * (memory backends bound with policy=bind), the host CPU behind each vCPU
 * (sched_setaffinity on qemu's vCPU threads, found with QMP), and reading
 * back what was really applied (/proc/PID/task/TID/status, numa_maps) for
 * run.json. Set by vm.cpus_from, vm.host_node, vm.numa_nodes and
 * vm.memory_backend (lrubench-vm(7)).
 */
#ifndef LRUBENCH_VM_PLACEMENT_H
#define LRUBENCH_VM_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <json-c/json.h>
#include "core/util.h"
#include "vm/args.h"

struct vm_placement {
	bool bound;                      /* memory bound to host nodes */
	bool pinned;                     /* vCPUs pinned to host CPUs */
	enum vm_cpus_from cpus_from;
	enum vm_backend backend;
	uint64_t mem_bytes;              /* the whole guest */
	unsigned nnodes;                 /* guest nodes, >= 1 */
	int host_node[VM_MAX_NODES];     /* per guest node; -1: not bound */
	unsigned ncpus;
	int vcpu_cpu[VM_MAX_CPUS];       /* host CPU per vCPU; -1: floats */
	char note[256];                  /* how the guest nodes were fitted on the host, or "" */
};

/* The vCPUs of guest node g of n (qemu -numa cpus=first-last), as the
 * guest sees them: contiguous, evenly split. */
void vm_node_cpus(unsigned cpus, unsigned nnodes, unsigned g, unsigned *first, unsigned *last);

/* Resolve a's placement keys against the host below root ("" for the real
 * one; a fake sysfs tree in unit tests). 0, or an LB_EXIT_* code with err:
 * 2 for a request that cannot fit any host (more vCPUs than CPUs listed), 3
 * for what this host lacks (a node, a CPU, free huge pages). */
int vm_placement_resolve(const struct vm_args *a, const char *root, struct vm_placement *p,
			 struct strbuf *err);

/* Pin qemu's vCPU threads as p says. cpus is query-cpus-fast's reply (an
 * array of {"cpu-index", "thread-id"}). 0, or -1 with err. */
int vm_placement_pin(const struct vm_placement *p, json_object *cpus, struct strbuf *err);

/* What is applied now, read from /proc/<pid>: {"vcpus": [{"vcpu", "thread",
 * "cpus_allowed"}], "memory": [{"policy", "page_kb", "pages": {"N": count}}]}
 * (memory: each mapping of qemu whose size is one guest node's RAM). */
json_object *vm_placement_readback(const struct vm_placement *p, pid_t pid, json_object *cpus);
/* The memory part alone, again (pages are placed as the guest touches them). */
json_object *vm_placement_read_memory(const struct vm_placement *p, pid_t pid);

/* Pure parts, for unit tests. */
/* Mappings of exactly `size` bytes in maps text, and their numa_maps lines:
 * an array of {"policy", "page_kb", "pages": {"0": n, ...}}. */
json_object *vm_numa_maps_parse(const char *maps, const char *numa_maps, uint64_t size);
/* The value of "Cpus_allowed_list:" in a /proc status text, into out. */
void vm_status_cpus_allowed(const char *status, char *out, size_t len);
/* One line for run.json and compare: "vCPU 0->CPU 0, 1->CPU 1; memory bind:0 on node 0"
 * from a readback object (or "none" parts when it lacks them). */
void vm_placement_summary(json_object *readback, struct strbuf *out);
/* The plan in words, for --dry-run and the log: "vCPUs pinned to host CPUs 0,1;
 * guest node 0 on host node 0 (memory-backend-ram, policy=bind)" */
void vm_placement_describe(const struct vm_placement *p, struct strbuf *out);

#endif
