/* test-mcts.c - properties of the Monte Carlo Tree Search: tactics, the
 * solver, statistics, memory, tree reuse, traces and reproducibility (exact
 * answers: test-mcts-exact.c). Every
 * search uses a fixed seed and a fixed number of iterations. */
#include "config.h"

#include "mcts.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mcts-fixture.h"
#include "minimax.h"
#include "tap.h"

/* Ultimate tic-tac-toe, X to move with a free choice of board (15 legal
 * moves): e8 wins the game at once (the centre board gives X the middle
 * column of the big board), and it is the only move that does. */
static const char *const uttt_win =
	"c7 i1 h3 f9 i9 g9 a7 a1 b2 e4 e2 d6 c9 h9 d8 c5 i4 h2 f4 g1 c1 g3 a9 a8 a6 b7 "
	"d1 a3 b8 e5 d4 b1 e3 e9 d9 c6 i7 h6 f8 i6 i8 h4 f2 g4 b3 d7 c3 i5 g6 e6 f7 h5";
/* Ultimate tic-tac-toe, X to move (6 legal moves, no win): O wins at e4,
 * and every move but e4 itself lets O win at once. */
static const char *const uttt_block =
	"i6 h7 e1 e2 d5 c4 h2 e5 d6 a8 a6 c7 i2 i5 i4 g3 a9 a7 c1 h1 f1 i1 h3 f8 g5 c5 "
	"g4 c3 i7 i3 h9 e7 d2 b6 d7 c2 h6 e9 f7 g1 b2 e6 d9 b7 e3 f9 g7 b3 e8 d4 a3 c6 "
	"g8 g6 h4 f3 i8 i9 g9 f5";

/* Check the statistics of the children of the node at PATH: visits add up
 * to PARENT_VISITS - OWN, counts and values are consistent, the order is by
 * visits. Returns the number of children, -1 on a failure (reported). */
static int check_children(const struct mcts *m, const uint8_t *path, int len, int own,
			  const char *what)
{
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	uint64_t sum = 0;
	bool counts = true, values = true, order = true, legal = true;
	struct pos pos = *mcts_root(m);
	struct moveset ms;
	int n = mcts_stats(m, path, len, ch, GAME_MAX_MOVES, &t);
	uint32_t parent = t.root_visits;

	if (n < 0) {
		ok(0, "%s: path found", what);
		return -1;
	}
	if (len > 0) {
		struct mcts_child up[GAME_MAX_MOVES];
		int k = mcts_stats(m, path, len - 1, up, GAME_MAX_MOVES, NULL);

		for (int i = 0; i < k; i++)
			if (up[i].move == path[len - 1])
				parent = up[i].visits;
	}
	for (int i = 0; i < len; i++)
		game_play(&game, &pos, path[i]);
	game_legal(&game, &pos, &ms);
	for (int i = 0; i < n; i++) {
		sum += ch[i].visits;
		if (ch[i].wins + ch[i].draws + ch[i].losses != ch[i].visits)
			counts = false;
		if (!(ch[i].value >= 0 && ch[i].value <= 1) || !(ch[i].uct >= ch[i].value))
			values = false;
		if (ch[i].visits > 0 &&
		    fabs(ch[i].value - (ch[i].wins + 0.5 * ch[i].draws) / ch[i].visits) > 1e-9)
			values = false;
		if (i > 0 && ch[i].visits > ch[i - 1].visits)
			order = false;
		if (!moveset_has(&ms, ch[i].move))
			legal = false;
	}
	ok(sum + (uint64_t)own == parent, "%s: children's visits %llu + %d == %u", what,
	   (unsigned long long)sum, own, parent);
	ok(counts && values, "%s: wins + draws + losses == visits, values in [0, 1]", what);
	ok(order && legal, "%s: children legal and sorted by visits", what);
	return n;
}

static void check_paths(struct mcts *m);

static void test_basics(void)
{
	struct pos pos;
	struct mcts_params p = params(1);
	struct mcts *m;
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int best;

	ok(mcts_node_bytes() <= 24, "a node takes %zu bytes", mcts_node_bytes());
	setup("uttt", "", &pos);
	m = mcts_new(&game, &pos, &p);
	best = mcts_best_move(m);
	ok(best != MOVE_NONE && best < 81, "before any iteration the best move is a legal move");
	ok(mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t) == 0 && t.root_visits == 0 &&
		   t.iterations == 0 && t.nodes == 1,
	   "before any iteration: no children, one node");
	ok(mcts_step(m, 0) == 0, "mcts_step(m, 0) runs nothing");
	ok(mcts_step(m, 3000) == 3000, "3000 iterations run");
	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	ok(t.iterations == 3000 && t.root_visits == 3000, "iterations and root visits counted");
	ok(t.nodes == 3001 && t.memory_used >= 3001 * mcts_node_bytes() &&
		   t.memory_limit >= t.memory_used && !t.arena_full,
	   "one node per iteration: %llu nodes", (unsigned long long)t.nodes);
	ok(t.max_depth >= 2 && t.max_depth <= 81, "max depth %d", t.max_depth);
	ok(t.root_proven == PROOF_NONE, "the start is not proven");
	ok(t.seconds >= 0 && t.per_second >= 0, "time measured");
	ok(t.pv_len >= 1 && t.pv[0] == mcts_best_move(m), "the principal variation starts with the "
								 "best move");
	{
		struct pos q = pos;
		bool legal = true;
		char why[100];

		for (int i = 0; i < t.pv_len && legal; i++) {
			if (game_illegal(&game, &q, t.pv[i], why, sizeof(why)) != NULL)
				legal = false;
			else
				game_play(&game, &q, t.pv[i]);
		}
		ok(legal, "the principal variation (%d plies) is a legal line", t.pv_len);
	}
	check_children(m, NULL, 0, 0, "uttt root");
	check_paths(m);
	mcts_free(m);
}

/* Statistics of nodes below the root of M, a uttt search: by path, and the
 * line from a node. */
static void check_paths(struct mcts *m)
{
	struct mcts_child ch[GAME_MAX_MOVES];

	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	{
		uint8_t path[2] = { (uint8_t)ch[0].move, 0 };
		struct mcts_child sub[GAME_MAX_MOVES];
		int n = check_children(m, path, 1, 1, "uttt most visited child");
		int k;

		/* The child's own first visit was its expansion playout. */
		ok(n > 0, "the most visited child has children");
		mcts_stats(m, path, 1, sub, GAME_MAX_MOVES, NULL);
		path[1] = (uint8_t)sub[0].move;
		ok(mcts_stats(m, path, 2, sub, GAME_MAX_MOVES, NULL) >= 0, "a two-move path exists");
		/* A move that is not a child of the first. */
		mcts_stats(m, path, 1, sub, GAME_MAX_MOVES, NULL);
		for (k = 0; k < 81; k++) {
			bool child = false;

			for (int i = 0; i < n; i++)
				child |= sub[i].move == k;
			if (!child)
				break;
		}
		path[1] = (uint8_t)k;
		ok(mcts_stats(m, path, 2, sub, GAME_MAX_MOVES, NULL) == -1,
		   "a path through a move not in the tree gives -1");
		ok(mcts_stats(m, path, -1, sub, GAME_MAX_MOVES, NULL) == -1, "a negative length gives -1");
		ok(mcts_stats(m, path, 1, sub, 3, NULL) == 3, "at most MAX children are copied");
	}
	{
		/* The line from a node down the root's line is the rest of it. */
		struct mcts_totals root, below;
		bool same = true;

		mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &root);
		mcts_stats(m, root.pv, 1, ch, GAME_MAX_MOVES, &below);
		for (int i = 1; i < root.pv_len; i++)
			same &= below.pv_len >= i && below.pv[i - 1] == root.pv[i];
		ok(root.pv_len > 2 && same && below.iterations == root.iterations,
		   "the line below the PV's first move is the PV's rest (%d, %d plies)", root.pv_len,
		   below.pv_len);
	}
}

/* Ultimate tic-tac-toe: one winning move. */
static void tactics_uttt_win(void)
{
	struct pos pos, q;
	struct moveset w;
	int best, e8 = -1;
	bool ready;

	ready = setup("uttt", uttt_win, &pos);
	if (ready) {
		e8 = move_id("e8");
		w = winning_moves(&pos);
		q = pos;
		game_play(&game, &q, e8);
	}
	ok(ready && moveset_count(&w) == 1 && moveset_has(&w, e8) && q.result == RESULT_X &&
		   pos.u.uttt.next == -1,
	   "uttt: the win position is as intended (e8 the only winning move)");
	for (int solver = 1; solver >= 0; solver--) {
		struct mcts_params p = params(5);
		struct mcts *m;
		struct mcts_totals t;

		p.solver = solver;
		m = mcts_new(&game, &pos, &p);
		mcts_step(m, 2000);
		best = mcts_best_move(m);
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		ok(best == e8, "uttt: the one-move win is found (solver %s)", solver ? "on" : "off");
		if (solver)
			ok(t.root_proven == PROOF_WIN && t.root_proven_plies == 1,
			   "uttt: the root is proven a win in 1 (%d/%d)", t.root_proven,
			   t.root_proven_plies);
		mcts_free(m);
	}
}

/* Ultimate tic-tac-toe: every move but one loses at once. */
static void tactics_uttt_block(void)
{
	struct pos pos, q;
	int best, e4 = -1;
	bool ready = setup("uttt", uttt_block, &pos);

	{
		struct moveset legal, t, threats;
		int safe = 0, safe_move = -1;

		if (ready) {
			e4 = move_id("e4");
			game_legal(&game, &pos, &legal);
			t = legal;
			while (!moveset_empty(&t)) {
				int mv = moveset_pop(&t);

				q = pos;
				game_play(&game, &q, mv);
				if (!game_over(&q) && !can_win(&q)) {
					safe++;
					safe_move = mv;
				}
			}
			game_threats(&game, &pos, !pos.turn, &threats);
		}
		ok(ready && !can_win(&pos) && safe == 1 && safe_move == e4 && moveset_has(&threats, e4) &&
			   moveset_count(&legal) >= 5,
		   "uttt: the block position is as intended (only e4 stops O)");
	}
	for (int solver = 1; solver >= 0; solver--) {
		struct mcts_params p = params(6);
		struct mcts *m;
		struct mcts_child ch[GAME_MAX_MOVES];
		int n, lost = 0;

		p.solver = solver;
		m = mcts_new(&game, &pos, &p);
		mcts_step(m, 5000);
		best = mcts_best_move(m);
		ok(best == e4, "uttt: the one-move loss is blocked (solver %s)", solver ? "on" : "off");
		n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		for (int i = 0; i < n; i++)
			lost += ch[i].proven == PROOF_LOSS;
		if (solver)
			ok(lost == n - 1, "uttt: the %d other moves are proven lost", lost);
		mcts_free(m);
	}
}

static void test_tactics(void)
{
	struct pos pos;
	int c1;
	bool ready;

	tactics_uttt_win();
	tactics_uttt_block();
	/* Tic-tac-toe: X threatens c1 (a1 b1), O must block. */
	ready = setup("ttt", "a1 b2 b1", &pos);
	c1 = move_id("c1");
	ok(ready && pos.turn == SIDE_O && !can_win(&pos),
	   "ttt: the block position is as intended");
	for (int solver = 1; solver >= 0; solver--) {
		struct mcts_params p = params(7);
		struct mcts *m;

		p.solver = solver;
		m = mcts_new(&game, &pos, &p);
		mcts_step(m, 3000);
		ok(mcts_best_move(m) == c1, "ttt: the one-move loss is blocked (solver %s)",
		   solver ? "on" : "off");
		mcts_free(m);
	}
}

static void solver_never_lost(void);

static void test_solver(void)
{
	struct pos pos;
	struct mcts_params p = params(11);
	struct mcts *m;
	struct mcts_totals t;
	struct mcts_child ch[GAME_MAX_MOVES];
	int ran = 0, last = 0, n, best;
	bool lost_best = false;

	/* Tic-tac-toe is a draw. */
	setup("ttt", "", &pos);
	m = mcts_new(&game, &pos, &p);
	while (ran < 2000000) {
		last = mcts_step(m, 1000);
		ran += last;
		if (last < 1000)
			break;
	}
	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	ok(t.root_proven == PROOF_DRAW && t.root_proven_plies == -1,
	   "ttt: the start is proven a draw, of no kept length (%d/%d after %d iterations)", t.root_proven,
	   t.root_proven_plies, ran);
	ok(last < 1000 && mcts_step(m, 10) == 0, "ttt: a solved root stops the search");
	best = mcts_best_move(m);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	for (int i = 0; i < n; i++)
		if (ch[i].move == best)
			lost_best = ch[i].proven != PROOF_DRAW;
	ok(n == 9 && !lost_best, "ttt: the best move keeps the draw");
	mcts_free(m);

	/* X a1, O b2, X c3, O c1: X must block at a3, which makes a fork. */
	setup("ttt", "a1 b2 c3 c1", &pos);
	{
		struct moveset o;

		game_threats(&game, &pos, SIDE_O, &o);
		ok(pos.turn == SIDE_X && !can_win(&pos) && moveset_count(&o) == 1 && moveset_has(&o, move_id("a3")),
		   "ttt: the win-in-3 position is as intended");
	}
	m = mcts_new(&game, &pos, &p);
	ran = mcts_step(m, 100000);
	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	ok(t.root_proven == PROOF_WIN && t.root_proven_plies == 3,
	   "ttt: proven a win in 3 plies (%d/%d)", t.root_proven, t.root_proven_plies);
	ok(ran < 100000, "ttt: the search stopped once solved (%d iterations)", ran);
	ok(mcts_best_move(m) == move_id("a3"), "ttt: the winning move a3 is chosen");
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
	lost_best = false;
	for (int i = 0; i < n; i++) {
		if (ch[i].move == move_id("a3"))
			lost_best |= ch[i].proven != PROOF_WIN || ch[i].proven_plies != 2;
		else if (ch[i].proven != PROOF_NONE && ch[i].proven != PROOF_LOSS)
			lost_best = true;
	}
	ok(!lost_best, "ttt: a3 proven won in 2 more plies, no other move proven better");
	mcts_free(m);

	/* ... and after a3, O loses whatever it does. */
	setup("ttt", "a1 b2 c3 c1 a3", &pos);
	m = mcts_new(&game, &pos, &p);
	mcts_step(m, 100000);
	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	best = mcts_best_move(m);
	ok(t.root_proven == PROOF_LOSS && t.root_proven_plies == 2 && best != MOVE_NONE &&
		   !game_over(&pos),
	   "ttt: proven a loss in 2 plies (%d/%d), still a move to play", t.root_proven,
	   t.root_proven_plies);
	mcts_free(m);
	solver_never_lost();
}

/* A proven-lost move is never the best while another exists; and without
 * the solver nothing is proven and nothing stops. */
static void solver_never_lost(void)
{
	struct pos pos;
	struct mcts_params p = params(11);
	struct mcts *m;
	struct mcts_totals t;
	struct mcts_child ch[GAME_MAX_MOVES];
	int ran, n, best;
	bool lost_best;

	/* Look at every step of a short Ultimate tic-tac-toe search near the
	 * end. */
	setup("uttt", uttt_block, &pos);
	m = mcts_new(&game, &pos, &p);
	lost_best = false;
	for (int i = 0; i < 50; i++) {
		bool other = false;
		int pb = PROOF_NONE;

		mcts_step(m, 20);
		best = mcts_best_move(m);
		n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		for (int k = 0; k < n; k++) {
			if (ch[k].move == best)
				pb = ch[k].proven;
			else if (ch[k].proven != PROOF_LOSS)
				other = true;
		}
		if (pb == PROOF_LOSS && other)
			lost_best = true;
	}
	ok(!lost_best, "uttt: a proven-lost move is never the best move");
	mcts_free(m);

	/* Without the solver nothing is proven and nothing stops. */
	setup("ttt", "", &pos);
	p.solver = false;
	m = mcts_new(&game, &pos, &p);
	ran = mcts_step(m, 50000);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	lost_best = false;
	for (int i = 0; i < n; i++)
		lost_best |= ch[i].proven != PROOF_NONE;
	ok(ran == 50000 && t.root_proven == PROOF_NONE && !lost_best,
	   "solver off: all iterations run, nothing proven");
	check_children(m, NULL, 0, 0, "ttt root, solver off");
	mcts_free(m);
}

static void test_game_over(void)
{
	struct pos pos;
	struct mcts_params p = params(3);
	struct mcts *m;
	struct mcts_trace tr;
	struct mcts_totals t;

	setup("ttt", "a1 a2 b1 b2 c1", &pos);
	m = mcts_new(&game, &pos, &p);
	mcts_step_trace(m, &tr);
	ok(pos.result == RESULT_X && mcts_step(m, 10) == 0 && mcts_best_move(m) == MOVE_NONE &&
		   !tr.ran,
	   "a finished game: no iteration, no move");
	ok(mcts_stats(m, NULL, 0, NULL, 0, &t) == 0 && t.root_visits == 0, "a finished game: no children");
	mcts_free(m);
}

static bool same_stats(const struct mcts *a, const struct mcts *b)
{
	struct mcts_child ca[GAME_MAX_MOVES], cb[GAME_MAX_MOVES];
	struct mcts_totals ta, tb;
	int na = mcts_stats(a, NULL, 0, ca, GAME_MAX_MOVES, &ta);
	int nb = mcts_stats(b, NULL, 0, cb, GAME_MAX_MOVES, &tb);

	if (na != nb || ta.nodes != tb.nodes || ta.root_visits != tb.root_visits ||
	    ta.max_depth != tb.max_depth || ta.pv_len != tb.pv_len ||
	    memcmp(ta.pv, tb.pv, (size_t)ta.pv_len) != 0)
		return false;
	for (int i = 0; i < na; i++)
		if (ca[i].move != cb[i].move || ca[i].visits != cb[i].visits ||
		    ca[i].wins != cb[i].wins || ca[i].draws != cb[i].draws ||
		    ca[i].value != cb[i].value || ca[i].uct != cb[i].uct ||
		    ca[i].proven != cb[i].proven)
			return false;
	return true;
}

static void test_reproducible(void)
{
	struct pos pos;
	struct mcts_params p = params(42);
	struct mcts *a, *b;

	setup("uttt", "e5 e4", &pos);
	for (int rollout = ROLLOUT_RANDOM; rollout <= ROLLOUT_SMART; rollout++) {
		p.rollout = rollout;
		a = mcts_new(&game, &pos, &p);
		b = mcts_new(&game, &pos, &p);
		mcts_step(a, 4000);
		for (int i = 0; i < 40; i++)
			mcts_step(b, 100); /* the same budget in other steps */
		ok(same_stats(a, b), "same seed, same budget: identical statistics (%s rollouts)",
		   rollout == ROLLOUT_SMART ? "smart" : "random");
		mcts_advance(a, mcts_best_move(a));
		mcts_advance(b, mcts_best_move(b));
		mcts_step(a, 1000);
		mcts_step(b, 1000);
		ok(same_stats(a, b), "... and after an advance and more iterations");
		mcts_free(a);
		mcts_free(b);
	}
}

static void test_arena(void)
{
	struct pos pos;
	struct mcts_params p = params(9);
	struct mcts *m;
	struct mcts_totals t;
	struct mcts_trace tr;
	char why[100];
	int ran, best;

	setup("uttt", "", &pos);
	p.memory = 4096;
	m = mcts_new(&game, &pos, &p);
	ran = mcts_step(m, 5000);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(ran == 5000 && t.arena_full && t.root_visits == 5000,
	   "a %zu-byte arena fills up and all 5000 iterations still run", t.memory_limit);
	ok(t.memory_limit <= 4096 && t.memory_used <= t.memory_limit &&
		   t.nodes * mcts_node_bytes() == t.memory_used,
	   "memory use within the limit (%llu nodes)", (unsigned long long)t.nodes);
	check_children(m, NULL, 0, 0, "full arena");
	best = mcts_best_move(m);
	ok(best != MOVE_NONE && game_illegal(&game, &pos, best, why, sizeof(why)) == NULL,
	   "full arena: a legal best move");
	mcts_step_trace(m, &tr);
	ok(tr.ran, "full arena: a traced iteration runs");
	mcts_advance(m, best);
	ran = mcts_step(m, 2000);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(ran == 2000 && t.memory_used <= t.memory_limit, "full arena: the search goes on after an "
								"advance");
	mcts_free(m);

	/* Room for the root alone: every playout starts at the root. */
	p.memory = 1;
	m = mcts_new(&game, &pos, &p);
	ran = mcts_step(m, 300);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(ran == 300 && t.root_visits == 300 && t.nodes == 1 && t.arena_full,
	   "an arena with room for the root only still runs playouts");
	best = mcts_best_move(m);
	{
		struct moveset ms;

		game_legal(&game, &pos, &ms);
		ok(best != MOVE_NONE && moveset_has(&ms, best), "... and still names a legal move");
	}
	mcts_free(m);
}

static bool same_pos(const struct pos *a, const struct pos *b)
{
	if (a->hash != b->hash || a->turn != b->turn || a->ply != b->ply ||
	    a->result != b->result || a->last != b->last)
		return false;
	for (int r = 0; r < game.height; r++)
		for (int c = 0; c < game.width; c++)
			if (game_cell_owner(&game, a, c, r) != game_cell_owner(&game, b, c, r))
				return false;
	return true;
}

static void test_reuse(void)
{
	struct pos pos, after;
	struct mcts_params p = params(21);
	struct mcts *m;
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	uint32_t child_visits = 0;
	uint64_t nodes_before;
	int best, n;

	setup("uttt", "", &pos);
	m = mcts_new(&game, &pos, &p);
	mcts_step(m, 20000);
	best = mcts_best_move(m);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	nodes_before = t.nodes;
	for (int i = 0; i < n; i++)
		if (ch[i].move == best)
			child_visits = ch[i].visits;
	mcts_advance(m, best);
	after = pos;
	game_play(&game, &after, best);
	mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	ok(t.root_visits == child_visits && child_visits > 0,
	   "advance: the new root keeps the child's %u visits", child_visits);
	ok(same_pos(mcts_root(m), &after), "advance: the root is the old root with the move played");
	/* (one node per visit of the kept child: no playout reached the end) */
	ok(t.iterations == 0 && t.nodes < nodes_before && t.nodes == child_visits,
	   "advance: the rest of the tree is given back (%llu of %llu nodes kept)",
	   (unsigned long long)t.nodes, (unsigned long long)nodes_before);
	check_children(m, NULL, 0, 1, "after advance");
	ok(mcts_step(m, 5000) == 5000, "advance: the search goes on");
	check_children(m, NULL, 0, 1, "after advance and 5000 iterations");
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(t.root_visits == child_visits + 5000 && t.iterations == 5000,
	   "advance: iterations counted from the advance");

	/* A move never expanded: a fresh root. */
	{
		struct moveset ms;
		int fresh = -1;

		n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		game_legal(&game, mcts_root(m), &ms);
		for (int i = 0; i < n; i++)
			moveset_remove(&ms, ch[i].move);
		if (moveset_empty(&ms)) {
			/* every move expanded: take the least visited */
			fresh = ch[n - 1].move;
		} else {
			fresh = moveset_pop(&ms);
		}
		after = *mcts_root(m);
		game_play(&game, &after, fresh);
		mcts_advance(m, fresh);
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		ok(same_pos(mcts_root(m), &after) && mcts_step(m, 1000) == 1000,
		   "advance: by a rarely tried move, then search on");
	}
	mcts_free(m);

	/* Advancing through a whole game of tic-tac-toe. */
	setup("ttt", "", &pos);
	m = mcts_new(&game, &pos, &p);
	while (!game_over(mcts_root(m))) {
		mcts_step(m, 2000);
		mcts_advance(m, mcts_best_move(m));
	}
	ok(mcts_root(m)->result == RESULT_DRAW, "ttt self-play with tree reuse draws");
	mcts_free(m);
}

/* Replay a trace from the root; check legality and the smart policy. */
static bool check_trace(const struct mcts *m, const struct mcts_trace *tr, int policy,
			bool *policy_ok)
{
	struct pos pos = *mcts_root(m);
	char why[100];

	if (!tr->ran || tr->path_len < 0 || tr->rollout_len < 0 ||
	    tr->path_len + (tr->expanded >= 0) + tr->rollout_len > GAME_MAX_PLIES)
		return false;
	for (int i = 0; i < tr->path_len; i++) {
		if (game_illegal(&game, &pos, tr->path[i], why, sizeof(why)) != NULL)
			return false;
		game_play(&game, &pos, tr->path[i]);
	}
	if (tr->expanded >= 0) {
		if (game_illegal(&game, &pos, tr->expanded, why, sizeof(why)) != NULL)
			return false;
		game_play(&game, &pos, tr->expanded);
	}
	for (int i = 0; i < tr->rollout_len; i++) {
		if (game_illegal(&game, &pos, tr->rollout[i], why, sizeof(why)) != NULL)
			return false;
		if (policy == ROLLOUT_SMART) {
			struct moveset legal, mine, theirs;

			game_legal(&game, &pos, &legal);
			game_threats(&game, &pos, pos.turn, &mine);
			game_threats(&game, &pos, !pos.turn, &theirs);
			moveset_and(&mine, &legal);
			moveset_and(&theirs, &legal);
			if (!moveset_empty(&mine) ? !moveset_has(&mine, tr->rollout[i])
						  : !moveset_empty(&theirs) &&
							    !moveset_has(&theirs, tr->rollout[i]))
				*policy_ok = false;
		}
		game_play(&game, &pos, tr->rollout[i]);
	}
	return game_over(&pos) && pos.result == tr->result;
}

static void test_trace(void)
{
	static const char *const games[] = { "uttt", "4,4,3", "7,7,5" };

	for (int g = 0; g < (int)ARRAY_SIZE(games); g++)
		for (int policy = ROLLOUT_RANDOM; policy <= ROLLOUT_SMART; policy++) {
			struct pos pos;
			struct mcts_params p = params(33);
			struct mcts *m;
			struct mcts_trace tr;
			struct mcts_totals t;
			bool good = true, policy_ok = true, expanded = true;

			setup(games[g], "", &pos);
			p.rollout = policy;
			p.solver = g == 0; /* off on the m,n,k boards: 4,4,3 would be solved */
			m = mcts_new(&game, &pos, &p);
			mcts_step(m, 500);
			for (int i = 0; i < 200; i++) {
				mcts_step_trace(m, &tr);
				good &= check_trace(m, &tr, policy, &policy_ok);
				expanded &= tr.expanded >= 0;
			}
			mcts_stats(m, NULL, 0, NULL, 0, &t);
			ok(good && expanded && t.root_visits == 700 && t.iterations == 700,
			   "%s, %s rollouts: traces replay legally to their result", game.name,
			   policy == ROLLOUT_SMART ? "smart" : "random");
			if (policy == ROLLOUT_SMART)
				ok(policy_ok, "%s: traced smart playouts win or block when they can",
				   game.name);
			mcts_free(m);
		}
}

int main(void)
{
	test_basics();
	test_tactics();
	test_solver();
	test_game_over();
	test_reproducible();
	test_arena();
	test_reuse();
	test_trace();
	return tap_done();
}
