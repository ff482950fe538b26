// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A results archive's manifest (core/results_unpack.c,
 * results_manifest_labels): the JSON that names an archive's labels, read
 * from archives other machines made. Properties: every label it accepts
 * follows the label rule (so it can name a folder) and is listed once;
 * the message of a refusal is inert text.
 */
#include <string.h>
#include "fuzz/fuzz.h"
#include "core/escape.h"
#include "core/label_name.h"
#include "core/results_unpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist labels = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT, why = STRBUF_INIT;

	if (!results_manifest_labels((const char *)data, size, "fuzz.tar.zst", &labels, &err)) {
		FUZZ_CHECK(labels.n > 0);
		for (size_t i = 0; i < labels.n; i++) {
			FUZZ_CHECK(!label_name_check(labels.v[i], &why));
			FUZZ_CHECK(!strchr(labels.v[i], '/') && strcmp(labels.v[i], "..") &&
				   strcmp(labels.v[i], "."));
			for (size_t j = 0; j < i && labels.n < 1000; j++)
				FUZZ_CHECK(strcmp(labels.v[i], labels.v[j]));
		}
	} else {
		FUZZ_CHECK(labels.n == 0 && err.len > 0);
		struct strbuf m = STRBUF_INIT;

		/* printed by error(), which makes a message inert: it must then
		 * hold no NUL that would cut it, and come out inert */
		FUZZ_CHECK(strlen(err.buf) == err.len);
		strbuf_add_inert_message(&m, err.buf);
		fuzz_check_inert(m.buf, m.len, 1);
		strbuf_release(&m);
	}
	strlist_release(&labels);
	strbuf_release(&err);
	strbuf_release(&why);
	return 0;
}
