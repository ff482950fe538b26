// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a possibly compressed file; see decompress.h. */
#include "net/decompress.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <archive.h>

int decompress_file(const char *path, size_t max, struct strbuf *out, struct strbuf *err)
{
	struct archive *a;
	struct archive_entry *e;
	struct stat st;
	char buf[16384];
	la_ssize_t n;
	int ret = -1;

	if (stat(path, &st)) {
		strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s is not a regular file", path);
		return -1;
	}
	a = archive_read_new();
	/* "raw": the content is the single entry, after whatever filter the
	 * first bytes name (none for a plain text file) */
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	archive_read_support_format_empty(a);
	if (archive_read_open_filename(a, path, sizeof(buf)) != ARCHIVE_OK) {
		strbuf_addf(err, "cannot read %s: %s", path, archive_error_string(a));
		goto out;
	}
	switch (archive_read_next_header(a, &e)) {
	case ARCHIVE_EOF:
		ret = 0;   /* an empty file */
		goto out;
	case ARCHIVE_OK:
	case ARCHIVE_WARN:
		break;
	default:
		strbuf_addf(err, "cannot read %s: %s", path, archive_error_string(a));
		goto out;
	}
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (out->len + (size_t)n > max) {
			strbuf_addf(err, "%s: more than %zu bytes once uncompressed", path, max);
			goto out;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	if (n < 0) {
		strbuf_addf(err, "cannot read %s: %s", path, archive_error_string(a));
		goto out;
	}
	ret = 0;
out:
	archive_read_free(a);
	return ret;
}
