/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers every file uses: error reporting in git's style, a growable
 * string buffer, allocation that never returns NULL, and the size/time/list
 * parsers shared by the config file, --set and the command line.
 */
#ifndef LRUBENCH_UTIL_H
#define LRUBENCH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes (docs/ARCHITECTURE.md §9). */
enum lb_exit {
	LB_EXIT_OK = 0,
	LB_EXIT_FAIL = 1,        /* a workload failed, or a significant regression */
	LB_EXIT_USAGE = 2,       /* usage or config error */
	LB_EXIT_UNSUPPORTED = 3, /* this machine cannot run what was asked */
	LB_EXIT_INTERRUPTED = 130,
};

/*
 * error() prints "lrubench: error: ..." to stderr and returns -1, so callers
 * can write `return error("cannot open %s: %s", path, strerror(errno));`.
 * warning() and info() print and return nothing. There is no die(): every
 * function returns its error and the command turns it into an exit code.
 */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int lb_quiet;   /* -q: info() prints nothing */
extern const char *lb_progname;

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A copy of s without its leading and trailing blanks (spaces, tabs). */
char *xstrdup_trim(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array: ALLOC_GROW(ptr, needed, cap) like git's. */
#define ALLOC_GROW(x, nr, alloc)                                          \
	do {                                                              \
		if ((nr) > (alloc)) {                                     \
			(alloc) = (alloc) ? (alloc) * 2 : 16;             \
			if ((alloc) < (nr))                               \
				(alloc) = (nr);                           \
			(x) = xrealloc((x), (alloc) * sizeof(*(x)));      \
		}                                                         \
	} while (0)

struct strbuf {
	char *buf;   /* always NUL-terminated, never NULL after strbuf_init */
	size_t len;
	size_t alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
char *strbuf_detach(struct strbuf *sb);
/* The C string of sb, "" for a buffer never written. */
const char *strbuf_str(const struct strbuf *sb);

/* Numbers with suffixes. All return 0 on success, -1 on a malformed value
 * (nothing printed: the caller names the key and file). */
int parse_size(const char *s, uint64_t *bytes);     /* 4096, 64K, 256M, 1G, 1T (binary) */
int parse_seconds(const char *s, double *secs);      /* 30, 30s, 2m, 1h, 500ms */
int parse_ull(const char *s, unsigned long long *v); /* plain decimal, no sign */
/* "1,2,4,8" or "1-4" or "1-32:x2" (doubling) into v[], at most max entries. */
int parse_ull_list(const char *s, unsigned long long *v, size_t max, size_t *n);
/* "256M" style formatting for messages and defaults. */
void format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Reading files. Every read goes through read_regular_file: only a regular
 * file is read (opened O_NONBLOCK, so a FIFO cannot block us, then fstat
 * S_ISREG: no FIFO, device or socket), and at most `max` bytes (a bigger
 * file is an error, never a partial read or an out-of-memory abort).
 * READ_NOFOLLOW refuses a symlink as the last component: for files other
 * people made (results folders); configs and kernel images named on the
 * command line may be symlinks (/vmlinuz). On failure: NULL, errno set
 * (ELOOP symlink, EINVAL not a regular file, EFBIG too large) and, when err
 * is not NULL, "cannot read PATH: why" appended to it.
 * read_file_str is the same for /proc, sysfs and our own files (follows
 * symlinks, READ_FILE_MAX). open_regular_file is the first half, for
 * callers that read only a header (kernel images): a blocking fd or -1.
 */
#define READ_NOFOLLOW 0x1
#define READ_FILE_MAX ((size_t)256 << 20)
#define CONFIG_FILE_MAX ((size_t)1 << 20)     /* an INI file */
#define RESULTS_FILE_MAX ((size_t)1 << 30)    /* a results JSON: 20,000 ops x 30 samples is 30 MB */
int open_regular_file(const char *path, unsigned flags, struct strbuf *err);
char *read_regular_file(const char *path, size_t max, unsigned flags, size_t *len,
			struct strbuf *err);
char *read_file_str(const char *path, size_t *len);
/* The same relative to a folder's descriptor (openat): for walking a tree
 * that someone else can change by descriptor, never by path again. */
int open_regular_file_at(int dirfd, const char *path, unsigned flags, struct strbuf *err);
char *read_regular_file_at(int dirfd, const char *path, size_t max, unsigned flags, size_t *len,
			   struct strbuf *err);
/* write_str_file writes s to an existing file (sysfs, cgroupfs) and reports
 * a named error on failure. */
int write_str_file(const char *path, const char *s);
/*
 * What an output path may be (ARCHITECTURE §9, "output files"): lrubench
 * replaces only regular files. A path that does not exist or is a regular
 * file is written to a temp file and renamed over (OUTPUT_REPLACE); a
 * character device or a FIFO (/dev/null, a pipe), or a symlink that we own
 * leading to one, is written in place (OUTPUT_IN_PLACE); /dev/stdout,
 * /dev/stderr, /dev/fd/N and /proc/self/fd/N name our own descriptor N,
 * written as it is (OUTPUT_FD, *fd), as gawk does; anything else (a symlink
 * of someone else's or to a file, a folder, a block device, a socket) is
 * refused (-1, the reason in err).
 */
enum output_kind { OUTPUT_REPLACE, OUTPUT_IN_PLACE, OUTPUT_FD };
int output_target_kind(const char *path, enum output_kind *kind, int *fd, struct strbuf *err);
/* Write data to path: atomically (temp file in the same folder, fsync,
 * rename) over a regular file, in place into a device or FIFO, refused
 * otherwise, by output_target_kind's rule. */
int write_file_atomic(const char *path, const void *data, size_t len);
/* The last `lines` lines of a regular file (a child's log) appended to out,
 * for error messages: only its last 64 KiB are read, '\r' is dropped and
 * other control bytes but '\t' show as '?'. Nothing when it cannot be read. */
void file_tail(const char *path, int lines, struct strbuf *out);
/* How many lines of a log every failure message shows (enough for a
 * compiler error with its context, short enough to read). */
#define LOG_TAIL_LINES 20
/* error() the message, then "; last lines of LOG:" and the last
 * LOG_TAIL_LINES lines of log, or " (log LOG)" when it has none to show
 * (log may be NULL). Returns -1. For a child's exit code use child_failed(). */
int error_with_log(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mkdir_p(const char *path, mode_t mode);
/* mkdir_p, then the folder must be ours alone: a real folder (not a link),
 * owned by our user, writable by nobody else. For folders where lrubench,
 * as root, lets programs write by name (work folders, fleet state with
 * Slurm's output files): another user's folder could swap those names for
 * links. -1 with a message naming the folder, its owner and mode. */
int mkdir_private(const char *path, mode_t mode);
/* The check alone, for a folder that exists (run --dry-run). */
int check_private_dir(const char *path);
/*
 * An output folder by descriptor (plot -o, fetch --results DIR; issue 30,
 * 22): open(O_DIRECTORY|O_NOFOLLOW), so a symlink planted at path is
 * refused, never followed, and what is written goes into the folder opened
 * (openat, renameat), even should path be swapped afterwards. The fd;
 * OUTPUT_DIR_REFUSED when path is a link or not a folder (a usage error),
 * -1 otherwise (errno kept: ENOENT when it does not exist); the reason
 * appended to err.
 */
#define OUTPUT_DIR_REFUSED (-2)
int open_output_dir(const char *path, struct strbuf *err);
/* Is the folder at path (one we just made in it) an entry of the folder
 * open as dirfd, not one elsewhere that a swapped link led to? */
bool output_dir_holds(int dirfd, const char *path);
/* Remove a tree without following symlinks; stays on one filesystem. */
int remove_tree(const char *path);
bool path_exists(const char *path);
bool is_dir(const char *path);

double now_monotonic(void);  /* seconds */
double now_realtime(void);
/* ISO 8601 UTC timestamp "2026-11-30T15:07:23Z" */
void format_timestamp(double t, char *buf, size_t len);

/* Split "a,b,c" into a NULL-terminated malloc'ed array of malloc'ed strings. */
char **split_commas(const char *s, size_t *n);
void free_strv(char **v);

#endif
