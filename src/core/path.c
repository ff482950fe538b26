// SPDX-License-Identifier: GPL-2.0-or-later
/* The PATH search (path.h). */
#include "core/path.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/util.h"

/* access(X_OK) alone would accept a folder */
static bool is_executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");

	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return is_executable_file(name) ? xstrdup(name) : NULL;
	if (!path || !*path)
		path = FALLBACK_PATH;
	for (const char *p = path; ; ) {
		const char *e = strchrnul(p, ':');

		if (e > p) {
			char *cand = xasprintf("%.*s/%s", (int)(e - p), p, name);

			if (is_executable_file(cand))
				return cand;
			free(cand);
		}
		if (!*e)
			return NULL;
		p = e + 1;
	}
}

bool program_in_path(const char *name)
{
	char *p = find_in_path(name);

	free(p);
	return p != NULL;
}

char *self_dir(void)
{
	char self[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(slash == self ? "/" : self);
}

char *shipped_path(const char *rel)
{
	char *dir = self_dir(), *p = dir ? xasprintf("%s/%s", dir, rel) : NULL;

	free(dir);
	if (p && path_exists(p))
		return p;
	free(p);
	p = xasprintf("%s/%s", LRUBENCH_DATADIR, rel);
	if (path_exists(p))
		return p;
	free(p);
	return NULL;
}
