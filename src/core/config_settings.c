// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * [settings] of the config (config.h struct config_setting): the sysctl and
 * sysfs values a run sets. Unlike the other sections it has no table of
 * keys: any knob of the allowed trees (core/knobs.h) is a key. What is
 * checked here is what needs no machine: the name's tree, the values' text,
 * one knob given twice. Whether the kernel has it and takes the value is
 * the run's check (run/check.c).
 */
#include "core/config.h"

#include <stdlib.h>
#include <string.h>
#include "core/knobs.h"

/* "file.conf:12" -> "file.conf", "--set ..." -> "--set": where two values of
 * one knob conflict (one source) or replace one another (files, then --set) */
static char *source_of(const char *origin)
{
	const char *colon = strrchr(origin, ':');

	if (!strncmp(origin, "--", 2))
		return xstrndup(origin, strcspn(origin, " "));
	return colon ? xstrndup(origin, (size_t)(colon - origin)) : xstrdup(origin);
}

static int check_values(const char *value, struct strbuf *err)
{
	char **v;
	size_t n;
	int ret = 0;

	if (!*value || value[0] == ',' || value[strlen(value) - 1] == ',' || strstr(value, ",,")) {
		strbuf_addf(err, "'%s': an empty value (keep: leave the knob as it is)", value);
		return -1;
	}
	v = split_commas(value, &n);
	if (n > LB_LIST_MAX) {
		strbuf_addf(err, "'%s': at most %d values", value, LB_LIST_MAX);
		ret = -1;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		if (knob_value_check(v[i], err)) {
			ret = -1;
			break;
		}
		if (n > 1 && !strcmp(v[i], "keep")) {
			strbuf_addf(err, "'%s': keep is not a value of a list", value);
			ret = -1;
		}
		for (size_t j = 0; j < i && !ret; j++)
			if (!strcmp(v[i], v[j])) {
				strbuf_addf(err, "'%s' lists %s twice (each value once)", value, v[i]);
				ret = -1;
			}
	}
	free_strv(v);
	return ret;
}

static void setting_free(struct config_setting *s)
{
	free(s->name);
	free(s->path);
	free(s->value);
	free(s->current);
	free(s->origin);
	memset(s, 0, sizeof(*s));
}

int config_setting_set(struct config *cfg, const char *name, const char *value, const char *origin,
		       struct strbuf *err)
{
	struct strbuf e = STRBUF_INIT;
	char path[KNOB_NAME_MAX];
	struct config_setting *s;
	char *src, *old_src;

	if (strlen(name) >= KNOB_NAME_MAX || knob_resolve(name, path, sizeof(path), &e) ||
	    check_values(value, &e)) {
		if (!e.len)
			strbuf_addf(&e, "a knob name of at most %d characters", KNOB_NAME_MAX - 1);
		strbuf_addf(err, "%s: settings.%s: %s", origin, name, strbuf_str(&e));
		strbuf_release(&e);
		return -1;
	}
	strbuf_release(&e);
	for (size_t i = 0; i < cfg->nsettings; i++) {
		s = &cfg->settings[i];
		if (strcmp(s->path, path))
			continue;
		src = source_of(origin);
		old_src = source_of(s->origin);
		/* one file, or the command line, naming one knob twice with two
		 * values (maybe by two names): which one was meant? */
		if (!strcmp(src, old_src) && strcmp(s->value, value)) {
			strbuf_addf(err, "%s: settings.%s = %s: the knob %s is set twice (%s at %s)",
				    origin, name, value, path, s->value, s->origin);
			free(src);
			free(old_src);
			return -1;
		}
		free(src);
		free(old_src);
		/* a later source replaces an earlier one's value, as for any key */
		if (!strcmp(value, "keep")) {
			setting_free(s);
			memmove(s, s + 1, (cfg->nsettings - i - 1) * sizeof(*s));
			cfg->nsettings--;
			return 0;
		}
		free(s->name);
		free(s->value);
		free(s->origin);
		s->name = xstrdup(name);
		s->value = xstrdup(value);
		s->origin = xstrdup(origin);
		return 0;
	}
	if (!strcmp(value, "keep"))
		return 0;
	cfg->settings = xrealloc(cfg->settings, (cfg->nsettings + 1) * sizeof(*cfg->settings));
	s = &cfg->settings[cfg->nsettings++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->path = xstrdup(path);
	s->value = xstrdup(value);
	s->origin = xstrdup(origin);
	return 0;
}

json_object *config_settings_json(const struct config *cfg)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < cfg->nsettings; i++)
		json_object_object_add(o, cfg->settings[i].name,
				       json_object_new_string(config_setting_value(&cfg->settings[i])));
	return o;
}

void config_settings_release(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nsettings; i++)
		setting_free(&cfg->settings[i]);
	free(cfg->settings);
	cfg->settings = NULL;
	cfg->nsettings = 0;
}
