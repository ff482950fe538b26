// SPDX-License-Identifier: GPL-2.0-or-later
/* The mmapread task on a real sparse file, without root: prepare's errors,
 * and a pass that reads the clock once per 16 pages. */
#include <errno.h>
#include "unit.h"
#include "workloads/mmapread/mapper.h"

static char *sparse(const char *name, off_t size)
{
	char *p = xasprintf("%s/%s", unit_tmp, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
	return p;
}

static void prepare_errors(void **state)
{
	struct mr_task t = { .fd = -1 };
	char *small = sparse("small", 100);

	(void)state;
	t.file = "/nonexistent/mmapread";
	assert_int_equal(mr_prepare(&t), ENOENT);
	t.file = small;
	assert_int_equal(mr_prepare(&t), EINVAL);   /* shorter than a page */
	close(t.fd);
	free(small);
}

static void pass_counts_pages(void **state)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *f = sparse("file", 64 * pg + 100);   /* a partial page at the end is not read */
	struct mr_task t = { .file = f, .fadvise = true, .fd = -1 };
	struct round_slot slot = { 0 };

	(void)state;
	assert_int_equal(mr_prepare(&t), 0);
	assert_int_equal(t.size, (size_t)(64 * pg));
	/* an end already past: the first clock read, after 16 pages, stops it */
	assert_int_equal(mr_work(&t, now_monotonic() - 1, &slot), 0);
	assert_int_equal(slot.bytes, 16 * pg);
	/* a short time: whole passes and a part, in pages */
	slot.bytes = 0;
	assert_int_equal(mr_work(&t, now_monotonic() + 0.05, &slot), 0);
	assert_true(slot.bytes >= 16 * (uint64_t)pg);
	assert_int_equal(slot.bytes % (uint64_t)pg, 0);
	close(t.fd);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prepare_errors), cmocka_unit_test(pass_counts_pages),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
