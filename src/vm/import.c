// SPDX-License-Identifier: GPL-2.0-or-later
/* A guest's results brought home by descriptor (see import.h). */
#include "vm/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "core/escape.h"

#define LEFT_NAMES 10

/* what qemu's mapped security models keep beside a file (mapped-file) */
#define VIRTFS_META_DIR ".virtfs_metadata"
#define VIRTFS_META_ROOT ".virtfs_metadata_root"

static void left_behind(struct vm_import *im, const char *rel, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	im->nleft++;
	if (im->left.n >= LEFT_NAMES)
		return;
	strbuf_add_inert(&sb, rel);
	strbuf_addf(&sb, " (%s)", why);
	strlist_push(&im->left, sb.buf);
	strbuf_release(&sb);
}

/* What the guest made this as, by the mapped-xattr model's record (a
 * little-endian 32-bit mode); 0 when there is no record (the host's type
 * then stands). */
static unsigned guest_mode(int fd)
{
	unsigned char m[4];

	if (fgetxattr(fd, "user.virtfs.mode", m, sizeof(m)) != (ssize_t)sizeof(m))
		return 0;
	return (unsigned)m[0] | (unsigned)m[1] << 8 | (unsigned)m[2] << 16 | (unsigned)m[3] << 24;
}

static const char *kind_of(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISCHR(m) ? "a character device"
	     : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO"
	     : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int vm_copy_fd_at(int sfd, uint64_t max, int dstfd, const char *name, mode_t mode, uint64_t *done,
		  struct strbuf *err)
{
	static unsigned seq;
	char tmp[64], buf[65536];
	struct stat st;
	int dfd, ret = -1;

	*done = 0;
	snprintf(tmp, sizeof(tmp), ".lrubench-import-%d-%u", (int)getpid(), seq++);
	dfd = openat(dstfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (dfd < 0) {
		strbuf_addf(err, "cannot create a file for %s: %s", name, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t r = read(sfd, buf, sizeof(buf)), w = 0;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			strbuf_addf(err, "cannot read %s: %s", name, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		/* a file that grows while it is read is held to the limit too */
		*done += (uint64_t)r;
		if (*done > max) {
			strbuf_addf(err, "%s grew past its limit while it was copied", name);
			goto out;
		}
		while (w < r) {
			ssize_t n = write(dfd, buf + w, (size_t)(r - w));

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				strbuf_addf(err, "cannot write %s: %s", name, strerror(errno));
				goto out;
			}
			w += n;
		}
	}
	if (fchmod(dfd, mode) || fsync(dfd)) {
		strbuf_addf(err, "cannot write %s: %s", name, strerror(errno));
		goto out;
	}
	if (!fstatat(dstfd, name, &st, AT_SYMLINK_NOFOLLOW) && !S_ISREG(st.st_mode)) {
		ret = 1;   /* never replace what is not a regular file */
		goto out;
	}
	if (renameat(dstfd, tmp, dstfd, name)) {
		strbuf_addf(err, "cannot write %s: %s", name, strerror(errno));
		goto out;
	}
	tmp[0] = '\0';
	ret = 0;
out:
	close(dfd);
	if (tmp[0])
		unlinkat(dstfd, tmp, 0);
	return ret;
}

static int copy_file(int sfd, uint64_t size, int dstfd, const char *name, const char *rel,
		     struct vm_import *im, struct strbuf *err)
{
	uint64_t max = size < VM_IMPORT_TOTAL_MAX - im->bytes ? size : VM_IMPORT_TOTAL_MAX - im->bytes, done;
	int r = vm_copy_fd_at(sfd, max, dstfd, name, 0644, &done, err);

	if (r < 0) {
		strbuf_addf(err, " (%s)", rel);
		return -1;
	}
	if (r > 0) {
		left_behind(im, rel, "the destination is not a regular file");
		return 0;
	}
	im->files++;
	im->bytes += done;
	return 0;
}

/* A folder to enter below dstfd: made 0755 when missing, entered only
 * when it is a real folder (O_NOFOLLOW | O_DIRECTORY); -1 when not. */
static int enter_dir(int dstfd, const char *name)
{
	if (mkdirat(dstfd, name, 0755) && errno != EEXIST)
		return -1;
	return openat(dstfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int copy_tree(int srcfd, int dstfd, const char *rel, int depth, struct vm_import *im,
		     struct strbuf *err)
{
	int dfd = dup(srcfd), ret = 0;
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		strbuf_addf(err, "cannot read %s: %s", rel, strerror(errno));
		return -1;
	}
	while (!ret && (errno = 0, de = readdir(d))) {
		const char *n = de->d_name;
		char *r;
		struct stat st;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		r = *rel ? xasprintf("%s/%s", rel, n) : xstrdup(n);
		if (++im->entries > VM_IMPORT_ENTRIES_MAX) {
			strbuf_addf(err, "more than %d entries", VM_IMPORT_ENTRIES_MAX);
			ret = -1;
		} else if (!strcmp(n, VIRTFS_META_DIR) || !strcmp(n, VIRTFS_META_ROOT)) {
			/* qemu's own bookkeeping (mapped-file), not the guest's */
		} else if (fstatat(srcfd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			strbuf_addf(err, "cannot read %s: %s", r, strerror(errno));
			ret = -1;
		} else if (S_ISDIR(st.st_mode)) {
			int s = openat(srcfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), t;
			unsigned gm = s >= 0 ? guest_mode(s) : 0;

			if (s < 0) {
				strbuf_addf(err, "cannot read %s: %s", r, strerror(errno));
				ret = -1;
			} else if (gm && !S_ISDIR(gm)) {
				left_behind(im, r, kind_of(gm));
			} else if (depth + 1 > VM_IMPORT_DEPTH) {
				strbuf_addf(err, "%s is more than %d levels deep", r, VM_IMPORT_DEPTH);
				ret = -1;
			} else if ((t = enter_dir(dstfd, n)) < 0) {
				left_behind(im, r, "the destination is not a folder");
			} else {
				im->dirs++;
				ret = copy_tree(s, t, r, depth + 1, im, err);
				close(t);
			}
			if (s >= 0)
				close(s);
		} else if (!S_ISREG(st.st_mode)) {
			left_behind(im, r, kind_of(st.st_mode));
		} else {
			int s = open_regular_file_at(srcfd, n, READ_NOFOLLOW, NULL);
			unsigned gm = s >= 0 ? guest_mode(s) : 0;
			struct stat fs;

			if (s < 0 || fstat(s, &fs)) {
				strbuf_addf(err, "cannot read %s: %s", r, strerror(errno));
				ret = -1;
			} else if (gm && !S_ISREG(gm)) {
				left_behind(im, r, kind_of(gm));
			} else if ((uint64_t)fs.st_size > VM_IMPORT_FILE_MAX) {
				left_behind(im, r, "larger than 1 GiB");
			} else if (im->bytes + (uint64_t)fs.st_size > VM_IMPORT_TOTAL_MAX) {
				strbuf_addf(err, "the results pass %llu GiB in all at %s",
					    (unsigned long long)(VM_IMPORT_TOTAL_MAX >> 30), r);
				ret = -1;
			} else {
				ret = copy_file(s, (uint64_t)fs.st_size, dstfd, n, r, im, err);
			}
			if (s >= 0)
				close(s);
		}
		free(r);
	}
	if (!ret && errno) {
		strbuf_addf(err, "cannot read %s: %s", *rel ? rel : ".", strerror(errno));
		ret = -1;
	}
	closedir(d);
	return ret;
}

int vm_import_label(const char *from_root, const char *label, const char *to_root,
		    struct vm_import *im, struct strbuf *err)
{
	int from = open(from_root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), to = -1;
	int src = -1, dst = -1, ret = -1, dfd;
	DIR *d;
	struct dirent *de;

	if (from < 0) {
		strbuf_addf(err, "cannot read %s: %s", from_root, strerror(errno));
		return -1;
	}
	/* what else the guest left at the top stays behind */
	dfd = dup(from);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d && dfd >= 0)
		close(dfd);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, label) &&
		    strcmp(de->d_name, VIRTFS_META_DIR) && strcmp(de->d_name, VIRTFS_META_ROOT))
			left_behind(im, de->d_name, "not this kernel's label");
	if (d)
		closedir(d);
	src = openat(from, label, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (src < 0) {
		if (errno == ENOENT) {
			ret = 0;   /* the guest wrote nothing */
		} else {
			left_behind(im, label, "not a folder");
			ret = 0;
		}
		goto out;
	}
	{
		unsigned gm = guest_mode(src);

		if (gm && !S_ISDIR(gm)) {
			left_behind(im, label, kind_of(gm));
			ret = 0;
			goto out;
		}
	}
	to = open(to_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (to < 0 || (dst = enter_dir(to, label)) < 0) {
		strbuf_addf(err, "cannot write %s/%s: %s", to_root, label,
			    errno == ELOOP || errno == ENOTDIR ? "it is not a folder" : strerror(errno));
		goto out;
	}
	ret = copy_tree(src, dst, label, 1, im, err);
out:
	if (dst >= 0)
		close(dst);
	if (to >= 0)
		close(to);
	if (src >= 0)
		close(src);
	close(from);
	return ret;
}

void vm_import_describe_left(const struct vm_import *im, struct strbuf *out)
{
	strbuf_addf(out, "%zu entr%s left behind: ", im->nleft, im->nleft == 1 ? "y" : "ies");
	for (size_t i = 0; i < im->left.n; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", im->left.v[i]);
	if (im->nleft > im->left.n)
		strbuf_addstr(out, ", ...");
}

void vm_import_release(struct vm_import *im)
{
	strlist_release(&im->left);
	memset(im, 0, sizeof(*im));
}
