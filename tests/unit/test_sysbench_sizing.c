// SPDX-License-Identifier: GPL-2.0-or-later
/* The sysbench sizing rules (workloads/sysbench/sizing.h): a pure function
 * of the machine's facts, checked on the posted shape, on this one's, under
 * a memcg limit, and where the machine cannot hold the rule's size; and
 * mmtests' MAX_TRANSACTIONS=auto curve against the counts mmtests' own
 * pipeline (gnuplot 5.4 "smooth cspline", awk, perl) printed for the same
 * points. */
#include "unit.h"
#include "core/config.h"
#include "workloads/sysbench/driver.h"
#include "workloads/sysbench/sizing.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

/* every key auto, one table, no limit */
static struct sb_size_in all_auto(uint64_t machine, int nodes, uint64_t available)
{
	struct sb_size_in in = {
		.node_mem = machine / (uint64_t)nodes, .machine_mem = machine,
		.node_name = nodes > 1 ? "node 1" : NULL, .mem_available = available,
		.workload_size = LB_SIZE_AUTO, .shared_buffers = LB_SIZE_AUTO,
		.effective_cache_size = LB_SIZE_AUTO, .tables = 1, .events = LB_AUTO,
	};
	return in;
}

static enum wl_status size_of(const struct sb_size_in *in, struct sb_sizing *out, struct strbuf *err)
{
	strbuf_reset(err);
	return sb_size(in, out, err);
}

/* The posted machine (000-18): 251 GB over two nodes, bound to node 1. The
 * rule gives the posted MEMTOTAL_BYTES*3/8, /8, /4 of the machine. */
static void test_posted_shape(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	uint64_t machine = 251 * GiB;
	struct sb_size_in in = all_auto(machine, 2, 240 * GiB);
	struct sb_sizing s;

	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_int_equal(s.memory, machine / 2);
	assert_string_equal(s.memory_from, "node 1 MemTotal");
	assert_true(s.workload_auto && s.shared_buffers_auto && s.effective_cache_size_auto && s.events_auto);
	/* 3/4 of the node in whole MiB = 3/8 of the machine, the posted line */
	assert_int_equal(s.workload_size, machine / 2 / 4 * 3 / MiB * MiB);
	assert_int_equal(s.workload_size, s.posted_text);
	assert_int_equal(s.shared_buffers, machine / 8);
	assert_int_equal(s.effective_cache_size, machine / 4);
	assert_int_equal(s.table_rows, s.workload_size / MiB * SB_ROWS_PER_MB);
	/* the tables and the shared buffers' copies fill the node, as posted */
	assert_true(s.workload_size + s.shared_buffers <= s.memory);
	assert_true(s.workload_size + s.shared_buffers > s.memory - 2 * MiB);
	/* the work per run that ran: sysbench 0.4.12's default; the curve's count
	 * of mmtests' pipeline for these fractions is recorded beside it */
	assert_int_equal(s.events, SB_AUTO_EVENTS);
	assert_int_equal(s.mmtests_curve, 174243);
	strbuf_release(&err);
}

/* One node (this machine's shape): the relation to the run's memory is kept,
 * so the posted line's 3/8 of MemTotal is half of what the rule gives. */
static void test_one_node(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	uint64_t machine = 24683548ULL * 1024;   /* MemTotal: 24683548 kB */
	struct sb_size_in in = all_auto(machine, 1, 20 * GiB);
	struct sb_sizing s;

	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_string_equal(s.memory_from, "MemTotal");
	assert_int_equal(s.workload_size, machine / 4 * 3 / MiB * MiB);
	assert_int_equal(s.workload_size % MiB, 0);
	assert_int_equal(s.shared_buffers, machine / 4 / MiB * MiB);
	assert_int_equal(s.effective_cache_size, machine / 2 / MiB * MiB);
	assert_int_equal(s.posted_text, machine / 8 * 3 / MiB * MiB);
	assert_true(s.posted_text < s.workload_size / 2 + MiB && s.posted_text + MiB > s.workload_size / 2);
	/* mmtests' curve for 3/4, 1/4, 1/2 of MemTotal (its medium config; the
	 * whole MiB move it from the exact fractions' 223911, as gnuplot shows) */
	assert_int_equal(s.mmtests_curve, 223908);
	strbuf_release(&err);
}

/* memcg_limit below the node's memory is the rule's base; above it, not. */
static void test_memcg_limit(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct sb_size_in in = all_auto(64 * GiB, 1, 60 * GiB);
	struct sb_sizing s;

	in.memcg_limit = 128 * MiB;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_string_equal(s.memory_from, "memcg_limit");
	assert_int_equal(s.memory, 128 * MiB);
	assert_int_equal(s.workload_size, 96 * MiB);
	assert_int_equal(s.shared_buffers, 32 * MiB);
	assert_int_equal(s.effective_cache_size, 64 * MiB);
	assert_int_equal(s.table_rows, 96 * SB_ROWS_PER_MB);

	in.memcg_limit = 100 * GiB;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_string_equal(s.memory_from, "MemTotal");
	assert_int_equal(s.memory, 64 * GiB);
	assert_int_equal(s.workload_size, 48 * GiB);
	strbuf_release(&err);
}

/* Values given are kept as given, and said so; events 0 is fixed time. */
static void test_configured(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct sb_size_in in = all_auto(24 * GiB, 1, 1 * GiB);
	struct sb_sizing s;
	json_object *j, *v;

	in.workload_size = 2 * GiB;   /* more than MemAvailable: allowed when given */
	in.shared_buffers = 64 * MiB;
	in.effective_cache_size = 1 * GiB;
	in.tables = 4;
	in.events = 0;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_false(s.workload_auto || s.shared_buffers_auto || s.effective_cache_size_auto || s.events_auto);
	assert_int_equal(s.workload_size, 2 * GiB);
	assert_int_equal(s.table_rows, 2048 * SB_ROWS_PER_MB / 4);
	assert_int_equal(s.shared_buffers, 64 * MiB);
	assert_int_equal(s.events, 0);
	j = sb_sizing_json(&s);
	assert_true(json_object_object_get_ex(j, "workload_size", &v));
	assert_string_equal(json_object_get_string(json_object_object_get(v, "rule")), "as configured");
	assert_true(json_object_object_get_ex(j, "events", &v));
	assert_string_equal(json_object_get_string(json_object_object_get(v, "rule")),
			    "none: runs of a fixed time");
	json_object_put(j);

	in.events = 5000;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	assert_int_equal(s.events, 5000);
	strbuf_release(&err);
}

/* Exit 3: the machine cannot hold the rule's size, with the numbers; exit 2:
 * values that cannot go together, naming the key. */
static void test_refusals(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT;
	struct sb_size_in in = all_auto(24 * GiB, 1, 10 * GiB);
	struct sb_sizing s;

	/* 18G of tables, 10G available */
	assert_int_equal(size_of(&in, &s, &err), WL_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "sysbench.workload_size = auto cannot run here"));
	assert_non_null(strstr(err.buf, "3/4 of MemTotal 24G is 18G of tables, more than MemAvailable 10G"));
	/* MemAvailable unknown (0): not checked */
	in.mem_available = 0;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);

	/* a given size larger than the node */
	in = all_auto(24 * GiB, 2, 20 * GiB);
	in.workload_size = 13 * GiB;
	assert_int_equal(size_of(&in, &s, &err), WL_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "sysbench.workload_size: 13G is bigger than the memory of the "
				       "NUMA node (12G): it cannot run here"));

	/* the node's memory unknown: auto cannot size, given sizes can run */
	in = all_auto(24 * GiB, 1, 20 * GiB);
	in.node_mem = 0;
	assert_int_equal(size_of(&in, &s, &err), WL_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "the auto sizes cannot run here"));
	in.workload_size = in.shared_buffers = in.effective_cache_size = 64 * MiB;
	assert_int_equal(size_of(&in, &s, &err), WL_OK);

	/* a limit too small for the rule's least table */
	in = all_auto(24 * GiB, 1, 20 * GiB);
	in.memcg_limit = 1 * MiB;
	assert_int_equal(size_of(&in, &s, &err), WL_BAD_CONFIG);
	assert_non_null(strstr(err.buf, "sysbench.workload_size = auto: 3/4 of memcg_limit 1M is below "
				       "the 1M minimum"));
	assert_non_null(strstr(err.buf, "sysbench.memcg_limit"));

	/* more tables than rows */
	in = all_auto(24 * GiB, 1, 20 * GiB);
	in.workload_size = 1 * MiB;
	in.tables = 5000;
	assert_int_equal(size_of(&in, &s, &err), WL_BAD_CONFIG);
	assert_non_null(strstr(err.buf, "sysbench.workload_size: 1M is too small for 5000 tables"));
	strbuf_release(&err);
}

/* What run.json keeps and the plan prints. */
static void test_records(void **state)
{
	(void)state;
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct sb_size_in in = all_auto(251 * GiB, 2, 251 * GiB);
	struct sb_sizing s;
	json_object *j, *v;

	assert_int_equal(size_of(&in, &s, &err), WL_OK);
	j = sb_sizing_json(&s);
	assert_int_equal(json_object_get_int64(json_object_object_get(j, "memory")), (int64_t)s.memory);
	assert_string_equal(json_object_get_string(json_object_object_get(j, "memory_from")),
			    "node 1 MemTotal");
	v = json_object_object_get(j, "workload_size");
	assert_int_equal(json_object_get_int64(json_object_object_get(v, "bytes")), (int64_t)s.workload_size);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "rule")),
			    "3/4 x memory, whole MiB");
	assert_int_equal(json_object_get_int64(json_object_object_get(j, "rows_per_table")),
			 (int64_t)s.table_rows);
	v = json_object_object_get(j, "events");
	assert_int_equal(json_object_get_int64(json_object_object_get(v, "count")), 10000);
	assert_int_equal(json_object_get_int64(json_object_object_get(v, "mmtests_curve")), 174243);
	assert_non_null(strstr(json_object_get_string(json_object_object_get(v, "rule")),
			       "--max-requests=10000"));
	json_object_put(j);

	sb_sizing_describe(&s, "  ", &text);
	assert_non_null(strstr(text.buf, "  memory the run may use: node 1 MemTotal 128512M\n"));
	assert_non_null(strstr(text.buf, "  workload_size = 96384M (auto: 3/4 x memory): 1 table x "
				        "433728000 rows\n"));
	assert_non_null(strstr(text.buf, "shared_buffers = 32128M (auto: 1/4), effective_cache_size = "
					 "64256M (auto: 1/2)\n"));
	assert_non_null(strstr(text.buf, "events = auto: 10000 transactions a run"));
	assert_non_null(strstr(text.buf, "mmtests' curve gives 174243 here"));
	/* on the posted shape the posted line is the rule: no note */
	assert_null(strstr(text.buf, "the posted line"));
	strbuf_release(&text);
	strbuf_release(&err);
}

/* The curve, against the count mmtests' pipeline printed (gnuplot 5.4,
 * awk, perl int, FLOOR) for the same points: unsorted points, points of one
 * x, a workload past the last point (awk prints nothing: FLOOR). */
static void test_mmtests_curve(void **state)
{
	(void)state;
	uint64_t mt = 25275953152ULL;

	assert_int_equal(sb_mmtests_curve_count(mt / 8, mt / 4, mt, mt * 3 / 8), 174243);
	assert_int_equal(sb_mmtests_curve_count(mt / 4, mt / 2, mt, mt * 3 / 4), 223911);
	assert_int_equal(sb_mmtests_curve_count(mt / 8, mt / 4, mt, mt / 16), 358866);
	assert_int_equal(sb_mmtests_curve_count(mt / 4, mt / 2, mt, mt * 7 / 4), 21098);
	assert_int_equal(sb_mmtests_curve_count(mt / 4, mt / 2, mt, mt), 188514);
	assert_int_equal(sb_mmtests_curve_count(mt / 2, mt / 4, mt, mt * 3 / 8), 373669);
	assert_int_equal(sb_mmtests_curve_count(mt, mt / 4, mt, mt / 2), 375998);
	assert_int_equal(sb_mmtests_curve_count(mt / 8, mt / 8, mt, mt / 8), 383661);
	assert_int_equal(sb_mmtests_curve_count(mt / 4, mt / 2, mt, mt / 1000), 288257);
	assert_int_equal(sb_mmtests_curve_count(mt / 8, mt / 4, mt, mt * 9), 1000);
	/* the fractions decide, not the size: the posted 251 GB gives the same */
	assert_int_equal(sb_mmtests_curve_count(269505888256ULL / 8, 269505888256ULL / 4, 269505888256ULL,
						269505888256ULL * 3 / 8), 174243);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_posted_shape),
		cmocka_unit_test(test_one_node),
		cmocka_unit_test(test_memcg_limit),
		cmocka_unit_test(test_configured),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_mmtests_curve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
