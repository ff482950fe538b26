/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's health during a run (run.json "kernel_health",
 * docs/ARCHITECTURE.md §8): what the kernel logged from the run's start
 * (kmsg.h) that says it is not well -- WARN, BUG, Oops, lockdep reports,
 * soft and hard lockups, hung tasks, RCU stalls, OOM kills -- counted per
 * workload and step (the op being measured when it was logged) with the
 * first lines of the first one of each kind, and every change of the taint
 * flags. A number measured while the kernel WARNed is not compared like any
 * other: compare prints these under the tables and its gate fails on them.
 *
 * OOM kills are attributed: a memcg OOM outside this run's memcgs (another
 * user of the machine hitting its own limit) is not counted; a global one
 * is. A kill of a process in this run's memcgs also fails the op
 * (kernel_health_take_run_ooms).
 */
#ifndef LRUBENCH_KERNEL_HEALTH_H
#define LRUBENCH_KERNEL_HEALTH_H

#include <stdbool.h>
#include <sys/types.h>
#include <json-c/json.h>
#include "core/kmsg.h"
#include "core/strlist.h"

enum kh_kind {
	KH_WARNING, KH_BUG, KH_OOPS, KH_LOCKDEP, KH_SOFT_LOCKUP, KH_HARD_LOCKUP,
	KH_HUNG_TASK, KH_RCU_STALL, KH_OOM_KILL, KH_NKINDS,
	KH_OOPS_PRELUDE = 100,   /* a line an Oops follows (counted with the Oops) */
	KH_NONE = -1,
};

/* The JSON name of a kind ("warning", "oom_kill"...), and its words for
 * people: singular and plural ("warning"/"warnings", "OOM kill"...). */
const char *kh_kind_name(int kind);
const char *kh_kind_words(int kind, unsigned long long count);
/* The kind of the name, or KH_NONE. */
int kh_kind_from_name(const char *name);

/* Which kind of event a kernel log line opens (KH_NONE: none). */
int kh_classify(const char *line);

/* "oom-kill:constraint=C,...,oom_memcg=M,task_memcg=T,task=COMM,pid=P,uid=U" */
struct kh_oom {
	char constraint[32];
	char oom_memcg[256], task_memcg[256];
	char task[64];
	pid_t pid;
};
int kh_parse_oom_kill(const char *line, struct kh_oom *o);
/* Is memcg path (as the kernel logs it: "/lrubench-12/readtwice-0") at or
 * below run ("/lrubench-12")? */
bool kh_memcg_within(const char *memcg, const char *run);

struct kernel_health {
	struct kmsg_reader kmsg;
	bool have_log;
	char *run_memcg;            /* memcg path of the run's parent; NULL without memcgs */
	json_object *root;          /* {"log", "lost", "events", "taint_changes"} (owned) */
	unsigned long long taint;
	bool taint_known;
	/* while reading */
	const char *workload, *step;
	json_object *open_lines;    /* the lines of the event being read (first of its kind) */
	int open_left;
	int open_facility;          /* its lines come from the same source */
	unsigned long long prelude_seq;
	bool have_prelude;
	struct kh_oom last_oom;     /* the last oom-kill: line, for the kill that follows */
	bool have_oom;
	struct strlist run_ooms;    /* kills in this run's memcgs, not yet taken */
	bool changed;               /* root changed since kernel_health_saved() */
};

/*
 * Start reading at the log's current end. old: the "kernel_health" of the
 * run being resumed (its events are kept), or NULL. run_memcg may be NULL.
 */
void kernel_health_start(struct kernel_health *h, const char *kmsg_path, const char *run_memcg,
			 json_object *old);
/* Read what was logged since the last poll and count it for (workload,
 * step), which may be NULL ("the run" outside any workload); check taint. */
void kernel_health_poll(struct kernel_health *h, const char *workload, const char *step);
/* Feed one record as if read from the log (the poll's work; unit tests). */
void kernel_health_record(struct kernel_health *h, const struct kmsg_record *rec);
/* The OOM kills of processes in this run's memcgs since the last call:
 * their descriptions joined into why; returns how many, and forgets them. */
size_t kernel_health_take_run_ooms(struct kernel_health *h, struct strbuf *why);
/* The "kernel_health" object of run.json (borrowed). */
json_object *kernel_health_json(struct kernel_health *h);
void kernel_health_end(struct kernel_health *h);

#endif
