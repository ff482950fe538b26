// SPDX-License-Identifier: GPL-2.0-or-later
/* The cover-letter parts of `lrubench report` (letter.h). */
#include <string.h>
#include "compare/email.h"
#include "compare/letter.h"
#include "compare/plot_txt.h"

void letter_section(struct strbuf *out, const char *title)
{
	size_t n = strlen(title);

	email_add_ascii(out, title);
	strbuf_addstr(out, "\n");
	while (n--)
		strbuf_addstr(out, "-");
	strbuf_addstr(out, "\n");
}

/* run.json's obj.key as text ("" when absent); numbers as written. */
static const char *run_get(const struct label_result *l, const char *obj, const char *key)
{
	json_object *o, *v;

	if (!l->run || !json_object_object_get_ex(l->run, obj, &o) ||
	    !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v) ||
	    json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array) ||
	    json_object_is_type(v, json_type_null))
		return "";
	return json_object_get_string(v);
}

/* run.json's virt: "host" (not a VM that lrubench booted: nothing to say), kvm or tcg */
static const char *virt_words(const char *virt)
{
	if (!strcmp(virt, "host") || !strcmp(virt, "none"))
		return NULL;
	if (!strcmp(virt, "kvm"))
		return "KVM guest";
	if (!strcmp(virt, "tcg"))
		return "QEMU TCG guest (emulated: timings are not kernel timings)";
	return virt;
}

void letter_machine(const struct comparison *c, struct strbuf *out)
{
	const struct label_result *b = &c->labels[0];
	struct strbuf sb = STRBUF_INIT;
	const char *v;

	strbuf_init(&sb);
	if (*(v = run_get(b, "system", "cpu_model")))
		strbuf_addf(&sb, "%s, ", v);
	if (*(v = run_get(b, "system", "machine")))
		strbuf_addf(&sb, "%s, ", v);
	if (*(v = run_get(b, "system", "nr_cpus")))
		strbuf_addf(&sb, "%s CPUs, ", v);
	if (*(v = run_get(b, "system", "mem_total_kb")))
		strbuf_addf(&sb, "%.1f GiB, ", strtod(v, NULL) / (1024.0 * 1024.0));
	if (*(v = run_get(b, "system", "numa_nodes")))
		strbuf_addf(&sb, "%s NUMA node%s, ", v, strcmp(v, "1") ? "s" : "");
	if (*(v = run_get(b, "system", "virt")) && virt_words(v))
		strbuf_addf(&sb, "%s, ", virt_words(v));
	if (*(v = run_get(b, "system", "thp_enabled")))
		strbuf_addf(&sb, "THP=%s defrag=%s, ", v, run_get(b, "system", "thp_defrag"));
	if (*(v = run_get(b, "system", "cgroup_mode")))
		strbuf_addf(&sb, "cgroup %s, ", v);
	while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == ','))
		sb.buf[--sb.len] = '\0';
	email_add_wrapped(out, "", "  ", sb.len ? sb.buf : "(run.json has no system facts)");
	strbuf_addstr(out, "Kernels:\n");
	for (size_t l = 0; l < c->nlabels; l++) {
		const char *rel = run_get(&c->labels[l], "system", "kernel_release");
		const char *ver = run_get(&c->labels[l], "system", "kernel_version");

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s:", c->labels[l].label, l ? "" : " (baseline)");
		if (*rel && strcmp(rel, c->labels[l].label))
			strbuf_addf(&sb, " %s", rel);
		strbuf_addf(&sb, " %s", *ver ? ver : *rel ? "" : "(unknown)");
		email_add_wrapped(out, "  ", "    ", sb.buf);
	}
	strbuf_release(&sb);
}

/* The workload settings of run.json's config, "key value" pairs. */
static void config_section(const struct label_result *b, const char *wl, struct strbuf *sb)
{
	json_object *cfg, *sec;
	bool first = true;

	if (!b->run || !json_object_object_get_ex(b->run, "config", &cfg) ||
	    !json_object_object_get_ex(cfg, wl, &sec) || !json_object_is_type(sec, json_type_object))
		return;
	json_object_object_foreach(sec, key, val) {
		const char *s = json_object_get_string(val);

		/* the per-workload overrides that only say "as in [global]" */
		if (!s || !strcmp(s, "inherit"))
			continue;
		strbuf_addf(sb, "%s%s %s", first ? "" : ", ", key, s);
		first = false;
	}
}

void letter_run(const struct comparison *c, struct strbuf *out)
{
	const struct label_result *b = &c->labels[0];
	const char *iters = "", *warmup = "";
	struct strbuf sb = STRBUF_INIT;
	json_object *cfg, *g, *v;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "Workloads:");
	for (size_t w = 0; w < c->nwls; w++)
		strbuf_addf(&sb, "%s %s", w ? "," : "", c->wls[w].name);
	email_add_wrapped(out, "", "  ", sb.buf);
	if (b->run && json_object_object_get_ex(b->run, "config", &cfg) &&
	    json_object_object_get_ex(cfg, "global", &g) &&
	    json_object_is_type(g, json_type_object)) {
		if (json_object_object_get_ex(g, "iterations", &v))
			iters = json_object_get_string(v);
		if (json_object_object_get_ex(g, "warmup", &v))
			warmup = json_object_get_string(v);
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "Iterations: %s measured", *iters ? iters : "?");
	if (*warmup)
		strbuf_addf(&sb, " after %s warm-up", warmup);
	strbuf_addstr(&sb, " per op and kernel");
	email_add_wrapped(out, "", "  ", sb.buf);
	for (size_t w = 0; w < c->nwls; w++) {
		char *first;

		strbuf_reset(&sb);
		config_section(b, c->wls[w].name, &sb);
		if (!sb.len)
			continue;
		first = xasprintf("%s: ", c->wls[w].name);
		email_add_wrapped(out, first, "  ", sb.buf);
		free(first);
	}
	if (c->nfacts)
		strbuf_addstr(out, "(The baseline's settings; what differs is listed under Results.)\n");
	strbuf_release(&sb);
}

void letter_figure(struct strbuf *out, const char *caption, const char *text)
{
	email_add_wrapped(out, "", "  ", caption);
	plot_txt_tidy_text(out, text);
}
