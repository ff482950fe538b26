// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lrubench-net: the helper program that does lrubench's network and archive
 * work -- downloads into the verified cache and uploads to a results store
 * (libcurl), sha256 of files (libcrypto), safe extraction of source
 * tarballs, results archives and cpio writing (libarchive). lrubench runs
 * it as a child (core/net_client.c) for `lrubench fetch`, `pack`, `push`,
 * compare and plot on archives, kernbench's source and VM mode's
 * initramfs. Not a user command: its command line is an internal protocol
 * and may change.
 *
 * Why a separate program (git's model: git-remote-http keeps libcurl out
 * of git) rather than dlopen() on the paths that need the libraries:
 *  - Start-up. libcurl and libarchive pull in ~40 shared objects (GnuTLS,
 *    Kerberos, LDAP, ICU, ...); loading and relocating them was nearly all of
 *    what `lrubench --version` and a small `compare` took; without them both
 *    are within 3 ms of a static hello-world (bench/startup; the runs'
 *    figures are in bench/README.md). Only the commands that download or
 *    extract pay, once per helper run.
 *  - dlopen would mean ~40 libarchive, ~13 libcurl and ~6 libcrypto symbols
 *    looked up by name into hand-written function-pointer tables: no type
 *    check by the compiler, and failures (a missing symbol, another soname
 *    on another distribution) found only at run time, on the path that
 *    needs them. Here fetch.c, archive_extract.c and cpio.c call the
 *    libraries directly and the linker checks every call; lrubench itself
 *    cannot call them by accident (it would not link).
 *  - Hostile input (archives and downloads, handled as root) is parsed in a
 *    process of its own: a crash in a decompressor is an exit status that
 *    lrubench reports, not a dead run that skipped its cleanup.
 * The costs: a fork+exec per download or extraction (milliseconds, next to
 * seconds of work), a small command-line protocol, and a second program to
 * install ($(PREFIX)/libexec/lrubench/lrubench-net; lrubench also looks next
 * to itself, which is how the build tree works).
 *
 * Protocol: `lrubench-net COMMAND [-q] [--result-fd=N] [OPTIONS] -- OPERANDS`.
 * Messages and info lines go to stderr and stdout exactly as lrubench
 * prints them (same "lrubench: " prefix; -q silences info); the result, if
 * the command has one, is written to file descriptor N (stdout without it).
 *   fetch [--cache=DIR] [--sha256=HEX] [--retries=N] [--connect-timeout=S]
 *         [--low-speed-time=S] [--progress | --no-progress] [--max-size=N]
 *         [--timeout=S] -- URL
 *         -> "hit PATH" (was in the cache) or "new PATH" (downloaded)
 *   sha256 -- FILE               -> 64 lowercase hex digits
 *   extract [--max-size=N] [--max-files=N] [--max-ratio=N] -- ARCHIVE DEST
 *                                (archive_extract.h)
 *   cpio -- OUT ENTRY-WORDS...   (cpio.h)
 *   pack [--compress=zstd|gzip|xz] [--force] -- OUT LABEL DIR [LABEL DIR]...
 *         -> "FILES BYTES-IN BYTES-OUT"          (results_write.h)
 *   unpack [--results-only] -- DEST ARCHIVE...
 *                                each archive checked and written into
 *                                DEST/1, DEST/2, ... (results_read.h)
 *   push [--retries=N] [--connect-timeout=S] [--timeout=S] [--token-file=F]
 *        [--netrc-file=F] [--force] [--direct] [--checksum=digest|amz|none]
 *        -- FILE URL [FILE URL]...  -> the final URLs, one a line (push.h);
 *                                each FILE's manifest checked first
 *   fetch-results [--retries=N] [--max-size=N] [--timeout=S] [--token-file=F]
 *        [--netrc-file=F] -- DIR URL...
 *                                -> DIR/NAME per URL, one a line (store_fetch.h);
 *                                a name taken: exit 65, nothing written
 * Credentials for push and fetch-results come from the environment or
 * files (store_auth.h), never from this command line.
 *   kconfig [--max=BYTES] -- FILE  -> sha256 of the (uncompressed) text,
 *                                a newline, the text (a kernel config)
 * Exit status: 0 ok; 1 failed (message printed); 2 misuse of this protocol;
 * 65 (NET_EXIT_BAD_INPUT) push was given a file that is not a results
 * archive, nothing sent (lrubench's exit 2); 130 interrupted (SIGINT/SIGTERM;
 * its temp file or partial tree removed).
 *
 * Cleanup: the same registry and signal rules as lrubench (core/cleanup.h):
 * a first SIGINT/SIGTERM unwinds, a second one runs the registry at once.
 * lrubench passes its own stop on as SIGTERM; if lrubench dies without
 * doing so (SIGKILL), PR_SET_PDEATHSIG sends the SIGTERM instead.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/strlist.h"
#include "net/archive_extract.h"
#include "net/cpio.h"
#include "net/decompress.h"
#include "net/fetch.h"
#include "net/push.h"
#include "net/store_fetch.h"
#include "net/results_read.h"
#include "net/results_write.h"

struct args {
	struct strlist pos;          /* positional words */
	struct strlist opt;          /* "--name=value" and flags, as given */
};

/* Options (--x=v or flags) until "--"; everything else is positional. */
static void split_args(int argc, char **argv, struct args *a)
{
	bool opts = true;

	for (int i = 2; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--"))
			opts = false;
		else if (opts && argv[i][0] == '-' && argv[i][1])
			strlist_push(&a->opt, argv[i]);
		else
			strlist_push(&a->pos, argv[i]);
	}
}

static int misuse(const char *cmd, const char *what)
{
	error("%s %s: %s (an internal command of lrubench, not for direct use)",
	      NET_HELPER_NAME, cmd, what);
	return LB_EXIT_USAGE;
}

/* The value of --name=VALUE, or NULL. */
static const char *opt_value(const char *o, const char *name)
{
	size_t l = strlen(name);

	return !strncmp(o, name, l) && o[l] == '=' ? o + l + 1 : NULL;
}

static int do_fetch(struct args *a, struct strbuf *result)
{
	struct fetch_opts o = { .retries = -1, .progress = -1, .quiet = lb_quiet != 0 };
	struct fetch_result res = { 0 };
	enum fetch_status st;

	if (a->pos.n != 1)
		return misuse("fetch", "expected one URL");
	for (size_t i = 0; i < a->opt.n; i++) {
		const char *s = a->opt.v[i], *v;
		unsigned long long n;

		if ((v = opt_value(s, "--cache")))
			o.cache_dir = v;
		else if ((v = opt_value(s, "--sha256")))
			o.sha256 = v;
		else if ((v = opt_value(s, "--retries")) && !parse_ull(v, &n) && n <= 20)
			o.retries = (int)n;
		else if ((v = opt_value(s, "--connect-timeout")))
			o.connect_timeout = strtod(v, NULL);
		else if ((v = opt_value(s, "--low-speed-time")))
			o.low_speed_time = strtod(v, NULL);
		else if ((v = opt_value(s, "--max-size")) && !parse_ull(v, &n))
			o.max_bytes = n;
		else if ((v = opt_value(s, "--timeout")))
			o.timeout = strtod(v, NULL);
		else if (!strcmp(s, "--progress"))
			o.progress = 1;
		else if (!strcmp(s, "--no-progress"))
			o.progress = 0;
		else
			return misuse("fetch", s);
	}
	st = fetch_url(a->pos.v[0], &o, &res);
	if (st == FETCH_INTERRUPTED)
		return LB_EXIT_INTERRUPTED;
	if (st != FETCH_OK)
		return lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
	strbuf_addf(result, "%s %s", res.cache_hit ? "hit" : "new", res.path);
	fetch_result_release(&res);
	return LB_EXIT_OK;
}

static int do_sha256(struct args *a, struct strbuf *result)
{
	char hex[65];

	if (a->pos.n != 1 || a->opt.n)
		return misuse("sha256", "expected one file");
	if (sha256_hex_file(a->pos.v[0], hex))
		return lb_stop_requested() ? LB_EXIT_INTERRUPTED : LB_EXIT_FAIL;
	strbuf_addstr(result, hex);
	return LB_EXIT_OK;
}

static int do_extract(struct args *a, struct strbuf *result)
{
	struct extract_limits lim = { 0, 0, 0 };
	int r;

	(void)result;
	if (a->pos.n != 2)
		return misuse("extract", "expected an archive and a destination");
	for (size_t i = 0; i < a->opt.n; i++) {
		const char *s = a->opt.v[i], *v;
		unsigned long long n;

		if ((v = opt_value(s, "--max-size")) && !parse_ull(v, &n))
			lim.max_bytes = n;
		else if ((v = opt_value(s, "--max-files")) && !parse_ull(v, &n))
			lim.max_files = n;
		else if ((v = opt_value(s, "--max-ratio")) && !parse_ull(v, &n))
			lim.max_ratio = n;
		else
			return misuse("extract", s);
	}
	r = archive_extract_tree(a->pos.v[0], a->pos.v[1], &lim);
	if (r == NET_INTERRUPTED || (r && lb_stop_requested()))
		return LB_EXIT_INTERRUPTED;
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}

static int do_cpio(struct args *a, struct strbuf *result)
{
	struct strbuf err = STRBUF_INIT;
	int r;

	(void)result;
	if (a->pos.n < 1 || a->opt.n)
		return misuse("cpio", "expected an output file and entries");
	r = cpio_write(a->pos.v[0], a->pos.v + 1, a->pos.n - 1, &err);
	if (r)
		error("%s", err.buf);
	strbuf_release(&err);
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}

static int status_exit(int r)
{
	if (r == NET_INTERRUPTED || (r && lb_stop_requested()))
		return LB_EXIT_INTERRUPTED;
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}

static int do_pack(struct args *a, struct strbuf *result)
{
	enum ra_compress c = RA_ZSTD;
	struct strlist labels = STRLIST_INIT, dirs = STRLIST_INIT;
	struct pack_stats st;
	bool force = false;
	int r;

	if (a->pos.n < 3 || a->pos.n % 2 != 1)
		return misuse("pack", "expected an output file and LABEL DIR pairs");
	for (size_t i = 0; i < a->opt.n; i++) {
		const char *v = opt_value(a->opt.v[i], "--compress");

		if (v && !ra_compress_parse(v, &c))
			continue;
		if (!strcmp(a->opt.v[i], "--force"))
			force = true;
		else
			return misuse("pack", a->opt.v[i]);
	}
	for (size_t i = 1; i < a->pos.n; i += 2) {
		strlist_push(&labels, a->pos.v[i]);
		strlist_push(&dirs, a->pos.v[i + 1]);
	}
	r = results_write(a->pos.v[0], c, force, labels.v, dirs.v, labels.n, &st);
	if (!r)
		strbuf_addf(result, "%zu %llu %llu", st.files, st.bytes_in, st.bytes_out);
	strlist_release(&labels);
	strlist_release(&dirs);
	return status_exit(r);
}

static int do_unpack(struct args *a, struct strbuf *result)
{
	bool results_only = false;
	int r = 0;

	(void)result;
	for (size_t i = 0; i < a->opt.n; i++) {
		if (strcmp(a->opt.v[i], "--results-only"))
			return misuse("unpack", a->opt.v[i]);
		results_only = true;
	}
	if (a->pos.n < 2)
		return misuse("unpack", "expected a destination and archives");
	for (size_t i = 1; i < a->pos.n && !r; i++) {
		char *dest = xasprintf("%s/%zu", a->pos.v[0], i);

		if (mkdir(dest, 0700))
			r = error_errno("cannot create %s", dest);
		else
			r = results_read(a->pos.v[i], dest, results_only);
		free(dest);
	}
	return status_exit(r);
}

/* --name=SECONDS: a positive number, or -1 */
static int opt_seconds(const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (!*v || *end || !(d > 0) || d > 86400)
		return -1;
	*out = d;
	return 0;
}

static int do_push(struct args *a, struct strbuf *result)
{
	struct push_opts o = { .retries = -1 };
	struct strlist files = STRLIST_INIT, urls = STRLIST_INIT;
	int r;

	if (a->pos.n < 2 || a->pos.n % 2)
		return misuse("push", "expected FILE URL pairs");
	for (size_t i = 0; i < a->opt.n; i++) {
		const char *s = a->opt.v[i], *v;
		unsigned long long n;

		if ((v = opt_value(s, "--retries")) && !parse_ull(v, &n) && n <= 20)
			o.retries = (int)n;
		else if ((v = opt_value(s, "--connect-timeout")) && !opt_seconds(v, &o.connect_timeout))
			;
		else if ((v = opt_value(s, "--timeout")) && !opt_seconds(v, &o.timeout))
			;
		else if ((v = opt_value(s, "--token-file")))
			o.token_file = v;
		else if ((v = opt_value(s, "--netrc-file")))
			o.netrc_file = v;
		else if (!strcmp(s, "--force"))
			o.force = true;
		else if (!strcmp(s, "--direct"))
			o.direct = true;
		else if ((v = opt_value(s, "--checksum")) && !strcmp(v, "digest"))
			o.checksum = CHECKSUM_DIGEST;
		else if (v && !strcmp(v, "amz"))
			o.checksum = CHECKSUM_AMZ;
		else if (v && !strcmp(v, "none"))
			o.checksum = CHECKSUM_NONE;
		else
			return misuse("push", s);
	}
	for (size_t i = 0; i < a->pos.n; i += 2) {
		strlist_push(&files, a->pos.v[i]);
		strlist_push(&urls, a->pos.v[i + 1]);
	}
	/* only results archives go to a store: all checked before any is sent
	 * (their first entry: whoever reads one checks all of it) */
	for (size_t i = 0; i < files.n; i++) {
		r = results_check_head(files.v[i]);
		if (r) {
			strlist_release(&files);
			strlist_release(&urls);
			return r == NET_INTERRUPTED || lb_stop_requested() ? LB_EXIT_INTERRUPTED : NET_EXIT_BAD_INPUT;
		}
	}
	r = push_files(files.v, urls.v, files.n, &o, result);
	strlist_release(&files);
	strlist_release(&urls);
	return status_exit(r);
}

static int do_fetch_results(struct args *a, struct strbuf *result)
{
	struct store_fetch_opts o = { .retries = -1 };
	int r;

	if (a->pos.n < 2)
		return misuse("fetch-results", "expected a folder and URLs");
	for (size_t i = 0; i < a->opt.n; i++) {
		const char *s = a->opt.v[i], *v;
		unsigned long long n;

		if ((v = opt_value(s, "--retries")) && !parse_ull(v, &n) && n <= 20)
			o.retries = (int)n;
		else if ((v = opt_value(s, "--max-size")) && !parse_ull(v, &n) && n)
			o.max_bytes = n;
		else if ((v = opt_value(s, "--timeout")) && !opt_seconds(v, &o.timeout))
			;
		else if ((v = opt_value(s, "--token-file")))
			o.token_file = v;
		else if ((v = opt_value(s, "--netrc-file")))
			o.netrc_file = v;
		else
			return misuse("fetch-results", s);
	}
	r = store_fetch(a->pos.v[0], a->pos.v + 1, a->pos.n - 1, &o, result);
	return r == NET_BAD_INPUT ? NET_EXIT_BAD_INPUT : status_exit(r);
}

/* A kernel config (plain or compressed): its sha256, a newline, its text. */
static int do_kconfig(struct args *a, struct strbuf *result)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	unsigned long long max = 8u << 20;
	char hex[65];
	int r;

	for (size_t i = 0; i < a->opt.n; i++) {
		const char *v = opt_value(a->opt.v[i], "--max");

		if (!v || parse_ull(v, &max))
			return misuse("kconfig", a->opt.v[i]);
	}
	if (a->pos.n != 1)
		return misuse("kconfig", "expected one file");
	r = decompress_file(a->pos.v[0], (size_t)max, &text, &err);
	if (r) {
		error("%s", err.buf);
	} else if (text.len && memchr(text.buf, 0, text.len)) {
		r = error("%s is not a text file", a->pos.v[0]);
	} else {
		sha256_hex_buf(strbuf_str(&text), text.len, hex);
		strbuf_addf(result, "%s\n", hex);
		strbuf_addstr(result, strbuf_str(&text));
	}
	strbuf_release(&text);
	strbuf_release(&err);
	return r ? LB_EXIT_FAIL : LB_EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(struct args *a, struct strbuf *result);
} commands[] = {
	{ "fetch", do_fetch },
	{ "sha256", do_sha256 },
	{ "extract", do_extract },
	{ "cpio", do_cpio },
	{ "pack", do_pack },
	{ "unpack", do_unpack },
	{ "push", do_push },
	{ "fetch-results", do_fetch_results },
	{ "kconfig", do_kconfig },
};

/* Write all of buf to fd; 0 or -1 with a message. */
static int write_result(int fd, const struct strbuf *buf)
{
	size_t done = 0;

	while (done < buf->len) {
		ssize_t w = write(fd, buf->buf + done, buf->len - done);

		/* a reader that stopped reading (lrubench interrupted) must not
		 * keep us blocked here past its SIGTERM */
		if (w < 0 && errno == EINTR && !lb_stop_requested())
			continue;
		if (w < 0)
			return error_errno("cannot write the result");
		done += (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { STRLIST_INIT, STRLIST_INIT };
	struct strbuf result = STRBUF_INIT;
	int ret = -1, result_fd = STDOUT_FILENO;

	/* should lrubench die without passing its stop on, unwind all the same */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signals_install();
	if (argc < 2)
		return misuse("", "expected a command (fetch, sha256, extract, cpio, pack, unpack, push, fetch-results, kconfig)");
	split_args(argc, argv, &a);
	/* -q and --result-fd belong to every command */
	for (size_t i = 0; i < a.opt.n; i++) {
		const char *v = opt_value(a.opt.v[i], "--result-fd");
		unsigned long long fd;

		if (v && (parse_ull(v, &fd) || fd > INT_MAX))
			return misuse(argv[1], a.opt.v[i]);
		if (v)
			result_fd = (int)fd;
		else if (!strcmp(a.opt.v[i], "-q"))
			lb_quiet = 1;
		else
			continue;
		free(a.opt.v[i]);
		memmove(a.opt.v + i, a.opt.v + i + 1, (a.opt.n - i) * sizeof(*a.opt.v));
		a.opt.n--;
		i--;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			ret = commands[i].fn(&a, &result);
	if (ret < 0)
		ret = misuse(argv[1], "unknown command");
	if (!ret && write_result(result_fd, &result))
		ret = LB_EXIT_FAIL;
	strbuf_release(&result);
	strlist_release(&a.pos);
	strlist_release(&a.opt);
	return ret;
}
