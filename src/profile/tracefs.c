// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding and mounting tracefs (tracefs.h). */
#include "profile/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"

char *tracefs_find(const char *mounts)
{
	const char *knob = getenv("LRUBENCH_TRACEFS");
	char *text, *save = NULL, *found = NULL, *debugfs = NULL;

	if (knob && *knob)
		return xstrdup(knob);
	text = read_file_str(mounts, NULL);
	if (!text)
		return NULL;
	for (char *line = strtok_r(text, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *sp = NULL;
		int n = 0;

		for (char *t = strtok_r(line, " ", &sp); t && n < 3; t = strtok_r(NULL, " ", &sp))
			f[n++] = t;
		if (n < 3)
			continue;
		if (!strcmp(f[2], "tracefs"))
			found = xstrdup(f[1]);
		else if (!strcmp(f[2], "debugfs") && !debugfs)
			debugfs = xasprintf("%s/tracing", f[1]);
	}
	free(text);
	if (!found && debugfs) {
		/* old kernels: tracefs appears inside debugfs */
		char *ev = xasprintf("%s/events", debugfs);
		if (is_dir(ev))
			found = debugfs, debugfs = NULL;
		free(ev);
	}
	free(debugfs);
	return found;
}

bool tracefs_has_event(const char *root, const char *system, const char *event)
{
	char *p = xasprintf("%s/events/%s/%s/id", root, system, event);
	bool ok = access(p, R_OK) == 0;

	free(p);
	return ok;
}

/* registry undo: async-signal-safe */
static void unmount_tracefs(void *arg)
{
	if (umount2(arg, MNT_DETACH) && errno != EINVAL && errno != ENOENT)
		cleanup_msg("cannot unmount ", arg);
}

int tracefs_mount(const char *dir, int *cleanup_id, struct strbuf *why)
{
	*cleanup_id = 0;
	if (mount("tracefs", dir, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		strbuf_addf(why, "cannot mount tracefs on %s: %s", dir, strerror(errno));
		return -1;
	}
	*cleanup_id = cleanup_push("tracefs mount", unmount_tracefs, (void *)dir);
	if (*cleanup_id < 0) {
		umount2(dir, MNT_DETACH);
		*cleanup_id = 0;
		strbuf_addstr(why, "the cleanup registry is full");
		return -1;
	}
	return 0;
}

struct probe_arg {
	int fd;                 /* the pipe the child writes its reason to */
	const char *system, *event;
};

static void say(int fd, const char *a, const char *b, int err)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%s%s%s%s", a, b, err ? ": " : "", err ? strerror(err) : "");

	if (n > 0 && write(fd, buf, (size_t)n) < 0)
		return;
}

/* In the child: a mount namespace of its own, then mount and look. */
static int probe_child(void *argp)
{
	struct probe_arg *a = argp;
	char id[512];

	if (unshare(CLONE_NEWNS)) {
		say(a->fd, "cannot create a mount namespace to try it", "", errno);
		return 1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL)) {
		say(a->fd, "cannot make a private mount namespace to try it", "", errno);
		return 1;
	}
	if (mount("tracefs", TRACEFS_DEFAULT, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		say(a->fd, "cannot mount tracefs on " TRACEFS_DEFAULT, "", errno);
		return 1;
	}
	snprintf(id, sizeof(id), TRACEFS_DEFAULT "/events/%s/%s/id", a->system, a->event);
	if (access(id, R_OK)) {
		say(a->fd, "no tracepoint: cannot read ", id, errno);
		return 2;
	}
	return 0;
}

int tracefs_probe_mount(const char *system, const char *event, struct strbuf *why)
{
	int p[2], code = -1;
	struct probe_arg a = { -1, system, event };
	struct child c;
	char buf[512];
	ssize_t n;

	if (pipe2(p, O_CLOEXEC)) {
		strbuf_addf(why, "cannot try to mount tracefs: pipe: %s", strerror(errno));
		return 1;
	}
	a.fd = p[1];
	memset(&c, 0, sizeof(c));
	c.fn = probe_child;
	c.fn_arg = &a;
	c.name = "tracefs probe";
	if (child_start(&c)) {
		close(p[0]);
		close(p[1]);
		strbuf_addstr(why, "cannot start the tracefs probe");
		return 1;
	}
	close(p[1]);
	if (child_wait(&c, 10.0, &code, NULL)) {
		child_stop(&c, 0.5);
		code = -1;
	}
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	if (code == 0)
		return 0;
	strbuf_addstr(why, buf[0] ? buf : "the tracefs probe failed");
	return code == 2 ? 2 : 1;
}
