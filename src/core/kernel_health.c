// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's health during a run; see kernel_health.h. */
#include "core/kernel_health.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/kernel_id.h"
#include "core/util.h"

/* the lines kept of the first event of each kind per step: its heading and
 * what follows (modules, CPU, RIP, call trace) */
#define KH_LINES 24
/* an Oops follows its "BUG: unable to handle ..." within a few records */
#define KH_PRELUDE_RECORDS 8

static const struct {
	const char *json, *one, *many;
} kinds[KH_NKINDS] = {
	[KH_WARNING] = { "warning", "warning", "warnings" },
	[KH_BUG] = { "bug", "BUG", "BUGs" },
	[KH_OOPS] = { "oops", "Oops", "Oopses" },
	[KH_LOCKDEP] = { "lockdep", "lockdep report", "lockdep reports" },
	[KH_SOFT_LOCKUP] = { "soft_lockup", "soft lockup", "soft lockups" },
	[KH_HARD_LOCKUP] = { "hard_lockup", "hard lockup", "hard lockups" },
	[KH_HUNG_TASK] = { "hung_task", "hung task", "hung tasks" },
	[KH_RCU_STALL] = { "rcu_stall", "RCU stall", "RCU stalls" },
	[KH_OOM_KILL] = { "oom_kill", "OOM kill", "OOM kills" },
};

const char *kh_kind_name(int kind)
{
	return kind >= 0 && kind < KH_NKINDS ? kinds[kind].json : "?";
}

const char *kh_kind_words(int kind, unsigned long long count)
{
	if (kind < 0 || kind >= KH_NKINDS)
		return "?";
	return count == 1 ? kinds[kind].one : kinds[kind].many;
}

int kh_kind_from_name(const char *name)
{
	for (int k = 0; k < KH_NKINDS; k++)
		if (name && !strcmp(name, kinds[k].json))
			return k;
	return KH_NONE;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int kh_classify(const char *line)
{
	/* lockdep's reports open with "WARNING: <what>" as well: they go first */
	static const char *const lockdep[] = {
		"WARNING: possible ", "WARNING: inconsistent lock state", "WARNING: suspicious RCU usage",
		"WARNING: bad unlock balance", "WARNING: held lock freed", "WARNING: lock held ",
		"WARNING: Nested lock was not taken", "WARNING: HARDIRQ-", "WARNING: SOFTIRQ-",
		"WARNING: bad contention detected", "BUG: MAX_LOCKDEP", "BUG: MAX_STACK_TRACE_ENTRIES",
		"INFO: possible ", "INFO: inconsistent lock state",
	};
	/* each ends in an "Oops:" line: one event */
	static const char *const prelude[] = {
		"BUG: unable to handle", "BUG: kernel NULL pointer dereference", "kernel BUG at ",
	};

	for (size_t i = 0; i < ARRAY_SIZE(lockdep); i++)
		if (starts(line, lockdep[i]))
			return KH_LOCKDEP;
	/* "watchdog: BUG: soft lockup - CPU#1 stuck for 26s!" */
	if (strstr(line, "BUG: soft lockup"))
		return KH_SOFT_LOCKUP;
	/* "watchdog: CPU1: Watchdog detected hard LOCKUP on cpu 1" */
	if (strstr(line, "hard LOCKUP"))
		return KH_HARD_LOCKUP;
	if (starts(line, "INFO: task ") && strstr(line, " blocked for more than "))
		return KH_HUNG_TASK;
	/* "rcu: INFO: rcu_preempt self-detected stall on CPU", "... detected stalls on CPUs/tasks:" */
	if ((starts(line, "rcu: INFO: ") || starts(line, "INFO: rcu")) && strstr(line, "stall"))
		return KH_RCU_STALL;
	/* "Out of memory: Killed process 12 (x)", "Memory cgroup out of memory: Killed process 12 (x)" */
	if (strstr(line, "of memory: Killed process "))
		return KH_OOM_KILL;
	for (size_t i = 0; i < ARRAY_SIZE(prelude); i++)
		if (starts(line, prelude[i]))
			return KH_OOPS_PRELUDE;
	if (starts(line, "Oops: ") || starts(line, "general protection fault"))
		return KH_OOPS;
	if (starts(line, "BUG: "))
		return KH_BUG;
	if (starts(line, "WARNING: ") || starts(line, "UBSAN: "))
		return KH_WARNING;
	return KH_NONE;
}

/* The value of ",key=" (or "key=" at the start) up to the next ',' */
static void field(const char *line, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);
	const char *p = line;

	out[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ',' || p[-1] == ':') && p[kl] == '=') {
			size_t vl = strcspn(p + kl + 1, ",");

			if (vl >= len)
				vl = len - 1;
			memcpy(out, p + kl + 1, vl);
			out[vl] = '\0';
			return;
		}
		p += kl;
	}
}

int kh_parse_oom_kill(const char *line, struct kh_oom *o)
{
	char pid[32];
	unsigned long long v;

	memset(o, 0, sizeof(*o));
	if (!starts(line, "oom-kill:"))
		return -1;
	field(line, "constraint", o->constraint, sizeof(o->constraint));
	field(line, "oom_memcg", o->oom_memcg, sizeof(o->oom_memcg));
	field(line, "task_memcg", o->task_memcg, sizeof(o->task_memcg));
	field(line, "task", o->task, sizeof(o->task));
	field(line, "pid", pid, sizeof(pid));
	if (!o->constraint[0] || parse_ull(pid, &v))
		return -1;
	o->pid = (pid_t)v;
	return 0;
}

bool kh_memcg_within(const char *memcg, const char *run)
{
	size_t rl = run ? strlen(run) : 0;

	return rl && !strncmp(memcg, run, rl) && (memcg[rl] == '\0' || memcg[rl] == '/');
}

static json_object *get_array(json_object *o, const char *key)
{
	json_object *a;

	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array)) {
		a = json_object_new_array();
		json_object_object_add(o, key, a);
	}
	return a;
}

static const char *or_run(const char *s)
{
	return s ? s : "";
}

void kernel_health_start(struct kernel_health *h, const char *kmsg_path, const char *run_memcg,
			 json_object *old)
{
	struct strbuf why = STRBUF_INIT;

	memset(h, 0, sizeof(*h));
	h->run_memcg = run_memcg ? xstrdup(run_memcg) : NULL;
	h->root = json_object_new_object();
	h->have_log = !kmsg_open(&h->kmsg, kmsg_path, &why);
	if (h->have_log)
		json_object_object_add(h->root, "log", json_object_new_string(kmsg_path));
	else
		json_object_object_add(h->root, "log_unavailable", json_object_new_string(why.buf));
	json_object_object_add(h->root, "lost", json_object_new_int64(0));
	/* a resumed run keeps what its first part saw */
	if (old && json_object_is_type(old, json_type_object)) {
		json_object *v;

		if (json_object_object_get_ex(old, "events", &v) && json_object_is_type(v, json_type_array))
			json_object_object_add(h->root, "events", json_object_get(v));
		if (json_object_object_get_ex(old, "taint_changes", &v) &&
		    json_object_is_type(v, json_type_array))
			json_object_object_add(h->root, "taint_changes", json_object_get(v));
	}
	get_array(h->root, "events");
	get_array(h->root, "taint_changes");
	h->taint_known = !kernel_taint_read(&h->taint);
	h->changed = true;
	strbuf_release(&why);
}

/* The event entry of (workload, step, kind), created on first use. */
static json_object *event_entry(struct kernel_health *h, int kind, bool *created)
{
	json_object *events = get_array(h->root, "events"), *e;

	*created = false;
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		json_object *w, *s, *k;

		e = json_object_array_get_idx(events, i);
		if (json_object_object_get_ex(e, "workload", &w) && json_object_object_get_ex(e, "step", &s) &&
		    json_object_object_get_ex(e, "kind", &k) &&
		    !strcmp(json_object_get_string(w), or_run(h->workload)) &&
		    !strcmp(json_object_get_string(s), or_run(h->step)) &&
		    !strcmp(json_object_get_string(k), kh_kind_name(kind)))
			return e;
	}
	e = json_object_new_object();
	json_object_object_add(e, "workload", json_object_new_string(or_run(h->workload)));
	json_object_object_add(e, "step", json_object_new_string(or_run(h->step)));
	json_object_object_add(e, "kind", json_object_new_string(kh_kind_name(kind)));
	json_object_object_add(e, "count", json_object_new_int64(0));
	json_object_array_add(events, e);
	*created = true;
	return e;
}

static void count_event(struct kernel_health *h, int kind, const struct kmsg_record *rec,
			const char *first_line)
{
	bool created;
	json_object *e = event_entry(h, kind, &created), *c;

	json_object_object_get_ex(e, "count", &c);
	json_object_object_add(e, "count", json_object_new_int64(json_object_get_int64(c) + 1));
	h->open_lines = NULL;
	h->open_left = 0;
	if (created) {
		h->open_lines = json_object_new_array();
		if (first_line)
			json_object_array_add(h->open_lines, json_object_new_string(first_line));
		json_object_array_add(h->open_lines, json_object_new_string(rec->text));
		json_object_object_add(e, "first", h->open_lines);
		/* a process wrote it to /dev/kmsg (a test's stand-in, or a
		 * daemon that words its messages like the kernel) */
		if (rec->facility != 0)
			json_object_object_add(e, "from_user_space", json_object_new_boolean(1));
		h->open_left = KH_LINES - (int)json_object_array_length(h->open_lines);
		h->open_facility = rec->facility;
	}
	h->changed = true;
}

void kernel_health_record(struct kernel_health *h, const struct kmsg_record *rec)
{
	int kind = kh_classify(rec->text);

	if (kind == KH_NONE && starts(rec->text, "oom-kill:")) {
		h->have_oom = !kh_parse_oom_kill(rec->text, &h->last_oom);
		return;
	}
	if (kind == KH_OOPS && h->have_prelude && rec->seq - h->prelude_seq <= KH_PRELUDE_RECORDS) {
		/* the Oops of the prelude counted already: a line of its report */
		h->have_prelude = false;
		kind = KH_NONE;
	}
	/* another source, or the start of an OOM report, ends an event's lines */
	if (kind == KH_NONE && h->open_lines &&
	    (rec->facility != h->open_facility || strstr(rec->text, "invoked oom-killer:")))
		h->open_lines = NULL;
	if (kind == KH_NONE) {
		if (h->open_lines && h->open_left > 0) {
			json_object_array_add(h->open_lines, json_object_new_string(rec->text));
			if (--h->open_left == 0 || starts(rec->text, "---[ end trace"))
				h->open_lines = NULL;
		}
		return;
	}
	if (kind == KH_OOPS_PRELUDE) {
		h->have_prelude = true;
		h->prelude_seq = rec->seq;
		kind = KH_OOPS;
	}
	if (kind == KH_OOM_KILL) {
		const struct kh_oom *o = h->have_oom ? &h->last_oom : NULL;
		char pidtext[32];
		const char *p = strstr(rec->text, "Killed process ");

		snprintf(pidtext, sizeof(pidtext), "%d ", o ? (int)o->pid : 0);
		/* the oom-kill: line before it names the memcgs of this kill */
		if (o && p && !strncmp(p + strlen("Killed process "), pidtext, strlen(pidtext))) {
			if (!strcmp(o->constraint, "CONSTRAINT_MEMCG") && !kh_memcg_within(o->oom_memcg, h->run_memcg)) {
				h->have_oom = false;
				return;   /* another user of the machine hit its own memcg limit */
			}
			if (kh_memcg_within(o->task_memcg, h->run_memcg))
				strlist_pushf(&h->run_ooms, "pid %d (%s) in memcg %s", (int)o->pid, o->task,
					      o->task_memcg);
		} else {
			o = NULL;
		}
		{
			char *line = o ? xasprintf("oom-kill:constraint=%s,oom_memcg=%s,task_memcg=%s,"
						   "task=%s,pid=%d", o->constraint, o->oom_memcg,
						   o->task_memcg, o->task, (int)o->pid) : NULL;

			count_event(h, kind, rec, line);
			free(line);
		}
		h->have_oom = false;
		h->open_lines = NULL;   /* the kill line says it all */
		return;
	}
	count_event(h, kind, rec, NULL);
}

static void record_cb(void *arg, const struct kmsg_record *rec)
{
	kernel_health_record(arg, rec);
}

void kernel_health_poll(struct kernel_health *h, const char *workload, const char *step)
{
	unsigned long long lost = h->kmsg.lost, t;

	if (!h->root)
		return;   /* not started (a dry run, an early error) */
	h->workload = workload;
	h->step = step;
	kmsg_drain(&h->kmsg, record_cb, h);
	if (h->kmsg.lost != lost) {
		json_object_object_add(h->root, "lost", json_object_new_int64((int64_t)h->kmsg.lost));
		h->changed = true;
	}
	if (!kernel_taint_read(&t) && (!h->taint_known || t != h->taint)) {
		json_object *c = json_object_new_object();
		char letters[96];

		kernel_taint_letters(t, letters, sizeof(letters));
		json_object_object_add(c, "workload", json_object_new_string(or_run(workload)));
		json_object_object_add(c, "step", json_object_new_string(or_run(step)));
		json_object_object_add(c, "from", h->taint_known ? json_object_new_int64((int64_t)h->taint) : NULL);
		json_object_object_add(c, "to", json_object_new_int64((int64_t)t));
		json_object_object_add(c, "flags", json_object_new_string(letters));
		json_object_array_add(get_array(h->root, "taint_changes"), c);
		h->taint = t;
		h->taint_known = true;
		h->changed = true;
	}
	/* lines still to come belong to the next poll's step: stop collecting */
	h->open_lines = NULL;
	h->workload = h->step = NULL;
}

size_t kernel_health_take_run_ooms(struct kernel_health *h, struct strbuf *why)
{
	size_t n = h->run_ooms.n;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(why, "%s%s", i ? "; " : "", h->run_ooms.v[i]);
	strlist_release(&h->run_ooms);
	return n;
}

json_object *kernel_health_json(struct kernel_health *h)
{
	return h->root;
}

void kernel_health_end(struct kernel_health *h)
{
	if (!h->root)
		return;   /* never started */
	kmsg_close(&h->kmsg);
	json_object_put(h->root);
	strlist_release(&h->run_ooms);
	free(h->run_memcg);
	memset(h, 0, sizeof(*h));
}
