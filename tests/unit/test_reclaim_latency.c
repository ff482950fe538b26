// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile = reclaim without a kernel: the log-bucket histogram and its
 * percentiles (core/latency_hist.c), the pairing of begin/end lines of
 * the raw trace_pipe per task (profile/reclaim_latency.c), the bounded
 * reader of the histograms in results files, and which pairs a tracefs
 * folder has (a fake events tree under the scratch folder).
 */
#include "unit.h"
#include <math.h>
#include "core/latency_hist.h"
#include "core/results.h"
#include "profile/caps.h"
#include "profile/reclaim_latency.h"

static void test_buckets_edges(void **state)
{
	(void)state;
	assert_int_equal(lhist_bucket(0), 0);
	assert_int_equal(lhist_bucket(0.999), 0);
	assert_int_equal(lhist_bucket(NAN), 0);
	assert_int_equal(lhist_bucket(1), 1);
	for (size_t i = 1; i + 1 < LHIST_NBUCKETS; i++) {
		/* every edge starts the next bucket; the value just below stays */
		assert_int_equal(lhist_bucket(lhist_hi(i)), i + 1);
		assert_int_equal(lhist_bucket(lhist_lo(i)), i);
		assert_int_equal(lhist_bucket(nextafter(lhist_hi(i), 0)), i);
		assert_true(lhist_hi(i) / lhist_lo(i) < 1.0906);
	}
	assert_int_equal(lhist_bucket(1e30), LHIST_NBUCKETS - 1);
}

static void test_percentiles(void **state)
{
	struct lhist h;
	double p50, p99;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_true(lhist_percentile(&h, 0.5) == 0);
	for (int v = 1; v <= 100; v++)
		lhist_add(&h, v);
	assert_int_equal(h.count, 100);
	assert_true(h.max_us == 100);
	p50 = lhist_percentile(&h, 0.50);
	p99 = lhist_percentile(&h, 0.99);
	/* an upper bound within one bucket (2^(1/8)) of the exact value */
	assert_true(p50 >= 50 && p50 <= 50 * 1.0906);
	assert_true(p99 >= 99 && p99 <= 100);   /* clamped to the maximum */
	assert_true(lhist_percentile(&h, 1.0) == 100);
	/* one slow stall among fast ones: p50 stays low, the max says it */
	memset(&h, 0, sizeof(h));
	for (int k = 0; k < 999; k++)
		lhist_add(&h, 3);
	lhist_add(&h, 50000);
	assert_true(lhist_percentile(&h, 0.5) <= 3 * 1.0906);
	assert_true(lhist_percentile(&h, 0.99) <= 3 * 1.0906);
	assert_true(lhist_percentile(&h, 1.0) == 50000);
}

static void feed(struct rl_state *s, const char *line)
{
	rl_feed_line(s, line, strlen(line));
}

/* ids as a kernel numbers them: begin/end of memcg reclaim and shrink_slab */
static void setup_ids(struct rl_state *s)
{
	rl_state_init(s);
	rl_state_set_id(s, 636, 1, false);
	rl_state_set_id(s, 633, 1, true);
	rl_state_set_id(s, 631, 3, false);
	rl_state_set_id(s, 630, 3, true);
}

static void test_pairing(void **state)
{
	struct rl_state s;

	(void)state;
	setup_ids(&s);
	/* two tasks interleaved, shrink_slab nested in memcg reclaim */
	feed(&s, "100 0 1000000 type: 636");
	feed(&s, "200 1 1000500 type: 636");
	feed(&s, "100 0 1001000 type: 631");
	feed(&s, "100 0 1003000 type: 630");       /* 2 us of shrink_slab */
	feed(&s, "200 1 1010500 type: 633");       /* 200: 10 us */
	feed(&s, "  100 0 1020000 type: 633");     /* 100: 20 us */
	assert_int_equal(s.hist[1].count, 2);
	assert_int_equal(s.hist[3].count, 1);
	assert_true(fabs(s.hist[1].max_us - 20) < 1e-9);
	assert_true(fabs(s.hist[3].max_us - 2) < 1e-9);
	assert_true(fabs(s.hist[1].sum_us - 30) < 1e-9);
	assert_int_equal(s.unpaired, 0);
	assert_int_equal(s.events, 6);
	/* an end whose begin came before tracing; a begin never ended */
	feed(&s, "300 0 2000000 type: 633");
	assert_int_equal(s.unpaired, 1);
	feed(&s, "300 0 2000100 type: 636");
	feed(&s, "300 0 2000200 type: 636");
	assert_int_equal(s.unpaired, 2);
	feed(&s, "300 0 2000700 type: 633");       /* the second begin: 0.5 us */
	assert_int_equal(s.hist[1].count, 3);
	assert_int_equal(s.hist[1].b[0], 1);
	/* an end before its begin (clock skew) pairs nothing */
	feed(&s, "400 0 5000 type: 636");
	feed(&s, "400 0 4000 type: 633");
	assert_int_equal(s.unpaired, 3);
	assert_int_equal(s.hist[1].count, 3);
	/* lost events, foreign ids, garbage */
	feed(&s, "CPU:1 [LOST 42 EVENTS]");
	feed(&s, "CPU:0 [LOST EVENTS]");
	assert_int_equal(s.lost, 43);
	feed(&s, "500 0 6000 type: 999");
	assert_int_equal(s.bad_lines, 0);
	feed(&s, "500 0 type: 636");
	feed(&s, "pid cpu ts");
	feed(&s, "99999999999 0 1 type: 636");
	feed(&s, "# tracer: nop");
	assert_int_equal(s.bad_lines, 3);
	assert_int_equal(s.hist[1].count, 3);
	rl_state_release(&s);
}

static void test_pair_json_tasks(void **state)
{
	struct rl_state s;
	char line[128];
	json_object *o, *tasks, *t0, *v;

	(void)state;
	setup_ids(&s);
	/* 15 tasks, task k stalls k*10 us: the top 10 are 15..6, longest first */
	for (int k = 1; k <= 15; k++) {
		snprintf(line, sizeof(line), "%d 0 %d type: 636", 1000 + k, k * 100000);
		feed(&s, line);
		snprintf(line, sizeof(line), "%d 0 %d type: 633", 1000 + k, k * 100000 + k * 10000);
		feed(&s, line);
	}
	o = rl_pair_json(&s, 1);
	assert_true(json_object_object_get_ex(o, "count", &v) && json_object_get_int(v) == 15);
	assert_true(json_object_object_get_ex(o, "name", &v));
	assert_string_equal(json_object_get_string(v), "memcg reclaim");
	assert_true(json_object_object_get_ex(o, "tasks", &tasks));
	assert_int_equal(json_object_array_length(tasks), RL_TOP_TASKS);
	t0 = json_object_array_get_idx(tasks, 0);
	assert_true(json_object_object_get_ex(t0, "pid", &v) && json_object_get_int(v) == 1015);
	assert_true(json_object_object_get_ex(t0, "max_us", &v) && fabs(json_object_get_double(v) - 150) < 1e-9);
	v = json_object_object_get(json_object_array_get_idx(tasks, RL_TOP_TASKS - 1), "pid");
	assert_int_equal(json_object_get_int(v), 1006);
	assert_true(json_object_object_get_ex(o, "max_us", &v) && fabs(json_object_get_double(v) - 150) < 1e-9);
	json_object_put(o);
	rl_state_release(&s);
}

static uint64_t jint(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return (uint64_t)json_object_get_int64(v);
}

/* kswapd: wake (balance_pgdat) .. sleep, a wake while awake continues the
 * period; kcompactd: wake .. sleep, its lone sleeps (timeouts, proactive
 * rounds) are its normal; the wakeups are counted, they have no end */
static void test_kswapd_kcompactd(void **state)
{
	struct rl_state s;
	json_object *o;
	unsigned ksw = RL_NPAIRS, kcd = RL_NPAIRS;

	(void)state;
	for (unsigned i = 0; i < RL_NPAIRS; i++) {
		if (!strcmp(rl_pairs[i].begin, "mm_vmscan_kswapd_wake"))
			ksw = i;
		if (!strcmp(rl_pairs[i].begin, "mm_compaction_kcompactd_wake"))
			kcd = i;
	}
	assert_true(ksw < RL_NPAIRS && kcd < RL_NPAIRS);
	assert_string_equal(rl_pairs[ksw].end, "mm_vmscan_kswapd_sleep");
	assert_string_equal(rl_pairs[kcd].end, "mm_compaction_kcompactd_sleep");
	rl_state_init(&s);
	rl_state_set_id(&s, 500, ksw, false);
	rl_state_set_id(&s, 501, ksw, true);
	rl_state_set_id(&s, 600, kcd, false);
	rl_state_set_id(&s, 601, kcd, true);
	rl_state_set_event_id(&s, 502, 0);
	rl_state_set_event_id(&s, 602, 1);
	/* kswapd 77: awake before tracing began: its sleep is unpaired */
	feed(&s, "77 0 1000000 type: 501");
	assert_int_equal(s.unpaired, 1);
	assert_int_equal(s.lone_ends[ksw], 1);
	/* woken (counted in the waker, 300), three rounds, then asleep: one period of 3 ms */
	feed(&s, "300 1 2000000 type: 502");
	feed(&s, "77 0 2000100 type: 500");
	feed(&s, "77 0 3000100 type: 500");   /* a nap cut short: the next round */
	feed(&s, "77 0 4000100 type: 500");
	feed(&s, "77 0 5000100 type: 501");
	assert_int_equal(s.hist[ksw].count, 1);
	assert_true(fabs(s.hist[ksw].max_us - 3000) < 1e-9);
	assert_int_equal(s.begins[ksw], 3);
	assert_int_equal(s.unpaired, 1);   /* a continued period is not unpaired */
	/* kcompactd 88: sleeps on every timeout without a wake: its normal */
	feed(&s, "88 0 6000000 type: 601");
	feed(&s, "88 0 6500000 type: 601");
	assert_int_equal(s.lone_ends[kcd], 2);
	assert_int_equal(s.unpaired, 1);
	/* woken by kswapd (its event), 250 us of work */
	feed(&s, "77 0 7000000 type: 602");
	feed(&s, "88 0 7000050 type: 600");
	feed(&s, "88 0 7250050 type: 601");
	assert_int_equal(s.hist[kcd].count, 1);
	assert_true(fabs(s.hist[kcd].max_us - 250) < 1e-9);
	assert_int_equal(s.counted[0], 1);
	assert_int_equal(s.counted[1], 1);
	assert_int_equal(s.events, 11);
	/* awake again when the pass ends: open, not in the histogram */
	feed(&s, "77 0 8000000 type: 500");
	o = rl_pair_json(&s, ksw);
	assert_int_equal(jint(o, "count"), 1);
	assert_int_equal(jint(o, "begins"), 4);
	assert_int_equal(jint(o, "lone_ends"), 1);
	assert_int_equal(jint(o, "open_at_end"), 1);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "periods")), "periods");
	assert_non_null(strstr(json_object_get_string(json_object_object_get(o, "measures")), "nap"));
	json_object_put(o);
	o = rl_pair_json(&s, kcd);
	assert_int_equal(jint(o, "lone_ends"), 2);
	assert_int_equal(jint(o, "open_at_end"), 0);
	json_object_put(o);
	/* a direct reclaim begin twice is still unpaired: only kswapd continues */
	rl_state_set_id(&s, 700, 0, false);
	feed(&s, "90 0 9000000 type: 700");
	feed(&s, "90 0 9000001 type: 700");
	assert_int_equal(s.unpaired, 2);
	rl_state_release(&s);
}

/* the task table is bounded: the task after the last slot is counted, not kept */
static void test_task_table_bound(void **state)
{
	struct rl_state s;
	char line[96];

	(void)state;
	setup_ids(&s);
	for (int k = 1; k <= RL_MAX_TASKS + 5; k++) {
		snprintf(line, sizeof(line), "%d 0 100 type: 636", k);
		feed(&s, line);
	}
	assert_int_equal(s.ntasks, RL_MAX_TASKS);
	assert_int_equal(s.untracked, 5);
	rl_state_release(&s);
}

static json_object *details_with(json_object *buckets, int count)
{
	json_object *d = json_object_new_array(), *e = json_object_new_object(),
		    *p = json_object_new_object(), *rl = json_object_new_object(),
		    *ops = json_object_new_array(), *op = json_object_new_object();

	json_object_object_add(op, "name", json_object_new_string("memcg reclaim"));
	json_object_object_add(op, "count", json_object_new_int(count));
	json_object_object_add(op, "buckets", buckets);
	json_object_array_add(ops, op);
	json_object_object_add(rl, "ops", ops);
	json_object_object_add(p, "reclaim_latency", rl);
	json_object_object_add(e, "step", json_object_new_string("memcgs-1"));
	json_object_object_add(e, "profile", p);
	json_object_array_add(d, json_object_new_object());   /* an iteration's detail */
	json_object_array_add(d, e);
	return d;
}

static void expect_refused(const char *buckets, int count, const char *needle)
{
	json_object *b = json_tokener_parse(buckets), *d;
	struct strbuf err = STRBUF_INIT;

	assert_non_null(b);
	d = details_with(b, count);
	assert_int_equal(lhist_check_details(d, "r/a/readtwice.json", &err), -1);
	if (!strstr(err.buf, needle) || !strstr(err.buf, "r/a/readtwice.json: details[1].profile."
						 "reclaim_latency.ops[0]"))
		fail_msg("'%s' lacks '%s' or the file and path", err.buf, needle);
	strbuf_release(&err);
	json_object_put(d);
}

static void test_reader_round_trip_and_refusals(void **state)
{
	struct lhist h;
	struct lhist_read r;
	struct strbuf err = STRBUF_INIT;
	json_object *b, *d;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (int v = 1; v <= 1000; v++)
		lhist_add(&h, v * 1.7);
	b = lhist_buckets_json(&h);
	assert_int_equal(lhist_read_json(b, "f", "p", &r, &err), 0);
	assert_int_equal(r.total, 1000);
	d = details_with(b, 1000);
	assert_int_equal(lhist_check_details(d, "f", &err), 0);
	json_object_put(d);
	assert_int_equal(lhist_check_details(NULL, "f", &err), 0);

	expect_refused("[[1, 2, 3], [1.5, 3, 1]]", 4, "buckets[1]: bucket [1.5, 3) is not after");
	expect_refused("[[2, 1, 3]]", 3, "buckets[0]");
	expect_refused("[[1, 2, 0]]", 0, "count 0 is not a whole number");
	expect_refused("[[1, 2, 2.5]]", 2, "count 2.5");
	expect_refused("[[1, 2, \"3\"]]", 3, "three numbers");
	expect_refused("[[1, 2]]", 2, "three numbers");
	expect_refused("{\"a\": 1}", 1, "not an array");
	expect_refused("[[1, 2, 3]]", 7, "the buckets hold 3 stalls, \"count\" says 7 (truncated?)");
	{
		/* more buckets than a histogram has: refused by count, unread */
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "[");
		for (int k = 0; k <= LHIST_NBUCKETS; k++)
			strbuf_addf(&sb, "%s[%d, %d, 1]", k ? "," : "", k, k + 1);
		strbuf_addstr(&sb, "]");
		expect_refused(sb.buf, LHIST_NBUCKETS + 1, "more than the");
		strbuf_release(&sb);
	}
	strbuf_release(&err);
}

static void test_available_in_a_fake_tracefs(void **state)
{
	struct strbuf why = STRBUF_INIT;
	char *root = xasprintf("%s/tracefs", unit_tmp);
	unsigned mask;

	(void)state;
	free(unit_put("tracefs/events/vmscan/mm_vmscan_memcg_reclaim_begin/id", "636\n"));
	free(unit_put("tracefs/events/vmscan/mm_vmscan_memcg_reclaim_end/id", "633\n"));
	/* half a pair is no pair */
	free(unit_put("tracefs/events/compaction/mm_compaction_begin/id", "670\n"));
	/* a wakeup event alone is enough for its bit; kcompactd's pair is half there */
	free(unit_put("tracefs/events/vmscan/mm_vmscan_wakeup_kswapd/id", "640\n"));
	free(unit_put("tracefs/events/compaction/mm_compaction_kcompactd_wake/id", "672\n"));
	mask = rl_available(root, &why);
	assert_int_equal(mask, (1u << 1) | RL_EVENT_BIT(0));
	assert_non_null(strstr(why.buf, "kcompactd wake-to-sleep (compaction/mm_compaction_kcompactd_wake): "
				"not available on this kernel: no "));
	assert_non_null(strstr(why.buf, "mm_compaction_kcompactd_sleep (a kernel without CONFIG_COMPACTION"));
	assert_non_null(strstr(why.buf, "kcompactd wakeup requests (compaction/mm_compaction_wakeup_kcompactd)"));
	assert_null(strstr(why.buf, "kswapd wakeup requests"));
	assert_non_null(strstr(why.buf, "direct reclaim (vmscan/mm_vmscan_direct_reclaim_begin): not "
				"available on this kernel: no "));
	assert_non_null(strstr(why.buf, "compaction/mm_compaction_end (a kernel without CONFIG_COMPACTION"));
	assert_null(strstr(why.buf, "memcg reclaim (vmscan"));
	strbuf_release(&why);
	free(root);
}

/* profile=reclaim is exit 3 with the reason: not root, no tracefs, no pair */
static void test_caps_allow(void **state)
{
	struct profile_caps c;
	struct strbuf why = STRBUF_INIT;
	bool via_perf;

	(void)state;
	memset(&c, 0, sizeof(c));
	strbuf_init(&c.tracefs_why);
	strbuf_init(&c.reclaim_why);
	strbuf_addstr(&c.tracefs_why, "not mounted, and mounting it needs root");
	assert_int_equal(profile_caps_allow(&c, PROFILE_RECLAIM, &via_perf, &why), -1);
	assert_non_null(strstr(why.buf, "needs root"));
	c.root = true;
	strbuf_reset(&why);
	assert_int_equal(profile_caps_allow(&c, PROFILE_RECLAIM, &via_perf, &why), -1);
	assert_non_null(strstr(why.buf, "profile=reclaim needs tracefs: not mounted"));
	c.tracefs_ok = true;
	strbuf_addstr(&c.reclaim_why, "compaction (compaction/mm_compaction_begin): not available on this kernel: x");
	strbuf_reset(&why);
	assert_int_equal(profile_caps_allow(&c, PROFILE_RECLAIM, &via_perf, &why), -1);
	assert_non_null(strstr(why.buf, "none of its tracepoints is on this kernel: compaction"));
	/* one pair is enough; perf is not needed */
	c.reclaim_pairs = 1u << 1;
	strbuf_reset(&why);
	assert_int_equal(profile_caps_allow(&c, PROFILE_RECLAIM, &via_perf, &why), 0);
	assert_false(via_perf);
	strbuf_release(&why);
	strbuf_release(&c.tracefs_why);
	strbuf_release(&c.reclaim_why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_edges),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_pair_json_tasks),
		cmocka_unit_test(test_kswapd_kcompactd),
		cmocka_unit_test(test_task_table_bound),
		cmocka_unit_test(test_reader_round_trip_and_refusals),
		cmocka_unit_test(test_available_in_a_fake_tracefs),
		cmocka_unit_test(test_caps_allow),
	};

	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
