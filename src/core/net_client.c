// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lrubench side of the lrubench-net helper (see net_client.h): build the
 * helper's argv, run it as a child (core/child.c: its own process group, in
 * the cleanup registry, dies with us), pass a stop request on, read its
 * result from a pipe whose number it gets as --result-fd (its stdout stays
 * ours: info lines go there, as they did before the split).
 *
 * Helper exit codes: 0 ok, 1 failed (it printed why), 130 interrupted (it
 * cleaned up), anything else a bug or a crash (reported here).
 */
#include "core/net_client.h"
#include "core/path.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/child.h"
#include "core/cleanup.h"

#ifndef LRUBENCH_LIBEXECDIR
#define LRUBENCH_LIBEXECDIR "/usr/local/libexec/lrubench"
#endif

/* How long an interrupted helper may take to remove what it made (a partly
 * extracted kernel tree is ~1 GiB of small files) before it is killed. */
#define NET_STOP_GRACE 120.0
#define NET_RESULT_MAX 8192
#define NET_LIST_MAX (1024 * 1024)   /* push and fetch --results: a line per file */

bool fetch_has_scheme(const char *s)
{
	const char *p = s;

	if (!isalpha((unsigned char)*p))
		return false;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	return !strncmp(p, "://", 3);
}

/* "scheme://user:pass@host/...": the userinfo ends before the first '/', '?'
 * or '#' after "://" */
static const char *userinfo_end(const char *url)
{
	const char *p = strstr(url, "://"), *at;
	size_t auth;

	if (!p)
		return NULL;
	p += 3;
	auth = strcspn(p, "/?#");
	at = memrchr(p, '@', auth);
	return at;
}

bool fetch_url_has_credentials(const char *url)
{
	return userinfo_end(url) != NULL;
}

char *fetch_url_redacted(const char *url)
{
	const char *at = userinfo_end(url), *p;

	if (!at)
		return xstrdup(url);
	p = strstr(url, "://") + 3;
	return xasprintf("%.*s***%s", (int)(p - url), url, at);
}

char *store_url_shown(const char *url)
{
	size_t n = strcspn(url, "?#");

	return n < strlen(url) ? xasprintf("%.*s?...", (int)n, url) : xstrdup(url);
}

bool fetch_is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8) ||
	       !strncasecmp(s, "file://", 7);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int sha256_parse_hex(const char *s, unsigned char out[32])
{
	const char *p = s;
	unsigned char md[32];

	if (!s)
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	for (int i = 0; i < 32; i++) {
		int hi = hexval((unsigned char)p[2 * i]), lo;

		if (hi < 0)
			return -1;
		lo = hexval((unsigned char)p[2 * i + 1]);
		if (lo < 0)
			return -1;
		md[i] = (unsigned char)(hi << 4 | lo);
	}
	for (p += 64; *p; p++)
		if (!isspace((unsigned char)*p))
			return -1;
	if (out)
		memcpy(out, md, 32);
	return 0;
}

static bool is_program(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

char *net_helper_find(struct strbuf *why)
{
	char *dir = self_dir(), *here = NULL, *installed;

	if (dir) {
		here = xasprintf("%s/%s", dir, NET_HELPER_NAME);
		free(dir);
		if (is_program(here))
			return here;
	}
	installed = xasprintf("%s/%s", LRUBENCH_LIBEXECDIR, NET_HELPER_NAME);
	if (is_program(installed)) {
		free(here);
		return installed;
	}
	strbuf_addf(why, "cannot find the helper program %s, which does lrubench's downloads and "
		    "archive work: looked for %s%s%s (build it with make, or install lrubench with "
		    "make install)", NET_HELPER_NAME, here ? here : "", here ? " and " : "", installed);
	free(here);
	free(installed);
	return NULL;
}

char *net_helper_path(void)
{
	struct strbuf why = STRBUF_INIT;
	char *p = net_helper_find(&why);

	if (!p)
		error("%s", why.buf);
	strbuf_release(&why);
	return p;
}

/* Undo for the registry, ahead of child.c's SIGKILL: a second SIGINT to
 * lrubench (or an exit with the helper still running) must let the helper
 * remove its temp file or partial tree, which its own second-signal path
 * does at once. Async-signal-safe: kill, waitpid, nanosleep. */
static void stop_helper_now(void *arg)
{
	struct child *c = arg;
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	if (c->pid <= 0 || !c->running)
		return;
	kill(c->pid, SIGTERM);
	for (int i = 0; i < (int)(NET_STOP_GRACE * 100); i++) {
		pid_t r = waitpid(c->pid, NULL, WNOHANG);

		if (r == c->pid || (r < 0 && errno == ECHILD)) {
			c->running = false;   /* child.c's SIGKILL entry has nothing left to do */
			return;
		}
		nanosleep(&tick, NULL);
	}
}

/* Read the result pipe to its EOF (the helper's exit), at most max bytes
 * kept; stops early on a stop request (the caller's wait sees it). -1 when
 * the result was larger than max or unreadable. */
static int read_result(int fd, struct strbuf *out, size_t max)
{
	char buf[4096];
	int ret = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (lb_stop_requested())
			return ret;
		if (poll(&p, 1, 100) <= 0)
			continue;
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return r < 0 ? -1 : ret;
		if (out->len + (size_t)r > max)
			ret = -1;   /* keep reading, so the helper is not blocked */
		else
			strbuf_add(out, buf, (size_t)r);
	}
}

/*
 * Run `lrubench-net CMD [-q] [--result-fd=N] WORDS...`. -q when lrubench is
 * quiet (or quiet is asked): the helper's info() lines are lrubench's too.
 * result (may be NULL) gets what the helper wrote to its result pipe.
 * Returns NET_OK, NET_FAILED (a message was printed), NET_INTERRUPTED,
 * NET_BAD_INPUT (the helper exited NET_EXIT_BAD_INPUT; it said why).
 */
static enum net_status run_helper(const char *cmd, bool quiet, const struct strlist *words,
		      struct strbuf *result, size_t result_max)
{
	struct child c = { .name = NET_HELPER_NAME };
	struct strlist argv = STRLIST_INIT;
	char *prog = net_helper_path();
	int fds[2] = { -1, -1 }, code = -1, w, stop_id;
	enum net_status ret = NET_FAILED;
	bool too_big = false;

	if (!prog)
		return NET_FAILED;
	if (result && pipe2(fds, O_CLOEXEC)) {
		free(prog);
		return error_errno("cannot run %s: pipe", NET_HELPER_NAME);
	}
	strlist_push(&argv, prog);
	strlist_push(&argv, cmd);
	if (quiet || lb_quiet)
		strlist_push(&argv, "-q");
	if (result) {
		/* child.c clears close-on-exec on it in the child only */
		c.inherit_fd = fds[1];
		strlist_pushf(&argv, "--result-fd=%d", fds[1]);
	}
	for (size_t i = 0; i < words->n; i++)
		strlist_push(&argv, words->v[i]);
	c.argv = (const char *const *)argv.v;
	free(prog);
	if (child_start(&c))
		goto out;
	if (result) {
		close(fds[1]);
		fds[1] = -1;
	}
	stop_id = cleanup_push(NET_HELPER_NAME, stop_helper_now, &c);
	/* a result larger than the pipe's buffer would block the helper: read
	 * it while the helper runs; EOF comes when it exits */
	if (result && read_result(fds[0], result, result_max))
		too_big = true;
	w = child_wait(&c, -1, &code, NULL);
	if (w == CHILD_STOP) {
		/* it leads its own process group, so a terminal's ^C reached only
		 * us: pass the stop on (SIGTERM unwinds it like SIGINT) and let it
		 * clean up; it says "interrupted while ..." itself */
		child_stop(&c, NET_STOP_GRACE);
		ret = NET_INTERRUPTED;
	} else if (w < 0) {
		child_stop(&c, 0);
	} else if (code == 0) {
		ret = NET_OK;
	} else if (code == LB_EXIT_INTERRUPTED) {
		ret = NET_INTERRUPTED;
	} else if (code == NET_EXIT_BAD_INPUT) {
		ret = NET_BAD_INPUT;   /* it said why */
	} else if (code != LB_EXIT_FAIL) {
		char how[96];

		child_describe_code(code, how, sizeof(how));
		error("%s %s %s", NET_HELPER_NAME, cmd, how);
	}
	cleanup_pop(stop_id, false);
	if (result && ret == NET_OK && too_big)
		ret = (enum net_status)error("cannot read the result of %s %s (more than %zu bytes)", NET_HELPER_NAME, cmd,
			    result_max);
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	strlist_release(&argv);
	return ret;
}

enum fetch_status net_fetch_url(const char *url, const struct fetch_opts *o, struct fetch_result *res)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf out = STRBUF_INIT;
	enum fetch_status st = FETCH_FAILED;
	enum net_status r;

	memset(res, 0, sizeof(*res));
	if (o->cache_dir)
		strlist_pushf(&a, "--cache=%s", o->cache_dir);
	if (o->sha256)
		strlist_pushf(&a, "--sha256=%s", o->sha256);
	if (o->retries >= 0)
		strlist_pushf(&a, "--retries=%d", o->retries);
	if (o->connect_timeout > 0)
		strlist_pushf(&a, "--connect-timeout=%.17g", o->connect_timeout);
	if (o->low_speed_time > 0)
		strlist_pushf(&a, "--low-speed-time=%.17g", o->low_speed_time);
	if (o->progress >= 0)
		strlist_push(&a, o->progress ? "--progress" : "--no-progress");
	if (o->max_bytes)
		strlist_pushf(&a, "--max-size=%llu", o->max_bytes);
	if (o->timeout > 0)
		strlist_pushf(&a, "--timeout=%.17g", o->timeout);
	strlist_push(&a, "--");
	strlist_push(&a, url);
	r = run_helper("fetch", o->quiet, &a, &out, NET_RESULT_MAX);
	if (r == NET_INTERRUPTED) {
		st = FETCH_INTERRUPTED;
	} else if (!r) {
		/* "hit PATH" or "new PATH" */
		if (out.len > 4 && (!strncmp(out.buf, "hit ", 4) || !strncmp(out.buf, "new ", 4))) {
			res->cache_hit = out.buf[0] == 'h';
			res->path = xstrdup(out.buf + 4);
			st = FETCH_OK;
		} else {
			error("%s fetch %s: unexpected result '%s'", NET_HELPER_NAME, url, strbuf_str(&out));
		}
	}
	strbuf_release(&out);
	strlist_release(&a);
	return st;
}

void fetch_result_release(struct fetch_result *res)
{
	free(res->path);
	res->path = NULL;
}

int net_sha256_file(const char *path, char out[65])
{
	struct strlist a = STRLIST_INIT;
	struct strbuf res = STRBUF_INIT;
	enum net_status r;

	strlist_push(&a, "--");
	strlist_push(&a, path);
	r = run_helper("sha256", false, &a, &res, NET_RESULT_MAX);
	if (!r && (res.len != 64 || sha256_parse_hex(res.buf, NULL)))
		r = error("%s sha256 %s: unexpected result '%s'", NET_HELPER_NAME, path, strbuf_str(&res));
	if (!r)
		memcpy(out, res.buf, 65);
	strbuf_release(&res);
	strlist_release(&a);
	return r ? -1 : 0;
}

enum net_status net_extract_tree(const char *path, const char *dest, const struct extract_limits *lim)
{
	struct strlist a = STRLIST_INIT;
	enum net_status r;

	if (lim && lim->max_bytes)
		strlist_pushf(&a, "--max-size=%llu", lim->max_bytes);
	if (lim && lim->max_files)
		strlist_pushf(&a, "--max-files=%llu", lim->max_files);
	if (lim && lim->max_ratio)
		strlist_pushf(&a, "--max-ratio=%llu", lim->max_ratio);
	strlist_push(&a, "--");
	strlist_push(&a, path);
	strlist_push(&a, dest);
	r = run_helper("extract", false, &a, NULL, 0);
	strlist_release(&a);
	return r;
}

enum net_status net_cpio_write(const char *path, const struct strlist *entries, struct strbuf *err)
{
	struct strlist a = STRLIST_INIT;
	enum net_status r;

	strlist_push(&a, "--");
	strlist_push(&a, path);
	for (size_t i = 0; i < entries->n; i++)
		strlist_push(&a, entries->v[i]);
	r = run_helper("cpio", false, &a, NULL, 0);
	if (r)
		strbuf_addf(err, "cannot write the initramfs %s%s", path,
			    r == NET_INTERRUPTED ? ": interrupted" : "");
	strlist_release(&a);
	return r;
}

enum net_status net_pack(const char *out, const char *compress, bool force, const struct strlist *labels,
	     const struct strlist *dirs, struct pack_result *res)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	enum net_status r;

	memset(res, 0, sizeof(*res));
	strlist_pushf(&a, "--compress=%s", compress);
	if (force)
		strlist_push(&a, "--force");
	strlist_push(&a, "--");
	strlist_push(&a, out);
	for (size_t i = 0; i < labels->n; i++) {
		strlist_push(&a, labels->v[i]);
		strlist_push(&a, dirs->v[i]);
	}
	r = run_helper("pack", false, &a, &sb, NET_LIST_MAX);
	if (!r && sscanf(strbuf_str(&sb), "%zu %llu %llu", &res->files, &res->bytes_in,
			 &res->bytes_out) != 3)
		r = error("%s pack %s: unexpected result '%s'", NET_HELPER_NAME, out, strbuf_str(&sb));
	strbuf_release(&sb);
	strlist_release(&a);
	return r;
}

enum net_status net_unpack(const char *dest, const struct strlist *archives, bool results_only)
{
	struct strlist a = STRLIST_INIT;
	enum net_status r;

	if (results_only)
		strlist_push(&a, "--results-only");
	strlist_push(&a, "--");
	strlist_push(&a, dest);
	for (size_t i = 0; i < archives->n; i++)
		strlist_push(&a, archives->v[i]);
	r = run_helper("unpack", false, &a, NULL, 0);
	strlist_release(&a);
	return r;
}

/* The options push and fetch-results share. */
static void store_words(const struct push_request *o, struct strlist *a)
{
	if (o->retries >= 0)
		strlist_pushf(a, "--retries=%d", o->retries);
	if (o->token_file)
		strlist_pushf(a, "--token-file=%s", o->token_file);
	if (o->netrc_file)
		strlist_pushf(a, "--netrc-file=%s", o->netrc_file);
}

enum net_status net_push(const struct strlist *files, const struct strlist *urls,
	     const struct push_request *o, struct strbuf *pushed)
{
	struct strlist a = STRLIST_INIT;
	enum net_status r;

	store_words(o, &a);
	if (o->timeout > 0)
		strlist_pushf(&a, "--timeout=%.17g", o->timeout);
	if (o->connect_timeout > 0)
		strlist_pushf(&a, "--connect-timeout=%.17g", o->connect_timeout);
	if (o->checksum)
		strlist_pushf(&a, "--checksum=%s", o->checksum);
	if (o->force)
		strlist_push(&a, "--force");
	if (o->direct)
		strlist_push(&a, "--direct");
	strlist_push(&a, "--");
	for (size_t i = 0; i < files->n; i++) {
		strlist_push(&a, files->v[i]);
		strlist_push(&a, urls->v[i]);
	}
	r = run_helper("push", false, &a, pushed, NET_LIST_MAX);
	strlist_release(&a);
	return r;
}

enum net_status net_fetch_results(const char *dir, char *const *urls, size_t n,
		      const struct push_request *o, struct strbuf *saved)
{
	struct strlist a = STRLIST_INIT;
	enum net_status r;

	store_words(o, &a);
	if (o->max_bytes)
		strlist_pushf(&a, "--max-size=%llu", o->max_bytes);
	if (o->fetch_timeout > 0)
		strlist_pushf(&a, "--timeout=%.17g", o->fetch_timeout);
	strlist_push(&a, "--");
	strlist_push(&a, dir);
	for (size_t i = 0; i < n; i++)
		strlist_push(&a, urls[i]);
	r = run_helper("fetch-results", false, &a, saved, NET_LIST_MAX);
	strlist_release(&a);
	return r;
}

int net_kconfig_read(const char *path, size_t max, char sha[65], char **text, struct strbuf *why)
{
	struct strlist a = STRLIST_INIT;
	struct strbuf res = STRBUF_INIT;
	char *helper = net_helper_find(why);
	const char *nl;
	enum net_status r;

	*text = NULL;
	if (!helper)
		return -1;
	free(helper);
	strlist_pushf(&a, "--max=%zu", max);
	strlist_push(&a, "--");
	strlist_push(&a, path);
	r = run_helper("kconfig", true, &a, &res, max + 65);
	/* "HEX\nTEXT" */
	nl = !r && res.len > 64 && res.buf[64] == '\n' ? res.buf + 64 : NULL;
	if (nl)
		res.buf[64] = '\0';
	if (r) {
		strbuf_addf(why, "%s kconfig %s", NET_HELPER_NAME, r == NET_INTERRUPTED ? "was interrupted" : "failed");
	} else if (!nl || sha256_parse_hex(res.buf, NULL)) {
		strbuf_addf(why, "%s kconfig: unexpected result", NET_HELPER_NAME);
		r = NET_FAILED;
	} else {
		memcpy(sha, res.buf, 64);
		sha[64] = '\0';
		*text = xstrdup(nl + 1);
	}
	strbuf_release(&res);
	strlist_release(&a);
	return r ? -1 : 0;
}
