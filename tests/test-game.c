/* test-game.c - the rules layer: perft against known values and against an
 * independent brute force, game outcomes, move text, rule options. */
#include "config.h"

#include <string.h>

#include "game.h"
#include "tap.h"

/* --- an independent m,n,k counter: a char grid and explicit line walks --- */

struct naive {
	int m, n, k;
	char cell[MNK_MAX_CELLS];
};

static int naive_wins(const struct naive *b, int col, int row, char who)
{
	static const int dirs[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };

	for (int d = 0; d < 4; d++) {
		int run = 1;

		for (int sign = -1; sign <= 1; sign += 2) {
			int c = col + sign * dirs[d][0], r = row + sign * dirs[d][1];

			while (c >= 0 && c < b->m && r >= 0 && r < b->n && b->cell[r * b->m + c] == who) {
				run++;
				c += sign * dirs[d][0];
				r += sign * dirs[d][1];
			}
		}
		if (run >= b->k)
			return 1;
	}
	return 0;
}

static void naive_perft(struct naive *b, int ply, int depth, unsigned long long *counts)
{
	char who = ply % 2 == 0 ? 'X' : 'O';

	for (int i = 0; i < b->m * b->n; i++) {
		if (b->cell[i] != '.')
			continue;
		counts[ply]++;
		if (ply + 1 >= depth)
			continue;
		b->cell[i] = who;
		if (!naive_wins(b, i % b->m, i / b->m, who))
			naive_perft(b, ply + 1, depth, counts);
		b->cell[i] = '.';
	}
}

static void check_against_naive(const char *name, int m, int n, int k, int depth)
{
	struct game g;
	struct pos p;
	struct naive b = { m, n, k, { 0 } };
	uint64_t counts[GAME_MAX_PLIES];
	unsigned long long want[GAME_MAX_PLIES] = { 0 };
	char err[160];
	int same = 1;

	memset(b.cell, '.', sizeof(b.cell));
	ok(game_init(&g, name, 0, err, sizeof(err)) == 0, "game %s accepted", name);
	game_start(&g, &p);
	game_perft(&g, &p, depth, counts);
	naive_perft(&b, 0, depth, want);
	for (int d = 0; d < depth; d++)
		if (counts[d] != want[d]) {
			same = 0;
			printf("# %s depth %d: %llu, brute force %llu\n", name, d + 1,
			       (unsigned long long)counts[d], want[d]);
		}
	ok(same, "%s perft 1..%d matches brute force (depth %d: %llu)", name, depth, depth,
	   want[depth - 1]);
}

/* --- tic-tac-toe: every game to the end ------------------------------- */

static void count_games(const struct game *g, const struct pos *p, unsigned long long out[4])
{
	struct moveset ms;

	if (game_over(p)) {
		out[p->result]++;
		return;
	}
	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		struct pos c = *p;

		game_play(g, &c, moveset_pop(&ms));
		count_games(g, &c, out);
	}
}

static void test_ttt(void)
{
	static const uint64_t want[9] = { 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872 };
	unsigned long long games[4] = { 0 };
	uint64_t counts[GAME_MAX_PLIES];
	struct game g;
	struct pos p;
	char err[160];
	int same = 1;

	ok(game_init(&g, "ttt", 0, err, sizeof(err)) == 0, "ttt accepted");
	game_start(&g, &p);
	game_perft(&g, &p, 10, counts);
	for (int d = 0; d < 9; d++)
		same &= counts[d] == want[d];
	ok(same, "ttt perft 1..9 is 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872");
	ok(counts[9] == 0, "ttt perft 10 is 0 (every game has ended)");
	count_games(&g, &p, games);
	ok(games[RESULT_X] + games[RESULT_O] + games[RESULT_DRAW] == 255168,
	   "255168 finished games (%llu)", games[1] + games[2] + games[3]);
	ok(games[RESULT_X] == 131184, "131184 won by X (%llu)", games[RESULT_X]);
	ok(games[RESULT_O] == 77904, "77904 won by O (%llu)", games[RESULT_O]);
	ok(games[RESULT_DRAW] == 46080, "46080 drawn (%llu)", games[RESULT_DRAW]);
}

static void test_uttt_perft(void)
{
	static const uint64_t want[6] = { 81, 720, 6336, 55080, 473256, 4020960 };
	uint64_t counts[GAME_MAX_PLIES];
	struct game g;
	struct pos p;
	char err[160];
	int same = 1;

	ok(game_init(&g, "uttt", 0, err, sizeof(err)) == 0, "uttt accepted");
	game_start(&g, &p);
	game_perft(&g, &p, 6, counts);
	for (int d = 0; d < 6; d++) {
		same &= counts[d] == want[d];
		if (counts[d] != want[d])
			printf("# depth %d: %llu\n", d + 1, (unsigned long long)counts[d]);
	}
	ok(same, "uttt perft 1..6 is 81, 720, 6336, 55080, 473256, 4020960");
}

/* Play TEXT from the start of G; the test fails if any move is refused. */
static int play(const struct game *g, struct pos *p, const char *text)
{
	char err[160];

	game_start(g, p);
	if (game_play_moves(g, p, text, NULL, NULL, err, sizeof(err)) < 0) {
		printf("# %s: %s\n", text, err);
		return -1;
	}
	return 0;
}

static void test_results(void)
{
	struct game g;
	struct pos p;
	char err[160];

	game_init(&g, "ttt", 0, err, sizeof(err));
	ok(play(&g, &p, "a1 b1 a2 b2 a3") == 0 && p.result == RESULT_X, "ttt: X wins down column a");
	ok(play(&g, &p, "a1 b2 c1 b1 a3 b3") == 0 && p.result == RESULT_O, "ttt: O wins down column b");
	ok(play(&g, &p, "a1 b2 c3 a3 c1 b1 b3 c2 a2") == 0 && p.result == RESULT_DRAW,
	   "ttt: a full board without a line is a draw");
	ok(play(&g, &p, "a1 a2 b2 a3 c3") == 0 && p.result == RESULT_X, "ttt: X wins the diagonal");
	ok(play(&g, &p, "c1 a1 b2 a2 a3") == 0 && p.result == RESULT_X,
	   "ttt: X wins the other diagonal");

	game_init(&g, "5,4,4", 0, err, sizeof(err));
	ok(play(&g, &p, "b1 a1 c1 a2 d1 a3 e1") == 0 && p.result == RESULT_X,
	   "5,4,4: four in a row at the right edge wins");
	ok(play(&g, &p, "a1 e1 b2 e2 c3 e3 d4") == 0 && p.result == RESULT_X,
	   "5,4,4: a diagonal of four wins");
	ok(play(&g, &p, "d1 a4 e1 a3 a1 b4") == 0 && p.result == RESULT_NONE,
	   "5,4,4: cells that wrap around a row are no line");
}

static void test_uttt_rules(void)
{
	struct game g;
	struct pos p;
	struct moveset ms;
	char err[160], why[120];
	int move;

	game_init(&g, "uttt", 0, err, sizeof(err));
	/* c1 sends O to the top-right board; a move outside it is refused. */
	ok(play(&g, &p, "c1") == 0 && p.u.uttt.next == 2, "uttt: c1 sends O to the top-right board");
	move = game_parse_move(&g, "a4", err, sizeof(err));
	ok(game_illegal(&g, &p, move, why, sizeof(why)) != NULL && strstr(why, "top-right") != NULL,
	   "uttt: a move outside the forced board is refused: %s", why);
	ok(play(&g, &p, "c1 g1 b1 d1") == 0 && p.u.uttt.next == 0, "uttt: d1 sends X to the top-left board");
	move = game_parse_move(&g, "b1", err, sizeof(err));
	ok(game_illegal(&g, &p, move, why, sizeof(why)) != NULL && strstr(why, "taken by X") != NULL,
	   "uttt: b1 is taken: %s", why);
	/* X completes a1 b1 c1: the top-left board is won and closed, and a1
	 * sends O to that closed board, so O may play in any open board. */
	ok(play(&g, &p, "c1 g1 b1 d1 a1") == 0, "uttt: setup moves legal");
	ok(p.u.uttt.won[SIDE_X] == 1 && (p.u.uttt.closed & 1) && p.u.uttt.won[SIDE_O] == 0,
	   "uttt: X won the top-left board with a1 b1 c1 and it is closed");
	ok(p.u.uttt.next == -1, "uttt: sent to a closed board, O may play in any board");
	game_legal(&g, &p, &ms);
	ok(moveset_count(&ms) == 81 - 9 - 2, "uttt: 70 legal moves in the open boards (%d)",
	   moveset_count(&ms));
	move = game_parse_move(&g, "b2", err, sizeof(err));
	ok(game_illegal(&g, &p, move, why, sizeof(why)) != NULL && strstr(why, "closed (won)") != NULL,
	   "uttt: playing in a won board is refused: %s", why);
	ok(play(&g, &p, "c1 g1 b1 d1 a1 b9 f7 g2 c6 g8 a4") == 0 && p.u.uttt.next == -1 &&
	   p.turn == SIDE_O, "uttt: a4 sends O to the closed board again: any board");

	/* The open-won-boards variant keeps the won board playable and forced. */
	game_init(&g, "uttt", RULE_OPEN_WON, err, sizeof(err));
	ok(play(&g, &p, "c1 g1 b1 d1 a1") == 0 && p.u.uttt.next == 0 &&
	   p.u.uttt.won[SIDE_X] == 1, "open-won: the won top-left board is still the forced board");
	game_legal(&g, &p, &ms);
	ok(moveset_count(&ms) == 6, "open-won: only the 6 free cells of the won board (%d)",
	   moveset_count(&ms));
}

static void test_uttt_end(void)
{
	struct game g, t;
	struct pos p;
	struct rng r;
	char err[160];
	int wins = 0, draws = 0, tiebreak_decided = 0, mismatch = 0;

	/* Random games to the end: each ends with a line of small boards or
	 * with no move left, and the tie-break only decides the latter. */
	game_init(&g, "uttt", 0, err, sizeof(err));
	game_init(&t, "uttt", RULE_TIEBREAK, err, sizeof(err));
	rng_seed(&r, 7);
	for (int i = 0; i < 2000; i++) {
		struct pos a, b;
		struct rng r2 = r;

		game_start(&g, &a);
		game_start(&t, &b);
		game_rollout(&g, &a, &r, ROLLOUT_RANDOM);
		game_rollout(&t, &b, &r2, ROLLOUT_RANDOM);
		if (a.result == RESULT_DRAW) {
			draws++;
			int x = __builtin_popcount(b.u.uttt.won[0]), o = __builtin_popcount(b.u.uttt.won[1]);
			int want = x > o ? RESULT_X : x < o ? RESULT_O : RESULT_DRAW;

			mismatch += b.result != want;
			tiebreak_decided += want != RESULT_DRAW;
		} else {
			wins++;
			mismatch += b.result != a.result;
		}
	}
	ok(wins > 0 && draws > 0, "uttt random games: %d won, %d drawn", wins, draws);
	ok(mismatch == 0 && tiebreak_decided > 0,
	   "tiebreak: decides %d drawn games by boards won, changes no other (%d wrong)",
	   tiebreak_decided, mismatch);
	(void)p;
}

static void test_move_text(void)
{
	struct game g;
	struct pos p;
	char err[160], name[8];
	static const char *const bad[] = { "", "b", "2", "b0", "bb", "b2x", "d1", "a4", "-1", "b 2",
					   "b99999999999" };

	game_init(&g, "ttt", 0, err, sizeof(err));
	ok(game_parse_move(&g, "b2", err, sizeof(err)) == 4, "ttt: b2 is the centre");
	ok(game_parse_move(&g, "B2", err, sizeof(err)) == 4, "ttt: B2 too");
	ok(strcmp(game_move_name(&g, 2, name), "c1") == 0, "ttt: move 2 is c1");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int m = game_parse_move(&g, bad[i], err, sizeof(err));

		ok(m < 0 && strstr(err, bad[i]) != NULL &&
		   (strstr(err, "expected") != NULL || strstr(err, "off the") != NULL),
		   "ttt: '%s' refused: %s", bad[i], err);
	}
	game_start(&g, &p);
	ok(game_play_moves(&g, &p, "b2 b2", NULL, NULL, err, sizeof(err)) < 0 &&
	   strstr(err, "move 2") != NULL && strstr(err, "taken by X") != NULL,
	   "ttt: occupied cell: %s", err);
	game_start(&g, &p);
	ok(game_play_moves(&g, &p, "a1 b1 a2 b2 a3 b3", NULL, NULL, err, sizeof(err)) < 0 &&
	   strstr(err, "game is over") != NULL, "ttt: move after the end: %s", err);
	game_start(&g, &p);
	ok(game_play_moves(&g, &p, " a1,b1  c1 ", NULL, NULL, err, sizeof(err)) == 0 && p.ply == 3,
	   "ttt: spaces and commas separate moves");

	game_init(&g, "uttt", 0, err, sizeof(err));
	ok(strcmp(game_move_name(&g, game_parse_move(&g, "e5", err, sizeof(err)), name), "e5") == 0,
	   "uttt: e5 names itself");
	ok(game_parse_move(&g, "e5", err, sizeof(err)) == 4 * 9 + 4, "uttt: e5 is the centre of the centre");
	ok(game_parse_move(&g, "i9", err, sizeof(err)) == 80, "uttt: i9 is the last cell");
	ok(game_parse_move(&g, "j1", err, sizeof(err)) < 0, "uttt: j1 refused: %s", err);
}

static void test_game_names(void)
{
	static const char *const bad[] = { "", "tt", "3,3", "3,3,3,3", "2,3,3", "3,3,4", "9,9,3",
					   "a,b,c", "4,4,2", "3,22,3", "-3,3,3", "3,3,3x" };
	struct game g;
	char err[160];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ok(game_init(&g, bad[i], 0, err, sizeof(err)) < 0 && strlen(err) > 10,
		   "game '%s' refused: %s", bad[i], err);
	ok(game_init(&g, "ttt", RULE_TIEBREAK, err, sizeof(err)) < 0 && strstr(err, "uttt only") != NULL,
	   "ttt refuses uttt's rule options: %s", err);
	ok(game_init(&g, "uttt", RULE_TIEBREAK | RULE_OPEN_WON, err, sizeof(err)) == 0,
	   "uttt takes both rule options");
	ok(game_init(&g, "8,8,5", 0, err, sizeof(err)) == 0 && g.cells == 64, "8,8,5 accepted");
	ok(game_init(&g, "16,4,4", 0, err, sizeof(err)) == 0 && g.nsym == 4,
	   "16,4,4 accepted, 4 symmetries");
	ok(game_init(&g, "4,4,3", 0, err, sizeof(err)) == 0 && g.nsym == 8, "4,4,3 has 8 symmetries");
}

static void test_symmetry(void)
{
	struct game g;
	char err[160];
	int bijective = 1;

	game_init(&g, "4,3,3", 0, err, sizeof(err));
	for (int s = 0; s < g.nsym; s++) {
		uint64_t seen = 0;

		for (int m = 0; m < g.cells; m++)
			seen |= (uint64_t)1 << g.sym[s][m];
		bijective &= seen == g.full;
	}
	ok(bijective, "every symmetry of 4,3,3 maps the cells one to one");
	game_init(&g, "ttt", 0, err, sizeof(err));
	ok(g.sym[6][0] == 2 && g.sym[1][0] == 2 && g.sym[3][0] == 8,
	   "ttt: a quarter turn and a mirror take a1 to c1, a half turn to c3");
}

int main(void)
{
	test_ttt();
	test_uttt_perft();
	check_against_naive("4,3,3", 4, 3, 3, 12);
	check_against_naive("3,4,3", 3, 4, 3, 12);
	check_against_naive("4,4,4", 4, 4, 4, 7);
	check_against_naive("5,3,5", 5, 3, 5, 7);
	check_against_naive("5,4,3", 5, 4, 3, 6);
	check_against_naive("6,3,4", 6, 3, 4, 6);
	check_against_naive("3,3,3", 3, 3, 3, 9);
	test_results();
	test_uttt_rules();
	test_uttt_end();
	test_move_text();
	test_game_names();
	test_symmetry();
	return tap_done();
}
