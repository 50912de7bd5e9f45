/* review.c - game review: every ply analysed, its mistakes found. */
#include "config.h"

#include "review.h"

#include <assert.h>
#include <string.h>

#include "json.h"
#include "mcts.h"
#include "negamax.h"
#include "util.h"

/* The slice the engine thinks in between checks of *stop. */
#define REVIEW_SLICE_NS 20000000u

void review_params_default(struct review_params *p)
{
	char err[160];

	memset(p, 0, sizeof(*p));
	if (player_spec_parse("mcts:time=1000", &p->engine, err, sizeof(err)) < 0)
		fatal("review: the default engine spec: %s", err);
	p->threshold = REVIEW_DEFAULT_THRESHOLD;
	p->solve_ms = REVIEW_DEFAULT_SOLVE_MS;
}

static double proof_value(int proof)
{
	return proof == PROOF_WIN ? 1.0 : proof == PROOF_LOSS ? 0.0 : 0.5;
}

static void set_proven(struct review_value *v, int proof, int plies)
{
	v->proof = proof;
	v->plies = plies;
	v->value = proof_value(proof);
}

/* The value of a finished position for the side to move. */
static void value_of_end(const struct pos *pos, struct review_value *v)
{
	int winner = result_winner(pos->result);

	set_proven(v, winner < 0 ? PROOF_DRAW : winner == pos->turn ? PROOF_WIN : PROOF_LOSS, 0);
}

/* Solve POS and each of its moves within the solver's time (NM's
 * time_ms); fills V and BEST when the position's value was found. The best
 * moves are those of the best value, fastest to a win or slowest to a loss,
 * when every move was settled in time; else the one the solver found. */
static bool solve_quickly(struct negamax *nm, const struct pos *pos, atomic_int *stop,
			  struct review_value *v, uint8_t *best, int *nbest)
{
	struct negamax_result r;
	struct negamax_move mv[GAME_MAX_MOVES];
	int count, k = negamax_solve_moves(nm, pos, stop, NULL, NULL, &r, mv, &count);

	if (!r.exact)
		return false;
	set_proven(v, r.value, r.plies);
	if (k < 0) {
		best[0] = (uint8_t)r.best;
		*nbest = 1;
		return true;
	}
	for (int i = 0; i < k; i++)
		best[i] = (uint8_t)mv[i].move;
	*nbest = k;
	return true;
}

/* What the search of player P found of its root: V and BEST. */
static void read_search(struct player *p, struct review_value *v, uint8_t *best, int *nbest)
{
	struct mcts *m = player_search(p);
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t), chosen = mcts_best_move(m);

	*nbest = 0;
	v->proof = PROOF_NONE;
	v->plies = 0;
	v->value = 0.5;
	for (int i = 0; i < n; i++)
		if (ch[i].move == chosen)
			v->value = ch[i].value;
	if (t.root_proven != PROOF_NONE) {
		set_proven(v, t.root_proven, t.root_proven_plies);
		for (int i = 0; i < n; i++)
			if (ch[i].proven == t.root_proven &&
			    (t.root_proven == PROOF_DRAW || /* (a draw's length is not kept) */
			     ch[i].proven_plies + 1 == t.root_proven_plies))
				best[(*nbest)++] = (uint8_t)ch[i].move;
	}
	if (*nbest == 0) {
		best[0] = (uint8_t)chosen;
		*nbest = 1;
	}
}

/* The mover's value after a move, from the value V of the position it left
 * for the side to move there. */
static struct review_value flip(const struct review_value *v)
{
	struct review_value f = *v;

	if (v->proof == PROOF_WIN)
		f.proof = PROOF_LOSS;
	else if (v->proof == PROOF_LOSS)
		f.proof = PROOF_WIN;
	if (v->proof != PROOF_NONE && v->plies >= 0)
		f.plies = v->plies + 1; /* counted from before the move */
	f.value = 1.0 - v->value;
	return f;
}

static int proof_rank(int proof)
{
	return proof == PROOF_WIN ? 2 : proof == PROOF_DRAW ? 1 : 0;
}

static bool is_mistake(const struct review_ply *r, double threshold)
{
	if (r->before.proof != PROOF_NONE && r->after.proof != PROOF_NONE)
		return proof_rank(r->after.proof) < proof_rank(r->before.proof);
	return r->before.value - r->after.value > threshold;
}

int review_game(const struct game *g, const struct pos *start, const uint8_t *moves, int nmoves,
		const struct review_params *p, atomic_int *stop,
		void (*progress)(int done, int total, void *arg), void *arg,
		struct review_ply *out)
{
	struct negamax_params np = { 0, p->solve_ms, (size_t)NEGAMAX_DEFAULT_TT_MB << 20,
				   p->engine.mcts.threads };
	struct negamax *nm = p->solve_ms > 0 ? negamax_new(g, &np) : NULL;
	struct player *engine = player_new(g, &p->engine, start);
	struct review_value value;
	struct pos pos = *start;
	int done = 0;

	assert(p->engine.kind == PLAYER_MCTS);
	/* Position i is analysed once: it gives ply i its "before" and ply i-1
	 * its "after". */
	for (int i = 0; i <= nmoves; i++) {
		uint8_t best[GAME_MAX_MOVES];
		int nbest = 0;

		if (game_over(&pos)) {
			value_of_end(&pos, &value);
		} else if (nm == NULL ||
			   !solve_quickly(nm, &pos, stop, &value, best, &nbest)) {
			while (!player_think(engine, REVIEW_SLICE_NS) && !(stop != NULL && *stop))
				;
			read_search(engine, &value, best, &nbest);
		}
		if (stop != NULL && *stop)
			break;
		if (i > 0) {
			out[i - 1].after = flip(&value);
			out[i - 1].mistake = is_mistake(&out[i - 1], p->threshold);
			done = i;
		}
		if (i == nmoves)
			break;
		out[i].ply = i + 1;
		out[i].move = moves[i];
		out[i].side = pos.turn;
		out[i].before = value;
		out[i].nbest = nbest;
		memcpy(out[i].best, best, (size_t)nbest);
		game_play(g, &pos, moves[i]);
		player_played(engine, moves[i]);
		if (progress != NULL)
			progress(i + 1, nmoves, arg);
	}
	player_free(engine);
	if (nm != NULL)
		negamax_free(nm);
	return done;
}

char *review_value_text(const struct review_value *v, char *buf, size_t size)
{
	if (v->proof == PROOF_DRAW)
		fmt_buf(buf, size, "draw");
	else if (v->proof != PROOF_NONE && v->plies >= 0)
		fmt_buf(buf, size, "%s in %d", game_proof_name(v->proof), v->plies);
	else if (v->proof != PROOF_NONE)
		fmt_buf(buf, size, "%s", game_proof_name(v->proof));
	else
		fmt_buf(buf, size, "%.2f", v->value);
	return buf;
}

/* Per side: plies, mistakes and the mean drop in value. */
struct review_sum {
	int moves, mistakes;
	double drop;
};

static void summarise(const struct review_ply *out, int n, struct review_sum sum[2])
{
	memset(sum, 0, 2 * sizeof(sum[0]));
	for (int i = 0; i < n; i++) {
		struct review_sum *s = &sum[out[i].side];
		double d = out[i].before.value - out[i].after.value;

		s->moves++;
		s->mistakes += out[i].mistake;
		s->drop += d > 0 ? d : 0;
	}
	for (int s = 0; s < 2; s++)
		if (sum[s].moves > 0)
			sum[s].drop /= sum[s].moves;
}

static void json_value(struct json *j, const char *key, const struct review_value *v)
{
	char plies[32];

	json_key(j, key);
	if (v->proof == PROOF_NONE) {
		json_double(j, v->value);
		return;
	}
	json_string(j, game_proof_name(v->proof));
	if (v->plies < 0)
		return; /* (proven, its distance not settled yet) */
	fmt_buf(plies, sizeof(plies), "%s_plies", key);
	json_int_field(j, plies, v->plies);
}

static void print_json(const struct game *g, const struct review_ply *out, int n, bool stopped,
		       const struct review_sum sum[2], FILE *f)
{
	struct json j;
	char name[8];

	json_init(&j, f);
	json_object_begin(&j);
	json_string_field(&j, "game", g->name);
	json_key(&j, "moves");
	json_array_begin(&j);
	for (int i = 0; i < n; i++) {
		json_object_begin(&j);
		json_int_field(&j, "ply", out[i].ply);
		json_string_field(&j, "move", game_move_name(g, out[i].move, name));
		json_string_field(&j, "side", out[i].side == SIDE_X ? "X" : "O");
		json_value(&j, "before", &out[i].before);
		json_value(&j, "after", &out[i].after);
		json_key(&j, "best");
		json_array_begin(&j);
		for (int b = 0; b < out[i].nbest; b++)
			json_string(&j, game_move_name(g, out[i].best[b], name));
		json_array_end(&j);
		json_bool_field(&j, "mistake", out[i].mistake);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "summary");
	json_object_begin(&j);
	for (int s = 0; s < 2; s++) {
		json_key(&j, s == SIDE_X ? "X" : "O");
		json_object_begin(&j);
		json_int_field(&j, "moves", sum[s].moves);
		json_int_field(&j, "mistakes", sum[s].mistakes);
		json_double_field(&j, "average_drop", sum[s].drop);
		json_object_end(&j);
	}
	json_object_end(&j);
	json_bool_field(&j, "stopped", stopped);
	json_object_end(&j);
}

void review_print(const struct game *g, const struct review_ply *out, int n, bool json,
		  bool stopped, FILE *f)
{
	struct review_sum sum[2];
	char name[8], before[24], after[24];

	summarise(out, n, sum);
	if (json) {
		print_json(g, out, n, stopped, sum, f);
		return;
	}
	fprintf(f, " ply side move  before      after       best\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%4d  %s   %-4s  %-10s  %-10s ", out[i].ply, out[i].side == SIDE_X ? "X" : "O",
			game_move_name(g, out[i].move, name),
			review_value_text(&out[i].before, before, sizeof(before)),
			review_value_text(&out[i].after, after, sizeof(after)));
		for (int b = 0; b < out[i].nbest && b < 6; b++)
			fprintf(f, " %s", game_move_name(g, out[i].best[b], name));
		if (out[i].nbest > 6)
			fprintf(f, " (+%d)", out[i].nbest - 6);
		fprintf(f, "%s\n", out[i].mistake ? "  <- mistake" : "");
	}
	for (int s = 0; s < 2; s++)
		fprintf(f, "%s: %d move%s, %d mistake%s, average drop %.3f\n", s == SIDE_X ? "X" : "O",
			sum[s].moves, sum[s].moves == 1 ? "" : "s", sum[s].mistakes,
			sum[s].mistakes == 1 ? "" : "s", sum[s].drop);
	if (stopped)
		fprintf(f, "stopped after %d of the game's plies\n", n);
}
