// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench run: resolve the config, check the machine, then for every
 * workload: setup, and for every step its warm-up and measured iterations,
 * saving results after each iteration so a crash or SIGINT loses at most
 * the iteration in flight and --resume continues from the first missing one.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "commands/commands.h"
#include "core/run_state.h"
#include "core/sparse_root.h"
#include "compare/stats.h"
#include "vm/vm.h"
#include "core/workload.h"

struct run_args {
	char **configs;
	size_t nconfigs;
	char **sets;
	size_t nsets;
	const char *workloads;
	const char *outdir;
	const char *label;
	const char *iterations;
	bool quick, force, resume, dry_run;
};

static void add_arg(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = (char *)s;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	enum { O_LABEL = 256, O_QUICK, O_SET, O_FORCE, O_RESUME, O_DRY_RUN };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "output", required_argument, NULL, 'o' },
		{ "iterations", required_argument, NULL, 'i' },
		{ "label", required_argument, NULL, O_LABEL },
		{ "quick", no_argument, NULL, O_QUICK },
		{ "set", required_argument, NULL, O_SET },
		{ "force", no_argument, NULL, O_FORCE },
		{ "resume", no_argument, NULL, O_RESUME },
		{ "dry-run", no_argument, NULL, O_DRY_RUN },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	a->outdir = "results";
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":c:w:o:i:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': add_arg(&a->configs, &a->nconfigs, optarg); break;
		case 'w': a->workloads = optarg; break;
		case 'o': a->outdir = optarg; break;
		case 'i': a->iterations = optarg; break;
		case 'q': lb_quiet = 1; break;
		case O_LABEL: a->label = optarg; break;
		case O_QUICK: a->quick = true; break;
		case O_SET: add_arg(&a->sets, &a->nsets, optarg); break;
		case O_FORCE: a->force = true; break;
		case O_RESUME: a->resume = true; break;
		case O_DRY_RUN: a->dry_run = true; break;
		case ':':
			return error("option '%s' needs a value", argv[optind - 1]);
		default:
			return error("unknown option '%s' (see 'lrubench run --help')", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s' (see 'lrubench run --help')", argv[optind]);
	if (a->force && a->resume)
		return error("--force and --resume exclude each other");
	return 0;
}

static int check_label(const char *label)
{
	if (!*label || !strcmp(label, ".") || !strcmp(label, "..") || strchr(label, '/') ||
	    strlen(label) > 200)
		return error("label '%s' cannot be a folder name", label);
	/* compare and plot skip hidden folders: such a label could never be read */
	if (label[0] == '.')
		return error("label '%s' starts with '.': compare and plot skip hidden folders", label);
	return 0;
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

static int resolve_config(const struct run_args *a, struct config *cfg, struct sysinfo *si,
			  struct numa_bind *bind)
{
	struct sizing sz = { si, si->nr_cpus, si->mem_total_kb * 1024 };
	struct strbuf err = STRBUF_INIT;
	int r;

	if (config_init(cfg, &sz, a->quick))
		return LB_EXIT_USAGE;
	for (size_t i = 0; i < a->nconfigs; i++)
		if (config_load_file(cfg, a->configs[i], &err))
			goto usage;
	if (a->iterations &&
	    config_set_value(cfg, "global", "iterations", a->iterations, "-i", &err))
		goto usage;
	for (size_t i = 0; i < a->nsets; i++)
		if (config_set(cfg, a->sets[i], &err))
			goto usage;
	if (sparse_root_check_spec(cfg->g.sparse_root, &err)) {
		error("global.sparse_root: %s", strbuf_str(&err));
		strbuf_release(&err);
		return LB_EXIT_USAGE;
	}
	r = numa_resolve("", cfg->g.numa_node, bind, &err);
	if (r) {
		error("%s", strbuf_str(&err));
		strbuf_release(&err);
		return r == -1 ? LB_EXIT_UNSUPPORTED : LB_EXIT_USAGE;
	}
	sz.node_cpus = bind->nr_cpus;
	sz.node_mem = bind->mem_bytes;
	config_resize(cfg, &sz);
	strbuf_release(&err);
	return 0;
usage:
	error("%s", strbuf_str(&err));
	strbuf_release(&err);
	return LB_EXIT_USAGE;
}

static bool wants_vm(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--kernel-a", 10) || !strncmp(argv[i], "--kernel-b", 10))
			return true;
	}
	return false;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct config cfg;
	struct sysinfo si;
	struct run_state rs;
	const struct workload_ops **wls = NULL;
	size_t nwls = 0;
	int ret;

	if (wants_vm(argc, argv))
		return cmd_run_vm(argc, argv);
	if (parse_args(argc, argv, &a))
		return LB_EXIT_USAGE;
	if (sysinfo_collect(&si))
		return LB_EXIT_FAIL;
	memset(&rs, 0, sizeof(rs));
	ret = resolve_config(&a, &cfg, &si, &rs.env.bind);
	if (!ret && select_workloads(&cfg, a.workloads ? a.workloads : cfg.g.workloads, &wls, &nwls))
		ret = LB_EXIT_USAGE;
	if (!ret && check_label(a.label ? a.label : si.kernel_release))
		ret = LB_EXIT_USAGE;
	/* a dry run refuses what the run would refuse */
	if (!ret && a.dry_run && run_state_check_outdir(a.outdir))
		ret = LB_EXIT_USAGE;
	if (!ret && a.dry_run) {
		/* the effective config, as run.json would record it; nothing is run */
		json_object *o = config_to_json(&cfg);
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else if (!ret) {
		rs.cfg = &cfg;
		rs.sys = &si;
		rs.outdir = a.outdir;
		rs.label = a.label ? a.label : si.kernel_release;
		rs.force = a.force;
		rs.resume = a.resume;
		rs.wls = wls;
		rs.nwls = nwls;
		ret = run_state_execute(&rs);
	}
	config_release(&cfg);
	sysinfo_release(&si);
	free(wls);
	free(a.configs);
	free(a.sets);
	return ret;
}
