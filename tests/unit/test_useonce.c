// SPDX-License-Identifier: GPL-2.0-or-later
/* useonce's parts that need no root: the disk need and its check (a folder
 * not made yet answers by its parent; tmpfs refused), the data file (real
 * blocks, not holes; never over an existing file), the counter lookup, the
 * page-cache residency the streamer measures, and the streamer's passes run
 * in this process on a small file. */
#include "unit.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "workloads/useonce/data_file.h"
#include "workloads/useonce/tasks.h"

static void disk_need(void **state)
{
	(void)state;
	/* 1% and 16 MiB over the data, in whole MiB */
	assert_int_equal(uo_disk_need(64ULL << 20), 81ULL << 20);
	assert_int_equal(uo_disk_need(100ULL << 20), 117ULL << 20);
	assert_int_equal(uo_disk_need(1) % (1 << 20), 0);
	assert_true(uo_disk_need(1ULL << 40) > (1ULL << 40) + (1ULL << 40) / 100);
}

/* a folder of our own on a disk, or NULL (then the test is skipped) */
static char *disk_dir(void)
{
	char tmpl[] = "/var/tmp/lrubench-unit.XXXXXX";

	return mkdtemp(tmpl) ? strdup(tmpl) : NULL;
}

static void disk_check(void **state)
{
	struct strbuf err = STRBUF_INIT;
	char *dir = disk_dir(), *below;

	(void)state;
	if (!dir)
		skip();
	below = xasprintf("%s/not/made/yet", dir);
	assert_int_equal(uo_disk_check(below, 1 << 20, &err), WL_OK);
	assert_int_equal(uo_disk_check(below, 1ULL << 62, &err), WL_UNSUPPORTED);
	/* the folder, the need in bytes, what is free and where it was seen */
	assert_non_null(strstr(err.buf, below));
	assert_non_null(strstr(err.buf, "(4611686018427387904 bytes)"));
	assert_non_null(strstr(err.buf, "bytes) free"));
	assert_non_null(strstr(err.buf, dir));
	strbuf_reset(&err);
	if (access("/dev/shm", W_OK) == 0) {
		assert_int_equal(uo_disk_check("/dev/shm/lrubench-x", 1, &err), WL_UNSUPPORTED);
		assert_non_null(strstr(err.buf, "is on tmpfs"));
	}
	rmdir(dir);
	free(below);
	free(dir);
	strbuf_release(&err);
}

static void file_write(void **state)
{
	char *dir = disk_dir(), *path;
	struct stat st;
	double secs = -1;
	unsigned char *buf = malloc(1 << 20);
	size_t zero = 0;
	int fd;

	(void)state;
	if (!dir)
		skip();
	path = xasprintf("%s/data", dir);
	assert_int_equal(uo_file_write(path, (3u << 20) + 100, 1, &secs), WL_OK);
	assert_true(secs >= 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, (3u << 20) + 100);
	/* written blocks, not holes */
	assert_true((uint64_t)st.st_blocks * 512 >= (uint64_t)st.st_size);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, 1 << 20), 1 << 20);
	for (size_t i = 0; i < 1 << 20; i++)
		zero += !buf[i];
	assert_true(zero < 8192);   /* random bytes: about 1 in 256 is 0 */
	close(fd);
	/* never over a file that is there */
	assert_int_equal(uo_file_write(path, 1 << 20, 1, &secs), WL_FAILED);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, (3u << 20) + 100);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(buf);
}

static void stat_lookup(void **state)
{
	const char *text = "workingset_refault_anon 3\nworkingset_refault_file 42\npgactivate 7\n"
			   "workingset_refault 9\n";
	uint64_t v = 0;

	(void)state;
	assert_true(uo_stat_lookup(text, "workingset_refault_file", &v));
	assert_int_equal(v, 42);
	/* a key that is the start of another is matched whole */
	assert_true(uo_stat_lookup(text, "workingset_refault", &v));
	assert_int_equal(v, 9);
	assert_true(uo_stat_lookup(text, "pgactivate", &v));
	assert_int_equal(v, 7);
	assert_false(uo_stat_lookup(text, "pgdeactivate", &v));
	assert_false(uo_stat_lookup("", "pgactivate", &v));
}

/* the streamer's body in this process: every pass reads the whole file,
 * by read() in blocks that are not a page multiple and by mmap */
static void stream_passes(void **state)
{
	char *dir = disk_dir(), *path;
	struct uo_stream_result *res = calloc(1, sizeof(*res));
	double secs;
	uint64_t size = (1u << 20) + 4096 * 3;

	(void)state;
	if (!dir)
		skip();
	path = xasprintf("%s/data", dir);
	assert_int_equal(uo_file_write(path, size, 2, &secs), WL_OK);
	for (int mapped = 0; mapped < 2; mapped++) {
		struct uo_stream_arg a = { path, mapped, 5000, 3, NULL, res };

		memset(res, 0, sizeof(*res));
		assert_int_equal(uo_stream_main(&a), 0);
		assert_int_equal(res->err, 0);
		assert_int_equal(res->done, 3);
		for (int p = 0; p < 3; p++) {
			assert_int_equal(res->pass[p].bytes, size);
			assert_true(res->pass[p].elapsed > 0);
		}
		/* the cache state measured: every byte of a file this small is
		 * cached after a pass (the memcg here has no limit) */
		assert_true(res->resident_known);
		assert_int_equal(res->pass[2].resident_after, size);
		/* no memory.stat given: the machine's counters */
		assert_int_equal(res->source[UO_PGACTIVATE], UO_SRC_VMSTAT);
	}
	{
		struct uo_stream_arg a = { "/nonexistent/useonce", false, 4096, 1, NULL, res };

		memset(res, 0, sizeof(*res));
		assert_int_equal(uo_stream_main(&a), 1);
		assert_int_not_equal(res->err, 0);
		assert_int_equal(res->done, 0);
	}
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
	free(res);
}

/* mincore residency: nothing of a file written and dropped (on a disk:
 * tmpfs keeps its pages), every byte once read, the partial last page
 * counted by its bytes, and nothing again after POSIX_FADV_DONTNEED */
static void resident_bytes(void **state)
{
	char *dir = disk_dir(), *path, buf[4096];
	uint64_t size = (2u << 20) + 100, n = 1;
	struct statfs sf;
	double secs;
	bool disk;
	int fd;

	(void)state;
	if (!dir)
		skip();
	path = xasprintf("%s/data", dir);
	assert_int_equal(uo_file_write(path, size, 3, &secs), WL_OK);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstatfs(fd, &sf), 0);
	disk = sf.f_type != 0x01021994;   /* TMPFS_MAGIC */
	assert_int_equal(uo_resident_bytes(fd, size, &n), 0);
	if (disk)
		assert_int_equal(n, 0);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	assert_int_equal(uo_resident_bytes(fd, size, &n), 0);
	assert_int_equal(n, size);
	/* a prefix: whole pages of it */
	assert_int_equal(uo_resident_bytes(fd, 8192, &n), 0);
	assert_int_equal(n, 8192);
	if (disk) {
		assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
		assert_int_equal(uo_resident_bytes(fd, size, &n), 0);
		assert_true(n < size / 10);
	}
	/* not a file that can be mapped */
	{
		int p[2];

		assert_int_equal(pipe(p), 0);
		assert_int_equal(uo_resident_bytes(p[0], 4096, &n), -1);
		close(p[0]);
		close(p[1]);
	}
	close(fd);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disk_need),
		cmocka_unit_test(disk_check),
		cmocka_unit_test(file_write),
		cmocka_unit_test(stat_lookup),
		cmocka_unit_test(stream_passes),
		cmocka_unit_test(resident_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
