/* test-playout.c - the playouts that run inside MCTS, the games' own
 * rollout loops in mnk.c and uttt.c (game_rollout(), which mcts.c calls
 * for every leaf), and not a copy: a smart playout always takes a win in
 * one and always blocks a single threat, in tic-tac-toe, larger m,n,k
 * games and Ultimate tic-tac-toe.
 *
 * A playout only returns its result and the last position, so each test
 * position is chosen such that the last position tells what the first
 * move was: a win in one ends the game at once (one stone more, the
 * mover's, on the winning cell); where the mover has no win and the
 * opponent has one cell that wins, every other move of the mover leaves
 * the opponent that cell next turn, and a smart playout takes it, so the
 * mover owns the cell at the end exactly when it blocked first. The
 * positions and their single win or threat are found here from the rules
 * (game_play() on every move), not from the playout's own threat code.
 * The fast loops are also held, move for move, to plain ones that find
 * everything afresh each move (uttt_playout_by_rules(),
 * mnk_playout_by_rules()). In Ultimate tic-tac-toe, held to one small
 * board with the game not at stake, a smart playout takes a cell that
 * wins that board, else one that does not send the opponent to a closed
 * board: tested from positions with one board open and two cells free in
 * it, where the last position tells which of the two came first. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "minimax.h"
#include "tap.h"
#include "util.h"

#define SEEDS 64      /* playouts run from each position */
#define WANT_EACH 150 /* positions of each kind to find in the larger games */

/* The owner of the cell of MOVE in P, -1 when empty. */
static int owner(const struct game *g, const struct pos *p, int move)
{
	int col, row;

	game_move_cell(g, move, &col, &row);
	return game_cell_owner(g, p, col, row);
}

static int stones(const struct game *g, const struct pos *p)
{
	int n = 0;

	for (int r = 0; r < g->height; r++)
		for (int c = 0; c < g->width; c++)
			n += game_cell_owner(g, p, c, r) >= 0;
	return n;
}

static bool is_uttt(const struct game *g)
{
	return strcmp(g->name, "uttt") == 0;
}

/* Does SIDE win the game at once by a stone on the cell of MOVE (legal for
 * the mover of P)? For the side not to move, P is looked at as if it were
 * its turn, with the move's board as the one to play in (Ultimate
 * tic-tac-toe): what the opponent would have if the mover passed there. */
static bool wins_with(const struct game *g, const struct pos *p, int side, int move)
{
	struct pos q = *p;

	if (side != p->turn) {
		q.turn = (uint8_t)side;
		if (is_uttt(g)) /* its move ids are board * 9 + cell */
			q.u.uttt.next = (int8_t)(move / 9);
	}
	game_play(g, &q, move);
	return result_winner(q.result) == side;
}

/* The mover's legal moves that win for SIDE (see wins_with) into OUT;
 * returns their number. */
static int winning(const struct game *g, const struct pos *p, int side, struct moveset *out)
{
	struct moveset ms;

	moveset_clear(out);
	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		int m = moveset_pop(&ms);

		if (wins_with(g, p, side, m))
			moveset_add(out, m);
	}
	return moveset_count(out);
}

enum kind { NONE, WIN, BLOCK };

/* What P tests: WIN (the mover has exactly one winning move, *CELL) or
 * BLOCK (no win, exactly one cell where the opponent would win, *CELL, and
 * after every other move of the mover the opponent may play it and wins
 * with it); NONE for anything else. */
static enum kind classify(const struct game *g, const struct pos *p, int *cell)
{
	struct moveset mine, theirs, ms;

	if (game_over(p))
		return NONE;
	if (winning(g, p, p->turn, &mine) == 1) {
		*cell = moveset_pop(&mine);
		return WIN;
	}
	if (!moveset_empty(&mine) || winning(g, p, !p->turn, &theirs) != 1)
		return NONE;
	*cell = moveset_pop(&theirs);
	game_legal(g, p, &ms);
	while (!moveset_empty(&ms)) {
		int m = moveset_pop(&ms);
		struct pos q = *p;
		struct moveset next;

		if (m == *cell)
			continue;
		game_play(g, &q, m);
		if (game_over(&q))
			return NONE;
		game_legal(g, &q, &next);
		if (!moveset_has(&next, *cell) || !wins_with(g, &q, q.turn, *cell))
			return NONE;
	}
	return BLOCK;
}

/* Did the playout from P (of kind K about CELL) that ended in END do the
 * right thing? */
static bool right(const struct game *g, const struct pos *p, enum kind k, int cell,
		  const struct pos *end)
{
	if (k == WIN)
		return result_winner(end->result) == p->turn && owner(g, end, cell) == p->turn &&
		       stones(g, end) == stones(g, p) + 1;
	return owner(g, end, cell) == p->turn;
}

struct tally {
	int positions[3]; /* by kind */
	int runs[3], wrong[3];
	int free_choice[3]; /* uttt: positions where the mover may play on any board */
};

/* Run SEEDS playouts of POLICY from P, a position of kind K about CELL. */
static void run(const struct game *g, const struct pos *p, enum kind k, int cell, int policy,
		struct tally *t)
{
	t->positions[k]++;
	if (is_uttt(g) && p->u.uttt.next < 0)
		t->free_choice[k]++;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct pos end = *p;
		struct rng r;

		rng_seed(&r, seed * 1000003u + (uint64_t)t->runs[k]);
		game_rollout(g, &end, &r, policy);
		t->runs[k]++;
		t->wrong[k] += !right(g, p, k, cell, &end);
	}
}

static void report(const char *name, const char *policy, const struct tally *t)
{
	ok(t->positions[WIN] > 0 && t->wrong[WIN] == 0,
	   "%s, %s playouts: a single win in one taken in every run (%d positions, %d runs, "
	   "%d not)", name, policy, t->positions[WIN], t->runs[WIN], t->wrong[WIN]);
	ok(t->positions[BLOCK] > 0 && t->wrong[BLOCK] == 0,
	   "%s, %s playouts: a single threat blocked in every run (%d positions, %d runs, "
	   "%d not)", name, policy, t->positions[BLOCK], t->runs[BLOCK], t->wrong[BLOCK]);
}

/* Every tic-tac-toe position with a single win or a single threat. */
static void test_ttt(void)
{
	struct game g;
	struct pos start;
	struct posset all = { NULL, 0, 0 };
	struct tally smart = { { 0 }, { 0 }, { 0 }, { 0 } }, random = smart;
	char err[128];

	game_init(&g, "ttt", 0, err, sizeof(err));
	game_start(&g, &start);
	enumerate(&g, &start, &all);
	for (int i = 0; i < all.count; i++) {
		int cell;
		enum kind k = classify(&g, &all.pos[i], &cell);

		if (k == NONE)
			continue;
		run(&g, &all.pos[i], k, cell, ROLLOUT_SMART, &smart);
		run(&g, &all.pos[i], k, cell, ROLLOUT_RANDOM, &random);
	}
	report("ttt, every position", "smart", &smart);
	/* The check can fail: uniform playouts miss wins and blocks. */
	ok(random.wrong[WIN] > 0 && random.wrong[BLOCK] > 0,
	   "ttt: the same check catches uniform playouts (%d wins and %d blocks missed of %d "
	   "and %d)", random.wrong[WIN], random.wrong[BLOCK], random.runs[WIN], random.runs[BLOCK]);
	free(all.pos);
}

/* Positions of random games of NAME (with RULES) with a single win or a
 * single threat: WANT_EACH of each kind, found from SEED. */
static void test_random_games(const char *name, unsigned rules, uint64_t seed)
{
	struct game g;
	struct tally smart = { { 0 }, { 0 }, { 0 }, { 0 } }, random = smart;
	struct rng r;
	char err[128], label[64];
	int games = 0;

	if (game_init(&g, name, rules, err, sizeof(err)) != 0) {
		ok(0, "%s: %s", name, err);
		return;
	}
	rng_seed(&r, seed);
	while ((smart.positions[WIN] < WANT_EACH || smart.positions[BLOCK] < WANT_EACH) &&
	       games < 20000) {
		struct pos p;

		games++;
		game_start(&g, &p);
		while (!game_over(&p)) {
			struct moveset ms;
			int cell;
			enum kind k = classify(&g, &p, &cell);

			if (k != NONE && smart.positions[k] < WANT_EACH) {
				run(&g, &p, k, cell, ROLLOUT_SMART, &smart);
				run(&g, &p, k, cell, ROLLOUT_RANDOM, &random);
			}
			game_legal(&g, &p, &ms);
			game_play(&g, &p, moveset_nth(&ms, (int)rng_below(&r, (uint32_t)moveset_count(&ms))));
		}
	}
	snprintf(label, sizeof(label), "%s%s, %d random games", name,
		 rules & RULE_OPEN_WON ? " (open won boards)" : "", games);
	report(label, "smart", &smart);
	ok(random.wrong[WIN] > 0 && random.wrong[BLOCK] > 0,
	   "%s: the same check catches uniform playouts (%d wins and %d blocks missed)", label,
	   random.wrong[WIN], random.wrong[BLOCK]);
	/* Both a move on any board (the win or the block in another board
	 * than the last move's) and one held to a single small board. */
	if (is_uttt(&g))
		ok(smart.free_choice[WIN] > 0 && smart.free_choice[WIN] < smart.positions[WIN] &&
		   smart.free_choice[BLOCK] > 0 && smart.free_choice[BLOCK] < smart.positions[BLOCK],
		   "%s: wins and blocks both on a free choice of board and held to one small board "
		   "(free: %d of %d wins, %d of %d blocks)", label, smart.free_choice[WIN],
		   smart.positions[WIN], smart.free_choice[BLOCK], smart.positions[BLOCK]);
}

/* Ultimate tic-tac-toe's board-level choices. P has one board open, the
 * mover held to it, and two cells free in it, A and B (move ids), neither
 * winning nor saving the game (classify(): NONE). Returns the cell that a
 * smart playout must play first, or -1 when P tests nothing: BOARD_WIN,
 * the only one of the two that wins the board for the mover; or
 * OPEN_TARGET, neither winning the board, the one that sends the
 * opponent back to this board rather than to a closed one. Either way the
 * other cell is then the opponent's, so the mover owns the cell at the
 * end exactly when it played it first. */
enum { BOARD_WIN, OPEN_TARGET };
static int board_choice(const struct game *g, const struct pos *p, int *kind)
{
	int b = p->u.uttt.next, cells[2], n = 0, wins = 0, win = -1;
	unsigned taken;

	if (b < 0 || (p->u.uttt.closed | 1u << b) != 0x1ff)
		return -1;
	taken = (unsigned)(p->u.uttt.sub[0][b] | p->u.uttt.sub[1][b]);
	for (int c = 0; c < 9; c++)
		if (!(taken >> c & 1) && n++ < 2)
			cells[n - 1] = b * 9 + c;
	if (n != 2)
		return -1;
	for (int i = 0; i < 2; i++) {
		struct pos q = *p;

		if (wins_with(g, p, p->turn, cells[i]) || wins_with(g, p, !p->turn, cells[i]))
			return -1; /* the game at stake */
		game_play(g, &q, cells[i]);
		if (q.u.uttt.won[p->turn] >> b & 1) {
			wins++;
			win = cells[i];
		}
	}
	*kind = wins == 1 ? BOARD_WIN : OPEN_TARGET;
	if (wins == 1)
		return win;
	if (wins == 0 && (cells[0] % 9 == b) != (cells[1] % 9 == b))
		return cells[0] % 9 == b ? cells[0] : cells[1];
	return -1;
}

/* From positions of random games of Ultimate tic-tac-toe (with RULES,
 * from SEED): smart playouts make both board-level choices every time, and
 * the check catches uniform ones. */
static void test_uttt_board_choices(unsigned rules, uint64_t seed)
{
	struct game g;
	int found[2] = { 0, 0 }, wrong[2][2] = { { 0, 0 }, { 0, 0 } }, games = 0;
	struct rng r;
	char err[128];

	if (game_init(&g, "uttt", rules, err, sizeof(err)) != 0) {
		ok(0, "uttt: %s", err);
		return;
	}
	rng_seed(&r, seed);
	while ((found[BOARD_WIN] < WANT_EACH || found[OPEN_TARGET] < WANT_EACH) && games < 40000) {
		struct pos p;

		games++;
		game_start(&g, &p);
		while (!game_over(&p)) {
			struct moveset ms;
			int kind = BOARD_WIN, cell = board_choice(&g, &p, &kind);

			for (int policy = 0; cell >= 0 && policy < 2; policy++)
				for (uint64_t s = 1; s <= SEEDS; s++) {
					struct pos end = p;
					struct rng pr;

					rng_seed(&pr, s * 7919u + (uint64_t)found[kind]);
					game_rollout(&g, &end, &pr, policy);
					wrong[kind][policy] += owner(&g, &end, cell) != p.turn;
				}
			found[kind] += cell >= 0;
			game_legal(&g, &p, &ms);
			game_play(&g, &p, moveset_nth(&ms, (int)rng_below(&r, (uint32_t)moveset_count(&ms))));
		}
	}
	ok(found[BOARD_WIN] > 0 && wrong[BOARD_WIN][ROLLOUT_SMART] == 0,
	   "uttt%s: a smart playout held to a board takes the cell that wins it (%d positions, "
	   "%d runs not)", rules & RULE_TIEBREAK ? ", tie-break" : "", found[BOARD_WIN],
	   wrong[BOARD_WIN][ROLLOUT_SMART]);
	ok(found[OPEN_TARGET] > 0 && wrong[OPEN_TARGET][ROLLOUT_SMART] == 0,
	   "uttt%s: else it does not send the opponent to a closed board (%d positions, %d runs "
	   "not)", rules & RULE_TIEBREAK ? ", tie-break" : "", found[OPEN_TARGET],
	   wrong[OPEN_TARGET][ROLLOUT_SMART]);
	ok(wrong[BOARD_WIN][ROLLOUT_RANDOM] > 0 && wrong[OPEN_TARGET][ROLLOUT_RANDOM] > 0,
	   "uttt: the same checks catch uniform playouts (%d and %d runs of %d games' positions)",
	   wrong[BOARD_WIN][ROLLOUT_RANDOM], wrong[OPEN_TARGET][ROLLOUT_RANDOM], games);
}

typedef int playout_fn(const struct game *g, struct pos *p, struct rng *r, int policy);

/* Playouts compared: how many, how many did not end alike, and each
 * result's count. */
struct compared {
	int runs, differ, ends[4];
};

/* From every position of GAMES random games of G (from SEED), four
 * playouts, two random and two smart, by game_rollout() and by BY_RULES
 * from the same generator, into C: alike when the final position, the
 * result and the generator state are the same. */
static void compare_playouts(const struct game *g, int games, uint64_t seed, playout_fn *by_rules,
			     struct compared *c)
{
	struct rng r;

	memset(c, 0, sizeof(*c));
	rng_seed(&r, seed);
	for (int game = 0; game < games; game++) {
		struct pos p;

		game_start(g, &p);
		while (!game_over(&p)) {
			struct moveset ms;

			for (int s = 0; s < 4; s++) {
				struct pos a = p, b = p;
				struct rng ra, rb;
				int x, y, policy = s < 2 ? ROLLOUT_RANDOM : ROLLOUT_SMART;

				rng_seed(&ra, seed * 1000003u + (uint64_t)c->runs);
				rb = ra;
				x = game_rollout(g, &a, &ra, policy);
				y = by_rules(g, &b, &rb, policy);
				c->runs++;
				c->ends[x & 3]++;
				if (x != y || ra.s != rb.s || a.turn != b.turn || a.result != b.result ||
				    memcmp(&a.u, &b.u, sizeof(a.u)) != 0)
					c->differ++;
			}
			game_legal(g, &p, &ms);
			game_play(g, &p, moveset_nth(&ms, (int)rng_below(&r, (uint32_t)moveset_count(&ms))));
		}
	}
}

/* Ultimate tic-tac-toe's playouts, random and smart, loops of their own,
 * against the same playouts move by move through the rules (with RULES):
 * from positions of random games, the same final position, result and
 * generator state for every seed; with their cells drawn by tables, and
 * by pdep where the processor has it (uttt_fast_pdep()). */
static void test_uttt_fast_random(unsigned rules, uint64_t seed)
{
	struct game g;
	struct compared c;
	char err[128];

	if (game_init(&g, "uttt", rules, err, sizeof(err)) != 0) {
		ok(0, "uttt: %s", err);
		return;
	}
	for (int pdep = 0; pdep < 2; pdep++) {
		if (uttt_fast_pdep(pdep) != pdep) {
			ok(1, "# SKIP no fast pdep on this processor");
			continue;
		}
		compare_playouts(&g, 300, seed, uttt_playout_by_rules, &c);
		ok(c.differ == 0 && c.ends[RESULT_X] > 0 && c.ends[RESULT_O] > 0 &&
		   c.ends[RESULT_DRAW] > 0,
		   "uttt%s%s, %s: the fast random and smart playouts end as the rules' ones in %d "
		   "of %d runs (X %d, O %d, draws %d)", rules & RULE_TIEBREAK ? ", tie-break" : "",
		   rules & RULE_OPEN_WON ? ", open won boards" : "", pdep ? "pdep" : "tables",
		   c.runs - c.differ, c.runs, c.ends[RESULT_X], c.ends[RESULT_O],
		   c.ends[RESULT_DRAW]);
	}
	uttt_fast_pdep(1); /* (back to the processor's choice) */
}

/* m,n,k games: smart playouts keep each side's threats from move to move;
 * from every position of GAMES random games of NAME they end exactly as
 * the loop that finds them afresh every move. */
static void test_mnk_kept_threats(const char *name, int games, uint64_t seed)
{
	struct game g;
	struct compared c;
	char err[128];

	if (game_init(&g, name, 0, err, sizeof(err)) != 0) {
		ok(0, "%s: %s", name, err);
		return;
	}
	compare_playouts(&g, games, seed, mnk_playout_by_rules, &c);
	ok(c.differ == 0 && c.ends[RESULT_X] > 0 && c.ends[RESULT_O] > 0,
	   "%s: playouts, the smart ones keeping the threats, end as those that find them "
	   "every move in %d of %d runs (X %d, O %d, draws %d)", name, c.runs - c.differ, c.runs,
	   c.ends[RESULT_X], c.ends[RESULT_O], c.ends[RESULT_DRAW]);
}

int main(void)
{
	test_ttt();
	test_uttt_fast_random(0, 21);
	test_uttt_fast_random(RULE_TIEBREAK, 22);
	test_uttt_fast_random(RULE_OPEN_WON, 23);
	test_uttt_fast_random(RULE_TIEBREAK | RULE_OPEN_WON, 24);
	test_random_games("7,7,5", 0, 11);
	test_random_games("8,8,5", 0, 12);
	test_random_games("5,4,4", 0, 13);
	test_random_games("uttt", 0, 14);
	test_random_games("uttt", RULE_OPEN_WON, 15);
	test_uttt_board_choices(0, 16);
	test_uttt_board_choices(RULE_TIEBREAK, 17);
	test_mnk_kept_threats("ttt", 200, 31);
	test_mnk_kept_threats("4,4,3", 100, 32);
	test_mnk_kept_threats("7,7,5", 40, 33);
	test_mnk_kept_threats("8,8,5", 30, 34);
	test_mnk_kept_threats("6,5,4", 40, 35);
	return tap_done();
}
