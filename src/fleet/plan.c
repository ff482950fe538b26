// SPDX-License-Identifier: GPL-2.0-or-later
/* A fleet plan: reading, checking, tasks and job arrays (plan.h). */
#include "fleet/plan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ini.h>
#include "core/config.h"
#include "core/escape.h"
#include "core/label_name.h"
#include "core/net_client.h"
#include "core/path.h"
#include "core/sysinfo.h"
#include "core/workload.h"

/* ---- reading: libinih, with a line counter and the section headers
 * seen by our own reader (inih calls the handler for keys only, and a
 * kernel section may have none) ---- */

struct reader {
	struct fleet_plan *p;
	FILE *f;
	int line;
	struct strbuf *err;
	bool failed;
	struct strlist seen;   /* "fleet" keys given, for "given twice" */
};

static int fail_at(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_at(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return 0;
	strbuf_addf(r->err, "%s:%d: ", r->p->path, r->line);
	va_start(ap, fmt);
	strbuf_vaddf(r->err, fmt, ap);
	va_end(ap);
	r->failed = true;
	return 0;
}

static struct fleet_kernel *find_kernel(struct fleet_plan *p, const char *name)
{
	for (size_t i = 0; i < p->nkernels; i++)
		if (!strcmp(p->kernels[i].name, name))
			return &p->kernels[i];
	return NULL;
}

static const char *kernel_name_problem(const char *n)
{
	size_t l = strlen(n);

	if (!l)
		return "is empty";
	if (l > FLEET_KERNEL_NAME_MAX)
		return "is longer than 64 characters";
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && !strchr("._+", *n))
			return "has a character outside A-Z a-z 0-9 . _ + (no '-': labels are "
			       "<kernel>-<node>-r<repetition>)";
	return NULL;
}

/* A section header line: "[fleet]" or "[kernel NAME]". */
static void on_section(struct reader *r, const char *line)
{
	const char *s = line, *e;
	char *name;

	while (isspace((unsigned char)*s))
		s++;
	if (*s != '[' || !(e = strchr(s, ']')))
		return;
	name = xstrndup(s + 1, (size_t)(e - s - 1));
	if (!strncmp(name, "kernel", 6) && (name[6] == ' ' || name[6] == '\t' || !name[6])) {
		char *k = name + 6, *ke;
		const char *why;

		while (isspace((unsigned char)*k))
			k++;
		for (ke = k + strlen(k); ke > k && isspace((unsigned char)ke[-1]);)
			*--ke = '\0';
		why = kernel_name_problem(k);
		if (why)
			fail_at(r, "[kernel %s]: the kernel name %s", k, why);
		else if (find_kernel(r->p, k))
			fail_at(r, "[kernel %s] given twice", k);
		else {
			r->p->kernels = xrealloc(r->p->kernels,
						 (r->p->nkernels + 1) * sizeof(*r->p->kernels));
			memset(&r->p->kernels[r->p->nkernels], 0, sizeof(*r->p->kernels));
			r->p->kernels[r->p->nkernels++].name = xstrdup(k);
		}
	} else if (strcmp(name, "fleet")) {
		fail_at(r, "unknown section [%s] (a plan has [fleet] and [kernel NAME] sections)", name);
	}
	free(name);
}

static char *read_line(char *str, int num, void *stream)
{
	struct reader *r = stream;
	char *s = fgets(str, num, r->f);

	if (s) {
		r->line++;
		on_section(r, s);
	}
	return s;
}

/* A scalar key: its slot, or NULL when it was given twice (reported). */
static int set_once(struct reader *r, const char *sec, const char *key, char **slot, const char *v)
{
	if (*slot)
		return fail_at(r, "%s.%s given twice", sec, key);
	*slot = xstrdup(v);
	return 1;
}

/*
 * The plan's scalar keys, parsed by config.c's option tables and parsers
 * (core/config.h): one syntax for a bool, a number with a range, a choice.
 * set, nodes and sbatch are lists with checks of their own (fleet_key).
 */
#define POFF(f) offsetof(struct fleet_plan, f)
static const char *const fleet_modes[] = { "host", "vm", NULL };   /* enum fleet_mode */

static const struct option_def fleet_keys[] = {
	{ .name = "name", .type = OPT_STR, .offset = POFF(name) },
	{ .name = "results", .type = OPT_STR, .offset = POFF(results) },
	{ .name = "store", .type = OPT_STR, .offset = POFF(store) },
	{ .name = "mode", .type = OPT_ENUM, .offset = POFF(mode), .choices = fleet_modes },
	{ .name = "repetitions", .type = OPT_UINT, .offset = POFF(repetitions),
	  .min = 1, .max = FLEET_MAX_REPETITIONS },
	{ .name = "workloads", .type = OPT_STR, .offset = POFF(workloads) },
	{ .name = "suite", .type = OPT_STR, .offset = POFF(suite) },
	{ .name = "quick", .type = OPT_BOOL, .offset = POFF(quick) },
	{ .name = "iterations", .type = OPT_STR, .offset = POFF(iterations) },
	{ .name = "partition", .type = OPT_STR, .offset = POFF(partition) },
	{ .name = "constraint", .type = OPT_STR, .offset = POFF(constraint) },
	{ .name = "time", .type = OPT_STR, .offset = POFF(time_limit) },
	{ .name = "lrubench", .type = OPT_STR, .offset = POFF(lrubench) },
	OPT_END,
};

#define KOFF(f) offsetof(struct fleet_kernel, f)
static const struct option_def kernel_keys[] = {
	{ .name = "release", .type = OPT_STR, .offset = KOFF(release) },
	{ .name = "constraint", .type = OPT_STR, .offset = KOFF(constraint) },
	{ .name = "image", .type = OPT_STR, .offset = KOFF(image) },
	{ .name = "modules", .type = OPT_STR, .offset = KOFF(modules) },
	OPT_END,
};

static void key_names(const struct option_def *defs, struct strbuf *out)
{
	for (size_t i = 0; defs[i].name; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", defs[i].name);
}

/*
 * key = v of section sec into base (a plan or a kernel) by defs: 0 when the
 * table has the key (*known: 1 parsed, 0 failed and reported as
 * "SEC.KEY = V: why"), -1 when it does not. A text key is given once.
 */
static int plan_key(struct reader *r, const char *sec, const struct option_def *defs,
		    void *base, const char *key, const char *v, int *known)
{
	for (size_t i = 0; defs[i].name; i++) {
		const struct option_def *d = &defs[i];
		void *dst = (char *)base + d->offset;
		struct strbuf why = STRBUF_INIT;
		unsigned long long n;
		int choice;

		if (strcmp(d->name, key))
			continue;
		if (d->type == OPT_STR) {
			*known = set_once(r, sec, key, dst, v);
			return 0;
		}
		/* the plan's fields are narrower than the config's: parse, then store */
		if (option_parse(d, v, d->type == OPT_UINT ? (void *)&n : d->type == OPT_ENUM
					       ? (void *)&choice : dst, &why)) {
			*known = fail_at(r, "%s.%s = %s: %s", sec, key, v, strbuf_str(&why));
		} else {
			if (d->type == OPT_UINT)
				*(unsigned *)dst = (unsigned)n;
			else if (d->type == OPT_ENUM)
				*(enum fleet_mode *)dst = (enum fleet_mode)choice;
			*known = 1;
		}
		strbuf_release(&why);
		return 0;
	}
	return -1;
}

/*
 * The sbatch options a plan may add (fleet.sbatch), by their full name: the
 * job runs as root, so an option that picks a file Slurm writes or reads
 * (--output, --error, --input, --open-mode), the folder or environment the
 * job runs in (--chdir, --export, --export-file, --get-user-env,
 * --propagate), who it runs as (--uid, --gid), what runs (--wrap,
 * --container, burst-buffer scripts) or an option lrubench sets itself
 * (--array, --dependency, --job-name, --partition, --nodelist, --constraint,
 * --time, --exclusive, --nodes, --ntasks) is not on it. sbatch takes any
 * unique prefix of a name (--outp= is --output=), so the name must be one
 * of these exactly, with a value. Each only asks the scheduler for
 * something: an account or QOS to charge, resources, mail, a start time.
 */
static const char *const sbatch_allowed[] = {
	"--account", "--begin", "--comment", "--cpus-per-task", "--exclude", "--gres",
	"--hint", "--licenses", "--mail-type", "--mail-user", "--mem", "--mem-per-cpu",
	"--nice", "--qos", "--reservation", "--tmp", "--wckey", NULL,
};

int fleet_sbatch_option_check(const char *v, struct strbuf *why)
{
	const char *eq = strchr(v, '=');
	size_t n = eq ? (size_t)(eq - v) : strlen(v);

	if (strncmp(v, "--", 2) || strpbrk(v, " \t") || !eq || !eq[1]) {
		strbuf_addstr(why, "one sbatch option per line, as --name=value");
		return -1;
	}
	/* accounts, QOS names, sizes, mail addresses: printable ASCII (a
	 * control, C1 or invalid UTF-8 byte would reach sbatch's argv and the
	 * dry run's output; found by fuzz/fuzz_plan.c) */
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
			strbuf_addf(why, "the byte 0x%02x (sbatch options are printable ASCII)",
				    (unsigned char)*c);
			return -1;
		}
	for (size_t i = 0; sbatch_allowed[i]; i++)
		if (strlen(sbatch_allowed[i]) == n && !strncmp(v, sbatch_allowed[i], n))
			return 0;
	strbuf_addf(why, "%.*s is not an option a plan may add (allowed, by their full name: ",
		    (int)n, v);
	for (size_t i = 0; sbatch_allowed[i]; i++)
		strbuf_addf(why, "%s%s", i ? " " : "", sbatch_allowed[i]);
	strbuf_addstr(why, "; the plan's own keys set partition, nodes, constraint and time, "
		      "and lrubench sets the array, its output and the collect job's dependency)");
	return -1;
}

static int fleet_key(struct reader *r, const char *key, const char *v)
{
	int known;

	struct fleet_plan *p = r->p;

	if (!strcmp(key, "set"))
		return strlist_push(&p->sets, v), 1;
	if (!strcmp(key, "sbatch")) {
		struct strbuf why = STRBUF_INIT;
		int ok = !fleet_sbatch_option_check(v, &why) ||
			 fail_at(r, "fleet.sbatch = %s: %s", v, strbuf_str(&why));

		strbuf_release(&why);
		if (ok)
			strlist_push(&p->sbatch_args, v);
		return ok;
	}
	if (strlist_has(&r->seen, key))
		return fail_at(r, "fleet.%s given twice", key);
	strlist_push(&r->seen, key);
	if (!plan_key(r, "fleet", fleet_keys, p, key, v, &known))
		return known;
	if (!strcmp(key, "nodes")) {
		size_t nn;
		char **names = split_commas(v, &nn);

		for (size_t i = 0; i < nn && !r->failed; i++) {
			struct strbuf why = STRBUF_INIT;

			/* a node name ends up inside labels */
			if (label_name_check(names[i], &why))
				fail_at(r, "fleet.nodes: node '%s' cannot be part of a label", names[i]);
			else if (strlist_has(&p->nodes, names[i]))
				fail_at(r, "fleet.nodes: node '%s' given twice", names[i]);
			else
				strlist_push(&p->nodes, names[i]);
			strbuf_release(&why);
		}
		free_strv(names);
		if (!nn)
			return fail_at(r, "fleet.nodes: no node given");
		return !r->failed;
	}
	{
		struct strbuf names = STRBUF_INIT;

		key_names(fleet_keys, &names);
		fail_at(r, "unknown key fleet.%s (known: %s, set, nodes, sbatch)", key,
			strbuf_str(&names));
		strbuf_release(&names);
		return 0;
	}
}

static int kernel_key(struct reader *r, struct fleet_kernel *k, const char *key, const char *v)
{
	char sec[96];

	struct strbuf names = STRBUF_INIT;
	int known;

	snprintf(sec, sizeof(sec), "kernel %s", k->name);
	if (!plan_key(r, sec, kernel_keys, k, key, v, &known))
		return known;
	key_names(kernel_keys, &names);
	fail_at(r, "unknown key '%s' in [kernel %s] (known: %s)", key, k->name, strbuf_str(&names));
	strbuf_release(&names);
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
	struct reader *r = user;
	char *v, *hash;
	int ret;

	if (r->failed)
		return 1;
	v = xstrdup(value ? value : "");
	/* '#' starts a comment after white space, as in lrubench's configs */
	for (hash = v; (hash = strchr(hash, '#')); hash++)
		if (hash == v || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	if (!*v)
		ret = fail_at(r, "%s has no value", key);
	else if (!strcmp(section, "fleet"))
		ret = fleet_key(r, key, v);
	else if (!*section)
		ret = fail_at(r, "key '%s' outside of any [section]", key);
	else
		ret = r->p->nkernels ? kernel_key(r, &r->p->kernels[r->p->nkernels - 1], key, v) : 0;
	free(v);
	(void)ret;
	return 1;
}

/* ---- checks after reading ---- */

static int check_path(const char *what, const char *path, bool dir, struct strbuf *err)
{
	struct stat st;

	if (path[0] != '/') {
		strbuf_addf(err, "%s %s: give an absolute path (the nodes read it)", what, path);
		return -1;
	}
	if (stat(path, &st) || (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
		strbuf_addf(err, "%s %s: %s", what, path,
			    errno == ENOENT ? "no such file or folder" :
			    dir ? "not a folder" : "not a regular file");
		return -1;
	}
	return 0;
}

/* The folders where a suite NAME is looked up (core/path.h's shipped
 * path: beside the binary in a build tree, else the installed data): the
 * experiments of configs/suites/, then quick and default of configs/. */
static void suite_dirs(struct strlist *dirs)
{
	static const char *const rel[] = { "configs/suites", "configs" };

	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		char *d = shipped_path(rel[i]);

		if (d)
			strlist_push(dirs, d);
		free(d);
	}
}

static int resolve_suite(struct fleet_plan *p, struct strbuf *err)
{
	struct strlist dirs = STRLIST_INIT, known = STRLIST_INIT;
	size_t l = strlen(p->suite);
	int ret = -1;

	if (strchr(p->suite, '/') || (l > 5 && !strcmp(p->suite + l - 5, ".conf"))) {
		if (check_path("fleet.suite", p->suite, false, err))
			return -1;
		p->suite_path = xstrdup(p->suite);
		return 0;
	}
	suite_dirs(&dirs);
	for (size_t i = 0; i < dirs.n && ret; i++) {
		char *c = xasprintf("%s/%s.conf", dirs.v[i], p->suite);
		DIR *d;
		struct dirent *de;

		if (!access(c, R_OK)) {
			p->suite_path = c;
			ret = 0;
			break;
		}
		free(c);
		if (!(d = opendir(dirs.v[i])))
			continue;
		while ((de = readdir(d))) {
			size_t dl = strlen(de->d_name);
			char *nm;

			if (dl <= 5 || strcmp(de->d_name + dl - 5, ".conf") || de->d_name[0] == '.')
				continue;
			nm = xstrndup(de->d_name, dl - 5);
			if (!strlist_has(&known, nm))
				strlist_push(&known, nm);
			free(nm);
		}
		closedir(d);
	}
	if (ret) {
		strbuf_addf(err, "fleet.suite = %s: unknown suite (known:", p->suite);
		for (size_t i = 0; i < known.n; i++)
			strbuf_addf(err, " %s", known.v[i]);
		strbuf_addstr(err, known.n ? "; or give a config file's path)" :
			      " none found; give a config file's path)");
	}
	strlist_release(&dirs);
	strlist_release(&known);
	return ret;
}

/* The run options a task will pass, through the config tables: a typo in
 * a --set fails here, not in every task on every node. */
static int check_run_options(struct fleet_plan *p, struct strbuf *err)
{
	struct sys_facts si;
	struct config cfg;
	struct sizing sz;
	int ret = -1;

	memset(&si, 0, sizeof(si));
	sysinfo_collect(&si);
	sz.sys = &si;
	sz.node_cpus = si.nr_cpus > 0 ? si.nr_cpus : 1;
	sz.node_mem = si.mem_total_kb * 1024;
	if (config_init(&cfg, &sz, p->quick)) {
		strbuf_addstr(err, "cannot set up the configuration tables");
		sysinfo_release(&si);
		return -1;
	}
	if (p->suite_path && config_load_file(&cfg, p->suite_path, err))
		goto out;
	if (p->iterations && config_set_value(&cfg, "global", "iterations", p->iterations,
					      "fleet.iterations", err))
		goto out;
	for (size_t i = 0; i < p->sets.n; i++) {
		char *origin = xasprintf("%s: fleet.set", p->path);
		int r = config_set_from(&cfg, p->sets.v[i], origin, err);

		free(origin);
		if (r)
			goto out;
	}
	if (p->workloads && strcmp(p->workloads, "all")) {
		size_t n;
		char **names = split_commas(p->workloads, &n);

		for (size_t i = 0; i < n; i++)
			if (!workload_find(names[i])) {
				strbuf_addf(err, "fleet.workloads: unknown workload '%s' (lrubench list "
					    "names them)", names[i]);
				free_strv(names);
				goto out;
			}
		free_strv(names);
		if (!n) {
			strbuf_addstr(err, "fleet.workloads: none given");
			goto out;
		}
	}
	ret = 0;
out:
	config_release(&cfg);
	sysinfo_release(&si);
	return ret;
}

static int check_kernels(struct fleet_plan *p, struct strbuf *err)
{
	if (!p->nkernels) {
		strbuf_addf(err, "%s: no [kernel NAME] section: name at least one kernel (the first "
			    "is the baseline)", p->path);
		return -1;
	}
	for (size_t i = 0; i < p->nkernels; i++) {
		struct fleet_kernel *k = &p->kernels[i];
		struct strbuf why = STRBUF_INIT;
		int bad = 0;

		if (p->mode == FLEET_HOST && (k->image || k->modules)) {
			strbuf_addf(err, "%s: [kernel %s] has image/modules, which are for mode = vm "
				    "(in host mode a node runs the kernel it booted)", p->path, k->name);
			return -1;
		}
		if (p->mode == FLEET_VM && !k->image) {
			strbuf_addf(err, "%s: [kernel %s] needs image = (mode = vm boots it)", p->path,
				    k->name);
			return -1;
		}
		if (p->mode == FLEET_VM && k->release) {
			strbuf_addf(err, "%s: [kernel %s]: release = is for host mode (in vm mode the "
				    "image says its release)", p->path, k->name);
			return -1;
		}
		strbuf_addf(&why, "%s: [kernel %s]: image", p->path, k->name);
		if (k->image)
			bad = check_path(why.buf, k->image, false, err);
		strbuf_reset(&why);
		strbuf_addf(&why, "%s: [kernel %s]: modules", p->path, k->name);
		if (!bad && k->modules)
			bad = check_path(why.buf, k->modules, true, err);
		strbuf_release(&why);
		if (bad)
			return -1;
	}
	return 0;
}

/* Tasks, kernel-major, and the job arrays that hold them. */
static void make_tasks(struct fleet_plan *p)
{
	size_t nn = p->nodes.n ? p->nodes.n : 1;

	p->ntasks = p->nkernels * p->repetitions * nn;
	p->tasks = xcalloc(p->ntasks, sizeof(*p->tasks));
	for (size_t k = 0, id = 0; k < p->nkernels; k++)
		for (unsigned r = 1; r <= p->repetitions; r++)
			for (size_t n = 0; n < nn; n++, id++) {
				struct fleet_task *t = &p->tasks[id];

				t->id = id;
				t->kernel = k;
				t->rep = r;
				t->node = p->nodes.n ? p->nodes.v[n] : NULL;
			}
	for (size_t i = 0; i < p->ntasks; i++) {
		struct fleet_task *t = &p->tasks[i];
		const char *kc = p->kernels[t->kernel].constraint;
		char *c = kc && p->constraint ? xasprintf("%s&%s", p->constraint, kc) :
			  xstrdup(kc ? kc : p->constraint ? p->constraint : "");
		size_t g;

		for (g = 0; g < p->ngroups; g++) {
			struct fleet_group *gr = &p->groups[g];

			if ((gr->node == t->node || (gr->node && t->node && !strcmp(gr->node, t->node))) &&
			    !strcmp(gr->constraint ? gr->constraint : "", c))
				break;
		}
		if (g == p->ngroups) {
			p->groups = xrealloc(p->groups, (p->ngroups + 1) * sizeof(*p->groups));
			memset(&p->groups[g], 0, sizeof(*p->groups));
			p->groups[g].node = t->node;
			p->groups[g].constraint_buf = *c ? xstrdup(c) : NULL;
			p->groups[g].constraint = p->groups[g].constraint_buf;
			p->ngroups++;
		}
		free(c);
		t->group = g;
		t->index = p->groups[g].ntasks;
		p->groups[g].tasks = xrealloc(p->groups[g].tasks,
					      (p->groups[g].ntasks + 1) * sizeof(size_t));
		p->groups[g].tasks[p->groups[g].ntasks++] = t->id;
	}
}

/*
 * fleet.lrubench names the program every task and the collect job run as
 * root on the nodes. One other than this program (another inode than
 * /proc/self/exe, or none here) is allowed -- the nodes may install it
 * elsewhere -- but is said, so that a plan from somewhere else cannot run
 * a program of its choice unnoticed.
 */
static void warn_foreign_program(const struct fleet_plan *p)
{
	struct stat self, st;

	if (stat("/proc/self/exe", &self))
		return;
	if (stat(p->lrubench, &st))
		warning("%s: fleet.lrubench = %s does not exist here: the nodes run that program as "
			"root; check that it is lrubench", p->path, p->lrubench);
	else if (st.st_dev != self.st_dev || st.st_ino != self.st_ino)
		warning("%s: fleet.lrubench = %s is not this program: the nodes run it as root; "
			"check that it is the lrubench you mean", p->path, p->lrubench);
}

static int check_plan(struct fleet_plan *p, struct strbuf *err)
{
	size_t longest_node = p->nodes.n ? 0 : 32;   /* Slurm's names: assume 32 */

	if (!p->name) {
		strbuf_addf(err, "%s: fleet.name is missing (it names the jobs and the results)", p->path);
		return -1;
	}
	{
		struct strbuf why = STRBUF_INIT;

		if (label_name_check(p->name, &why)) {
			strbuf_addf(err, "%s: fleet.name: %s", p->path, why.buf);
			strbuf_release(&why);
			return -1;
		}
	}
	if (!p->results && !p->store) {
		strbuf_addf(err, "%s: give fleet.results (a folder every node shares) or fleet.store "
			    "(a results store URL), or both", p->path);
		return -1;
	}
	if (p->results && p->results[0] != '/') {
		strbuf_addf(err, "%s: fleet.results = %s: give an absolute path (the nodes write there)",
			    p->path, p->results);
		return -1;
	}
	if (p->store) {
		size_t l = strlen(p->store);

		if (strncasecmp(p->store, "http://", 7) && strncasecmp(p->store, "https://", 8)) {
			strbuf_addf(err, "%s: fleet.store = %s: an http:// or https:// URL", p->path,
				    p->store);
			return -1;
		}
		if (fetch_url_has_credentials(p->store)) {
			strbuf_addf(err, "%s: fleet.store: no user:password@ in the URL (credentials "
				    "come from $LRUBENCH_TOKEN, a token file or netrc on the nodes)",
				    p->path);
			return -1;
		}
		if (strchr(p->store, '?')) {
			strbuf_addf(err, "%s: fleet.store: a folder URL without a query (presigned URLs "
				    "name one object; a fleet writes many)", p->path);
			return -1;
		}
		if (p->store[l - 1] != '/') {
			char *s = xasprintf("%s/", p->store);

			free(p->store);
			p->store = s;
		}
	}
	if (!p->repetitions)
		p->repetitions = 1;
	if (p->iterations) {
		unsigned long long n;

		if (parse_ull(p->iterations, &n) || n < 1 || n > 10000) {
			strbuf_addf(err, "%s: fleet.iterations = %s: a number 1..10000", p->path,
				    p->iterations);
			return -1;
		}
	}
	if (p->suite && resolve_suite(p, err))
		return -1;
	if (p->lrubench && p->lrubench[0] != '/') {
		strbuf_addf(err, "%s: fleet.lrubench = %s: give an absolute path", p->path, p->lrubench);
		return -1;
	}
	if (p->lrubench)
		warn_foreign_program(p);
	if (!p->lrubench) {
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0) {
			strbuf_addstr(err, "cannot find this program's path (/proc/self/exe); set "
				      "fleet.lrubench");
			return -1;
		}
		self[n] = '\0';
		p->lrubench = xstrdup(self);
	}
	if (p->time_limit && strspn(p->time_limit, "0123456789:-") != strlen(p->time_limit)) {
		strbuf_addf(err, "%s: fleet.time = %s: a Slurm time (minutes, H:MM:SS, D-HH...)",
			    p->path, p->time_limit);
		return -1;
	}
	if (check_kernels(p, err) || check_run_options(p, err))
		return -1;
	for (size_t i = 0; i < p->nodes.n; i++)
		if (strlen(p->nodes.v[i]) > longest_node)
			longest_node = strlen(p->nodes.v[i]);
	for (size_t i = 0; i < p->nkernels; i++)
		if (strlen(p->kernels[i].name) + longest_node + 6 > LABEL_NAME_MAX) {
			strbuf_addf(err, "%s: labels of kernel %s would be longer than %d characters",
				    p->path, p->kernels[i].name, LABEL_NAME_MAX);
			return -1;
		}
	if ((size_t)p->nkernels * p->repetitions * (p->nodes.n ? p->nodes.n : 1) > FLEET_MAX_TASKS) {
		strbuf_addf(err, "%s: more than %d tasks", p->path, FLEET_MAX_TASKS);
		return -1;
	}
	make_tasks(p);
	return 0;
}

int fleet_plan_load(const char *path, struct fleet_plan *p, struct strbuf *err)
{
	struct reader r = { .p = p, .err = err, .seen = STRLIST_INIT };
	struct strbuf why = STRBUF_INIT;
	char abs[PATH_MAX], *text;
	size_t len;
	int ir;

	memset(p, 0, sizeof(*p));
	if (!realpath(path, abs)) {
		strbuf_addf(err, "cannot read the plan %s: %s", path, strerror(errno));
		return -1;
	}
	/* read as a config is (core/util.h): a regular file of at most 1 MiB,
	 * so a FIFO or a device named as the plan is an error at once */
	text = read_regular_file(abs, CONFIG_FILE_MAX, 0, &len, &why);
	if (text && memchr(text, '\0', len)) {
		strbuf_addf(&why, "cannot read %s: it holds a NUL byte (not a text file)", abs);
		free(text);
		text = NULL;
	}
	if (!text || !(r.f = fmemopen(text, len, "r"))) {
		/* why is "cannot read ABS: reason" */
		size_t skip = strlen("cannot read ") + strlen(abs) + 2;

		strbuf_addf(err, "cannot read the plan %s: %s", path,
			    !text && why.len > skip ? why.buf + skip : strerror(errno));
		strbuf_release(&why);
		free(text);
		return -1;
	}
	p->path = xstrdup(abs);
	ir = ini_parse_stream(read_line, &r, on_key, &r);
	fclose(r.f);
	free(text);
	strlist_release(&r.seen);
	if (!r.failed && ir > 0)
		strbuf_addf(err, "%s:%d: cannot parse this line (expected [section] or key = value)",
			    abs, ir);
	if (r.failed || ir > 0 || check_plan(p, err)) {
		fleet_plan_release(p);
		return -1;
	}
	return 0;
}

void fleet_plan_release(struct fleet_plan *p)
{
	for (size_t i = 0; i < p->nkernels; i++) {
		free(p->kernels[i].name);
		free(p->kernels[i].release);
		free(p->kernels[i].constraint);
		free(p->kernels[i].image);
		free(p->kernels[i].modules);
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		free(p->groups[g].tasks);
		free(p->groups[g].constraint_buf);
	}
	free(p->kernels);
	free(p->tasks);
	free(p->groups);
	free(p->path);
	free(p->name);
	free(p->results);
	free(p->store);
	free(p->workloads);
	free(p->suite);
	free(p->suite_path);
	free(p->iterations);
	free(p->partition);
	free(p->constraint);
	free(p->time_limit);
	free(p->lrubench);
	strlist_release(&p->sets);
	strlist_release(&p->nodes);
	strlist_release(&p->sbatch_args);
	memset(p, 0, sizeof(*p));
}

/* ---- tasks ---- */

char *fleet_task_label(const struct fleet_plan *p, const struct fleet_task *t, const char *node)
{
	return xasprintf("%s-%s-r%u", p->kernels[t->kernel].name, node, t->rep);
}

const struct fleet_task *fleet_task_of_label(const struct fleet_plan *p, const char *label,
					     char **node)
{
	const char *dash = strchr(label, '-'), *r = strrchr(label, '-');
	unsigned long long rep;
	const struct fleet_task *found = NULL;

	if (node)
		*node = NULL;
	if (!dash || r <= dash + 1 || r[1] != 'r' || parse_ull(r + 2, &rep))
		return NULL;
	for (size_t i = 0; i < p->ntasks && !found; i++) {
		const struct fleet_task *t = &p->tasks[i];
		const char *k = p->kernels[t->kernel].name;

		if (t->rep != rep || strlen(k) != (size_t)(dash - label) || strncmp(label, k, strlen(k)))
			continue;
		if (t->node && (strlen(t->node) != (size_t)(r - dash - 1) ||
				strncmp(dash + 1, t->node, strlen(t->node))))
			continue;
		found = t;
	}
	if (found && node)
		*node = xstrndup(dash + 1, (size_t)(r - dash - 1));
	return found;
}

void fleet_task_run_args(const struct fleet_plan *p, const struct fleet_task *t,
			 const char *label, const char *outdir, struct strlist *argv)
{
	const struct fleet_kernel *k = &p->kernels[t->kernel];

	strlist_push(argv, "-o");
	strlist_push(argv, outdir);
	if (p->mode == FLEET_VM) {
		strlist_push(argv, "--kernel-a");
		strlist_push(argv, k->image);
		strlist_push(argv, "--label-a");
		strlist_push(argv, label);
		if (k->modules) {
			strlist_push(argv, "--modules-a");
			strlist_push(argv, k->modules);
		}
	} else {
		strlist_push(argv, "--label");
		strlist_push(argv, label);
	}
	if (p->suite_path) {
		strlist_push(argv, "-c");
		strlist_push(argv, p->suite_path);
	}
	if (p->workloads) {
		strlist_push(argv, "-w");
		strlist_push(argv, p->workloads);
	}
	if (p->quick)
		strlist_push(argv, "--quick");
	if (p->iterations) {
		strlist_push(argv, "-i");
		strlist_push(argv, p->iterations);
	}
	for (size_t i = 0; i < p->sets.n; i++) {
		strlist_push(argv, "--set");
		strlist_push(argv, p->sets.v[i]);
	}
}

char *fleet_state_dir(const struct fleet_plan *p)
{
	const char *slash = strrchr(p->path, '/');

	return xasprintf("%.*s/%s.fleet", (int)(slash - p->path), p->path, p->name);
}

char *fleet_task_store_url(const struct fleet_plan *p, const struct fleet_task *t)
{
	return xasprintf("%s%s/task-%zu.tar.zst", p->store, p->name, t->id);
}

static void plan_print_raw(const struct fleet_plan *p, FILE *out)
{
	fprintf(out, "plan %s: %s, %s mode, %zu kernel%s x %u repetition%s x %s = %zu task%s\n",
		p->path, p->name, p->mode == FLEET_VM ? "vm" : "host", p->nkernels,
		p->nkernels == 1 ? "" : "s", p->repetitions, p->repetitions == 1 ? "" : "s",
		p->nodes.n ? "nodes" : "a node Slurm picks", p->ntasks, p->ntasks == 1 ? "" : "s");
	for (size_t i = 0; i < p->nkernels; i++) {
		const struct fleet_kernel *k = &p->kernels[i];

		fprintf(out, "  kernel %-12s %s", k->name, i ? "" : "(baseline) ");
		if (p->mode == FLEET_VM)
			fprintf(out, "image %s%s%s\n", k->image, k->modules ? ", modules " : "",
				k->modules ? k->modules : "");
		else
			fprintf(out, "the node's booted kernel%s%s%s%s\n",
				k->release ? ", release " : "", k->release ? k->release : "",
				k->constraint ? ", nodes with feature " : "",
				k->constraint ? k->constraint : "");
	}
	fprintf(out, "  run:     lrubench run");
	{
		struct strlist a = STRLIST_INIT;
		struct fleet_task t = { 0 };

		fleet_task_run_args(p, &t, "LABEL", "DIR", &a);
		for (size_t i = 0; i < a.n; i++)
			fprintf(out, " %s", a.v[i]);
		strlist_release(&a);
	}
	fprintf(out, "\n  program: %s\n", p->lrubench);
	if (p->results)
		fprintf(out, "  results: %s/%s/<kernel>-<node>-r<repetition>/\n", p->results, p->name);
	if (p->store)
		fprintf(out, "  store:   %s%s/task-<id>.tar.zst\n", p->store, p->name);
	{
		char *state = fleet_state_dir(p);

		fprintf(out, "  state:   %s (job scripts, Slurm output, job ids)\n", state);
		free(state);
	}
	fprintf(out, "  tasks (array.index: kernel repetition node):\n");
	for (size_t i = 0; i < p->ntasks; i++) {
		const struct fleet_task *t = &p->tasks[i];

		fprintf(out, "    %3zu  %zu.%-4zu %-12s r%-3u %s\n", t->id, t->group, t->index,
			p->kernels[t->kernel].name, t->rep, t->node ? t->node : "(any)");
	}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct fleet_group *gr = &p->groups[g];

		fprintf(out, "  job array %zu: %zu task%s, --exclusive --nodes=1%s%s%s%s%s%s\n", g,
			gr->ntasks, gr->ntasks == 1 ? "" : "s",
			p->partition ? " --partition=" : "", p->partition ? p->partition : "",
			gr->node ? " --nodelist=" : "", gr->node ? gr->node : "",
			gr->constraint ? " --constraint=" : "", gr->constraint ? gr->constraint : "");
	}
	fprintf(out, "  then: a job after all of them (afterany) that collects, pools the "
		"repetitions and compares\n");
}

/* Every value of the plan is text from a file: the whole is printed inert
 * (core/escape.h; its own newlines stay). */
void fleet_plan_print(const struct fleet_plan *p, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		error("cannot print the plan: out of memory");
		return;
	}
	plan_print_raw(p, m);
	fclose(m);
	strbuf_add_inert_message(&sb, text);
	fputs(strbuf_str(&sb), out);
	strbuf_release(&sb);
	free(text);
}
