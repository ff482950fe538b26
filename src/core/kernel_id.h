/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which kernel produced a number (run.json "system"."kernel",
 * docs/ARCHITECTURE.md §8): the GNU build id of the running kernel (its
 * ELF note in /sys/kernel/notes), the kernel config's sha256 and the options
 * that move memory-management performance or distort it (debug options),
 * the multi-gen LRU's enabled state and the taint flags. Two labels with
 * the same build id ran the same kernel build, whatever their names say.
 *
 * What cannot be known is said, with the reason ("unknown": "no
 * /proc/config.gz ..."), never guessed.
 */
#ifndef LRUBENCH_KERNEL_ID_H
#define LRUBENCH_KERNEL_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "core/strlist.h"
#include "core/util.h"

#define KERNEL_NOTES "/sys/kernel/notes"
#define KERNEL_TAINTED "/proc/sys/kernel/tainted"
#define LRU_GEN_ENABLED "/sys/kernel/mm/lru_gen/enabled"

struct kernel_id {
	char build_id[129];        /* lowercase hex; "" when unknown */
	char *build_id_why;        /* why it is unknown */
	json_object *config;       /* {"source", "sha256", "options"} or {"unknown": why} */
	char lru_gen[32];          /* /sys/kernel/mm/lru_gen/enabled, "" when absent */
	unsigned long long taint;  /* at collection */
	bool taint_known;
};

/*
 * The GNU build id in a buffer of ELF notes (the bytes of
 * /sys/kernel/notes, or of a .notes section): a sequence of {namesz,
 * descsz, type} (32-bit words, this machine's byte order), the name and the
 * descriptor, each padded to 4 bytes. The note of type NT_GNU_BUILD_ID (3)
 * named "GNU" gives hex (lowercase, hexlen >= 2 * descsz + 1). 0, or -1
 * when there is none or the notes are malformed (why says which).
 */
int kernel_build_id_parse(const void *notes, size_t len, char *hex, size_t hexlen,
			  const char **why);

/* The running kernel's build id (KERNEL_NOTES); 0, or -1 with *why
 * (malloc'ed) saying why it is unknown. */
int kernel_build_id_read(char *hex, size_t hexlen, char **why);

/*
 * The options of a kernel config text (CONFIG_X=v lines, "# CONFIG_X is not
 * set") that lrubench records: memcg, LRU_GEN, THP, PREEMPT*, HZ, NUMA,
 * swap, and the debug options. {"CONFIG_X": "y" | "m" | "n" | value}; an
 * option the text does not mention is "n" (not set).
 */
json_object *kconfig_options(const char *text);

/*
 * The debug options that distort performance and are on: from the recorded
 * options (kconfig_options' object, may be NULL) and the kernel command line
 * (debug_pagealloc=on, slub_debug, page_owner=on, may be NULL). Pushes
 * names like "CONFIG_LOCKDEP" or "debug_pagealloc=on (command line)".
 */
void kconfig_debug_options(json_object *options, const char *cmdline, struct strlist *out);

/* The letters of the set taint bits, in bit order ("W", "OE"); "" when 0. */
void kernel_taint_letters(unsigned long long taint, char *out, size_t len);
/* /proc/sys/kernel/tainted; 0 or -1. */
int kernel_taint_read(unsigned long long *taint);

/*
 * A kernel config file (plain or gzip, e.g. /proc/config.gz) read through
 * the helper program (net_client.h): the config object with source, sha256
 * (of the text, what `zcat FILE | sha256sum` prints) and options, or NULL
 * with why set.
 */
json_object *kconfig_read(const char *path, struct strbuf *why);

/* Everything above for the running kernel; never fails (unknowns say why). */
void kernel_id_collect(struct kernel_id *k);
void kernel_id_release(struct kernel_id *k);
/* {"build_id", "config", "lru_gen_enabled", "taint_start", "taint_start_flags"} */
json_object *kernel_id_to_json(const struct kernel_id *k);

#endif
