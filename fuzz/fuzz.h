/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libFuzzer harnesses of the parsers that read outside input (issue 12).
 * Each fuzz_<name>.c defines LLVMFuzzerTestOneInput; `make fuzz` links it
 * with libFuzzer (clang -fsanitize=fuzzer,address,undefined), and the unit
 * test test_fuzz_corpus links every harness, built by the normal cc with
 * the entry point renamed to fuzz_one_<name>, to replay fuzz/corpus/<name>/
 * as a plain test. A harness checks properties too (output that must stay
 * valid JSON, modes that must never keep setuid), and abort()s when one
 * fails, which both the fuzzer and the replay report.
 */
#ifndef LRUBENCH_FUZZ_H
#define LRUBENCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (parsers of C strings need one). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

#define FUZZ_CHECK(cond)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, \
				__LINE__, #cond);                                \
			abort();                                                \
		}                                                               \
	} while (0)

/*
 * Text a reader's terminal shows must be inert (core/escape.h): valid UTF-8,
 * no C0 control but newline (when allow_nl) and tab, no DEL, no C1 control
 * (U+0080..U+009F), no bidirectional control (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069).
 */
static inline void fuzz_check_inert(const char *buf, size_t len, int allow_nl)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len;

	while (p < end) {
		unsigned c = *p, cp;
		size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
			 : (c & 0xf8) == 0xf0 ? 4 : 0;

		FUZZ_CHECK(n && p + n <= end);
		cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
		for (size_t i = 1; i < n; i++) {
			FUZZ_CHECK((p[i] & 0xc0) == 0x80);
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if (n == 1)
			FUZZ_CHECK(c >= 0x20 ? c != 0x7f : c == '\t' || (allow_nl && c == '\n'));
		FUZZ_CHECK(!(cp >= 0x80 && cp <= 0x9f));
		FUZZ_CHECK(cp != 0x61c && cp != 0x200e && cp != 0x200f);
		FUZZ_CHECK(!(cp >= 0x202a && cp <= 0x202e) && !(cp >= 0x2066 && cp <= 0x2069));
		p += n;
	}
}

#endif
