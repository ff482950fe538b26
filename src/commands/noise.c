// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench noise: this machine's noise floor (compare/noise_floor.h). An
 * A/A run: the selected workloads run on this kernel with twice the
 * measured iterations, which alternate between A and A' (the same kernel
 * twice, interleaved), so that a slow drift touches both alike. Per op the
 * pair gives the smallest change this machine can tell apart at the chosen
 * iteration count. The run itself is an ordinary `lrubench run` into
 * RESULTS/.noise/LABEL (a dot folder, so that `compare RESULTS` does not
 * take it for a kernel); the floor goes to RESULTS/noise.json, which
 * compare reads. With --runs R it makes R such runs, each its own set-up,
 * and adds per op the spread between runs (noise_between), which no run
 * shows by itself (issue 23).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "commands/commands.h"
#include "compare/noise_floor.h"
#include "core/noise_file.h"
#include "core/config.h"
#include "core/label_name.h"
#include "core/results.h"
#include "core/util.h"
#include "core/workload.h"

/* The command line as given; reset by every cmd_noise(). */
static struct {
	struct popt_suite suite;   /* -c -w -i --quick --set, passed on to run */
	const char *outdir, *label;
	unsigned long long runs;
	bool resume, quiet;
} N;

static const struct popt noise_options[] = {
	POPT_SUITE_CONFIG(&N.suite, "read an INI config file (repeatable, in order)"),
	POPT_SUITE_WORKLOADS(&N.suite, "a comma list, or \"all\" (global.workloads)"),
	POPT_SUITE_ITERATIONS(&N.suite, "iterations of A and of A' each, not auto"),
	POPT_STRING('o', "output", &N.outdir, "DIR", "results root: writes DIR/noise.json (results)"),
	POPT_STRING(0, "label", &N.label, "NAME", "the A/A run's folder DIR/.noise/NAME (uname -r)"),
	POPT_SUITE_QUICK(&N.suite, "every key's --quick value: a short demo"),
	POPT_SUITE_SET(&N.suite, "set a config key, after the files (repeatable)"),
	POPT_UINT(0, "runs", &N.runs, "R", "R runs, each set up anew: the spread between runs",
		  1, NOISE_RUNS_MAX),
	POPT_BOOL(0, "resume", &N.resume, "continue an interrupted A/A run"),
	POPT_BOOL('q', "quiet", &N.quiet, "print errors only"),
	POPT_END(),
};

const struct popt_command noise_command = {
	"noise", "",
	"Measure this machine's noise floor: an A/A run of the selected workloads on\n"
	"this kernel, twice the iterations alternating between A and A' (the same\n"
	"kernel twice, interleaved). Per op it prints the A/A change, the spread of one\n"
	"sample and the floor: |A/A change| + the 95% half-width of a change at N\n"
	"iterations a side, the smallest change this machine tells apart. The options\n"
	"are run's; the run goes to DIR/.noise/LABEL, the floor to DIR/noise.json,\n"
	"the last one measured, which 'lrubench compare' reads for labels in DIR\n"
	"measured on the same machine: changes smaller than the floor are noted as\n"
	"\"within this machine's noise\". --runs R (2 or more) makes R such runs,\n"
	"DIR/.noise/LABEL and LABEL-run2..R, each with its own set-up, and adds per op\n"
	"the spread between runs: how far one run's level strays, which no single run\n"
	"shows; 'lrubench run -i auto --baseline' against a label in DIR holds it.",
	noise_options,
};

static void args_reset(void)
{
	popt_suite_release(&N.suite);
	memset(&N, 0, sizeof(N));
	N.outdir = "results";
	N.runs = 1;
}

/*
 * The per-side iteration counts: [global] and each workload's own, after
 * the files, -i and --set, as run will resolve them. Each becomes twice
 * itself on run's command line. Only the counts matter here, so the
 * machine's sizing is left out (run does it).
 */
static int doubled_counts(struct strlist *sets, unsigned long long *per_side)
{
	struct config cfg;
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (config_init(&cfg, NULL, N.suite.quick))
		return -1;
	for (size_t i = 0; !ret && i < N.suite.configs.n; i++)
		ret = config_load_file(&cfg, N.suite.configs.v[i], &err);
	if (!ret && N.suite.iterations)
		ret = config_set_value(&cfg, "global", "iterations", N.suite.iterations, "-i", &err);
	for (size_t i = 0; !ret && i < N.suite.sets.n; i++)
		ret = config_set(&cfg, N.suite.sets.v[i], &err);
	if (ret) {
		error("%s", strbuf_str(&err));
	} else if (cfg.g.iterations == LB_AUTO) {
		ret = error("noise measures at a fixed iteration count: give -i N, not auto");
	} else {
		*per_side = cfg.g.iterations;
		strlist_pushf(sets, "global.iterations=%llu", 2 * cfg.g.iterations);
		for (size_t i = 0; !ret && workloads[i]; i++) {
			const struct wl_common_opts *co = config_common(&cfg, workloads[i]->name);

			if (co->iterations == LB_AUTO)
				ret = error("%s.iterations=auto: noise measures at a fixed iteration count",
					    workloads[i]->name);
			else if (co->iterations != LB_INHERIT)
				strlist_pushf(sets, "%s.iterations=%llu", workloads[i]->name,
					      2 * co->iterations);
		}
	}
	config_release(&cfg);
	strbuf_release(&err);
	return ret;
}

/* `lrubench run` with the A/A changes, in this process; resume: continue
 * the label's run (the caller skips a complete one) */
static int run_pair(const struct strlist *counts, const char *noise_dir, const char *label, bool resume)
{
	struct strlist argv = STRLIST_INIT;
	int ret;

	strlist_push(&argv, "run");
	popt_suite_argv(&N.suite, false, &argv);   /* -i: the doubled counts below */
	/* the doubled counts last, and never VM mode: the floor is this machine's */
	for (size_t i = 0; i < counts->n; i++) {
		strlist_push(&argv, "--set");
		strlist_push(&argv, counts->v[i]);
	}
	strlist_push(&argv, "--set");
	strlist_push(&argv, "vm.kernel_a=");
	strlist_push(&argv, "--set");
	strlist_push(&argv, "vm.kernel_b=");
	strlist_push(&argv, "--set");
	strlist_push(&argv, "vm.kernels=");
	strlist_push(&argv, "-o");
	strlist_push(&argv, noise_dir);
	strlist_push(&argv, "--label");
	strlist_push(&argv, label);
	/* the A/A run is scratch: a new one replaces the last */
	strlist_push(&argv, resume ? "--resume" : "--force");
	if (N.quiet)
		strlist_push(&argv, "-q");
	{
		/* run's option parser reorders its argv: hand it a copy of the pointers */
		char **v = xcalloc(argv.n + 1, sizeof(*v));

		memcpy(v, argv.v, argv.n * sizeof(*v));
		ret = cmd_run((int)argv.n, v);
		free(v);
	}
	strlist_release(&argv);
	return ret;
}

static json_object *jpct(double v)
{
	return json_object_new_double(round(v * 1000) / 1000);
}

/*
 * The op's spread between the runs, into jo (and the printed column): the
 * op's samples of every run, matched by workload, table and op. false when
 * a run lacks it or has fewer than 2 samples of it.
 */
static bool between_runs(const struct label_result *runs, size_t nruns, const char *workload,
			 const char *table, const char *op, json_object *jo, double *between)
{
	const double **x = xcalloc(nruns, sizeof(*x));
	size_t *n = xcalloc(nruns, sizeof(*n));
	double within = 0, df = 0;
	bool ok = nruns >= 2;

	for (size_t r = 0; ok && r < nruns; r++) {
		const struct wl_result *w = label_result_find(&runs[r], workload);
		const struct result_table *t = w ? wl_result_find_table(w, table) : NULL;
		const struct op_samples *o = t ? result_table_find_op(t, op) : NULL;

		ok = o != NULL;
		if (ok) {
			x[r] = o->v;
			n[r] = o->n;
		}
	}
	ok = ok && noise_between(x, n, nruns, &within, between, &df);
	if (ok) {
		json_object_object_add(jo, "runs", json_object_new_int((int)nruns));
		json_object_object_add(jo, "within_run_pct", json_object_new_double(round(within * 1000) / 1000));
		json_object_object_add(jo, "between_runs_pct", json_object_new_double(round(*between * 1000) / 1000));
		json_object_object_add(jo, "between_df", json_object_new_double(round(df * 100) / 100));
	}
	free(x);
	free(n);
	return ok;
}

/* Per table and op: the pair's numbers of the first run (and with --runs
 * the spread between all of them), printed and put into the file. */
static json_object *measure(const struct label_result *runs, size_t nruns, bool *drift)
{
	const struct label_result *l = &runs[0];
	json_object *wls = json_object_new_array();

	for (size_t w = 0; w < l->nwls; w++) {
		const struct wl_result *r = &l->wls[w];
		json_object *jw = json_object_new_object(), *tables = json_object_new_array();

		for (size_t t = 0; t < r->ntables; t++) {
			const struct result_table *tb = &r->tables[t];
			json_object *jt = json_object_new_object(), *ops = json_object_new_array();
			size_t width = 2;
			/* the tables that explain the others are kept in the file, not printed */
			bool show = !lb_quiet && !tb->explains;

			for (size_t o = 0; o < tb->nops; o++)
				if (strlen(tb->ops[o].op) > width)
					width = strlen(tb->ops[o].op);
			if (show)
				printf("\n%s (%s is better)\n  %-*s  %10s  %8s  %8s%s\n", tb->title,
				       tb->better == BETTER_HIGHER ? "higher" : "lower", (int)width, "op",
				       "A/A change", "spread", "floor", nruns > 1 ? "   between runs" : "");
			for (size_t o = 0; o < tb->nops; o++) {
				struct noise_op no;
				json_object *jo = json_object_new_object(), *n = json_object_new_array();
				double between = 0;
				bool has_between;

				json_object_object_add(jo, "op", json_object_new_string(tb->ops[o].op));
				/* arithmetic means: defined where a Hmean with a 0 sample is not */
				has_between = between_runs(runs, nruns, r->workload, tb->title, tb->ops[o].op,
							   jo, &between);
				if (!noise_aa(tb->ops[o].v, tb->ops[o].n, tb->better, &no)) {
					if (show)
						printf("  %-*s  %10s  %8s  %8s  (fewer than 2 samples a side, or "
						       "a mean of 0)\n", (int)width, tb->ops[o].op, "-", "-", "-");
					json_object_put(n);
					json_object_array_add(ops, jo);
					continue;
				}
				json_object_array_add(n, json_object_new_int((int)no.na));
				json_object_array_add(n, json_object_new_int((int)no.nb));
				json_object_object_add(jo, "n", n);
				json_object_object_add(jo, "spread_pct", jpct(no.spread));
				json_object_object_add(jo, "aa_change_pct", jpct(no.bias));
				json_object_object_add(jo, "floor_pct", jpct(no.floor));
				json_object_array_add(ops, jo);
				/* the pair differs by more than its own interval: not noise, a drift */
				if (!tb->explains && fabs(no.bias) > no.floor - fabs(no.bias))
					*drift = true;
				if (show && has_between)
					printf("  %-*s  %+9.2f%%  %7.2f%%  %7.2f%%  %13.2f%%\n", (int)width,
					       tb->ops[o].op, no.bias, no.spread, no.floor, between);
				else if (show)
					printf("  %-*s  %+9.2f%%  %7.2f%%  %7.2f%%%s\n", (int)width, tb->ops[o].op,
					       no.bias, no.spread, no.floor, nruns > 1 ? "  (not in every run)" : "");
			}
			json_object_object_add(jt, "title", json_object_new_string(tb->title));
			json_object_object_add(jt, "better", json_object_new_string(
						       tb->better == BETTER_HIGHER ? "higher" : "lower"));
			json_object_object_add(jt, "ops", ops);
			json_object_array_add(tables, jt);
		}
		json_object_object_add(jw, "workload", json_object_new_string(r->workload));
		json_object_object_add(jw, "tables", tables);
		json_object_array_add(wls, jw);
	}
	return wls;
}

static json_object *run_get(const struct label_result *l, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(l->run, key, &v) ? json_object_get(v) : NULL;
}

static int write_floor(const struct label_result *runs, size_t nruns, unsigned long long per_side,
		       const char *path)
{
	const struct label_result *l = &runs[0];
	struct strbuf err = STRBUF_INIT;
	json_object *o = json_object_new_object();
	bool drift = false;
	char ts[64];
	int ret;

	format_timestamp(now_realtime(), ts, sizeof(ts));
	if (!lb_quiet && nruns > 1)
		printf("\nNoise floor: A/A, %llu iterations a side, interleaved (%s); the spread between "
		       "%zu runs, each its own set-up\n", per_side, l->dir, nruns);
	else if (!lb_quiet)
		printf("\nNoise floor: A/A, %llu iterations a side, interleaved (%s)\n", per_side, l->dir);
	json_object_object_add(o, "schema", json_object_new_int(NOISE_SCHEMA));
	json_object_object_add(o, "measured", json_object_new_string(ts));
	json_object_object_add(o, "results", json_object_new_string(l->dir));
	json_object_object_add(o, "iterations", json_object_new_int64((int64_t)per_side));
	json_object_object_add(o, "system", run_get(l, "system"));
	json_object_object_add(o, "config", run_get(l, "config"));
	json_object_object_add(o, "runs", json_object_new_int((int)nruns));
	json_object_object_add(o, "workloads", measure(runs, nruns, &drift));
	if (drift)
		warning("an A/A change is larger than the A/A interval around it: this machine drifts "
			"during a run (global.interleave=yes spreads a drift over the steps)");
	ret = json_save_file(path, o, &err);
	if (ret)
		error("%s", strbuf_str(&err));
	else
		info("noise floor: %s (compare notes changes below it for labels of this machine)", path);
	json_object_put(o);
	strbuf_release(&err);
	return ret;
}

/* with --resume, a run of the set that is complete is kept as it is */
static bool run_complete(const char *label_dir)
{
	struct label_result l;
	struct strbuf err = STRBUF_INIT;
	json_object *st = NULL;
	bool done = false;

	if (!label_result_load(label_dir, &l, &err)) {
		done = json_object_object_get_ex(l.run, "status", &st) &&
		       !strcmp(json_object_get_string(st), "complete");
		label_result_release(&l);
	}
	strbuf_release(&err);
	return done;
}

/* the label of run r (from 0) of the set: LABEL, LABEL-run2, ... */
static char *run_label(const char *label, size_t r)
{
	return r ? xasprintf("%s-run%zu", label, r + 1) : xstrdup(label);
}

/* The R runs, each an ordinary run with its own set-up; then all of them
 * loaded, in order. */
static int run_all(const struct strlist *counts, const char *noise_dir, const char *label,
		   struct label_result *runs, size_t *loaded)
{
	int ret = 0;

	for (size_t r = 0; !ret && r < N.runs; r++) {
		char *name = run_label(label, r);
		char *dir = xasprintf("%s/%s", noise_dir, name);
		bool there = access(dir, F_OK) == 0;

		if (!(N.resume && there && run_complete(dir)))
			ret = run_pair(counts, noise_dir, name, N.resume && there);
		free(name);
		free(dir);
	}
	for (size_t r = 0; !ret && r < N.runs; r++) {
		char *name = run_label(label, r), *dir = xasprintf("%s/%s", noise_dir, name);
		struct strbuf err = STRBUF_INIT;

		if (label_result_load(dir, &runs[r], &err)) {
			error("%s", strbuf_str(&err));
			ret = LB_EXIT_FAIL;
		} else {
			(*loaded)++;
		}
		strbuf_release(&err);
		free(name);
		free(dir);
	}
	return ret;
}

static int noise(int argc, char **argv)
{
	struct strlist counts = STRLIST_INIT;
	struct label_result *runs;
	size_t loaded = 0;
	unsigned long long per_side = 0;
	struct utsname u;
	char *noise_dir = NULL, *path = NULL;
	const char *label;
	int n, ret;

	n = parse_options(&noise_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (n > 0)
		return popt_usage_error(&noise_command, "unexpected argument '%s'", argv[0]);
	lb_quiet = N.quiet;
	if (doubled_counts(&counts, &per_side)) {
		strlist_release(&counts);
		return LB_EXIT_USAGE;
	}
	uname(&u);
	label = N.label ? N.label : u.release;
	if (N.runs > 1) {
		/* the last run's label must be one too, before the first run starts */
		char *last = run_label(label, N.runs - 1);
		struct strbuf err = STRBUF_INIT;

		n = label_name_check(last, &err);
		if (n)
			error("--runs %llu: the last run's %s", N.runs, strbuf_str(&err));
		strbuf_release(&err);
		free(last);
		if (n) {
			strlist_release(&counts);
			return LB_EXIT_USAGE;
		}
	}
	noise_dir = xasprintf("%s/.noise", N.outdir);
	path = xasprintf("%s/%s", N.outdir, NOISE_FILE);
	runs = xcalloc(N.runs, sizeof(*runs));
	ret = run_all(&counts, noise_dir, label, runs, &loaded);
	if (!ret)
		ret = write_floor(runs, loaded, per_side, path) ? LB_EXIT_FAIL : LB_EXIT_OK;
	for (size_t r = 0; r < loaded; r++)
		label_result_release(&runs[r]);
	free(runs);
	strlist_release(&counts);
	free(noise_dir);
	free(path);
	return ret;
}

int cmd_noise(int argc, char **argv)
{
	int ret;

	args_reset();
	ret = noise(argc, argv);
	args_reset();
	return ret;
}
