// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reference for bench/thpscale-overhead: the least code that measures a
 * THP fault. Maps mapsize / 2 (the size of thpscale's second region),
 * MADV_HUGEPAGE, then write-faults and fills it 2 MB at a time, timing each
 * step with CLOCK_MONOTONIC. Which steps got a huge page is read afterwards,
 * outside the timing, from /proc/self/pagemap + /proc/kpageflags (KPF_THP;
 * needs root) -- a different method from lrubench's mincore() check.
 *
 * Before the timed pass it touches and frees mapsize bytes once, as
 * lrubench's warm-up iteration and first region do: on a VM that reports
 * free pages to the host, memory not touched lately costs host faults, which
 * would otherwise be measured instead of the guest kernel.
 *
 * Usage: thp-fault-loop MAPSIZE_BYTES [FILE]
 * Prints: faults=N huge=H mean_huge_us=X mean_all_us=Y; with FILE, also
 * appends every huge fault's latency (us) to FILE, one a line.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define HPAGE (2UL << 20)
#define KPF_THP 22

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int is_thp(int pagemap, int kpageflags, const void *addr)
{
	uint64_t ent, flags;
	long ps = sysconf(_SC_PAGESIZE);

	if (pread(pagemap, &ent, 8, (off_t)((uintptr_t)addr / (uintptr_t)ps) * 8) != 8)
		return -1;
	if (!(ent >> 63))
		return 0;
	if (pread(kpageflags, &flags, 8, (off_t)(ent & ((1ull << 55) - 1)) * 8) != 8)
		return -1;
	return (flags >> KPF_THP) & 1;
}

int main(int argc, char **argv)
{
	unsigned long long mapsize;
	size_t nfaults, huge = 0;
	double sum_all = 0, sum_huge = 0, *lat;
	char *map, *base;
	int pm, kf;
	FILE *out = NULL;

	if (argc < 2 || argc > 3 || !(mapsize = strtoull(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: thp-fault-loop MAPSIZE_BYTES [FILE]\n");
		return 2;
	}
	nfaults = mapsize / (2 * HPAGE);
	map = mmap(NULL, mapsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("thp-fault-loop: mmap");
		return 1;
	}
	memset(map, 1, mapsize);
	munmap(map, mapsize);

	lat = calloc(nfaults ? nfaults : 1, sizeof(*lat));
	map = mmap(NULL, nfaults * HPAGE + HPAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!lat || map == MAP_FAILED || !nfaults) {
		perror("thp-fault-loop: mmap");
		return 1;
	}
	base = (char *)(((uintptr_t)map + HPAGE - 1) & ~(HPAGE - 1));
	if (madvise(map, nfaults * HPAGE + HPAGE, MADV_HUGEPAGE))
		perror("thp-fault-loop: madvise");
	for (size_t i = 0; i < nfaults; i++) {
		char *p = base + i * HPAGE;
		uint64_t a = now_ns();

		*(volatile char *)p = 1;
		memset(p, 2, HPAGE);
		lat[i] = (double)(now_ns() - a) / 1e3;
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0) {
		perror("thp-fault-loop: pagemap/kpageflags (needs root)");
		return 1;
	}
	if (argc == 3 && !(out = fopen(argv[2], "a"))) {
		perror(argv[2]);
		return 1;
	}
	for (size_t i = 0; i < nfaults; i++) {
		int h = is_thp(pm, kf, base + i * HPAGE + 64 * 4096);
		sum_all += lat[i];
		if (h == 1) {
			huge++;
			sum_huge += lat[i];
			if (out)
				fprintf(out, "%.3f\n", lat[i]);
		}
	}
	if (out)
		fclose(out);
	printf("faults=%zu huge=%zu mean_huge_us=%.3f mean_all_us=%.3f\n", nfaults, huge,
	       huge ? sum_huge / (double)huge : 0.0, sum_all / (double)nfaults);
	return 0;
}
