/* review.h - game review: every ply of a game analysed, its mistakes found.
 *
 * Each position of the game is analysed once, exactly with negamax when it
 * can be solved within a short time, else with the engine given (MCTS by
 * default). A ply's "before" is the value of the position it was played
 * in and its "after" the value of the position it left, both from the
 * mover's point of view: win 1, draw 1/2, loss 0, or the engine's estimate
 * in between. A ply is a mistake when it gives away a proven result (win
 * to draw or loss, draw to loss) or when its value drops by more than the
 * threshold. */
#ifndef NOUGHTS_REVIEW_H
#define NOUGHTS_REVIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "player.h"

#define REVIEW_DEFAULT_THRESHOLD 0.10
#define REVIEW_DEFAULT_SOLVE_MS 250

/* The value of a position for one side. */
struct review_value {
	int proof;       /* enum proof, PROOF_NONE when only estimated */
	int plies;       /* plies to the end under best play, when proven;
	                    -1 when its distance is not settled yet */
	double value;    /* 0..1: 1 a win, 1/2 a draw, 0 a loss */
};

struct review_ply {
	int ply;                        /* 1 for the first move of the game */
	int move;
	int side;                       /* enum side of the mover */
	struct review_value before;     /* mover's view, before the move */
	struct review_value after;      /* mover's view, after it */
	int nbest;                      /* the best moves of the position before */
	uint8_t best[GAME_MAX_MOVES];
	bool mistake;
};

struct review_params {
	struct player_spec engine;  /* for positions not solved quickly */
	double threshold;           /* a drop in value larger than this is a mistake */
	int solve_ms;               /* time to try solving each position, 0: never */
};

/* The defaults: MCTS for about a second a ply, threshold and solving time
 * as above. */
void review_params_default(struct review_params *p);

/* Review the NMOVES MOVES played from START in game G into OUT (room for
 * NMOVES). PROGRESS, if not NULL, is called after each position analysed.
 * Returns the number of plies reviewed: NMOVES, or fewer when *STOP (if not
 * NULL) became non-zero. */
int review_game(const struct game *g, const struct pos *start, const uint8_t *moves, int nmoves,
		const struct review_params *p, atomic_int *stop,
		void (*progress)(int done, int total, void *arg), void *arg,
		struct review_ply *out);

/* A review's value as text: "win in 3", "draw", "loss in 4" or "0.62". */
char *review_value_text(const struct review_value *v, char *buf, size_t size);

/* Print the N plies of OUT as text (a line a ply, mistakes marked, then a
 * summary per side) or as one JSON object, to F. */
void review_print(const struct game *g, const struct review_ply *out, int n, bool json,
		  bool stopped, FILE *f);

#endif
