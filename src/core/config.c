// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Configuration: option tables -> typed structs. One table per section drives
 * the INI loader, --set, --quick, defaults sized from the machine, run.json's
 * effective config and `lrubench list`, so they cannot drift apart.
 */
#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/strlist.h"
#include "core/strmap.h"
#include "core/workload.h"

const char *const profile_kind_names[] = { "none", "lock", "cpu", "all", "counters", "reclaim", "c2c",
					    NULL };

#define GOFF(f) offsetof(struct global_opts, f)
#define COFF(f) offsetof(struct wl_common_opts, f)

const struct option_def global_options[] = {
	{ .name = "workloads", .type = OPT_STR, .offset = GOFF(workloads), .def = "readtwice",
	  .help = "workloads run when -w is not given: a comma list, or \"all\"" },
	{ .name = "iterations", .type = OPT_UINT, .offset = GOFF(iterations), .def = "5", .quick = "3",
	  .min = 1, .max = 10000, .flags = OPTF_AUTO,
	  .help = "measured iterations of every step (one sample per op each), or auto: as many as "
		  "precision asks, from min_iterations to max_iterations" },
	{ .name = "warmup", .type = OPT_UINT, .offset = GOFF(warmup), .def = "1",
	  .max = 100,
	  .help = "untimed iterations before the measured ones of every step (first touches of memory are slow)" },
	{ .name = "numa_node", .type = OPT_STR, .offset = GOFF(numa_node), .def = "auto",
	  .help = "bind every workload process to this node: a number, \"auto\" (most free memory), \"last\" "
		  "(the highest node with memory) or \"none\"" },
	{ .name = "workdir", .type = OPT_STR, .offset = GOFF(workdir), .def = "/var/tmp/lrubench",
	  .help = "scratch folder; each run uses and removes its own run-<pid> folder inside" },
	{ .name = "drop_caches", .type = OPT_BOOL, .offset = GOFF(drop_caches), .def = "yes",
	  .help = "sync and drop the page cache before every iteration" },
	{ .name = "sparse_root", .type = OPT_STR, .offset = GOFF(sparse_root), .def = "loop-ext4",
	  .help = "filesystem for workload files: loop-ext4 | loop-xfs (a loop device over a sparse image on a "
		  "private tmpfs) | dir:/path (an existing folder, not tmpfs)" },
	{ .name = "sparse_size", .type = OPT_SIZE, .offset = GOFF(sparse_size), .def = "16G",
	  .min = 1ULL << 30, .max = 1ULL << 44,
	  .help = "size of the sparse image behind loop-ext4/loop-xfs (only written blocks use memory)" },
	{ .name = "profile", .type = OPT_ENUM, .offset = GOFF(profile), .def = "none",
	  .choices = profile_kind_names,
	  .help = "after each step's timed iterations, one untimed iteration under a profiler: lock (lock "
		  "contention: perf's lock tracepoints, else /proc/lock_stat), cpu (perf sampling), all (lock and "
		  "cpu), counters (perf stat of the hardware counters: needs a PMU), reclaim (reclaim and "
		  "compaction stall latencies from the vmscan/compaction tracepoints), c2c (perf c2c: cache "
		  "lines bounced between CPUs, HITMs per data address and symbol: needs a PMU that samples "
		  "memory accesses), or none; "
		  "the CPU split and reclaim counters are recorded either way" },
	{ .name = "profile_passes", .type = OPT_UINT, .offset = GOFF(profile_passes), .def = "1",
	  .min = 1, .max = 20,
	  .help = "profiled passes per step (profile != none), each untimed: with 2 or more the lock "
		  "and CPU tables have that many samples per op, and compare tests them" },
	{ .name = "stuck_timeout", .type = OPT_TIME, .offset = GOFF(stuck_timeout), .def = "60s",
	  .min = 1, .max = 86400,
	  .help = "a workload's child that has not ended this long after its work should have (or that used "
		  "no CPU for this long) is stuck: its op fails, naming it, and the run goes on" },
	{ .name = "precision", .type = OPT_PCT, .offset = GOFF(precision), .def = "2%",
	  .max = 100,
	  .help = "iterations = auto: a step ends when the 95% confidence interval of the mean of each op "
		  "of the workload's first table is "
		  "this narrow (half-width, relative to the mean); with run --baseline, also when the "
		  "change against it is decided" },
	{ .name = "detect", .type = OPT_PCT, .offset = GOFF(detect), .def = "5%",
	  .max = 100, .flags = OPTF_NONE,
	  .help = "run -i auto --baseline: the change the sequential design is planned to decide with "
		  "90% power at the baseline's spread; its last look is the first count that has that "
		  "power (at most max_iterations), or none: look up to max_iterations" },
	{ .name = "min_iterations", .type = OPT_UINT, .offset = GOFF(min_iterations), .def = "3",
	  .min = 2, .max = 10000,
	  .help = "iterations = auto: measured iterations of every step before its precision is judged" },
	{ .name = "max_iterations", .type = OPT_UINT, .offset = GOFF(max_iterations), .def = "30",
	  .min = 2, .max = 10000,
	  .help = "iterations = auto: the most measured iterations of a step (the iteration cap)" },
	{ .name = "time_budget", .type = OPT_TIME, .offset = GOFF(time_budget), .def = "none",
	  .min = 1, .max = 7 * 24 * 3600, .flags = OPTF_NONE,
	  .help = "iterations = auto: the most time the measured iterations of one step may take "
		  "(the time cap; min_iterations always run), or none" },
	{ .name = "interleave", .type = OPT_BOOL, .offset = GOFF(interleave), .def = "no",
	  .help = "run the steps' iterations in rounds (step 1, step 2, ..., step 1, ...) so that a slow "
		  "drift spreads over every step; the order is recorded in the results" },
	{ .name = "monitors", .type = OPT_STR, .offset = GOFF(monitors), .def = "all",
	  .help = "what is sampled during every timed iteration into a time series beside the results "
		  "(lrubench-run(1) MONITORS): a comma list of vmstat, meminfo, memcg, cpu, psi, node, "
		  "or all, or none" },
	{ .name = "monitor_interval", .type = OPT_UINT, .offset = GOFF(monitor_interval), .def = "250",
	  .min = 10, .max = 60000,
	  .help = "milliseconds between two samples of the monitors" },
	OPT_END,
};

#define VOFF(f) offsetof(struct vm_opts, f)

/* the old default of VM mode: every CPU this host has online */
static void vm_cpus_default(const struct sizing *sz, char *buf, size_t len)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	(void)sz;
	snprintf(buf, len, "%ld", n > 0 ? (n > 256 ? 256 : n) : 1);
}

const char *const vm_memory_backends[] = { "ram", "memfd", "hugetlb", NULL };
const char *const vm_balloons[] = { "none", "free-page-reporting", NULL };

const struct option_def vm_options[] = {
	{ .name = "kernel_a", .type = OPT_STR, .offset = VOFF(kernel[0]), .def = "",
	  .help = "kernel A, the baseline, booted in qemu: a bzImage, or \"host\" for the running "
		  "kernel natively (--kernel-a)" },
	{ .name = "kernel_b", .type = OPT_STR, .offset = VOFF(kernel[1]), .def = "",
	  .help = "kernel B, compared with A: a bzImage or \"host\" (--kernel-b)" },
	{ .name = "label_a", .type = OPT_STR, .offset = VOFF(label[0]), .def = "",
	  .help = "results label of kernel A (default: its release) (--label-a)" },
	{ .name = "label_b", .type = OPT_STR, .offset = VOFF(label[1]), .def = "",
	  .help = "results label of kernel B (--label-b)" },
	{ .name = "modules_a", .type = OPT_STR, .offset = VOFF(modules[0]), .def = "",
	  .help = "modules of kernel A: a lib/modules/<release> folder or a root holding one "
		  "(default: beside the image, else /lib/modules) (--modules-a)" },
	{ .name = "modules_b", .type = OPT_STR, .offset = VOFF(modules[1]), .def = "",
	  .help = "modules of kernel B (--modules-b)" },
	{ .name = "cmdline_a", .type = OPT_STR, .offset = VOFF(cmdline[0]), .def = "",
	  .help = "kernel A's own boot options, after cmdline_extra: the same image can be kernel B "
		  "with other options (cgroup_disable=memory) (--cmdline-a)" },
	{ .name = "cmdline_b", .type = OPT_STR, .offset = VOFF(cmdline[1]), .def = "",
	  .help = "kernel B's own boot options (--cmdline-b)" },
	{ .name = "settings_a", .type = OPT_STR, .offset = VOFF(settings[0]), .def = "",
	  .help = "knobs set inside kernel A's guest, KNOB=VALUE separated by commas (vm.swappiness=10): "
		  "the [settings] rules; the suite's [settings] go into every guest (--settings-a)" },
	{ .name = "settings_b", .type = OPT_STR, .offset = VOFF(settings[1]), .def = "",
	  .help = "knobs set inside kernel B's guest (--settings-b)" },
	{ .name = "kernels", .type = OPT_STR, .offset = VOFF(kernels), .def = "",
	  .help = "more kernels, NAME=IMG separated by commas, after kernel_a and kernel_b: rounds go "
		  "A, B, C, ...; NAME is the label, IMG a bzImage or \"host\"; text after a blank that "
		  "follows IMG is that kernel's own boot options (NAME=IMG cgroup_disable=memory) "
		  "(--kernel NAME=IMG, repeatable)" },
	{ .name = "kernel_settings", .type = OPT_STR, .offset = VOFF(kernel_settings), .def = "",
	  .help = "knobs set inside the guests of the kernels listed in kernels, NAME:KNOB=VALUE "
		  "separated by commas (nothp:/sys/kernel/mm/transparent_hugepage/enabled=never)" },
	{ .name = "memory", .type = OPT_SIZE, .offset = VOFF(memory), .def = "4G", .quick = "2G",
	  .min = 128ULL << 20, .max = 1ULL << 42,
	  .help = "guest RAM (--vm-memory)" },
	{ .name = "cpus", .type = OPT_UINT, .offset = VOFF(cpus), .def_fn = vm_cpus_default,
	  .min = 1, .max = 256,
	  .help = "vCPUs (default: the host's online CPUs) (--vm-cpus)" },
	{ .name = "numa_nodes", .type = OPT_UINT, .offset = VOFF(numa_nodes), .def = "1",
	  .min = 1, .max = 8,
	  .help = "guest NUMA nodes: RAM and vCPUs are split evenly between them (--vm-numa-nodes)" },
	{ .name = "rounds", .type = OPT_UINT, .offset = VOFF(rounds), .def = "1",
	  .min = 1, .max = 100,
	  .help = "A, B, A, B, ...: the samples of later rounds are pooled into each label (--vm-rounds)" },
	{ .name = "cmdline_extra", .type = OPT_STR, .offset = VOFF(cmdline_extra), .def = "",
	  .help = "appended to the guest kernel's command line (--vm-cmdline-extra)" },
	{ .name = "timeout", .type = OPT_TIME, .offset = VOFF(timeout), .def = "60m", .quick = "15m",
	  .min = 10, .max = 7 * 24 * 3600,
	  .help = "per boot: a guest that has not finished by then hung; qemu is killed, the kernel's "
		  "cell fails with the console tail and the other kernels go on (--vm-timeout)" },
	{ .name = "cpus_from", .type = OPT_STR, .offset = VOFF(cpus_from), .def = "none",
	  .help = "placement: none (vCPU threads float, memory from anywhere); node (vCPU i pinned to the "
		  "i-th CPU of its host node, memory bound to that node); or a host CPU list such as 0-3,8 "
		  "(vCPU i to the i-th CPU listed, memory bound to host_node) (--vm-cpus-from)" },
	{ .name = "host_node", .type = OPT_STR, .offset = VOFF(host_node), .def = "auto",
	  .help = "the host node of guest node 0 (auto: the node with the most free memory, or of the "
		  "first CPU in cpus_from); guest node g goes on the g-th host node from there, around "
		  "again when the host has fewer; a number with cpus_from=none binds the memory only "
		  "(--vm-host-node)" },
	{ .name = "memory_backend", .type = OPT_ENUM, .offset = VOFF(memory_backend), .def = "ram",
	  .choices = vm_memory_backends,
	  .help = "guest RAM: ram (anonymous), memfd (shared file), hugetlb (memfd on 2M huge pages: "
		  "reserve them in /proc/sys/vm/nr_hugepages first) (--vm-memory-backend)" },
	{ .name = "host_settings", .type = OPT_STR, .offset = VOFF(host_settings), .def = "",
	  .help = "knobs set on the host for the boots, KNOB=VALUE separated by commas (vm.swappiness=10, "
		  "/sys/kernel/mm/transparent_hugepage/enabled=always): the [settings] rules, checked "
		  "before the first boot, restored after the last (--vm-host-settings)" },
	{ .name = "balloon", .type = OPT_ENUM, .offset = VOFF(balloon), .def = "none",
	  .choices = vm_balloons,
	  .help = "none, or free-page-reporting: a virtio-balloon device whose guest reports free pages "
		  "to the host (qemu frees them) (--vm-balloon)" },
	{ .name = "balloon_target", .type = OPT_SIZE, .offset = VOFF(balloon_target), .def = "0",
	  .max = 1ULL << 42,
	  .help = "with a balloon: the guest's memory target, asked through QMP once it runs (0: none) "
		  "(--vm-balloon-target)" },
	{ .name = "rss_interval", .type = OPT_TIME, .offset = VOFF(rss_interval), .def = "5s",
	  .min = 1, .max = 3600,
	  .help = "seconds between samples of qemu's VmRSS, recorded per round in run.json vm.qemu_memory "
		  "(--vm-rss-interval)" },
	OPT_END,
};

const char *const wl_statistics[] = { "mmtests", "amean", NULL };

const struct option_def wl_common_options[] = {
	{ .name = "iterations", .type = OPT_UINT, .offset = COFF(iterations), .def = "inherit",
	  .min = 1, .max = 10000, .flags = OPTF_AUTO,
	  .help = "measured iterations for this workload, or auto (default: [global] iterations)" },
	{ .name = "warmup", .type = OPT_UINT, .offset = COFF(warmup), .def = "inherit",
	  .max = 100,
	  .help = "warm-up iterations for this workload (default: [global] warmup)" },
	{ .name = "statistic", .type = OPT_ENUM, .offset = COFF(statistic), .def = "mmtests",
	  .choices = wl_statistics,
	  .help = "the mean row compare, report and email print for this workload's tables: mmtests "
		  "(Hmean where higher is better, Amean where lower) or amean (the arithmetic mean: "
		  "where the experiment posted one)" },
	OPT_END,
};

static const char *const bool_true[] = { "yes", "true", "on", "1", NULL };
static const char *const bool_false[] = { "no", "false", "off", "0", NULL };

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcasecmp(*l, s))
			return true;
	return false;
}

static size_t ndefs(const struct option_def *d)
{
	size_t n = 0;

	while (d && d[n].name)
		n++;
	return n;
}

void option_describe_type(const struct option_def *d, char *buf, size_t len)
{
	char a[32], b[32];

	switch (d->type) {
	case OPT_UINT:
		snprintf(buf, len, "integer %llu..%llu%s", d->min, d->max,
			 d->flags & OPTF_AUTO ? " or auto" : "");
		break;
	case OPT_SIZE:
		format_size(d->min, a, sizeof(a));
		format_size(d->max, b, sizeof(b));
		if (d->max)
			snprintf(buf, len, "size %s..%s%s%s", a, b, d->flags & OPTF_NONE ? " or none" : "",
				 d->flags & OPTF_AUTO ? " or auto" : "");
		else
			snprintf(buf, len, "size%s", d->flags & OPTF_NONE ? " or none" : "");
		break;
	case OPT_TIME:
		snprintf(buf, len, "time %llus..%llus%s", d->min, d->max,
			 d->flags & OPTF_NONE ? " or none" : "");
		break;
	case OPT_PCT:
		snprintf(buf, len, "percentage above 0, up to %llu%%%s", d->max,
			 d->flags & OPTF_NONE ? ", or none" : "");
		break;
	case OPT_BOOL:
		snprintf(buf, len, "yes|no");
		break;
	case OPT_STR:
		snprintf(buf, len, "text");
		break;
	case OPT_ENUM: {
		size_t o = 0;
		buf[0] = '\0';
		for (const char *const *c = d->choices; *c && o < len; c++)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", c == d->choices ? "" : "|", *c);
		break;
	}
	case OPT_LIST:
		snprintf(buf, len, "list of integers %llu..%llu (1,2,4 or 1-8 or 1-64:x2)", d->min, d->max);
		break;
	}
}

int option_parse_number(const char *val, double *v, const char **rest, struct strbuf *err)
{
	char *end;

	errno = 0;
	*v = strtod(val, &end);
	if (end == val || errno || !isfinite(*v) || (!rest && *end) || isspace((unsigned char)*val)) {
		strbuf_addf(err, "'%s' is not a number", val);
		return -1;
	}
	if (rest)
		*rest = end;
	return 0;
}

int option_parse(const struct option_def *d, const char *val, void *dst, struct strbuf *err)
{
	char tbuf[128];

	switch (d->type) {
	case OPT_UINT: {
		unsigned long long v;
		if (!strcmp(val, "inherit") && d->def && !strcmp(d->def, "inherit")) {
			*(unsigned long long *)dst = LB_INHERIT;
			return 0;
		}
		if ((d->flags & OPTF_AUTO) && !strcmp(val, "auto")) {
			*(unsigned long long *)dst = LB_AUTO;
			return 0;
		}
		if (parse_ull(val, &v)) {
			strbuf_addf(err, "'%s' is not a whole number", val);
			return -1;
		}
		if (v < d->min || (d->max && v > d->max)) {
			strbuf_addf(err, "%llu is out of range (%llu..%llu)", v, d->min, d->max);
			return -1;
		}
		*(unsigned long long *)dst = v;
		return 0;
	}
	case OPT_SIZE: {
		uint64_t v;
		if ((d->flags & OPTF_NONE) && !strcasecmp(val, "none")) {
			*(uint64_t *)dst = 0;
			return 0;
		}
		if ((d->flags & OPTF_AUTO) && !strcmp(val, "auto")) {
			*(uint64_t *)dst = LB_SIZE_AUTO;
			return 0;
		}
		if (parse_size(val, &v)) {
			strbuf_addf(err, "'%s' is not a size (e.g. 4096, 64K, 256M, 1G%s)", val,
				    d->flags & OPTF_NONE ? ", none" : "");
			return -1;
		}
		if (v < d->min || (d->max && v > d->max)) {
			char a[32], b[32];
			format_size(d->min, a, sizeof(a));
			format_size(d->max, b, sizeof(b));
			strbuf_addf(err, "%s is out of range (%s..%s)", val, a, b);
			return -1;
		}
		*(uint64_t *)dst = v;
		return 0;
	}
	case OPT_TIME: {
		double v;
		if ((d->flags & OPTF_NONE) && !strcasecmp(val, "none")) {
			*(double *)dst = 0;
			return 0;
		}
		if (parse_seconds(val, &v)) {
			strbuf_addf(err, "'%s' is not a time (e.g. 30, 30s, 2m, 500ms)", val);
			return -1;
		}
		if (v < (double)d->min || (d->max && v > (double)d->max) || v <= 0) {
			strbuf_addf(err, "%s is out of range (%llus..%llus)", val, d->min, d->max);
			return -1;
		}
		*(double *)dst = v;
		return 0;
	}
	case OPT_PCT: {
		struct strbuf ignored = STRBUF_INIT;
		const char *end;
		double v;
		int bad;

		if ((d->flags & OPTF_NONE) && !strcasecmp(val, "none")) {
			*(double *)dst = 0;
			return 0;
		}
		bad = option_parse_number(val, &v, &end, &ignored) || (*end && strcmp(end, "%"));
		strbuf_release(&ignored);
		if (bad) {
			strbuf_addf(err, "'%s' is not a percentage (e.g. 2%% or 0.5%%)", val);
			return -1;
		}
		if (!(v > 0) || v > (double)d->max) {
			strbuf_addf(err, "%s is out of range (above 0%%, up to %llu%%%s)", val, d->max,
				    d->flags & OPTF_NONE ? ", or none" : "");
			return -1;
		}
		*(double *)dst = v;
		return 0;
	}
	case OPT_BOOL:
		if (in_list(bool_true, val))
			*(bool *)dst = true;
		else if (in_list(bool_false, val))
			*(bool *)dst = false;
		else {
			strbuf_addf(err, "'%s' is not yes or no", val);
			return -1;
		}
		return 0;
	case OPT_STR:
		/* "workdir =" is a mistake, not a wish for the current folder; a key
		 * whose default is empty (kernbench.sha256) may be empty */
		if (!*val && d->def && *d->def) {
			strbuf_addf(err, "empty value (the default is '%s': remove the line to keep it)",
				    d->def);
			return -1;
		}
		if (d->choices && !in_list(d->choices, val)) {
			option_describe_type(&(struct option_def){ .type = OPT_ENUM, .choices = d->choices },
					     tbuf, sizeof(tbuf));
			strbuf_addf(err, "'%s' is not one of %s", val, tbuf);
			return -1;
		}
		free(*(char **)dst);
		*(char **)dst = xstrdup(val);
		return 0;
	case OPT_ENUM:
		for (int i = 0; d->choices[i]; i++) {
			if (!strcmp(d->choices[i], val)) {
				*(int *)dst = i;
				return 0;
			}
		}
		option_describe_type(d, tbuf, sizeof(tbuf));
		strbuf_addf(err, "'%s' is not one of %s", val, tbuf);
		return -1;
	case OPT_LIST: {
		struct ull_list *l = dst;
		if (parse_ull_list(val, l->v, LB_LIST_MAX, &l->n)) {
			strbuf_addf(err, "'%s' is not a list of whole numbers (e.g. 1,2,4 or 1-8 or 1-64:x2, "
				    "at most %d entries)", val, LB_LIST_MAX);
			l->n = 0;
			return -1;
		}
		for (size_t i = 0; i < l->n; i++) {
			if (l->v[i] < d->min || (d->max && l->v[i] > d->max)) {
				strbuf_addf(err, "%llu is out of range (%llu..%llu)", l->v[i], d->min, d->max);
				l->n = 0;
				return -1;
			}
			/* each entry is an op: "1,1,1" would run one op three times
			 * under one name */
			for (size_t j = 0; j < i; j++)
				if (l->v[j] == l->v[i]) {
					strbuf_addf(err, "'%s' lists %llu twice (each entry once)", val,
						    l->v[i]);
					l->n = 0;
					return -1;
				}
		}
		return 0;
	}
	}
	strbuf_addstr(err, "unknown option type");
	return -1;
}

void options_free(const struct option_def *defs, void *base)
{
	for (size_t i = 0; defs && defs[i].name; i++) {
		if (defs[i].type == OPT_STR) {
			char **p = (char **)((char *)base + defs[i].offset);
			free(*p);
			*p = NULL;
		}
	}
}

int config_expand_cpus(const char *val, int cpus, struct strbuf *out, struct strbuf *err)
{
	const char *p = val;
	bool any = false;

	if (!strstr(val, "cpus"))
		return 0;
	if (cpus < 1)
		cpus = 1;
	strbuf_reset(out);
	while (*p) {
		unsigned long long mul = 1, div = 1, v;
		const char *q = p;
		char *end;

		if (isdigit((unsigned char)*p)) {
			v = strtoull(p, &end, 10);
			if (strncmp(end, "*cpus", 5)) {
				if (!strncmp(end, "cpus", 4)) {
					strbuf_addf(err, "'%s': write cpus as cpus, N*cpus or cpus/N", val);
					return -1;
				}
				strbuf_add(out, p, (size_t)(end - p));
				p = end;
				continue;
			}
			mul = v;
			q = end + 1;
		}
		if (strncmp(q, "cpus", 4)) {
			strbuf_add(out, p++, 1);
			continue;
		}
		q += 4;
		if (*q == '/') {
			if (!isdigit((unsigned char)q[1]) || !(div = strtoull(q + 1, &end, 10))) {
				strbuf_addf(err, "'%s': cpus/N needs a whole number N >= 1", val);
				return -1;
			}
			q = end;
		}
		if (isalnum((unsigned char)*q) || *q == '*') {
			strbuf_addf(err, "'%s': write cpus as cpus, N*cpus or cpus/N", val);
			return -1;
		}
		v = mul * (unsigned long long)cpus / div;
		strbuf_addf(out, "%llu", v ? v : 1);
		any = true;
		p = q;
	}
	if (!any) {
		strbuf_addf(err, "'%s': write cpus as cpus, N*cpus or cpus/N", val);
		return -1;
	}
	return 1;
}

/* Parse val into a key, expanding "cpus" for integers and lists; *given
 * keeps val when it was expanded (else NULL), *text the effective value. */
static int parse_value(const struct config *cfg, const struct option_def *d, const char *val,
		       void *dst, char **given, char **text, struct strbuf *err)
{
	struct strbuf x = STRBUF_INIT;
	int r = 0;

	if (d->type == OPT_UINT || d->type == OPT_LIST)
		r = config_expand_cpus(val, cfg->cpus, &x, err);
	if (r >= 0 && !option_parse(d, r ? x.buf : val, dst, err)) {
		free(*given);
		*given = r ? xstrdup(val) : NULL;
		free(*text);
		*text = xstrdup(r ? x.buf : val);
		r = 0;
	} else {
		r = -1;
	}
	strbuf_release(&x);
	return r;
}

static void default_text(const struct option_def *d, const struct sizing *sz, bool quick,
			 char *buf, size_t len)
{
	static const struct sizing zero;

	if (quick && d->quick)
		snprintf(buf, len, "%s", d->quick);
	else if (d->def_fn)
		d->def_fn(sz ? sz : &zero, buf, len);
	else
		snprintf(buf, len, "%s", d->def ? d->def : "");
}

static int section_add(struct config *cfg, const char *name, const struct option_def *defs,
		       size_t size, bool common, const struct sizing *sz, struct strbuf *err)
{
	struct config_section *s;
	size_t n = ndefs(defs);

	cfg->sec = xrealloc(cfg->sec, (cfg->nsec + 1) * sizeof(*cfg->sec));
	s = &cfg->sec[cfg->nsec++];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->defs = defs;
	s->size = size;
	s->base = xcalloc(1, size ? size : 1);
	s->text = xcalloc(n + 1, sizeof(char *));
	s->origin = xcalloc(n + 1, sizeof(char *));
	s->given = xcalloc(n + 1, sizeof(char *));
	s->common = common;
	s->enabled = !strcmp(name, "global");
	for (size_t i = 0; i < n; i++) {
		char buf[256];
		struct strbuf e = STRBUF_INIT;

		default_text(&defs[i], sz, cfg->quick, buf, sizeof(buf));
		s->text[i] = xstrdup(buf);
		s->origin[i] = xstrdup(cfg->quick && defs[i].quick ? "--quick" : "default");
		if (option_parse(&defs[i], buf, (char *)s->base + defs[i].offset, &e)) {
			/* a bug in a table, not a user error: say exactly which */
			strbuf_addf(err, "built-in default %s.%s = '%s': %s", name, defs[i].name, buf,
				    strbuf_str(&e));
			strbuf_release(&e);
			return -1;
		}
		strbuf_release(&e);
	}
	return 0;
}

int config_init(struct config *cfg, const struct sizing *sz, bool quick)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->quick = quick;
	cfg->cpus = sz && sz->node_cpus > 0 ? sz->node_cpus : 1;
	strbuf_init(&cfg->files);
	if (section_add(cfg, "global", global_options, sizeof(struct global_opts), false, sz, &err))
		ret = -1;
	for (size_t i = 0; !ret && workloads[i]; i++) {
		if (section_add(cfg, workloads[i]->name, workloads[i]->options, workloads[i]->opts_size,
				false, sz, &err) ||
		    section_add(cfg, workloads[i]->name, wl_common_options,
				sizeof(struct wl_common_opts), true, sz, &err))
			ret = -1;
	}
	if (!ret && section_add(cfg, "vm", vm_options, sizeof(struct vm_opts), false, sz, &err))
		ret = -1;
	if (ret)
		error("%s", strbuf_str(&err));
	else
		memcpy(&cfg->g, cfg->sec[0].base, sizeof(cfg->g));
	strbuf_release(&err);
	return ret;
}

/* Keep cfg->g in step with the global section's struct (the struct owns strings). */
static void sync_global(struct config *cfg)
{
	memcpy(&cfg->g, cfg->sec[0].base, sizeof(cfg->g));
}

void config_resize(struct config *cfg, const struct sizing *sz)
{
	cfg->cpus = sz->node_cpus > 0 ? sz->node_cpus : 1;
	for (size_t s = 0; s < cfg->nsec; s++) {
		struct config_section *sec = &cfg->sec[s];
		for (size_t i = 0; sec->defs[i].name; i++) {
			const struct option_def *d = &sec->defs[i];
			char buf[256];
			struct strbuf e = STRBUF_INIT;

			if (sec->given[i]) {
				/* accepted once already: it cannot fail for another count */
				char *given = xstrdup(sec->given[i]);
				parse_value(cfg, d, given, (char *)sec->base + d->offset, &sec->given[i],
					    &sec->text[i], &e);
				free(given);
				strbuf_release(&e);
				continue;
			}
			if (!d->def_fn || strcmp(sec->origin[i], "default"))
				continue;
			d->def_fn(sz, buf, sizeof(buf));
			if (!option_parse(d, buf, (char *)sec->base + d->offset, &e)) {
				free(sec->text[i]);
				sec->text[i] = xstrdup(buf);
			}
			strbuf_release(&e);
		}
	}
	sync_global(cfg);
}

struct config_section *config_find_section(struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nsec; i++)
		if (!cfg->sec[i].common && !strcmp(cfg->sec[i].name, name))
			return &cfg->sec[i];
	return NULL;
}

void *config_section(struct config *cfg, const char *name)
{
	struct config_section *s = config_find_section(cfg, name);

	return s ? s->base : NULL;
}

struct wl_common_opts *config_common(struct config *cfg, const char *workload)
{
	for (size_t i = 0; i < cfg->nsec; i++)
		if (cfg->sec[i].common && !strcmp(cfg->sec[i].name, workload))
			return cfg->sec[i].base;
	return NULL;
}

int config_set_value(struct config *cfg, const char *secname, const char *key,
		     const char *val, const char *origin, struct strbuf *err)
{
	bool known_section = false;

	if (!strcmp(secname, "settings"))
		return config_setting_set(cfg, key, val, origin, err);
	for (size_t s = 0; s < cfg->nsec; s++) {
		struct config_section *sec = &cfg->sec[s];

		if (strcmp(sec->name, secname))
			continue;
		known_section = true;
		for (size_t i = 0; sec->defs[i].name; i++) {
			struct strbuf e = STRBUF_INIT;

			if (strcmp(sec->defs[i].name, key))
				continue;
			if (parse_value(cfg, &sec->defs[i], val, (char *)sec->base + sec->defs[i].offset,
					&sec->given[i], &sec->text[i], &e)) {
				strbuf_addf(err, "%s: %s.%s: %s", origin, secname, key, strbuf_str(&e));
				strbuf_release(&e);
				return -1;
			}
			strbuf_release(&e);
			free(sec->origin[i]);
			sec->origin[i] = xstrdup(origin);
			if (s == 0)
				sync_global(cfg);
			return 0;
		}
	}
	if (!known_section) {
		strbuf_addf(err, "%s: unknown section [%s] (sections: global", origin, secname);
		for (size_t i = 0; workloads[i]; i++)
			strbuf_addf(err, ", %s", workloads[i]->name);
		strbuf_addstr(err, ", vm, settings)");
	} else {
		strbuf_addf(err, "%s: unknown key '%s' in [%s] (see 'lrubench list %s')", origin, key,
			    secname, strcmp(secname, "global") ? secname : "");
	}
	return -1;
}

int config_set(struct config *cfg, const char *assignment, struct strbuf *err)
{
	return config_set_from(cfg, assignment, NULL, err);
}

int config_set_from(struct config *cfg, const char *assignment, const char *from,
		    struct strbuf *err)
{
	const char *eq = strchr(assignment, '='), *dot = strchr(assignment, '.');
	char *sec, *key, *origin;
	int ret;

	if (!eq || !dot || dot > eq || dot == assignment || dot + 1 == eq) {
		strbuf_addf(err, "--set '%s': expected SECTION.KEY=VALUE, e.g. readtwice.memcgs=1,2,4",
			    assignment);
		return -1;
	}
	sec = xstrndup(assignment, (size_t)(dot - assignment));
	key = xstrndup(dot + 1, (size_t)(eq - dot - 1));
	origin = from ? xstrdup(from) : xasprintf("--set %s", assignment);
	ret = config_set_value(cfg, sec, key, eq + 1, origin, err);
	free(sec);
	free(key);
	free(origin);
	return ret;
}

const char *config_origin(struct config *cfg, const char *secname, const char *key)
{
	for (size_t s = 0; s < cfg->nsec; s++)
		for (size_t i = 0; !strcmp(cfg->sec[s].name, secname) && cfg->sec[s].defs[i].name; i++)
			if (!strcmp(cfg->sec[s].defs[i].name, key))
				return cfg->sec[s].origin[i];
	return NULL;
}

/* ---- INI files through libinih, with our own line counter ---- */

struct ini_state {
	struct config *cfg;
	const char *path;
	const char *text, *pos, *end;   /* the whole file, read by read_regular_file */
	int line;
	struct strbuf *err;
	int failed;
	bool indented;                  /* the current line starts with white space */
	struct strlist keys;            /* "section.key" of every key set ... */
	struct strmap seen;             /* ... -> the line that set it */
};

/*
 * fgets() over the file's text in memory, except that a line never gets
 * split: libinih's buffer holds num - 1 characters, and fgets() would hand
 * the rest of a longer line over as a line of its own (a long comment could
 * then set a key). Such a line, or a NUL byte, is an error naming the line.
 */
static char *cfg_ini_reader(char *str, int num, void *stream)
{
	struct ini_state *st = stream;
	const char *nl;
	size_t n, content;

	if (st->failed || st->pos >= st->end || num < 2)
		return NULL;
	nl = memchr(st->pos, '\n', (size_t)(st->end - st->pos));
	n = (size_t)((nl ? nl + 1 : st->end) - st->pos);
	content = nl ? n - 1 : n;
	st->line++;
	if (memchr(st->pos, '\0', n)) {
		strbuf_addf(st->err, "%s:%d: a NUL byte in the line (not a text file?)", st->path,
			    st->line);
		st->failed = 1;
		return NULL;
	}
	if (content > (size_t)num - 1) {
		strbuf_addf(st->err, "%s:%d: the line is %zu characters long; config lines hold at "
			    "most %d", st->path, st->line, content, num - 1);
		st->failed = 1;
		return NULL;
	}
	if (n > (size_t)num - 1)
		n = content;   /* the newline does not fit: inih needs none */
	memcpy(str, st->pos, n);
	str[n] = '\0';
	st->pos = nl ? nl + 1 : st->end;
	st->indented = n && (str[0] == ' ' || str[0] == '\t');
	return str;
}

/* A key set twice in a section is a mistake (which one counts?): an error
 * naming both lines. inih reads an indented line after a key as more of
 * that key's value: said as such. */
static int check_duplicate(struct ini_state *st, const char *section, const char *name)
{
	char *k = xasprintf("%s.%s", section, name);
	size_t first;
	int ret = 0;

	if (strmap_get(&st->seen, k, &first)) {
		if (st->indented)
			strbuf_addf(st->err, "%s:%d: this indented line continues '%s' of line %zu "
				    "(remove the indentation: one line per key)", st->path, st->line,
				    name, first);
		else
			strbuf_addf(st->err, "%s:%d: '%s' is set twice in [%s] (first at line %zu)",
				    st->path, st->line, name, section, first);
		ret = -1;
	} else {
		strlist_push(&st->keys, k);
		strmap_put(&st->seen, st->keys.v[st->keys.n - 1], (size_t)st->line);
	}
	free(k);
	return ret;
}

static int cfg_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	struct ini_state *st = user;
	char *origin, *val, *hash;
	int ret;

	if (st->failed)
		return 1;
	val = xstrdup(value ? value : "");
	/* '#' starts a comment after whitespace too, as ';' does in inih */
	for (hash = val; (hash = strchr(hash, '#')); hash++) {
		if (hash == val || isspace((unsigned char)hash[-1])) {
			*hash = '\0';
			break;
		}
	}
	for (char *e = val + strlen(val); e > val && isspace((unsigned char)e[-1]); )
		*--e = '\0';
	origin = xasprintf("%s:%d", st->path, st->line);
	if (!*section) {
		strbuf_addf(st->err, "%s: key '%s' outside of any [section]", origin, name);
		ret = -1;
	} else if (check_duplicate(st, section, name)) {
		ret = -1;
	} else {
		ret = config_set_value(st->cfg, section, name, val, origin, st->err);
	}
	free(origin);
	free(val);
	if (ret) {
		st->failed = 1;
		return 0;
	}
	return 1;
}

int config_load_file(struct config *cfg, const char *path, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	size_t len;
	char *text;
	int r;

	/* a regular file of at most 1 MiB: -c /dev/zero or a FIFO is an error at once */
	text = read_regular_file(path, CONFIG_FILE_MAX, 0, &len, &why);
	if (!text) {
		/* "cannot read PATH: why" -> "cannot read config file PATH: why" */
		strbuf_addf(err, "cannot read config file %s", strbuf_str(&why) + strlen("cannot read "));
		strbuf_release(&why);
		return -1;
	}
	r = config_load_text(cfg, path, text, len, err);
	free(text);
	return r;
}

int config_load_text(struct config *cfg, const char *path, const char *text, size_t len,
		     struct strbuf *err)
{
	struct ini_state st = { cfg, path, text, text, text + len, 0, err, 0, false,
				STRLIST_INIT, STRMAP_INIT };
	int r;

	r = ini_parse_stream(cfg_ini_reader, &st, cfg_ini_handler, &st);
	strmap_release(&st.seen);
	strlist_release(&st.keys);
	if (st.failed)
		return -1;
	if (r > 0) {
		strbuf_addf(err, "%s:%d: cannot parse this line (expected [section] or key = value)", path, r);
		return -1;
	}
	if (r < 0) {
		strbuf_addf(err, "cannot read config file %s", path);
		return -1;
	}
	strbuf_addf(&cfg->files, "%s%s", cfg->files.len ? "," : "", path);
	return 0;
}

json_object *config_to_json(const struct config *cfg)
{
	json_object *root = json_object_new_object();

	for (size_t s = 0; s < cfg->nsec; s++) {
		const struct config_section *sec = &cfg->sec[s];
		json_object *o;

		if (!sec->enabled && !(sec->common &&
					config_find_section((struct config *)cfg, sec->name)->enabled))
			continue;
		if (!json_object_object_get_ex(root, sec->name, &o)) {
			o = json_object_new_object();
			json_object_object_add(root, sec->name, o);
		}
		for (size_t i = 0; sec->defs[i].name; i++)
			json_object_object_add(o, sec->defs[i].name, json_object_new_string(sec->text[i]));
	}
	/* [settings] only when there are some: the configs of older labels, and
	 * of runs without, stay as they were */
	if (cfg->nsettings)
		json_object_object_add(root, "settings", config_settings_json(cfg));
	return root;
}

void config_release(struct config *cfg)
{
	for (size_t s = 0; s < cfg->nsec; s++) {
		struct config_section *sec = &cfg->sec[s];

		options_free(sec->defs, sec->base);
		for (size_t i = 0; sec->defs[i].name; i++) {
			free(sec->text[i]);
			free(sec->origin[i]);
			free(sec->given[i]);
		}
		free(sec->text);
		free(sec->origin);
		free(sec->given);
		free(sec->base);
	}
	free(cfg->sec);
	config_settings_release(cfg);
	strbuf_release(&cfg->files);
	memset(cfg, 0, sizeof(*cfg));
}
