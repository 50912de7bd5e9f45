/* selfplay.c - games of an engine against itself as training data (see
 * selfplay.h for the format). */
#include "config.h"

#include "selfplay.h"

#include <assert.h>

void selfplay_header(FILE *out, const struct game *g, const struct player_spec *spec,
		     uint64_t seed)
{
	char buf[256];

	fprintf(out, "# %s\n", SELFPLAY_FORMAT);
	fprintf(out, "# game %s%s%s, engine %s, seed %llu\n", g->name,
		g->rules & RULE_TIEBREAK ? " --tiebreak" : "",
		g->rules & RULE_OPEN_WON ? " --open-won-boards" : "",
		player_spec_format(spec, buf, sizeof(buf)), (unsigned long long)seed);
	fprintf(out, "# cells last turn move value result\n");
}

/* The search's value of its root for the side to move, on [0, 1]: the
 * proven outcome if there is one, else the mean reward of every playout
 * through the root's children. */
static double root_value(struct mcts *m)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	double sum = 0;
	uint64_t visits = 0;
	int n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);

	if (t.root_proven != PROOF_NONE)
		return t.root_proven == PROOF_WIN ? 1 : t.root_proven == PROOF_LOSS ? 0 : 0.5;
	for (int i = 0; i < n; i++) {
		sum += ch[i].value * ch[i].visits;
		visits += ch[i].visits;
	}
	return visits > 0 ? sum / (double)visits : 0.5;
}

/* One position line of the format, without its result (known at the end). */
struct line {
	char cells[GAME_MAX_CELLS + 1];
	int last, turn, move;
	double value;
};

static void describe(const struct game *g, const struct pos *p, struct line *l)
{
	for (int mv = 0; mv < g->cells; mv++) {
		int who = g->ops->owner(g, p, mv);

		l->cells[mv] = who < 0 ? '.' : game_side_mark(who);
	}
	l->cells[g->cells] = '\0';
	l->last = p->last == MOVE_NONE ? -1 : p->last;
	l->turn = p->turn;
}

int selfplay_game(FILE *out, const struct game *g, const struct pos *start,
		  const struct player_spec *spec, uint64_t seed, const atomic_int *stop,
		  int *npos)
{
	struct player_spec s = *spec;
	struct line lines[GAME_MAX_PLIES];
	struct pos pos = *start;
	struct player *p;
	struct rng r;
	int n = 0, random_plies;

	assert(spec->kind == PLAYER_MCTS);
	s.seed = s.mcts.seed = seed;
	s.seed_given = true;
	rng_seed(&r, seed ^ 0x5e1f);
	random_plies = (int)rng_below(&r, SELFPLAY_RANDOM_PLIES + 1);
	p = player_new(g, &s, &pos);
	*npos = 0;
	while (!game_over(&pos)) {
		int move;

		if (atomic_load(stop)) {
			player_free(p);
			return RESULT_NONE;
		}
		if (pos.ply - start->ply < random_plies) {
			struct moveset legal;

			game_legal(g, &pos, &legal);
			move = moveset_nth(&legal, (int)rng_below(&r, (uint32_t)moveset_count(&legal)));
		} else {
			while (!player_think(p, 50000000u) && !atomic_load(stop))
				;
			move = player_choose(p);
			describe(g, &pos, &lines[n]);
			lines[n].move = move;
			lines[n].value = root_value(player_search(p));
			n++;
		}
		game_play(g, &pos, move);
		player_played(p, move);
	}
	player_free(p);
	for (int i = 0; i < n; i++) {
		int w = result_winner(pos.result);
		double res = w < 0 ? 0.5 : w == lines[i].turn ? 1 : 0;

		fprintf(out, "%s %d %c %d %.4f %g\n", lines[i].cells, lines[i].last,
			game_side_mark(lines[i].turn), lines[i].move, lines[i].value, res);
	}
	fprintf(out, "# end: %s after %d plies, %d positions\n",
		pos.result == RESULT_DRAW ? "drawn" : pos.result == RESULT_X ? "X won" : "O won",
		pos.ply, n);
	*npos = n;
	return pos.result;
}
