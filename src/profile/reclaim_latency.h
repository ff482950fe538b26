/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile = reclaim: how long tasks stalled in reclaim and compaction
 * during a step's profile pass, from the begin/end tracepoint pairs this
 * kernel has (vmscan: direct reclaim, memcg reclaim, memcg softlimit
 * reclaim, shrink_slab; compaction begin/end), paired per task as
 * mmtests' trace-vmscan-postprocess does (not the same code), and how long
 * the reclaim and compaction threads worked: kswapd from its wake to its
 * sleep, kcompactd from its wake to its next sleep (rl_pairs says what each
 * pair measures and what it misses). The wakeups of kswapd and kcompactd
 * have no end and are counted (rl_events).
 *
 * Not to be confused with reclaim.h, the vmstat rates of every timed
 * iteration.
 *
 * The events are recorded in a tracefs instance of our own
 * (instances/lrubench-<pid>, its clock "mono", its "raw" option on:
 * "<pid> <cpu> <ns> type: <id>" lines), so no global tracing setting
 * changes; system-wide, as mmtests traces. A thread reads its trace_pipe
 * while the pass runs and folds each pair into a histogram
 * (core/latency_hist.h): memory is bounded by the task table, not by the
 * number of events. The instance is removed on every exit path (the
 * cleanup registry); one left by a run killed with SIGKILL is removed by
 * the next profile = reclaim run (its pid dead). docs/ARCHITECTURE.md §12.
 *
 * Tables, each "explains" (one sample per pass, op = the step):
 *   "<workload> <pair> <periods>"       count ("memcg reclaim stalls",
 *                                       "kswapd wake-to-sleep periods")
 *   "<workload> <pair> <per_us> p50"    (and p99, max: "memcg reclaim
 *                                       stall us p50", "kswapd wake-to-sleep us p50")
 *   "<workload> <event>"                count ("kswapd wakeup requests")
 * Details: the pass's profile object gets "reclaim_latency" {"source",
 * "tracepoints", "not_available", "lost_events", "unpaired", "ops":
 * [{"name", "begin", "end", "measures", "periods", "histogram", "count",
 * "begins", "lone_ends", "open_at_end", "p50_us", "p99_us", "max_us",
 * "total_us", "buckets", "tasks": [{"pid", "comm", "count", "max_us"}]}],
 * "wakeups": [{"name", "event", "measures", "count"}]}.
 */
#ifndef LRUBENCH_PROFILE_RECLAIM_LATENCY_H
#define LRUBENCH_PROFILE_RECLAIM_LATENCY_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>
#include "core/latency_hist.h"
#include "core/results.h"
#include "core/util.h"

struct rl_pair {
	const char *name;       /* "memcg reclaim": the tables' word */
	const char *system;     /* "vmscan" */
	const char *begin, *end;
	const char *missing;    /* why a kernel may lack it */
	const char *periods;    /* the count table's word: "stalls", "periods" */
	const char *per_us;     /* the percentile tables': "stall us", "us" */
	const char *histogram;  /* the figure's: "stall latency", "time" */
	const char *measures;   /* what begin to end is, and what it misses */
	/* kswapd: a begin while one is open continues the period (its next
	 * balancing round after a nap cut short), it does not restart it */
	bool begin_continues;
	/* kcompactd: an end with no begin is its normal (a timeout or a
	 * proactive round sleeps again without a wake): not "unpaired" */
	bool lone_end_normal;
};
extern const struct rl_pair rl_pairs[];
#define RL_NPAIRS 7

/* A tracepoint with no end, counted: a wakeup of kswapd or kcompactd. */
struct rl_event {
	const char *name;       /* "kswapd wakeup requests": the table's word */
	const char *system, *event;
	const char *missing;
	const char *measures;
};
extern const struct rl_event rl_events[];
#define RL_NEVENTS 2
/* In a mask: bit i is rl_pairs[i], bit RL_EVENT_BIT(k) is rl_events[k]. */
#define RL_EVENT_BIT(k) (1u << (RL_NPAIRS + (k)))

/* Which pairs have both tracepoints under root/events (bit i: rl_pairs[i])
 * and which events it has (RL_EVENT_BIT); each missing one appended to
 * missing as "<name> (<system>/<begin>): not available on this kernel: <why>". */
unsigned rl_available(const char *root, struct strbuf *missing);
/* The same in a child's mount namespace (tracefs not mounted here);
 * 0 with "tracefs: why" in missing when it cannot be mounted. */
unsigned rl_available_probe(struct strbuf *missing);

/* ---- the pairing: pure, for the unit tests ---- */

#define RL_MAX_TASKS 4096     /* tasks with per-task maxima; later ones only in the histograms */
#define RL_MAX_IDS (2 * RL_NPAIRS + RL_NEVENTS)
#define RL_TOP_TASKS 10

struct rl_task {
	int pid;                  /* 0: free slot */
	char comm[16];
	uint64_t open_ns[RL_NPAIRS];   /* 0: no begin seen */
	uint64_t count[RL_NPAIRS];
	double max_us[RL_NPAIRS];
};

struct rl_state {
	int id[RL_MAX_IDS];       /* event type ids: pair*2 + is_end */
	int id_what[RL_MAX_IDS];
	size_t nids;
	struct rl_task *tasks;    /* RL_MAX_TASKS * 2 open-addressed slots */
	size_t ntasks;
	struct lhist hist[RL_NPAIRS];
	uint64_t begins[RL_NPAIRS];       /* begin lines, a continued one too */
	uint64_t lone_ends[RL_NPAIRS];    /* end lines with no begin open */
	uint64_t counted[RL_NEVENTS];     /* rl_events' lines */
	uint64_t lost, unpaired, untracked, bad_lines, events;
	bool read_comm;           /* the comm from /proc/<pid>/comm at a task's first event */
};

void rl_state_init(struct rl_state *s);
void rl_state_release(struct rl_state *s);
/* Event type id of pair's begin (end = false) or end. */
void rl_state_set_id(struct rl_state *s, int id, unsigned pair, bool end);
/* Event type id of rl_events[k]. */
void rl_state_set_event_id(struct rl_state *s, int id, unsigned k);
/* One line of the raw trace_pipe ("<pid> <cpu> <ns> type: <id>", or
 * "CPU:N [LOST K EVENTS]"); len without the newline. */
void rl_feed_line(struct rl_state *s, const char *line, size_t len);
/* The pair's table samples into res and its JSON; NULL when the pair
 * was not traced. */
json_object *rl_pair_json(const struct rl_state *s, unsigned pair);

/* ---- a profile pass ---- */

struct rl_session;
/* Create the instance under tracefs, enable the pairs of mask, start the
 * reader. 0, or -1 with why (nothing left behind). */
int rl_start(struct rl_session **out, const char *tracefs, unsigned mask, struct strbuf *why);
/* Stop tracing, read what is left, stop the reader. 0 or -1 with why. */
int rl_stop(struct rl_session *s, struct strbuf *why);
/* The pass's tables into res (op = step) and "reclaim_latency" into d. */
void rl_results(const struct rl_session *s, const char *workload, const char *step,
		struct wl_result *res, json_object *d);
/* Remove the instance (the registry entry), free. NULL is fine. */
void rl_release(struct rl_session *s);
/* instances/lrubench-<pid> of runs no longer alive, removed; how many. */
int rl_sweep_stale(const char *tracefs);

#endif
