// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim and compaction stall latencies from the begin/end tracepoints
 * (reclaim_latency.h): which pairs the kernel has, pairing them per task,
 * and the tracefs instance of a profile pass with its reader thread.
 */
#include "profile/reclaim_latency.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "profile/profile.h"
#include "profile/tracefs.h"

/* What each pair measures is kept with it: the results carry it ("measures"),
 * lrubench-profile(7) and docs/ARCHITECTURE.md §12 say the same. */
#define STALL "stalls", "stall us", "stall latency"
const struct rl_pair rl_pairs[RL_NPAIRS] = {
	{ "direct reclaim", "vmscan", "mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
	  "the kernel has no such tracepoint", STALL,
	  "an allocating task's stall in direct reclaim (try_to_free_pages)", false, false },
	{ "memcg reclaim", "vmscan", "mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
	  "a kernel without CONFIG_MEMCG has no memcg reclaim tracepoints", STALL,
	  "a task's stall reclaiming its memcg to its limit (try_to_free_mem_cgroup_pages)", false, false },
	{ "memcg softlimit reclaim", "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin",
	  "mm_vmscan_memcg_softlimit_reclaim_end",
	  "the soft limit is cgroup v1's: a kernel without CONFIG_MEMCG_V1 (6.11+) or CONFIG_MEMCG lacks it",
	  STALL, "one memcg's soft limit reclaim (mem_cgroup_shrink_node), by kswapd or a direct "
	  "reclaimer", false, false },
	{ "shrink slab", "vmscan", "mm_shrink_slab_start", "mm_shrink_slab_end",
	  "the kernel has no such tracepoint", STALL,
	  "one shrinker's call (do_shrink_slab), in whichever task reclaims", false, false },
	{ "compaction", "compaction", "mm_compaction_begin", "mm_compaction_end",
	  "a kernel without CONFIG_COMPACTION has no compaction tracepoints", STALL,
	  "one zone's compaction run (compact_zone): direct, kcompactd's or proactive", false, false },
	{ "kswapd wake-to-sleep", "vmscan", "mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep",
	  "the kernel has no such tracepoint", "periods", "us", "time",
	  "kswapd awake: from its wake (the start of balance_pgdat) to its sleep until woken again; "
	  "its balancing rounds and the 100 ms nap (HZ/10) it takes before that sleep, not CPU time; "
	  "a wake after a nap cut short continues the period; a period still open when the pass ends "
	  "is open_at_end, not in the histogram", true, false },
	{ "kcompactd wake-to-sleep", "compaction", "mm_compaction_kcompactd_wake",
	  "mm_compaction_kcompactd_sleep",
	  "a kernel without CONFIG_COMPACTION (or older than 4.6) has no kcompactd", "periods", "us",
	  "time",
	  "kcompactd's work on a wakeup: from its wake (the start of kcompactd_do_work) to its next "
	  "sleep; proactive compaction (vm.compaction_proactiveness, every 500 ms) has no wake, so "
	  "its rounds are not timed here (their compact_zone runs are in compaction) and their "
	  "sleeps are lone_ends", false, true },
};

const struct rl_event rl_events[RL_NEVENTS] = {
	{ "kswapd wakeup requests", "vmscan", "mm_vmscan_wakeup_kswapd",
	  "the kernel has no such tracepoint",
	  "an allocation waking a waiting kswapd (wakeup_kswapd), in the allocating task; no end, "
	  "and the raw lines carry no node, so the delay to kswapd's wake is not measured" },
	{ "kcompactd wakeup requests", "compaction", "mm_compaction_wakeup_kcompactd",
	  "a kernel without CONFIG_COMPACTION (or older than 4.6) has no kcompactd",
	  "kswapd (before it sleeps) or an allocation waking a waiting kcompactd "
	  "(wakeup_kcompactd); no end, the delay to kcompactd's wake is not measured" },
};

static void say_missing(struct strbuf *missing, const char *name, const char *system,
			const char *event, const char *why)
{
	strbuf_addf(missing, "%s%s (%s/%s): not available on this kernel: %s", missing->len ? "; " : "",
		    name, system, event, why);
}

unsigned rl_available(const char *root, struct strbuf *missing)
{
	unsigned mask = 0;

	for (unsigned i = 0; i < RL_NPAIRS; i++) {
		const struct rl_pair *p = &rl_pairs[i];
		bool b = tracefs_has_event(root, p->system, p->begin);
		bool e = tracefs_has_event(root, p->system, p->end);

		if (b && e) {
			mask |= 1u << i;
		} else {
			char *why = xasprintf("no %s/events/%s/%s (%s)", root, p->system, b ? p->end : p->begin,
					      p->missing);
			say_missing(missing, p->name, p->system, p->begin, why);
			free(why);
		}
	}
	for (unsigned k = 0; k < RL_NEVENTS; k++) {
		const struct rl_event *e = &rl_events[k];

		if (tracefs_has_event(root, e->system, e->event)) {
			mask |= RL_EVENT_BIT(k);
		} else {
			char *why = xasprintf("no %s/events/%s/%s (%s)", root, e->system, e->event, e->missing);
			say_missing(missing, e->name, e->system, e->event, why);
			free(why);
		}
	}
	return mask;
}

unsigned rl_available_probe(struct strbuf *missing)
{
	unsigned mask = 0;

	for (unsigned i = 0; i < RL_NPAIRS + RL_NEVENTS; i++) {
		bool pair = i < RL_NPAIRS;
		const struct rl_pair *p = pair ? &rl_pairs[i] : NULL;
		const struct rl_event *e = pair ? NULL : &rl_events[i - RL_NPAIRS];
		const char *system = pair ? p->system : e->system;
		struct strbuf why = STRBUF_INIT;
		int r = tracefs_probe_mount(system, pair ? p->begin : e->event, &why);

		if (!r && pair)
			r = tracefs_probe_mount(system, p->end, &why);
		if (!r) {
			mask |= 1u << i;   /* RL_EVENT_BIT(i - RL_NPAIRS) for an event */
		} else if (r == 2) {
			strbuf_addf(&why, " (%s)", pair ? p->missing : e->missing);
			say_missing(missing, pair ? p->name : e->name, system, pair ? p->begin : e->event,
				    why.buf);
		} else {
			strbuf_addf(missing, "%stracefs: %s", missing->len ? "; " : "", why.buf);
			strbuf_release(&why);
			return 0;
		}
		strbuf_release(&why);
	}
	return mask;
}

/* ---- pairing ---- */

#define TASK_SLOTS (RL_MAX_TASKS * 2)

void rl_state_init(struct rl_state *s)
{
	memset(s, 0, sizeof(*s));
	s->tasks = xcalloc(TASK_SLOTS, sizeof(*s->tasks));
}

void rl_state_release(struct rl_state *s)
{
	free(s->tasks);
	s->tasks = NULL;
}

void rl_state_set_id(struct rl_state *s, int id, unsigned pair, bool end)
{
	if (s->nids < RL_MAX_IDS && pair < RL_NPAIRS) {
		s->id[s->nids] = id;
		s->id_what[s->nids++] = (int)(pair * 2 + (end ? 1 : 0));
	}
}

void rl_state_set_event_id(struct rl_state *s, int id, unsigned k)
{
	if (s->nids < RL_MAX_IDS && k < RL_NEVENTS) {
		s->id[s->nids] = id;
		s->id_what[s->nids++] = (int)(2 * RL_NPAIRS + k);
	}
}

/* open/read/close only: the reader thread must not allocate */
static void read_comm(int pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0)
		n = 0;
	comm[n] = '\0';
	if (n && comm[n - 1] == '\n')
		comm[n - 1] = '\0';
}

static struct rl_task *task_of(struct rl_state *s, int pid)
{
	size_t h = ((size_t)(unsigned)pid * 2654435761u) % TASK_SLOTS;

	for (size_t k = 0; k < TASK_SLOTS; k++, h = (h + 1) % TASK_SLOTS) {
		struct rl_task *t = &s->tasks[h];

		if (t->pid == pid)
			return t;
		if (t->pid == 0) {
			if (s->ntasks >= RL_MAX_TASKS)
				return NULL;
			s->ntasks++;
			t->pid = pid;
			if (s->read_comm)
				read_comm(pid, t->comm, sizeof(t->comm));
			return t;
		}
	}
	return NULL;
}

/* a decimal number at *p, then a space; false when there is none */
static bool num(const char **p, const char *end, unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	if (s == end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		if (x > (~0ULL - 9) / 10)
			return false;
		x = x * 10 + (unsigned long long)(*s++ - '0');
	}
	*v = x;
	*p = s;
	return true;
}

static bool lit(const char **p, const char *end, const char *w)
{
	size_t l = strlen(w);

	if ((size_t)(end - *p) < l || memcmp(*p, w, l))
		return false;
	*p += l;
	return true;
}

void rl_feed_line(struct rl_state *s, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	unsigned long long pid, cpu, ns, id;
	struct rl_task *t;
	int what = -1;
	unsigned pair;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return;
	if (lit(&p, end, "CPU:")) {
		const char *l = memmem(p, (size_t)(end - p), "[LOST ", 6);
		unsigned long long k;

		if (l && (p = l + 6, num(&p, end, &k)))
			s->lost += k;
		else if (l)
			s->lost++;   /* "[LOST EVENTS]": how many is unknown */
		else
			s->bad_lines++;
		return;
	}
	if (!num(&p, end, &pid) || !lit(&p, end, " ") || !num(&p, end, &cpu) || !lit(&p, end, " ") ||
	    !num(&p, end, &ns) || !lit(&p, end, " type: ") || !num(&p, end, &id) || pid > 0x7fffffff) {
		s->bad_lines++;
		return;
	}
	for (size_t i = 0; i < s->nids; i++)
		if ((unsigned long long)s->id[i] == id)
			what = s->id_what[i];
	if (what < 0)
		return;   /* not one of ours */
	s->events++;
	if (what >= 2 * RL_NPAIRS) {
		s->counted[what - 2 * RL_NPAIRS]++;   /* a wakeup: no end, no task */
		return;
	}
	pair = (unsigned)what / 2;
	t = task_of(s, (int)pid);
	if (!t) {
		s->untracked++;
		return;
	}
	if (!(what & 1)) {
		s->begins[pair]++;
		if (t->open_ns[pair] && rl_pairs[pair].begin_continues)
			return;          /* kswapd's next round: the period goes on */
		if (t->open_ns[pair])
			s->unpaired++;   /* a begin whose end we never saw */
		t->open_ns[pair] = ns + 1;
		return;
	}
	if (!t->open_ns[pair]) {
		s->lone_ends[pair]++;
		if (!rl_pairs[pair].lone_end_normal)
			s->unpaired++;   /* an end whose begin came before tracing did */
		return;
	}
	if (ns + 1 < t->open_ns[pair]) {
		s->unpaired++;   /* an end before its begin: clock skew */
		t->open_ns[pair] = 0;
		return;
	}
	{
		double us = (double)(ns + 1 - t->open_ns[pair]) / 1000.0;

		t->open_ns[pair] = 0;
		lhist_add(&s->hist[pair], us);
		t->count[pair]++;
		if (us > t->max_us[pair])
			t->max_us[pair] = us;
	}
}

json_object *rl_pair_json(const struct rl_state *s, unsigned pair)
{
	const struct lhist *h = &s->hist[pair];
	const struct rl_pair *p = &rl_pairs[pair];
	const struct rl_task *top[RL_TOP_TASKS];
	size_t ntop = 0, open = 0;
	json_object *o = json_object_new_object(), *tasks = json_object_new_array();

	/* the tasks with the longest stalls, longest first */
	for (size_t i = 0; i < TASK_SLOTS; i++) {
		const struct rl_task *t = &s->tasks[i];
		size_t k;

		if (t->pid && t->open_ns[pair])
			open++;
		if (!t->pid || !t->count[pair])
			continue;
		if (ntop == RL_TOP_TASKS && t->max_us[pair] <= top[ntop - 1]->max_us[pair])
			continue;
		if (ntop < RL_TOP_TASKS)
			ntop++;
		for (k = ntop - 1; k > 0 && top[k - 1]->max_us[pair] < t->max_us[pair]; k--)
			top[k] = top[k - 1];
		top[k] = t;
	}
	for (size_t k = 0; k < ntop; k++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "pid", json_object_new_int(top[k]->pid));
		json_object_object_add(t, "comm", json_object_new_string(top[k]->comm));
		json_object_object_add(t, "count", json_object_new_int64((int64_t)top[k]->count[pair]));
		json_object_object_add(t, "max_us", json_object_new_double(top[k]->max_us[pair]));
		json_object_array_add(tasks, t);
	}
	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "begin", json_object_new_string(p->begin));
	json_object_object_add(o, "end", json_object_new_string(p->end));
	json_object_object_add(o, "measures", json_object_new_string(p->measures));
	json_object_object_add(o, "periods", json_object_new_string(p->periods));
	json_object_object_add(o, "histogram", json_object_new_string(p->histogram));
	json_object_object_add(o, "count", json_object_new_int64((int64_t)h->count));
	json_object_object_add(o, "begins", json_object_new_int64((int64_t)s->begins[pair]));
	json_object_object_add(o, "lone_ends", json_object_new_int64((int64_t)s->lone_ends[pair]));
	json_object_object_add(o, "open_at_end", json_object_new_int64((int64_t)open));
	json_object_object_add(o, "p50_us", json_object_new_double(lhist_percentile(h, 0.50)));
	json_object_object_add(o, "p99_us", json_object_new_double(lhist_percentile(h, 0.99)));
	json_object_object_add(o, "max_us", json_object_new_double(h->max_us));
	json_object_object_add(o, "total_us", json_object_new_double(h->sum_us));
	json_object_object_add(o, "buckets", lhist_buckets_json(h));
	json_object_object_add(o, "tasks", tasks);
	return o;
}

/* ---- the instance of a pass ---- */

#define BUFFER_KB "4096"     /* per CPU, the instance's own ring buffer */

/* what the registry's undo needs: fixed size, no allocation in the signal path */
struct rl_undo {
	char dir[4096];
	volatile int fd;     /* trace_pipe, closed first: an open file keeps the instance busy */
};

struct rl_session {
	struct rl_undo *u;
	int cleanup_id;
	unsigned mask;
	struct rl_state st;
	pthread_t th;
	bool started, stopped;
	atomic_int stop;
	int read_errno;      /* the reader's failure */
	char buf[1 << 16];
	char carry[512];
	size_t ncarry;
};

/* registry undo: async-signal-safe */
static void remove_instance(void *arg)
{
	struct rl_undo *u = arg;
	int fd = u->fd;

	if (fd >= 0) {
		u->fd = -1;
		close(fd);
	}
	for (int i = 0; i < 100; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		if (!rmdir(u->dir) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		nanosleep(&ts, NULL);   /* the reader's last read still holds the file */
	}
	cleanup_msg("cannot remove the tracefs instance ", u->dir);
}

static int put(const char *dir, const char *rel, const char *val, struct strbuf *why)
{
	char *path = xasprintf("%s/%s", dir, rel);
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW), r = 0;
	size_t len = strlen(val);

	if (fd < 0 || write(fd, val, len) != (ssize_t)len) {
		strbuf_addf(why, "cannot write '%s' to %s: %s", val, path, strerror(errno));
		r = -1;
	}
	if (fd >= 0 && close(fd) && !r) {
		strbuf_addf(why, "cannot write '%s' to %s: %s", val, path, strerror(errno));
		r = -1;
	}
	free(path);
	return r;
}

static int event_id(const char *dir, const char *system, const char *event, int *id,
		    struct strbuf *why)
{
	char *path = xasprintf("%s/events/%s/%s/id", dir, system, event);
	char *t = read_file_str(path, NULL);
	char *e;
	long v;

	v = t ? strtol(t, &e, 10) : -1;
	if (!t || e == t || v <= 0 || v > 0x7fffffff) {
		strbuf_addf(why, "cannot read the event id %s", path);
		free(t);
		free(path);
		return -1;
	}
	*id = (int)v;
	free(t);
	free(path);
	return 0;
}

static void feed(struct rl_session *s, const char *b, size_t n)
{
	const char *end = b + n;

	while (b < end) {
		const char *nl = memchr(b, '\n', (size_t)(end - b));
		size_t l = nl ? (size_t)(nl - b) : (size_t)(end - b);

		if (!nl || s->ncarry) {
			/* a line split between reads: kept up to the longest line we read */
			if (s->ncarry + l < sizeof(s->carry)) {
				memcpy(s->carry + s->ncarry, b, l);
				s->ncarry += l;
			} else {
				s->ncarry = sizeof(s->carry);   /* too long: dropped below */
			}
			if (!nl)
				return;
			if (s->ncarry < sizeof(s->carry))
				rl_feed_line(&s->st, s->carry, s->ncarry);
			else
				s->st.bad_lines++;
			s->ncarry = 0;
		} else {
			rl_feed_line(&s->st, b, l);
		}
		b = nl + 1;
	}
}

static void *reader(void *arg)
{
	struct rl_session *s = arg;
	int fd = s->u->fd;

	for (;;) {
		int stop = atomic_load(&s->stop);
		ssize_t n;

		if (!stop) {
			struct pollfd p = { fd, POLLIN, 0 };

			poll(&p, 1, 100);
		}
		n = read(fd, s->buf, sizeof(s->buf));
		if (n > 0) {
			feed(s, s->buf, (size_t)n);
			continue;
		}
		if (n == 0 || errno == EAGAIN) {
			if (stop)
				break;
			continue;
		}
		if (errno == EINTR)
			continue;
		s->read_errno = errno;
		break;
	}
	return NULL;
}

int rl_start(struct rl_session **out, const char *tracefs, unsigned mask, struct strbuf *why)
{
	struct rl_session *s = xcalloc(1, sizeof(*s));
	char *pipe_path = NULL;
	sigset_t all, old;
	int fd;

	*out = NULL;
	s->u = xcalloc(1, sizeof(*s->u));
	s->u->fd = -1;
	s->mask = mask;
	atomic_init(&s->stop, 0);
	rl_state_init(&s->st);
	s->st.read_comm = true;
	snprintf(s->u->dir, sizeof(s->u->dir), "%s/instances/lrubench-%d", tracefs, (int)getpid());
	if (mkdir(s->u->dir, 0700)) {
		strbuf_addf(why, "cannot create the tracefs instance %s: %s", s->u->dir, strerror(errno));
		goto fail_free;
	}
	s->cleanup_id = cleanup_push("tracefs instance", remove_instance, s->u);
	if (s->cleanup_id < 0) {
		rmdir(s->u->dir);
		strbuf_addstr(why, "the cleanup registry is full");
		goto fail_free;
	}
	/* the instance's own settings: nothing global changes */
	if (put(s->u->dir, "trace_clock", "mono", why) || put(s->u->dir, "options/raw", "1", why) ||
	    put(s->u->dir, "buffer_size_kb", BUFFER_KB, why))
		goto fail;
	for (unsigned i = 0; i < RL_NPAIRS; i++) {
		int b, e;

		if (!(mask & (1u << i)))
			continue;
		if (event_id(s->u->dir, rl_pairs[i].system, rl_pairs[i].begin, &b, why) ||
		    event_id(s->u->dir, rl_pairs[i].system, rl_pairs[i].end, &e, why))
			goto fail;
		rl_state_set_id(&s->st, b, i, false);
		rl_state_set_id(&s->st, e, i, true);
	}
	for (unsigned k = 0; k < RL_NEVENTS; k++) {
		int id;

		if (!(mask & RL_EVENT_BIT(k)))
			continue;
		if (event_id(s->u->dir, rl_events[k].system, rl_events[k].event, &id, why))
			goto fail;
		rl_state_set_event_id(&s->st, id, k);
	}
	pipe_path = xasprintf("%s/trace_pipe", s->u->dir);
	fd = open(pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(why, "cannot open %s: %s", pipe_path, strerror(errno));
		goto fail;
	}
	s->u->fd = fd;
	for (unsigned i = 0; i < RL_NPAIRS; i++) {
		char *rel;
		int r;

		if (!(mask & (1u << i)))
			continue;
		rel = xasprintf("events/%s/%s/enable", rl_pairs[i].system, rl_pairs[i].begin);
		r = put(s->u->dir, rel, "1", why);
		free(rel);
		rel = xasprintf("events/%s/%s/enable", rl_pairs[i].system, rl_pairs[i].end);
		r = r ? r : put(s->u->dir, rel, "1", why);
		free(rel);
		if (r)
			goto fail;
	}
	for (unsigned k = 0; k < RL_NEVENTS; k++) {
		char *rel;
		int r;

		if (!(mask & RL_EVENT_BIT(k)))
			continue;
		rel = xasprintf("events/%s/%s/enable", rl_events[k].system, rl_events[k].event);
		r = put(s->u->dir, rel, "1", why);
		free(rel);
		if (r)
			goto fail;
	}
	/* signals go to the main thread, which unwinds the run */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&s->th, NULL, reader, s)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		strbuf_addstr(why, "cannot start the trace_pipe reader thread");
		goto fail;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->started = true;
	free(pipe_path);
	*out = s;
	return 0;
fail:
	free(pipe_path);
	rl_release(s);
	return -1;
fail_free:
	rl_state_release(&s->st);
	free(s->u);
	free(s);
	return -1;
}

int rl_stop(struct rl_session *s, struct strbuf *why)
{
	struct strbuf off = STRBUF_INIT;

	if (!s || s->stopped)
		return 0;
	s->stopped = true;
	/* no new events; what is in the buffers is read to its end */
	put(s->u->dir, "tracing_on", "0", &off);
	strbuf_release(&off);
	atomic_store(&s->stop, 1);
	if (s->started)
		pthread_join(s->th, NULL);
	s->started = false;
	if (s->read_errno) {
		strbuf_addf(why, "cannot read %s/trace_pipe: %s", s->u->dir, strerror(s->read_errno));
		return -1;
	}
	return 0;
}

void rl_results(const struct rl_session *s, const char *workload, const char *step,
		struct wl_result *res, json_object *d)
{
	json_object *o = json_object_new_object(), *ops = json_object_new_array(),
		    *tps = json_object_new_array(), *wakeups = json_object_new_array();

	for (unsigned i = 0; i < RL_NPAIRS; i++) {
		const struct lhist *h = &s->st.hist[i];
		static const struct { const char *what; double q; } stats[] = {
			{ "p50", 0.50 }, { "p99", 0.99 }, { "max", 1.0 },
		};
		char *title;

		if (!(s->mask & (1u << i)))
			continue;
		json_object_array_add(tps, json_object_new_string(rl_pairs[i].begin));
		json_object_array_add(tps, json_object_new_string(rl_pairs[i].end));
		json_object_array_add(ops, rl_pair_json(&s->st, i));
		title = xasprintf("%s %s %s", workload, rl_pairs[i].name, rl_pairs[i].periods);
		result_table_add(profile_table(res, title, "count", BETTER_LOWER), step, (double)h->count);
		free(title);
		if (!h->count)
			continue;   /* no stall: no latency to compare */
		for (size_t k = 0; k < ARRAY_SIZE(stats); k++) {
			title = xasprintf("%s %s %s %s", workload, rl_pairs[i].name, rl_pairs[i].per_us,
					  stats[k].what);
			result_table_add(profile_table(res, title, "us", BETTER_LOWER), step,
					 stats[k].q >= 1 ? h->max_us : lhist_percentile(h, stats[k].q));
			free(title);
		}
	}
	for (unsigned k = 0; k < RL_NEVENTS; k++) {
		json_object *w;
		char *title;

		if (!(s->mask & RL_EVENT_BIT(k)))
			continue;
		json_object_array_add(tps, json_object_new_string(rl_events[k].event));
		w = json_object_new_object();
		json_object_object_add(w, "name", json_object_new_string(rl_events[k].name));
		json_object_object_add(w, "event", json_object_new_string(rl_events[k].event));
		json_object_object_add(w, "measures", json_object_new_string(rl_events[k].measures));
		json_object_object_add(w, "count", json_object_new_int64((int64_t)s->st.counted[k]));
		json_object_array_add(wakeups, w);
		title = xasprintf("%s %s", workload, rl_events[k].name);
		result_table_add(profile_table(res, title, "count", BETTER_LOWER), step,
				 (double)s->st.counted[k]);
		free(title);
	}
	json_object_object_add(o, "source", json_object_new_string(
				       "a tracefs instance of its own (clock mono, raw), trace_pipe read while "
				       "the pass ran, system-wide; begin and end paired per task"));
	json_object_object_add(o, "percentiles", json_object_new_string(
				       "upper edge of a log bucket (8 per doubling), at most 9% above"));
	json_object_object_add(o, "tracepoints", tps);
	json_object_object_add(o, "events", json_object_new_int64((int64_t)s->st.events));
	json_object_object_add(o, "lost_events", json_object_new_int64((int64_t)s->st.lost));
	json_object_object_add(o, "unpaired", json_object_new_int64((int64_t)s->st.unpaired));
	json_object_object_add(o, "untracked", json_object_new_int64((int64_t)s->st.untracked));
	json_object_object_add(o, "ops", ops);
	json_object_object_add(o, "wakeups", wakeups);
	json_object_object_add(d, "reclaim_latency", o);
}

void rl_release(struct rl_session *s)
{
	if (!s)
		return;
	if (s->started) {
		struct strbuf why = STRBUF_INIT;

		rl_stop(s, &why);
		strbuf_release(&why);
	}
	if (s->cleanup_id > 0)
		cleanup_pop(s->cleanup_id, true);   /* closes trace_pipe, removes the instance */
	rl_state_release(&s->st);
	free(s->u);
	free(s);
}

int rl_sweep_stale(const char *tracefs)
{
	char *dir = xasprintf("%s/instances", tracefs);
	DIR *d = opendir(dir);
	struct dirent *e;
	int removed = 0;

	while (d && (e = readdir(d))) {
		unsigned long long pid;
		const char *p = e->d_name, *end;

		if (strncmp(p, "lrubench-", 9))
			continue;
		p += 9;
		end = p + strlen(p);
		if (!num(&p, end, &pid) || p != end || !pid || pid > 0x7fffffff || (pid_t)pid == getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;   /* alive (or not ours to judge): left alone */
		{
			char *path = xasprintf("%s/%s", dir, e->d_name);

			if (!rmdir(path)) {
				info("profile: removed the tracefs instance %s of a run that was killed (pid %llu)",
				     path, pid);
				removed++;
			} else {
				warning("profile: cannot remove the tracefs instance %s of the dead run %llu: %s",
					path, pid, strerror(errno));
			}
			free(path);
		}
	}
	if (d)
		closedir(d);
	free(dir);
	return removed;
}
