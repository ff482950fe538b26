/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state of the machine a run measured on (run.json "system"."host",
 * docs/ARCHITECTURE.md §8): what moves memory-management numbers besides
 * the kernel -- microcode, SMT, cpufreq governor and boost, swap devices,
 * the THP modes, NUMA balancing, zone_reclaim_mode, the vm.* sysctls, the
 * memory of each node -- and how busy the machine was when the run started
 * (load average, the busiest other processes). compare diffs the first
 * group between labels and warns about the second.
 */
#ifndef LRUBENCH_HOST_STATE_H
#define LRUBENCH_HOST_STATE_H

#include <stddef.h>
#include <sys/types.h>
#include <json-c/json.h>

/* The vm.* sysctls recorded (names under /proc/sys/vm). */
extern const char *const host_vm_sysctls[];

/*
 * Collect under prefix ("" for the real /proc and /sys; tests use a fake
 * tree). sample_secs > 0: watch every process for that long and record the
 * busiest others (not this process or its children); 0: skip that.
 */
json_object *host_state_collect(const char *prefix, double sample_secs);

/* Pure parsers, unit-tested. */
/* /proc/swaps -> [{"device", "type", "size_kb", "priority"}] */
json_object *host_parse_swaps(const char *text);
/* "Node 0 MemTotal:  123 kB" of a node's meminfo; 0 when absent. */
unsigned long long host_node_memtotal_kb(const char *text);

#endif
