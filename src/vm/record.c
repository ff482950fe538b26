// SPDX-License-Identifier: GPL-2.0-or-later
/* What a VM round leaves in its label's run.json (see record.h). */
#include "vm/record.h"

#include <stdlib.h>
#include <string.h>
#include "core/config.h"
#include "core/knobs.h"
#include "core/results.h"
#include "vm/args.h"
#include "vm/identity.h"
#include "vm/merge.h"
#include "vm/placement.h"

static json_object *object_member(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object)) {
		v = json_object_new_object();
		json_object_object_add(o, key, v);
	}
	return v;
}

static json_object *array_member(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array)) {
		v = json_object_new_array();
		json_object_object_add(o, key, v);
	}
	return v;
}

/* vm.placement: the plan, and what was really applied in each round */
static void record_placement(json_object *vm, const struct vm_round_record *n)
{
	const struct vm_placement *p = n->place;
	json_object *pl = object_member(vm, "placement"), *hn = json_object_new_array();
	struct strbuf sb = STRBUF_INIT;

	json_object_object_add(pl, "cpus_from", json_object_new_string(
		p->cpus_from == VM_CPUS_FLOAT ? "none" : p->cpus_from == VM_CPUS_NODE ? "node" : "list"));
	json_object_object_add(pl, "memory_backend",
			       json_object_new_string(vm_memory_backends[p->backend]));
	for (unsigned g = 0; g < p->nnodes; g++)
		json_object_array_add(hn, p->host_node[g] >= 0 ? json_object_new_int(p->host_node[g]) : NULL);
	json_object_object_add(pl, "host_nodes", hn);
	if (*p->note)
		json_object_object_add(pl, "note", json_object_new_string(p->note));
	vm_placement_describe(p, &sb);
	json_object_object_add(pl, "plan", json_object_new_string(sb.buf));
	if (n->placement) {
		strbuf_reset(&sb);
		vm_placement_summary(n->placement, &sb);
		json_object_object_add(pl, "applied", json_object_get(n->placement));
		/* compare's "what differs" shows this line: the first round's */
		if (!json_object_object_get_ex(pl, "summary", NULL))
			json_object_object_add(pl, "summary", json_object_new_string(sb.buf));
		json_object_array_add(array_member(pl, "round_summaries"), json_object_new_string(sb.buf));
	}
	strbuf_release(&sb);
}

/* vm.failures[]: a crash or hang is a result, with its console's last lines */
static void record_failure(json_object *vm, const struct vm_round_record *n)
{
	json_object *f = json_object_new_object(), *tail = json_object_new_array();
	struct strbuf sb = STRBUF_INIT;
	char *p, *line;

	json_object_object_add(f, "round", json_object_new_int(n->round));
	json_object_object_add(f, "what", json_object_new_string(n->what));
	json_object_object_add(f, "first_line", n->first_line ?
			       json_object_new_string(n->first_line) : NULL);
	json_object_object_add(f, "reason", json_object_new_string(n->why ? n->why : ""));
	if (n->console_rel) {
		json_object_object_add(f, "console_log", json_object_new_string(n->console_rel));
		file_tail(n->console_abs, LOG_TAIL_LINES, &sb);
		for (p = sb.buf; p && (line = strsep(&p, "\n")); )
			if (*line)
				json_object_array_add(tail, json_object_new_string(line));
	}
	json_object_object_add(f, "console_tail", tail);
	json_object_array_add(array_member(vm, "failures"), f);
	strbuf_release(&sb);
}

/* Is every word of want on the command line the guest booted with? */
static bool options_seen(const char *want, const char *cmdline)
{
	for (const char *p = want; *p;) {
		size_t n;
		bool found = false;

		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (!n)
			break;
		for (const char *q = cmdline; *q && !found;) {
			size_t m;

			while (*q == ' ')
				q++;
			m = strcspn(q, " ");
			found = m == n && !strncmp(p, q, n);
			q += m;
		}
		if (!found)
			return false;
		p += n;
	}
	return true;
}

/* vm.boot_options, and whether /proc/cmdline in the guest had them */
static void record_boot_options(json_object *run, json_object *vm, const struct vm_round_record *n)
{
	json_object *sys, *cl;

	json_object_object_add(vm, "boot_options", json_object_new_string(n->boot_options ? n->boot_options : ""));
	if (json_object_object_get_ex(run, "system", &sys) && json_object_object_get_ex(sys, "cmdline", &cl) &&
	    json_object_is_type(cl, json_type_string))
		json_object_object_add(vm, "boot_options_seen", json_object_new_boolean(
			options_seen(n->boot_options ? n->boot_options : "", json_object_get_string(cl))));
}

/* vm.settings: the knobs asked of its guest, and what the guest's run held */
static void record_settings(json_object *run, json_object *vm, const struct vm_round_record *n)
{
	json_object *o, *guest = NULL;

	if (!n->settings || !n->settings->n)
		return;
	o = knob_set_json(n->settings);
	json_object_object_get_ex(run, "settings", &guest);
	for (size_t i = 0; i < n->settings->n; i++) {
		const struct knob *k = &n->settings->v[i];
		const char *during = NULL;
		json_object *e = NULL;

		if (guest && json_object_is_type(guest, json_type_object)) {
			json_object_object_foreach(guest, name, g) {
				json_object *p, *d;

				(void)name;
				if (json_object_object_get_ex(g, "path", &p) && json_object_is_type(p, json_type_string) &&
				    !strcmp(json_object_get_string(p), k->path) &&
				    json_object_object_get_ex(g, "during", &d) && json_object_is_type(d, json_type_string))
					during = json_object_get_string(d);
			}
		}
		json_object_object_get_ex(o, k->name, &e);
		json_object_object_add(e, "during", during ? json_object_new_string(during) : NULL);
		json_object_object_add(e, "applied", json_object_new_boolean(during && knob_value_matches(k->value, during)));
	}
	json_object_object_add(vm, "settings", o);
}

static void record(json_object *run, void *arg)
{
	const struct vm_round_record *n = arg;
	json_object *vm = object_member(run, "vm");
	char mem[32];

	json_object_object_add(vm, "image", json_object_new_string(n->image));
	json_object_object_add(vm, "kernel", json_object_new_string((char[]){ n->kernel, 0 }));
	if (!n->host) {
		format_size(n->memory, mem, sizeof(mem));
		json_object_object_add(vm, "accel", json_object_new_string(n->kvm ? "kvm" : "tcg"));
		json_object_object_add(vm, "memory", json_object_new_string(mem));
		json_object_object_add(vm, "cpus", json_object_new_int((int)n->cpus));
		json_object_object_add(vm, "numa_nodes", json_object_new_int((int)n->numa_nodes));
		json_object_object_add(vm, "kernel_cmdline", json_object_new_string(n->append ? n->append : ""));
		record_boot_options(run, vm, n);
		json_object_object_add(vm, "balloon", json_object_new_string(n->balloon ? "free-page-reporting" : "none"));
		if (n->qemu_memory) {
			json_object *m = json_object_get(n->qemu_memory);

			json_object_object_add(m, "round", json_object_new_int(n->round));
			json_object_array_add(array_member(vm, "qemu_memory"), m);
		}
		if (n->modules_dir)
			json_object_object_add(vm, "modules_dir", json_object_new_string(n->modules_dir));
		json_object_object_add(vm, "console_log", json_object_new_string("logs/vm-console.log"));
		if (n->place)
			record_placement(vm, n);
		for (size_t i = 0; n->warnings && i < n->warnings->n; i++)
			json_object_array_add(array_member(vm, "console_warnings"),
					      json_object_new_string(n->warnings->v[i]));
	}
	if (n->host_facts && !json_object_object_get_ex(vm, "host", NULL))
		json_object_object_add(vm, "host", json_object_get(n->host_facts));
	record_settings(run, vm, n);
	if (n->host_settings && n->host_settings->n)
		json_object_object_add(vm, "host_settings", knob_set_json(n->host_settings));
	json_object_object_add(vm, "rounds", json_object_new_int(n->round));
	json_object_array_add(array_member(vm, "round_seconds"), json_object_new_double(n->seconds));
	if (n->id)
		vm_identity_annotate(n->id, run);
	if (n->code && n->code != LB_EXIT_INTERRUPTED)
		record_failure(vm, n);
	if (n->status)
		json_object_object_add(run, "status", json_object_new_string(n->status));
	if (n->code && n->why && (n->round == 1 || n->code != LB_EXIT_INTERRUPTED))
		json_object_object_add(run, "error", json_object_new_string(n->why));
}

/* A label the guest never wrote (it crashed first) still gets a run.json, so
 * compare shows the kernel and why it has no numbers. */
static int ensure_run_json(const char *dir, const char *label, struct strbuf *err)
{
	char *path = xasprintf("%s/run.json", dir);
	json_object *o;
	char ts[64];
	int ret = 0;

	if (!path_exists(path)) {
		o = json_object_new_object();
		format_timestamp(now_realtime(), ts, sizeof(ts));
		json_object_object_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
		json_object_object_add(o, "label", json_object_new_string(label));
		json_object_object_add(o, "status", json_object_new_string("failed"));
		json_object_object_add(o, "started", json_object_new_string(ts));
		json_object_object_add(o, "lrubench_version", json_object_new_string(LRUBENCH_VERSION));
		if (mkdir_p(dir, 0755))
			strbuf_addf(err, "cannot make %s", dir);
		if (err->len || json_save_file(path, o, err))
			ret = -1;
		json_object_put(o);
	}
	free(path);
	return ret;
}

int vm_record_round(const char *dir, const struct vm_round_record *r, struct strbuf *err)
{
	char *path;
	int ret = 0;

	if (r->code && r->code != LB_EXIT_INTERRUPTED && ensure_run_json(dir, r->label, err))
		return -1;
	path = xasprintf("%s/run.json", dir);
	if (path_exists(path))
		ret = vm_update_run_json(dir, record, (void *)r, err);
	free(path);
	return ret;
}
