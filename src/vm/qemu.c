// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qemu for one guest run. The guest sees the host through 9p exports only
 * (vm/exports.h): the system folders and the staging folder read-only
 * (security_model=none: ownership as on the host; multidevs=remap since a
 * folder may span several file systems), and the boot's own results folder
 * writable with security_model=mapped-xattr, so whatever the guest makes
 * there (a device node, a setuid file, a link) is a plain file on the host
 * (vm/import.h). The serial console goes to a file that we
 * poll: it carries the guest's progress, our begin/exit markers and, when it
 * goes wrong, the kernel's panic message.
 */
#include "vm/qemu.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/child.h"
#include "core/procfs.h"
#include "vm/initramfs.h"
#include "vm/placement.h"
#include "vm/qmp.h"

void vm_kernel_cmdline(struct strbuf *sb, bool kvm, const char *extra)
{
	/* panic=1 + -no-reboot: a panicking guest ends qemu instead of hanging */
	strbuf_addf(sb, "console=ttyS0 panic=1 oops=panic rdinit=/init lrubench.virt=%s",
		    kvm ? "kvm" : "tcg");
	if (extra && *extra)
		strbuf_addf(sb, " %s", extra);
}

/* qemu option values are comma separated: a comma in a path is doubled */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ',')
			strbuf_addstr(sb, ",");
		strbuf_add(sb, s, 1);
	}
}

static const char *backend_type(const struct vm_placement *p)
{
	return !p || p->backend == VM_BACKEND_RAM ? "memory-backend-ram" : "memory-backend-memfd";
}

/* ",host-nodes=N,policy=bind" and the huge page options of one backend */
static void backend_options(struct strbuf *sb, const struct vm_placement *p, unsigned g)
{
	if (p && p->backend == VM_BACKEND_HUGETLB)
		strbuf_addstr(sb, ",hugetlb=on,hugetlbsize=2M");
	if (p && p->bound && p->host_node[g] >= 0)
		strbuf_addf(sb, ",host-nodes=%d,policy=bind", p->host_node[g]);
}

int vm_qemu_argv(const struct vm_qemu_spec *s, struct strlist *argv, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t mib = s->mem_bytes >> 20;
	const struct vm_placement *p = s->place;

	if (s->numa_nodes > 1) {
		if (s->cpus < s->numa_nodes) {
			strbuf_addf(err, "vm_numa_nodes=%u needs at least as many vm_cpus (%u): "
				    "each node gets CPUs so a workload can bind to it", s->numa_nodes, s->cpus);
			return -1;
		}
		if (mib % s->numa_nodes || mib / s->numa_nodes < 256) {
			strbuf_addf(err, "vm_memory=%lluM does not split into %u nodes of at least 256M each "
				    "in whole MiB", (unsigned long long)mib, s->numa_nodes);
			return -1;
		}
	}
	if (p && p->backend == VM_BACKEND_HUGETLB && (mib / (s->numa_nodes > 1 ? s->numa_nodes : 1)) % 2) {
		strbuf_addf(err, "vm_memory=%lluM per node is not a whole number of 2M huge pages",
			    (unsigned long long)mib);
		return -1;
	}
	strlist_push(argv, s->qemu ? s->qemu : "qemu-system-x86_64");
	strlist_push(argv, "-nodefaults");
	strlist_push(argv, "-no-user-config");
	strlist_push(argv, "-display");
	strlist_push(argv, "none");
	strlist_push(argv, "-no-reboot");
	if (s->qmp_path) {
		/* paused until its vCPU threads are placed (vm/placement.h), then "cont" */
		strlist_push(argv, "-S");
		strbuf_addstr(&sb, "unix:");
		add_escaped(&sb, s->qmp_path);
		strbuf_addstr(&sb, ",server=on,wait=off");
		strlist_push(argv, "-qmp");
		strlist_push(argv, sb.buf);
		strbuf_reset(&sb);
	}
	strlist_push(argv, "-accel");
	if (s->kvm) {
		strlist_push(argv, "kvm");
	} else {
		strlist_push(argv, "tcg");
		strlist_push(argv, "-cpu");
		strlist_push(argv, "max");
	}
	strlist_push(argv, "-m");
	strlist_pushf(argv, "%lluM", (unsigned long long)mib);
	strlist_push(argv, "-smp");
	strlist_pushf(argv, "%u", s->cpus);
	if (s->numa_nodes > 1) {
		for (unsigned n = 0; n < s->numa_nodes; n++) {
			unsigned first, last;

			vm_node_cpus(s->cpus, s->numa_nodes, n, &first, &last);
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s,id=mem%u,size=%lluM", backend_type(p), n,
				    (unsigned long long)(mib / s->numa_nodes));
			backend_options(&sb, p, n);
			strlist_push(argv, "-object");
			strlist_push(argv, sb.buf);
			strlist_push(argv, "-numa");
			strlist_pushf(argv, "node,nodeid=%u,cpus=%u-%u,memdev=mem%u", n, first, last, n);
		}
	} else if (p && (p->bound || p->backend != VM_BACKEND_RAM)) {
		/* one guest node: its RAM is this backend, bound or on huge pages */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s,id=mem0,size=%lluM", backend_type(p), (unsigned long long)mib);
		backend_options(&sb, p, 0);
		strlist_push(argv, "-object");
		strlist_push(argv, sb.buf);
		strlist_push(argv, "-machine");
		strlist_push(argv, "memory-backend=mem0");
	}
	if (s->balloon) {
		/* the guest's free pages go back to the host as it frees them */
		strlist_push(argv, "-device");
		strlist_push(argv, "virtio-balloon-pci,id=balloon0,free-page-reporting=on");
	}
	strlist_push(argv, "-kernel");
	strlist_push(argv, s->kernel);
	strlist_push(argv, "-initrd");
	strlist_push(argv, s->initrd);
	strlist_push(argv, "-append");
	strlist_push(argv, s->append);

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "file,id=console,path=");
	add_escaped(&sb, s->console_path);
	strlist_push(argv, "-chardev");
	strlist_push(argv, sb.buf);
	strlist_push(argv, "-serial");
	strlist_push(argv, "chardev:console");

	for (size_t i = 0; i < s->nshares; i++) {
		const struct vm_share *sh = &s->shares[i];

		strbuf_reset(&sb);
		strbuf_addstr(&sb, "local,path=");
		add_escaped(&sb, sh->path);
		strbuf_addf(&sb, ",mount_tag=%s,security_model=%s%s,multidevs=remap", sh->tag,
			    !sh->writable ? "none" : sh->mapped_file ? "mapped-file" : "mapped-xattr",
			    sh->writable ? "" : ",readonly=on");
		strlist_push(argv, "-virtfs");
		strlist_push(argv, sb.buf);
	}
	strbuf_release(&sb);
	return 0;
}

/* ---- running ---- */

enum vm_crash vm_console_crash(const char *line)
{
	/* the order matters: "BUG: soft lockup" is a lockup, not an oops */
	if (strstr(line, "Kernel panic - not syncing"))
		return VM_CRASH_PANIC;
	if (strstr(line, "soft lockup - CPU#") || strstr(line, "hard LOCKUP") ||
	    strstr(line, "self-detected stall on CPU") || strstr(line, "detected stalls on CPUs"))
		return VM_CRASH_LOCKUP;
	if (strstr(line, " blocked for more than ") && strstr(line, "INFO: task "))
		return VM_CRASH_HUNG_TASK;
	if (strstr(line, "Oops: ") || strstr(line, "kernel BUG at ") ||
	    strstr(line, "general protection fault") || strstr(line, "BUG: unable to handle") ||
	    strstr(line, "BUG: kernel NULL pointer dereference"))
		return VM_CRASH_OOPS;
	return VM_CRASH_NONE;
}

const char *vm_crash_name(enum vm_crash c)
{
	switch (c) {
	case VM_CRASH_OOPS: return "oops";
	case VM_CRASH_PANIC: return "panic";
	case VM_CRASH_LOCKUP: return "lockup";
	case VM_CRASH_HUNG_TASK: return "hung task";
	case VM_CRASH_NONE: break;
	}
	return "none";
}

#define VM_MAX_WARNINGS 5

struct console {
	int fd;
	struct strbuf partial;
	bool begun;
	const char *prefix;
	struct vm_boot *b;
	bool kvm;
	bool exited, init_failed;
	bool fatal;              /* a crash that ends the round was seen */
};

static void on_crash_line(struct console *c, enum vm_crash kind, const char *line)
{
	bool fatal = kind == VM_CRASH_PANIC || kind == VM_CRASH_OOPS || c->kvm;

	if (!fatal) {
		/* TCG: a stalled emulated CPU is not the kernel's fault; keep the line */
		if (c->b->warnings.n < VM_MAX_WARNINGS)
			strlist_push(&c->b->warnings, line);
		return;
	}
	if (!c->fatal) {
		/* the first crash line decides: an oops that then panics is an oops */
		c->fatal = true;
		c->b->crash = kind;
		strbuf_addstr(&c->b->first_line, line);
	}
}

static void on_line(struct console *c, char *line)
{
	size_t l = strlen(line);
	enum vm_crash kind;

	while (l && (line[l - 1] == '\r' || line[l - 1] == '\n'))
		line[--l] = '\0';
	if (!strncmp(line, VM_MARK_EXIT, strlen(VM_MARK_EXIT))) {
		c->exited = true;
		c->b->guest_code = atoi(line + strlen(VM_MARK_EXIT));
		c->begun = false;
		return;
	}
	if (!strncmp(line, VM_MARK_FAIL, strlen(VM_MARK_FAIL))) {
		c->init_failed = true;
		strbuf_reset(&c->b->reason);
		strbuf_addstr(&c->b->reason, line + strlen(VM_MARK_FAIL));
		return;
	}
	if (!strcmp(line, VM_MARK_BEGIN)) {
		c->begun = true;
		return;
	}
	kind = vm_console_crash(line);
	if (kind != VM_CRASH_NONE) {
		const char *p = line;

		/* drop the "[   12.345678] " timestamp */
		if (*p == '[' && strchr(p, ']'))
			p = strchr(p, ']') + 1;
		while (*p == ' ')
			p++;
		on_crash_line(c, kind, p);
	}
	if (c->begun && c->prefix) {
		printf("%s%s\n", c->prefix, line);
		fflush(stdout);
	}
}

static void console_poll(struct console *c)
{
	char buf[8192];
	ssize_t r;

	if (c->fd < 0)
		return;
	while ((r = read(c->fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == '\n') {
				on_line(c, c->partial.buf ? c->partial.buf : (char *)"");
				strbuf_reset(&c->partial);
			} else if (buf[i] && c->partial.len < 64 * 1024) {
				strbuf_add(&c->partial, buf + i, 1);
			}
		}
	}
}

struct alive {
	struct child *q;
	int code;
	bool ended;
};

static bool qemu_alive(void *arg)
{
	struct alive *a = arg;

	if (!a->ended && child_wait(a->q, 0, &a->code, NULL) == 0)
		a->ended = true;
	return !a->ended;
}

#define BALLOON_PATH "/machine/peripheral/balloon0"   /* -device ...,id=balloon0 */
#define QMP_SAMPLE_TIMEOUT 10.0   /* seconds for one answer while the guest runs */

/* The balloon's stats queue: the guest driver reports its memory every
 * interval (whole seconds, at least 1) once asked. */
static void balloon_stats_start(const struct vm_qemu_spec *s, struct qmp *m, struct vm_boot *b)
{
	json_object *args = json_object_new_object();
	struct strbuf why = STRBUF_INIT;
	long secs = (long)(s->rss_interval + 0.999);

	json_object_object_add(args, "path", json_object_new_string(BALLOON_PATH));
	json_object_object_add(args, "property", json_object_new_string("guest-stats-polling-interval"));
	json_object_object_add(args, "value", json_object_new_int64(secs < 1 ? 1 : secs));
	if (qmp_execute_args(m, "qom-set", args, NULL, &why))
		json_object_object_add(b->memory, "guest_stats_error", json_object_new_string(why.buf));
	json_object_put(args);
	strbuf_release(&why);
}

/* qemu is paused (-S): find its vCPU threads, place them, read back, go.
 * With a balloon and RSS sampling, m stays open for the guest's side of
 * the samples (m->fd >= 0); else it is closed. */
static int place_and_start(const struct vm_qemu_spec *s, struct alive *al, struct vm_boot *b,
			   struct qmp *mp, struct strbuf *err)
{
	struct child *q = al->q;
	struct qmp m;
	json_object *cpus = NULL;
	int ret = -1;

	mp->fd = -1;
	if (qmp_open(&m, s->qmp_path, 60, qemu_alive, al, err))
		return -1;
	if (qmp_execute(&m, "query-cpus-fast", &cpus, err))
		goto out;
	if (s->place && vm_placement_pin(s->place, cpus, err))
		goto out;
	if (s->place)
		b->placement = vm_placement_readback(s->place, q->pid, cpus);
	if (qmp_execute(&m, "cont", NULL, err))
		goto out;
	if (s->balloon && s->balloon_target) {
		json_object *args = json_object_new_object(), *bl = json_object_new_object();
		struct strbuf why = STRBUF_INIT;

		json_object_object_add(args, "value", json_object_new_int64((int64_t)s->balloon_target));
		json_object_object_add(bl, "target", json_object_new_int64((int64_t)s->balloon_target));
		/* a guest without the balloon driver yet is qemu's to refuse: said, not fatal */
		if (qmp_execute_args(&m, "balloon", args, NULL, &why))
			json_object_object_add(bl, "error", json_object_new_string(why.buf));
		json_object_object_add(bl, "asked", json_object_new_boolean(!why.len));
		json_object_object_add(b->memory, "balloon", bl);
		json_object_put(args);
		strbuf_release(&why);
	}
	if (s->balloon && s->rss_interval > 0) {
		balloon_stats_start(s, &m, b);
		m.timeout = QMP_SAMPLE_TIMEOUT;
		*mp = m;
		m.fd = -1;
		strbuf_init(&m.in);
	}
	ret = 0;
out:
	json_object_put(cpus);
	qmp_close(&m);
	return ret;
}

/* While qemu still runs: where the guest's pages are now. A qemu that is
 * exiting has no mappings left to read: the last read that found them stays. */
static void reread_memory(const struct vm_qemu_spec *s, struct child *q, struct vm_boot *b)
{
	json_object *m;

	if (!s->place || !b->placement || !q->running)
		return;
	m = vm_placement_read_memory(s->place, q->pid);
	if (json_object_array_length(m))
		json_object_object_add(b->placement, "memory", m);
	else
		json_object_put(m);
}

json_object *vm_qemu_memory_new(double interval)
{
	json_object *m = json_object_new_object();

	json_object_object_add(m, "interval_s", json_object_new_double(interval));
	json_object_object_add(m, "rss_kb", json_object_new_array());
	json_object_object_add(m, "max_rss_kb", json_object_new_int64(0));
	json_object_object_add(m, "hwm_kb", json_object_new_int64(0));
	return m;
}

void vm_qemu_memory_add(json_object *m, unsigned long long rss_kb, unsigned long long hwm_kb)
{
	json_object *a, *mx, *hw;

	json_object_object_get_ex(m, "rss_kb", &a);
	json_object_object_get_ex(m, "max_rss_kb", &mx);
	json_object_object_get_ex(m, "hwm_kb", &hw);
	json_object_array_add(a, json_object_new_int64((int64_t)rss_kb));
	if ((int64_t)rss_kb > json_object_get_int64(mx))
		json_object_object_add(m, "max_rss_kb", json_object_new_int64((int64_t)rss_kb));
	if ((int64_t)hwm_kb > json_object_get_int64(hw))
		json_object_object_add(m, "hwm_kb", json_object_new_int64((int64_t)hwm_kb));
}

static void set_array_member(json_object *m, const char *key, long long v)
{
	json_object *a;

	if (!json_object_object_get_ex(m, key, &a)) {
		a = json_object_new_array();
		json_object_object_add(m, key, a);
	}
	json_object_array_add(a, v >= 0 ? json_object_new_int64(v) : NULL);
}

void vm_qemu_memory_add_guest(json_object *m, long long actual_kb, long long free_kb, long long avail_kb)
{
	set_array_member(m, "balloon_actual_kb", actual_kb);
	set_array_member(m, "guest_free_kb", free_kb);
	set_array_member(m, "guest_available_kb", avail_kb);
}

/* a byte count of the stats, in KiB; -1 when absent or qemu's "none" (~0) */
static long long stat_kb(json_object *stats, const char *key)
{
	json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(stats, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	n = json_object_get_int64(v);
	return n < 0 || n == INT64_MAX ? -1 : (long long)(n / 1024);
}

void vm_balloon_guest_stats(json_object *reply, long long *free_kb, long long *avail_kb)
{
	json_object *stats, *upd;

	*free_kb = *avail_kb = -1;
	if (!reply || !json_object_object_get_ex(reply, "last-update", &upd) ||
	    json_object_get_int64(upd) <= 0 || !json_object_object_get_ex(reply, "stats", &stats))
		return;
	*free_kb = stat_kb(stats, "stat-free-memory");
	*avail_kb = stat_kb(stats, "stat-available-memory");
}

/* The balloon's view now: query-balloon's actual and the guest's reported
 * stats, -1 for what is not known. A QMP failure closes m (said once in
 * guest_stats_error): a guest that cannot be asked is not asked again. A
 * qemu that is exiting (the guest powered off after its verdict, or
 * panicked: its /proc status has no memory left) closes the socket under
 * the question: that is no failure to record. */
static void sample_guest(struct qmp *m, pid_t pid, struct vm_boot *b, long long *actual_kb,
			 long long *free_kb, long long *avail_kb)
{
	unsigned long long rss, hwm;

	struct strbuf why = STRBUF_INIT;
	json_object *ret = NULL, *v, *args;

	*actual_kb = *free_kb = *avail_kb = -1;
	if (m->fd < 0)
		return;
	if (!qmp_execute(m, "query-balloon", &ret, &why) && json_object_object_get_ex(ret, "actual", &v) &&
	    json_object_get_int64(v) > 0)
		*actual_kb = (long long)(json_object_get_int64(v) / 1024);
	json_object_put(ret);
	ret = NULL;
	if (!why.len) {
		args = json_object_new_object();
		json_object_object_add(args, "path", json_object_new_string(BALLOON_PATH));
		json_object_object_add(args, "property", json_object_new_string("guest-stats"));
		if (!qmp_execute_args(m, "qom-get", args, &ret, &why))
			vm_balloon_guest_stats(ret, free_kb, avail_kb);
		json_object_put(args);
		json_object_put(ret);
	}
	if (why.len) {
		if (!json_object_object_get_ex(b->memory, "guest_stats_error", NULL) &&
		    !proc_memory_read(pid, &rss, &hwm))
			json_object_object_add(b->memory, "guest_stats_error", json_object_new_string(why.buf));
		qmp_close(m);
	}
	strbuf_release(&why);
}

/* qemu's VmRSS and VmHWM now, into b->memory (nothing once it is gone);
 * with a balloon, the guest's side of the same moment */
static void sample_memory(const struct vm_qemu_spec *s, struct child *q, struct qmp *m, struct vm_boot *b)
{
	unsigned long long rss, hwm;
	long long actual, free_kb, avail;

	if (!q->running || proc_memory_read(q->pid, &rss, &hwm))
		return;
	vm_qemu_memory_add(b->memory, rss, hwm);
	if (s->balloon) {
		sample_guest(m, q->pid, b, &actual, &free_kb, &avail);
		vm_qemu_memory_add_guest(b->memory, actual, free_kb, avail);
	}
}

int vm_qemu_run(const struct vm_qemu_spec *s, double timeout, const char *prefix,
		const char *qemu_log, struct vm_boot *b)
{
	struct strlist argv = STRLIST_INIT;
	struct child q = { .name = "qemu", .out_path = qemu_log };
	struct console c = { .fd = -1, .prefix = prefix, .b = b, .kvm = s->kvm };
	struct strbuf err = STRBUF_INIT;
	struct alive al = { 0 };
	struct qmp m = { .fd = -1 };
	double start = now_monotonic(), deadline, grace_end = 0, next_read = 0, next_rss = 0;
	int code = -1, ret = 0, fd;
	bool reread = false;

	memset(b, 0, sizeof(*b));
	strbuf_init(&b->reason);
	strbuf_init(&b->first_line);
	strbuf_init(&c.partial);
	b->guest_code = -1;
	b->qemu_code = -1;
	b->memory = vm_qemu_memory_new(s->rss_interval);
	if (vm_qemu_argv(s, &argv, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	/* create the console file first so we can follow it from byte 0 */
	fd = open(s->console_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = error_errno("cannot create %s", s->console_path);
		goto out;
	}
	close(fd);
	c.fd = open(s->console_path, O_RDONLY | O_CLOEXEC);
	q.argv = (const char *const *)argv.v;
	if (child_start(&q)) {
		ret = -1;
		goto out;
	}
	al.q = &q;
	if (s->qmp_path && place_and_start(s, &al, b, &m, &err)) {
		if (lb_stop_requested()) {
			b->outcome = VM_INTERRUPTED;
			child_stop(&q, 0);
			goto verdict;
		}
		if (!qemu_alive(&al)) {
			/* qemu refused its own command line (a node it cannot bind...):
			 * its log says why */
			b->qemu_code = al.code;
			b->outcome = VM_LOST;
			strbuf_addf(&b->reason, "%s", err.buf);
			goto verdict;
		}
		child_stop(&q, 2);
		ret = error("%s", err.buf);
		goto out;
	}
	deadline = now_monotonic() + timeout;
	for (;;) {
		int r = child_wait(&q, 0.2, &code, NULL);

		console_poll(&c);
		if (r == CHILD_REAPED) {
			b->qemu_code = code;
			break;
		}
		if (r == CHILD_STOP) {
			b->outcome = VM_INTERRUPTED;
			child_stop(&q, 0);
			goto verdict;
		}
		if (r < 0) {
			child_stop(&q, 0);
			ret = -1;
			goto out;
		}
		/* the guest touches its pages as it runs: read where they are every
		 * few seconds, and once more at the verdict (qemu may be gone a
		 * moment later) */
		if (((c.exited || c.fatal || c.init_failed) && !reread) ||
		    now_monotonic() > next_read) {
			if ((c.exited || c.fatal || c.init_failed) && !reread && s->rss_interval > 0)
				sample_memory(s, &q, &m, b);   /* the last one, at the verdict */
			reread_memory(s, &q, b);
			reread = c.exited || c.fatal || c.init_failed;
			next_read = now_monotonic() + 5;
		}
		/* what the host pays for the guest: qemu's resident set */
		if (s->rss_interval > 0 && now_monotonic() >= next_rss && !c.exited) {
			sample_memory(s, &q, &m, b);
			next_rss = now_monotonic() + s->rss_interval;
		}
		/* after the verdict, give the guest time to power off by itself;
		 * after a crash, time to print the rest of it */
		if (c.fatal && (!grace_end || grace_end > now_monotonic() + 10))
			grace_end = now_monotonic() + 10;
		if ((c.exited || c.init_failed) && !grace_end)
			grace_end = now_monotonic() + 30;
		if (grace_end && now_monotonic() > grace_end) {
			child_stop(&q, 2);
			break;
		}
		if (!grace_end && now_monotonic() > deadline) {
			b->outcome = VM_TIMEOUT;
			reread_memory(s, &q, b);
			child_stop(&q, 2);
			console_poll(&c);
			goto verdict;
		}
	}
	console_poll(&c);
	if (c.partial.len) {
		on_line(&c, c.partial.buf);
		strbuf_reset(&c.partial);
	}
	if (c.init_failed)
		b->outcome = VM_INIT_FAILED;
	else if (c.fatal)
		b->outcome = VM_CRASHED;
	else if (c.exited)
		b->outcome = VM_DONE;
	else
		b->outcome = VM_LOST;
verdict:
	b->seconds = now_monotonic() - start;
out:
	qmp_close(&m);
	if (c.fd >= 0)
		close(c.fd);
	strbuf_release(&c.partial);
	strbuf_release(&err);
	strlist_release(&argv);
	return ret;
}

void vm_boot_release(struct vm_boot *b)
{
	strbuf_release(&b->reason);
	strbuf_release(&b->first_line);
	strlist_release(&b->warnings);
	json_object_put(b->placement);
	b->placement = NULL;
	json_object_put(b->memory);
	b->memory = NULL;
}
