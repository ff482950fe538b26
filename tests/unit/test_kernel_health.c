// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmsg.c and kernel_health.c on records built here: the /dev/kmsg record
 * format, which lines open which kind of event (the kernel's own wording,
 * as 6.x prints it), OOM kills attributed by memcg, an Oops counted once
 * with the BUG line before it, and the first lines kept. The real
 * /dev/kmsg is read by tests/integration/health.sh.
 */
#include "unit.h"
#include <json-c/json.h>
#include "core/kernel_health.h"

static void test_kmsg_parse(void **state)
{
	char a[] = "4,1234,5678901,-;WARNING: CPU: 1 PID: 7 at mm/vmscan.c:12 shrink+0x1/0x2\n"
		   " SUBSYSTEM=cpu\n DEVICE=+cpu:1\n";
	char b[] = "14,99,1,-,caller=T12;from user space\n";
	char c[] = "no semicolon here\n", d[] = "4,x,1,-;text\n", e[] = "4;text\n";
	struct kmsg_record r;

	(void)state;
	assert_int_equal(kmsg_parse(a, strlen(a), &r), 0);
	assert_int_equal(r.facility, 0);
	assert_int_equal(r.level, 4);
	assert_int_equal(r.seq, 1234);
	assert_int_equal(r.usec, 5678901);
	/* the text stops before the dictionary lines */
	assert_string_equal(r.text, "WARNING: CPU: 1 PID: 7 at mm/vmscan.c:12 shrink+0x1/0x2");
	assert_int_equal(kmsg_parse(b, strlen(b), &r), 0);
	assert_int_equal(r.facility, 1);   /* LOG_USER: a process wrote it */
	assert_int_equal(r.level, 6);
	assert_string_equal(r.text, "from user space");
	assert_int_equal(kmsg_parse(c, strlen(c), &r), -1);
	assert_int_equal(kmsg_parse(d, strlen(d), &r), -1);
	assert_int_equal(kmsg_parse(e, strlen(e), &r), -1);
}

static void test_classify(void **state)
{
	static const struct {
		const char *line;
		int kind;
	} cases[] = {
		{ "WARNING: CPU: 0 PID: 1 at mm/page_alloc.c:4400 __alloc_pages+0x1/0x2", KH_WARNING },
		{ "UBSAN: array-index-out-of-bounds in mm/vmscan.c:12:3", KH_WARNING },
		{ "BUG: Bad page state in process kswapd0  pfn:1f2e3", KH_BUG },
		{ "BUG: KASAN: slab-use-after-free in lru_add+0x1/0x2", KH_BUG },
		{ "BUG: sleeping function called from invalid context at mm/slab.h:1", KH_BUG },
		{ "Oops: 0000 [#1] PREEMPT SMP NOPTI", KH_OOPS },
		{ "Oops: general protection fault, probably for non-canonical address 0xdead: 0000 [#1]", KH_OOPS },
		{ "BUG: kernel NULL pointer dereference, address: 0000000000000008", KH_OOPS_PRELUDE },
		{ "kernel BUG at mm/vmscan.c:1234!", KH_OOPS_PRELUDE },
		{ "WARNING: possible circular locking dependency detected", KH_LOCKDEP },
		{ "WARNING: possible recursive locking detected", KH_LOCKDEP },
		{ "WARNING: inconsistent lock state", KH_LOCKDEP },
		{ "WARNING: suspicious RCU usage", KH_LOCKDEP },
		{ "watchdog: BUG: soft lockup - CPU#1 stuck for 26s! [kswapd0:70]", KH_SOFT_LOCKUP },
		{ "watchdog: CPU1: Watchdog detected hard LOCKUP on cpu 1", KH_HARD_LOCKUP },
		{ "INFO: task kworker/u4:2:123 blocked for more than 122 seconds.", KH_HUNG_TASK },
		{ "rcu: INFO: rcu_preempt self-detected stall on CPU", KH_RCU_STALL },
		{ "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:", KH_RCU_STALL },
		{ "Memory cgroup out of memory: Killed process 77 (x) total-vm:1kB", KH_OOM_KILL },
		{ "Out of memory: Killed process 77 (x) total-vm:1kB", KH_OOM_KILL },
		/* not events */
		{ "EXT4-fs (loop0): mounted filesystem", KH_NONE },
		{ "rcu: INFO: rcu_preempt kthread starved", KH_NONE },
		{ "INFO: task foo:1 took a while", KH_NONE },
		{ "systemd[1]: WARNING: something", KH_NONE },
		{ "lrubench (123): drop_caches: 3", KH_NONE },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int k = kh_classify(cases[i].line);

		if (k != cases[i].kind)
			fail_msg("'%s': kind %d, expected %d", cases[i].line, k, cases[i].kind);
	}
	assert_string_equal(kh_kind_words(KH_OOM_KILL, 1), "OOM kill");
	assert_string_equal(kh_kind_words(KH_WARNING, 2), "warnings");
	assert_int_equal(kh_kind_from_name("rcu_stall"), KH_RCU_STALL);
	assert_int_equal(kh_kind_from_name("nope"), KH_NONE);
}

static void test_oom_kill_line(void **state)
{
	struct kh_oom o;

	(void)state;
	assert_int_equal(kh_parse_oom_kill("oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,"
					   "mems_allowed=0,oom_memcg=/lrubench-12/readtwice-0,task_memcg="
					   "/lrubench-12/readtwice-0,task=lrubench,pid=345,uid=0", &o), 0);
	assert_string_equal(o.constraint, "CONSTRAINT_MEMCG");
	assert_string_equal(o.oom_memcg, "/lrubench-12/readtwice-0");
	assert_string_equal(o.task_memcg, "/lrubench-12/readtwice-0");
	assert_string_equal(o.task, "lrubench");
	assert_int_equal(o.pid, 345);
	assert_int_equal(kh_parse_oom_kill("oom-kill:task=x", &o), -1);
	assert_int_equal(kh_parse_oom_kill("Killed process 1", &o), -1);
	assert_true(kh_memcg_within("/lrubench-12/readtwice-0", "/lrubench-12"));
	assert_true(kh_memcg_within("/lrubench-12", "/lrubench-12"));
	assert_false(kh_memcg_within("/lrubench-123/x", "/lrubench-12"));
	assert_false(kh_memcg_within("/other", NULL));
}

/* Feed one record as the poll would. */
static void feed(struct kernel_health *h, unsigned long long seq, int facility, const char *text)
{
	struct kmsg_record r = { facility, 4, seq, seq * 1000, text, strlen(text) };

	kernel_health_record(h, &r);
}

static json_object *event(struct kernel_health *h, const char *step, const char *kind)
{
	json_object *ev = json_object_object_get(kernel_health_json(h), "events");

	for (size_t i = 0; i < json_object_array_length(ev); i++) {
		json_object *e = json_object_array_get_idx(ev, i);

		if (!strcmp(json_object_get_string(json_object_object_get(e, "step")), step) &&
		    !strcmp(json_object_get_string(json_object_object_get(e, "kind")), kind))
			return e;
	}
	return NULL;
}

static long long count_of(json_object *e)
{
	return e ? json_object_get_int64(json_object_object_get(e, "count")) : 0;
}

static void test_health_events(void **state)
{
	struct kernel_health h;
	struct strbuf why = STRBUF_INIT;
	json_object *e, *first;

	(void)state;
	/* no log here (unit tests read no device): records are fed by hand */
	kernel_health_start(&h, "/nonexistent/kmsg", "/lrubench-12", NULL);
	assert_false(h.have_log);
	assert_non_null(json_object_object_get(kernel_health_json(&h), "log_unavailable"));
	h.workload = "readtwice";
	h.step = "memcgs-64";
	feed(&h, 1, 0, "------------[ cut here ]------------");
	feed(&h, 2, 0, "WARNING: CPU: 1 PID: 7 at mm/vmscan.c:12 shrink+0x1/0x2");
	feed(&h, 3, 0, "Modules linked in: loop");
	feed(&h, 4, 0, "---[ end trace 0000000000000000 ]---");
	feed(&h, 5, 0, "EXT4-fs (loop0): something later");
	feed(&h, 6, 0, "WARNING: CPU: 0 PID: 8 at mm/vmscan.c:12 shrink+0x1/0x2");
	/* an OOM kill in another user's memcg: not this run's business */
	feed(&h, 7, 0, "oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/user/a,task_memcg=/user/a,task=x,pid=50,uid=0");
	feed(&h, 8, 0, "Memory cgroup out of memory: Killed process 50 (x) total-vm:1kB");
	/* one in this run's memcgs: counted, and it fails the op */
	feed(&h, 9, 0, "oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/lrubench-12/readtwice-3,"
		 "task_memcg=/lrubench-12/readtwice-3,task=lrubench,pid=60,uid=0");
	feed(&h, 10, 0, "Memory cgroup out of memory: Killed process 60 (lrubench) total-vm:1kB");
	/* a global OOM counts (the machine ran out), but killed nobody of ours */
	feed(&h, 11, 0, "oom-kill:constraint=CONSTRAINT_NONE,oom_memcg=/,task_memcg=/sys,task=y,pid=70,uid=0");
	feed(&h, 12, 0, "Out of memory: Killed process 70 (y) total-vm:1kB");
	e = event(&h, "memcgs-64", "warning");
	assert_int_equal(count_of(e), 2);
	first = json_object_object_get(e, "first");
	/* the first one's lines, up to its end-of-trace line */
	assert_int_equal(json_object_array_length(first), 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(first, 1)), "Modules linked in: loop");
	assert_null(json_object_object_get(e, "from_user_space"));
	assert_int_equal(count_of(event(&h, "memcgs-64", "oom_kill")), 2);
	first = json_object_object_get(event(&h, "memcgs-64", "oom_kill"), "first");
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(first, 0)),
			       "task_memcg=/lrubench-12/readtwice-3"));
	assert_int_equal(kernel_health_take_run_ooms(&h, &why), 1);
	assert_string_equal(why.buf, "pid 60 (lrubench) in memcg /lrubench-12/readtwice-3");
	strbuf_reset(&why);
	assert_int_equal(kernel_health_take_run_ooms(&h, &why), 0);   /* taken once */

	/* a NULL dereference: its BUG line and its Oops are one event */
	h.step = "memcgs-128";
	feed(&h, 20, 0, "BUG: kernel NULL pointer dereference, address: 0000000000000008");
	feed(&h, 21, 0, "#PF: supervisor read access in kernel mode");
	feed(&h, 22, 0, "Oops: 0000 [#1] PREEMPT SMP NOPTI");
	feed(&h, 40, 0, "Oops: 0002 [#2] PREEMPT SMP NOPTI");   /* a second, later one */
	assert_int_equal(count_of(event(&h, "memcgs-128", "oops")), 2);
	assert_null(event(&h, "memcgs-128", "bug"));
	/* a stand-in written from user space is marked so */
	feed(&h, 41, 1, "WARNING: CPU: 0 PID: 1 at x.c:1 stand-in");
	e = event(&h, "memcgs-128", "warning");
	assert_true(json_object_get_boolean(json_object_object_get(e, "from_user_space")));
	kernel_health_end(&h);
	strbuf_release(&why);
}

static void test_health_resume(void **state)
{
	struct kernel_health h;
	json_object *old = json_tokener_parse("{\"events\": [{\"workload\": \"w\", \"step\": \"s\", "
					      "\"kind\": \"warning\", \"count\": 3}], \"taint_changes\": []}");

	(void)state;
	kernel_health_start(&h, "/nonexistent/kmsg", NULL, old);
	h.workload = "w";
	h.step = "s";
	feed(&h, 1, 0, "WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2");
	/* the resumed run's count goes on from the first part's */
	assert_int_equal(count_of(event(&h, "s", "warning")), 4);
	kernel_health_end(&h);
	kernel_health_end(&h);   /* twice is harmless */
	json_object_put(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmsg_parse),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_oom_kill_line),
		cmocka_unit_test(test_health_events),
		cmocka_unit_test(test_health_resume),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
