// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench fleet plan|submit|status FILE.ini: benchmark runs over a Slurm
 * cluster (docs/FLEET.md). lrubench does not schedule: Slurm places the
 * work (sbatch job arrays, --exclusive nodes, a dependent job), each task
 * is an ordinary `lrubench run`, and results meet in a shared folder or a
 * results store. The plan is fleet/plan.h; what runs on the nodes is
 * fleet/task.h (the internal subcommands task and collect, which the job
 * scripts call); Slurm's commands are run by fleet/slurm.h.
 *
 * Exit codes: 0 ok; 1 Slurm refused a job or could not be asked, a task or
 * the collect job failed; 2 a bad plan or usage; 3 Slurm is not installed
 * here; 130 interrupted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands/commands.h"
#include "core/cleanup.h"
#include "core/strlist.h"
#include "fleet/plan.h"
#include "fleet/slurm.h"
#include "fleet/task.h"

/* The command lines as given; reset by every cmd_fleet(). */
static struct {
	bool dry_run, force;
	const char *group, *jobs;
} O;

static const struct popt no_options[] = { POPT_END() };

static const struct popt submit_options[] = {
	POPT_BOOL('n', "dry-run", &O.dry_run, "print the job scripts and sbatch commands only"),
	POPT_BOOL(0, "force", &O.force, "submit again a plan submitted before"),
	POPT_END(),
};

static const struct popt task_options[] = {
	POPT_STRING(0, "group", &O.group, "N", "the job array this task is in"),
	POPT_END(),
};

static const struct popt collect_options[] = {
	POPT_STRING(0, "jobs", &O.jobs, "ID,...", "the job arrays' ids"),
	POPT_END(),
};

const struct popt_command fleet_command = {
	"fleet", "plan|submit|status FILE.ini",
	"Benchmark runs over a Slurm cluster: kernels x workloads x repetitions x\n"
	"nodes, described by a plan FILE.ini (docs/FLEET.md, lrubench-fleet(1)).\n"
	"  plan FILE.ini     check the plan and print its tasks and job arrays\n"
	"  submit FILE.ini   submit one sbatch job array per group of tasks\n"
	"                    (--exclusive, each task an ordinary lrubench run), and a\n"
	"                    job after them that pools, compares and names failed tasks\n"
	"  status FILE.ini   the tasks' states (squeue, sacct) and the collect result\n"
	"Exit 0 ok; 1 Slurm refused a job, or a task failed; 2 a bad plan or usage;\n"
	"3 Slurm is not installed here; 130 interrupted.",
	no_options,
};

static const struct popt_command fleet_plan_command = {
	"fleet plan", "FILE.ini",
	"Check a fleet plan (every key, the kernels and their images, the suite, the\n"
	"run options through the config tables) and print its tasks and job arrays.\n"
	"Exit 0 ok; 2 a bad plan.",
	no_options,
};

static const struct popt_command fleet_submit_command = {
	"fleet submit", "FILE.ini",
	"Submit a plan: one sbatch job array per group of tasks that share sbatch\n"
	"options (a pinned node, a kernel's constraint), each task --exclusive on one\n"
	"node running lrubench run with the label <kernel>-<node>-r<repetition>; then\n"
	"a job after all of them (afterany) that pools each kernel's repetitions per\n"
	"node, runs compare and names the failed tasks. Job scripts, Slurm's output\n"
	"and the job ids go to <plan folder>/<name>.fleet/. $LRUBENCH_TOKEN is not\n"
	"passed to the jobs (Slurm keeps a job's environment): the nodes read a token\n"
	"file. Exit 0 submitted; 1 Slurm refused a job (the ones submitted before are\n"
	"cancelled); 2 a bad plan; 3 no sbatch here.",
	submit_options,
};

static const struct popt_command fleet_status_command = {
	"fleet status", "FILE.ini",
	"The state of a submitted plan's tasks (squeue; sacct where Slurm keeps\n"
	"accounting) and, once it ran, the collect job's report. Exit 0 ok; 1 Slurm\n"
	"could not be asked; 2 not submitted; 3 no squeue here.",
	no_options,
};

static const struct popt_command fleet_task_command = {
	"fleet task", "FILE.ini",
	"Internal: one task of a submitted plan's job array (the job script runs it).",
	task_options,
};

static const struct popt_command fleet_collect_command = {
	"fleet collect", "FILE.ini",
	"Internal: the job after a plan's tasks: pool, compare, name failed tasks.",
	collect_options,
};

static int load_plan(const char *path, struct fleet_plan *p)
{
	struct strbuf err = STRBUF_INIT;
	int r = fleet_plan_load(path, p, &err);

	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	return r ? LB_EXIT_USAGE : 0;
}

/* ---- submit ---- */

struct submitted {
	struct strlist arrays;   /* job id per group */
	char *collect;
};

static char *submitted_path(const struct fleet_plan *p)
{
	char *state = fleet_state_dir(p), *s = xasprintf("%s/submitted", state);

	free(state);
	return s;
}

/* <state>/submitted: "array G JOBID" lines, then "collect JOBID". */
static int read_submitted(const struct fleet_plan *p, struct submitted *s)
{
	char *path = submitted_path(p), *text, *save = NULL;
	size_t len;

	memset(s, 0, sizeof(*s));
	text = read_file_str(path, &len);
	if (!text) {
		free(path);
		return -1;
	}
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char id[64];
		size_t g;

		if (sscanf(l, "array %zu %63s", &g, id) == 2 && g == s->arrays.n)
			strlist_push(&s->arrays, id);
		else if (sscanf(l, "collect %63s", id) == 1)
			s->collect = xstrdup(id);
	}
	free(text);
	free(path);
	return s->arrays.n ? 0 : -1;
}

static void submitted_release(struct submitted *s)
{
	strlist_release(&s->arrays);
	free(s->collect);
}

static void cancel_jobs(const struct strlist *ids)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf out = STRBUF_INIT;

	if (!ids->n)
		return;
	for (size_t i = 0; i < ids->n; i++)
		strlist_push(&a, ids->v[i]);
	if (slurm_run("scancel", &a, &out))
		warning("could not cancel jobs submitted before: %s", out.buf);
	else
		info("cancelled the jobs submitted before it");
	strlist_release(&a);
	strbuf_release(&out);
}

/* Write a job script; 0 or -1. */
static int write_script(const char *path, const char *comment, const struct strlist *argv)
{
	struct strbuf s = STRBUF_INIT;
	int r;

	slurm_script(comment, argv, &s);
	r = write_file_atomic(path, s.buf, s.len);
	if (!r && chmod(path, 0755))
		r = error_errno("cannot chmod %s", path);
	strbuf_release(&s);
	return r;
}

/* sbatch ARGS SCRIPT: the job id (malloc'ed), or NULL with an exit code. */
static char *sbatch(const struct strlist *args, int *exit_code)
{
	struct strbuf out = STRBUF_INIT;
	int code = slurm_run("sbatch", args, &out);
	char *id = NULL;

	if (code == SLURM_NOT_INSTALLED) {
		*exit_code = LB_EXIT_UNSUPPORTED;
	} else if (code != 0 || !(id = slurm_parse_jobid(out.buf))) {
		error("Slurm refused the job (sbatch exited with %d): %s", code,
		      out.len ? out.buf : "(no message)");
		*exit_code = LB_EXIT_FAIL;
	}
	strbuf_release(&out);
	return id;
}

static void common_sbatch_args(const struct fleet_plan *p, struct strlist *a)
{
	strlist_push(a, "--parsable");
	if (p->partition)
		strlist_pushf(a, "--partition=%s", p->partition);
	for (size_t i = 0; i < p->sbatch_args.n; i++)
		strlist_push(a, p->sbatch_args.v[i]);
}

static void print_sbatch(const struct strlist *a, const char *script)
{
	printf("sbatch");
	for (size_t i = 0; i < a->n; i++)
		printf(" %s", a->v[i]);
	printf("\n--- %s\n", script);
}

static int submit(const struct fleet_plan *p)
{
	struct strlist ids = STRLIST_INIT;
	struct strbuf record = STRBUF_INIT;
	char *state = fleet_state_dir(p), *path = submitted_path(p), *collect = NULL;
	int ret = LB_EXIT_USAGE;

	if (!O.force && path_exists(path)) {
		error("%s was submitted already (%s): lrubench fleet status shows it; --force submits "
		      "it again (its tasks would find their labels done: give the plan a new name)",
		      p->path, path);
		goto out;
	}
	/* Slurm opens its --output files here by name, as root */
	if (mkdir_private(state, 0755)) {
		ret = LB_EXIT_FAIL;
		goto out;
	}
	if (p->results && !O.dry_run) {
		char *d = xasprintf("%s/%s", p->results, p->name);
		int r = mkdir_p(d, 0755);

		free(d);
		if (r) {
			ret = LB_EXIT_FAIL;
			goto out;
		}
	}
	if (getenv("LRUBENCH_TOKEN")) {
		/* sbatch passes the environment on, and Slurm stores it with the job */
		warning("$LRUBENCH_TOKEN is not passed to the jobs: give the nodes a token file "
			"($LRUBENCH_TOKEN_FILE) or a netrc entry");
		unsetenv("LRUBENCH_TOKEN");
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct fleet_group *gr = &p->groups[g];
		struct strlist a = STRLIST_INIT, argv = STRLIST_INIT;
		char *script = xasprintf("%s/array-%zu.sh", state, g), *comment, *id = NULL;

		strlist_push(&argv, p->lrubench);
		strlist_push(&argv, "fleet");
		strlist_push(&argv, "task");
		strlist_push(&argv, p->path);
		strlist_pushf(&argv, "--group=%zu", g);
		comment = xasprintf("lrubench fleet %s: job array %zu of %zu, written by lrubench fleet "
				    "submit", p->name, g, p->ngroups);
		common_sbatch_args(p, &a);
		strlist_pushf(&a, "--job-name=lrubench-%s", p->name);
		strlist_pushf(&a, "--array=0-%zu", gr->ntasks - 1);
		strlist_push(&a, "--exclusive");
		strlist_push(&a, "--nodes=1");
		strlist_push(&a, "--ntasks=1");
		if (gr->node)
			strlist_pushf(&a, "--nodelist=%s", gr->node);
		if (gr->constraint)
			strlist_pushf(&a, "--constraint=%s", gr->constraint);
		if (p->time_limit)
			strlist_pushf(&a, "--time=%s", p->time_limit);
		strlist_pushf(&a, "--output=%s/task-%%A_%%a.out", state);
		strlist_push(&a, script);
		ret = write_script(script, comment, &argv) ? LB_EXIT_FAIL : 0;
		if (!ret && O.dry_run)
			print_sbatch(&a, script);
		else if (!ret && !(id = sbatch(&a, &ret)))
			cancel_jobs(&ids);
		else if (!ret) {
			strlist_push(&ids, id);
			strbuf_addf(&record, "array %zu %s\n", g, id);
			info("job array %zu: job %s, %zu task%s", g, id, gr->ntasks,
			     gr->ntasks == 1 ? "" : "s");
			free(id);
		}
		free(script);
		free(comment);
		strlist_release(&a);
		strlist_release(&argv);
		if (ret)
			goto out;
	}
	{
		struct strlist a = STRLIST_INIT, argv = STRLIST_INIT;
		struct strbuf dep = STRBUF_INIT;
		char *script = xasprintf("%s/collect.sh", state);

		strlist_push(&argv, p->lrubench);
		strlist_push(&argv, "fleet");
		strlist_push(&argv, "collect");
		strlist_push(&argv, p->path);
		strbuf_addstr(&dep, "afterany");
		for (size_t i = 0; i < ids.n; i++)
			strbuf_addf(&dep, ":%s", ids.v[i]);
		if (O.dry_run)
			strbuf_addstr(&dep, ":JOBS");
		strlist_pushf(&argv, "--jobs=%s", O.dry_run ? "JOBS" : "");
		if (!O.dry_run) {
			free(argv.v[argv.n - 1]);
			argv.v[argv.n - 1] = xasprintf("--jobs=%s", dep.buf + strlen("afterany:"));
			for (char *c = argv.v[argv.n - 1]; *c; c++)
				if (*c == ':')
					*c = ',';
		}
		common_sbatch_args(p, &a);
		strlist_pushf(&a, "--job-name=lrubench-%s-collect", p->name);
		strlist_pushf(&a, "--dependency=%s", dep.buf);
		strlist_push(&a, "--nodes=1");
		strlist_push(&a, "--ntasks=1");
		strlist_pushf(&a, "--output=%s/collect-%%j.out", state);
		strlist_push(&a, script);
		ret = write_script(script, "lrubench fleet: the collect job, after every task",
				   &argv) ? LB_EXIT_FAIL : 0;
		if (!ret && O.dry_run)
			print_sbatch(&a, script);
		else if (!ret && !(collect = sbatch(&a, &ret)))
			cancel_jobs(&ids);
		free(script);
		strbuf_release(&dep);
		strlist_release(&a);
		strlist_release(&argv);
		if (ret)
			goto out;
	}
	if (O.dry_run) {
		info("dry run: nothing submitted; the job scripts are in %s", state);
		goto out;
	}
	strbuf_addf(&record, "collect %s\n", collect);
	if (write_file_atomic(path, record.buf, record.len)) {
		cancel_jobs(&ids);
		ret = LB_EXIT_FAIL;
		goto out;
	}
	info("submitted %zu task%s of %s in %zu job array%s, and collect job %s; lrubench fleet "
	     "status %s", p->ntasks, p->ntasks == 1 ? "" : "s", p->name, ids.n,
	     ids.n == 1 ? "" : "s", collect, p->path);
	ret = LB_EXIT_OK;
out:
	strlist_release(&ids);
	strbuf_release(&record);
	free(state);
	free(path);
	free(collect);
	return ret;
}

/* ---- status ---- */

static int status(const struct fleet_plan *p)
{
	struct submitted s;
	struct slurm_states st = { 0 };
	struct strlist all = STRLIST_INIT;
	const struct slurm_task_state *c;
	char *state = fleet_state_dir(p), *report = xasprintf("%s/fleet-report.txt", state);
	int r, ret = LB_EXIT_OK;

	if (read_submitted(p, &s)) {
		error("%s has not been submitted (no job ids in %s/submitted): lrubench fleet submit",
		      p->path, state);
		free(state);
		free(report);
		return LB_EXIT_USAGE;
	}
	for (size_t i = 0; i < s.arrays.n; i++)
		strlist_push(&all, s.arrays.v[i]);
	if (s.collect)
		strlist_push(&all, s.collect);
	r = slurm_query(&all, &st);
	if (r) {
		ret = r == SLURM_NOT_INSTALLED ? LB_EXIT_UNSUPPORTED : LB_EXIT_FAIL;
		goto out;
	}
	printf("fleet %s: %zu tasks in job arrays", p->name, p->ntasks);
	for (size_t i = 0; i < s.arrays.n; i++)
		printf(" %s", s.arrays.v[i]);
	printf("\n");
	for (size_t i = 0; i < p->ntasks; i++) {
		const struct fleet_task *t = &p->tasks[i];
		const struct slurm_task_state *ts = t->group < s.arrays.n ?
			slurm_find_state(&st, s.arrays.v[t->group], (long)t->index) : NULL;

		printf("  task %3zu  %s_%-4zu %-12s r%-3u %-12s %s%s%s\n", t->id,
		       t->group < s.arrays.n ? s.arrays.v[t->group] : "?", t->index,
		       p->kernels[t->kernel].name, t->rep,
		       ts && *ts->node ? ts->node : t->node ? t->node : "-",
		       ts ? ts->state : "UNKNOWN (Slurm has forgotten it; no accounting)",
		       ts && *ts->exit_code ? " exit " : "", ts ? ts->exit_code : "");
	}
	c = s.collect ? slurm_find_state(&st, s.collect, -1) : NULL;
	printf("  collect   %-12s %s\n", s.collect ? s.collect : "?",
	       c ? c->state : "UNKNOWN");
	if (path_exists(report)) {
		printf("\n");
		{
			size_t len;
			char *text = read_file_str(report, &len);

			if (text)
				fwrite(text, 1, len, stdout);
			free(text);
		}
	}
out:
	submitted_release(&s);
	slurm_states_release(&st);
	strlist_release(&all);
	free(state);
	free(report);
	return ret;
}

/* ---- the command ---- */

static const struct {
	const char *name;
	const struct popt_command *cmd;
} subs[] = {
	{ "plan", &fleet_plan_command },
	{ "submit", &fleet_submit_command },
	{ "status", &fleet_status_command },
	{ "task", &fleet_task_command },
	{ "collect", &fleet_collect_command },
};

int cmd_fleet(int argc, char **argv)
{
	const struct popt_command *cmd = NULL;
	struct fleet_plan p;
	int n, ret;

	memset(&O, 0, sizeof(O));
	if (argc < 2 || argv[1][0] == '-') {
		n = parse_options(&fleet_command, argc, argv);
		if (n < 0)
			return popt_exit(n);
		return popt_usage_error(&fleet_command, "fleet needs a subcommand: plan, submit or "
					"status");
	}
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i].name))
			cmd = subs[i].cmd;
	if (!cmd)
		return popt_usage_error(&fleet_command, "'%s' is not a fleet subcommand (plan, submit, "
					"status)", argv[1]);
	n = parse_options(cmd, argc - 1, argv + 1);
	if (n < 0)
		return popt_exit(n);
	if (n != 1)
		return popt_usage_error(cmd, "give one plan file");
	if ((ret = load_plan(argv[1], &p)))
		return ret;
	if (cmd == &fleet_plan_command) {
		fleet_plan_print(&p, stdout);
		ret = LB_EXIT_OK;
	} else if (cmd == &fleet_submit_command) {
		ret = submit(&p);
	} else if (cmd == &fleet_status_command) {
		ret = status(&p);
	} else if (cmd == &fleet_task_command) {
		unsigned long long g;

		if (!O.group || parse_ull(O.group, &g))
			ret = popt_usage_error(cmd, "--group N is needed");
		else
			ret = fleet_task_run(&p, (size_t)g);
	} else {
		struct strlist jobs = STRLIST_INIT;
		size_t nj = 0;
		char **v = split_commas(O.jobs ? O.jobs : "", &nj);

		for (size_t i = 0; i < nj; i++)
			strlist_push(&jobs, v[i]);
		free_strv(v);
		ret = fleet_collect(&p, &jobs);
		strlist_release(&jobs);
	}
	fleet_plan_release(&p);
	if (ret && lb_stop_requested())
		ret = LB_EXIT_INTERRUPTED;
	return ret;
}
