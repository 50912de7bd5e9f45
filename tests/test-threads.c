/* test-threads.c - MCTS on several threads, sharing one tree and as a
 * pipeline (every test below in both ways, and the pipeline repeating
 * itself with a seed): statistics
 * that add up once every worker has stopped (virtual losses all taken
 * back), a full arena and its free list, tree reuse, runs stopped and
 * resumed, solver proofs and distances that agree with a plain minimax on
 * every tic-tac-toe position and with negamax (on as many threads), and
 * the move played keeping the value; and
 * one thread giving what the one-thread search gives, whatever the runs'
 * sizes. Thread counts: NOUGHTS_TEST_THREADS (such as "2,4,8", as CI's
 * ThreadSanitizer build runs it), else 2 and 8.
 * The counts are asserted, not timings. */
#include "config.h"

#include "mcts.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minimax.h"
#include "negamax.h"
#include "tap.h"
#include "util.h"

static struct game game;
/* How the threads share the search in the tests running now. */
static int parallel = MCTS_PARALLEL_TREE;

static void setup(const char *name, const char *moves, struct pos *pos)
{
	char err[200];

	if (game_init(&game, name, 0, err, sizeof(err)) != 0 ||
	    (game_start(&game, pos), game_play_moves(&game, pos, moves, NULL, NULL, err,
						     sizeof(err))) != 0) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
}

static struct mcts_params params(uint64_t seed, int threads, size_t memory)
{
	struct mcts_params p;

	mcts_params_default(&p);
	p.seed = seed;
	p.threads = threads;
	p.parallel = parallel;
	p.memory = memory;
	return p;
}

/* The children of the root: each one's wins, draws and losses add up to its
 * visits (no virtual loss left behind), values in [0, 1]; their visits add
 * up to at most the root's, which equals ITERATIONS. */
static bool root_adds_up(const struct mcts *m, uint64_t iterations, char *why, size_t size)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		sum += ch[i].visits;
		if (ch[i].wins + ch[i].draws + ch[i].losses != ch[i].visits || ch[i].value < 0 ||
		    ch[i].value > 1) {
			snprintf(why, size, "child %d: %u + %u + %u != %u", ch[i].move, ch[i].wins,
				 ch[i].draws, ch[i].losses, ch[i].visits);
			return false;
		}
	}
	if (t.root_visits != iterations || sum > t.root_visits) {
		snprintf(why, size, "root %u visits, %llu iterations, children %llu", t.root_visits,
			 (unsigned long long)iterations, (unsigned long long)sum);
		return false;
	}
	snprintf(why, size, "%u visits, children %llu, %llu nodes", t.root_visits,
		 (unsigned long long)sum, (unsigned long long)t.nodes);
	return true;
}

/* One thread: runs of any size (through mcts_run or mcts_step) give the
 * same tree as one run. */
static void test_one_thread(void)
{
	struct pos pos;
	struct mcts_params p = params(5, 1, (size_t)16 << 20);
	struct mcts *a, *b;
	struct mcts_child ca[GAME_MAX_MOVES], cb[GAME_MAX_MOVES];
	int na, nb;
	bool same;

	setup("uttt", "e5", &pos);
	a = mcts_new(&game, &pos, &p);
	b = mcts_new(&game, &pos, &p);
	ok(mcts_threads(a) == 1, "threads=1: one thread");
	mcts_step(a, 6000);
	for (uint64_t left = 6000, k = 1; left > 0; k = k * 3 % 1000 + 1) {
		uint64_t n = k < left ? k : left;

		left -= mcts_run(b, n, now_ns() + 3600000000000u);
	}
	na = mcts_stats(a, NULL, 0, ca, GAME_MAX_MOVES, NULL);
	nb = mcts_stats(b, NULL, 0, cb, GAME_MAX_MOVES, NULL);
	same = na == nb && na > 0;
	for (int i = 0; same && i < na; i++)
		same = ca[i].move == cb[i].move && ca[i].visits == cb[i].visits &&
		       ca[i].wins == cb[i].wins && ca[i].draws == cb[i].draws;
	ok(same && mcts_best_move(a) == mcts_best_move(b),
	   "threads=1: runs of any size give the one-run tree, visit for visit");
	mcts_free(a);
	mcts_free(b);
}

/* Spin until *STOP: a thread that competes for the cores. */
static void *busy(void *stop)
{
	while (!__atomic_load_n((int *)stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

/* Many threads on Ultimate tic-tac-toe: counts add up after each run, with
 * a roomy arena and with one that fills, across an advance. */
static void test_counts(int threads)
{
	struct pos pos;
	char why[200];
	size_t sizes[2] = { (size_t)32 << 20, 24 * 3000 };

	setup("uttt", "", &pos);
	for (int s = 0; s < 2; s++) {
		struct mcts_params p = params(3, threads, sizes[s]);
		struct mcts *m = mcts_new(&game, &pos, &p);
		struct mcts_totals t;
		uint64_t ran = 0;
		bool good = true;
		int best;

		ok(mcts_threads(m) == threads, "%d threads searching", mcts_threads(m));
		/* Runs stopped by their budget and by a deadline, resumed. */
		for (int i = 0; i < 10 && good; i++) {
			ran += mcts_run(m, 1000 + 37 * (uint64_t)i, i % 3 == 2 ? now_ns() + 2000000 : 0);
			good = root_adds_up(m, ran, why, sizeof(why));
		}
		ok(good, "%d threads, %zu-byte arena: counts add up after every run (%s)", threads,
		   sizes[s], why);
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		/* (memory: the nodes' blocks, slots for untried moves included) */
		ok(t.iterations == ran && t.memory_used <= t.memory_limit &&
			   t.nodes * mcts_node_bytes() <= t.memory_used && t.nodes <= ran + 1 &&
			   (s == 0 || t.arena_full),
		   "%d threads: %llu nodes for %llu iterations, arena %s", threads,
		   (unsigned long long)t.nodes, (unsigned long long)ran,
		   t.arena_full ? "full" : "not full");
		best = mcts_best_move(m);
		mcts_advance(m, best);
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		ran = mcts_run(m, 5000, 0);
		ok(ran == 5000 && root_adds_up(m, t.root_visits + ran, why, sizeof(why)),
		   "%d threads: after an advance (free list reused), counts add up (%s)", threads,
		   why);
		mcts_free(m);
	}
}

/* A leaf evaluator that finds every position worth 0.3 to X. */
static void const_root(const void *model, const struct pos *root, void *ctx)
{
	(void)model, (void)root, (void)ctx;
}

static double const_leaf(const void *model, const void *ctx, const struct pos *root,
			 const struct pos *leaf)
{
	(void)model, (void)ctx, (void)root, (void)leaf;
	return 0.3;
}

static const struct mcts_leaf_eval const_eval = { .ctx_size = 1, .root = const_root,
						  .leaf = const_leaf };

/* A search with P of Ultimate tic-tac-toe after MOVES, its leaves valued
 * by LEAF under EVAL. */
static struct mcts *eval_search(const char *moves, struct mcts_params *p, enum mcts_eval eval,
				const struct mcts_leaf_eval *leaf)
{
	struct pos pos;

	setup("uttt", moves, &pos);
	p->eval = eval;
	p->leaf = leaf;
	return mcts_new(&game, &pos, p);
}

/* Leaf values are backed up as they are, not drawn as results: with every
 * leaf worth 0.3 (as 19661/65536) and no game over within reach, each
 * child of the root is worth exactly that to X after a search on THREADS
 * threads, whatever the carries of the fractions into whole wins. (Not
 * every move need have a child: with more threads than cores, a worker
 * can lose its core while it holds the root to add one, and the others
 * spend the whole budget evaluating the root meanwhile, as a CI run under
 * ThreadSanitizer did once with 8 threads.) */
static void test_leaf_values(int threads)
{
	struct mcts_params p = params(9, threads, (size_t)32 << 20);
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	struct mcts *m;
	double want = 19661 / 65536.0, worst = 0;
	uint64_t ran;
	uint32_t drawn = 0;
	int n;

	m = eval_search("", &p, MCTS_EVAL_NET, &const_eval);
	ran = mcts_run(m, 20000, 0);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	for (int i = 0; i < n; i++) {
		if (fabs(ch[i].value - want) > worst)
			worst = fabs(ch[i].value - want);
		drawn += ch[i].draws;
	}
	ok(ran == 20000 && (threads == 1 ? n == 81 : n > 0 && n <= 81) && worst < 1e-12 &&
	   drawn == 0,
	   "%d threads, every leaf worth 0.3: each child's value is exactly that "
	   "(%llu iterations, root %llu visits, %d children, off by %g, %u drawn)",
	   threads, (unsigned long long)ran, (unsigned long long)t.root_visits, n, worst,
	   drawn);
	mcts_free(m);
}

/* eval=mix on THREADS threads: every child of the root is made once and
 * gets its prior's MCTS_MIX_PRIOR visits once (on its second visit, which
 * one worker sees), and its playouts; so each child has more than
 * MCTS_MIX_PRIOR visits, won, drawn or lost, and the children's visits
 * are at most the root's plus a prior each: exactly that with one thread
 * and with the pipeline, whose tree has one writer (with threads sharing
 * it, an iteration that found the root locked by another worker adding a
 * child played out from the root). */
static void test_mix_prior(int threads)
{
	struct mcts_params p = params(9, threads, (size_t)32 << 20);
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	struct mcts *m;
	uint64_t sum = 0, want;
	int n, young = 0;
	bool exact = threads == 1 || parallel == MCTS_PARALLEL_PIPELINE;

	m = eval_search("", &p, MCTS_EVAL_MIX, &const_eval);
	mcts_run(m, 20000, 0);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	for (int i = 0; i < n; i++) {
		sum += ch[i].visits;
		young += ch[i].visits <= MCTS_MIX_PRIOR ||
			 ch[i].wins + ch[i].draws + ch[i].losses != ch[i].visits;
	}
	want = t.root_visits + (uint64_t)n * MCTS_MIX_PRIOR;
	/* (all 81 moves have a child with one thread; with more, see
	 * test_leaf_values()) */
	ok((threads == 1 ? n == 81 : n > 0 && n <= 81) && young == 0 &&
	   (exact ? sum == want : sum <= want),
	   "%d threads, eval=mix: every child has its prior, the children's visits %s the "
	   "root's and a prior each (%llu, %llu, %d children)", threads,
	   exact ? "are" : "are at most", (unsigned long long)sum,
	   (unsigned long long)t.root_visits, n);
	mcts_free(m);
}

/* A leaf evaluator that finds a position won for X when its last move has
 * an odd number, lost when even. */
static double parity_leaf(const void *model, const void *ctx, const struct pos *root,
			  const struct pos *leaf)
{
	(void)model, (void)ctx, (void)root;
	return leaf->last & 1 ? 1.0 : 0.0;
}

static const struct mcts_leaf_eval parity_eval = { .ctx_size = 1, .root = const_root,
						   .leaf = parity_leaf };

/* A value for each position from its key, and kids() with the same
 * values, so that the search orders its nodes' children (order=net). */
static double hash_leaf(const void *model, const void *ctx, const struct pos *root,
			const struct pos *leaf)
{
	(void)model, (void)ctx, (void)root;
	return (double)(leaf->hash % 1000) / 1000.0;
}

static void hash_kids(const void *model, const void *ctx, const struct pos *root,
		      const struct pos *pos, const struct pos *kids, int count, double *value)
{
	(void)pos;
	for (int i = 0; i < count; i++)
		value[i] = hash_leaf(model, ctx, root, &kids[i]);
}

static const struct mcts_leaf_eval hash_eval = { .ctx_size = 1, .root = const_root,
						 .leaf = hash_leaf, .kids = hash_kids };

/* The children of M's root that had their priors (more than
 * MCTS_MIX_PRIOR visits), with their number in *GIVEN; in *WRONG the move
 * of one without MCTS_MIX_PRIOR wins for X (its move odd) or losses (even),
 * which parity_eval's prior gives it, else -1. */
static void count_priors(const struct mcts *m, int *given, int *wrong)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	int n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);

	*given = 0;
	*wrong = -1;
	for (int i = 0; i < n; i++) {
		if (ch[i].visits <= MCTS_MIX_PRIOR)
			continue;
		++*given;
		if ((ch[i].move & 1 ? ch[i].wins : ch[i].losses) < MCTS_MIX_PRIOR)
			*wrong = ch[i].move;
	}
}

/* eval=mix on THREADS threads: each node's prior is its own position's
 * value (the pipeline's players compute them for the tree thread, a batch
 * of jobs at a time): after a short search, every child of the root that
 * had its prior has MCTS_MIX_PRIOR wins for X if its move is odd, as many
 * losses if even, more than its few playouts could give it. The search
 * goes on in runs of 600 iterations until ten children have had theirs:
 * with threads sharing the tree, a worker holding the root to add a child
 * can lose its core while the others spend a run's budget meanwhile (a CI
 * run on 8 threads ended its first 600 with 16 children, none given). */
static void test_mix_prior_own(int threads)
{
	struct mcts_params p = params(5, threads, (size_t)32 << 20);
	struct mcts *m = eval_search("", &p, MCTS_EVAL_MIX, &parity_eval);
	uint64_t ran = 0;
	int given = 0, wrong = -1;

	while (given < 10 && ran < 30000) {
		ran += mcts_run(m, 600, 0);
		count_priors(m, &given, &wrong);
	}
	ok(given >= 10 && wrong < 0,
	   "%d threads, eval=mix: each child's prior is its own position's (%d given in %llu "
	   "iterations; wrong: %d)", threads, given, (unsigned long long)ran, wrong);
	mcts_free(m);
}

/* The pipeline on THREADS threads does not depend on their timing: two
 * searches with one seed and the same runs make the same tree, the second
 * while as many busy threads compete for the cores, so that players lose
 * their cores and the tree thread plays out jobs they had not begun (on
 * the 2-core development machine, often enough that a tree thread that
 * played them with another generator failed this test every time). Under
 * EVAL (with LEAF), which also has the players draw whether a leaf gets a
 * playout or its value, and with hash_eval orders the nodes' children
 * below the root (order=net: the players order them). */
static void test_pipeline_repeats(int threads, enum mcts_eval eval,
				  const struct mcts_leaf_eval *leaf)
{
	struct pos pos;
	struct mcts_params p = params(11, threads, (size_t)16 << 20);
	struct mcts_child ch[2][GAME_MAX_MOVES];
	pthread_t spinner[MCTS_MAX_THREADS];
	int n[2], stop = 0, spinners = 0;
	bool same, ordered = true;

	setup("uttt", "", &pos);
	for (int k = 0; k < 2; k++) {
		struct mcts *m;

		p.eval = eval;
		p.leaf = leaf;
		m = mcts_new(&game, &pos, &p);
		ordered &= mcts_params_of(m)->order == (leaf != NULL && leaf->kids != NULL
							    ? MCTS_ORDER_NET : MCTS_ORDER_FIXED);

		__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
		for (int i = 0; k == 1 && i < threads; i++)
			spinners += pthread_create(&spinner[spinners], NULL, busy, &stop) == 0;
		for (uint64_t run = 1; run <= 5; run++)
			mcts_run(m, 1000 * run, 0);
		__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
		for (int i = 0; i < spinners; i++)
			pthread_join(spinner[i], NULL);
		n[k] = mcts_stats(m, NULL, 0, ch[k], GAME_MAX_MOVES, NULL);
		mcts_free(m);
	}
	same = n[0] == n[1] && n[0] > 0 && spinners == threads && ordered;
	for (int i = 0; same && i < n[0]; i++)
		same = ch[0][i].move == ch[1][i].move && ch[0][i].visits == ch[1][i].visits &&
		       ch[0][i].wins == ch[1][i].wins && ch[0][i].draws == ch[1][i].draws;
	ok(same, "%d threads, pipeline, eval=%s%s: a seed and the same runs give the same tree, "
	   "visit for visit, also with %d busy threads competing for the cores", threads,
	   eval == MCTS_EVAL_MIX ? "mix" : "rollout",
	   leaf != NULL && leaf->kids != NULL ? ", order=net" : "", spinners);
}

/* A leaf whose mover can win the game with its next move is a win for it,
 * whatever the evaluator says: X to move has 6 moves, and after each but
 * e4 O wins at once. One visit each: e4 is worth the evaluator's 0.3 to X,
 * the other five nothing. */
static void test_leaf_wins_at_once(void)
{
	struct mcts_params p = params(9, 1, (size_t)8 << 20);
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts *m;
	char name[8];
	int n, right = 0;

	m = eval_search("i6 h7 e1 e2 d5 c4 h2 e5 d6 a8 a6 c7 i2 i5 i4 g3 a9 a7 c1 h1 f1 i1 h3 f8 g5 c5 "
			"g4 c3 i7 i3 h9 e7 d2 b6 d7 c2 h6 e9 f7 g1 b2 e6 d9 b7 e3 f9 g7 b3 e8 d4 a3 c6 "
			"g8 g6 h4 f3 i8 i9 g9 f5",
			&p, MCTS_EVAL_NET, &const_eval);
	mcts_run(m, 6, 0);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	for (int i = 0; i < n; i++) {
		bool e4 = strcmp(game_move_name(&game, ch[i].move, name), "e4") == 0;

		right += ch[i].visits == 1 && ch[i].value == (e4 ? 19661 / 65536.0 : 0);
	}
	ok(n == 6 && right == 6, "a leaf where O wins at once counts as O's win, not as the "
	   "evaluator's value (%d of %d children right)", right, n);
	mcts_free(m);
}

struct sweep {
	int threads, positions, proven, wrong, unsound;
	struct negamax *nm;   /* on as many threads */
	int against_negamax;  /* proofs whose value or distance it does not share */
	uint64_t seen[1 << 13]; /* positions met, by hash (a set of 64-bit keys) */
};

static bool seen_before(struct sweep *s, uint64_t key)
{
	size_t n = sizeof(s->seen) / sizeof(s->seen[0]), i = key & (n - 1);

	key |= 1; /* (0 marks an empty slot) */
	while (s->seen[i] != 0) {
		if (s->seen[i] == key)
			return true;
		i = (i + 1) & (n - 1);
	}
	s->seen[i] = key;
	return false;
}

/* Solve POS with S->threads workers and compare, then every position after. */
static void sweep_pos(struct sweep *s, const struct pos *pos)
{
	struct mcts_params p = params(7, s->threads, 24 * 32768);
	struct mcts_totals t;
	struct moveset ms;
	struct mcts *m;
	int want;

	if (game_over(pos) || seen_before(s, pos->hash))
		return;
	s->positions++;
	want = minimax(&game, pos);
	m = mcts_new(&game, pos, &p);
	for (int i = 0; i < 400 && !mcts_finished(m); i++)
		mcts_run(m, 500, 0);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	if (t.root_proven != PROOF_NONE) {
		s->proven++;
		/* a finished search has the exact distance too */
		s->wrong += t.root_proven != proof_of_score(want) ||
			    (want != 0 && t.root_proven_plies != minimax_plies(want));
	}
	s->wrong += proof_of_score(minimax_move(&game, pos, mcts_best_move(m))) !=
		    proof_of_score(want);
	if (t.root_visits != t.iterations)
		s->unsound++;
	if (t.root_proven != PROOF_NONE) {
		struct negamax_result r;

		negamax_search(s->nm, pos, NULL, NULL, NULL, &r);
		s->against_negamax += !r.exact || r.value != t.root_proven ||
				      (r.value != PROOF_DRAW && r.plies != t.root_proven_plies);
	}
	mcts_free(m);
	game_legal(&game, pos, &ms);
	while (!moveset_empty(&ms)) {
		struct pos q = *pos;

		game_play(&game, &q, moveset_pop(&ms));
		sweep_pos(s, &q);
	}
}

static void test_solver(int threads)
{
	struct sweep *s = calloc(1, sizeof(*s));
	struct pos pos;
	struct negamax_params np = { 0, 0, (size_t)1 << 20, threads };

	setup("ttt", "", &pos);
	s->threads = threads;
	s->nm = negamax_new(&game, &np);
	sweep_pos(s, &pos);
	ok(s->positions == 4520 && s->wrong == 0 && s->unsound == 0 && s->proven == 4520,
	   "%d threads, 32768-slot arena: %d of %d tic-tac-toe positions proven, %d against "
	   "minimax (value, distance or the move played), %d with uneven counts",
	   threads, s->proven, s->positions, s->wrong, s->unsound);
	ok(s->against_negamax == 0 && s->proven > 0,
	   "%d threads: MCTS's proofs agree with negamax's (on %d threads) in value and distance "
	   "(%d do not)", threads, threads, s->against_negamax);
	negamax_free(s->nm);
	free(s);
}

int main(void)
{
	const char *env = getenv("NOUGHTS_TEST_THREADS");
	char list[64];

	snprintf(list, sizeof(list), "%s", env != NULL && env[0] != '\0' ? env : "2,8");
	test_one_thread();
	test_leaf_values(1);
	test_mix_prior(1);
	test_mix_prior_own(1);
	test_leaf_wins_at_once();
	for (char *tok = strtok(list, ","); tok != NULL; tok = strtok(NULL, ",")) {
		int threads = atoi(tok);

		if (threads < 1 || threads > MCTS_MAX_THREADS) {
			printf("Bail out! NOUGHTS_TEST_THREADS: '%s' is not from 1 to %d\n", tok,
			       MCTS_MAX_THREADS);
			return 1;
		}
		for (parallel = MCTS_PARALLEL_TREE; parallel <= MCTS_PARALLEL_PIPELINE; parallel++) {
			printf("# %d threads, parallel=%s\n", threads,
			       parallel == MCTS_PARALLEL_TREE ? "tree" : "pipeline");
			test_counts(threads);
			test_leaf_values(threads);
			test_mix_prior(threads);
			test_mix_prior_own(threads);
			test_solver(threads);
		}
		parallel = MCTS_PARALLEL_PIPELINE;
		test_pipeline_repeats(threads, MCTS_EVAL_ROLLOUT, NULL);
		test_pipeline_repeats(threads, MCTS_EVAL_MIX, &parity_eval);
		test_pipeline_repeats(threads, MCTS_EVAL_MIX, &hash_eval);
	}
	return tap_done();
}
