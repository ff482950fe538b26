// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure parts of the sysbench driver: thread stride, table sizing,
 * postgresql.conf block, postmaster.pid status, bindir discovery on a fake
 * tree, sysbench argv, log tails. */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>
#include "workloads/sysbench/driver.h"

static void expect_list(unsigned max, const unsigned long long *want, size_t n)
{
	struct ull_list l;

	sb_thread_stride(max, &l);
	if (l.n != n)
		fail_msg("max %u: %zu entries, want %zu", max, l.n, n);
	for (size_t i = 0; i < n; i++)
		if (l.v[i] != want[i])
			fail_msg("max %u: entry %zu is %llu, want %llu", max, i, l.v[i], want[i]);
}

static void test_stride(void **state)
{
	(void)state;
	/* mmtests threads_huge_stride_begin: seq 1 2 max (< 8); 1 4 7, 12 18 ..
	 * (8..31); 1 5, 12 21 30, 48 79 .. (>= 32); max always last */
	expect_list(1, (unsigned long long[]){ 1 }, 1);
	expect_list(2, (unsigned long long[]){ 1, 2 }, 2);
	expect_list(4, (unsigned long long[]){ 1, 3, 4 }, 3);
	expect_list(7, (unsigned long long[]){ 1, 3, 5, 7 }, 4);
	expect_list(8, (unsigned long long[]){ 1, 4, 7, 8 }, 4);
	/* the seed's machine: NUMCPUS/2 = 20 -> the 18 and 20 of the thread */
	expect_list(20, (unsigned long long[]){ 1, 4, 7, 12, 18, 20 }, 6);
	expect_list(40, (unsigned long long[]){ 1, 5, 12, 21, 30, 40 }, 6);
	expect_list(112, (unsigned long long[]){ 1, 5, 12, 21, 30, 48, 79, 110, 112 }, 9);

	struct ull_list l;
	sb_thread_stride(4000, &l);
	assert_int_equal(l.n, LB_LIST_MAX);
	assert_int_equal(l.v[l.n - 1], 4000);
	sb_thread_stride(0, &l);
	assert_int_equal(l.n, 0);
}

static void test_rows(void **state)
{
	(void)state;
	assert_int_equal(sb_table_rows(100ULL << 20, 1), 450000);
	assert_int_equal(sb_table_rows(100ULL << 20, 4), 112500);
	assert_int_equal(sb_table_rows((1ULL << 20) - 1, 1), 0);
	assert_int_equal(sb_table_rows(1ULL << 30, 0), 0);
}

static void test_conf(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	struct pg_conf c = {
		.shared_buffers = 3ULL << 30, .effective_cache_size = 6ULL << 30,
		.work_mem = 32 << 20, .max_connections = 110, .port = 5434,
		.socket_dir = "/var/tmp/lrubench/run-1/sysbench/pg",
	};

	pg_format_conf(&sb, &c);
	assert_non_null(strstr(sb.buf, "\nshared_buffers = 3145728kB\n"));
	assert_non_null(strstr(sb.buf, "\neffective_cache_size = 6291456kB\n"));
	assert_non_null(strstr(sb.buf, "\nwork_mem = 32768kB\n"));
	assert_non_null(strstr(sb.buf, "\nmax_connections = 110\n"));
	assert_non_null(strstr(sb.buf, "\nport = 5434\n"));
	assert_non_null(strstr(sb.buf, "\nlisten_addresses = '127.0.0.1'\n"));
	assert_non_null(strstr(sb.buf, "\nunix_socket_directories = '/var/tmp/lrubench/run-1/sysbench/pg'\n"));
	strbuf_release(&sb);
}

static void test_pidfile(void **state)
{
	(void)state;
	char st[32];
	const char *ready = "123\n/d\n1700000000\n5433\n/s\n127.0.0.1\n  5433001     32769\nready   \n";
	const char *starting = "123\n/d\n1700000000\n5433\n/s\n127.0.0.1\n  5433001     32769\nstarting\n";
	const char *partial = "123\n/d\n1700000000\n5433\n/s\n127.0.0.1\n";
	const char *cut = "123\n/d\n1700000000\n5433\n/s\n127.0.0.1\n  5433001     32769\nrea";

	pg_pidfile_status(ready, st, sizeof(st));
	assert_string_equal(st, "ready");
	pg_pidfile_status(starting, st, sizeof(st));
	assert_string_equal(st, "starting");
	pg_pidfile_status(partial, st, sizeof(st));
	assert_string_equal(st, "");
	pg_pidfile_status(cut, st, sizeof(st));
	assert_string_equal(st, "");
	pg_pidfile_status(NULL, st, sizeof(st));
	assert_string_equal(st, "");
}

static void mk(const char *root, const char *rel, bool exec)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (exec) {
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fclose(f);
		chmod(p, 0755);
	} else {
		assert_int_equal(mkdir_p(p, 0755), 0);
	}
}

static void test_find_bindir(void **state)
{
	(void)state;
	char root[] = "/tmp/lrubench-unit-pg.XXXXXX", out[PATH_MAX];
	struct strbuf why = STRBUF_INIT;

	assert_non_null(mkdtemp(root));
	assert_int_equal(pg_find_bindir(root, out, sizeof(out)), -1);
	mk(root, "9.6/bin", false);
	mk(root, "9.6/bin/postgres", true);
	mk(root, "13/bin", false);
	mk(root, "13/bin/postgres", true);
	mk(root, "16/bin", false);      /* client-only install: no server */
	mk(root, "16/bin/psql", true);
	mk(root, "notaversion/bin", false);
	mk(root, "notaversion/bin/postgres", true);
	assert_int_equal(pg_find_bindir(root, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "/13/bin"));

	assert_int_equal(pg_check_bindir(out, &why), -1);   /* no initdb, psql */
	assert_non_null(strstr(why.buf, "initdb"));
	strbuf_reset(&why);
	mk(root, "13/bin/initdb", true);
	mk(root, "13/bin/psql", true);
	assert_int_equal(pg_check_bindir(out, &why), 0);
	assert_int_equal(pg_check_bindir("/nonexistent/pg/bin", &why), -1);
	assert_non_null(strstr(why.buf, "No such file"));
	strbuf_release(&why);
	remove_tree(root);
}

static void test_argv(void **state)
{
	(void)state;
	struct sb_cmd c = {
		.test = "oltp_read_only", .command = "run", .host = "/w/pg", .port = 5434,
		.user = "sbtest", .db = "sbtest", .tables = 2, .table_size = 1000,
		.threads = 4, .time = 2.6,
	};
	struct strlist v = STRLIST_INIT;
	struct strbuf all = STRBUF_INIT;

	sb_argv(&c, &v);
	for (size_t i = 0; v.v[i]; i++)
		strbuf_addf(&all, "%s%s", i ? " " : "", v.v[i]);
	assert_string_equal(all.buf,
		"sysbench oltp_read_only --db-driver=pgsql --pgsql-host=/w/pg --pgsql-port=5434 "
		"--pgsql-user=sbtest --pgsql-db=sbtest --tables=2 --table-size=1000 --threads=4 "
		"--time=3 --events=0 --percentile=95 --report-interval=0 run");
	strlist_release(&v);
	strbuf_reset(&all);
	c.command = "prepare";
	sb_argv(&c, &v);
	for (size_t i = 0; v.v[i]; i++)
		strbuf_addf(&all, "%s%s", i ? " " : "", v.v[i]);
	assert_null(strstr(all.buf, "--time"));
	assert_non_null(strstr(all.buf, "--threads=4 prepare"));
	strlist_release(&v);
	strbuf_reset(&all);
	/* a fixed transaction count: no time limit, the time is the result */
	c.command = "run";
	c.events = 5000;
	sb_argv(&c, &v);
	for (size_t i = 0; v.v[i]; i++)
		strbuf_addf(&all, "%s%s", i ? " " : "", v.v[i]);
	assert_non_null(strstr(all.buf, " --threads=4 --time=0 --events=5000 --percentile=95 "));
	assert_null(strstr(all.buf, "--events=0"));
	strlist_release(&v);
	strbuf_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_pidfile),
		cmocka_unit_test(test_find_bindir),
		cmocka_unit_test(test_argv),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
