/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system facts that produced a number (run.json "system", docs/ARCHITECTURE.md §8). */
#ifndef LRUBENCH_SYSINFO_H
#define LRUBENCH_SYSINFO_H

#include <stdint.h>
#include <json-c/json.h>
#include "core/kernel_id.h"

/* Not "struct sysinfo": glibc's <sys/sysinfo.h> declares one (and sysinfo(2)). */
struct sys_facts {
	char kernel_release[128];  /* uname -r */
	char kernel_version[256];  /* uname -v */
	char machine[32];
	char hostname[128];
	char *cmdline;             /* /proc/cmdline */
	char cpu_model[128];
	int nr_cpus;               /* online */
	uint64_t mem_total_kb;
	int numa_nodes;            /* nodes with memory */
	char thp_enabled[32];      /* the bracketed value, "" when THP is absent */
	char thp_defrag[32];
	char cgroup_mode[8];       /* "v1", "v2", "none" */
	char virt[16];             /* "none", "kvm", "tcg" (set by VM mode) */
	/* filled by sysinfo_collect_identity() only (a run, not list or check) */
	bool identity;
	struct kernel_id kernel;   /* "kernel": build id, config, taint (kernel_id.h) */
	json_object *host;         /* "host": host_state.h */
};

int sysinfo_collect(struct sys_facts *si);
/* What a run records beyond that: the kernel's identity and the host's
 * state, watching the other processes for busy_secs (host_state.h). */
void sysinfo_collect_identity(struct sys_facts *si, double busy_secs);
void sysinfo_release(struct sys_facts *si);
json_object *sysinfo_to_json(const struct sys_facts *si);
/* The bracketed choice of a sysfs "a [b] c" file, "" if none. */
void sysfs_selected(const char *text, char *out, size_t len);

#endif
