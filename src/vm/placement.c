// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guest placement on the host (placement.h). Resolving reads sysfs below a
 * root so unit tests can give a fake machine; pinning and reading back work
 * on the real qemu process. Pinning needs no KVM: under TCG each vCPU is a
 * thread of its own too (multi-threaded TCG), and when a qemu runs them all
 * in one thread that thread gets the CPUs of all of them.
 */
#include "vm/placement.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "core/numa.h"

void vm_node_cpus(unsigned cpus, unsigned nnodes, unsigned g, unsigned *first, unsigned *last)
{
	if (!nnodes)
		nnodes = 1;
	*first = g * cpus / nnodes;
	*last = (g + 1) * cpus / nnodes - 1;
}

static char *read_rel(const char *root, const char *rel)
{
	char *path = xasprintf("%s%s", root, rel);
	char *s = read_file_str(path, NULL);

	free(path);
	return s;
}

/* CPUs lrubench may use here: online, and in its own affinity (a cpuset of a
 * container may allow fewer than are online). */
static void usable_cpus(const char *root, cpu_set_t *set)
{
	char *s = read_rel(root, "/sys/devices/system/cpu/online");
	cpu_set_t mine;

	if (!s || numa_parse_cpulist(s, set) || !CPU_COUNT(set)) {
		CPU_ZERO(set);
		CPU_SET(0, set);
	}
	free(s);
	if (!*root && !sched_getaffinity(0, sizeof(mine), &mine))
		CPU_AND(set, set, &mine);
}

static void cpuset_text(const cpu_set_t *set, struct strbuf *out)
{
	int first = -1;
	bool any = false;

	for (int c = 0; c <= CPU_SETSIZE; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, set);

		if (in && first < 0)
			first = c;
		if (!in && first >= 0) {
			strbuf_addf(out, "%s%d", any ? "," : "", first);
			if (c - 1 > first)
				strbuf_addf(out, "-%d", c - 1);
			any = true;
			first = -1;
		}
	}
	if (!any)
		strbuf_addstr(out, "none");
}

static void node_list_text(const int *nodes, int n, struct strbuf *out)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(out, "%s%d", i ? "," : "", nodes[i]);
}

static uint64_t meminfo_count(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Enough free 2M huge pages for the whole guest? (memfd hugetlb=on takes
 * them from the host's pool, which the user reserves.) */
static int check_hugepages(const char *root, const struct vm_placement *p, struct strbuf *err)
{
	char *mi = read_rel(root, "/proc/meminfo");
	uint64_t free_pages = meminfo_count(mi, "HugePages_Free:");
	uint64_t kb = meminfo_count(mi, "Hugepagesize:");
	uint64_t want;

	free(mi);
	if (!kb)
		kb = 2048;
	want = (p->mem_bytes + kb * 1024 - 1) / (kb * 1024);
	if (free_pages < want) {
		strbuf_addf(err, "vm.memory_backend=hugetlb needs %llu free %lluK huge pages for the "
			    "guest's RAM; this host has %llu (reserve them: echo %llu > "
			    "/proc/sys/vm/nr_hugepages)", (unsigned long long)want,
			    (unsigned long long)kb, (unsigned long long)free_pages,
			    (unsigned long long)want);
		return LB_EXIT_UNSUPPORTED;
	}
	return 0;
}

/* The host node holding cpu, or -1. */
static int node_of_cpu(const char *root, const int *nodes, int n, unsigned cpu)
{
	for (int i = 0; i < n; i++) {
		struct numa_bind b;
		struct strbuf e = STRBUF_INIT;
		char spec[16];
		bool has;

		snprintf(spec, sizeof(spec), "%d", nodes[i]);
		has = !numa_resolve(root, spec, &b, &e) && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &b.cpus);
		strbuf_release(&e);
		if (has)
			return nodes[i];
	}
	return -1;
}

int vm_placement_resolve(const struct vm_args *a, const char *root, struct vm_placement *p,
			 struct strbuf *err)
{
	int nodes[LB_MAX_NODES], n = numa_nodes(root, nodes, LB_MAX_NODES), start = -1, idx = 0;
	cpu_set_t usable, used;

	memset(p, 0, sizeof(*p));
	p->cpus_from = a->cpus_from;
	p->backend = a->backend;
	p->mem_bytes = a->memory;
	p->nnodes = a->numa_nodes ? a->numa_nodes : 1;
	p->ncpus = a->cpus;
	p->bound = a->cpus_from != VM_CPUS_FLOAT || a->host_node >= 0;
	p->pinned = a->cpus_from != VM_CPUS_FLOAT;
	for (unsigned g = 0; g < VM_MAX_NODES; g++)
		p->host_node[g] = -1;
	for (unsigned i = 0; i < VM_MAX_CPUS; i++)
		p->vcpu_cpu[i] = -1;
	if (p->nnodes > VM_MAX_NODES || p->ncpus > VM_MAX_CPUS) {
		strbuf_addf(err, "at most %d guest nodes and %d vCPUs", VM_MAX_NODES, VM_MAX_CPUS);
		return LB_EXIT_USAGE;
	}
	if (a->backend == VM_BACKEND_HUGETLB) {
		int r = check_hugepages(root, p, err);

		if (r)
			return r;
	}
	if (!p->bound)
		return 0;

	usable_cpus(root, &usable);
	if (a->cpus_from == VM_CPUS_LIST) {
		for (unsigned i = 0; i < p->ncpus; i++) {
			if (a->cpu_list[i] >= CPU_SETSIZE || !CPU_ISSET(a->cpu_list[i], &usable)) {
				strbuf_addf(err, "vm.cpus_from: host CPU %u is not online or not allowed "
					    "to lrubench here (usable: ", a->cpu_list[i]);
				cpuset_text(&usable, err);
				strbuf_addstr(err, ")");
				return LB_EXIT_UNSUPPORTED;
			}
			p->vcpu_cpu[i] = (int)a->cpu_list[i];
		}
	}

	/* the host node of guest node 0 */
	if (a->host_node >= 0) {
		for (int i = 0; i < n; i++)
			if (nodes[i] == a->host_node)
				start = a->host_node;
		if (start < 0) {
			strbuf_addf(err, "vm.host_node=%d: no such node with memory on this host; nodes "
				    "present: ", a->host_node);
			node_list_text(nodes, n, err);
			return LB_EXIT_UNSUPPORTED;
		}
	} else if (a->cpus_from == VM_CPUS_LIST) {
		start = node_of_cpu(root, nodes, n, a->cpu_list[0]);
		if (start < 0)
			start = nodes[0];
	} else {
		struct numa_bind b;
		struct strbuf e = STRBUF_INIT;

		start = numa_resolve(root, "auto", &b, &e) ? nodes[0] : b.node;
		strbuf_release(&e);
	}
	for (int i = 0; i < n; i++)
		if (nodes[i] == start)
			idx = i;
	/* guest node g on the g-th host node from there, one to one while the
	 * host has nodes, then around again */
	for (unsigned g = 0; g < p->nnodes; g++)
		p->host_node[g] = nodes[(idx + (int)g) % n];
	if (p->nnodes > 1 && (unsigned)n < p->nnodes) {
		if (n == 1)
			snprintf(p->note, sizeof(p->note), "the host has 1 NUMA node: guest nodes 0-%u "
				 "are all on host node %d", p->nnodes - 1, start);
		else
			snprintf(p->note, sizeof(p->note), "the host has %d NUMA nodes: guest nodes %d-%u "
				 "share them with guest nodes 0-%d", n, n, p->nnodes - 1, n - 1);
	}
	if (a->cpus_from != VM_CPUS_NODE)
		return 0;

	/* vCPUs of guest node g on the CPUs of its host node, in order, each
	 * CPU used once even when guest nodes share a host node */
	CPU_ZERO(&used);
	for (unsigned g = 0; g < p->nnodes; g++) {
		struct numa_bind b;
		struct strbuf e = STRBUF_INIT;
		char spec[16];
		unsigned first, last;
		int c = 0;

		snprintf(spec, sizeof(spec), "%d", p->host_node[g]);
		if (numa_resolve(root, spec, &b, &e)) {
			strbuf_addf(err, "vm.cpus_from=node: %s", e.buf);
			strbuf_release(&e);
			return LB_EXIT_UNSUPPORTED;
		}
		strbuf_release(&e);
		CPU_AND(&b.cpus, &b.cpus, &usable);
		vm_node_cpus(p->ncpus, p->nnodes, g, &first, &last);
		for (unsigned v = first; v <= last; v++) {
			while (c < CPU_SETSIZE && (!CPU_ISSET(c, &b.cpus) || CPU_ISSET(c, &used)))
				c++;
			if (c >= CPU_SETSIZE) {
				strbuf_addf(err, "vm.cpus_from=node: host node %d has too few usable CPUs (",
					    p->host_node[g]);
				cpuset_text(&b.cpus, err);
				strbuf_addf(err, ") for %u vCPUs, one each: lower vm.cpus or list host CPUs "
					    "in vm.cpus_from", p->ncpus);
				return LB_EXIT_USAGE;
			}
			CPU_SET(c, &used);
			p->vcpu_cpu[v] = c;
		}
	}
	return 0;
}

int vm_placement_pin(const struct vm_placement *p, json_object *cpus, struct strbuf *err)
{
	size_t n = cpus && json_object_is_type(cpus, json_type_array) ? json_object_array_length(cpus) : 0;

	if (!p->pinned)
		return 0;
	if (n != p->ncpus) {
		strbuf_addf(err, "qemu reports %zu vCPUs, %u were asked for", n, p->ncpus);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cpus, i), *v;
		int tid, idx;
		cpu_set_t set;

		if (!json_object_object_get_ex(c, "cpu-index", &v) || (idx = json_object_get_int(v)) < 0 ||
		    (unsigned)idx >= p->ncpus || !json_object_object_get_ex(c, "thread-id", &v) ||
		    (tid = json_object_get_int(v)) <= 0) {
			strbuf_addf(err, "qemu's vCPU list has no cpu-index/thread-id: %s",
				    json_object_to_json_string(c));
			return -1;
		}
		/* every vCPU that shares this thread (single-threaded TCG) */
		CPU_ZERO(&set);
		for (size_t j = 0; j < n; j++) {
			json_object *cj = json_object_array_get_idx(cpus, j), *t, *x;

			if (json_object_object_get_ex(cj, "thread-id", &t) && json_object_get_int(t) == tid &&
			    json_object_object_get_ex(cj, "cpu-index", &x) && json_object_get_int(x) >= 0 &&
			    (unsigned)json_object_get_int(x) < p->ncpus &&
			    p->vcpu_cpu[json_object_get_int(x)] >= 0)
				CPU_SET(p->vcpu_cpu[json_object_get_int(x)], &set);
		}
		if (sched_setaffinity(tid, sizeof(set), &set)) {
			strbuf_addf(err, "cannot pin vCPU %d (qemu thread %d) to host CPU %d: %s", idx, tid,
				    p->vcpu_cpu[idx], strerror(errno));
			return -1;
		}
	}
	return 0;
}

void vm_status_cpus_allowed(const char *status, char *out, size_t len)
{
	const char *p = status ? strstr(status, "Cpus_allowed_list:") : NULL;
	size_t l;

	if (!len)
		return;
	*out = '\0';
	if (!p)
		return;
	p += strlen("Cpus_allowed_list:");
	while (*p == ' ' || *p == '\t')
		p++;
	l = strcspn(p, "\n");
	if (l >= len)
		l = len - 1;
	memcpy(out, p, l);
	out[l] = '\0';
}

/* "7f0b3c6d1000-7f0b4c6d1000 rw-p ..." -> start, size */
static bool maps_range(const char *line, unsigned long long *start, unsigned long long *size)
{
	char *end;
	unsigned long long a = strtoull(line, &end, 16), b;

	if (*end != '-')
		return false;
	b = strtoull(end + 1, &end, 16);
	if (*end != ' ' || b <= a)
		return false;
	*start = a;
	*size = b - a;
	return true;
}

static void numa_maps_entry(const char *line, json_object *out)
{
	char policy[64] = "";
	json_object *pages = json_object_new_object();
	const char *p = strchr(line, ' ');
	long page_kb = 4;

	if (p) {
		size_t l = strcspn(p + 1, " \n");

		snprintf(policy, sizeof(policy), "%.*s", (int)(l < 63 ? l : 63), p + 1);
	}
	for (p = line; p && *p && *p != '\n'; ) {
		const char *w = p;
		size_t l = strcspn(w, " \n");

		if (w[0] == 'N' && isdigit((unsigned char)w[1])) {
			char *eq;
			long node = strtol(w + 1, &eq, 10);

			if (*eq == '=') {
				char key[16];

				snprintf(key, sizeof(key), "%ld", node);
				json_object_object_add(pages, key, json_object_new_int64(strtoll(eq + 1, NULL, 10)));
			}
		} else if (!strncmp(w, "kernelpagesize_kB=", 18)) {
			page_kb = strtol(w + 18, NULL, 10);
		}
		p = w + l;
		while (*p == ' ')
			p++;
	}
	json_object_object_add(out, "policy", json_object_new_string(policy));
	json_object_object_add(out, "page_kb", json_object_new_int64(page_kb));
	json_object_object_add(out, "pages", pages);
}

json_object *vm_numa_maps_parse(const char *maps, const char *numa_maps, uint64_t size)
{
	json_object *arr = json_object_new_array();

	for (const char *l = maps; l && *l; ) {
		const char *nl = strchr(l, '\n');
		unsigned long long start, sz;

		if (maps_range(l, &start, &sz) && sz == size) {
			char key[32];
			const char *m;
			size_t kl;

			kl = (size_t)snprintf(key, sizeof(key), "%llx ", start);
			for (m = numa_maps; m && *m; ) {
				const char *mnl = strchr(m, '\n');

				if (!strncmp(m, key, kl)) {
					json_object *e = json_object_new_object();

					numa_maps_entry(m, e);
					json_object_array_add(arr, e);
					break;
				}
				m = mnl ? mnl + 1 : NULL;
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	return arr;
}

json_object *vm_placement_read_memory(const struct vm_placement *p, pid_t pid)
{
	char *mp = xasprintf("/proc/%d/maps", (int)pid), *np = xasprintf("/proc/%d/numa_maps", (int)pid);
	char *maps = read_file_str(mp, NULL), *numa_maps = read_file_str(np, NULL);
	json_object *r = vm_numa_maps_parse(maps, numa_maps, p->mem_bytes / (p->nnodes ? p->nnodes : 1));

	free(mp);
	free(np);
	free(maps);
	free(numa_maps);
	return r;
}

json_object *vm_placement_readback(const struct vm_placement *p, pid_t pid, json_object *cpus)
{
	json_object *o = json_object_new_object(), *vcpus = json_object_new_array();
	size_t n = cpus && json_object_is_type(cpus, json_type_array) ? json_object_array_length(cpus) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cpus, i), *v, *e;
		char path[64], allowed[256];
		char *status;
		int tid = 0, idx = -1;

		if (json_object_object_get_ex(c, "cpu-index", &v))
			idx = json_object_get_int(v);
		if (json_object_object_get_ex(c, "thread-id", &v))
			tid = json_object_get_int(v);
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, tid);
		status = read_file_str(path, NULL);
		vm_status_cpus_allowed(status, allowed, sizeof(allowed));
		free(status);
		e = json_object_new_object();
		json_object_object_add(e, "vcpu", json_object_new_int(idx));
		json_object_object_add(e, "thread", json_object_new_int(tid));
		json_object_object_add(e, "cpus_allowed", json_object_new_string(*allowed ? allowed : "?"));
		json_object_array_add(vcpus, e);
	}
	json_object_object_add(o, "vcpus", vcpus);
	json_object_object_add(o, "memory", vm_placement_read_memory(p, pid));
	return o;
}

void vm_placement_summary(json_object *rb, struct strbuf *out)
{
	json_object *vcpus = NULL, *mem = NULL;
	size_t n;

	json_object_object_get_ex(rb, "vcpus", &vcpus);
	json_object_object_get_ex(rb, "memory", &mem);
	n = vcpus && json_object_is_type(vcpus, json_type_array) ? json_object_array_length(vcpus) : 0;
	strbuf_addstr(out, "vCPU->host CPUs");
	if (!n)
		strbuf_addstr(out, " unknown");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(vcpus, i), *v, *a;

		json_object_object_get_ex(e, "vcpu", &v);
		json_object_object_get_ex(e, "cpus_allowed", &a);
		strbuf_addf(out, "%s%d:%s", i ? " " : " ", v ? json_object_get_int(v) : -1,
			    a ? json_object_get_string(a) : "?");
	}
	n = mem && json_object_is_type(mem, json_type_array) ? json_object_array_length(mem) : 0;
	strbuf_addstr(out, "; memory");
	if (!n)
		strbuf_addstr(out, " unknown");
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(mem, i), *pol, *pages;
		bool any = false;

		json_object_object_get_ex(e, "policy", &pol);
		json_object_object_get_ex(e, "pages", &pages);
		strbuf_addf(out, "%s %s on node", i ? "," : "", pol ? json_object_get_string(pol) : "?");
		if (pages && json_object_is_type(pages, json_type_object)) {
			json_object_object_foreach(pages, node, count) {
				if (json_object_get_int64(count) > 0) {
					strbuf_addf(out, "%s%s", any ? "," : " ", node);
					any = true;
				}
			}
		}
		if (!any)
			strbuf_addstr(out, " (none touched yet)");
	}
}

void vm_placement_describe(const struct vm_placement *p, struct strbuf *out)
{
	static const char *const backends[] = { "memory-backend-ram", "memory-backend-memfd",
						"memory-backend-memfd on huge pages" };

	if (!p->bound && !p->pinned) {
		strbuf_addf(out, "vCPUs float over the host's CPUs; memory from any host node (%s)",
			    backends[p->backend]);
		return;
	}
	if (p->pinned) {
		strbuf_addstr(out, "vCPUs pinned to host CPUs");
		for (unsigned i = 0; i < p->ncpus; i++)
			strbuf_addf(out, "%s%d", i ? "," : " ", p->vcpu_cpu[i]);
	} else {
		strbuf_addstr(out, "vCPUs float");
	}
	for (unsigned g = 0; g < p->nnodes; g++)
		strbuf_addf(out, "%s guest node %u on host node %d", g ? "," : ";", g, p->host_node[g]);
	strbuf_addf(out, " (%s, policy=bind)", backends[p->backend]);
	if (*p->note)
		strbuf_addf(out, "; %s", p->note);
}
