// SPDX-License-Identifier: GPL-2.0-or-later
/* VM mode, pure parts: bzImage header, modules.dep ordering and the module
 * plan, qemu argv, option splitting, init script, rounds pooling. */
#include "unit.h"
#include <sys/stat.h>
#include <sys/xattr.h>
#include "core/procfs.h"
#include "vm/args.h"
#include "vm/exports.h"
#include "vm/import.h"
#include "vm/initramfs.h"
#include "vm/kimage.h"
#include "vm/merge.h"
#include "vm/modules.h"
#include "vm/qemu.h"
#include "vm/rounds.h"

/* A synthetic setup header: "HdrS" at 0x202, protocol 2.15, kernel_version
 * (0x20e) pointing at a version string. */
static size_t make_bzimage(unsigned char *buf, size_t len, const char *version, unsigned proto)
{
	unsigned off = 0x3c0;   /* string at 0x5c0 */

	memset(buf, 0, len);
	memcpy(buf + 0x202, "HdrS", 4);
	buf[0x206] = proto & 0xff;
	buf[0x207] = proto >> 8;
	buf[0x20e] = off & 0xff;
	buf[0x20f] = off >> 8;
	memcpy(buf + off + 0x200, version, strlen(version) + 1);
	return len;
}

static void test_kimage_parse(void **state)
{
	unsigned char buf[4096];
	struct kimage ki;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	make_bzimage(buf, sizeof(buf), "6.1.0-57-rt-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_RT", 0x20f);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), 0);
	assert_string_equal(ki.release, "6.1.0-57-rt-amd64");
	assert_non_null(strstr(ki.version, "PREEMPT_RT"));

	/* no magic: not a kernel */
	buf[0x202] = 'X';
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	assert_non_null(strstr(err.buf, "HdrS"));
	/* too short */
	strbuf_reset(&err);
	assert_int_equal(kimage_parse(buf, 0x100, &ki, &err), -1);
	/* offset past the buffer */
	make_bzimage(buf, sizeof(buf), "6.1.0", 0x20f);
	strbuf_reset(&err);
	assert_int_equal(kimage_parse(buf, 0x400, &ki, &err), -1);
	/* no kernel_version field */
	make_bzimage(buf, sizeof(buf), "6.1.0", 0x20f);
	buf[0x20e] = buf[0x20f] = 0;
	strbuf_reset(&err);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	assert_non_null(strstr(err.buf, "no kernel version string"));
	/* an old boot protocol; 2.00 itself is fine */
	make_bzimage(buf, sizeof(buf), "2.4.0", 0x1ff);
	strbuf_reset(&err);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	assert_non_null(strstr(err.buf, "boot protocol 0x1ff is too old"));
	make_bzimage(buf, sizeof(buf), "2.6.0 (x)", 0x200);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), 0);
	assert_string_equal(ki.release, "2.6.0");
	/* the whole magic, not a prefix of it */
	make_bzimage(buf, sizeof(buf), "6.1.0", 0x20f);
	buf[0x205] = 'X';
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	/* the version string is printable ASCII, not empty, NUL-terminated */
	make_bzimage(buf, sizeof(buf), "6.1.0-\x80x (y)", 0x20f);
	strbuf_reset(&err);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	assert_non_null(strstr(err.buf, "not readable text"));
	make_bzimage(buf, sizeof(buf), "", 0x20f);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), -1);
	make_bzimage(buf, sizeof(buf), "6.1.0", 0x20f);
	assert_int_equal(kimage_parse(buf, 0x5c0 + 3, &ki, &err), -1);   /* cut inside it */
	/* a version string at an offset above 255 (0x3c0 + 0x200 here) */
	make_bzimage(buf, sizeof(buf), "6.9.0-rc1 #1", 0x20f);
	assert_int_equal(kimage_parse(buf, sizeof(buf), &ki, &err), 0);
	assert_string_equal(ki.release, "6.9.0-rc1");
	assert_string_equal(ki.version, "6.9.0-rc1 #1");
	strbuf_release(&err);
}

/* modules.dep of the rt-amd64 flavour shape: virtio needs virtio_ring first. */
static const char dep_text[] =
	"kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko kernel/fs/netfs/netfs.ko\n"
	"kernel/fs/fscache/fscache.ko: kernel/fs/netfs/netfs.ko\n"
	"kernel/fs/netfs/netfs.ko:\n"
	"kernel/net/9p/9pnet.ko:\n"
	"kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/virtio/virtio_ring.ko:\n"
	"kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_legacy_dev.ko kernel/drivers/virtio/virtio_pci_modern_dev.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
	"kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
	"kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
	"kernel/drivers/block/loop.ko:\n"
	"kernel/crypto/crc32c_generic.ko:\n"
	"kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/mbcache.ko kernel/fs/jbd2/jbd2.ko\n"
	"kernel/lib/crc16.ko:\n"
	"kernel/fs/mbcache.ko:\n"
	"kernel/fs/jbd2/jbd2.ko:\n";

static size_t pos(const struct strlist *l, const char *name)
{
	char n[64];
	for (size_t i = 0; i < l->n; i++) {
		module_name_of(l->v[i], n, sizeof(n));
		if (!strcmp(n, name))
			return i;
	}
	fail_msg("%s not in the order", name);
	return 0;
}

static void test_moddep_order(void **state)
{
	struct moddep md;
	struct strlist order = STRLIST_INIT, warn = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	char name[64];
	(void)state;

	module_name_of("kernel/net/9p/9pnet_virtio.ko.xz", name, sizeof(name));
	assert_string_equal(name, "9pnet_virtio");
	module_name_of("a/b/snd-aloop.ko", name, sizeof(name));
	assert_string_equal(name, "snd_aloop");

	assert_int_equal(moddep_parse(dep_text, &md, &err), 0);
	assert_int_equal(moddep_order(&md, "9pnet_virtio", &order, &err), 0);
	assert_int_equal(order.n, 4);
	assert_true(pos(&order, "virtio_ring") < pos(&order, "virtio"));
	assert_true(pos(&order, "virtio") < pos(&order, "9pnet_virtio"));
	assert_true(pos(&order, "9pnet") < pos(&order, "9pnet_virtio"));
	/* no repeats when a second module shares dependencies */
	assert_int_equal(moddep_order(&md, "virtio_pci", &order, &err), 0);
	assert_int_equal(order.n, 7);
	assert_int_equal(moddep_order(&md, "no_such", &order, &err), -1);
	strlist_release(&order);

	/* the whole plan with everything as modules */
	assert_int_equal(vm_plan_modules("CONFIG_9P_FS=m\n", NULL, &md, &order, &warn, &err), 0);
	assert_true(pos(&order, "netfs") < pos(&order, "fscache"));
	assert_true(pos(&order, "fscache") < pos(&order, "9p"));
	assert_true(pos(&order, "crc32c_generic") < pos(&order, "ext4"));
	assert_true(pos(&order, "jbd2") < pos(&order, "ext4"));
	assert_true(pos(&order, "virtio_pci") < pos(&order, "9p"));
	assert_int_equal(warn.n, 0);
	strlist_release(&order);

	/* built in (=y): nothing to load for it */
	assert_int_equal(vm_plan_modules("CONFIG_9P_FS=y\nCONFIG_NET_9P_VIRTIO=y\nCONFIG_VIRTIO_PCI=y\n"
					 "CONFIG_BLK_DEV_LOOP=y\nCONFIG_EXT4_FS=y\nCONFIG_CRYPTO_CRC32C=y\n",
					 NULL, &md, &order, &warn, &err), 0);
	assert_int_equal(order.n, 0);
	moddep_release(&md);

	/* a malformed line is named */
	strbuf_reset(&err);
	assert_int_equal(moddep_parse("kernel/a.ko: \nno colon here\n", &md, &err), -1);
	assert_non_null(strstr(err.buf, "line 2"));
	strbuf_release(&err);
	strlist_release(&warn);
}

static void test_plan_missing(void **state)
{
	struct strlist order = STRLIST_INIT, warn = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	/* the cloud flavour: no 9p at all */
	assert_int_equal(vm_plan_modules("# CONFIG_9P_FS is not set\nCONFIG_VIRTIO_PCI=m\nCONFIG_EXT4_FS=y\n",
					 NULL, NULL, &order, &warn, &err), -1);
	assert_non_null(strstr(err.buf, "CONFIG_9P_FS"));
	assert_non_null(strstr(err.buf, "CONFIG_NET_9P_VIRTIO"));
	assert_non_null(strstr(err.buf, "CONFIG_VIRTIO_PCI"));
	assert_non_null(strstr(err.buf, "not set in its config"));
	/* nothing known and no modules */
	strbuf_reset(&err);
	assert_int_equal(vm_plan_modules(NULL, NULL, NULL, &order, &warn, &err), -1);
	assert_non_null(strstr(err.buf, "no modules found"));
	/* built in per modules.builtin, loop missing: a warning only */
	strbuf_reset(&err);
	strlist_release(&warn);
	assert_int_equal(vm_plan_modules(NULL, "kernel/fs/9p/9p.ko\nkernel/net/9p/9pnet_virtio.ko\n"
					 "kernel/drivers/virtio/virtio_pci.ko\nkernel/fs/ext4/ext4.ko\n"
					 "kernel/crypto/crc32c_generic.ko\n",
					 NULL, &order, &warn, &err), 0);
	assert_int_equal(order.n, 0);
	assert_int_equal(warn.n, 1);
	assert_non_null(strstr(warn.v[0], "CONFIG_BLK_DEV_LOOP"));

	assert_int_equal(kconfig_state("CONFIG_A=y\nCONFIG_AB=m\n", "CONFIG_A"), 'y');
	assert_int_equal(kconfig_state("CONFIG_AB=m\n", "CONFIG_A"), 0);
	assert_int_equal(kconfig_state("# CONFIG_A is not set\n", "CONFIG_A"), 'n');
	strlist_release(&order);
	strlist_release(&warn);
	strbuf_release(&err);
}

static bool has_pair(const struct strlist *l, const char *a, const char *b)
{
	for (size_t i = 0; i + 1 < l->n; i++)
		if (!strcmp(l->v[i], a) && !strcmp(l->v[i + 1], b))
			return true;
	return false;
}

static void test_qemu_argv(void **state)
{
	struct vm_qemu_spec s = {
		.kernel = "/k/vmlinuz", .initrd = "/t/initrd", .append = "console=ttyS0",
		.console_path = "/t/con", .mem_bytes = 2ULL << 30, .cpus = 2, .numa_nodes = 1,
		.shares = { { .tag = "sys0", .path = "/usr" }, { .tag = "stage", .path = "/t/stage" },
			    { .tag = "results", .path = "/t/boot,x", .writable = true } },
		.nshares = 3,
	};
	struct strlist argv = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT, cl = STRBUF_INIT;
	(void)state;

	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_string_equal(argv.v[0], "qemu-system-x86_64");
	assert_true(has_pair(&argv, "-accel", "tcg"));
	assert_true(has_pair(&argv, "-cpu", "max"));
	assert_true(has_pair(&argv, "-m", "2048M"));
	assert_true(has_pair(&argv, "-smp", "2"));
	assert_true(has_pair(&argv, "-kernel", "/k/vmlinuz"));
	assert_true(has_pair(&argv, "-initrd", "/t/initrd"));
	assert_true(strlist_has(&argv, "-no-reboot"));
	/* never the host root; read-only exports, and the boot's results folder
	 * mapped so the guest's devices and set-id bits stay xattrs (issue 30) */
	assert_true(has_pair(&argv, "-virtfs", "local,path=/usr,mount_tag=sys0,security_model=none,"
			     "readonly=on,multidevs=remap"));
	assert_true(has_pair(&argv, "-virtfs", "local,path=/t/stage,mount_tag=stage,security_model=none,"
			     "readonly=on,multidevs=remap"));
	/* a comma in a path is doubled */
	assert_true(has_pair(&argv, "-virtfs", "local,path=/t/boot,,x,mount_tag=results,"
			     "security_model=mapped-xattr,multidevs=remap"));
	for (size_t i = 0; i < argv.n; i++)
		assert_null(strstr(argv.v[i], "path=/,"));
	assert_false(strlist_has(&argv, "-numa"));
	strlist_release(&argv);

	s.kvm = true;
	s.numa_nodes = 2;
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_true(has_pair(&argv, "-accel", "kvm"));
	assert_false(strlist_has(&argv, "-cpu"));
	assert_true(has_pair(&argv, "-object", "memory-backend-ram,id=mem0,size=1024M"));
	assert_true(has_pair(&argv, "-numa", "node,nodeid=0,cpus=0-0,memdev=mem0"));
	assert_true(has_pair(&argv, "-numa", "node,nodeid=1,cpus=1-1,memdev=mem1"));
	strlist_release(&argv);

	s.numa_nodes = 3;   /* more nodes than CPUs */
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), -1);
	assert_non_null(strstr(err.buf, "vm_cpus"));
	strlist_release(&argv);

	vm_kernel_cmdline(&cl, false, "mitigations=off");
	assert_non_null(strstr(cl.buf, "console=ttyS0"));
	assert_non_null(strstr(cl.buf, "lrubench.virt=tcg"));
	assert_non_null(strstr(cl.buf, " mitigations=off"));
	strbuf_release(&cl);
	strbuf_release(&err);
}

/* [vm] keys come from the config (INI, --set, run's aliases): copied into
 * vm_args, with the rules between keys checked there. */
static void test_args(void **state)
{
	struct config cfg;
	struct vm_args a;
	struct strbuf err = STRBUF_INIT;
	json_object *j;
	(void)state;

	assert_int_equal(config_init(&cfg, NULL, true), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=A", &err), 0);
	assert_int_equal(config_set_from(&cfg, "vm.kernel_b=B", "--kernel-b B", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.label_b=bee", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.memory=1G", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.numa_nodes=2", &err), 0);
	assert_int_equal(config_set_from(&cfg, "vm.rounds=3", "--vm-rounds 3", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.cpus=2", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.cmdline_extra=quiet a=b", &err), 0);
	assert_string_equal(config_origin(&cfg, "vm", "rounds"), "--vm-rounds 3");
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.nkernels, 2);
	assert_string_equal(a.kernel[0].image, "A");
	assert_string_equal(a.kernel[1].image, "B");
	assert_string_equal(a.kernel[1].label, "bee");
	assert_string_equal(a.kernel[1].flag, "--kernel-b");
	assert_null(a.kernel[0].label);
	assert_null(a.kernel[0].modules);
	assert_int_equal(a.cpus_from, VM_CPUS_FLOAT);
	assert_int_equal(a.host_node, -1);
	assert_int_equal(a.backend, VM_BACKEND_RAM);
	assert_int_equal(a.memory, 1ULL << 30);
	assert_int_equal(a.numa_nodes, 2);
	assert_int_equal(a.rounds, 3);
	assert_int_equal(a.cpus, 2);
	assert_string_equal(a.cmdline_extra, "quiet a=b");
	assert_true(a.timeout == 15 * 60);   /* the --quick value */
	/* run.json's config leaves [vm] out: VM mode records its own facts */
	j = config_to_json(&cfg);
	assert_false(json_object_object_get_ex(j, "vm", NULL));
	json_object_put(j);

	/* a bad value names the flag as typed and the key */
	assert_int_equal(config_set_from(&cfg, "vm.memory=64M", "--vm-memory 64M", &err), -1);
	assert_non_null(strstr(err.buf, "--vm-memory 64M: vm.memory: 64M is out of range"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.colour=red", &err), -1);
	assert_non_null(strstr(err.buf, "unknown key 'colour' in [vm]"));

	/* the rules between keys */
	strbuf_reset(&err);
	a.resume = true;
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "--resume cannot continue a run with vm.rounds > 1"));
	a.resume = false;
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.numa_nodes=3", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "vm.numa_nodes=3 needs at least as many vm.cpus (2)"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.numa_nodes=1", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "--kernel-b needs --kernel-a"));
	/* label names are checked before boot by vm.c with core/label_name.h
	 * (tests/unit/test_label_name.c, vm.sh test_vm_label_names) */
	vm_args_release(&a);

	/* more kernels: vm.kernels after a and b, in round order */
	memset(&a, 0, sizeof(a));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=A", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernels= rt=/k/rt , copy=/k/copy", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.nkernels, 4);
	assert_string_equal(a.kernel[2].label, "rt");
	assert_string_equal(a.kernel[2].image, "/k/rt");
	assert_string_equal(a.kernel[2].flag, "--kernel rt");
	assert_string_equal(a.kernel[3].label, "copy");
	assert_string_equal(a.kernel[3].image, "/k/copy");
	vm_args_release(&a);
	/* only listed ones, no kernel_a: fine */
	memset(&a, 0, sizeof(a));
	assert_int_equal(config_set(&cfg, "vm.kernel_a=", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_b=", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.label_b=", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.nkernels, 2);
	assert_string_equal(a.kernel[0].label, "rt");
	vm_args_release(&a);
	memset(&a, 0, sizeof(a));
	assert_int_equal(config_set(&cfg, "vm.kernels=rt=/k/rt,justapath", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "vm.kernels: 'justapath' is not NAME=IMG"));
	vm_args_release(&a);
	memset(&a, 0, sizeof(a));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.kernels=", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "VM mode needs a kernel"));
	vm_args_release(&a);

	/* placement keys */
	assert_int_equal(config_set(&cfg, "vm.kernel_a=A", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=node", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.host_node=1", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.memory_backend=memfd", &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.cpus_from, VM_CPUS_NODE);
	assert_int_equal(a.host_node, 1);
	assert_int_equal(a.backend, VM_BACKEND_MEMFD);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=3,1", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.cpus_from, VM_CPUS_LIST);
	assert_int_equal(a.ncpu_list, 2);
	assert_int_equal(a.cpu_list[0], 3);   /* in the order given: vCPU 0 on CPU 3 */
	assert_int_equal(a.cpu_list[1], 1);
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=3", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "lists 1 host CPU for vm.cpus=2 vCPUs"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=1,1", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "CPU 1 is listed twice"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=everywhere", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "expected none, node or a list of host CPUs"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.cpus_from=none", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.host_node=x", &err), 0);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "vm.host_node=x: expected auto or a node number"));
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.memory_backend=tmpfs", &err), -1);
	assert_non_null(strstr(err.buf, "vm.memory_backend"));
	vm_args_release(&a);
	config_release(&cfg);
	strbuf_release(&err);
}

static void test_init_script(void **state)
{
	struct strlist ko = STRLIST_INIT, cmd = STRLIST_INIT;
	struct vm_exports x = { 0 };
	struct vm_guest g = { .ko = &ko, .x = &x, .results_dir = "/res", .cwd = "/home/o'neil",
			      .cmd = &cmd, .round = 2 };
	struct strbuf q = STRBUF_INIT;
	char *s, *res, *bind;
	(void)state;

	strlist_push(&ko, "/m/kernel/drivers/virtio/virtio_ring.ko");
	strlist_push(&ko, "/m/kernel/fs/9p/9p.ko");
	strlist_push(&cmd, "/usr/bin/lrubench");
	strlist_push(&cmd, "run");
	strlist_push(&x.sys, "/usr");
	strlist_push(&x.links, "/bin");
	strlist_push(&x.links, "usr/bin");
	/* a file the suite names, staged: a binary in /usr needs no copy */
	vm_exports_add_input(&x, "/usr/bin/lrubench");
	vm_exports_add_input(&x, "/bin/sh");
	vm_exports_add_input(&x, "/tmp/build/x.conf");
	vm_exports_add_input(&x, "/tmp/build/x.conf");
	assert_int_equal(x.inputs.n, 1);
	s = vm_init_script(&g);
	assert_non_null(strstr(s, "insmod /modules/00-virtio_ring.ko"));
	assert_non_null(strstr(s, "insmod /modules/01-9p.ko"));
	assert_true(strstr(s, "00-virtio_ring") < strstr(s, "01-9p"));
	/* the guest's root is its own tmpfs; the host root is never mounted */
	assert_non_null(strstr(s, "mount -t tmpfs -o mode=0755 tmpfs /guest"));
	assert_null(strstr(s, "hostroot"));
	assert_non_null(strstr(s, "mount -t 9p -o trans=virtio,version=9p2000.L,ro sys0 '/guest/usr'"));
	assert_non_null(strstr(s, "ln -s 'usr/bin' '/guest/bin'"));
	assert_non_null(strstr(s, ",ro stage /stage"));
	assert_non_null(strstr(s, "cp -a /stage/etc /guest/etc"));
	/* the results share is writable, at the guest run's -o */
	res = strstr(s, "mount -t 9p -o trans=virtio,version=9p2000.L results '/guest/res'");
	assert_non_null(res);
	/* staged files go last, read-only binds at their host path */
	bind = strstr(s, "mount -o bind /stage/in/0 '/guest/tmp/build/x.conf'");
	assert_non_null(bind);
	assert_true(res < bind);
	assert_non_null(strstr(s, "mount -t cgroup2"));
	assert_non_null(strstr(s, "'/home/o'\\''neil'"));
	assert_non_null(strstr(s, "LRUBENCH_VM_GUEST=1 LRUBENCH_VM_ROUND=2 '/usr/bin/lrubench' 'run'"));
	assert_non_null(strstr(s, "echo \"LRUBENCH-EXIT $rc\""));
	free(s);
	vm_exports_release(&x);
	sh_quote(&q, "a b");
	assert_string_equal(q.buf, "'a b'");
	strbuf_release(&q);
	strlist_release(&ko);
	strlist_release(&cmd);
}

static void test_merge(void **state)
{
	json_object *dst = json_tokener_parse(
		"{\"schema\":1,\"workload\":\"readtwice\",\"tables\":[{\"title\":\"T\",\"unit\":\"MB/s\","
		"\"better\":\"higher\",\"ops\":[{\"op\":\"memcgs-1\",\"samples\":[1,2]}]}],"
		"\"progress\":[{\"op\":\"memcgs-1\",\"done\":2}]}");
	json_object *src = json_tokener_parse(
		"{\"schema\":1,\"workload\":\"readtwice\",\"tables\":[{\"title\":\"T\",\"unit\":\"MB/s\","
		"\"better\":\"higher\",\"ops\":[{\"op\":\"memcgs-1\",\"samples\":[3]},"
		"{\"op\":\"memcgs-2\",\"samples\":[4]}]},{\"title\":\"U\",\"ops\":[]}],"
		"\"details\":[{\"op\":\"memcgs-1\",\"iteration\":0},{\"step\":\"memcgs-1\",\"profile\":"
		"{\"kind\":\"cpu\",\"folded\":\"logs/profile-readtwice-memcgs-1-cpu.folded\","
		"\"cpu_symbols\":[]}}]}");
	struct strbuf err = STRBUF_INIT;
	json_object *t, *ops, *s, *d, *r, *p;
	(void)state;

	assert_int_equal(vm_merge_samples(dst, src, 2, &err), 0);
	json_object_object_get_ex(dst, "tables", &t);
	assert_int_equal(json_object_array_length(t), 2);
	json_object_object_get_ex(json_object_array_get_idx(t, 0), "ops", &ops);
	assert_int_equal(json_object_array_length(ops), 2);
	json_object_object_get_ex(json_object_array_get_idx(ops, 0), "samples", &s);
	assert_int_equal(json_object_array_length(s), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(s, 2)), 3);
	assert_false(json_object_object_get_ex(dst, "progress", NULL));
	assert_true(json_object_object_get_ex(dst, "details", &d));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(d, 0), "vm_round", &r));
	assert_int_equal(json_object_get_int(r), 2);
	/* the guest's folded stacks came home with the samples; their path follows
	 * the round's logs to logs/round-2/ */
	assert_true(json_object_object_get_ex(json_object_array_get_idx(d, 1), "profile", &p));
	assert_string_equal(json_object_get_string(json_object_object_get(p, "folded")),
			    "logs/round-2/profile-readtwice-memcgs-1-cpu.folded");
	json_object_put(dst);
	json_object_put(src);
	strbuf_release(&err);
}

/* A guest's results come home by descriptor (vm/import.h, issue 30 point
 * 9): regular files and folders of its own label only, anew and 0644; a
 * link, a FIFO, a file the mapped-xattr model records as a device or a
 * link, another label, a non-regular destination are left behind. */
static void test_import(void **state)
{
	char *boot = xasprintf("%s/boot", unit_tmp), *home = xasprintf("%s/home", unit_tmp);
	char *p, *suid, *dev, *victim;
	unsigned char chr[4] = { 0x00, 0x20, 0, 0 };   /* S_IFCHR, little endian */
	struct vm_import im = { 0 };
	struct strbuf err = STRBUF_INIT, left = STRBUF_INIT;
	struct stat st;
	size_t len;
	(void)state;

	free(unit_put("boot/L/run.json", "{}"));
	free(unit_put("boot/L/logs/round-2/console.log", "boot"));
	suid = unit_put("boot/L/suid", "x");
	assert_int_equal(chmod(suid, 04755), 0);
	dev = unit_put("boot/L/dev", "");
	if (setxattr(dev, "user.virtfs.mode", chr, sizeof(chr), 0))
		unlink(dev);   /* no user xattrs here: the host's own type is checked below */
	p = xasprintf("%s/boot/L/link", unit_tmp);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	free(p);
	p = xasprintf("%s/boot/L/fifo", unit_tmp);
	assert_int_equal(mkfifo(p, 0644), 0);
	free(p);
	free(unit_put("boot/other/run.json", "forged"));
	victim = unit_put("home/other/run.json", "the real one");
	/* an existing link in the destination is not written through */
	free(unit_put("boot/L/logs/planted", "x"));
	assert_int_equal(mkdir_p(home, 0755), 0);
	p = xasprintf("%s/home/L", unit_tmp);
	assert_int_equal(mkdir_p(p, 0755), 0);
	free(p);
	p = xasprintf("%s/home/L/logs", unit_tmp);
	assert_int_equal(mkdir_p(p, 0755), 0);
	free(p);
	p = xasprintf("%s/home/L/logs/planted", unit_tmp);
	assert_int_equal(symlink(victim, p), 0);
	free(p);

	assert_int_equal(vm_import_label(boot, "L", home, &im, &err), 0);
	assert_int_equal(im.files, 3);   /* run.json, console.log, suid */
	p = xasprintf("%s/home/L/logs/round-2/console.log", unit_tmp);
	free(read_regular_file(p, 100, READ_NOFOLLOW, &len, NULL));
	assert_int_equal(len, 4);
	free(p);
	p = xasprintf("%s/home/L/suid", unit_tmp);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	free(p);
	for (const char *const *n = (const char *const[]){ "dev", "link", "fifo", NULL }; *n; n++) {
		p = xasprintf("%s/home/L/%s", unit_tmp, *n);
		assert_int_equal(lstat(p, &st), -1);
		free(p);
	}
	p = read_regular_file(victim, 100, 0, &len, NULL);
	assert_string_equal(p, "the real one");
	free(p);
	vm_import_describe_left(&im, &left);
	assert_non_null(strstr(left.buf, "other (not this kernel's label)"));
	assert_non_null(strstr(left.buf, "L/link (a symbolic link)"));
	assert_non_null(strstr(left.buf, "L/fifo (a FIFO)"));
	assert_non_null(strstr(left.buf, "L/logs/planted (the destination is not a regular file)"));
	/* a label folder that is a link on the host is refused */
	vm_import_release(&im);
	p = xasprintf("%s/home/M", unit_tmp);
	assert_int_equal(symlink("/etc", p), 0);
	free(p);
	free(unit_put("boot/M/run.json", "{}"));
	assert_int_equal(vm_import_label(boot, "M", home, &im, &err), -1);
	assert_non_null(strstr(err.buf, "not a folder"));
	/* nothing written by the guest: nothing to bring */
	vm_import_release(&im);
	strbuf_reset(&err);
	assert_int_equal(vm_import_label(boot, "none", home, &im, &err), 0);
	assert_int_equal(im.files, 0);
	vm_import_release(&im);
	strbuf_release(&err);
	strbuf_release(&left);
	free(suid);
	free(dev);
	free(victim);
	free(boot);
	free(home);
}

/* run.json's vm.adaptive.stopped is what the ops' sequential verdicts were
 * (issue 23): "decided" only when every op was decided, never for a stop
 * on equivalence or on noise. */
static void test_rounds_verdict(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;

	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .decided = 2 }), "decided");
	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .reached = 1 }), "reached");
	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .noisy = 1 }), "too noisy");
	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .decided = 1, .noisy = 1 }), "mixed");
	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .decided = 1, .reached = 1 }), "mixed");
	assert_string_equal(vm_verdicts_stopped(&(struct vm_verdicts){ .decided = 3, .open = 1 }), "round cap");
	vm_verdicts_describe(&(struct vm_verdicts){ .noisy = 1 }, 2, &sb);
	assert_string_equal(sb.buf, "too noisy to decide");
	strbuf_reset(&sb);
	vm_verdicts_describe(&(struct vm_verdicts){ .reached = 2 }, 2, &sb);
	assert_string_equal(sb.buf, "equivalent within ±2%");
	strbuf_reset(&sb);
	vm_verdicts_describe(&(struct vm_verdicts){ .decided = 1, .noisy = 2 }, 2, &sb);
	assert_string_equal(sb.buf, "stopped (1 decided, 2 too noisy)");
	strbuf_reset(&sb);
	vm_verdicts_describe(&(struct vm_verdicts){ .open = 1 }, 2, &sb);
	assert_string_equal(sb.buf, "not decided");
	strbuf_release(&sb);
}

/* A kernel's own boot options (vm/args.h): --cmdline-a/-b and the text
 * after IMG in vm.kernels; refused: bytes that are not printable ASCII,
 * quotes, VM mode's own options, too many bytes, options for "host". */
static void test_boot_options(void **state)
{
	struct config cfg;
	struct vm_args a;
	struct strbuf err = STRBUF_INIT, cl = STRBUF_INIT;
	char *huge;
	(void)state;

	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_b=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.cmdline_b=cgroup_disable=memory", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernels=nothp=/k/img  transparent_hugepage=never mitigations=off, "
				    "plain=/k/img", &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(a.nkernels, 4);
	assert_string_equal(a.kernel[0].cmdline, "");
	assert_string_equal(a.kernel[1].cmdline, "cgroup_disable=memory");
	assert_string_equal(a.kernel[2].image, "/k/img");
	assert_string_equal(a.kernel[2].label, "nothp");
	assert_string_equal(a.kernel[2].cmdline, "transparent_hugepage=never mitigations=off");
	assert_string_equal(a.kernel[3].cmdline, "");
	vm_args_release(&a);

	/* what must be refused, each named */
	static const struct { const char *set, *msg; } bad[] = {
		{ "vm.cmdline_b=a\"b", "--cmdline-b: byte 0x22 at offset 1" },
		{ "vm.cmdline_b=x\ty", "--cmdline-b: byte 0x09 at offset 1" },
		{ "vm.cmdline_b=init=/bin/sh", "'init=/bin/sh': VM mode sets init= itself" },
		{ "vm.cmdline_b=quiet console=tty0", "VM mode sets console= itself" },
		{ "vm.cmdline_b=lrubench.virt=kvm", "lrubench.* options are VM mode's own" },
		{ "vm.cmdline_extra=lrubench.x=1", "vm.cmdline_extra: 'lrubench.x=1'" },
		{ "vm.kernels=x=/k/img panic=0", "--kernel x: 'panic=0'" },
		{ "vm.kernels=h=host quiet", "--kernel h: the running kernel (host) was booted already" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct config c2;

		assert_int_equal(config_init(&c2, NULL, false), 0);
		assert_int_equal(config_set(&c2, "vm.kernel_a=/k/img", &err), 0);
		assert_int_equal(config_set(&c2, "vm.kernel_b=/k/img", &err), 0);
		assert_int_equal(config_set(&c2, bad[i].set, &err), 0);
		memset(&a, 0, sizeof(a));
		strbuf_reset(&err);
		assert_int_equal(vm_args_from_config(&a, config_section(&c2, "vm"), &err), -1);
		if (!strstr(err.buf, bad[i].msg))
			fail_msg("%s: got '%s'", bad[i].set, err.buf);
		vm_args_release(&a);
		config_release(&c2);
	}
	/* too long: one option of 1025 bytes */
	huge = malloc(VM_CMDLINE_MAX + 16);
	memcpy(huge, "vm.cmdline_b=", 13);
	memset(huge + 13, 'x', VM_CMDLINE_MAX + 1);
	huge[13 + VM_CMDLINE_MAX + 1] = '\0';
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, huge, &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "--cmdline-b: 1025 bytes of boot options, at most 1024"));
	vm_args_release(&a);
	free(huge);
	/* cmdline_b without kernel_b */
	assert_int_equal(config_set(&cfg, "vm.cmdline_b=quiet", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_b=", &err), 0);
	memset(&a, 0, sizeof(a));
	strbuf_reset(&err);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "--cmdline-b without --kernel-b"));
	vm_args_release(&a);
	/* the guest's line: ours, then cmdline_extra, then the kernel's own */
	vm_kernel_cmdline(&cl, false, "quiet cgroup_disable=memory");
	assert_string_equal(cl.buf, "console=ttyS0 panic=1 oops=panic rdinit=/init lrubench.virt=tcg "
			    "quiet cgroup_disable=memory");
	config_release(&cfg);
	strbuf_release(&cl);
	strbuf_release(&err);
}

/* The host side: the balloon device on qemu's command line, qemu's VmRSS
 * parsed from /proc/PID/status text and gathered into vm.qemu_memory, and
 * the balloon keys' rules. */
static void test_host_side(void **state)
{
	struct vm_qemu_spec s = {
		.kernel = "/k/vmlinuz", .initrd = "/t/initrd", .append = "console=ttyS0",
		.console_path = "/t/con", .mem_bytes = 2ULL << 30, .cpus = 1, .numa_nodes = 1,
	};
	struct strlist argv = STRLIST_INIT;
	struct strbuf err = STRBUF_INIT;
	unsigned long long kb = 0;
	struct config cfg;
	struct vm_args a;
	json_object *m, *v;
	(void)state;

	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_false(strlist_has(&argv, "virtio-balloon-pci,id=balloon0,free-page-reporting=on"));
	strlist_release(&argv);
	s.balloon = true;
	assert_int_equal(vm_qemu_argv(&s, &argv, &err), 0);
	assert_true(has_pair(&argv, "-device", "virtio-balloon-pci,id=balloon0,free-page-reporting=on"));
	strlist_release(&argv);

	assert_int_equal(proc_status_kb("Name:\tqemu\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n",
					"VmRSS", &kb), 0);
	assert_int_equal(kb, 102400);
	assert_int_equal(proc_status_kb("VmRSS:\t102400 kB\n", "VmHWM", &kb), -1);
	assert_int_equal(proc_status_kb("VmRSSx:\t1 kB\n", "VmRSS", &kb), -1);
	assert_int_equal(proc_status_kb("VmRSS:\t12 pages\n", "VmRSS", &kb), -1);
	assert_int_equal(proc_status_kb("VmRSS:\tlots kB\n", "VmRSS", &kb), -1);
	m = vm_qemu_memory_new(5);
	vm_qemu_memory_add(m, 1000, 1500);
	vm_qemu_memory_add(m, 3000, 3100);
	vm_qemu_memory_add(m, 2000, 3100);
	assert_true(json_object_object_get_ex(m, "rss_kb", &v));
	assert_int_equal(json_object_array_length(v), 3);
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(v, 2)), 2000);
	assert_true(json_object_object_get_ex(m, "max_rss_kb", &v));
	assert_int_equal(json_object_get_int64(v), 3000);
	assert_true(json_object_object_get_ex(m, "hwm_kb", &v));
	assert_int_equal(json_object_get_int64(v), 3100);
	json_object_put(m);

	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.memory=1G", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.balloon_target=512M", &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "vm.balloon_target needs vm.balloon = free-page-reporting"));
	vm_args_release(&a);
	assert_int_equal(config_set(&cfg, "vm.balloon=free-page-reporting", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.balloon_target=2G", &err), 0);
	memset(&a, 0, sizeof(a));
	strbuf_reset(&err);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), -1);
	assert_non_null(strstr(err.buf, "vm.balloon_target is more than vm.memory"));
	vm_args_release(&a);
	assert_int_equal(config_set(&cfg, "vm.balloon_target=512M", &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_true(a.balloon);
	assert_int_equal(a.balloon_target, 512ULL << 20);
	assert_true(a.rss_interval == 5);
	vm_args_release(&a);
	strbuf_reset(&err);
	assert_int_equal(config_set(&cfg, "vm.balloon=inflate", &err), -1);
	assert_non_null(strstr(err.buf, "inflate"));
	config_release(&cfg);
	strbuf_release(&err);
}

/* The knobs of each kernel's guest (vm/args.h vm_args_settings): settings_a,
 * settings_b and kernel_settings parsed with their origins, and refused
 * before anything boots: outside the allowed trees, not KNOB=VALUE, twice
 * for one guest, keep, an unknown NAME, a knob the suite's [settings] set
 * too, settings for a kernel that is not there. */
static void test_guest_settings(void **state)
{
	struct config cfg;
	struct vm_args a;
	struct strbuf err = STRBUF_INIT;
	(void)state;

	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_b=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernels=nothp=/k/img, plain=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.settings_a=vm.swappiness=10, "
				    "/sys/kernel/mm/transparent_hugepage/enabled = always", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.settings_b=vm.swappiness=60", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_settings=nothp:/sys/kernel/mm/transparent_hugepage/"
				    "enabled=never, nothp: vm.watermark_scale_factor=100", &err), 0);
	memset(&a, 0, sizeof(a));
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	if (vm_args_settings(&a, &cfg, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(a.kernel[0].settings.n, 2);
	assert_string_equal(a.kernel[0].settings.v[0].path, "/proc/sys/vm/swappiness");
	assert_string_equal(a.kernel[0].settings.v[0].value, "10");
	assert_non_null(strstr(a.kernel[0].settings.v[0].origin, "vm.settings_a ("));
	assert_string_equal(a.kernel[0].settings.v[1].name, "/sys/kernel/mm/transparent_hugepage/enabled");
	assert_string_equal(a.kernel[0].settings.v[1].value, "always");
	assert_int_equal(a.kernel[1].settings.n, 1);
	assert_string_equal(a.kernel[1].settings.v[0].value, "60");
	assert_int_equal(a.kernel[2].settings.n, 2);
	assert_string_equal(a.kernel[2].settings.v[0].value, "never");
	assert_string_equal(a.kernel[2].settings.v[1].path, "/proc/sys/vm/watermark_scale_factor");
	assert_non_null(strstr(a.kernel[2].settings.v[1].origin, "vm.kernel_settings ("));
	assert_int_equal(a.kernel[3].settings.n, 0);
	vm_args_release(&a);
	config_release(&cfg);

	static const struct { const char *set, *msg; } bad[] = {
		{ "vm.settings_b=kernel.panic=1", "vm.settings_b (" },
		{ "vm.settings_b=vm.swappiness", "'vm.swappiness' is not KNOB=VALUE" },
		{ "vm.settings_b=vm.swappiness=1, /proc/sys/vm/swappiness=2",
		  "is set twice (one value for one knob of a guest)" },
		{ "vm.settings_b=vm.swappiness=keep", "vm.swappiness = keep: keep is [settings]' word" },
		{ "vm.settings_b=vm.swappiness=a\tb", "vm.settings_b (" },
		{ "vm.kernel_settings=vm.swappiness=1", "is not NAME:KNOB=VALUE" },
		{ "vm.kernel_settings=b:vm.swappiness=1", "'b' is no kernel of vm.kernels" },
		{ "vm.kernel_settings=c:vm.nosuch..x=1", "vm.kernel_settings (--set vm.kernel_settings=" },
		{ "settings.vm.swappiness=30", "vm.swappiness is also set by the suite's [settings] (--set" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(config_init(&cfg, NULL, false), 0);
		assert_int_equal(config_set(&cfg, "vm.kernel_a=/k/img", &err), 0);
		assert_int_equal(config_set(&cfg, "vm.kernel_b=/k/img", &err), 0);
		assert_int_equal(config_set(&cfg, "vm.kernels=c=/k/img", &err), 0);
		assert_int_equal(config_set(&cfg, "vm.settings_a=vm.swappiness=10", &err), 0);
		strbuf_reset(&err);
		if (config_set_from(&cfg, bad[i].set, NULL, &err))
			fail_msg("%s: %s", bad[i].set, err.buf);
		memset(&a, 0, sizeof(a));
		assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
		if (!vm_args_settings(&a, &cfg, &err) || !strstr(err.buf, bad[i].msg))
			fail_msg("%s: got '%s'", bad[i].set, err.buf);
		vm_args_release(&a);
		config_release(&cfg);
	}
	/* settings_b without kernel_b */
	assert_int_equal(config_init(&cfg, NULL, false), 0);
	assert_int_equal(config_set(&cfg, "vm.kernel_a=/k/img", &err), 0);
	assert_int_equal(config_set(&cfg, "vm.settings_b=vm.swappiness=10", &err), 0);
	memset(&a, 0, sizeof(a));
	strbuf_reset(&err);
	assert_int_equal(vm_args_from_config(&a, config_section(&cfg, "vm"), &err), 0);
	assert_int_equal(vm_args_settings(&a, &cfg, &err), -1);
	assert_non_null(strstr(err.buf, "--settings-b without --kernel-b"));
	vm_args_release(&a);
	config_release(&cfg);
	strbuf_release(&err);
}

/* The guest's side of vm.qemu_memory with a balloon: the reply of qom-get
 * guest-stats read (nothing reported yet: null), the arrays beside rss_kb. */
static void test_guest_memory(void **state)
{
	long long fr, av;
	json_object *m, *v, *r;
	(void)state;

	r = json_tokener_parse("{\"stats\": {\"stat-free-memory\": 1048576000, \"stat-available-memory\": "
			       "2097152000, \"stat-total-memory\": 4000000000}, \"last-update\": 1700000000}");
	vm_balloon_guest_stats(r, &fr, &av);
	assert_int_equal(fr, 1024000);
	assert_int_equal(av, 2048000);
	json_object_put(r);
	/* before the driver reported: last-update 0, every stat all ones */
	r = json_tokener_parse("{\"stats\": {\"stat-free-memory\": 18446744073709551615}, \"last-update\": 0}");
	vm_balloon_guest_stats(r, &fr, &av);
	assert_int_equal(fr, -1);
	assert_int_equal(av, -1);
	json_object_put(r);
	/* reported, but one stat the guest does not give */
	r = json_tokener_parse("{\"stats\": {\"stat-free-memory\": 4096, \"stat-available-memory\": "
			       "18446744073709551615}, \"last-update\": 5}");
	vm_balloon_guest_stats(r, &fr, &av);
	assert_int_equal(fr, 4);
	assert_int_equal(av, -1);
	json_object_put(r);
	vm_balloon_guest_stats(NULL, &fr, &av);
	assert_int_equal(fr, -1);

	m = vm_qemu_memory_new(2);
	vm_qemu_memory_add(m, 1000, 1000);
	vm_qemu_memory_add_guest(m, -1, -1, -1);
	vm_qemu_memory_add(m, 2000, 2000);
	vm_qemu_memory_add_guest(m, 2097152, 1500000, 1700000);
	assert_true(json_object_object_get_ex(m, "guest_free_kb", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_null(json_object_array_get_idx(v, 0));
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(v, 1)), 1500000);
	assert_true(json_object_object_get_ex(m, "balloon_actual_kb", &v));
	assert_int_equal(json_object_get_int64(json_object_array_get_idx(v, 1)), 2097152);
	assert_true(json_object_object_get_ex(m, "guest_available_kb", &v));
	assert_int_equal(json_object_array_length(v), 2);
	json_object_put(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kimage_parse),
		cmocka_unit_test(test_moddep_order),
		cmocka_unit_test(test_plan_missing),
		cmocka_unit_test(test_qemu_argv),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_init_script),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_rounds_verdict),
		cmocka_unit_test(test_boot_options),
		cmocka_unit_test(test_host_side),
		cmocka_unit_test(test_guest_settings),
		cmocka_unit_test(test_guest_memory),
	};
	return cmocka_run_group_tests(tests, unit_tmp_setup, unit_tmp_teardown);
}
