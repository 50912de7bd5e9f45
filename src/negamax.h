/* negamax.h - alpha-beta negamax with a transposition table, move ordering,
 * iterative deepening and (on m,n,k boards) symmetry reduction.
 *
 * Scores are from the side to move: a win is NEGAMAX_WIN minus the plies to
 * it, so faster wins and slower losses score better; a draw is 0; a
 * position cut off by the depth limit gets the game's heuristic evaluation,
 * which stays inside +-GAME_EVAL_MAX. */
#ifndef NOUGHTS_NEGAMAX_H
#define NOUGHTS_NEGAMAX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define NEGAMAX_WIN 100000
#define NEGAMAX_DEFAULT_TT_MB 64

/* A score this far from zero or more is a proven win or loss. */
static inline bool negamax_is_mate(int score)
{
	return score >= NEGAMAX_WIN - GAME_MAX_PLIES - 1 || score <= -(NEGAMAX_WIN - GAME_MAX_PLIES - 1);
}

struct negamax_params {
	int depth;        /* most plies to search, 0 for no limit */
	int time_ms;      /* wall-clock budget, 0 for none */
	size_t tt_bytes;  /* transposition table size */
};

struct negamax_result {
	int best;            /* best move found, MOVE_NONE when there is none */
	int score;           /* score of the best move, side to move's view */
	int depth;           /* deepest completed iteration */
	bool exact;          /* the score is the game-theoretic value */
	int value;           /* if exact: enum proof for the side to move, else
	                        PROOF_NONE */
	int plies;           /* if exact: plies to the end under best play */
	uint64_t nodes;      /* positions searched */
	double seconds;
	bool stopped;        /* interrupted by *stop or the clock */
};

struct negamax;

/* A searcher for game G with its own transposition table. */
struct negamax *negamax_new(const struct game *g, const struct negamax_params *p);
void negamax_free(struct negamax *n);

/* Iterative deepening from POS until solved, the depth limit, the time
 * budget, or *STOP (if not NULL) becomes non-zero (an atomic, so another
 * thread or a signal handler may set it). After each completed
 * depth, calls PROGRESS (if not NULL) with the result so far. Fills OUT with
 * the last completed iteration. */
void negamax_search(struct negamax *n, const struct pos *pos, atomic_int *stop,
		    void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		    struct negamax_result *out);

/* Solve POS exactly (no depth or time limit besides *STOP), and list in BEST
 * (room for GAME_MAX_MOVES) every move that keeps the value; returns their
 * number, or -1 if stopped before the value was known. */
int negamax_best_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
		       void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		       struct negamax_result *out, uint8_t *best);

#endif
