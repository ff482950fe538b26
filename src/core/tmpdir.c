// SPDX-License-Identifier: GPL-2.0-or-later
/* Private temporary folders (tmpdir.h). */
#include "core/tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"

const char *tmpdir_root(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t == '/' ? t : "/tmp";
}

/* cleanup registry undo: async-signal-safe (system calls, the struct's
 * own buffer) */
static void undo_tmpdir(void *arg)
{
	struct tmpdir *t = arg;

	if (t->path[0] && remove_tree_sigsafe(t->path) && errno != ENOENT)
		cleanup_msg("cannot remove the temporary folder ", t->path);
	t->path[0] = '\0';
}

/* The pid of "<prefix><pid>-...", or 0 when the name is not of that form. */
static pid_t name_pid(const char *name, const char *prefix)
{
	size_t plen = strlen(prefix);
	unsigned long long pid;
	const char *p = name + plen, *dash;
	char num[24];

	if (strncmp(name, prefix, plen) || !(dash = strchr(p, '-')) || dash == p ||
	    (size_t)(dash - p) >= sizeof(num) || !dash[1])
		return 0;
	memcpy(num, p, (size_t)(dash - p));
	num[dash - p] = '\0';
	if (parse_ull(num, &pid) || !pid || pid > INT32_MAX)
		return 0;
	return (pid_t)pid;
}

/* What lrubench processes killed by SIGKILL left in parent. */
static void sweep_stale(const char *parent, const char *prefix)
{
	DIR *d = opendir(parent);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		pid_t pid = name_pid(de->d_name, prefix);
		struct stat st;

		if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
			continue;   /* not one of ours, or alive, or not ours to judge */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		char *path = xasprintf("%s/%s", parent, de->d_name);

		remove_tree(path);
		free(path);
	}
	closedir(d);
}

static int fail(struct strbuf *err, const char *parent, const char *why)
{
	if (err)
		strbuf_addf(err, "cannot create a temporary folder in %s: %s", parent, why);
	else
		error("cannot create a temporary folder in %s: %s", parent, why);
	return -1;
}

int tmpdir_create(struct tmpdir *t, const char *parent, const char *prefix, struct strbuf *err)
{
	if (!parent)
		parent = tmpdir_root();
	t->path[0] = '\0';
	t->cleanup_id = 0;
	sweep_stale(parent, prefix);
	if ((size_t)snprintf(t->path, sizeof(t->path), "%s/%s%d-XXXXXX", parent, prefix,
			     (int)getpid()) >= sizeof(t->path)) {
		t->path[0] = '\0';
		return fail(err, parent, "the path is too long");
	}
	if (!mkdtemp(t->path)) {
		int e = errno;

		t->path[0] = '\0';
		return fail(err, parent, strerror(e));
	}
	t->cleanup_id = cleanup_push(t->path, undo_tmpdir, t);
	if (t->cleanup_id < 0) {
		remove_tree(t->path);
		t->path[0] = '\0';
		t->cleanup_id = 0;
		return fail(err, parent, "the cleanup registry is full");
	}
	return 0;
}

void tmpdir_remove(struct tmpdir *t)
{
	if (t->cleanup_id > 0)
		cleanup_pop(t->cleanup_id, true);
	t->cleanup_id = 0;
	t->path[0] = '\0';
}
