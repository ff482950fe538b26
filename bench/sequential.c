// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/sequential: lrubench's own decision code (core/adaptive.c with
 * compare/sequential.c and compare/stats.c, linked from the build) run on
 * generated samples, as `run -i auto --baseline` would meet them: a
 * baseline of NB samples, then one sample per iteration from
 * min_iterations on, judged after each until the step stops. Throughput
 * samples (higher is better, the Hmean row), mean 100 (baseline) and
 * 100 * (1 + change), relative spread `spread`; normal, or heavy-tailed
 * (Student t with 3 degrees of freedom scaled to the same spread).
 * A "false decision" is a "decided" stop when there is no change, or of
 * the wrong sign; "power" a decided stop of the right sign.
 *
 * Then the spread between runs (issue 23): every run has its own level,
 * u ~ N(0, between) relative, so the baseline (one run) and the new side
 * (another) differ by u_b - u_n even with no change. Each trial draws a
 * `noise --runs 8` of 4 iterations a run (8 more runs, their levels and
 * samples generated the same way) and estimates the spread between runs
 * from it by the code noise uses (compare/noise_floor.c noise_between);
 * rows "ignored" judge without it (run without a noise.json beside the
 * baseline), rows "measured" with it.
 * Then, given a FILE of real series, the same decisions on those samples
 * resampled (real_rows).
 * Usage (through bench/sequential): sequential TRIALS [SEED [all|iid|between|real [FILE]]]
 * (iid: all but the rows with a spread between runs, the slow ones;
 * between: only those; real: only FILE's)
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compare/noise_floor.h"
#include "compare/sequential.h"
#include "core/adaptive.h"
#include "core/workload.h"

static unsigned long long rng;

static double uniform(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* Student t, 3 df, scaled to unit variance (its variance is 3) */
static double heavy(void)
{
	double z = normal(), c = 0;

	for (int i = 0; i < 3; i++) {
		double g = normal();
		c += g * g;
	}
	return z / sqrt(c / 3) / sqrt(3);
}

/* dist 2: resampled, with replacement, from a real series (the samples
 * over their mean), scaled to mean */
static double *pool;
static size_t npool;

static double sample(int dist, double spread, double mean)
{
	double v;

	if (dist == 2) {
		size_t i = (size_t)(uniform() * (double)npool);

		return mean * pool[i < npool ? i : npool - 1];
	}
	do
		v = mean * (1 + spread / 100 * (dist ? heavy() : normal()));
	while (v <= 0);   /* throughput is positive: Hmean needs it */
	return v;
}

struct row {
	size_t decided_right, decided_wrong, equivalent, noisy, capped;
	size_t *iters;
};

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* the runs of a noise --runs R of k iterations each, levels spread by
 * `between`: its estimate of the spread between runs */
#define NOISE_RUNS 8
#define NOISE_ITERS 4
static double noise_estimate(int dist, double spread, double between, double *df)
{
	double s[NOISE_RUNS][NOISE_ITERS], w, b;
	const double *x[NOISE_RUNS];
	size_t n[NOISE_RUNS];

	for (size_t r = 0; r < NOISE_RUNS; r++) {
		double level = 100 * (1 + between / 100 * normal());

		for (size_t i = 0; i < NOISE_ITERS; i++)
			s[r][i] = sample(dist, spread, level);
		x[r] = s[r];
		n[r] = NOISE_ITERS;
	}
	*df = 0;
	return noise_between(x, n, NOISE_RUNS, &w, &b, df) ? b : 0;
}

/* the op of a look: this side's n samples against the baseline's nb */
static void op_at(struct adaptive_op *op, const double *x, size_t n, const double *base, size_t nb)
{
	memset(op, 0, sizeof(*op));
	op->x = x;
	op->n = n;
	op->better = BETTER_HIGHER;
	op->base = base;
	op->nbase = nb;
}

/* between < 0: no run effect at all; measured: the design holds an
 * estimate of it (else it is there but ignored) */
static void trial(const struct adaptive_plan *p, int dist, double spread, double change, size_t nb,
		  double between, bool measured, struct row *r, size_t t)
{
	double base[64], x[64], lb = 100, ln = 100 * (1 + change / 100), est = 0, df = 0;
	struct adaptive_op op;
	size_t n;
	enum adaptive_stop st = ADAPTIVE_CONTINUE;

	if (between > 0) {
		lb *= 1 + between / 100 * normal();
		ln *= 1 + between / 100 * normal();
	}
	if (measured)
		est = noise_estimate(dist, spread, between > 0 ? between : 0, &df);
	for (size_t i = 0; i < nb; i++)
		base[i] = sample(dist, spread, lb);
	for (n = 1; n <= p->max_iterations; n++) {
		x[n - 1] = sample(dist, spread, ln);
		op_at(&op, x, n, base, nb);
		if (measured) {
			op.between = est;
			op.between_runs = NOISE_RUNS;
			op.between_df = df;
		}
		if (n >= 2)
			adaptive_op_eval(p, &op);
		st = adaptive_decide(p, &op, 1, n, 0);
		if (st)
			break;
	}
	r->iters[t] = n;
	if (op.state == ADAPTIVE_OP_DECIDED) {
		bool up = op.change_lo > 0;
		if (change != 0 && up == (change > 0))
			r->decided_right++;
		else
			r->decided_wrong++;
	} else if (op.state == ADAPTIVE_OP_REACHED) {
		r->equivalent++;
	} else if (op.state == ADAPTIVE_OP_NOISY) {
		r->noisy++;
	} else {
		r->capped++;
	}
}

/*
 * The floor under the goal row (issue 23): no design that stops on the
 * same statistic (the change over its standard error, at the looks
 * min_iterations..max) can decide sooner than the plain fixed-sample
 * t-test at every look does. A design at level alpha over all looks needs
 * at each look a critical value no lower than the fixed-sample one (that
 * look alone must keep alpha), so on every trial it decides, it decides no
 * sooner than the first look where the fixed-sample test already decides
 * the right way (N_f). Its mean iterations, at power >= SEQ_POWER, are
 * then at least those of the trials with the smallest N_f making up
 * SEQ_POWER of them, the rest stopping at the first look
 * (min_iterations): a bound on every design, not a design (the repeated
 * fixed-sample test itself decides A/As far too often, the table).
 */
static double floor_mean(const struct adaptive_plan *p, double spread, double change, size_t nb,
			 size_t trials)
{
	size_t *nf = calloc(trials, sizeof(*nf)), keep = (size_t)ceil(SEQ_POWER * (double)trials);
	double z = seq_norm_upper_quantile(SEQ_ALPHA / 2), sum = 0;
	bool reached;

	for (size_t t = 0; t < trials; t++) {
		double base[64], x[64];
		struct adaptive_op op;

		for (size_t i = 0; i < nb; i++)
			base[i] = sample(0, spread, 100);
		nf[t] = SIZE_MAX;
		for (size_t n = 1; n <= p->max_iterations; n++) {
			double df = seq_look_df(nb, n);

			x[n - 1] = sample(0, spread, 100 * (1 + change / 100));
			if (n < p->min_iterations)
				continue;
			op_at(&op, x, n, base, nb);
			adaptive_op_eval(p, &op);
			/* the same df as the design's looks */
			if (op.change_ok && op.change_se > 0 &&
			    op.change / op.change_se * (change < 0 ? -1 : 1) >= seq_crit(z, df)) {
				nf[t] = n;
				break;
			}
		}
	}
	qsort(nf, trials, sizeof(*nf), cmp_size);
	/* fewer than SEQ_POWER decided even so: no design reaches the power */
	reached = keep >= 1 && keep <= trials && nf[keep - 1] != SIZE_MAX;
	for (size_t t = 0; t < trials && reached; t++)
		sum += t < keep ? (double)nf[t] : (double)p->min_iterations;
	free(nf);
	return reached ? sum / (double)trials : INFINITY;
}

/* the rows with a spread between runs: ignored, then measured by a
 * noise --runs 8; the measured rows count toward the false-decision goal */
static void between_rows(const struct adaptive_plan *p, size_t trials, unsigned long long seed,
			 double *worst_fd, double *worst_ignored)
{
	static const double spreads[] = { 2, 3 };
	static const double betweens[] = { 0.5, 1, 2, 4 };
	static const double changes[] = { 0, -5, -10 };
	static const size_t nbs[] = { 5, 12 };

	printf("\nspread between runs (each run its own level; measured: from a noise --runs %d of "
	       "%d iterations a run)\n", NOISE_RUNS, NOISE_ITERS);
	printf("%-8s %6s %7s %7s %4s | %8s %8s %8s %8s %8s | %6s %4s\n", "between", "spread",
	       "runs", "change", "nb", "false", "power", "equiv", "noisy", "cap", "mean", "p90");
	for (int m = 0; m < 2; m++)
		for (size_t s = 0; s < ARRAY_SIZE(spreads); s++)
			for (size_t u = 0; u < ARRAY_SIZE(betweens); u++)
				for (size_t c = 0; c < ARRAY_SIZE(changes); c++)
					for (size_t b = 0; b < ARRAY_SIZE(nbs); b++) {
						struct row r = { 0 };
						double sum = 0, fd;

						rng = seed * 1000033ULL +
						      (unsigned long long)(m * 10000 + s * 1000 + u * 100 +
									   c * 10 + b);
						r.iters = calloc(trials, sizeof(*r.iters));
						for (size_t t = 0; t < trials; t++) {
							trial(p, 0, spreads[s], changes[c], nbs[b],
							      betweens[u], m, &r, t);
							sum += (double)r.iters[t];
						}
						qsort(r.iters, trials, sizeof(*r.iters), cmp_size);
						fd = 100.0 * (double)r.decided_wrong / (double)trials;
						if (m && fd > *worst_fd)
							*worst_fd = fd;
						if (!m && fd > *worst_ignored)
							*worst_ignored = fd;
						printf("%7g%% %5g%% %8s %+6g%% %4zu | %7.1f%% %7.1f%% %7.1f%% "
						       "%7.1f%% %7.1f%% | %6.2f %4zu\n", betweens[u],
						       spreads[s], m ? "measured" : "ignored", changes[c],
						       nbs[b], fd,
						       100.0 * (double)r.decided_right / (double)trials,
						       100.0 * (double)r.equivalent / (double)trials,
						       100.0 * (double)r.noisy / (double)trials,
						       100.0 * (double)r.capped / (double)trials,
						       sum / (double)trials,
						       r.iters[(size_t)ceil(0.9 * (double)trials) - 1]);
						free(r.iters);
						fflush(stdout);
					}
}

static _Noreturn void bad_series(const char *path, size_t lineno, const char *why)
{
	fprintf(stderr, "sequential: %s line %zu: %s (lines are NAME SAMPLE...: positive "
		"numbers, 4 to 1024 of them)\n", path, lineno, why);
	exit(2);
}

/*
 * Rows on real samples: FILE holds lines "NAME v1 v2 ..." (one op's
 * samples from one of this machine's results, bench/sequential extracts
 * them); each op's series, over its mean, is resampled for the baseline
 * and, times 1 + change, for the new side: the real shape of one run's
 * iterations (skew, outliers), not its run effect (a series is one run).
 */
static void real_rows(const struct adaptive_plan *p, size_t trials, unsigned long long seed,
		      const char *path, double *worst_fd)
{
	static const double changes[] = { 0, -3, 3, -5, 5, -10 };
	static const size_t nbs[] = { 3, 5, 12 };
	FILE *f = fopen(path, "r");
	char line[65536];
	struct stat st;
	size_t lineno = 0;

	/* a regular file of at most 16 MiB: a series, not whatever the path is */
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > (16 << 20)) {
		fprintf(stderr, "sequential: %s: %s\n", path,
			!f ? strerror(errno) : "not a regular file of at most 16 MiB");
		exit(2);
	}
	printf("\nresampled real samples (%s: each op's one-run series over its mean, with "
	       "replacement)\n", path);
	printf("%-24s %5s %6s %7s %4s | %8s %8s %8s %8s %8s | %6s %4s\n", "op", "n", "cv", "change",
	       "nb", "false", "power", "equiv", "noisy", "cap", "mean", "p90");
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *name, *tok, *end;
		double v[1024], m = 0, ss = 0;
		size_t n = 0;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			bad_series(path, lineno, "a line longer than 64 KiB");
		name = strtok_r(line, " \t\n", &save);
		if (!name || *name == '#')
			continue;
		/* the name is printed: only the characters bench/sequential writes */
		for (char *c = name; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("_./-", *c))
				*c = '_';
		while ((tok = strtok_r(NULL, " \t\n", &save))) {
			if (n == ARRAY_SIZE(v))
				bad_series(path, lineno, "more than 1024 samples");
			v[n++] = strtod(tok, &end);
			if (*end || !isfinite(v[n - 1]) || !(v[n - 1] > 0))
				bad_series(path, lineno, "a sample that is not a positive number");
		}
		if (n < 4)
			bad_series(path, lineno, "fewer than 4 samples");
		for (size_t i = 0; i < n; i++)
			m += v[i] / (double)n;
		for (size_t i = 0; i < n; i++) {
			v[i] /= m;
			ss += (v[i] - 1) * (v[i] - 1);
		}
		pool = v;
		npool = n;
		for (size_t c = 0; c < ARRAY_SIZE(changes); c++)
			for (size_t b = 0; b < ARRAY_SIZE(nbs); b++) {
				struct row r = { 0 };
				double sum = 0, fd;

				rng = seed * 1000039ULL + (unsigned long long)(c * 10 + b) + n * 1000;
				r.iters = calloc(trials, sizeof(*r.iters));
				for (size_t t = 0; t < trials; t++) {
					trial(p, 2, 0, changes[c], nbs[b], -1, false, &r, t);
					sum += (double)r.iters[t];
				}
				qsort(r.iters, trials, sizeof(*r.iters), cmp_size);
				fd = 100.0 * (double)r.decided_wrong / (double)trials;
				if (fd > *worst_fd)
					*worst_fd = fd;
				printf("%-24s %5zu %5.1f%% %+6g%% %4zu | %7.1f%% %7.1f%% %7.1f%% %7.1f%% "
				       "%7.1f%% | %6.2f %4zu\n", name, n,
				       100 * sqrt(ss / (double)(n - 1)), changes[c], nbs[b], fd,
				       100.0 * (double)r.decided_right / (double)trials,
				       100.0 * (double)r.equivalent / (double)trials,
				       100.0 * (double)r.noisy / (double)trials,
				       100.0 * (double)r.capped / (double)trials, sum / (double)trials,
				       r.iters[(size_t)ceil(0.9 * (double)trials) - 1]);
				free(r.iters);
				fflush(stdout);
			}
	}
	fclose(f);
	pool = NULL;
	npool = 0;
}

int main(int argc, char **argv)
{
	static const double spreads[] = { 1, 3, 5, 10 };
	static const double changes[] = { 0, -2, 2, -3, 3, -5, 5, -10, 10 };
	static const size_t nbs[] = { 3, 5, 12, 24 };
	struct adaptive_plan p = { 2.0, 3, 30, 0, SEQ_ALPHA, 5.0 };
	size_t trials = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	const char *mode = argc > 3 ? argv[3] : "all";
	bool only_between = !strcmp(mode, "between");
	bool only_real = !strcmp(mode, "real");
	bool no_between = only_real || !strcmp(mode, "iid");
	const char *real = argc > 4 && !only_between ? argv[4] : NULL;
	double worst_fd = 0, se = sqrt(SEQ_ALPHA * (1 - SEQ_ALPHA) / (double)trials);
	double goal_mean[2] = { 0 }, goal_rate[2] = { 0 }, worst_ignored = 0;

	if (!trials || (strcmp(mode, "all") && !no_between && !only_between) || (only_real && !real)) {
		fprintf(stderr, "usage: sequential TRIALS (> 0) [SEED [all|iid|between|real [FILE]]]; "
			"real needs FILE\n");
		return 2;
	}

	printf("%s, alpha %.0f%% over all looks; precision ±%g%%, min %zu, max %zu "
	       "iterations, last look planned for %g%% at %.0f%% power; %zu trials a row "
	       "(simulation error of a 5%% rate: ±%.2f%%)\n",
	       ADAPTIVE_DESIGN, 100 * SEQ_ALPHA, p.precision, p.min_iterations, p.max_iterations,
	       p.detect, 100 * SEQ_POWER, trials, 100 * se);
	printf("%-6s %6s %7s %4s | %8s %8s %8s %8s %8s | %6s %4s\n", "dist", "spread", "change", "nb",
	       "false", "power", "equiv", "noisy", "cap", "mean", "p90");
	for (int dist = 0; dist < 2 && !only_between && !only_real; dist++)
		for (size_t s = 0; s < ARRAY_SIZE(spreads); s++)
			for (size_t c = 0; c < ARRAY_SIZE(changes); c++)
				for (size_t b = 0; b < ARRAY_SIZE(nbs); b++) {
					struct row r = { 0 };
					double sum = 0, fd;

					rng = seed * 1000003ULL + (unsigned long long)(dist * 1000 + s * 100 + c * 10 + b);
					r.iters = calloc(trials, sizeof(*r.iters));
					for (size_t t = 0; t < trials; t++) {
						trial(&p, dist, spreads[s], changes[c], nbs[b], -1, false,
						      &r, t);
						sum += (double)r.iters[t];
					}
					qsort(r.iters, trials, sizeof(*r.iters), cmp_size);
					fd = 100.0 * (double)r.decided_wrong / (double)trials;
					if (fd > worst_fd)
						worst_fd = fd;
					printf("%-6s %5g%% %+6g%% %4zu | %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% | %6.2f %4zu\n",
					       dist ? "t3" : "normal", spreads[s], changes[c], nbs[b], fd,
					       100.0 * (double)r.decided_right / (double)trials,
					       100.0 * (double)r.equivalent / (double)trials,
					       100.0 * (double)r.noisy / (double)trials,
					       100.0 * (double)r.capped / (double)trials, sum / (double)trials,
					       r.iters[(size_t)ceil(0.9 * (double)trials) - 1]);
					if (!dist && spreads[s] == 3 && changes[c] == -5 &&
					    (nbs[b] == 12 || nbs[b] == 24)) {
						int g = nbs[b] == 24;

						goal_rate[g] = 100.0 * (double)r.decided_right / (double)trials;
						goal_mean[g] = sum / (double)trials;
					}
					free(r.iters);
					fflush(stdout);
				}
	if (!no_between)
		between_rows(&p, trials, seed, &worst_fd, &worst_ignored);
	if (real)
		real_rows(&p, trials, seed, real, &worst_fd);
	printf("worst false-decision rate: %.2f%% (goal <= %.0f%% + %.2f%% simulation error): %s\n",
	       worst_fd, 100 * SEQ_ALPHA, 200 * se, worst_fd <= 100 * SEQ_ALPHA + 200 * se ? "met" : "MISSED");
	printf("with a spread between runs that is ignored, the worst: %.2f%% (what a run without "
	       "noise --runs beside its baseline risks)\n", worst_ignored);
	for (int g = 0; g < 2 && !only_between && !only_real; g++) {
		size_t nb = g ? 24 : 12;

		rng = seed * 1000037ULL + nb;
		printf("-5%% at 3%% spread, baseline %zu: decided in %.1f%% of trials, mean %.2f "
		       "iterations (goal >= 90%% in a mean <= 4): %s; the floor of any design on this "
		       "statistic at %.0f%% power: %.2f\n", nb, goal_rate[g], goal_mean[g],
		       goal_rate[g] >= 90 && goal_mean[g] <= 4 ? "met" : "MISSED", 100 * SEQ_POWER,
		       floor_mean(&p, 3, -5, nb, trials));
	}
	fflush(stdout);
	return 0;
}
