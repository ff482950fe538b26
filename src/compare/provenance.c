// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What stands behind the numbers of each label, from its run.json: which
 * kernel build it ran (build id, config, debug options), on which host state
 * (host_state.h), on how busy a machine, and what the kernel logged while
 * it ran (kernel_health.h) -- diffed between labels, turned into warnings
 * (the same kernel build twice, debug options, a busy machine) and into
 * notes printed under each workload's tables ("kernel B logged 2 warnings
 * and 1 OOM kill during memcgs-64"). Labels written before these were
 * recorded simply have none of it: nothing is printed for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/model.h"
#include "core/kernel_health.h"
#include "core/kernel_id.h"

#define NOT_RECORDED "(not recorded)"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static json_object *sys_of(const struct comparison *c, size_t l)
{
	return get(c->labels[l].run, "system");
}

static json_object *kernel_of(const struct comparison *c, size_t l)
{
	json_object *k = get(sys_of(c, l), "kernel");

	return k && json_object_is_type(k, json_type_object) ? k : NULL;
}

const char *cmp_label_status(const struct comparison *c, size_t label)
{
	return get_str(c->labels[label].run, "status");
}

/* ---- the kernel's identity ---- */

static char *config_text(json_object *k)
{
	json_object *cfg = get(k, "config");
	const char *sha = get_str(cfg, "sha256"), *src = get_str(cfg, "source");

	if (!k)
		return xstrdup(NOT_RECORDED);
	if (sha)
		return xasprintf("sha256 %.12s from %s", sha, src ? src : "?");
	return xasprintf("unknown: %s", get_str(cfg, "unknown") ? get_str(cfg, "unknown") : "?");
}

static char *taint_text(json_object *k, const char *key)
{
	const char *s = get_str(k, key);

	if (!k || !s)
		return xstrdup(NOT_RECORDED);
	return xstrdup(*s ? s : "none");
}

/* kernel.* facts: only when some label recorded its kernel's identity */
static void kernel_facts(struct comparison *c)
{
	struct strlist opts = STRLIST_INIT;
	bool any = false;
	char **v;

	for (size_t l = 0; l < c->nlabels; l++)
		any |= kernel_of(c, l) != NULL;
	if (!any)
		return;
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = cmp_json_text(get(sys_of(c, l), "kernel_release"));
	cmp_add_fact(c, "kernel.release", v, true);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = cmp_json_text(get(sys_of(c, l), "kernel_version"));
	cmp_add_fact(c, "kernel.version", v, true);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *k = kernel_of(c, l);
		const char *id = get_str(k, "build_id");

		v[l] = !k ? xstrdup(NOT_RECORDED) : id ? xstrdup(id) : xstrdup("unknown");
	}
	cmp_add_fact(c, "kernel.build_id", v, true);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = kernel_of(c, l) && get_str(kernel_of(c, l), "git_describe") ?
			xstrdup(get_str(kernel_of(c, l), "git_describe")) : xstrdup(NOT_RECORDED);
	cmp_add_fact(c, "kernel.git_describe", v, true);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = config_text(kernel_of(c, l));
	cmp_add_fact(c, "kernel.config", v, true);
	/* every recorded option, in first-seen order */
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *o = get(get(kernel_of(c, l), "config"), "options");

		if (o && json_object_is_type(o, json_type_object)) {
			json_object_object_foreach(o, name, val) {
				(void)val;
				if (!strlist_has(&opts, name))
					strlist_push(&opts, name);
			}
		}
	}
	for (size_t i = 0; i < opts.n; i++) {
		const char *known = NULL;
		bool differ = false;

		v = xcalloc(c->nlabels, sizeof(*v));
		for (size_t l = 0; l < c->nlabels; l++) {
			json_object *o = get(get(kernel_of(c, l), "config"), "options");

			if (!o) {
				v[l] = xstrdup(kernel_of(c, l) ? "(config unknown)" : NOT_RECORDED);
				continue;
			}
			v[l] = get(o, opts.v[i]) ? cmp_json_text(get(o, opts.v[i])) : xstrdup("n");
			differ |= known && strcmp(known, v[l]);
			known = known ? known : v[l];
		}
		/* an option differs only between configs that are known: the
		 * unknown ones are said once, by kernel.config */
		if (differ) {
			char *name = xasprintf("kernel.%s", opts.v[i]);
			cmp_add_fact(c, name, v, true);
			free(name);
		} else {
			for (size_t l = 0; l < c->nlabels; l++)
				free(v[l]);
			free(v);
		}
	}
	strlist_release(&opts);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = kernel_of(c, l) ? cmp_json_text(get(kernel_of(c, l), "lru_gen_enabled"))
				       : xstrdup(NOT_RECORDED);
	cmp_add_fact(c, "kernel.lru_gen_enabled", v, true);
	v = xcalloc(c->nlabels, sizeof(*v));
	for (size_t l = 0; l < c->nlabels; l++)
		v[l] = taint_text(kernel_of(c, l), "taint_start_flags");
	cmp_add_fact(c, "kernel.taint_at_start", v, true);
}

/* ---- deliberate settings (run.json "settings", core/knobs.h) ---- */

/* A label's setting of one knob (by path): the value read back while the
 * run held it (else the value asked), or NULL when the label set none. */
static const char *setting_of(const struct comparison *c, size_t l, const char *path)
{
	json_object *set = get(c->labels[l].run, "settings");

	if (!set || !json_object_is_type(set, json_type_object))
		return NULL;
	json_object_object_foreach(set, name, e) {
		(void)name;
		if (get_str(e, "path") && !strcmp(get_str(e, "path"), path))
			return get_str(e, "during") ? get_str(e, "during") : get_str(e, "value");
	}
	return NULL;
}

/* What a label that set nothing had: its host state's record of the knob
 * (system.host.sysctl, .thp), read when the run started. */
static const char *found_value(const struct comparison *c, size_t l, const char *path)
{
	json_object *host = get(sys_of(c, l), "host");
	char name[256];

	if (!strncmp(path, "/proc/sys/", 10)) {
		snprintf(name, sizeof(name), "%s", path + 10);
		for (char *p = name; *p; p++)
			if (*p == '/')
				*p = '.';
		return get_str(get(host, "sysctl"), name);
	}
	if (!strncmp(path, "/sys/kernel/mm/transparent_hugepage/", 36) && !strchr(path + 36, '/'))
		return get_str(get(host, "thp"), path + 36);
	return NULL;
}

/* A VM label's own boot options (run.json vm.boot_options, vm/record.h):
 * what its kernel was booted with on purpose; NULL when not a VM label. */
static const char *boot_options_of(const struct comparison *c, size_t l)
{
	return get_str(get(c->labels[l].run, "vm"), "boot_options");
}

/* Did some label boot with options of its own? */
static bool any_boot_options(const struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++)
		if (boot_options_of(c, l) && *boot_options_of(c, l))
			return true;
	return false;
}

/* Every knob some label set, in first-seen order: its name and path. */
static void setting_paths(const struct comparison *c, struct strlist *names, struct strlist *paths)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *set = get(c->labels[l].run, "settings");

		if (!set || !json_object_is_type(set, json_type_object))
			continue;
		json_object_object_foreach(set, name, e) {
			const char *path = get_str(e, "path");

			if (path && !strlist_has(paths, path)) {
				strlist_push(paths, path);
				strlist_push(names, name);
			}
		}
	}
}

/* "set by the run: vm.swappiness  0 | 100", first among the facts: what
 * differs on purpose is what the comparison is about. */
static void deliberate_facts(struct comparison *c)
{
	struct strlist names = STRLIST_INIT, paths = STRLIST_INIT;
	size_t before = c->nfacts;

	setting_paths(c, &names, &paths);
	if (any_boot_options(c)) {
		/* the per-kernel command line of VM mode, as the guest's
		 * /proc/cmdline confirmed it (vm.boot_options_seen) */
		char **v = xcalloc(c->nlabels, sizeof(*v));

		for (size_t l = 0; l < c->nlabels; l++) {
			const char *o = boot_options_of(c, l);
			json_object *seen = get(get(c->labels[l].run, "vm"), "boot_options_seen");
			bool unseen = seen && !json_object_get_boolean(seen);

			v[l] = !o ? xstrdup("(not a VM run)") : xasprintf("%s%s", *o ? o : "(none)",
				   unseen ? " (not on the guest's /proc/cmdline)" : "");
		}
		cmp_add_fact(c, "set by the run: boot options", v, false);
	}
	for (size_t i = 0; i < paths.n; i++) {
		char **v = xcalloc(c->nlabels, sizeof(*v));
		char *fact = xasprintf("set by the run: %s", names.v[i]);

		for (size_t l = 0; l < c->nlabels; l++) {
			const char *set = setting_of(c, l, paths.v[i]), *found;

			found = set ? NULL : found_value(c, l, paths.v[i]);
			v[l] = set ? xstrdup(set) : found ? xasprintf("%s (not set)", found)
							  : xstrdup("(not set)");
		}
		cmp_add_fact(c, fact, v, false);
		free(fact);
	}
	/* to the front, in their order */
	if (c->nfacts > before && before) {
		size_t n = c->nfacts - before;
		struct cmp_fact *moved = xcalloc(n, sizeof(*moved));

		memcpy(moved, c->facts + before, n * sizeof(*moved));
		memmove(c->facts + n, c->facts, before * sizeof(*moved));
		memcpy(c->facts, moved, n * sizeof(*moved));
		free(moved);
	}
	strlist_release(&names);
	strlist_release(&paths);
}

/* A label's deliberate settings as one text ("path=value\n" sorted by
 * first-seen knob): two labels with the same text were set up alike. */
static char *settings_signature(const struct comparison *c, size_t l, const struct strlist *paths)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < paths->n; i++) {
		const char *v = setting_of(c, l, paths->v[i]);

		if (v)
			strbuf_addf(&sb, "%s=%s\n", paths->v[i], v);
	}
	/* a VM label's boot options are deliberate too: "" and none alike */
	if (boot_options_of(c, l) && *boot_options_of(c, l))
		strbuf_addf(&sb, "boot options=%s\n", boot_options_of(c, l));
	return strbuf_detach(&sb);
}

struct id_key {
	const char *id;
	size_t label;
};

static int id_cmp(const void *a, const void *b)
{
	const struct id_key *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : x->label < y->label ? -1 : x->label > y->label;
}

/* a build with two or more labels: its first label, and where it starts in
 * the sorted keys */
struct build_group {
	size_t first_label, at;
};

static int first_label_cmp(const void *a, const void *b)
{
	const struct build_group *x = a, *y = b;

	return x->first_label < y->first_label ? -1 : x->first_label > y->first_label;
}

/* "these labels ran the same kernel build (build id X): a, b", one per build,
 * in the order of each build's first label. Sorted by build id, so a history
 * of 10,000 labels is O(n log n), not a pair-by-pair walk. */
static void same_kernel(struct comparison *c)
{
	struct id_key *k = xcalloc(c->nlabels ? c->nlabels : 1, sizeof(*k));
	struct build_group *groups = xcalloc(c->nlabels ? c->nlabels : 1, sizeof(*groups));
	char **sig = xcalloc(c->nlabels ? c->nlabels : 1, sizeof(*sig));
	struct strlist names = STRLIST_INIT, paths = STRLIST_INIT;
	size_t n = 0, ng = 0;
	bool deliberate;

	for (size_t l = 0; l < c->nlabels; l++) {
		const char *id = get_str(kernel_of(c, l), "build_id");

		if (id)
			k[n++] = (struct id_key){ id, l };
	}
	qsort(k, n, sizeof(*k), id_cmp);
	for (size_t i = 0; i < n; ) {
		size_t j = i + 1;

		while (j < n && !strcmp(k[j].id, k[i].id))
			j++;
		if (j - i > 1)
			groups[ng++] = (struct build_group){ k[i].label, i };
		i = j;
	}
	qsort(groups, ng, sizeof(*groups), first_label_cmp);
	setting_paths(c, &names, &paths);
	deliberate = paths.n || any_boot_options(c);
	for (size_t l = 0; l < c->nlabels; l++)
		sig[l] = settings_signature(c, l, &paths);
	for (size_t g = 0; g < ng; g++) {
		size_t at = groups[g].at, end = at;
		struct strbuf who = STRBUF_INIT, alike = STRBUF_INIT;
		bool any_alike = false;

		while (end < n && !strcmp(k[end].id, k[at].id))
			end++;
		/* labels of one build set up alike are the same measurement twice;
		 * labels that differ in deliberate settings are the comparison */
		for (size_t j = at; j < end; j++) {
			bool twin = false;

			strbuf_addf(&who, "%s%s", j > at ? ", " : "", c->labels[k[j].label].label);
			for (size_t i = at; i < end; i++)
				twin |= i != j && !strcmp(sig[k[i].label], sig[k[j].label]);
			if (twin) {
				strbuf_addf(&alike, "%s%s", alike.len ? ", " : "", c->labels[k[j].label].label);
				any_alike = true;
			}
		}
		if (any_alike && deliberate && strcmp(alike.buf, who.buf))
			strlist_pushf(&c->same_kernel, "these labels ran the same kernel build (build id %s) "
				      "with the same deliberate settings: %s", k[at].id, alike.buf);
		else if (any_alike)
			strlist_pushf(&c->same_kernel, "these labels ran the same kernel build (build id %s): %s",
				      k[at].id, who.buf);
		else
			strlist_pushf(&c->same_build_settings, "these labels ran the same kernel build (build "
				      "id %s) in different deliberate settings (set by the run%s): %s",
				      k[at].id, any_boot_options(c) ? ": knobs or boot options" : "", who.buf);
		strbuf_release(&who);
		strbuf_release(&alike);
	}
	for (size_t l = 0; l < c->nlabels; l++)
		free(sig[l]);
	free(sig);
	strlist_release(&names);
	strlist_release(&paths);
	for (size_t i = 0; i < c->same_kernel.n; i++)
		strlist_push(&c->warnings, c->same_kernel.v[i]);
	free(groups);
	free(k);
}

static void debug_options(struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		struct strlist found = STRLIST_INIT;
		struct strbuf all = STRBUF_INIT;

		kconfig_debug_options(get(get(kernel_of(c, l), "config"), "options"),
				      get_str(sys_of(c, l), "cmdline"), &found);
		for (size_t i = 0; i < found.n; i++)
			strbuf_addf(&all, "%s%s", i ? ", " : "", found.v[i]);
		if (found.n)
			strlist_pushf(&c->warnings, "%s ran a kernel with debug options that distort "
				      "performance: %s", c->labels[l].label, all.buf);
		strlist_release(&found);
		strbuf_release(&all);
	}
}

/* ---- the host ---- */

/* host keys that say how busy the machine was, not how it was set up */
static bool host_noise(const char *key)
{
	return !strcmp(key, "load_avg") || !strcmp(key, "busy_processes") ||
	       /* system.thp_enabled and thp_defrag already say these */
	       !strcmp(key, "thp.enabled") || !strcmp(key, "thp.defrag");
}

static void host_keys(json_object *o, const char *prefix, struct strlist *keys)
{
	json_object_object_foreach(o, k, v) {
		char *name = prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);

		/* two levels at most: "thp.defrag", "sysctl.vm.swappiness", "node_mem_kb.0" */
		if (json_object_is_type(v, json_type_object) && !prefix)
			host_keys(v, name, keys);
		else if (!host_noise(name) && !strlist_has(keys, name))
			strlist_push(keys, name);
		free(name);
	}
}

static json_object *host_get(json_object *host, const char *dotted)
{
	/* the first component, then the rest as one key (sysctl names hold dots) */
	const char *dot = strchr(dotted, '.');
	char *first;
	json_object *v;

	if (!dot)
		return get(host, dotted);
	first = xstrndup(dotted, (size_t)(dot - dotted));
	v = get(get(host, first), dot + 1);
	free(first);
	return v;
}

/* swaps as "none" or "/dev/zram0 partition 4194300 kB, ..." */
static char *swaps_text(json_object *arr)
{
	struct strbuf sb = STRBUF_INIT;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return cmp_json_text(arr);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *s = json_object_array_get_idx(arr, i);

		strbuf_addf(&sb, "%s%s %s %s kB", i ? ", " : "", get_str(s, "device") ? get_str(s, "device") : "?",
			    get_str(s, "type") ? get_str(s, "type") : "?",
			    get(s, "size_kb") ? json_object_get_string(get(s, "size_kb")) : "?");
	}
	if (!sb.len)
		strbuf_addstr(&sb, "none");
	return strbuf_detach(&sb);
}

static void host_facts(struct comparison *c)
{
	struct strlist keys = STRLIST_INIT;
	size_t have = 0;
	char **v;

	for (size_t l = 0; l < c->nlabels; l++)
		have += get(sys_of(c, l), "host") != NULL;
	if (have && have < c->nlabels) {
		/* an older run beside a newer one: one line, not one per key */
		v = xcalloc(c->nlabels, sizeof(*v));
		for (size_t l = 0; l < c->nlabels; l++)
			v[l] = xstrdup(get(sys_of(c, l), "host") ? "recorded" : NOT_RECORDED);
		cmp_add_fact(c, "system.host", v, false);
	} else if (have) {
		for (size_t l = 0; l < c->nlabels; l++)
			host_keys(get(sys_of(c, l), "host"), NULL, &keys);
		for (size_t k = 0; k < keys.n; k++) {
			char *name = xasprintf("system.host.%s", keys.v[k]);

			v = xcalloc(c->nlabels, sizeof(*v));
			for (size_t l = 0; l < c->nlabels; l++) {
				json_object *val = host_get(get(sys_of(c, l), "host"), keys.v[k]);

				v[l] = !strcmp(keys.v[k], "swaps") ? swaps_text(val) : cmp_json_text(val);
			}
			cmp_add_fact(c, name, v, false);
			free(name);
		}
	}
	strlist_release(&keys);
	have = 0;
	for (size_t l = 0; l < c->nlabels; l++)
		have += get(c->labels[l].run, "lrubench_git") != NULL;
	if (have) {
		v = xcalloc(c->nlabels, sizeof(*v));
		for (size_t l = 0; l < c->nlabels; l++)
			v[l] = get(c->labels[l].run, "lrubench_git") ? cmp_json_text(get(c->labels[l].run, "lrubench_git"))
								    : xstrdup(NOT_RECORDED);
		cmp_add_fact(c, "lrubench_git", v, false);
	}
}

/* a busy machine is a noisy machine: load above half the CPUs, or another
 * process using a tenth of a CPU or more when the run started */
static void busy_machine(struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *host = get(sys_of(c, l), "host"), *load = get(host, "load_avg");
		json_object *busy = get(host, "busy_processes"), *cpus = get(sys_of(c, l), "nr_cpus");
		struct strbuf who = STRBUF_INIT;
		double load1 = load && json_object_is_type(load, json_type_array) &&
			       json_object_array_length(load) ? json_object_get_double(json_object_array_get_idx(load, 0)) : 0;
		int ncpu = cpus ? json_object_get_int(cpus) : 1;
		bool hot = false;

		for (size_t i = 0; busy && json_object_is_type(busy, json_type_array) &&
				   i < json_object_array_length(busy) && i < 3; i++) {
			json_object *p = json_object_array_get_idx(busy, i);
			double pct = get(p, "cpu_percent") ? json_object_get_double(get(p, "cpu_percent")) : 0;

			if (pct >= 10)
				hot = true;
			if (pct >= 5)
				strbuf_addf(&who, "%s%s %.0f%%", who.len ? ", " : "",
					    get_str(p, "comm") ? get_str(p, "comm") : "?", pct);
		}
		if (hot || load1 > 0.5 * (ncpu > 0 ? ncpu : 1))
			strlist_pushf(&c->warnings, "%s: the machine was busy when the run started (load %.2f on "
				      "%d CPUs%s%s): expect noise", c->labels[l].label, load1, ncpu,
				      who.len ? "; busiest: " : "", who.buf ? who.buf : "");
		strbuf_release(&who);
	}
}

/* DAMON paging out behind the workloads' backs (host_state.c add_damon):
 * runs of one kernel drift apart by how much it took each time */
static void damon_reclaiming(struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *v = get(get(sys_of(c, l), "host"), "damon_moves_lru");

		if (v && json_object_get_boolean(v))
			strlist_pushf(&c->warnings, "%s: DAMON was paging out or reordering memory while it "
				      "ran (system.host.damon): it takes the workloads' pages at its own pace, "
				      "so runs of one kernel differ by how much it took", c->labels[l].label);
	}
}

/* ---- what happened during the run ---- */

static struct cmp_workload *find_wl(struct comparison *c, const char *name)
{
	for (size_t w = 0; w < c->nwls; w++)
		if (!strcmp(c->wls[w].name, name))
			return &c->wls[w];
	return NULL;
}

static void during(struct strbuf *sb, const char *workload, const char *step, bool in_wl)
{
	if (!*step && !*workload)
		strbuf_addstr(sb, "during the run, outside its workloads");
	else if (in_wl)
		strbuf_addf(sb, "during %s", *step ? step : "its workload");
	else
		strbuf_addf(sb, "during %s %s", workload, *step ? step : "");
}

static void load_health(struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *kh = get(c->labels[l].run, "kernel_health"), *ev = get(kh, "events");

		if (get_str(kh, "log_unavailable"))
			strlist_pushf(&c->warnings, "%s: its kernel log could not be read (%s): warnings "
				      "during the run were not counted", c->labels[l].label,
				      get_str(kh, "log_unavailable"));
		for (size_t i = 0; ev && json_object_is_type(ev, json_type_array) &&
				   i < json_object_array_length(ev); i++) {
			json_object *e = json_object_array_get_idx(ev, i), *first = get(e, "first");
			int kind = kh_kind_from_name(get_str(e, "kind"));
			struct cmp_health *h;

			if (kind == KH_NONE || !get(e, "count"))
				continue;
			ALLOC_GROW(c->health, c->nhealth + 1, c->healthcap);
			h = &c->health[c->nhealth++];
			h->label = l;
			h->workload = xstrdup(get_str(e, "workload") ? get_str(e, "workload") : "");
			h->step = xstrdup(get_str(e, "step") ? get_str(e, "step") : "");
			h->kind = kind;
			h->count = json_object_get_int64(get(e, "count"));
			h->first = first && json_object_is_type(first, json_type_array) &&
				   json_object_array_length(first) ?
				xstrdup(json_object_get_string(json_object_array_get_idx(first, 0))) : NULL;
		}
	}
}

/* "kernel B logged 2 warnings and 1 OOM kill during memcgs-64", one per
 * (label, workload, step), under the workload's tables or with the warnings */
static void health_notes(struct comparison *c)
{
	bool *done = xcalloc(c->nhealth + 1, sizeof(*done));

	for (size_t i = 0; i < c->nhealth; i++) {
		const struct cmp_health *h = &c->health[i];
		struct cmp_workload *w = find_wl(c, h->workload);
		struct strbuf sb = STRBUF_INIT;
		size_t parts = 0, nparts = 0;
		const char *first = NULL;

		if (done[i])
			continue;
		for (size_t j = i; j < c->nhealth; j++)
			if (c->health[j].label == h->label && !strcmp(c->health[j].workload, h->workload) &&
			    !strcmp(c->health[j].step, h->step))
				nparts++;
		strbuf_addf(&sb, "kernel %s logged ", c->labels[h->label].label);
		for (size_t j = i; j < c->nhealth; j++) {
			const struct cmp_health *o = &c->health[j];

			if (o->label != h->label || strcmp(o->workload, h->workload) || strcmp(o->step, h->step))
				continue;
			done[j] = true;
			parts++;
			strbuf_addf(&sb, "%s%lld %s", parts == 1 ? "" : parts == nparts ? " and " : ", ",
				    o->count, kh_kind_words(o->kind, (unsigned long long)o->count));
			if (!first)
				first = o->first;
		}
		strbuf_addstr(&sb, " ");
		during(&sb, h->workload, h->step, w != NULL);
		if (w) {
			strlist_push(&w->notes, sb.buf);
			if (first)
				strlist_pushf(&w->notes, "  first: %s", first);
		} else {
			strlist_push(&c->warnings, sb.buf);
		}
		strbuf_release(&sb);
	}
	free(done);
}

static void taint_and_failures(struct comparison *c)
{
	for (size_t l = 0; l < c->nlabels; l++) {
		json_object *tc = get(get(c->labels[l].run, "kernel_health"), "taint_changes");
		json_object *fo = get(c->labels[l].run, "failed_ops");

		for (size_t i = 0; tc && json_object_is_type(tc, json_type_array) &&
				   i < json_object_array_length(tc); i++) {
			json_object *e = json_object_array_get_idx(tc, i);
			const char *wl = get_str(e, "workload") ? get_str(e, "workload") : "";
			const char *step = get_str(e, "step") ? get_str(e, "step") : "";
			struct cmp_workload *w = find_wl(c, wl);
			struct strbuf sb = STRBUF_INIT;
			char from[96];

			if (!get(e, "from") || !get(e, "to"))
				continue;
			kernel_taint_letters((unsigned long long)json_object_get_int64(get(e, "from")), from,
					     sizeof(from));
			strbuf_addf(&sb, "kernel %s became tainted (%s -> %s) ", c->labels[l].label,
				    *from ? from : "none", get_str(e, "flags") && *get_str(e, "flags") ?
				    get_str(e, "flags") : "none");
			during(&sb, wl, step, w != NULL);
			strlist_push(w ? &w->notes : &c->warnings, sb.buf);
			strbuf_release(&sb);
		}
		for (size_t i = 0; fo && json_object_is_type(fo, json_type_array) &&
				   i < json_object_array_length(fo); i++) {
			json_object *e = json_object_array_get_idx(fo, i);
			const char *wl = get_str(e, "workload") ? get_str(e, "workload") : "";
			struct cmp_workload *w = find_wl(c, wl);
			char *line = xasprintf("%s: %s%s%s %s failed: %s", c->labels[l].label, w ? "" : wl,
					       w ? "" : " ", get_str(e, "step") ? get_str(e, "step") : "?",
					       get_str(e, "iteration") ? get_str(e, "iteration") : "",
					       get_str(e, "reason") ? get_str(e, "reason") : "?");

			strlist_push(w ? &w->notes : &c->warnings, line);
			free(line);
		}
	}
}

void cmp_provenance(struct comparison *c)
{
	deliberate_facts(c);
	kernel_facts(c);
	host_facts(c);
	same_kernel(c);
	debug_options(c);
	busy_machine(c);
	damon_reclaiming(c);
	load_health(c);
	health_notes(c);
	taint_and_failures(c);
}
