/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file_size = auto: vm-scalability's sizing of its file cases (hw_vars in
 * teawater/vm-scalability), so a reproduction's files are as large, relative
 * to the machine, as the posted runs' were (docs/REPRODUCING.md, "The sizing
 * rule"):
 *
 *     ROTATE_BYTES = min(1 << 42, MemAvailable << 8)
 *
 * (4 TiB, or 256 x the available memory: hw_vars' PTE_LIMIT, which keeps a
 * task's page tables of a mapping of it below half of memory). A case then
 * divides ROTATE_BYTES between its files: the stock cases make nr_task files
 * of ROTATE_BYTES / nr_task; Alex Shi's container readtwice makes one file
 * of the whole ROTATE_BYTES in every container (divisor 1). The files are
 * sparse, so their size costs no disk and no memory.
 *
 * What was sized, by which rule, from which numbers, is kept in struct
 * file_sizing and written into the results (file_sizing_json).
 */
#ifndef LRUBENCH_FILE_SIZING_H
#define LRUBENCH_FILE_SIZING_H

#include <stdint.h>
#include <json-c/json.h>

#define ROTATE_BYTES_MAX (1ULL << 42)

struct file_sizing {
	const char *rule;          /* "vm-scalability ROTATE_BYTES / 80 tasks" (static text) */
	uint64_t mem_available;    /* the input: MemAvailable in bytes */
	uint64_t rotate_bytes;     /* min(1 << 42, mem_available << 8) */
	unsigned long long divisor;  /* files ROTATE_BYTES is divided between (>= 1) */
	uint64_t file_size;        /* rotate_bytes / divisor, rounded down to 4 KiB, at least min */
	unsigned long long files;  /* how many files of file_size were made */
};

/* min(1 << 42, mem_available << 8), without overflow. */
uint64_t rotate_bytes(uint64_t mem_available);
/* Fill *out for `files` files, ROTATE_BYTES divided by `divisor` (0 counts
 * as 1); the size is at least min_size (the option's minimum). */
void file_size_auto(uint64_t mem_available, unsigned long long divisor, unsigned long long files,
		    uint64_t min_size, const char *rule, struct file_sizing *out);
/* MemAvailable of /proc/meminfo, bytes; 0 when it cannot be read. */
uint64_t mem_available_now(void);
/* {"rule", "mem_available", "rotate_bytes", "divisor", "file_size", "files",
 *  "total_bytes"} for run.json's workload facts. */
json_object *file_sizing_json(const struct file_sizing *fs);
/* One line for dry-run plans and summaries: "file_size = auto: ROTATE_BYTES
 * = min(4 TiB, 256 x 251 GiB) = 4 TiB / 1 = 4 TiB per file, 80 files". */
void file_sizing_describe(const struct file_sizing *fs, char *buf, size_t len);

struct run_env;
/* In a workload's setup: `value` as configured, or with LB_SIZE_AUTO the
 * auto size for `files` files (ROTATE_BYTES / divisor, at least min_size,
 * from MemAvailable now, as hw_vars reads it when the case starts). Records
 * which rule sized what in run.json's workload facts ("<workload>":
 * {"file_sizing": ...}) and prints the auto line unless quiet. */
uint64_t file_size_resolve(struct run_env *env, const char *workload, uint64_t value,
			   unsigned long long files, unsigned long long divisor, uint64_t min_size,
			   const char *rule);

#endif
