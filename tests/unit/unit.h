/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Common includes and fixtures for the cmocka unit tests (no root needed). */
#ifndef LRUBENCH_UNIT_H
#define LRUBENCH_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <math.h>
#include "core/util.h"

/* The text of tests/fixtures/REL under $LRUBENCH_SRC (else the current
 * folder), malloc'ed; len may be NULL. A missing fixture fails the test. */
static inline char *unit_fixture(const char *rel, size_t *len)
{
	const char *src = getenv("LRUBENCH_SRC");
	char *path = xasprintf("%s/tests/fixtures/%s", src ? src : ".", rel);
	char *buf = read_file_str(path, len);

	if (!buf)
		fail_msg("cannot read fixture %s", path);
	free(path);
	return buf;
}

/* a == b to a millionth of b (plus one, so that 0 compares too) */
static inline void assert_near(double a, double b)
{
	if (fabs(a - b) > 1e-6 * (fabs(b) + 1))
		fail_msg("%.9f != %.9f", a, b);
}

/* One scratch folder per test binary: pass unit_tmp_setup/unit_tmp_teardown
 * to cmocka_run_group_tests, then build fake trees under unit_tmp. */
static char unit_tmp[64] __attribute__((unused));

static inline int unit_tmp_setup(void **state)
{
	(void)state;
	strcpy(unit_tmp, "/tmp/lrubench-unit.XXXXXX");
	return mkdtemp(unit_tmp) ? 0 : -1;
}

static inline int unit_tmp_teardown(void **state)
{
	(void)state;
	return remove_tree(unit_tmp);
}

/* Write text to unit_tmp/rel (a leading '/' is fine), creating folders;
 * returns the malloc'ed path. */
static inline char *unit_put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", unit_tmp, rel[0] == '/' ? rel + 1 : rel);
	char *dir = xstrdup(p);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	free(dir);
	return p;
}

/* Capture stderr (into unit_tmp/stderr) so that error() messages can be
 * checked: capture_start(), the calls, then capture_end() returns
 * what they printed (malloc'ed). Needs unit_tmp_setup. */
static int unit_saved_stderr = -1;

static inline void capture_start(void)
{
	char *path = xasprintf("%s/stderr", unit_tmp);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	fflush(stderr);
	unit_saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
	free(path);
}

static inline char *capture_end(void)
{
	char *path = xasprintf("%s/stderr", unit_tmp);
	char *text;

	fflush(stderr);
	dup2(unit_saved_stderr, 2);
	close(unit_saved_stderr);
	unit_saved_stderr = -1;
	text = read_file_str(path, NULL);
	free(path);
	assert_non_null(text);
	return text;
}

/* How many times needle occurs in hay (overlapping). */
static inline size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}
#endif
