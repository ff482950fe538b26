// SPDX-License-Identifier: GPL-2.0-or-later
/* What /proc says about a process; see procfs.h. */
#include "core/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int proc_stat_parse(const char *text, struct proc_stat *st)
{
	const char *open = text ? strchr(text, '(') : NULL, *close = text ? strrchr(text, ')') : NULL;
	unsigned long long f[16];
	size_t n;

	/* "pid (comm) state ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime cutime cstime ..." */
	memset(st, 0, sizeof(*st));
	if (!open || !close || close < open)
		return -1;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';
	if (sscanf(close + 1, " %c %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &st->state, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9],
		   &f[10], &f[11], &f[12], &f[13]) != 15)
		return -1;
	st->ppid = (pid_t)f[0];
	st->pgrp = (pid_t)f[1];
	st->ticks = f[10] + f[11];
	st->child_ticks = f[12] + f[13];
	return 0;
}

int proc_stat_read(const char *prefix, pid_t pid, struct proc_stat *st)
{
	char path[256], *text;
	int r;

	snprintf(path, sizeof(path), "%s/proc/%d/stat", prefix, (int)pid);
	text = read_file_str(path, NULL);
	r = text ? proc_stat_parse(text, st) : -1;
	free(text);
	return r;
}

int proc_status_kb(const char *text, const char *field, unsigned long long *kb)
{
	size_t fl = strlen(field);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;

		if (strncmp(p, field, fl) || p[fl] != ':')
			continue;
		p += fl + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		*kb = strtoull(p, &end, 10);
		return strncmp(end, " kB", 3) ? -1 : 0;
	}
	return -1;
}

int proc_memory_read(pid_t pid, unsigned long long *rss_kb, unsigned long long *hwm_kb)
{
	char path[64], *text;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	text = read_file_str(path, NULL);
	r = text && !proc_status_kb(text, "VmRSS", rss_kb) && !proc_status_kb(text, "VmHWM", hwm_kb) ?
	    0 : -1;
	free(text);
	return r;
}

const char *proc_state_name(char state)
{
	switch (state) {
	case 'R': return "running (R)";
	case 'S': return "sleeping (S)";
	case 'D': return "uninterruptible sleep (D)";
	case 'T': return "stopped (T)";
	case 't': return "stopped by a tracer (t)";
	case 'Z': return "a zombie (Z)";
	case 'X': return "dead (X)";
	case 'I': return "idle (I)";
	default: return "in an unknown state";
	}
}

int proc_kernel_stack(pid_t pid, size_t max, struct strbuf *out)
{
	char path[64], *text;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	text = read_file_str(path, NULL);
	if (!text || !*text) {
		free(text);
		return -1;
	}
	/* "[<0>] do_signal_stop+0x114/0x230" per line */
	for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
		char *fn = strchr(line, ']'), *plus;

		fn = fn ? fn + 1 : line;
		while (*fn == ' ')
			fn++;
		if ((plus = strchr(fn, '+')))
			*plus = '\0';
		if (!*fn)
			continue;
		strbuf_addf(out, "%s%s", n ? " < " : "", fn);
		n++;
	}
	free(text);
	return n ? 0 : -1;
}

int proc_pread_text(int fd, struct strbuf *sb)
{
	size_t want = sb->alloc > 4096 ? sb->alloc : 4096;

	for (;;) {
		ssize_t n;

		strbuf_reset(sb);
		/* room for want bytes and the NUL */
		strbuf_add(sb, "", 0);
		if (sb->alloc < want + 1) {
			sb->buf = xrealloc(sb->buf, want + 1);
			sb->alloc = want + 1;
		}
		do
			n = pread(fd, sb->buf, want, 0);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -1;
		/* a file that filled the buffer may have more: read it again, larger
		 * (procfs files are made whole at each read from offset 0) */
		if ((size_t)n == want && want < ((size_t)4 << 20)) {
			want *= 2;
			continue;
		}
		sb->len = (size_t)n;
		sb->buf[n] = '\0';
		return 0;
	}
}
