// SPDX-License-Identifier: GPL-2.0-or-later
/* Which kernel produced a number; see kernel_id.h. */
#include "core/kernel_id.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "core/net_client.h"
#include "core/util.h"

#define NT_GNU_BUILD_ID 3
/* /sys/kernel/notes is a few hundred bytes; a build id is 20 (sha1) */
#define NOTES_MAX (64 * 1024)

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int kernel_build_id_parse(const void *notes, size_t len, char *hex, size_t hexlen, const char **why)
{
	const unsigned char *p = notes;
	size_t off = 0;

	*why = "no GNU build-id note";
	if (hexlen)
		hex[0] = '\0';
	while (len - off >= 12) {
		uint32_t w[3];
		size_t name_off, desc_off, end;

		memcpy(w, p + off, sizeof(w));
		name_off = off + 12;
		desc_off = name_off + pad4(w[0]);
		if (w[0] > len || w[1] > len || desc_off > len || pad4(w[1]) > len - desc_off) {
			*why = "malformed ELF notes";
			return -1;
		}
		end = desc_off + pad4(w[1]);
		if (w[2] == NT_GNU_BUILD_ID && w[0] == 4 && !memcmp(p + name_off, "GNU", 4)) {
			if (!w[1] || 2 * (size_t)w[1] + 1 > hexlen) {
				*why = w[1] ? "build id too long" : "empty build id";
				return -1;
			}
			for (size_t i = 0; i < w[1]; i++)
				snprintf(hex + 2 * i, 3, "%02x", p[desc_off + i]);
			*why = NULL;
			return 0;
		}
		off = end;
	}
	if (off != len)
		*why = "malformed ELF notes (trailing bytes)";
	return -1;
}

/* "NAME" exactly, or "NAME*" for every option starting so that the text mentions. */
static const char *const recorded[] = {
	"MEMCG", "MEMCG_V1", "LRU_GEN", "LRU_GEN_ENABLED", "LRU_GEN_STATS",
	"TRANSPARENT_HUGEPAGE", "TRANSPARENT_HUGEPAGE_ALWAYS", "TRANSPARENT_HUGEPAGE_MADVISE",
	"TRANSPARENT_HUGEPAGE_NEVER", "PREEMPT*", "HZ", "NO_HZ_FULL", "NUMA", "NUMA_BALANCING",
	"SWAP", "ZSWAP", "ZSWAP_DEFAULT_ON", "KFENCE", "SLUB_DEBUG", "SLUB_DEBUG_ON",
	"INIT_ON_ALLOC_DEFAULT_ON", "INIT_ON_FREE_DEFAULT_ON", "DEBUG_LIST",
	/* debug options (see debug[] below) */
	"LOCKDEP", "PROVE_LOCKING", "LOCK_STAT", "DEBUG_LOCK_ALLOC", "PROVE_RCU", "KASAN", "KCSAN",
	"KMSAN", "UBSAN", "DEBUG_VM", "DEBUG_VM_PGFLAGS", "DEBUG_PAGEALLOC",
	"DEBUG_PAGEALLOC_ENABLE_DEFAULT", "PAGE_OWNER", "DEBUG_KMEMLEAK", "DEBUG_KMEMLEAK_DEFAULT_OFF",
	"DEBUG_OBJECTS", "DEBUG_ATOMIC_SLEEP", "DEBUG_SPINLOCK", "DEBUG_MUTEXES", "KCOV",
	"GCOV_KERNEL", "PAGE_POISONING",
};

/* The value of one config line "CONFIG_X=v" or "# CONFIG_X is not set" into o. */
static void config_line(const char *line, size_t ll, json_object *o)
{
	const char *name, *eq;
	size_t nl;
	char *key, *val;

	if (ll > 2 && line[0] == '#' && line[1] == ' ') {
		static const char tail[] = " is not set";
		size_t tl = sizeof(tail) - 1;

		name = line + 2;
		if (ll < 2 + 7 + tl || strncmp(name, "CONFIG_", 7) || memcmp(line + ll - tl, tail, tl))
			return;
		nl = (size_t)(line + ll - tl - name);
		val = xstrdup("n");
	} else if (ll > 7 && !strncmp(line, "CONFIG_", 7) && (eq = memchr(line, '=', ll))) {
		size_t vl = (size_t)(line + ll - eq - 1);

		name = line;
		nl = (size_t)(eq - line);
		val = xstrndup(eq + 1, vl);
		/* strings are quoted in the config: keep the text only */
		if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
			memmove(val, val + 1, vl - 2);
			val[vl - 2] = '\0';
		}
	} else {
		return;
	}
	key = xstrndup(name, nl);
	for (size_t i = 0; i < ARRAY_SIZE(recorded); i++) {
		size_t rl = strlen(recorded[i]);
		bool prefix = recorded[i][rl - 1] == '*';

		if (prefix ? !strncmp(key + 7, recorded[i], rl - 1)
			   : !strcmp(key + 7, recorded[i])) {
			json_object_object_add(o, key, json_object_new_string(val));
			break;
		}
	}
	free(key);
	free(val);
}

json_object *kconfig_options(const char *text)
{
	json_object *o = json_object_new_object(), *sorted = json_object_new_object();

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);

		config_line(p, ll, o);
		p = nl ? nl + 1 : NULL;
	}
	/* in the order of recorded[], an exact name the text does not mention as "n" */
	for (size_t i = 0; i < ARRAY_SIZE(recorded); i++) {
		size_t rl = strlen(recorded[i]);
		char key[96];

		if (recorded[i][rl - 1] == '*') {
			json_object_object_foreach(o, k, v)
				if (!strncmp(k + 7, recorded[i], rl - 1))
					json_object_object_add(sorted, k, json_object_get(v));
			continue;
		}
		snprintf(key, sizeof(key), "CONFIG_%s", recorded[i]);
		{
			json_object *v;

			if (json_object_object_get_ex(o, key, &v))
				json_object_object_add(sorted, key, json_object_get(v));
			else
				json_object_object_add(sorted, key, json_object_new_string("n"));
		}
	}
	json_object_put(o);
	return sorted;
}

static bool opt_on(json_object *options, const char *name)
{
	json_object *v;
	const char *s;

	if (!options || !json_object_object_get_ex(options, name, &v))
		return false;
	s = json_object_get_string(v);
	return s && (!strcmp(s, "y") || !strcmp(s, "m"));
}

/* a word of the command line: "name" alone or "name=value" with value in vals ("" any) */
static bool cmdline_has(const char *cmdline, const char *name, const char *const *vals)
{
	size_t nl = strlen(name);

	for (const char *p = cmdline; p && *p;) {
		size_t wl;

		while (*p == ' ')
			p++;
		wl = strcspn(p, " \n");
		if (wl >= nl && !strncmp(p, name, nl) && (wl == nl || p[nl] == '=')) {
			if (!vals)
				return true;
			for (size_t i = 0; vals[i]; i++)
				if (wl > nl && strlen(vals[i]) == wl - nl - 1 && !strncmp(p + nl + 1, vals[i], wl - nl - 1))
					return true;
		}
		p += wl;
	}
	return false;
}

void kconfig_debug_options(json_object *options, const char *cmdline, struct strlist *out)
{
	/* each costs far more than the change a reviewer looks for: locking
	 * validation and statistics, memory sanitizers, VM assertions, slab and
	 * page poisoning, leak and object tracking, coverage */
	static const char *const debug[] = {
		"CONFIG_LOCKDEP", "CONFIG_PROVE_LOCKING", "CONFIG_LOCK_STAT", "CONFIG_DEBUG_LOCK_ALLOC",
		"CONFIG_PROVE_RCU", "CONFIG_KASAN", "CONFIG_KCSAN", "CONFIG_KMSAN", "CONFIG_DEBUG_VM",
		"CONFIG_DEBUG_VM_PGFLAGS", "CONFIG_SLUB_DEBUG_ON", "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT",
		"CONFIG_DEBUG_OBJECTS", "CONFIG_DEBUG_ATOMIC_SLEEP", "CONFIG_KCOV", "CONFIG_GCOV_KERNEL",
	};
	static const char *const on[] = { "on", "1", "y", "yes", NULL };

	for (size_t i = 0; i < ARRAY_SIZE(debug); i++)
		if (opt_on(options, debug[i]))
			strlist_push(out, debug[i]);
	if (opt_on(options, "CONFIG_DEBUG_KMEMLEAK") &&
	    (!opt_on(options, "CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF") || cmdline_has(cmdline, "kmemleak", on)))
		strlist_push(out, "CONFIG_DEBUG_KMEMLEAK");
	if (!opt_on(options, "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT") &&
	    cmdline_has(cmdline, "debug_pagealloc", on))
		strlist_push(out, "debug_pagealloc=on (command line)");
	if (!opt_on(options, "CONFIG_SLUB_DEBUG_ON") && cmdline_has(cmdline, "slub_debug", NULL))
		strlist_push(out, "slub_debug (command line)");
	if (cmdline_has(cmdline, "page_owner", on))
		strlist_push(out, "page_owner=on (command line)");
}

void kernel_taint_letters(unsigned long long taint, char *out, size_t len)
{
	/* Documentation/admin-guide/tainted-kernels.rst, bit 0 upwards */
	static const char letters[] = "PFSRMBUDAWCIOELKXTNJ";
	size_t n = 0;

	if (!len)
		return;
	for (size_t b = 0; b < sizeof(letters) - 1 && n + 1 < len; b++)
		if (taint & (1ULL << b))
			out[n++] = letters[b];
	/* bits beyond the known letters: their number */
	for (size_t b = sizeof(letters) - 1; b < 64 && n + 4 < len; b++)
		if (taint & (1ULL << b))
			n += (size_t)snprintf(out + n, len - n, "(%zu)", b);
	out[n] = '\0';
}

int kernel_taint_read(unsigned long long *taint)
{
	char *s = read_file_str(KERNEL_TAINTED, NULL);
	int r = s && !parse_ull(strtok(s, "\n"), taint) ? 0 : -1;

	free(s);
	return r;
}

/* a kernel config's text is a few hundred KiB */
#define KCONFIG_MAX (8u << 20)

json_object *kconfig_read(const char *path, struct strbuf *why)
{
	char sha[65];
	char *text = NULL;
	json_object *o;

	if (net_kconfig_read(path, KCONFIG_MAX, sha, &text, why))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "source", json_object_new_string(path));
	json_object_object_add(o, "sha256", json_object_new_string(sha));
	json_object_object_add(o, "options", kconfig_options(text));
	free(text);
	return o;
}

/* /proc/config.gz (CONFIG_IKCONFIG_PROC), else the installed config files. */
static json_object *running_config(const char *release)
{
	struct strbuf why = STRBUF_INIT, tried = STRBUF_INIT;
	char *cands[3];
	json_object *o = NULL;

	cands[0] = xstrdup("/proc/config.gz");
	cands[1] = xasprintf("/boot/config-%s", release);
	cands[2] = xasprintf("/lib/modules/%s/config", release);
	for (size_t i = 0; i < ARRAY_SIZE(cands) && !o; i++) {
		if (!path_exists(cands[i])) {
			strbuf_addf(&tried, "%sno %s", tried.len ? ", " : "", cands[i]);
			continue;
		}
		strbuf_reset(&why);
		o = kconfig_read(cands[i], &why);
		if (!o)
			strbuf_addf(&tried, "%s%s: %s", tried.len ? ", " : "", cands[i], why.buf);
	}
	if (!o) {
		o = json_object_new_object();
		json_object_object_add(o, "unknown", json_object_new_string(tried.buf));
	}
	for (size_t i = 0; i < ARRAY_SIZE(cands); i++)
		free(cands[i]);
	strbuf_release(&why);
	strbuf_release(&tried);
	return o;
}

int kernel_build_id_read(char *hex, size_t hexlen, char **why)
{
	size_t len = 0;
	char *notes = read_file_str(KERNEL_NOTES, &len);
	const char *w;
	int ret = -1;

	*why = NULL;
	if (hexlen)
		hex[0] = '\0';
	if (!notes)
		*why = xasprintf("cannot read %s: %s", KERNEL_NOTES, strerror(errno));
	else if (len > NOTES_MAX)
		*why = xasprintf("%s: more than %u bytes", KERNEL_NOTES, NOTES_MAX);
	else if (kernel_build_id_parse(notes, len, hex, hexlen, &w))
		*why = xasprintf("%s: %s", KERNEL_NOTES, w);
	else
		ret = 0;
	free(notes);
	return ret;
}

void kernel_id_collect(struct kernel_id *k)
{
	struct utsname u;
	char *s;

	memset(k, 0, sizeof(*k));
	kernel_build_id_read(k->build_id, sizeof(k->build_id), &k->build_id_why);

	k->config = running_config(uname(&u) ? "unknown" : u.release);
	s = read_file_str(LRU_GEN_ENABLED, NULL);
	if (s) {
		s[strcspn(s, "\n")] = '\0';
		snprintf(k->lru_gen, sizeof(k->lru_gen), "%s", s);
		free(s);
	}
	k->taint_known = !kernel_taint_read(&k->taint);
}

void kernel_id_release(struct kernel_id *k)
{
	free(k->build_id_why);
	json_object_put(k->config);
	memset(k, 0, sizeof(*k));
}

json_object *kernel_id_to_json(const struct kernel_id *k)
{
	json_object *o = json_object_new_object();
	char letters[96];

	if (k->build_id[0]) {
		json_object_object_add(o, "build_id", json_object_new_string(k->build_id));
	} else {
		json_object_object_add(o, "build_id", NULL);
		json_object_object_add(o, "build_id_unknown",
				       json_object_new_string(k->build_id_why ? k->build_id_why : "not collected"));
	}
	json_object_object_add(o, "config", json_object_get(k->config));
	json_object_object_add(o, "lru_gen_enabled", k->lru_gen[0] ? json_object_new_string(k->lru_gen)
								 : json_object_new_string("absent"));
	if (k->taint_known) {
		kernel_taint_letters(k->taint, letters, sizeof(letters));
		json_object_object_add(o, "taint_start", json_object_new_int64((int64_t)k->taint));
		json_object_object_add(o, "taint_start_flags", json_object_new_string(letters));
	}
	return o;
}
