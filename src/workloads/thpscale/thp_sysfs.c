// SPDX-License-Identifier: GPL-2.0-or-later
/* THP sysfs knobs: read, probe, set for the run and restore on every exit. */
#include "workloads/thpscale/thp_sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cleanup.h"

static const char *const knob_names[] = { "enabled", "defrag" };


static const char *sysfs_root(void)
{
	const char *r = getenv("LRUBENCH_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

void thp_knob_path(enum thp_knob k, char *buf, size_t len)
{
	snprintf(buf, len, "%s/kernel/mm/transparent_hugepage/%s", sysfs_root(), knob_names[k]);
}

static int read_knob_text(enum thp_knob k, char **text, char *path, size_t plen)
{
	thp_knob_path(k, path, plen);
	*text = read_file_str(path, NULL);
	if (!*text)
		return error("cannot read %s: %s", path, strerror(errno));
	return 0;
}

int thp_knob_read(enum thp_knob k, char *mode, size_t len)
{
	char path[PATH_MAX], *text, *lb, *rb;
	const char *s;
	size_t n;

	if (read_knob_text(k, &text, path, sizeof(path)))
		return -1;
	lb = strchr(text, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (lb && rb) {
		s = lb + 1;
		n = (size_t)(rb - s);
	} else {
		s = text + strspn(text, " \t\n");
		n = strcspn(s, " \t\n");
	}
	if (!n || n >= len) {
		free(text);
		return error("cannot parse %s: no selected mode", path);
	}
	memcpy(mode, s, n);
	mode[n] = '\0';
	free(text);
	return 0;
}

int thp_knob_offers(enum thp_knob k, const char *mode)
{
	char path[PATH_MAX], *text, *tok, *save = NULL;
	int found = 0;

	if (read_knob_text(k, &text, path, sizeof(path)))
		return -1;
	for (tok = strtok_r(text, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		size_t n = strlen(tok);
		if (tok[0] == '[' && n > 1 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, mode))
			found = 1;
	}
	free(text);
	return found;
}

int thp_probe(struct strbuf *why)
{
	char path[PATH_MAX];

	thp_knob_path(THP_ENABLED, path, sizeof(path));
	if (access(path, R_OK)) {
		strbuf_addf(why, "transparent huge pages are not available: cannot read %s (%s); "
			    "the kernel needs CONFIG_TRANSPARENT_HUGEPAGE", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* open/write/close only, so the undo below can use it from a signal
 * handler. O_TRUNC is what a shell's `echo never >` does: sysfs ignores it,
 * and the fake tree of the unit tests gets a clean value. -errno or 0. */
static int write_knob(const char *path, const char *val)
{
	size_t len = strlen(val);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t w;
	int e = 0;

	if (fd < 0)
		return -errno;
	w = write(fd, val, len);
	if (w < 0)
		e = -errno;
	else if ((size_t)w != len)
		e = -EIO;
	if (close(fd) && !e)
		e = -errno;
	return e;
}

/* The undo: async-signal-safe (the caller's buffers, open/write/close). */
static void restore_knob(void *arg)
{
	struct thp_saved_knob *s = arg;

	if (write_knob(s->path, s->old))
		cleanup_msg("cannot restore ", s->what);
}

int thp_knob_set(struct thp_saved_knob *s, enum thp_knob k, const char *mode)
{
	char cur[64];
	int e;

	if (s->id > 0)
		thp_knob_restore(s);
	if (thp_knob_read(k, cur, sizeof(cur)))
		return -1;
	if (!strcmp(cur, mode))
		return 0;
	thp_knob_path(k, s->path, sizeof(s->path));
	snprintf(s->old, sizeof(s->old), "%s", cur);
	snprintf(s->what, sizeof(s->what), "THP %s (restore '%s')", knob_names[k], cur);
	/* registered before the write: a signal in between restores a value
	 * that is still current, which is harmless */
	s->id = cleanup_push(s->what, restore_knob, s);
	if (s->id < 0) {
		s->id = 0;
		return -1;
	}
	e = write_knob(s->path, mode);
	if (e) {
		cleanup_pop(s->id, false);
		s->id = 0;
		return error("cannot write '%s' to %s: %s", mode, s->path, strerror(-e));
	}
	return 0;
}

void thp_knob_restore(struct thp_saved_knob *s)
{
	if (s->id > 0) {
		int id = s->id;
		s->id = 0;
		cleanup_pop(id, true);
	}
}
