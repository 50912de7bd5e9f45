/* mcts-fixture.h - what the MCTS tests share (test-mcts.c,
 * test-mcts-exact.c): the game under test, a position from moves, search
 * parameters with a seed, and which moves win at once. */
#ifndef NOUGHTS_MCTS_FIXTURE_H
#define NOUGHTS_MCTS_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "game.h"
#include "mcts.h"

static struct game game;

/* Set up GAME as NAME and POS as the position after MOVES. */
static inline bool setup(const char *name, const char *moves, struct pos *pos)
{
	char err[200];

	if (game_init(&game, name, 0, err, sizeof(err)) != 0) {
		printf("# %s\n", err);
		return false;
	}
	game_start(&game, pos);
	if (game_play_moves(&game, pos, moves, NULL, NULL, err, sizeof(err)) != 0) {
		printf("# %s\n", err);
		return false;
	}
	return true;
}

static inline int move_id(const char *text)
{
	char err[200];

	return game_parse_move(&game, text, err, sizeof(err));
}

static inline struct mcts_params params(uint64_t seed)
{
	struct mcts_params p;

	mcts_params_default(&p);
	p.seed = seed;
	p.memory = (size_t)32 << 20;
	return p;
}

/* Moves with which the side to move in POS wins at once. */
static inline struct moveset winning_moves(const struct pos *pos)
{
	struct moveset legal, hot;

	game_legal(&game, pos, &legal);
	game_threats(&game, pos, pos->turn, &hot);
	moveset_and(&hot, &legal);
	return hot;
}

static inline bool can_win(const struct pos *pos)
{
	struct moveset w = winning_moves(pos);

	return !moveset_empty(&w);
}

#endif
