// SPDX-License-Identifier: GPL-2.0-or-later
/* Swap on a zram device lrubench creates and removes (zram.h). */
#include "workloads/colocate/zram.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"
#include "core/path.h"

/* open/write/close, no stdio: usable from the signal handler */
static int write_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = write(fd, val, strlen(val)) < 0 ? -1 : 0;
	close(fd);
	return r;
}

static void undo_swap(void *arg)
{
	struct zram_swap *z = arg;

	if (swapoff(z->dev) && errno != EINVAL)
		cleanup_msg("cannot swapoff ", z->dev);
}

static void undo_device(void *arg)
{
	struct zram_swap *z = arg;

	/* reset frees the compressed pages; hot_remove then takes device N away */
	if (write_sysfs(z->reset, "1"))
		cleanup_msg("cannot reset ", z->sysdir);
	if (write_sysfs(ZRAM_CONTROL "/hot_remove", z->num))
		cleanup_msg("cannot hot_remove ", z->dev);
	if (z->marker[0])
		unlink(z->marker);
}

int zram_probe(struct strbuf *why)
{
	if (access(ZRAM_CONTROL "/hot_add", R_OK)) {
		strbuf_addstr(why, "no zram in this kernel (" ZRAM_CONTROL "/hot_add is missing: "
			      "CONFIG_ZRAM, or load the module with modprobe zram; lrubench loads no "
			      "module)");
		return -1;
	}
	if (access("/proc/swaps", R_OK)) {
		strbuf_addstr(why, "this kernel has no swap (no /proc/swaps: CONFIG_SWAP)");
		return -1;
	}
	if (!program_in_path("mkswap")) {
		strbuf_addstr(why, "mkswap not found: install the Debian package util-linux");
		return -1;
	}
	return 0;
}

/* /dev/zramN must be the block device sysfs says zramN is (devtmpfs makes
 * it as hot_add returns): the device we made, not a stale node. */
static int check_node(const struct zram_swap *z)
{
	char path[96], *text;
	unsigned maj, min;
	struct stat st;

	snprintf(path, sizeof(path), "%s/dev", z->sysdir);
	text = read_file_str(path, NULL);
	if (!text || sscanf(text, "%u:%u", &maj, &min) != 2) {
		free(text);
		return error("cannot read %s", path);
	}
	free(text);
	if (stat(z->dev, &st) || !S_ISBLK(st.st_mode) || major(st.st_rdev) != maj ||
	    minor(st.st_rdev) != min)
		return error("%s is not the block device %u:%u of %s (is devtmpfs mounted on /dev?)",
			     z->dev, maj, min, z->sysdir);
	return 0;
}

/* The marker of a device that exists: written before the device is sized,
 * so a SIGKILL at any later point leaves a marker to find. */
static int write_marker(struct zram_swap *z, const char *workdir, uint64_t size)
{
	char text[32];

	if (mkdir_p(workdir, 0755) ||
	    (size_t)snprintf(z->marker, sizeof(z->marker), "%s/lrubench-zram-%d.%d", workdir,
			     (int)getpid(), z->index) >= sizeof(z->marker)) {
		z->marker[0] = '\0';
		return error("cannot make a marker for %s in %s", z->dev, workdir);
	}
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)size);
	if (write_file_atomic(z->marker, text, strlen(text))) {
		z->marker[0] = '\0';
		return -1;
	}
	return 0;
}

void zram_reap_stale(const char *workdir)
{
	DIR *d = opendir(workdir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct zram_swap z = { .index = -1 };
		char *text, *have;
		int pid, n, len = 0;

		if (sscanf(de->d_name, "lrubench-zram-%d.%d%n", &pid, &n, &len) != 2 ||
		    de->d_name[len] || pid <= 0 || n < 0 || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		z.index = n;
		snprintf(z.num, sizeof(z.num), "%d", n);
		snprintf(z.dev, sizeof(z.dev), "/dev/zram%d", n);
		snprintf(z.sysdir, sizeof(z.sysdir), "/sys/block/zram%d", n);
		snprintf(z.reset, sizeof(z.reset), "%s/reset", z.sysdir);
		snprintf(z.marker, sizeof(z.marker), "%s/%s", workdir, de->d_name);
		text = read_file_str(z.marker, NULL);
		{
			char path[96];

			snprintf(path, sizeof(path), "%s/disksize", z.sysdir);
			have = read_file_str(path, NULL);
		}
		/* the same size: the device that run made, not a later one with its number */
		if (text && have && strtoull(text, NULL, 10) == strtoull(have, NULL, 10)) {
			warning("removing %s, the zram swap of run %d, which was killed", z.dev, pid);
			undo_swap(&z);
			undo_device(&z);   /* and the marker */
		} else {
			unlink(z.marker);   /* the device went some other way */
		}
		free(text);
		free(have);
	}
	closedir(d);
}

int zram_swap_create(struct zram_swap *z, uint64_t size, const char *workdir, const char *log)
{
	char *text = read_file_str(ZRAM_CONTROL "/hot_add", NULL), val[32], path[96];
	const char *argv[] = { "mkswap", z->dev, NULL };
	struct child c = { .argv = argv, .out_path = log, .name = "mkswap" };
	unsigned long long n;
	int code;

	z->index = -1;
	z->marker[0] = '\0';
	z->device_cleanup = z->swap_cleanup = 0;
	if (!text)
		return error_errno("cannot add a zram device (" ZRAM_CONTROL "/hot_add)");
	text[strcspn(text, "\n")] = '\0';
	if (parse_ull(text, &n) || n > 1000000) {
		error("unexpected answer from " ZRAM_CONTROL "/hot_add: '%s'", text);
		free(text);
		return -1;
	}
	free(text);
	z->index = (int)n;
	/* every path the undo needs, made now: the undo may run in a signal handler */
	snprintf(z->num, sizeof(z->num), "%d", z->index);
	snprintf(z->dev, sizeof(z->dev), "/dev/zram%d", z->index);
	snprintf(z->sysdir, sizeof(z->sysdir), "/sys/block/zram%d", z->index);
	snprintf(z->reset, sizeof(z->reset), "%s/reset", z->sysdir);
	z->device_cleanup = cleanup_push("zram device", undo_device, z);
	if (z->device_cleanup < 0) {
		undo_device(z);
		z->device_cleanup = 0;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/disksize", z->sysdir);
	snprintf(val, sizeof(val), "%llu", (unsigned long long)size);
	if (write_marker(z, workdir, size) || write_str_file(path, val) || check_node(z))
		goto fail;
	code = child_run(&c, 120);
	if (code) {
		if (code > 0)
			child_failed(code, log, "mkswap %s", z->dev);
		goto fail;
	}
	if (swapon(z->dev, SWAP_FLAG_PREFER | ((32767 << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK))) {
		error_errno("swapon %s", z->dev);
		goto fail;
	}
	z->swap_cleanup = cleanup_push("zram swap", undo_swap, z);
	if (z->swap_cleanup < 0) {
		z->swap_cleanup = 0;
		undo_swap(z);
		goto fail;
	}
	return 0;
fail:
	zram_swap_destroy(z);
	return -1;
}

void zram_swap_destroy(struct zram_swap *z)
{
	if (z->swap_cleanup > 0)
		cleanup_pop(z->swap_cleanup, true);
	z->swap_cleanup = 0;
	if (z->device_cleanup > 0)
		cleanup_pop(z->device_cleanup, true);
	z->device_cleanup = 0;
	z->index = -1;
}
