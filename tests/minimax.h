/* minimax.h - a plain minimax on the rules interface, written for the tests
 * as an independent check of the engines: no table, no pruning. Scored like
 * negamax: a win in d plies is NEGAMAX_WIN - d, a loss in d plies
 * -(NEGAMAX_WIN - d), a draw 0, from the side to move. */
#ifndef NOUGHTS_TEST_MINIMAX_H
#define NOUGHTS_TEST_MINIMAX_H

#include "game.h"
#include "negamax.h"

static int minimax_move(const struct game *g, const struct pos *p, int move);

/* The value of P (not over) for the side to move. */
static inline int minimax(const struct game *g, const struct pos *p)
{
	struct moveset ms;
	int best = -NEGAMAX_WIN - 1;

	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		int s = minimax_move(g, p, moveset_pop(&ms));

		if (s > best)
			best = s;
	}
	return best;
}

/* The value of playing MOVE in P, from the side to move in P. */
static inline int minimax_move(const struct game *g, const struct pos *p, int move)
{
	struct pos c = *p;
	int w, v;

	game_play(g, &c, move);
	if (game_over(&c)) {
		w = result_winner(c.result);
		return w < 0 ? 0 : w == p->turn ? NEGAMAX_WIN - 1 : -(NEGAMAX_WIN - 1);
	}
	v = minimax(g, &c);
	/* one ply further from the end, seen from the other side */
	return v > 0 ? -v + 1 : v < 0 ? -v - 1 : 0;
}

/* The plies to the end under best play of a score. */
static inline int minimax_plies(int score)
{
	return score > 0 ? NEGAMAX_WIN - score : score < 0 ? NEGAMAX_WIN + score : -1;
}

#endif
