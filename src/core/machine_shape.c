// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan of a suite on another machine's shape (machine_shape.h). */
#include "core/machine_shape.h"

#include <stdlib.h>
#include <string.h>
#include "core/file_sizing.h"
#include "core/progress.h"
#include "core/workload.h"

int machine_shape_parse(const char *spec, struct machine_shape *m, struct strbuf *err)
{
	size_t n;
	char **kv = split_commas(spec, &n);
	int ret = -1;

	memset(m, 0, sizeof(*m));
	m->nodes = 1;
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(kv[i], '=');
		unsigned long long v;
		uint64_t b;

		if (!eq) {
			strbuf_addf(err, "--machine: '%s' is not KEY=VALUE (cpus=N,memory=SIZE,nodes=N,"
				    "available=SIZE)", kv[i]);
			goto out;
		}
		*eq++ = '\0';
		if (!strcmp(kv[i], "cpus") || !strcmp(kv[i], "nodes")) {
			if (parse_ull(eq, &v) || v < 1 || v > 65536) {
				strbuf_addf(err, "--machine: %s=%s is not a whole number 1..65536", kv[i], eq);
				goto out;
			}
			*(!strcmp(kv[i], "cpus") ? &m->cpus : &m->nodes) = (int)v;
		} else if (!strcmp(kv[i], "memory") || !strcmp(kv[i], "available")) {
			if (parse_size(eq, &b) || b < (64ULL << 20) || b > (1ULL << 50)) {
				strbuf_addf(err, "--machine: %s=%s is not a size 64M..1P (e.g. 251G)", kv[i], eq);
				goto out;
			}
			*(!strcmp(kv[i], "memory") ? &m->memory : &m->available) = b;
		} else {
			strbuf_addf(err, "--machine: unknown key '%s' (cpus, memory, nodes, available)", kv[i]);
			goto out;
		}
	}
	if (!m->cpus || !m->memory) {
		strbuf_addstr(err, "--machine: cpus=N and memory=SIZE are required (e.g. "
			      "cpus=80,memory=251G,nodes=2)");
		goto out;
	}
	if (m->nodes > m->cpus) {
		strbuf_addf(err, "--machine: %d nodes for %d CPUs", m->nodes, m->cpus);
		goto out;
	}
	if (!m->available)
		m->available = m->memory;
	if (m->available > m->memory) {
		strbuf_addstr(err, "--machine: available is more than memory");
		goto out;
	}
	ret = 0;
out:
	free_strv(kv);
	return ret;
}

void machine_shape_node(const struct machine_shape *m, const char *numa_node, int *cpus, uint64_t *mem)
{
	if (!numa_node || !strcmp(numa_node, "none") || m->nodes <= 1) {
		*cpus = m->cpus;
		*mem = m->memory;
		return;
	}
	/* auto, last or a number: one node, an even share of the machine */
	*cpus = m->cpus / m->nodes;
	*mem = m->memory / (uint64_t)m->nodes;
}

/* The keys of the section as sized, "(from cpus...)" where they said so. */
static void print_section(const struct config_section *sec, FILE *out)
{
	for (size_t k = 0; sec->defs[k].name; k++) {
		const char *t = sec->text[k] ? sec->text[k] : "";

		fprintf(out, "  %s.%s = %s", sec->name, sec->defs[k].name, t);
		if (sec->given && sec->given[k])
			fprintf(out, "  (written \"%s\")", sec->given[k]);
		fputc('\n', out);
	}
}

int machine_plan_print(struct config *cfg, const struct machine_shape *m,
		       const struct workload_ops *const *wls, size_t n, FILE *out)
{
	char mem[32], avail[32], nmem[32], a[32], b[32], d[32];
	int ncpus;
	uint64_t nodemem;

	machine_shape_node(m, cfg->g.numa_node, &ncpus, &nodemem);
	format_size(m->memory, mem, sizeof(mem));
	format_size(m->available, avail, sizeof(avail));
	format_size(nodemem, nmem, sizeof(nmem));
	fprintf(out, "plan for machine: %d CPUs, %s memory, %d node%s, MemAvailable %s%s\n", m->cpus, mem,
		m->nodes, m->nodes == 1 ? "" : "s", avail, m->available == m->memory ? " (assumed = memory)" : "");
	fprintf(out, "global.numa_node = %s: sized for %d CPUs and %s\n", cfg->g.numa_node, ncpus, nmem);
	fprintf(out, "nothing is run; this machine's probes and validation are not asked\n");
	for (size_t i = 0; i < n; i++) {
		const struct workload_ops *w = wls[i];
		struct wl_common_opts *co = config_common(cfg, w->name);
		struct wl_ctx ctx = { 0 };
		struct wl_plan p = { ncpus, nodemem, m->available, STRBUF_INIT, -1, 0, 0, m->memory };

		ctx.ops = w;
		ctx.opts = config_section(cfg, w->name);
		ctx.sec = config_find_section(cfg, w->name);
		ctx.iterations = co->iterations == LB_INHERIT ? cfg->g.iterations : co->iterations;
		ctx.warmup = co->warmup == LB_INHERIT ? cfg->g.warmup : co->warmup;
		if (ctx.iterations == LB_AUTO)   /* the plan counts the least auto runs */
			ctx.iterations = cfg->g.min_iterations;
		fprintf(out, "\n[%s]\n", w->name);
		print_section(ctx.sec, out);
		fprintf(out, "  iterations: %llu measured%s, %llu warm-up a step\n", ctx.iterations,
			cfg->g.iterations == LB_AUTO ? " (auto: at least)" : "", ctx.warmup);
		if (!w->plan) {
			fprintf(out, "  plan: none for %s (its sizing is the config above; time not "
				"estimated)\n", w->name);
			continue;
		}
		w->plan(&ctx, &p);
		fputs(p.text.len ? strbuf_str(&p.text) : "", out);
		if (p.working_set > 0) {
			format_size((uint64_t)p.working_set, a, sizeof(a));
			format_size((uint64_t)p.memory, b, sizeof(b));
			fprintf(out, "  working set %s %s memory %s: reclaims: %s\n", a,
				p.working_set > p.memory ? ">" : "<=", b, p.working_set > p.memory ? "yes" : "no");
		}
		if (p.seconds >= 0) {
			format_duration(p.seconds, d, sizeof(d));
			fprintf(out, "  time: %s (%.0f s of timed work and warm-ups; setup not counted)\n", d,
				p.seconds);
		}
		strbuf_release(&p.text);
	}
	return 0;
}
