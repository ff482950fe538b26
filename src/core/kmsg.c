// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log from a position on; see kmsg.h. */
#include "core/kmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a record is at most ~8 KiB (PRINTKRB_RECORD_MAX, dictionary included);
 * a smaller buffer makes read(2) fail with EINVAL */
#define KMSG_BUF 16384

int kmsg_parse(char *buf, size_t len, struct kmsg_record *rec)
{
	char *semi = memchr(buf, ';', len), *end, *p = buf;
	unsigned long long f[3];

	memset(rec, 0, sizeof(*rec));
	if (!semi)
		return -1;
	for (int i = 0; i < 3; i++) {
		errno = 0;
		f[i] = strtoull(p, &end, 10);
		if (end == p || errno || (*end != ',' && *end != ';'))
			return -1;
		p = end + 1;
		if (*end == ';' && i < 2)
			return -1;
	}
	rec->facility = (int)(f[0] >> 3);
	rec->level = (int)(f[0] & 7);
	rec->seq = f[1];
	rec->usec = f[2];
	rec->text = semi + 1;
	/* the text ends at the first newline; dictionary lines (" KEY=v") follow */
	end = memchr(semi + 1, '\n', len - (size_t)(semi + 1 - buf));
	if (end)
		*end = '\0';
	else
		buf[len] = '\0';
	rec->len = strlen(rec->text);
	return 0;
}

int kmsg_open(struct kmsg_reader *r, const char *path, struct strbuf *why)
{
	memset(r, 0, sizeof(*r));
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		strbuf_addf(why, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	/* from now on only: SEEK_END moves past every record logged so far */
	if (lseek(r->fd, 0, SEEK_END) < 0) {
		strbuf_addf(why, "cannot seek in %s: %s", path, strerror(errno));
		close(r->fd);
		r->fd = -1;
		return -1;
	}
	r->buf = xmalloc(KMSG_BUF + 1);
	return 0;
}

void kmsg_drain(struct kmsg_reader *r, void (*fn)(void *arg, const struct kmsg_record *rec), void *arg)
{
	if (r->fd < 0)
		return;
	for (;;) {
		struct kmsg_record rec;
		ssize_t n = read(r->fd, r->buf, KMSG_BUF);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			/* the ring buffer overwrote records before we read them;
			 * the next read goes on from the oldest one left */
			r->lost++;
			continue;
		}
		if (n <= 0)
			return;   /* EAGAIN: nothing more for now; 0: a plain file's end */
		if (!kmsg_parse(r->buf, (size_t)n, &rec))
			fn(arg, &rec);
	}
}

void kmsg_close(struct kmsg_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
}
