// SPDX-License-Identifier: GPL-2.0-or-later
/* Splitting `lrubench run --kernel-a ...` into VM options and the suite. */
#include "vm/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* options of `run` that take a value: their values are never ours */
static const char *const run_value_opts[] = {
	"-c", "--config", "-w", "--workloads", "-i", "--iterations", NULL
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* "--name VALUE" or "--name=VALUE"; advances *i over a separate value */
static int take_value(int argc, char **argv, int *i, const char *name, const char **val,
		      struct strbuf *err)
{
	const char *a = argv[*i];
	size_t l = strlen(name);

	if (strncmp(a, name, l))
		return 0;
	if (a[l] == '=') {
		*val = a + l + 1;
		return 1;
	}
	if (a[l])
		return 0;
	if (*i + 1 >= argc) {
		strbuf_addf(err, "%s needs a value", name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

static int parse_uint(const char *key, const char *val, unsigned lo, unsigned hi, unsigned *out,
		      struct strbuf *err)
{
	unsigned long long v;

	if (parse_ull(val, &v) || v < lo || v > hi) {
		strbuf_addf(err, "%s: '%s' is not a number in %u..%u", key, val, lo, hi);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int set_vm_key(struct vm_args *a, const char *key, const char *val, struct strbuf *err,
		      bool *memory_set, bool *timeout_set)
{
	const char *k = !strncmp(key, "vm_", 3) ? key + 3 : key;

	if (!strcmp(k, "memory")) {
		if (parse_size(val, &a->memory) || a->memory < (128ULL << 20)) {
			strbuf_addf(err, "vm_memory: '%s' is not a size of at least 128M", val);
			return -1;
		}
		*memory_set = true;
		return 0;
	}
	if (!strcmp(k, "cpus"))
		return parse_uint("vm_cpus", val, 1, 256, &a->cpus, err);
	if (!strcmp(k, "numa_nodes"))
		return parse_uint("vm_numa_nodes", val, 1, 8, &a->numa_nodes, err);
	if (!strcmp(k, "rounds"))
		return parse_uint("vm_rounds", val, 1, 100, &a->rounds, err);
	if (!strcmp(k, "cmdline_extra")) {
		a->cmdline_extra = val;
		return 0;
	}
	if (!strcmp(k, "timeout")) {
		if (parse_seconds(val, &a->timeout) || a->timeout < 10) {
			strbuf_addf(err, "vm_timeout: '%s' is not a time of at least 10s", val);
			return -1;
		}
		*timeout_set = true;
		return 0;
	}
	strbuf_addf(err, "vm.%s: unknown key (vm keys: memory, cpus, numa_nodes, rounds, "
		    "cmdline_extra, timeout)", key);
	return -1;
}

int vm_args_parse(int argc, char **argv, unsigned host_cpus, struct vm_args *a, struct strbuf *err)
{
	static const struct { const char *name; const char *key; } vm_long[] = {
		{ "--vm-memory", "memory" }, { "--vm-cpus", "cpus" },
		{ "--vm-numa-nodes", "numa_nodes" }, { "--vm-rounds", "rounds" },
		{ "--vm-cmdline-extra", "cmdline_extra" }, { "--vm-timeout", "timeout" },
	};
	bool memory_set = false, timeout_set = false;

	memset(a, 0, sizeof(*a));
	a->cpus = host_cpus ? host_cpus : 1;
	a->numa_nodes = 1;
	a->rounds = 1;
	a->cmdline_extra = "";
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		int r = 0;
		bool done = false;

		if (!strcmp(arg, "--")) {
			for (; i < argc; i++)
				strlist_push(&a->suite, argv[i]);
			break;
		}
		for (int k = 0; k < 2 && !done; k++) {
			char name[32];
			const char **slot[] = { &a->kernel[k], &a->label[k], &a->modules[k] };
			const char *what[] = { "--kernel-", "--label-", "--modules-" };
			for (int w = 0; w < 3 && !done; w++) {
				snprintf(name, sizeof(name), "%s%c", what[w], 'a' + k);
				r = take_value(argc, argv, &i, name, slot[w], err);
				if (r < 0)
					return -1;
				done = r > 0;
			}
		}
		for (size_t k = 0; k < ARRAY_SIZE(vm_long) && !done; k++) {
			r = take_value(argc, argv, &i, vm_long[k].name, &val, err);
			if (r < 0)
				return -1;
			if (r > 0) {
				if (set_vm_key(a, vm_long[k].key, val, err, &memory_set, &timeout_set))
					return -1;
				done = true;
			}
		}
		if (done)
			continue;
		if ((r = take_value(argc, argv, &i, "--output", &a->results, err)) ||
		    (r = take_value(argc, argv, &i, "-o", &a->results, err))) {
			if (r < 0)
				return -1;
			continue;
		}
		if (!strncmp(arg, "-o", 2) && arg[2] && arg[1] != '-') {
			a->results = arg + 2;   /* -oDIR */
			continue;
		}
		if ((r = take_value(argc, argv, &i, "--label", &val, err))) {
			if (r < 0)
				return -1;
			strbuf_addstr(err, "--label names a single run: with --kernel-a/--kernel-b "
				      "use --label-a and --label-b");
			return -1;
		}
		if ((r = take_value(argc, argv, &i, "--set", &val, err))) {
			if (r < 0)
				return -1;
			if (!strncmp(val, "vm.", 3)) {
				char *key = xstrdup(val + 3), *eq = strchr(key, '=');
				if (!eq) {
					strbuf_addf(err, "--set %s: expected vm.KEY=VALUE", val);
					free(key);
					return -1;
				}
				*eq = '\0';
				/* the value from argv itself: cmdline_extra keeps the pointer */
				r = set_vm_key(a, key, val + 3 + (eq - key) + 1, err, &memory_set, &timeout_set);
				free(key);
				if (r)
					return -1;
				continue;
			}
			if (!strncmp(val, "global.workdir=", 15) && val[15] == '/')
				strlist_push(&a->tmpfs, val + 15);
			strlist_push(&a->suite, "--set");
			strlist_push(&a->suite, val);
			continue;
		}
		if (!strcmp(arg, "--dry-run")) {
			a->dry_run = true;
			continue;
		}
		if (!strcmp(arg, "--quick"))
			a->quick = true;
		else if (!strcmp(arg, "--force"))
			a->force = true;
		else if (!strcmp(arg, "--resume"))
			a->resume = true;
		strlist_push(&a->suite, arg);
		if (in_list(run_value_opts, arg) && i + 1 < argc)
			strlist_push(&a->suite, argv[++i]);
	}

	if (a->kernel[1] && !a->kernel[0]) {
		strbuf_addstr(err, "--kernel-b needs --kernel-a (kernel A is the baseline of the comparison)");
		return -1;
	}
	if (!a->kernel[0]) {
		strbuf_addstr(err, "VM mode needs --kernel-a IMG (and usually --kernel-b IMG)");
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		if ((a->label[k] || a->modules[k]) && !a->kernel[k]) {
			strbuf_addf(err, "--%s-%c without --kernel-%c", a->label[k] ? "label" : "modules",
				    'a' + k, 'a' + k);
			return -1;
		}
		if (a->kernel[k] && !*a->kernel[k]) {
			strbuf_addf(err, "--kernel-%c: empty image path", 'a' + k);
			return -1;
		}
	}
	if (a->force && a->resume) {
		strbuf_addstr(err, "--force and --resume exclude each other");
		return -1;
	}
	if (a->resume && a->rounds > 1) {
		strbuf_addstr(err, "--resume cannot continue a run with vm_rounds > 1; start it again with --force");
		return -1;
	}
	if (a->numa_nodes > a->cpus) {
		strbuf_addf(err, "vm_numa_nodes=%u needs at least as many vm_cpus (%u)", a->numa_nodes, a->cpus);
		return -1;
	}
	if (!memory_set)
		a->memory = (a->quick ? 2ULL : 4ULL) << 30;
	if (!timeout_set)
		a->timeout = a->quick ? 15 * 60 : 60 * 60;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && strchr(" \t\r", e[-1]))
		*--e = '\0';
	return s;
}

void vm_ini_workdir(const char *ini, struct strlist *tmpfs)
{
	char *copy = xstrdup(ini), *line, *save;
	bool global = false;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *l = trim(line), *eq;

		if (*l == '[') {
			global = !strncmp(l, "[global]", 8);
			continue;
		}
		l[strcspn(l, ";#")] = '\0';
		eq = strchr(l, '=');
		if (!global || !eq)
			continue;
		*eq = '\0';
		if (!strcmp(trim(l), "workdir") && *trim(eq + 1) == '/' && !strlist_has(tmpfs, trim(eq + 1)))
			strlist_push(tmpfs, trim(eq + 1));
	}
	free(copy);
}

void vm_args_release(struct vm_args *a)
{
	strlist_release(&a->suite);
	strlist_release(&a->tmpfs);
}
