/* test-order.c - order=net: the network's value of a node's children,
 * computed from the node's accumulators (kids()), is the value of each
 * computed alone (leaf()); the search makes a node's children best first
 * by it, each with it as its prior, and below the root widens a node only
 * as its visits allow, where order=fixed makes every move in turn; under
 * eval=mix each node keeps the minimax of the network's values below it. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "nnue.h"
#include "tap.h"

static struct game game;

/* Random games: at each position, kids() of its children not over against
 * leaf() of each, from the start as the root (the search's own context),
 * with each SIMD path the machine has (test-nnue checks each path's kids()
 * against the scalar path's). */
static void test_kids(const struct mcts_leaf_eval *e)
{
	void *ctx = malloc(e->ctx_size);
	struct pos start, p;
	struct rng r;
	int positions = 0, kids = 0, same[NNUE_AVX512 + 1] = { 0 };
	bool have[NNUE_AVX512 + 1];
	int best = nnue_set_simd(NNUE_AVX512);

	for (int l = NNUE_SCALAR; l <= NNUE_AVX512; l++)
		have[l] = nnue_set_simd(l) == l;
	game_start(&game, &start);
	e->root(e->model, &start, ctx);
	rng_seed(&r, 11);
	for (int g = 0; g < 30; g++) {
		p = start;
		while (!game_over(&p)) {
			struct pos kid[GAME_MAX_MOVES];
			double v[GAME_MAX_MOVES];
			struct moveset legal;
			int n = 0;

			game_legal(&game, &p, &legal);
			for (int i = 0; i < moveset_count(&legal); i++) {
				kid[n] = p;
				game_play(&game, &kid[n], moveset_nth(&legal, i));
				n += !game_over(&kid[n]);
			}
			for (int l = NNUE_SCALAR; l <= NNUE_AVX512; l++) {
				if (!have[l])
					continue;
				nnue_set_simd(l);
				e->kids(e->model, ctx, &start, &p, kid, n, v);
				for (int i = 0; i < n; i++)
					same[l] += v[i] == e->leaf(e->model, ctx, &start, &kid[i]);
			}
			kids += n;
			positions++;
			game_play(&game, &p, moveset_nth(&legal, (int)rng_below(&r,
						(uint32_t)moveset_count(&legal))));
		}
	}
	nnue_set_simd(best);
	for (int l = NNUE_SCALAR; l <= NNUE_AVX512; l++) {
		if (have[l])
			ok(same[l] == kids && kids > 10000,
			   "%s: kids() of %d positions: each of %d children's values is leaf()'s, to the bit (%d)",
			   nnue_simd_name(l), positions, kids, same[l]);
	}
	free(ctx);
}

static struct mcts *search(const struct pos *p, enum mcts_order order, uint64_t seed)
{
	struct mcts_params prm;

	mcts_params_default(&prm);
	prm.eval = MCTS_EVAL_MIX;
	prm.leaf = nnue_leaf_eval(nnue_builtin(&game));
	prm.memory = 32 << 20;
	prm.seed = seed;
	prm.order = order;
	return mcts_new(&game, p, &prm);
}

/* Is V, a leaf's value backed up, its playout's result blended with its
 * network value NET as eval=mix blends them (MCTS_MIX_BLEND percent NET)? */
static bool blended(double v, double net)
{
	for (int s = 0; s <= 2; s++)
		if (fabs(v - (MCTS_MIX_BLEND * net + (100 - MCTS_MIX_BLEND) * s / 2.0) / 100) < 1e-4)
			return true;
	return false;
}

/* The root's first 81 iterations make its 81 children, best first for X
 * by the network, each with MCTS_ORDER_PRIOR visits of its value and the
 * value of its first leaf: a playout's result blended with that value. */
static void test_root(void)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_trace tr;
	double net[GAME_MAX_MOVES], first[GAME_MAX_MOVES];
	int order[GAME_MAX_MOVES], played[GAME_MAX_MOVES] = { 0 };
	int k, sorted = 0, valued = 0, blends = 0;
	struct pos p;
	struct mcts *m;

	game_start(&game, &p);
	m = search(&p, MCTS_ORDER_AUTO, 1);
	ok(mcts_params_of(m)->order == MCTS_ORDER_NET, "uttt, eval=mix: order=net by default");
	for (int i = 0; i < 81; i++) {
		mcts_step_trace(m, &tr);
		order[i] = tr.expanded;
		first[tr.expanded >= 0 ? tr.expanded : 0] = tr.value;
		played[tr.expanded >= 0 ? tr.expanded : 0] = tr.estimate && tr.rollout_len > 0;
	}
	k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	for (int i = 0; i < k; i++) {
		double want = (MCTS_ORDER_PRIOR * ch[i].net + first[ch[i].move]) /
			      (MCTS_ORDER_PRIOR + 1);

		net[ch[i].move] = ch[i].net;
		valued += ch[i].visits == MCTS_ORDER_PRIOR + 1 && fabs(ch[i].value - want) < 1e-4;
		blends += played[ch[i].move] && blended(first[ch[i].move], ch[i].net);
	}
	for (int i = 1; i < 81; i++)
		sorted += order[i] >= 0 && net[order[i]] <= net[order[i - 1]];
	ok(k == 81 && sorted == 80, "the root's children are made best first by the network (%d of 80)",
	   sorted);
	ok(valued == 81, "each with %d visits of its network value and its first leaf's (%d of 81)",
	   MCTS_ORDER_PRIOR, valued);
	ok(blends == 81, "each first leaf a playout blended %d%% with its network value (%d of 81)",
	   MCTS_MIX_BLEND, blends);
	mcts_free(m);
}

/* Below the root, a child with V visits has fewer than MCTS_WIDEN_BASE +
 * MCTS_WIDEN_RATE * sqrt(V) + 1 children (unless some are proven, which
 * lets it widen past them), and some with visits enough for every move
 * have fewer; with order=fixed those have them all. */
/* A position of a random game (a fixed seed) in which at least three moves
 * leave the other side a free choice of 20 moves or more. */
static void wide_position(struct pos *p)
{
	struct rng r;

	rng_seed(&r, 3);
	for (;;) {
		game_start(&game, p);
		while (!game_over(p)) {
			struct moveset legal, next;
			int wide = 0;

			game_legal(&game, p, &legal);
			for (int i = 0; i < moveset_count(&legal); i++) {
				struct pos q = *p;

				game_play(&game, &q, moveset_nth(&legal, i));
				game_legal(&game, &q, &next);
				wide += moveset_count(&next) >= 20;
			}
			if (wide >= 3)
				return;
			game_play(&game, p, moveset_nth(&legal, (int)rng_below(&r,
						(uint32_t)moveset_count(&legal))));
		}
	}
}

static void test_widening(void)
{
	struct mcts_child ch[GAME_MAX_MOVES], sub[GAME_MAX_MOVES];
	struct pos p;
	int within[2] = { 0 }, narrow[2] = { 0 }, k;

	wide_position(&p);
	for (int o = 0; o < 2; o++) {
		struct mcts *m = search(&p, o == 0 ? MCTS_ORDER_NET : MCTS_ORDER_FIXED, 3);

		mcts_run(m, 30000, 0);
		k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		for (int i = 0; i < k; i++) {
			uint8_t path = (uint8_t)ch[i].move;
			int ks = mcts_stats(m, &path, 1, sub, GAME_MAX_MOVES, NULL), proven = 0;
			struct pos q = p;
			struct moveset legal;

			for (int j = 0; j < ks; j++)
				proven += sub[j].proven != PROOF_NONE;
			game_play(&game, &q, ch[i].move);
			game_legal(&game, &q, &legal);
			within[o] += proven > 0 ||
				     ks - 1 < MCTS_WIDEN_BASE + MCTS_WIDEN_RATE * sqrt(ch[i].visits);
			/* (visits enough for every move, the prior's aside) */
			if ((int)ch[i].visits - MCTS_ORDER_PRIOR - 1 >= moveset_count(&legal))
				narrow[o] += ks < moveset_count(&legal);
		}
		mcts_free(m);
	}
	ok(within[0] == k, "order=net: each root child has as many children as its visits allow "
	   "(%d of %d)", within[0], k);
	ok(narrow[0] > 0 && narrow[1] == 0,
	   "order=net leaves %d root children with moves not yet made, order=fixed none (%d)",
	   narrow[0], narrow[1]);
}

/* A network of the other input format (tests/data/nnue-cells.bin when the
 * built-in one is format 2) values a node's children at once too. */
static void test_other_format(void)
{
	const char *dir = getenv("TESTDATA");
	const char *other = nnue_version(nnue_builtin(&game)) == NNUE_VERSION ? "cells" : "plain";
	char path[4096], err[400];
	struct nnue *n;

	snprintf(path, sizeof(path), "%s/nnue-%s.bin", dir != NULL ? dir : "tests/data", other);
	n = nnue_load(path, err, sizeof(err));
	ok(n != NULL && nnue_leaf_eval(n)->kids != NULL,
	   "a network of the other format values a node's children at once (%s)",
	   n != NULL ? "loaded" : err);
	if (n == NULL)
		return;
	test_kids(nnue_leaf_eval(n));
	nnue_free(n);
}

/* What the walk of test_implicit() found: leaves and inner nodes checked,
 * inner nodes fully expanded, and those where the rule failed. */
struct implicit_walk {
	int leaves, inner, full, bad;
};

/* Check the node reached by the LEN moves PATH (position P; ME its entry
 * in its parent's statistics, NULL at the root) and the tree below it: a
 * leaf's implicit minimax value is its network value (or its result when
 * the game is over); an inner node's, for its mover, is at least the best
 * of its children's, and exactly that once every move is a child. */
static void walk_implicit(struct mcts *m, uint8_t *path, int len, const struct pos *p,
			  const struct mcts_child *me, struct implicit_walk *w)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct moveset legal;
	int k = mcts_stats(m, path, len, ch, GAME_MAX_MOVES, NULL);
	double best = -1;

	if (k <= 0) {
		double want = !game_over(p) ? me->net : p->result == RESULT_DRAW ? 0.5 : 1;

		w->leaves++;
		w->bad += fabs(me->implicit - want) > 2.0 / 65535;
		return;
	}
	for (int i = 0; i < k; i++)
		best = ch[i].implicit > best ? ch[i].implicit : best;
	game_legal(&game, p, &legal);
	if (me != NULL) {
		w->inner++;
		w->full += k == moveset_count(&legal);
		w->bad += k == moveset_count(&legal) ? fabs(1 - me->implicit - best) > 1e-9
						     : 1 - me->implicit < best - 1e-9;
	}
	for (int i = 0; i < k; i++) {
		struct pos q = *p;

		game_play(&game, &q, ch[i].move);
		path[len] = (uint8_t)ch[i].move;
		walk_implicit(m, path, len + 1, &q, &ch[i], w);
	}
}

/* C's mean moved toward its implicit value, as the search ranks it. */
static double moved_mean(const struct mcts_child *c)
{
	return c->value + MCTS_IMPLICIT_WEIGHT * (c->implicit - c->value);
}

/* The move whose UCT score in CH (K children, fully expanded) is the
 * highest, its mean first moved toward its implicit value (WITH) or not. */
static int predict(const struct mcts_child *ch, int k, double explore, bool with)
{
	double top = -1;
	int move = -1;

	for (int i = 0; i < k; i++) {
		double s = (with ? moved_mean(&ch[i]) : ch[i].value) + explore / sqrt(ch[i].visits);

		if (s > top) {
			top = s;
			move = ch[i].move;
		}
	}
	return move;
}

/* eval=mix under order=net: every node keeps the minimax of the network's
 * values below it (MCTS_IMPLICIT_WEIGHT), and the root's choice ranks its
 * children by their means moved toward it. */
static void test_implicit(void)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct implicit_walk w = { 0 };
	struct mcts_totals tot;
	struct mcts_trace tr;
	uint8_t path[GAME_MAX_PLIES];
	int same = 0, differ = 0, k;
	struct pos p;
	struct mcts *m;

	game_start(&game, &p);
	m = search(&p, MCTS_ORDER_AUTO, 3);
	mcts_run(m, 5000, 0);
	walk_implicit(m, path, 0, &p, NULL, &w);
	ok(w.bad == 0 && w.leaves > 1000 && w.inner > 100 && w.full > 10,
	   "a leaf's implicit value is its network value, a node's the best of its children's "
	   "(%d leaves, %d inner nodes, %d of them full; %d wrong)", w.leaves, w.inner, w.full,
	   w.bad);
	for (int i = 0; i < 200; i++) {
		double explore;
		int with;

		k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &tot);
		explore = mcts_params_of(m)->c * mcts_sqrt_log(tot.root_visits);
		with = predict(ch, k, explore, true);
		differ += with != predict(ch, k, explore, false);
		mcts_step_trace(m, &tr);
		same += k == 81 && tr.path_len > 0 && tr.path[0] == with;
	}
	ok(same == 200 && differ > 0,
	   "the root selects by means moved %.0f%% toward the implicit values (%d of 200; "
	   "%d of them another move by the means alone)", 100 * MCTS_IMPLICIT_WEIGHT, same, differ);
	mcts_free(m);
}

/* A search of P (seeded by SEED): is the move it plays, of the children
 * with at least MCTS_CHOICE_SHARE of the most visited one's visits, one
 * with the best moved_mean() (the most visited while it has fewer than
 * MCTS_CHOICE_VISITS)? 1 if so and it is the most visited, 2 if so
 * and it is another, 0 if not; -1 (nothing to check) when a child is
 * proven. */
static int check_choice(const struct pos *p, uint64_t seed)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts *m = search(p, MCTS_ORDER_AUTO, seed);
	int k, best, verdict = 0;
	double top = -1;

	mcts_run(m, 6000, 0);
	k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	best = mcts_best_move(m);
	mcts_free(m);
	for (int i = 0; i < k; i++) {
		if (ch[i].proven != PROOF_NONE)
			return -1;
		if (ch[i].visits >= MCTS_CHOICE_SHARE * ch[0].visits && moved_mean(&ch[i]) > top)
			top = moved_mean(&ch[i]);
	}
	if (ch[0].visits < MCTS_CHOICE_VISITS) /* (too few for the means to count) */
		return best == ch[0].move;
	for (int i = 0; i < k; i++)
		if (ch[i].move == best && ch[i].visits >= MCTS_CHOICE_SHARE * ch[0].visits &&
		    moved_mean(&ch[i]) > top - 1e-12)
			verdict = best == ch[0].move ? 1 : 2;
	return verdict;
}

/* The move played is not always the most visited child but, of those
 * with at least MCTS_CHOICE_SHARE of its visits, the one with the best
 * mean moved toward its implicit value: searches of positions from seeded
 * random games, some of them playing another move than the most visited. */
static void test_choice(void)
{
	int checked = 0, right = 0, other = 0;
	struct rng r;

	rng_seed(&r, 50);
	for (int g = 0; g < 12; g++) {
		struct pos p;

		game_start(&game, &p);
		for (int ply = 0; ply < 48 && !game_over(&p); ply++) {
			struct moveset ms;
			int v = ply % 6 == 5 ? check_choice(&p, (uint64_t)ply) : -1;

			checked += v >= 0;
			right += v > 0;
			other += v == 2;
			game_legal(&game, &p, &ms);
			game_play(&game, &p, moveset_nth(&ms, (int)rng_below(&r,
						(uint32_t)moveset_count(&ms))));
		}
	}
	ok(checked >= 40 && right == checked && other > 0,
	   "the move played: the best mean moved toward the implicit value among the children "
	   "with %.0f%% of the most visited one's visits (%d of %d positions; %d of them not the "
	   "most visited)", 100 * MCTS_CHOICE_SHARE, right, checked, other);
}

int main(void)
{
	char err[200];
	const struct nnue *n;

	if (game_init(&game, "uttt", RULE_TIEBREAK, err, sizeof(err)) != 0) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	n = nnue_builtin(&game);
	ok(nnue_leaf_eval(n)->kids != NULL, "the built-in network values a node's children at once");
	test_kids(nnue_leaf_eval(n));
	test_other_format();
	test_root();
	test_widening();
	test_implicit();
	test_choice();
	return tap_done();
}
