// SPDX-License-Identifier: GPL-2.0-or-later
/* The rules of a results archive (results_archive.h). */
#include "core/results_archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/label_name.h"

static const struct {
	const char *name, *suffix;
} compressors[] = {
	[RA_ZSTD] = { "zstd", ".tar.zst" },
	[RA_GZIP] = { "gzip", ".tar.gz" },
	[RA_XZ] = { "xz", ".tar.xz" },
};

static const struct {
	const char *suffix;
	enum ra_compress c;
} suffixes[] = {
	{ ".tar.zst", RA_ZSTD }, { ".tzst", RA_ZSTD }, { ".tar.gz", RA_GZIP },
	{ ".tgz", RA_GZIP }, { ".tar.xz", RA_XZ }, { ".txz", RA_XZ },
};

int ra_compress_parse(const char *name, enum ra_compress *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(compressors); i++)
		if (!strcmp(name, compressors[i].name)) {
			*c = (enum ra_compress)i;
			return 0;
		}
	return -1;
}

const char *ra_compress_name(enum ra_compress c)
{
	return compressors[c].name;
}

const char *ra_compress_suffix(enum ra_compress c)
{
	return compressors[c].suffix;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

bool ra_suffix_compress(const char *name, enum ra_compress *c)
{
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, suffixes[i].suffix)) {
			*c = suffixes[i].c;
			return true;
		}
	return false;
}

bool ra_is_archive_name(const char *name)
{
	enum ra_compress c;

	return ra_suffix_compress(name, &c) || ends_with(name, ".tar");
}

static bool part_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       strchr("._+-=,@", c);
}

const char *ra_check_entry_name(const char *name, char *why_buf, size_t len)
{
	size_t n = strlen(name), depth = 0;
	const char *p = name;
	struct strbuf err = STRBUF_INIT;

	if (!n)
		return "empty name";
	if (n > RA_MAX_PATH)
		return "name longer than 1024 bytes";
	if (name[0] == '/')
		return "absolute path";
	if (!strcmp(name, RA_MANIFEST))
		return NULL;
	if (name[n - 1] == '/')
		n--;   /* a folder */
	while (p < name + n) {
		const char *e = memchr(p, '/', (size_t)(name + n - p));
		size_t l = e ? (size_t)(e - p) : (size_t)(name + n - p);

		if (++depth > RA_MAX_DEPTH)
			return "more than 5 levels deep";
		if (!l)
			return "empty path component ('//')";
		if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return "'.' or '..' component";
		if (depth == 1) {
			char *label = xstrndup(p, l);
			int bad = label_name_check(label, &err);

			free(label);
			if (bad) {
				snprintf(why_buf, len, "its folder is not a label: %s", err.buf);
				strbuf_release(&err);
				return why_buf;
			}
		} else {
			if (l > 255)
				return "a component longer than 255 bytes";
			if (p[0] == '.')
				return "a hidden file or folder ('.' first)";
			for (size_t i = 0; i < l; i++)
				if (!part_char(p[i])) {
					unsigned char c = (unsigned char)p[i];

					if (c >= 0x20 && c < 0x7f)
						snprintf(why_buf, len, "the character '%c' (allowed: "
							 "A-Z a-z 0-9 . _ + - = , @)", c);
					else
						snprintf(why_buf, len, "the byte 0x%02x", c);
					return why_buf;
				}
		}
		p += l + (e ? 1 : 0);
	}
	return NULL;
}
