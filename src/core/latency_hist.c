// SPDX-License-Identifier: GPL-2.0-or-later
/* Log-bucket latency histograms and their reader (latency_hist.h). */
#include "core/latency_hist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/results.h"

#define MAX_OPS 16          /* pairs of tracepoints in one detail: 5 today */
#define MAX_COUNT 9007199254740992.0   /* 2^53: exact in a JSON double */

double lhist_lo(size_t i)
{
	return i == 0 ? 0 : exp2((double)(i - 1) / LHIST_SUB);
}

double lhist_hi(size_t i)
{
	return exp2((double)i / LHIST_SUB);
}

size_t lhist_bucket(double us)
{
	double l;
	size_t i;

	if (!(us >= 1))
		return 0;   /* also NaN */
	l = floor(log2(us) * LHIST_SUB);
	if (l >= LHIST_NBUCKETS - 1)
		return LHIST_NBUCKETS - 1;
	i = (size_t)l + 1;
	/* log2's rounding at an edge: the edges are the definition */
	if (i > 1 && us < lhist_lo(i))
		i--;
	else if (i < LHIST_NBUCKETS - 1 && us >= lhist_hi(i))
		i++;
	return i;
}

void lhist_add(struct lhist *h, double us)
{
	if (!(us >= 0))
		us = 0;
	h->b[lhist_bucket(us)]++;
	h->count++;
	h->sum_us += us;
	if (us > h->max_us)
		h->max_us = us;
}

double lhist_percentile(const struct lhist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (size_t i = 0; i < LHIST_NBUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			double hi = i == LHIST_NBUCKETS - 1 ? h->max_us : lhist_hi(i);

			return hi < h->max_us ? hi : h->max_us;
		}
	}
	return h->max_us;
}

json_object *lhist_buckets_json(const struct lhist *h)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < LHIST_NBUCKETS; i++) {
		json_object *e;

		if (!h->b[i])
			continue;
		e = json_object_new_array();
		json_object_array_add(e, json_object_new_double(lhist_lo(i)));
		json_object_array_add(e, json_object_new_double(
					      i == LHIST_NBUCKETS - 1 && h->max_us > lhist_hi(i) ? h->max_us
												 : lhist_hi(i)));
		json_object_array_add(e, json_object_new_int64((int64_t)h->b[i]));
		json_object_array_add(a, e);
	}
	return a;
}

static bool number(json_object *v, double *d)
{
	if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*d = json_object_get_double(v);
	return isfinite(*d);
}

int lhist_read_json(json_object *buckets, const char *file, const char *path,
		    struct lhist_read *out, struct strbuf *err)
{
	size_t n;
	double prev_hi = 0;

	memset(out, 0, sizeof(*out));
	if (!buckets || !json_object_is_type(buckets, json_type_array)) {
		strbuf_addf(err, "%s: %s: not an array of [lo_us, hi_us, count]", file, path);
		return -1;
	}
	n = json_object_array_length(buckets);
	if (n > LHIST_NBUCKETS) {
		strbuf_addf(err, "%s: %s: %zu buckets, more than the %d a histogram has", file, path, n,
			    LHIST_NBUCKETS);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		json_object *e = json_object_array_get_idx(buckets, k);
		double lo, hi, c;

		if (!e || !json_object_is_type(e, json_type_array) || json_object_array_length(e) != 3 ||
		    !number(json_object_array_get_idx(e, 0), &lo) ||
		    !number(json_object_array_get_idx(e, 1), &hi) ||
		    !number(json_object_array_get_idx(e, 2), &c)) {
			strbuf_addf(err, "%s: %s[%zu]: not [lo_us, hi_us, count] of three numbers", file,
				    path, k);
			return -1;
		}
		if (lo < 0 || hi <= lo || hi > 1e12 || lo < prev_hi) {
			strbuf_addf(err, "%s: %s[%zu]: bucket [%g, %g) is not after the one before it "
				    "(0 <= lo < hi, ascending, no overlap)", file, path, k, lo, hi);
			return -1;
		}
		if (c < 1 || c > MAX_COUNT || c != floor(c)) {
			strbuf_addf(err, "%s: %s[%zu]: count %g is not a whole number >= 1", file, path, k, c);
			return -1;
		}
		out->lo[k] = lo;
		out->hi[k] = hi;
		out->count[k] = (uint64_t)c;
		out->total += (uint64_t)c;
		prev_hi = hi;
	}
	out->n = n;
	return 0;
}

static int check_op(json_object *op, const char *file, const char *path, struct strbuf *err)
{
	json_object *name, *count, *buckets;
	struct lhist_read *h;
	char *bpath;
	double c;
	int r;

	if (!json_object_is_type(op, json_type_object) ||
	    !json_object_object_get_ex(op, "name", &name) || !json_object_is_type(name, json_type_string) ||
	    json_string_has_nul(name)) {
		strbuf_addf(err, "%s: %s: not an object with a \"name\" string", file, path);
		return -1;
	}
	if (!json_object_object_get_ex(op, "count", &count) || !json_object_is_type(count, json_type_int) ||
	    (c = json_object_get_double(count)) < 0 || c > MAX_COUNT) {
		strbuf_addf(err, "%s: %s.count: not a whole number >= 0", file, path);
		return -1;
	}
	if (!json_object_object_get_ex(op, "buckets", &buckets)) {
		strbuf_addf(err, "%s: %s: no \"buckets\"", file, path);
		return -1;
	}
	h = xmalloc(sizeof(*h));
	bpath = xasprintf("%s.buckets", path);
	r = lhist_read_json(buckets, file, bpath, h, err);
	if (!r && (double)h->total != c) {
		strbuf_addf(err, "%s: %s: the buckets hold %llu stalls, \"count\" says %.0f (truncated?)",
			    file, bpath, (unsigned long long)h->total, c);
		r = -1;
	}
	free(bpath);
	free(h);
	return r;
}

int lhist_check_details(json_object *details, const char *file, struct strbuf *err)
{
	size_t n;

	if (!details || !json_object_is_type(details, json_type_array))
		return 0;
	n = json_object_array_length(details);
	for (size_t i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(details, i), *p, *rl, *ops;
		size_t nops;

		if (!d || !json_object_is_type(d, json_type_object) ||
		    !json_object_object_get_ex(d, "profile", &p) || !json_object_is_type(p, json_type_object) ||
		    !json_object_object_get_ex(p, "reclaim_latency", &rl))
			continue;
		if (!json_object_is_type(rl, json_type_object) ||
		    !json_object_object_get_ex(rl, "ops", &ops) || !json_object_is_type(ops, json_type_array)) {
			strbuf_addf(err, "%s: details[%zu].profile.reclaim_latency: not an object with an "
				    "\"ops\" array", file, i);
			return -1;
		}
		nops = json_object_array_length(ops);
		if (nops > MAX_OPS) {
			strbuf_addf(err, "%s: details[%zu].profile.reclaim_latency.ops: %zu entries, more "
				    "than %d", file, i, nops, MAX_OPS);
			return -1;
		}
		for (size_t j = 0; j < nops; j++) {
			char *path = xasprintf("details[%zu].profile.reclaim_latency.ops[%zu]", i, j);
			int r = check_op(json_object_array_get_idx(ops, j), file, path, err);

			free(path);
			if (r)
				return -1;
		}
	}
	return 0;
}
