/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one round of one kernel leaves in its label's run.json: the "vm"
 * object (the boot's facts, the placement planned and read back, the
 * console's warnings) and, when the round failed, an entry of vm.failures
 * that compare turns into "B: panicked in round 2 (first line ...)". A
 * label the guest never wrote (it crashed before its suite started) gets a
 * run.json of its own, so the kernel still shows in the comparison.
 *
 * The deliberate difference of a label is vm.boot_options (the kernel's own
 * boot options, compare's "set by the run: boot options"), checked against
 * the guest's /proc/cmdline (system.cmdline, written by the guest's own
 * run): vm.boot_options_seen says whether every option was on it. The
 * knobs set in its guest on purpose (vm.settings_a ..., vm/args.h) are
 * vm.settings {name: {path, value, origin, during, applied}}: during is what
 * the guest's own run.json "settings" read back (compare reads that, as for
 * any run), applied whether it says the value asked. The host
 * side: vm.host (its kernel, THP and KSM state, host_state.h), vm.host_settings
 * (knob_set_json of vm.host_settings), vm.qemu_memory[] one per round
 * (vm/qemu.h: qemu's VmRSS series and VmHWM, the balloon's target).
 */
#ifndef LRUBENCH_VM_RECORD_H
#define LRUBENCH_VM_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "core/strlist.h"
#include "core/util.h"

struct vm_placement;
struct vm_identity;
struct knob_set;

struct vm_round_record {
	/* the kernel and its VM: the same every round */
	char kernel;                     /* 'a', 'b', ... in round order */
	const char *label;
	const char *image;               /* as recorded: absolute path, or "host" */
	bool host;                       /* native run: no VM facts */
	bool kvm;
	uint64_t memory;
	unsigned cpus, numa_nodes;
	const char *modules_dir;         /* or NULL */
	const struct vm_placement *place;
	const struct vm_identity *id;    /* what the guest cannot say (vm/identity.h), or NULL */
	const char *boot_options;        /* its own boot options, on purpose ("" none) */
	const struct knob_set *settings; /* the knobs set inside its guest, on purpose, or NULL */
	const struct knob_set *host_settings;   /* vm.host_settings held for the boots */
	json_object *host_facts;         /* the host's kernel, THP, KSM, state (borrowed), or NULL */
	bool balloon;                    /* vm.balloon = free-page-reporting */
	/* this round */
	int round;
	int code;                        /* LB_EXIT_* */
	const char *status;              /* run.json status to set; NULL: keep the guest's */
	const char *why;                 /* the reason, for run.json "error" */
	const char *what;                /* a failure in compare's words: "panicked", "hung" ... */
	const char *first_line;          /* the console line that told, or NULL */
	const char *append;              /* the kernel command line used */
	double seconds;
	json_object *placement;          /* read back (vm/placement.h), or NULL */
	json_object *qemu_memory;        /* qemu's RSS over the boot (vm/qemu.h), or NULL */
	const struct strlist *warnings;  /* console lockup lines that did not fail it (TCG) */
	const char *console_rel;         /* the round's console log, relative to the label */
	const char *console_abs;
};

/* Record r in dir/run.json. 0, or -1 with err. */
int vm_record_round(const char *dir, const struct vm_round_record *r, struct strbuf *err);

#endif
