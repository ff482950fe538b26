/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What one round of one kernel leaves in its label's run.json: the "vm"
 * object (the boot's facts, the placement planned and read back, the
 * console's warnings) and, when the round failed, an entry of vm.failures
 * that compare turns into "B: panicked in round 2 (first line ...)". A
 * label the guest never wrote (it crashed before its suite started) gets a
 * run.json of its own, so the kernel still shows in the comparison.
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
	const struct strlist *warnings;  /* console lockup lines that did not fail it (TCG) */
	const char *console_rel;         /* the round's console log, relative to the label */
	const char *console_abs;
};

/* Record r in dir/run.json. 0, or -1 with err. */
int vm_record_round(const char *dir, const struct vm_round_record *r, struct strbuf *err);

#endif
