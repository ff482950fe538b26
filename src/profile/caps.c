// SPDX-License-Identifier: GPL-2.0-or-later
/* What profiling this machine can do (caps.h). */
#include "profile/caps.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/child.h"
#include "core/path.h"
#include "profile/perf_c2c.h"
#include "profile/perf_stat.h"
#include "profile/reclaim_latency.h"
#include "profile/tracefs.h"

void perf_version_parse(const char *text, char *out, size_t len)
{
	const char *p = text ? strstr(text, "perf version ") : NULL;
	size_t n = 0;

	if (len)
		out[0] = '\0';
	if (!p || !len)
		return;
	p += 13;
	while (p[n] && p[n] != '\n' && p[n] != ' ' && n + 1 < len)
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* `perf version`, its output through a temporary file */
static void probe_perf(struct profile_caps *c)
{
	char tmp[] = "/tmp/lrubench-perf-version.XXXXXX";
	const char *argv[] = { NULL, "version", NULL };
	struct child ch;
	int fd, code;
	char *text;

	c->perf = find_in_path("perf");
	if (!c->perf) {
		strbuf_addstr(&c->perf_why, "no perf in PATH (apt-get install linux-perf)");
		return;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		strbuf_addf(&c->perf_why, "cannot make a temporary file: %s", strerror(errno));
		return;
	}
	close(fd);
	argv[0] = c->perf;
	memset(&ch, 0, sizeof(ch));
	ch.argv = argv;
	ch.out_path = tmp;
	ch.name = "perf version";
	code = child_run(&ch, 20.0);
	text = read_file_str(tmp, NULL);
	unlink(tmp);
	perf_version_parse(text, c->perf_version, sizeof(c->perf_version));
	if (code == 0 && c->perf_version[0]) {
		c->perf_ok = true;
	} else {
		char d[96];

		if (code < 0)
			snprintf(d, sizeof(d), "could not run");
		else
			child_describe_code(code, d, sizeof(d));
		strbuf_addf(&c->perf_why, "'%s version' %s%s%.120s", c->perf, d,
			    text && *text ? ": " : "", text ? text : "");
		while (c->perf_why.len && c->perf_why.buf[c->perf_why.len - 1] == '\n')
			c->perf_why.buf[--c->perf_why.len] = '\0';
	}
	free(text);
}

static void probe_tracefs(struct profile_caps *c)
{
	c->tracefs = tracefs_find("/proc/mounts");
	if (c->tracefs) {
		c->tracefs_ok = true;
		if (tracefs_has_event(c->tracefs, "lock", "contention_begin") &&
		    tracefs_has_event(c->tracefs, "lock", "contention_end"))
			c->tracepoints = true;
		else
			strbuf_addf(&c->tracepoints_why, "no lock:contention_begin/end under %s/events "
				    "(the tracepoints came with Linux 5.19)", c->tracefs);
		return;
	}
	if (!c->root) {
		strbuf_addstr(&c->tracefs_why, "not mounted, and mounting it needs root");
		strbuf_addstr(&c->tracepoints_why, "tracefs is not available");
		return;
	}
	switch (tracefs_probe_mount("lock", "contention_begin", &c->tracefs_why)) {
	case 0:
		c->tracefs_ok = c->tracepoints = true;
		break;
	case 2:
		c->tracefs_ok = true;
		strbuf_addf(&c->tracepoints_why, "%s (the tracepoints came with Linux 5.19)",
			    c->tracefs_why.buf);
		strbuf_reset(&c->tracefs_why);
		break;
	default:
		strbuf_addstr(&c->tracepoints_why, "tracefs cannot be mounted");
		break;
	}
}

/* A hardware PMU: can this process count its own instructions? A VM
 * without a virtual PMU (or a kernel without its driver) answers ENOENT,
 * EOPNOTSUPP or ENODEV, as `perf stat -e instructions` says "not
 * supported". LRUBENCH_COUNTERS_EVENTS (the tests, with software events)
 * takes the place of the default hardware events for profile=counters; it
 * does not make profile=c2c possible. LRUBENCH_C2C_PMU=NAME does, for the
 * test of the c2c pass (tests/integration/profile.sh), whose perf wrapper
 * records with cpu-clock and reports a fixture: nothing here samples memory
 * accesses. */
static void probe_pmu(struct profile_caps *c)
{
	struct perf_event_attr a;
	const char *ev = getenv("LRUBENCH_COUNTERS_EVENTS");
	bool override = ev && *ev;
	long fd;

	c->counters_events = override ? ev : PERF_STAT_EVENTS;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0) {
		close((int)fd);
		c->hw_pmu = true;
	} else {
		strbuf_addf(&c->hw_pmu_why, "not available: no hardware PMU (perf_event_open of the "
			    "instructions counter: %s)", strerror(errno));
		strbuf_addstr(&c->c2c_why, c->hw_pmu_why.buf);
	}
	if (c->hw_pmu) {
		c->c2c = perf_c2c_mem_pmu("/sys/bus/event_source/devices", c->c2c_pmu,
					  sizeof(c->c2c_pmu));
		if (!c->c2c)
			strbuf_addstr(&c->c2c_why, "not available: the PMU does not sample memory "
				      "accesses (no events/mem-loads, ibs_op or arm_spe under "
				      "/sys/bus/event_source/devices)");
	}
	if (override) {
		c->hw_pmu = true;
		strbuf_reset(&c->hw_pmu_why);
	}
	ev = getenv("LRUBENCH_C2C_PMU");
	if (ev && *ev) {
		c->c2c = true;
		snprintf(c->c2c_pmu, sizeof(c->c2c_pmu), "%s", ev);
		strbuf_reset(&c->c2c_why);
	}
}

static void probe_paranoid(struct profile_caps *c)
{
	char *t = read_file_str("/proc/sys/kernel/perf_event_paranoid", NULL);

	c->paranoid = -100;
	if (t)
		c->paranoid = atoi(t);
	free(t);
	if (c->root) {
		c->paranoid_ok = true;
	} else if (c->paranoid != -100 && c->paranoid <= -1) {
		c->paranoid_ok = true;
	} else {
		strbuf_addf(&c->paranoid_why, "system-wide tracepoints need root, or perf_event_paranoid "
			    "<= -1 (it is %d)", c->paranoid);
	}
}

void profile_caps_probe(struct profile_caps *c)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->perf_why);
	strbuf_init(&c->tracefs_why);
	strbuf_init(&c->tracepoints_why);
	strbuf_init(&c->paranoid_why);
	strbuf_init(&c->lock_stat_why);
	strbuf_init(&c->hw_pmu_why);
	strbuf_init(&c->c2c_why);
	strbuf_init(&c->reclaim_why);
	c->root = geteuid() == 0;
	probe_perf(c);
	probe_tracefs(c);
	if (c->tracefs)
		c->reclaim_pairs = rl_available(c->tracefs, &c->reclaim_why);
	else if (c->tracefs_ok)
		c->reclaim_pairs = rl_available_probe(&c->reclaim_why);
	probe_paranoid(c);
	c->lock_stat = access("/proc/lock_stat", R_OK) == 0;
	if (!c->lock_stat)
		strbuf_addf(&c->lock_stat_why, "no /proc/lock_stat (the kernel is built without "
			    "CONFIG_LOCK_STAT)");
	probe_pmu(c);
}

void profile_caps_release(struct profile_caps *c)
{
	free(c->perf);
	free(c->tracefs);
	strbuf_release(&c->perf_why);
	strbuf_release(&c->tracefs_why);
	strbuf_release(&c->tracepoints_why);
	strbuf_release(&c->paranoid_why);
	strbuf_release(&c->lock_stat_why);
	strbuf_release(&c->hw_pmu_why);
	strbuf_release(&c->c2c_why);
	strbuf_release(&c->reclaim_why);
	memset(c, 0, sizeof(*c));
}

/* A kind that needs perf and a hardware PMU part (counters, c2c): 0, or -1
 * with why, naming the kind, the perf tool it runs and what is missing. */
static int pmu_kind(const struct profile_caps *c, const char *kind, const char *tool, bool have,
		    const struct strbuf *have_why, struct strbuf *why)
{
	if (!c->perf_ok || !c->paranoid_ok) {
		strbuf_addf(why, "profile=%s needs %s: %s", kind, tool,
			    !c->perf_ok ? c->perf_why.buf : c->paranoid_why.buf);
		return -1;
	}
	if (!have) {
		strbuf_addf(why, "profile=%s is %s", kind, have_why->buf);
		return -1;
	}
	return 0;
}

int profile_caps_allow(const struct profile_caps *c, enum profile_kind kind, bool *lock_via_perf,
		       struct strbuf *why)
{
	bool lock = kind == PROFILE_LOCK || kind == PROFILE_ALL;
	bool cpu = kind == PROFILE_CPU || kind == PROFILE_ALL;
	bool perf_ready = c->perf_ok && c->paranoid_ok;

	*lock_via_perf = false;
	if (kind == PROFILE_RECLAIM) {
		/* a tracefs instance of our own: root, tracefs, and one pair at least */
		if (!c->root)
			strbuf_addstr(why, "profile=reclaim needs root (it makes a tracefs instance)");
		else if (!c->tracefs_ok)
			strbuf_addf(why, "profile=reclaim needs tracefs: %s", c->tracefs_why.buf);
		else if (!c->reclaim_pairs)
			strbuf_addf(why, "profile=reclaim: none of its tracepoints is on this kernel: %s",
				    c->reclaim_why.buf);
		else
			return 0;
		return -1;
	}
	if (kind == PROFILE_COUNTERS)
		return pmu_kind(c, "counters", "perf stat", c->hw_pmu, &c->hw_pmu_why, why);
	if (kind == PROFILE_C2C)
		return pmu_kind(c, "c2c", "perf c2c", c->c2c, &c->c2c_why, why);
	if (cpu && !perf_ready) {
		strbuf_addf(why, "profile=%s needs perf to sample CPUs: %s", profile_kind_names[kind],
			    !c->perf_ok ? c->perf_why.buf : c->paranoid_why.buf);
		return -1;
	}
	if (!lock)
		return 0;
	if (perf_ready && c->tracefs_ok && c->tracepoints) {
		*lock_via_perf = true;
		return 0;
	}
	if (c->lock_stat)
		return 0;
	strbuf_addf(why, "profile=%s: lock contention cannot be measured on this machine: ",
		    profile_kind_names[kind]);
	if (!c->perf_ok)
		strbuf_addstr(why, c->perf_why.buf);
	else if (!c->paranoid_ok)
		strbuf_addstr(why, c->paranoid_why.buf);
	else if (!c->tracefs_ok)
		strbuf_addf(why, "tracefs: %s", c->tracefs_why.buf);
	else
		strbuf_addf(why, "tracepoints: %s", c->tracepoints_why.buf);
	strbuf_addf(why, "; and %s", c->lock_stat_why.buf);
	return -1;
}
