/* commands-bench.c - noughts bench: perft, playouts and MCTS iterations a
 * second, on one thread and on each count asked for. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "json.h"
#include "mcts.h"
#include "nnue.h"
#include "options.h"
#include "util.h"

/* MCTS with random playouts on the thread counts of --threads: each
 * count's median, least and greatest rate over the rounds, and one
 * thread's median (the ratios' reference). */
struct bench_threads {
	double median[OPTIONS_MAX_THREADS], lo[OPTIONS_MAX_THREADS], hi[OPTIONS_MAX_THREADS];
	int parallel[OPTIONS_MAX_THREADS]; /* how they shared it, enum mcts_parallel */
	double one;
};

struct bench {
	double perft, playouts, mcts_random, mcts_smart;
	double mcts_net, mcts_mix; /* 0 for a game without a network */
	struct bench_threads t;
};

static double perft_rate(const struct game *g, const struct pos *start, double seconds)
{
	uint64_t counts[GAME_MAX_PLIES], leaves = 0, t0 = now_ns(), elapsed, last_ns;

	for (int d = 1; d <= GAME_MAX_PLIES; d++) {
		uint64_t t = now_ns();
		double branching;

		game_perft(g, start, d, counts);
		leaves += counts[d - 1];
		last_ns = now_ns() - t;
		elapsed = now_ns() - t0;
		if (counts[d - 1] == 0 || elapsed >= seconds * 1e9)
			break;
		/* The next depth costs about the branching factor times this one:
		 * start it only if it ends near the time asked for. */
		branching = d >= 2 && counts[d - 2] > 0 ? (double)counts[d - 1] / counts[d - 2] : 1;
		if (elapsed + last_ns * branching > 1.5 * seconds * 1e9)
			break;
	}
	elapsed = now_ns() - t0;
	return leaves / (elapsed / 1e9);
}

static double playout_rate(const struct game *g, const struct pos *start, double seconds)
{
	struct rng r;
	uint64_t n = 0, t0 = now_ns(), elapsed;

	rng_seed(&r, 1);
	do {
		for (int i = 0; i < 256; i++) {
			struct pos p = *start;

			game_rollout(g, &p, &r, ROLLOUT_RANDOM);
		}
		n += 256;
		elapsed = now_ns() - t0;
	} while (elapsed < seconds * 1e9);
	return n / (elapsed / 1e9);
}

/* MCTS iterations a second from START on THREADS threads with EVAL (with
 * a network: G's built-in one) and playouts ROLLOUT; how the threads
 * shared the search in *PARALLEL if not NULL (the default for their
 * number). */
static double mcts_rate(const struct game *g, const struct pos *start, int rollout,
			enum mcts_eval eval, int threads, double seconds, int *parallel)
{
	struct mcts_params params;
	struct mcts *m;
	uint64_t n, t0, elapsed;

	mcts_params_default(&params);
	params.rollout = rollout;
	params.threads = threads;
	params.leaf = eval == MCTS_EVAL_ROLLOUT ? NULL : nnue_leaf_eval(nnue_builtin(g));
	params.eval = eval;
	m = mcts_new(g, start, &params); /* (threads started before the clock) */
	if (parallel != NULL)
		*parallel = mcts_params_of(m)->parallel;
	t0 = now_ns();
	/* One run: it stops early only when the root is solved, and then the
	 * rate so far stands. */
	n = mcts_run(m, UINT64_MAX, t0 + (uint64_t)(seconds * 1e9));
	elapsed = now_ns() - t0;
	mcts_free(m);
	return n / (elapsed / 1e9);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the N rates in R (sorted in place). */
static double median_of(double *r, int n)
{
	qsort(r, (size_t)n, sizeof(*r), cmp_double);
	return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

/* --threads: every count in turn (one thread first, the reference, even
 * when not asked for), --rounds times, so that a machine whose speed
 * drifts (another program, a virtual machine's neighbours) weighs on
 * every count alike; then each count's median and range. */
static void bench_threads_measure(const struct options *opt, struct bench_threads *t)
{
	static double rate[OPTIONS_MAX_THREADS + 1][OPTIONS_MAX_ROUNDS];
	const struct game *g = &opt->game;

	for (int r = 0; r < opt->rounds; r++) {
		rate[OPTIONS_MAX_THREADS][r] = mcts_rate(g, &opt->pos, ROLLOUT_RANDOM,
							 MCTS_EVAL_ROLLOUT, 1, opt->seconds, NULL);
		for (int i = 0; i < opt->nthreads; i++)
			rate[i][r] = opt->threads[i] == 1 ? rate[OPTIONS_MAX_THREADS][r]
				     : mcts_rate(g, &opt->pos, ROLLOUT_RANDOM, MCTS_EVAL_ROLLOUT,
						 opt->threads[i], opt->seconds, &t->parallel[i]);
	}
	t->one = median_of(rate[OPTIONS_MAX_THREADS], opt->rounds);
	for (int i = 0; i < opt->nthreads; i++) {
		t->median[i] = median_of(rate[i], opt->rounds);
		t->lo[i] = rate[i][0];
		t->hi[i] = rate[i][opt->rounds - 1];
	}
}

/* The figures of --threads: one line each, with the ratio of its median to
 * one thread's and the range of its rounds. */
static void bench_threads_print(const struct options *opt, const struct bench_threads *t,
				struct json *j)
{
	if (j != NULL) {
		json_key(j, "threads");
		json_array_begin(j);
	} else {
		printf("mcts iterations/s (random) on threads, the median of %d round%s taken in "
		       "turn,\nratio to one thread's, the rounds' range, how they share the search:\n",
		       opt->rounds, opt->rounds == 1 ? "" : "s");
	}
	for (int i = 0; i < opt->nthreads; i++) {
		double ratio = t->one > 0 ? t->median[i] / t->one : 0;
		const char *how = opt->threads[i] == 1 ? NULL
				  : t->parallel[i] == MCTS_PARALLEL_PIPELINE ? "pipeline" : "tree";

		if (j == NULL) {
			printf("  %3d thread%s %12.0f  %5.2fx  %9.0f-%.0f%s%s\n", opt->threads[i],
			       opt->threads[i] == 1 ? " " : "s", t->median[i], ratio, t->lo[i],
			       t->hi[i], how != NULL ? "  " : "", how != NULL ? how : "");
			continue;
		}
		json_object_begin(j);
		json_int_field(j, "threads", opt->threads[i]);
		json_double_field(j, "iterations_per_s", t->median[i]);
		json_double_field(j, "ratio", ratio);
		json_double_field(j, "min", t->lo[i]);
		json_double_field(j, "max", t->hi[i]);
		if (how != NULL)
			json_string_field(j, "parallel", how);
		json_object_end(j);
	}
	if (j != NULL)
		json_array_end(j);
}

int cmd_bench(struct options *opt)
{
	const struct game *g = &opt->game;
	struct bench b;

	if (refuse_finished(opt))
		return 1;
	b.perft = perft_rate(g, &opt->pos, opt->seconds);
	b.playouts = playout_rate(g, &opt->pos, opt->seconds);
	b.mcts_random = mcts_rate(g, &opt->pos, ROLLOUT_RANDOM, MCTS_EVAL_ROLLOUT, 1,
				  opt->seconds, NULL);
	b.mcts_smart = mcts_rate(g, &opt->pos, ROLLOUT_SMART, MCTS_EVAL_ROLLOUT, 1,
				 opt->seconds, NULL);
	b.mcts_net = b.mcts_mix = 0;
	if (nnue_builtin(g) != NULL) {
		b.mcts_net = mcts_rate(g, &opt->pos, ROLLOUT_SMART, MCTS_EVAL_NET, 1, opt->seconds,
				       NULL);
		b.mcts_mix = mcts_rate(g, &opt->pos, ROLLOUT_SMART, MCTS_EVAL_MIX, 1, opt->seconds,
				       NULL);
	}
	/* Random playouts, so that the figures compare across versions. */
	if (opt->nthreads > 0)
		bench_threads_measure(opt, &b.t);
	if (opt->json) {
		struct json j;

		json_init(&j, stdout);
		json_object_begin(&j);
		json_string_field(&j, "game", g->name);
		json_double_field(&j, "perft_leaves_per_second", b.perft);
		json_double_field(&j, "playouts_per_second", b.playouts);
		json_double_field(&j, "mcts_random_iterations_per_second", b.mcts_random);
		json_double_field(&j, "mcts_smart_iterations_per_second", b.mcts_smart);
		if (b.mcts_net > 0) {
			json_double_field(&j, "mcts_net_iterations_per_second", b.mcts_net);
			json_double_field(&j, "mcts_mix_iterations_per_second", b.mcts_mix);
		}
		if (opt->nthreads > 0)
			bench_threads_print(opt, &b.t, &j);
		json_object_end(&j);
		return 0;
	}
	printf("game %s, about %g s each, one thread\n", g->name, opt->seconds);
	printf("perft leaves/s              %12.0f\n", b.perft);
	printf("random playouts/s           %12.0f\n", b.playouts);
	printf("mcts iterations/s (random)  %12.0f\n", b.mcts_random);
	printf("mcts iterations/s (smart)   %12.0f\n", b.mcts_smart);
	if (b.mcts_net > 0) {
		printf("mcts iterations/s (network) %12.0f  (%s)\n", b.mcts_net,
		       nnue_simd_name(nnue_set_simd(-1)));
		printf("mcts iterations/s (mix)     %12.0f\n", b.mcts_mix);
	}
	if (opt->nthreads > 0)
		bench_threads_print(opt, &b.t, NULL);
	return 0;
}

