// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Modules for the guest. The Debian amd64 and rt-amd64 kernels build 9p,
 * 9pnet_virtio and virtio_pci as modules, and their load order differs
 * between builds (rt needs virtio_ring before virtio), so the order comes
 * from modules.dep, never from a hand-written list. The order is computed
 * here on the host; the guest's init just runs insmod down the list.
 */
#include "vm/modules.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/child.h"

/* What the guest needs, in load order. The softdep "ext4 pre: crc32c" is why
 * crc32c_generic comes before ext4 (crc32c is a module in Debian 6.1). */
static const struct kfeature {
	const char *config;
	const char *module;
	bool required;       /* without it the host root cannot be mounted */
	const char *what;
} features[] = {
	{ "CONFIG_VIRTIO_PCI", "virtio_pci", true, "virtio PCI transport" },
	{ "CONFIG_NET_9P_VIRTIO", "9pnet_virtio", true, "9p over virtio" },
	{ "CONFIG_9P_FS", "9p", true, "9p file system" },
	{ "CONFIG_BLK_DEV_LOOP", "loop", false, "loop devices (sparse_root=loop-ext4/loop-xfs)" },
	{ "CONFIG_CRYPTO_CRC32C", "crc32c_generic", false, "crc32c (ext4 metadata checksums)" },
	{ "CONFIG_EXT4_FS", "ext4", false, "ext4 (sparse_root=loop-ext4)" },
	{ "CONFIG_VIRTIO_BALLOON", "virtio_balloon", false, "virtio balloon (vm.balloon)" },
};

#define REQUIRED_CONFIGS "CONFIG_9P_FS, CONFIG_NET_9P_VIRTIO and CONFIG_VIRTIO_PCI"

void module_name_of(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strcspn(b, ".");
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = b[i] == '-' ? '_' : b[i];
	out[n] = '\0';
}

int moddep_parse(const char *text, struct moddep *md, struct strbuf *err)
{
	const char *p = text;
	int line = 0;

	memset(md, 0, sizeof(*md));
	while (*p) {
		const char *eol = strchr(p, '\n'), *colon;
		char *l, *tok, *save;
		struct moddep_entry *e;
		char name[64];

		if (!eol)
			eol = p + strlen(p);
		line++;
		l = xstrndup(p, (size_t)(eol - p));
		p = *eol ? eol + 1 : eol;
		if (!*l || *l == '#') {
			free(l);
			continue;
		}
		colon = strchr(l, ':');
		if (!colon || colon == l) {
			strbuf_addf(err, "modules.dep line %d: no \"module: deps\"", line);
			free(l);
			moddep_release(md);
			return -1;
		}
		ALLOC_GROW(md->e, md->n + 1, md->cap);
		e = &md->e[md->n++];
		memset(e, 0, sizeof(*e));
		e->path = xstrndup(l, (size_t)(colon - l));
		module_name_of(e->path, name, sizeof(name));
		e->name = xstrdup(name);
		for (tok = strtok_r(l + (colon - l) + 1, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save))
			strlist_push(&e->deps, tok);
		free(l);
	}
	return 0;
}

void moddep_release(struct moddep *md)
{
	for (size_t i = 0; i < md->n; i++) {
		free(md->e[i].path);
		free(md->e[i].name);
		strlist_release(&md->e[i].deps);
	}
	free(md->e);
	memset(md, 0, sizeof(*md));
}

const struct moddep_entry *moddep_find(const struct moddep *md, const char *name)
{
	char want[64];

	module_name_of(name, want, sizeof(want));
	for (size_t i = 0; md && i < md->n; i++)
		if (!strcmp(md->e[i].name, want))
			return &md->e[i];
	return NULL;
}

static const struct moddep_entry *moddep_find_path(const struct moddep *md, const char *path)
{
	for (size_t i = 0; i < md->n; i++)
		if (!strcmp(md->e[i].path, path))
			return &md->e[i];
	return NULL;
}

/* Depth-first, dependencies first; depth bounds a (corrupt) cycle. */
static int order_entry(const struct moddep *md, const struct moddep_entry *e,
		       struct strlist *order, int depth, struct strbuf *err)
{
	if (strlist_has(order, e->path))
		return 0;
	if (depth > 64) {
		strbuf_addf(err, "modules.dep: dependency loop through %s", e->path);
		return -1;
	}
	for (size_t i = 0; i < e->deps.n; i++) {
		const struct moddep_entry *d = moddep_find_path(md, e->deps.v[i]);
		if (!d) {
			strbuf_addf(err, "modules.dep: %s depends on %s, which has no entry",
				    e->path, e->deps.v[i]);
			return -1;
		}
		if (order_entry(md, d, order, depth + 1, err))
			return -1;
	}
	strlist_push(order, e->path);
	return 0;
}

int moddep_order(const struct moddep *md, const char *name, struct strlist *order, struct strbuf *err)
{
	const struct moddep_entry *e = moddep_find(md, name);

	if (!e) {
		strbuf_addf(err, "module %s is not in modules.dep", name);
		return -1;
	}
	return order_entry(md, e, order, 0, err);
}

char kconfig_state(const char *config, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = config; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > klen + 1 && !strncmp(p, key, klen) && p[klen] == '=')
			return p[klen + 1] == 'y' || p[klen + 1] == 'm' ? p[klen + 1] : 'n';
		if (!strncmp(p, "# ", 2) && len > klen + 2 && !strncmp(p + 2, key, klen) &&
		    !strncmp(p + 2 + klen, " is not set", 11))
			return 'n';
		p = eol ? eol + 1 : p + len;
	}
	return 0;
}

static bool builtin_has(const char *builtin, const char *module)
{
	char name[64];

	for (const char *p = builtin; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = xstrndup(p, len);

		module_name_of(line, name, sizeof(name));
		free(line);
		if (!strcmp(name, module))
			return true;
		p = eol ? eol + 1 : p + len;
	}
	return false;
}

int vm_plan_modules(const char *config, const char *builtin, const struct moddep *md,
		    struct strlist *order, struct strlist *warnings, struct strbuf *err)
{
	struct strbuf missing = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(features); i++) {
		const struct kfeature *f = &features[i];
		char st = config ? kconfig_state(config, f->config) : 0;

		if (st == 0 && builtin && builtin_has(builtin, f->module))
			st = 'y';
		if (st == 'y')
			continue;
		if (st != 'n' && moddep_find(md, f->module)) {
			struct strbuf why = STRBUF_INIT;
			if (moddep_order(md, f->module, order, &why)) {
				strbuf_addstr(err, strbuf_str(&why));
				strbuf_release(&why);
				strbuf_release(&missing);
				return -1;
			}
			strbuf_release(&why);
			continue;
		}
		/* not built in, and no module for it */
		if (f->required) {
			strbuf_addf(&missing, "%s%s (%s: %s)", missing.len ? ", " : "", f->config, f->what,
				    st == 'n' ? "not set in its config" :
				    md ? "no module in modules.dep" : "no modules found");
			ret = -1;
		} else if (strcmp(f->module, "virtio_balloon") &&
			   (st != 'n' || strcmp(f->module, "crc32c_generic"))) {
			/* the balloon driver is wanted only with vm.balloon: no warning for every kernel */
			strlist_pushf(warnings, "%s is neither built in nor available as a module: no %s in the guest",
				      f->config, f->what);
		}
	}
	if (ret)
		strbuf_addf(err, "the guest cannot mount the host root over 9p: it needs %s built in "
			    "or as modules (give them with --modules-a/--modules-b DIR); missing: %s",
			    REQUIRED_CONFIGS, strbuf_str(&missing));
	strbuf_release(&missing);
	return ret;
}

/* ---- finding the files ---- */

static char *moddir_from_option(const char *dir, const char *release)
{
	char *p = xasprintf("%s/lib/modules/%s", dir, release);
	char *q;

	if (is_dir(p))
		return p;
	free(p);
	p = xasprintf("%s/%s", dir, release);
	if (is_dir(p))
		return p;
	free(p);
	p = xasprintf("%s/modules.order", dir);
	q = xasprintf("%s/kernel", dir);
	if (path_exists(p) || is_dir(q) || path_exists(p)) {
		free(p);
		free(q);
		return xstrdup(dir);
	}
	free(p);
	free(q);
	return NULL;
}

/* <root>/boot/vmlinuz-R -> <root>/lib/modules/R */
static char *moddir_beside_image(const char *image, const char *release)
{
	char *copy = xstrdup(image), *dir, *res = NULL;
	char *rp;

	dir = dirname(copy);
	rp = realpath(dir, NULL);
	if (rp) {
		size_t l = strlen(rp);
		if (l >= 5 && !strcmp(rp + l - 5, "/boot")) {
			rp[l - 5] = '\0';
			res = xasprintf("%s/lib/modules/%s", rp, release);
			if (!is_dir(res)) {
				free(res);
				res = NULL;
			}
		}
		free(rp);
	}
	free(copy);
	return res;
}

/* A writable view of moddir for depmod: symlinks to its folders and inputs. */
static int run_depmod(const char *moddir, const char *release, const char *tmpdir,
		      char **depdir, struct strbuf *err)
{
	static const char *const inputs[] = { "modules.order", "modules.builtin", "modules.builtin.modinfo" };
	char *base = xasprintf("%s/depmod", tmpdir);
	char *dir = xasprintf("%s/lib/modules/%s", base, release);
	char *log = xasprintf("%s/depmod.log", tmpdir);
	DIR *d;
	struct dirent *de;
	int code, ret = -1;

	if (mkdir_p(dir, 0755)) {
		strbuf_addf(err, "cannot create %s: %s", dir, strerror(errno));
		goto out;
	}
	d = opendir(moddir);
	if (!d) {
		strbuf_addf(err, "cannot read %s: %s", moddir, strerror(errno));
		goto out;
	}
	while ((de = readdir(d))) {
		char *src = xasprintf("%s/%s", moddir, de->d_name);
		bool link = false;
		if (de->d_name[0] != '.' && is_dir(src))
			link = true;
		for (size_t i = 0; i < ARRAY_SIZE(inputs); i++)
			if (!strcmp(de->d_name, inputs[i]))
				link = true;
		if (link) {
			char *dst = xasprintf("%s/%s", dir, de->d_name);
			if (symlink(src, dst) && errno != EEXIST)
				strbuf_addf(err, "cannot link %s: %s", dst, strerror(errno));
			free(dst);
		}
		free(src);
	}
	closedir(d);
	{
		const char *argv[] = { "depmod", "-b", base, release, NULL };
		struct child c = { .argv = argv, .out_path = log };
		code = child_run(&c, 120);
	}
	if (code != 0) {
		char *out = read_file_str(log, NULL);
		strbuf_addf(err, "depmod -b %s %s failed (%s has no modules.dep): %s", base, release,
			    moddir, out ? out : "could not run it (apt-get install kmod)");
		free(out);
		goto out;
	}
	*depdir = xstrdup(dir);
	ret = 0;
out:
	free(base);
	free(dir);
	free(log);
	return ret;
}

int vm_modules_resolve(const char *image, const char *release, const char *modules_opt,
		       const char *tmpdir, struct vm_modset *out, struct strbuf *err)
{
	char *config = NULL, *builtin = NULL, *deptext = NULL, *path, *depdir = NULL;
	struct moddep md;
	bool have_md = false;
	struct strlist order = STRLIST_INIT;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (modules_opt) {
		out->moddir = moddir_from_option(modules_opt, release);
		if (!out->moddir) {
			strbuf_addf(err, "%s holds no kernel modules for %s (expected DIR/lib/modules/%s, "
				    "DIR/%s or a folder with modules.order)", modules_opt, release, release, release);
			return -1;
		}
	} else {
		out->moddir = moddir_beside_image(image, release);
		if (!out->moddir) {
			path = xasprintf("/lib/modules/%s", release);
			if (is_dir(path))
				out->moddir = path;
			else
				free(path);
		}
	}

	/* the kernel's config: config-<release> beside the image (a Debian
	 * package's boot/), .config beside it, the build tree's .config for
	 * <tree>/arch/x86/boot/bzImage, /boot/config-<release> when installed */
	{
		char *copy = xstrdup(image), *dir = dirname(copy);
		char *cands[4];
		size_t dl = strlen(dir);

		cands[0] = xasprintf("%s/config-%s", dir, release);
		cands[1] = xasprintf("%s/.config", dir);
		const size_t sl = strlen("/arch/x86/boot");

		cands[2] = dl >= sl && !strcmp(dir + dl - sl, "/arch/x86/boot") ?
			xasprintf("%.*s/.config", (int)(dl - sl), dir) :
			(!strcmp(dir, "arch/x86/boot") ? xstrdup(".config") : NULL);
		cands[3] = xasprintf("/boot/config-%s", release);
		for (size_t i = 0; i < ARRAY_SIZE(cands); i++) {
			if (!out->config_path && cands[i] && path_exists(cands[i])) {
				config = read_file_str(cands[i], NULL);
				out->config_path = cands[i];
			} else {
				free(cands[i]);
			}
		}
		free(copy);
	}

	if (out->moddir) {
		path = xasprintf("%s/modules.builtin", out->moddir);
		builtin = read_file_str(path, NULL);
		free(path);
		path = xasprintf("%s/modules.dep", out->moddir);
		if (!path_exists(path)) {
			if (run_depmod(out->moddir, release, tmpdir, &depdir, err)) {
				free(path);
				goto done;
			}
			free(path);
			path = xasprintf("%s/modules.dep", depdir);
		}
		deptext = read_file_str(path, NULL);
		if (!deptext) {
			strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
			free(path);
			goto done;
		}
		free(path);
		if (moddep_parse(deptext, &md, err))
			goto done;
		have_md = true;
	}
	if (vm_plan_modules(config, builtin, have_md ? &md : NULL, &order, &out->warnings, err))
		goto done;
	for (size_t i = 0; i < order.n; i++) {
		/* depmod resolved paths through our symlinks: the real files are in moddir */
		strlist_pushf(&out->ko, "%s/%s", out->moddir, order.v[i]);
	}
	ret = 0;
done:
	if (have_md)
		moddep_release(&md);
	strlist_release(&order);
	free(config);
	free(builtin);
	free(deptext);
	free(depdir);
	return ret;
}

void vm_modset_release(struct vm_modset *m)
{
	free(m->moddir);
	free(m->config_path);
	strlist_release(&m->ko);
	strlist_release(&m->warnings);
	memset(m, 0, sizeof(*m));
}
