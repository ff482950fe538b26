// SPDX-License-Identifier: GPL-2.0-or-later
/* numa.c on a fake sysfs tree: node list, cpulist parsing, "auto", unknown nodes. */
#include "unit.h"
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/numa.h"
#include "core/util.h"


static void put(const char *root, const char *rel, const char *text)
{
	char *p = xasprintf("%s%s", root, rel);
	char *dir = xstrdup(p);

	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	free(dir);
	free(p);
}

#define N "/sys/devices/system/node"

/* node0: CPUs 0-3,8, 2 GiB free; node1: CPUs 4-7, 6 GiB free; node2: CPU-less, no memory */
static char *fake_tree(const char *name)
{
	char *root = xasprintf("%s/%s", unit_tmp, name);

	put(root, N "/has_memory", "0-1\n");
	put(root, N "/node0/cpulist", "0-3,8\n");
	put(root, N "/node0/meminfo",
	    "Node 0 MemTotal:        8388608 kB\nNode 0 MemFree:         2097152 kB\n");
	put(root, N "/node1/cpulist", "4-7\n");
	put(root, N "/node1/meminfo",
	    "Node 1 MemTotal:        8388608 kB\nNode 1 MemFree:         6291456 kB\n");
	put(root, N "/node2/cpulist", "\n");
	put(root, "/sys/devices/system/cpu/online", "0-8\n");
	put(root, "/proc/meminfo", "MemTotal:       16777216 kB\nMemFree:         8388608 kB\n");
	return root;
}

static void test_nodes(void **state)
{
	char *root = fake_tree("a");
	int nodes[LB_MAX_NODES];

	(void)state;
	assert_int_equal(numa_nodes(root, nodes, LB_MAX_NODES), 2);
	assert_int_equal(nodes[0], 0);
	assert_int_equal(nodes[1], 1);
	free(root);
}

static void test_nodes_without_has_memory(void **state)
{
	char *root = xasprintf("%s/b", unit_tmp);
	int nodes[LB_MAX_NODES];

	(void)state;
	put(root, N "/node3/cpulist", "0\n");
	put(root, N "/node1/cpulist", "1\n");
	put(root, N "/possible", "0-3\n");
	assert_int_equal(numa_nodes(root, nodes, LB_MAX_NODES), 2);
	assert_int_equal(nodes[0], 1);
	assert_int_equal(nodes[1], 3);
	free(root);
	/* no NUMA sysfs at all: one node 0 */
	root = xasprintf("%s/empty", unit_tmp);
	assert_int_equal(numa_nodes(root, nodes, LB_MAX_NODES), 1);
	assert_int_equal(nodes[0], 0);
	free(root);
}

static void test_resolve_number(void **state)
{
	char *root = fake_tree("c");
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;

	(void)state;
	assert_int_equal(numa_resolve(root, "0", &b, &err), 0);
	assert_int_equal(b.node, 0);
	assert_int_equal(b.nr_cpus, 5);
	assert_true(CPU_ISSET(8, &b.cpus));
	assert_false(CPU_ISSET(4, &b.cpus));
	assert_int_equal(b.mem_bytes, 8ULL << 30);
	assert_int_equal(b.free_bytes, 2ULL << 30);
	assert_int_equal(numa_resolve(root, "1", &b, &err), 0);
	assert_int_equal(b.nr_cpus, 4);
	assert_true(CPU_ISSET(4, &b.cpus) && CPU_ISSET(7, &b.cpus));
	/* "last": the highest node with memory (the seed's node 1) */
	assert_int_equal(numa_resolve(root, "last", &b, &err), 0);
	assert_int_equal(b.node, 1);
	assert_int_equal(b.nr_cpus, 4);
	strbuf_release(&err);
	free(root);
	/* one node, no NUMA sysfs: "last" is node 0 */
	root = xasprintf("%s/empty-last", unit_tmp);
	assert_int_equal(numa_resolve(root, "last", &b, &err), 0);
	assert_int_equal(b.node, 0);
	free(root);
}

static void test_resolve_auto_none(void **state)
{
	char *root = fake_tree("d");
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;

	(void)state;
	assert_int_equal(numa_resolve(root, "auto", &b, &err), 0);
	assert_int_equal(b.node, 1);   /* most MemFree */
	assert_int_equal(b.free_bytes, 6ULL << 30);
	assert_int_equal(numa_resolve(root, "none", &b, &err), 0);
	assert_int_equal(b.node, -1);
	assert_int_equal(b.nr_cpus, 9);
	assert_int_equal(b.mem_bytes, 16ULL << 30);
	strbuf_release(&err);
	free(root);
}

static void test_resolve_errors(void **state)
{
	char *root = fake_tree("e");
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;

	(void)state;
	assert_int_equal(numa_resolve(root, "7", &b, &err), WL_UNSUPPORTED);
	assert_string_equal(strbuf_str(&err), "numa_node=7: no such node; nodes present: 0,1");
	strbuf_reset(&err);
	/* node2 exists in sysfs but has no memory: not a node to bind to */
	assert_int_equal(numa_resolve(root, "2", &b, &err), WL_UNSUPPORTED);
	strbuf_reset(&err);
	assert_int_equal(numa_resolve(root, "zero", &b, &err), WL_BAD_CONFIG);
	assert_non_null(strstr(strbuf_str(&err), "numa_node=zero"));
	strbuf_reset(&err);
	assert_int_equal(numa_resolve(root, "-1", &b, &err), WL_BAD_CONFIG);
	strbuf_reset(&err);
	assert_int_equal(numa_resolve(root, "", &b, &err), WL_BAD_CONFIG);
	strbuf_release(&err);
	free(root);
}

static void test_bad_cpulist(void **state)
{
	char *root = fake_tree("f");
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;

	(void)state;
	put(root, N "/node0/cpulist", "0-x\n");
	assert_int_equal(numa_resolve(root, "0", &b, &err), WL_UNSUPPORTED);
	assert_non_null(strstr(strbuf_str(&err), "node0/cpulist"));
	strbuf_release(&err);
	free(root);
}

/* The real machine: binding the calling process to the first node works. */
static void test_apply_self_real(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct numa_bind b;
	cpu_set_t now;
	char *p;

	(void)state;
	assert_int_equal(numa_apply_self(&(struct numa_bind){ .node = -1 }), 0);
	assert_int_equal(numa_resolve("", "auto", &b, &err), 0);
	if (fork() == 0) {
		/* in a child, so the test process keeps its affinity */
		if (numa_apply_self(&b))
			_exit(1);
		sched_getaffinity(0, sizeof(now), &now);
		if (!CPU_EQUAL(&now, &b.cpus))
			_exit(2);
		p = malloc(1 << 20);
		memset(p, 1, 1 << 20);
		_exit(numa_node_of_addr(p) == b.node ? 0 : 3);
	}
	{
		int st;
		wait(&st);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_nodes_without_has_memory),
		cmocka_unit_test(test_resolve_number),
		cmocka_unit_test(test_resolve_auto_none),
		cmocka_unit_test(test_resolve_errors),
		cmocka_unit_test(test_bad_cpulist),
		cmocka_unit_test(test_apply_self_real),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
