// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What compare says about the labels beyond their numbers
 * (compare/provenance.c) and the gate's checks (compare/gate.c), on labels
 * built in memory: the same kernel build, debug options, the kernel log
 * under the tables, failed ops, and missing data -- each its own failure,
 * each silenced by its own --allow flag.
 */
#include "unit.h"
#include <json-c/json.h>
#include "compare/model.h"

#define TITLE "readtwice MB/s aggregate"

static void make_label(struct label_result *l, const char *label, const char *run)
{
	memset(l, 0, sizeof(*l));
	l->label = strdup(label);
	l->dir = strdup(label);
	l->run = json_tokener_parse(run);
	assert_non_null(l->run);
	l->wls = calloc(1, sizeof(*l->wls));
	l->nwls = 1;
	l->wls[0].workload = strdup("readtwice");
}

static void add(struct label_result *l, const char *op, const double *x, size_t n)
{
	struct result_table *t = wl_result_table(&l->wls[0], TITLE, "MB/s", BETTER_HIGHER);

	for (size_t i = 0; i < n; i++)
		result_table_add(t, op, x[i]);
}

static void release(struct label_result *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		label_result_release(&l[i]);
}

static const double five[] = { 100, 101, 99, 100, 102 };

#define KERNEL(id, extra) \
	"\"system\": {\"kernel_release\": \"6.18\", \"nr_cpus\": 2, \"cmdline\": \"ro\", " \
	"\"kernel\": {\"build_id\": \"" id "\", \"config\": {\"source\": \"/proc/config.gz\", " \
	"\"sha256\": \"00112233445566778899\", \"options\": {\"CONFIG_MEMCG\": \"y\"" extra "}}, " \
	"\"lru_gen_enabled\": \"absent\", \"taint_start_flags\": \"\"}}"

static size_t failures(const struct comparison *c, const struct gate_opts *o, const char *type)
{
	struct gate_failure *f;
	size_t n = gate_checks(c, o, &f), k = 0;

	for (size_t i = 0; i < n; i++)
		k += !type || !strcmp(f[i].type, type);
	gate_failures_release(f, n);
	return k;
}

static void test_same_kernel(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };

	(void)state;
	make_label(&l[0], "a", "{\"status\": \"complete\", " KERNEL("e4f18d9d", "") "}");
	make_label(&l[1], "b", "{\"status\": \"complete\", " KERNEL("e4f18d9d", "") "}");
	add(&l[0], "memcgs-1", five, 5);
	add(&l[1], "memcgs-1", five, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	/* nothing differs, not even the kernel: said plainly, and warned */
	assert_non_null(strstr(out.buf, "Nothing differs between the labels, not even the kernel build.\n"));
	assert_non_null(strstr(out.buf, "WARNING: these labels ran the same kernel build (build id e4f18d9d): a, b"));
	assert_null(strstr(out.buf, "Kernel:"));
	assert_int_equal(failures(&c, &g, "same kernel"), 1);
	g.allow_same_kernel = true;
	assert_int_equal(failures(&c, &g, NULL), 0);
	strbuf_reset(&out);
	report_junit(&c, &g, &out);
	assert_null(strstr(out.buf, "distinct kernel builds"));   /* allowed: not a check */
	g.allow_same_kernel = false;
	strbuf_reset(&out);
	report_junit(&c, &g, &out);
	assert_non_null(strstr(out.buf, "<testcase classname=\"lrubench.compare.kernel\" name=\"distinct kernel builds\">"));
	assert_non_null(strstr(out.buf, "<failure type=\"same kernel\""));
	assert_non_null(strstr(out.buf, "tests=\"1\" failures=\"1\""));   /* the checks suite */
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* VM mode's per-kernel boot options (vm.boot_options, vm/record.h): one
 * image booted twice, once with cgroup_disable=memory, is a comparison on
 * purpose -- passed with the reason, the options first among the facts;
 * two labels booted alike still fail; options the guest's /proc/cmdline
 * did not show are said. */
static void test_same_kernel_boot_options(void **state)
{
	struct label_result l[3];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, gerr = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };
	char *txt = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_label(&l[0], "memcg", "{\"status\": \"complete\", \"vm\": {\"boot_options\": \"\", "
		   "\"boot_options_seen\": true}, " KERNEL("e4f18d9d", "") "}");
	make_label(&l[1], "nomemcg", "{\"status\": \"complete\", \"vm\": {\"boot_options\": "
		   "\"cgroup_disable=memory\", \"boot_options_seen\": true}, " KERNEL("e4f18d9d", "") "}");
	add(&l[0], "memcgs-0", five, 5);
	add(&l[1], "memcgs-0", five, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "set by the run: boot options (none) | cgroup_disable=memory"));
	assert_null(strstr(out.buf, "WARNING: these labels ran the same kernel build"));
	assert_int_equal(failures(&c, &g, "same kernel"), 0);
	f = open_memstream(&txt, &len);
	report_checks(&c, &g, f);
	fclose(f);
	assert_non_null(strstr(txt, "same kernel, compared on purpose: these labels ran the same kernel "
				 "build (build id e4f18d9d) in different deliberate settings (set by the run: "
				 "knobs or boot options): memcg, nomemcg"));
	free(txt);
	comparison_release(&c);
	release(l, 2);

	/* a third label booted as the first: the same measurement twice */
	make_label(&l[0], "memcg", "{\"status\": \"complete\", \"vm\": {\"boot_options\": \"\"}, "
		   KERNEL("e4f18d9d", "") "}");
	make_label(&l[1], "nomemcg", "{\"status\": \"complete\", \"vm\": {\"boot_options\": "
		   "\"cgroup_disable=memory\", \"boot_options_seen\": false}, " KERNEL("e4f18d9d", "") "}");
	make_label(&l[2], "again", "{\"status\": \"complete\", \"vm\": {\"boot_options\": \"\"}, "
		   KERNEL("e4f18d9d", "") "}");
	for (int i = 0; i < 3; i++)
		add(&l[i], "memcgs-0", five, 5);
	strbuf_reset(&out);
	assert_int_equal(comparison_build(l, 3, 0.10, &c, &err), 0);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "with the same deliberate settings: memcg, again"));
	assert_non_null(strstr(out.buf, "cgroup_disable=memory (not on the guest's /proc/cmdline)"));
	assert_int_equal(failures(&c, &g, "same kernel"), 1);
	comparison_release(&c);
	release(l, 3);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&gerr);
}

static void test_kernels_differ(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };

	(void)state;
	make_label(&l[0], "a", "{\"status\": \"complete\", " KERNEL("aaaa", ", \"CONFIG_LOCKDEP\": \"n\"") "}");
	make_label(&l[1], "b", "{\"status\": \"complete\", " KERNEL("bbbb", ", \"CONFIG_LOCKDEP\": \"y\", "
				 "\"CONFIG_PROVE_LOCKING\": \"y\"") "}");
	add(&l[0], "memcgs-1", five, 5);
	add(&l[1], "memcgs-1", five, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "Nothing differs between the labels besides the kernel.\nKernel:\n"));
	assert_non_null(strstr(out.buf, "  kernel.build_id             aaaa | bbbb\n"));
	assert_non_null(strstr(out.buf, "  kernel.CONFIG_LOCKDEP       n | y\n"));
	assert_non_null(strstr(out.buf, "  kernel.CONFIG_PROVE_LOCKING n | y\n"));
	/* equal facts are not listed */
	assert_null(strstr(out.buf, "kernel.CONFIG_MEMCG"));
	assert_null(strstr(out.buf, "kernel.release"));
	/* debug options called out by name */
	assert_non_null(strstr(out.buf, "WARNING: b ran a kernel with debug options that distort performance: "
				 "CONFIG_LOCKDEP, CONFIG_PROVE_LOCKING\n"));
	assert_int_equal(failures(&c, &g, NULL), 0);
	strbuf_reset(&out);
	report_junit(&c, &g, &out);
	assert_non_null(strstr(out.buf, "name=\"distinct kernel builds\"/>"));
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_health_and_failed_ops(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };

	(void)state;
	make_label(&l[0], "A", "{\"status\": \"complete\", \"kernel_health\": {\"log\": \"/dev/kmsg\", "
		   "\"events\": [], \"taint_changes\": []}}");
	make_label(&l[1], "B", "{\"status\": \"complete\", \"kernel_health\": {\"log\": \"/dev/kmsg\", \"events\": ["
		   "{\"workload\": \"readtwice\", \"step\": \"memcgs-64\", \"kind\": \"warning\", \"count\": 2, "
		   "\"first\": [\"WARNING: CPU: 1 PID: 7 at mm/vmscan.c:12 f+0x1/0x2\"]},"
		   "{\"workload\": \"readtwice\", \"step\": \"memcgs-64\", \"kind\": \"oom_kill\", \"count\": 1},"
		   "{\"workload\": \"\", \"step\": \"\", \"kind\": \"rcu_stall\", \"count\": 1}], "
		   "\"taint_changes\": [{\"workload\": \"readtwice\", \"step\": \"memcgs-64\", \"from\": 0, "
		   "\"to\": 512, \"flags\": \"W\"}]}, "
		   "\"failed_ops\": [{\"workload\": \"readtwice\", \"step\": \"memcgs-64\", \"iteration\": "
		   "\"iteration 2\", \"reason\": \"the kernel OOM-killed pid 9 (lrubench)\"}]}");
	add(&l[0], "memcgs-64", five, 5);
	add(&l[1], "memcgs-64", five, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	/* under the table it concerns */
	assert_non_null(strstr(out.buf, "BHmean-99 memcgs-64"));
	assert_non_null(strstr(out.buf, "\nkernel B logged 2 warnings and 1 OOM kill during memcgs-64\n"
				 "  first: WARNING: CPU: 1 PID: 7 at mm/vmscan.c:12 f+0x1/0x2\n"));
	assert_non_null(strstr(out.buf, "\nkernel B became tainted (none -> W) during memcgs-64\n"));
	assert_non_null(strstr(out.buf, "\nB: memcgs-64 iteration 2 failed: the kernel OOM-killed pid 9 (lrubench)\n"));
	/* outside any workload: with the warnings */
	assert_non_null(strstr(out.buf, "WARNING: kernel B logged 1 RCU stall during the run, outside its workloads\n"));
	assert_true(strstr(out.buf, "kernel B logged 2") > strstr(out.buf, "BHmean-99"));
	assert_int_equal(failures(&c, &g, "kernel health"), 1);
	g.allow_kernel_warnings = true;
	assert_int_equal(failures(&c, &g, NULL), 0);
	g.allow_kernel_warnings = false;
	strbuf_reset(&out);
	report_junit(&c, &g, &out);
	assert_non_null(strstr(out.buf, "name=\"kernel health of A\"/>"));   /* recorded, clean */
	assert_non_null(strstr(out.buf, "name=\"kernel health of B\">"));
	assert_non_null(strstr(out.buf, "kernel B logged 2 warnings during readtwice memcgs-64, 1 OOM kill during "
				 "readtwice memcgs-64, 1 RCU stall during the run (--allow-kernel-warnings"));
	strbuf_reset(&out);
	report_json(&c, 5, &out);
	assert_non_null(strstr(out.buf, "\"notes\": [\"kernel B logged 2 warnings and 1 OOM kill during memcgs-64\""));
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_missing_data(void **state)
{
	static const double one[] = { 100 };
	struct label_result l[3];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };
	struct gate_failure *f;
	size_t n;

	(void)state;
	make_label(&l[0], "base", "{\"status\": \"complete\"}");
	make_label(&l[1], "cand", "{\"status\": \"interrupted\"}");
	make_label(&l[2], "other", "{}");   /* no status at all: not held against it */
	add(&l[0], "memcgs-1", five, 5);
	add(&l[0], "memcgs-2", five, 5);
	add(&l[0], "memcgs-4", five, 5);
	add(&l[1], "memcgs-1", five, 5);
	add(&l[1], "memcgs-4", one, 1);       /* memcgs-2 missing, memcgs-4 a single sample */
	add(&l[2], "memcgs-1", five, 5);
	add(&l[2], "memcgs-2", five, 5);
	add(&l[2], "memcgs-4", five, 5);
	assert_int_equal(comparison_build(l, 3, 0.10, &c, &err), 0);
	n = gate_checks(&c, &g, &f);
	assert_int_equal(n, 3);
	assert_string_equal(f[0].name, "run status of cand");
	assert_non_null(strstr(f[0].message, "run status is 'interrupted'"));
	assert_string_equal(f[1].name, "readtwice/" TITLE "/memcgs-2 of cand");
	assert_string_equal(f[1].message, "cand has no samples of readtwice / " TITLE " / memcgs-2; the baseline base has");
	assert_string_equal(f[2].type, "insufficient data");
	assert_non_null(strstr(f[2].message, "cand has 1 sample; 2 a side are needed"));
	gate_failures_release(f, n);
	/* each its own testcase */
	report_junit(&c, &g, &out);
	assert_non_null(strstr(out.buf, "name=\"run status of cand\""));
	assert_non_null(strstr(out.buf, "name=\"readtwice/" TITLE "/memcgs-2 of cand\""));
	assert_non_null(strstr(out.buf, "name=\"readtwice/" TITLE "/memcgs-4 samples of cand\""));
	assert_non_null(strstr(out.buf, "<testsuite name=\"checks\" tests=\"3\" failures=\"3\""));
	g.allow_missing = true;
	assert_int_equal(failures(&c, &g, NULL), 0);
	comparison_release(&c);
	release(l, 3);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_missing_workload_and_table(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };
	struct gate_failure *f;
	struct result_table *t;
	size_t n;

	(void)state;
	make_label(&l[0], "base", "{}");
	make_label(&l[1], "cand", "{}");
	add(&l[0], "memcgs-1", five, 5);
	t = wl_result_table(&l[0].wls[0], "readtwice MB/s per memcg", "MB/s", BETTER_HIGHER);
	for (size_t i = 0; i < 5; i++)
		result_table_add(t, "memcgs-1", five[i]);
	add(&l[1], "memcgs-1", five, 5);
	/* the baseline has a second workload the candidate lacks */
	l[0].wls = realloc(l[0].wls, 2 * sizeof(*l[0].wls));
	memset(&l[0].wls[1], 0, sizeof(l[0].wls[1]));
	l[0].wls[1].workload = strdup("thpscale");
	l[0].nwls = 2;
	t = wl_result_table(&l[0].wls[1], "thpscale Fault Latencies", "usec", BETTER_LOWER);
	for (size_t i = 0; i < 5; i++)
		result_table_add(t, "fault-huge-1", five[i]);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	n = gate_checks(&c, &g, &f);
	assert_int_equal(n, 2);
	assert_string_equal(f[0].message, "cand has no table 'readtwice MB/s per memcg' of readtwice; the baseline base has");
	assert_string_equal(f[1].message, "cand has no results of workload thpscale; the baseline base has");
	gate_failures_release(f, n);
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&err);
}

/* Labels written before any of this was recorded: nothing new is said. */
static void test_old_labels_unchanged(void **state)
{
	struct label_result l[2];
	struct comparison c;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct gate_opts g = { .pct = 5 };

	(void)state;
	make_label(&l[0], "a", "{\"status\": \"complete\", \"system\": {\"kernel_release\": \"a\"}}");
	make_label(&l[1], "b", "{\"status\": \"complete\", \"system\": {\"kernel_release\": \"b\"}}");
	add(&l[0], "memcgs-1", five, 5);
	add(&l[1], "memcgs-1", five, 5);
	assert_int_equal(comparison_build(l, 2, 0.10, &c, &err), 0);
	report_text(&c, &out);
	assert_non_null(strstr(out.buf, "Labels: a (baseline), b\nNothing differs between the labels besides the "
				 "kernel.\n\n" TITLE "\n"));
	assert_null(strstr(out.buf, "WARNING"));
	assert_int_equal(c.nfacts, 0);
	assert_int_equal(failures(&c, &g, NULL), 0);
	strbuf_reset(&out);
	report_junit(&c, &g, &out);
	assert_null(strstr(out.buf, "checks"));
	comparison_release(&c);
	release(l, 2);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_kernel),
		cmocka_unit_test(test_same_kernel_boot_options),
		cmocka_unit_test(test_kernels_differ),
		cmocka_unit_test(test_health_and_failed_ops),
		cmocka_unit_test(test_missing_data),
		cmocka_unit_test(test_missing_workload_and_table),
		cmocka_unit_test(test_old_labels_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
