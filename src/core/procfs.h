/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What /proc says about a process: its stat line, its memory, its kernel
 * stack; and reading a /proc or sysfs file again and again from a kept-open
 * descriptor (the monitors, src/monitor/). */
#ifndef LRUBENCH_PROCFS_H
#define LRUBENCH_PROCFS_H

#include <stddef.h>
#include <sys/types.h>
#include "core/util.h"

struct proc_stat {
	char comm[64];                 /* without the parentheses */
	char state;                    /* R S D T t Z X I ... */
	pid_t ppid, pgrp;
	unsigned long long ticks;      /* utime + stime */
	unsigned long long child_ticks;/* cutime + cstime: of its reaped children */
};

/* Parse /proc/PID/stat text: comm may hold anything, ')' included, so it
 * ends at the last ')'. 0, or -1 when malformed. */
int proc_stat_parse(const char *text, struct proc_stat *st);
/* Read and parse /proc/PID/stat under prefix ("" for the real /proc). */
int proc_stat_read(const char *prefix, pid_t pid, struct proc_stat *st);
/* A "Field:   N kB" line of /proc/PID/status text (VmRSS, VmHWM): 0 and
 * *kb, or -1 when the field is absent or malformed. */
int proc_status_kb(const char *text, const char *field, unsigned long long *kb);
/* The resident set of pid now and at its peak (/proc/PID/status VmRSS,
 * VmHWM) in KiB: 0, or -1 when it cannot be read (pid gone). */
int proc_memory_read(pid_t pid, unsigned long long *rss_kb, unsigned long long *hwm_kb);
/* "running", "sleeping", "uninterruptible (D)", "stopped (T)", ... */
const char *proc_state_name(char state);
/* The kernel stack of pid (/proc/PID/stack, root only) as "f1 < f2 < f3",
 * offsets dropped, at most max frames, appended to out; 0, or -1 when it
 * cannot be read. */
int proc_kernel_stack(pid_t pid, size_t max, struct strbuf *out);

/* The whole of a kept-open /proc, sysfs or cgroupfs file read again with
 * pread from offset 0 into sb (reset first; grown as needed, at most 4 MiB):
 * one system call for a small file, no open or close. 0, or -1 (errno) when
 * it cannot be read (a removed cgroup's file: ENODEV). */
int proc_pread_text(int fd, struct strbuf *sb);

#endif
