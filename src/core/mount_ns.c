// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's private mount namespace, chroots included (mount_ns.h). */
#include "core/mount_ns.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* path as the kernel would name it: the real path of its nearest existing
 * folder, then the components that do not exist yet */
static char *canonical(const char *path)
{
	char *p = xstrdup(path), *rest = NULL, *real;

	for (;;) {
		real = realpath(p, NULL);
		if (real || !strchr(p, '/'))
			break;
		{
			char *slash = strrchr(p, '/');
			char *tail = rest;

			rest = tail ? xasprintf("%s/%s", slash + 1, tail) : xstrdup(slash + 1);
			free(tail);
			if (slash == p)
				slash[1] = '\0';
			else
				*slash = '\0';
		}
	}
	if (!real)
		real = xstrdup("/");
	if (rest) {
		char *j = xasprintf("%s%s%s", real, strcmp(real, "/") ? "/" : "", rest);

		free(real);
		real = j;
	}
	free(rest);
	free(p);
	return real;
}

char *mount_point_of(const char *mountinfo, const char *path)
{
	char *text = read_file_str(mountinfo, NULL), *save = NULL, *best = NULL;
	size_t bestlen = 0;

	if (!text)
		return NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[5], *sp = NULL;
		int n = 0;
		size_t l;

		for (char *t = strtok_r(line, " ", &sp); t && n < 5; t = strtok_r(NULL, " ", &sp))
			f[n++] = t;
		if (n < 5)
			continue;
		unescape(f[4]);
		l = strlen(f[4]);
		/* "/" holds everything; "/var" holds "/var/tmp", not "/various" */
		if (!strcmp(f[4], "/") ||
		    (!strncmp(path, f[4], l) && (path[l] == '/' || path[l] == '\0'))) {
			if (!best || l > bestlen) {
				free(best);
				best = xstrdup(f[4]);
				bestlen = l;
			}
		}
	}
	free(text);
	return best;
}

int mount_ns_check(const char *workdir, struct strbuf *err)
{
	char *wd = canonical(workdir), *mp = mount_point_of("/proc/self/mountinfo", wd);
	int ret = 0;

	if (!mp) {
		strbuf_addf(err, "/ is not a mount point here (a chroot?) and the workdir %s lies on "
			    "it, so lrubench cannot keep its mounts from reaching the rest of the "
			    "machine. Make the root a mount point before entering the chroot "
			    "(mount --bind ROOT ROOT), or mount a filesystem for global.workdir "
			    "inside it (mount -t tmpfs tmpfs %s)", wd, wd);
		ret = -1;
	}
	free(mp);
	free(wd);
	return ret;
}

int mount_ns_private(const char *workdir)
{
	char *wd, *mp;
	int ret = 0;

	if (unshare(CLONE_NEWNS))
		return error_errno("cannot create a private mount namespace");
	if (!mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL))
		return 0;
	if (errno != EINVAL)
		return error_errno("cannot make the mount namespace private");
	/* / is not a mount point: the mount our mounts go under is enough */
	wd = canonical(workdir);
	mp = mount_point_of("/proc/self/mountinfo", wd);
	if (!mp)
		ret = error("cannot make the mount namespace private: / is not a mount point and "
			    "the workdir %s lies on it", wd);
	else if (mount(NULL, mp, NULL, MS_REC | MS_SLAVE, NULL))
		ret = error_errno("cannot make the mounts under %s private", mp);
	free(mp);
	free(wd);
	return ret;
}
