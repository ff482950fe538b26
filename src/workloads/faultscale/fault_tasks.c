// SPDX-License-Identifier: GPL-2.0-or-later
/* One faultscale measurement: the tasks, their counters, the sampler (fault_tasks.h). */
#include "workloads/faultscale/fault_tasks.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/child.h"
#include "core/child_set.h"
#include "core/cleanup.h"

/* will-it-scale's MAX_CACHELINE_SIZE: a counter per 256 bytes, so no two
 * tasks' counters share a cache line (or an adjacent-line prefetch pair) */
#define FS_SLOT_BYTES 256
/* how often the parent looks at the ready flags before the release (between
 * two samples the set watches the tasks, core/child_set.h child_set_watch) */
#define FS_READY_MS 10
/* seconds for the tasks to get ready when stuck_timeout says never */
#define FS_READY_GRACE 60.0

enum { STAGE_NONE, STAGE_PREPARE, STAGE_LOOP };

union fs_slot {
	struct {
		volatile uint64_t count;
		volatile int ready;   /* prepared; waiting for the release */
		volatile int stage;   /* where it failed: STAGE_PREPARE or STAGE_LOOP */
		volatile int err;     /* the errno there */
		volatile int cpu;     /* where it ran after the release */
	} s;
	char pad[FS_SLOT_BYTES];
};

struct group_arg {
	const struct fs_spec *spec;
	size_t first, n;          /* its tasks */
	union fs_slot *slots;
	int go_r, go_w;
};

struct task_arg {
	const struct fs_spec *spec;
	size_t t;
	union fs_slot *slot;
	int go_r;
};

void fs_groups(bool threads, size_t ntasks, size_t memcgs, size_t *ngroups, size_t *per)
{
	size_t g = !threads ? ntasks : memcgs ? (memcgs < ntasks ? memcgs : ntasks) : 1;

	if (!g)
		g = 1;
	*per = threads ? (ntasks + g - 1) / g : 1;
	/* ceil may leave the last groups empty (5 tasks, 4 memcgs: 2,2,1): fewer groups */
	*ngroups = threads ? (ntasks + *per - 1) / *per : ntasks;
}

double fs_rate(uint64_t before, uint64_t after, double dt)
{
	return dt > 0 && after >= before ? (double)(after - before) / dt : 0;
}

static void task_fail(union fs_slot *slot, int stage, int err)
{
	slot->s.err = err;
	slot->s.stage = stage;
}

/* A task: its CPU, its file, ready, the release, the loop. Returns only
 * when it failed (the slot says where). */
static void task_body(struct task_arg *a)
{
	const struct fs_spec *spec = a->spec;
	struct fs_loop l = { .kase = spec->kase, .len = (size_t)spec->len, .hugepage = spec->hugepage,
			     .fd = -1 };
	cpu_set_t set;
	char c;
	int e;

	/* this thread alone (0 is the caller), like will-it-scale's
	 * hwloc_set_thread_cpubind; within the node the process is bound to */
	CPU_ZERO(&set);
	CPU_SET(spec->cpus[a->t], &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		task_fail(a->slot, STAGE_PREPARE, errno);
		return;
	}
	if ((e = fs_loop_prepare(&l, spec->dir))) {
		task_fail(a->slot, STAGE_PREPARE, e);
		return;
	}
	a->slot->s.ready = 1;
	while (read(a->go_r, &c, 1) < 0 && errno == EINTR)
		;   /* EOF on the go pipe is the release */
	a->slot->s.cpu = sched_getcpu();
	e = fs_loop_run(&l, &a->slot->s.count, 0);
	task_fail(a->slot, STAGE_LOOP, e ? e : EINVAL);
}

static void *task_thread(void *p)
{
	task_body(p);
	_exit(1);   /* one thread failed: the process ends, the parent reads why */
}

/* The child: one task (processes) or its group's tasks as threads. */
static int group_main(void *p)
{
	struct group_arg *g = p;
	const struct fs_spec *spec = g->spec;
	struct task_arg *ta = calloc(g->n, sizeof(*ta));
	pthread_t *th = calloc(g->n, sizeof(*th));

	/* our copy of the go pipe's write end would keep it from ever reaching EOF */
	close(g->go_w);
	if (!ta || !th) {
		task_fail(&g->slots[g->first], STAGE_PREPARE, ENOMEM);
		return 1;
	}
	for (size_t i = 0; i < g->n; i++)
		ta[i] = (struct task_arg){ spec, g->first + i, &g->slots[g->first + i], g->go_r };
	if (!spec->threads) {
		task_body(&ta[0]);
		return 1;
	}
	for (size_t i = 0; i < g->n; i++) {
		int e = pthread_create(&th[i], NULL, task_thread, &ta[i]);

		if (e) {
			task_fail(&g->slots[g->first + i], STAGE_PREPARE, e);
			_exit(1);
		}
	}
	for (size_t i = 0; i < g->n; i++)
		pthread_join(th[i], NULL);   /* the tasks never end on their own */
	return 1;
}

/* The tasks' processes are a core/child_set.h set, watched between samples. */
struct fs_watch {
	const struct fs_spec *spec;
	struct child_set set;     /* ngroups children: a process per task, or per group of threads */
	union fs_slot *slots;
	uint64_t *last;           /* ntasks: the count when it last moved */
	double *moved;            /* ntasks: when */
	bool released;
};

static size_t group_of(const struct fs_spec *spec, size_t t)
{
	return spec->threads ? t / spec->per : t;
}

/* "faultscale task 3", or "faultscale process 1" of threads: the set's stuck report */
static void group_what(void *data, size_t g, char *buf, size_t len)
{
	const struct fs_watch *w = data;

	snprintf(buf, len, "faultscale %s %zu", w->spec->threads ? "process" : "task", g);
}

/* Group g ended (code): why, and the status it gives. */
static enum wl_status group_ended(struct fs_watch *w, size_t g, int code)
{
	const struct fs_spec *spec = w->spec;
	size_t first = spec->threads ? g * spec->per : g, n = spec->threads ? spec->per : 1;
	pid_t pid = w->set.kids[g].pid;
	char desc[128];

	if (first + n > spec->ntasks)
		n = spec->ntasks - first;
	for (size_t t = first; t < first + n; t++) {
		const union fs_slot *s = &w->slots[t];

		if (s->s.stage == STAGE_PREPARE) {
			/* our side: the file could not be made (file_dir), a CPU refused */
			error("faultscale task %zu (pid %d) could not start: %s%s%s", t, (int)pid,
			      strerror(s->s.err), spec->kase != FS_PAGE_FAULT1 ? "; its file goes in " : "",
			      spec->kase != FS_PAGE_FAULT1 ? spec->dir : "");
			return WL_FAILED;
		}
		if (s->s.stage == STAGE_LOOP) {
			strbuf_addf(spec->why, "faultscale task %zu (pid %d) failed: %s of %llu bytes: %s", t,
				    (int)pid, s->s.err == EINVAL && spec->hugepage ?
				    "mmap or madvise" : "mmap", (unsigned long long)spec->len,
				    strerror(s->s.err));
			error("%s", spec->why->buf);
			return WL_OP_FAILED;
		}
	}
	/* killed: by the OOM killer, or anybody else; the kernel log says which */
	child_describe_code(code, desc, sizeof(desc));
	strbuf_addf(spec->why, "faultscale %s %zu (pid %d) %s%s", spec->threads ? "process" : "task", g,
		    (int)pid, desc, w->released ? "" : " before the release");
	error("%s", spec->why->buf);
	return WL_OP_FAILED;
}

/* Watch the tasks until `until`: WL_OK while every one runs; a task that
 * ended, a stuck one (its process used no CPU for stuck_timeout) or a stop
 * request ends the measurement (the set is stopped by then or by fs_run). */
static enum wl_status watch_until(struct fs_watch *w, double until)
{
	long g;
	enum wl_status r = child_set_watch(&w->set, until, &g, w->spec->why);

	if (r == WL_OK && g >= 0)
		return group_ended(w, (size_t)g, w->set.code[g]);
	return r;
}

/* A task whose counter has not moved for stuck_timeout is held, even when
 * its process still uses CPU (another thread of it). */
static enum wl_status counters_moved(struct fs_watch *w, const uint64_t *now_count, double now)
{
	const struct fs_spec *spec = w->spec;
	char what[64];

	for (size_t t = 0; t < spec->ntasks; t++) {
		if (now_count[t] != w->last[t]) {
			w->last[t] = now_count[t];
			w->moved[t] = now;
		} else if (spec->stuck_timeout > 0 && now - w->moved[t] >= spec->stuck_timeout) {
			snprintf(what, sizeof(what), "faultscale task %zu (no page written for %.0f s)", t,
				 now - w->moved[t]);
			return child_set_stuck(&w->set, group_of(spec, t), what, spec->why);
		}
	}
	return WL_OK;
}

static enum wl_status wait_ready(struct fs_watch *w)
{
	const struct fs_spec *spec = w->spec;
	double grace = spec->stuck_timeout > 0 ? spec->stuck_timeout : FS_READY_GRACE;
	double deadline = now_monotonic() + grace;

	for (;;) {
		size_t t;
		enum wl_status r;

		for (t = 0; t < spec->ntasks && w->slots[t].s.ready; t++)
			;
		if (t == spec->ntasks)
			return WL_OK;
		if (now_monotonic() > deadline) {
			char what[64];

			snprintf(what, sizeof(what), "faultscale task %zu (not ready to start)", t);
			return child_set_stuck(&w->set, group_of(spec, t), what, spec->why);
		}
		/* the ready flags are looked at every FS_READY_MS */
		if ((r = watch_until(w, now_monotonic() + FS_READY_MS / 1000.0)) != WL_OK)
			return r;
	}
}

static enum wl_status sample(struct fs_watch *w, struct fs_out *out)
{
	const struct fs_spec *spec = w->spec;
	size_t n = spec->ntasks;
	uint64_t *prev = xcalloc(n, sizeof(*prev)), *cur = xcalloc(n, sizeof(*cur)),
		 *start = xcalloc(n, sizeof(*start));
	double t0 = now_monotonic(), last = t0, mstart = t0, sum = 0;
	enum wl_status r = WL_OK;

	for (size_t t = 0; t < n; t++)
		w->moved[t] = t0;
	out->min_task = -1;
	out->max_task = 0;
	for (unsigned k = 0; k < spec->warm + spec->samples; k++) {
		double now, dt, rate = 0;

		/* on the second from the release, not a second from the last look:
		 * a late wake-up does not push the later samples */
		if ((r = watch_until(w, t0 + k + 1)) != WL_OK)
			break;
		now = now_monotonic();
		for (size_t t = 0; t < n; t++)
			cur[t] = w->slots[t].s.count;
		dt = now - last;
		for (size_t t = 0; t < n; t++) {
			double tr = fs_rate(prev[t], cur[t], dt);

			rate += tr;
			if (k >= spec->warm) {
				if (out->min_task < 0 || tr < out->min_task)
					out->min_task = tr;
				if (tr > out->max_task)
					out->max_task = tr;
			}
		}
		if (k == spec->warm) {
			/* the measured span starts where the last dropped sample ended */
			mstart = last;
			memcpy(start, prev, n * sizeof(*prev));
		}
		if (k >= spec->warm) {
			out->second[k - spec->warm] = rate;
			sum += rate;
		}
		if ((r = counters_moved(w, cur, now)) != WL_OK)
			break;
		memcpy(prev, cur, n * sizeof(*cur));
		last = now;
	}
	if (r == WL_OK) {
		out->ops = sum / spec->samples;
		for (size_t t = 0; t < n; t++) {
			out->task[t] = fs_rate(start[t], prev[t], last - mstart);
			out->ran_cpu[t] = w->slots[t].s.cpu;
		}
	}
	free(prev);
	free(cur);
	free(start);
	return r;
}

enum wl_status fs_run(const struct fs_spec *spec, struct fs_out *out)
{
	size_t n = spec->ntasks, G = spec->ngroups, bytes = n * sizeof(union fs_slot);
	struct child *kids = xcalloc(G, sizeof(*kids));
	struct group_arg *ga = xcalloc(G, sizeof(*ga));
	/* each child in its own group's memcg (spec->procs), on the node; no
	 * set length: stuck when its process uses no CPU for stuck_timeout; the
	 * tasks never end by themselves: SIGTERM, SIGKILL a second later */
	struct fs_watch w = { .spec = spec, .last = xcalloc(n, sizeof(uint64_t)),
			      .moved = xcalloc(n, sizeof(double)),
			      .set = { .n = G, .kids = kids, .bind = spec->bind, .length = -1,
				       .stuck_timeout = spec->stuck_timeout, .stop_grace = 1.0,
				       .what = group_what } };
	int go[2] = { -1, -1 };
	enum wl_status ret = WL_FAILED;

	w.set.data = &w;
	memset(out, 0, sizeof(*out));
	out->second = xcalloc(spec->samples ? spec->samples : 1, sizeof(double));
	out->task = xcalloc(n, sizeof(double));
	out->ran_cpu = xcalloc(n, sizeof(int));
	w.slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w.slots == MAP_FAILED) {
		w.slots = NULL;
		error_errno("faultscale: cannot map %zu bytes for the counters", bytes);
		goto out;
	}
	if (pipe2(go, O_CLOEXEC)) {
		error_errno("faultscale: cannot create a pipe");
		goto out;
	}
	for (size_t g = 0; g < G; g++) {
		size_t first = g * spec->per, cnt = spec->per;

		if (first + cnt > n)
			cnt = n - first;
		ga[g] = (struct group_arg){ spec, first, cnt, w.slots, go[0], go[1] };
		kids[g].fn = group_main;
		kids[g].fn_arg = &ga[g];
		kids[g].cgroup_procs = spec->procs ? spec->procs[g] : NULL;
		kids[g].name = spec->threads ? "faultscale process" : "faultscale task";
	}
	/* forked without waiting for each to join its memcg (child_set_start) */
	if ((ret = child_set_start(&w.set)) != WL_OK)
		goto out;
	if ((ret = wait_ready(&w)) != WL_OK)
		goto out;
	close(go[1]);   /* release every task at once */
	go[1] = -1;
	w.released = true;
	ret = sample(&w, out);
out:
	child_set_release(&w.set);   /* stops what still runs, every group at once */
	for (int k = 0; k < 2; k++)
		if (go[k] >= 0)
			close(go[k]);
	if (w.slots)
		munmap(w.slots, bytes);
	free(w.last);
	free(w.moved);
	free(kids);
	free(ga);
	if (ret != WL_OK)
		fs_out_release(out);
	return ret;
}

void fs_out_release(struct fs_out *out)
{
	free(out->second);
	free(out->task);
	free(out->ran_cpu);
	out->second = out->task = NULL;
	out->ran_cpu = NULL;
}
