// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Safe tarball extraction with libarchive; the rules are in archive_extract.h.
 */
#include "net/archive_extract.h"
#include "core/net_client.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>
#include "core/cleanup.h"
#include "core/fs_sigsafe.h"
#include "core/util.h"

#define BLOCK (1024 * 1024)

/* ---- pure checks ---- */

const char *archive_check_name(const char *name)
{
	const char *p = name;

	if (!name || !*name)
		return "empty name";
	if (*name == '/')
		return "absolute path";
	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == 2 && p[0] == '.' && p[1] == '.')
			return "'..' component";
		if (!e)
			break;
		p = e + 1;
	}
	return NULL;
}

/* Number of real components of the folder part of name ("a/b/c" -> 2). */
static int folder_depth(const char *name)
{
	int depth = 0;
	const char *p = name;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (!e)
			break;   /* the last component is the link itself */
		if (l && !(l == 1 && p[0] == '.'))
			depth++;
		p = e + 1;
	}
	return depth;
}

const char *archive_check_symlink(const char *name, const char *target)
{
	int depth, floor;
	const char *p = target;

	if (!target || !*target)
		return "empty symlink target";
	if (*target == '/')
		return "symlink to an absolute path";
	depth = folder_depth(name);
	/* a link below a top-level folder must stay inside it: that folder
	 * may be stripped, so its parent is outside the extraction */
	floor = depth >= 1 ? 1 : 0;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < floor)
				return "symlink pointing outside the extraction folder";
		} else if (l && !(l == 1 && p[0] == '.')) {
			depth++;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return NULL;
}

/* A hard link's target must be a regular file we already extracted,
 * reached through real folders (relative to the current directory, which
 * is the staging folder while extracting). */
static const char *check_hardlink(const char *target)
{
	const char *why = archive_check_name(target);
	char *t, *p;
	struct stat st;

	if (why)
		return *target == '/' ? "hard link to an absolute path" :
		       "hard link target with a '..' component";
	t = xstrdup(target);
	for (p = strchr(t, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (*t && (lstat(t, &st) || !S_ISDIR(st.st_mode))) {
			free(t);
			return "hard link through something that is not an extracted folder";
		}
		*p = '/';
	}
	if (lstat(t, &st) || !S_ISREG(st.st_mode)) {
		free(t);
		return "hard link to a file that is not an extracted regular file";
	}
	free(t);
	return NULL;
}

/* ---- removal of the staging folder from a signal handler ---- */

struct staging {
	char path[4096];
	int cleanup_id;
};

static void remove_staging(void *arg)
{
	struct staging *s = arg;

	remove_tree_sigsafe(s->path);
}

/* ---- input: our own read callbacks, because libarchive's retry on EINTR
 * and so never notice SIGINT while blocked on a pipe or a FIFO ---- */

struct input {
	int fd;
	char *buf;
};

static la_ssize_t input_read(struct archive *a, void *arg, const void **out)
{
	struct input *in = arg;

	for (;;) {
		ssize_t r = read(in->fd, in->buf, BLOCK);

		if (r >= 0) {
			*out = in->buf;
			return r;
		}
		if (errno == EINTR && !lb_stop_requested())
			continue;
		archive_set_error(a, errno, "%s", errno == EINTR ? "interrupted" : strerror(errno));
		return -1;
	}
}

static int input_close(struct archive *a, void *arg)
{
	struct input *in = arg;

	(void)a;
	if (in->fd >= 0)
		close(in->fd);
	free(in->buf);
	free(in);
	return ARCHIVE_OK;
}

/* Open fd (taking ownership) as the input of a. */
static int input_open(struct archive *a, int fd)
{
	struct input *in = xmalloc(sizeof(*in));

	in->fd = fd;
	in->buf = xmalloc(BLOCK);
	return archive_read_open(a, in, NULL, input_read, input_close);
}

/* ---- the decompression thread ---- */

struct feeder {
	struct archive *raw;   /* filter_all + format_raw on the file */
	int wfd;               /* owned by the thread, closed when it ends */
	int rfd;               /* the tar reader's end */
	volatile int stop;
	char err[512];
	pthread_t th;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	char *buf = xmalloc(BLOCK);

	while (!f->stop) {
		la_ssize_t r = archive_read_data(f->raw, buf, BLOCK);
		size_t done = 0;

		if (r == 0)
			break;
		if (r < 0) {
			snprintf(f->err, sizeof(f->err), "%s", archive_error_string(f->raw));
			break;
		}
		while (done < (size_t)r && !f->stop) {
			ssize_t w = write(f->wfd, buf + done, (size_t)r - done);

			if (w < 0) {
				if (errno == EINTR)
					continue;
				f->stop = 1;   /* the reader went away */
				break;
			}
			done += (size_t)w;
		}
	}
	free(buf);
	close(f->wfd);
	return NULL;
}

/* Open the archive for reading tar entries. When the file is compressed,
 * start the feeder thread and read the tar stream from its pipe. */
static struct archive *open_input(const char *path, struct feeder *f, bool *threaded)
{
	struct archive *a;
	struct archive_entry *e;
	struct stat st;
	int pfd[2];

	*threaded = false;
	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			error_errno("cannot open %s", path);
			return NULL;
		}
		f->raw = archive_read_new();
		archive_read_support_filter_all(f->raw);
		archive_read_support_format_raw(f->raw);
		if (input_open(f->raw, fd) == ARCHIVE_OK &&
		    archive_read_next_header(f->raw, &e) == ARCHIVE_OK &&
		    archive_filter_count(f->raw) > 1 && pipe2(pfd, O_CLOEXEC) == 0) {
			sigset_t all, old;

			fcntl(pfd[1], F_SETPIPE_SZ, BLOCK);
			f->wfd = pfd[1];
			f->rfd = pfd[0];
			/* signals go to the main thread, whose reads they interrupt */
			sigfillset(&all);
			pthread_sigmask(SIG_BLOCK, &all, &old);
			if (pthread_create(&f->th, NULL, feed, f) == 0) {
				pthread_sigmask(SIG_SETMASK, &old, NULL);
				*threaded = true;
				a = archive_read_new();
				archive_read_support_filter_all(a);
				archive_read_support_format_tar(a);
				if (input_open(a, dup(pfd[0])) != ARCHIVE_OK) {
					error("cannot read %s: %s", path, archive_error_string(a));
					archive_read_free(a);
					return NULL;   /* caller stops the thread */
				}
				return a;
			}
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			close(pfd[0]);
			close(pfd[1]);
		}
		archive_read_free(f->raw);
		f->raw = NULL;
	}
	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	{
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			error_errno("cannot open %s", path);
			archive_read_free(a);
			return NULL;
		}
		if (input_open(a, fd) == ARCHIVE_OK)
			return a;
		error("cannot read %s: %s", path, archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
}

static void stop_feeder(struct feeder *f, bool threaded)
{
	if (!threaded)
		return;
	f->stop = 1;
	close(f->rfd);   /* a blocked writer gets EPIPE */
	pthread_join(f->th, NULL);
	archive_read_free(f->raw);
	f->raw = NULL;
}

/* ---- extraction ---- */

static int refuse(const char *path, const char *entry, const char *why)
{
	return error("refusing entry '%s' of %s: %s", entry, path, why);
}

/* Copy the entry's data; 0, -1 error, NET_INTERRUPTED. */
static int copy_data(struct archive *in, struct archive *out, const char *path, const char *name)
{
	for (;;) {
		const void *buf;
		size_t len;
		la_int64_t off;
		int r;

		if (lb_stop_requested())
			return NET_INTERRUPTED;
		r = archive_read_data_block(in, &buf, &len, &off);
		if (r == ARCHIVE_EOF)
			return 0;
		if (r < ARCHIVE_WARN)
			return lb_stop_requested() ? NET_INTERRUPTED :
				error("cannot read '%s' from %s: %s", name, path, archive_error_string(in));
		if (archive_write_data_block(out, buf, len, off) < ARCHIVE_WARN)
			return error("cannot write '%s': %s", name, archive_error_string(out));
	}
}

/*
 * We extract as root, so a tarball's modes would otherwise be kept as they
 * are: a hostile 4755 file becomes a setuid-root program. Keep the
 * permission bits a source tree needs (read, write for the owner, execute)
 * and drop setuid, setgid, sticky and world-write, as GNU tar's
 * --no-same-permissions does for ordinary users.
 */
mode_t archive_safe_perm(mode_t perm)
{
	return perm & 0775 & ~(mode_t)(S_ISUID | S_ISGID | S_ISVTX);
}

/* Refuse an archive that costs more than the limits allow (net_client.h):
 * the entries' declared sizes count (a sparse 1 TB file counts 1 TB) before
 * a byte of them is written. */
static const char *over_limit(const struct extract_limits *lim, unsigned long long files,
			      unsigned long long bytes, unsigned long long archive_size,
			      struct strbuf *why)
{
	unsigned long long mb = lim->max_bytes ? lim->max_bytes : EXTRACT_DEFAULT_MAX_BYTES;
	unsigned long long mf = lim->max_files ? lim->max_files : EXTRACT_DEFAULT_MAX_FILES;
	unsigned long long mr = lim->max_ratio ? lim->max_ratio : EXTRACT_DEFAULT_MAX_RATIO;
	char a[32], b[32];

	if (files > mf) {
		strbuf_addf(why, "more than %llu entries (--extract-max-files, "
			    "kernbench.extract_max_files)", mf);
	} else if (bytes > mb) {
		format_size(mb, a, sizeof(a));
		strbuf_addf(why, "its entries hold more than %sB (--extract-max-size, "
			    "kernbench.extract_max_size)", a);
	} else if (archive_size && bytes > EXTRACT_RATIO_FLOOR && bytes / archive_size > mr) {
		format_size(archive_size, a, sizeof(a));
		format_size(bytes, b, sizeof(b));
		strbuf_addf(why, "%sB out of a %sB archive is more than %llu times its size "
			    "(--extract-max-ratio, kernbench.extract_max_ratio)", b, a, mr);
	}
	return why->len ? why->buf : NULL;
}

static int extract_all(struct archive *in, const char *path, const struct extract_limits *lim,
		       unsigned long long archive_size)
{
	struct strbuf limit_why = STRBUF_INIT;
	unsigned long long files = 0, bytes = 0;
	const int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
			  ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
			  ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS;
	struct archive *out = archive_write_disk_new();
	struct archive_entry *e;
	int ret = 0, nentries = 0;

	archive_write_disk_set_options(out, flags);
	for (;;) {
		const char *name, *hl, *why = NULL;
		mode_t type;
		int r;

		if (lb_stop_requested()) {
			ret = NET_INTERRUPTED;
			break;
		}
		r = archive_read_next_header(in, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			ret = lb_stop_requested() ? NET_INTERRUPTED :
				error("cannot read %s: %s", path, archive_error_string(in));
			break;
		}
		name = archive_entry_pathname(e);
		hl = archive_entry_hardlink(e);
		type = archive_entry_filetype(e);
		why = archive_check_name(name);
		if (!why && hl)
			why = check_hardlink(hl);
		else if (!why && type == AE_IFLNK)
			why = archive_check_symlink(name, archive_entry_symlink(e));
		else if (!why && type != AE_IFREG && type != AE_IFDIR)
			why = "device, FIFO or socket entries are not extracted";
		if (why) {
			ret = refuse(path, name ? name : "", why);
			break;
		}
		files++;
		if (type == AE_IFREG && !hl && archive_entry_size(e) > 0)
			bytes += (unsigned long long)archive_entry_size(e);
		if (over_limit(lim, files, bytes, archive_size, &limit_why)) {
			ret = error("refusing %s at entry '%s': %s", path, name, limit_why.buf);
			break;
		}
		archive_entry_set_perm(e, archive_safe_perm(archive_entry_perm(e)));
		r = archive_write_header(out, e);
		if (r < ARCHIVE_WARN) {
			ret = error("refusing entry '%s' of %s: %s", name, path,
				    archive_error_string(out));
			break;
		}
		if (archive_entry_size(e) > 0 && !hl) {
			ret = copy_data(in, out, path, name);
			if (ret)
				break;
		}
		if (archive_write_finish_entry(out) < ARCHIVE_WARN) {
			ret = error("cannot finish '%s': %s", name, archive_error_string(out));
			break;
		}
		nentries++;
	}
	if (!ret && archive_write_close(out) < ARCHIVE_WARN)
		ret = error("cannot finish extracting %s: %s", path, archive_error_string(out));
	archive_write_free(out);
	strbuf_release(&limit_why);
	if (!ret && !nentries)
		ret = error("%s has no entries", path);
	return ret;
}

/* The single top-level folder of the staging folder, or NULL. */
static char *single_top(const char *staging)
{
	DIR *d = opendir(staging);
	struct dirent *de;
	char *top = NULL;
	int n = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!n++)
			top = xstrdup(de->d_name);
	}
	closedir(d);
	if (n == 1) {
		char *p = xasprintf("%s/%s", staging, top);
		struct stat st;
		bool dir = !lstat(p, &st) && S_ISDIR(st.st_mode);

		free(top);
		if (dir)
			return p;
		free(p);
		return NULL;
	}
	free(top);
	return NULL;
}

int archive_extract_tree(const char *path, const char *dest, const struct extract_limits *lim)
{
	static const struct extract_limits defaults;
	unsigned long long archive_size = 0;
	struct stat ast;
	struct staging *s = xcalloc(1, sizeof(*s));
	struct feeder f = { .wfd = -1, .rfd = -1 };
	struct archive *in = NULL;
	bool threaded = false;
	char cwd[4096], *top = NULL;
	int old = -1, ret = -1;

	if (path_exists(dest)) {
		free(s);
		return error("cannot extract %s into %s: it already exists", path, dest);
	}
	if (dest[0] != '/' && !getcwd(cwd, sizeof(cwd))) {
		free(s);
		return error_errno("cannot find the current folder");
	}
	{
		char *sp = xasprintf("%s%s%s.extracting", dest[0] == '/' ? "" : cwd,
				     dest[0] == '/' ? "" : "/", dest);

		if (strlen(sp) >= sizeof(s->path)) {
			free(sp);
			free(s);
			return error("path too long: %s", dest);
		}
		memcpy(s->path, sp, strlen(sp) + 1);
		free(sp);
	}
	if (mkdir(s->path, 0755)) {
		error_errno("cannot create %s", s->path);
		free(s);
		return -1;
	}
	s->cleanup_id = cleanup_push("partial extraction", remove_staging, s);
	/* the ratio needs the compressed size: known for a file, not a pipe
	 * (and asked before the chdir below, for a relative path) */
	if (!stat(path, &ast) && S_ISREG(ast.st_mode))
		archive_size = (unsigned long long)ast.st_size;
	in = open_input(path, &f, &threaded);
	if (!in)
		goto out;
	old = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (old < 0 || chdir(s->path)) {
		error_errno("cannot enter %s", s->path);
		goto out;
	}
	/* libarchive writes relative to the current folder: that is what lets
	 * SECURE_NOABSOLUTEPATHS stay on */
	ret = extract_all(in, path, lim ? lim : &defaults, archive_size);
	if (fchdir(old))
		ret = error_errno("cannot return to the previous folder");
	/* the tar reader holds a read end of the pipe: close it before
	 * stopping the feeder, or a feeder blocked in write() never returns */
	archive_read_free(in);
	in = NULL;
	if (threaded) {
		stop_feeder(&f, threaded);
		threaded = false;
		if (f.err[0] && !lb_stop_requested())
			ret = error("cannot decompress %s: %s", path, f.err);
	}
	if (ret)
		goto out;
	top = single_top(s->path);
	if (rename(top ? top : s->path, dest)) {
		ret = error_errno("cannot rename %s to %s", top ? top : s->path, dest);
		goto out;
	}
	if (top)
		rmdir(s->path);
	ret = 0;
out:
	if (old >= 0)
		close(old);
	if (in)
		archive_read_free(in);
	stop_feeder(&f, threaded);
	if (ret && lb_stop_requested())
		ret = NET_INTERRUPTED;
	if (ret) {
		remove_tree(s->path);
		if (ret == NET_INTERRUPTED)
			error("interrupted while extracting %s; removed %s", path, s->path);
	}
	cleanup_pop(s->cleanup_id, false);
	free(top);
	free(s);
	return ret;
}
