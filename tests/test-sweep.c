/* test-sweep.c - every engine setting on every tic-tac-toe position, one
 * thread: MCTS at 20, 80, 500 and 5,000 iterations with five seeds, and
 * negamax at every level and every depth that plays differently on a 3x3
 * board. Each is driven
 * as the product drives it (a player made from a spec, as analyze and the
 * screen do), and what it reports is checked against a plain minimax
 * (tests/minimax.h) and against solve's tablebase (negamax_solve_moves):
 *
 * - once the engine has proven the position's value, the move it plays
 *   keeps that value, and keeps every value it proved for a move (never a
 *   draw or a loss where it proved a win, never a loss where it proved a
 *   draw); where the root's distance is proven, the move is a fastest win
 *   (or a slowest loss);
 * - every value it proves is minimax's;
 * - every distance it reports (the root's and each move's, "win in N" and
 *   "loss in N") is the distance solve gives.
 *
 * The figures are printed for the project's notes. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "minimax.h"
#include "negamax.h"
#include "player.h"
#include "tap.h"
#include "util.h"

#define TTT_POSITIONS 4520 /* reachable and not over */
#define SEEDS 5

/* What the rules say about one position: minimax's value of the position
 * and of each move, and solve's distances. Indexed by move id. */
struct truth {
	struct pos pos;
	int value;                 /* minimax score, side to move */
	int score[GAME_MAX_CELLS]; /* minimax score of each legal move */
	int solve_plies;           /* solve's "plies" */
	int move_plies[GAME_MAX_CELLS]; /* solve's plies of each move */
	int solve_value;
	int move_value[GAME_MAX_CELLS];
};

/* What a setting did over the sweep. */
struct figures {
	int positions;       /* searched (more than one legal move) */
	int proven_roots;    /* positions whose value the engine proved */
	int proven_moves;    /* move values it proved */
	int losing;          /* moves played that lose the position's proven value */
	int below_move;      /* moves played worse than a move proven (root unproven) */
	int slower;          /* not a fastest win where the distance is proven */
	int wrong_value;     /* proven values that are not minimax's */
	int wrong_plies;     /* distances that are not solve's */
	int distances;       /* distances reported */
	int unproven_losing; /* moves losing the value with nothing proven (a figure only) */
	uint64_t iterations; /* MCTS iterations run */
	int full;            /* MCTS searches whose arena filled up */
};

static struct game g;
static struct truth *truth;
static int npos;
/* Every position, or every STRIDE-th under the sanitizers (make check sets
 * NOUGHTS_SANITIZED), where each search's arena and each negamax worker
 * thread costs a mapping of its own: the whole sweep took 8 minutes
 * there, and the plain build's run covers every position. */
static int stride = 1;

/* Every position, its minimax values and solve's tablebase; counts the
 * places where solve and minimax differ. */
static int build_truth(void)
{
	struct posset all = { NULL, 0, 0 };
	struct pos start;
	struct negamax_params np = { 0, 0, (size_t)4 << 20, 1 };
	struct negamax *n;
	int differ = 0;

	game_start(&g, &start);
	enumerate(&g, &start, &all);
	npos = all.count;
	truth = xcalloc((size_t)npos, sizeof(*truth));
	n = negamax_new(&g, &np);
	for (int i = 0; i < npos; i++) {
		struct truth *t = &truth[i];
		struct negamax_move mv[GAME_MAX_MOVES];
		struct negamax_result r;
		struct moveset ms;
		int count;

		t->pos = all.pos[i];
		t->value = minimax(&g, &t->pos);
		game_legal(&g, &t->pos, &ms);
		while (!moveset_empty(&ms)) {
			int m = moveset_pop(&ms);

			t->score[m] = minimax_move(&g, &t->pos, m);
		}
		negamax_solve_moves(n, &t->pos, NULL, NULL, NULL, &r, mv, &count);
		t->solve_value = r.value;
		t->solve_plies = r.plies;
		differ += !r.exact || r.value != proof_of_score(t->value) ||
			  (t->value != 0 && r.plies != minimax_plies(t->value));
		for (int k = 0; k < count; k++) {
			int m = mv[k].move, s = t->score[m];

			t->move_value[m] = mv[k].value;
			t->move_plies[m] = mv[k].plies;
			differ += mv[k].value != proof_of_score(s) ||
				  (s != 0 && mv[k].plies != minimax_plies(s));
		}
	}
	negamax_free(n);
	free(all.pos);
	return differ;
}

/* Check a proven value PROOF (side to move's view) with distance PLIES
 * (-1: none reported) against minimax score WANT and solve's SOLVE_PLIES. */
static void check_proof(struct figures *f, int proof, int plies, int want, int solve_plies)
{
	if (proof != proof_of_score(want))
		f->wrong_value++;
	if (plies >= 0 && proof != PROOF_DRAW) {
		f->distances++;
		if (plies != solve_plies)
			f->wrong_plies++;
	}
}

/* The move BEST played in T, after the engine proved ROOT_PROOF for the
 * position (PROOF_NONE: nothing) with distance ROOT_PLIES (-1 for none),
 * and BEST_CHILD the rank of the best value it proved for a move (-1 for
 * none). */
static void check_played(struct figures *f, const struct truth *t, int best, int root_proof,
			 int root_plies, int best_child)
{
	int got = proof_of_score(t->score[best]);

	if (root_proof != PROOF_NONE && got != proof_of_score(t->value))
		f->losing++;
	else if (best_child >= 0 && proof_rank(got) < best_child)
		f->below_move++;
	else if (root_proof == PROOF_NONE && best_child < 0 && got != proof_of_score(t->value))
		f->unproven_losing++;
	if (root_plies >= 0 && root_proof != PROOF_DRAW && t->score[best] != t->value)
		f->slower++;
}

static void sweep_mcts(struct player *p, struct figures *f)
{
	for (int i = 0; i < npos; i += stride) {
		const struct truth *t = &truth[i];
		struct mcts_child ch[GAME_MAX_MOVES];
		struct mcts_totals tot;
		struct moveset ms;
		int best, n, best_child = -1;

		game_legal(&g, &t->pos, &ms);
		if (moveset_count(&ms) < 2)
			continue; /* nothing to choose: the player does not search */
		f->positions++;
		player_reset(p, &t->pos);
		best = player_move_now(p);
		n = mcts_stats(player_search(p), NULL, 0, ch, GAME_MAX_MOVES, &tot);
		f->iterations += tot.iterations;
		f->full += tot.arena_full;
		if (tot.root_proven != PROOF_NONE) {
			f->proven_roots++;
			check_proof(f, tot.root_proven, tot.root_proven_plies, t->value, t->solve_plies);
		}
		for (int k = 0; k < n; k++) {
			if (ch[k].proven == PROOF_NONE)
				continue;
			f->proven_moves++;
			/* (the child's distance leaves out the move itself) */
			check_proof(f, ch[k].proven,
				    ch[k].proven_plies >= 0 ? ch[k].proven_plies + 1 : -1,
				    t->score[ch[k].move], t->move_plies[ch[k].move]);
			if (proof_rank(ch[k].proven) > best_child)
				best_child = proof_rank(ch[k].proven);
		}
		check_played(f, t, best, tot.root_proven, tot.root_proven_plies, best_child);
	}
}

static void sweep_negamax(struct player *p, struct figures *f)
{
	for (int i = 0; i < npos; i += stride) {
		const struct truth *t = &truth[i];
		struct player_stats st;
		int best, best_child = -1;

		f->positions++;
		player_reset(p, &t->pos);
		best = player_move_now(p);
		player_stats(p, &st);
		if (st.proof != PROOF_NONE) {
			f->proven_roots++;
			check_proof(f, st.proof, st.plies, t->value, t->solve_plies);
		}
		for (int k = 0; k < st.n; k++) {
			const struct player_root_move *r = &st.root[k];
			int want = t->score[r->move];

			if (r->proof == PROOF_NONE)
				continue;
			f->proven_moves++;
			if (r->upper) {
				/* a bound, shown as such: "<= draw", "loss" (no
				 * distance: perhaps sooner) */
				if (proof_rank(proof_of_score(want)) > proof_rank(r->proof))
					f->wrong_value++;
				continue;
			}
			check_proof(f, r->proof, r->proof == PROOF_DRAW ? -1 : r->plies, want,
				    t->move_plies[r->move]);
			if (proof_rank(r->proof) > best_child)
				best_child = proof_rank(r->proof);
		}
		check_played(f, t, best, st.proof, st.proof != PROOF_NONE ? st.plies : -1,
			     best_child);
	}
}

/* Sweep with the player of SPEC and say what it found. */
static void sweep(const char *spec_text, struct figures *sum)
{
	struct player_spec spec;
	struct player *p;
	struct figures f = { 0 };
	char err[200];
	uint64_t t0 = now_ns();

	if (player_spec_parse(spec_text, &spec, err, sizeof(err)) != 0) {
		ok(0, "%s: %s", spec_text, err);
		return;
	}
	p = player_new(&g, &spec, &truth[0].pos);
	if (spec.kind == PLAYER_MCTS)
		sweep_mcts(p, &f);
	else
		sweep_negamax(p, &f);
	player_free(p);
	ok(f.losing == 0 && f.slower == 0 && f.wrong_value == 0 && f.wrong_plies == 0 &&
	   (spec.kind != PLAYER_MCTS || f.below_move == 0),
	   "%s: %d positions, %d proven, %d moves proven, %d distances; value-losing moves %d, "
	   "slower wins %d, wrong values %d, distances not solve's %d%s",
	   spec_text, f.positions, f.proven_roots, f.proven_moves, f.distances, f.losing,
	   f.slower, f.wrong_value, f.wrong_plies,
	   spec.kind == PLAYER_MCTS ? ", worse than a move proven 0" : "");
	if (spec.kind == PLAYER_MCTS)
		ok(f.full == 0, "%s: %llu iterations, the arena never full (%d times)", spec_text,
		   (unsigned long long)f.iterations, f.full);
	if (spec.kind == PLAYER_MCTS && f.below_move != 0)
		printf("#   played worse than a move it proved: %d\n", f.below_move);
	/* Figures only: a move that loses the value where nothing was proven
	 * yet, and negamax's unproven move preferred to a proven draw on a
	 * heuristic score (alpha-beta's choice, not a proven value lost). */
	printf("#   (%.1f s; moves losing the value with nothing proven: %d; below a move "
	       "proven: %d)\n", (double)(now_ns() - t0) * 1e-9, f.unproven_losing, f.below_move);
	sum->positions += f.positions;
	sum->losing += f.losing;
	sum->below_move += f.below_move;
	sum->unproven_losing += f.unproven_losing;
	sum->slower += f.slower;
	sum->wrong_value += f.wrong_value;
	sum->wrong_plies += f.wrong_plies;
	sum->distances += f.distances;
}

int main(void)
{
	static const int iterations[] = { 20, 80, 500, 5000 };
	/* negamax: levels 1 to 10 (depths 1, 2, 3, 4, 6, 8, 10, 12, 14 and
	 * to the end), and the depths between them a board of 9 cells can
	 * tell apart */
	static const char *const negamax[] = {
		"negamax:level=1", "negamax:level=2", "negamax:level=3", "negamax:level=4",
		"negamax:level=5", "negamax:level=6", "negamax:level=7", "negamax:level=8",
		"negamax:level=9", "negamax:level=10", "negamax:depth=5", "negamax:depth=7",
		"negamax:depth=9",
	};
	struct figures sum = { 0 };
	char err[128], spec[128];
	int differ, settings = 0;
	const char *san = getenv("NOUGHTS_SANITIZED");

	if (san != NULL && san[0] != '\0') {
		stride = 24;
		printf("# sanitizer build: every %dth position only\n", stride);
	}
	game_init(&g, "ttt", 0, err, sizeof(err));
	differ = build_truth();
	ok(npos == TTT_POSITIONS, "tic-tac-toe: %d positions reachable and not over (%d found)",
	   TTT_POSITIONS, npos);
	ok(differ == 0, "solve's tablebase is minimax's on every position (%d differ)", differ);
	for (size_t i = 0; i < sizeof(iterations) / sizeof(iterations[0]); i++)
		for (int seed = 1; seed <= SEEDS; seed++) {
			/* (1 MiB of nodes: a few thousand iterations never fill it) */
			snprintf(spec, sizeof(spec), "mcts:iterations=%d,seed=%d,threads=1,memory=1",
				 iterations[i], seed);
			sweep(spec, &sum);
			settings++;
		}
	for (size_t i = 0; i < sizeof(negamax) / sizeof(negamax[0]); i++) {
		snprintf(spec, sizeof(spec), "%s,threads=1", negamax[i]);
		sweep(spec, &sum);
		settings++;
	}
	printf("# sweep: %d positions (every %d) x %d settings = %d searches; value-losing moves %d, "
	       "slower wins %d, wrong values %d, distances checked %d, not solve's %d\n", npos,
	       stride, settings, sum.positions, sum.losing, sum.slower, sum.wrong_value, sum.distances,
	       sum.wrong_plies);
	free(truth);
	return tap_done();
}
