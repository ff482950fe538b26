// SPDX-License-Identifier: GPL-2.0-or-later
/* Error reporting, strbuf, allocation, parsers and file helpers. */
#include "core/util.h"
#include "core/cleanup.h"
#include "core/escape.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int lb_quiet;
const char *lb_progname = "lrubench";

/* Every message is printed inert (core/escape.h): names from files,
 * archives and children's output never reach the terminal raw, in any
 * message, escaped by its caller or not (issue 30). */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];
	struct strbuf sb = STRBUF_INIT;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	strbuf_add_inert_message(&sb, msg);
	fflush(stdout);
	fprintf(stderr, "%s: %s%s\n", lb_progname, prefix, sb.buf);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	char msg[4096];
	int e = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return error("%s: %s", msg, strerror(e));
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, sb = STRBUF_INIT;
	va_list ap;

	if (lb_quiet)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	strbuf_add_inert_message(&sb, msg.buf);
	fputs(sb.buf, stdout);
	putchar('\n');
	fflush(stdout);
	strbuf_release(&msg);
	strbuf_release(&sb);
}

static void oom(size_t n)
{
	fprintf(stderr, "%s: fatal: out of memory allocating %zu bytes\n", lb_progname, n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		oom(nmemb * n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom(strlen(s));
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

/* ---- strbuf ---- */

void strbuf_init(struct strbuf *sb)
{
	sb->alloc = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->alloc);
	sb->buf[0] = '\0';
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (!sb->buf)
		strbuf_init(sb);
	if (sb->len + extra + 1 > sb->alloc) {
		while (sb->len + extra + 1 > sb->alloc)
			sb->alloc *= 2;
		sb->buf = xrealloc(sb->buf, sb->alloc);
	}
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void strbuf_reset(struct strbuf *sb)
{
	if (sb->buf) {
		sb->len = 0;
		sb->buf[0] = '\0';
	}
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n + 1 > sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p;

	if (!sb->buf)
		strbuf_init(sb);
	p = sb->buf;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* ---- parsers ---- */

int parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	return 0;
}

int parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case 'K': mult = 1ULL << 10; end++; break;
	case 'M': mult = 1ULL << 20; end++; break;
	case 'G': mult = 1ULL << 30; end++; break;
	case 'T': mult = 1ULL << 40; end++; break;
	default: return -1;
	}
	/* accept 64K, 64KB, 64KiB */
	if (mult > 1 && *end == 'i')
		end++;
	if (mult > 1 && toupper((unsigned char)*end) == 'B')
		end++;
	if (*end)
		return -1;
	if (v && mult > UINT64_MAX / v)
		return -1;
	*bytes = v * mult;
	return 0;
}

int parse_seconds(const char *s, double *secs)
{
	double v, mult = 1;
	char *end;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v))
		return -1;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		mult = 1;
	else if (!strcmp(end, "ms"))
		mult = 0.001;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		mult = 60;
	else if (!strcmp(end, "h"))
		mult = 3600;
	else
		return -1;
	*secs = v * mult;
	return 0;
}

/*
 * A list of integers: "1,2,4", ranges "1-8" (every integer) and doubling
 * ranges "1-32:x2" (1,2,4,...,32, then 32 itself if the doubling missed it).
 */
int parse_ull_list(const char *s, unsigned long long *v, size_t max, size_t *n)
{
	char *copy, *tok, *rest;
	int ret = 0;

	*n = 0;
	if (!s || !*s)
		return -1;
	copy = rest = xstrdup(s);
	/* strsep, not strtok: "1,,2" is an error, not "1,2" */
	while ((tok = strsep(&rest, ","))) {
		unsigned long long a, b, step = 0;
		char *dash, *colon;

		while (isspace((unsigned char)*tok))
			tok++;
		for (char *e = tok + strlen(tok); e > tok && isspace((unsigned char)e[-1]); )
			*--e = '\0';
		colon = strchr(tok, ':');
		if (colon) {
			*colon++ = '\0';
			if (*colon != 'x' || parse_ull(colon + 1, &step) || step < 2) {
				ret = -1;
				break;
			}
		}
		dash = strchr(tok, '-');
		if (dash) {
			*dash++ = '\0';
			if (parse_ull(tok, &a) || parse_ull(dash, &b) || a > b || (step && a == 0)) {
				ret = -1;
				break;
			}
		} else {
			if (parse_ull(tok, &a) || step) {
				ret = -1;
				break;
			}
			b = a;
		}
		for (unsigned long long x = a; x <= b; ) {
			if (*n >= max) {
				ret = -1;
				goto out;
			}
			v[(*n)++] = x;
			if (step) {
				if (x == b)
					break;
				x = x * step > b ? b : x * step;
			} else {
				x++;
			}
		}
	}
out:
	free(copy);
	return ret;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char suf[] = "KMGT";
	int i = -1;

	while (bytes && bytes % 1024 == 0 && i < 3) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, suf[i]);
}

/* ---- files ---- */

int open_regular_file(const char *path, unsigned flags, struct strbuf *err)
{
	return open_regular_file_at(AT_FDCWD, path, flags, err);
}

int open_regular_file_at(int dirfd, const char *path, unsigned flags, struct strbuf *err)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC, fd, e;
	const char *why = NULL;
	struct stat st;

	if (flags & READ_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	fd = openat(dirfd, path, oflags);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP && (flags & READ_NOFOLLOW))
			why = "it is a symbolic link (only regular files are read)";
		goto fail;
	}
	if (fstat(fd, &st)) {
		e = errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		why = S_ISDIR(st.st_mode) ? "it is a folder, not a file"
		    : S_ISFIFO(st.st_mode) ? "it is a FIFO (only regular files are read)"
		    : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "it is a device (only regular files are read)"
		    : "it is not a regular file";
		goto fail;
	}
	/* a regular file never blocks, but reads of it should not see EAGAIN either */
	if (fcntl(fd, F_SETFL, O_RDONLY)) {
		e = errno;
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	if (err)
		strbuf_addf(err, "cannot read %s: %s", path, why ? why : strerror(e));
	errno = e;
	return -1;
}

char *read_regular_file(const char *path, size_t max, unsigned flags, size_t *len,
			struct strbuf *err)
{
	return read_regular_file_at(AT_FDCWD, path, max, flags, len, err);
}

static void too_large(struct strbuf *err, const char *path, size_t max)
{
	char lim[32];

	format_size(max, lim, sizeof(lim));
	if (err)
		strbuf_addf(err, "cannot read %s: larger than %sB (the limit for this kind of file)",
			    path, lim);
}

char *read_regular_file_at(int dirfd, const char *path, size_t max, unsigned flags, size_t *len,
			   struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	ssize_t r;
	int fd = open_regular_file_at(dirfd, path, flags, err), e;

	if (fd < 0)
		return NULL;
	strbuf_init(&sb);
	/* a file whose size already says too large is refused unread (a sparse
	 * 2 GiB results file took seconds of reading, minutes under ASan) */
	{
		struct stat st;

		if (!fstat(fd, &st) && st.st_size > 0 && (uint64_t)st.st_size > (uint64_t)max) {
			e = EFBIG;
			too_large(err, path, max);
			goto fail;
		}
	}
	/* /proc and sysfs files say st_size 0: read to EOF, never past max */
	for (;;) {
		size_t room;

		strbuf_grow(&sb, 8192);
		room = sb.alloc - sb.len - 1;
		if (room > max + 1 - sb.len)
			room = max + 1 - sb.len;   /* one byte past max tells "too large" */
		r = read(fd, sb.buf + sb.len, room);
		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			if (err)
				strbuf_addf(err, "cannot read %s: %s", path, strerror(e));
			goto fail;
		}
		sb.len += (size_t)r;
		sb.buf[sb.len] = '\0';
		if (sb.len > max) {
			e = EFBIG;
			too_large(err, path, max);
			goto fail;
		}
	}
	close(fd);
	if (len)
		*len = sb.len;
	return strbuf_detach(&sb);
fail:
	close(fd);
	strbuf_release(&sb);
	errno = e;
	return NULL;
}

char *read_file_str(const char *path, size_t *len)
{
	return read_regular_file(path, READ_FILE_MAX, 0, len, NULL);
}

int write_str_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t w;

	if (fd < 0)
		return error_errno("cannot open %s", path);
	w = write(fd, s, len);
	if (w < 0 || (size_t)w != len) {
		int e = w < 0 ? errno : EIO;
		close(fd);
		errno = e;
		return error_errno("cannot write '%s' to %s", s, path);
	}
	if (close(fd))
		return error_errno("cannot write '%s' to %s", s, path);
	return 0;
}

/* cleanup registry undo (async-signal-safe): a temp file of an interrupted write */
static void unlink_tmp(void *path)
{
	unlink(path);
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: N, or -1 */
static int named_fd(const char *path)
{
	unsigned long long n;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	if (!strncmp(path, "/dev/fd/", 8))
		path += 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		path += 14;
	else
		return -1;
	return !parse_ull(path, &n) && n <= INT_MAX && fcntl((int)n, F_GETFD) >= 0 ? (int)n : -1;
}

int output_target_kind(const char *path, enum output_kind *kind, int *fd, struct strbuf *err)
{
	struct stat l, t;

	*kind = OUTPUT_REPLACE;
	*fd = named_fd(path);
	if (*fd >= 0) {
		*kind = OUTPUT_FD;
		return 0;
	}
	if (lstat(path, &l)) {
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "cannot look at %s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(l.st_mode))
		return 0;
	if (S_ISCHR(l.st_mode) || S_ISFIFO(l.st_mode)) {
		*kind = OUTPUT_IN_PLACE;
		return 0;
	}
	/* /dev/stdout is root's link to /proc/self/fd/1: followed only when it
	 * is ours and leads to a device or a pipe, never to a file */
	if (S_ISLNK(l.st_mode) && l.st_uid == geteuid() && !stat(path, &t) &&
	    (S_ISCHR(t.st_mode) || S_ISFIFO(t.st_mode))) {
		*kind = OUTPUT_IN_PLACE;
		return 0;
	}
	strbuf_addf(err, "%s is %s: lrubench writes only to a regular file, a character device "
		    "or a FIFO, and never replaces anything else", path,
		    S_ISLNK(l.st_mode) ? "a symbolic link" : S_ISDIR(l.st_mode) ? "a folder" :
		    S_ISBLK(l.st_mode) ? "a block device" : S_ISSOCK(l.st_mode) ? "a socket" :
		    "not a regular file");
	return -1;
}

/* Write into an existing device or FIFO: no O_CREAT, no O_TRUNC, and
 * fstat must agree with output_target_kind (a swap in between is refused);
 * or into our own descriptor named_fd (closed by nobody but its owner). */
static int write_in_place(const char *path, int named, const char *p, size_t len)
{
	int fd = named >= 0 ? named : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return error_errno("cannot open %s", path);
	if (named < 0 && (fstat(fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))) {
		close(fd);
		return error("%s changed while it was opened: not written", path);
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			if (named < 0)
				close(fd);
			errno = e;
			return error_errno("cannot write %s", path);
		}
		p += w;
		len -= (size_t)w;
	}
	if (named < 0 && close(fd))
		return error_errno("cannot write %s", path);
	return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct strbuf why = STRBUF_INIT;
	enum output_kind kind;
	char *tmp;
	const char *p = data;
	int fd, cid;

	if (output_target_kind(path, &kind, &fd, &why)) {
		error("%s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	if (kind != OUTPUT_REPLACE)
		return write_in_place(path, kind == OUTPUT_FD ? fd : -1, data, len);
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());

	/*
	 * O_EXCL | O_NOFOLLOW: a symlink planted at the temp name is removed,
	 * never written through; the final rename() replaces only a regular
	 * file (output_target_kind, just above; rename() itself never follows
	 * a link at path).
	 */
	if (unlink(tmp) && errno != ENOENT) {
		error_errno("cannot remove the stale %s", tmp);
		free(tmp);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		error_errno("cannot create %s", tmp);
		free(tmp);
		return -1;
	}
	/* a second signal exits from its handler: the temp file goes too */
	cid = cleanup_push("a temporary file", unlink_tmp, tmp);
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			error_errno("cannot write %s", tmp);
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd)) {
		error_errno("cannot fsync %s", tmp);
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		error_errno("cannot write %s", tmp);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		error_errno("cannot rename %s to %s", tmp, path);
		goto fail;
	}
	cleanup_pop(cid, false);
	free(tmp);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	cleanup_pop(cid, true);
	free(tmp);
	return -1;
}

/* file_tail reads at most this much of the end of a log: a kernel build's
 * log has megabytes, its last lines are in its last few KiB */
#define TAIL_READ_MAX (64 * 1024)

void file_tail(const char *path, int lines, struct strbuf *out)
{
	char *buf = xmalloc(TAIL_READ_MAX);
	struct stat st;
	size_t len = 0, i;
	ssize_t r;
	int seen = 0, fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	if (st.st_size > TAIL_READ_MAX && lseek(fd, st.st_size - TAIL_READ_MAX, SEEK_SET) < 0)
		goto out;
	while (len < TAIL_READ_MAX && (r = read(fd, buf + len, TAIL_READ_MAX - len)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto out;
		len += (size_t)r;
	}
	i = len;
	if (i && buf[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (buf[i - 1] == '\n' && ++seen == lines)
			break;
		i--;
	}
	/* the text goes to a terminal: no carriage returns (serial consoles
	 * write \r\n), no escape sequences or other control bytes */
	for (; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\r')
			continue;
		strbuf_add(out, c < 0x20 && c != '\n' && c != '\t' ? "?" : &buf[i], 1);
	}
	if (out->len && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
out:
	if (fd >= 0)
		close(fd);
	free(buf);
}

int error_with_log(const char *log, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, tail = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (log)
		file_tail(log, LOG_TAIL_LINES, &tail);
	if (tail.len) {
		/* the tail apart: error() would cut a long one at its 4 KiB */
		error("%s; last lines of %s:", msg.buf, log);
		fprintf(stderr, "%s\n", tail.buf);
	} else if (log) {
		error("%s (log %s)", msg.buf, log);
	} else {
		error("%s", msg.buf);
	}
	strbuf_release(&msg);
	strbuf_release(&tail);
	return -1;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, mode) && errno != EEXIST) {
				ret = error_errno("cannot create folder %s", p);
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	if (!ret && !is_dir(path))
		ret = error("%s exists and is not a folder", path);
	free(p);
	return ret;
}

int mkdir_private(const char *path, mode_t mode)
{
	if (mkdir_p(path, mode))
		return -1;
	return check_private_dir(path);
}

int check_private_dir(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return error_errno("cannot look at %s", path);
	if (!S_ISDIR(st.st_mode))
		return error("%s is a link to a folder, not a folder: lrubench writes by name only "
			     "into a folder of its own user", path);
	if (st.st_uid != geteuid() || (st.st_mode & 0022))
		return error("%s is owned by uid %u with mode %04o: lrubench writes by name only into "
			     "a folder of its own user (uid %u) that nobody else can write (chown it, "
			     "chmod go-w it, or choose another)", path, (unsigned)st.st_uid,
			     (unsigned)(st.st_mode & 07777), (unsigned)geteuid());
	return 0;
}

int open_output_dir(const char *path, struct strbuf *err)
{
	struct stat st;
	int fd;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		strbuf_addf(err, "%s is a symbolic link: lrubench writes only into a real folder, "
			    "never through a link (give the folder it leads to)", path);
		return OUTPUT_DIR_REFUSED;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno == ELOOP || errno == ENOTDIR) {
		strbuf_addf(err, "%s is %s: lrubench writes only into a real folder", path,
			    errno == ELOOP ? "a symbolic link" : "not a folder");
		return OUTPUT_DIR_REFUSED;
	}
	{
		int e = errno;

		strbuf_addf(err, "cannot open the folder %s: %s", path, strerror(e));
		errno = e;
	}
	return -1;
}

bool output_dir_holds(int dirfd, const char *path)
{
	const char *base = strrchr(path, '/');
	struct stat a, b;

	base = base ? base + 1 : path;
	return !fstatat(dirfd, base, &a, AT_SYMLINK_NOFOLLOW) && !lstat(path, &b) &&
	       S_ISDIR(a.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int remove_tree_at(int parent, const char *name, dev_t dev)
{
	struct stat st;
	int fd, ret = 0;
	DIR *d;
	struct dirent *de;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) && errno != ENOENT ? -1 : 0;
	if (st.st_dev != dev)
		return -1;   /* a mount point inside: never cross it */
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (remove_tree_at(dirfd(d), de->d_name, dev))
			ret = -1;
	}
	closedir(d);
	if (unlinkat(parent, name, AT_REMOVEDIR) && errno != ENOENT)
		ret = -1;
	return ret;
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	return remove_tree_at(AT_FDCWD, path, st.st_dev);
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

double now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void format_timestamp(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

char **split_commas(const char *s, size_t *n)
{
	char **v = NULL;
	size_t nr = 0, alloc = 0;
	const char *p = s;

	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		ALLOC_GROW(v, nr + 2, alloc);
		v[nr++] = xstrndup(p, l);
		p = e ? e + 1 : NULL;
	}
	ALLOC_GROW(v, nr + 1, alloc);
	v[nr] = NULL;
	if (n)
		*n = nr;
	return v;
}

void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

char *xstrdup_trim(const char *s)
{
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
		l--;
	return xstrndup(s, l);
}
