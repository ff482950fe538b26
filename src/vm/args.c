// SPDX-License-Identifier: GPL-2.0-or-later
/* The settings of `lrubench run --kernel-a ...`: [vm] keys and their rules. */
#include "vm/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/numa.h"

static const char *unless_empty(const char *s)
{
	return s && *s ? s : NULL;
}

/* what VM mode puts on every guest's command line itself (vm/qemu.h) */
static const char *const own_options[] = { "console", "panic", "oops", "rdinit", "init", NULL };

int vm_cmdline_check(const char *s, const char *what, bool own_ok, struct strbuf *err)
{
	size_t len = strlen(s);

	if (len > VM_CMDLINE_MAX) {
		strbuf_addf(err, "%s: %zu bytes of boot options, at most %d (the guest's whole command "
			    "line must stay within the kernel's 2048)", what, len, VM_CMDLINE_MAX);
		return -1;
	}
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e || *p == '"' || *p == '\\' ||
		    *p == '\'') {
			strbuf_addf(err, "%s: byte 0x%02x at offset %zu: boot options are printable ASCII "
				    "words separated by blanks, without quotes or backslashes", what,
				    (unsigned char)*p, (size_t)(p - s));
			return -1;
		}
	for (const char *p = s; *p;) {
		size_t n, key;

		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (!n)
			break;
		key = strcspn(p, "=");
		key = key < n ? key : n;
		for (size_t i = 0; !own_ok && own_options[i]; i++)
			if (key == strlen(own_options[i]) && !strncmp(p, own_options[i], key)) {
				strbuf_addf(err, "%s: '%.*s': VM mode sets %s= itself (the console, the "
					    "panic handling and the guest's init are how it runs the suite)",
					    what, (int)n, p, own_options[i]);
				return -1;
			}
		if (!strncmp(p, "lrubench.", 9)) {
			strbuf_addf(err, "%s: '%.*s': lrubench.* options are VM mode's own", what, (int)n, p);
			return -1;
		}
		p += n;
	}
	return 0;
}

/* vm.kernels: "NAME=IMG, NAME=IMG OPTIONS" appended after kernel_a and
 * kernel_b; a blank after IMG starts that kernel's own boot options */
static int add_listed_kernels(struct vm_args *a, const char *list, struct strbuf *err)
{
	size_t n = 0;
	char **items = split_commas(list, &n);
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		char *item = xstrdup_trim(items[i]), *eq = strchr(item, '='), *opts = NULL;
		struct vm_kernel_arg *k;

		if (eq && (opts = strpbrk(eq + 1, " \t"))) {
			*opts++ = '\0';
			while (*opts == ' ' || *opts == '\t')
				opts++;
		}

		if (!eq || eq == item || !eq[1]) {
			strbuf_addf(err, "vm.kernels: '%s' is not NAME=IMG (NAME is the label, IMG a "
				    "bzImage or \"host\")", item);
			ret = -1;
		} else if (a->nkernels >= VM_MAX_KERNELS) {
			strbuf_addf(err, "vm.kernels: at most %d kernels in one run", VM_MAX_KERNELS);
			ret = -1;
		} else {
			*eq = '\0';
			k = &a->kernel[a->nkernels++];
			snprintf(k->flag, sizeof(k->flag), "--kernel %.32s", item);
			if (opts && vm_cmdline_check(opts, k->flag, false, err)) {
				ret = -1;
			} else {
				strlist_push(&a->owned, item);
				strlist_push(&a->owned, eq + 1);
				strlist_push(&a->owned, opts ? opts : "");
				k->label = a->owned.v[a->owned.n - 3];
				k->image = a->owned.v[a->owned.n - 2];
				k->cmdline = a->owned.v[a->owned.n - 1];
			}
		}
		free(item);
	}
	free_strv(items);
	return ret;
}

static int parse_cpus_from(struct vm_args *a, const char *s, struct strbuf *err)
{
	unsigned long long v[VM_MAX_CPUS];
	size_t n = 0;

	if (!s || !*s || !strcmp(s, "none")) {
		a->cpus_from = VM_CPUS_FLOAT;
		return 0;
	}
	if (!strcmp(s, "node")) {
		a->cpus_from = VM_CPUS_NODE;
		return 0;
	}
	if (parse_ull_list(s, v, VM_MAX_CPUS, &n) || !n) {
		strbuf_addf(err, "vm.cpus_from=%s: expected none, node or a list of host CPUs (0-3,8)", s);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i] >= CPU_SETSIZE) {
			strbuf_addf(err, "vm.cpus_from=%s: CPU %llu is beyond any host", s, v[i]);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (v[j] == v[i]) {
				strbuf_addf(err, "vm.cpus_from=%s: CPU %llu is listed twice (each vCPU gets a "
					    "host CPU of its own)", s, v[i]);
				return -1;
			}
		a->cpu_list[i] = (unsigned)v[i];
	}
	a->ncpu_list = n;
	a->cpus_from = VM_CPUS_LIST;
	return 0;
}

int vm_args_from_config(struct vm_args *a, const struct vm_opts *vm, struct strbuf *err)
{
	static const char *const flags[2][4] = {
		{ "--kernel-a", "--label-a", "--modules-a", "--cmdline-a" },
		{ "--kernel-b", "--label-b", "--modules-b", "--cmdline-b" },
	};
	unsigned long long node;

	a->nkernels = 0;
	for (int k = 0; k < 2; k++) {
		const char *image = unless_empty(vm->kernel[k]);

		if ((unless_empty(vm->label[k]) || unless_empty(vm->modules[k]) ||
		     unless_empty(vm->cmdline[k])) && !image) {
			strbuf_addf(err, "%s without %s", unless_empty(vm->label[k]) ? flags[k][1] :
				    unless_empty(vm->modules[k]) ? flags[k][2] : flags[k][3], flags[k][0]);
			return -1;
		}
		if (vm->cmdline[k] && vm_cmdline_check(vm->cmdline[k], flags[k][3], false, err))
			return -1;
		if (!image)
			continue;
		if (k == 1 && !unless_empty(vm->kernel[0])) {
			strbuf_addstr(err, "--kernel-b needs --kernel-a (kernel A is the baseline of the comparison)");
			return -1;
		}
		a->kernel[a->nkernels].image = image;
		a->kernel[a->nkernels].label = unless_empty(vm->label[k]);
		a->kernel[a->nkernels].modules = unless_empty(vm->modules[k]);
		a->kernel[a->nkernels].cmdline = vm->cmdline[k] ? vm->cmdline[k] : "";
		snprintf(a->kernel[a->nkernels].flag, sizeof(a->kernel[0].flag), "%s", flags[k][0]);
		a->nkernels++;
	}
	if (vm->kernels && add_listed_kernels(a, vm->kernels, err))
		return -1;
	if (!a->nkernels) {
		strbuf_addstr(err, "VM mode needs a kernel: --kernel-a IMG (and usually --kernel-b IMG), "
			      "or --kernel NAME=IMG for each");
		return -1;
	}
	for (unsigned i = 0; i < a->nkernels; i++)
		if (!strcmp(a->kernel[i].image, VM_HOST) && *a->kernel[i].cmdline) {
			strbuf_addf(err, "%s: the running kernel (host) was booted already: boot options "
				    "are for an image", a->kernel[i].flag);
			return -1;
		}
	a->memory = vm->memory;
	a->cpus = (unsigned)vm->cpus;
	a->numa_nodes = (unsigned)vm->numa_nodes;
	a->rounds = (unsigned)vm->rounds;
	a->cmdline_extra = vm->cmdline_extra ? vm->cmdline_extra : "";
	/* every guest's, appended after VM mode's own (the kernel takes the last
	 * of a repeated option): the expert's way to change those too, as the
	 * panic test does with rdinit=; a kernel's own options, which are what
	 * an A/B compares, may not */
	if (vm_cmdline_check(a->cmdline_extra, "vm.cmdline_extra", true, err))
		return -1;
	for (unsigned i = 0; i < a->nkernels; i++)
		if (strlen(a->cmdline_extra) + 1 + strlen(a->kernel[i].cmdline) > VM_CMDLINE_MAX) {
			strbuf_addf(err, "%s: vm.cmdline_extra and its own boot options together are "
				    "over %d bytes", a->kernel[i].flag, VM_CMDLINE_MAX);
			return -1;
		}
	a->host_settings = vm->host_settings ? vm->host_settings : "";
	a->balloon = vm->balloon == 1;
	a->balloon_target = vm->balloon_target;
	a->rss_interval = vm->rss_interval;
	if (a->balloon_target && !a->balloon) {
		strbuf_addstr(err, "vm.balloon_target needs vm.balloon = free-page-reporting (the "
			      "target is asked of the balloon device)");
		return -1;
	}
	if (a->balloon_target && a->balloon_target > vm->memory) {
		strbuf_addstr(err, "vm.balloon_target is more than vm.memory (a balloon can only take "
			      "memory away)");
		return -1;
	}
	a->timeout = vm->timeout;
	a->backend = (enum vm_backend)vm->memory_backend;

	if (a->force && a->resume) {
		strbuf_addstr(err, "--force and --resume exclude each other");
		return -1;
	}
	if (a->resume && a->rounds > 1) {
		strbuf_addstr(err, "--resume cannot continue a run with vm.rounds > 1; start it again with --force");
		return -1;
	}
	if (a->numa_nodes > a->cpus) {
		strbuf_addf(err, "vm.numa_nodes=%u needs at least as many vm.cpus (%u)", a->numa_nodes, a->cpus);
		return -1;
	}
	if (parse_cpus_from(a, vm->cpus_from, err))
		return -1;
	if (a->cpus_from == VM_CPUS_LIST && a->ncpu_list < a->cpus) {
		strbuf_addf(err, "vm.cpus_from=%s lists %zu host CPU%s for vm.cpus=%u vCPUs (one each)",
			    vm->cpus_from, a->ncpu_list, a->ncpu_list == 1 ? "" : "s", a->cpus);
		return -1;
	}
	if (!vm->host_node || !*vm->host_node || !strcmp(vm->host_node, "auto")) {
		a->host_node = -1;
	} else if (parse_ull(vm->host_node, &node) || node >= LB_MAX_NODES) {
		strbuf_addf(err, "vm.host_node=%s: expected auto or a node number", vm->host_node);
		return -1;
	} else {
		a->host_node = (int)node;
	}
	return 0;
}

/* One "KNOB=VALUE" of a list, appended to out. */
static int add_knob(const char *text, const char *origin, const char *whose, struct knob_set *out,
		    struct strbuf *err)
{
	char *item = xstrdup_trim(text), *eq = strchr(item, '='), *name, *value;
	struct knob *k;
	int ret = -1;

	if (!eq || eq == item) {
		strbuf_addf(err, "'%s' is not KNOB=VALUE", item);
		free(item);
		return -1;
	}
	*eq = '\0';
	name = xstrdup_trim(item);
	value = xstrdup_trim(eq + 1);
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	k = &out->v[out->n];
	if (knob_init(k, name, value, origin, err))
		;
	else if (!strcmp(value, "keep"))
		strbuf_addf(err, "%s = keep: keep is [settings]' word for leaving a knob alone; here "
			    "leave the knob out", name);
	else if (knob_set_find(out, k->path))
		strbuf_addf(err, "%s is set twice (one value for one knob of %s)", name, whose);
	else {
		out->n++;
		ret = 0;
	}
	free(name);
	free(value);
	free(item);
	return ret;
}

int vm_knob_list_parse(const char *list, const char *origin, const char *whose, struct knob_set *out,
		       struct strbuf *err)
{
	size_t n = 0;
	char **items;
	int ret = 0;

	if (!list || !*list)
		return 0;
	items = split_commas(list, &n);
	for (size_t i = 0; i < n && !ret; i++)
		ret = add_knob(items[i], origin, whose, out, err);
	free_strv(items);
	return ret;
}

/* "vm.settings_b (--settings-b vm.swappiness=10)": the key and where it was set */
static void key_origin(struct config *cfg, const char *key, char *buf, size_t len)
{
	const char *from = config_origin(cfg, "vm", key);

	snprintf(buf, len, "vm.%s (%s)", key, from ? from : "--set");
}

static struct vm_kernel_arg *kernel_by_flag(struct vm_args *a, const char *flag)
{
	for (unsigned i = 0; i < a->nkernels; i++)
		if (!strcmp(a->kernel[i].flag, flag))
			return &a->kernel[i];
	return NULL;
}

/* vm.kernel_settings: NAME:KNOB=VALUE for the kernels of vm.kernels */
static int listed_settings(struct vm_args *a, const char *list, const char *origin, struct strbuf *err)
{
	size_t n = 0;
	char **items = split_commas(list, &n);
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		char *item = xstrdup_trim(items[i]), *colon = strchr(item, ':'), *name;
		struct vm_kernel_arg *k = NULL;

		if (!colon || colon == item) {
			strbuf_addf(err, "%s: '%s' is not NAME:KNOB=VALUE (NAME a kernel of vm.kernels)",
				    origin, item);
			free(item);
			ret = -1;
			break;
		}
		*colon = '\0';
		name = xstrdup_trim(item);
		for (unsigned j = 0; j < a->nkernels && !k; j++)
			if (!strncmp(a->kernel[j].flag, "--kernel ", 9) && !strcmp(a->kernel[j].label, name))
				k = &a->kernel[j];
		if (!k) {
			strbuf_addf(err, "%s: '%s' is no kernel of vm.kernels (NAME of NAME=IMG; kernels A and "
				    "B take vm.settings_a and vm.settings_b)", origin, name);
			ret = -1;
		} else {
			struct strbuf e = STRBUF_INIT;

			if (add_knob(colon + 1, origin, "a guest", &k->settings, &e)) {
				strbuf_addf(err, "%s: %s: %s", origin, name, e.buf);
				ret = -1;
			}
			strbuf_release(&e);
		}
		free(name);
		free(item);
	}
	free_strv(items);
	return ret;
}

int vm_args_settings(struct vm_args *a, struct config *cfg, struct strbuf *err)
{
	static const char *const keys[2] = { "settings_a", "settings_b" };
	static const char *const flags[2][2] = { { "--settings-a", "--kernel-a" },
						 { "--settings-b", "--kernel-b" } };
	const struct vm_opts *vm = config_section(cfg, "vm");
	char origin[160];

	for (int i = 0; i < 2; i++) {
		struct vm_kernel_arg *k;
		struct strbuf e = STRBUF_INIT;

		if (!vm->settings[i] || !*vm->settings[i])
			continue;
		if (!(k = kernel_by_flag(a, flags[i][1]))) {
			strbuf_addf(err, "%s without %s", flags[i][0], flags[i][1]);
			return -1;
		}
		key_origin(cfg, keys[i], origin, sizeof(origin));
		if (vm_knob_list_parse(vm->settings[i], origin, "a guest", &k->settings, &e)) {
			strbuf_addf(err, "%s: %s", origin, e.buf);
			strbuf_release(&e);
			return -1;
		}
		strbuf_release(&e);
	}
	if (vm->kernel_settings && *vm->kernel_settings) {
		key_origin(cfg, "kernel_settings", origin, sizeof(origin));
		if (listed_settings(a, vm->kernel_settings, origin, err))
			return -1;
	}
	/* the suite's [settings] are every guest's: one knob of one guest, one value */
	for (unsigned i = 0; i < a->nkernels; i++)
		for (size_t j = 0; j < a->kernel[i].settings.n; j++) {
			const struct knob *k = &a->kernel[i].settings.v[j];

			for (size_t s = 0; s < cfg->nsettings; s++)
				if (!strcmp(cfg->settings[s].path, k->path)) {
					strbuf_addf(err, "%s: %s is also set by the suite's [settings] (%s), which "
						    "every guest applies: set it per kernel or in the suite, not both",
						    k->origin, k->name, cfg->settings[s].origin);
					return -1;
				}
		}
	return 0;
}

void vm_args_release(struct vm_args *a)
{
	for (unsigned i = 0; i < VM_MAX_KERNELS; i++)
		knob_set_release(&a->kernel[i].settings);
	strlist_release(&a->suite);
	strlist_release(&a->tmpfs);
	strlist_release(&a->inputs);
	strlist_release(&a->owned);
}
