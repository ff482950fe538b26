// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qemu for one guest run. The host root is exported read-only over 9p
 * (security_model=none: qemu runs as root and passes ownership through;
 * multidevs=remap because / spans several host file systems), the results
 * root a second time writable. The serial console goes to a file that we
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
#include "vm/initramfs.h"
#include "core/child.h"

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

int vm_qemu_argv(const struct vm_qemu_spec *s, struct strlist *argv, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t mib = s->mem_bytes >> 20;

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
	strlist_push(argv, s->qemu ? s->qemu : "qemu-system-x86_64");
	strlist_push(argv, "-nodefaults");
	strlist_push(argv, "-no-user-config");
	strlist_push(argv, "-display");
	strlist_push(argv, "none");
	strlist_push(argv, "-no-reboot");
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
	for (unsigned n = 0; s->numa_nodes > 1 && n < s->numa_nodes; n++) {
		unsigned first = n * s->cpus / s->numa_nodes;
		unsigned last = (n + 1) * s->cpus / s->numa_nodes - 1;

		strlist_push(argv, "-object");
		strlist_pushf(argv, "memory-backend-ram,id=mem%u,size=%lluM", n,
			      (unsigned long long)(mib / s->numa_nodes));
		strlist_push(argv, "-numa");
		strlist_pushf(argv, "node,nodeid=%u,cpus=%u-%u,memdev=mem%u", n, first, last, n);
	}
	strlist_push(argv, "-kernel");
	strlist_push(argv, s->kernel);
	strlist_push(argv, "-initrd");
	strlist_push(argv, s->initrd);
	strlist_push(argv, "-append");
	strlist_push(argv, s->append);

	strbuf_addstr(&sb, "file,id=console,path=");
	add_escaped(&sb, s->console_path);
	strlist_push(argv, "-chardev");
	strlist_push(argv, sb.buf);
	strlist_push(argv, "-serial");
	strlist_push(argv, "chardev:console");

	strlist_push(argv, "-virtfs");
	strlist_push(argv, "local,path=/,mount_tag=" VM_TAG_HOSTROOT
		     ",security_model=none,readonly=on,multidevs=remap");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "local,path=");
	add_escaped(&sb, s->results_dir);
	strbuf_addstr(&sb, ",mount_tag=" VM_TAG_RESULTS ",security_model=none,multidevs=remap");
	strlist_push(argv, "-virtfs");
	strlist_push(argv, sb.buf);
	strbuf_release(&sb);
	return 0;
}

/* ---- running ---- */

struct console {
	int fd;
	struct strbuf partial;
	bool begun;
	const char *prefix;
	struct vm_boot *b;
	bool exited, panicked, init_failed;
};

static void on_line(struct console *c, char *line)
{
	size_t l = strlen(line);
	const char *p;

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
	p = strstr(line, "Kernel panic");
	if (p && !c->panicked) {
		c->panicked = true;
		strbuf_reset(&c->b->reason);
		strbuf_addstr(&c->b->reason, p);
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
			} else if (buf[i]) {
				strbuf_add(&c->partial, buf + i, 1);
			}
		}
	}
}

int vm_qemu_run(const struct vm_qemu_spec *s, double timeout, const char *prefix,
		const char *qemu_log, struct vm_boot *b)
{
	struct strlist argv = STRLIST_INIT;
	struct child q = { .name = "qemu", .out_path = qemu_log };
	struct console c = { .fd = -1, .prefix = prefix, .b = b };
	struct strbuf err = STRBUF_INIT;
	double start = now_monotonic(), deadline = start + timeout, grace_end = 0;
	int code = -1, ret = 0, fd;

	memset(b, 0, sizeof(*b));
	strbuf_init(&b->reason);
	strbuf_init(&c.partial);
	b->guest_code = -1;
	b->qemu_code = -1;
	if (vm_qemu_argv(s, &argv, &err)) {
		ret = error("%s", err.buf);
		goto out;
	}
	/* create the console file first so we can follow it from byte 0 */
	fd = open(s->console_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
	for (;;) {
		int r = child_wait(&q, 0.2, &code, NULL);

		console_poll(&c);
		if (r == 0) {
			b->qemu_code = code;
			break;
		}
		if (r == -2) {
			b->outcome = VM_INTERRUPTED;
			child_stop(&q, 0);
			goto verdict;
		}
		if (r < 0) {
			child_stop(&q, 0);
			ret = -1;
			goto out;
		}
		/* after the verdict, give the guest time to power off by itself */
		if ((c.exited || c.panicked || c.init_failed) && !grace_end)
			grace_end = now_monotonic() + 30;
		if (grace_end && now_monotonic() > grace_end) {
			child_stop(&q, 2);
			break;
		}
		if (!grace_end && now_monotonic() > deadline) {
			b->outcome = VM_TIMEOUT;
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
	else if (c.exited)
		b->outcome = VM_DONE;
	else if (c.panicked)
		b->outcome = VM_PANIC;
	else
		b->outcome = VM_LOST;
verdict:
	b->seconds = now_monotonic() - start;
out:
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
}
