// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NUMA nodes from sysfs (node list, cpulist, per-node meminfo) and the
 * binding applied to workload processes. Discovery reads files below a
 * `root` so unit tests can point it at a fake tree; binding uses raw system
 * calls (no libnuma) so it is safe between fork and exec.
 */
#include "core/numa.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NODE_DIR "/sys/devices/system/node"
#define LB_MPOL_BIND 2

/* Parse a kernel list ("0-3,8", "" or "\n" = empty) into a bitmap callback. */
static int parse_list(const char *s, void (*set)(void *ctx, unsigned v), void *ctx)
{
	while (*s && *s != '\n') {
		char *end;
		unsigned long a, b;

		if (!isdigit((unsigned char)*s))
			return -1;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b > 1UL << 20)
			return -1;
		for (unsigned long v = a; v <= b; v++)
			set(ctx, (unsigned)v);
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -1;
		s = end;
	}
	return 0;
}

static void set_cpu(void *ctx, unsigned v)
{
	if (v < CPU_SETSIZE)
		CPU_SET(v, (cpu_set_t *)ctx);
}

int numa_parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	return parse_list(s, set_cpu, set);
}

struct node_list {
	int *nodes, max, n;
};

static void add_node(void *ctx, unsigned v)
{
	struct node_list *l = ctx;

	if (l->n < l->max && v < LB_MAX_NODES)
		l->nodes[l->n++] = (int)v;
}

static char *read_rel(const char *root, const char *rel)
{
	char *path = xasprintf("%s%s", root, rel);
	char *s = read_file_str(path, NULL);

	free(path);
	return s;
}

static bool node_dir_exists(const char *root, int node)
{
	char *path = xasprintf("%s" NODE_DIR "/node%d", root, node);
	bool ok = is_dir(path);

	free(path);
	return ok;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int numa_nodes(const char *root, int *nodes, int max)
{
	struct node_list l = { nodes, max, 0 };
	char *s = read_rel(root, NODE_DIR "/has_memory");
	int n = 0;

	if (s && !parse_list(s, add_node, &l)) {
		/* keep only nodes whose folder is there */
		for (int i = 0; i < l.n; i++)
			if (node_dir_exists(root, nodes[i]))
				nodes[n++] = nodes[i];
	} else {
		char *dir = xasprintf("%s" NODE_DIR, root);
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char *end;
			long v;

			if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
				continue;
			v = strtol(de->d_name + 4, &end, 10);
			if (*end || v >= LB_MAX_NODES || n >= max)
				continue;
			nodes[n++] = (int)v;
		}
		if (d)
			closedir(d);
		free(dir);
		qsort(nodes, (size_t)n, sizeof(*nodes), cmp_int);
	}
	free(s);
	if (!n && max > 0) {
		/* a kernel without NUMA sysfs: one node, 0 */
		nodes[0] = 0;
		n = 1;
	}
	return n;
}

/* "Node 0 MemFree:   5194232 kB" or "MemFree:  ... kB" -> bytes; 0 if absent (numa.h). */
uint64_t meminfo_value(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; ) {
		const char *line = p, *nl = strchr(p, '\n');

		if (!strncmp(line, "Node ", 5)) {
			line += 5;
			while (isdigit((unsigned char)*line))
				line++;
			while (*line == ' ')
				line++;
		}
		if (!strncmp(line, key, kl) && line[kl] == ':')
			return strtoull(line + kl + 1, NULL, 10) * 1024;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static void node_mem(const char *root, int node, uint64_t *total, uint64_t *free_b)
{
	char *rel = xasprintf(NODE_DIR "/node%d/meminfo", node);
	char *s = read_rel(root, rel);

	*total = s ? meminfo_value(s, "MemTotal") : 0;
	*free_b = s ? meminfo_value(s, "MemFree") : 0;
	free(s);
	free(rel);
}

static void all_cpus(const char *root, cpu_set_t *set)
{
	char *s = read_rel(root, "/sys/devices/system/cpu/online");

	CPU_ZERO(set);
	if (!s || parse_list(s, set_cpu, set) || !CPU_COUNT(set)) {
		CPU_ZERO(set);
		if (sched_getaffinity(0, sizeof(*set), set))
			CPU_SET(0, set);
	}
	free(s);
}

static void present_list(struct strbuf *sb, const int *nodes, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%s%d", i ? "," : "", nodes[i]);
}

enum wl_status numa_resolve(const char *root, const char *spec, struct numa_bind *out, struct strbuf *err)
{
	int nodes[LB_MAX_NODES], n = numa_nodes(root, nodes, LB_MAX_NODES);
	int node = -1;
	bool sysfs_nodes = node_dir_exists(root, nodes[0]);

	memset(out, 0, sizeof(*out));
	out->node = -1;
	if (!spec || !*spec) {
		strbuf_addstr(err, "numa_node is empty: expected a node number, auto, last or none");
		return WL_BAD_CONFIG;
	}
	if (!strcmp(spec, "none")) {
		char *s = read_rel(root, "/proc/meminfo");

		all_cpus(root, &out->cpus);
		out->nr_cpus = CPU_COUNT(&out->cpus);
		out->mem_bytes = s ? meminfo_value(s, "MemTotal") : 0;
		out->free_bytes = s ? meminfo_value(s, "MemFree") : 0;
		free(s);
		return WL_OK;
	}
	if (!strcmp(spec, "last")) {
		/* the highest-numbered node with memory: "node 1" of a two-node
		 * machine, and node 0 of a single-node one */
		node = nodes[n - 1];
	} else if (!strcmp(spec, "auto")) {
		uint64_t best = 0;

		node = nodes[0];
		for (int i = 0; i < n; i++) {
			uint64_t t, f;

			node_mem(root, nodes[i], &t, &f);
			if (f > best) {
				best = f;
				node = nodes[i];
			}
		}
	} else {
		unsigned long long v;
		bool found = false;

		if (parse_ull(spec, &v)) {
			strbuf_addf(err, "numa_node=%s: expected a node number, auto, last or none", spec);
			return WL_BAD_CONFIG;
		}
		for (int i = 0; i < n; i++)
			if ((unsigned long long)nodes[i] == v)
				found = true;
		if (!found) {
			strbuf_addf(err, "numa_node=%s: no such node; nodes present: ", spec);
			present_list(err, nodes, n);
			return WL_UNSUPPORTED;
		}
		node = (int)v;
	}

	out->node = node;
	CPU_ZERO(&out->cpus);
	if (sysfs_nodes) {
		char *rel = xasprintf(NODE_DIR "/node%d/cpulist", node);
		char *s = read_rel(root, rel);

		if (!s || parse_list(s, set_cpu, &out->cpus)) {
			strbuf_addf(err, "cannot read the CPUs of node %d from %s%s", node, root, rel);
			free(s);
			free(rel);
			return WL_UNSUPPORTED;
		}
		free(s);
		free(rel);
		node_mem(root, node, &out->mem_bytes, &out->free_bytes);
	} else {
		char *s = read_rel(root, "/proc/meminfo");

		all_cpus(root, &out->cpus);
		out->mem_bytes = s ? meminfo_value(s, "MemTotal") : 0;
		out->free_bytes = s ? meminfo_value(s, "MemFree") : 0;
		free(s);
	}
	out->nr_cpus = CPU_COUNT(&out->cpus);
	if (!out->nr_cpus) {
		strbuf_addf(err, "numa_node=%s: node %d has no CPUs", spec, node);
		return WL_UNSUPPORTED;
	}
	return WL_OK;
}

int numa_apply_self(const struct numa_bind *b)
{
	unsigned long mask[(LB_MAX_NODES + 8 * sizeof(unsigned long) - 1) / (8 * sizeof(unsigned long))];

	if (!b || b->node < 0)
		return 0;
	if (sched_setaffinity(0, sizeof(b->cpus), &b->cpus))
		return -errno;
	memset(mask, 0, sizeof(mask));
	mask[b->node / (8 * sizeof(unsigned long))] |= 1UL << (b->node % (8 * sizeof(unsigned long)));
	/* maxnode counts bits plus one (the kernel decrements it) */
	if (syscall(SYS_set_mempolicy, LB_MPOL_BIND, mask, (unsigned long)LB_MAX_NODES + 1)) {
		/* a kernel without CONFIG_NUMA has one node: nothing to bind */
		if (errno == ENOSYS && b->node == 0)
			return 0;
		return -errno;
	}
	return 0;
}

int numa_node_of_addr(void *addr)
{
	long page = sysconf(_SC_PAGESIZE);
	void *pages[1] = { (void *)((unsigned long)addr & ~((unsigned long)page - 1)) };
	int status[1] = { -1 };

	if (syscall(SYS_move_pages, 0, 1UL, pages, NULL, status, 0))
		return -1;
	return status[0] >= 0 ? status[0] : -1;
}
