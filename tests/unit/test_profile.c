// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The profile parsers and computations (src/profile/), on output captured
 * from the real perf 6.1.187 on the CI machine and on hand-written older or
 * odd formats (tests/fixtures/profile/README says which is which). The
 * lock_stat fallback is tested on fixtures only: CONFIG_LOCK_STAT is off on
 * the CI kernel, so there is no /proc/lock_stat to read.
 */
#include "unit.h"
#include <math.h>
#include "core/results.h"
#include "profile/caps.h"
#include "profile/cpu_split.h"
#include "profile/lock_stat.h"
#include "profile/lru_locks.h"
#include "profile/perf_cpu.h"
#include "profile/perf_lock.h"
#include "profile/perf_stat.h"
#include "profile/reclaim.h"

static char *load(const char *name)
{
	char *rel = xasprintf("profile/%s", name), *buf = unit_fixture(rel, NULL);

	free(rel);
	return buf;
}

/* ---- the LRU lock table ---- */

static void test_caller_function(void **state)
{
	char fn[128];

	(void)state;
	assert_string_equal(lru_caller_function("folio_batch_move_lru+0x88", fn, sizeof(fn)),
			    "folio_batch_move_lru");
	assert_string_equal(lru_caller_function("__page_cache_release.part.0+0x58", fn, sizeof(fn)),
			    "__page_cache_release");
	assert_string_equal(lru_caller_function("shrink_inactive_list.isra.0.cold+0x1", fn, sizeof(fn)),
			    "shrink_inactive_list");
	assert_string_equal(lru_caller_function("__mutex_lock.constprop.0+0x200", fn, sizeof(fn)),
			    "__mutex_lock");
	/* a name that merely contains a dot stays whole */
	assert_string_equal(lru_caller_function("foo.bar", fn, sizeof(fn)), "foo.bar");
	assert_string_equal(lru_caller_function("0xffffffff81234567", fn, sizeof(fn)),
			    "0xffffffff81234567");
	/* truncation keeps the string terminated */
	assert_string_equal(lru_caller_function("folio_batch_move_lru", fn, 6), "folio");
}

static void test_lru_callers(void **state)
{
	static const char *const lru[] = {
		"folio_batch_move_lru+0x88", "__page_cache_release.part.0+0x58",
		"pagevec_lru_move_fn+0x91", "__pagevec_lru_add+0x10", "lru_add_drain_cpu+0x4",
		"lru_add_drain", "release_pages+0x1c9", "folio_lruvec_lock_irqsave+0x2a",
		"lock_page_lruvec_irq+0x1", "isolate_lru_folios+0x3", "isolate_lru_pages+0x3",
		"shrink_active_list+0x10", "shrink_inactive_list.isra.0+0x11c",
		"move_folios_to_lru+0x2", "move_pages_to_lru+0x2", "evict_folios+0x3",
	};
	static const char *const other[] = {
		"do_user_addr_fault+0x14a", "list_lru_add_obj+0x77", "__alloc_frozen_pages_noprof+0x173",
		"exit_to_user_mode_loop+0x51", "folio_batch_move", "lru_add", "",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lru); i++)
		if (!lru_is_lru_caller(lru[i]))
			fail_msg("%s should be an LRU lock caller", lru[i]);
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		if (lru_is_lru_caller(other[i]))
			fail_msg("%s should not be an LRU lock caller", other[i]);
	assert_true(lru_is_lru_class("&lruvec->lru_lock"));
	assert_true(lru_is_lru_class("&pgdat->lru_lock"));
	assert_false(lru_is_lru_class("&mm->mmap_lock-W"));
	assert_false(lru_is_lru_class("&zone->lock"));
	/* every entry says where it was checked */
	for (size_t i = 0; i < lru_lock_names_count; i++) {
		assert_non_null(lru_lock_names[i].checked);
		assert_true(strlen(lru_lock_names[i].checked) > 3);
	}
}

/* ---- perf lock contention ---- */

static void test_perf_lock_real_output(void **state)
{
	char *text = load("perf-6.1.187-lock-contention.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;
	struct lru_lock_summary s;
	size_t rows;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "6.1.187", &r, &err), 0);
	rows = r.n;
	assert_int_equal(rows, 139);
	assert_string_equal(r.e[0].type, "rwsem:R");   /* the first row of the fixture */
	assert_int_equal(r.bad, -1);
	/* one row per call stack: merged, one per function and type */
	lock_report_merge(&r);
	assert_true(r.n < rows);
	lock_report_lru(&r, &s);
	/* independently summed with awk over the folio_batch_move_lru and
	 * __page_cache_release rows of the fixture */
	assert_int_equal(s.contended, 97);
	assert_near(s.wait_total_ms, 0.4509);
	assert_near(s.wait_max_ms, 0.03198);
	assert_int_equal(s.callers, 2);
	/* sorted by total wait, largest first */
	for (size_t i = 1; i < r.n; i++)
		assert_true(r.e[i - 1].wait_total_ns >= r.e[i].wait_total_ns);
	{
		json_object *top = lock_report_top_json(&r, 5), *e, *v;
		assert_int_equal(json_object_array_length(top), 5);
		e = json_object_array_get_idx(top, 0);
		assert_true(json_object_object_get_ex(e, "caller", &v));
		assert_null(strchr(json_object_get_string(v), '+'));
		json_object_put(top);
	}
	lock_report_release(&r);
	free(text);
	strbuf_release(&err);
}

/* perf lock contention -v: the lock taker from each row's call stack */
static void test_perf_lock_real_verbose(void **state)
{
	char *text = load("perf-6.1.187-lock-contention-v.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;
	struct lru_lock_summary s;
	bool saw_shrink_node = false, saw_filemap = false;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "6.1.187", &r, &err), 0);
	assert_int_equal(r.n, 249);
	for (size_t i = 0; i < r.n; i++) {
		/* perf names shrink_node; the stack says shrink_lruvec took lru_lock */
		if (!strcmp(r.e[i].function, "shrink_node") && r.e[i].taker &&
		    !strcmp(r.e[i].taker, "shrink_lruvec")) {
			assert_true(r.e[i].lru);
			saw_shrink_node = true;
		}
		/* the page cache's own lock is not an LRU lock */
		if (!strcmp(r.e[i].function, "filemap_add_folio") && r.e[i].taker &&
		    !strcmp(r.e[i].taker, "__filemap_add_folio")) {
			assert_false(r.e[i].lru);
			saw_filemap = true;
		}
	}
	assert_true(saw_shrink_node);
	assert_true(saw_filemap);
	lock_report_merge(&r);
	lock_report_lru(&r, &s);
	/* an independent Python reading of the fixture, same rule: 210, 1.33173 ms */
	assert_int_equal(s.contended, 210);
	assert_near(s.wait_total_ms, 1.33173);
	lock_report_release(&r);
	free(text);
	strbuf_release(&err);
	/* a stack line with no row above it is an error */
	assert_int_equal(perf_lock_parse(" contended   total wait     max wait     avg wait         type   caller\n\n"
					 "\t\t\t0xffffffff822014be  __pv_queued_spin_lock_slowpath+0x10e\n",
					 "6.1.187", &r, &err), -1);
	assert_non_null(strstr(err.buf, "before any row"));
	strbuf_release(&err);
}

static void test_perf_lock_raw_ns(void **state)
{
	char *text = load("perf-6.0-raw-ns.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;
	struct lru_lock_summary s;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "6.0.0", &r, &err), 0);
	assert_int_equal(r.n, 4);
	assert_near(r.e[0].wait_total_ns, 48113042);
	lock_report_merge(&r);
	lock_report_lru(&r, &s);
	assert_int_equal(s.contended, 2310 + 1200 + 9);
	assert_near(s.wait_total_ms, (48113042.0 + 20011000 + 81003) / 1e6);
	assert_near(s.wait_max_ms, 0.201118);
	assert_int_equal(s.callers, 3);
	lock_report_release(&r);
	free(text);
	strbuf_release(&err);
}

static void test_perf_lock_footer_units_types(void **state)
{
	char *text = load("perf-debug-footer.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;
	struct lru_lock_summary s;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "6.12", &r, &err), 0);
	assert_int_equal(r.n, 5);
	assert_near(r.e[0].wait_total_ns, 1.02 * 60e9);
	assert_string_equal(r.e[1].type, "rwsem:R");
	assert_string_equal(r.e[2].type, "mutex:spin");
	assert_near(r.e[3].wait_total_ns, 31000);
	assert_near(r.e[4].wait_max_ns, 400);
	assert_string_equal(r.e[4].name, "0xffffffff81234567");
	assert_int_equal(r.bad, 12);
	assert_int_equal(r.total, 214624);
	lock_report_merge(&r);
	lock_report_lru(&r, &s);
	assert_int_equal(s.contended, 201522 + 77);
	assert_near(s.wait_total_ms, 61200.031);
	assert_near(s.wait_max_ms, 2310);
	lock_report_release(&r);
	free(text);
	strbuf_release(&err);
}

static void test_perf_lock_garbled(void **state)
{
	char *text = load("perf-garbled.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "6.1.187", &r, &err), -1);
	/* names perf's version, the line number and the line */
	assert_non_null(strstr(err.buf, "perf 6.1.187"));
	assert_non_null(strstr(err.buf, "line 4"));
	assert_non_null(strstr(err.buf, "garbage"));
	assert_non_null(strstr(err.buf, "expected a time"));
	assert_null(r.e);
	free(text);
	strbuf_release(&err);
}

static void test_perf_lock_bad_header_and_empty(void **state)
{
	char *text = load("perf-unknown-column.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_report r;

	(void)state;
	assert_int_equal(perf_lock_parse(text, "9.9", &r, &err), -1);
	assert_non_null(strstr(err.buf, "perf 9.9"));
	assert_non_null(strstr(err.buf, "line 1"));
	assert_non_null(strstr(err.buf, "p99 wait"));
	strbuf_reset(&err);
	assert_int_equal(perf_lock_parse("", "6.1.187", &r, &err), -1);
	assert_non_null(strstr(err.buf, "empty"));
	strbuf_reset(&err);
	assert_int_equal(perf_lock_parse("lock contention evsel not found\n", NULL, &r, &err), -1);
	assert_non_null(strstr(err.buf, "no header"));
	assert_non_null(strstr(err.buf, "unknown version"));
	strbuf_reset(&err);
	/* caller mode is required: an address-mode header is refused */
	assert_int_equal(perf_lock_parse(" contended   total wait          address   symbol\n", "6.8",
					 &r, &err), -1);
	strbuf_reset(&err);
	/* a header with no rows: no contention at all is a valid answer */
	assert_int_equal(perf_lock_parse(" contended   total wait     max wait     avg wait         type   caller\n\n",
					 "6.1.187", &r, &err), 0);
	assert_int_equal(r.n, 0);
	lock_report_release(&r);
	free(text);
	strbuf_release(&err);
}

/* ---- lock_stat ---- */

static void test_lock_stat_diff(void **state)
{
	char *b = load("lock_stat-before.txt"), *a = load("lock_stat-after.txt");
	struct strbuf err = STRBUF_INIT;
	struct lock_stat_snapshot sb, sa;
	struct lock_report r;
	struct lru_lock_summary s;

	(void)state;
	assert_int_equal(lock_stat_parse(b, &sb, &err), 0);
	assert_int_equal(sb.n, 4);
	assert_string_equal(sb.c[0].name, "&lruvec->lru_lock");
	assert_string_equal(sb.c[1].name, "&mm->mmap_lock-W");
	assert_int_equal(sb.c[0].contentions, 8134);
	assert_near(sb.c[0].wait_total_us, 10234.77);
	assert_int_equal(lock_stat_parse(a, &sa, &err), 0);
	lock_stat_diff(&sb, &sa, &r);
	/* only what changed: the LRU lock and the zone lock, not mmap_lock */
	assert_int_equal(r.n, 2);
	lock_report_merge(&r);
	lock_report_lru(&r, &s);
	assert_int_equal(s.contended, 2500);
	assert_near(s.wait_total_ms, 5.0);
	assert_near(s.wait_max_ms, 0.09654);
	assert_string_equal(r.e[0].type, "class");
	lock_report_release(&r);
	lock_stat_release(&sb);
	lock_stat_release(&sa);
	assert_int_equal(lock_stat_parse("lock_stat version 1.0\n", &sb, &err), -1);
	assert_non_null(strstr(err.buf, "1.0"));
	strbuf_reset(&err);
	assert_int_equal(lock_stat_parse("something else\n", &sb, &err), -1);
	assert_non_null(strstr(err.buf, "lock_stat version"));
	free(a);
	free(b);
	strbuf_release(&err);
}

/* ---- perf report (the cpu profile) ---- */

static void test_perf_cpu_report(void **state)
{
	char *text = load("perf-6.1.187-report-cpu.txt");
	struct strbuf err = STRBUF_INIT;
	struct cpu_profile p;

	(void)state;
	assert_int_equal(perf_cpu_parse(text, "6.1.187", &p, &err), 0);
	assert_int_equal(p.n, 106);
	/* awk over the fixture: the [k] spin-lock symbols add up to 0.12% */
	assert_near(p.spin_pct, 0.12);
	assert_near(p.s[0].pct, 7.62);
	assert_string_equal(p.s[0].symbol, "bfd_link_hash_traverse");
	assert_int_equal(p.s[0].where, '.');
	cpu_profile_release(&p);
	assert_int_equal(perf_cpu_parse("    12.00%  [k] native_queued_spin_lock_slowpath\n"
					"     3.00%  [k] _raw_spin_lock_irq\n"
					"     2.00%  [.] _raw_spin_lock\n", "6.1", &p, &err), 0);
	assert_near(p.spin_pct, 15.0);   /* user-space symbols never count */
	cpu_profile_release(&p);
	assert_int_equal(perf_cpu_parse("# header\n    12.00   [k] x\n", "6.1.187", &p, &err), -1);
	assert_non_null(strstr(err.buf, "perf 6.1.187 report, line 2"));
	free(text);
	strbuf_release(&err);
}

/* ---- perf stat (profile = counters) ---- */

/* The PMU fixture is written by hand in the shape of published captures
 * (tests/fixtures/profile/README): no machine here has a PMU. */
static void test_perf_stat_pmu(void **state)
{
	char *text = load("perf-stat-pmu.csv");
	struct strbuf err = STRBUF_INIT;
	struct perf_stat_report r;
	double v;

	(void)state;
	assert_int_equal(perf_stat_parse(text, &r, &err), 0);
	/* the value-less "stalled cycles per insn" line is a metric, not an event */
	assert_int_equal(r.n, 6);
	assert_string_equal(r.ev[0].name, "cycles");
	assert_true(perf_stat_value(&r, "instructions", &v));
	assert_near(v, 3120551234.0);
	assert_near(r.ev[3].running_pct, 80.12);   /* cache-misses, multiplexed */
	assert_false(perf_stat_value(&r, "dTLB-load-misses", &v));
	assert_string_equal(r.ev[5].why, "not counted");
	assert_false(perf_stat_value(&r, "no-such-event", &v));
	free(text);
	strbuf_release(&err);
}

/* captured here: this VM has no PMU, perf counts only software events */
static void test_perf_stat_no_pmu(void **state)
{
	char *text = load("perf-6.1.187-stat-no-pmu.csv");
	struct strbuf err = STRBUF_INIT;
	struct perf_stat_report r;
	json_object *j;
	double v;

	(void)state;
	assert_int_equal(perf_stat_parse(text, &r, &err), 0);
	assert_int_equal(r.n, 5);
	assert_true(perf_stat_value(&r, "task-clock", &v));
	assert_near(v, 2559.71);
	assert_string_equal(r.ev[0].unit, "msec");
	assert_false(perf_stat_value(&r, "cycles", &v));
	assert_string_equal(r.ev[2].why, "not supported");
	j = perf_stat_json(&r);
	assert_non_null(strstr(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN), "\"cycles\":\"not supported\""));
	json_object_put(j);
	free(text);
	strbuf_release(&err);
}

static void test_perf_stat_bad(void **state)
{
	char *text = load("perf-stat-garbled.csv");
	struct strbuf err = STRBUF_INIT;
	struct perf_stat_report r;

	(void)state;
	assert_int_equal(perf_stat_parse(text, &r, &err), -1);
	assert_non_null(strstr(err.buf, "line 2: the count of 'instructions' is not a number"));
	strbuf_reset(&err);
	assert_int_equal(perf_stat_parse("# started on x\n\n", &r, &err), -1);
	assert_non_null(strstr(err.buf, "holds no counter"));
	strbuf_reset(&err);
	/* an event name that is not perf's spelling (would become a table title) */
	assert_int_equal(perf_stat_parse("1,,cyc\x1b]8;;x,1,100.00,,\n", &r, &err), -1);
	assert_non_null(strstr(err.buf, "line 1:"));
	assert_null(strchr(err.buf, '\x1b'));
	strbuf_reset(&err);
	assert_int_equal(perf_stat_parse("1,,cycles\n", &r, &err), -1);
	assert_int_equal(perf_stat_parse("-5,,cycles,1,100.00,,\n", &r, &err), -1);
	free(text);
	strbuf_release(&err);
}

/* ---- CPU split ---- */

static const char procstat[] =
	"cpu  1000 10 500 9000 50 5 20 3 0 0\n"
	"cpu0 400 5 200 4000 20 2 10 1 0 0\n"
	"cpu1 300 5 100 3000 20 2 5 1 0 0\n"
	"cpu2 300 0 200 2000 10 1 5 1 0 0\n"
	"intr 12345 0 0\n"
	"ctxt 999\n";

static void test_procstat(void **state)
{
	struct cpu_times t;
	cpu_set_t set;
	int n;

	(void)state;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(2, &set);
	assert_int_equal(procstat_sum(procstat, &set, 100, &t, &n), 0);
	assert_int_equal(n, 2);
	assert_near(t.user, 7.0);
	assert_near(t.nice, 0.05);
	assert_near(t.system, 4.0);
	assert_near(t.iowait, 0.3);
	assert_near(t.irq, 0.03);
	assert_near(t.softirq, 0.15);
	assert_near(t.steal, 0.02);
	assert_int_equal(procstat_sum(procstat, NULL, 100, &t, &n), 0);
	assert_near(t.user, 10.0);
	CPU_ZERO(&set);
	CPU_SET(7, &set);
	assert_int_equal(procstat_sum(procstat, &set, 100, &t, &n), -1);
}

static void test_cgroup_cpu_files(void **state)
{
	double u, s;
	char *mounts, *m;

	(void)state;
	assert_int_equal(cgroup2_cpu_stat_parse("usage_usec 3000000\nuser_usec 1000000\nsystem_usec 2500000\n"
						"nice_usec 0\n", &u, &s), 0);
	assert_near(u, 1.0);
	assert_near(s, 2.5);
	assert_int_equal(cgroup2_cpu_stat_parse("usage_usec 3\n", &u, &s), -1);
	assert_int_equal(cpuacct_stat_parse("user 31097\nsystem 25815\n", 100, &u, &s), 0);
	assert_near(u, 310.97);
	assert_near(s, 258.15);
	mounts = unit_put("mounts",
			  "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
			  "cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0\n"
			  "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n");
	m = cpuacct_mount(mounts);
	assert_non_null(m);
	assert_string_equal(m, "/sys/fs/cgroup/cpuacct");
	free(m);
	free(mounts);
	mounts = unit_put("mounts2", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"
			  "cgroup /x/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n");
	m = cpuacct_mount(mounts);
	assert_string_equal(m, "/x/cpu,cpuacct");
	free(m);
	free(mounts);
	mounts = unit_put("mounts3", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n");
	assert_null(cpuacct_mount(mounts));
	free(mounts);
}

static void test_cpu_split_compute(void **state)
{
	struct cpu_sample b = { 0 }, a = { 0 };
	struct cpu_split sp;

	(void)state;
	b.t = 10;
	a.t = 12;                       /* 2 s on 2 CPUs: 4 CPU-seconds = 100% */
	b.ncpus = a.ncpus = 2;
	a.st.user = 1.0;
	a.st.nice = 0.2;
	a.st.system = 2.0;
	a.st.irq = 0.04;
	a.st.softirq = 0.08;
	a.st.iowait = 0.4;
	assert_int_equal(cpu_split_compute(&b, &a, &sp), 0);
	assert_false(sp.from_cgroup);
	assert_near(sp.user, 30.0);
	assert_near(sp.sys, 50.0);
	assert_near(sp.irq, 1.0);
	assert_near(sp.softirq, 2.0);
	assert_near(sp.iowait, 10.0);
	/* a cgroup source replaces user and sys, not irq or iowait */
	b.have_cg = a.have_cg = true;
	b.cg_user = 5;
	a.cg_user = 5.4;
	b.cg_sys = 1;
	a.cg_sys = 1.8;
	assert_int_equal(cpu_split_compute(&b, &a, &sp), 0);
	assert_true(sp.from_cgroup);
	assert_near(sp.user, 10.0);
	assert_near(sp.sys, 20.0);
	assert_near(sp.iowait, 10.0);
	/* samples that cannot be compared */
	a.ncpus = 0;
	assert_int_equal(cpu_split_compute(&b, &a, &sp), -1);
	a.ncpus = 2;
	a.t = b.t;
	assert_int_equal(cpu_split_compute(&b, &a, &sp), -1);
}

/* ---- reclaim counters and fairness ---- */

static void test_reclaim_alternatives(void **state)
{
	struct counters new_k, old_k;
	unsigned long long v;
	const struct reclaim_rate *scan = NULL, *refault = NULL;

	(void)state;
	for (size_t i = 0; i < reclaim_rates_count; i++) {
		if (!strcmp(reclaim_rates[i].name, "pgscan"))
			scan = &reclaim_rates[i];
		if (!strcmp(reclaim_rates[i].name, "workingset_refault"))
			refault = &reclaim_rates[i];
	}
	assert_non_null(scan);
	assert_non_null(refault);
	counters_parse("pgscan_kswapd 10\npgscan_direct 5\npgscan_anon 3\npgscan_file 12\n"
		       "workingset_refault_anon 1\nworkingset_refault_file 7\nbogus line\n", &new_k);
	counters_parse("pgscan_kswapd 10\npgscan_direct 5\nworkingset_refault 9\n", &old_k);
	/* 5.8 and later: anon + file; before: kswapd + direct */
	assert_true(reclaim_value(scan->vmstat, &new_k, &v));
	assert_int_equal(v, 15);
	assert_true(reclaim_value(scan->vmstat, &old_k, &v));
	assert_int_equal(v, 15);
	assert_true(reclaim_value(refault->vmstat, &new_k, &v));
	assert_int_equal(v, 8);
	assert_true(reclaim_value(refault->vmstat, &old_k, &v));
	assert_int_equal(v, 9);
	/* cgroup v1 memory.stat has no pgscan: no value, so no table */
	assert_false(reclaim_value(scan->memcg, &old_k, &v));
	counters_release(&new_k);
	counters_release(&old_k);
}

static void test_jain(void **state)
{
	double eq[] = { 5, 5, 5, 5 }, one[] = { 8, 0, 0, 0 }, mix[] = { 1, 2, 3 }, zero[] = { 0, 0 };

	(void)state;
	assert_near(jain_index(eq, 4), 1.0);
	assert_near(jain_index(one, 4), 0.25);
	assert_near(jain_index(mix, 3), 36.0 / 42.0);
	assert_near(jain_index(mix, 1), 1.0);
	assert_near(jain_index(zero, 2), 0.0);
}

/* ---- small things ---- */

static void test_perf_version(void **state)
{
	char v[64];

	(void)state;
	perf_version_parse("perf version 6.1.187\n", v, sizeof(v));
	assert_string_equal(v, "6.1.187");
	perf_version_parse("perf version 6.8.g1a2b3c (some build)\n", v, sizeof(v));
	assert_string_equal(v, "6.8.g1a2b3c");
	perf_version_parse("WARNING: perf not found for kernel 6.18\n", v, sizeof(v));
	assert_string_equal(v, "");
	assert_string_equal(profile_kind_names[PROFILE_ALL], "all");
}

static void test_results_explains_round_trip(void **state)
{
	struct wl_result r = { 0 }, back;
	struct strbuf err = STRBUF_INIT;
	json_object *o;
	const struct result_table *t;

	(void)state;
	r.workload = xstrdup("readtwice");
	result_table_add(wl_result_table(&r, "readtwice MB/s aggregate", "MB/s", BETTER_HIGHER), "memcgs-1", 1);
	result_table_add(wl_result_explaining_table(&r, "readtwice sys CPU %", "%", BETTER_LOWER), "memcgs-1", 2);
	o = wl_result_to_json(&r);
	assert_int_equal(wl_result_from_json(o, "x.json", &back, &err), 0);
	t = wl_result_find_table(&back, "readtwice MB/s aggregate");
	assert_false(t->explains);
	t = wl_result_find_table(&back, "readtwice sys CPU %");
	assert_true(t->explains);
	wl_result_release(&back);
	/* a wrong type is an error naming the place */
	{
		json_object *tables, *t1;
		json_object_object_get_ex(o, "tables", &tables);
		t1 = json_object_array_get_idx(tables, 1);
		json_object_object_add(t1, "explains", json_object_new_string("yes"));
		assert_int_equal(wl_result_from_json(o, "x.json", &back, &err), -1);
		assert_non_null(strstr(err.buf, "tables[1].explains"));
	}
	json_object_put(o);
	wl_result_release(&r);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caller_function),
		cmocka_unit_test(test_lru_callers),
		cmocka_unit_test(test_perf_lock_real_output),
		cmocka_unit_test(test_perf_stat_pmu),
		cmocka_unit_test(test_perf_stat_no_pmu),
		cmocka_unit_test(test_perf_stat_bad),
		cmocka_unit_test(test_perf_lock_real_verbose),
		cmocka_unit_test(test_perf_lock_raw_ns),
		cmocka_unit_test(test_perf_lock_footer_units_types),
		cmocka_unit_test(test_perf_lock_garbled),
		cmocka_unit_test(test_perf_lock_bad_header_and_empty),
		cmocka_unit_test(test_lock_stat_diff),
		cmocka_unit_test(test_perf_cpu_report),
		cmocka_unit_test(test_procstat),
		cmocka_unit_test(test_cgroup_cpu_files),
		cmocka_unit_test(test_cpu_split_compute),
		cmocka_unit_test(test_reclaim_alternatives),
		cmocka_unit_test(test_jain),
		cmocka_unit_test(test_perf_version),
		cmocka_unit_test(test_results_explains_round_trip),
	};

	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
