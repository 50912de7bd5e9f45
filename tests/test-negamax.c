/* test-negamax.c - the negamax engine against the plain minimax of minimax.h,
 * on every tic-tac-toe position and on small endgames of larger boards;
 * known values of small m,n,k games; forced wins in UTTT; budgets. */
#include "config.h"

#include "negamax.h"

#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "minimax.h"
#include "tap.h"
#include "ttable.h"
#include "util.h"

#define TTT_POSITIONS 4520

/* Threads of every search: 1 for all the tests, then 2 for the tests of
 * exact answers, which must not change. NOUGHTS_TEST_THREADS (such as
 * "2,4,8", as CI's ThreadSanitizer build runs it) gives the counts instead
 * of 1 and 2, and skips the tests of one thread. */
static int threads = 1;

static int empty_cells(const struct game *g, const struct pos *p)
{
	int n = 0;

	for (int r = 0; r < g->height; r++)
		for (int c = 0; c < g->width; c++)
			n += game_cell_owner(g, p, c, r) < 0;
	return n;
}

/* negamax_solve_moves() on P, whose minimax value is WANT: every legal
 * move once, with minimax's value and distance, best first, and the best
 * ones exactly those of the best minimax score (the fastest win, the
 * slowest loss). */
static bool tablebase_agrees(struct negamax *n, const struct game *g, const struct pos *p,
			     int want)
{
	struct negamax_move mv[GAME_MAX_MOVES];
	struct negamax_result r;
	struct moveset ms, seen = { { 0, 0 } };
	int count, nbest = negamax_solve_moves(n, p, NULL, NULL, NULL, &r, mv, &count), k = 0;

	game_legal(g, p, &ms);
	if (nbest < 1 || r.stopped || !r.exact || r.score != want || count != moveset_count(&ms))
		return false;
	for (int i = 0; i < count; i++) {
		int s = minimax_move(g, p, mv[i].move);
		int plies = s == 0 ? empty_cells(g, p) : NEGAMAX_WIN - abs(s);

		if (!moveset_has(&ms, mv[i].move) || moveset_has(&seen, mv[i].move))
			return false;
		moveset_add(&seen, mv[i].move);
		if (mv[i].value != proof_of_score(s) || mv[i].plies != plies || mv[i].score != s)
			return false;
		if (i > 0 && mv[i].score > mv[i - 1].score)
			return false;
		k += s == want;
	}
	return k == nbest && r.plies == mv[0].plies;
}

/* Mismatches of the engine against minimax on every tic-tac-toe position,
 * with a table of TT_BYTES (small ones force replacements). */
static void test_ttt_all(size_t tt_bytes, bool check_best_moves)
{
	struct game g;
	char err[128];
	struct posset all = { NULL, 0, 0 };
	struct negamax_params params = { 0, 0, tt_bytes, threads };
	struct negamax *n;
	int bad_score = 0, bad_exact = 0, bad_value = 0, bad_plies = 0, bad_move = 0, bad_set = 0;
	int bad_table = 0;
	int first_bad = -1;

	game_init(&g, "ttt", 0, err, sizeof(err));
	{
		struct pos start;

		game_start(&g, &start);
		enumerate(&g, &start, &all);
	}
	ok(all.count == TTT_POSITIONS, "tic-tac-toe has %d positions not over (%d found)",
	   TTT_POSITIONS, all.count);
	n = negamax_new(&g, &params);
	for (int i = 0; i < all.count; i++) {
		const struct pos *p = &all.pos[i];
		struct negamax_result r;
		int want = minimax(&g, p), plies;
		bool bad = false;

		negamax_search(n, p, NULL, NULL, NULL, &r);
		plies = want == 0 ? empty_cells(&g, p) : NEGAMAX_WIN - abs(want);
		if (r.score != want)
			bad_score++, bad = true;
		if (!r.exact || r.stopped)
			bad_exact++, bad = true;
		if (r.value != proof_of_score(want))
			bad_value++, bad = true;
		if (r.plies != plies)
			bad_plies++, bad = true;
		if (r.best == MOVE_NONE || minimax_move(&g, p, r.best) != want)
			bad_move++, bad = true;
		if (check_best_moves) {
			uint8_t best[GAME_MAX_MOVES];
			struct moveset ms;
			int count = negamax_best_moves(n, p, NULL, NULL, NULL, &r, best), k = 0;
			bool set_ok = count >= 1 && r.exact && r.value == proof_of_score(want);

			/* the moves whose win, draw or loss is the position's */
			game_legal(&g, p, &ms);
			while (set_ok && !moveset_empty(&ms)) {
				int m = moveset_pop(&ms);

				if (proof_of_score(minimax_move(&g, p, m)) != proof_of_score(want))
					continue;
				set_ok = k < count && best[k] == m;
				k++;
			}
			if (!set_ok || k != count)
				bad_set++, bad = true;
		}
		if (!tablebase_agrees(n, &g, p, want))
			bad_table++, bad = true;
		if (bad && first_bad < 0)
			first_bad = i;
	}
	if (first_bad >= 0) {
		printf("# first mismatch (table %zu bytes):\n", tt_bytes);
		game_print(&g, &all.pos[first_bad], stdout);
	}
	ok(bad_score == 0, "ttt, %zu-byte table: score = minimax on all positions (%d wrong)",
	   tt_bytes, bad_score);
	ok(bad_exact == 0, "ttt, %zu-byte table: every search is exact (%d not)", tt_bytes,
	   bad_exact);
	ok(bad_value == 0, "ttt, %zu-byte table: value (%d wrong)", tt_bytes, bad_value);
	ok(bad_plies == 0, "ttt, %zu-byte table: plies to the end (%d wrong)", tt_bytes, bad_plies);
	ok(bad_move == 0, "ttt, %zu-byte table: best move keeps the score (%d do not)", tt_bytes,
	   bad_move);
	ok(bad_table == 0, "ttt, %zu-byte table: solve_moves gives every move's value and "
	   "distance, best first, best = the fastest (%d wrong)", tt_bytes, bad_table);
	if (check_best_moves)
		ok(bad_set == 0, "ttt, %zu-byte table: best_moves = the moves keeping the value "
		   "(%d wrong)", tt_bytes, bad_set);
	negamax_free(n);
	free(all.pos);
}

/* Endgames of larger boards: random positions with few empty cells, not
 * over, against minimax. Exercises symmetry on square and oblong boards,
 * dead cells and the bounds from lines no one can complete. */
static void test_endgames(const char *name, int empties, int count, uint64_t seed)
{
	struct game g;
	char err[128];
	struct negamax_params params = { 0, 0, (size_t)1 << 20, threads };
	struct negamax *n;
	struct rng r;
	int done = 0, bad = 0, bad_move = 0, bad_set = 0;

	game_init(&g, name, 0, err, sizeof(err));
	n = negamax_new(&g, &params);
	rng_seed(&r, seed);
	while (done < count) {
		struct pos p;
		struct moveset ms;
		struct negamax_result res;
		uint8_t best[GAME_MAX_MOVES];
		int want, nbest, k = 0;
		bool set_ok = true;

		game_start(&g, &p);
		while (!game_over(&p) && g.cells - p.ply > empties) {
			game_legal(&g, &p, &ms);
			int i = (int)rng_below(&r, (uint32_t)moveset_count(&ms));

			game_play(&g, &p, moveset_nth(&ms, i));
		}
		if (game_over(&p))
			continue;
		done++;
		want = minimax(&g, &p);
		negamax_search(n, &p, NULL, NULL, NULL, &res);
		if (res.score != want || !res.exact)
			bad++;
		if (minimax_move(&g, &p, res.best) != want)
			bad_move++;
		nbest = negamax_best_moves(n, &p, NULL, NULL, NULL, &res, best);
		game_legal(&g, &p, &ms);
		while (!moveset_empty(&ms)) {
			int m = moveset_pop(&ms);

			if (proof_of_score(minimax_move(&g, &p, m)) != proof_of_score(want))
				continue;
			set_ok = set_ok && k < nbest && best[k] == m;
			k++;
		}
		if (!set_ok || k != nbest)
			bad_set++;
	}
	ok(bad == 0, "%s, %d positions with %d empty cells: exact score = minimax (%d wrong)", name,
	   count, empties, bad);
	ok(bad_move == 0, "%s: best move keeps the score (%d do not)", name, bad_move);
	ok(bad_set == 0, "%s: best_moves lists the moves keeping the value (%d wrong)", name,
	   bad_set);
	negamax_free(n);
}

static void test_solve(const char *name, int value)
{
	static const char *const names[] = { "none", "win", "loss", "draw" };
	struct game g;
	struct pos p;
	char err[128];
	struct negamax_params params = { 0, 0, (size_t)16 << 20, threads };
	struct negamax *n;
	struct negamax_result r;
	struct negamax_live live;
	uint8_t best[GAME_MAX_MOVES];
	int count;

	game_init(&g, name, 0, err, sizeof(err));
	game_start(&g, &p);
	n = negamax_new(&g, &params);
	count = negamax_best_moves(n, &p, NULL, NULL, NULL, &r, best);
	ok(count > 0 && r.exact && !r.stopped && r.value == value,
	   "solve %s: %s (got %s, exact %d, %d best moves)", name, names[value],
	   names[r.value], r.exact, count);
	negamax_live(n, &live);
	ok(live.tt_used > 0 && live.tt_used <= live.tt_size && live.tt_used <= r.nodes,
	   "solve %s: %zu of %zu table slots used, by %llu nodes", name, live.tt_used,
	   live.tt_size, (unsigned long long)r.nodes);
	negamax_free(n);
}

static int test_worth(const struct tt_entry *e)
{
	return e->draft;
}

/* Store KEY with DRAFT in T; returns the slots it says it filled. */
static int tt_put(struct ttable *t, uint64_t key, int draft)
{
	struct tt_entry e = { key, 7, 3, (uint8_t)draft, 1, 0 };

	return ttable_store(t, &e, test_worth);
}

static bool tt_has(const struct ttable *t, uint64_t key)
{
	struct tt_entry e;

	return ttable_probe(t, key, &e) && e.key == key;
}

/* A table of one bucket (two slots): what each store says it filled, and
 * what stays. The counts are what the live view's "table used" adds up. */
static void test_table_fill(void)
{
	struct ttable *t = ttable_new(1);
	int f[5];

	f[0] = tt_put(t, 11, 5); /* the deep slot, empty */
	f[1] = tt_put(t, 11, 6); /* the same key, deeper: in its place */
	f[2] = tt_put(t, 22, 2); /* shallower: the recent slot, empty */
	f[3] = tt_put(t, 33, 1); /* shallower: the recent slot, taken */
	f[4] = tt_put(t, 44, 9); /* deeper: the deep slot; 11 moves to recent */
	ok(ttable_slots(t) == 2 && f[0] == 1 && f[1] == 0 && f[2] == 1 && f[3] == 0 &&
	   f[4] == 0, "table: stores fill %d %d %d %d %d of %zu slots (want 1 0 1 0 0 of 2)",
	   f[0], f[1], f[2], f[3], f[4], ttable_slots(t));
	ok(tt_has(t, 44) && tt_has(t, 11) && !tt_has(t, 22) && !tt_has(t, 33),
	   "table: the deepest entry and the one it displaced stay");
	ttable_free(t);
}

/* negamax_solve_moves() from the start of NAME on the threads under test
 * gives what one thread gives: the root's value and distance, and every
 * move's, in the same order (on several threads, moves to the same
 * position up to symmetry copy one another's value, and threads share the
 * moves and help one another on the last ones). */
static void test_solve_shared(const char *name)
{
	struct game g;
	struct pos p;
	char err[128];
	struct negamax_params one = { 0, 0, (size_t)16 << 20, 1 }, many = one;
	struct negamax_move a[GAME_MAX_MOVES], b[GAME_MAX_MOVES];
	struct negamax_result ra, rb;
	struct negamax *n;
	int ca, cb, na, nb, differ = 0;

	game_init(&g, name, 0, err, sizeof(err));
	game_start(&g, &p);
	n = negamax_new(&g, &one);
	na = negamax_solve_moves(n, &p, NULL, NULL, NULL, &ra, a, &ca);
	negamax_free(n);
	many.threads = threads;
	n = negamax_new(&g, &many);
	nb = negamax_solve_moves(n, &p, NULL, NULL, NULL, &rb, b, &cb);
	negamax_free(n);
	for (int i = 0; i < ca && i < cb; i++)
		differ += a[i].move != b[i].move || a[i].value != b[i].value ||
			  a[i].plies != b[i].plies || a[i].score != b[i].score;
	ok(na > 0 && na == nb && ca == cb && differ == 0 && rb.exact && !rb.stopped &&
	   ra.score == rb.score && ra.value == rb.value && ra.plies == rb.plies,
	   "solve_moves %s on %d threads = on one: %d best of %d moves, %s in %d plies "
	   "(%d moves differ)", name, threads, nb, cb, game_proof_name(rb.value), rb.plies, differ);
}

/* Play TEXT from the start of G and search it with no limit. */
static void search_moves(const struct game *g, const char *text, struct pos *p,
			 struct negamax_result *r)
{
	char err[128];
	struct negamax_params params = { 0, 0, (size_t)4 << 20, threads };
	struct negamax *n = negamax_new(g, &params);

	game_start(g, p);
	if (game_play_moves(g, p, text, NULL, NULL, err, sizeof(err)) != 0)
		printf("# %s: %s\n", text, err);
	negamax_search(n, p, NULL, NULL, NULL, r);
	negamax_free(n);
}

static void test_forced(void)
{
	struct game g;
	struct pos p;
	struct negamax_result r;
	char err[128], name[8];

	game_init(&g, "ttt", 0, err, sizeof(err));
	/* X a1 b1, O a2 b2: c1 wins at once */
	search_moves(&g, "a1 a2 b1 b2", &p, &r);
	ok(r.exact && r.value == PROOF_WIN && r.plies == 1 &&
	   r.best == game_parse_move(&g, "c1", err, sizeof(err)),
	   "ttt: win in 1 found (%s, plies %d)", game_move_name(&g, r.best, name), r.plies);
	/* X a1 b2, O b1 c3: a3 threatens a2 and c1 */
	search_moves(&g, "a1 b1 b2 c3", &p, &r);
	ok(r.exact && r.value == PROOF_WIN && r.plies == 3 && minimax(&g, &p) == NEGAMAX_WIN - 3 &&
	   minimax_move(&g, &p, r.best) == NEGAMAX_WIN - 3,
	   "ttt: win in 3 against best defence (%s, plies %d)", game_move_name(&g, r.best, name),
	   r.plies);
	/* ...and after a3, O cannot stop both */
	search_moves(&g, "a1 b1 b2 c3 a3", &p, &r);
	ok(r.exact && r.value == PROOF_LOSS && r.plies == 2 && r.score == -(NEGAMAX_WIN - 2),
	   "ttt: loss in 2 (plies %d)", r.plies);
}

static void test_best_moves(void)
{
	struct game g;
	struct pos p;
	char err[128];
	struct negamax_params params = { 0, 0, (size_t)4 << 20, threads };
	struct negamax *n;
	struct negamax_result r;
	uint8_t best[GAME_MAX_MOVES];
	int count;

	game_init(&g, "ttt", 0, err, sizeof(err));
	n = negamax_new(&g, &params);
	game_start(&g, &p);
	count = negamax_best_moves(n, &p, NULL, NULL, NULL, &r, best);
	ok(count == 9 && r.value == PROOF_DRAW && best[0] == 0 && best[8] == 8,
	   "ttt start: all 9 moves keep the draw (%d)", count);
	/* X a1, O b2, X c3, O a3: only c1 keeps X's win (b1 and c2 follow) */
	game_play_moves(&g, &p, "a1 b2 c3 a3", NULL, NULL, err, sizeof(err));
	count = negamax_best_moves(n, &p, NULL, NULL, NULL, &r, best);
	{
		int wins = 0, only = -1;
		struct moveset ms;

		game_legal(&g, &p, &ms);
		while (!moveset_empty(&ms)) {
			int m = moveset_pop(&ms);

			if (minimax_move(&g, &p, m) > 0) {
				wins++;
				only = m;
			}
		}
		ok(wins == 1 && count == 1 && best[0] == only && r.value == PROOF_WIN,
		   "ttt: the single winning move is the only best move (%d found, %d wins)", count,
		   wins);
	}
	negamax_free(n);
}

/* The tablebase of a late Ultimate tic-tac-toe position where c4 wins in 3
 * and c6 only in 5: c4 alone is best, and each move's value and distance
 * is what a separate search of the position after it finds. */
static void test_uttt_table(const struct game *g)
{
	static const char *const moves =
		"i5 h4 d1 c1 g2 b6 e8 d4 a3 b8 e6 e7 f1 h1 d2 a5 a4 c2 g5 b5 f5 g6 c7 g3 c8 i6 i7 "
		"i2 i4 i1 h3 f7 i3 h8 f6 h7 e2 d6 b7 e3 d9 c9 g7 b2 e4 e1 f2 g4 c3 g9 a8 a6 a9 b9 "
		"f9 i9 i8 h5 e5 a2";
	struct negamax_params params = { 0, 0, (size_t)4 << 20, threads };
	struct negamax *n = negamax_new(g, &params);
	struct negamax_move mv[GAME_MAX_MOVES];
	struct negamax_result r;
	struct pos p;
	char err[128], name[8];
	int count, nbest, bad = 0;

	search_moves(g, moves, &p, &r);
	nbest = negamax_solve_moves(n, &p, NULL, NULL, NULL, &r, mv, &count);
	for (int i = 0; i < count; i++) {
		struct negamax *other = negamax_new(g, &params);
		struct negamax_result c;
		struct pos q = p;
		int s;

		game_play(g, &q, mv[i].move);
		if (game_over(&q)) {
			s = result_winner(q.result) < 0 ? 0 : NEGAMAX_WIN - 1;
		} else {
			negamax_search(other, &q, NULL, NULL, NULL, &c);
			s = c.score > 0 ? -c.score + 1 : c.score < 0 ? -c.score - 1 : 0;
		}
		bad += mv[i].score != s || (s != 0 && mv[i].plies != NEGAMAX_WIN - abs(s));
		negamax_free(other);
	}
	ok(nbest == 1 && mv[0].move == game_parse_move(g, "c4", err, sizeof(err)) &&
	   mv[0].plies == 3 && r.plies == 3 && bad == 0,
	   "uttt: c4 alone is best, a win in 3 (best %s of %d, plies %d); every move as a "
	   "search after it says (%d differ)", game_move_name(g, mv[0].move, name), nbest,
	   mv[0].plies, bad);
	negamax_free(n);
}

/* Under --open-won-boards the same stones in two orders: in the first X
 * completes a line in the top-right board first and owns it, in the second
 * O does (found by a search over reorderings of a random game). The table
 * must tell them apart: searching the second on a table warm from the
 * first gives what a fresh table gives. */
static void test_open_won_key(void)
{
	static const char *const first =
		"d3 b9 f9 i8 i5 g6 a7 a1 a2 b6 e8 f4 h3 d9 c8 i4 g2 c6 h9 f8 h5 e5 e4 f1 h2 e6 "
		"f7 i2 g5 b4 e3 d8 c4 i1 h1 e1 d2 b5 f6 h7 f2 i6 i7 g3 c7 g1 c1 i3";
	static const char *const second =
		"h2 e6 f7 i3 i7 g3 c8 g6 a7 a1 c1 i2 g5 b5 e4 e1 e3 d9 c7 g1 a2 b4 d3 b9 e8 e5 "
		"f6 i8 h5 f4 h3 d8 c4 i1 g2 b6 f9 h7 d2 c6 h9 f8 i5 i4 h1 f1 f2 i6";
	struct negamax_params params = { 6, 0, (size_t)4 << 20, 1 };
	struct negamax *warm, *fresh;
	struct negamax_result ra, rb, rf;
	struct game g;
	struct pos a, b;
	char err[128];
	bool same_stones = true;

	game_init(&g, "uttt", RULE_OPEN_WON, err, sizeof(err));
	game_start(&g, &a);
	game_start(&g, &b);
	if (game_play_moves(&g, &a, first, NULL, NULL, err, sizeof(err)) != 0 ||
	    game_play_moves(&g, &b, second, NULL, NULL, err, sizeof(err)) != 0)
		printf("# %s\n", err);
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < 9; k++)
			same_stones = same_stones && a.u.uttt.sub[s][k] == b.u.uttt.sub[s][k];
	ok(same_stones && a.u.uttt.next == b.u.uttt.next && a.turn == b.turn &&
	   (a.u.uttt.won[SIDE_X] & 4) && (b.u.uttt.won[SIDE_O] & 4) && a.hash != b.hash,
	   "open-won: two orders of the same stones, the top-right board X's in one and O's "
	   "in the other, different keys");
	warm = negamax_new(&g, &params);
	fresh = negamax_new(&g, &params);
	negamax_search(warm, &a, NULL, NULL, NULL, &ra);
	negamax_search(warm, &b, NULL, NULL, NULL, &rb);
	negamax_search(fresh, &b, NULL, NULL, NULL, &rf);
	ok(rb.score == rf.score && rb.best == rf.best,
	   "open-won: the second order searched after the first gives what it gives alone "
	   "(score %d, alone %d; the first %d)", rb.score, rf.score, ra.score);
	negamax_free(warm);
	negamax_free(fresh);
}

/* Ultimate tic-tac-toe: X has won the right and bottom-right boards and
 * holds h2 h3 in the top-right one; O's last move c8 sends X to the won
 * right board, so X may play anywhere, and h1 wins the game. */
static void test_uttt(void)
{
	static const char *const moves =
		"h8 f4 h3 d9 c9 i8 h6 f7 h2 e6 e9 f8 h4 e2 e4 f2 h5 f5 e1 d2 c4 g2 b4 d5 a5 c6 i7 "
		"i3 g9 c8";
	struct game g;
	struct pos p, c;
	struct negamax_result r;
	char err[128], why[96], name[8];
	int h1;

	game_init(&g, "uttt", 0, err, sizeof(err));
	search_moves(&g, moves, &p, &r);
	h1 = game_parse_move(&g, "h1", err, sizeof(err));
	c = p;
	ok(p.ply == 30 && game_illegal(&g, &p, h1, why, sizeof(why)) == NULL &&
	   (game_play(&g, &c, h1), c.result == RESULT_X),
	   "uttt: the test position is reached and h1 wins it");
	ok(r.exact && r.value == PROOF_WIN && r.plies == 1 && r.best == h1,
	   "uttt: win in 1 found (%s, plies %d)", game_move_name(&g, r.best, name), r.plies);
	/* a win in 1 is seen at any depth */
	{
		struct negamax_params params = { 3, 0, (size_t)4 << 20, threads };
		struct negamax *n = negamax_new(&g, &params);
		struct pos q = p;

		negamax_search(n, &q, NULL, NULL, NULL, &r);
		ok(r.best == h1 && r.depth >= 1, "uttt: depth-limited search also plays h1");
		negamax_free(n);
	}
	test_uttt_table(&g);
}

struct progress_log {
	int calls, last_depth;
	bool increasing;
};

static void log_progress(const struct negamax_result *r, void *arg)
{
	struct progress_log *log = arg;

	log->increasing = log->increasing && r->depth > log->last_depth;
	log->last_depth = r->depth;
	log->calls++;
}

static void test_budgets(void)
{
	struct game g;
	struct pos p;
	char err[128];
	struct negamax_params params = { 2, 0, (size_t)4 << 20, threads };
	struct negamax *n;
	struct negamax_result r;
	struct progress_log log = { 0, 0, true };
	struct moveset ms;
	atomic_int stop = 1;
	uint8_t best[GAME_MAX_MOVES];

	game_init(&g, "7,7,5", 0, err, sizeof(err));
	game_start(&g, &p);
	game_play_moves(&g, &p, "d4 c3", NULL, NULL, err, sizeof(err));
	game_legal(&g, &p, &ms);
	n = negamax_new(&g, &params);
	negamax_search(n, &p, NULL, log_progress, &log, &r);
	ok(!r.exact && r.value == PROOF_NONE && r.depth == 2 && !r.stopped && r.best != MOVE_NONE &&
	   moveset_has(&ms, r.best) && !negamax_is_mate(r.score),
	   "7,7,5 at depth 2: not exact, a legal move (depth %d)", r.depth);
	ok(log.calls == 2 && log.increasing, "progress after each depth (%d calls)", log.calls);
	negamax_search(n, &p, &stop, NULL, NULL, &r);
	ok(r.stopped && r.best != MOVE_NONE && moveset_has(&ms, r.best) && !r.exact,
	   "stopped before starting: still a legal move");
	ok(negamax_best_moves(n, &p, &stop, NULL, NULL, &r, best) == -1 && r.stopped,
	   "best_moves stopped: -1");
	negamax_free(n);

	/* a clock budget on a board far too big to solve */
	params.depth = 0;
	params.time_ms = 50;
	game_init(&g, "uttt", 0, err, sizeof(err));
	game_start(&g, &p);
	game_legal(&g, &p, &ms);
	n = negamax_new(&g, &params);
	negamax_search(n, &p, NULL, NULL, NULL, &r);
	ok(r.stopped && !r.exact && r.depth >= 1 && moveset_has(&ms, r.best),
	   "uttt with 50 ms: stopped at depth %d with a legal move", r.depth);
	negamax_free(n);
}

/* The tests of exact answers again on several threads. */
static void test_threads(const char *list)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ",")) {
		threads = atoi(tok);
		if (threads < 1 || threads > NEGAMAX_MAX_THREADS) {
			printf("Bail out! NOUGHTS_TEST_THREADS: '%s' is not from 1 to %d\n", tok,
			       NEGAMAX_MAX_THREADS);
			exit(1);
		}
		printf("# %d threads\n", threads);
		test_ttt_all((size_t)4 << 20, true);
		test_ttt_all(1024, false);
		test_endgames("4,4,3", 9, 40, 1);
		test_endgames("5,5,4", 8, 30, 4);
		test_best_moves();
		test_solve("4,4,3", PROOF_WIN);
		test_solve("4,4,4", PROOF_DRAW);
		test_solve_shared("4,4,3");
		test_solve_shared("4,4,4");
		test_solve_shared("5,4,4");
	}
	threads = 1;
}

int main(void)
{
	const char *env = getenv("NOUGHTS_TEST_THREADS");

	if (env != NULL && env[0] != '\0') {
		test_threads(env);
		return tap_done();
	}
	test_ttt_all((size_t)4 << 20, true);
	test_ttt_all(1024, false);
	test_endgames("4,4,3", 9, 40, 1);
	test_endgames("4,4,4", 9, 40, 2);
	test_endgames("5,4,4", 9, 40, 3);
	test_endgames("5,5,4", 8, 30, 4);
	test_forced();
	test_table_fill();
	test_best_moves();
	test_solve("ttt", PROOF_DRAW);
	test_solve("4,4,3", PROOF_WIN);
	test_solve("4,4,4", PROOF_DRAW);
	test_solve("5,4,4", PROOF_DRAW);
	test_uttt();
	test_open_won_key();
	test_budgets();
	test_threads("2");
	return tap_done();
}
