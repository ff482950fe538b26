// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench bisect-step: one step of `git bisect run` in a kernel tree. Build
 * the checked-out commit (vm/kbuild.h), boot it in a VM and run the suite
 * (`lrubench run --kernel-a IMG`, as a child), and say on which side of the
 * midpoint between stored good and bad results it falls (compare/bisect.h):
 * exit 0 good, 1 bad, 125 cannot decide (build or boot failed, not
 * significant after --max-rounds boots). Its own errors exit 128 and up, so
 * that `git bisect run` stops instead of marking the commit bad: 128 a
 * failure, 129 usage (git's own code for it), 130 interrupted, 131 this
 * machine cannot run what was asked.
 *
 * Everything is kept in one folder (--dir): bisect.json (what is bisected:
 * good, bad, op, statistic, midpoint), steps/NN-COMMIT/ (build.log,
 * run-R.log, results/round-R/, decision.json). lrubench bisect-log
 * (bisect_log.c) prints them as a table.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands/commands.h"
#include "compare/bisect.h"
#include "core/child.h"
#include "core/cleanup.h"
#include "core/parse_options.h"
#include "core/path.h"
#include "core/results.h"
#include "vm/kbuild.h"

#define BISECT_FAILED 128
#define BISECT_USAGE 129
#define BISECT_INTERRUPTED 130
#define BISECT_UNSUPPORTED 131
#define BISECT_SKIP 125

static struct bisect_args {
	const char *good, *bad, *op, *table, *stat, *dir;
	const char *tree, *config, *build_dir, *image, *modules;
	double alpha;
	unsigned long long max_rounds;
	unsigned long long jobs;   /* 0: not given (the CPUs online) */
	struct popt_suite suite;   /* -c -w -i --quick --set, passed on to run */
} B;

static const struct popt bisect_step_options[] = {
	POPT_GROUP("What is bisected"),
	POPT_STRING(0, "good", &B.good, "DIR", "results of a good kernel (a label folder)"),
	POPT_STRING(0, "bad", &B.bad, "DIR", "results of a bad kernel"),
	POPT_STRING(0, "op", &B.op, "OP", "the op that decides (memcgs-8, elsp-2 ...)"),
	POPT_STRING(0, "table", &B.table, "TITLE", "the table, when several have the op"),
	POPT_STRING(0, "stat", &B.stat, "STAT",
		    "mean (mmtests' mean row), amean, hmean, gmean"),
	POPT_DOUBLE(0, "alpha", &B.alpha, "P", "significance level (0.10)", 0, 1,
		    POPTF_ABOVE_MIN | POPTF_BELOW_MAX),
	POPT_UINT(0, "max-rounds", &B.max_rounds, "N", "boots of a commit before it is skipped (3)",
		  1, 20),
	POPT_STRING(0, "dir", &B.dir, "DIR", "folder of steps and decisions (lrubench-bisect)"),
	POPT_GROUP("Building the checked-out commit (or: -- COMMAND ARGS... builds it)"),
	POPT_STRING(0, "tree", &B.tree, "DIR", "the kernel tree (.)"),
	POPT_STRING(0, "kconfig", &B.config, "FILE", "the .config each commit starts from"),
	POPT_STRING(0, "build-dir", &B.build_dir, "DIR", "make O= folder kept between steps (DIR/build)"),
	POPT_UINT('j', "jobs", &B.jobs, "N", "make -jN (the CPUs online)", 1, 1024),
	POPT_STRING(0, "image", &B.image, "PATH", "the image a build command makes"),
	POPT_STRING(0, "modules", &B.modules, "DIR", "its modules (lib/modules/<release> or a root)"),
	POPT_GROUP("The suite, as for lrubench run"),
	POPT_SUITE_CONFIG(&B.suite, "an INI config file (repeatable)"),
	POPT_SUITE_WORKLOADS(&B.suite, "the workloads"),
	POPT_SUITE_ITERATIONS(&B.suite, "measured iterations per boot"),
	POPT_SUITE_QUICK(&B.suite, "every key's --quick value"),
	POPT_SUITE_SET(&B.suite, "a config key, vm.* too (repeatable)"),
	POPT_END(),
};

const struct popt_command bisect_step_command = {
	"bisect-step", "[-- BUILD-COMMAND...]",
	"One step of 'git bisect run' in a kernel tree: build the checked-out commit,\n"
	"boot it in a qemu VM, run the suite, and exit 0 when its OP is on the good\n"
	"side of the midpoint between --good and --bad, 1 on the bad side, 125 when\n"
	"it cannot decide (build or boot failed, not significant after --max-rounds\n"
	"boots). Its own errors exit 128-131, which stop git bisect run. Steps and\n"
	"decisions are kept in --dir; 'lrubench bisect-log DIR' prints them.\n"
	"Example: git bisect run lrubench bisect-step --good G --bad B --op memcgs-8\n"
	"         --kconfig ../base.config -w readtwice",
	bisect_step_options,
};

static void args_reset(void)
{
	popt_suite_release(&B.suite);
	memset(&B, 0, sizeof(B));
	B.alpha = 0.10;
	B.max_rounds = 3;
}

/* path made absolute against the current folder, without resolving links
 * (it may not exist yet) */
static char *absolute(const char *path)
{
	char *cwd, *r;

	if (*path == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	r = xasprintf("%s/%s", cwd ? cwd : ".", path);
	free(cwd);
	return r;
}

/* ---- the setup: good, bad, op ---- */

struct setup {
	char *dir, *steps;
	struct label_result good, bad;
	const struct result_table *table;
	enum bisect_stat stat;
	double good_v, bad_v, alpha;
	unsigned max_rounds;
	unsigned jobs;
};

/* What the build needs, checked before a step folder is made. */
static int check_build_args(struct setup *s, const struct strlist *cmd)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long jobs = cpus > 0 ? (unsigned long long)cpus : 1;
	char *tree = realpath(B.tree ? B.tree : ".", NULL);
	int ret = 0;

	if (B.jobs)
		jobs = B.jobs;
	if (!tree || !is_dir(tree)) {
		error("--tree %s: no such folder", B.tree ? B.tree : ".");
		ret = BISECT_USAGE;
	} else if (B.config && !path_exists(B.config)) {
		error("--kconfig %s: no such file", B.config);
		ret = BISECT_USAGE;
	} else if (!cmd->n && !B.config) {
		char *bdir = B.build_dir ? absolute(B.build_dir) : xasprintf("%s/build", s->dir);
		char *dc = xasprintf("%s/.config", bdir);

		if (!path_exists(dc)) {
			error("give --kconfig FILE (the .config each commit starts from), or a build "
			      "command after --");
			ret = BISECT_USAGE;
		}
		free(dc);
		free(bdir);
	}
	s->jobs = (unsigned)jobs;
	free(tree);
	return ret;
}

static int load_side(const char *flag, const char *path, struct label_result *l, struct strbuf *err)
{
	if (!path) {
		strbuf_addf(err, "give %s DIR (the results of a %s kernel)", flag, flag + 2);
		return -1;
	}
	if (!is_dir(path)) {
		strbuf_addf(err, "%s %s: no such folder", flag, path);
		return -1;
	}
	if (label_result_load(path, l, err)) {
		strbuf_addf(err, " (%s)", flag);
		return -1;
	}
	return 0;
}

static double side_value(struct setup *s, const struct label_result *l, const char *flag,
			 struct strbuf *err, bool *ok)
{
	const struct result_table *t;
	const struct op_samples *os;
	double v;

	*ok = false;
	if (bisect_find_op(l, s->table ? s->table->title : B.table, B.op, &t, &os, err))
		return 0;
	if (!s->table)
		s->table = t;
	s->stat = bisect_stat_resolve(s->stat, t->better);
	v = bisect_stat_value(s->stat, os->v, os->n, ok);
	if (!*ok)
		strbuf_addf(err, "%s: %s of op '%s' is undefined (%zu samples)", flag,
			    bisect_stat_name(s->stat), B.op, os->n);
	return v;
}

/* bisect.json: written by the first step; later steps must bisect the same */
static int setup_record(struct setup *s, struct strbuf *err)
{
	char *path = xasprintf("%s/bisect.json", s->dir);
	char *good = realpath(B.good, NULL), *bad = realpath(B.bad, NULL);
	json_object *o = json_object_new_object(), *old;
	int ret = 0;

	json_object_object_add(o, "good", json_object_new_string(good ? good : B.good));
	json_object_object_add(o, "bad", json_object_new_string(bad ? bad : B.bad));
	json_object_object_add(o, "op", json_object_new_string(B.op));
	json_object_object_add(o, "table", json_object_new_string(s->table->title));
	json_object_object_add(o, "unit", json_object_new_string(s->table->unit ? s->table->unit : ""));
	json_object_object_add(o, "better", json_object_new_string(s->table->better == BETTER_HIGHER ?
								   "higher" : "lower"));
	json_object_object_add(o, "stat", json_object_new_string(bisect_stat_name(s->stat)));
	json_object_object_add(o, "good_value", json_object_new_double(s->good_v));
	json_object_object_add(o, "bad_value", json_object_new_double(s->bad_v));
	json_object_object_add(o, "midpoint", json_object_new_double((s->good_v + s->bad_v) / 2));
	json_object_object_add(o, "alpha", json_object_new_double(s->alpha));
	if (path_exists(path)) {
		static const char *const same[] = { "good", "bad", "op", "table", "stat" };

		old = json_load_file(path, err);
		if (!old) {
			ret = -1;
			goto out;
		}
		for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
			json_object *a = NULL, *b = NULL;

			json_object_object_get_ex(old, same[i], &a);
			json_object_object_get_ex(o, same[i], &b);
			if (!a || strcmp(json_object_get_string(a), json_object_get_string(b))) {
				strbuf_addf(err, "%s bisects %s %s, not %s: give another --dir for another "
					    "bisection", s->dir, same[i], a ? json_object_get_string(a) :
					    "(nothing)", json_object_get_string(b));
				ret = -1;
				break;
			}
		}
		json_object_put(old);
	} else if (json_save_file(path, o, err)) {
		ret = -1;
	}
out:
	json_object_put(o);
	free(path);
	free(good);
	free(bad);
	return ret;
}

static int setup_load(struct setup *s)
{
	struct strbuf err = STRBUF_INIT;
	bool ok;

	memset(s, 0, sizeof(*s));
	if (!B.op) {
		error("give --op OP: the op whose numbers decide (as compare prints it)");
		return BISECT_USAGE;
	}
	if (B.stat && bisect_stat_parse(B.stat, &s->stat)) {
		error("--stat %s: expected mean, amean, hmean or gmean", B.stat);
		return BISECT_USAGE;
	}
	s->alpha = B.alpha;
	s->max_rounds = (unsigned)B.max_rounds;
	if (load_side("--good", B.good, &s->good, &err) || load_side("--bad", B.bad, &s->bad, &err))
		goto usage;
	s->good_v = side_value(s, &s->good, "--good", &err, &ok);
	if (!ok)
		goto usage;
	s->bad_v = side_value(s, &s->bad, "--bad", &err, &ok);
	if (!ok)
		goto usage;
	if (s->good_v == s->bad_v) {
		strbuf_addf(&err, "--good and --bad have the same %s of %s (%g): there is nothing to "
			    "bisect", bisect_stat_name(s->stat), B.op, s->good_v);
		goto usage;
	}
	s->dir = absolute(B.dir ? B.dir : "lrubench-bisect");
	s->steps = xasprintf("%s/steps", s->dir);
	if (mkdir_p(s->steps, 0755))
		return BISECT_FAILED;
	if (setup_record(s, &err))
		goto usage;
	return 0;
usage:
	error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return BISECT_USAGE;
}

static void setup_release(struct setup *s)
{
	label_result_release(&s->good);
	label_result_release(&s->bad);
	free(s->dir);
	free(s->steps);
}

/* ---- one child to its end, its output to a log ---- */

static int run_logged(const char *const *argv, const char *dir, const char *log, const char *what)
{
	struct child c = { .argv = argv, .dir = dir, .out_path = log, .name = what };
	int code = -1, w;

	if (child_start(&c))
		return -1;
	w = child_wait(&c, -1, &code, NULL);
	if (w == CHILD_STOP) {
		/* it leads its own process group: pass the stop on, let it clean up */
		child_stop(&c, 120);
		return LB_EXIT_INTERRUPTED;
	}
	if (w < 0) {
		child_stop(&c, 0);
		return -1;
	}
	return code;
}

/* The first line `git ARGS` prints in the tree, or NULL. */
static char *git_line(const char *tree, const char *tmp, const char *a1, const char *a2,
		      const char *a3)
{
	const char *argv[] = { "git", "-C", tree, a1, a2, a3, NULL };
	char *out, *line = NULL;

	unlink(tmp);
	if (run_logged(argv, NULL, tmp, "git") == 0 && (out = read_file_str(tmp, NULL))) {
		line = xstrndup(out, strcspn(out, "\n"));
		free(out);
	}
	unlink(tmp);
	return line;
}

/* ---- the step ---- */

struct step {
	char *commit, *subject, *dir;
	int number;
	const char *verdict;   /* good, bad, skip */
	int exit;
	struct strbuf reason;
	struct bisect_verdict v;
	bool have_v;
	unsigned rounds;
	double build_seconds;
	char *image;
	char *modules;         /* modules the build installed, or NULL */
};

static int next_step_number(const char *steps)
{
	DIR *d = opendir(steps);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		int k = atoi(de->d_name);

		if (k > n)
			n = k;
	}
	if (d)
		closedir(d);
	return n + 1;
}

static void step_write(const struct setup *s, const struct step *st)
{
	json_object *o = json_object_new_object();
	char *path = xasprintf("%s/decision.json", st->dir), ts[64];
	struct strbuf err = STRBUF_INIT;

	format_timestamp(now_realtime(), ts, sizeof(ts));
	json_object_object_add(o, "step", json_object_new_int(st->number));
	json_object_object_add(o, "commit", json_object_new_string(st->commit));
	json_object_object_add(o, "subject", json_object_new_string(st->subject ? st->subject : ""));
	json_object_object_add(o, "verdict", json_object_new_string(st->verdict));
	json_object_object_add(o, "exit", json_object_new_int(st->exit));
	json_object_object_add(o, "reason", json_object_new_string(st->reason.buf));
	json_object_object_add(o, "stat", json_object_new_string(bisect_stat_name(s->stat)));
	json_object_object_add(o, "value", st->have_v ? json_object_new_double(st->v.value) : NULL);
	json_object_object_add(o, "midpoint", json_object_new_double((s->good_v + s->bad_v) / 2));
	json_object_object_add(o, "p", st->have_v ? json_object_new_double(st->v.p) : NULL);
	json_object_object_add(o, "n", json_object_new_int((int)(st->have_v ? st->v.n : 0)));
	json_object_object_add(o, "rounds", json_object_new_int((int)st->rounds));
	json_object_object_add(o, "image", st->image ? json_object_new_string(st->image) : NULL);
	json_object_object_add(o, "build_seconds", json_object_new_double(st->build_seconds));
	json_object_object_add(o, "finished", json_object_new_string(ts));
	if (json_save_file(path, o, &err))
		error("%s", err.buf);
	json_object_put(o);
	strbuf_release(&err);
	free(path);
}

static int build(const struct setup *s, struct step *st, struct strlist *cmd)
{
	struct kbuild kb = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *tree = realpath(B.tree ? B.tree : ".", NULL);
	char *bdir = B.build_dir ? absolute(B.build_dir) : xasprintf("%s/build", s->dir);
	char *log = xasprintf("%s/build.log", st->dir), *modroot = xasprintf("%s/modules", st->dir);
	char *env[2] = { xasprintf("LRUBENCH_BISECT_STEP=%s", st->dir),
			 xasprintf("LRUBENCH_BUILD_DIR=%s", bdir) };
	const char *envp[3] = { env[0], env[1], NULL };
	enum kbuild_result r;
	char *img;
	int ret = 0;

	kb.tree = tree;
	kb.build_dir = bdir;
	kb.config = B.config;
	kb.jobs = s->jobs;
	kb.log = log;
	kb.modroot = modroot;
	kb.cmd = cmd->n ? cmd : NULL;
	kb.env = envp;
	info("bisect-step %d: building %.12s %s (log: %s)", st->number, st->commit,
	     st->subject ? st->subject : "", log);
	r = kbuild_run(&kb, &err);
	st->build_seconds = kb.seconds;
	if (r == KBUILD_INTERRUPTED) {
		ret = BISECT_INTERRUPTED;
		goto out;
	}
	if (r) {
		strbuf_addf(&st->reason, "build failed: %s", err.buf);
		ret = BISECT_SKIP;
		goto out;
	}
	img = B.image ? absolute(B.image) : xasprintf("%s/arch/x86/boot/bzImage", bdir);
	/* the real file: modules are then found beside it (an unpacked package) */
	st->image = realpath(img, NULL);
	if (!st->image) {
		strbuf_addf(&st->reason, "the build left no image at %s", img);
		ret = BISECT_SKIP;
	}
	free(img);
	if (kb.modules)
		st->modules = xstrdup(modroot);
out:
	strbuf_release(&err);
	free(tree);
	free(bdir);
	free(log);
	free(modroot);
	free(env[0]);
	free(env[1]);
	return ret;
}

/* lrubench run and the suite's options */
static void suite_argv(struct strlist *argv)
{
	strlist_push(argv, self_exe() ? self_exe() : "lrubench");
	strlist_push(argv, "run");
	popt_suite_argv(&B.suite, true, argv);
}

/* The suite's options are checked once, before any build: lrubench run's
 * usage errors then stop the bisection (129), and a later exit 2 can only
 * be this commit's kernel (a build without 9p, say): skipped. */
static int check_suite(const struct setup *s)
{
	struct strlist argv = STRLIST_INIT;
	char *log = xasprintf("%s/suite-check.log", s->dir), *out = xasprintf("%s/suite-check", s->dir);
	int code;

	unlink(log);
	suite_argv(&argv);
	strlist_push(&argv, "--kernel-a");
	strlist_push(&argv, "host");
	strlist_push(&argv, "--dry-run");
	strlist_push(&argv, "-o");
	strlist_push(&argv, out);
	code = run_logged((const char *const *)argv.v, NULL, log, "lrubench run --dry-run");
	if (code == LB_EXIT_INTERRUPTED)
		code = BISECT_INTERRUPTED;
	else if (code) {
		error_with_log(log, "the suite options are refused by lrubench run (exit %d)", code);
		code = code == LB_EXIT_UNSUPPORTED ? BISECT_UNSUPPORTED : BISECT_USAGE;
	}
	if (!code)
		unlink(log);
	strlist_release(&argv);
	free(log);
	free(out);
	return code;
}

/* One boot of the image: lrubench run --kernel-a IMG into results/round-R */
static int boot_round(const struct step *st, unsigned round)
{
	struct strlist argv = STRLIST_INIT;
	char *log = xasprintf("%s/run-%u.log", st->dir, round);
	int code;

	suite_argv(&argv);
	/* this commit's kernel alone, whatever a -c file says */
	strlist_push(&argv, "--set");
	strlist_push(&argv, "vm.kernel_b=");
	strlist_push(&argv, "--set");
	strlist_push(&argv, "vm.kernels=");
	strlist_push(&argv, "--kernel-a");
	strlist_push(&argv, st->image);
	strlist_pushf(&argv, "--label-a=round-%u", round);
	if (st->modules || B.modules) {
		strlist_push(&argv, "--modules-a");
		strlist_push(&argv, st->modules ? st->modules : B.modules);
	}
	strlist_push(&argv, "-o");
	strlist_pushf(&argv, "%s/results", st->dir);
	info("bisect-step %d: booting %.12s, round %u (log: %s)", st->number, st->commit, round, log);
	code = run_logged((const char *const *)argv.v, NULL, log, "lrubench run");
	strlist_release(&argv);
	free(log);
	return code;
}

/* Every sample of the op over the rounds so far. */
static int pool(const struct setup *s, const struct step *st, unsigned rounds, double **x, size_t *n,
		struct strbuf *err)
{
	*x = NULL;
	*n = 0;
	for (unsigned r = 1; r <= rounds; r++) {
		char *dir = xasprintf("%s/results/round-%u", st->dir, r);
		struct label_result l;
		const struct result_table *t;
		const struct op_samples *os;
		int ret = label_result_load(dir, &l, err);

		if (!ret && bisect_find_op(&l, s->table->title, B.op, &t, &os, err))
			ret = -1;
		if (!ret) {
			*x = xrealloc(*x, (*n + os->n + 1) * sizeof(**x));
			memcpy(*x + *n, os->v, os->n * sizeof(**x));
			*n += os->n;
		}
		if (ret)
			strbuf_addstr(err, ": is the suite the one that made --good and --bad?");
		label_result_release(&l);
		free(dir);
		if (ret)
			return -1;
	}
	return 0;
}

/* Why round r failed: the label's run.json error, else the first error
 * line of its log. NULL when neither says. */
static char *run_failure(const struct step *st, unsigned r)
{
	char *rj = xasprintf("%s/results/round-%u/run.json", st->dir, r);
	char *log = xasprintf("%s/run-%u.log", st->dir, r);
	struct strbuf err = STRBUF_INIT;
	json_object *run = path_exists(rj) ? json_load_file(rj, &err) : NULL, *e = NULL;
	char *why = NULL;

	strbuf_release(&err);

	if (run && json_object_object_get_ex(run, "error", &e) && e)
		why = xstrdup(json_object_get_string(e));
	if (!why) {
		char *text = read_file_str(log, NULL);
		const char *p = text ? strstr(text, "lrubench: error: ") : NULL;

		if (p)
			why = xstrndup(p + 17, strcspn(p + 17, "\n"));
		free(text);
	}
	json_object_put(run);
	free(rj);
	free(log);
	return why;
}

static int test_rounds(const struct setup *s, struct step *st)
{
	struct strbuf err = STRBUF_INIT;

	for (unsigned r = 1; r <= s->max_rounds; r++) {
		double *x;
		size_t n;
		int code = boot_round(st, r);

		st->rounds = r;
		if (code == LB_EXIT_INTERRUPTED || lb_stop_requested())
			return BISECT_INTERRUPTED;
		if (code) {
			char *why = run_failure(st, r);

			strbuf_addf(&st->reason, "the boot or the suite failed (lrubench run exited %d%s%s; "
				    "log: %s/run-%u.log)", code, why ? ": " : "", why ? why : "", st->dir, r);
			free(why);
			return BISECT_SKIP;
		}
		if (pool(s, st, r, &x, &n, &err)) {
			error("%s", err.buf);
			strbuf_release(&err);
			return BISECT_USAGE;
		}
		bisect_decide(s->stat, s->good_v, s->bad_v, x, n, s->alpha, &st->v);
		st->have_v = true;
		free(x);
		info("bisect-step %d: after round %u: %s %g over %zu samples, midpoint %g, p %.3g", st->number,
		     r, bisect_stat_name(s->stat), st->v.value, n, st->v.midpoint, st->v.p);
		if (st->v.side != BISECT_UNDECIDED)
			return st->v.side == BISECT_GOOD ? 0 : 1;
	}
	strbuf_addf(&st->reason, "not significant after %u boot%s (p %.3g >= alpha %g)", s->max_rounds,
		    s->max_rounds == 1 ? "" : "s", st->v.p, s->alpha);
	return BISECT_SKIP;
}

static int bisect_step(int argc, char **argv)
{
	struct setup s;
	struct step st;
	struct strlist cmd = STRLIST_INIT;
	char *tmp, *tree;
	int n, ret;

	n = parse_options(&bisect_step_command, argc, argv);
	if (n < 0)
		return n == POPT_HELP_SHOWN ? 0 : BISECT_USAGE;
	for (int i = 0; i < n; i++)
		strlist_push(&cmd, argv[i]);
	if (geteuid() != 0) {
		error("'lrubench bisect-step' boots VMs with 'lrubench run': run it as root");
		strlist_release(&cmd);
		return BISECT_UNSUPPORTED;
	}
	if (!program_in_path("qemu-system-x86_64")) {
		error("bisect-step boots each commit with qemu-system-x86_64 (apt-get install "
		      "qemu-system-x86)");
		strlist_release(&cmd);
		return BISECT_UNSUPPORTED;
	}
	if ((ret = setup_load(&s))) {
		setup_release(&s);
		strlist_release(&cmd);
		return ret;
	}
	memset(&st, 0, sizeof(st));
	strbuf_init(&st.reason);
	tree = xstrdup(B.tree ? B.tree : ".");
	tmp = xasprintf("%s/.git-output", s.dir);
	st.commit = git_line(tree, tmp, "rev-parse", "--verify", "HEAD");
	if (!st.commit) {
		error("%s is not a git tree with a checked-out commit (git rev-parse HEAD failed)", tree);
		ret = BISECT_USAGE;
		goto out;
	}
	st.subject = git_line(tree, tmp, "log", "-1", "--format=%s");
	if ((ret = check_build_args(&s, &cmd)) || (ret = check_suite(&s)))
		goto out;
	st.number = next_step_number(s.steps);
	st.dir = xasprintf("%s/%02d-%.12s", s.steps, st.number, st.commit);
	if (mkdir_p(st.dir, 0755)) {
		ret = BISECT_FAILED;
		goto out;
	}
	ret = build(&s, &st, &cmd);
	if (!ret)
		ret = test_rounds(&s, &st);
	if (ret == 0 || ret == 1 || ret == BISECT_SKIP) {
		st.exit = ret;
		st.verdict = ret == 0 ? "good" : ret == 1 ? "bad" : "skip";
		if (ret != BISECT_SKIP)
			strbuf_addf(&st.reason, "%s %g is on the %s side of the midpoint %g (good %g, bad %g; "
				    "p %.3g over %zu samples)", bisect_stat_name(s.stat), st.v.value,
				    st.verdict, st.v.midpoint, s.good_v, s.bad_v, st.v.p, st.v.n);
		step_write(&s, &st);
		printf("bisect-step %d: %.12s is %s: %s\n", st.number, st.commit,
		       ret == BISECT_SKIP ? "skipped (exit 125)" : st.verdict, st.reason.buf);
		fflush(stdout);
	}
out:
	free(tmp);
	free(tree);
	free(st.commit);
	free(st.subject);
	free(st.dir);
	free(st.image);
	free(st.modules);
	strbuf_release(&st.reason);
	strlist_release(&cmd);
	setup_release(&s);
	return ret;
}

int cmd_bisect_step(int argc, char **argv)
{
	int ret;

	args_reset();
	ret = bisect_step(argc, argv);
	args_reset();
	return ret;
}
