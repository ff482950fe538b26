// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The facts that produced a number (run.json "system"): kernel, command
 * line, CPU, memory, NUMA, THP modes, cgroup mode, and whether this ran in a
 * VM (VM mode boots guests with "lrubench.virt=kvm|tcg" on their command line).
 */
#include "core/sysinfo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core/cgroup_setup.h"
#include "core/host_state.h"
#include "core/numa.h"
#include "core/util.h"

#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

void sysfs_selected(const char *text, char *out, size_t len)
{
	const char *open = text ? strchr(text, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;
	size_t n;

	if (!len)
		return;
	out[0] = '\0';
	if (!open || !close)
		return;
	n = (size_t)(close - open - 1);
	if (n >= len)
		n = len - 1;
	memcpy(out, open + 1, n);
	out[n] = '\0';
}

/* Truncating copy (the fixed-size fields of struct sys_facts). */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static void read_selected(const char *path, char *out, size_t len)
{
	char *s = read_file_str(path, NULL);

	sysfs_selected(s, out, len);
	free(s);
}

/* The value after "key<spaces/tabs>:" in a /proc file, trimmed, or NULL. */
static char *proc_field(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, key, kl) && (p[kl] == ':' || p[kl] == ' ' || p[kl] == '\t')) {
			const char *v = memchr(p, ':', ll);
			if (v) {
				char *r;
				v++;
				while (*v == ' ' || *v == '\t')
					v++;
				r = xstrndup(v, ll - (size_t)(v - p));
				trim(r);
				return r;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* "lrubench.virt=kvm" on the command line, else "host". */
static void virt_from_cmdline(const char *cmdline, char *out, size_t len)
{
	static const char key[] = "lrubench.virt=";

	copy_str(out, len, "host");
	for (const char *p = cmdline; p && *p; ) {
		size_t tl;

		while (*p == ' ')
			p++;
		tl = strcspn(p, " \n");
		if (tl > sizeof(key) - 1 && !strncmp(p, key, sizeof(key) - 1)) {
			size_t vl = tl - (sizeof(key) - 1);
			if (vl >= len)
				vl = len - 1;
			memcpy(out, p + sizeof(key) - 1, vl);
			out[vl] = '\0';
		}
		p += tl;
		if (*p)
			p++;
	}
}

int sysinfo_collect(struct sys_facts *si)
{
	struct utsname u;
	struct cg_env env;
	struct strbuf err = STRBUF_INIT;
	int nodes[LB_MAX_NODES];
	char *s, *v;
	long n;

	memset(si, 0, sizeof(*si));
	if (!uname(&u)) {
		copy_str(si->kernel_release, sizeof(si->kernel_release), u.release);
		copy_str(si->kernel_version, sizeof(si->kernel_version), u.version);
		copy_str(si->machine, sizeof(si->machine), u.machine);
		copy_str(si->hostname, sizeof(si->hostname), u.nodename);
	}
	si->cmdline = read_file_str("/proc/cmdline", NULL);
	if (!si->cmdline)
		si->cmdline = xstrdup("");
	trim(si->cmdline);
	virt_from_cmdline(si->cmdline, si->virt, sizeof(si->virt));

	s = read_file_str("/proc/cpuinfo", NULL);
	v = s ? proc_field(s, "model name") : NULL;
	if (!v && s)
		v = proc_field(s, "Model");        /* arm boards */
	if (!v && s)
		v = proc_field(s, "cpu model");    /* mips */
	copy_str(si->cpu_model, sizeof(si->cpu_model), v ? v : si->machine);
	free(v);
	free(s);

	n = sysconf(_SC_NPROCESSORS_ONLN);
	si->nr_cpus = n > 0 ? (int)n : 1;
	s = read_file_str("/proc/meminfo", NULL);
	v = s ? proc_field(s, "MemTotal") : NULL;
	si->mem_total_kb = v ? strtoull(v, NULL, 10) : 0;
	free(v);
	free(s);

	si->numa_nodes = numa_nodes("", nodes, LB_MAX_NODES);
	read_selected(THP_DIR "/enabled", si->thp_enabled, sizeof(si->thp_enabled));
	read_selected(THP_DIR "/defrag", si->thp_defrag, sizeof(si->thp_defrag));

	cg_discover(&env, "/proc/mounts", "", &err);
	copy_str(si->cgroup_mode, sizeof(si->cgroup_mode), cg_mode_name(env.mode));
	cg_env_release(&env);
	strbuf_release(&err);
	return 0;
}

void sysinfo_collect_identity(struct sys_facts *si, double busy_secs)
{
	if (si->identity)
		return;
	kernel_id_collect(&si->kernel);
	si->host = host_state_collect("", busy_secs);
	si->identity = true;
}

void sysinfo_release(struct sys_facts *si)
{
	free(si->cmdline);
	si->cmdline = NULL;
	if (si->identity) {
		kernel_id_release(&si->kernel);
		json_object_put(si->host);
		si->host = NULL;
		si->identity = false;
	}
}

json_object *sysinfo_to_json(const struct sys_facts *si)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "kernel_release", json_object_new_string(si->kernel_release));
	json_object_object_add(o, "kernel_version", json_object_new_string(si->kernel_version));
	json_object_object_add(o, "machine", json_object_new_string(si->machine));
	json_object_object_add(o, "hostname", json_object_new_string(si->hostname));
	json_object_object_add(o, "cmdline", json_object_new_string(si->cmdline ? si->cmdline : ""));
	json_object_object_add(o, "nr_cpus", json_object_new_int(si->nr_cpus));
	json_object_object_add(o, "mem_total_kb", json_object_new_int64((int64_t)si->mem_total_kb));
	json_object_object_add(o, "numa_nodes", json_object_new_int(si->numa_nodes));
	json_object_object_add(o, "thp_enabled", json_object_new_string(si->thp_enabled));
	json_object_object_add(o, "thp_defrag", json_object_new_string(si->thp_defrag));
	json_object_object_add(o, "cgroup_mode", json_object_new_string(si->cgroup_mode));
	json_object_object_add(o, "cpu_model", json_object_new_string(si->cpu_model));
	json_object_object_add(o, "virt", json_object_new_string(si->virt));
	if (si->identity) {
		json_object_object_add(o, "kernel", kernel_id_to_json(&si->kernel));
		json_object_object_add(o, "host", json_object_get(si->host));
	}
	return o;
}
