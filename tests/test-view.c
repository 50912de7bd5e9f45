/* test-view.c - the game screen's layout and text, without a terminal. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "tap.h"
#include "keys.h"
#include "view.h"

static struct game ttt, uttt, c4, big;

static void init_games(void)
{
	char err[160];

	if (game_init(&ttt, "ttt", 0, err, sizeof(err)) < 0 ||
	    game_init(&uttt, "uttt", 0, err, sizeof(err)) < 0 ||
	    game_init(&c4, "7,6,4", 0, err, sizeof(err)) < 0 ||
	    game_init(&big, "8,8,5", 0, err, sizeof(err)) < 0) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
}

static void test_board_geometry(void)
{
	struct view_board b;
	int w, h, col, row, x, y, bw, bh;

	view_board_size(&ttt, VIEW_BOXED, &w, &h);
	ok(w == 16 && h == 8, "ttt boxed board with labels is 16x8 (got %dx%d)", w, h);
	view_board_size(&ttt, VIEW_COMPACT, &w, &h);
	ok(w == 12 && h == 6, "ttt compact board is 12x6 (got %dx%d)", w, h);
	view_board_size(&uttt, VIEW_BOXED, &w, &h);
	ok(w == 40 && h == 20, "uttt boxed board is 40x20 (got %dx%d)", w, h);
	view_board_size(&uttt, VIEW_COMPACT, &w, &h);
	ok(w == 28 && h == 14, "uttt compact board is 28x14 (got %dx%d)", w, h);
	view_board_size(&c4, VIEW_BOXED, &w, &h);
	ok(w == 32 && h == 14, "7,6,4 boxed board is 32x14 (got %dx%d)", w, h);

	view_board_place(&b, &ttt, VIEW_BOXED, 10, 5);
	ok(b.w == 13 && b.h == 7 && b.cell_w == 3, "ttt boxed frame 13x7, faces 3 wide");
	ok(b.col_x[0] == 12 && b.col_x[2] == 20 && b.row_y[0] == 6 && b.row_y[2] == 10,
	   "ttt boxed cell centres");
	ok(b.nvlines == 4 && b.vline_x[0] == 10 && b.vline_x[3] == 22 && !b.vheavy[0],
	   "ttt boxed vertical lines, all light");
	ok(view_cell_at(&b, 12, 6, &col, &row) && col == 0 && row == 0, "a1's centre is a1");
	ok(view_cell_at(&b, 21, 10, &col, &row) && col == 2 && row == 2, "c3's right edge is c3");
	ok(!view_cell_at(&b, 14, 6, &col, &row), "a grid line is no cell");
	ok(!view_cell_at(&b, 12, 7, &col, &row), "a horizontal line is no cell");
	ok(!view_cell_at(&b, 5, 6, &col, &row), "left of the board is no cell");

	view_board_place(&b, &uttt, VIEW_BOXED, 3, 2);
	ok(b.nvlines == 10 && b.vheavy[0] && b.vheavy[3] && !b.vheavy[4] && b.vheavy[9],
	   "uttt boxed: every third line heavy");
	ok(b.hheavy[6] && !b.hheavy[7], "uttt boxed: heavy rows too");
	view_subboard_rect(&b, 4, &x, &y, &bw, &bh);
	ok(x == 3 + 13 && y == 2 + 7 && bw == 11 && bh == 5, "uttt boxed centre board's inside");
	ok(x - 1 == b.vline_x[3] && x + bw == b.vline_x[6], "the inside lies between heavy lines");

	view_board_place(&b, &uttt, VIEW_COMPACT, 0, 0);
	ok(b.w == 25 && b.h == 13 && b.cell_w == 1, "uttt compact frame 25x13");
	ok(b.col_x[2] == 6 && b.col_x[3] == 10 && b.col_x[8] == 22, "uttt compact columns");
	ok(b.row_y[2] == 3 && b.row_y[3] == 5 && b.row_y[8] == 11, "uttt compact rows");
	ok(b.nvlines == 4 && b.vline_x[1] == 8 && b.vheavy[1], "uttt compact: lines only between boards");
	view_subboard_rect(&b, 8, &x, &y, &bw, &bh);
	ok(x == 17 && y == 9 && bw == 7 && bh == 3, "uttt compact bottom-right board's inside");
	ok(view_cell_at(&b, 10, 5, &col, &row) && col == 3 && row == 3, "compact d4");
	ok(!view_cell_at(&b, 11, 5, &col, &row), "compact: the gap is no cell");

	view_board_place(&b, &c4, VIEW_COMPACT, 0, 0);
	ok(b.w == 17 && b.h == 8 && b.nvlines == 2 && b.vline_x[1] == 16, "7,6,4 compact frame");
}

/* Every layout that fits keeps everything on the screen and apart. */
static bool layout_sane(const struct view_layout *l, char *why, size_t size)
{
	const struct view_board *b = &l->board;
	int bl = b->x - 3, bt = b->y - 1, br = b->x + b->w, bb = b->y + b->h;

	if (bl < 0 || bt < 1 || br > l->cols || bb > l->status_y)
		return fmt_buf(why, size, "board off the body"), false;
	if (l->px < 0 || l->py < 1 || l->px + l->pw > l->cols || l->py + l->ph > l->status_y)
		return fmt_buf(why, size, "panel off the body"), false;
	if (l->pw < VIEW_PANEL_MIN_W || l->ph < VIEW_PANEL_MIN_H || l->pw > VIEW_PANEL_MAX_W)
		return fmt_buf(why, size, "panel %dx%d", l->pw, l->ph), false;
	if (!l->panel_below && l->px < br)
		return fmt_buf(why, size, "panel over the board"), false;
	if (l->panel_below && l->py < bb)
		return fmt_buf(why, size, "panel over the board (below)"), false;
	if (l->keys_y + l->keys_h != l->rows || l->status_y + l->status_h != l->keys_y ||
	    l->title_y != 0 || l->keys_h < 1 || l->keys_h > 2 || l->status_h < 1 || l->status_h > 2)
		return fmt_buf(why, size, "fixed lines"), false;
	if (l->note_y >= 0 && (l->note_y != bb || (l->panel_below && l->note_y >= l->py) ||
			       l->note_y >= l->status_y))
		return fmt_buf(why, size, "the line under the board"), false;
	return true;
}

static void test_layouts(void)
{
	const struct game *games[] = { &ttt, &uttt, &c4, &big };
	struct view_layout l;
	int fits = 0, small = 0, bad = 0, unrecovered = 0;
	char why[64] = "";

	struct view_cols c;
	int bw, bh;

	ok(view_layout(&l, &ttt, 80, 24) && !l.panel_below && l.board.style == VIEW_LARGE,
	   "ttt on 80x24: large cells, panel beside them");
	view_cols(&c, l.pw);
	ok(l.px > l.board.x + l.board.w && c.uct_x >= 0,
	   "the panel is right of the board and keeps all but wins, draws and losses (%d of %d "
	   "tiers)", c.tiers, VIEW_COL_TIERS);
	ok(l.board.y - 1 == l.py, "the board's top is level with the panel's");
	ok(view_layout(&l, &ttt, 120, 40) && l.board.style == VIEW_HUGE,
	   "ttt on 120x40: the board grows to the huge cells");

	ok(view_layout(&l, &uttt, 80, 24) && !l.panel_below && l.board.style == VIEW_COMPACT,
	   "uttt on 80x24: compact, beside (the boxed board would leave 36 columns)");
	view_cols(&c, l.pw);
	ok(l.pw == 48 && c.uct_x >= 0 && c.wins_x < 0, "uttt on 80x24: a 48-wide panel, UCT kept");
	ok(l.status_h == 2 && l.keys_h == 2, "and two lines each for the status and the keys");
	ok(view_layout(&l, &uttt, 100, 30) && !l.panel_below && l.board.style == VIEW_BOXED,
	   "uttt on 100x30: boxed, beside");
	ok(view_layout(&l, &uttt, 80, 40) && l.panel_below && l.board.style == VIEW_BOXED &&
		   l.pw == VIEW_PANEL_MAX_W,
	   "uttt on 80x40: boxed, the panel below with every column");

	ok(view_layout(&l, &uttt, 60, 40) && l.panel_below && l.board.style == VIEW_BOXED,
	   "uttt on 60x40: boxed board, panel below");
	ok(l.py == l.board.y + l.board.h + 1 && l.py + l.ph + (l.gh > 0 && l.gx == l.px ? l.gh + 1 : 0) == l.status_y,
	   "panel below: starts after the board, reaches the status line (py %d ph %d)", l.py, l.ph);

	ok(view_layout(&l, &uttt, 200, 60) && l.pw == VIEW_PANEL_MAX_W &&
		   l.board.style != VIEW_BOXED && l.board.style != VIEW_COMPACT,
	   "uttt on 200x60: bigger cells, the panel at its widest");
	view_board_size(&uttt, l.board.style, &bw, &bh);
	ok(l.board.x - 3 == (200 - (bw + 2 + VIEW_PANEL_MAX_W)) / 2,
	   "board and panel are centred together");

	ok(!view_layout(&l, &ttt, 20, 8) && l.too_small, "ttt on 20x8 is too small");
	ok(l.need_cols == 52 && l.need_rows == 12, "and needs 52x12 (got %dx%d)", l.need_cols,
	   l.need_rows);
	ok(view_layout(&l, &ttt, 52, 12), "ttt on 52x12 fits");
	ok(!view_layout(&l, &ttt, 51, 12) && !view_layout(&l, &ttt, 52, 11),
	   "one less either way does not");
	ok(!view_layout(&l, &uttt, 30, 10) && l.need_cols > 30 && l.need_rows > 10,
	   "uttt on 30x10 is too small (needs %dx%d)", l.need_cols, l.need_rows);
	{
		struct view_layout side, below;

		ok(view_layout(&side, &uttt, l.side_cols, l.side_rows) && !side.panel_below &&
			   view_layout(&below, &uttt, l.below_cols, l.below_rows) &&
			   below.panel_below,
		   "what it names for each layout works: beside %dx%d, below %dx%d", l.side_cols,
		   l.side_rows, l.below_cols, l.below_rows);
		ok(!view_layout(&side, &uttt, l.side_cols - 1, l.side_rows) &&
			   !view_layout(&below, &uttt, l.below_cols, l.below_rows - 1),
		   "and one less does not");
	}

	for (size_t gi = 0; gi < ARRAY_SIZE(games); gi++)
		for (int cols = 10; cols <= 220; cols += 3)
			for (int rows = 5; rows <= 70; rows += 2) {
				if (view_layout(&l, games[gi], cols, rows)) {
					fits++;
					if (!layout_sane(&l, why, sizeof(why)))
						bad++;
				} else {
					struct view_layout big_enough;

					small++;
					if (!view_layout(&big_enough, games[gi], l.need_cols, l.need_rows))
						unrecovered++;
				}
			}
	ok(bad == 0, "%d layouts keep board, panel and lines apart and on screen %s", fits, why);
	ok(unrecovered == 0, "%d too-small sizes name a size that fits (%d do not)", small,
	   unrecovered);
}

static void test_numbers(void)
{
	static const struct {
		uint64_t n;
		const char *text;
	} counts[] = {
		{ 0, "0" },	     { 999, "999" },	   { 9999, "9999" },	 { 10000, "10.0k" },
		{ 12345, "12.3k" },  { 99949, "99.9k" },   { 123456, "123k" },	 { 999949, "1.0M" },
		{ 4500000, "4.5M" }, { 45600000, "45.6M" }, { 456000000, "456M" }, { 1200000000, "1.2G" },
	};
	char buf[32];
	int wide = 0;

	for (size_t i = 0; i < ARRAY_SIZE(counts); i++) {
		view_fmt_count(counts[i].n, buf, sizeof(buf));
		ok(strcmp(buf, counts[i].text) == 0, "count %llu is %s (got %s)",
		   (unsigned long long)counts[i].n, counts[i].text, buf);
	}
	for (uint64_t n = 1; n < UINT64_MAX / 3; n = n * 3 + 1)
		if (strlen(view_fmt_count(n, buf, sizeof(buf))) > 5)
			wide++;
	ok(wide == 0, "counts never take more than 5 characters");

	ok(strcmp(view_fmt_bytes(512, buf, sizeof(buf)), "512 B") == 0, "512 bytes: %s", buf);
	ok(strcmp(view_fmt_bytes(1536, buf, sizeof(buf)), "1.5 KiB") == 0, "1536 bytes: %s", buf);
	ok(strcmp(view_fmt_bytes((size_t)512 << 20, buf, sizeof(buf)), "512 MiB") == 0,
	   "512 MiB: %s", buf);
	ok(strcmp(view_fmt_bytes((size_t)3 << 30, buf, sizeof(buf)), "3.0 GiB") == 0, "3 GiB: %s",
	   buf);

	ok(strcmp(view_fmt_seconds(0.27, buf, sizeof(buf)), "0.27 s") == 0, "0.27 s: %s", buf);
	ok(strcmp(view_fmt_seconds(12.34, buf, sizeof(buf)), "12.3 s") == 0, "12.3 s: %s", buf);
	ok(strcmp(view_fmt_seconds(125, buf, sizeof(buf)), "2:05") == 0, "125 s: %s", buf);
	ok(strcmp(view_fmt_seconds(3725, buf, sizeof(buf)), "1:02:05") == 0, "3725 s: %s", buf);

	ok(strcmp(view_fmt_proof(PROOF_WIN, 3, buf, sizeof(buf)), "win in 3") == 0, "win in 3");
	ok(strcmp(view_fmt_proof(PROOF_LOSS, 4, buf, sizeof(buf)), "loss in 4") == 0, "loss in 4");
	ok(strcmp(view_fmt_proof(PROOF_DRAW, 9, buf, sizeof(buf)), "draw") == 0, "draw");
	ok(strcmp(view_fmt_proof(PROOF_NONE, 0, buf, sizeof(buf)), "") == 0, "unproven: empty");

	ok(strcmp(view_share_text(45, 100, 3, buf, sizeof(buf)), "45%") == 0, "boxed share 45%%");
	ok(strcmp(view_share_text(3, 100, 3, buf, sizeof(buf)), " 3%") == 0, "boxed share 3%%");
	ok(strcmp(view_share_text(100, 100, 3, buf, sizeof(buf)), "100") == 0, "boxed share 100");
	ok(strcmp(view_share_text(45, 100, 1, buf, sizeof(buf)), "4") == 0, "compact share 4");
	ok(strcmp(view_share_text(97, 100, 1, buf, sizeof(buf)), "#") == 0, "compact share #");
}

/* The column X of C (which must be shown) is inside the row and after LAST. */
static bool col_ok(int x, int w, int width, int *last)
{
	if (x < 0)
		return true;
	if (x <= *last || x + w > width)
		return false;
	*last = x + w - 1;
	return true;
}

static void test_columns(void)
{
	static const int widths[] = { 78, 64, 60, 53, 52, 48, 40, 36, 30, 26, 17 };
	struct view_cols c;
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(widths); i++) {
		int w = widths[i], last = -1;
		bool good;

		view_cols_net(&c, w, (unsigned)i % 4); /* none, net, mm, both */
		good = col_ok(c.move_x, 4, w, &last) && col_ok(c.visits_x, 6, w, &last) &&
		       col_ok(c.share_x, 5, w, &last) &&
		       (c.bar_x < 0 || col_ok(c.bar_x, c.bar_w, w, &last)) &&
		       col_ok(c.rate_x, 5, w, &last) && col_ok(c.net_x, 5, w, &last) &&
		       col_ok(c.proof_x, 7, w, &last) && col_ok(c.mm_x, 5, w, &last) &&
		       col_ok(c.uct_x, 5, w, &last) && col_ok(c.wins_x, 5, w, &last) &&
		       col_ok(c.draws_x, 5, w, &last) && col_ok(c.losses_x, 5, w, &last);
		ok(good, "columns of a %d-wide panel are in order and inside", w);
	}
	view_cols(&c, 78);
	ok(c.wins_x >= 0 && c.uct_x >= 0 && c.bar_w == 20 && c.tiers == VIEW_COL_TIERS,
	   "78 wide: everything, a 20-wide bar");
	view_cols(&c, view_cols_width(VIEW_COL_TIERS));
	ok(c.wins_x >= 0 && c.losses_x >= 0 && c.bar_w == 5,
	   "%d wide, just enough: everything, the narrowest bar", c.width);
	view_cols(&c, view_cols_width(VIEW_COL_TIERS) - 1);
	ok(c.wins_x < 0 && c.draws_x < 0 && c.losses_x < 0 && c.uct_x >= 0,
	   "a character less: wins, draws and losses go together");
	view_cols(&c, 40);
	ok(c.wins_x < 0 && c.uct_x < 0 && c.bar_w >= 5 && c.proof_x >= 0 && c.share_x >= 0,
	   "40 wide: no UCT, a bar");
	view_cols(&c, 30);
	ok(c.bar_x < 0 && c.proof_x < 0 && c.share_x >= 0 && c.rate_x >= 0,
	   "30 wide: no bar or proof, the share and win rate kept");
	view_cols(&c, 17);
	ok(c.share_x < 0 && c.rate_x >= 0 && c.visits_x >= 0, "17 wide: move, visits, win rate");
	for (int t = 1; t < VIEW_COL_TIERS; t++)
		ok(view_cols_width(t) <= view_cols_width(t + 1), "tier %d needs no more than tier %d",
		   t, t + 1);

	ok(view_bar_eighths(0, 100, 20) == 0, "no visits, no bar");
	ok(view_bar_eighths(50, 100, 20) == 80, "half the visits, half the bar (80 eighths)");
	ok(view_bar_eighths(100, 100, 20) == 160, "all visits, the whole bar");
	ok(view_bar_eighths(1, 100000, 20) == 0, "a tiny share: no bar (no minimum)");
	ok(view_bar_eighths(9, 1000, 20) == 1, "0.9%% of 20 characters: one eighth");
	ok(view_bar_eighths(5, 0, 20) == 0, "no total, no bar");
	ok(view_bar_eighths(5, 10, 0) == 0, "no room, no bar");
	ok(strcmp(view_bar_text(19, true, buf, sizeof(buf)), "\u2588\u2588\u258d") == 0,
	   "19 eighths: two blocks and three eighths");
	ok(strcmp(view_bar_text(16, true, buf, sizeof(buf)), "\u2588\u2588") == 0,
	   "16 eighths: two blocks");
	ok(strcmp(view_bar_text(1, true, buf, sizeof(buf)), "\u258f") == 0, "1 eighth");
	ok(strcmp(view_bar_text(20, false, buf, sizeof(buf)), "##+") == 0,
	   "ASCII: 20 eighths '##+'");
	ok(strcmp(view_bar_text(19, false, buf, sizeof(buf)), "##") == 0, "ASCII: 19 eighths '##'");
	ok(strcmp(view_fmt_share(9, 10000, buf, sizeof(buf)), "0.09%") == 0, "share 0.09%%");
	ok(strcmp(view_fmt_share(453, 1000, buf, sizeof(buf)), "45.3%") == 0, "share 45.3%%");
	ok(strcmp(view_fmt_share(1000, 1000, buf, sizeof(buf)), "100%") == 0, "share 100%%");
}

static void test_sort(void)
{
	struct mcts_child k[6] = {
		{ .move = 0, .visits = 900 },
		{ .move = 1, .visits = 800, .proven = PROOF_LOSS, .proven_plies = 2 },
		{ .move = 2, .visits = 700, .proven = PROOF_DRAW },
		{ .move = 3, .visits = 600, .proven = PROOF_WIN, .proven_plies = 5 },
		{ .move = 4, .visits = 500, .proven = PROOF_LOSS, .proven_plies = 6 },
		{ .move = 5, .visits = 1, .proven = PROOF_WIN, .proven_plies = 1 },
	};
	int want[6] = { 5, 3, 0, 2, 4, 1 }, good = 1;

	view_sort_children(k, 6);
	for (int i = 0; i < 6; i++)
		good &= k[i].move == want[i];
	ok(good, "rows: quickest win first, then by visits (a proven draw among them), the "
		 "quickest loss last");
}

static void test_rows(void)
{
	struct view_cols c;
	struct mcts_child ch = {
		.move = 40, .visits = 12345, .wins = 6000, .draws = 2000, .losses = 4345,
		.value = 0.567, .uct = 0.6125, .proven = PROOF_WIN, .proven_plies = 3,
	};
	struct mcts_child fresh = { .move = 0, .uct = 1.0 / 0.0 };
	char row[256], head[256];
	int hashes = 0;

	view_cols(&c, 70);
	view_child_row(&c, &uttt, &ch, 24690, false, row, sizeof(row));
	ok(strlen(row) == 70, "a row is exactly the panel's width");
	ok(strncmp(row, " e5 ", 4) == 0, "it starts with the move: '%.8s'", row);
	ok(strstr(row, " 50.0% ") != NULL, "its share: 50.0%%");
	ok(strstr(row, "12.3k") != NULL, "visits as 12.3k");
	for (int i = 0; i < c.bar_w; i++)
		hashes += row[c.bar_x + i] == '#';
	ok(hashes == c.bar_w / 2, "half the visits: half the bar (%d of %d)", hashes, c.bar_w);
	ok(strstr(row, " 6000  2000  4345") != NULL, "wins, draws, losses");
	ok(strstr(row, "56.7%") != NULL, "win rate 56.7%%");
	ok(strstr(row, "0.613") != NULL || strstr(row, "0.612") != NULL, "UCT value");
	ok(strstr(row, "win 4") != NULL, "proven: win 4 (3 plies after the move, and the move)");

	view_child_row(&c, &uttt, &ch, 24690, true, row, sizeof(row));
	ok(strncmp(row, "*e5 ", 4) == 0, "the chosen move has a star: '%.8s'", row);
	view_child_row(&c, &uttt, &fresh, 24690, false, row, sizeof(row));
	ok(strncmp(row, " a1", 3) == 0 && strchr(row, '#') == NULL, "an unvisited move: no bar");
	ok(strstr(row, "    -") != NULL && strstr(row, "inf") == NULL, "unvisited: '-' for rate and UCT");

	view_head_row(&c, head, sizeof(head));
	ok(strncmp(head, "move visits share", 17) == 0 && strstr(head, "win%") != NULL &&
	   strstr(head, "UCT") != NULL, "heading: '%s'", head);
	ok(head[c.rate_x + 4] == '%' && head[c.uct_x + 4] == 'T', "headings sit over their columns");
	hashes = 0;
	for (int w = 17; w <= 78; w++) {
		view_cols(&c, w);
		view_head_row(&c, head, sizeof(head));
		hashes += !(strstr(head, "move") && strstr(head, "visits") && strstr(head, "win%") &&
			    (c.share_x < 0 || strstr(head, "share")) &&
			    (c.proof_x < 0 || strstr(head, "proven")) &&
			    (c.uct_x < 0 || strstr(head, "UCT")) &&
			    (c.wins_x < 0 || (strstr(head, "wins") && strstr(head, "draws") &&
					       strstr(head, "loss"))));
	}
	ok(hashes == 0, "panels 17 to 78 wide: every heading shown is whole (%d are not)", hashes);
	hashes = 0;
	view_cols(&c, 70);

	ok(c.net_x < 0 && c.mm_x < 0 && strstr(head, "net") == NULL && strstr(head, " mm") == NULL,
	   "no network: no net or mm column");
	ch.net = 0.4321;
	ch.implicit = NAN;
	fresh.net = fresh.implicit = NAN;
	ok(view_extra_cols(&ch, 1) == VIEW_COL_NET && view_extra_cols(&fresh, 1) == 0,
	   "a child with a network value has one, and no implicit minimax value");
	view_cols_net(&c, 70, VIEW_COL_NET);
	view_head_row(&c, head, sizeof(head));
	view_child_row(&c, &uttt, &ch, 24690, false, row, sizeof(row));
	ok(c.net_x > c.rate_x && c.uct_x > c.net_x && strncmp(head + c.net_x, "  net", 5) == 0,
	   "with a network: a column 'net' after win%%: '%s'", head);
	ok(strncmp(row + c.net_x, "43.2%", 5) == 0 && strncmp(row + c.rate_x, "56.7%", 5) == 0,
	   "its value beside the win rate: '%s'", row);
	view_child_row(&c, &uttt, &fresh, 24690, false, row, sizeof(row));
	ok(strncmp(row + c.net_x, "    -", 5) == 0, "no value (the move ends the game): '-'");
	view_cols_net(&c, 48, VIEW_COL_NET);
	ok(c.net_x > c.rate_x && c.uct_x < 0 && c.wins_x < 0,
	   "48 wide: UCT goes before the net column");
	view_cols_net(&c, 40, VIEW_COL_NET);
	ok(c.net_x < 0 && c.rate_x >= 0 && c.bar_x >= 0,
	   "40 wide: the net column goes too, the bar kept");
	ch.implicit = 0.6789;
	ok(view_extra_cols(&ch, 1) == (VIEW_COL_NET | VIEW_COL_MM) &&
	   view_extra_cols(&fresh, 1) == 0, "a child of eval=mix's search has both values");
	view_cols_net(&c, 70, VIEW_COL_NET | VIEW_COL_MM);
	view_head_row(&c, head, sizeof(head));
	view_child_row(&c, &uttt, &ch, 24690, false, row, sizeof(row));
	ok(c.mm_x > c.proof_x && c.proof_x > c.net_x && c.uct_x > c.mm_x &&
	   strncmp(head + c.mm_x, "   mm", 5) == 0, "a column 'mm' before UCT: '%s'", head);
	ok(strncmp(row + c.mm_x, "67.9%", 5) == 0 && strncmp(row + c.net_x, "43.2%", 5) == 0,
	   "the implicit minimax value beside the network's: '%s'", row);
	view_cols_net(&c, 54, VIEW_COL_NET | VIEW_COL_MM);
	ok(c.net_x >= 0 && c.mm_x < 0 && c.uct_x < 0 && c.proof_x >= 0,
	   "54 wide: mm goes with UCT, net and the proof kept");
	ch.implicit = NAN;
	view_cols(&c, 70);

	ok(view_child_row(&c, &uttt, &ch, 1, false, row, 10)[0] == '\0',
	   "a buffer too small gives ''");
	ok(!view_rate_meaningful(VIEW_FEW_VISITS - 1) && view_rate_meaningful(VIEW_FEW_VISITS),
	   "win rates of fewer than %d visits are dimmed", VIEW_FEW_VISITS);
}

static void test_saved_rows(void)
{
	struct record_info in = {
		.iterations = 5000, .visits = 2210, .value = 0.541, .second_visits = 800,
		.second_value = 0.502, .proven = PROOF_WIN, .proven_plies = 2,
	};
	struct mcts_child kids[2];
	struct view_cols c;
	char row[256], err[160];
	int n, e5 = game_parse_move(&uttt, "e5", err, sizeof(err));

	in.second = game_parse_move(&uttt, "d4", err, sizeof(err));
	n = view_saved_children(e5, &in, kids);
	ok(n == 2 && kids[0].move == e5 && kids[0].visits == 2210 && kids[0].proven == PROOF_WIN &&
	   kids[1].move == in.second && kids[1].visits == 800 && kids[1].proven == PROOF_NONE,
	   "a saved move: the move played, then the runner-up");
	view_cols(&c, 70);
	view_saved_row(&c, &uttt, &kids[0], in.iterations, true, row, sizeof(row));
	ok(strlen(row) == 70 && strncmp(row, "*e5 ", 4) == 0 && strstr(row, " 2210 ") != NULL &&
	   strstr(row, "54.1%") != NULL && strstr(row, "win 3") != NULL,
	   "its row: move, visits, win rate, proof: '%s'", row);
	ok(strstr(row, "    -     -     - ") != NULL && strstr(row, "0.000") == NULL,
	   "wins, draws, losses and UCT, which a record does not keep, are '-'");
	view_saved_row(&c, &uttt, &kids[1], in.iterations, false, row, sizeof(row));
	ok(strncmp(row, " d4 ", 4) == 0 && strstr(row, "50.2%") != NULL, "the runner-up's row: '%s'",
	   row);
	in.second = -1;
	ok(view_saved_children(e5, &in, kids) == 1, "no runner-up saved: one row");
}

static void test_texts(void)
{
	struct player_spec s;
	struct mcts_totals t = { .iterations = 1234, .seconds = 1.25, .per_second = 987.2 };
	char buf[128], err[160];
	uint8_t moves[12] = { 40, 36, 0, 80, 44, 8, 72, 9, 10, 11, 12, 13 };

	ok(player_spec_parse("mcts:iterations=2500", &s, err, sizeof(err)) == 0, "parse a spec");
	ok(strcmp(view_progress_text(&s, &t, false, 80, buf, sizeof(buf)),
		  "1,234 of 2,500 iterations  987/s  1.25 s") == 0,
	   "iteration budget: %s", buf);
	ok(strcmp(view_progress_text(&s, &t, false, 30, buf, sizeof(buf)),
		  "1,234 of 2,500 iterations") == 0,
	   "30 wide: the parts that fit whole: %s", buf);
	ok(strcmp(view_progress_text(&s, &t, true, 80, buf, sizeof(buf)),
		  "1,234 iterations in 1.25 s  987/s") == 0,
	   "done: %s", buf);
	player_spec_parse("mcts:time=60000", &s, err, sizeof(err));
	ok(strcmp(view_progress_text(&s, &t, false, 80, buf, sizeof(buf)),
		  "1,234 iterations  987/s  1.25 s of 1:00") == 0,
	   "time budget: %s", buf);
	player_spec_parse("mcts", &s, err, sizeof(err));
	ok(strstr(view_progress_text(&s, &t, false, 80, buf, sizeof(buf)), "1,234 of ") == buf,
	   "level budget: %s", buf);
	ok(strcmp(view_progress_text(NULL, &t, false, 80, buf, sizeof(buf)),
		  "1,234 iterations  987/s  1.25 s") == 0,
	   "no budget: %s", buf);
	t.threads = 4;
	ok(strcmp(view_progress_text(NULL, &t, false, 80, buf, sizeof(buf)),
		  "1,234 iterations  987/s  1.25 s  4 threads") == 0,
	   "threads: %s", buf);
	t.threads = 1;
	ok(strstr(view_progress_text(NULL, &t, false, 80, buf, sizeof(buf)), "thread") == NULL,
	   "one thread is not mentioned: %s", buf);
	t.iterations = 0;
	t.per_second = 0;
	ok(strcmp(view_progress_text(NULL, &t, true, 80, buf, sizeof(buf)),
		  "0 iterations in 1.25 s") == 0,
	   "done without iterations: no rate: %s", buf);
	t.nodes = 1;
	t.memory_used = 64;
	t.memory_limit = 1024;
	ok(strcmp(view_tree_text(&t, 80, buf, sizeof(buf)), "1 node, 64 B of 1.0 KiB, depth 0") == 0,
	   "one node: %s", buf);
	ok(strcmp(view_tree_text(&t, 20, buf, sizeof(buf)), "1 node") == 0,
	   "20 wide: whole parts, in order: %s", buf);
	ok(strcmp(view_fmt_int(2741, buf, sizeof(buf)), "2,741") == 0 &&
		   strcmp(view_fmt_int(1234567, buf, sizeof(buf)), "1,234,567") == 0 &&
		   strcmp(view_fmt_int(999, buf, sizeof(buf)), "999") == 0,
	   "counts with separators: 2,741 1,234,567 999");

	ok(strcmp(view_game_title(&ttt, buf, sizeof(buf)), "tic-tac-toe") == 0, "title ttt");
	ok(strcmp(view_game_title(&uttt, buf, sizeof(buf)), "Ultimate tic-tac-toe") == 0,
	   "title uttt");
	ok(strcmp(view_game_title(&c4, buf, sizeof(buf)), "7,6,4: 4 in a row on 7x6") == 0,
	   "title 7,6,4: %s", buf);

	ok(strcmp(view_moves_text(&uttt, moves, 3, 40, buf, sizeof(buf)), "e5 d4 a1") == 0,
	   "moves: %s", buf);
	view_moves_text(&uttt, moves, 12, 20, buf, sizeof(buf));
	ok(strncmp(buf, "...", 3) == 0 && strlen(buf) <= 20, "too many moves: the last (%s)", buf);
	ok(strcmp(buf + strlen(buf) - 2, "e2") == 0, "ending with the latest (move id 13 is e2)");
	ok(strcmp(view_moves_text(&uttt, moves, 0, 20, buf, sizeof(buf)), "") == 0, "no moves");

	/* The game line: move numbers, the move looked at in brackets. */
	ok(strcmp(view_game_line(&uttt, moves, 3, -1, 40, buf, sizeof(buf)), "1.e5 d4 2.a1") == 0,
	   "game line: %s", buf);
	ok(strcmp(view_game_line(&uttt, moves, 3, 1, 40, buf, sizeof(buf)), "1.e5 [d4] 2.a1") == 0,
	   "looking at move 2: %s", buf);
	view_game_line(&uttt, moves, 12, -1, 24, buf, sizeof(buf));
	ok(strncmp(buf, "...", 3) == 0 && strlen(buf) <= 24 && strstr(buf, "6.") != NULL,
	   "too long: the latest, numbered (%s)", buf);
	view_game_line(&uttt, moves, 12, 1, 24, buf, sizeof(buf));
	ok(strncmp(buf, "1.e5 [d4]", 9) == 0 && strlen(buf) <= 24 &&
	   strcmp(buf + strlen(buf) - 4, " ...") == 0,
	   "looking at an early move: it stays in sight, the end is cut (%s)", buf);
	view_game_line(&uttt, moves, 12, 8, 24, buf, sizeof(buf));
	ok(strstr(buf, "[") != NULL && strlen(buf) <= 24, "and a middle one (%s)", buf);
}

/* Play the moves of TEXT from P. */
static int play(const struct game *g, struct pos *p, const char *text)
{
	char err[160];

	return game_play_moves(g, p, text, NULL, NULL, err, sizeof(err));
}

static void test_win_lines(void)
{
	struct pos p;
	int cells[VIEW_MAX_SIDE], n;
	struct game_regions r;

	game_start(&ttt, &p);
	ok(play(&ttt, &p, "a1 a2 b2 b1 c3") == 0 && p.result == RESULT_X,
	   "ttt: X wins on the diagonal");
	n = view_win_cells(&ttt, &p, cells);
	ok(n == 3 && cells[0] == 0 && cells[1] == 4 && cells[2] == 8, "the line is a1 b2 c3");

	game_start(&ttt, &p);
	play(&ttt, &p, "a1 c1 b1 b2 a2 a3");
	n = view_win_cells(&ttt, &p, cells);
	ok(p.result == RESULT_O && n == 3 && cells[0] == 2 && cells[2] == 6,
	   "anti-diagonal c1 b2 a3 for O");

	game_start(&c4, &p);
	play(&c4, &p, "a1 b1 a2 b2 a3 b3 a4");
	n = view_win_cells(&c4, &p, cells);
	ok(p.result == RESULT_X && n == 4 && cells[0] == 0 && cells[3] == 21,
	   "7,6,4: four down column a");

	game_start(&ttt, &p);
	play(&ttt, &p, "a1 b2");
	ok(view_win_cells(&ttt, &p, cells) == 0, "a game going on has no line");

	memset(&p, 0, sizeof(p));
	p.result = RESULT_O;
	p.u.uttt.won[SIDE_O] = 0124 | 01;
	game_regions(&uttt, &p, &r);
	ok(r.line == 0124, "uttt: O's line of boards is the anti-diagonal");
	ok(r.allowed == 0, "uttt: no board is allowed when the game is over");
	p.result = RESULT_DRAW;
	game_regions(&uttt, &p, &r);
	ok(r.line == 0, "a draw has no line");
	ok(view_win_cells(&uttt, &p, cells) == 0, "uttt has no cell line");
	game_regions(&ttt, &p, &r);
	ok(r.n == 0 && r.line == 0, "ttt has no regions");
}

static void test_keys(void)
{
	char buf[256];
	int unexplained = 0;

	int listed = 0;

	for (int i = 0; i < keys_count; i++) {
		if (keys_table[i].keys == NULL)
			continue;
		listed++;
		if (keys_table[i].what == NULL || keys_table[i].what[0] == '\0')
			unexplained++;
	}
	ok(listed >= 15 && unexplained == 0, "the help names %d keys, each explained", listed);

	keys_line(KEYS_HUMAN, 200, buf, sizeof(buf));
	ok(strstr(buf, "Enter play") != NULL && strstr(buf, "s step") == NULL,
	   "a human's turn: Enter plays, no step");
	ok(strcmp(buf + strlen(buf) - 14, "? help  q quit") == 0, "ends with help and quit");
	keys_line(KEYS_ENGINE | KEYS_EVE | KEYS_CAN_PAUSE, 200, buf, sizeof(buf));
	ok(strstr(buf, "s step") != NULL && strstr(buf, "a auto") != NULL &&
	   strstr(buf, "p pause") != NULL, "engine against engine: step, auto and pause");
	keys_line(KEYS_OVER | KEYS_EVE | KEYS_MOVES, 200, buf, sizeof(buf));
	ok(strstr(buf, "s step") == NULL && strstr(buf, "a auto") == NULL &&
	   strstr(buf, "p pause") == NULL && strstr(buf, "u undo") != NULL,
	   "and at its end no step, auto or pause, but undo: '%s'", buf);
	keys_line(KEYS_HUMAN, 200, buf, sizeof(buf));
	ok(strstr(buf, "u undo") == NULL && strstr(buf, "Tab") == NULL,
	   "before a move and a search: no undo, no browser");
	keys_line(KEYS_ENGINE | KEYS_EVE, 40, buf, sizeof(buf));
	ok(strlen(buf) <= 40 && strstr(buf, "q quit") != NULL, "fits 40 columns: '%s'", buf);
	keys_line(KEYS_HUMAN, 10, buf, sizeof(buf));
	ok(strlen(buf) <= 10, "fits even 10 columns");
}

/* The text a man(7) request line LINE renders to, near enough for the
 * tags of a .TP list: the arguments of a font request joined (without
 * spaces for the alternating ones such as .BR), quotes dropped, and the
 * escapes \- \e \& \(dq undone. */
static void man_render(const char *line, char *out, size_t size)
{
	bool alternating = false;
	size_t n = 0;
	int args = 0;

	if (line[0] == '.') {
		const char *name = line + 1;

		alternating = strlen(name) >= 2 && strchr("BIR", name[0]) != NULL &&
			      strchr("BIR", name[1]) != NULL;
		while (*line != '\0' && *line != ' ')
			line++;
	}
	while (*line != '\0' && *line != '\n' && n + 1 < size) {
		bool quoted;

		while (*line == ' ')
			line++;
		if (*line == '\0' || *line == '\n')
			break;
		if (args++ > 0 && !alternating)
			out[n++] = ' ';
		quoted = *line == '"';
		line += quoted;
		while (*line != '\0' && *line != '\n' && n + 1 < size &&
		       (quoted ? *line != '"' : *line != ' ')) {
			if (strncmp(line, "\\-", 2) == 0 || strncmp(line, "\\e", 2) == 0) {
				out[n++] = line[1] == '-' ? '-' : '\\';
				line += 2;
			} else if (strncmp(line, "\\&", 2) == 0) {
				line += 2;
			} else if (strncmp(line, "\\(dq", 4) == 0) {
				out[n++] = '"';
				line += 4;
			} else {
				out[n++] = *line++;
			}
		}
		line += quoted && *line == '"';
	}
	out[n] = '\0';
}

/* Does TAG ("Enter, Right, l") name every key of KEYS ("Enter, Right, l")? */
static bool tag_has_keys(const char *tag, const char *keys)
{
	while (*keys != '\0') {
		const char *end = strstr(keys, ", "), *t = tag;
		size_t len = end != NULL ? (size_t)(end - keys) : strlen(keys);
		bool found = false;

		while (!found && *t != '\0') {
			const char *tend = strstr(t, ", ");
			size_t tlen = tend != NULL ? (size_t)(tend - t) : strlen(t);

			found = tlen == len && strncmp(t, keys, len) == 0;
			t += tlen + (tend != NULL ? 2 : 0);
		}
		if (!found)
			return false;
		keys += len + (end != NULL ? 2 : 0);
	}
	return true;
}

/* Every key of the help (the key table) is a tag of the man page's KEYS. */
static void test_man_keys(void)
{
	const char *path = getenv("MANPAGE");
	char line[1024], tags[64][256];
	int ntags = 0, missing = 0, nkeys = 0;
	bool in_keys = false, tag_next = false;
	FILE *f;

	if (path == NULL || (f = fopen(path, "r")) == NULL) {
		ok(1, "# SKIP no man page (MANPAGE names man/noughts.6.in)");
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, ".SH", 3) == 0) {
			in_keys = strcmp(line, ".SH KEYS\n") == 0;
			continue;
		}
		if (!in_keys)
			continue;
		if (tag_next && ntags < 64)
			man_render(line, tags[ntags++], sizeof(tags[0]));
		tag_next = strncmp(line, ".TP", 3) == 0;
	}
	fclose(f);
	for (int i = 0; i < keys_count; i++) {
		int t;

		if (keys_table[i].keys == NULL)
			continue;
		nkeys++;
		for (t = 0; t < ntags && !tag_has_keys(tags[t], keys_table[i].keys); t++)
			;
		if (t == ntags) {
			printf("# not in the man page's KEYS: '%s'\n", keys_table[i].keys);
			missing++;
		}
	}
	ok(ntags >= nkeys, "the man page's KEYS section has %d tagged paragraphs for %d keys", ntags,
	   nkeys);
	ok(missing == 0, "every key of the help is in the man page's KEYS (%d missing)", missing);
}

/* A negamax panel's texts from made-up statistics. */
static void test_engine_rows(void)
{
	struct player_stats st;
	struct player_root_move m = { 0 };
	char buf[256];

	memset(&st, 0, sizeof(st));
	st.depth = 7;
	st.searching = 8;
	st.max_depth = 10;
	st.nodes = 1200000;
	st.seconds = 1.5;
	st.table_used = 500;
	st.table_size = 1000;
	view_eng_progress(&st, 80, buf, sizeof(buf));
	ok(strcmp(buf, "depth 7, 8 next of 10  1.2M nodes  800k/s  1.50 s") == 0,
	   "progress: depth, the one under way, the limit, nodes, rate, time: '%s'", buf);
	st.searching = 0;
	st.max_depth = 0;
	view_eng_progress(&st, 80, buf, sizeof(buf));
	ok(strncmp(buf, "depth 7  ", 9) == 0, "a finished search: its depth only: '%s'", buf);
	st.threads = 2;
	view_eng_progress(&st, 80, buf, sizeof(buf));
	ok(strcmp(buf, "depth 7  1.2M nodes  800k/s  1.50 s  2 threads") == 0,
	   "progress on two threads says so: '%s'", buf);
	st.threads = 1;
	view_eng_table(&st, buf, sizeof(buf));
	ok(strcmp(buf, "table 50% full of 1000 entries") == 0, "table fill: '%s'", buf);

	m.move = 4; /* b2 of tic-tac-toe */
	m.proof = PROOF_WIN;
	m.plies = 7;
	m.depth = 9;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "win in 7") == 0, "proven win: win in 7");
	m.proof = PROOF_DRAW;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "draw") == 0, "proven draw");
	m.upper = true;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "<= draw") == 0, "at most a draw");
	m.proof = PROOF_LOSS;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "loss") == 0, "a proven loss bound");
	m.proof = PROOF_NONE;
	m.score = -40;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "<= -40") == 0, "a bound: <= -40");
	m.upper = false;
	m.score = 120;
	ok(strcmp(view_eng_score(&m, buf, sizeof(buf)), "+120") == 0, "a heuristic score: +120");
	view_eng_row(&ttt, &m, false, 30, buf, sizeof(buf));
	ok(strlen(buf) == 30 && strncmp(buf, " b2  +120", 9) == 0 && strstr(buf, " 9") != NULL,
	   "a row: move, score, depth in 30 characters: '%s'", buf);
	view_eng_row(&ttt, &m, true, 30, buf, sizeof(buf));
	ok(strncmp(buf, "*b2  +120", 9) == 0, "the chosen move has a star: '%s'", buf);
	view_eng_head(30, buf, sizeof(buf));
	ok(strlen(buf) == 30 && strncmp(buf, "move score", 10) == 0, "its heading: '%s'", buf);
}

int main(void)
{
	init_games();
	test_board_geometry();
	test_layouts();
	test_numbers();
	test_columns();
	test_sort();
	test_rows();
	test_saved_rows();
	test_texts();
	test_win_lines();
	test_engine_rows();
	test_keys();
	test_man_keys();
	return tap_done();
}
