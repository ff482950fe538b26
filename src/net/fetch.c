// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Downloads into a verified cache with libcurl; see fetch.h for the rules.
 * SHA-256 comes from OpenSSL's libcrypto (EVP), hashed while the bytes
 * arrive so a verified download costs no second pass over the file.
 */
#include "net/fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include "core/cleanup.h"
#include "core/util.h"
#include "net/store_auth.h"

#define FETCH_BUFSZ (512 * 1024)

static void hex_of(const unsigned char *md, char out[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[64] = '\0';
}

void sha256_hex_buf(const void *data, size_t len, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	hex_of(md, out);
}

void fetch_cache_key(const char *url, char out[65])
{
	sha256_hex_buf(url, strlen(url), out);
}

int sha256_hex_file(const char *path, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	char *buf;
	int fd, ret = 0;
	ssize_t r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot open %s", path);
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		close(fd);
		EVP_MD_CTX_free(ctx);
		return error("cannot set up sha256 for %s", path);
	}
	buf = xmalloc(FETCH_BUFSZ);
	while ((r = read(fd, buf, FETCH_BUFSZ)) != 0) {
		if (r < 0) {
			if (errno == EINTR && !lb_stop_requested())
				continue;
			ret = error_errno("cannot read %s", path);
			break;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)r);
	}
	if (!ret) {
		EVP_DigestFinal_ex(ctx, md, &mdlen);
		hex_of(md, out);
	}
	free(buf);
	EVP_MD_CTX_free(ctx);
	close(fd);
	return ret;
}

static bool is_loopback(const char *ip)
{
	return !strncmp(ip, "127.", 4) || !strcmp(ip, "::1") || !strcmp(ip, "[::1]") ||
	       !strncmp(ip, "::ffff:127.", 11) || !strcasecmp(ip, "localhost");
}

/* The address a failed connection went to: curl's primary IP when it has
 * one, else the URL's host (curl does not always record a refused address). */
static void failed_host(CURL *h, const char *url, char *out, size_t len)
{
	const char *ip = NULL;
	CURLU *u;
	char *host = NULL;

	out[0] = '\0';
	if (curl_easy_getinfo(h, CURLINFO_PRIMARY_IP, &ip) == CURLE_OK && ip && *ip) {
		snprintf(out, len, "%s", ip);
		return;
	}
	u = curl_url();
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK)
		snprintf(out, len, "%s", host);
	curl_free(host);
	curl_url_cleanup(u);
}

bool fetch_is_transient(int curl_code, long http, const char *ip)
{
	switch ((CURLcode)curl_code) {
	case CURLE_COULDNT_CONNECT:
		/* refused on loopback: nothing listens here, waiting will not help */
		return !(ip && is_loopback(ip));
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_SSL_CONNECT_ERROR:
		return true;
	case CURLE_HTTP_RETURNED_ERROR:
		return http == 408 || http == 429 || http == 500 || http == 502 ||
		       http == 503 || http == 504;
	default:
		return false;
	}
}

/* The temp file of a download in progress; the cleanup action unlinks it
 * (async-signal-safe: the path lives in this struct, not on the heap). */
struct download {
	char tmp[4096];
	int fd;
	int cleanup_id;
	EVP_MD_CTX *md;
	unsigned long long bytes;
	unsigned long long max_bytes;   /* more is refused: --max-size */
	double deadline;                /* monotonic time the whole fetch must end by */
	bool too_large;
	int write_errno;
	/* progress */
	bool bar;
	const char *name;
	double start, last_draw;
	bool drawn;
};

static void unlink_tmp(void *arg)
{
	struct download *d = arg;

	unlink(d->tmp);
}

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct download *d = arg;
	size_t len = size * nmemb, done = 0;

	/* a server that sends more than it said, or never says: the cap holds */
	if (d->bytes + len > d->max_bytes) {
		d->too_large = true;
		return 0;   /* CURLE_WRITE_ERROR */
	}
	while (done < len) {
		ssize_t w = write(d->fd, ptr + done, len - done);

		if (w < 0) {
			if (errno == EINTR && !lb_stop_requested())
				continue;
			d->write_errno = errno;
			return 0;   /* CURLE_WRITE_ERROR */
		}
		done += (size_t)w;
	}
	if (d->md)
		EVP_DigestUpdate(d->md, ptr, len);
	d->bytes += len;
	return len;
}

static void draw_bar(struct download *d, curl_off_t total, curl_off_t now, bool final)
{
	double t = now_monotonic(), el = t - d->start;
	double mib = (double)now / 1048576.0, rate = el > 0 ? mib / el : 0;
	char bar[31];
	int fill = 0;

	if (!final && t - d->last_draw < 0.2)
		return;
	d->last_draw = t;
	if (total > 0) {
		fill = (int)(30.0 * (double)now / (double)total);
		if (fill > 30)
			fill = 30;
	}
	memset(bar, '#', (size_t)fill);
	memset(bar + fill, total > 0 ? '.' : '?', (size_t)(30 - fill));
	bar[30] = '\0';
	if (total > 0)
		fprintf(stderr, "\r%s [%s] %3d%% %.1f/%.1f MiB %.1f MiB/s ", d->name, bar,
			(int)(100.0 * (double)now / (double)total), mib,
			(double)total / 1048576.0, rate);
	else
		fprintf(stderr, "\r%s [%s] %.1f MiB %.1f MiB/s ", d->name, bar, mib, rate);
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
	d->drawn = true;
}

static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	struct download *d = arg;

	(void)ultotal;
	(void)ulnow;
	if (lb_stop_requested())
		return 1;   /* CURLE_ABORTED_BY_CALLBACK */
	if (d->bar)
		draw_bar(d, dltotal, dlnow, false);
	return 0;
}

static int truncate_tmp(struct download *d)
{
	if (ftruncate(d->fd, 0) || lseek(d->fd, 0, SEEK_SET) < 0)
		return error_errno("cannot truncate %s", d->tmp);
	d->bytes = 0;
	if (d->md)
		EVP_DigestInit_ex(d->md, EVP_sha256(), NULL);
	return 0;
}

/* ~/.netrc for source downloads, read once (store_auth.h: its entry for
 * the URL's host only, never for a redirect's other host or port). Loaded
 * by fetch_url before the first attempt. */
static struct store_auth source_auth;
static bool source_auth_loaded;

/* Where a limit is set: fetch's flag, and for a source download also
 * kernbench's key; fetch --results (o->auth) has the flag only. */
static const char *limit_names(const struct fetch_opts *o, const char *flag)
{
	if (o->auth)
		return flag;
	return !strcmp(flag, "--timeout") ? "--timeout, kernbench.fetch_timeout" :
					    "--max-size, kernbench.fetch_max_size";
}

/* One attempt: FETCH_OK; FETCH_FAILED (*transient says whether to retry, msg says
 * why); FETCH_INTERRUPTED */
static int attempt(CURL *h, const char *url, const struct fetch_opts *o, struct download *d,
		   bool *transient, struct strbuf *msg)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	long http = 0, ct = o->connect_timeout > 0 ? (long)o->connect_timeout : 30;
	long lst = o->low_speed_time > 0 ? (long)o->low_speed_time : 60;
	double left = d->deadline - now_monotonic();
	char ip[256], lim[32];
	CURLcode rc;

	if (left <= 0) {
		*transient = false;
		strbuf_reset(msg);
		strbuf_addf(msg, "no time left (%s)", limit_names(o, "--timeout"));
		return -1;
	}
	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https,file");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, ct);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, lst);
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, (long)FETCH_BUFSZ);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "lrubench/" LRUBENCH_VERSION);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, d);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, d);
	/* the limits: a declared size over the cap is refused before a byte;
	 * the whole fetch, every attempt together, ends by the deadline (a
	 * server trickling 1.1 KB/s passes the low-speed check forever) */
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)d->max_bytes);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(left * 1000) + 1);
	/* credentials live in ~/.netrc, never in the URL (stored and printed);
	 * a source download gets the netrc part only, never a store's token */
	store_auth_apply(h, o->auth ? o->auth : &source_auth, url);

	d->start = d->last_draw = now_monotonic();
	d->drawn = false;
	rc = curl_easy_perform(h);
	if (d->drawn) {
		curl_off_t total = 0;

		curl_easy_getinfo(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &total);
		draw_bar(d, total, (curl_off_t)d->bytes, true);
	}
	if (rc == CURLE_OK)
		return 0;
	if (rc == CURLE_ABORTED_BY_CALLBACK || lb_stop_requested())
		return FETCH_INTERRUPTED;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &http);
	failed_host(h, url, ip, sizeof(ip));
	*transient = fetch_is_transient(rc, http, ip);
	strbuf_reset(msg);
	format_size(d->max_bytes, lim, sizeof(lim));
	if (d->too_large || rc == CURLE_FILESIZE_EXCEEDED) {
		*transient = false;
		strbuf_addf(msg, "larger than %sB (%s)", lim, limit_names(o, "--max-size"));
		return -1;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT && now_monotonic() >= d->deadline) {
		*transient = false;
		strbuf_addf(msg, "not done within the time limit (%s) after %llu bytes",
			    limit_names(o, "--timeout"), d->bytes);
		return -1;
	}
	if (rc == CURLE_HTTP_RETURNED_ERROR && http && o->auth)
		strbuf_addf(msg, "HTTP status %ld: %s", http,
			    store_http_meaning(http, store_auth_given(o->auth)));
	else if (rc == CURLE_HTTP_RETURNED_ERROR && http)
		strbuf_addf(msg, "HTTP status %ld", http);
	else if (rc == CURLE_WRITE_ERROR && d->write_errno)
		strbuf_addf(msg, "cannot write %s: %s", d->tmp, strerror(d->write_errno));
	else
		strbuf_addf(msg, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
	if (rc == CURLE_PARTIAL_FILE)
		strbuf_addf(msg, " (truncated transfer after %llu bytes)", d->bytes);
	return -1;
}

static int verify_entry(const char *path, const char *want, const char *url)
{
	char got[65];

	if (sha256_hex_file(path, got))
		return -1;
	if (strcasecmp(got, want)) {
		char *shown = store_url_shown(url);

		warning("cached %s (of %s) has sha256 %s, expected %s: fetching it again",
			path, shown, got, want);
		free(shown);
		return 1;
	}
	return 0;
}

static enum fetch_status download(CURL *h, const char *url, const struct fetch_opts *o,
				  const char *entry, mode_t mode, struct fetch_result *res)
{
	const char *dir = o->cache_dir ? o->cache_dir : FETCH_DEFAULT_CACHE;
	int retries = o->retries < 0 ? 3 : o->retries;
	struct download *d = xcalloc(1, sizeof(*d));
	struct strbuf msg = STRBUF_INIT;
	enum fetch_status st = FETCH_FAILED;
	const char *base = strrchr(url, '/');
	char key[65], got[65];
	char *side = NULL, *shown = store_url_shown(url);
	int r = -1;

	fetch_cache_key(url, key);
	snprintf(d->tmp, sizeof(d->tmp), "%s/.tmp-%.16s-XXXXXX", dir, key);
	d->fd = mkostemp(d->tmp, O_CLOEXEC);
	if (d->fd < 0) {
		error_errno("cannot create a temp file in cache folder %s", dir);
		free(d);
		free(shown);
		return FETCH_FAILED;
	}
	d->cleanup_id = cleanup_push("download temp file", unlink_tmp, d);
	d->max_bytes = o->max_bytes ? o->max_bytes : FETCH_DEFAULT_MAX_BYTES;
	d->deadline = now_monotonic() + (o->timeout > 0 ? o->timeout : FETCH_DEFAULT_TIMEOUT);
	/* mkstemp makes 0600: an entry is world-readable only when what it
	 * holds was (a file:// source readable by its owner alone stays so) */
	fchmod(d->fd, mode);
	if (o->sha256) {
		d->md = EVP_MD_CTX_new();
		if (!d->md || !EVP_DigestInit_ex(d->md, EVP_sha256(), NULL)) {
			error("cannot set up sha256 for %s", shown);
			goto out;
		}
	}
	d->name = base && base[1] ? base + 1 : url;
	d->bar = o->progress > 0 || (o->progress < 0 && isatty(STDERR_FILENO));

	for (int i = 0; i <= retries; i++) {
		bool transient = false;
		double delay = (double)(1 << (i < 6 ? i : 6));

		if (i && truncate_tmp(d))
			goto out;
		r = attempt(h, url, o, d, &transient, &msg);
		if (r != FETCH_FAILED)
			break;
		if (!transient || i == retries)
			break;
		if (now_monotonic() + delay >= d->deadline) {
			strbuf_addf(&msg, "; no time left for a retry (%s)",
				    limit_names(o, "--timeout"));
			break;
		}
		warning("cannot fetch %s: %s; retrying in %.0f s (%d of %d)", shown, msg.buf,
			delay, i + 1, retries);
		if (lb_sleep(delay)) {
			r = FETCH_INTERRUPTED;
			break;
		}
	}
	if (r == FETCH_INTERRUPTED) {
		error("interrupted while fetching %s", shown);
		st = FETCH_INTERRUPTED;
		goto out;
	}
	if (r) {
		error("cannot fetch %s: %s", shown, msg.buf);
		goto out;
	}
	res->seconds = now_monotonic() - d->start;
	res->bytes = d->bytes;
	if (d->md) {
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned int mdlen = 0;

		EVP_DigestFinal_ex(d->md, md, &mdlen);
		hex_of(md, got);
		if (strcasecmp(got, o->sha256)) {
			error("checksum mismatch for %s: sha256 is %s, expected %s; not cached",
			      shown, got, o->sha256);
			goto out;
		}
	}
	if (close(d->fd)) {
		d->fd = -1;
		error_errno("cannot write %s", d->tmp);
		goto out;
	}
	d->fd = -1;
	side = xasprintf("%s.url", entry);
	{
		char *line = xasprintf("%s\n", url);
		int w = write_file_atomic(side, line, strlen(line));

		free(line);
		if (w)
			goto out;
	}
	if (rename(d->tmp, entry)) {
		error_errno("cannot rename %s to %s", d->tmp, entry);
		goto out;
	}
	cleanup_pop(d->cleanup_id, false);
	d->cleanup_id = 0;
	st = FETCH_OK;
out:
	if (d->fd >= 0)
		close(d->fd);
	if (d->cleanup_id > 0)
		cleanup_pop(d->cleanup_id, true);
	if (st != FETCH_OK && side)
		unlink(side);
	EVP_MD_CTX_free(d->md);
	free(d);
	free(side);
	free(shown);
	strbuf_release(&msg);
	return st;
}

/*
 * file:// reads a local file (a mirror on a shared folder, tests): only a
 * regular file, never a FIFO or /dev/zero, and the cache entry is no more
 * readable than the file (fetch file:///etc/shadow must not publish it).
 * http(s) data is public: 0644.
 */
static int file_source_mode(const char *url, mode_t *mode)
{
	CURLU *u;
	char *path = NULL;
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	int fd, ret = 0;

	*mode = 0644;
	if (strncasecmp(url, "file://", 7))
		return 0;
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE) != CURLUE_OK) {
		curl_url_cleanup(u);
		return error("cannot read the path of %s", url);
	}
	fd = open_regular_file(path, 0, &err);
	if (fd < 0 || fstat(fd, &st)) {
		ret = error("%s: %s", url, fd < 0 ? err.buf : strerror(errno));
	} else if (!(st.st_mode & S_IROTH)) {
		*mode = 0600;
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&err);
	curl_free(path);
	curl_url_cleanup(u);
	return ret;
}

enum fetch_status fetch_url(const char *url, const struct fetch_opts *o, struct fetch_result *res)
{
	static bool curl_ready;
	mode_t mode;
	const char *dir = o->cache_dir ? o->cache_dir : FETCH_DEFAULT_CACHE;
	enum fetch_status st;
	char key[65];
	char *entry;
	CURL *h;

	memset(res, 0, sizeof(*res));
	if (!fetch_is_url(url)) {
		char *shown = store_url_shown(url);

		error("unsupported URL '%s': use http://, https:// or file://", shown);
		free(shown);
		return FETCH_FAILED;
	}
	if (fetch_url_has_credentials(url)) {
		char *r = fetch_url_redacted(url);

		error("%s: a password in a URL would be stored and printed; put it in ~/.netrc", r);
		free(r);
		return FETCH_FAILED;
	}
	if (file_source_mode(url, &mode))
		return FETCH_FAILED;
	if (o->sha256 && sha256_parse_hex(o->sha256, NULL)) {
		error("malformed sha256 '%s' for %s: expected 64 hex digits", o->sha256, url);
		return FETCH_FAILED;
	}
	if (mkdir_p(dir, 0755))
		return FETCH_FAILED;
	fetch_cache_key(url, key);
	entry = xasprintf("%s/%s", dir, key);
	if (path_exists(entry)) {
		int v = o->sha256 ? verify_entry(entry, o->sha256, url) : 0;

		if (v < 0) {
			free(entry);
			return lb_stop_requested() ? FETCH_INTERRUPTED : FETCH_FAILED;
		}
		if (!v) {
			res->path = entry;
			res->cache_hit = true;
			return FETCH_OK;
		}
		unlink(entry);
	}
	if (!o->auth && !source_auth_loaded) {
		if (store_netrc_load(&source_auth, NULL)) {
			free(entry);
			return FETCH_FAILED;
		}
		source_auth_loaded = true;
	}
	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
			free(entry);
			error("cannot initialise libcurl");
			return FETCH_FAILED;
		}
		curl_ready = true;
	}
	h = curl_easy_init();
	if (!h) {
		free(entry);
		error("cannot initialise libcurl");
		return FETCH_FAILED;
	}
	st = download(h, url, o, entry, mode, res);
	curl_easy_cleanup(h);
	if (st != FETCH_OK) {
		free(entry);
		return st;
	}
	res->path = entry;
	if (!o->quiet) {
		char *shown = store_url_shown(url);

		info("fetched %s (%.1f MiB in %.1f s) into %s", shown,
		     (double)res->bytes / 1048576.0, res->seconds, entry);
		free(shown);
	}
	return FETCH_OK;
}
