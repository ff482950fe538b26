// SPDX-License-Identifier: GPL-2.0-or-later
/* Sizes, times and lists as config files and --set spell them. */
#include "unit.h"
#include "core/util.h"
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <errno.h>

static void sizes(void **state)
{
	uint64_t b;
	(void)state;
	assert_int_equal(parse_size("4096", &b), 0); assert_int_equal(b, 4096);
	assert_int_equal(parse_size("64K", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("256M", &b), 0); assert_int_equal(b, 256ULL << 20);
	assert_int_equal(parse_size("1g", &b), 0); assert_int_equal(b, 1ULL << 30);
	assert_int_equal(parse_size("2GiB", &b), 0); assert_int_equal(b, 2ULL << 30);
	assert_int_equal(parse_size("1T", &b), 0); assert_int_equal(b, 1ULL << 40);
	assert_int_equal(parse_size("", &b), -1);
	assert_int_equal(parse_size("-1", &b), -1);
	assert_int_equal(parse_size("12Q", &b), -1);
	assert_int_equal(parse_size("1.5G", &b), -1);
	assert_int_equal(parse_size("M", &b), -1);
	assert_int_equal(parse_size("99999999999999999999", &b), -1);
	assert_int_equal(parse_size("17179869184T", &b), -1);   /* overflows 64 bits */
	assert_int_equal(parse_size("16777215T", &b), 0);       /* the largest in T */
	assert_int_equal(b, 16777215ULL << 40);
	/* "i" and "B" only after a unit: a plain number is bytes, nothing more */
	assert_int_equal(parse_size("64KB", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("64kb", &b), 0); assert_int_equal(b, 65536);
	assert_int_equal(parse_size("1gib", &b), 0); assert_int_equal(b, 1ULL << 30);
	assert_int_equal(parse_size("5i", &b), -1);
	assert_int_equal(parse_size("5B", &b), -1);
	assert_int_equal(parse_size("1Gx", &b), -1);
	assert_int_equal(parse_size("0", &b), 0); assert_int_equal(b, 0);
}

static void whole_numbers(void **state)
{
	unsigned long long v;
	(void)state;
	assert_int_equal(parse_ull("0", &v), 0); assert_int_equal(v, 0);
	assert_int_equal(parse_ull("18446744073709551615", &v), 0);
	assert_true(v == 18446744073709551615ULL);
	assert_int_equal(parse_ull("18446744073709551616", &v), -1);   /* ERANGE */
	assert_int_equal(parse_ull("12abc", &v), -1);
	assert_int_equal(parse_ull("-1", &v), -1);   /* strtoull would say ULLONG_MAX */
	assert_int_equal(parse_ull("+1", &v), -1);
	assert_int_equal(parse_ull(" 1", &v), -1);
	assert_int_equal(parse_ull("", &v), -1);
	assert_int_equal(parse_ull(NULL, &v), -1);
}

static void times(void **state)
{
	double s;
	(void)state;
	assert_int_equal(parse_seconds("30", &s), 0); assert_true(s == 30);
	assert_int_equal(parse_seconds("30s", &s), 0); assert_true(s == 30);
	assert_int_equal(parse_seconds("2m", &s), 0); assert_true(s == 120);
	assert_int_equal(parse_seconds("1h", &s), 0); assert_true(s == 3600);
	assert_int_equal(parse_seconds("500ms", &s), 0); assert_true(s == 0.5);
	assert_int_equal(parse_seconds("1.5s", &s), 0); assert_true(s == 1.5);
	assert_int_equal(parse_seconds("-1", &s), -1);
	assert_int_equal(parse_seconds("10x", &s), -1);
	assert_int_equal(parse_seconds("", &s), -1);
	assert_int_equal(parse_seconds("2min", &s), 0); assert_true(s == 120);
	assert_int_equal(parse_seconds(".5", &s), 0); assert_true(s == 0.5);
	assert_int_equal(parse_seconds("1e999", &s), -1);
	assert_int_equal(parse_seconds("5 s", &s), -1);
	assert_int_equal(parse_seconds("1hour", &s), -1);
}

static void lists(void **state)
{
	unsigned long long v[64];
	size_t n;
	(void)state;
	assert_int_equal(parse_ull_list("1,2,4", v, 64, &n), 0);
	assert_int_equal(n, 3); assert_int_equal(v[2], 4);
	assert_int_equal(parse_ull_list("1-4", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[3], 4);
	assert_int_equal(parse_ull_list("1-32:x2", v, 64, &n), 0);
	assert_int_equal(n, 6); assert_int_equal(v[5], 32);
	/* the doubling that misses the top ends on the top */
	assert_int_equal(parse_ull_list("1-12:x2", v, 64, &n), 0);
	assert_int_equal(n, 5); assert_int_equal(v[3], 8); assert_int_equal(v[4], 12);
	assert_int_equal(parse_ull_list(" 1 , 3 ", v, 64, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(parse_ull_list("", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1,,2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("4-1", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("a", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-100", v, 64, &n), -1);   /* too many */
	assert_int_equal(parse_ull_list("0-8:x2", v, 64, &n), -1);
	/* a range of one */
	assert_int_equal(parse_ull_list("4-4", v, 64, &n), 0);
	assert_int_equal(n, 1); assert_int_equal(v[0], 4);
	assert_int_equal(parse_ull_list("4-4:x2", v, 64, &n), 0);
	assert_int_equal(n, 1); assert_int_equal(v[0], 4);
	/* doubling that lands on the top: 1,2,4,...,64 */
	assert_int_equal(parse_ull_list("1-64:x2", v, 64, &n), 0);
	assert_int_equal(n, 7); assert_int_equal(v[0], 1); assert_int_equal(v[6], 64);
	assert_int_equal(parse_ull_list("3-100:x4", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[2], 48); assert_int_equal(v[3], 100);
	/* ranges and items mixed, in the order given */
	assert_int_equal(parse_ull_list("8,1-3", v, 64, &n), 0);
	assert_int_equal(n, 4); assert_int_equal(v[0], 8); assert_int_equal(v[3], 3);
	/* a step needs a range and is at least x2 */
	assert_int_equal(parse_ull_list("4:x2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("4-4:x1", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-8:2", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("1-", v, 64, &n), -1);
	assert_int_equal(parse_ull_list("-1", v, 64, &n), -1);
}

/* max is the size of the caller's array: never one entry more */
static void list_bounds(void **state)
{
	unsigned long long v[8];
	size_t n;
	(void)state;
	for (size_t i = 0; i < 8; i++)
		v[i] = 999;
	assert_int_equal(parse_ull_list("1-4", v, 4, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 4);
	assert_int_equal(v[4], 999);
	assert_int_equal(parse_ull_list("1-5", v, 4, &n), -1);
	assert_int_equal(v[4], 999);
	assert_int_equal(parse_ull_list("1,2,3,4,5", v, 4, &n), -1);
	assert_int_equal(v[4], 999);
}

static void strbufs(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char b[32];
	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_true(!strncmp(sb.buf, "0,1,2,", 6));
	strbuf_release(&sb);
	format_size(256ULL << 20, b, sizeof(b)); assert_string_equal(b, "256M");
	format_size(1000, b, sizeof(b)); assert_string_equal(b, "1000");
	format_size(3ULL << 30, b, sizeof(b)); assert_string_equal(b, "3G");
	format_size(1ULL << 40, b, sizeof(b)); assert_string_equal(b, "1T");
	format_size(1ULL << 50, b, sizeof(b)); assert_string_equal(b, "1024T");
	format_size(0, b, sizeof(b)); assert_string_equal(b, "0");
	format_size(1024, b, sizeof(b)); assert_string_equal(b, "1K");
	format_size(1536, b, sizeof(b)); assert_string_equal(b, "1536");
	format_size(1ULL << 20, b, sizeof(b)); assert_string_equal(b, "1M");
	format_size(3ULL << 39, b, sizeof(b)); assert_string_equal(b, "1536G");
}

static void atomic_write(void **state)
{
	char dir[] = "/tmp/lrubench-unit.XXXXXX", *path, *back;
	size_t len;
	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/a/b", dir);
	assert_int_equal(mkdir_p(path, 0755), 0);
	free(path);
	path = xasprintf("%s/a/b/c.json", dir);
	assert_int_equal(write_file_atomic(path, "{}\n", 3), 0);
	back = read_file_str(path, &len);
	assert_non_null(back);
	assert_int_equal(len, 3);
	free(back);
	assert_int_equal(remove_tree(dir), 0);
	assert_false(path_exists(dir));
	free(path);
}

/* A log of lines "line1".."line<n>" under unit_tmp. */
static char *numbered_log(const char *name, int n)
{
	struct strbuf sb = STRBUF_INIT;
	char *path;

	for (int i = 1; i <= n; i++)
		strbuf_addf(&sb, "line%d\n", i);
	path = unit_put(name, sb.buf);
	strbuf_release(&sb);
	return path;
}

static void file_tails(void **state)
{
	char *path = unit_put("tail.log", "one\ntwo\nthree\nfour\n");
	struct strbuf t = STRBUF_INIT;

	(void)state;
	file_tail(path, 2, &t);
	assert_string_equal(t.buf, "three\nfour");
	strbuf_reset(&t);
	file_tail(path, 10, &t);
	assert_string_equal(t.buf, "one\ntwo\nthree\nfour");
	strbuf_reset(&t);
	file_tail("/nonexistent/file", 3, &t);
	assert_string_equal(strbuf_str(&t), "");
	file_tail(unit_tmp, 3, &t);   /* a folder is no log */
	assert_string_equal(strbuf_str(&t), "");
	strbuf_release(&t);
	free(path);
}

/* a serial console's \r\n and escape sequences do not reach the terminal */
static void file_tail_is_printable(void **state)
{
	char *path = unit_put("console.log", "boot\r\n\x1b[31mred\x1b[0m\r\ntab\there\r\n");
	struct strbuf t = STRBUF_INIT;

	(void)state;
	file_tail(path, 2, &t);
	assert_string_equal(t.buf, "?[31mred?[0m\ntab\there");
	strbuf_release(&t);
	free(path);
}

/* a log of megabytes: the tail still comes from its end */
static void file_tail_of_a_large_log(void **state)
{
	char *path = numbered_log("large.log", 300000);   /* ~3.3 MB */
	struct strbuf t = STRBUF_INIT;

	(void)state;
	file_tail(path, 3, &t);
	assert_string_equal(t.buf, "line299998\nline299999\nline300000");
	strbuf_release(&t);
	free(path);
}

/* error_with_log: the message, then exactly the last LOG_TAIL_LINES lines */
static void error_with_log_shows_the_tail(void **state)
{
	char *log = numbered_log("long.log", LOG_TAIL_LINES + 5);
	char *want = xasprintf("lrubench: error: initdb went wrong; last lines of %s:\nline6\n", log);
	char *msg, *last = xasprintf("line%d\n", LOG_TAIL_LINES + 5);

	(void)state;
	capture_start();
	assert_int_equal(error_with_log(log, "initdb %s", "went wrong"), -1);
	msg = capture_end();
	assert_true(!strncmp(msg, want, strlen(want)));
	assert_null(strstr(msg, "line5\n"));
	assert_int_equal(strlen(msg) - strlen(last), (size_t)(strstr(msg, last) - msg));
	free(msg);
	free(want);
	free(last);
	free(log);
}

static void error_with_log_without_a_tail(void **state)
{
	char *empty = unit_put("empty.log", "");
	char *msg, *want = xasprintf("lrubench: error: x failed (log %s)\n", empty);

	(void)state;
	capture_start();
	error_with_log(empty, "x failed");
	error_with_log(NULL, "y failed");
	msg = capture_end();
	assert_true(!strncmp(msg, want, strlen(want)));
	assert_string_equal(msg + strlen(want), "lrubench: error: y failed\n");
	free(msg);
	free(want);
	free(empty);
}

/* issue 12: only regular files, never a symlink with READ_NOFOLLOW, a cap */
static void regular_files(void **state)
{
	char dir[] = "/tmp/lrubench-unit.XXXXXX", *p, *text;
	struct strbuf err = STRBUF_INIT;
	size_t len;
	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/f.json", dir);
	assert_int_equal(write_file_atomic(p, "0123456789", 10), 0);
	text = read_regular_file(p, 10, READ_NOFOLLOW, &len, &err);
	assert_non_null(text);
	assert_int_equal(len, 10);
	free(text);
	/* one byte over the cap */
	assert_null(read_regular_file(p, 9, 0, &len, &err));
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err.buf, "larger than 9B"));
	strbuf_reset(&err);
	free(p);
	/* a FIFO: an error at once, not a blocked open */
	p = xasprintf("%s/fifo.json", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_null(read_regular_file(p, 100, 0, &len, &err));
	assert_non_null(strstr(err.buf, "it is a FIFO"));
	strbuf_reset(&err);
	free(p);
	/* a symlink to a device: refused as a symlink, or as a device when followed */
	p = xasprintf("%s/zero.json", dir);
	assert_int_equal(symlink("/dev/zero", p), 0);
	assert_null(read_regular_file(p, 100, READ_NOFOLLOW, &len, &err));
	assert_int_equal(errno, ELOOP);
	assert_non_null(strstr(err.buf, "symbolic link"));
	strbuf_reset(&err);
	assert_null(read_regular_file(p, 100, 0, &len, &err));
	assert_non_null(strstr(err.buf, "it is a device"));
	strbuf_reset(&err);
	assert_null(read_file_str(p, &len));
	free(p);
	assert_null(read_regular_file(dir, 100, 0, &len, &err));
	assert_non_null(strstr(err.buf, "it is a folder"));
	/* /proc files say size 0 and are read to their end */
	text = read_file_str("/proc/self/status", &len);
	assert_non_null(text);
	assert_true(len > 0);
	free(text);
	strbuf_release(&err);
	assert_int_equal(remove_tree(dir), 0);
}

/* a symlink planted at the temp name is replaced, never written through */
static void atomic_write_planted_symlink(void **state)
{
	char dir[] = "/tmp/lrubench-unit.XXXXXX", *path, *tmp, *victim, *back;
	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/out.xml", dir);
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	victim = xasprintf("%s/victim", dir);
	assert_int_equal(write_file_atomic(victim, "keep", 4), 0);
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(write_file_atomic(path, "new", 3), 0);
	back = read_file_str(victim, NULL);
	assert_string_equal(back, "keep");
	free(back);
	back = read_file_str(path, NULL);
	assert_string_equal(back, "new");
	free(back);
	assert_false(path_exists(tmp));
	assert_int_equal(remove_tree(dir), 0);
	free(path);
	free(tmp);
	free(victim);
}

/*
 * Issue 30 (high 2): output files never replace what is not a regular file.
 * A FIFO is written in place (a reader sees the bytes, the FIFO stays), a
 * symlink (to a file), a folder and a socket are refused untouched, and a
 * regular file is still replaced atomically.
 */
static void atomic_write_only_replaces_regular_files(void **state)
{
	char dir[] = "/tmp/lrubench-unit.XXXXXX", *fifo, *link, *victim, *sub, *back;
	struct stat st;
	char got[16] = "";
	int rfd;
	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = xasprintf("%s/fifo", dir);
	link = xasprintf("%s/link", dir);
	victim = xasprintf("%s/victim", dir);
	sub = xasprintf("%s/sub", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* O_RDWR: a reader end that never blocks, so the write below can finish */
	rfd = open(fifo, O_RDWR | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(write_file_atomic(fifo, "to fifo", 7), 0);
	assert_int_equal(read(rfd, got, sizeof(got) - 1), 7);
	assert_string_equal(got, "to fifo");
	close(rfd);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* a symlink to a file: neither written through nor replaced */
	assert_int_equal(write_file_atomic(victim, "keep", 4), 0);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(write_file_atomic(link, "new", 3), -1);
	back = read_file_str(victim, NULL);
	assert_string_equal(back, "keep");
	free(back);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	/* a folder stays a folder */
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(write_file_atomic(sub, "x", 1), -1);
	assert_true(is_dir(sub));
	/* a null device of our own (1:3, as root): written in place, still the
	 * device afterwards (the machine's /dev/null is never put at risk) */
	{
		char *nul = xasprintf("%s/null", dir);

		if (!mknod(nul, S_IFCHR | 0666, makedev(1, 3))) {
			assert_int_equal(write_file_atomic(nul, "x", 1), 0);
			assert_int_equal(lstat(nul, &st), 0);
			assert_true(S_ISCHR(st.st_mode));
		}
		free(nul);
	}
	assert_int_equal(remove_tree(dir), 0);
	free(fifo);
	free(link);
	free(victim);
	free(sub);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes), cmocka_unit_test(whole_numbers), cmocka_unit_test(times),
		cmocka_unit_test(lists), cmocka_unit_test(list_bounds),
		cmocka_unit_test(strbufs), cmocka_unit_test(atomic_write),
		cmocka_unit_test(regular_files), cmocka_unit_test(atomic_write_planted_symlink),
		cmocka_unit_test(atomic_write_only_replaces_regular_files),
		cmocka_unit_test(file_tails), cmocka_unit_test(file_tail_is_printable),
		cmocka_unit_test(file_tail_of_a_large_log), cmocka_unit_test(error_with_log_shows_the_tail),
		cmocka_unit_test(error_with_log_without_a_tail),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
