// SPDX-License-Identifier: GPL-2.0-or-later
/* The knob service (knobs.h): every sysctl and sysfs value lrubench changes. */
#include "core/knobs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"

#define MARKER_PREFIX "lrubench-knob-"
#define MARKER_HEADER "lrubench knob marker 1"
#define MARKER_MAX 4096

/* The trees a knob may be in (knobs.h says why these). A prefix ending in
 * '/' is a folder; /proc/sys/kernel/numa_balancing names a family of files. */
static const char *const allowed[] = {
	"/proc/sys/vm/",
	"/proc/sys/kernel/numa_balancing",
	"/sys/kernel/mm/",
	"/sys/module/zswap/parameters/",
};
#define ALLOWED_TEXT "/proc/sys/vm/*, /proc/sys/kernel/numa_balancing*, /sys/kernel/mm/*, " \
		     "/sys/module/zswap/parameters/*"

static bool path_char_ok(char c)
{
	return isalnum((unsigned char)c) || c == '/' || c == '_' || c == '-' || c == '.' || c == '+' ||
	       c == ':';
}

int knob_resolve(const char *name, char *path, size_t len, struct strbuf *err)
{
	char buf[KNOB_NAME_MAX];
	bool ok = false;

	if (!*name) {
		strbuf_addstr(err, "an empty knob name");
		return -1;
	}
	if (name[0] == '/') {
		if (strlen(name) >= sizeof(buf)) {
			strbuf_addf(err, "'%.40s...': a knob path of at most %d characters", name,
				    KNOB_NAME_MAX - 1);
			return -1;
		}
		snprintf(buf, sizeof(buf), "%s", name);
	} else {
		/* a sysctl name: vm.swappiness is /proc/sys/vm/swappiness */
		size_t n = strlen(name);

		if (n + strlen("/proc/sys/") >= sizeof(buf)) {
			strbuf_addf(err, "'%.40s...': a sysctl name of at most %d characters", name,
				    KNOB_NAME_MAX - 11);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (!(isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '.' ||
			      name[i] == '-')) {
				strbuf_addf(err, "'%s' is neither a sysctl name (vm.swappiness) nor an "
					    "absolute path (/sys/kernel/mm/...)", name);
				return -1;
			}
		if (name[0] == '.' || name[n - 1] == '.' || strstr(name, "..")) {
			strbuf_addf(err, "'%s' is not a sysctl name (vm.swappiness)", name);
			return -1;
		}
		snprintf(buf, sizeof(buf), "/proc/sys/%s", name);
		for (char *p = buf + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
	}
	for (const char *p = buf; *p; p++)
		if (!path_char_ok(*p)) {
			strbuf_addf(err, "'%s': a knob path has letters, digits and _ - . + : only",
				    name);
			return -1;
		}
	if (strstr(buf, "//") || strstr(buf, "/./") || strstr(buf, "/../") ||
	    buf[strlen(buf) - 1] == '/' || buf[strlen(buf) - 1] == '.') {
		strbuf_addf(err, "'%s': a knob path is a file's plain path (no //, . or .., no "
			    "trailing /)", name);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(allowed) && !ok; i++)
		ok = !strncmp(buf, allowed[i], strlen(allowed[i])) &&
		     (buf[strlen(allowed[i])] || allowed[i][strlen(allowed[i]) - 1] != '/');
	if (!ok) {
		strbuf_addf(err, "'%s'%s%s%s is outside the trees lrubench changes (" ALLOWED_TEXT
			    "; see lrubench-settings(7))", name, strcmp(name, buf) ? " (" : "",
			    strcmp(name, buf) ? buf : "", strcmp(name, buf) ? ")" : "");
		return -1;
	}
	if (strlen(buf) >= len) {
		strbuf_addf(err, "'%s': path too long", name);
		return -1;
	}
	snprintf(path, len, "%s", buf);
	return 0;
}

void knob_file(const char *path, char *file, size_t len)
{
	const char *sys = getenv("LRUBENCH_SYSFS_ROOT"), *proc = getenv("LRUBENCH_PROCSYS_ROOT");

	if (!strncmp(path, "/proc/sys/", 10) && proc && *proc)
		snprintf(file, len, "%s%s", proc, path + strlen("/proc/sys"));
	else if (!strncmp(path, "/sys/", 5) && sys && *sys)
		snprintf(file, len, "%s%s", sys, path + strlen("/sys"));
	else
		snprintf(file, len, "%s", path);
}

int knob_check(const char *path, struct strbuf *err)
{
	char file[PATH_MAX], real[PATH_MAX];
	struct stat st;

	knob_file(path, file, sizeof(file));
	if (lstat(file, &st)) {
		if (errno == ENOENT || errno == ENOTDIR) {
			strbuf_addf(err, "%s does not exist on this kernel", path);
			return LB_EXIT_UNSUPPORTED;
		}
		strbuf_addf(err, "cannot look at %s: %s", path, strerror(errno));
		return LB_EXIT_UNSUPPORTED;
	}
	/* a link in the path leading out of the tree it was checked in */
	if (!realpath(file, real) || strcmp(real, file)) {
		strbuf_addf(err, "%s is reached through a symbolic link (to %s): name the file itself",
			    path, realpath(file, real) ? real : "?");
		return LB_EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s is not a setting but a %s", path,
			    S_ISDIR(st.st_mode) ? "folder" : "special file");
		return LB_EXIT_USAGE;
	}
	if (!(st.st_mode & 0444)) {
		strbuf_addf(err, "%s cannot be read: it is a trigger, not a setting lrubench can "
			    "restore", path);
		return LB_EXIT_USAGE;
	}
	if (!(st.st_mode & 0222)) {
		strbuf_addf(err, "%s is read-only: not a setting", path);
		return LB_EXIT_USAGE;
	}
	return LB_EXIT_OK;
}

/* The [selected] word, or the text with white space runs made one space. */
static void normalize(const char *text, char *out, size_t len)
{
	const char *lb = strchr(text, '['), *rb = lb ? strchr(lb, ']') : NULL;
	size_t o = 0;

	if (lb && rb && rb > lb + 1 && !memchr(lb + 1, ' ', (size_t)(rb - lb - 1))) {
		size_t n = (size_t)(rb - lb - 1);

		if (n >= len)
			n = len - 1;
		memcpy(out, lb + 1, n);
		out[n] = '\0';
		return;
	}
	for (const char *p = text; *p && o + 1 < len; p++) {
		if (isspace((unsigned char)*p)) {
			if (o && out[o - 1] != ' ')
				out[o++] = ' ';
			continue;
		}
		out[o++] = *p;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

int knob_read(const char *path, char *out, size_t len, struct strbuf *err)
{
	char file[PATH_MAX], *text;
	size_t n;

	knob_file(path, file, sizeof(file));
	text = read_regular_file(file, 65536, 0, &n, err);
	if (!text)
		return -1;
	normalize(text, out, len);
	free(text);
	return 0;
}

static int truth(const char *s)
{
	static const char *const yes[] = { "y", "Y", "yes", "on", "true", "1" };
	static const char *const no[] = { "n", "N", "no", "off", "false", "0" };
	char *end;
	long long v;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcmp(s, no[i]))
			return 0;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (*s && !*end && !errno)
		return v != 0;
	return -1;
}

static bool is_word(const char *s)
{
	return truth(s) >= 0 && !isdigit((unsigned char)s[0]);
}

bool knob_value_matches(const char *want, const char *got)
{
	char a[KNOB_VALUE_MAX], b[KNOB_VALUE_MAX], *ea, *eb;
	long long x, y;

	normalize(want, a, sizeof(a));
	normalize(got, b, sizeof(b));
	if (!strcmp(a, b))
		return true;
	errno = 0;
	x = strtoll(a, &ea, 0);
	y = strtoll(b, &eb, 0);
	if (*a && *b && !*ea && !*eb && !errno)
		return x == y;
	/* a y/n word on one side: the same truth ("y" reads back "0x0007") */
	if ((is_word(a) || is_word(b)) && truth(a) >= 0 && truth(b) >= 0)
		return truth(a) == truth(b);
	return false;
}

int knob_value_check(const char *value, struct strbuf *err)
{
	if (!*value) {
		strbuf_addstr(err, "an empty value (keep: leave the knob as it is)");
		return -1;
	}
	if (strlen(value) >= KNOB_VALUE_MAX) {
		strbuf_addf(err, "a value of at most %d characters", KNOB_VALUE_MAX - 1);
		return -1;
	}
	for (const char *p = value; *p; p++)
		if (!isprint((unsigned char)*p)) {
			strbuf_addstr(err, "a value of printable characters only");
			return -1;
		}
	return 0;
}

int knob_init(struct knob *k, const char *name, const char *value, const char *origin,
	      struct strbuf *err)
{
	memset(k, 0, sizeof(*k));
	if (strlen(name) >= sizeof(k->name)) {
		strbuf_addf(err, "'%.40s...': a knob name of at most %d characters", name,
			    KNOB_NAME_MAX - 1);
		return -1;
	}
	if (knob_resolve(name, k->path, sizeof(k->path), err) || knob_value_check(value, err))
		return -1;
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->value, sizeof(k->value), "%s", value);
	snprintf(k->origin, sizeof(k->origin), "%s", origin ? origin : "");
	knob_file(k->path, k->file, sizeof(k->file));
	return 0;
}

/* open/write/close only: the undo below uses it from a signal handler.
 * O_TRUNC is what a shell's `echo 10 >` does (procfs and sysfs ignore it; a
 * fake tree gets a clean value). 0 or -errno. */
static int write_value(const char *file, const char *val)
{
	size_t len = strlen(val);
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	ssize_t w;
	int e = 0;

	if (fd < 0)
		return -errno;
	w = write(fd, val, len);
	if (w < 0)
		e = -errno;
	else if ((size_t)w != len)
		e = -EIO;
	if (close(fd) && !e)
		e = -errno;
	return e;
}

/* The registry's undo: async-signal-safe (k's buffers, open/write/close/
 * unlink). The marker stays when the old value could not be written: the
 * next run tries again. */
static void undo_knob(void *arg)
{
	struct knob *k = arg;

	if (write_value(k->file, k->old)) {
		cleanup_msg("cannot restore ", k->what);
		return;
	}
	if (k->marker[0])
		unlink(k->marker);
	k->marker[0] = '\0';
}

/* The marker of a knob about to change: its path, the old value and the one
 * written, in a file of our own (0600, O_EXCL) in the private work folder. */
static int write_marker(struct knob *k, const char *workdir, struct strbuf *err)
{
	static unsigned seq;
	char text[MARKER_MAX];
	int fd, n;

	if ((size_t)snprintf(k->marker, sizeof(k->marker), "%s/" MARKER_PREFIX "%d.%u", workdir,
			     (int)getpid(), seq++) >= sizeof(k->marker)) {
		k->marker[0] = '\0';
		strbuf_addf(err, "cannot make a marker for %s in %s: path too long", k->name, workdir);
		return -1;
	}
	n = snprintf(text, sizeof(text), MARKER_HEADER "\n%s\n%s\n%s\n", k->path, k->old, k->value);
	fd = open(k->marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, (size_t)n) != n || fsync(fd)) {
		strbuf_addf(err, "cannot write the marker %s: %s", k->marker, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(k->marker);
		}
		k->marker[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

int knob_apply(struct knob *k, const char *workdir, struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	int w;

	k->applied = false;
	if (k->id > 0)
		knob_restore(k);
	if (knob_read(k->path, k->old, sizeof(k->old), err))
		return LB_EXIT_FAIL;
	if (knob_value_matches(k->value, k->old)) {
		snprintf(k->now, sizeof(k->now), "%s", k->old);
		k->applied = true;
		return LB_EXIT_OK;
	}
	if (mkdir_private(workdir, 0755)) {
		strbuf_addf(err, "%s: no private work folder %s for its marker", k->name, workdir);
		return LB_EXIT_FAIL;
	}
	if (write_marker(k, workdir, err))
		return LB_EXIT_FAIL;
	snprintf(k->what, sizeof(k->what), "%s (restore '%s')", k->name, k->old);
	/* registered before the write: a signal in between writes back a value
	 * that is still current, which is harmless */
	k->id = cleanup_push(k->what, undo_knob, k);
	if (k->id < 0) {
		k->id = 0;
		unlink(k->marker);
		k->marker[0] = '\0';
		strbuf_addf(err, "%s: the cleanup registry is full", k->name);
		return LB_EXIT_FAIL;
	}
	w = write_value(k->file, k->value);
	if (w) {
		knob_restore(k);
		strbuf_addf(err, "%s = %s: the kernel refuses it (%s)", k->name, k->value, strerror(-w));
		return w == -EINVAL || w == -ERANGE || w == -EOVERFLOW || w == -EBUSY ?
			LB_EXIT_USAGE : w == -EACCES || w == -EPERM || w == -EROFS ?
			LB_EXIT_UNSUPPORTED : LB_EXIT_FAIL;
	}
	if (knob_read(k->path, k->now, sizeof(k->now), &e) || !knob_value_matches(k->value, k->now)) {
		bool unread = e.len > 0;

		knob_restore(k);
		if (unread)
			strbuf_addf(err, "%s: %s", k->name, strbuf_str(&e));
		else
			strbuf_addf(err, "%s = %s: the kernel did not take it (it reads back '%s')",
				    k->name, k->value, k->now);
		strbuf_release(&e);
		return unread ? LB_EXIT_FAIL : LB_EXIT_USAGE;
	}
	strbuf_release(&e);
	k->applied = true;
	return LB_EXIT_OK;
}

void knob_restore(struct knob *k)
{
	if (k->id > 0) {
		int id = k->id;

		k->id = 0;
		cleanup_pop(id, true);
	}
}

int knob_try(struct knob *k, const char *workdir, struct strbuf *err)
{
	int r = knob_apply(k, workdir, err);

	knob_restore(k);
	k->applied = false;
	k->now[0] = '\0';
	return r;
}

/* One dead run's marker: its knob put back when it holds what that run
 * wrote. 1 when put back, 0 otherwise; the marker goes unless the write
 * back failed. */
static int recover_one(const char *marker, int pid)
{
	struct strbuf err = STRBUF_INIT;
	char *text = read_regular_file(marker, MARKER_MAX, READ_NOFOLLOW, NULL, &err);
	char *line[4] = { NULL }, *save = NULL, path[KNOB_NAME_MAX], now[KNOB_VALUE_MAX], file[PATH_MAX];
	int put_back = 0, n = 0, w;

	if (text && strchr(text, '\n'))
		for (char *t = strtok_r(text, "\n", &save); t && n < 4; t = strtok_r(NULL, "\n", &save))
			line[n++] = t;
	if (!text || n != 4 || strcmp(line[0], MARKER_HEADER) ||
	    knob_resolve(line[1], path, sizeof(path), &err) || strcmp(path, line[1]) ||
	    knob_value_check(line[2], &err) || knob_value_check(line[3], &err)) {
		warning("removing %s, a knob marker of run %d that cannot be read%s%s", marker, pid,
			err.len ? ": " : "", strbuf_str(&err));
		goto done;
	}
	if (knob_read(path, now, sizeof(now), &err)) {
		warning("cannot put back %s of run %d, which was killed: %s", path, pid, strbuf_str(&err));
		goto done;
	}
	if (!knob_value_matches(line[3], now)) {
		warning("%s holds '%s', not the '%s' run %d (killed) wrote: left as it is", path, now,
			line[3], pid);
		goto done;
	}
	knob_file(path, file, sizeof(file));
	w = write_value(file, line[2]);
	if (w) {
		warning("cannot put %s back to '%s' (run %d was killed while it held '%s'): %s; the "
			"next run tries again", path, line[2], pid, line[3], strerror(-w));
		free(text);
		strbuf_release(&err);
		return 0;
	}
	warning("put %s back to '%s': run %d was killed while it held '%s'", path, line[2], pid,
		line[3]);
	put_back = 1;
done:
	unlink(marker);
	free(text);
	strbuf_release(&err);
	return put_back;
}

int knobs_recover(const char *workdir)
{
	DIR *d = opendir(workdir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned seq;
		int pid, len = 0;
		char *marker;

		if (sscanf(de->d_name, MARKER_PREFIX "%d.%u%n", &pid, &seq, &len) != 2 ||
		    de->d_name[len] || pid <= 0 || pid == (int)getpid() ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		marker = xasprintf("%s/%s", workdir, de->d_name);
		n += recover_one(marker, pid);
		free(marker);
	}
	closedir(d);
	return n;
}

const struct knob *knob_set_find(const struct knob_set *s, const char *path)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->v[i].path, path))
			return &s->v[i];
	return NULL;
}

json_object *knob_set_json(const struct knob_set *s)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < s->n; i++) {
		const struct knob *k = &s->v[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "path", json_object_new_string(k->path));
		json_object_object_add(e, "value", json_object_new_string(k->value));
		if (k->old[0])
			json_object_object_add(e, "before", json_object_new_string(k->old));
		if (k->applied)
			json_object_object_add(e, "during", json_object_new_string(k->now));
		if (k->origin[0])
			json_object_object_add(e, "origin", json_object_new_string(k->origin));
		json_object_object_add(o, k->name, e);
	}
	return o;
}

void knob_set_release(struct knob_set *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}
