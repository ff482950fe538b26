// SPDX-License-Identifier: GPL-2.0-or-later
/* The helper's cpio writer (net/cpio.c): the entries come out as asked --
 * names, types, modes, device numbers, contents, compressed sources stored
 * decompressed -- read back with libarchive; malformed entries are refused. */
#include "unit.h"
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "net/cpio.h"

struct got {
	char name[64];
	mode_t type;
	unsigned perm;
	dev_t rdev;
	char data[64];
};

/* Read path back: up to max entries into g; returns how many. */
static size_t read_back(const char *path, struct got *g, size_t max)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	size_t n = 0;

	archive_read_support_format_cpio(a);
	assert_int_equal(archive_read_open_filename(a, path, 4096), ARCHIVE_OK);
	while (n < max && archive_read_next_header(a, &e) == ARCHIVE_OK) {
		la_ssize_t r;

		memset(&g[n], 0, sizeof(g[n]));
		snprintf(g[n].name, sizeof(g[n].name), "%s", archive_entry_pathname(e));
		g[n].type = archive_entry_filetype(e);
		g[n].perm = archive_entry_perm(e);
		g[n].rdev = archive_entry_rdev(e);
		r = archive_read_data(a, g[n].data, sizeof(g[n].data) - 1);
		assert_true(r >= 0);
		n++;
	}
	archive_read_free(a);
	return n;
}

static void test_entries_round_trip(void **state)
{
	char *plain = unit_put("src/init", "#!/bin/sh\necho hi\n");
	char *gz = xasprintf("%s/src/mod.ko.gz", unit_tmp);
	char *out = xasprintf("%s/out.cpio", unit_tmp);
	/* gzip of "module bytes\n", made with `printf 'module bytes\n' | gzip -n` */
	static const unsigned char gzdata[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0xcd,
		0x4f, 0x29, 0xcd, 0x49, 0x55, 0x48, 0xaa, 0x2c, 0x49, 0x2d, 0xe6, 0x02,
		0x00, 0x8a, 0x90, 0x99, 0xfe, 0x0d, 0x00, 0x00, 0x00,
	};
	char *words[] = { "dir", "bin", "755", "chr", "dev/console", "600", "5", "1",
			  "file", "init", "755", plain, "file", "modules/00-mod.ko", "644", gz };
	struct strbuf err = STRBUF_INIT;
	struct got g[8];

	(void)state;
	assert_int_equal(write_file_atomic(gz, gzdata, sizeof(gzdata)), 0);
	assert_int_equal(cpio_write(out, words, ARRAY_SIZE(words), &err), 0);
	assert_int_equal(read_back(out, g, 8), 4);
	assert_string_equal(g[0].name, "bin");
	assert_int_equal(g[0].type, AE_IFDIR);
	assert_int_equal(g[0].perm, 0755);
	assert_string_equal(g[1].name, "dev/console");
	assert_int_equal(g[1].type, AE_IFCHR);
	assert_int_equal(g[1].perm, 0600);
	assert_int_equal(major(g[1].rdev), 5);
	assert_int_equal(minor(g[1].rdev), 1);
	assert_string_equal(g[2].name, "init");
	assert_string_equal(g[2].data, "#!/bin/sh\necho hi\n");
	assert_string_equal(g[3].name, "modules/00-mod.ko");
	assert_int_equal(g[3].perm, 0644);
	assert_string_equal(g[3].data, "module bytes\n");
	strbuf_release(&err);
	free(plain);
	free(gz);
	free(out);
}

static void refused(char **words, size_t n, const char *want)
{
	struct strbuf err = STRBUF_INIT;
	char *out = xasprintf("%s/bad.cpio", unit_tmp);

	assert_int_equal(cpio_write(out, words, n, &err), -1);
	if (!strstr(err.buf, want))
		fail_msg("error '%s' lacks '%s'", err.buf, want);
	strbuf_release(&err);
	free(out);
}

static void test_malformed_entries(void **state)
{
	char *kind[] = { "fifo", "x", "644" };
	char *mode[] = { "dir", "bin", "99" };
	char *abs[] = { "dir", "/bin", "755" };
	char *shortw[] = { "chr", "dev/null", "600", "1" };
	char *missing[] = { "file", "init", "755", "/nonexistent/init" };

	(void)state;
	refused(kind, ARRAY_SIZE(kind), "expected dir, chr or file");
	refused(mode, ARRAY_SIZE(mode), "malformed cpio entry 'dir bin");
	refused(abs, ARRAY_SIZE(abs), "malformed cpio entry 'dir /bin");
	refused(shortw, ARRAY_SIZE(shortw), "malformed cpio entry 'chr dev/null");
	refused(missing, ARRAY_SIZE(missing), "cannot read /nonexistent/init");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_round_trip),
		cmocka_unit_test(test_malformed_entries),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
