// SPDX-License-Identifier: GPL-2.0-or-later
/* Fleet plans (fleet/plan.h) and the parsers of Slurm's output
 * (fleet/slurm.h). Slurm itself is tested in tests/integration/fleet.sh. */
#include "unit.h"
#include "fleet/plan.h"
#include "fleet/slurm.h"

static int load(const char *text, struct fleet_plan *p, struct strbuf *err)
{
	char *path = unit_put("plan.ini", text);
	int r = fleet_plan_load(path, p, err);

	free(path);
	return r;
}

static void tasks_and_groups(void **state)
{
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(load("[fleet]\nname = n\nresults = /shared/r\nrepetitions = 2\n"
			      "nodes = a1,b-2\n[kernel base]\n[kernel new]\nconstraint = k\n", &p, &err), 0);
	assert_int_equal(p.ntasks, 8);
	/* kernel-major, then repetition, then node */
	assert_int_equal(p.tasks[0].kernel, 0);
	assert_string_equal(p.tasks[1].node, "b-2");
	assert_int_equal(p.tasks[2].rep, 2);
	assert_int_equal(p.tasks[4].kernel, 1);
	/* node x constraint: four arrays of two tasks */
	assert_int_equal(p.ngroups, 4);
	for (size_t g = 0; g < p.ngroups; g++)
		assert_int_equal(p.groups[g].ntasks, 2);
	assert_string_equal(p.groups[2].constraint, "k");
	assert_int_equal(p.tasks[5].group, 3);
	assert_int_equal(p.tasks[7].index, 1);
	fleet_plan_release(&p);
	strbuf_release(&err);
}

static void labels_read_back(void **state)
{
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;
	const struct fleet_task *t;
	char *label, *node;

	(void)state;
	assert_int_equal(load("[fleet]\nname = n\nstore = http://s/x\nrepetitions = 12\n"
			      "[kernel base]\n[kernel v6.8_rc1+]\n", &p, &err), 0);
	assert_string_equal(p.store, "http://s/x/");
	label = fleet_task_label(&p, &p.tasks[12 + 10], "node-with-dashes-r3");
	assert_string_equal(label, "v6.8_rc1+-node-with-dashes-r3-r11");
	t = fleet_task_of_label(&p, label, &node);
	assert_non_null(t);
	assert_int_equal(t->id, 22);
	assert_string_equal(node, "node-with-dashes-r3");
	free(node);
	free(label);
	assert_null(fleet_task_of_label(&p, "base-n1-r13", NULL));   /* no repetition 13 */
	assert_null(fleet_task_of_label(&p, "other-n1-r1", NULL));
	assert_null(fleet_task_of_label(&p, "base-r1", NULL));
	label = fleet_task_store_url(&p, &p.tasks[3]);
	assert_string_equal(label, "http://s/x/n/task-3.tar.zst");
	free(label);
	fleet_plan_release(&p);
	strbuf_release(&err);
}

static void bad(const char *text, const char *want)
{
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;

	if (!load(text, &p, &err)) {
		fleet_plan_release(&p);
		fail_msg("accepted: %s", text);
	}
	if (!strstr(err.buf, want))
		fail_msg("got '%s', want '%s'", err.buf, want);
	strbuf_release(&err);
}

static void bad_plans(void **state)
{
	(void)state;
	bad("[fleet]\nresults = /r\n[kernel a]\n", "fleet.name is missing");
	bad("[fleet]\nname = .x\nresults = /r\n[kernel a]\n", "starts with '.'");
	bad("[fleet]\nname = n\nname = m\nresults = /r\n[kernel a]\n", "plan.ini:3: fleet.name given twice");
	bad("[fleet]\nname = n\nresults = /r\n[kernel a]\nimage = /x\n", "which are for mode = vm");
	bad("[fleet]\nname = n\nresults = /r\n[kernel a]\nbogus = 1\n", "plan.ini:5: unknown key 'bogus' in [kernel a]");
	/* the known keys come from the plan's tables */
	bad("[fleet]\nname = n\nresults = /r\ncolour = blue\n[kernel a]\n",
	    "plan.ini:4: unknown key fleet.colour (known: name, results, store, mode, repetitions, "
	    "workloads, suite, quick, iterations, partition, constraint, time, lrubench, set, nodes, "
	    "sbatch)");
	bad("[fleet]\nname = n\nresults = /r\n[kernel a]\nbogus = 1\n",
	    "(known: release, constraint, image, modules)");
	bad("[fleet]\nname = n\nresults = /r\n[kernels]\n", "plan.ini:4: unknown section [kernels]");
	bad("[fleet]\nname = n\nresults = /r\nnodes = a,a\n[kernel a]\n", "node 'a' given twice");
	bad("[fleet]\nname = n\nresults = /r\nnodes = a/b\n[kernel a]\n", "cannot be part of a label");
	bad("[fleet]\nname = n\nresults = /r\ntime = soon\n[kernel a]\n", "fleet.time = soon");
	bad("[fleet]\nname = n\nstore = http://u:p@s/\n[kernel a]\n", "no user:password@");
	bad("[fleet]\nname = n\nstore = http://s/x?sig=1\n[kernel a]\n", "without a query");
	bad("[fleet]\nname = n\nresults = /r\nmode = cloud\n[kernel a]\n", "fleet.mode = cloud: 'cloud' is not one of host|vm");
	bad("[fleet]\nname = n\nresults = /r\nquick = maybe\n[kernel a]\n", "fleet.quick = maybe: 'maybe' is not yes or no");
	bad("[fleet]\nname = n\nresults = /r\nrepetitions = 101\n[kernel a]\n",
	    "fleet.repetitions = 101: 101 is out of range (1..100)");
	bad("[fleet]\nname = n\nresults = /r\n[kernel a]\nimage = /i\nimage = /j\n",
	    "plan.ini:6: kernel a.image given twice");
	bad("[fleet]\nname = n\nresults = /r\niterations = 0\n[kernel a]\n", "a number 1..10000");
	bad("[fleet]\nname = n\nresults = /r\nsbatch = --qos bench\n[kernel a]\n", "one sbatch option per line");
	bad("[fleet]\nname = n\nresults = /r\nlrubench = lrubench\n[kernel a]\n", "fleet.lrubench = lrubench: give an absolute path");
	bad("name = n\n", "outside of any [section]");
	bad("[fleet]\nname = n\nresults = /r\nsuite =\n[kernel a]\n", "suite has no value");
}

/* fleet.sbatch (issue 30, 11): an allow-list of full names. sbatch reads a
 * unique prefix as the option (--outp= is --output=), so an abbreviation of
 * what lrubench sets, and the options that pick files, folders or the
 * environment of the root job, are refused; an allowed one is kept. */
static void sbatch_allow_list(void **state)
{
	static const char *const refused[] = {
		"--outp=/etc/cron.d/x", "--dep=afterok:1", "--arr=0-9999", "--error=/etc/passwd",
		"--chdir=/tmp", "--export=LD_PRELOAD=/tmp/x.so", "--export-file=/tmp/e",
		"--input=/etc/shadow", "--open-mode=append", "--uid=0", "--wrap=id",
		"--get-user-env", "--account", "--account=", "--qos=a\x1b[2J", "--o=/x",
		"--mem-per-c=1G", NULL,
	};
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; refused[i]; i++) {
		char *plan = xasprintf("[fleet]\nname = n\nresults = /r\nsbatch = %s\n[kernel a]\n",
				       refused[i]);

		bad(plan, "fleet.sbatch = ");
		free(plan);
	}
	bad("[fleet]\nname = n\nresults = /r\nsbatch = --outp=/x\n[kernel a]\n",
	    "--outp is not an option a plan may add (allowed, by their full name: --account");
	assert_int_equal(load("[fleet]\nname = n\nresults = /r\nsbatch = --qos=bench\n"
			      "sbatch = --mem-per-cpu=2G\nsbatch = --account=mm\n[kernel a]\n", &p, &err), 0);
	assert_int_equal(p.sbatch_args.n, 3);
	assert_string_equal(p.sbatch_args.v[1], "--mem-per-cpu=2G");
	fleet_plan_release(&p);
	strbuf_release(&err);
}

/* fleet.lrubench other than this program is said (issue 30, 11); the
 * default (this program) and a path to it are not. */
static void foreign_program_is_warned(void **state)
{
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;
	char self[4096], *plan, *out;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(n > 0);
	self[n] = '\0';
	capture_start();
	assert_int_equal(load("[fleet]\nname = n\nresults = /r\nlrubench = /bin/sh\n[kernel a]\n",
			      &p, &err), 0);
	fleet_plan_release(&p);
	assert_int_equal(load("[fleet]\nname = n\nresults = /r\nlrubench = /nonexistent/lb\n"
			      "[kernel a]\n", &p, &err), 0);
	fleet_plan_release(&p);
	out = capture_end();
	assert_non_null(strstr(out, "fleet.lrubench = /bin/sh is not this program: the nodes run "
			       "it as root"));
	assert_non_null(strstr(out, "fleet.lrubench = /nonexistent/lb does not exist here"));
	free(out);
	plan = xasprintf("[fleet]\nname = n\nresults = /r\nlrubench = %s\n[kernel a]\n", self);
	capture_start();
	assert_int_equal(load(plan, &p, &err), 0);
	fleet_plan_release(&p);
	assert_int_equal(load("[fleet]\nname = n\nresults = /r\n[kernel a]\n", &p, &err), 0);
	fleet_plan_release(&p);
	out = capture_end();
	assert_null(strstr(out, "fleet.lrubench"));
	free(out);
	free(plan);
	strbuf_release(&err);
}

/* The printed plan is inert text (issue 30, 11 and 4): escapes in values
 * are shown escaped. */
static void plan_print_is_inert(void **state)
{
	struct fleet_plan p;
	struct strbuf err = STRBUF_INIT;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	assert_int_equal(load("[fleet]\nname = n\nresults = /r/\x1b]8;;http://x\x07" "a\n"
			      "partition = p\xe2\x80\xaeq\n[kernel a]\nrelease = 6.8\x1b[2J\n"
			      "constraint = c\xc2\x9b" "1m\n", &p, &err), 0);
	m = open_memstream(&text, &len);
	fleet_plan_print(&p, m);
	fclose(m);
	assert_null(strchr(text, '\x1b'));
	assert_null(strchr(text, '\x07'));
	assert_null(strstr(text, "\xe2\x80\xae"));
	assert_null(strstr(text, "\xc2\x9b"));
	assert_non_null(strstr(text, "release 6.8\\x1b[2J"));
	assert_non_null(strstr(text, "--partition=p\\u202eq"));
	free(text);
	fleet_plan_release(&p);
	strbuf_release(&err);
}

static void job_ids(void **state)
{
	char *id;

	(void)state;
	id = slurm_parse_jobid("123\n");
	assert_string_equal(id, "123");
	free(id);
	id = slurm_parse_jobid("sbatch: warning: something\n456;cluster\n");
	assert_string_equal(id, "456");
	free(id);
	assert_null(slurm_parse_jobid("sbatch: error: invalid partition specified: x\n"));
	assert_null(slurm_parse_jobid(""));
}

static void states(void **state)
{
	struct slurm_states st = { 0 };
	const struct slurm_task_state *s;

	(void)state;
	slurm_parse_states("12_[3-5,7%2]|PENDING|\n12_0|RUNNING|n1\n12_1|FAILED|n1|3:0\n"
			   "12_1.batch|FAILED|n1|3:0\n13|COMPLETED|n2|0:0\nnonsense\n"
			   "12_2|CANCELLED by 0|n1|0:15\n", &st);
	assert_int_equal(st.n, 8);
	s = slurm_find_state(&st, "12", 4);
	assert_non_null(s);
	assert_string_equal(s->state, "PENDING");
	assert_null(slurm_find_state(&st, "12", 6));
	s = slurm_find_state(&st, "12", 1);
	assert_string_equal(s->exit_code, "3:0");
	s = slurm_find_state(&st, "13", -1);
	assert_string_equal(s->node, "n2");
	s = slurm_find_state(&st, "12", 2);
	assert_string_equal(s->state, "CANCELLED");
	slurm_states_release(&st);
}

static void scripts_quote_every_word(void **state)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf s = STRBUF_INIT;

	(void)state;
	strlist_push(&a, "/opt/lb/lrubench");
	strlist_push(&a, "it's $(rm -rf /)");
	slurm_script("a\ncomment", &a, &s);
	assert_string_equal(s.buf, "#!/bin/sh\n# a comment\nexec '/opt/lb/lrubench' "
			    "'it'\\''s $(rm -rf /)'\n");
	strbuf_release(&s);
	strlist_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tasks_and_groups),
		cmocka_unit_test(labels_read_back),
		cmocka_unit_test(bad_plans),
		cmocka_unit_test(sbatch_allow_list),
		cmocka_unit_test(foreign_program_is_warned),
		cmocka_unit_test(plan_print_is_inert),
		cmocka_unit_test(job_ids),
		cmocka_unit_test(states),
		cmocka_unit_test(scripts_quote_every_word),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
