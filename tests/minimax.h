/* minimax.h - for the tests: a plain minimax on the rules interface, the
 * independent answer the engines are checked against (no table, no
 * pruning), and every position of a small game. Header-only (static
 * functions): each test program that includes it gets its own copy. Scored
 * like negamax: a win in d plies is NEGAMAX_WIN - d, a loss in d plies
 * -(NEGAMAX_WIN - d), a draw 0, from the side to move. */
#ifndef NOUGHTS_TEST_MINIMAX_H
#define NOUGHTS_TEST_MINIMAX_H

#include <stdbool.h>

#include "game.h"
#include "negamax.h"
#include "util.h"

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

/* The value of playing MOVE in P, from the side to move in P, where VALUE
 * gives the value of a position in play (minimax, or a memoised search). */
static inline int minimax_after(const struct game *g, const struct pos *p, int move,
				int (*value)(const struct game *, const struct pos *))
{
	struct pos c = *p;
	int w, v;

	game_play(g, &c, move);
	if (game_over(&c)) {
		w = result_winner(c.result);
		return w < 0 ? 0 : w == p->turn ? NEGAMAX_WIN - 1 : -(NEGAMAX_WIN - 1);
	}
	v = value(g, &c);
	/* one ply further from the end, seen from the other side */
	return v > 0 ? -v + 1 : v < 0 ? -v - 1 : 0;
}

/* The value of playing MOVE in P, from the side to move in P. */
static inline int minimax_move(const struct game *g, const struct pos *p, int move)
{
	return minimax_after(g, p, move, minimax);
}

/* The plies to the end under best play of a score; -1 for a draw. */
static inline int minimax_plies(int score)
{
	return score > 0 ? NEGAMAX_WIN - score : score < 0 ? NEGAMAX_WIN + score : -1;
}

/* The enum proof of a score. */
static inline int proof_of_score(int s)
{
	return s > 0 ? PROOF_WIN : s < 0 ? PROOF_LOSS : PROOF_DRAW;
}

/* An enum proof's order, better for its side higher: loss 0, draw 1, win 2. */
static inline int proof_rank(int proof)
{
	return proof == PROOF_WIN ? 2 : proof == PROOF_DRAW ? 1 : 0;
}

/* Every reachable position that is not over, deduplicated by hash. */
struct posset {
	struct pos *pos;
	int count, cap;
};

static inline bool posset_has(const struct posset *s, uint64_t hash)
{
	for (int i = 0; i < s->count; i++)
		if (s->pos[i].hash == hash)
			return true;
	return false;
}

static inline void enumerate(const struct game *g, const struct pos *p, struct posset *s)
{
	struct moveset ms;

	if (game_over(p) || posset_has(s, p->hash))
		return;
	if (s->count == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->pos = xrealloc(s->pos, (size_t)s->cap * sizeof(*s->pos));
	}
	s->pos[s->count++] = *p;
	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		struct pos c = *p;

		game_play(g, &c, moveset_pop(&ms));
		enumerate(g, &c, s);
	}
}

#endif
