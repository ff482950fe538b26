/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal QMP client (qemu's JSON machine protocol) over the unix socket
 * qemu is started with (-qmp unix:PATH,server=on,wait=off). VM mode starts
 * qemu paused (-S), asks it for its vCPU threads (query-cpus-fast), pins
 * them (vm/placement.h), then lets the guest run (cont); with vm.balloon_target
 * it then asks the balloon for the guest's memory target (balloon).
 */
#ifndef LRUBENCH_VM_QMP_H
#define LRUBENCH_VM_QMP_H

#include <json-c/json.h>
#include "core/util.h"

struct qmp {
	int fd;
	struct strbuf in;   /* bytes read, not yet a whole line */
	double timeout;     /* seconds per reply */
};

/* Connect, read the greeting, negotiate (qmp_capabilities). Retries while the
 * socket does not exist yet, until timeout, and gives up early when
 * still_alive(arg) says qemu is gone. 0, or -1 with err. */
int qmp_open(struct qmp *q, const char *path, double timeout,
	     bool (*still_alive)(void *arg), void *arg, struct strbuf *err);
/* Run one command (no arguments); *ret gets its "return" value (owned by the
 * caller; may be NULL to drop it). Events in between are skipped. 0, or -1
 * with err (an "error" reply, a closed socket, a timeout). */
int qmp_execute(struct qmp *q, const char *command, json_object **ret, struct strbuf *err);
/* The same with arguments (an object, borrowed): "balloon" {"value": bytes}. */
int qmp_execute_args(struct qmp *q, const char *command, json_object *args, json_object **ret,
		     struct strbuf *err);
void qmp_close(struct qmp *q);

#endif
