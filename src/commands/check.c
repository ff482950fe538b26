// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench check: what this machine supports, and which workloads can run
 * here, each with the reason when not (the same probes `run` uses).
 * Exit 0 when every workload can run, 3 otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands/commands.h"
#include "core/cleanup.h"
#include "core/parse_options.h"
#include "core/numa.h"
#include "core/path.h"
#include "vm/kvm_probe.h"
#include "core/workload.h"
#include "profile/caps.h"
#include "profile/reclaim_latency.h"

static const struct popt check_options[] = {
	POPT_END(),
};

const struct popt_command check_command = {
	"check", "",
	"What this machine supports (memory cgroup mode, NUMA nodes, THP, loop devices,\n"
	"mkfs, gnuplot, qemu, KVM, root) and which workloads can run here, each with\n"
	"the reason when not: the probes 'lrubench run' makes. Exit 0 when every\n"
	"workload can run, 3 otherwise.",
	check_options,
};

static void line(const char *what, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void line(const char *what, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("  %-22s %-4s ", what, ok ? "yes" : "no");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* found by the same PATH search as the commands that run it */
static void program_line(const char *what, const char *prog, const char *install)
{
	bool ok = program_in_path(prog);

	line(what, ok, "%s", ok ? "" : install);
}

/* profile=reclaim: the pairs it will trace, and those this kernel lacks */
static void check_reclaim_line(const char *what, const struct profile_caps *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (unsigned i = 0; i < RL_NPAIRS; i++)
		if (c->reclaim_pairs & (1u << i))
			strbuf_addf(&sb, "%s%s", sb.len ? ", " : "stall latencies of ", rl_pairs[i].name);
	if (c->reclaim_why.len)
		strbuf_addf(&sb, "; %s", c->reclaim_why.buf);
	line(what, true, "%s", sb.buf);
	strbuf_release(&sb);
}

/* What [global] profile can use here (profile/caps.h), each "no" with its reason. */
static void check_profiling(void)
{
	struct profile_caps c;
	struct strbuf why = STRBUF_INIT;
	bool via_perf;

	profile_caps_probe(&c);
	printf("profiling (--profile; the CPU split and reclaim counters need none of it):\n");
	if (c.perf_ok)
		line("perf", true, "%s (%s)", c.perf_version, c.perf);
	else
		line("perf", false, "%s", c.perf_why.buf);
	if (c.tracefs)
		line("tracefs", true, "mounted at %s", c.tracefs);
	else if (c.tracefs_ok)
		line("tracefs", true, "not mounted; mountable: a run mounts it in its own mount namespace "
		     "and unmounts it at the end");
	else
		line("tracefs", false, "%s", c.tracefs_why.buf);
	line("lock tracepoints", c.tracepoints, "%s", c.tracepoints ? "lock:contention_begin/end"
							       : c.tracepoints_why.buf);
	if (c.paranoid_ok)
		line("perf_event_paranoid", true, "%d%s", c.paranoid, c.root ? " (no limit for root)" : "");
	else
		line("perf_event_paranoid", false, "%s", c.paranoid_why.buf);
	line("lock_stat", c.lock_stat, "%s", c.lock_stat ? "/proc/lock_stat (CONFIG_LOCK_STAT)"
						      : c.lock_stat_why.buf);
	for (int k = PROFILE_LOCK; k <= PROFILE_C2C; k++) {
		char what[32];
		int r;

		strbuf_reset(&why);
		r = profile_caps_allow(&c, (enum profile_kind)k, &via_perf, &why);
		snprintf(what, sizeof(what), "profile=%s", profile_kind_names[k]);
		if (r)
			line(what, false, "%s", why.buf);
		else if (k == PROFILE_CPU)
			line(what, true, "perf record -a");
		else if (k == PROFILE_COUNTERS)
			line(what, true, "perf stat -a of %s", c.counters_events);
		else if (k == PROFILE_RECLAIM)
			check_reclaim_line(what, &c);
		else if (k == PROFILE_C2C)
			line(what, true, "perf c2c record -a on the %s PMU (HITMs per data address and "
			     "symbol)", c.c2c_pmu);
		else
			line(what, true, "lock contention from %s", via_perf ? "perf lock (tracepoints)"
								     : "/proc/lock_stat");
	}
	strbuf_release(&why);
	profile_caps_release(&c);
}

int cmd_check(int argc, char **argv)
{
	struct sys_facts si;
	struct cg_env cg;
	struct strbuf err = STRBUF_INIT;
	struct config cfg;
	struct run_env env;
	int nodes[LB_MAX_NODES], nn, missing = 0;
	bool loop;
	int n = parse_options(&check_command, argc, argv);

	if (n < 0)
		return popt_exit(n);
	if (n > 0)
		return popt_usage_error(&check_command, "'lrubench check' takes no arguments, not '%s'",
					argv[0]);
	memset(&si, 0, sizeof(si));
	memset(&cg, 0, sizeof(cg));
	memset(&env, 0, sizeof(env));
	sysinfo_collect(&si);
	printf("kernel %s, %d CPUs, %llu MiB\n", si.kernel_release, si.nr_cpus,
	       (unsigned long long)si.mem_total_kb / 1024);
	printf("machine:\n");
	if (cg_discover(&cg, "/proc/mounts", "", &err)) {
		line("memory cgroup", false, "%s", strbuf_str(&err));
		cg.mode = CG_NONE;
	} else {
		line("memory cgroup", true, "cgroup %s at %s%s", cg_mode_name(cg.mode), cg.root,
		     cg.hybrid ? " (hybrid: cgroup2 is mounted too, without memory)" : "");
	}
	nn = numa_nodes("", nodes, LB_MAX_NODES);
	{
		struct strbuf l = STRBUF_INIT;
		for (int i = 0; i < nn; i++)
			strbuf_addf(&l, "%s%d", i ? "," : "", nodes[i]);
		line("NUMA nodes", nn > 0, "%d with memory: %s", nn, strbuf_str(&l));
		strbuf_release(&l);
	}
	line("THP", si.thp_enabled[0] != '\0', "enabled=%s defrag=%s",
	     si.thp_enabled[0] ? si.thp_enabled : "-", si.thp_defrag[0] ? si.thp_defrag : "-");
	loop = access("/dev/loop-control", F_OK) == 0;
	line("loop devices", loop, "%s", loop ? "/dev/loop-control" : "no /dev/loop-control (modprobe loop)");
	program_line("mkfs.ext4", "mkfs.ext4", "apt-get install e2fsprogs");
	program_line("mkfs.xfs", "mkfs.xfs", "apt-get install xfsprogs");
	program_line("gnuplot (plot)", "gnuplot", "apt-get install gnuplot-nox");
	program_line("qemu (VM mode)", "qemu-system-x86_64", "apt-get install qemu-system-x86");
	{
		/* /dev/kvm can exist and still not run guests at speed (nested
		 * virtualization here): ask a tiny guest, as VM mode does */
		struct strbuf why = STRBUF_INIT;
		int k = kvm_probe("/dev/kvm", 2.0, &why);
		line("KVM", k == 0, "%s", k == 0 ? "a test guest ran: VM mode uses KVM"
						 : strbuf_str(&why));
		if (k)
			printf("  %-22s      VM mode falls back to TCG (functional tests, not timings)\n", "");
		strbuf_release(&why);
	}
	line("root", geteuid() == 0, "%s", geteuid() == 0 ? "" : "run needs root");
	check_profiling();

	printf("workloads:\n");
	if (config_init(&cfg, &(struct sizing){ &si, si.nr_cpus, si.mem_total_kb * 1024 }, false)) {
		sysinfo_release(&si);
		cg_env_release(&cg);
		return LB_EXIT_FAIL;
	}
	env.sys = &si;
	env.cg = &cg;
	env.g = &cfg.g;
	numa_resolve("", "auto", &env.bind, &err);
	for (size_t w = 0; workloads[w] && !lb_stop_requested(); w++) {
		struct wl_ctx ctx = { .ops = workloads[w], .env = &env };
		int r = 0;

		ctx.opts = config_section(&cfg, workloads[w]->name);
		strbuf_reset(&err);
		if (workloads[w]->probe)
			r = workloads[w]->probe(&ctx, &err);
		line(workloads[w]->name, r == 0, "%s", r ? strbuf_str(&err) : workloads[w]->summary);
		if (r)
			missing++;
	}
	config_release(&cfg);
	cg_env_release(&cg);
	sysinfo_release(&si);
	strbuf_release(&err);
	return missing ? LB_EXIT_UNSUPPORTED : LB_EXIT_OK;
}
