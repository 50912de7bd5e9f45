/* selfplay.h - games of an engine against itself, written as training data
 * for a value network (train/).
 *
 * The format is text, one position a line, so that it can be read by eye
 * and by a few lines of numpy; lines starting with '#' are comments (the
 * first names the format, game, engine and seed). Each position line is
 *
 *     CELLS LAST TURN MOVE VALUE RESULT
 *
 * CELLS: one character per move id in increasing order ('.' empty, 'X',
 * 'O'; for Ultimate tic-tac-toe move id = board * 9 + cell, boards and
 * cells row by row); LAST: the move id played last (-1 at the start), from
 * which the board the mover is sent to follows; TURN: 'X' or 'O', the side
 * to move; MOVE: the move id the engine chose; VALUE: the search's value of
 * the position for the side to move, from 0 (lost) to 1 (won), 4 decimals;
 * RESULT: how the game ended for the side to move: 1 won, 0.5 drawn, 0
 * lost. Positions are written once a game is over (its result is known),
 * followed by a comment line "# end: RESULT after N plies, P positions".
 *
 * With --children V, each search's children that got V visits or more
 * (but the move played, and moves that end the game) come too, before the
 * game's positions and before its end line, which then adds ", C
 * children": MOVE -1, VALUE the child's own statistics (or its proof) for
 * its side to move, RESULT '-' (the game did not go there).
 *
 * With --visits, each of the game's position lines (not the children's)
 * ends with a seventh field, VISITS: the search's visits of each move that
 * got any, MOVE:N separated by commas, most visited first (ties in the
 * order of the moves), or '-' when the search made no visit (a root it
 * proved at once): what a policy learns to predict. The counts are those of
 * the search's tree, which keeps what it found on the moves before; under
 * eval=mix with order=net, a move that does not end the game has in its
 * count the MCTS_ORDER_PRIOR visits its prior counts as. The third comment
 * line, which names the fields, then ends with "visits".
 *
 * With --label PLAYER, every VALUE (the game's positions and the children)
 * comes from a search of its own by that mcts engine instead of the
 * playing engine's statistics: a weak engine chooses where the games go,
 * a strong one says what the positions are worth. */
#ifndef NOUGHTS_SELFPLAY_H
#define NOUGHTS_SELFPLAY_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "player.h"

#define SELFPLAY_FORMAT "noughts-selfplay 1"
/* The first plies of each game are random (0 to this many, fixed by the
 * game's seed), so that games from the same engine differ. */
#define SELFPLAY_RANDOM_PLIES 8

/* How a game's positions are written. */
struct selfplay_how {
	uint32_t children;               /* write children with this many visits; 0: none */
	const struct player_spec *label; /* an mcts spec valuing the positions; NULL: the engine */
	bool visits;                     /* end each position line with its search's visits */
};

/* Write the comment lines that start a file: the format, the game, the
 * engine SPEC, HOW's label engine if any, and the base SEED. */
void selfplay_header(FILE *out, const struct game *g, const struct player_spec *spec,
		     const struct selfplay_how *how, uint64_t seed);

/* Play one game of SPEC (an mcts engine: assert) against itself from START
 * with SEED, and write its searched positions to OUT as HOW says. Stores the number of
 * positions written in *NPOS. Returns the enum result, or RESULT_NONE when
 * *STOP became non-zero during the game (nothing is written then). */
int selfplay_game(FILE *out, const struct game *g, const struct pos *start,
		  const struct player_spec *spec, uint64_t seed, const struct selfplay_how *how,
		  const atomic_int *stop, int *npos);

#endif
