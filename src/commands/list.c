// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench list: every config section ([global], each workload, [vm]) with
 * its keys, types, defaults (as sized for this machine), --quick values and
 * help, from the same option tables the config parser uses; the tables each
 * workload writes; the shipped configs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/commands.h"
#include "core/parse_options.h"
#include "core/numa.h"
#include "core/path.h"
#include "core/workload.h"

static void list_options(const char *section, const struct option_def *defs, const struct sizing *sz)
{
	for (size_t i = 0; defs[i].name; i++) {
		const struct option_def *d = &defs[i];
		char def[256], type[160];

		if (d->def_fn)
			d->def_fn(sz, def, sizeof(def));
		else
			snprintf(def, sizeof(def), "%s", d->def ? d->def : "");
		option_describe_type(d, type, sizeof(type));
		printf("  %s.%s = %s%s%s%s\n", section, d->name, def, d->def_fn ? "  (sized for this machine)" : "",
		       d->quick ? "  --quick: " : "", d->quick ? d->quick : "");
		printf("      %s; %s\n", type, d->help);
	}
}

/* by the name before ".conf", so x.conf comes before x-short.conf */
static int name_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx = strlen(x) - 5, ly = strlen(y) - 5;
	int c = memcmp(x, y, lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

/* The *.conf files of a shipped folder, sorted; NULL when there is none. */
static char **conf_files(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && de->d_name[0] != '.' && !strcmp(de->d_name + l - 5, ".conf")) {
			v = xrealloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), name_cmp);
	return v;
}

static void list_configs(void)
{
	char *dir = shipped_path("configs");
	size_t n;
	char **v = dir ? conf_files(dir, &n) : NULL;

	if (v) {
		printf("\nshipped configs (-c FILE) in %s/:\n", dir);
		for (size_t i = 0; i < n; i++)
			printf("  %s\n", v[i]);
		printf("  suites/ (lrubench list --suites)\n");
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
	}
	free(dir);
}

/*
 * A suite's one-line description: the first comment line of the file that
 * is not its SPDX line (configs/suites/README.md says so to suite writers).
 */
static void suite_description(const char *path, char *buf, size_t len)
{
	/* a suite is a config: a regular file of at most 1 MiB (core/util.h) */
	char *text = read_regular_file(path, CONFIG_FILE_MAX, 0, NULL, NULL), *line, *next;

	snprintf(buf, len, "(no description)");
	for (line = text; line && *line; line = next) {
		char *p = line;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (*p != '#' && *p != ';')
			break;
		while (*p == '#' || *p == ';' || *p == ' ')
			p++;
		p[strcspn(p, "\r")] = '\0';
		if (!*p || !strncmp(p, "SPDX-License-Identifier", 23))
			continue;
		snprintf(buf, len, "%.*s", (int)(len - 1), p);
		break;
	}
	free(text);
}

/* list --suites: each shipped experiment, its file and what it reproduces. */
static int list_suites(void)
{
	char *dir = shipped_path("configs/suites");
	size_t n = 0;
	char **v = dir ? conf_files(dir, &n) : NULL;

	if (!v) {
		error("no suites found: looked for configs/suites beside %s and in %s/configs/suites "
		      "(make install puts them there)", "the lrubench binary", LRUBENCH_DATADIR);
		free(dir);
		return LB_EXIT_UNSUPPORTED;
	}
	printf("suites in %s/ (lrubench run -c %s/NAME.conf):\n", dir, dir);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, v[i]), desc[256];

		suite_description(path, desc, sizeof(desc));
		v[i][strlen(v[i]) - 5] = '\0';
		printf("  %-28s %s\n", v[i], desc);
		free(path);
		free(v[i]);
	}
	free(v);
	free(dir);
	return LB_EXIT_OK;
}

static bool suites;

static const struct popt list_popts[] = {
	POPT_BOOL(0, "suites", &suites, "the shipped suites and what each reproduces"),
	POPT_END(),
};

const struct popt_command list_command = {
	"list", "[SECTION...]",
	"Every config key of the sections named (default: all of them): [global], each\n"
	"workload's section and [vm], with its type, default (sized for this machine),\n"
	"--quick value and help; then the tables each workload writes and the shipped\n"
	"configs. The keys are set in INI files (run -c) or with run --set SEC.KEY=VAL.\n"
	"--suites lists the shipped suites instead: one INI file per experiment of the\n"
	"review thread, each with what it reproduces.",
	list_popts,
};

static bool wanted(const char *section, int n, char **names)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], section))
			return true;
	return n == 0;
}

int cmd_list(int argc, char **argv)
{
	struct sys_facts si;
	struct numa_bind b;
	struct strbuf err = STRBUF_INIT;
	struct sizing sz = { 0 };
	bool any = false;
	int n;

	suites = false;
	n = parse_options(&list_command, argc, argv);
	if (n < 0)
		return popt_exit(n);
	if (suites) {
		if (n)
			return popt_usage_error(&list_command, "--suites takes no SECTION, not '%s'",
						argv[0]);
		return list_suites();
	}
	for (int i = 0; i < n; i++)
		if (!workload_find(argv[i]) && strcmp(argv[i], "global") && strcmp(argv[i], "vm"))
			return popt_usage_error(&list_command, "unknown section '%s': name global, vm or a workload",
						argv[i]);
	memset(&si, 0, sizeof(si));
	if (!sysinfo_collect(&si)) {
		sz.sys = &si;
		sz.node_cpus = si.nr_cpus;
		sz.node_mem = si.mem_total_kb * 1024;
	}
	if (!numa_resolve("", "auto", &b, &err)) {
		sz.node_cpus = b.nr_cpus;
		sz.node_mem = b.mem_bytes;
	}
	strbuf_release(&err);
	if (wanted("global", n, argv)) {
		printf("[global]  settings of the whole run\n");
		list_options("global", global_options, &sz);
		any = true;
	}
	for (size_t w = 0; workloads[w]; w++) {
		const struct workload_ops *ops = workloads[w];

		if (!wanted(ops->name, n, argv))
			continue;
		printf("%s[%s]  %s\n", any ? "\n" : "", ops->name, ops->summary);
		list_options(ops->name, ops->options, &sz);
		list_options(ops->name, wl_common_options, &sz);
		for (size_t t = 0; ops->tables && ops->tables[t].title; t++)
			printf("  table \"%s\" (%s, %s is better)\n", ops->tables[t].title, ops->tables[t].unit,
			       ops->tables[t].better == BETTER_HIGHER ? "higher" : "lower");
		any = true;
	}
	if (wanted("vm", n, argv)) {
		printf("%s[vm]  VM mode, when kernel_a is set: see lrubench-vm(7)\n", any ? "\n" : "");
		list_options("vm", vm_options, &sz);
	}
	if (!n)
		list_configs();
	sysinfo_release(&si);
	return LB_EXIT_OK;
}
