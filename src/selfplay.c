/* selfplay.c - games of an engine against itself as training data (see
 * selfplay.h for the format). */
#include "config.h"

#include "selfplay.h"

#include <assert.h>
#include <stdlib.h>

void selfplay_header(FILE *out, const struct game *g, const struct player_spec *spec,
		     const struct selfplay_how *how, uint64_t seed)
{
	char buf[256];

	fprintf(out, "# %s\n", SELFPLAY_FORMAT);
	fprintf(out, "# game %s%s%s, engine %s", g->name,
		g->rules & RULE_TIEBREAK ? " --tiebreak" : "",
		g->rules & RULE_OPEN_WON ? " --open-won-boards" : "",
		player_spec_format(spec, buf, sizeof(buf)));
	if (how->label != NULL)
		fprintf(out, ", label %s", player_spec_format(how->label, buf, sizeof(buf)));
	fprintf(out, ", seed %llu\n", (unsigned long long)seed);
	fprintf(out, "# cells last turn move value result%s\n", how->visits ? " visits" : "");
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

/* One position line of the format, without its result (known at the end),
 * and (--visits) its search's visits of each move, most first. */
struct line {
	char cells[GAME_MAX_CELLS + 1];
	int last, turn, move;
	double value;
	int nvisited;
	uint8_t visited[GAME_MAX_MOVES];
	uint32_t visits[GAME_MAX_MOVES];
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

/* What one game needs besides its positions: the engine, the search that
 * values its positions (the engine itself unless --label), and the
 * children's lines so far. */
struct selfplay_run {
	const struct game *g;
	struct player *engine, *label;
	uint32_t children;
	bool visits;
	FILE *kids; /* children's lines, written before the game's own */
	char *kids_text;
	size_t kids_size;
	int nkids;
};

/* Run P's search to its budget (or until *STOP): the number of its root's
 * children, their statistics into CH and the totals into T. */
static int search_stats(struct player *p, const atomic_int *stop, struct mcts_child *ch,
			struct mcts_totals *t)
{
	while (!player_think(p, 50000000u) && !atomic_load(stop))
		;
	return mcts_stats(player_search(p), NULL, 0, ch, GAME_MAX_MOVES, t);
}

/* The value of POS for its side to move by the label search (a search of
 * its own from POS, as long as its budget says). */
static double label_value(struct player *label, const struct pos *pos)
{
	static const atomic_int never;
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int n;

	player_reset(label, pos);
	n = search_stats(label, &never, ch, &t);
	return root_value(ch, n, &t);
}

/* The lines of the N children CH (of mcts_stats()) of ROOT that got
 * R->children visits or more, other than CHOSEN and those that end the
 * game, into R->kids: what the network will be asked about at the leaves
 * of a search, bad moves included, which the positions of the game alone
 * never show it. */
static void write_children(struct selfplay_run *r, const struct pos *root,
			   const struct mcts_child *ch, int n, int chosen)
{
	for (int i = 0; i < n; i++) {
		struct pos after = *root;
		struct line l;
		double value;

		if (ch[i].move == chosen || ch[i].visits < r->children)
			continue;
		game_play(r->g, &after, ch[i].move);
		if (game_over(&after))
			continue;
		describe(r->g, &after, &l);
		/* for the side to move after it: the other side of the value */
		value = r->label != NULL ? label_value(r->label, &after)
					 : 1 - proven_or(ch[i].proven, ch[i].value);
		fprintf(r->kids, "%s %d %c -1 %.4f -\n", l.cells, l.last,
			game_side_mark(l.turn), value);
		r->nkids++;
	}
}

/* The N children CH's visits into L (those with any), most first, ties in
 * the order of their moves. */
static void note_visits(struct line *l, const struct mcts_child *ch, int n)
{
	l->nvisited = 0;
	for (int i = 0; i < n; i++) {
		int j = l->nvisited;

		if (ch[i].visits == 0)
			continue;
		l->nvisited++;
		while (j > 0 && (l->visits[j - 1] < ch[i].visits ||
				 (l->visits[j - 1] == ch[i].visits && l->visited[j - 1] > ch[i].move))) {
			l->visits[j] = l->visits[j - 1];
			l->visited[j] = l->visited[j - 1];
			j--;
		}
		l->visits[j] = ch[i].visits;
		l->visited[j] = (uint8_t)ch[i].move;
	}
}

/* The engine's move from POS after its search, with POS's line into L
 * (its value from the label search if there is one) and its children's
 * lines if they are asked for. */
static int searched_move(struct selfplay_run *r, const struct pos *pos, struct line *l,
			 const atomic_int *stop)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int move, n;

	n = search_stats(r->engine, stop, ch, &t);
	move = player_choose(r->engine);
	describe(r->g, pos, l);
	l->move = move;
	l->value = r->label != NULL ? label_value(r->label, pos) : root_value(ch, n, &t);
	if (r->children > 0)
		write_children(r, pos, ch, n, move);
	if (r->visits)
		note_visits(l, ch, n);
	return move;
}

static void run_free(struct selfplay_run *r)
{
	player_free(r->engine);
	if (r->label != NULL)
		player_free(r->label);
	if (r->kids != NULL)
		fclose(r->kids);
	free(r->kids_text);
}

/* The game's lines L[0..N) with its result, after the children's lines. */
static void write_game(FILE *out, struct selfplay_run *r, const struct pos *end,
		       const struct line *l, int n)
{
	if (r->kids != NULL) {
		fclose(r->kids);
		r->kids = NULL;
		fwrite(r->kids_text, 1, r->kids_size, out);
	}
	for (int i = 0; i < n; i++) {
		int w = result_winner(end->result);
		double res = w < 0 ? 0.5 : w == l[i].turn ? 1 : 0;

		fprintf(out, "%s %d %c %d %.4f %g", l[i].cells, l[i].last,
			game_side_mark(l[i].turn), l[i].move, l[i].value, res);
		if (r->visits && l[i].nvisited == 0)
			fputs(" -", out); /* (a root the search proved at once) */
		for (int k = 0; r->visits && k < l[i].nvisited; k++)
			fprintf(out, "%c%d:%lu", k == 0 ? ' ' : ',', l[i].visited[k],
				(unsigned long)l[i].visits[k]);
		fputc('\n', out);
	}
	fprintf(out, "# end: %s after %d plies, %d positions",
		end->result == RESULT_DRAW ? "drawn" : end->result == RESULT_X ? "X won" : "O won",
		end->ply, n);
	if (r->children > 0)
		fprintf(out, ", %d children", r->nkids);
	fputc('\n', out);
}

int selfplay_game(FILE *out, const struct game *g, const struct pos *start,
		  const struct player_spec *spec, uint64_t seed, const struct selfplay_how *how,
		  const atomic_int *stop, int *npos)
{
	struct selfplay_run r = { .g = g, .children = how->children, .visits = how->visits };
	struct player_spec s = *spec;
	struct line lines[GAME_MAX_PLIES];
	struct pos pos = *start;
	struct rng rng;
	int n = 0, random_plies;

	assert(spec->kind == PLAYER_MCTS);
	s.seed = s.mcts.seed = seed;
	s.seed_given = true;
	rng_seed(&rng, seed ^ 0x5e1f);
	random_plies = (int)rng_below(&rng, SELFPLAY_RANDOM_PLIES + 1);
	r.engine = player_new(g, &s, &pos);
	if (how->label != NULL) {
		struct player_spec ls = *how->label;

		assert(ls.kind == PLAYER_MCTS);
		ls.seed = ls.mcts.seed = seed ^ 0x1abe1;
		ls.seed_given = true;
		r.label = player_new(g, &ls, &pos);
	}
	*npos = 0;
	if (r.children > 0 && (r.kids = open_memstream(&r.kids_text, &r.kids_size)) == NULL)
		fatal("out of memory");
	while (!game_over(&pos)) {
		int move;

		if (atomic_load(stop)) {
			run_free(&r);
			return RESULT_NONE;
		}
		if (pos.ply - start->ply < random_plies) {
			struct moveset legal;

			game_legal(g, &pos, &legal);
			move = moveset_nth(&legal,
					   (int)rng_below(&rng, (uint32_t)moveset_count(&legal)));
		} else {
			move = searched_move(&r, &pos, &lines[n++], stop);
		}
		game_play(g, &pos, move);
		player_played(r.engine, move);
	}
	write_game(out, &r, &pos, lines, n);
	run_free(&r);
	*npos = n;
	return pos.result;
}
