// SPDX-License-Identifier: GPL-2.0-or-later
/* The x86 boot header parser (vm/kimage.c) on any bytes as a kernel image. */
#include <string.h>
#include "fuzz/fuzz.h"
#include "vm/kimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct kimage k;

	if (!kimage_parse(data, size, &k, &err)) {
		/* a release is printable text without a space, and terminated */
		FUZZ_CHECK(memchr(k.release, '\0', sizeof(k.release)));
		FUZZ_CHECK(!strchr(k.release, ' '));
		for (const char *p = k.version; *p; p++)
			FUZZ_CHECK(*p >= 0x20 && *p <= 0x7e);
	} else {
		FUZZ_CHECK(err.len > 0);
	}
	strbuf_release(&err);
	return 0;
}
