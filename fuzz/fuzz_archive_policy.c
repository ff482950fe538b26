// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tar extraction policy (net/archive_extract.c): entry names, symlink
 * targets and modes. Input: 4 bytes of mode, then NAME NUL TARGET. Checks
 * the promises: an accepted name never leaves the folder, an accepted link
 * never resolves above it, a mode never keeps setuid/setgid/sticky/o+w.
 */
#include <string.h>
#include <sys/stat.h>
#include "fuzz/fuzz.h"
#include "net/archive_extract.h"

/* where path ends up, counted in folders below the start; -1 once above it */
static int walk(int depth, const char *path)
{
	const char *p = path;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return -1;
		} else if (l && !(l == 1 && p[0] == '.')) {
			depth++;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return depth;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mode_t mode = 0, safe;
	char *name, *target;

	if (size < 4)
		return 0;
	for (int i = 0; i < 4; i++)
		mode = (mode << 8) | data[i];
	safe = archive_safe_perm(mode);
	FUZZ_CHECK(!(safe & (S_ISUID | S_ISGID | S_ISVTX | S_IWOTH)));
	FUZZ_CHECK(!(safe & ~(mode_t)07777));
	name = fuzz_cstr(data + 4, size - 4);
	target = name + strlen(name) < name + (size - 4) ? name + strlen(name) + 1 : NULL;
	if (!archive_check_name(name)) {
		FUZZ_CHECK(name[0] != '/');
		FUZZ_CHECK(walk(0, name) >= 0);
		if (target && !archive_check_symlink(name, target)) {
			/* resolve the target from the link's folder */
			char *dir = strdup(name), *slash = strrchr(dir, '/');
			int d;

			if (!dir)
				abort();
			if (slash)
				*slash = '\0';
			else
				dir[0] = '\0';
			d = walk(0, dir);
			FUZZ_CHECK(target[0] != '/');
			FUZZ_CHECK(d >= 0 && walk(d, target) >= 0);
			free(dir);
		}
	}
	free(name);
	return 0;
}
