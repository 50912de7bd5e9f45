/* test-review.c - game review on tic-tac-toe, where every position is
 * solved: each ply's values and best moves against a plain minimax, and a
 * mistake exactly where a proven result is given away. */
#include "config.h"

#include <string.h>

#include "minimax.h"
#include "review.h"
#include "tap.h"
#include "util.h"

#define GAMES 60

/* Check one reviewed ply R played in P against minimax; counts failures. */
static int check_ply(const struct game *g, const struct pos *p, const struct review_ply *r)
{
	int before = minimax(g, p), after = minimax_move(g, p, r->move), bad = 0, nbest = 0;
	struct moveset ms;

	bad += r->before.proof != proof_of_score(before) ||
	       (before != 0 && r->before.plies != minimax_plies(before));
	bad += r->after.proof != proof_of_score(after) ||
	       (after != 0 && r->after.plies != minimax_plies(after));
	bad += r->mistake != (proof_rank(proof_of_score(after)) < proof_rank(proof_of_score(before)));
	bad += r->side != p->turn;
	/* best: exactly the moves of the best score (fastest win, slowest loss) */
	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		int m = moveset_pop(&ms);
		bool listed = memchr(r->best, m, (size_t)r->nbest) != NULL;

		if (minimax_move(g, p, m) == before) {
			nbest++;
			bad += !listed;
		} else {
			bad += listed;
		}
	}
	bad += nbest != r->nbest;
	return bad;
}

int main(void)
{
	struct game g;
	struct review_params params;
	struct review_ply out[GAME_MAX_PLIES];
	struct rng r;
	char err[160];
	int plies = 0, bad = 0, mistakes = 0, stopped_at;
	atomic_int stop = 1;

	game_init(&g, "ttt", 0, err, sizeof(err));
	review_params_default(&params);
	rng_seed(&r, 7);
	for (int game = 0; game < GAMES; game++) {
		struct pos p, q;
		uint8_t moves[GAME_MAX_PLIES];
		int n = 0, reviewed;

		game_start(&g, &p);
		q = p;
		while (!game_over(&p)) {
			uint8_t list[GAME_MAX_MOVES];
			struct moveset ms;
			int k;

			game_legal(&g, &p, &ms);
			k = moveset_list(&ms, list);
			moves[n] = list[rng_below(&r, (uint32_t)k)];
			game_play(&g, &p, moves[n++]);
		}
		reviewed = review_game(&g, &q, moves, n, &params, NULL, NULL, NULL, out);
		bad += reviewed != n;
		for (int i = 0; i < reviewed; i++) {
			int b = check_ply(&g, &q, &out[i]);

			if (b != 0 && bad == 0)
				printf("# game %d ply %d: before %d/%d after %d/%d best %d mistake %d\n",
				       game, out[i].ply, out[i].before.proof, out[i].before.plies,
				       out[i].after.proof, out[i].after.plies, out[i].nbest,
				       out[i].mistake);
			bad += b;
			mistakes += out[i].mistake;
			game_play(&g, &q, moves[i]);
		}
		plies += reviewed;
	}
	ok(bad == 0, "%d random games, %d plies: every value, distance, best move and mistake "
	   "(%d) agrees with minimax", GAMES, plies, mistakes);
	ok(mistakes > 0, "random play makes mistakes (%d)", mistakes);
	{
		struct pos s;
		uint8_t m[2];

		game_start(&g, &s);
		m[0] = (uint8_t)game_parse_move(&g, "a1", err, sizeof(err));
		m[1] = (uint8_t)game_parse_move(&g, "a2", err, sizeof(err));
		stopped_at = review_game(&g, &s, m, 2, &params, &stop, NULL, NULL, out);
		ok(stopped_at == 0, "a stop flag already set reviews nothing (%d)", stopped_at);
	}
	return tap_done();
}
