// SPDX-License-Identifier: GPL-2.0-or-later
/* The state of the machine a run measured on; see host_state.h. */
#include "core/host_state.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/procfs.h"
#include "core/sysinfo.h"
#include "core/util.h"

#define BUSY_KEEP 5

const char *const host_vm_sysctls[] = {
	"swappiness", "min_free_kbytes", "watermark_scale_factor", "watermark_boost_factor",
	"vfs_cache_pressure", "dirty_ratio", "dirty_background_ratio", "dirty_bytes",
	"dirty_background_bytes", "dirty_expire_centisecs", "dirty_writeback_centisecs",
	"overcommit_memory", "page-cluster", "compaction_proactiveness", "extfrag_threshold",
	"percpu_pagelist_high_fraction", "nr_hugepages", "lowmem_reserve_ratio", NULL,
};

/* prefix + path, read and trimmed; NULL when absent. */
static char *read_trimmed(const char *prefix, const char *path)
{
	char *p = xasprintf("%s%s", prefix, path);
	char *s = read_file_str(p, NULL);
	size_t n;

	free(p);
	if (!s)
		return NULL;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	/* tabs between values (lowmem_reserve_ratio) read better as spaces */
	for (char *q = s; *q; q++)
		if (*q == '\t' || *q == '\n')
			*q = ' ';
	return s;
}

static void add_str(json_object *o, const char *key, const char *prefix, const char *path)
{
	char *s = read_trimmed(prefix, path);

	if (s)
		json_object_object_add(o, key, json_object_new_string(s));
	free(s);
}

static void add_selected(json_object *o, const char *key, const char *prefix, const char *path)
{
	char *s = read_trimmed(prefix, path);
	char sel[64];

	if (!s)
		return;
	sysfs_selected(s, sel, sizeof(sel));
	json_object_object_add(o, key, json_object_new_string(sel[0] ? sel : s));
	free(s);
}

json_object *host_parse_swaps(const char *text)
{
	json_object *arr = json_object_new_array();
	bool header = true;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char *line = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		char dev[4096], type[64];
		unsigned long long size, used;
		int prio;

		/* the first line is the header "Filename Type Size Used Priority" */
		if (!header && sscanf(line, "%4095s %63s %llu %llu %d", dev, type, &size, &used, &prio) == 5) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "device", json_object_new_string(dev));
			json_object_object_add(o, "type", json_object_new_string(type));
			json_object_object_add(o, "size_kb", json_object_new_int64((int64_t)size));
			json_object_object_add(o, "priority", json_object_new_int(prio));
			json_object_array_add(arr, o);
		}
		header = false;
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	return arr;
}

unsigned long long host_node_memtotal_kb(const char *text)
{
	const char *p = text ? strstr(text, "MemTotal:") : NULL;

	return p ? strtoull(p + strlen("MemTotal:"), NULL, 10) : 0;
}

struct proc_sample {
	pid_t pid;
	unsigned long long ticks;
	char comm[64];
};

static size_t sample_procs(const char *prefix, struct proc_sample **out)
{
	char *dir = xasprintf("%s/proc", prefix);
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, cap = 0;
	pid_t self = getpid();

	*out = NULL;
	free(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct proc_stat ps;
		struct proc_sample s;

		if (*end || pid <= 0 || pid == self)
			continue;
		if (!proc_stat_read(prefix, (pid_t)pid, &ps) && ps.ppid != self) {
			s.pid = (pid_t)pid;
			s.ticks = ps.ticks;
			snprintf(s.comm, sizeof(s.comm), "%s", ps.comm);
			ALLOC_GROW(*out, n + 1, cap);
			(*out)[n++] = s;
		}
	}
	closedir(d);
	return n;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_sample *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_ticks_desc(const void *a, const void *b)
{
	const struct proc_sample *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	return by_pid(a, b);
}

/* The processes that used the most CPU during sample_secs, busiest first. */
static json_object *busy_processes(const char *prefix, double secs)
{
	struct proc_sample *a, *b;
	size_t na = sample_procs(prefix, &a), nb, nd = 0;
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };
	double t0 = now_monotonic(), dt;
	long hz = sysconf(_SC_CLK_TCK);
	json_object *arr = json_object_new_array();

	nanosleep(&ts, NULL);
	nb = sample_procs(prefix, &b);
	dt = now_monotonic() - t0;
	qsort(a, na, sizeof(*a), by_pid);
	/* b becomes the deltas of the processes seen both times */
	for (size_t i = 0; i < nb; i++) {
		struct proc_sample key = { b[i].pid, 0, "" }, *old = bsearch(&key, a, na, sizeof(*a), by_pid);

		if (old && b[i].ticks > old->ticks) {
			b[nd] = b[i];
			b[nd++].ticks -= old->ticks;
		}
	}
	qsort(b, nd, sizeof(*b), by_ticks_desc);
	for (size_t i = 0; i < nd && i < BUSY_KEEP; i++) {
		json_object *o = json_object_new_object();
		double pct = hz > 0 && dt > 0 ? (double)b[i].ticks / (double)hz / dt * 100 : 0;

		json_object_object_add(o, "pid", json_object_new_int((int)b[i].pid));
		json_object_object_add(o, "comm", json_object_new_string(b[i].comm));
		json_object_object_add(o, "cpu_percent", json_object_new_double(round(pct * 10) / 10));
		json_object_array_add(arr, o);
	}
	free(a);
	free(b);
	return arr;
}

/* The governors in use, one each, in CPU order ("performance", "schedutil,powersave"). */
static void add_governors(json_object *o, const char *prefix)
{
	struct strlist seen = STRLIST_INIT;
	struct strbuf all = STRBUF_INIT;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	for (long c = 0; c < n && c < 4096; c++) {
		char path[96], *s;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
		s = read_trimmed(prefix, path);
		if (s && !strlist_has(&seen, s)) {
			strlist_push(&seen, s);
			strbuf_addf(&all, "%s%s", all.len ? "," : "", s);
		}
		free(s);
	}
	json_object_object_add(o, "cpufreq_governor", json_object_new_string(all.len ? all.buf : "absent"));
	strlist_release(&seen);
	strbuf_release(&all);
}

/* boost: the generic cpufreq knob, else intel_pstate's no_turbo (inverted) */
static void add_boost(json_object *o, const char *prefix)
{
	char *s = read_trimmed(prefix, "/sys/devices/system/cpu/cpufreq/boost");
	const char *v = "absent";

	if (s) {
		v = !strcmp(s, "1") ? "on" : "off";
	} else if ((s = read_trimmed(prefix, "/sys/devices/system/cpu/intel_pstate/no_turbo"))) {
		v = !strcmp(s, "1") ? "off" : "on";
	}
	json_object_object_add(o, "cpufreq_boost", json_object_new_string(v));
	free(s);
}

static void add_nodes(json_object *o, const char *prefix)
{
	char *dir = xasprintf("%s/sys/devices/system/node", prefix);
	DIR *d = opendir(dir);
	struct dirent *de;
	json_object *nodes = json_object_new_object();
	unsigned long long ids[1024];
	size_t n = 0;

	free(dir);
	while (d && (de = readdir(d)) && n < ARRAY_SIZE(ids)) {
		unsigned long long id;

		if (!strncmp(de->d_name, "node", 4) && !parse_ull(de->d_name + 4, &id))
			ids[n++] = id;
	}
	if (d)
		closedir(d);
	/* numeric order, so two runs write the same object */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			unsigned long long t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		char path[96], key[32], *text;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%llu/meminfo", ids[i]);
		snprintf(key, sizeof(key), "%llu", ids[i]);
		text = read_trimmed(prefix, path);
		json_object_object_add(nodes, key, json_object_new_int64((int64_t)host_node_memtotal_kb(text)));
		free(text);
	}
	json_object_object_add(o, "node_mem_kb", nodes);
}

/* prefix + dir + "/" + name as an unsigned number; -1 when absent or not one. */
static long long read_num(const char *prefix, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = read_trimmed(prefix, path);
	unsigned long long v;
	long long ret = s && !parse_ull(s, &v) && v <= (unsigned long long)LLONG_MAX ? (long long)v : -1;

	free(path);
	free(s);
	return ret;
}

/* DAMOS actions that take pages off, or move them on, the LRU lists */
static bool damos_moves_lru(const char *action)
{
	static const char *const moving[] = { "pageout", "lru_prio", "lru_deprio", "migrate_hot",
					      "migrate_cold", "hugepage", "nohugepage", NULL };

	for (size_t i = 0; moving[i]; i++)
		if (!strcmp(action, moving[i]))
			return true;
	return false;
}

/* One scheme of a running kdamond: "pageout of idle >= 12 x 5 s, 0-1 accesses; quota
 * 128 MiB per 1000 ms, 50 ms; ops_filters: anon reject, unmapped allow". */
static void damon_scheme(struct strbuf *sb, const char *prefix, const char *dir, long long aggr_us,
			 bool *moves)
{
	static const char *const filter_dirs[] = { "filters", "core_filters", "ops_filters", NULL };
	char *action = NULL, *sub;
	long long agemin, accmin, accmax, bytes, ms, reset;

	sub = xasprintf("%s/action", dir);
	action = read_trimmed(prefix, sub);
	free(sub);
	if (!action)
		return;
	if (damos_moves_lru(action))
		*moves = true;
	agemin = read_num(prefix, dir, "access_pattern/age/min");
	accmin = read_num(prefix, dir, "access_pattern/nr_accesses/min");
	accmax = read_num(prefix, dir, "access_pattern/nr_accesses/max");
	bytes = read_num(prefix, dir, "quotas/bytes");
	ms = read_num(prefix, dir, "quotas/ms");
	reset = read_num(prefix, dir, "quotas/reset_interval_ms");
	strbuf_addstr(sb, action);
	if (agemin > 0 && aggr_us > 0)
		strbuf_addf(sb, " of regions idle >= %lld x %lld ms", agemin, aggr_us / 1000);
	if (accmin >= 0 && accmax >= 0)
		strbuf_addf(sb, ", %lld-%lld accesses", accmin, accmax > 1000000 ? -1 : accmax);
	if (bytes > 0 || ms > 0) {
		strbuf_addstr(sb, "; quota");
		if (bytes > 0)
			strbuf_addf(sb, " %lld MiB", bytes >> 20);
		if (ms > 0)
			strbuf_addf(sb, "%s %lld ms", bytes > 0 ? "," : "", ms);
		if (reset > 0)
			strbuf_addf(sb, " per %lld ms", reset);
	}
	for (size_t d = 0; filter_dirs[d]; d++) {
		char *fdir = xasprintf("%s/%s", dir, filter_dirs[d]);
		long long n = read_num(prefix, fdir, "nr_filters");

		for (long long f = 0; f >= 0 && f < n && f < 16; f++) {
			char *one = xasprintf("%s/%lld", fdir, f);
			char *tp = xasprintf("%s/type", one), *mp = xasprintf("%s/matching", one);
			char *ap = xasprintf("%s/allow", one);
			char *type = read_trimmed(prefix, tp), *match = read_trimmed(prefix, mp);
			char *allow = read_trimmed(prefix, ap);

			if (f)
				strbuf_addstr(sb, ", ");
			else
				strbuf_addf(sb, "; %s: ", filter_dirs[d]);
			strbuf_addf(sb, "%s%s", match && !strcmp(match, "N") ? "not " : "", type ? type : "?");
			/* kernels before allow= had only filters that reject what they match */
			strbuf_addstr(sb, allow && !strcmp(allow, "Y") ? " allow" : " reject");
			free(one);
			free(tp);
			free(mp);
			free(ap);
			free(type);
			free(match);
			free(allow);
		}
		free(fdir);
	}
	free(action);
}

/*
 * DAMON's kdamonds (host."damon", host."damon_moves_lru"): a kdamond that
 * pages out cold memory reclaims page cache behind a workload's back, at
 * its own pace, and makes two runs of one kernel differ (issue 23); a run
 * records what was on, compare diffs it and warns. "absent": no DAMON
 * sysfs; "off": no kdamond running.
 */
static void add_damon(json_object *o, const char *prefix)
{
	const char *root = "/sys/kernel/mm/damon/admin/kdamonds";
	long long n = read_num(prefix, root, "nr_kdamonds");
	struct strbuf sb = STRBUF_INIT;
	bool moves = false;

	for (long long k = 0; k >= 0 && k < n && k < 64; k++) {
		char *kd = xasprintf("%s/%lld", root, k), *sp = xasprintf("%s/state", kd);
		char *state = read_trimmed(prefix, sp);
		char *cdir = xasprintf("%s/contexts", kd);
		long long nc = read_num(prefix, cdir, "nr_contexts");

		if (state && !strcmp(state, "on")) {
			strbuf_addf(&sb, "%skdamond %lld on", sb.len ? "; " : "", k);
			for (long long c = 0; c >= 0 && c < nc && c < 16; c++) {
				char *ctx = xasprintf("%s/%lld", cdir, c), *op = xasprintf("%s/operations", ctx);
				char *ops = read_trimmed(prefix, op), *sdir = xasprintf("%s/schemes", ctx);
				long long ns = read_num(prefix, sdir, "nr_schemes");
				long long aggr = read_num(prefix, ctx, "monitoring_attrs/intervals/aggr_us");

				strbuf_addf(&sb, " (%s", ops ? ops : "?");
				for (long long s = 0; s >= 0 && s < ns && s < 16; s++) {
					char *one = xasprintf("%s/%lld", sdir, s);

					strbuf_addstr(&sb, s ? " / " : ": ");
					damon_scheme(&sb, prefix, one, aggr, &moves);
					free(one);
				}
				strbuf_addstr(&sb, ")");
				free(ctx);
				free(op);
				free(ops);
				free(sdir);
			}
		}
		free(kd);
		free(sp);
		free(state);
		free(cdir);
	}
	json_object_object_add(o, "damon", json_object_new_string(n < 0 ? "absent" : sb.len ? sb.buf : "off"));
	json_object_object_add(o, "damon_moves_lru", json_object_new_boolean(moves));
	strbuf_release(&sb);
}

json_object *host_state_collect(const char *prefix, double sample_secs)
{
	json_object *o = json_object_new_object(), *sys = json_object_new_object(), *thp;
	char *s, *p;

	s = read_trimmed(prefix, "/proc/cpuinfo");
	p = s ? strstr(s, "microcode") : NULL;
	if (p && (p = strchr(p, ':'))) {
		char mc[64];
		if (sscanf(p + 1, " %63s", mc) == 1)
			json_object_object_add(o, "microcode", json_object_new_string(mc));
	}
	free(s);
	add_str(o, "smt", prefix, "/sys/devices/system/cpu/smt/control");
	add_str(o, "smt_active", prefix, "/sys/devices/system/cpu/smt/active");
	add_governors(o, prefix);
	add_boost(o, prefix);
	p = xasprintf("%s/proc/swaps", prefix);
	s = read_file_str(p, NULL);
	free(p);
	json_object_object_add(o, "swaps", s ? host_parse_swaps(s) : json_object_new_array());
	free(s);

	thp = json_object_new_object();
	add_selected(thp, "enabled", prefix, "/sys/kernel/mm/transparent_hugepage/enabled");
	add_selected(thp, "defrag", prefix, "/sys/kernel/mm/transparent_hugepage/defrag");
	add_selected(thp, "shmem_enabled", prefix, "/sys/kernel/mm/transparent_hugepage/shmem_enabled");
	add_str(thp, "khugepaged_defrag", prefix, "/sys/kernel/mm/transparent_hugepage/khugepaged/defrag");
	add_str(thp, "use_zero_page", prefix, "/sys/kernel/mm/transparent_hugepage/use_zero_page");
	json_object_object_add(o, "thp", thp);
	add_str(o, "numa_balancing", prefix, "/proc/sys/kernel/numa_balancing");
	add_str(o, "zone_reclaim_mode", prefix, "/proc/sys/vm/zone_reclaim_mode");
	for (size_t i = 0; host_vm_sysctls[i]; i++) {
		char path[96], key[96];

		snprintf(path, sizeof(path), "/proc/sys/vm/%s", host_vm_sysctls[i]);
		snprintf(key, sizeof(key), "vm.%s", host_vm_sysctls[i]);
		add_str(sys, key, prefix, path);
	}
	json_object_object_add(o, "sysctl", sys);
	add_nodes(o, prefix);
	add_damon(o, prefix);

	s = read_trimmed(prefix, "/proc/loadavg");
	if (s) {
		double l[3];
		json_object *arr = json_object_new_array();

		if (sscanf(s, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
			for (int i = 0; i < 3; i++)
				json_object_array_add(arr, json_object_new_double(l[i]));
		json_object_object_add(o, "load_avg", arr);
	}
	free(s);
	if (sample_secs > 0)
		json_object_object_add(o, "busy_processes", busy_processes(prefix, sample_secs));
	return o;
}
