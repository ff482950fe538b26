// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpio newc writing with libarchive (see cpio.h). Uncompressed on purpose:
 * the initramfs is a few MB, and the kernel unpacks it faster than it would
 * decompress it under TCG.
 */
#include "net/cpio.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

struct cpio {
	struct archive *a;
	unsigned ino;
	const char *path;
	struct strbuf *err;
};

static int cpio_entry(struct cpio *c, const char *name, unsigned type, unsigned perm,
		      const void *data, size_t len, dev_t rdev)
{
	struct archive_entry *e = archive_entry_new();
	int ret = 0;

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_ino(e, ++c->ino);
	archive_entry_set_nlink(e, type == AE_IFDIR ? 2 : 1);
	archive_entry_set_mtime(e, time(NULL), 0);
	archive_entry_set_size(e, (la_int64_t)len);
	if (rdev)
		archive_entry_set_rdev(e, rdev);
	if (archive_write_header(c->a, e) != ARCHIVE_OK ||
	    (len && archive_write_data(c->a, data, len) != (la_ssize_t)len)) {
		strbuf_addf(c->err, "cannot write %s into %s: %s", name, c->path, archive_error_string(c->a));
		ret = -1;
	}
	archive_entry_free(e);
	return ret;
}

/* A file's content; compressed ones (.xz, .zst, .gz) come out decompressed. */
static void *load_file(const char *path, size_t *len, struct strbuf *err)
{
	struct archive *a;
	struct archive_entry *e;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	la_ssize_t r;
	size_t l = strlen(path);

	if (!(l > 3 && (!strcmp(path + l - 3, ".xz") || !strcmp(path + l - 4, ".zst") ||
			!strcmp(path + l - 3, ".gz")))) {
		char *d = read_file_str(path, len);
		if (!d)
			strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
		return d;
	}
	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_filename(a, path, sizeof(buf)) != ARCHIVE_OK ||
	    archive_read_next_header(a, &e) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot decompress %s: %s", path, archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	while ((r = archive_read_data(a, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)r);
	if (r < 0) {
		strbuf_addf(err, "cannot decompress %s: %s", path, archive_error_string(a));
		archive_read_free(a);
		strbuf_release(&sb);
		return NULL;
	}
	archive_read_free(a);
	*len = sb.len;
	return strbuf_detach(&sb);
}

static int parse_num(const char *s, int base, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, base);
	return (!*s || *end || errno || *v > max) ? -1 : 0;
}

/* One entry from words[*i...]; advances *i past it. */
static int add_entry(struct cpio *c, char *const *w, size_t n, size_t *i)
{
	const char *kind = w[*i];
	size_t need = !strcmp(kind, "dir") ? 3 : !strcmp(kind, "chr") ? 5 :
		      !strcmp(kind, "file") ? 4 : 0;
	unsigned long mode, major = 0, minor = 0;
	int ret;

	if (!need) {
		strbuf_addf(c->err, "cpio entry '%s': expected dir, chr or file", kind);
		return -1;
	}
	if (*i + need > n || parse_num(w[*i + 2], 8, 07777, &mode) ||
	    (need == 5 && (parse_num(w[*i + 3], 10, 4095, &major) ||
			   parse_num(w[*i + 4], 10, 1048575, &minor))) || w[*i + 1][0] == '/') {
		strbuf_addf(c->err, "malformed cpio entry '%s %s ...'", kind, *i + 1 < n ? w[*i + 1] : "");
		return -1;
	}
	if (need == 3) {
		ret = cpio_entry(c, w[*i + 1], AE_IFDIR, (unsigned)mode, NULL, 0, 0);
	} else if (need == 5) {
		ret = cpio_entry(c, w[*i + 1], AE_IFCHR, (unsigned)mode, NULL, 0,
				 makedev((unsigned)major, (unsigned)minor));
	} else {
		size_t len = 0;
		void *data = load_file(w[*i + 3], &len, c->err);

		if (!data)
			return -1;
		ret = cpio_entry(c, w[*i + 1], AE_IFREG, (unsigned)mode, data, len, 0);
		free(data);
	}
	*i += need;
	return ret;
}

int cpio_write(const char *path, char *const *words, size_t n, struct strbuf *err)
{
	struct cpio c = { .a = archive_write_new(), .path = path, .err = err };
	int ret = 0;

	if (archive_write_set_format_cpio_newc(c.a) != ARCHIVE_OK ||
	    archive_write_open_filename(c.a, path) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot create %s: %s", path, archive_error_string(c.a));
		archive_write_free(c.a);
		return -1;
	}
	for (size_t i = 0; i < n && !ret; )
		ret = add_entry(&c, words, n, &i);
	if (archive_write_close(c.a) != ARCHIVE_OK && !ret) {
		strbuf_addf(err, "cannot finish %s: %s", path, archive_error_string(c.a));
		ret = -1;
	}
	archive_write_free(c.a);
	return ret;
}
