// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Does KVM really run guest code here? /dev/kvm can exist and still hang a
 * guest (nested virtualization on this kind of machine: qemu stops at
 * "Booting from ROM"), so opening the device proves nothing. The probe builds
 * the smallest possible guest through the KVM ioctls -- one page of real-mode
 * code that counts ECX down from 2^24, then does `out 0x10, al; hlt` -- and
 * runs it in a forked child that the parent kills when it has not reported
 * back within a bound. Only a child that saw the OUT and then the HLT counts
 * as "KVM works".
 *
 * Why the loop: on this machine a guest without it passes, yet the vCPU
 * executes about a million instructions per second (measured: 2^20 loop
 * iterations took 0.9 s), far slower than TCG, which is why a real kernel
 * seems to hang. With hardware-assisted virtualization the 2^24 iterations
 * take a few tens of milliseconds.
 */
#include "vm/kvm_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/util.h"

#define PROBE_PORT 0x10
#define PROBE_BYTE 0x42
#define GUEST_ADDR 0x1000

/* Exit codes of the probe child, mapped to reasons in the parent. */
enum { P_OK = 0, P_OPEN = 10, P_API, P_VM, P_MEM, P_VCPU, P_RUN, P_NOT_IO, P_NOT_HLT };

static int probe_child(const char *dev)
{
	static const unsigned char code[] = {
		0x66, 0xb9, 0x00, 0x00, 0x00, 0x01,  /* mov ecx, 0x01000000 */
		0x66, 0x49,              /* 1: dec ecx */
		0x75, 0xfc,              /* jnz 1b */
		0xb0, PROBE_BYTE,        /* mov al, 0x42 */
		0xe6, PROBE_PORT,        /* out 0x10, al */
		0xf4,                    /* hlt */
	};
	struct kvm_userspace_memory_region region;
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	struct kvm_run *run;
	unsigned char *mem;
	int kvm, vm, vcpu, mmap_size;

	kvm = open(dev, O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return P_OPEN;
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION)
		return P_API;
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return P_VM;
	mem = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return P_MEM;
	memcpy(mem, code, sizeof(code));
	memset(&region, 0, sizeof(region));
	region.guest_phys_addr = GUEST_ADDR;
	region.memory_size = 0x1000;
	region.userspace_addr = (unsigned long)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
		return P_MEM;
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return P_VCPU;
	mmap_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (mmap_size <= 0)
		return P_VCPU;
	run = mmap(NULL, (size_t)mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return P_VCPU;
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		return P_VCPU;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0)
		return P_VCPU;
	memset(&regs, 0, sizeof(regs));
	regs.rip = GUEST_ADDR;
	regs.rflags = 0x2;
	if (ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
		return P_VCPU;

	if (ioctl(vcpu, KVM_RUN, 0) < 0)
		return P_RUN;
	if (run->exit_reason != KVM_EXIT_IO || run->io.direction != KVM_EXIT_IO_OUT ||
	    run->io.port != PROBE_PORT ||
	    ((unsigned char *)run)[run->io.data_offset] != PROBE_BYTE)
		return P_NOT_IO;
	if (ioctl(vcpu, KVM_RUN, 0) < 0)
		return P_RUN;
	if (run->exit_reason != KVM_EXIT_HLT)
		return P_NOT_HLT;
	return P_OK;
}

static const char *probe_reason(int code)
{
	switch (code) {
	case P_OPEN: return "cannot open it";
	case P_API: return "unexpected KVM API version";
	case P_VM: return "KVM_CREATE_VM failed";
	case P_MEM: return "cannot set up guest memory";
	case P_VCPU: return "cannot set up a vCPU";
	case P_RUN: return "KVM_RUN failed";
	case P_NOT_IO: return "the test guest did not reach its OUT instruction";
	case P_NOT_HLT: return "the test guest did not halt";
	default: return "the probe process failed";
	}
}

int kvm_probe(const char *dev, double timeout, struct strbuf *why)
{
	double end;
	pid_t pid;
	int status;

	if (access(dev, R_OK | W_OK) < 0) {
		strbuf_addf(why, "%s: %s", dev, strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		strbuf_addf(why, "cannot fork the KVM probe: %s", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(probe_child(dev));
	}
	end = now_monotonic() + timeout;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			strbuf_addf(why, "cannot wait for the KVM probe: %s", strerror(errno));
			return 1;
		}
		if (now_monotonic() > end || lb_stop_requested()) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			strbuf_addf(why, "a test guest on %s did not finish 16M loop iterations within %.0f s "
				    "(virtualization is emulated or nested too slowly)", dev, timeout);
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == P_OK)
		return 0;
	if (WIFEXITED(status))
		strbuf_addf(why, "%s: %s", dev, probe_reason(WEXITSTATUS(status)));
	else
		strbuf_addf(why, "%s: the probe died with signal %d", dev, WTERMSIG(status));
	return 1;
}
