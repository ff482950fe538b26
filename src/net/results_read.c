// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a results archive; the rules are in results_read.h. */
#include "net/results_read.h"

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
#include "core/net_client.h"
#include "core/results_archive.h"

#define READ_BUF (256 * 1024)
#define HEAD_READ_BUF (16 * 1024)

struct reader {
	const char *path, *dest;
	bool results_only, head_only;
	struct archive *a;
	char *buf;
	size_t entries;
	uint64_t total;
	uint64_t results_total;   /* the labels' top-level files: what compare loads */
	uint64_t archive_size;
};

static int refuse(struct reader *r, const char *name, const char *why)
{
	return error("%s: refusing entry '%.200s': %s", r->path, name, why);
}

static int damaged(struct reader *r)
{
	if (lb_stop_requested())
		return NET_INTERRUPTED;
	return error("%s: damaged or truncated archive: %s", r->path, archive_error_string(r->a));
}

/* Nothing could be read: the first header already failed. */
static int not_an_archive(struct reader *r)
{
	if (lb_stop_requested())
		return NET_INTERRUPTED;
	return error("%s is not a results archive (a tar, compressed with zstd, gzip or xz), or is "
		     "damaged or truncated: %s", r->path, archive_error_string(r->a));
}

/* Create the folders of rel (relative to dest) up to but not including
 * its last component, or all of it when whole. Only folders this code made
 * can be in the way, so an existing one is fine and anything else is not. */
static int make_dirs(struct reader *r, const char *rel, bool whole)
{
	char *p = xasprintf("%s/%s", r->dest, rel);
	size_t base = strlen(r->dest) + 1, n = strlen(p);
	int ret = 0;

	if (n && p[n - 1] == '/')
		p[--n] = '\0';
	for (size_t i = base; i <= n && !ret; i++) {
		struct stat st;

		if (p[i] != '/' && (p[i] != '\0' || !whole))
			continue;
		p[i] = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			ret = error_errno("cannot create %s", p);
		else if (lstat(p, &st) || !S_ISDIR(st.st_mode))
			ret = error("%s: entry '%s' needs %s to be a folder, and it is not", r->path,
				    rel, p);
		if (i < n)
			p[i] = '/';
	}
	free(p);
	return ret;
}

/* The entry's data: written to fd (or dropped when fd < 0), at most size. */
static int copy_data(struct reader *r, const char *name, int fd, uint64_t size)
{
	uint64_t got = 0;

	for (;;) {
		la_ssize_t n = archive_read_data(r->a, r->buf, READ_BUF);
		size_t done = 0;

		if (n == 0)
			break;
		if (n < 0)
			return damaged(r);
		got += (uint64_t)n;
		if (got > size)
			return refuse(r, name, "more data than its header declares");
		while (fd >= 0 && done < (size_t)n) {
			ssize_t w = write(fd, r->buf + done, (size_t)n - done);

			if (w < 0 && errno == EINTR && !lb_stop_requested())
				continue;
			if (w < 0)
				return lb_stop_requested() ? NET_INTERRUPTED :
					error_errno("cannot write %s/%s", r->dest, name);
			done += (size_t)w;
		}
		if (lb_stop_requested())
			return NET_INTERRUPTED;
	}
	return 0;
}

/* What results_only drops: LABEL/logs/... and the like, below a label's
 * top level, except LABEL/series/... (the monitors' series, which plot's
 * level figures read). */
static bool below_top(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash && strchr(slash + 1, '/') && strncmp(slash + 1, "series/", 7);
}

static int read_file(struct reader *r, const char *name, uint64_t size)
{
	char *p;
	int fd, ret;

	if (!r->dest || (r->results_only && below_top(name)))
		return copy_data(r, name, -1, size);
	if (make_dirs(r, name, false))
		return -1;
	p = xasprintf("%s/%s", r->dest, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = errno == EEXIST ? refuse(r, name, "a second entry of this name")
				      : error_errno("cannot create %s", p);
		free(p);
		return ret;
	}
	ret = copy_data(r, name, fd, size);
	if (close(fd) && !ret)
		ret = error_errno("cannot write %s", p);
	free(p);
	return ret;
}

static int read_entry(struct reader *r, struct archive_entry *e)
{
	const char *name = archive_entry_pathname(e);
	mode_t type = archive_entry_filetype(e);
	la_int64_t size = archive_entry_size(e);
	char why_buf[300];
	const char *why;
	bool first = r->entries == 0;

	if (!name)
		return refuse(r, "", "a name that cannot be read");
	if (++r->entries > RA_MAX_ENTRIES)
		return error("%s: more than %d entries: not a results archive, or a hostile one",
			     r->path, RA_MAX_ENTRIES);
	if (first && (strcmp(name, RA_MANIFEST) || type != AE_IFREG))
		return error("%s is not an lrubench results archive: its first entry is '%.200s', "
			     "not the manifest %s (results archives are made by lrubench pack)",
			     r->path, name, RA_MANIFEST);
	if (!first && !strcmp(name, RA_MANIFEST))
		return refuse(r, name, "a second manifest");
	why = ra_check_entry_name(name, why_buf, sizeof(why_buf));
	if (why)
		return refuse(r, name, why);
	if (archive_entry_hardlink(e))
		return refuse(r, name, "a hard link (a results archive holds files and folders only)");
	if (type == AE_IFLNK)
		return refuse(r, name, "a symbolic link (a results archive holds files and folders only)");
	if (type != AE_IFREG && type != AE_IFDIR)
		return refuse(r, name, "a device, FIFO or socket (a results archive holds files and "
			      "folders only)");
	if (type == AE_IFDIR)
		return r->dest && !(r->results_only && below_top(name)) ? make_dirs(r, name, true) : 0;
	if (!first && !strchr(name, '/'))
		return refuse(r, name, "a file beside the label folders");
	if (!archive_entry_size_is_set(e) || size < 0)
		return refuse(r, name, "no size");
	if (first && (uint64_t)size > RA_MAX_MANIFEST)
		return refuse(r, name, "a manifest above 1 MiB");
	if ((uint64_t)size > RA_MAX_FILE)
		return refuse(r, name, "a file above 1 GiB");
	r->total += (uint64_t)size;
	if (r->total > RA_MAX_TOTAL)
		return refuse(r, name, "more than 4 GiB of files in all");
	/* fetch's extraction rule for compression bombs, past the same floor */
	if (r->total > EXTRACT_RATIO_FLOOR &&
	    r->total / (r->archive_size ? r->archive_size : 1) > EXTRACT_DEFAULT_MAX_RATIO)
		return refuse(r, name, "the files hold more than 100 times the archive's size "
			      "(a compression bomb?)");
	if (!first && !below_top(name)) {
		r->results_total += (uint64_t)size;
		if (r->results_total > RA_RESULTS_RATIO_FLOOR &&
		    r->results_total / (r->archive_size ? r->archive_size : 1) > RA_MAX_RESULTS_RATIO)
			return refuse(r, name, "the results files hold more than 200 times the "
				      "archive's size (results JSON compresses 3 to 20 times; a "
				      "compression bomb?)");
	}
	return read_file(r, name, (uint64_t)size);
}

static int read_archive(struct reader *rp)
{
	struct reader r = *rp;
	const char *path = r.path;
	struct archive_entry *e;
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return error_errno("cannot open %s", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("%s is not a regular file (a results archive is a file made by "
			     "lrubench pack)", path);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	r.archive_size = (uint64_t)st.st_size;
	r.a = archive_read_new();
	archive_read_support_filter_all(r.a);
	archive_read_support_format_tar(r.a);
	/* the head only (push's check of each file before any is sent): a
	 * small first read, not a quarter MiB of each file to decompress */
	if (archive_read_open_fd(r.a, fd, r.head_only ? HEAD_READ_BUF : READ_BUF) != ARCHIVE_OK) {
		ret = not_an_archive(&r);
		goto out;
	}
	r.buf = xmalloc(READ_BUF);
	for (;;) {
		int h;

		if (lb_stop_requested()) {
			ret = NET_INTERRUPTED;
			break;
		}
		h = archive_read_next_header(r.a, &e);
		if (h == ARCHIVE_EOF)
			break;
		if (h < ARCHIVE_WARN) {
			ret = r.entries ? damaged(&r) : not_an_archive(&r);
			break;
		}
		ret = read_entry(&r, e);
		if (ret || r.head_only)
			break;
	}
	if (!ret && !r.entries)
		ret = error("%s is empty: not a results archive", path);
out:
	archive_read_free(r.a);
	close(fd);
	free(r.buf);
	if (ret && lb_stop_requested())
		ret = NET_INTERRUPTED;
	return ret;
}

enum net_status results_read(const char *path, const char *dest, bool results_only)
{
	struct reader r = { .path = path, .dest = dest, .results_only = results_only };

	return read_archive(&r);
}

enum net_status results_check_head(const char *path)
{
	struct reader r = { .path = path, .head_only = true };

	return read_archive(&r);
}
