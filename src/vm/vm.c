// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lrubench run --kernel-a IMG --kernel-b IMG [suite...]`: kernel A against
 * kernel B on one machine without rebooting it. Each image boots in qemu
 * with what it needs of the host exported read-only over 9p (exports.c:
 * the system folders, a staging folder) and runs the same `lrubench run`
 * inside, writing into an empty results folder of its boot, from which
 * the host copies its label home by descriptor (import.c); then the
 * comparison is printed.
 *
 * This file orchestrates, in vm/: settings (args.c), image checks (kimage.c),
 * modules (modules.c), what the guest sees (exports.c) and what comes
 * home (import.c), the initramfs (initramfs.c), the accelerator probe
 * (kvm_probe.c), qemu (qemu.c), rounds pooling (merge.c).
 */
#include "vm/vm.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <json-c/json.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/host_state.h"
#include "core/knobs.h"
#include "core/label_name.h"
#include "core/path.h"
#include "core/net_client.h"
#include "core/results.h"
#include "core/tmpdir.h"
#include "core/util.h"
#include "vm/args.h"
#include "vm/exports.h"
#include "vm/identity.h"
#include "vm/import.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/kvm_probe.h"
#include "vm/merge.h"
#include "vm/modules.h"
#include "vm/placement.h"
#include "vm/qemu.h"
#include "vm/record.h"
#include "vm/rounds.h"

#define QEMU "qemu-system-x86_64"
#define KVM_PROBE_SECONDS 2.0

struct kernel {
	char which;              /* 'a', 'b', 'c' ... in round order */
	const struct vm_kernel_arg *arg;
	const char *image;       /* as given */
	char *image_abs;
	bool host;
	struct kimage ki;
	struct vm_modset mods;
	struct vm_identity id;   /* the image's config, git describe of its tree */
	char *label;
	char *dir;               /* results/<label> */
	char *initrd;            /* per round, in the temp folder */
	int code;                /* first failure, LB_EXIT_*; 0 while fine */
	double seconds;          /* of its last round */
};

struct vm_run {
	struct vm_args a;
	struct kernel k[VM_MAX_KERNELS];
	int nk;
	struct vm_placement place;
	char *results;           /* absolute results root */
	bool results_made;       /* this run made it: removed again (when still empty)
				  * if the run ends before any label was written */
	char *self;              /* this lrubench binary */
	char *cwd;
	char *busybox;
	bool kvm;
	struct tmpdir tmp;
	struct vm_exports x;     /* what the guests see of the host */
	bool mapped_file;        /* the temp folder has no user xattrs: mapped-file */
	struct knob_set host;    /* vm.host_settings, held on the host for the boots */
	json_object *host_facts; /* the host's kernel, THP, KSM while the boots ran */
};

static void restore_host_settings(struct vm_run *r);

/* "--label-a" for kernels a and b, else how the kernel was named */
static void label_flag(const struct kernel *k, char *buf, size_t len)
{
	if (!strncmp(k->arg->flag, "--kernel-", 9))
		snprintf(buf, len, "--label-%c", k->arg->flag[9]);
	else
		snprintf(buf, len, "%s", k->arg->flag);
}

/* images, labels, output folder: everything checkable before booting */
static int check_inputs(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	struct utsname u;
	char lflag[64];

	uname(&u);
	for (int i = 0; i < r->nk; i++) {
		struct kernel *k = &r->k[i];

		k->which = (char)('a' + i);
		k->arg = &r->a.kernel[i];
		k->image = k->arg->image;
		k->host = !strcmp(k->image, VM_HOST);
		label_flag(k, lflag, sizeof(lflag));
		if (k->host) {
			snprintf(k->ki.release, sizeof(k->ki.release), "%s", u.release);
		} else {
			if (kimage_read(k->image, &k->ki, &err)) {
				error("%s: %s", k->arg->flag, err.buf);
				strbuf_release(&err);
				return LB_EXIT_USAGE;
			}
			k->image_abs = realpath(k->image, NULL);
		}
		k->label = xstrdup(k->arg->label ? k->arg->label : k->ki.release);
		if (label_name_check(k->label, &err)) {
			if (k->arg->label)
				error("%s: %s", lflag, err.buf);
			else
				error("kernel %c: %s (it defaults to the kernel release: give "
				      "%s NAME)", k->which, err.buf, lflag);
			strbuf_release(&err);
			return LB_EXIT_USAGE;
		}
	}
	for (int i = 0; i < r->nk; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(r->k[i].label, r->k[j].label)) {
				if (r->nk == 2 && !strcmp(r->k[1].arg->flag, "--kernel-b"))
					error("both kernels would write results/%s: give --label-a and --label-b",
					      r->k[i].label);
				else
					error("kernels %c (%s) and %c (%s) would both write results/%s: give "
					      "them labels of their own", r->k[j].which, r->k[j].arg->flag,
					      r->k[i].which, r->k[i].arg->flag, r->k[i].label);
				return LB_EXIT_USAGE;
			}
	r->results_made = !r->a.dry_run && !path_exists(r->a.results ? r->a.results : "results");
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
			label_flag(&r->k[i], lflag, sizeof(lflag));
			error("%s already holds a run: use --force to replace it, --resume to continue it, "
			      "or another %s", r->k[i].dir, !strncmp(lflag, "--label-", 8) ? lflag :
			      "label (NAME of --kernel NAME=IMG)");
			free(run);
			return LB_EXIT_USAGE;
		}
		free(run);
	}
	return 0;
}

/* vm.balloon: does this qemu have virtio-balloon-pci with free page
 * reporting (qemu 5.1 and later)? Its own help says. 0, or -1 said. */
static int check_balloon(struct vm_run *r)
{
	char *out = xasprintf("%s/qemu-balloon-help.txt", r->tmp.path), *text;
	const char *argv[] = { QEMU, "-device", "virtio-balloon-pci,help", NULL };
	struct child c = { .argv = argv, .name = "qemu -device help", .out_path = out };
	int code = child_run(&c, 30), ret = 0;

	text = read_file_str(out, NULL);
	if (code != 0 || !text || !strstr(text, "free-page-reporting")) {
		error("vm.balloon = free-page-reporting: %s has no virtio-balloon-pci device with the "
		      "free-page-reporting property (qemu 5.1 or later)%s", QEMU,
		      code ? " (its -device help failed)" : "");
		ret = -1;
	}
	free(text);
	unlink(out);
	free(out);
	return ret;
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
	if (r->a.balloon && check_balloon(r))
		return LB_EXIT_UNSUPPORTED;
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
		if (vm_modules_resolve(k->image, k->ki.release, k->arg->modules, r->tmp.path, &k->mods, &err)) {
			error("%s %s (%s): %s", k->arg->flag, k->image, k->ki.release, err.buf);
			strbuf_release(&err);
			return k->arg->modules ? LB_EXIT_USAGE : LB_EXIT_UNSUPPORTED;
		}
		strbuf_release(&err);
		for (size_t w = 0; w < k->mods.warnings.n; w++)
			warning("%s (%s): %s", k->label, k->ki.release, k->mods.warnings.v[w]);
		vm_identity_collect(k->image_abs ? k->image_abs : k->image, k->mods.config_path, r->tmp.path,
				    &k->id);
	}
	return 0;
}

/* ---- one round of one kernel ---- */

/* What one round gave, for the label's run.json and the messages. */
struct round_result {
	int code;              /* LB_EXIT_* */
	const char *status;    /* run.json status to set, NULL: keep the guest's */
	char *why;             /* for the error message */
	char *what;            /* a failure in compare's words: "panicked", "hung" ... */
	char *first_line;      /* the console line that told, or NULL */
	char *append;          /* the kernel command line used */
	double seconds;
	json_object *placement;      /* read back (vm/placement.h), or NULL */
	json_object *memory;         /* qemu's RSS over the boot (vm/qemu.h), or NULL */
	struct strlist warnings;     /* console lockup lines that did not fail it (TCG) */
};

static void round_result_release(struct round_result *rr)
{
	json_object_put(rr->memory);
	free(rr->why);
	free(rr->what);
	free(rr->first_line);
	free(rr->append);
	json_object_put(rr->placement);
	strlist_release(&rr->warnings);
	memset(rr, 0, sizeof(*rr));
}

static void guest_cmd(struct vm_run *r, struct kernel *k, const char *dest, struct strlist *cmd)
{
	strlist_push(cmd, r->self);
	strlist_push(cmd, "run");
	for (size_t i = 0; i < r->a.suite.n; i++)
		strlist_push(cmd, r->a.suite.v[i]);
	/* its own knobs, after the suite's (vm_args_settings refused a knob in both) */
	for (size_t i = 0; i < k->arg->settings.n; i++) {
		strlist_push(cmd, "--set");
		strlist_pushf(cmd, "settings.%s=%s", k->arg->settings.v[i].name, k->arg->settings.v[i].value);
	}
	strlist_push(cmd, "--label");
	strlist_push(cmd, k->label);
	strlist_push(cmd, "-o");
	strlist_push(cmd, dest);
}

static void run_host(struct vm_run *r, struct kernel *k, const char *dest, struct round_result *rr)
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
		rr->code = LB_EXIT_FAIL;
		rr->why = xstrdup("lrubench run could not start");
		rr->what = xstrdup("could not start");
		return;
	}
	w = child_wait(&p, -1, &code, NULL);
	if (w == CHILD_STOP) {
		/* it leads its own process group, so a terminal's ^C reached only us:
		 * pass the stop on (SIGTERM unwinds it like SIGINT) and let it clean up */
		child_stop(&p, 120);
		code = LB_EXIT_INTERRUPTED;
	} else if (w < 0) {
		child_stop(&p, 0);
		code = LB_EXIT_FAIL;
	}
	rr->seconds = now_monotonic() - start;
	rr->code = code;
	if (code && code != LB_EXIT_INTERRUPTED) {
		rr->why = xasprintf("lrubench run on the host kernel exited with %d", code);
		rr->what = xasprintf("failed (lrubench run exited %d)", code);
	}
	strlist_release(&cmd);
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

static const char *crash_verb(enum vm_crash c)
{
	switch (c) {
	case VM_CRASH_PANIC: return "panicked";
	case VM_CRASH_OOPS: return "oopsed";
	case VM_CRASH_LOCKUP: return "locked up";
	case VM_CRASH_HUNG_TASK: return "hung (a task was blocked)";
	case VM_CRASH_NONE: break;
	}
	return "crashed";
}

/* The exports of one boot: the system folders (sys0 ...), the staging
 * folder and the boot's results folder (vm/exports.h, vm/import.h). */
static void fill_spec(struct vm_run *r, struct kernel *k, struct vm_qemu_spec *q, const char *append,
		      const char *stage, const char *boot, char tags[][32])
{
	q->qemu = QEMU;
	q->kernel = k->image;
	q->append = append;
	for (size_t i = 0; i < r->x.sys.n && q->nshares + 2 < VM_MAX_SHARES; i++) {
		snprintf(tags[i], 32, VM_TAG_SYS "%zu", i);
		q->shares[q->nshares++] = (struct vm_share){ .tag = tags[i], .path = r->x.sys.v[i] };
	}
	q->shares[q->nshares++] = (struct vm_share){ .tag = VM_TAG_STAGE, .path = stage };
	q->shares[q->nshares++] = (struct vm_share){ .tag = VM_TAG_RESULTS, .path = boot, .writable = true,
						     .mapped_file = r->mapped_file };
	q->kvm = r->kvm;
	q->mem_bytes = r->a.memory;
	q->cpus = r->a.cpus;
	q->numa_nodes = r->a.numa_nodes;
	q->place = &r->place;
	q->balloon = r->a.balloon;
	q->balloon_target = r->a.balloon_target;
	q->rss_interval = r->a.rss_interval;
}

/* vm.cmdline_extra, then the kernel's own boot options (vm/args.h) */
static void kernel_cmdline(const struct vm_run *r, const struct kernel *k, struct strbuf *sb)
{
	struct strbuf extra = STRBUF_INIT;

	strbuf_addstr(&extra, r->a.cmdline_extra);
	if (*k->arg->cmdline)
		strbuf_addf(&extra, "%s%s", extra.len ? " " : "", k->arg->cmdline);
	vm_kernel_cmdline(sb, r->kvm, extra.buf);
	strbuf_release(&extra);
}

/* One boot. The console log is copied to dest/<label>/logs/vm-console.log
 * whatever happened (*console_out names it). */
static void run_guest(struct vm_run *r, struct kernel *k, int round, const char *dest,
		      struct round_result *rr, char **console_out)
{
	struct vm_guest g = { 0 };
	struct strlist cmd = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	struct vm_qemu_spec q = { 0 };
	struct vm_boot b;
	struct strbuf said = STRBUF_INIT;   /* what qemu printed, when it ended on its own */
	char *init, *console, *qlog, *qmp, *prefix, *ldir, *lcopy = NULL, *qemu_said, *boot;
	char tags[VM_MAX_SHARES][32];
	struct vm_import im = { 0 };
	char *import_err = NULL;

	rr->code = LB_EXIT_FAIL;
	/* the boot's own results folder: empty, or with --resume the label as
	 * it stands, copied by the same rules as the way home */
	boot = xasprintf("%s/boot-%c-%d", r->tmp.path, k->which, round);
	if (mkdir(boot, 0700) ||
	    (round == 1 && r->a.resume && is_dir(k->dir) && vm_import_label(r->results, k->label, boot, &im, &err))) {
		error("cannot prepare the results folder of %s's boot %s: %s", k->label, boot,
		      err.len ? err.buf : strerror(errno));
		rr->why = xasprintf("cannot prepare the results folder %s", boot);
		rr->what = xstrdup("could not be prepared (results folder)");
		vm_import_release(&im);
		remove_tree(boot);
		free(boot);
		strbuf_release(&err);
		return;
	}
	vm_import_release(&im);
	guest_cmd(r, k, dest, &cmd);
	g.x = &r->x;
	g.ko = &k->mods.ko;
	g.results_dir = dest;
	g.cwd = r->cwd;
	g.tmpfs = &r->a.tmpfs;
	g.cmd = &cmd;
	g.round = (unsigned)round;
	init = vm_init_script(&g);
	k->initrd = xasprintf("%s/initramfs-%c.cpio", r->tmp.path, k->which);
	if (vm_initramfs_write(k->initrd, r->busybox, init, &k->mods.ko, &err)) {
		error("%s", err.buf);
		rr->why = xstrdup(err.buf);
		rr->what = xstrdup("could not be prepared (initramfs)");
		free(init);
		strlist_release(&cmd);
		strbuf_release(&err);
		free(k->initrd);
		k->initrd = NULL;
		remove_tree(boot);
		free(boot);
		return;
	}
	free(init);
	strlist_release(&cmd);

	kernel_cmdline(r, k, &sb);
	console = xasprintf("%s/console-%c-%d.log", r->tmp.path, k->which, round);
	qlog = xasprintf("%s/qemu-%c-%d.log", r->tmp.path, k->which, round);
	qmp = xasprintf("%s/qmp-%c-%d.sock", r->tmp.path, k->which, round);
	prefix = xasprintf("[%s] ", k->label);
	fill_spec(r, k, &q, sb.buf, r->x.stage, boot, tags);
	q.initrd = k->initrd;
	q.console_path = console;
	q.qmp_path = qmp;
	info("kernel %c: booting %s (%s) under %s, round %d/%u, label %s", k->which, k->image,
	     k->ki.release, r->kvm ? "KVM" : "TCG", round, r->a.rounds, k->label);
	if (vm_qemu_run(&q, r->a.timeout, prefix, qlog, &b)) {
		rr->why = xstrdup("qemu could not start, or its vCPUs could not be placed");
		rr->what = xstrdup("could not start qemu");
		vm_boot_release(&b);
		goto out;
	}
	rr->seconds = b.seconds;
	rr->placement = json_object_get(b.placement);
	rr->memory = json_object_get(b.memory);
	for (size_t i = 0; i < b.warnings.n; i++) {
		strlist_push(&rr->warnings, b.warnings.v[i]);
		warning("kernel %c (%s), round %d: the console reported \"%s\" (under TCG an emulated "
			"CPU stalls for reasons of its own: recorded, not a failure)", k->which, k->label,
			round, b.warnings.v[i]);
	}

	/* what the guest wrote of its label comes home, whatever happened */
	strbuf_reset(&err);
	if (vm_import_label(boot, k->label, dest, &im, &err)) {
		error("kernel %c (%s), round %d: cannot bring the guest's results home: %s", k->which,
		      k->label, round, err.buf);
		import_err = xstrdup(err.buf);
	}
	if (im.nleft) {
		struct strbuf left = STRBUF_INIT;

		vm_import_describe_left(&im, &left);
		warning("kernel %c (%s), round %d: the guest's results hold what lrubench does not bring "
			"home (only its label's folders and regular files are): %s", k->which, k->label,
			round, left.buf);
		strbuf_release(&left);
	}
	vm_import_release(&im);

	/* the console log lands beside the results, whatever happened */
	ldir = xasprintf("%s/%s/logs", dest, k->label);
	lcopy = xasprintf("%s/vm-console.log", ldir);
	if (mkdir_p(ldir, 0755) || copy_file(console, lcopy))
		warning("cannot keep the console log of %s in %s", k->label, lcopy);
	free(ldir);

	switch (b.outcome) {
	case VM_DONE:
		rr->code = b.guest_code;
		if (rr->code == LB_EXIT_INTERRUPTED) {
			rr->status = "interrupted";
		} else if (rr->code) {
			rr->why = xasprintf("lrubench run in the guest exited with %d (console: %s)",
					    rr->code, lcopy);
			rr->what = xasprintf("failed (lrubench run in the guest exited %d)", rr->code);
		}
		break;
	case VM_CRASHED:
		rr->code = LB_EXIT_FAIL;
		rr->status = "failed";
		rr->what = xstrdup(crash_verb(b.crash));
		rr->first_line = xstrdup(b.first_line.buf);
		rr->why = xasprintf("the guest kernel %s: %s", rr->what, b.first_line.buf);
		break;
	case VM_TIMEOUT:
		rr->code = LB_EXIT_FAIL;
		rr->status = "failed";
		rr->what = xstrdup("hung");
		if (b.warnings.n)
			rr->first_line = xstrdup(b.warnings.v[0]);
		rr->why = xasprintf("the guest did not finish within vm_timeout=%.0fs: qemu was killed",
				    r->a.timeout);
		break;
	case VM_INIT_FAILED:
		rr->code = LB_EXIT_UNSUPPORTED;
		rr->status = "failed";
		rr->what = xstrdup("could not set up");
		rr->first_line = xstrdup(b.reason.buf);
		rr->why = xasprintf("the guest could not set up: %s", b.reason.buf);
		break;
	case VM_INTERRUPTED:
		rr->code = LB_EXIT_INTERRUPTED;
		rr->status = "interrupted";
		rr->why = xstrdup("interrupted: the VM was stopped");
		break;
	case VM_LOST:
	default:
		rr->code = LB_EXIT_FAIL;
		rr->status = "failed";
		rr->what = xstrdup("ended without a verdict");
		rr->why = xasprintf("qemu ended (%d) before the guest reported an exit status%s%s",
				    b.qemu_code, b.reason.len ? ": " : "", b.reason.buf);
		qemu_said = read_file_str(qlog, NULL);
		strbuf_addf(&said, "\nqemu said: %s", qemu_said && *qemu_said ? qemu_said : "nothing");
		if (qemu_said && *qemu_said) {
			rr->first_line = xstrndup(qemu_said, strcspn(qemu_said, "\n"));
		}
		free(qemu_said);
		break;
	}
	if (import_err && !rr->code) {
		rr->code = LB_EXIT_FAIL;
		rr->status = "failed";
		rr->what = xstrdup("could not bring its results home");
		rr->why = xasprintf("its results could not be brought home: %s", import_err);
	}
	free(import_err);
	/* a guest that failed on its own: the end of its console says why */
	if (b.outcome != VM_DONE && b.outcome != VM_INTERRUPTED)
		error_with_log(path_exists(lcopy) ? lcopy : console, "kernel %c (%s), round %d: %s%s",
			       k->which, k->label, round, rr->why, strbuf_str(&said));
	strbuf_release(&said);
	vm_boot_release(&b);
out:
	rr->append = strbuf_detach(&sb);
	*console_out = lcopy;
	unlink(k->initrd);
	unlink(console);
	unlink(qlog);
	unlink(qmp);
	if (remove_tree(boot))
		warning("cannot remove the boot's results folder %s", boot);
	free(boot);
	free(k->initrd);
	k->initrd = NULL;
	free(console);
	free(qlog);
	free(qmp);
	free(prefix);
	strbuf_release(&err);
}

/* A failed later round: its logs go to logs/round-N/ of the label (a good
 * round's get there by vm_merge_label). */
static char *keep_failed_round_logs(struct kernel *k, const char *stage_label, int round)
{
	char *src = xasprintf("%s/logs", stage_label), *dl = xasprintf("%s/logs", k->dir);
	char *dst = xasprintf("%s/logs/round-%d", k->dir, round), *console = NULL;

	if (is_dir(src)) {
		if (mkdir_p(dl, 0755) || rename(src, dst))
			warning("cannot keep the logs of round %d of %s in %s: %s", round, k->label, dst,
				strerror(errno));
		else
			console = xasprintf("%s/vm-console.log", dst);
	}
	free(src);
	free(dl);
	free(dst);
	return console;
}

static int run_round(struct vm_run *r, struct kernel *k, int round)
{
	struct tmpdir stage = { .path = "" };
	struct strbuf err = STRBUF_INIT;
	struct round_result rr = { 0 };
	char *dest, *ldir, *console = NULL, *console_rel = NULL;
	int code;

	if (round == 1) {
		dest = xstrdup(r->results);
		if (r->a.force && is_dir(k->dir) && remove_tree(k->dir))
			warning("cannot clear %s before replacing it", k->dir);
	} else {
		if (tmpdir_create(&stage, r->results, ".vm-round-", NULL))
			return LB_EXIT_FAIL;
		dest = xstrdup(stage.path);
	}
	if (k->host)
		run_host(r, k, dest, &rr);
	else
		run_guest(r, k, round, dest, &rr, &console);
	code = rr.code;
	if (code == LB_EXIT_INTERRUPTED)
		rr.status = "interrupted";
	else if (code && !rr.status)
		rr.status = "failed";

	ldir = xasprintf("%s/%s", dest, k->label);
	if (round > 1 && code == 0) {
		if (vm_merge_label(k->dir, ldir, round, &err)) {
			error("cannot pool round %d of %s into %s: %s", round, k->label, k->dir, err.buf);
			code = rr.code = LB_EXIT_FAIL;
			rr.status = "failed";
			rr.what = xstrdup("could not be pooled");
			rr.why = xstrdup(err.buf);
		}
	} else if (round > 1 && code != LB_EXIT_INTERRUPTED) {
		free(console);
		console = keep_failed_round_logs(k, ldir, round);
	}
	if (console && !strncmp(console, k->dir, strlen(k->dir)) && console[strlen(k->dir)] == '/')
		console_rel = xstrdup(console + strlen(k->dir) + 1);
	{
		struct vm_round_record rec = {
			.kernel = k->which, .label = k->label, .host = k->host, .kvm = r->kvm,
			.image = k->host ? VM_HOST : k->image_abs ? k->image_abs : k->image,
			.memory = r->a.memory, .cpus = r->a.cpus, .numa_nodes = r->a.numa_nodes,
			.modules_dir = k->mods.moddir, .place = &r->place, .round = round,
			.code = rr.code, .status = rr.status, .why = rr.why, .what = rr.what,
			.first_line = rr.first_line, .append = rr.append, .seconds = rr.seconds,
			.placement = rr.placement, .warnings = &rr.warnings,
			.console_rel = console_rel, .console_abs = console,
			.id = k->host ? NULL : &k->id,
			.boot_options = k->arg->cmdline, .settings = &k->arg->settings,
			.qemu_memory = rr.memory,
			.host_settings = &r->host, .balloon = r->a.balloon, .host_facts = r->host_facts,
		};

		strbuf_reset(&err);
		if (vm_record_round(k->dir, &rec, &err)) {
			error("cannot record round %d of %s in %s/run.json: %s", round, k->label, k->dir,
			      err.buf);
			if (!code)
				code = LB_EXIT_FAIL;
		}
	}
	if (code == 0)
		info("kernel %c: round %d/%u of %s took %.0f s%s", k->which, round, r->a.rounds, k->label,
		     rr.seconds, k->host ? "" : r->kvm ? " under KVM" : " under TCG");
	else if (code != LB_EXIT_INTERRUPTED)
		error("kernel %c (%s) %s in round %d: its cell is failed%s; the other kernels go on",
		      k->which, k->label, rr.what ? rr.what : "failed", round,
		      r->a.rounds > (unsigned)round ? " and it is not booted again" : "");
	k->seconds = rr.seconds;
	if (round > 1)
		tmpdir_remove(&stage);
	free(ldir);
	free(dest);
	free(console);
	free(console_rel);
	round_result_release(&rr);
	strbuf_release(&err);
	return code;
}

/* Does the label folder hold any <workload>.json? */
static bool has_results(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool any = false;

	while (d && !any && (de = readdir(d))) {
		size_t l = strlen(de->d_name);

		any = l > 5 && de->d_name[0] != '.' && !strcmp(de->d_name + l - 5, ".json") &&
		      strcmp(de->d_name, "run.json");
	}
	if (d)
		closedir(d);
	return any;
}

struct rounds_note {
	const struct adaptive_plan *plan;
	unsigned round;
	const struct vm_verdicts *v;   /* of every judged op, all kernels */
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
	/* what the sequential verdicts were, not "decided" for any stop (issue 23) */
	json_object_object_add(o, "stopped", json_object_new_string(vm_verdicts_stopped(n->v)));
	{
		json_object *c = json_object_new_object();

		json_object_object_add(c, "decided", json_object_new_int((int)n->v->decided));
		json_object_object_add(c, "reached", json_object_new_int((int)n->v->reached));
		json_object_object_add(c, "too noisy", json_object_new_int((int)n->v->noisy));
		json_object_object_add(c, "round cap", json_object_new_int((int)n->v->open));
		json_object_object_add(o, "verdicts", c);
	}
	json_object_object_add(vm, "adaptive", o);
}

/*
 * iterations = auto: after a round of every kernel, are the ops of B, C ...
 * decided against A's (vm/rounds.h)? Only kernels still running count: a
 * failed one's label stands as it is (vm/record.h). Without A (it failed)
 * or with A alone, each kernel's own precision decides. When the rounds
 * end, every running kernel's label says why.
 */
static bool rounds_decided(struct vm_run *r, unsigned round)
{
	struct strbuf err = STRBUF_INIT;
	const char *base = NULL;
	bool judged[VM_MAX_KERNELS] = { false }, done = true, end = round == r->a.rounds;
	struct vm_verdicts v = { 0 };
	int running = 0;

	for (int i = 0; i < r->nk; i++)
		running += !r->k[i].code;
	if (!running)
		return false;   /* every kernel failed: nothing to decide, nothing boots again */
	if (!r->k[0].code && running > 1)
		base = r->k[0].dir;
	for (int i = 0; i < r->nk; i++)
		judged[i] = !r->k[i].code && !(base && i == 0);
	for (int i = 0; i < r->nk; i++) {
		bool d = false;

		if (!judged[i])
			continue;
		strbuf_reset(&err);
		if (vm_rounds_check(base, r->k[i].dir, &r->a.plan, round, r->a.rounds, false, &d, &v, &err)) {
			warning("cannot judge round %u of %s: %s (the rounds go on)", round, r->k[i].label,
				err.buf);
			d = false;
			v.open++;
		}
		done &= d;
	}
	if (done || end) {
		struct rounds_note n = { &r->a.plan, round, &v };
		struct strbuf said = STRBUF_INIT;

		for (int i = 0; i < r->nk; i++) {
			bool d;

			if (r->k[i].code)
				continue;
			strbuf_reset(&err);
			if ((judged[i] && vm_rounds_check(base, r->k[i].dir, &r->a.plan, round, r->a.rounds,
						     true, &d, NULL, &err)) ||
			    vm_update_run_json(r->k[i].dir, annotate_rounds, &n, &err))
				warning("cannot record the rounds in %s: %s", r->k[i].dir, err.buf);
		}
		vm_verdicts_describe(&v, r->a.plan.precision, &said);
		info("%s after %u round%s (global.precision %g%%)", said.buf, round, round > 1 ? "s" : "",
		     r->a.plan.precision);
		strbuf_release(&said);
	}
	strbuf_release(&err);
	return done;
}

static void print_comparison(struct vm_run *r)
{
	struct strlist argv = STRLIST_INIT;
	int code, n = 0, with_results = 0;

	strlist_push(&argv, r->self);
	strlist_push(&argv, "compare");
	/* every kernel with a label, failed ones too: compare says what happened */
	for (int i = 0; i < r->nk; i++) {
		char *rj = xasprintf("%s/run.json", r->k[i].dir);

		if (path_exists(rj)) {
			strlist_push(&argv, r->k[i].dir);
			n++;
			with_results += has_results(r->k[i].dir);
		}
		free(rj);
	}
	if (n >= 2 && with_results) {
		struct child c = { .argv = (const char *const *)argv.v, .name = "lrubench compare" };

		fflush(stdout);
		code = child_run(&c, -1);
		if (code != 0 && code != LB_EXIT_FAIL)
			warning("lrubench compare exited with %d", code);
	}
	strlist_release(&argv);
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
	struct strbuf pl = STRBUF_INIT;

	for (int i = 0; i < r->nk; i++) {
		struct kernel *k = &r->k[i];
		struct strlist cmd = STRLIST_INIT, argv = STRLIST_INIT;
		struct strbuf append = STRBUF_INIT, err = STRBUF_INIT;
		struct vm_qemu_spec q = { 0 };
		char tags[VM_MAX_SHARES][32];

		guest_cmd(r, k, r->results, &cmd);
		printf("kernel %c: %s, release %s, label %s -> %s\n", k->which, k->host ? "the running kernel" :
		       k->image, k->ki.release, k->label, k->dir);
		if (!k->host) {
			printf("  config: %s\n  modules: %zu from %s\n", k->mods.config_path ? k->mods.config_path :
			       "none found", k->mods.ko.n, k->mods.moddir ? k->mods.moddir : "-");
			if (k->id.git_tree)
				printf("  git: %s in %s\n", k->id.git_describe ? k->id.git_describe :
				       k->id.git_why, k->id.git_tree);
			for (size_t m = 0; m < k->mods.ko.n; m++)
				printf("    %s\n", k->mods.ko.v[m]);
			if (*k->arg->cmdline)
				printf("  boot options: %s\n", k->arg->cmdline);
			kernel_cmdline(r, k, &append);
			fill_spec(r, k, &q, append.buf, "<staging folder>", "<results folder of the boot>", tags);
			q.initrd = "<initramfs>";
			q.console_path = "<console log>";
			q.qmp_path = "<qmp socket>";
			if (!vm_qemu_argv(&q, &argv, &err)) {
				printf("  qemu:");
				for (size_t a = 0; a < argv.n; a++)
					printf(" %s", argv.v[a]);
				printf("\n");
			} else {
				printf("  qemu: %s\n", err.buf);
			}
		}
		for (size_t j = 0; j < k->arg->settings.n; j++)
			printf("  settings: %s = %s (%s)\n", k->arg->settings.v[j].name,
			       k->arg->settings.v[j].value, k->arg->settings.v[j].origin);
		printf("  runs:");
		for (size_t c = 0; c < cmd.n; c++)
			printf(" %s", cmd.v[c]);
		printf("\n");
		strlist_release(&cmd);
		strlist_release(&argv);
		strbuf_release(&append);
		strbuf_release(&err);
	}
	for (size_t i = 0; i < r->host.n; i++)
		printf("host: %s = %s for the boots (now %s)\n", r->host.v[i].name, r->host.v[i].value,
		       r->host.v[i].old);
	if (r->a.balloon)
		printf("balloon: virtio-balloon-pci with free page reporting%s\n",
		       r->a.balloon_target ? ", target asked through QMP" : "");
	vm_placement_describe(&r->place, &pl);
	printf("placement: %s\n", pl.buf);
	strbuf_release(&pl);
	printf("rounds: %u:", r->a.rounds);
	for (unsigned round = 0; round < r->a.rounds && round < 3; round++)
		for (int i = 0; i < r->nk; i++)
			printf("%s%c", round || i ? ", " : " ", r->k[i].which - 'a' + 'A');
	printf("%s; timeout per boot: %.0f s\n", r->a.rounds > 3 ? ", ..." : "", r->a.timeout);
}

static void release(struct vm_run *r)
{
	for (int i = 0; i < VM_MAX_KERNELS; i++) {
		vm_modset_release(&r->k[i].mods);
		vm_identity_release(&r->k[i].id);
		free(r->k[i].image_abs);
		free(r->k[i].label);
		free(r->k[i].dir);
	}
	restore_host_settings(r);
	knob_set_release(&r->host);
	json_object_put(r->host_facts);
	tmpdir_remove(&r->tmp);
	free(r->results);
	free(r->self);
	free(r->cwd);
	free(r->busybox);
	vm_exports_release(&r->x);
	vm_args_release(&r->a);
}

/* A host file the suite names (path as given, relative to the cwd): the
 * guest gets a copy at the same path (vm/exports.h). */
static void add_input(struct vm_run *r, const char *path)
{
	char *abs = *path == '/' ? xstrdup(path) : xasprintf("%s/%s", r->cwd, path);

	vm_exports_add_input(&r->x, abs);
	free(abs);
}

/* The files every guest must see: this program and its helper (unless
 * /usr shows them), the -c files, and a key's value, from --set or a -c
 * file, that names a file. */
static void collect_inputs(struct vm_run *r)
{
	char *dir = self_dir();

	vm_exports_plan(&r->x);
	add_input(r, r->self);
	if (dir) {
		char *helper = xasprintf("%s/" NET_HELPER_NAME, dir);

		if (path_exists(helper))
			add_input(r, helper);
		free(helper);
		free(dir);
	}
	for (size_t i = 0; i < r->a.inputs.n; i++)
		add_input(r, r->a.inputs.v[i]);
	for (size_t i = 0; i + 1 < r->a.suite.n; i++) {
		const char *eq = strchr(r->a.suite.v[i + 1], '=');

		if (!strcmp(r->a.suite.v[i], "-c") || !strcmp(r->a.suite.v[i], "--config"))
			add_input(r, r->a.suite.v[i + 1]);
		/* a key's value that names a file here (kernbench.source=/tmp/x.tar) */
		else if (!strcmp(r->a.suite.v[i], "--set") && eq && eq[1] == '/' && path_exists(eq + 1) &&
			 !is_dir(eq + 1))
			add_input(r, eq + 1);
	}
}

/* The boots' results folders take qemu's mapped-xattr model when the temp
 * folder's file system keeps user xattrs, else mapped-file. */
static void probe_xattrs(struct vm_run *r)
{
	if (setxattr(r->tmp.path, "user.lrubench.probe", "1", 1, 0)) {
		r->mapped_file = true;
		info("%s keeps no user extended attributes: the guests' results folders use qemu's "
		     "security_model=mapped-file", r->tmp.path);
		return;
	}
	removexattr(r->tmp.path, "user.lrubench.probe");
}

/*
 * vm.host_settings: "KNOB=VALUE, ..." with [settings]' rules (core/knobs.h):
 * each resolved, present and accepted (written, read back, put back) before
 * anything boots, so a bad one is exit 2 or 3 with nothing started. A knob
 * named twice is refused (two values for one knob of one host), and so is
 * one that a kernel run natively (host) sets for its own run too.
 */
static int check_host_settings(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	char origin[160];
	int code = 0;

	if (!*r->a.host_settings)
		return 0;
	snprintf(origin, sizeof(origin), "vm.host_settings (%s)",
		 r->a.host_settings_from ? r->a.host_settings_from : "--set");
	if (vm_knob_list_parse(r->a.host_settings, origin, "the host", &r->host, &err)) {
		error("%s: %s", origin, err.buf);
		strbuf_release(&err);
		return LB_EXIT_USAGE;
	}
	for (unsigned i = 0; i < r->a.nkernels; i++) {
		const struct vm_kernel_arg *ka = &r->a.kernel[i];

		for (size_t j = 0; strcmp(ka->image, VM_HOST) == 0 && j < ka->settings.n; j++)
			if (knob_set_find(&r->host, ka->settings.v[j].path)) {
				error("%s: %s is also in vm.host_settings, and %s runs on the host: one value "
				      "for one knob of the host", ka->settings.v[j].origin,
				      ka->settings.v[j].name, ka->flag);
				strbuf_release(&err);
				return LB_EXIT_USAGE;
			}
	}
	for (size_t i = 0; i < r->host.n && !code; i++) {
		struct knob *k = &r->host.v[i];

		strbuf_reset(&err);
		if ((code = knob_check(k->path, &err)) == 0)
			code = knob_try(k, r->a.workdir, &err);
		if (code)
			error("%s: %s", origin, err.buf);
	}
	strbuf_release(&err);
	return code;
}

/* Set the host knobs for the boots; undone by release() or, on a signal, by
 * the cleanup registry; after SIGKILL the next run's knobs_recover. */
static int apply_host_settings(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	int code = 0;

	for (size_t i = 0; i < r->host.n && !code; i++) {
		struct knob *k = &r->host.v[i];

		if ((code = knob_apply(k, r->a.workdir, &err)))
			error("%s: %s", k->origin, err.buf);
		else
			info("host: %s = %s for the boots (was %s)", k->name, k->now, k->old);
	}
	strbuf_release(&err);
	return code;
}

/* run.json vm.host: what the host kernel was and how it was set while the
 * guests ran (issue 28: the host kernel has a significant impact) */
static json_object *host_facts(void)
{
	json_object *o = json_object_new_object(), *ksm = json_object_new_object();
	static const char *const ksm_files[] = { "run", "pages_sharing", "pages_shared" };
	struct utsname u;

	uname(&u);
	json_object_object_add(o, "kernel_release", json_object_new_string(u.release));
	json_object_object_add(o, "kernel_version", json_object_new_string(u.version));
	for (size_t i = 0; i < ARRAY_SIZE(ksm_files); i++) {
		char path[96], *t;

		snprintf(path, sizeof(path), "/sys/kernel/mm/ksm/%s", ksm_files[i]);
		t = read_file_str(path, NULL);
		if (t) {
			t[strcspn(t, "\n")] = '\0';
			json_object_object_add(ksm, ksm_files[i], json_object_new_string(t));
		}
		free(t);
	}
	json_object_object_add(o, "ksm", ksm);
	json_object_object_add(o, "state", host_state_collect("", 0));
	return o;
}

static void restore_host_settings(struct vm_run *r)
{
	for (size_t i = r->host.n; i > 0; i--)
		knob_restore(&r->host.v[i - 1]);
}

static int resolve_placement(struct vm_run *r)
{
	struct strbuf err = STRBUF_INIT;
	int code = vm_placement_resolve(&r->a, "", &r->place, &err);

	if (code)
		error("%s", err.buf);
	else if (*r->place.note)
		info("placement: %s", r->place.note);
	strbuf_release(&err);
	return code;
}

int cmd_run_vm(struct vm_args *a)
{
	struct vm_run r;
	bool any_vm = false, interrupted = false, decided = false;
	int code = 0;

	memset(&r, 0, sizeof(r));
	r.a = *a;   /* its lists are ours now: release() frees them */
	r.nk = (int)r.a.nkernels;
	/* a VM run killed with SIGKILL left host knobs changed: put back first;
	 * then the host knobs, before anything (the results folder) is made */
	if (r.a.workdir && *r.a.workdir)
		knobs_recover(r.a.workdir);
	if ((code = check_host_settings(&r)) || (code = check_inputs(&r)))
		goto out;
	for (int i = 0; i < r.nk; i++)
		any_vm |= !r.k[i].host;
	r.self = self_exe() ? xstrdup(self_exe()) : NULL;
	r.cwd = getcwd(NULL, 0);
	if (!r.self || !r.cwd) {
		error_errno("cannot resolve this program or the current folder");
		code = LB_EXIT_FAIL;
		goto out;
	}
	collect_inputs(&r);
	if (any_vm) {
		struct strbuf why = STRBUF_INIT;

		if ((code = resolve_placement(&r)))
			goto out;
		if (tmpdir_create(&r.tmp, NULL, "lrubench-vm.", NULL)) {
			code = LB_EXIT_FAIL;
			goto out;
		}
		/* qemu's QMP socket lives there: a unix socket path has 107 bytes */
		if (strlen(r.tmp.path) + sizeof("/qmp-a-100.sock") > sizeof(((struct sockaddr_un *)0)->sun_path)) {
			error("the temporary folder %s is too deep for qemu's QMP socket (a unix socket path "
			      "has at most %zu bytes): set TMPDIR to a shorter folder", r.tmp.path,
			      sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
			code = LB_EXIT_USAGE;
			goto out;
		}
		if ((code = find_modules(&r)) || (code = check_tools(&r)))
			goto out;
		if (!r.a.dry_run) {
			char *stage = xasprintf("%s/stage", r.tmp.path);

			strbuf_reset(&why);
			probe_xattrs(&r);
			if (vm_exports_stage(&r.x, stage, &why)) {
				error("%s", why.buf);
				free(stage);
				strbuf_release(&why);
				code = LB_EXIT_FAIL;
				goto out;
			}
			free(stage);
			strbuf_reset(&why);
		}
		r.kvm = kvm_probe("/dev/kvm", KVM_PROBE_SECONDS, &why) == 0;
		if (!r.kvm)
			warning("KVM unusable here (%s), using TCG: timings are not kernel timings", why.buf);
		strbuf_release(&why);
	}

	if (r.a.dry_run) {
		print_plan(&r);
		goto out;
	}
	if ((code = apply_host_settings(&r)))
		goto out;
	r.host_facts = host_facts();
	/* A, B, C, A, B, C ...: drift hits every kernel alike; with iterations
	 * = auto, until the kernels' changes against A are decided */
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
			}
		}
		if (r.a.adaptive && !interrupted)
			decided = rounds_decided(&r, round);
	}
	restore_host_settings(&r);   /* before compare: the host is the user's again */
	if (interrupted) {
		code = LB_EXIT_INTERRUPTED;
		error("interrupted: completed labels are kept in %s", r.results);
	} else {
		print_comparison(&r);
	}
	print_where(&r);
out:
	/* refused after check_inputs made the folder (no modules, no tools):
	 * nothing was written, so nothing is left; rmdir keeps a folder that
	 * has anything in it */
	if (code && r.results_made && r.results)
		rmdir(r.results);
	release(&r);
	return code;
}
