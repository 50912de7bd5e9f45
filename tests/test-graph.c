/* test-graph.c - the value graph without a terminal: its place on screens
 * of every size (inside the body, clear of the board and the panel), its
 * window of plies, the characters of its bars and marks; and what the
 * session gives it: values from searches, records, the game's end and the
 * screen's review, which marks the mistakes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "graph.h"
#include "keys.h"
#include "record.h"
#include "session.h"
#include "session-fixture.h"
#include "tap.h"
#include "util.h"
#include "view.h"

/* Do the rectangles X, Y, W, H overlap? */
static bool overlap(int ax, int ay, int aw, int ah, int bx, int by, int bw, int bh)
{
	return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

/* The graph on every size from 20x8 to 200x60 for several games: where
 * there is one, it is inside the body, clear of the board with its labels
 * and of the panel, which keeps its rows. */
static void test_place(void)
{
	static const char *const games[] = { "ttt", "uttt", "5,5,4", "8,8,5", "7,6,4", "4,4,4" };
	int wrong = 0, placed = 0, layouts = 0;

	for (size_t gi = 0; gi < sizeof(games) / sizeof(games[0]); gi++) {
		struct game g;
		char err[160];

		if (game_init(&g, games[gi], 0, err, sizeof(err)) < 0) {
			ok(0, "game %s: %s", games[gi], err);
			return;
		}
		for (int cols = 20; cols <= 200; cols += 3)
			for (int rows = 8; rows <= 60; rows += 2) {
				struct view_layout l;
				const struct view_board *b = &l.board;

				if (!view_layout(&l, &g, cols, rows))
					continue;
				layouts++;
				if (l.gh == 0)
					continue;
				placed++;
				if (l.gh < GRAPH_MIN_H || l.gh > GRAPH_MAX_H || l.gw < GRAPH_MIN_W ||
				    l.gx < 0 || l.gx + l.gw > cols || l.gy < 1 ||
				    l.gy + l.gh > l.status_y ||
				    overlap(l.gx, l.gy, l.gw, l.gh, b->x - 3, b->y - 1, b->w + 3,
					    b->h + 1) ||
				    overlap(l.gx, l.gy, l.gw, l.gh, l.px, l.py, l.pw, l.ph) ||
				    l.ph < VIEW_PANEL_MIN_H || b->y - 1 < 1) {
					if (wrong++ < 5)
						printf("# %s %dx%d: graph %d,%d %dx%d board %d,%d "
						       "panel %d,%d %dx%d\n",
						       games[gi], cols, rows, l.gx, l.gy, l.gw, l.gh,
						       b->x, b->y, l.px, l.py, l.pw, l.ph);
				}
			}
	}
	ok(wrong == 0 && placed > layouts / 2,
	   "the graph in %d of %d layouts, always clear of board and panel (%d wrong)", placed,
	   layouts, wrong);
}

static void test_sizes(void)
{
	struct game g;
	struct view_layout l;
	char err[160];

	game_init(&g, "ttt", 0, err, sizeof(err));
	view_layout(&l, &g, 80, 24);
	ok(l.gh >= GRAPH_MIN_H && l.gx < l.px && l.gy > l.board.y + l.board.h,
	   "80x24 tic-tac-toe: the graph under the board (%d rows)", l.gh);
	game_init(&g, "uttt", 0, err, sizeof(err));
	view_layout(&l, &g, 120, 40);
	ok(l.gh >= GRAPH_MIN_H && l.gw >= 40,
	   "120x40 Ultimate: a graph at least 40 wide, room for half a game (%dx%d)", l.gw, l.gh);
	view_layout(&l, &g, 80, 20);
	ok(l.gh == 0 || l.ph >= VIEW_PANEL_MIN_H + 3,
	   "80x20 Ultimate: no graph, or one that leaves the panel its rows");
	view_layout(&l, &g, 40, 14);
	ok(l.gh == 0, "a small terminal drops the graph");
}

static void test_columns(void)
{
	ok(graph_first(10, 20, 9) == 0 && graph_first(10, 10, 0) == 0, "all plies fit: from 0");
	ok(graph_first(82, 40, 81) == 42, "the present at the right end");
	ok(graph_first(82, 40, 0) == 0, "the start at the left end");
	{
		int f = graph_first(82, 40, 50);

		ok(f <= 50 && 50 < f + 40, "a ply in the middle is inside the window (from %d)", f);
	}
	ok(strcmp(graph_bar_cell(1.0, 2, 3, true), "#") == 0 &&
	   strcmp(graph_bar_cell(1.0, 0, 3, false), "\u2588") == 0, "a win fills every row");
	ok(strcmp(graph_bar_cell(0.0, 0, 3, false), "\u2581") == 0 &&
	   strcmp(graph_bar_cell(0.0, 1, 3, false), " ") == 0 &&
	   strcmp(graph_bar_cell(0.0, 0, 3, true), ".") == 0,
	   "a loss keeps its lowest step, unlike no value");
	ok(strcmp(graph_bar_cell(0.5, 0, 2, false), "\u2588") == 0 &&
	   strcmp(graph_bar_cell(0.5, 1, 2, false), " ") == 0, "an even game fills half");
	ok(strcmp(graph_bar_cell(0.5, 1, 3, false), "\u2584") == 0 &&
	   strcmp(graph_bar_cell(0.5, 1, 3, true), ":") == 0, "half a cell: a half block, ':'");
	{
		struct graph_point p = { true, 1, PROOF_WIN, false };

		ok(graph_mark(&p) == 'x', "a proven win for X marked x");
		p.proof = PROOF_LOSS;
		ok(graph_mark(&p) == 'o', "for O marked o");
		p.proof = PROOF_DRAW;
		ok(graph_mark(&p) == '=', "a draw marked =");
		p.mistake = true;
		ok(graph_mark(&p) == '?', "a mistake marked ? first");
		p.have = p.mistake = false;
		ok(graph_mark(&p) == ' ', "nothing known: no mark");
	}
}

static void test_game_line(void)
{
	struct game g;
	uint8_t moves[3];
	bool mistake[3] = { false, true, false };
	char err[160], buf[64];
	int n = 0;

	game_init(&g, "ttt", 0, err, sizeof(err));
	moves[n++] = (uint8_t)game_cell_move(&g, 0, 0);
	moves[n++] = (uint8_t)game_cell_move(&g, 0, 1);
	moves[n++] = (uint8_t)game_cell_move(&g, 1, 1);
	view_game_line_marked(&g, moves, mistake, n, -1, 40, buf, sizeof(buf));
	ok(strcmp(buf, "1.a1 a2? 2.b2") == 0, "the game line marks a mistake: %s", buf);
	view_game_line_marked(&g, moves, mistake, n, 1, 40, buf, sizeof(buf));
	ok(strcmp(buf, "1.a1 [a2?] 2.b2") == 0, "and the move looked at: %s", buf);
}

/* Braille: two plies a character, four steps a row. */
static void test_braille(void)
{
	struct graph_point win = { true, 1, PROOF_WIN, false }, loss = { true, 0, PROOF_LOSS, false };
	struct graph_point even = { true, 0.5, PROOF_NONE, false }, none = { false, 0, 0, false };
	struct graph_point bad = { true, 0.5, PROOF_NONE, true };
	struct game g;
	struct view_layout l;
	char buf[8], err[160];

	ok(graph_per_column(82, 40, true) == 2 && graph_per_column(82, 40, false) == 1 &&
	   graph_per_column(40, 40, true) == 1,
	   "two plies a column only where UTF-8 and one a column would not hold the game");
	ok(strcmp(graph_braille_cell(&win, &win, 0, 3, false, false, buf), "\u28ff") == 0 &&
	   strcmp(graph_braille_cell(&win, &win, 2, 3, false, false, buf), "\u28ff") == 0,
	   "two wins fill every dot of every row");
	ok(strcmp(graph_braille_cell(&loss, &loss, 0, 3, false, false, buf), "\u28c0") == 0 &&
	   strcmp(graph_braille_cell(&loss, &loss, 1, 3, false, false, buf), " ") == 0,
	   "losses keep their lowest dots (7 and 8), unlike no value");
	ok(strcmp(graph_braille_cell(&even, &none, 0, 2, false, false, buf), "\u2847") == 0 &&
	   strcmp(graph_braille_cell(&even, &none, 1, 2, false, false, buf), " ") == 0,
	   "an even game fills half the left column; a ply without a value nothing");
	ok(strcmp(graph_braille_cell(&none, &even, 0, 3, false, false, buf), "\u28b8") == 0 &&
	   strcmp(graph_braille_cell(&none, &even, 1, 3, false, false, buf), "\u28a0") == 0,
	   "half of three rows on the right: the bottom row's column, then dots 8 and 6");
	ok(strcmp(graph_braille_cell(&even, NULL, 2, 2, false, true, buf), "\u28b8") == 0 &&
	   strcmp(graph_braille_cell(&win, &even, 1, 2, false, true, buf), "\u2847") == 0,
	   "the shown ply's empty cells: a column of dots; a cell with a bar keeps it");
	ok(graph_mark2(&win, &bad) == '?' && graph_mark2(&bad, &win) == '?' &&
	   graph_mark2(&win, &loss) == 'o' && graph_mark2(&win, &even) == 'x' &&
	   graph_mark2(&none, NULL) == ' ',
	   "a braille column's mark: a mistake of either, else the later proof, else the earlier");
	game_init(&g, "uttt", 0, err, sizeof(err));
	view_layout(&l, &g, 80, 24);
	ok(l.gh > 0 && l.gw >= 20 && graph_ply_at(&l, 40, 39, 2, l.gx + 3, l.gy + 1) == 6 &&
	   graph_ply_at(&l, 40, 6, 2, l.gx + 3, l.gy + 1) == 7,
	   "a click on a braille column: its first ply, or the second when the first is shown");
}

static void test_click(void)
{
	struct game g;
	struct view_layout l;
	char err[160];

	game_init(&g, "ttt", 0, err, sizeof(err));
	view_layout(&l, &g, 80, 24);
	ok(graph_ply_at(&l, 6, 5, 1, l.gx + 3, l.gy + 1) == 3, "a click on column 3 is ply 3");
	ok(graph_ply_at(&l, 6, 5, 1, l.gx + 8, l.gy + 1) == -1, "right of the last ply: none");
	ok(graph_ply_at(&l, 6, 5, 1, l.gx + 3, l.gy) == -1, "on the caption: none");
}

/* Tick until the review has ended. */
static void review_to_end(struct session *u)
{
	int done, total;

	while (session_reviewing(u, &done, &total)) {
		session_tick(u, now_ns());
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}
}

/* The issue's example: a2 gives the draw away, and no move of X's is a
 * mistake; the graph has a value at every ply, proven on tic-tac-toe. */
static void test_review(void)
{
	struct options opt;
	struct session *u = make(&opt, "ttt", "human", "human", "a1 a2 b2 c3 c1 b1 a3");
	struct graph_point p;
	int x_mistakes = 0, proven = 0;

	session_ply_point(u, 0, &p);
	ok(!p.have, "no search, no review: no value at the start");
	session_ply_point(u, 7, &p);
	ok(p.have && p.proof == PROOF_WIN && p.value == 1, "the end: X won, proven");
	session_review_key(u);
	review_to_end(u);
	ok(strcmp(u->msg, "Reviewed 7 moves: mistakes X none, O 1 (first: move 2 a2).") == 0,
	   "the review's end says so: %s", u->msg);
	ok(session_mistake(u, 1), "a2 (move 2) is a mistake");
	for (int i = 0; i < 7; i++)
		if (i % 2 == 0)
			x_mistakes += session_mistake(u, i);
	ok(x_mistakes == 0, "no move of X's is");
	for (int i = 0; i <= 7; i++) {
		session_ply_point(u, i, &p);
		proven += p.have && p.proof != PROOF_NONE;
	}
	ok(proven == 8, "every ply has a proven value (%d of 8)", proven);
	session_ply_point(u, 1, &p);
	ok(p.proof == PROOF_DRAW && p.mistake, "before a2: a draw, a2 marked");
	session_ply_point(u, 2, &p);
	ok(p.proof == PROOF_WIN && p.value == 1, "after a2: X wins");
	/* A move taken back: the review is about the moves still played. */
	session_undo(u);
	ok(session_mistake(u, 1) && !session_mistake(u, 6), "after undo the review still holds "
	   "for the moves kept");
	session_goto_ply(u, 2);
	ok(u->view == 2, "the graph's click shows ply 2");
	session_goto_ply(u, 99);
	ok(u->view == u->nmoves, "past the end: the present");
	session_free(u);
}

/* r twice: started, then stopped with words; freeing a session with a
 * review running stops it. */
static void test_review_stop(void)
{
	struct options opt;
	struct session *u = make(&opt, "uttt", "human", "human", "e5 d4 c3 i9");
	int done, total;

	session_review_key(u);
	ok(session_reviewing(u, &done, &total) && total == 4, "r starts a review of 4 moves");
	session_review_key(u);
	ok(!session_reviewing(u, &done, &total) && strncmp(u->msg, "Review stopped at ", 18) == 0,
	   "r again stops it: %s", u->msg);
	session_review_key(u);
	session_free(u); /* joins the thread; ASan and valgrind see no leak */
	ok(1, "a session freed while its review runs");
}

/* A loaded record's saved numbers feed the graph. */
static void test_record(void)
{
	static const char text[] = "Game: ttt\nX: mcts\nO: mcts\n\n"
				   "b2 {iterations=500 visits=300 value=0.700}\n"
				   "a1 {iterations=500 visits=200 value=0.300}\n"
				   "c3 {iterations=500 visits=400 value=0.500 proven=draw plies=7}\n";
	struct record *rec = xmalloc(sizeof(*rec));
	struct options opt;
	struct session *u;
	struct graph_point p;
	char err[300] = "";

	memset(&opt, 0, sizeof(opt));
	ok(record_parse(text, sizeof(text) - 1, "test", rec, err, sizeof(err)) == 0, "the record parses%s",
	   err);
	opt.game = rec->game;
	game_start(&opt.game, &opt.start);
	opt.pos = opt.start;
	for (int i = 0; i < rec->nmoves; i++) {
		opt.moves[i] = rec->moves[i].move;
		game_play(&opt.game, &opt.pos, opt.moves[i]);
	}
	opt.nmoves = rec->nmoves;
	player_spec_parse("human", &opt.x, err, sizeof(err));
	player_spec_parse("human", &opt.o, err, sizeof(err));
	u = session_new(&opt, rec);
	session_ply_point(u, 0, &p);
	ok(p.have && p.value > 0.69 && p.value < 0.71, "ply 0: X's 0.70 from the record");
	session_ply_point(u, 1, &p);
	ok(p.have && p.value > 0.69 && p.value < 0.71, "ply 1: O's 0.30 is X's 0.70");
	session_ply_point(u, 2, &p);
	ok(p.have && p.proof == PROOF_DRAW, "ply 2: a proven draw");
	session_ply_point(u, 3, &p);
	ok(!p.have, "the present, with no search: no value");
	session_free(u);
	free(rec);
}

/* e: the selected row's line, over the position the panel is about,
 * stepped, while the search goes on. */
static void test_pv(void)
{
	struct options opt;
	struct session *u = make(&opt, "uttt", "human", "mcts:time=60000,seed=1", "e5");
	uint8_t line[GAME_MAX_PLIES];
	struct pos from, p;
	int n, legal = 0, shown;
	char why[96];

	for (int i = 0; i < 10; i++) {
		session_tick(u, now_ns());
		session_refresh(u);
	}
	n = session_pv_line(u, line, &from);
	ok(n >= 3 && line[0] == u->live.kids[0].move,
	   "the first row's line: its move, then the tree's most visited below (%d moves)", n);
	p = from;
	for (int i = 0; i < n; i++)
		if (game_illegal(&u->g, &p, line[i], why, sizeof(why)) == NULL) {
			game_play(&u->g, &p, line[i]);
			legal++;
		}
	ok(legal == n && memcmp(&from, session_present(u), sizeof(from)) == 0,
	   "its moves are legal one after another from the present");
	session_key(u, 'e');
	ok(u->pv_on && u->nmoves == 1 && !u->paused && session_thinking(u),
	   "e shows it: the position stays, the search goes on");
	session_key(u, KEY_CODE_LEFT);
	shown = session_pv_shown(u, line, &from);
	n = session_pv_line(u, line, &from);
	ok(shown == n - 1, "Left: one move less (%d of %d)", shown, n);
	session_key(u, KEY_CODE_LEFT);
	session_key(u, KEY_CODE_RIGHT);
	ok(session_pv_shown(u, line, &from) == n - 1, "Right: one more");
	for (int i = 0; i < 30; i++)
		session_key(u, KEY_CODE_LEFT);
	ok(session_pv_shown(u, line, &from) == 1, "no fewer than one");
	session_tick(u, now_ns());
	session_refresh(u);
	session_key(u, KEY_CODE_DOWN);
	session_refresh(u);
	session_pv_line(u, line, &from);
	ok(u->sel == 1 && line[0] == u->live.kids[1].move, "Down: the second row's line");
	ok(u->cur_row == u->g.height / 2, "the arrows did not move the cursor");
	session_key(u, KEY_CODE_ESC);
	ok(!u->pv_on, "Escape takes it off");
	session_free(u);

	u = make(&opt, "ttt", "human", "human", "b2");
	session_key(u, 'e');
	ok(!u->pv_on && strncmp(u->msg, "No line to show", 15) == 0, "no search: refused: %s",
	   u->msg);
	session_free(u);
}

int main(void)
{
	test_place();
	test_sizes();
	test_columns();
	test_click();
	test_braille();
	test_game_line();
	test_review();
	test_review_stop();
	test_record();
	test_pv();
	return tap_done();
}
