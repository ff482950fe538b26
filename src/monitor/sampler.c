// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sampler (monitor.h): a forked child of the run, bound to one CPU, that
 * reads the monitors' files every interval from descriptors kept open
 * (pread from 0: one system call per file, core/procfs.h) and writes one
 * series record per sample (core/series.h). It stops on SIGTERM after a last
 * sample and the end record; killed, it leaves the complete records it wrote.
 */
#include "monitor/monitor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "core/procfs.h"
#include "core/strmap.h"

#define NO_COL ((size_t)-1)
#define MEMCG_MAX 16      /* memcgs below the run's parent sampled one by one */
#define CPU_MAX 64        /* bound CPUs with a column of their own */

/* ---- the columns of the series, made as their counters are first seen ---- */
struct cols {
	char **names;
	size_t n, cap, declared;  /* declared: written in a "c" record */
	int64_t *vals;
	struct strmap map;
};

static size_t col_get(struct cols *c, const char *name)
{
	size_t i;

	if (strmap_get(&c->map, name, &i))
		return i;
	if (c->n >= SERIES_MAX_COLS)
		return NO_COL;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 128;
		c->vals = xrealloc(c->vals, cap * sizeof(*c->vals));
		c->names = xrealloc(c->names, cap * sizeof(*c->names));
		c->cap = cap;   /* the map borrows the strings, which do not move */
	}
	c->names[c->n] = xstrdup(name);
	c->vals[c->n] = SERIES_ABSENT;
	strmap_put(&c->map, c->names[c->n], c->n);
	return c->n++;
}

static void col_set(struct cols *c, size_t i, int64_t v)
{
	if (i != NO_COL)
		c->vals[i] = v;
}

/* A column name from parts: characters outside the series' set become '_'. */
static void col_name(char *buf, size_t len, const char *a, const char *b, const char *d)
{
	snprintf(buf, len, "%s%s%s", a, b, d ? d : "");
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("_.:()+-", *p)))
			*p = '_';
}

/* ---- one kept-open file and which of its keys become columns ---- */
enum kind { K_KV, K_MEMINFO, K_NODE, K_PSI, K_SINGLE };

struct src {
	int fd;
	enum kind kind;
	char prefix[96];          /* column prefix, "vmstat." */
	const char *const *want;  /* exact keys (NULL: every key) */
	const char *const *want_prefix;
	struct strmap keys;       /* raw key -> column (NO_COL: not wanted) */
	char **owned;
	size_t nowned;
	bool read_once;
	bool *seen;               /* per want[]: read at least once */
};

static const char *const vmstat_want[] = {
	"nr_free_pages", "nr_active_file", "nr_inactive_file", "nr_active_anon", "nr_inactive_anon",
	"nr_dirty", "nr_writeback", "nr_file_pages", "nr_anon_pages", "nr_shmem", "nr_mapped",
	"nr_slab_reclaimable", "nr_slab_unreclaimable", "nr_anon_transparent_hugepages",
	"pswpin", "pswpout", "pgfault", "pgmajfault", NULL
};
static const char *const vmstat_prefix[] = {
	"workingset_", "pgscan_", "pgsteal_", "compact_", "thp_", "allocstall", NULL
};
static const char *const meminfo_want[] = {
	"MemFree", "MemAvailable", "Buffers", "Cached", "SwapTotal", "SwapFree", "AnonHugePages",
	"Shmem", "Slab", "SUnreclaim", "Dirty", "Writeback", "Active(file)", "Inactive(file)",
	"Active(anon)", "Inactive(anon)", NULL
};
static const char *const node_want[] = {
	"MemFree", "MemUsed", "FilePages", "AnonPages", "Shmem", "Slab", "SUnreclaim", NULL
};
static const char *const memcg_want[] = {
	"active_file", "inactive_file", "active_anon", "inactive_anon", "file", "anon", "shmem",
	"file_dirty", "file_writeback", "swap", NULL
};
/* the run's parent on v1: the hierarchical totals */
static const char *const memcg_v1_total_want[] = {
	"total_active_file", "total_inactive_file", "total_active_anon", "total_inactive_anon",
	"total_cache", "total_rss", "total_shmem", "total_dirty", "total_writeback", "total_swap", NULL
};
static const char *const dying_want[] = { "nr_dying_descendants", NULL };

static bool src_open(struct src *s, const char *path, enum kind kind, const char *prefix,
		     const char *const *want, const char *const *want_prefix)
{
	size_t nw = 0;

	memset(s, 0, sizeof(*s));
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	s->kind = kind;
	snprintf(s->prefix, sizeof(s->prefix), "%s", prefix);
	s->want = want;
	s->want_prefix = want_prefix;
	while (want && want[nw])
		nw++;
	s->seen = xcalloc(nw + 1, sizeof(*s->seen));
	return s->fd >= 0;
}

static void src_close(struct src *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->seen);
	strmap_release(&s->keys);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

/* The column of raw key k of s (looked up once, then from the map). */
static size_t src_col(struct src *s, struct cols *c, const char *k)
{
	size_t i, w = 0;
	bool want = !s->want && !s->want_prefix;
	char name[SERIES_NAME_MAX + 1];

	if (strmap_get(&s->keys, k, &i))
		return i;
	for (; s->want && s->want[w]; w++)
		if (!strcmp(s->want[w], k)) {
			want = true;
			s->seen[w] = true;
			break;
		}
	for (size_t p = 0; !want && s->want_prefix && s->want_prefix[p]; p++)
		want = !strncmp(k, s->want_prefix[p], strlen(s->want_prefix[p]));
	i = NO_COL;
	if (want) {
		col_name(name, sizeof(name), s->prefix, k, NULL);
		i = col_get(c, name);
	}
	s->owned = xrealloc(s->owned, (s->nowned + 1) * sizeof(*s->owned));
	s->owned[s->nowned] = xstrdup(k);
	strmap_put(&s->keys, s->owned[s->nowned++], i);
	return i;
}

static bool num(const char *p, int64_t *v)
{
	char *end;
	unsigned long long x;

	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	x = strtoull(p, &end, 10);
	if (end == p || errno || x > (unsigned long long)INT64_MAX / 2)
		return false;
	*v = (int64_t)x;
	return true;
}

/* Read s into the columns; false when it could not be read (a removed memcg). */
static bool src_sample(struct src *s, struct cols *c, struct strbuf *buf)
{
	char *line, *next;

	if (s->fd < 0 || proc_pread_text(s->fd, buf))
		return false;
	s->read_once = true;
	if (s->kind == K_SINGLE) {
		int64_t v;
		if (num(buf->buf, &v))
			col_set(c, src_col(s, c, "current"), v);
		return true;
	}
	for (line = buf->buf; line && *line; line = next) {
		char *sep, *val;
		int64_t v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (s->kind == K_NODE) {     /* "Node 0 MemFree:  5194232 kB" */
			if (strncmp(line, "Node ", 5) || !(line = strchr(line + 5, ' ')))
				continue;
			line++;
		}
		if (s->kind == K_PSI) {      /* "some avg10=0.00 ... total=12345" */
			char *t = strstr(line, " total=");
			sep = strchr(line, ' ');
			if (!sep || !t || !num(t + 7, &v))
				continue;
			*sep = '\0';
			col_set(c, src_col(s, c, line), v);
			continue;
		}
		sep = strchr(line, s->kind == K_KV ? ' ' : ':');
		if (!sep)
			continue;
		*sep = '\0';
		val = sep + 1;
		if (num(val, &v))
			col_set(c, src_col(s, c, line), v);
	}
	return true;
}

/* ---- /proc/stat: the split of the bound CPUs, and each one's busy ticks ---- */
static void cpu_sample(int fd, const cpu_set_t *cpus, struct cols *c, struct strbuf *buf)
{
	static const char *const parts[] = { "user", "nice", "sys", "idle", "iowait", "irq", "softirq",
					     "steal" };
	int64_t sum[8] = { 0 };
	size_t ncpu = 0;

	if (fd < 0 || proc_pread_text(fd, buf))
		return;
	for (char *line = buf->buf; line && *line;) {
		char *next = strchr(line, '\n'), *p;
		unsigned long long f[8] = { 0 };
		int cpu, got;

		if (next)
			*next++ = '\0';
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9') {
			line = next;
			continue;
		}
		cpu = (int)strtol(line + 3, &p, 10);
		got = sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
			     &f[5], &f[6], &f[7]);
		if (got >= 4 && cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, cpus)) {
			char name[64];

			for (int i = 0; i < 8; i++)
				sum[i] += (int64_t)f[i];
			if (ncpu++ < CPU_MAX) {
				snprintf(name, sizeof(name), "cpu%d.busy", cpu);
				col_set(c, col_get(c, name),
					(int64_t)(f[0] + f[1] + f[2] + f[5] + f[6] + f[7]));
			}
		}
		line = next;
	}
	if (!ncpu)
		return;
	for (int i = 0; i < 8; i++) {
		char name[32];

		if (i == 1)
			continue;       /* nice is user's */
		snprintf(name, sizeof(name), "cpu.%s", parts[i]);
		col_set(c, col_get(c, name), i == 0 ? sum[0] + sum[1] : sum[i]);
	}
}

/* ---- the memcgs: the run's parent and each memcg below it ---- */
struct memcg {
	char name[64];
	struct src usage, stat, swap;
	bool present;
};

struct memcgs {
	int dirfd;
	DIR *dir;
	bool v2;
	struct src pusage, pstat, pswap, pdying;
	struct memcg m[MEMCG_MAX];
	size_t n;
	bool over;                /* more memcgs than MEMCG_MAX were seen */
};

static int open_at(int dirfd, const char *name, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", name, file);
	return openat(dirfd, path, O_RDONLY | O_CLOEXEC);
}

static void memcg_src(struct src *s, int fd, enum kind kind, const char *prefix,
		      const char *const *want)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->kind = kind;
	snprintf(s->prefix, sizeof(s->prefix), "%s", prefix);
	s->want = want;
	s->seen = xcalloc(16, sizeof(*s->seen));
}

static void memcg_close(struct memcg *m)
{
	src_close(&m->usage);
	src_close(&m->stat);
	src_close(&m->swap);
	m->name[0] = '\0';
}

static void memcgs_open(struct memcgs *g, const char *dir, bool v2)
{
	memset(g, 0, sizeof(*g));
	g->v2 = v2;
	g->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (g->dirfd < 0)
		return;
	memcg_src(&g->pusage, open_at(g->dirfd, ".", v2 ? "memory.current" : "memory.usage_in_bytes"),
		  K_SINGLE, "memcg.all.", NULL);
	memcg_src(&g->pstat, open_at(g->dirfd, ".", "memory.stat"), K_KV, "memcg.all.",
		  v2 ? memcg_want : memcg_v1_total_want);
	memcg_src(&g->pswap, v2 ? open_at(g->dirfd, ".", "memory.swap.current") : -1, K_SINGLE,
		  "memcg.all.swap_", NULL);
	memcg_src(&g->pdying, v2 ? open_at(g->dirfd, ".", "cgroup.stat") : -1, K_KV, "memcg.all.",
		  dying_want);
	g->dir = fdopendir(dup(g->dirfd));
}

/* The memcgs below the parent now: new ones opened, gone ones closed. */
static void memcgs_scan(struct memcgs *g)
{
	struct dirent *de;

	if (!g->dir)
		return;
	for (size_t i = 0; i < MEMCG_MAX; i++)
		g->m[i].present = false;
	rewinddir(g->dir);
	while ((de = readdir(g->dir))) {
		size_t i, free_slot = MEMCG_MAX;
		char prefix[96];
		struct memcg *m;

		if (de->d_type != DT_DIR || de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(m->name))
			continue;
		for (i = 0; i < MEMCG_MAX; i++) {
			if (g->m[i].name[0] && !strcmp(g->m[i].name, de->d_name))
				break;
			if (!g->m[i].name[0] && free_slot == MEMCG_MAX)
				free_slot = i;
		}
		if (i < MEMCG_MAX) {
			g->m[i].present = true;
			continue;
		}
		if (free_slot == MEMCG_MAX) {
			g->over = true;
			continue;
		}
		m = &g->m[free_slot];
		snprintf(m->name, sizeof(m->name), "%s", de->d_name);
		snprintf(prefix, sizeof(prefix), "memcg.%s.", de->d_name);
		memcg_src(&m->usage, open_at(g->dirfd, de->d_name,
					     g->v2 ? "memory.current" : "memory.usage_in_bytes"),
			  K_SINGLE, prefix, NULL);
		memcg_src(&m->stat, open_at(g->dirfd, de->d_name, "memory.stat"), K_KV, prefix,
			  memcg_want);
		snprintf(prefix, sizeof(prefix), "memcg.%s.swap_", de->d_name);
		memcg_src(&m->swap, g->v2 ? open_at(g->dirfd, de->d_name, "memory.swap.current") : -1,
			  K_SINGLE, prefix, NULL);
		m->present = true;
	}
	for (size_t i = 0; i < MEMCG_MAX; i++)
		if (g->m[i].name[0] && !g->m[i].present)
			memcg_close(&g->m[i]);
}

static void memcgs_sample(struct memcgs *g, struct cols *c, struct strbuf *buf)
{
	if (g->dirfd < 0)
		return;
	src_sample(&g->pusage, c, buf);
	src_sample(&g->pstat, c, buf);
	src_sample(&g->pswap, c, buf);
	src_sample(&g->pdying, c, buf);
	memcgs_scan(g);
	for (size_t i = 0; i < MEMCG_MAX; i++) {
		struct memcg *m = &g->m[i];

		if (!m->name[0])
			continue;
		/* removed between the scan and the read: gone at the next scan */
		if (!src_sample(&m->usage, c, buf)) {
			memcg_close(m);
			continue;
		}
		src_sample(&m->stat, c, buf);
		src_sample(&m->swap, c, buf);
	}
}

static void memcgs_close(struct memcgs *g)
{
	for (size_t i = 0; i < MEMCG_MAX; i++)
		if (g->m[i].name[0])
			memcg_close(&g->m[i]);
	src_close(&g->pusage);
	src_close(&g->pstat);
	src_close(&g->pswap);
	src_close(&g->pdying);
	if (g->dir)
		closedir(g->dir);
	if (g->dirfd >= 0)
		close(g->dirfd);
}

/* ---- the loop ---- */
static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Monotonic seconds (the parent's clock: t0 is its now_monotonic()). */
static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "absent NAME" for every wanted key a kernel did not have. */
static void say_absent(struct series_writer *w, const struct src *s, const char *what)
{
	char name[SERIES_NAME_MAX + 1];

	if (!s->read_once) {
		if (what)
			series_writer_meta(w, "absent", what);
		return;
	}
	for (size_t i = 0; s->want && s->want[i]; i++)
		if (!s->seen[i]) {
			col_name(name, sizeof(name), s->prefix, s->want[i], NULL);
			series_writer_meta(w, "absent", name);
		}
}

int sampler_main(void *argp)
{
	struct sampler_arg *a = argp;
	struct series_writer w;
	struct cols c = { 0 };
	struct src vm, mi, node, psi[3];
	struct memcgs mg = { .dirfd = -1 };
	struct strbuf buf = STRBUF_INIT;
	struct sigaction sa;
	struct rusage ru;
	struct timespec next;
	double start;
	int statfd = -1;
	static const char *const psi_names[] = { "memory", "cpu", "io" };
	char path[128], txt[256];
	cpu_set_t one;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_NAME, "lrubench-mon", 0, 0, 0);
	if (a->cpu >= 0) {
		CPU_ZERO(&one);
		CPU_SET(a->cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	/* nice -5: on a CPU it shares with the workload the sampler wakes ahead
	 * of the workload's tasks, so a sample is taken on time, not a time slice
	 * late; what it costs them is its CPU time, the same at any nice (0.25% of
	 * one CPU at 250 ms, bench/monitor-overhead) */
	setpriority(PRIO_PROCESS, 0, -5);
	memset(&vm, 0, sizeof(vm));
	memset(&mi, 0, sizeof(mi));
	memset(&node, 0, sizeof(node));
	vm.fd = mi.fd = node.fd = -1;
	for (int i = 0; i < 3; i++) {
		memset(&psi[i], 0, sizeof(psi[i]));
		psi[i].fd = -1;
	}
	if (a->mask & MON_VMSTAT)
		src_open(&vm, "/proc/vmstat", K_KV, "vmstat.", vmstat_want, vmstat_prefix);
	if (a->mask & MON_MEMINFO)
		src_open(&mi, "/proc/meminfo", K_MEMINFO, "meminfo.", meminfo_want, NULL);
	if (a->mask & MON_NODE) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", a->node < 0 ? 0 : a->node);
		snprintf(txt, sizeof(txt), "node%d.", a->node < 0 ? 0 : a->node);
		src_open(&node, path, K_NODE, txt, node_want, NULL);
	}
	if (a->mask & MON_PSI)
		for (int i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "/proc/pressure/%s", psi_names[i]);
			snprintf(txt, sizeof(txt), "psi.%s.", psi_names[i]);
			src_open(&psi[i], path, K_PSI, txt, NULL, NULL);
		}
	if (a->mask & MON_CPU)
		statfd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if ((a->mask & MON_MEMCG) && a->memcg_dir)
		memcgs_open(&mg, a->memcg_dir, a->cg_v2);

	series_writer_init(&w, a->fd);
	snprintf(txt, sizeof(txt), "%u", a->interval_ms);
	series_writer_meta(&w, "interval_ms", txt);
	snprintf(txt, sizeof(txt), "%d %s", a->cpu, a->spare ? "spare" : "shared with the workload");
	series_writer_meta(&w, "cpu", txt);
	snprintf(txt, sizeof(txt), "%ld", sysconf(_SC_PAGESIZE));
	series_writer_meta(&w, "page_size", txt);
	snprintf(txt, sizeof(txt), "%ld", sysconf(_SC_CLK_TCK));
	series_writer_meta(&w, "cpu_ticks_per_s", txt);
	start = mono();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (bool last = false;;) {
		int64_t t = (int64_t)((mono() - a->t0) * 1000 + 0.5);

		for (size_t i = 0; i < c.n; i++)
			c.vals[i] = SERIES_ABSENT;
		src_sample(&vm, &c, &buf);
		src_sample(&mi, &c, &buf);
		src_sample(&node, &c, &buf);
		for (int i = 0; i < 3; i++)
			src_sample(&psi[i], &c, &buf);
		cpu_sample(statfd, &a->cpus, &c, &buf);
		memcgs_sample(&mg, &c, &buf);
		if (!w.rows) {
			say_absent(&w, &vm, "vmstat");
			say_absent(&w, &mi, "meminfo");
			say_absent(&w, &node, "node");
			for (int i = 0; i < 3; i++) {
				snprintf(txt, sizeof(txt), "psi.%s", psi_names[i]);
				say_absent(&w, &psi[i], txt);
			}
			if ((a->mask & MON_CPU) && statfd < 0)
				series_writer_meta(&w, "absent", "cpu");
			if ((a->mask & MON_MEMCG) && mg.dirfd < 0)
				series_writer_meta(&w, "absent", "memcg (no memcg parent in this run)");
		}
		if (c.declared < c.n) {
			series_writer_columns(&w, (const char *const *)c.names + c.declared, c.n - c.declared);
			c.declared = c.n;
		}
		if (series_writer_row(&w, t < 0 ? 0 : t, c.vals))
			break;
		if (last)
			break;
		next.tv_nsec += (long)(a->interval_ms % 1000) * 1000000L;
		next.tv_sec += a->interval_ms / 1000 + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		last = stop;
	}
	if (mg.over)
		series_writer_meta(&w, "memcgs", "more than 16 memcgs: the rest only in memcg.all");
	/* the sampler's own cost, measured by itself */
	getrusage(RUSAGE_SELF, &ru);
	snprintf(txt, sizeof(txt), "%.0f", ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e6 +
		 (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec);
	series_writer_meta(&w, "cpu_us", txt);
	snprintf(txt, sizeof(txt), "%.3f", mono() - start);
	series_writer_meta(&w, "seconds", txt);
	series_writer_end(&w);
	src_close(&vm);
	src_close(&mi);
	src_close(&node);
	for (int i = 0; i < 3; i++)
		src_close(&psi[i]);
	if (statfd >= 0)
		close(statfd);
	memcgs_close(&mg);
	for (size_t i = 0; i < c.n; i++)
		free(c.names[i]);
	free(c.names);
	free(c.vals);
	strmap_release(&c.map);
	strbuf_release(&buf);
	series_writer_release(&w);
	return w.failed ? 1 : 0;
}
