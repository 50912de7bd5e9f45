/* selfplay.c - games of an engine against itself as training data (see
 * selfplay.h for the format). */
#include "config.h"

#include "selfplay.h"

#include <assert.h>
#include <stdlib.h>

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

/* A value on [0, 1]: that of the outcome PROOF (enum proof) if one is
 * proven, else VALUE. */
static double proven_or(int proof, double value)
{
	return proof == PROOF_WIN ? 1 : proof == PROOF_LOSS ? 0 : proof == PROOF_DRAW ? 0.5 : value;
}

/* The search's value of its root for the side to move, from the N
 * children CH and totals T of mcts_stats(): the proven outcome if there is
 * one, else the mean reward of every playout through the children. */
static double root_value(const struct mcts_child *ch, int n, const struct mcts_totals *t)
{
	double sum = 0;
	uint64_t visits = 0;

	for (int i = 0; i < n; i++) {
		sum += ch[i].value * ch[i].visits;
		visits += ch[i].visits;
	}
	return proven_or(t->root_proven, visits > 0 ? sum / (double)visits : 0.5);
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

/* The lines of the N children CH (of mcts_stats()) of ROOT that got MIN
 * visits or more, other than CHOSEN and those that end the game, into OUT:
 * what the network will be asked about at the leaves of a search, bad
 * moves included, which the positions of the game alone never show it.
 * Returns how many. */
static int write_children(FILE *out, const struct game *g, const struct pos *root,
			  const struct mcts_child *ch, int n, int chosen, uint32_t min)
{
	int written = 0;

	for (int i = 0; i < n; i++) {
		struct pos after = *root;
		struct line l;

		if (ch[i].move == chosen || ch[i].visits < min)
			continue;
		game_play(g, &after, ch[i].move);
		if (game_over(&after))
			continue;
		describe(g, &after, &l);
		/* for the side to move after it: the other side of the value */
		fprintf(out, "%s %d %c -1 %.4f -\n", l.cells, l.last, game_side_mark(l.turn),
			1 - proven_or(ch[i].proven, ch[i].value));
		written++;
	}
	return written;
}

int selfplay_game(FILE *out, const struct game *g, const struct pos *start,
		  const struct player_spec *spec, uint64_t seed, uint32_t children,
		  const atomic_int *stop, int *npos)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	char *kids_text = NULL;
	size_t kids_size = 0;
	FILE *kids = NULL;
	int nkids = 0, nch;
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
	if (children > 0 && (kids = open_memstream(&kids_text, &kids_size)) == NULL)
		fatal("out of memory");
	while (!game_over(&pos)) {
		int move;

		if (atomic_load(stop)) {
			player_free(p);
			if (kids != NULL)
				fclose(kids);
			free(kids_text);
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
			nch = mcts_stats(player_search(p), NULL, 0, ch, GAME_MAX_MOVES, &t);
			describe(g, &pos, &lines[n]);
			lines[n].move = move;
			lines[n].value = root_value(ch, nch, &t);
			if (kids != NULL)
				nkids += write_children(kids, g, &pos, ch, nch, move, children);
			n++;
		}
		game_play(g, &pos, move);
		player_played(p, move);
	}
	player_free(p);
	if (kids != NULL) {
		fclose(kids);
		fwrite(kids_text, 1, kids_size, out);
		free(kids_text);
	}
	for (int i = 0; i < n; i++) {
		int w = result_winner(pos.result);
		double res = w < 0 ? 0.5 : w == lines[i].turn ? 1 : 0;

		fprintf(out, "%s %d %c %d %.4f %g\n", lines[i].cells, lines[i].last,
			game_side_mark(lines[i].turn), lines[i].move, lines[i].value, res);
	}
	fprintf(out, "# end: %s after %d plies, %d positions",
		pos.result == RESULT_DRAW ? "drawn" : pos.result == RESULT_X ? "X won" : "O won",
		pos.ply, n);
	if (children > 0)
		fprintf(out, ", %d children", nkids);
	fputc('\n', out);
	*npos = n;
	return pos.result;
}
