/* mcts-order.c - order=net: a node's block of children written best first
 * by the leaf evaluator's value of each move (kids(), the whole block at
 * once), each slot not yet a child holding its move and that value; the
 * solver's winning move first. The search (mcts.c) makes the children in
 * this order, as its widening allows; the pipeline's players (mcts-pipe.c)
 * order the blocks for the tree thread. */
#include "config.h"

#include <assert.h>
#include <math.h>

#include "mcts-node.h"

/* A move's worth for the side that makes it, for the order of a block: a
 * move that ends the game by its result (a win before any other), else
 * the evaluator's value. */
static inline double worth(int result, int side, double x_value)
{
	if (result == RESULT_NONE)
		return side == SIDE_X ? x_value : 1 - x_value;
	return result == RESULT_DRAW ? 0.5 : result_winner(result) == side ? 2 : -1;
}

/* The implicit minimax value (struct mcts' implicit) of a move whose
 * worth() for SIDE, the mover, is WORTH and whose value for X is V (in
 * 1/65536, as the slot's draws keep it): a win's or a loss's, else V
 * (a drawn end has V a half). The search writes no other value for a
 * new leaf: this one stands until implicit_update() reaches the move. */
static uint16_t implicit_of(double worth, int side, uint32_t v)
{
	if (worth > 1 || worth < 0)
		return (worth > 1) == (side == SIDE_X) ? 65535 : 0;
	return v > 65535 ? 65535 : (uint16_t)v;
}

/* The values for X of the COUNT moves MOVES of POS, into X, and their
 * worths for the mover (kids() for the positions not over). */
static void value_moves(struct mcts *m, const struct pos *pos, const uint8_t *moves, int count,
			double *x, double *worths)
{
	struct pos kid[GAME_MAX_MOVES];
	int open[GAME_MAX_MOVES], nopen = 0;

	for (int k = 0; k < count; k++) {
		kid[nopen] = *pos;
		game_play(m->g, &kid[nopen], moves[k]);
		x[k] = 0.5;
		if (kid[nopen].result == RESULT_NONE)
			open[nopen++] = k;
		else
			worths[k] = worth(kid[nopen].result, pos->turn, 0);
	}
	if (nopen > 0) {
		double v[GAME_MAX_MOVES];

		m->p.leaf->kids(m->p.leaf->model, m->leaf_ctx, &m->root_pos, pos, kid, nopen, v);
		for (int j = 0; j < nopen; j++) {
			x[open[j]] = v[j];
			worths[open[j]] = worth(RESULT_NONE, pos->turn, v[j]);
		}
	}
}

void mcts_order_moves(struct mcts *m, const struct pos *pos, const struct moveset *legal,
		      uint32_t base, int count)
{
	struct node *slot = &m->nodes[base];
	double worths[GAME_MAX_MOVES], x[GAME_MAX_MOVES];
	uint8_t moves[GAME_MAX_MOVES];
	struct moveset hot;
	int listed = moveset_list(legal, moves);

	assert(listed == count); /* (a block has a slot for every legal move) */
	(void)listed;
	value_moves(m, pos, moves, count, x, worths);
	/* (insertion: a dozen moves, rarely 81; ties keep the legal order) */
	for (int k = 0; k < count; k++) {
		double wk = worths[k], xk = x[k];
		uint8_t mk = moves[k];
		int j = k;

		for (; j > 0 && worths[j - 1] < wk; j--) {
			worths[j] = worths[j - 1];
			x[j] = x[j - 1];
			moves[j] = moves[j - 1];
		}
		worths[j] = wk;
		x[j] = xk;
		moves[j] = mk;
	}
	/* the solver's winning move (untried_move()'s rule) where the best was */
	if (m->p.solver && game_threats_among(m->g, pos, pos->turn, legal, &hot))
		for (int k = 1; k < count; k++)
			if (moves[k] == moveset_nth(&hot, 0)) {
				double xk = x[k], wk = worths[k];

				moves[k] = moves[0];
				x[k] = x[0];
				worths[k] = worths[0];
				moves[0] = (uint8_t)moveset_nth(&hot, 0);
				x[0] = xk;
				worths[0] = wk;
			}
	/* (each slot written once, as the whole order is known: in the
	 * pipeline a player and a tree thread replaying its batch may both
	 * write the same here) */
	for (int k = 0; k < count; k++) {
		uint32_t v = value16(x[k]);

		STORE(slot[k].move, moves[k]);
		STORE(slot[k].draws, v);
		if (m->implicit != NULL)
			STORE(m->implicit[base + (uint32_t)k], implicit_of(worths[k], pos->turn, v));
	}
}

void mcts_order(struct mcts *m, const struct pos *pos, uint32_t base, int count)
{
	struct moveset legal;

	game_legal(m->g, pos, &legal);
	mcts_order_moves(m, pos, &legal, base, count);
}
