// SPDX-License-Identifier: GPL-2.0-or-later
/* What a guest sees of the host: system folders and a staging folder (see exports.h). */
#include "vm/exports.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vm/import.h"

/* The top-level folders of programs and libraries: exported when they are
 * folders, made as the same links when they are links (merged /usr). */
static const char *const system_tops[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };

/* What of /etc the guest gets: no secrets (shadow, keys, tokens, ssh, ssl
 * private keys stay), only what the suite's programs read. Folders: their
 * files and links, one level. */
static const char *const etc_keep[] = {
	"passwd", "group", "hosts", "nsswitch.conf", "host.conf", "ld.so.cache", "ld.so.conf",
	"ld.so.conf.d", "alternatives", "localtime", "timezone", "mke2fs.conf", "services",
	"protocols", "os-release", "debian_version", "mtab", "perfconfig", "shells",
};
#define ETC_FILE_MAX ((uint64_t)4 << 20)
#define INPUT_FILE_MAX ((uint64_t)16 << 30)

static bool under(const char *p, const char *dir)
{
	size_t l = strlen(dir);

	return !strncmp(p, dir, l) && (p[l] == '/' || !p[l]);
}

void vm_exports_plan(struct vm_exports *x)
{
	for (size_t i = 0; i < ARRAY_SIZE(system_tops); i++) {
		struct stat st;
		char target[PATH_MAX];
		ssize_t n;

		if (lstat(system_tops[i], &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			strlist_push(&x->sys, system_tops[i]);
		} else if (S_ISLNK(st.st_mode) &&
			   (n = readlink(system_tops[i], target, sizeof(target) - 1)) > 0) {
			target[n] = '\0';
			strlist_push(&x->links, system_tops[i]);
			strlist_push(&x->links, target);
		}
	}
}

bool vm_exports_visible(const struct vm_exports *x, const char *p)
{
	for (size_t i = 0; i < x->sys.n; i++)
		if (under(p, x->sys.v[i]))
			return true;
	/* /bin/x through the link /bin -> usr/bin, when /usr is exported */
	for (size_t i = 0; i + 1 < x->links.n; i += 2)
		if (under(p, x->links.v[i])) {
			const char *t = x->links.v[i + 1];
			char *real = *t == '/' ? xstrdup(t) : xasprintf("/%s", t);
			bool v = false;

			for (size_t j = 0; j < x->sys.n && !v; j++)
				v = under(real, x->sys.v[j]);
			free(real);
			return v;
		}
	return false;
}

void vm_exports_add_input(struct vm_exports *x, const char *guest_path)
{
	if (*guest_path != '/' || vm_exports_visible(x, guest_path) || strlist_has(&x->inputs, guest_path))
		return;
	strlist_push(&x->inputs, guest_path);
}

/* One entry of /etc (or of a kept folder in it): regular files copied,
 * links made again (the guest resolves them in its own root), folders one
 * level deep when top. */
static int stage_etc_entry(int from, int to, const char *name, bool top, struct strbuf *err)
{
	struct stat st;
	uint64_t done;

	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : (strbuf_addf(err, "/etc/%s: %s", name, strerror(errno)), -1);
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(from, name, target, sizeof(target) - 1);

		if (n <= 0)
			return 0;
		target[n] = '\0';
		return symlinkat(target, to, name) && errno != EEXIST ?
		       (strbuf_addf(err, "cannot stage /etc/%s: %s", name, strerror(errno)), -1) : 0;
	}
	if (S_ISREG(st.st_mode)) {
		int fd = open_regular_file_at(from, name, READ_NOFOLLOW, NULL), r;

		if (fd < 0)
			return 0;   /* unreadable (it changed): the guest goes without it */
		r = vm_copy_fd_at(fd, ETC_FILE_MAX, to, name, 0644, &done, err);
		close(fd);
		return r < 0 ? -1 : 0;
	}
	if (S_ISDIR(st.st_mode) && top) {
		int f = openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), t, dfd, ret = 0;
		DIR *d;
		struct dirent *de;

		if (f < 0)
			return 0;
		if ((mkdirat(to, name, 0755) && errno != EEXIST) ||
		    (t = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			strbuf_addf(err, "cannot stage /etc/%s: %s", name, strerror(errno));
			close(f);
			return -1;
		}
		dfd = dup(f);
		d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (!d && dfd >= 0)
			close(dfd);
		while (d && !ret && (de = readdir(d)))
			if (de->d_name[0] != '.')
				ret = stage_etc_entry(f, t, de->d_name, false, err);
		if (d)
			closedir(d);
		close(t);
		close(f);
		return ret;
	}
	return 0;   /* a device, a FIFO, a deeper folder: not the guest's business */
}

static int stage_input(const char *path, int infd, size_t i, struct strbuf *err)
{
	int fd = open_regular_file(path, 0, err), r;
	struct stat st;
	char name[32];
	uint64_t done;

	if (fd < 0)
		return -1;
	snprintf(name, sizeof(name), "%zu", i);
	r = fstat(fd, &st) ? -1 :
	    vm_copy_fd_at(fd, INPUT_FILE_MAX, infd, name, st.st_mode & 0111 ? 0755 : 0644, &done, err);
	if (r)
		strbuf_addf(err, " (staging %s for the guest)", path);
	close(fd);
	return r ? -1 : 0;
}

int vm_exports_stage(struct vm_exports *x, const char *dir, struct strbuf *err)
{
	int top = -1, etc = -1, in = -1, from = -1, ret = -1;

	if (mkdir(dir, 0755) || (top = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    mkdirat(top, "etc", 0755) || mkdirat(top, "in", 0755) ||
	    (etc = openat(top, "etc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    (in = openat(top, "in", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		strbuf_addf(err, "cannot make the guest's staging folder %s: %s", dir, strerror(errno));
		goto out;
	}
	x->stage = xstrdup(dir);
	from = open("/etc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (size_t i = 0; from >= 0 && i < ARRAY_SIZE(etc_keep); i++)
		if (stage_etc_entry(from, etc, etc_keep[i], true, err))
			goto out;
	for (size_t i = 0; i < x->inputs.n; i++)
		if (stage_input(x->inputs.v[i], in, i, err))
			goto out;
	ret = 0;
out:
	if (from >= 0)
		close(from);
	if (in >= 0)
		close(in);
	if (etc >= 0)
		close(etc);
	if (top >= 0)
		close(top);
	return ret;
}

void vm_exports_release(struct vm_exports *x)
{
	strlist_release(&x->sys);
	strlist_release(&x->links);
	strlist_release(&x->inputs);
	free(x->stage);
	memset(x, 0, sizeof(*x));
}
