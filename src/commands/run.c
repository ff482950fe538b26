// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench run: resolve the config, check the machine, then for every
 * workload: setup, and for every step its warm-up and measured iterations,
 * saving results after each iteration so a crash or SIGINT loses at most
 * the iteration in flight and --resume continues from the first missing one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/label_name.h"
#include "core/label_pattern.h"
#include "core/machine_shape.h"
#include "commands/commands.h"
#include "core/parse_options.h"
#include "run/run_state.h"
#include "core/sparse_root.h"
#include "compare/stats.h"
#include "vm/args.h"
#include "vm/rounds.h"
#include "vm/vm.h"
#include "core/workload.h"

/* What the command line asked for; reset by every cmd_run(). */
static struct run_args {
	struct strlist configs;
	struct strlist sets;       /* SEC.KEY=VAL, from --set and the [vm] aliases, in order */
	struct strlist sets_from;  /* each one's flag as typed, for messages */
	const char *workloads;
	const char *outdir;
	const char *label;
	const char *iterations;
	struct strbuf kernels;     /* the --kernel NAME=IMG flags so far, comma separated */
	const char *baseline;      /* --baseline DIR/LABEL (iterations = auto) */
	const char *machine;       /* --machine SHAPE: --dry-run plans for it (core/machine_shape.h) */
	bool quick, force, resume, dry_run, quiet;
} A;

/* --set, and the flags that are another name for a [vm] key (their value is
 * the key): one list in command-line order, as the config applies them. */
static int set_key(const struct popt *o, const char *arg)
{
	const char *key = o->value;

	if (!key) {
		strlist_push(&A.sets, arg);
		strlist_pushf(&A.sets_from, "--set %s", arg);
		return 0;
	}
	if (!*arg && !strncmp(o->long_name, "kernel-", 7))
		return error("--%s: empty image path", o->long_name);
	strlist_pushf(&A.sets, "%s=%s", key, arg);
	strlist_pushf(&A.sets_from, "--%s %s", o->long_name, arg);
	return 0;
}

/* --kernel NAME=IMG, repeatable: together they set vm.kernels (replacing a
 * config file's list, as any flag replaces a file's value) */
static int add_kernel(const struct popt *o, const char *arg)
{
	const char *eq = strchr(arg, '=');

	(void)o;
	if (!eq || eq == arg || !eq[1])
		return error("--kernel %s: expected NAME=IMG (NAME is the results label, IMG a "
			     "bzImage or \"host\")", arg);
	if (strchr(arg, ','))
		return error("--kernel %s: a ',' cannot be in NAME or IMG (vm.kernels is a comma "
			     "list): rename the image or link to it", arg);
	strbuf_addf(&A.kernels, "%s%s", A.kernels.len ? "," : "", arg);
	strlist_pushf(&A.sets, "vm.kernels=%s", A.kernels.buf);
	strlist_pushf(&A.sets_from, "--kernel %s", arg);
	return 0;
}

#define VM_KEY(name, key, argh, help) POPT_CALLBACK(0, name, key, argh, help, set_key)

static const struct popt run_options[] = {
	POPT_SUITE_CONFIG(&A, "read an INI config file (repeatable, in order)"),
	POPT_SUITE_WORKLOADS(&A, "a comma list, or \"all\" (global.workloads)"),
	POPT_STRING('o', "output", &A.outdir, "DIR", "results root: writes DIR/LABEL/ (results)"),
	POPT_STRING(0, "label", &A.label, "NAME",
		    "folder name (uname -r); auto: release-date-time"),
	POPT_SUITE_ITERATIONS(&A, "measured iterations, or auto (global.iterations)"),
	POPT_STRING(0, "baseline", &A.baseline, "DIR/LABEL",
		    "-i auto: until the change against it is decided"),
	POPT_SUITE_QUICK(&A, "every key's --quick value: a short demo"),
	POPT_STRLIST_CB(0, "set", NULL, "SEC.KEY=VAL", "set a config key, after the files (repeatable)",
			set_key),
	POPT_BOOL(0, "force", &A.force, "replace the complete run in DIR/LABEL"),
	POPT_BOOL(0, "resume", &A.resume, "continue an interrupted run where it stopped"),
	POPT_CALLBACK(0, "profile", "global.profile", "KIND",
		      "none|lock|cpu|all|counters|reclaim|c2c: untimed",
		      set_key),
	POPT_BOOL(0, "dry-run", &A.dry_run, "check as a run would, print the config"),
	POPT_STRING(0, "machine", &A.machine, "SHAPE",
		    "--dry-run for cpus=N,memory=SIZE[,nodes=N]"),
	POPT_BOOL('q', "quiet", &A.quiet, "print errors only"),
	POPT_GROUP("VM mode (lrubench-vm(7)): boot each kernel in qemu, run the suite above in it,\n"
		   "compare. Each flag sets a [vm] key (lrubench list vm); so do the aliases\n"
		   "--vm-memory SIZE, --vm-cpus N, --vm-numa-nodes N, --vm-rounds N,\n"
		   "--vm-cmdline-extra TEXT, --vm-timeout TIME, --vm-cpus-from none|node|LIST,\n"
		   "--vm-host-node auto|N, --vm-memory-backend ram|memfd|hugetlb,\n"
		   "--vm-host-settings KNOB=VAL,..., --vm-balloon none|free-page-reporting,\n"
		   "--vm-balloon-target SIZE and --vm-rss-interval TIME."),
	VM_KEY("kernel-a", "vm.kernel_a", "IMG", "kernel A, the baseline: a bzImage, or \"host\""),
	VM_KEY("kernel-b", "vm.kernel_b", "IMG", "kernel B, compared with A"),
	POPT_CALLBACK(0, "kernel", NULL, "NAME=IMG",
		      "kernel NAME, repeatable (IMG OPTS: boot options)",
		      add_kernel),
	VM_KEY("label-a", "vm.label_a", "NAME", "results label of kernel A (default: its release)"),
	VM_KEY("label-b", "vm.label_b", "NAME", "results label of kernel B"),
	VM_KEY("modules-a", "vm.modules_a", "DIR", "kernel A's lib/modules/<release> (or its root)"),
	VM_KEY("modules-b", "vm.modules_b", "DIR", "the same for kernel B"),
	VM_KEY("cmdline-a", "vm.cmdline_a", "TEXT", "kernel A's own boot options"),
	VM_KEY("cmdline-b", "vm.cmdline_b", "TEXT", "kernel B's (B may be A's image)"),
	VM_KEY("settings-a", "vm.settings_a", "LIST", "knobs set in kernel A's guest (KNOB=VAL,...)"),
	VM_KEY("settings-b", "vm.settings_b", "LIST", "knobs set in kernel B's guest"),
	VM_KEY("vm-memory", "vm.memory", "SIZE", NULL),
	VM_KEY("vm-cpus", "vm.cpus", "N", NULL),
	VM_KEY("vm-numa-nodes", "vm.numa_nodes", "N", NULL),
	VM_KEY("vm-rounds", "vm.rounds", "N", NULL),
	VM_KEY("vm-cmdline-extra", "vm.cmdline_extra", "TEXT", NULL),
	VM_KEY("vm-timeout", "vm.timeout", "TIME", NULL),
	VM_KEY("vm-cpus-from", "vm.cpus_from", "WHERE", NULL),
	VM_KEY("vm-host-node", "vm.host_node", "N", NULL),
	VM_KEY("vm-memory-backend", "vm.memory_backend", "KIND", NULL),
	VM_KEY("vm-host-settings", "vm.host_settings", "LIST", NULL),
	VM_KEY("vm-balloon", "vm.balloon", "KIND", NULL),
	VM_KEY("vm-balloon-target", "vm.balloon_target", "SIZE", NULL),
	VM_KEY("vm-rss-interval", "vm.rss_interval", "TIME", NULL),
	POPT_END(),
};

const struct popt_command run_command = {
	"run", "",
	"Run the selected workloads, each in memory cgroups of its own, and write every\n"
	"sample to DIR/LABEL/ (run.json, WORKLOAD.json), saved after each iteration.\n"
	"The config: built-in defaults, --quick, the -c files in order, -i, then --set\n"
	"in order; 'lrubench list' shows every key. A complete run is never replaced\n"
	"without --force. With vm.kernel_a set (--kernel-a), the suite runs in qemu\n"
	"guests instead.\n"
	"\n"
	"-i auto runs each step until the 95% confidence interval of every op of the\n"
	"workload's first table is within global.precision of its mean (default 2%),\n"
	"between global.min_iterations and global.max_iterations, within\n"
	"global.time_budget per step; with --baseline, also until the change against\n"
	"that label is decided, its interval holding the spread between runs of\n"
	"noise.json beside that label ('lrubench noise --runs'). The results say per op\n"
	"how many iterations ran and why they stopped. global.interleave=yes runs the\n"
	"steps in rounds.",
	run_options,
};

static void run_args_reset(void)
{
	strlist_release(&A.configs);
	strlist_release(&A.sets);
	strlist_release(&A.sets_from);
	strbuf_release(&A.kernels);
	memset(&A, 0, sizeof(A));
	A.outdir = "results";
}

static int check_label(const char *label)
{
	struct strbuf err = STRBUF_INIT;

	if (!label_name_check(label, &err))
		return 0;
	/* the label may be the kernel release, which the user did not choose */
	error("%s (give --label NAME)", err.buf);
	strbuf_release(&err);
	return -1;
}

/* Which workloads: -w, else [global] workloads; "all" means every one. */
static int select_workloads(struct config *cfg, const char *list,
			    const struct workload_ops ***out, size_t *nout)
{
	char **names;
	size_t n;

	*out = NULL;
	*nout = 0;
	if (!strcmp(list, "all")) {
		for (size_t i = 0; workloads[i]; i++) {
			*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
			(*out)[(*nout)++] = workloads[i];
		}
	} else {
		names = split_commas(list, &n);
		for (size_t i = 0; i < n; i++) {
			const struct workload_ops *w = workload_find(names[i]);
			struct strbuf known = STRBUF_INIT;

			if (!w) {
				for (size_t k = 0; workloads[k]; k++)
					strbuf_addf(&known, "%s%s", k ? ", " : "", workloads[k]->name);
				error("unknown workload '%s' (known: %s)", names[i], strbuf_str(&known));
				strbuf_release(&known);
				free_strv(names);
				free(*out);
				*out = NULL;
				return -1;
			}
			for (size_t k = 0; k < *nout; k++)
				if ((*out)[k] == w)
					w = NULL;
			if (w) {
				*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
				(*out)[(*nout)++] = w;
			}
		}
		free_strv(names);
	}
	if (!*nout)
		return error("no workload selected");
	for (size_t i = 0; i < cfg->nsec; i++)
		for (size_t k = 0; k < *nout; k++)
			if (!strcmp(cfg->sec[i].name, (*out)[k]->name))
				cfg->sec[i].enabled = true;
	return 0;
}

/* Defaults, --quick, the files, -i, --set and the aliases, in that order. */
static int load_config(struct config *cfg, struct sys_facts *si)
{
	struct sizing sz = { si, si->nr_cpus, si->mem_total_kb * 1024 };
	struct strbuf err = STRBUF_INIT;

	if (config_init(cfg, &sz, A.quick))
		return LB_EXIT_USAGE;
	for (size_t i = 0; i < A.configs.n; i++)
		if (config_load_file(cfg, A.configs.v[i], &err))
			goto usage;
	if (A.iterations &&
	    config_set_value(cfg, "global", "iterations", A.iterations, "-i", &err))
		goto usage;
	for (size_t i = 0; i < A.sets.n; i++)
		if (config_set_from(cfg, A.sets.v[i], A.sets_from.v[i], &err))
			goto usage;
	return 0;
usage:
	error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return LB_EXIT_USAGE;
}

/* The node to run on; defaults sized by the machine are sized again for it. */
static int bind_node(struct config *cfg, struct sys_facts *si, struct numa_bind *bind)
{
	struct sizing sz = { si, si->nr_cpus, si->mem_total_kb * 1024 };
	struct strbuf err = STRBUF_INIT;
	int r;

	if (sparse_root_check_spec(cfg->g.sparse_root, &err)) {
		error("global.sparse_root: %s", strbuf_str(&err));
		strbuf_release(&err);
		return LB_EXIT_USAGE;
	}
	r = numa_resolve("", cfg->g.numa_node, bind, &err);
	if (r) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return wl_status_exit((enum wl_status)r);
	}
	sz.node_cpus = bind->nr_cpus;
	sz.node_mem = bind->mem_bytes;
	config_resize(cfg, &sz);
	strbuf_release(&err);
	return 0;
}

/*
 * VM mode with iterations = auto (vm/rounds.h): the rounds are what adapts.
 * Every guest runs min_iterations measured iterations a step (the counts
 * that are auto become that, after the user's --set), and the rounds go on
 * until B's change against A is decided.
 */
static int vm_adaptive(struct config *cfg, struct vm_args *va)
{
	struct strbuf err = STRBUF_INIT;
	bool any = cfg->g.iterations == LB_AUTO;

	for (size_t i = 0; workloads[i]; i++)
		any |= config_common(cfg, workloads[i]->name)->iterations == LB_AUTO;
	if (!any)
		return 0;
	if (adaptive_plan_from_config(&cfg->g, &va->plan, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return -1;
	}
	va->adaptive = true;
	if (cfg->g.iterations == LB_AUTO) {
		strlist_push(&va->suite, "--set");
		strlist_pushf(&va->suite, "global.iterations=%zu", va->plan.min_iterations);
	}
	for (size_t i = 0; workloads[i]; i++) {
		if (config_common(cfg, workloads[i]->name)->iterations != LB_AUTO)
			continue;
		strlist_push(&va->suite, "--set");
		strlist_pushf(&va->suite, "%s.iterations=%zu", workloads[i]->name, va->plan.min_iterations);
	}
	return 0;
}

/*
 * VM mode: the guests run `lrubench run` with this command line's suite
 * options (-c, -w, -i, --quick, --set but vm.*, --force, --resume, -q); VM
 * mode adds --label and -o. A -c file may name kernels in its [vm] section:
 * the guest clears them, or it would try VM mode in its turn.
 */
static int run_in_vms(struct config *cfg)
{
	struct vm_args va;
	struct strbuf err = STRBUF_INIT;
	const char *wd_from = config_origin(cfg, "global", "workdir");

	if (A.label) {
		error("--label names a single run: with --kernel-a/--kernel-b use --label-a and --label-b "
		      "(--kernel NAME=IMG: NAME is the label)");
		return LB_EXIT_USAGE;
	}
	if (A.baseline) {
		error("--baseline is for a run on this kernel: in VM mode kernel A is the baseline "
		      "of the other kernels");
		return LB_EXIT_USAGE;
	}
	memset(&va, 0, sizeof(va));
	for (size_t i = 0; i < A.configs.n; i++) {
		strlist_push(&va.suite, "-c");
		strlist_push(&va.suite, A.configs.v[i]);
	}
	if (A.workloads) {
		strlist_push(&va.suite, "-w");
		strlist_push(&va.suite, A.workloads);
	}
	if (A.iterations) {
		strlist_push(&va.suite, "-i");
		strlist_push(&va.suite, A.iterations);
	}
	if (A.quick)
		strlist_push(&va.suite, "--quick");
	for (size_t i = 0; i < A.sets.n; i++) {
		if (!strncmp(A.sets.v[i], "vm.", 3))
			continue;
		strlist_push(&va.suite, "--set");
		strlist_push(&va.suite, A.sets.v[i]);
	}
	if (A.force)
		strlist_push(&va.suite, "--force");
	if (A.resume)
		strlist_push(&va.suite, "--resume");
	if (A.quiet)
		strlist_push(&va.suite, "-q");
	if (vm_adaptive(cfg, &va)) {
		vm_args_release(&va);
		return LB_EXIT_USAGE;
	}
	if (A.configs.n) {
		strlist_push(&va.suite, "--set");
		strlist_push(&va.suite, "vm.kernel_a=");
		strlist_push(&va.suite, "--set");
		strlist_push(&va.suite, "vm.kernel_b=");
		strlist_push(&va.suite, "--set");
		strlist_push(&va.suite, "vm.kernels=");
	}
	/* the guest sees only the files the suite names (lrubench-vm(7)
	 * SECURITY): a key's value from a -c file that is a file here
	 * (kernbench.source = /x.tar) is staged for it like a --set one */
	for (size_t i = 0; i < cfg->nsec; i++)
		for (const struct option_def *d = cfg->sec[i].defs;
		     d && d->name && (i == 0 || cfg->sec[i].enabled) && strcmp(cfg->sec[i].name, "vm"); d++) {
			const char *v = d->type == OPT_STR ? *(char **)((char *)cfg->sec[i].base + d->offset) : NULL;

			if (v && *v == '/' && path_exists(v) && !is_dir(v) && !strlist_has(&va.inputs, v))
				strlist_push(&va.inputs, v);
		}
	/* a workdir that was asked for gets a tmpfs in the guest */
	if (cfg->g.workdir[0] == '/' && wd_from && strcmp(wd_from, "default"))
		strlist_push(&va.tmpfs, cfg->g.workdir);
	va.results = A.outdir;
	va.quick = A.quick;
	va.force = A.force;
	va.resume = A.resume;
	va.dry_run = A.dry_run;
	va.workdir = cfg->g.workdir;
	va.host_settings_from = config_origin(cfg, "vm", "host_settings");
	if (vm_args_from_config(&va, config_section(cfg, "vm"), &err) ||
	    vm_args_settings(&va, cfg, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		vm_args_release(&va);
		return LB_EXIT_USAGE;
	}
	if (va.adaptive) {
		const char *from = config_origin(cfg, "vm", "rounds");

		va.rounds = vm_rounds_cap(&va.plan, va.rounds, from && strcmp(from, "default"));
		if (va.resume && va.rounds > 1) {
			error("--resume cannot continue VM rounds with iterations = auto; start it again "
			      "with --force");
			vm_args_release(&va);
			return LB_EXIT_USAGE;
		}
	}
	strbuf_release(&err);
	return cmd_run_vm(&va);
}

/* run --dry-run --machine SHAPE: the suite sized for that shape, its plan;
 * nothing is run, probed or created (core/machine_shape.h) */
static int plan_machine(void)
{
	struct machine_shape m;
	struct config cfg;
	struct sys_facts si;
	struct sizing sz;
	const struct workload_ops **wls = NULL;
	size_t nwls = 0;
	struct strbuf err = STRBUF_INIT;
	int ret;

	if (machine_shape_parse(A.machine, &m, &err)) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return LB_EXIT_USAGE;
	}
	if (sysinfo_collect(&si))
		return LB_EXIT_FAIL;
	si.nr_cpus = m.cpus;
	si.mem_total_kb = m.memory / 1024;
	si.numa_nodes = m.nodes;
	ret = load_config(&cfg, &si);
	if (!ret && select_workloads(&cfg, A.workloads ? A.workloads : cfg.g.workloads, &wls, &nwls))
		ret = LB_EXIT_USAGE;
	if (!ret) {
		sz = (struct sizing){ &si, 0, 0 };
		machine_shape_node(&m, cfg.g.numa_node, &sz.node_cpus, &sz.node_mem);
		config_resize(&cfg, &sz);
		ret = machine_plan_print(&cfg, &m, wls, nwls, stdout);
	}
	config_release(&cfg);
	sysinfo_release(&si);
	free(wls);
	return ret;
}

/*
 * A knob as an axis (issue 28): a [settings] entry with a comma list of
 * values runs the whole suite once per value, each a label of its own named
 * after it: LABEL+vm.swappiness-60, LABEL+transparent_hugepage.enabled-always.
 * One knob at most lists values (two would be a grid nobody asked for).
 */
static int find_axis(struct config *cfg, struct config_setting **axis)
{
	*axis = NULL;
	for (size_t i = 0; i < cfg->nsettings; i++) {
		if (!config_setting_is_axis(&cfg->settings[i]))
			continue;
		if (*axis) {
			error("settings.%s and settings.%s both list values: one knob at most is an axis "
			      "(run the other's values as separate runs)", (*axis)->name,
			      cfg->settings[i].name);
			return LB_EXIT_USAGE;
		}
		*axis = &cfg->settings[i];
	}
	return 0;
}

/* The label of one value: the knob's short name (the path below /proc/sys/,
 * /sys/kernel/mm/ or /sys/module/, '/' made '.') and the value, characters
 * a label cannot hold made '_'. */
static char *axis_label(const char *base, const struct config_setting *s, const char *value)
{
	static const char *const roots[] = { "/proc/sys/", "/sys/kernel/mm/", "/sys/module/", "/sys/" };
	struct strbuf sb = STRBUF_INIT;
	const char *p = s->path;

	for (size_t i = 0; i < ARRAY_SIZE(roots); i++)
		if (!strncmp(p, roots[i], strlen(roots[i]))) {
			p += strlen(roots[i]);
			break;
		}
	strbuf_addf(&sb, "%s+", base);
	for (; *p; p++) {
		char c = *p == '/' ? '.' : *p;

		strbuf_add(&sb, &c, 1);
	}
	strbuf_addstr(&sb, "-");
	for (p = value; *p; p++) {
		char c = isalnum((unsigned char)*p) || strchr("._+-", *p) ? *p : '_';

		strbuf_add(&sb, &c, 1);
	}
	return strbuf_detach(&sb);
}

/* One run_state_execute per value of the axis: every label checked first
 * (a dry run each: label folders, probes, every value tried), then run one
 * after the other. An interrupt stops the sweep; a failed label does not. */
static int run_axis(struct run_state *proto, struct config_setting *axis, const char *base)
{
	char **vals;
	size_t n;
	int ret = 0;

	vals = split_commas(axis->value, &n);
	for (int pass = 0; pass < 2 && !ret; pass++) {
		if (pass == 1 && proto->dry_run)
			break;
		for (size_t i = 0; i < n; i++) {
			struct run_state rs = *proto;
			char *label = axis_label(base, axis, vals[i]);
			int r;

			free(axis->current);
			axis->current = xstrdup(vals[i]);
			if (check_label(label)) {
				free(label);
				ret = LB_EXIT_USAGE;
				break;
			}
			rs.label = label;
			rs.dry_run = pass == 0;
			if (pass == 1)
				info("settings.%s = %s: label %s (%zu of %zu)", axis->name, vals[i], label,
				     i + 1, n);
			r = run_state_execute(&rs);
			free(label);
			if (r && !ret)
				ret = r;
			if (r == LB_EXIT_INTERRUPTED || lb_stop_requested() || (pass == 0 && r))
				break;
		}
	}
	free(axis->current);
	axis->current = NULL;
	free_strv(vals);
	return ret;
}

static int run(int argc, char **argv)
{
	struct config_setting *axis = NULL;
	struct config cfg;
	struct sys_facts si;
	struct run_state rs;
	const struct vm_opts *vm;
	const struct workload_ops **wls = NULL;
	size_t nwls = 0;
	char *label = NULL;
	struct strbuf err = STRBUF_INIT;
	int n, ret;

	n = parse_options(&run_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (n > 0)
		return popt_usage_error(&run_command, "unexpected argument '%s'", argv[0]);
	if (A.force && A.resume) {
		error("--force and --resume exclude each other");
		return LB_EXIT_USAGE;
	}
	if (A.machine && !A.dry_run)
		return popt_usage_error(&run_command, "--machine plans a run on another machine's shape: "
					"give --dry-run with it");
	if (A.machine)
		return plan_machine();   /* touches nothing: no root needed */
	if (geteuid() != 0) {
		error("'lrubench run' creates cgroups and mounts: run it as root");
		return LB_EXIT_UNSUPPORTED;
	}
	lb_quiet = A.quiet;
	if (sysinfo_collect(&si))
		return LB_EXIT_FAIL;
	memset(&rs, 0, sizeof(rs));
	ret = load_config(&cfg, &si);
	vm = ret ? NULL : config_section(&cfg, "vm");
	if (vm && (*vm->kernel[0] || *vm->kernel[1] || *vm->kernels)) {
		/* a misspelt workload fails here, not after a boot */
		if (select_workloads(&cfg, A.workloads ? A.workloads : cfg.g.workloads, &wls, &nwls))
			ret = LB_EXIT_USAGE;
		else
			ret = run_in_vms(&cfg);
		goto out;
	}
	if (!ret)
		ret = bind_node(&cfg, &si, &rs.env.bind);
	if (!ret && select_workloads(&cfg, A.workloads ? A.workloads : cfg.g.workloads, &wls, &nwls))
		ret = LB_EXIT_USAGE;
	/* "auto" and %-patterns (core/label_pattern.h) */
	if (!ret && !(label = label_expand(A.label ? A.label : si.kernel_release,
					   si.kernel_release, time(NULL), &err))) {
		error("%s", strbuf_str(&err));
		ret = LB_EXIT_USAGE;
	}
	if (!ret)
		ret = find_axis(&cfg, &axis);
	if (!ret && !axis && check_label(label))
		ret = LB_EXIT_USAGE;
	/* a dry run refuses what the run would refuse */
	if (!ret && A.dry_run && run_state_check_outdir(A.outdir))
		ret = LB_EXIT_USAGE;
	if (!ret) {
		rs.cfg = &cfg;
		rs.sys = &si;
		rs.outdir = A.outdir;
		rs.label = label;
		rs.force = A.force;
		rs.resume = A.resume;
		rs.dry_run = A.dry_run;
		rs.baseline_dir = A.baseline;
		rs.wls = wls;
		rs.nwls = nwls;
		/* a dry run goes through the same checks (the label folder, every
		 * probe and validation) and stops before creating anything */
		ret = axis ? run_axis(&rs, axis, label) : run_state_execute(&rs);
	}
	if (!ret && A.dry_run) {
		/* the effective config, as run.json would record it; nothing is run */
		json_object *o = config_to_json(&cfg);
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
out:
	config_release(&cfg);
	sysinfo_release(&si);
	free(wls);
	free(label);
	strbuf_release(&err);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	int ret;

	run_args_reset();
	ret = run(argc, argv);
	run_args_reset();
	return ret;
}
