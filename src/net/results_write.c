// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing a results archive; the rules are in results_write.h. */
#include "net/results_write.h"
#include "core/net_client.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>
#include "core/cleanup.h"
#include "core/strlist.h"

#define COPY_BUF (256 * 1024)

struct packer {
	struct archive *a;
	const char *out;
	char *buf;
	struct pack_stats *st;
};

/* The temp file: its path lives here so the signal path can unlink it. */
struct pack_tmp {
	char path[4096];
	int cleanup_id;
};

static void unlink_pack_tmp(void *arg)
{
	unlink(((struct pack_tmp *)arg)->path);
}

static int add_header(struct packer *p, const char *name, mode_t type, la_int64_t size,
		      time_t mtime)
{
	struct archive_entry *e = archive_entry_new();
	int r;

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, type == AE_IFDIR ? 0755 : 0644);
	archive_entry_set_size(e, type == AE_IFDIR ? 0 : size);
	archive_entry_set_mtime(e, mtime, 0);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	r = archive_write_header(p->a, e);
	archive_entry_free(e);
	if (r < ARCHIVE_WARN)
		return error("cannot write %s into %s: %s", name, p->out, archive_error_string(p->a));
	return 0;
}

static int add_manifest(struct packer *p, char *const *labels, size_t n)
{
	struct strbuf m = STRBUF_INIT;
	char ts[32];
	int ret;

	format_timestamp(now_realtime(), ts, sizeof(ts));
	/* labels follow the label rule: nothing in them needs a JSON escape */
	strbuf_addf(&m, "{\n  \"format\": \"%s\",\n  \"schema\": %d,\n  \"lrubench_version\": \"%s\",\n"
		    "  \"created\": \"%s\",\n  \"labels\": [", RA_FORMAT, RA_SCHEMA,
		    LRUBENCH_VERSION, ts);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&m, "%s\"%s\"", i ? ", " : "", labels[i]);
	strbuf_addstr(&m, "]\n}\n");
	ret = add_header(p, RA_MANIFEST, AE_IFREG, (la_int64_t)m.len, (time_t)now_realtime());
	if (!ret && archive_write_data(p->a, m.buf, m.len) != (la_ssize_t)m.len)
		ret = error("cannot write %s into %s: %s", RA_MANIFEST, p->out,
			    archive_error_string(p->a));
	strbuf_release(&m);
	return ret;
}

/* One regular file, dirfd/n opened without following a link (the tree is
 * walked by descriptor: a folder swapped for a link between the listing
 * and the open is never followed, issue 30), copied whole; path names it
 * in messages. */
static int add_file(struct packer *p, const char *name, int dirfd, const char *n,
		    const char *path)
{
	int fd = openat(dirfd, n, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	off_t left;
	int ret = 0;

	if (fd < 0)
		return error_errno("cannot open %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("cannot pack %s: not a regular file", path);
	}
	if ((uint64_t)st.st_size > RA_MAX_FILE) {
		close(fd);
		return error("cannot pack %s: %lld bytes, above the 1 GiB a results archive allows "
			     "for one file", path, (long long)st.st_size);
	}
	if (add_header(p, name, AE_IFREG, st.st_size, st.st_mtime)) {
		close(fd);
		return -1;
	}
	for (left = st.st_size; left > 0 && !ret;) {
		ssize_t r;

		if (lb_stop_requested()) {
			ret = NET_INTERRUPTED;
			break;
		}
		r = read(fd, p->buf, left < COPY_BUF ? (size_t)left : COPY_BUF);

		if (r < 0 && errno == EINTR && !lb_stop_requested())
			continue;
		if (r < 0)
			ret = lb_stop_requested() ? NET_INTERRUPTED : error_errno("cannot read %s", path);
		else if (r == 0)
			ret = error("%s shrank while it was packed (is a run still writing it?)", path);
		else if (archive_write_data(p->a, p->buf, (size_t)r) != r)
			ret = error("cannot write %s into %s: %s", name, p->out,
				    archive_error_string(p->a));
		else
			left -= r;
	}
	close(fd);
	if (!ret) {
		p->st->files++;
		p->st->bytes_in += (unsigned long long)st.st_size;
	}
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in the folder open at dirfd, sorted (no "." or ".."); dirfd
 * stays open and the caller's. */
static int list_dir(int dirfd, const char *dir, struct strlist *names)
{
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return error_errno("cannot read folder %s", dir);
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			strlist_push(names, de->d_name);
	closedir(d);
	if (names->n)
		qsort(names->v, names->n, sizeof(*names->v), cmp_str);
	return 0;
}

/* A real folder dirfd/n (never through a link), or -1 with errno. */
static int open_subdir(int dirfd, const char *n)
{
	return openat(dirfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* logs/ or series/ and below (the folder open at dirfd, path for
 * messages): regular files up to RA_LOG_MAX, real folders. */
static int add_subtree(struct packer *p, const char *name, int dirfd, const char *path)
{
	struct strlist names = STRLIST_INIT;
	char why_buf[256];
	int ret;

	if ((ret = add_header(p, name, AE_IFDIR, 0, 0)) || (ret = list_dir(dirfd, path, &names)))
		return ret;
	for (size_t i = 0; i < names.n && !ret; i++) {
		const char *n = names.v[i];
		char *sub_name = xasprintf("%s/%s", name, n);
		char *sub_path = xasprintf("%s/%s", path, n);
		const char *why = ra_check_entry_name(sub_name, why_buf, sizeof(why_buf));
		struct stat st;

		if (lb_stop_requested()) {
			ret = NET_INTERRUPTED;
		} else if (fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = error_errno("cannot read %s", sub_path);
		} else if (why) {
			warning("left out %s: %s", sub_path, why);
		} else if (S_ISDIR(st.st_mode)) {
			int sub = open_subdir(dirfd, n);

			if (sub < 0 && (errno == ELOOP || errno == ENOTDIR)) {
				warning("left out %s: not a regular file or folder", sub_path);
			} else if (sub < 0) {
				ret = error_errno("cannot read %s", sub_path);
			} else {
				ret = add_subtree(p, sub_name, sub, sub_path);
				close(sub);
			}
		} else if (!S_ISREG(st.st_mode)) {
			warning("left out %s: not a regular file or folder", sub_path);
		} else if ((uint64_t)st.st_size > RA_LOG_MAX) {
			warning("left out %s: %lld bytes, above the 16 MiB kept of a log", sub_path,
				(long long)st.st_size);
		} else {
			ret = add_file(p, sub_name, dirfd, n, sub_path);
		}
		free(sub_name);
		free(sub_path);
	}
	strlist_release(&names);
	return ret;
}

static bool is_json_name(const char *n)
{
	size_t l = strlen(n);

	return l > 5 && !strcmp(n + l - 5, ".json") && n[0] != '.';
}

static int add_label(struct packer *p, const char *label, const char *dir)
{
	struct strlist names = STRLIST_INIT;
	char why_buf[256];
	int ret, dfd;

	/* the label folder as named (the user's own path); below it, by descriptor */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return error_errno("cannot read folder %s", dir);
	if ((ret = add_header(p, label, AE_IFDIR, 0, 0)) || (ret = list_dir(dfd, dir, &names))) {
		close(dfd);
		return ret;
	}
	for (size_t i = 0; i < names.n && !ret; i++) {
		const char *n = names.v[i];
		char *name = xasprintf("%s/%s", label, n);
		char *path = xasprintf("%s/%s", dir, n);
		struct stat st;

		if (lb_stop_requested()) {
			ret = NET_INTERRUPTED;
		} else if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = error_errno("cannot read %s", path);
		} else if ((!strcmp(n, "logs") || !strcmp(n, "series")) && S_ISDIR(st.st_mode)) {
			int sub = open_subdir(dfd, n);

			if (sub < 0) {
				ret = error_errno("cannot read %s", path);
			} else {
				ret = add_subtree(p, name, sub, path);
				close(sub);
			}
		} else if (!is_json_name(n)) {
			;   /* not results: stays home */
		} else if (ra_check_entry_name(name, why_buf, sizeof(why_buf)) || !S_ISREG(st.st_mode)) {
			ret = error("cannot pack %s: a results file must be a regular file named "
				    "A-Z a-z 0-9 . _ + - = , @", path);
		} else {
			ret = add_file(p, name, dfd, n, path);
		}
		free(name);
		free(path);
	}
	strlist_release(&names);
	close(dfd);
	return ret;
}

static struct archive *open_writer(int fd, enum ra_compress c, const char *out)
{
	struct archive *a = archive_write_new();
	int r;

	switch (c) {
	case RA_ZSTD: r = archive_write_add_filter_zstd(a); break;
	case RA_GZIP: r = archive_write_add_filter_gzip(a); break;
	default: r = archive_write_add_filter_xz(a); break;
	}
	if (r != ARCHIVE_OK || archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
	    archive_write_open_fd(a, fd) != ARCHIVE_OK) {
		error("cannot write %s (%s): %s", out, ra_compress_name(c), archive_error_string(a));
		archive_write_free(a);
		return NULL;
	}
	return a;
}

/* An archive replaces only a regular file: never a device, a FIFO or a
 * link (util.h output_target_kind), --force or not. */
static int check_archive_target(const char *out)
{
	struct strbuf why = STRBUF_INIT;
	enum output_kind kind;
	int fd;
	int ret = 0;

	if (output_target_kind(out, &kind, &fd, &why) || kind != OUTPUT_REPLACE) {
		if (!why.len)
			strbuf_addf(&why, "%s is a device, a FIFO or a descriptor: an archive replaces "
				    "only a regular file", out);
		ret = error("%s", why.buf);
	}
	strbuf_release(&why);
	return ret;
}

/* rename without replacing an existing out unless force; EINVAL (a
 * filesystem without RENAME_NOREPLACE) falls back to a check and rename. */
static int put_in_place(const char *tmp, const char *out, bool force)
{
	if (check_archive_target(out))
		return -1;
	if (!force) {
		if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE))
			return 0;
		if (errno == EEXIST)
			return error("%s exists already (--force replaces it)", out);
		if (errno != EINVAL && errno != ENOSYS)
			return error_errno("cannot rename %s to %s", tmp, out);
		if (path_exists(out))
			return error("%s exists already (--force replaces it)", out);
	}
	if (rename(tmp, out))
		return error_errno("cannot rename %s to %s", tmp, out);
	return 0;
}

int results_write(const char *out, enum ra_compress c, bool force, char *const *labels,
		  char *const *dirs, size_t n, struct pack_stats *st)
{
	struct pack_tmp *t = xcalloc(1, sizeof(*t));
	struct packer p = { .out = out, .st = st };
	const char *slash = strrchr(out, '/');
	struct stat sb;
	int fd, ret = -1;

	memset(st, 0, sizeof(*st));
	if (!force && path_exists(out)) {
		free(t);
		return error("%s exists already (--force replaces it)", out);
	}
	/* checked before the work, again at the rename (put_in_place) */
	if (check_archive_target(out)) {
		free(t);
		return -1;
	}
	if (snprintf(t->path, sizeof(t->path), "%.*s.%s.tmp-XXXXXX", slash ? (int)(slash - out + 1) : 0,
		     out, slash ? slash + 1 : out) >= (int)sizeof(t->path)) {
		free(t);
		return error("path too long: %s", out);
	}
	fd = mkostemp(t->path, O_CLOEXEC);
	if (fd < 0) {
		error_errno("cannot create a temp file beside %s", out);
		free(t);
		return -1;
	}
	t->cleanup_id = cleanup_push("partial results archive", unlink_pack_tmp, t);
	fchmod(fd, 0644);   /* mkstemp makes 0600; results are for everyone to read */
	p.a = open_writer(fd, c, out);
	if (!p.a)
		goto out;
	p.buf = xmalloc(COPY_BUF);
	ret = add_manifest(&p, labels, n);
	for (size_t i = 0; i < n && !ret; i++)
		ret = add_label(&p, labels[i], dirs[i]);
	if (!ret && archive_write_close(p.a) != ARCHIVE_OK)
		ret = error("cannot finish %s: %s", out, archive_error_string(p.a));
	archive_write_free(p.a);
	if (!ret && fsync(fd))
		ret = error_errno("cannot write %s", t->path);
	if (!ret && !fstat(fd, &sb))
		st->bytes_out = (unsigned long long)sb.st_size;
	if (!ret)
		ret = put_in_place(t->path, out, force);
out:
	close(fd);
	if (ret && lb_stop_requested())
		ret = NET_INTERRUPTED;
	if (ret == NET_INTERRUPTED)
		error("interrupted while packing %s; removed the partial archive", out);
	cleanup_pop(t->cleanup_id, ret != 0);
	free(p.buf);
	free(t);
	return ret;
}
