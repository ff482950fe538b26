// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iterations = auto (core/adaptive.h) and the schedule that runs it
 * (core/schedule.h), run by the real loop (run_workload, src/run/) over a
 * workload that exists only here ("injected"), whose samples are
 * generated with a known spread and whose iterations take a set time on
 * the loop's clock (no sleeping) -- in place of a real workload, which
 * needs root and cgroups (tests/integration/adaptive.sh runs those). A few
 * tests look at the schedule alone. The expected stopping points are
 * computed here independently: the test's own mean and standard deviation
 * and R's qt(0.975, df) written out below, not the code under test.
 */
#include <math.h>
#include "unit.h"
#include "compare/noise_floor.h"
#include "core/noise_file.h"
#include "core/adaptive.h"
#include "core/cleanup.h"
#include "core/schedule.h"
#include "core/workload.h"
#include "run/step_loop.h"

/* R: qt(0.975, 1:40) */
static const double qt975[41] = {
	NAN, 12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
	2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
	2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
	2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272, 2.039513, 2.036933,
	2.034515, 2.032245, 2.030108, 2.028094, 2.026192, 2.024394, 2.022691, 2.021075,
};

/* The reference: the first n >= min at which the Amean's 95% half-width
 * is within goal percent of it. */
static size_t reference_stop(const double *x, size_t max, size_t min, double goal)
{
	for (size_t n = min; n <= max && n <= 40; n++) {
		double m = 0, sq = 0;

		for (size_t i = 0; i < n; i++)
			m += x[i];
		m /= (double)n;
		for (size_t i = 0; i < n; i++)
			sq += (x[i] - m) * (x[i] - m);
		if (100 * qt975[n - 1] * sqrt(sq / (double)(n - 1) / (double)n) / m <= goal)
			return n;
	}
	return 0;
}

/* A reproducible normal stream (LCG + Box-Muller), mean 100, cv percent. */
static void normal_stream(double *x, size_t n, double cv, unsigned seed)
{
	unsigned long long s = seed;

	for (size_t i = 0; i < n; i += 2) {
		double u1, u2, r;

		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		u1 = ((double)(s >> 11) + 1) / 9007199254740993.0;
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		u2 = (double)(s >> 11) / 9007199254740992.0;
		r = sqrt(-2 * log(u1));
		x[i] = 100 * (1 + cv / 100 * r * cos(2 * M_PI * u2));
		if (i + 1 < n)
			x[i + 1] = 100 * (1 + cv / 100 * r * sin(2 * M_PI * u2));
	}
}

/* ---- the injected workload, driven by the real loop ---- */

static const struct table_def injected_tables[] = {
	{ "injected latency", "ms", BETTER_LOWER, { "steps", "count" } },
	{ "injected side table", "ms", BETTER_LOWER, { NULL, NULL } },
	{ NULL, NULL, 0, { NULL, NULL } },
};

static char *step_names[] = { "s-1", "s-2", "s-3" };

struct source {
	const double *x[3];          /* per step, the samples in order */
	double secs;                 /* what every iteration "took" */
	size_t trace[64][2];         /* (step, iteration + 100) as run, warm-ups too */
	size_t ntrace;
	int fail_step, fail_it;      /* this iteration's op fails (fail_it 0 with fail_step 0: none) */
};

/* what the injected run_step reads: the driver sets them */
static struct source *cur;
static size_t cur_limit, cur_ran;
static double fake_now;

static double fake_clock(void)
{
	return fake_now;
}

static enum wl_status inj_setup(struct wl_ctx *ctx)
{
	(void)ctx;   /* the steps are make_ctx's */
	return WL_OK;
}

/* One sample of the step's op per measured iteration (and one of the side
 * table), taking src->secs on the loop's clock; after `limit` measured
 * iterations a stop is requested, as SIGINT would. */
static enum wl_status inj_run_step(struct wl_ctx *ctx, size_t s, struct wl_samples *smp)
{
	int it = smp->iteration;

	(void)ctx;
	if (cur_ran >= cur_limit) {
		lb_interrupted = 1;
		return WL_INTERRUPTED;
	}
	if (cur->ntrace < ARRAY_SIZE(cur->trace)) {
		cur->trace[cur->ntrace][0] = s;
		cur->trace[cur->ntrace++][1] = (size_t)(it + 100);
	}
	fake_now += cur->secs;
	if ((cur->fail_step || cur->fail_it) && (int)s == cur->fail_step && it == cur->fail_it)
	{
		strbuf_addstr(&smp->why, "injected failure");
		return WL_OP_FAILED;
	}
	if (it < 0)
		return WL_OK;
	wl_sample(smp, 0, step_names[s], cur->x[s][it]);
	wl_sample(smp, 1, "side", 1.0);
	cur_ran++;
	return WL_OK;
}

static const struct workload_ops injected = {
	.name = "injected", .tables = injected_tables, .setup = inj_setup, .run_step = inj_run_step,
};

static struct wl_ctx make_ctx(size_t nsteps, unsigned long long iterations, unsigned long long warmup)
{
	struct wl_ctx c = { 0 };

	c.ops = &injected;
	c.steps = step_names;
	c.nsteps = nsteps;
	c.iterations = iterations;
	c.warmup = warmup;
	return c;
}

static size_t last_op_failed;

/*
 * Run the iterations the schedule sc was made for (sched_init: its
 * plan, order and baseline) with the real loop, run_workload
 * (src/run/step_loop.c), at most `limit` measured ones; res is saved as a
 * run saves it. sc is then made again from res, as --resume would see it,
 * so the caller reads the steps' state (done, stopped) from it. Returns
 * the measured iterations run.
 */
static size_t drive(struct schedule *sc, struct wl_result *res, struct source *src, size_t limit)
{
	struct wl_ctx c = make_ctx(sc->nsteps, sc->adaptive ? LB_AUTO : sc->iterations, sc->warmup);
	struct config cfg;
	struct run_state rs;
	struct label_result base = { 0 };
	struct wl_result base_wl = { 0 };
	struct adaptive_plan plan = sc->plan;
	bool interleave = sc->interleave, adaptive = sc->adaptive;
	const struct wl_result *baseline = sc->baseline;
	char *path = xasprintf("%s/injected.json", unit_tmp);
	enum wl_status st;

	memset(&cfg, 0, sizeof(cfg));
	memset(&rs, 0, sizeof(rs));
	cfg.g.interleave = interleave;
	rs.cfg = &cfg;
	rs.env.g = &cfg.g;
	rs.env.label_dir = unit_tmp;
	rs.run_json = json_object_new_object();
	rs.plan = plan;
	rs.clock = fake_clock;
	if (baseline) {
		/* run --baseline: the same workload in another label */
		base_wl = *baseline;
		base_wl.workload = (char *)"injected";
		base.wls = &base_wl;
		base.nwls = 1;
		rs.baseline = &base;
	}
	kernel_health_start(&rs.health, "/nonexistent/kmsg", NULL, NULL);
	if (!res->workload)
		res->workload = xstrdup("injected");
	cur = src;
	cur_limit = limit;
	cur_ran = 0;
	last_op_failed = 0;
	sched_release(sc);
	st = run_workload(&rs, &c, res, path, &last_op_failed);
	assert_true(st == WL_OK || (st == WL_INTERRUPTED && cur_ran == limit));
	lb_interrupted = 0;
	kernel_health_end(&rs.health);
	json_object_put(rs.run_json);
	json_object_put(rs.failed_ops);
	json_object_put(rs.page_cache);
	profile_run_release(&rs.prof);
	free(path);
	sched_init(sc, &c, res, adaptive ? &plan : NULL, interleave, baseline);
	return cur_ran;
}

static json_object *record(const struct wl_result *res, const char *op, const char *key)
{
	for (size_t i = 0; res->adaptive && i < json_object_array_length(res->adaptive); i++) {
		json_object *e = json_object_array_get_idx(res->adaptive, i), *o, *v;
		if (json_object_object_get_ex(e, "op", &o) && !strcmp(json_object_get_string(o), op) &&
		    json_object_object_get_ex(e, "table", &o) &&
		    !strcmp(json_object_get_string(o), "injected latency"))
			return json_object_object_get_ex(e, key, &v) ? v : NULL;
	}
	return NULL;
}

/* how many records name a table whose title starts with prefix */
static size_t records_of(const struct wl_result *res, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; res->adaptive && i < json_object_array_length(res->adaptive); i++) {
		json_object *t = json_object_object_get(json_object_array_get_idx(res->adaptive, i), "table");

		n += t && !strncmp(json_object_get_string(t), prefix, strlen(prefix)) &&
		     (!strcmp(json_object_get_string(t), "injected latency") ||
		      !strcmp(json_object_get_string(t), "injected side table"));
	}
	return n;
}

static const struct adaptive_plan plan2 = { 2.0, 3, 100, 0 };

/* ---- the decision ---- */

/*
 * 105, 95, 105, 95 ...: for an even n the Amean is 100 and the half-width
 * is qt(0.975, n-1) * 5 / sqrt(n-1) percent, within 2% from n = 28 on
 * (df 27: 2.0518 * 5 / 5.196 = 1.974; df 25: 2.0595 * 5 / 5 = 2.059; the
 * odd n = 27 has a shifted mean and 2.01%).
 */
static void test_stops_where_the_statistics_predict(void **state)
{
	double x[40];
	struct wl_ctx c = make_ctx(1, LB_AUTO, 0);
	struct wl_result res = { 0 };
	struct schedule sc;
	struct source src = { { x }, 1.0, { { 0 } }, 0 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = i % 2 ? 95 : 105;
	assert_int_equal(reference_stop(x, 40, 3, 2.0), 28);
	sched_init(&sc, &c, &res, &plan2, false, NULL);
	assert_int_equal(drive(&sc, &res, &src, 100), 28);
	assert_int_equal(sc.st[0].stopped, ADAPTIVE_REACHED);
	assert_int_equal(json_object_get_int(record(&res, "s-1", "iterations")), 28);
	assert_string_equal(json_object_get_string(record(&res, "s-1", "stopped")), "reached");
	assert_true(json_object_get_double(record(&res, "s-1", "precision")) <= 2.0);
	assert_true(json_object_get_double(record(&res, "s-1", "precision")) > 1.9);
	/* the ops of other tables are recorded, not deciding (the run's own
	 * explaining tables, CPU split and vmstat, are recorded too) */
	assert_non_null(res.adaptive);
	assert_int_equal(records_of(&res, "injected "), 2);
	sched_release(&sc);
	wl_result_release(&res);
}

/* The progress note is the precision of the step being measured: the
 * warm-up of the next step clears the last step's, and the next step's
 * own appears once it has two samples. */
static void test_note_follows_the_measured_step(void **state)
{
	double x[40];
	struct wl_ctx c = make_ctx(2, LB_AUTO, 1);
	struct wl_result res = { 0 };
	struct schedule sc;
	struct adaptive_plan p = { 2.0, 3, 5, 0 };
	size_t s, measured[2] = { 0, 0 };
	int it;
	bool cleared = false;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = i % 2 ? 90 : 110;
	sched_init(&sc, &c, &res, &p, false, NULL);
	while (sched_next(&sc, &s, &it)) {
		struct wl_result staging = { 0 };

		if (it < 0) {
			if (s == 1) {
				/* s-1 ran to its cap: its precision is the note until now */
				assert_int_equal(measured[0], 5);
				assert_non_null(strstr(sc.note, "(goal 2%)"));
				assert_true(sc.note[0] != '\0');
			}
			sched_warmed(&sc, s);
			if (s == 1) {
				assert_string_equal(sc.note, "");
				cleared = true;
			}
			continue;
		}
		staging.workload = xstrdup("injected");
		result_table_add(wl_result_table(&staging, "injected latency", "ms", BETTER_LOWER),
				 step_names[s], x[it]);
		result_table_add(wl_result_table(&res, "injected latency", "ms", BETTER_LOWER),
				 step_names[s], x[it]);
		sched_measured(&sc, s, 1.0, &res, &staging);
		wl_result_release(&staging);
		measured[s]++;
		if (s == 1 && measured[1] >= 2)
			assert_non_null(strstr(sc.note, "%"));
	}
	assert_true(cleared);
	assert_int_equal(measured[1], 5);
	sched_release(&sc);
	wl_result_release(&res);
}

/* Normal samples of a known spread: the stop is where the statistics of
 * exactly these samples reach the goal, near (1.96 * cv / goal)^2. */
static void test_random_stream_stops_at_the_reference(void **state)
{
	static const double cvs[] = { 3, 4, 5 };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(cvs); k++) {
		double x[40];
		struct wl_ctx c = make_ctx(1, LB_AUTO, 0);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x }, 1.0, { { 0 } }, 0 };
		struct adaptive_plan p = { 2.0, 3, 40, 0 };
		size_t want;

		normal_stream(x, ARRAY_SIZE(x), cvs[k], 7 + (unsigned)k);
		want = reference_stop(x, 40, 3, 2.0);
		assert_true(want >= 3);
		sched_init(&sc, &c, &res, &p, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 100), want);
		assert_int_equal(sc.st[0].stopped, ADAPTIVE_REACHED);
		/* and in the neighbourhood the normal approximation says */
		assert_true(want >= 0.3 * pow(1.96 * cvs[k] / 2, 2));
		assert_true(want <= 3.0 * pow(1.96 * cvs[k] / 2, 2) + 5);
		sched_release(&sc);
		wl_result_release(&res);
	}
}

static void test_caps_stop_it(void **state)
{
	double x[40];
	struct wl_ctx c = make_ctx(1, LB_AUTO, 0);

	(void)state;
	normal_stream(x, ARRAY_SIZE(x), 30, 3);
	{
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x }, 1.0, { { 0 } }, 0 };
		struct adaptive_plan p = { 2.0, 3, 10, 0 };

		sched_init(&sc, &c, &res, &p, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 100), 10);
		assert_int_equal(sc.st[0].stopped, ADAPTIVE_ITER_CAP);
		assert_string_equal(json_object_get_string(record(&res, "s-1", "stopped")), "iteration cap");
		sched_release(&sc);
		wl_result_release(&res);
	}
	{
		/* 1 s an iteration, 5.5 s: after 5 a sixth would end at 6 s */
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x }, 1.0, { { 0 } }, 0 };
		struct adaptive_plan p = { 2.0, 3, 30, 5.5 };

		sched_init(&sc, &c, &res, &p, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 100), 5);
		assert_int_equal(sc.st[0].stopped, ADAPTIVE_TIME_CAP);
		assert_string_equal(json_object_get_string(record(&res, "s-1", "stopped")), "time cap");
		sched_release(&sc);
		wl_result_release(&res);
	}
	{
		/* a budget below min_iterations' time: the minimum still runs */
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x }, 1.0, { { 0 } }, 0 };
		struct adaptive_plan p = { 2.0, 3, 30, 1 };

		sched_init(&sc, &c, &res, &p, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 100), 3);
		assert_int_equal(sc.st[0].stopped, ADAPTIVE_TIME_CAP);
		sched_release(&sc);
		wl_result_release(&res);
	}
}

static void eval_against(const double *x, size_t n, const double *base, size_t nb,
			 struct adaptive_op *op)
{
	memset(op, 0, sizeof(*op));
	op->x = x;
	op->n = n;
	op->better = BETTER_LOWER;
	op->base = base;
	op->nbase = nb;
	adaptive_op_eval(&plan2, op);
}

static void test_baseline_decides(void **state)
{
	double base[10], worse[3], same[3], wide[3], precise[3];
	struct adaptive_op op;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		base[i] = i % 2 ? 99.5 : 100.5;
	for (size_t i = 0; i < 3; i++) {
		worse[i] = (i % 2 ? 109.5 : 110.5);
		same[i] = (i % 2 ? 99.9 : 100.1);
		precise[i] = (i % 2 ? 99.99 : 100.01);
	}
	/* 10% slower, lower is better: the interval is all below 0 */
	eval_against(worse, 3, base, 10, &op);
	assert_true(op.change_ok);
	assert_true(op.change_hi < 0);
	assert_int_equal(op.state, ADAPTIVE_OP_DECIDED);
	assert_int_equal(adaptive_decide(&plan2, &op, 1, 3, 3), ADAPTIVE_REACHED);
	/* no change, and an interval within ±2% */
	eval_against(same, 3, base, 10, &op);
	assert_true(op.change_lo < 0 && op.change_hi > 0);
	assert_true((op.change_hi - op.change_lo) / 2 <= 2.0);
	assert_int_equal(op.state, ADAPTIVE_OP_REACHED);
	/* a baseline too vague for ±2%: never "reached" on this side's own
	 * precision (that claimed an equivalence the interval did not show) */
	for (size_t i = 0; i < 3; i++)
		wide[i] = i % 2 ? 80 : 120;
	eval_against(precise, 3, wide, 3, &op);
	assert_true(op.change_ok && (op.change_hi - op.change_lo) / 2 > 2.0);
	assert_int_not_equal(op.state, ADAPTIVE_OP_REACHED);
	/* two vague sides and no change seen: the cap's interval would be
	 * ±60%, "too noisy" at once instead of 97 more iterations */
	eval_against(wide, 3, wide, 3, &op);
	assert_true(op.cap_half > 2.0);
	assert_int_equal(op.state, ADAPTIVE_OP_NOISY);
	assert_int_equal(adaptive_decide(&plan2, &op, 1, 3, 3), ADAPTIVE_NOISY);
	/* a change the cap could still decide keeps it open: 1% spread a
	 * side, 3 samples against 10, a change of -1.8% (lower is better) */
	{
		double b10[10], x3[3];

		for (size_t i = 0; i < 10; i++)
			b10[i] = i % 2 ? 99 : 101;
		for (size_t i = 0; i < 3; i++)
			x3[i] = (i % 2 ? 100.5 : 102.5);
		eval_against(x3, 3, b10, 10, &op);
		assert_true(op.change_lo < 0 && op.change_hi > 0);
		assert_int_equal(op.state, ADAPTIVE_OP_OPEN);
		assert_int_equal(adaptive_decide(&plan2, &op, 1, 3, 3), ADAPTIVE_CONTINUE);
	}
	/* no baseline samples: the precision rule */
	eval_against(precise, 3, NULL, 0, &op);
	assert_false(op.change_ok);
	assert_int_equal(op.state, ADAPTIVE_OP_REACHED);
}

/* The change's interval against a baseline comes from compare's own
 * statistics: a step stops with "decided" recorded with the interval. */
static void test_baseline_in_the_schedule(void **state)
{
	double base[8] = { 100.5, 99.5, 100.5, 99.5, 100.5, 99.5, 100.5, 99.5 };
	double x[10];
	struct wl_ctx c = make_ctx(1, LB_AUTO, 0);
	struct wl_result res = { 0 }, bres = { 0 };
	struct schedule sc;
	struct source src = { { x }, 1.0, { { 0 } }, 0 };
	json_object *ci;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = i % 2 ? 119 : 121;
	for (size_t i = 0; i < ARRAY_SIZE(base); i++)
		result_table_add(wl_result_table(&bres, "injected latency", "ms", BETTER_LOWER), "s-1", base[i]);
	sched_init(&sc, &c, &res, &plan2, false, &bres);
	assert_int_equal(drive(&sc, &res, &src, 100), 3);
	assert_string_equal(json_object_get_string(record(&res, "s-1", "stopped")), "decided");
	ci = record(&res, "s-1", "change_ci");
	assert_non_null(ci);
	assert_true(json_object_get_double(json_object_array_get_idx(ci, 1)) < -10);
	sched_release(&sc);
	wl_result_release(&res);
	wl_result_release(&bres);
}

/* ---- the order ---- */

static void test_sequential_and_interleaved_order(void **state)
{
	static const size_t seq[][2] = {
		{ 0, 99 }, { 0, 100 }, { 0, 101 }, { 1, 99 }, { 1, 100 }, { 1, 101 },
		{ 2, 99 }, { 2, 100 }, { 2, 101 },
	};
	static const size_t inter[][2] = {
		{ 0, 99 }, { 1, 99 }, { 2, 99 }, { 0, 100 }, { 1, 100 }, { 2, 100 },
		{ 0, 101 }, { 1, 101 }, { 2, 101 },
	};
	double x[3] = { 1, 2, 3 };

	(void)state;
	for (int il = 0; il < 2; il++) {
		struct wl_ctx c = make_ctx(3, 2, 1);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x, x, x }, 1.0, { { 0 } }, 0 };
		const size_t (*want)[2] = il ? inter : seq;

		sched_init(&sc, &c, &res, NULL, il, NULL);
		assert_int_equal(sched_units_left(&sc), 9);
		assert_int_equal(drive(&sc, &res, &src, 100), 6);
		assert_int_equal(src.ntrace, 9);
		for (size_t i = 0; i < 9; i++) {
			assert_int_equal(src.trace[i][0], want[i][0]);
			assert_int_equal(src.trace[i][1], want[i][1]);
		}
		assert_int_equal(sched_units_left(&sc), 0);
		if (!il) {
			assert_null(res.order);
		} else {
			/* the measured iterations, in the order they ran */
			assert_int_equal(json_object_array_length(res.order), 6);
			for (size_t i = 0; i < 6; i++) {
				json_object *e = json_object_array_get_idx(res.order, i), *v;
				assert_true(json_object_object_get_ex(e, "step", &v));
				assert_string_equal(json_object_get_string(v), step_names[i % 3]);
				assert_true(json_object_object_get_ex(e, "iteration", &v));
				assert_int_equal(json_object_get_int(v), (int)(i / 3));
			}
		}
		assert_int_equal(sched_progress_done(res.progress, "s-2"), 2);
		assert_null(res.adaptive);   /* fixed counts record no decision */
		sched_release(&sc);
		wl_result_release(&res);
	}
}

/*
 * An op that fails (WL_OP_FAILED) ends its step in run_workload: the
 * schedule hands out no more of it, the other steps go on in their order,
 * and its progress is what was saved, so --resume runs it again.
 */
static void test_abandoned_step_ends_alone(void **state)
{
	double x[3] = { 1, 2, 3 };

	(void)state;
	for (int il = 0; il < 2; il++) {
		struct wl_ctx c = make_ctx(3, 3, 0);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x, x, x }, 1.0, { { 0 } }, 0, 1, 0 };
		size_t s, tried = 0;
		int it;

		sched_init(&sc, &c, &res, NULL, il, NULL);
		/* step s-2's first iteration fails */
		assert_int_equal(drive(&sc, &res, &src, 100), 6);
		assert_int_equal(last_op_failed, 1);
		for (size_t i = 0; i < src.ntrace; i++)
			if (src.trace[i][0] == 1) {
				assert_int_equal(src.trace[i][1], 100);
				tried++;
			}
		assert_int_equal(tried, 1);
		/* interleaved, the rounds went on without it */
		if (il)
			assert_int_equal(src.trace[3][0], 0);
		assert_int_equal(sched_progress_done(res.progress, "s-1"), 3);
		assert_int_equal(sched_progress_done(res.progress, "s-2"), 0);
		assert_int_equal(sched_progress_done(res.progress, "s-3"), 3);
		sched_release(&sc);
		/* --resume: only s-2 is left */
		sched_init(&sc, &c, &res, NULL, il, NULL);
		assert_int_equal(sched_units_left(&sc), 3);
		assert_true(sched_next(&sc, &s, &it));
		assert_int_equal(s, 1);
		sched_release(&sc);
		wl_result_release(&res);
	}
}

/* ---- resume ---- */

/* Through the results file and back, as --resume reads it. */
static void reload(struct wl_result *res)
{
	struct strbuf err = STRBUF_INIT;
	json_object *o;

	if (!res->workload)
		res->workload = xstrdup("injected");
	o = wl_result_to_json(res);
	wl_result_release(res);
	assert_int_equal(wl_result_from_json(o, "injected.json", res, &err), 0);
	json_object_put(o);
	strbuf_release(&err);
}

static void test_resume_continues_where_it_stopped(void **state)
{
	double x[40], y[40];
	struct adaptive_plan p = { 2.0, 3, 40, 0 };
	size_t whole, first, second;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(x); i++)
		x[i] = i % 2 ? 95 : 105;
	normal_stream(y, ARRAY_SIZE(y), 30, 5);
	{
		struct wl_ctx c = make_ctx(2, LB_AUTO, 1);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x, y }, 1.0, { { 0 } }, 0 };

		sched_init(&sc, &c, &res, &p, true, NULL);
		whole = drive(&sc, &res, &src, 1000);
		sched_release(&sc);
		wl_result_release(&res);
	}
	{
		/* interrupted after 9 measured iterations, then resumed */
		struct wl_ctx c = make_ctx(2, LB_AUTO, 1);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { x, y }, 1.0, { { 0 } }, 0 };

		sched_init(&sc, &c, &res, &p, true, NULL);
		first = drive(&sc, &res, &src, 9);
		sched_release(&sc);
		assert_int_equal(first, 9);
		reload(&res);
		assert_int_equal(sched_progress_done(res.progress, "s-1") + sched_progress_done(res.progress, "s-2"), 9);
		src.ntrace = 0;
		sched_init(&sc, &c, &res, &p, true, NULL);
		/* warm-ups again, then the first missing iterations */
		second = drive(&sc, &res, &src, 1000);
		assert_int_equal(src.trace[0][1], 99);
		assert_int_equal(src.trace[1][1], 99);
		assert_int_equal(src.trace[2][1], 100 + 5);
		assert_int_equal(first + second, whole);
		assert_int_equal(sc.st[0].done, 28);
		assert_int_equal(sc.st[1].stopped, ADAPTIVE_ITER_CAP);
		assert_int_equal(json_object_array_length(res.order), whole);
		sched_release(&sc);
		/* a finished run resumed has nothing left */
		reload(&res);
		sched_init(&sc, &c, &res, &p, true, NULL);
		assert_int_equal(drive(&sc, &res, &src, 1000), 0);
		sched_release(&sc);
		wl_result_release(&res);
	}
	{
		/* the time cap counts the time before the interruption */
		double z[40];
		struct wl_ctx c = make_ctx(1, LB_AUTO, 0);
		struct wl_result res = { 0 };
		struct schedule sc;
		struct source src = { { z }, 1.0, { { 0 } }, 0 };
		struct adaptive_plan pt = { 2.0, 3, 30, 5.5 };

		normal_stream(z, ARRAY_SIZE(z), 30, 9);
		sched_init(&sc, &c, &res, &pt, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 3), 3);
		sched_release(&sc);
		reload(&res);
		sched_init(&sc, &c, &res, &pt, false, NULL);
		assert_int_equal(drive(&sc, &res, &src, 100), 2);
		assert_int_equal(sc.st[0].stopped, ADAPTIVE_TIME_CAP);
		sched_release(&sc);
		wl_result_release(&res);
	}
}

static void test_plan_and_names(void **state)
{
	struct global_opts g = { 0 };
	struct adaptive_plan p;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	g.precision = 3;
	g.min_iterations = 5;
	g.max_iterations = 4;
	assert_int_equal(adaptive_plan_from_config(&g, &p, &err), -1);
	assert_non_null(strstr(err.buf, "global.max_iterations=4"));
	g.max_iterations = 5;
	assert_int_equal(adaptive_plan_from_config(&g, &p, &err), 0);
	for (int s = ADAPTIVE_REACHED; s <= ADAPTIVE_TIME_CAP; s++)
		assert_int_equal(adaptive_stop_from_name(adaptive_stop_name(s)), s);
	assert_int_equal(adaptive_stop_from_name("bogus"), ADAPTIVE_CONTINUE);
	strbuf_release(&err);
}

/* ---- the A/A noise floor ---- */

static void test_aa_floor(void **state)
{
	double same[20], noisy[20], drift[20], jitter[20];
	struct noise_op no;

	(void)state;
	/* two identical streams without spread: nothing to tell apart, floor 0 */
	for (size_t i = 0; i < 20; i++)
		same[i] = 100;
	assert_true(noise_aa(same, 20, BETTER_HIGHER, &no));
	assert_int_equal(no.na, 10);
	assert_int_equal(no.nb, 10);
	assert_true(fabs(no.floor) < 1e-9);
	/* ... and with a jitter of 0.01%: near 0 */
	for (size_t i = 0; i < 20; i++)
		jitter[i] = 100 + ((i / 2) % 2 ? 0.01 : -0.01);
	assert_true(noise_aa(jitter, 20, BETTER_HIGHER, &no));
	assert_true(no.floor < 0.05);
	/* a stream with 10% spread: a wide floor */
	normal_stream(noisy, 20, 10, 11);
	assert_true(noise_aa(noisy, 20, BETTER_LOWER, &no));
	assert_true(no.spread > 5 && no.spread < 20);
	assert_true(no.floor > 5);
	/* more samples a side narrow it, by about sqrt */
	assert_true(noise_floor_at(no.spread, 0, 40, 40) < noise_floor_at(no.spread, 0, 10, 10) / 1.8);
	/* A' 10% slower than A (lower is better): a drift shows as bias */
	for (size_t i = 0; i < 20; i++)
		drift[i] = i % 2 ? 110 : 100;
	assert_true(noise_aa(drift, 20, BETTER_LOWER, &no));
	assert_true(fabs(no.bias + 10) < 1e-9);
	assert_true(no.floor >= 10);
	/* too few samples a side */
	assert_false(noise_aa(drift, 3, BETTER_LOWER, &no));
}

/* The spread between runs: a hand-worked analysis of variance, then the
 * estimate on generated runs with a known run effect (its mean square is
 * unbiased: the mean of many estimates lands on the truth). */
static void test_between_runs(void **state)
{
	static const double r1[] = { 1, 3 }, r2[] = { 5, 7 };
	const double *two[] = { r1, r2 };
	size_t n2[] = { 2, 2 };
	double w, b, sum_b2 = 0, sum_w2 = 0, sum_b2_none = 0;
	double runs[10][4], effect[10];
	const double *rp[10];
	size_t n[10];

	(void)state;
	/* grand mean 4; MSW = 4 / 2 = 2; MSB = 16 / 1 = 16; n0 = (4 - 8/4) / 1 = 2;
	 * between variance (16 - 2) / 2 = 7: 100 sqrt(7) / 4 and 100 sqrt(2) / 4 */
	assert_true(noise_between(two, n2, 2, &w, &b, NULL));
	assert_true(fabs(b - 100 * sqrt(7) / 4) < 1e-9);
	assert_true(fabs(w - 100 * sqrt(2) / 4) < 1e-9);
	/* one run, or a run of one sample: nothing to separate */
	assert_false(noise_between(two, n2, 1, &w, &b, NULL));
	n2[1] = 1;
	assert_false(noise_between(two, n2, 2, &w, &b, NULL));
	/* 400 generated sets of 10 runs x 4 samples, 2% within and 4% between:
	 * the mean estimate of the between variance is 16 (its standard error
	 * over 400 sets is about 0.4), the within one 4 */
	for (unsigned set = 0; set < 400; set++) {
		normal_stream(effect, 10, 4, 1000 + set);
		for (size_t r = 0; r < 10; r++) {
			normal_stream(runs[r], 4, 2, 50000 + 16 * set + (unsigned)r);
			for (size_t i = 0; i < 4; i++)
				runs[r][i] *= effect[r] / 100;
			rp[r] = runs[r];
			n[r] = 4;
		}
		assert_true(noise_between(rp, n, 10, &w, &b, NULL));
		sum_b2 += b * b;
		sum_w2 += w * w;
		/* the same samples without the run effect: about 0 */
		for (size_t r = 0; r < 10; r++)
			for (size_t i = 0; i < 4; i++)
				runs[r][i] /= effect[r] / 100;
		assert_true(noise_between(rp, n, 10, &w, &b, NULL));
		sum_b2_none += b * b;
	}
	assert_true(fabs(sum_b2 / 400 - 16) < 2);
	assert_true(fabs(sum_w2 / 400 - 4) < 0.4);
	/* truncated at 0, so a little above it: well under the 16 of a real effect */
	assert_true(sum_b2_none / 400 < 1);
}

static const char *noise_file =
	"{\"schema\": 1, \"system\": {\"hostname\": \"h\", \"cpu_model\": \"c\", \"nr_cpus\": 2, "
	"\"mem_total_kb\": 100}, \"config\": {\"w\": {\"iterations\": \"6\", \"runtime\": \"3s\"}}, "
	"\"workloads\": [{\"workload\": \"w\", \"tables\": [{\"title\": \"T\", \"ops\": [{\"op\": \"o\", "
	"\"spread_pct\": 4.0, \"aa_change_pct\": -1.0}, {\"op\": \"b\", \"spread_pct\": 2.0, "
	"\"aa_change_pct\": 0.5, \"runs\": 8, \"within_run_pct\": 2.0, \"between_runs_pct\": 1.5, "
	"\"between_df\": 3.25}, {\"op\": \"bad-df\", \"spread_pct\": 2.0, \"aa_change_pct\": 0, "
	"\"runs\": 8, \"between_runs_pct\": 1.5, \"between_df\": 9}, {\"op\": \"no-df\", "
	"\"spread_pct\": 2.0, \"aa_change_pct\": 0, \"runs\": 8, \"between_runs_pct\": 1.5}, "
	"{\"op\": \"huge\", \"spread_pct\": 2.0, \"aa_change_pct\": 0, \"runs\": 8, "
	"\"between_runs_pct\": 1e300, \"between_df\": 3}, {\"op\": \"df0\", \"spread_pct\": 2.0, "
	"\"aa_change_pct\": 0, \"runs\": 8, \"between_runs_pct\": 1.5, \"between_df\": 0}]}]}]}";

static void put_label(const char *dir, const char *host, const char *runtime)
{
	char *rel = xasprintf("%s/run.json", dir);
	char *text = xasprintf("{\"schema\": 1, \"label\": \"L\", \"system\": {\"hostname\": \"%s\", "
			       "\"cpu_model\": \"c\", \"nr_cpus\": 2, \"mem_total_kb\": 100}, "
			       "\"config\": {\"w\": {\"iterations\": \"3\", \"runtime\": \"%s\"}}}",
			       host, runtime);

	free(unit_put(rel, text));
	free(rel);
	free(text);
}

static void test_noise_file_is_this_machines(void **state)
{
	struct label_result l = { 0 };
	struct strbuf err = STRBUF_INIT;
	json_object *nf;
	double spread, bias;
	char *dir = xasprintf("%s/res/L", unit_tmp);

	(void)state;
	free(unit_put("res/noise.json", noise_file));
	put_label("res/L", "h", "3s");
	assert_int_equal(label_result_load(dir, &l, &err), 0);
	nf = noise_file_load(&l);
	assert_non_null(nf);
	assert_true(noise_file_floor(nf, l.run, "w", "T", "o", &spread, &bias));
	assert_true(spread == 4.0 && bias == -1.0);
	assert_false(noise_file_floor(nf, l.run, "w", "T", "other", &spread, &bias));
	/* the spread between runs: with its runs and degrees of freedom, or not at all */
	{
		double between, df;
		size_t runs;

		assert_false(noise_file_between(nf, l.run, "w", "T", "o", &between, &runs, &df));
		assert_true(noise_file_between(nf, l.run, "w", "T", "b", &between, &runs, &df));
		assert_true(between == 1.5 && runs == 8 && df == 3.25);
		/* more degrees of freedom than runs - 1, none, or no spread of a throughput */
		assert_false(noise_file_between(nf, l.run, "w", "T", "bad-df", &between, &runs, &df));
		assert_false(noise_file_between(nf, l.run, "w", "T", "no-df", &between, &runs, &df));
		assert_false(noise_file_between(nf, l.run, "w", "T", "huge", &between, &runs, &df));
		/* a spread with no degrees of freedom would be taken as known */
		assert_false(noise_file_between(nf, l.run, "w", "T", "df0", &between, &runs, &df));
		assert_int_equal(noise_file_runs(nf, l.run, "w"), 8);
		assert_int_equal(noise_file_runs(nf, l.run, "other"), 0);
		/* two labels are two runs: the floor widens by 2 between^2, at
		 * Satterthwaite's df (w = 4 (1/4 + 1/4) = 2 at df 6, b = 2 at df 3:
		 * df 4^2 / (4/6 + 4/3) = 8, t(0.975, 8) = 2.306004) */
		assert_true(fabs(noise_floor_runs(2, 0.5, 1, 3, 4, 4) - (0.5 + 2.306004 * 2)) < 1e-5);
		assert_true(noise_floor_runs(2, 0.5, 0, 3, 4, 4) == noise_floor_at(2, 0.5, 4, 4));
	}
	json_object_put(nf);
	label_result_release(&l);
	/* another runtime: another noise */
	put_label("res/L", "h", "20s");
	assert_int_equal(label_result_load(dir, &l, &err), 0);
	nf = noise_file_load(&l);
	assert_false(noise_file_floor(nf, l.run, "w", "T", "o", &spread, &bias));
	json_object_put(nf);
	label_result_release(&l);
	/* another machine: no floor at all */
	put_label("res/L", "elsewhere", "3s");
	assert_int_equal(label_result_load(dir, &l, &err), 0);
	assert_null(noise_file_load(&l));
	label_result_release(&l);
	free(dir);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stops_where_the_statistics_predict),
		cmocka_unit_test(test_note_follows_the_measured_step),
		cmocka_unit_test(test_random_stream_stops_at_the_reference),
		cmocka_unit_test(test_caps_stop_it),
		cmocka_unit_test(test_baseline_decides),
		cmocka_unit_test(test_baseline_in_the_schedule),
		cmocka_unit_test(test_sequential_and_interleaved_order),
		cmocka_unit_test(test_abandoned_step_ends_alone),
		cmocka_unit_test(test_resume_continues_where_it_stopped),
		cmocka_unit_test(test_plan_and_names),
		cmocka_unit_test(test_aa_floor),
		cmocka_unit_test(test_between_runs),
		cmocka_unit_test(test_noise_file_is_this_machines),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
