// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The x86 Linux boot protocol (Documentation/arch/x86/boot.rst): the setup
 * header at 0x1f1 carries the magic "HdrS" at 0x202, the protocol version at
 * 0x206 and, at 0x20e, kernel_version: the offset minus 0x200 of a NUL
 * terminated string "6.1.0-57-amd64 (debian-kernel@...) #1 SMP ...". That
 * string is how we learn the release (for modules and the default label)
 * without booting, and the magic is how we tell a kernel from anything else.
 */
#include "vm/kimage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HDR_MAGIC_OFF 0x202
#define HDR_VERSION_OFF 0x206
#define HDR_KVER_OFF 0x20e
#define READ_MAX (64 * 1024)  /* the version string sits in the setup code, well inside */

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | ((unsigned)p[1] << 8);
}

int kimage_parse(const unsigned char *buf, size_t len, struct kimage *out, struct strbuf *err)
{
	size_t off, end, i;

	memset(out, 0, sizeof(*out));
	if (len < HDR_KVER_OFF + 2 || memcmp(buf + HDR_MAGIC_OFF, "HdrS", 4)) {
		strbuf_addstr(err, "not a Linux kernel image (bzImage): no \"HdrS\" boot header at 0x202");
		return -1;
	}
	if (le16(buf + HDR_VERSION_OFF) < 0x200) {
		strbuf_addf(err, "boot protocol %#x is too old (2.00 or newer needed)",
			    le16(buf + HDR_VERSION_OFF));
		return -1;
	}
	off = le16(buf + HDR_KVER_OFF);
	if (!off) {
		strbuf_addstr(err, "the boot header has no kernel version string");
		return -1;
	}
	off += 0x200;
	if (off >= len) {
		strbuf_addf(err, "the kernel version string offset %#zx is past the setup code", off);
		return -1;
	}
	for (end = off; end < len && buf[end]; end++)
		if (buf[end] < 0x20 || buf[end] > 0x7e)
			break;
	if (end == off || end >= len || buf[end]) {
		strbuf_addf(err, "the kernel version string at %#zx is not readable text", off);
		return -1;
	}
	for (i = off; i < end && buf[i] != ' '; i++)
		;
	if (i - off >= sizeof(out->release)) {
		strbuf_addstr(err, "the kernel release in the version string is too long");
		return -1;
	}
	memcpy(out->release, buf + off, i - off);
	snprintf(out->version, sizeof(out->version), "%.*s", (int)(end - off), (const char *)buf + off);
	return 0;
}

int kimage_read(const char *path, struct kimage *out, struct strbuf *err)
{
	unsigned char *buf;
	size_t len = 0;
	int fd, ret;

	/* a regular file (a FIFO would block, a device never ends); /vmlinuz
	 * is a symlink, so symlinks are followed */
	fd = open_regular_file(path, 0, NULL);
	if (fd < 0) {
		strbuf_addf(err, "cannot read kernel image %s: %s", path,
			    errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	buf = xmalloc(READ_MAX);
	while (len < READ_MAX) {
		ssize_t r = read(fd, buf + len, READ_MAX - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			strbuf_addf(err, "cannot read kernel image %s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	close(fd);
	{
		struct strbuf why = STRBUF_INIT;
		ret = kimage_parse(buf, len, out, &why);
		if (ret)
			strbuf_addf(err, "%s: %s", path, strbuf_str(&why));
		strbuf_release(&why);
	}
	free(buf);
	return ret;
}
