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

#endif
