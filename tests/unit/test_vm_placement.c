// SPDX-License-Identifier: GPL-2.0-or-later
/* VM placement and crash detection, pure parts: resolving vm.cpus_from /
 * host_node / numa_nodes on fake hosts, the qemu argv they give, reading
 * back /proc status and numa_maps text, and what a console line says. */
#include "unit.h"
#include "vm/args.h"
#include "vm/placement.h"
#include "vm/qemu.h"

#define N "/sys/devices/system/node"

/* two nodes: node0 CPUs 0-1 (1 GiB free), node1 CPUs 2-3 (3 GiB free) */
static char *two_nodes(const char *name)
{
	char *root = xasprintf("%s/%s", unit_tmp, name), *p;
	static const char *const files[][2] = {
		{ N "/has_memory", "0-1\n" },
		{ N "/node0/cpulist", "0-1\n" },
		{ N "/node0/meminfo", "Node 0 MemTotal: 4194304 kB\nNode 0 MemFree: 1048576 kB\n" },
		{ N "/node1/cpulist", "2-3\n" },
		{ N "/node1/meminfo", "Node 1 MemTotal: 4194304 kB\nNode 1 MemFree: 3145728 kB\n" },
		{ "/sys/devices/system/cpu/online", "0-3\n" },
		{ "/proc/meminfo", "MemTotal: 8388608 kB\nHugePages_Free:      512\nHugepagesize:    2048 kB\n" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *rel = xasprintf("%s%s", name, files[i][0]);
		p = unit_put(rel, files[i][1]);
		free(rel);
		free(p);
	}
	return root;
}

/* this machine's shape: one node with CPUs 0-1, no huge pages */
static char *one_node(const char *name)
{
	char *root = xasprintf("%s/%s", unit_tmp, name), *p;
	static const char *const files[][2] = {
		{ N "/has_memory", "0\n" },
		{ N "/node0/cpulist", "0-1\n" },
		{ N "/node0/meminfo", "Node 0 MemTotal: 4194304 kB\nNode 0 MemFree: 1048576 kB\n" },
		{ "/sys/devices/system/cpu/online", "0-1\n" },
		{ "/proc/meminfo", "MemTotal: 4194304 kB\nHugePages_Free:        0\nHugepagesize:    2048 kB\n" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *rel = xasprintf("%s%s", name, files[i][0]);
		p = unit_put(rel, files[i][1]);
		free(rel);
		free(p);
	}
	return root;
}

static void args(struct vm_args *a, enum vm_cpus_from from, unsigned cpus, unsigned nodes)
{
	memset(a, 0, sizeof(*a));
	a->cpus_from = from;
	a->cpus = cpus;
	a->numa_nodes = nodes;
	a->memory = 2ULL << 30;
	a->host_node = -1;
}

static void test_resolve_node(void **state)
{
	char *root = two_nodes("two");
	struct vm_args a;
	struct vm_placement p;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	/* auto: the node with the most free memory (1), its CPUs in order */
	args(&a, VM_CPUS_NODE, 2, 1);
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_true(p.bound && p.pinned);
	assert_int_equal(p.host_node[0], 1);
	assert_int_equal(p.vcpu_cpu[0], 2);
	assert_int_equal(p.vcpu_cpu[1], 3);
	assert_string_equal(p.note, "");

	/* two guest nodes on two host nodes, one to one, from host_node 0 */
	args(&a, VM_CPUS_NODE, 4, 2);
	a.host_node = 0;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_int_equal(p.host_node[0], 0);
	assert_int_equal(p.host_node[1], 1);
	assert_int_equal(p.vcpu_cpu[0], 0);
	assert_int_equal(p.vcpu_cpu[1], 1);
	assert_int_equal(p.vcpu_cpu[2], 2);
	assert_int_equal(p.vcpu_cpu[3], 3);
	/* ... and from host_node 1: guest node 1 wraps to host node 0 */
	a.host_node = 1;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_int_equal(p.host_node[0], 1);
	assert_int_equal(p.host_node[1], 0);
	assert_int_equal(p.vcpu_cpu[0], 2);
	assert_int_equal(p.vcpu_cpu[2], 0);

	/* too many vCPUs for one node */
	args(&a, VM_CPUS_NODE, 3, 1);
	a.host_node = 0;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), LB_EXIT_USAGE);
	assert_non_null(strstr(err.buf, "host node 0 has too few usable CPUs (0-1) for 3 vCPUs"));
	strbuf_reset(&err);
	/* no such node */
	a.host_node = 5;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), LB_EXIT_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "vm.host_node=5: no such node"));
	assert_non_null(strstr(err.buf, "nodes present: 0,1"));
	strbuf_reset(&err);
	strbuf_release(&err);
	free(root);
}

static void test_resolve_one_host_node(void **state)
{
	char *root = one_node("one");
	struct vm_args a;
	struct vm_placement p;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;
	(void)state;

	/* two guest nodes, one host node: both on it, said so, CPUs not shared */
	args(&a, VM_CPUS_NODE, 2, 2);
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_int_equal(p.host_node[0], 0);
	assert_int_equal(p.host_node[1], 0);
	assert_int_equal(p.vcpu_cpu[0], 0);
	assert_int_equal(p.vcpu_cpu[1], 1);
	assert_string_equal(p.note, "the host has 1 NUMA node: guest nodes 0-1 are all on host node 0");
	vm_placement_describe(&p, &d);
	assert_string_equal(d.buf, "vCPUs pinned to host CPUs 0,1; guest node 0 on host node 0, guest "
			    "node 1 on host node 0 (memory-backend-ram, policy=bind); the host has 1 NUMA "
			    "node: guest nodes 0-1 are all on host node 0");
	strbuf_reset(&d);

	/* a list: in the order given; memory on the first CPU's node */
	args(&a, VM_CPUS_LIST, 2, 1);
	a.ncpu_list = 2;
	a.cpu_list[0] = 1;
	a.cpu_list[1] = 0;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_int_equal(p.vcpu_cpu[0], 1);
	assert_int_equal(p.vcpu_cpu[1], 0);
	assert_int_equal(p.host_node[0], 0);
	/* a CPU this host lacks */
	a.cpu_list[1] = 7;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), LB_EXIT_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "host CPU 7 is not online"));
	assert_non_null(strstr(err.buf, "usable: 0-1"));
	strbuf_reset(&err);

	/* nothing asked: nothing bound, nothing pinned, the old argv */
	args(&a, VM_CPUS_FLOAT, 2, 1);
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_false(p.bound || p.pinned);
	assert_int_equal(p.host_node[0], -1);
	assert_int_equal(p.vcpu_cpu[0], -1);
	vm_placement_describe(&p, &d);
	assert_string_equal(d.buf, "vCPUs float over the host's CPUs; memory from any host node "
			    "(memory-backend-ram)");
	/* host_node alone binds memory, vCPUs float */
	a.host_node = 0;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), 0);
	assert_true(p.bound);
	assert_false(p.pinned);

	/* huge pages: this host has none free */
	args(&a, VM_CPUS_FLOAT, 2, 1);
	a.backend = VM_BACKEND_HUGETLB;
	assert_int_equal(vm_placement_resolve(&a, root, &p, &err), LB_EXIT_UNSUPPORTED);
	assert_non_null(strstr(err.buf, "needs 1024 free 2048K huge pages"));
	assert_non_null(strstr(err.buf, "echo 1024 > /proc/sys/vm/nr_hugepages"));
	strbuf_release(&err);
	strbuf_release(&d);
	free(root);
}

static bool has_pair(const struct strlist *l, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < l->n; i++)
		if (!strcmp(l->v[i], a) && !strcmp(l->v[i + 1], b))
			return true;
	return false;
}

static void test_argv_placement(void **state)
{
	struct vm_placement p;
	struct vm_qemu_spec s = {
		.kernel = "/k", .initrd = "/i", .append = "x", .console_path = "/c",
		.qmp_path = "/t/q,1.sock", .mem_bytes = 2ULL << 30, .cpus = 2, .numa_nodes = 1, .place = &p,
	};
	struct strlist argv = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	memset(&p, 0, sizeof(p));
	p.nnodes = 1;
	p.host_node[0] = -1;
	/* nothing placed: RAM is plain -m, but qemu starts paused with QMP */
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_true(strlist_has(&argv, "-S"));
	assert_true(has_pair(&argv, "-qmp", "unix:/t/q,,1.sock,server=on,wait=off"));
	assert_false(strlist_has(&argv, "-object"));
	strlist_release(&argv);

	/* one guest node bound: its RAM is a bound backend */
	p.bound = true;
	p.host_node[0] = 0;
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_true(has_pair(&argv, "-object", "memory-backend-ram,id=mem0,size=2048M,host-nodes=0,policy=bind"));
	assert_true(has_pair(&argv, "-machine", "memory-backend=mem0"));
	strlist_release(&argv);

	/* two nodes on memfd huge pages, bound to nodes 1 and 0 */
	s.numa_nodes = 2;
	p.nnodes = 2;
	p.host_node[0] = 1;
	p.host_node[1] = 0;
	p.backend = VM_BACKEND_HUGETLB;
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_true(has_pair(&argv, "-object", "memory-backend-memfd,id=mem0,size=1024M,hugetlb=on,"
			     "hugetlbsize=2M,host-nodes=1,policy=bind"));
	assert_true(has_pair(&argv, "-object", "memory-backend-memfd,id=mem1,size=1024M,hugetlb=on,"
			     "hugetlbsize=2M,host-nodes=0,policy=bind"));
	assert_true(has_pair(&argv, "-numa", "node,nodeid=1,cpus=1-1,memdev=mem1"));
	assert_false(strlist_has(&argv, "-machine"));
	strlist_release(&argv);

	/* no QMP path: not paused (as before) */
	s.qmp_path = NULL;
	s.place = NULL;
	s.numa_nodes = 1;
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_false(strlist_has(&argv, "-S"));
	assert_false(strlist_has(&argv, "-qmp"));
	strlist_release(&argv);
	strbuf_release(&err);
}

static void test_readback_text(void **state)
{
	static const char maps[] =
		"55ee78c35000-55ee78c40000 r--p 00000000 00:1f 123 /usr/bin/qemu\n"
		"7fe484021000-7fe488000000 ---p 00000000 00:00 0\n"
		"7fe493e00000-7fe4a3e00000 rw-p 00000000 00:00 0\n"
		"7fe4a4000000-7fe4a7fff000 rwxp 00000000 00:00 0\n";
	static const char numa_maps[] =
		"55ee78c35000 default file=/usr/bin/qemu mapped=3 N0=3 kernelpagesize_kB=4\n"
		"7fe484021000 default\n"
		"7fe493e00000 bind:0 anon=1200 dirty=1200 N0=1000 N1=200 kernelpagesize_kB=4\n"
		"7fe4a4000000 default anon=1 dirty=1 N0=1 kernelpagesize_kB=4\n";
	json_object *a = vm_numa_maps_parse(maps, numa_maps, 256ULL << 20), *rb, *v;
	char allowed[32];
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	/* only the mapping of the guest's RAM size */
	assert_int_equal(json_object_array_length(a), 1);
	assert_string_equal(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
			    "[{\"policy\":\"bind:0\",\"page_kb\":4,\"pages\":{\"0\":1000,\"1\":200}}]");
	vm_status_cpus_allowed("Name:\tqemu\nCpus_allowed:\t2\nCpus_allowed_list:\t1\nMems_allowed:\t1\n",
			       allowed, sizeof(allowed));
	assert_string_equal(allowed, "1");
	vm_status_cpus_allowed("Name:\tqemu\n", allowed, sizeof(allowed));
	assert_string_equal(allowed, "");

	rb = json_tokener_parse("{\"vcpus\": [{\"vcpu\": 0, \"thread\": 10, \"cpus_allowed\": \"0\"},"
				" {\"vcpu\": 1, \"thread\": 11, \"cpus_allowed\": \"1\"}]}");
	json_object_object_add(rb, "memory", a);
	vm_placement_summary(rb, &sb);
	assert_string_equal(sb.buf, "vCPU->host CPUs 0:0 1:1; memory bind:0 on node 0,1");
	/* nothing touched yet, nothing known */
	json_object_object_get_ex(rb, "memory", &v);
	json_object_object_add(json_object_array_get_idx(v, 0), "pages", json_object_new_object());
	strbuf_reset(&sb);
	vm_placement_summary(rb, &sb);
	assert_string_equal(sb.buf, "vCPU->host CPUs 0:0 1:1; memory bind:0 on node (none touched yet)");
	json_object_put(rb);
	strbuf_reset(&sb);
	rb = json_object_new_object();
	vm_placement_summary(rb, &sb);
	assert_string_equal(sb.buf, "vCPU->host CPUs unknown; memory unknown");
	json_object_put(rb);
	strbuf_release(&sb);
}

static void test_console_crash(void **state)
{
	(void)state;
	assert_int_equal(vm_console_crash("[   12.3] Kernel panic - not syncing: sysrq triggered crash"),
			 VM_CRASH_PANIC);
	assert_int_equal(vm_console_crash("[    7.1] BUG: kernel NULL pointer dereference, address: 0"),
			 VM_CRASH_OOPS);
	assert_int_equal(vm_console_crash("Oops: 0002 [#1] PREEMPT SMP NOPTI"), VM_CRASH_OOPS);
	assert_int_equal(vm_console_crash("general protection fault, probably for non-canonical address"),
			 VM_CRASH_OOPS);
	assert_int_equal(vm_console_crash("kernel BUG at mm/vmscan.c:1234!"), VM_CRASH_OOPS);
	/* a lockup says BUG: too, and is a lockup */
	assert_int_equal(vm_console_crash("watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [cc1:99]"),
			 VM_CRASH_LOCKUP);
	assert_int_equal(vm_console_crash("rcu: INFO: rcu_preempt self-detected stall on CPU"),
			 VM_CRASH_LOCKUP);
	assert_int_equal(vm_console_crash("INFO: task kworker/0:1:12 blocked for more than 120 seconds."),
			 VM_CRASH_HUNG_TASK);
	/* the suite's own words are not crashes */
	assert_int_equal(vm_console_crash("readtwice: memcgs-2 123.4 MB/s"), VM_CRASH_NONE);
	assert_int_equal(vm_console_crash("BUG: this is not a pattern we know"), VM_CRASH_NONE);
	assert_string_equal(vm_crash_name(VM_CRASH_HUNG_TASK), "hung task");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_node),
		cmocka_unit_test(test_resolve_one_host_node),
		cmocka_unit_test(test_argv_placement),
		cmocka_unit_test(test_readback_text),
		cmocka_unit_test(test_console_crash),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
