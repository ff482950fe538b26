// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lrubench run --kernel-a IMG --kernel-b IMG [suite...]`: kernel A against
 * kernel B on one machine without rebooting it. Each image boots in qemu
 * with the host's root shared read-only over 9p and runs the same
 * `lrubench run` inside, writing results/<label>/ through a writable share
 * of the results root; then the comparison is printed.
 *
 * This file orchestrates, in vm/: settings (args.c), image checks (kimage.c),
 * modules (modules.c), the initramfs (initramfs.c), the accelerator probe
 * (kvm_probe.c), qemu (qemu.c), rounds pooling (merge.c).
 */
#include "vm/vm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <json-c/json.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/label_name.h"
#include "core/path.h"
#include "core/net_client.h"
#include "core/util.h"
#include "vm/args.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/kvm_probe.h"
#include "vm/merge.h"
#include "vm/modules.h"
#include "vm/qemu.h"
#include "vm/rounds.h"
#include "vm/tmp.h"

#define QEMU "qemu-system-x86_64"
#define KVM_PROBE_SECONDS 2.0

struct kernel {
	char which;              /* 'a' or 'b' */
	const char *image;       /* as given */
	char *image_abs;
	bool host;
	struct kimage ki;
	struct vm_modset mods;
	char *label;
	char *dir;               /* results/<label> */
	char *initrd;            /* per round, in the temp folder */
	int code;                /* first failure, LB_EXIT_*; 0 while fine */
	bool ran;                /* round 1 finished with status 0 */
	double seconds;          /* of its last round */
};

struct vm_run {
	struct vm_args a;
	struct kernel k[2];
	int nk;
	char *results;           /* absolute results root */
	char *self;              /* this lrubench binary */
	char *cwd;
	char *busybox;
	bool kvm;
	struct vm_tmpdir tmp;
	struct strlist keep;     /* host folders the guest must see (see vm_guest.keep) */
};

/* images, labels, output folder: everything checkable before booting */
static int check_inputs(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	struct utsname u;

	uname(&u);
	for (int i = 0; i < r->nk; i++) {
		struct kernel *k = &r->k[i];

		k->which = (char)('a' + i);
		k->image = r->a.kernel[i];
		k->host = !strcmp(k->image, VM_HOST);
		if (k->host) {
			snprintf(k->ki.release, sizeof(k->ki.release), "%s", u.release);
		} else {
			if (kimage_read(k->image, &k->ki, &err)) {
				error("--kernel-%c: %s", k->which, err.buf);
				strbuf_release(&err);
				return LB_EXIT_USAGE;
			}
			k->image_abs = realpath(k->image, NULL);
		}
		k->label = xstrdup(r->a.label[i] ? r->a.label[i] : k->ki.release);
		if (label_name_check(k->label, &err)) {
			if (r->a.label[i])
				error("--label-%c: %s", k->which, err.buf);
			else
				error("kernel %c: %s (it defaults to the kernel release: give "
				      "--label-%c NAME)", k->which, err.buf, k->which);
			strbuf_release(&err);
			return LB_EXIT_USAGE;
		}
	}
	if (r->nk == 2 && !strcmp(r->k[0].label, r->k[1].label)) {
		error("both kernels would write results/%s: give --label-a and --label-b", r->k[0].label);
		return LB_EXIT_USAGE;
	}
	if (!r->a.dry_run && mkdir_p(r->a.results ? r->a.results : "results", 0755))
		return LB_EXIT_USAGE;
	r->results = realpath(r->a.results ? r->a.results : "results", NULL);
	if (!r->results && r->a.dry_run) {
		const char *o = r->a.results ? r->a.results : "results";
		char *cwd = getcwd(NULL, 0);
		r->results = *o == '/' || !cwd ? xstrdup(o) : xasprintf("%s/%s", cwd, o);
		free(cwd);
	}
	if (!r->results)
	{
		error_errno("cannot resolve %s", r->a.results ? r->a.results : "results");
		return LB_EXIT_USAGE;
	}
	for (int i = 0; i < r->nk; i++) {
		char *run = xasprintf("%s/%s/run.json", r->results, r->k[i].label);
		r->k[i].dir = xasprintf("%s/%s", r->results, r->k[i].label);
		if (path_exists(run) && !r->a.force && !r->a.resume) {
			error("%s already holds a run: use --force to replace it, --resume to continue it, "
			      "or another --label-%c", r->k[i].dir, r->k[i].which);
			free(run);
			return LB_EXIT_USAGE;
		}
		free(run);
	}
	return 0;
}

static int check_tools(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	static const char *const busyboxes[] = { "/bin/busybox", "/usr/bin/busybox" };

	if (!program_in_path(QEMU)) {
		error("VM mode needs %s (apt-get install qemu-system-x86)", QEMU);
		return LB_EXIT_UNSUPPORTED;
	}
	{
		/* the initramfs is written by the helper program lrubench-net */
		char *helper = net_helper_path();

		if (!helper)
			return LB_EXIT_UNSUPPORTED;
		free(helper);
	}
	for (size_t i = 0; i < ARRAY_SIZE(busyboxes) && !r->busybox; i++) {
		strbuf_reset(&err);
		if (path_exists(busyboxes[i]) && !elf_is_static(busyboxes[i], &err))
			r->busybox = xstrdup(busyboxes[i]);
	}
	if (!r->busybox) {
		error("VM mode needs a static busybox for the guest's initramfs%s%s "
		      "(apt-get install busybox-static)", err.len ? ": " : "", strbuf_str(&err));
		strbuf_release(&err);
		return LB_EXIT_UNSUPPORTED;
	}
	strbuf_release(&err);
	return 0;
}

static int find_modules(struct vm_run *r)
{
	for (int i = 0; i < r->nk; i++) {
		struct kernel *k = &r->k[i];
		struct strbuf err = STRBUF_INIT;

		if (k->host)
			continue;
		if (vm_modules_resolve(k->image, k->ki.release, r->a.modules[i], r->tmp.path, &k->mods, &err)) {
			error("--kernel-%c %s (%s): %s", k->which, k->image, k->ki.release, err.buf);
			strbuf_release(&err);
			return r->a.modules[i] ? LB_EXIT_USAGE : LB_EXIT_UNSUPPORTED;
		}
		strbuf_release(&err);
		for (size_t w = 0; w < k->mods.warnings.n; w++)
			warning("%s (%s): %s", k->label, k->ki.release, k->mods.warnings.v[w]);
	}
	return 0;
}

/* ---- one round of one kernel ---- */

struct vm_note {
	struct vm_run *r;
	struct kernel *k;
	int round;
	const char *status;   /* NULL: keep the guest's */
	const char *error;
	const char *append;
	double seconds;
};

static void annotate(json_object *run, void *arg)
{
	struct vm_note *n = arg;
	json_object *vm, *secs;
	char mem[32];

	if (!json_object_object_get_ex(run, "vm", &vm)) {
		vm = json_object_new_object();
		json_object_object_add(run, "vm", vm);
	}
	json_object_object_add(vm, "image", json_object_new_string(n->k->host ? VM_HOST :
		n->k->image_abs ? n->k->image_abs : n->k->image));
	if (!n->k->host) {
		format_size(n->r->a.memory, mem, sizeof(mem));
		json_object_object_add(vm, "accel", json_object_new_string(n->r->kvm ? "kvm" : "tcg"));
		json_object_object_add(vm, "memory", json_object_new_string(mem));
		json_object_object_add(vm, "cpus", json_object_new_int((int)n->r->a.cpus));
		json_object_object_add(vm, "numa_nodes", json_object_new_int((int)n->r->a.numa_nodes));
		json_object_object_add(vm, "kernel_cmdline", json_object_new_string(n->append ? n->append : ""));
		if (n->k->mods.moddir)
			json_object_object_add(vm, "modules_dir", json_object_new_string(n->k->mods.moddir));
		json_object_object_add(vm, "console_log", json_object_new_string("logs/vm-console.log"));
	}
	json_object_object_add(vm, "rounds", json_object_new_int(n->round));
	if (!json_object_object_get_ex(vm, "round_seconds", &secs)) {
		secs = json_object_new_array();
		json_object_object_add(vm, "round_seconds", secs);
	}
	json_object_array_add(secs, json_object_new_double(n->seconds));
	if (n->status)
		json_object_object_add(run, "status", json_object_new_string(n->status));
	if (n->error)
		json_object_object_add(run, "error", json_object_new_string(n->error));
}

static void guest_cmd(struct vm_run *r, struct kernel *k, const char *dest, struct strlist *cmd)
{
	strlist_push(cmd, r->self);
	strlist_push(cmd, "run");
	for (size_t i = 0; i < r->a.suite.n; i++)
		strlist_push(cmd, r->a.suite.v[i]);
	strlist_push(cmd, "--label");
	strlist_push(cmd, k->label);
	strlist_push(cmd, "-o");
	strlist_push(cmd, dest);
}

static int run_host(struct vm_run *r, struct kernel *k, const char *dest, double *secs)
{
	struct strlist cmd = STRLIST_INIT;
	struct child p = { .name = "lrubench run (host kernel)" };
	double start = now_monotonic();
	int code = LB_EXIT_FAIL, w;

	guest_cmd(r, k, dest, &cmd);
	info("kernel %c: the running kernel %s, natively, label %s", k->which, k->ki.release, k->label);
	p.argv = (const char *const *)cmd.v;
	if (child_start(&p)) {
		strlist_release(&cmd);
		return LB_EXIT_FAIL;
	}
	w = child_wait(&p, -1, &code, NULL);
	if (w == -2) {
		/* it leads its own process group, so a terminal's ^C reached only us:
		 * pass the stop on (SIGTERM unwinds it like SIGINT) and let it clean up */
		child_stop(&p, 120);
		code = LB_EXIT_INTERRUPTED;
	} else if (w < 0) {
		child_stop(&p, 0);
		code = LB_EXIT_FAIL;
	}
	*secs = now_monotonic() - start;
	strlist_release(&cmd);
	return code;
}

static int copy_file(const char *from, const char *to)
{
	size_t len = 0;
	char *d = read_file_str(from, &len);
	int ret;

	if (!d)
		return error_errno("cannot read %s", from);
	ret = write_file_atomic(to, d, len);
	free(d);
	return ret;
}

static int run_guest(struct vm_run *r, struct kernel *k, int round, const char *dest,
		     double *secs, const char **status, char **why, char **append_out)
{
	struct vm_guest g = { 0 };
	struct strlist cmd = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct vm_qemu_spec q = { 0 };
	struct vm_boot b;
	struct strbuf said = STRBUF_INIT;   /* what qemu printed, when it ended on its own */
	char *init, *console, *qlog, *prefix, *ldir, *lcopy, *qemu_said;
	int code;

	guest_cmd(r, k, dest, &cmd);
	g.keep = &r->keep;
	g.ko = &k->mods.ko;
	g.results_dir = r->results;
	g.cwd = r->cwd;
	g.tmpfs = &r->a.tmpfs;
	g.cmd = &cmd;
	init = vm_init_script(&g);
	k->initrd = xasprintf("%s/initramfs-%c.cpio", r->tmp.path, k->which);
	if (vm_initramfs_write(k->initrd, r->busybox, init, &k->mods.ko, &err)) {
		error("%s", err.buf);
		free(init);
		strlist_release(&cmd);
		strbuf_release(&err);
		return LB_EXIT_FAIL;
	}
	free(init);
	strlist_release(&cmd);

	vm_kernel_cmdline(&sb, r->kvm, r->a.cmdline_extra);
	console = xasprintf("%s/console-%c-%d.log", r->tmp.path, k->which, round);
	qlog = xasprintf("%s/qemu-%c-%d.log", r->tmp.path, k->which, round);
	prefix = xasprintf("[%s] ", k->label);
	q.qemu = QEMU;
	q.kernel = k->image;
	q.initrd = k->initrd;
	q.append = sb.buf;
	q.results_dir = r->results;
	q.console_path = console;
	q.kvm = r->kvm;
	q.mem_bytes = r->a.memory;
	q.cpus = r->a.cpus;
	q.numa_nodes = r->a.numa_nodes;
	info("kernel %c: booting %s (%s) under %s, round %d/%u, label %s", k->which, k->image,
	     k->ki.release, r->kvm ? "KVM" : "TCG", round, r->a.rounds, k->label);
	if (vm_qemu_run(&q, r->a.timeout, prefix, qlog, &b)) {
		code = LB_EXIT_FAIL;
		*why = xstrdup("qemu could not start");
		goto out;
	}
	*secs = b.seconds;

	/* the console log lands beside the results, whatever happened */
	ldir = xasprintf("%s/%s/logs", dest, k->label);
	lcopy = xasprintf("%s/vm-console.log", ldir);
	if (mkdir_p(ldir, 0755) || copy_file(console, lcopy))
		warning("cannot keep the console log of %s in %s", k->label, lcopy);
	free(ldir);

	switch (b.outcome) {
	case VM_DONE:
		code = b.guest_code;
		if (code)
			*why = xasprintf("lrubench run in the guest exited with %d (console: %s)", code, lcopy);
		break;
	case VM_PANIC:
		code = LB_EXIT_FAIL;
		*status = "failed";
		*why = xasprintf("the guest kernel panicked: %s", b.reason.buf);
		break;
	case VM_TIMEOUT:
		code = LB_EXIT_FAIL;
		*status = "failed";
		*why = xasprintf("the guest did not finish within vm_timeout=%.0fs: qemu was killed", r->a.timeout);
		break;
	case VM_INIT_FAILED:
		code = LB_EXIT_UNSUPPORTED;
		*status = "failed";
		*why = xasprintf("the guest could not set up: %s", b.reason.buf);
		break;
	case VM_INTERRUPTED:
		code = LB_EXIT_INTERRUPTED;
		*status = "interrupted";
		*why = xstrdup("interrupted: the VM was stopped");
		break;
	case VM_LOST:
	default:
		code = LB_EXIT_FAIL;
		*status = "failed";
		*why = xasprintf("qemu ended (%d) before the guest reported an exit status", b.qemu_code);
		qemu_said = read_file_str(qlog, NULL);
		strbuf_addf(&said, "\nqemu said: %s", qemu_said && *qemu_said ? qemu_said : "nothing");
		free(qemu_said);
		break;
	}
	/* a guest that failed on its own: the end of its console says why */
	if (b.outcome != VM_DONE && b.outcome != VM_INTERRUPTED)
		error_with_log(path_exists(lcopy) ? lcopy : console, "kernel %c (%s): %s%s", k->which,
			       k->label, *why, strbuf_str(&said));
	strbuf_release(&said);
	free(lcopy);
	vm_boot_release(&b);
out:
	*append_out = strbuf_detach(&sb);
	unlink(k->initrd);
	unlink(console);
	unlink(qlog);
	free(k->initrd);
	k->initrd = NULL;
	free(console);
	free(qlog);
	free(prefix);
	strbuf_release(&err);
	return code;
}

static int run_round(struct vm_run *r, struct kernel *k, int round)
{
	struct vm_tmpdir stage = { 0 };
	struct strbuf err = STRBUF_INIT;
	const char *status = NULL;
	char *why = NULL, *append = NULL, *dest, *ldir;
	double secs = 0;
	int code;

	if (round == 1) {
		dest = xstrdup(r->results);
	} else {
		if (vm_tmpdir_create(&stage, r->results, ".vm-round-"))
			return LB_EXIT_FAIL;
		dest = xstrdup(stage.path);
	}
	if (k->host)
		code = run_host(r, k, dest, &secs);
	else
		code = run_guest(r, k, round, dest, &secs, &status, &why, &append);
	if (code == LB_EXIT_INTERRUPTED)
		status = "interrupted";

	ldir = xasprintf("%s/%s", dest, k->label);
	if (round > 1 && code == 0) {
		if (vm_merge_label(k->dir, ldir, round, &err)) {
			error("cannot pool round %d of %s into %s: %s", round, k->label, k->dir, err.buf);
			code = LB_EXIT_FAIL;
		}
	}
	{
		struct vm_note n = { r, k, round, round == 1 ? status : NULL, round == 1 ? why : NULL,
				     append, secs };
		char *rj = xasprintf("%s/run.json", k->dir);
		strbuf_reset(&err);
		if (path_exists(rj) && vm_update_run_json(k->dir, annotate, &n, &err))
			warning("cannot record the VM facts in %s: %s", rj, err.buf);
		free(rj);
	}
	if (code == 0)
		info("kernel %c: round %d/%u of %s took %.0f s%s", k->which, round, r->a.rounds, k->label,
		     secs, k->host ? "" : r->kvm ? " under KVM" : " under TCG");
	else if (why && code != LB_EXIT_INTERRUPTED && round > 1)
		error("kernel %c: round %d of %s failed: %s", k->which, round, k->label, why);
	k->seconds = secs;
	if (round > 1)
		vm_tmpdir_remove(&stage);
	free(ldir);
	free(dest);
	free(why);
	free(append);
	strbuf_release(&err);
	return code;
}

struct rounds_note {
	const struct adaptive_plan *plan;
	unsigned round;
	const char *stopped;
};

static void annotate_rounds(json_object *run, void *arg)
{
	struct rounds_note *n = arg;
	json_object *vm, *o = json_object_new_object();

	if (!json_object_object_get_ex(run, "vm", &vm)) {
		vm = json_object_new_object();
		json_object_object_add(run, "vm", vm);
	}
	json_object_object_add(o, "precision", json_object_new_double(n->plan->precision));
	json_object_object_add(o, "rounds", json_object_new_int((int)n->round));
	json_object_object_add(o, "stopped", json_object_new_string(n->stopped));
	json_object_object_add(vm, "adaptive", o);
}

/* iterations = auto: after a round of every kernel, are B's ops decided
 * against A's (vm/rounds.h)? When the rounds end, both labels say why. */
static bool rounds_decided(struct vm_run *r, unsigned round)
{
	struct kernel *last = &r->k[r->nk - 1];
	struct strbuf err = STRBUF_INIT;
	bool decided = false, end = round == r->a.rounds;

	for (int i = 0; i < r->nk; i++)
		if (r->k[i].code)
			return false;   /* a failed kernel: no rounds to decide */
	if (vm_rounds_check(r->nk == 2 ? r->k[0].dir : NULL, last->dir, &r->a.plan, round, end,
			    &decided, &err)) {
		warning("cannot judge round %u: %s (the rounds go on)", round, err.buf);
		strbuf_release(&err);
		return false;
	}
	if (decided || end) {
		struct rounds_note n = { &r->a.plan, round, decided ? "decided" : "round cap" };

		for (int i = 0; i < r->nk; i++) {
			strbuf_reset(&err);
			if (vm_update_run_json(r->k[i].dir, annotate_rounds, &n, &err))
				warning("cannot record the rounds in %s: %s", r->k[i].dir, err.buf);
		}
		info("%s after %u round%s (global.precision %g%%)", decided ? "decided" : "not decided",
		     round, round > 1 ? "s" : "", r->a.plan.precision);
	}
	strbuf_release(&err);
	return decided;
}

static void print_comparison(struct vm_run *r)
{
	const char *argv[6];
	int n = 0, code;

	argv[n++] = r->self;
	argv[n++] = "compare";
	for (int i = 0; i < r->nk; i++)
		if (r->k[i].ran)
			argv[n++] = r->k[i].dir;
	argv[n] = NULL;
	if (n < 4)
		return;
	fflush(stdout);
	{
		struct child c = { .argv = argv, .name = "lrubench compare" };
		code = child_run(&c, -1);
	}
	if (code != 0 && code != LB_EXIT_FAIL)
		warning("lrubench compare exited with %d", code);
}

static void print_where(struct vm_run *r)
{
	printf("\nresults:");
	for (int i = 0; i < r->nk; i++)
		if (is_dir(r->k[i].dir))
			printf(" %s", r->k[i].dir);
	printf("\n");
	for (int i = 0; i < r->nk; i++)
		if (!r->k[i].host && is_dir(r->k[i].dir))
			printf("console log of %s: %s/logs/vm-console.log%s\n", r->k[i].label, r->k[i].dir,
			       r->a.rounds > 1 ? " (later rounds: logs/round-N/)" : "");
	fflush(stdout);
}

/* --dry-run: what would boot, with which modules and which qemu command line */
static void print_plan(struct vm_run *r)
{
	for (int i = 0; i < r->nk; i++) {
		struct kernel *k = &r->k[i];
		struct strlist cmd = STRLIST_INIT, argv = STRLIST_INIT;
		struct strbuf append = STRBUF_INIT, err = STRBUF_INIT;
		struct vm_qemu_spec q = { 0 };

		guest_cmd(r, k, r->results, &cmd);
		printf("kernel %c: %s, release %s, label %s -> %s\n", k->which, k->host ? "the running kernel" :
		       k->image, k->ki.release, k->label, k->dir);
		if (!k->host) {
			printf("  config: %s\n  modules: %zu from %s\n", k->mods.config_path ? k->mods.config_path :
			       "none found", k->mods.ko.n, k->mods.moddir ? k->mods.moddir : "-");
			for (size_t m = 0; m < k->mods.ko.n; m++)
				printf("    %s\n", k->mods.ko.v[m]);
			vm_kernel_cmdline(&append, r->kvm, r->a.cmdline_extra);
			q.kernel = k->image;
			q.initrd = "<initramfs>";
			q.append = append.buf;
			q.results_dir = r->results;
			q.console_path = "<console log>";
			q.kvm = r->kvm;
			q.mem_bytes = r->a.memory;
			q.cpus = r->a.cpus;
			q.numa_nodes = r->a.numa_nodes;
			if (!vm_qemu_argv(&q, &argv, &err)) {
				printf("  qemu:");
				for (size_t a = 0; a < argv.n; a++)
					printf(" %s", argv.v[a]);
				printf("\n");
			}
		}
		printf("  runs:");
		for (size_t c = 0; c < cmd.n; c++)
			printf(" %s", cmd.v[c]);
		printf("\n");
		strlist_release(&cmd);
		strlist_release(&argv);
		strbuf_release(&append);
		strbuf_release(&err);
	}
	printf("rounds: %u, timeout per boot: %.0f s\n", r->a.rounds, r->a.timeout);
}

static void release(struct vm_run *r)
{
	for (int i = 0; i < 2; i++) {
		vm_modset_release(&r->k[i].mods);
		free(r->k[i].image_abs);
		free(r->k[i].label);
		free(r->k[i].dir);
	}
	vm_tmpdir_remove(&r->tmp);
	free(r->results);
	free(r->self);
	free(r->cwd);
	free(r->busybox);
	strlist_release(&r->keep);
	vm_args_release(&r->a);
}

static void keep_dir_of(struct strlist *keep, const char *file)
{
	char *abs = realpath(file, NULL), *slash;

	if (!abs)
		return;
	slash = strrchr(abs, '/');
	if (slash && slash != abs)
		*slash = '\0';
	if (!strlist_has(keep, abs))
		strlist_push(keep, abs);
	free(abs);
}

int cmd_run_vm(struct vm_args *a)
{
	struct vm_run r;
	bool any_vm = false, interrupted = false, decided = false;
	int code = 0;
	const char *tmp = getenv("TMPDIR");

	memset(&r, 0, sizeof(r));
	r.a = *a;   /* its lists are ours now: release() frees them */
	r.nk = r.a.kernel[1] ? 2 : 1;
	if ((code = check_inputs(&r)))
		goto out;
	for (int i = 0; i < r.nk; i++)
		any_vm |= !r.k[i].host;
	r.self = realpath("/proc/self/exe", NULL);
	r.cwd = getcwd(NULL, 0);
	if (!r.self || !r.cwd) {
		error_errno("cannot resolve this program or the current folder");
		code = LB_EXIT_FAIL;
		goto out;
	}
	keep_dir_of(&r.keep, r.self);
	if (!strlist_has(&r.keep, r.cwd))
		strlist_push(&r.keep, r.cwd);
	for (size_t i = 0; i + 1 < r.a.suite.n; i++)
		if (!strcmp(r.a.suite.v[i], "-c") || !strcmp(r.a.suite.v[i], "--config"))
			keep_dir_of(&r.keep, r.a.suite.v[i + 1]);
	if (any_vm) {
		struct strbuf why = STRBUF_INIT;

		if (vm_tmpdir_create(&r.tmp, tmp && *tmp == '/' ? tmp : "/tmp", "lrubench-vm.")) {
			code = LB_EXIT_FAIL;
			goto out;
		}
		if ((code = find_modules(&r)) || (code = check_tools(&r)))
			goto out;
		r.kvm = kvm_probe("/dev/kvm", KVM_PROBE_SECONDS, &why) == 0;
		if (!r.kvm)
			warning("KVM unusable here (%s), using TCG: timings are not kernel timings", why.buf);
		strbuf_release(&why);
	}

	if (r.a.dry_run) {
		print_plan(&r);
		goto out;
	}
	for (unsigned round = 1; round <= r.a.rounds && !interrupted && !decided; round++) {
		for (int i = 0; i < r.nk && !interrupted; i++) {
			struct kernel *k = &r.k[i];
			int c;

			if (k->code)
				continue;   /* failed in an earlier round: its label stands as it is */
			c = run_round(&r, k, (int)round);
			if (c == LB_EXIT_INTERRUPTED || lb_stop_requested()) {
				interrupted = true;
				break;
			}
			if (c) {
				k->code = c;
				if (!code)
					code = c;
			} else if (round == 1) {
				k->ran = true;
			}
		}
		if (r.a.adaptive && !interrupted)
			decided = rounds_decided(&r, round);
	}
	if (interrupted) {
		code = LB_EXIT_INTERRUPTED;
		error("interrupted: completed labels are kept in %s", r.results);
	} else {
		print_comparison(&r);
	}
	print_where(&r);
out:
	release(&r);
	return code;
}
