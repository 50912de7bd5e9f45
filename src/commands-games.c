/* commands-games.c - the commands that play or replay whole games: match,
 * selfplay and review. */
#include "config.h"

#include "commands.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "options.h"
#include "player.h"
#include "record.h"
#include "review.h"
#include "selfplay.h"
#include "sprt.h"

/* --- match ------------------------------------------------------------- */

/* Elo difference for a score S in (0, 1). */
static double elo_of(double s)
{
	if (s <= 0)
		return -HUGE_VAL;
	if (s >= 1)
		return HUGE_VAL;
	if (s == 0.5)
		return 0; /* not -0 */
	return -400.0 * log10(1.0 / s - 1.0);
}

/* A's seed for game GAME: different in every game, fixed by --seed. */
void seed_spec(struct player_spec *spec, uint64_t base, int game, int who)
{
	if (!spec->seed_given) {
		uint64_t s = base ^ ((uint64_t)game << 1 | (uint64_t)who);

		spec->seed = spec->mcts.seed = splitmix64(&s);
		spec->seed_given = true; /* so a record names it and the game can be replayed */
	}
}

/* Play one game from opt->pos, keeping it in REC; returns the enum result. */
static int match_game(struct options *opt, const struct player_spec *sx,
		      const struct player_spec *so, struct record *rec)
{
	const struct game *g = &opt->game;
	struct pos pos = opt->pos;
	struct player *p[2];

	record_init(rec, g);
	player_spec_format(sx, rec->x, sizeof(rec->x));
	player_spec_format(so, rec->o, sizeof(rec->o));
	record_now(rec->date, sizeof(rec->date));
	for (int i = 0; i < opt->nmoves; i++)
		rec->moves[rec->nmoves++].move = opt->moves[i];
	p[SIDE_X] = player_new(g, sx, &pos);
	p[SIDE_O] = player_new(g, so, &pos);
	while (!game_over(&pos) && !stop_requested) {
		struct player *me = p[pos.turn];
		struct record_move *rm = &rec->moves[rec->nmoves++];
		int move;

		while (!player_think(me, 50000000u) && !stop_requested)
			;
		if (stop_requested)
			break;
		move = player_choose(me);
		rm->move = (uint8_t)move;
		if (player_search(me) != NULL) {
			record_info_from_search(&rm->info, player_search(me), move);
			rm->has_info = true;
		}
		game_play(g, &pos, move);
		player_played(p[0], move);
		player_played(p[1], move);
	}
	player_free(p[0]);
	player_free(p[1]);
	rec->result = pos.result;
	return pos.result;
}

/* The two players of match from OPT's words into A and B; 0, or the exit
 * status after a line on stderr. */
static int match_players(const struct options *opt, struct player_spec *a, struct player_spec *b)
{
	char err[256];

	if (opt->argc != 2) {
		fprintf(stderr, "noughts: match: expected two players, such as "
			"'noughts match mcts negamax'\n");
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		struct player_spec *p = i == 0 ? a : b;

		if (player_spec_parse(opt->argv[i], p, err, sizeof(err)) < 0) {
			fprintf(stderr, "noughts: match: %s\n", err);
			return 2;
		}
		if (p->kind == PLAYER_HUMAN) {
			fprintf(stderr, "noughts: match: players must be engines, not human\n");
			return 2;
		}
		if (player_spec_check(p, &opt->game, err, sizeof(err)) < 0) {
			fprintf(stderr, "noughts: match: %s\n", err);
			return 2;
		}
		player_spec_name_eval(p, &opt->game);
		if (opt->level != 0 && p->level == 0)
			p->level = opt->level;
	}
	return 0;
}

/* A match's games so far: A's wins, draws and losses, in all and with
 * each side (by_side[SIDE][0..2]: A playing SIDE), and with --sprt the test
 * of the pairs (games 2k-1 and 2k, A with each colour) and A's half-points
 * in the pair under way. */
struct tally {
	int wins, draws, losses, played;
	int by_side[2][3];
	int pair_halves;
	struct sprt *sprt;
};

/* Count a game of result RESULT in which A played A_SIDE. */
static void tally_game(struct tally *t, int result, int a_side)
{
	int halves = result == RESULT_DRAW ? 1 : result_winner(result) == a_side ? 2 : 0;

	t->played++;
	t->wins += halves == 2;
	t->draws += halves == 1;
	t->losses += halves == 0;
	t->by_side[a_side][2 - halves]++;
	t->pair_halves += halves;
	if (t->played % 2 == 0) {
		if (t->sprt != NULL)
			sprt_add_pair(t->sprt, t->pair_halves);
		t->pair_halves = 0;
	}
}

/* The progress line after game GAME of OPT's. */
static void tally_say(struct progress *line, const struct options *opt, const struct tally *t,
		      int game)
{
	double lo, hi;

	if (t->sprt == NULL) {
		progress_say(line, "game %d/%d: +%d =%d -%d", game, opt->games, t->wins, t->draws,
			     t->losses);
		return;
	}
	sprt_bounds(t->sprt, &lo, &hi);
	progress_say(line, "game %d/%d: +%d =%d -%d, LLR %.2f (%.2f, %.2f)", game, opt->games,
		     t->wins, t->draws, t->losses, sprt_llr(t->sprt), lo, hi);
}

/* --sprt's part of the summary, as JSON fields of J or text. */
static void sprt_report(struct json *j, const struct sprt *t)
{
	enum sprt_verdict v = sprt_verdict(t);
	double lo, hi;
	long pairs = 0;

	sprt_bounds(t, &lo, &hi);
	for (int i = 0; i < 5; i++)
		pairs += t->pairs[i];
	if (j != NULL) {
		json_key(j, "sprt");
		json_object_begin(j);
		json_double_field(j, "elo0", t->elo0);
		json_double_field(j, "elo1", t->elo1);
		json_double_field(j, "alpha", t->alpha);
		json_double_field(j, "beta", t->beta);
		json_int_field(j, "pairs", pairs);
		json_double_field(j, "llr", sprt_llr(t));
		json_double_field(j, "lower", lo);
		json_double_field(j, "upper", hi);
		json_string_field(j, "verdict", sprt_verdict_name(v));
		json_object_end(j);
		return;
	}
	printf("SPRT elo0 %g, elo1 %g (alpha %g, beta %g): %ld pairs, LLR %.2f (%.2f, %.2f): %s\n",
	       t->elo0, t->elo1, t->alpha, t->beta, pairs, sprt_llr(t), lo, hi,
	       v == SPRT_H1 ? "H1, A is the stronger by elo1 or more"
	       : v == SPRT_H0 ? "H0, A is not the stronger by more than elo0"
			      : "no verdict yet");
}

/* A's score in T's games with each side, as JSON fields of J ("as_x",
 * "as_o") or a text line: the first move's advantage, seen apart from the
 * players'. */
static void sides_report(struct json *j, const struct tally *t)
{
	static const char *const key[2] = { "as_x", "as_o" }, *const name[2] = { "X", "O" };

	if (j == NULL)
		printf("A as");
	for (int side = SIDE_X; side <= SIDE_O; side++) {
		const int *r = t->by_side[side];
		int n = r[0] + r[1] + r[2];
		double s = n > 0 ? (r[0] + 0.5 * r[1]) / n : 0;

		if (j != NULL) {
			json_key(j, key[side]);
			json_object_begin(j);
			json_int_field(j, "games", n);
			json_int_field(j, "wins", r[0]);
			json_int_field(j, "draws", r[1]);
			json_int_field(j, "losses", r[2]);
			json_double_field(j, "score", s);
			json_object_end(j);
		} else {
			printf("%s %s: %d game%s, won %d, drew %d, lost %d; score %.1f%%",
			       side == SIDE_X ? "" : "; as", name[side], n, n == 1 ? "" : "s", r[0],
			       r[1], r[2], 100 * s);
		}
	}
	if (j == NULL)
		printf("\n");
}

/* The summary of a match of T's games between A and B, as text or JSON;
 * returns the exit status. */
static int match_report(const struct options *opt, const struct player_spec *a,
			const struct player_spec *b, const struct tally *t)
{
	char fa[128], fb[128];
	double s, z = 1.96, centre, half, lo, hi, n = t->played;

	/* The Wilson interval of the score: unlike s +- 1.96 se it stays
	 * meaningful when every game has the same result. */
	s = (t->wins + 0.5 * t->draws) / n;
	centre = (s + z * z / (2 * n)) / (1 + z * z / n);
	half = z * sqrt(s * (1 - s) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
	lo = elo_of(centre - half);
	hi = elo_of(centre + half);
	player_spec_format(a, fa, sizeof(fa));
	player_spec_format(b, fb, sizeof(fb));
	if (opt->json) {
		struct json j;

		json_init(&j, stdout);
		json_object_begin(&j);
		json_string_field(&j, "a", fa);
		json_string_field(&j, "b", fb);
		json_string_field(&j, "game", opt->game.name);
		json_int_field(&j, "games", t->played);
		json_int_field(&j, "wins", t->wins);
		json_int_field(&j, "draws", t->draws);
		json_int_field(&j, "losses", t->losses);
		json_double_field(&j, "score", s);
		json_double_field(&j, "elo", elo_of(s));
		json_double_field(&j, "elo_low", lo);
		json_double_field(&j, "elo_high", hi);
		sides_report(&j, t);
		if (t->sprt != NULL)
			sprt_report(&j, t->sprt);
		json_bool_field(&j, "stopped", stop_requested != 0);
		json_object_end(&j);
	} else {
		printf("A: %s\nB: %s\n", fa, fb);
		printf("games %d%s: A won %d, drew %d, lost %d; score %.1f%%\n", t->played,
		       stop_requested ? " (stopped)" : "", t->wins, t->draws, t->losses, 100 * s);
		printf("Elo difference %+.0f (95%%: %+.0f to %+.0f)\n", elo_of(s), lo, hi);
		sides_report(NULL, t);
		if (t->sprt != NULL)
			sprt_report(NULL, t->sprt);
	}
	return stop_requested ? 1 : 0;
}

/* --record: game GAME's record REC into the directory; 0, or 1 with the
 * error said. */
static int match_record(const struct options *opt, const struct record *rec, int game)
{
	char path[4096], err[256];

	snprintf(path, sizeof(path), "%s/game-%04d.txt", opt->record, game);
	if (record_write(path, rec, err, sizeof(err)) < 0) {
		fprintf(stderr, "noughts: match: %s\n", err);
		return 1;
	}
	return 0;
}

/* --record's directory made (or there); 0, or the exit status. */
static int match_record_dir(const struct options *opt)
{
	struct stat st;

	if (opt->record == NULL)
		return 0;
	if (opt->record[0] == '\0') {
		fprintf(stderr, "noughts: match: --record needs the name of a directory to write "
			"the games in\n");
		return 2;
	}
	if (mkdir(opt->record, 0755) != 0 &&
	    (errno != EEXIST || stat(opt->record, &st) != 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "noughts: match: --record %s: %s\n", shown(opt->record),
			errno == EEXIST ? "not a directory" : strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_match(struct options *opt)
{
	struct player_spec a, b;
	struct record rec;
	struct tally t = { .sprt = opt->sprt_given ? &opt->sprt : NULL };
	int status;
	bool progress = !opt->json || isatty(2);
	struct progress line;

	if ((status = match_players(opt, &a, &b)) != 0)
		return status;
	if (refuse_finished(opt))
		return 1;
	if ((status = match_record_dir(opt)) != 0)
		return status;
	catch_stop_signals();
	progress_init(&line);
	for (int game = 1; game <= opt->games && !stop_requested &&
			   (t.sprt == NULL || sprt_verdict(t.sprt) == SPRT_NONE);
	     game++) {
		struct player_spec sa = a, sb = b;
		bool a_is_x = game % 2 == 1;
		int result;

		seed_spec(&sa, opt->seed, game, 0);
		seed_spec(&sb, opt->seed, game, 1);
		result = a_is_x ? match_game(opt, &sa, &sb, &rec) : match_game(opt, &sb, &sa, &rec);
		if (result == RESULT_NONE)
			break; /* interrupted */
		if (opt->record != NULL && match_record(opt, &rec, game) != 0) {
			progress_end(&line);
			return 1;
		}
		tally_game(&t, result, a_is_x ? SIDE_X : SIDE_O);
		if (progress)
			tally_say(&line, opt, &t, game);
	}
	progress_end(&line);
	if (t.played == 0) {
		fprintf(stderr, "noughts: match: stopped before a game was finished\n");
		return 1;
	}
	return match_report(opt, &a, &b, &t);
}

/* --- selfplay ---------------------------------------------------------- */

int cmd_selfplay(struct options *opt)
{
	struct player_spec spec = opt->engine;
	uint64_t positions = 0, t0 = now_ns();
	int results[4] = { 0 }, played = 0;
	static const char values_why[] = "its search gives the values written";
	struct progress line;
	struct selfplay_how how = { opt->children, opt->label_given ? &opt->label : NULL,
				    opt->visits };

	if (opt->label_given && refuse_not_mcts(opt, "--label", &opt->label, values_why))
		return 2;
	if (refuse_not_mcts(opt, "--engine", &spec, values_why))
		return 2;
	if (refuse_finished(opt))
		return 1;
	player_spec_name_eval(&spec, &opt->game);
	if (opt->label_given)
		player_spec_name_eval(&opt->label, &opt->game);
	catch_stop_signals();
	progress_init(&line);
	selfplay_header(stdout, &opt->game, &spec, &how, opt->seed);
	for (int game = 1; game <= opt->games && !stop_requested; game++) {
		struct player_spec s = spec;
		int npos, result;

		s.seed_given = false;
		seed_spec(&s, opt->seed, game, 0);
		result = selfplay_game(stdout, &opt->game, &opt->pos, &s, s.seed, &how,
				       &stop_requested, &npos);
		if (result == RESULT_NONE)
			break;
		played++;
		positions += (uint64_t)npos;
		results[result]++;
		progress_say(&line, "game %d/%d: %llu positions; X won %d, O won %d, drawn %d; "
			     "%.2f games/s ", game, opt->games, (unsigned long long)positions,
			     results[RESULT_X], results[RESULT_O], results[RESULT_DRAW],
			     played / ((double)(now_ns() - t0) / 1e9));
	}
	progress_end(&line);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "noughts: selfplay: cannot write the positions: %s\n", strerror(errno));
		return 1;
	}
	return stop_requested ? 1 : 0;
}

/* --- review ------------------------------------------------------------ */

static void review_progress(int done, int total, void *arg)
{
	(void)arg;
	fprintf(stderr, "\rreviewing: ply %d of %d", done, total);
	if (done == total)
		fprintf(stderr, "\n");
}

int cmd_review(struct options *opt)
{
	struct review_params params;
	struct review_ply *out;
	struct record rec;
	const struct game *g = &opt->game;
	const struct pos *start = &opt->start;
	const uint8_t *moves = opt->moves;
	uint8_t from_file[GAME_MAX_PLIES];
	char err[320];
	int nmoves = opt->nmoves, done;

	if (opt->argc > 1) {
		fprintf(stderr, "noughts: review: expected one record FILE or --moves, not '%s'\n",
			shown(opt->argv[1]));
		return 2;
	}
	if (opt->argc == 1) {
		if (opt->game_given || opt->nmoves > 0) {
			fprintf(stderr, "noughts: review: a record FILE brings its game and moves: "
				"drop --game and --moves\n");
			return 2;
		}
		if (record_read(opt->argv[0], &rec, err, sizeof(err)) < 0) {
			fprintf(stderr, "noughts: review: %s\n", err);
			return 1;
		}
		g = &rec.game;
		game_start(g, &opt->start);
		for (int i = 0; i < rec.nmoves; i++)
			from_file[i] = rec.moves[i].move;
		moves = from_file;
		nmoves = rec.nmoves;
	}
	if (nmoves == 0 && opt->argc == 1) {
		fprintf(stderr, "noughts: review: %s: the record has no moves to review\n",
			shown(opt->argv[0]));
		return 1;
	}
	if (nmoves == 0) {
		fprintf(stderr, "noughts: review: no moves to review (give a record FILE or --moves)\n");
		return 2;
	}
	review_params_default(&params);
	if (opt->engine_given || opt->level != 0)
		params.engine = opt->engine;
	if (refuse_not_mcts(opt, "--engine", &params.engine,
			    "positions small enough are solved exactly with negamax anyway"))
		return 2;
	params.threshold = opt->threshold;
	out = xcalloc((size_t)nmoves, sizeof(*out));
	catch_stop_signals();
	done = review_game(g, start, moves, nmoves, &params, &stop_requested,
			   isatty(2) ? review_progress : NULL, NULL, out);
	if (stop_requested && done < nmoves && isatty(2))
		fprintf(stderr, "\n");
	review_print(g, out, done, opt->json, stop_requested != 0, stdout);
	free(out);
	return stop_requested ? 1 : 0;
}
