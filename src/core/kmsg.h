/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log through /dev/kmsg, from a position on: opened at the
 * start of a run and moved to its end (SEEK_END), so that only what the
 * kernel logs from then on is read, one record per read(2), without
 * blocking. A record is "PRIO,SEQ,USEC,FLAGS;TEXT" and dictionary lines
 * (Documentation/ABI/testing/dev-kmsg); PRIO is facility * 8 + level, and
 * facility 0 is the kernel itself (a process writing to /dev/kmsg gets
 * facility 1, user, at least).
 */
#ifndef LRUBENCH_KMSG_H
#define LRUBENCH_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include "core/util.h"

struct kmsg_record {
	int facility, level;
	unsigned long long seq, usec;
	const char *text;    /* the message (escaped by the kernel: \xNN), NUL-terminated */
	size_t len;
};

/* Parse one record as read(2) returned it (buf is modified: the text is
 * cut at its end). 0, or -1 when it is not a record. */
int kmsg_parse(char *buf, size_t len, struct kmsg_record *rec);

struct kmsg_reader {
	int fd;                       /* -1 when the log cannot be read */
	unsigned long long lost;      /* records overwritten before we read them */
	char *buf;
};

/* Open path (/dev/kmsg) at its end. 0, or
 * -1 with why set (the reader stays usable: every drain reads nothing). */
int kmsg_open(struct kmsg_reader *r, const char *path, struct strbuf *why);
/* Every record logged since the last call, oldest first, to fn. */
void kmsg_drain(struct kmsg_reader *r, void (*fn)(void *arg, const struct kmsg_record *rec), void *arg);
void kmsg_close(struct kmsg_reader *r);

#endif
