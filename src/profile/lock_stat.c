// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/lock_stat snapshots and their difference (lock_stat.h). */
#include "profile/lock_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "core/cleanup.h"
#include <stdlib.h>
#include <string.h>
#include "core/strmap.h"
#include "profile/lru_locks.h"

#define LOCK_STAT_FIELDS 12

static void add_class(struct lock_stat_snapshot *s, const char *name, size_t len,
		      const double *f)
{
	struct lock_stat_class *c;

	ALLOC_GROW(s->c, s->n + 1, s->cap);
	c = &s->c[s->n++];
	c->name = xstrndup(name, len);
	c->contentions = (unsigned long long)f[1];
	c->wait_max_us = f[3];
	c->wait_total_us = f[4];
}

/* "  &lruvec->lru_lock:   1 2 0.09 ..." -> 1 with the name and the 12 fields */
static int class_line(const char *line, const char **name, size_t *nlen, double *f)
{
	const char *colon = NULL;

	/* the class name ends at the last ':' that is followed by the numbers */
	for (const char *p = line; (p = strchr(p, ':')); p++) {
		char *e;
		const char *q = p + 1;
		int k;

		for (k = 0; k < LOCK_STAT_FIELDS; k++) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (!(*q >= '0' && *q <= '9'))
				break;
			errno = 0;
			f[k] = strtod(q, &e);
			if (errno || e == q)
				break;
			q = e;
		}
		while (*q == ' ' || *q == '\t' || *q == '\r')
			q++;
		if (k == LOCK_STAT_FIELDS && (*q == '\0' || *q == '\n'))
			colon = p;
	}
	if (!colon)
		return 0;
	while (*line == ' ' || *line == '\t')
		line++;
	*name = line;
	*nlen = (size_t)(colon - line);
	return *nlen > 0;
}

int lock_stat_parse(const char *text, struct lock_stat_snapshot *out, struct strbuf *err)
{
	const char *line = text;
	size_t lineno = 0;
	bool version = false;

	memset(out, 0, sizeof(*out));
	while (*line) {
		const char *nl = strchr(line, '\n');
		char *l = nl ? xstrndup(line, (size_t)(nl - line)) : xstrdup(line);
		const char *s = l, *name;
		size_t nlen;
		double f[LOCK_STAT_FIELDS];

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "lock_stat version ", 18)) {
			if (strncmp(s + 18, "0.", 2)) {
				strbuf_addf(err, "lock_stat line %zu: version '%s' is not one lrubench reads "
					    "(it reads 0.x)", lineno, s + 18);
				free(l);
				goto fail;
			}
			version = true;
		} else if (class_line(l, &name, &nlen, f)) {
			add_class(out, name, nlen, f);
		}
		/* everything else: rulers, the header, contention points */
		free(l);
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!version) {
		strbuf_addstr(err, "lock_stat: no 'lock_stat version' line (not a /proc/lock_stat file?)");
		goto fail;
	}
	return 0;
fail:
	lock_stat_release(out);
	return -1;
}

void lock_stat_diff(const struct lock_stat_snapshot *before, const struct lock_stat_snapshot *after,
		    struct lock_report *out)
{
	struct strmap idx = STRMAP_INIT;

	memset(out, 0, sizeof(*out));
	out->source = "lock_stat";
	out->bad = out->total = -1;
	for (size_t i = 0; i < before->n; i++)
		strmap_put(&idx, before->c[i].name, i);
	for (size_t i = 0; i < after->n; i++) {
		const struct lock_stat_class *a = &after->c[i];
		unsigned long long con = a->contentions;
		double wait = a->wait_total_us;
		size_t j;

		if (strmap_get(&idx, a->name, &j)) {
			const struct lock_stat_class *b = &before->c[j];
			/* counters only grow, unless someone cleared them in between */
			con = a->contentions >= b->contentions ? a->contentions - b->contentions : a->contentions;
			wait = a->wait_total_us >= b->wait_total_us ? a->wait_total_us - b->wait_total_us
								    : a->wait_total_us;
		}
		if (!con)
			continue;
		lock_report_add(out, a->name, a->name, "class", con, wait * 1e3, a->wait_max_us * 1e3,
				lru_is_lru_class(a->name));
	}
	strmap_release(&idx);
}

void lock_stat_release(struct lock_stat_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->c[i].name);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

#define LOCK_STAT_SYSCTL "/proc/sys/kernel/lock_stat"

/* registry undo, async-signal-safe: lock_stat back to 0 */
static void lock_stat_off(void *arg)
{
	int fd = open(LOCK_STAT_SYSCTL, O_WRONLY | O_CLOEXEC);

	(void)arg;
	if (fd < 0 || write(fd, "0", 1) != 1)
		cleanup_msg("cannot restore ", LOCK_STAT_SYSCTL);
	if (fd >= 0)
		close(fd);
}

int lock_stat_enable(int *cleanup_id, struct strbuf *why)
{
	char *v = read_file_str(LOCK_STAT_SYSCTL, NULL);
	bool off = v && v[0] == '0';

	*cleanup_id = 0;
	free(v);
	if (!off)
		return 0;   /* on already (or no such knob: the counters run always) */
	*cleanup_id = cleanup_push("kernel.lock_stat", lock_stat_off, NULL);
	if (*cleanup_id < 0 || write_str_file(LOCK_STAT_SYSCTL, "1")) {
		if (*cleanup_id > 0)
			cleanup_pop(*cleanup_id, false);
		*cleanup_id = 0;
		strbuf_addf(why, "cannot set %s to 1", LOCK_STAT_SYSCTL);
		return -1;
	}
	return 0;
}

int lock_stat_read(const char *path, struct lock_stat_snapshot *out, struct strbuf *err)
{
	size_t len;
	char *text = read_file_str(path, &len);
	int r;

	memset(out, 0, sizeof(*out));
	if (!text) {
		strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	r = lock_stat_parse(text, out, err);
	free(text);
	return r;
}
