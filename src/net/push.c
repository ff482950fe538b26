// SPDX-License-Identifier: GPL-2.0-or-later
/* Uploads to a results store; the rules are in push.h. */
#include "net/push.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include "core/cleanup.h"
#include "core/net_client.h"
#include "net/fetch.h"
#include "net/store_auth.h"

#define PUSH_BUFSZ (512 * 1024)
/* A file up to this size is read once, into memory: hashed as it is read
 * (each piece still in the cache) and sent from there; a larger one is
 * hashed in a pass of its own and sent from the file. Per worker. */
#define PUSH_MEM_MAX (16 * 1024 * 1024)
#define PUSH_HASH_CHUNK (128 * 1024)
/* Bodies up to this size go without "Expect: 100-continue" (libcurl 7.x
 * asks for it on every PUT): waiting for the store's interim answer is a
 * round trip per file, and all it saves is sending a small body the store
 * then refuses. Larger ones keep it, as libcurl does for POST. */
#define PUSH_EXPECT_MIN (1024 * 1024)
/* a DELETE of a temporary upload while unwinding: short, and not stopped
 * by the stop request that caused it */
#define CLEANUP_TIMEOUT 5L

char *push_final_url(const char *url, const char *file)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *base = strrchr(file, '/');
	size_t n = strlen(url);
	struct strbuf sb = STRBUF_INIT;

	if (!n || url[n - 1] != '/')
		return xstrdup(url);
	/* the file's name is one path segment: all but RFC 3986's unreserved
	 * characters percent-encoded, so "a?x=1#.tar.zst" is a name, never a
	 * query or a fragment (which would also skip temp-and-MOVE) */
	strbuf_addstr(&sb, url);
	for (base = base ? base + 1 : file; *base; base++) {
		unsigned char c = (unsigned char)*base;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~')
			strbuf_add(&sb, base, 1);
		else
			strbuf_addf(&sb, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
	return strbuf_detach(&sb);
}

char *push_temp_url(const char *final, const char *suffix)
{
	size_t end = strcspn(final, "?#");
	const char *slash = final + end;

	while (slash > final && slash[-1] != '/')
		slash--;
	return xasprintf("%.*s.%.*s.part-%s", (int)(slash - final), final,
			 (int)(final + end - slash), slash, suffix);
}

/* ---- one request, retried ---- */

struct body {
	int fd;
	off_t size;
	unsigned char *mem;   /* the whole file when it is small; else NULL */
	off_t pos;            /* in mem */
};

static int body_rewind(struct body *b)
{
	b->pos = 0;
	return b->mem ? 0 : lseek(b->fd, 0, SEEK_SET) < 0 ? -1 : 0;
}

struct outcome {
	CURLcode rc;
	long http;
	char err[CURL_ERROR_SIZE];
	char where[2048];   /* the URL that answered after redirects; "" when none */
};

static size_t on_read(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct body *b = arg;

	if (b->mem) {
		size_t n = size * nmemb, left = (size_t)(b->size - b->pos);

		if (n > left)
			n = left;
		memcpy(ptr, b->mem + b->pos, n);
		b->pos += (off_t)n;
		return n;
	}
	for (;;) {
		ssize_t r = read(b->fd, ptr, size * nmemb);

		if (r >= 0)
			return (size_t)r;
		if (errno != EINTR || lb_stop_requested())
			return CURL_READFUNC_ABORT;
	}
}

static int on_seek(void *arg, curl_off_t offset, int origin)
{
	struct body *b = arg;

	if (b->mem) {
		off_t to = origin == SEEK_SET ? 0 : origin == SEEK_CUR ? b->pos : b->size;

		to += (off_t)offset;
		if (to < 0 || to > b->size)
			return CURL_SEEKFUNC_FAIL;
		b->pos = to;
		return CURL_SEEKFUNC_OK;
	}
	return lseek(b->fd, (off_t)offset, origin) < 0 ? CURL_SEEKFUNC_FAIL : CURL_SEEKFUNC_OK;
}

static size_t on_discard(char *ptr, size_t size, size_t nmemb, void *arg)
{
	(void)ptr;
	(void)arg;
	return size * nmemb;
}

static int on_progress(void *arg, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d)
{
	(void)a;
	(void)b;
	(void)c;
	(void)d;
	/* arg is non-NULL for requests that must finish while unwinding */
	return !arg && lb_stop_requested();
}

struct session {
	CURL *h;
	const struct push_opts *o;
	const struct store_auth *auth;
};

static void setup(struct session *s, const char *method, const char *url, struct body *b,
		  struct curl_slist *headers, struct outcome *out, bool unwinding)
{
	CURL *h = s->h;
	long ct = s->o->connect_timeout > 0 ? (long)s->o->connect_timeout : 30;
	long to = s->o->timeout > 0 ? (long)s->o->timeout : 600;

	curl_easy_reset(h);   /* keeps the connection for the next request */
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, ct);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, unwinding ? CLEANUP_TIMEOUT : to);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "lrubench/" LRUBENCH_VERSION);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, out->err);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_discard);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, unwinding ? (void *)h : NULL);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	store_auth_apply(h, s->auth, url);
	if (b) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
		curl_easy_setopt(h, CURLOPT_READDATA, b);
		curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
		curl_easy_setopt(h, CURLOPT_SEEKDATA, b);
		curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)b->size);
		curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, (long)PUSH_BUFSZ);
	}
	if (!strcmp(method, "HEAD"))
		curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "PUT"))
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
}

static bool http_transient(long http)
{
	return http == 408 || http == 429 || (http >= 500 && http != 501 && http != 505 &&
					      http != 507);
}

/*
 * method url: one request, retried while the failure is transient.
 * 0 with out->http the final status (any: the caller decides what it
 * means); -1 when no status came (out->rc says why) or every attempt ended
 * in a transient status; NET_INTERRUPTED.
 */
static int request(struct session *s, const char *method, const char *url, struct body *b,
		   struct curl_slist *headers, struct outcome *out, bool unwinding)
{
	int retries = unwinding ? 0 : s->o->retries < 0 ? 3 : s->o->retries;
	char *shown = store_url_shown(url);
	int ret = -1;

	for (int i = 0; i <= retries; i++) {
		double delay = (double)(1 << (i < 6 ? i : 6));
		bool transient;
		char ip[64] = "";
		const char *pip = NULL;

		memset(out, 0, sizeof(*out));
		if (b && body_rewind(b)) {
			snprintf(out->err, sizeof(out->err), "cannot rewind the file: %s", strerror(errno));
			out->rc = CURLE_READ_ERROR;
			break;
		}
		setup(s, method, url, b, headers, out, unwinding);
		out->rc = curl_easy_perform(s->h);
		curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &out->http);
		{
			const char *eff = NULL;
			long hops = 0;

			/* only a redirect changes where: libcurl may spell the URL
			 * it was given otherwise */
			if (curl_easy_getinfo(s->h, CURLINFO_REDIRECT_COUNT, &hops) == CURLE_OK &&
			    hops > 0 &&
			    curl_easy_getinfo(s->h, CURLINFO_EFFECTIVE_URL, &eff) == CURLE_OK && eff &&
			    strlen(eff) < sizeof(out->where))
				snprintf(out->where, sizeof(out->where), "%s", eff);
		}
		if (!unwinding && (out->rc == CURLE_ABORTED_BY_CALLBACK || lb_stop_requested())) {
			ret = NET_INTERRUPTED;
			break;
		}
		if (out->rc == CURLE_OK && !http_transient(out->http)) {
			ret = 0;
			break;
		}
		if (curl_easy_getinfo(s->h, CURLINFO_PRIMARY_IP, &pip) == CURLE_OK && pip && *pip)
			snprintf(ip, sizeof(ip), "%s", pip);
		else if (store_url_loopback(url))   /* a refused connection records none */
			snprintf(ip, sizeof(ip), "127.0.0.1");
		transient = out->rc == CURLE_OK ? true : fetch_is_transient(out->rc, 0, ip);
		if (!transient || i == retries)
			break;
		if (out->rc == CURLE_OK)
			warning("%s %s: HTTP %ld, %s; retrying in %.0f s (%d of %d)", method, shown,
				out->http, store_http_meaning(out->http, store_auth_given(s->auth)),
				delay, i + 1, retries);
		else
			warning("%s %s: %s; retrying in %.0f s (%d of %d)", method, shown,
				out->err[0] ? out->err : curl_easy_strerror(out->rc), delay, i + 1,
				retries);
		if (lb_sleep(delay)) {
			ret = NET_INTERRUPTED;
			break;
		}
	}
	free(shown);
	return ret;
}

/* The error for a request that did not get the status it wanted. url may
 * be "FINAL (as .NAME.part-X)": the name a user gave comes first. */
static int failed(struct session *s, const char *method, const char *url,
		  const struct outcome *out)
{
	char *shown = store_url_shown(url);
	long to = s->o->timeout > 0 ? (long)s->o->timeout : 600;

	if (out->rc == CURLE_OK)
		error("%s %s: HTTP %ld: %s", method, shown, out->http,
		      store_http_meaning(out->http, store_auth_given(s->auth)));
	else if (out->rc == CURLE_TOO_MANY_REDIRECTS)
		error("%s %s: the store redirects in a loop (more than 10 redirects)", method, shown);
	else if (out->rc == CURLE_OPERATION_TIMEDOUT)
		error("%s %s: no complete answer within %ld s (a slow or hung store; --timeout "
		      "sets the limit)", method, shown, to);
	else
		error("%s %s: %s", method, shown, out->err[0] ? out->err : curl_easy_strerror(out->rc));
	free(shown);
	return -1;
}

/* ---- one file ---- */

static void digest_headers(const char *hex, enum push_checksum c, struct curl_slist **h)
{
	unsigned char md[32], b64[48];
	char *line;

	if (c == CHECKSUM_NONE)
		return;
	sha256_parse_hex(hex, md);
	EVP_EncodeBlock(b64, md, 32);
	line = c == CHECKSUM_AMZ ? xasprintf("x-amz-checksum-sha256: %s", b64)
				 : xasprintf("Repr-Digest: sha-256=:%s:", b64);
	*h = curl_slist_append(*h, line);
	free(line);
}

/* A temporary upload that must not stay: DELETE, best effort, even while
 * unwinding from a stop request. */
static void delete_temp(struct session *s, const char *temp)
{
	struct outcome out;

	if (request(s, "DELETE", temp, NULL, NULL, &out, true) ||
	    (out.http >= 300 && out.http != 404)) {
		char *shown = store_url_shown(temp);

		warning("could not delete the temporary upload %s (HTTP %ld): remove it by hand",
			shown, out.http);
		free(shown);
	}
}

static bool ok_status(long http)
{
	return http >= 200 && http < 300;
}

/* PUT the body to url (If-None-Match: * when it must not replace);
 * messages name final, and url when it is the temporary name. */
static int put(struct session *s, const char *url, const char *final, struct body *b,
	       struct curl_slist *digest, bool no_replace, struct outcome *out)
{
	struct curl_slist *h = NULL;
	char *named = NULL;
	int r;

	for (struct curl_slist *d = digest; d; d = d->next)
		h = curl_slist_append(h, d->data);
	if (no_replace)
		h = curl_slist_append(h, "If-None-Match: *");
	if (b->size <= PUSH_EXPECT_MIN)
		h = curl_slist_append(h, "Expect:");
	r = request(s, "PUT", url, b, h, out, false);
	curl_slist_free_all(h);
	if (r == -1 || (!r && !ok_status(out->http))) {
		const char *base = strrchr(url, '/');

		named = strcmp(url, final) ? xasprintf("%s (as %s)", final, base ? base + 1 : url)
					   : xstrdup(final);
		r = failed(s, "PUT", named, out);
		free(named);
	}
	return r;
}

/*
 * The sha256 of the open file b->fd (b->size bytes) into hex; a small file
 * is kept in b->mem, hashed piece by piece as it is read, so it is read
 * once. 0 or -1 with a message.
 */
static int load_and_hash(struct body *b, const char *file, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	off_t got = 0;
	int ret = 0;

	if (b->size > PUSH_MEM_MAX)
		return sha256_hex_file(file, hex);
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return error("cannot set up sha256 for %s", file);
	}
	b->mem = xmalloc(b->size ? (size_t)b->size : 1);
	while (got < b->size) {
		size_t want = (size_t)(b->size - got);
		ssize_t r = read(b->fd, b->mem + got, want < PUSH_HASH_CHUNK ? want : PUSH_HASH_CHUNK);

		if (r < 0 && errno == EINTR && !lb_stop_requested())
			continue;
		if (r < 0) {
			ret = error_errno("cannot read %s", file);
			break;
		}
		if (r == 0) {
			ret = error("%s: shorter than its size of %lld bytes (changed while being "
				    "pushed?)", file, (long long)b->size);
			break;
		}
		EVP_DigestUpdate(ctx, b->mem + got, (size_t)r);
		got += r;
	}
	if (!ret) {
		static const char digits[] = "0123456789abcdef";

		EVP_DigestFinal_ex(ctx, md, &mdlen);
		for (unsigned int i = 0; i < 32; i++) {
			hex[2 * i] = digits[md[i] >> 4];
			hex[2 * i + 1] = digits[md[i] & 15];
		}
		hex[64] = '\0';
	}
	EVP_MD_CTX_free(ctx);
	return ret;
}

/* The URL of final's name in the folder of url (the one the store
 * redirected a temporary upload to), malloc'ed. */
static char *beside(const char *url, const char *final)
{
	size_t end = strcspn(url, "?#"), fend = strcspn(final, "?#"), fstart = fend;

	while (end && url[end - 1] != '/')
		end--;
	while (fstart && final[fstart - 1] != '/')
		fstart--;
	return xasprintf("%.*s%.*s", (int)end, url, (int)(fend - fstart), final + fstart);
}

/* After a MOVE that answered 2xx: is final there (HEAD)? A store that
 * answers 201 and does nothing must not be reported as pushed. 0; -1
 * (printed); NET_INTERRUPTED. */
static int check_there(struct session *s, const char *final)
{
	struct outcome out;
	char *shown;
	int r = request(s, "HEAD", final, NULL, NULL, &out, false);

	if (r == NET_INTERRUPTED || (!r && ok_status(out.http)))
		return r;
	shown = store_url_shown(final);
	if (!r && (out.http == 404 || out.http == 410)) {
		r = error("MOVE %s: the store answered that it was done, but there is nothing "
			  "there (HEAD: HTTP %ld): not pushed", shown, out.http);
	} else if (!r) {
		warning("MOVE %s: done, but the store does not show it (HEAD: HTTP %ld: %s)",
			shown, out.http, store_http_meaning(out.http, store_auth_given(s->auth)));
	} else {
		r = failed(s, "HEAD", final, &out);
	}
	free(shown);
	return r;
}

static int push_one(struct session *s, const char *file, const char *url, struct strbuf *result)
{
	const struct push_opts *o = s->o;
	char hex[65], rnd[9];
	char *final = push_final_url(url, file), *temp = NULL, *shown = store_url_shown(final);
	struct curl_slist *digest = NULL, *mh = NULL;
	struct body b = { .fd = -1 };
	struct outcome out;
	struct stat st;
	unsigned int r32 = 0;
	bool direct = o->direct || strchr(final, '?');
	int ret = -1;

	b.fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (b.fd < 0) {
		error_errno("cannot open %s", file);
		goto out;
	}
	if (fstat(b.fd, &st) || !S_ISREG(st.st_mode)) {
		error("%s is not a regular file", file);
		goto out;
	}
	fcntl(b.fd, F_SETFL, fcntl(b.fd, F_GETFL) & ~O_NONBLOCK);
	b.size = st.st_size;
	/* without a checksum header the body is read as it is sent, as curl -T does */
	if (o->checksum != CHECKSUM_NONE) {
		if (load_and_hash(&b, file, hex))
			goto out;
		digest_headers(hex, o->checksum, &digest);
	}
	if (direct) {
		ret = put(s, final, final, &b, digest, !o->force, &out);
		goto answered;
	}
	if (getrandom(&r32, sizeof(r32), 0) != sizeof(r32))
		r32 = (unsigned int)getpid() ^ (unsigned int)(now_realtime() * 1e6);
	snprintf(rnd, sizeof(rnd), "%08x", r32);
	temp = push_temp_url(final, rnd);
	ret = put(s, temp, final, &b, digest, false, &out);
	if (ret) {
		/* a half-sent body is dropped by the server, but a stop may have
		 * come after it stored the whole */
		if (ret == NET_INTERRUPTED)
			delete_temp(s, temp);
		goto done;
	}
	/* a PUT redirected elsewhere left the temporary upload there: it is
	 * moved there, to its name beside it, and reported under that name */
	if (out.where[0] && strcmp(out.where, temp)) {
		char *there = beside(out.where, final);

		free(temp);
		temp = xstrdup(out.where);
		free(final);
		final = there;
		free(shown);
		shown = store_url_shown(final);
	}
	{
		char *dest = xasprintf("Destination: %s", final);

		mh = curl_slist_append(mh, dest);
		mh = curl_slist_append(mh, o->force ? "Overwrite: T" : "Overwrite: F");
		free(dest);
	}
	ret = request(s, "MOVE", temp, NULL, mh, &out, false);
	if (!ret && (out.http == 405 || out.http == 501)) {
		/* PUT but no MOVE here: the final name directly, then drop the temp */
		warning("%s: the store does not MOVE (HTTP %ld); putting %s directly", shown,
			out.http, shown);
		ret = put(s, final, final, &b, digest, !o->force, &out);
		delete_temp(s, temp);
		goto answered;
	}
	if (!ret && !ok_status(out.http))
		ret = failed(s, "MOVE", final, &out);
	else if (ret == -1)
		ret = failed(s, "MOVE", final, &out);
	else if (!ret)
		ret = check_there(s, final);
	if (ret)
		delete_temp(s, temp);
	goto done;
answered:
	/* a direct PUT the store redirected: reported where it went */
	if (!ret && out.where[0] && strcmp(out.where, final)) {
		free(shown);
		shown = store_url_shown(out.where);
	}
done:
	if (!ret)
		strbuf_addf(result, "%s\n", shown);
out:
	if (b.fd >= 0)
		close(b.fd);
	free(b.mem);
	curl_slist_free_all(digest);
	curl_slist_free_all(mh);
	free(final);
	free(temp);
	free(shown);
	return ret;
}

/*
 * The files are pushed by PUSH_WORKERS threads, each with its own
 * connection, taking the next file from a shared counter: the hashing of
 * one overlaps the uploads of others, and the store's round trips (two per
 * file: PUT and MOVE) overlap each other. The first failure stops the
 * others after the file each is on; each deletes its own temporary upload.
 */
#define PUSH_WORKERS 4

struct pool {
	char *const *files, *const *urls;
	size_t n, next;
	const struct push_opts *o;
	const struct store_auth *auth;
	struct strbuf *lines;     /* per file: its final URL */
	int status;               /* the first failure: NET_FAILED or NET_INTERRUPTED */
	pthread_mutex_t mu;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct session s = { .h = curl_easy_init(), .o = p->o, .auth = p->auth };

	if (!s.h) {
		pthread_mutex_lock(&p->mu);
		if (!p->status)
			p->status = error("cannot initialise libcurl");
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	for (;;) {
		size_t i;
		int r;

		pthread_mutex_lock(&p->mu);
		i = p->next++;
		r = p->status;
		pthread_mutex_unlock(&p->mu);
		if (r || i >= p->n)
			break;
		r = push_one(&s, p->files[i], p->urls[i], &p->lines[i]);
		if (r) {
			pthread_mutex_lock(&p->mu);
			if (!p->status || r == NET_INTERRUPTED)
				p->status = r;
			pthread_mutex_unlock(&p->mu);
		}
	}
	curl_easy_cleanup(s.h);
	return NULL;
}

int push_files(char *const *files, char *const *urls, size_t n, const struct push_opts *o,
	       struct strbuf *result)
{
	struct pool p = { .files = files, .urls = urls, .n = n, .o = o };
	struct store_auth auth;
	pthread_t th[PUSH_WORKERS];
	size_t nth = n < PUSH_WORKERS ? n : PUSH_WORKERS, started = 0;
	sigset_t all, old;

	for (size_t i = 0; i < n; i++)
		if (store_url_check(urls[i]))
			return -1;
	if (store_auth_load(&auth, o->token_file, o->netrc_file))
		return -1;
	if (auth.token)
		for (size_t i = 0; i < n; i++)
			if (!strncasecmp(urls[i], "http://", 7) && !store_url_loopback(urls[i])) {
				char *shown = store_url_shown(urls[i]);

				warning("sending the token from %s over plain http to %s: anyone on the "
					"way can read it; use https", auth.token_from, shown);
				free(shown);
				break;
			}
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		store_auth_release(&auth);
		return error("cannot initialise libcurl");
	}
	p.auth = &auth;
	p.lines = xcalloc(n ? n : 1, sizeof(*p.lines));
	pthread_mutex_init(&p.mu, NULL);
	/* signals stay with the main thread (it only waits): the workers see a
	 * stop through lb_stop_requested() in curl's progress callback */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (; started < nth; started++)
		if (pthread_create(&th[started], NULL, worker, &p))
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started)
		worker(&p);   /* no thread to be had: do it here */
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (size_t i = 0; i < n; i++) {
		if (!p.status)
			strbuf_addstr(result, strbuf_str(&p.lines[i]));
		strbuf_release(&p.lines[i]);
	}
	free(p.lines);
	pthread_mutex_destroy(&p.mu);
	if (p.status == NET_INTERRUPTED)
		error("interrupted while pushing; temporary uploads deleted");
	store_auth_release(&auth);
	return p.status;
}
