/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Configuration, fio style: one table of struct option_def per section drives
 * INI parsing, --set, --quick, validation, defaults sized from the machine,
 * the effective config written to run.json, and `lrubench list`. A key that is
 * not in a table is an error naming file:line (or the --set argument).
 *
 * Precedence, lowest first: table default (or def_fn), --quick value, config
 * file(s) in order, --set in order.
 */
#ifndef LRUBENCH_CONFIG_H
#define LRUBENCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <json-c/json.h>
#include "core/util.h"

struct sys_facts;
struct config;
struct numa_bind;

enum opt_type {
	OPT_UINT,      /* unsigned long long, [min, max] */
	OPT_SIZE,      /* uint64_t bytes with K/M/G/T; OPTF_NONE -> 0 means "none" */
	OPT_TIME,      /* double seconds, s/m/h/ms */
	OPT_BOOL,      /* bool: yes/no/true/false/1/0/on/off */
	OPT_STR,       /* char * (owned by the config) */
	OPT_ENUM,      /* int index into choices[] */
	OPT_LIST,      /* struct ull_list, each entry in [min, max] */
	OPT_PCT,       /* double percent: "2%" or "2", in (0, max] */
};

#define OPTF_NONE  0x1  /* OPT_SIZE and OPT_TIME accept "none" (stored as 0) */
#define OPTF_AUTO  0x2  /* OPT_STR: the value "auto" is kept as text for the workload to size;
			   OPT_UINT: "auto" is stored as LB_AUTO; OPT_SIZE: as LB_SIZE_AUTO */
/* OPT_SIZE "auto": the workload sizes it (e.g. core/file_sizing.h) */
#define LB_SIZE_AUTO UINT64_MAX

#define LB_LIST_MAX 64
struct ull_list {
	size_t n;
	unsigned long long v[LB_LIST_MAX];
};

/* What a def_fn sees: facts to size a default from. */
struct sizing {
	const struct sys_facts *sys;
	int node_cpus;           /* CPUs on the chosen node (or machine) */
	uint64_t node_mem;       /* memory of the chosen node (or machine), bytes */
};

struct option_def {
	const char *name;
	enum opt_type type;
	size_t offset;           /* into the section's struct */
	const char *def;         /* default as text */
	/* computed default, overrides def when non-NULL: writes text to buf */
	void (*def_fn)(const struct sizing *sz, char *buf, size_t len);
	const char *quick;       /* value under --quick, NULL = same as default */
	unsigned long long min, max;  /* OPT_UINT, OPT_LIST; OPT_SIZE bytes; OPT_TIME seconds */
	const char *const *choices;   /* OPT_ENUM, NULL-terminated */
	unsigned flags;
	const char *help;
};
#define OPT_END { .name = NULL }

/* [global] profile: what src/profile/ runs after each step's timed
 * iterations. Here, not in profile/, because the option is the core's; its
 * choices "none", "lock", "cpu", "all", "counters", "reclaim", "c2c"
 * (NULL-terminated) index the enum; "all" is lock and cpu (counters need a
 * hardware PMU; reclaim is the vmscan tracepoints' stall latencies,
 * profile/reclaim_latency.h; c2c is perf c2c, profile/perf_c2c.h, and needs a
 * PMU that samples memory accesses). */
enum profile_kind { PROFILE_NONE = 0, PROFILE_LOCK, PROFILE_CPU, PROFILE_ALL, PROFILE_COUNTERS,
		    PROFILE_RECLAIM, PROFILE_C2C };
extern const char *const profile_kind_names[];

/* [global] */
struct global_opts {
	unsigned long long iterations;   /* LB_AUTO: adaptive (core/adaptive.h) */
	unsigned long long warmup;
	char *numa_node;       /* "N" | "auto" | "none" */
	char *workdir;
	bool drop_caches;
	char *sparse_root;     /* loop-ext4 | loop-xfs | dir:/path */
	uint64_t sparse_size;  /* size of the loop image (sparse) */
	char *workloads;       /* default for -w: comma list or "all" */
	int profile;           /* enum profile_kind (above) */
	unsigned long long profile_passes;  /* profiled passes per step (profile.h) */
	double stuck_timeout;  /* seconds: when a workload's child counts as stuck (core/child_watch.h) */
	/* iterations = auto (core/adaptive.h) */
	double precision;      /* percent: the 95% CI half-width of an op's mean, relative */
	double detect;         /* percent: the change a baseline's design is planned for; 0: none */
	unsigned long long min_iterations, max_iterations;
	double time_budget;    /* seconds of measured iterations per step; 0: none */
	bool interleave;       /* steps' iterations in rounds (core/schedule.h) */
	/* the monitors (src/monitor/monitor.h): sampled during every timed iteration */
	char *monitors;        /* "vmstat,meminfo,...", "all" or "none"; checked by monitor_parse */
	unsigned long long monitor_interval;  /* ms between two samples */
};
extern const struct option_def global_options[];

/*
 * [vm]: VM mode (lrubench-vm(7)). A kernel_a or kernel_b makes `lrubench run`
 * boot the kernels in qemu and run the suite in each; the keys are set like
 * any other (INI, --set vm.KEY=VAL) and by run's aliases --kernel-a,
 * --label-a, --modules-a, --vm-memory ... The section never enters run.json's
 * config: VM mode records what it did in run.json's "vm" object.
 */
struct vm_opts {
	char *kernel[2];           /* kernel_a, kernel_b: a bzImage, "host" or "" (none) */
	char *label[2];            /* "": the image's release */
	char *modules[2];          /* "": found beside the image */
	char *cmdline[2];          /* cmdline_a, cmdline_b: kernel A's, B's own boot options */
	char *settings[2];         /* settings_a, settings_b: "KNOB=VALUE, ..." set in A's, B's guest */
	char *kernels;             /* "NAME=IMG,NAME=IMG": more kernels, after a and b */
	char *kernel_settings;     /* "NAME:KNOB=VALUE, ...": the same for those kernels */
	uint64_t memory;
	unsigned long long cpus, numa_nodes, rounds;
	char *cmdline_extra;
	double timeout;            /* seconds per boot */
	char *cpus_from;           /* "none", "node" or a host CPU list ("0-3,8") */
	char *host_node;           /* "auto" or a host node number */
	int memory_backend;        /* index into vm_memory_backends */
	char *host_settings;       /* "KNOB=VALUE, ...": set on the host around the boots */
	int balloon;               /* index into vm_balloons */
	uint64_t balloon_target;   /* the guest's memory target through the balloon; 0: none */
	double rss_interval;       /* seconds between samples of qemu's VmRSS */
};
extern const char *const vm_balloons[];          /* "none", "free-page-reporting" */
extern const char *const vm_memory_backends[];   /* "ram", "memfd", "hugetlb" */
extern const struct option_def vm_options[];

/* One section: its defs, the struct they fill, and per key where the value came from. */
struct config_section {
	const char *name;
	const struct option_def *defs;
	void *base;              /* the typed struct */
	size_t size;
	char **text;             /* effective value text per def, for run.json */
	char **origin;           /* "default", "--quick", "file:line", "--set" */
	char **given;            /* the value as written when it names "cpus" (text holds
				  * it expanded; config_resize expands it again), else NULL */
	bool enabled;            /* workload selected by -w */
	bool common;             /* the core's keys every workload section has */
};

/* Keys every workload section accepts besides its own: `iterations` and
 * `warmup`, which inherit [global] unless set (LB_INHERIT). */
#define LB_INHERIT (~0ULL)
/* iterations = auto: as many as global.precision asks (core/adaptive.h) */
#define LB_AUTO (~0ULL - 1)
struct wl_common_opts {
	unsigned long long iterations;
	unsigned long long warmup;
	int statistic;           /* index into wl_statistics: the mean row of compare (§8) */
};
/* "mmtests", "amean": run.json config.<workload>.statistic, read by compare */
extern const char *const wl_statistics[];
extern const struct option_def wl_common_options[];
/* Recompute def_fn defaults (keys still at their default) for a new sizing:
 * the chosen NUMA node is only known after files and --set are read. Values
 * written with the word "cpus" are expanded again for the node's CPUs. */
void config_resize(struct config *cfg, const struct sizing *sz);
/* The common keys of a workload section (never NULL for a known workload). */
struct wl_common_opts *config_common(struct config *cfg, const char *workload);

/*
 * [settings]: sysctl and sysfs values the run sets (core/knobs.h): keys are
 * sysctl names ("vm.swappiness") or absolute paths ("/sys/kernel/mm/
 * transparent_hugepage/enabled"), checked for the allowed trees as they are
 * read (exit 2). A comma list ("0,60,100") is an axis: `run` makes one label
 * per value (commands/run.c); `current` is the value of the label running,
 * NULL when the value is a single one. "keep" removes an entry.
 */
struct config_setting {
	char *name;              /* as written */
	char *path;              /* knob_resolve's */
	char *value;             /* as written: one value, or the axis' list */
	char *current;           /* the axis' value for this label; NULL: value */
	char *origin;            /* "file:line", "--set settings.X=Y" */
};
/* The value a run applies: current, or value. */
static inline const char *config_setting_value(const struct config_setting *s)
{
	return s->current ? s->current : s->value;
}
/* Is the value a list (an axis)? */
static inline bool config_setting_is_axis(const struct config_setting *s)
{
	return !s->current && strchr(s->value, ',') != NULL;
}

struct config {
	struct global_opts g;
	struct config_setting *settings;   /* [settings], in the order given */
	size_t nsettings;
	struct config_section *sec;  /* [0] is global, then one per workload, then vm */
	size_t nsec;
	bool quick;
	int cpus;                /* what "cpus" stands for: CPUs of the node (sizing) */
	struct strbuf files;     /* config files read, for messages */
};

/*
 * Integers and lists may say "cpus" for the CPUs of the run's NUMA node (of
 * the machine with numa_node = none): "cpus", "2*cpus", "cpus/2" (at least
 * 1), in any place of a list: "memcgs = cpus", "threads = 1-cpus:x2". This
 * is how a suite sizes "one memcg per CPU" for the machine it runs on.
 * Writes the value with every such term replaced by its number to out and
 * returns 1; 0 when val names no "cpus" (out untouched); -1 with err.
 */
int config_expand_cpus(const char *val, int cpus, struct strbuf *out, struct strbuf *err);

/* Build the config with defaults for every known section (global + every
 * workload in the table); sizing may be NULL in tests (def_fn then see zeros). */
int config_init(struct config *cfg, const struct sizing *sz, bool quick);
/* Load an INI file. Errors name file:line and the key. */
int config_load_file(struct config *cfg, const char *path, struct strbuf *err);
/* The same for an INI text in memory (path names it in messages). */
int config_load_text(struct config *cfg, const char *path, const char *text, size_t len,
		     struct strbuf *err);
/* Parse "SEC.KEY=VAL"; the dot is required ("global.iterations=3"). */
int config_set(struct config *cfg, const char *assignment, struct strbuf *err);
/* The same, with the origin messages and run.json name ("--vm-memory 2G");
 * NULL: "--set SEC.KEY=VAL". */
int config_set_from(struct config *cfg, const char *assignment, const char *origin,
		    struct strbuf *err);
/* Where a key's value came from: "default", "--quick", "file:line", "--set ...";
 * NULL for an unknown key. */
const char *config_origin(struct config *cfg, const char *sec, const char *key);
/* Set one key by section and name (used by the INI loader and --set). */
int config_set_value(struct config *cfg, const char *sec, const char *key,
		     const char *val, const char *origin, struct strbuf *err);
/* The typed struct of a section, or NULL. */
void *config_section(struct config *cfg, const char *name);
struct config_section *config_find_section(struct config *cfg, const char *name);
/* {"global": {...}, "readtwice": {...}} of the effective text values of the
 * sections that are enabled (global always). */
json_object *config_to_json(const struct config *cfg);
void config_release(struct config *cfg);

/* [settings] (config_settings.c): set knob `name` (a sysctl name or an
 * absolute path) to value (one value, a comma list, or "keep" to drop it);
 * 0, or -1 with err naming origin. config_set_value calls it for the section
 * "settings". */
int config_setting_set(struct config *cfg, const char *name, const char *value, const char *origin,
		       struct strbuf *err);
/* {name: value} of the settings (the current value of an axis) */
json_object *config_settings_json(const struct config *cfg);
void config_settings_release(struct config *cfg);

/* Parse one value for one def into dst (the field). 0 or -1 with err saying
 * what is wrong with the value (the caller adds file:line and key). */
int option_parse(const struct option_def *d, const char *val, void *dst, struct strbuf *err);
/* A finite decimal number ("0.05", "-3", "1e-3"): the one parser of that
 * syntax (OPT_PCT, parse_options' POPT_DOUBLE). With rest, the text after
 * the number is left there for the caller to judge ("2%"); without, it must
 * be empty. 0 or -1 with err ("'x' is not a number"). */
int option_parse_number(const char *val, double *v, const char **rest, struct strbuf *err);
/* Free what option_parse allocated in the struct of defs. */
void options_free(const struct option_def *defs, void *base);
/* Describe a def's type for `lrubench list`: "size", "list of integers 1..1024" */
void option_describe_type(const struct option_def *d, char *buf, size_t len);

#endif
