// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run loop (src/run/, docs/ARCHITECTURE.md §3) driven for real,
 * without root: the phases run against a memory cgroup tree of plain
 * folders under the test's temp folder (a mounts file naming it, as
 * tests/unit/test_cgroup.c does), a plain file as the kernel log (records
 * appended to it are read as /dev/kmsg's), and a workload row that exists
 * only here ("injected"), whose hooks follow a script. What is not real:
 * the private mount namespace (unshare needs root: a stand-in that does
 * nothing) and, in the profile tests, the profile kind, set past
 * profile_run_init because perf is kept off PATH there -- every pass then
 * fails the same way and the test sees which steps get one. The real
 * workloads and the real kernel are tests/integration/run.sh's.
 *
 * Line coverage of src/run/ (85% with test_adaptive, issue 31 asks 70%):
 *   make BUILD=build/cov CFLAGS='-O0 -g --coverage' LDFLAGS=--coverage \
 *        build/cov/tests/test_run_state build/cov/tests/test_adaptive
 *   build/cov/tests/test_run_state; build/cov/tests/test_adaptive
 *   cd build/cov/src/run && gcov -n -o . ../../../../src/run/[a-z]*.c
 */
#include "unit.h"
#include <sys/stat.h>
#include "core/cleanup.h"
#include "core/schedule.h"
#include "run/run_state.h"
#include "run/step_loop.h"

/* ---- the injected workload and its script ---- */

static const struct table_def injected_tables[] = {
	{ "injected latency", "ms", BETTER_LOWER, { "steps", "count" } },
	{ NULL, NULL, 0, { NULL, NULL } },
};

static struct script {
	size_t nsteps;
	enum wl_status probe, validate, setup;
	int fail_step, fail_it;     /* this iteration's op fails (-1: none) */
	int oom_step, oom_it;       /* the kernel log says it OOM-killed a task of the run */
	size_t stop_after;          /* a stop is requested during this run_step call (0: never) */
	size_t calls, teardowns;
	int trace[64][2];           /* (step, iteration) as run, warm-ups < 0 */
} S;

static char *kmsg_path;
static struct sys_facts si;

static void script_reset(size_t nsteps)
{
	memset(&S, 0, sizeof(S));
	S.nsteps = nsteps;
	S.fail_step = S.oom_step = -1;
}

static enum wl_status inj_probe(struct wl_ctx *ctx, struct strbuf *why)
{
	(void)ctx;
	if (S.probe)
		strbuf_addstr(why, "the script says no");
	return S.probe;
}

static enum wl_status inj_validate(struct wl_ctx *ctx, struct strbuf *err)
{
	(void)ctx;
	if (S.validate)
		strbuf_addstr(err, "injected: the script's options do not fit");
	return S.validate;
}

static enum wl_status inj_setup(struct wl_ctx *ctx)
{
	for (size_t i = 0; i < S.nsteps; i++)
		wl_add_step(ctx, "s-%zu", i + 1);
	return S.setup;
}

static void append_kmsg(const char *text)
{
	FILE *f = fopen(kmsg_path, "a");

	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static enum wl_status inj_run_step(struct wl_ctx *ctx, size_t step, struct wl_samples *s)
{
	json_object *d;

	if (S.calls < ARRAY_SIZE(S.trace)) {
		S.trace[S.calls][0] = (int)step;
		S.trace[S.calls][1] = s->iteration;
	}
	S.calls++;
	if (S.stop_after && S.calls == S.stop_after)
		lb_interrupted = 1;
	if ((int)step == S.fail_step && s->iteration == S.fail_it)
	{
		/* as a workload does: the reason said, and kept for the results */
		strbuf_addf(&s->why, "injected failure of %s", ctx->steps[step]);
		error("%s", s->why.buf);
		return WL_OP_FAILED;
	}
	/* a plain file gives one record a read, so one record an iteration:
	 * the kill's "oom-kill:" line, then its "Killed process" line */
	if ((int)step == S.oom_step && s->iteration == S.oom_it - 1) {
		char *rec = xasprintf("6,%zu,1000,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),"
				      "cpuset=/,mems_allowed=0,oom_memcg=/lrubench-%d/injected-0,"
				      "task_memcg=/lrubench-%d/injected-0,task=inj,pid=4242,uid=0",
				      100 + S.calls, (int)getpid(), (int)getpid());
		append_kmsg(rec);
		free(rec);
	}
	if ((int)step == S.oom_step && s->iteration == S.oom_it) {
		char *rec = xasprintf("3,%zu,1001,-;Memory cgroup out of memory: Killed process 4242 (inj) "
				      "total-vm:1000kB, anon-rss:900kB, file-rss:0kB, shmem-rss:0kB, UID:0",
				      100 + S.calls);
		append_kmsg(rec);
		free(rec);
	}
	wl_sample(s, 0, ctx->steps[step], 10.0 + (double)step + (double)s->iteration / 10);
	d = json_object_new_object();
	json_object_object_add(d, "call", json_object_new_int((int)S.calls));
	wl_detail(s, d);
	return WL_OK;
}

static void inj_teardown(struct wl_ctx *ctx)
{
	(void)ctx;
	S.teardowns++;
}

static const struct workload_ops injected = {
	.name = "injected",
	.tables = injected_tables,
	.probe = inj_probe,
	.validate = inj_validate,
	.setup = inj_setup,
	.run_step = inj_run_step,
	.teardown = inj_teardown,
};
static const struct workload_ops *injected_list[] = { &injected };

/* ---- the fake machine ---- */

static int no_mount_ns(const char *workdir)
{
	(void)workdir;
	return 0;
}

static char *tmp_path(const char *rel)
{
	return xasprintf("%s/%s", unit_tmp, rel);
}

struct run {
	struct run_state rs;
	struct config cfg;
	char *outdir, *workdir, *mounts;
};

/* A run of the injected workload: 2 iterations after 1 warm-up a step,
 * then the assignments in sets (NULL-terminated). */
static void run_new(struct run *r, const char *label, const char *const *sets)
{
	struct strbuf err = STRBUF_INIT;
	char *wd;

	memset(r, 0, sizeof(*r));
	r->outdir = tmp_path("results");
	r->workdir = tmp_path("work");
	r->mounts = tmp_path("mounts");
	assert_int_equal(config_init(&r->cfg, NULL, false), 0);
	wd = xasprintf("global.workdir=%s", r->workdir);
	assert_int_equal(config_set(&r->cfg, wd, &err), 0);
	assert_int_equal(config_set(&r->cfg, "global.drop_caches=no", &err), 0);
	assert_int_equal(config_set(&r->cfg, "global.iterations=2", &err), 0);
	assert_int_equal(config_set(&r->cfg, "global.warmup=1", &err), 0);
	for (size_t i = 0; sets && sets[i]; i++)
		if (config_set(&r->cfg, sets[i], &err))
			fail_msg("%s: %s", sets[i], err.buf);
	free(wd);
	strbuf_release(&err);
	r->rs.cfg = &r->cfg;
	r->rs.sys = &si;
	r->rs.outdir = r->outdir;
	r->rs.label = label;
	r->rs.wls = injected_list;
	r->rs.nwls = 1;
	r->rs.env.bind.node = -1;
	r->rs.mounts = r->mounts;
	r->rs.cg_prefix = unit_tmp;
	r->rs.kmsg = kmsg_path;
	r->rs.private_mounts = no_mount_ns;
}

static void run_release(struct run *r)
{
	config_release(&r->cfg);
	free(r->outdir);
	free(r->workdir);
	free(r->mounts);
}

/* run_state_execute on a new run; stderr captured into *msgs when given */
static int execute(const char *label, const char *const *sets, bool dry, bool resume, bool force,
		   char **msgs)
{
	struct run r;
	int ret;

	run_new(&r, label, sets);
	r.rs.dry_run = dry;
	r.rs.resume = resume;
	r.rs.force = force;
	if (msgs)
		capture_start();
	ret = run_state_execute(&r.rs);
	if (msgs)
		*msgs = capture_end();
	run_release(&r);
	return ret;
}

static char *label_file(const char *label, const char *file)
{
	return xasprintf("%s/results/%s/%s", unit_tmp, label, file);
}

static bool label_exists(const char *label)
{
	char *p = xasprintf("%s/results/%s", unit_tmp, label);
	bool e = path_exists(p);

	free(p);
	return e;
}

static json_object *load_run_json(const char *label)
{
	struct strbuf err = STRBUF_INIT;
	char *p = label_file(label, "run.json");
	json_object *o = json_load_file(p, &err);

	if (!o)
		fail_msg("%s", err.buf);
	free(p);
	strbuf_release(&err);
	return o;
}

static const char *run_status(json_object *run)
{
	return json_object_get_string(json_object_object_get(run, "status"));
}

static void load_results(const char *label, struct wl_result *res)
{
	struct strbuf err = STRBUF_INIT;
	char *p = label_file(label, "injected.json");

	memset(res, 0, sizeof(*res));
	if (wl_result_load(p, res, &err))
		fail_msg("%s", err.buf);
	free(p);
	strbuf_release(&err);
}

static size_t samples_of(const struct wl_result *res, const char *op)
{
	for (size_t i = 0; i < res->ntables; i++)
		if (!strcmp(res->tables[i].title, "injected latency"))
			for (size_t j = 0; j < res->tables[i].nops; j++)
				if (!strcmp(res->tables[i].ops[j].op, op))
					return res->tables[i].ops[j].n;
	return 0;
}

/* The fake tree holds no cgroup of the run and the workdir no scratch
 * folder once a run ended: cleanup is part of every test. */
static void assert_nothing_left(void)
{
	char *cg = xasprintf("%s/sys/fs/cgroup/memory/lrubench-%d", unit_tmp, (int)getpid());
	char *wd = xasprintf("%s/work/run-%d", unit_tmp, (int)getpid());

	assert_false(path_exists(cg));
	assert_false(path_exists(wd));
	free(cg);
	free(wd);
}

static int machine_setup(void **state)
{
	char *root;

	if (unit_tmp_setup(state))
		return -1;
	free(unit_put("mounts", "sysfs /sys sysfs rw 0 0\n"
		      "cgroup /sys/fs/cgroup/memory cgroup rw,nosuid,nodev,noexec,relatime,memory 0 0\n"));
	root = tmp_path("sys/fs/cgroup/memory");
	if (mkdir_p(root, 0755))
		return -1;
	free(root);
	kmsg_path = unit_put("kmsg", "6,1,10,-;an old record, before the run\n");
	if (sysinfo_collect(&si))
		return -1;
	sysinfo_collect_identity(&si, 0);   /* once: every run reuses it */
	lb_quiet = true;
	return 0;
}

static int machine_teardown(void **state)
{
	sysinfo_release(&si);
	free(kmsg_path);
	return unit_tmp_teardown(state);
}

/* ---- the tests ---- */

/* A whole run: every step's warm-up and iterations in order, results and
 * run.json complete, the environment gone. */
static void test_run_complete(void **state)
{
	static const int want[][2] = { { 0, -1 }, { 0, 0 }, { 0, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } };
	struct wl_result res;
	json_object *run;

	(void)state;
	script_reset(2);
	assert_int_equal(execute("complete", NULL, false, false, false, NULL), LB_EXIT_OK);
	assert_int_equal(S.calls, 6);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_int_equal(S.trace[i][0], want[i][0]);
		assert_int_equal(S.trace[i][1], want[i][1]);
	}
	assert_int_equal(S.teardowns, 1);
	run = load_run_json("complete");
	assert_string_equal(run_status(run), "complete");
	assert_null(json_object_object_get(run, "failed_ops"));
	{   /* drop_caches = no: every unit run is recorded as started warm */
		json_object *pc = json_object_object_get(run, "page_cache"), *e;

		assert_int_equal(json_object_array_length(pc), 6);
		e = json_object_array_get_idx(pc, 0);
		assert_string_equal(json_object_get_string(json_object_object_get(e, "step")), "s-1");
		assert_string_equal(json_object_get_string(json_object_object_get(e, "iteration")),
				    "warm-up 1");
		e = json_object_array_get_idx(pc, 5);
		assert_string_equal(json_object_get_string(json_object_object_get(e, "iteration")),
				    "iteration 2");
		for (size_t i = 0; i < 6; i++)
			assert_false(json_object_get_boolean(json_object_object_get(
				json_object_array_get_idx(pc, i), "dropped")));
	}
	json_object_put(run);
	load_results("complete", &res);
	assert_int_equal(samples_of(&res, "s-1"), 2);
	assert_int_equal(samples_of(&res, "s-2"), 2);
	assert_int_equal(sched_progress_done(res.progress, "s-2"), 2);
	assert_null(res.order);   /* one step after the other records no order */
	wl_result_release(&res);
	assert_nothing_left();
	/* a complete label is never overwritten without --force */
	assert_int_equal(execute("complete", NULL, false, false, false, NULL), LB_EXIT_USAGE);
	assert_int_equal(execute("complete", NULL, false, false, true, NULL), LB_EXIT_OK);
}

/* With interleave, the steps run in rounds and the order is recorded. */
static void test_interleave(void **state)
{
	static const char *const sets[] = { "global.interleave=yes", NULL };
	static const int want[][2] = { { 0, -1 }, { 1, -1 }, { 2, -1 }, { 0, 0 }, { 1, 0 }, { 2, 0 },
				       { 0, 1 }, { 1, 1 }, { 2, 1 } };
	struct wl_result res;

	(void)state;
	script_reset(3);
	assert_int_equal(execute("interleave", sets, false, false, false, NULL), LB_EXIT_OK);
	assert_int_equal(S.calls, 9);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_int_equal(S.trace[i][0], want[i][0]);
		assert_int_equal(S.trace[i][1], want[i][1]);
	}
	load_results("interleave", &res);
	assert_non_null(res.order);
	assert_int_equal(json_object_array_length(res.order), 6);
	assert_int_equal(samples_of(&res, "s-3"), 2);
	wl_result_release(&res);
	assert_nothing_left();
}

/* An op that fails ends its step; the other steps go on; the run ends
 * failed (exit 1) with the op in failed_ops; --resume runs the step again. */
static void test_op_fails(void **state)
{
	struct wl_result res;
	json_object *run, *fo, *e;
	char *msgs;

	(void)state;
	script_reset(3);
	S.fail_step = 1;
	S.fail_it = 0;
	assert_int_equal(execute("opfail", NULL, false, false, false, &msgs), LB_EXIT_FAIL);
	assert_non_null(strstr(msgs, "injected failure of s-2"));
	assert_non_null(strstr(msgs, "1 op failed"));
	free(msgs);
	/* s-2: its warm-up and the failed iteration, nothing after */
	assert_int_equal(S.calls, 3 + 2 + 3);
	for (size_t i = 0; i < S.calls; i++)
		assert_false(S.trace[i][0] == 1 && S.trace[i][1] > 0);
	run = load_run_json("opfail");
	assert_string_equal(run_status(run), "failed");
	fo = json_object_object_get(run, "failed_ops");
	assert_int_equal(json_object_array_length(fo), 1);
	e = json_object_array_get_idx(fo, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(e, "step")), "s-2");
	assert_string_equal(json_object_get_string(json_object_object_get(e, "iteration")), "iteration 1");
	assert_string_equal(json_object_get_string(json_object_object_get(e, "reason")),
			    "injected failure of s-2");
	json_object_put(run);
	load_results("opfail", &res);
	assert_int_equal(samples_of(&res, "s-1"), 2);
	assert_int_equal(samples_of(&res, "s-2"), 0);
	assert_int_equal(samples_of(&res, "s-3"), 2);
	wl_result_release(&res);
	assert_nothing_left();
	/* --resume: only s-2 is left, and now it passes */
	script_reset(3);
	assert_int_equal(execute("opfail", NULL, false, true, false, NULL), LB_EXIT_OK);
	assert_int_equal(S.calls, 3);
	for (size_t i = 0; i < S.calls; i++)
		assert_int_equal(S.trace[i][0], 1);
	load_results("opfail", &res);
	assert_int_equal(samples_of(&res, "s-2"), 2);
	wl_result_release(&res);
}

/* The kernel log (a plain file here) says a task of the run's memcgs was
 * OOM-killed during an iteration: that op fails, with that reason. */
static void test_oom_in_the_log_fails_the_op(void **state)
{
	json_object *run, *e;
	char *msgs;

	(void)state;
	script_reset(2);
	S.oom_step = 0;
	S.oom_it = 1;
	assert_int_equal(execute("oom", NULL, false, false, false, &msgs), LB_EXIT_FAIL);
	assert_non_null(strstr(msgs, "the kernel OOM-killed"));
	free(msgs);
	assert_int_equal(S.calls, 6);   /* s-2 went on */
	run = load_run_json("oom");
	e = json_object_array_get_idx(json_object_object_get(run, "failed_ops"), 0);
	assert_non_null(e);
	assert_string_equal(json_object_get_string(json_object_object_get(e, "iteration")), "iteration 2");
	assert_non_null(strstr(json_object_get_string(json_object_object_get(e, "reason")), "OOM-killed"));
	/* the record counts for its step in kernel_health, the old one does not */
	assert_non_null(strstr(json_object_to_json_string(json_object_object_get(run, "kernel_health")),
			       "s-1"));
	assert_null(strstr(json_object_to_json_string(run), "before the run"));
	json_object_put(run);
	assert_nothing_left();
}

/* Interrupted (exit 130, status interrupted), then --resume runs exactly
 * the missing iterations; a changed config is refused. */
static void test_resume(void **state)
{
	static const char *const other[] = { "global.iterations=3", NULL };
	struct wl_result res;
	json_object *run;
	size_t first;

	(void)state;
	script_reset(2);
	S.stop_after = 4;   /* s-1 done, then s-2's warm-up interrupted */
	assert_int_equal(execute("resume", NULL, false, false, false, NULL), LB_EXIT_INTERRUPTED);
	lb_interrupted = 0;
	first = S.calls;
	assert_int_equal(first, 4);
	run = load_run_json("resume");
	assert_string_equal(run_status(run), "interrupted");
	json_object_put(run);
	load_results("resume", &res);
	assert_int_equal(samples_of(&res, "s-1"), 2);
	assert_int_equal(samples_of(&res, "s-2"), 0);
	wl_result_release(&res);
	assert_nothing_left();
	/* an interrupted label is neither reused nor continued with another config */
	assert_int_equal(execute("resume", NULL, false, false, false, NULL), LB_EXIT_USAGE);
	assert_int_equal(execute("resume", other, false, true, false, NULL), LB_EXIT_USAGE);
	/* resumed: s-2 only, warm-up again */
	script_reset(2);
	assert_int_equal(execute("resume", NULL, false, true, false, NULL), LB_EXIT_OK);
	assert_int_equal(S.calls, 3);
	assert_int_equal(S.trace[0][0], 1);
	assert_int_equal(S.trace[0][1], -1);
	run = load_run_json("resume");
	assert_string_equal(run_status(run), "complete");
	assert_true(json_object_get_boolean(json_object_object_get(run, "resumed")));
	/* the cache records of both invocations: 4 unit runs, then 3 */
	assert_int_equal(json_object_array_length(json_object_object_get(run, "page_cache")), 7);
	json_object_put(run);
	load_results("resume", &res);
	assert_int_equal(samples_of(&res, "s-1"), 2);
	assert_int_equal(samples_of(&res, "s-2"), 2);
	wl_result_release(&res);
	/* nothing to resume: a usage error */
	assert_int_equal(execute("resume", NULL, false, true, false, NULL), LB_EXIT_USAGE);
	assert_int_equal(execute("no-such", NULL, false, true, false, NULL), LB_EXIT_USAGE);
}

/* Every exit code --dry-run gives is the one the run gives, and a dry run
 * creates nothing: not the label folder, not the cgroup parent. */
struct dry_case {
	const char *what;
	int code;
	const char *msg;            /* in the messages of both */
	void (*arrange)(const char *label);
	const char *const *sets;
};

static void complete_label(const char *label)
{
	char *rel = xasprintf("results/%s/run.json", label);

	free(unit_put(rel, "{\"schema\": 1, \"status\": \"complete\"}"));
	free(rel);
}

static void unsupported_probe(const char *label)
{
	(void)label;
	S.probe = WL_UNSUPPORTED;
}

static void bad_options(const char *label)
{
	(void)label;
	S.validate = WL_BAD_CONFIG;
}

static void stop_requested(const char *label)
{
	(void)label;
	lb_interrupted = 1;
}

static const char *const profile_cpu[] = { "global.profile=cpu", NULL };
static const char *const bad_auto[] = { "global.iterations=auto", "global.min_iterations=9",
					"global.max_iterations=3", NULL };

static const struct dry_case dry_cases[] = {
	{ "ok", LB_EXIT_OK, NULL, NULL, NULL },
	{ "complete label", LB_EXIT_USAGE, "holds a complete run", complete_label, NULL },
	{ "bad options", LB_EXIT_USAGE, "do not fit", bad_options, NULL },
	{ "auto plan", LB_EXIT_USAGE, "max_iterations", NULL, bad_auto },
	{ "probe", LB_EXIT_UNSUPPORTED, "the script says no", unsupported_probe, NULL },
	{ "no perf", LB_EXIT_UNSUPPORTED, "perf", NULL, profile_cpu },
	{ "stop", LB_EXIT_INTERRUPTED, NULL, stop_requested, NULL },
};

static void test_dry_run_exits_as_the_run(void **state)
{
	char *nopath = tmp_path("empty-path"), *oldpath = xstrdup(getenv("PATH"));

	(void)state;
	assert_int_equal(mkdir_p(nopath, 0755), 0);
	setenv("PATH", nopath, 1);   /* no perf: profile=cpu cannot run */
	for (size_t i = 0; i < ARRAY_SIZE(dry_cases); i++) {
		const struct dry_case *c = &dry_cases[i];
		char *label = xasprintf("dry-%zu", i), *msgs;
		int dry, real;

		script_reset(1);
		if (c->arrange)
			c->arrange(label);
		dry = execute(label, c->sets, true, false, false, &msgs);
		lb_interrupted = 0;
		if (c->msg && !strstr(msgs, c->msg))
			fail_msg("%s: dry run said: %s", c->what, msgs);
		free(msgs);
		assert_int_equal(S.calls, 0);
		/* nothing created, unless the case made the folder itself */
		assert_true(label_exists(label) == (c->arrange == complete_label));
		assert_nothing_left();

		script_reset(1);
		if (c->arrange)
			c->arrange(label);
		real = execute(label, c->sets, false, false, false, &msgs);
		lb_interrupted = 0;
		if (c->msg && !strstr(msgs, c->msg))
			fail_msg("%s: the run said: %s", c->what, msgs);
		free(msgs);
		if (dry != c->code || real != c->code)
			fail_msg("%s: dry run %d, run %d, want %d", c->what, dry, real, c->code);
		assert_nothing_left();
		free(label);
	}
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(nopath);
}

/* setup or the workload failing: exit 1 (and teardown still runs) */
static void test_setup_fails(void **state)
{
	json_object *run;

	(void)state;
	script_reset(2);
	S.setup = WL_FAILED;
	assert_int_equal(execute("setupfail", NULL, false, false, false, NULL), LB_EXIT_FAIL);
	assert_int_equal(S.calls, 0);
	assert_int_equal(S.teardowns, 1);
	run = load_run_json("setupfail");
	assert_string_equal(run_status(run), "failed");
	json_object_put(run);
	assert_nothing_left();
}

/* The decision alone: every step not yet profiled, none without a profile. */
static void test_profile_plan(void **state)
{
	struct profile_run pr = { .kind = PROFILE_CPU };
	char *names[] = { "s-1", "s-2", "s-3" };
	struct wl_ctx c = { .ops = &injected, .steps = names, .nsteps = 3 };
	struct wl_result res = { 0 };
	bool want[3];
	json_object *e = json_object_new_object();

	(void)state;
	assert_int_equal(run_profile_plan(&pr, &c, &res, want), 3);
	assert_true(want[0] && want[1] && want[2]);
	res.progress = json_object_new_array();
	json_object_object_add(e, "step", json_object_new_string("s-2"));
	json_object_object_add(e, "profiled", json_object_new_boolean(1));
	json_object_array_add(res.progress, e);
	assert_int_equal(run_profile_plan(&pr, &c, &res, want), 2);
	assert_true(want[0] && !want[1] && want[2]);
	pr.kind = PROFILE_NONE;
	assert_int_equal(run_profile_plan(&pr, &c, &res, want), 0);
	assert_false(want[0] || want[1] || want[2]);
	wl_result_release(&res);
}

/* The phases one by one, with a profile: after run_check the kind is set
 * (see the top), so each step gets one pass after its timed iterations --
 * none for a step whose op failed -- and "profiled" is saved. */
static size_t profile_entries(const struct wl_result *res, const char *step, size_t *at)
{
	size_t n = 0;

	for (size_t i = 0; res->details && i < json_object_array_length(res->details); i++) {
		json_object *d = json_object_array_get_idx(res->details, i), *s;

		if (json_object_object_get_ex(d, "profile", NULL) && json_object_object_get_ex(d, "step", &s) &&
		    !strcmp(json_object_get_string(s), step)) {
			n++;
			if (at)
				*at = i;
		}
	}
	return n;
}

static bool step_profiled(const struct wl_result *res, const char *step)
{
	for (size_t i = 0; res->progress && i < json_object_array_length(res->progress); i++) {
		json_object *e = json_object_array_get_idx(res->progress, i), *s, *p;

		if (json_object_object_get_ex(e, "step", &s) && !strcmp(json_object_get_string(s), step))
			return json_object_object_get_ex(e, "profiled", &p) && json_object_get_boolean(p);
	}
	return false;
}

static unsigned passes_made;

static int phases_with_profile(const char *label, bool resume)
{
	struct run r;
	int ret;

	run_new(&r, label, NULL);
	r.rs.resume = resume;
	ret = run_check(&r.rs);
	if (!ret) {
		r.rs.prof.kind = PROFILE_CPU;
		ret = run_open_label(&r.rs);
	}
	if (!ret)
		ret = run_finish(&r.rs, run_workloads(&r.rs));
	passes_made = r.rs.prof.failed;   /* every pass fails here (no perf) */
	run_state_release(&r.rs);
	run_release(&r);
	return ret;
}

static void test_profile_pass_per_step(void **state)
{
	char *nopath = tmp_path("empty-path"), *oldpath = xstrdup(getenv("PATH"));
	struct wl_result res;
	size_t at1 = 0, at3 = 0;

	(void)state;
	assert_int_equal(mkdir_p(nopath, 0755), 0);
	setenv("PATH", nopath, 1);
	script_reset(3);
	S.fail_step = 1;
	S.fail_it = 1;
	assert_int_equal(phases_with_profile("profiled", false), LB_EXIT_FAIL);
	assert_int_equal(passes_made, 2);
	load_results("profiled", &res);
	assert_int_equal(profile_entries(&res, "s-1", &at1), 1);
	assert_int_equal(profile_entries(&res, "s-2", NULL), 0);   /* its op failed */
	assert_int_equal(profile_entries(&res, "s-3", &at3), 1);
	assert_true(at1 < at3);
	assert_true(step_profiled(&res, "s-1") && !step_profiled(&res, "s-2") && step_profiled(&res, "s-3"));
	wl_result_release(&res);
	/* --resume: s-2's iterations, then its pass; s-1 and s-3 are not profiled again */
	script_reset(3);
	assert_int_equal(phases_with_profile("profiled", true), LB_EXIT_OK);
	assert_int_equal(passes_made, 1);
	/* s-2's warm-up and its one missing iteration */
	assert_int_equal(S.calls, 2);
	assert_int_equal(S.trace[0][0], 1);
	assert_int_equal(S.trace[1][0], 1);
	assert_int_equal(S.trace[1][1], 1);
	load_results("profiled", &res);
	assert_int_equal(profile_entries(&res, "s-1", NULL), 1);
	assert_int_equal(profile_entries(&res, "s-2", NULL), 1);
	assert_int_equal(profile_entries(&res, "s-3", NULL), 1);
	assert_true(step_profiled(&res, "s-2"));
	wl_result_release(&res);
	assert_nothing_left();
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(nopath);
}

/* A run interrupted after a step's timed iterations, before its pass: the
 * resumed run makes the pass first, before any other iteration. */
static void test_resume_makes_a_pending_pass_first(void **state)
{
	char *nopath = tmp_path("empty-path"), *oldpath = xstrdup(getenv("PATH"));
	struct wl_result res;
	size_t at = 0;

	(void)state;
	assert_int_equal(mkdir_p(nopath, 0755), 0);
	setenv("PATH", nopath, 1);
	/* without a profile, interrupted in s-2's warm-up: s-1 finished, not profiled */
	script_reset(2);
	S.stop_after = 4;
	assert_int_equal(execute("pending", NULL, false, false, false, NULL), LB_EXIT_INTERRUPTED);
	lb_interrupted = 0;
	script_reset(2);
	assert_int_equal(phases_with_profile("pending", true), LB_EXIT_OK);
	load_results("pending", &res);
	assert_int_equal(profile_entries(&res, "s-1", &at), 1);
	/* the pass of s-1 comes before the details of s-2's iterations */
	for (size_t i = 0; i < at; i++) {
		json_object *s = json_object_object_get(json_object_array_get_idx(res.details, i), "step");
		assert_string_equal(json_object_get_string(s), "s-1");
	}
	assert_int_equal(profile_entries(&res, "s-2", NULL), 1);
	wl_result_release(&res);
	setenv("PATH", oldpath, 1);
	free(oldpath);
	free(nopath);
}

/* An iteration cut short by SIGINT is said to be interrupted, not done
 * (issue 30, 23): its samples are not recorded, and the progress line must
 * not claim them. */
static void test_interrupted_iteration_is_not_done(void **state)
{
	char *path = tmp_path("progress.out"), *out;
	int saved = dup(1), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	size_t len;

	(void)state;
	assert_true(saved >= 0 && fd >= 0);
	script_reset(2);
	S.stop_after = 3;   /* s-1: warm-up, iteration 1, then 2/2 interrupted */
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	lb_quiet = false;
	assert_int_equal(execute("cut", NULL, false, false, false, NULL), LB_EXIT_INTERRUPTED);
	fflush(stdout);
	lb_quiet = true;
	dup2(saved, 1);
	close(saved);
	lb_interrupted = 0;
	out = read_file_str(path, &len);
	assert_non_null(out);
	assert_non_null(strstr(out, "s-1 iteration 1/2 done in"));
	assert_non_null(strstr(out, "s-1 iteration 2/2 interrupted after"));
	assert_null(strstr(out, "iteration 2/2 done in"));
	free(out);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_complete),
		cmocka_unit_test(test_interrupted_iteration_is_not_done),
		cmocka_unit_test(test_interleave),
		cmocka_unit_test(test_op_fails),
		cmocka_unit_test(test_oom_in_the_log_fails_the_op),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_dry_run_exits_as_the_run),
		cmocka_unit_test(test_setup_fails),
		cmocka_unit_test(test_profile_plan),
		cmocka_unit_test(test_profile_pass_per_step),
		cmocka_unit_test(test_resume_makes_a_pending_pass_first),
	};
	return cmocka_run_group_tests(tests, machine_setup, machine_teardown);
}
