// SPDX-License-Identifier: GPL-2.0-or-later
/* Plans of workloads of memcgs x tasks on sparse files (file_plan.h). */
#include "core/file_plan.h"

#include "core/file_sizing.h"

void file_plan(const struct wl_ctx *ctx, struct wl_plan *p, const struct file_plan_spec *s)
{
	unsigned long long most = 1;
	uint64_t size = s->file_size;
	double best = -1;
	char a[32], b[32], c[32], line[320];

	for (size_t i = 0; i < s->memcgs->n; i++) {
		unsigned long long g = s->memcgs->v[i] ? s->memcgs->v[i] : 1;

		if (g * s->files_per_memcg > most)
			most = g * s->files_per_memcg;
	}
	if (s->shared_file)
		most = 1;
	if (size == LB_SIZE_AUTO) {
		struct file_sizing fs;

		file_size_auto(p->mem_available, s->auto_divides ? most : 1, most, 1ULL << 20, s->rule, &fs);
		file_sizing_describe(&fs, line, sizeof(line));
		strbuf_addf(&p->text, "  %s\n", line);
		size = fs.file_size;
	} else {
		format_size(size, a, sizeof(a));
		strbuf_addf(&p->text, "  file_size = %s (fixed), %llu file%s\n", a, most, most == 1 ? "" : "s");
	}
	/* the posted dd never reached end of file: at what speed would a task get there? */
	strbuf_addf(&p->text, "  a task reaches end of its file within runtime only above %.0f MB/s\n",
		    (double)size / 1e6 / (s->runtime > 0 ? s->runtime : 1));
	for (size_t i = 0; i < s->memcgs->n; i++) {
		unsigned long long want = s->memcgs->v[i], g = want ? want : 1;
		double files = s->shared_file ? 1 : (double)(g * s->files_per_memcg);
		double ws = files * (double)size, mem = (double)p->node_mem;

		/* limited memcgs hold at most their limits, and never more than the node */
		if (want && s->memcg_limit && (double)s->memcg_limit * (double)g < mem)
			mem = (double)s->memcg_limit * (double)g;
		format_size((uint64_t)ws, a, sizeof(a));
		format_size((uint64_t)mem, b, sizeof(b));
		format_size(size, c, sizeof(c));
		strbuf_addf(&p->text, "  step memcgs-%llu: %s%llu x %llu %s, %.0f file%s x %s = %s; memory "
			    "for them %s (%s): %s\n", want, want ? "" : "root cgroup, ", g,
			    s->tasks_per_memcg, s->tasks, files, files == 1 ? "" : "s", c, a, b,
			    want && s->memcg_limit ? "the memcg limits" : "the node, no limit",
			    ws > mem ? "reclaims" : "fits, no reclaim");
		/* the cache holds what was read, not the files: it fills memory within the
		 * runtime only at this rate of new data per memcg (one reader's, when the
		 * memcg's readers share a file) */
		if (ws > mem && s->runtime > 0)
			strbuf_addf(&p->text, "    (within runtime only when %s new data faster than %.0f MB/s%s)\n",
				    s->shared_file ? "the tasks read" : "each memcg reads",
				    mem / 1e6 / s->runtime / (s->shared_file ? 1.0 : (double)g),
				    s->shared_file ? " in all" : "");
		if (best < 0 || ws / mem < best) {
			best = ws / mem;
			p->working_set = ws;
			p->memory = mem;
		}
	}
	p->seconds = (double)s->memcgs->n * (double)(ctx->iterations + ctx->warmup) * s->runtime;
}
