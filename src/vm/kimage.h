/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a bzImage says about itself: is it one, and which release is it. */
#ifndef LRUBENCH_VM_KIMAGE_H
#define LRUBENCH_VM_KIMAGE_H

#include <stddef.h>
#include "core/util.h"

struct kimage {
	char release[128];   /* "6.1.0-57-amd64": the first word of the version string */
	char version[256];   /* the whole version string */
};

/* Parse the x86 boot header in buf. 0, or -1 with err saying why this is not
 * a kernel image we can use (no "HdrS", protocol too old, no version string). */
int kimage_parse(const unsigned char *buf, size_t len, struct kimage *out, struct strbuf *err);
/* Read the first part of path and parse it; err names the path. */
int kimage_read(const char *path, struct kimage *out, struct strbuf *err);

#endif
