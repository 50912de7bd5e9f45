/* view.h - everything about the game screen that needs no terminal: where
 * the board and the panel go for a terminal size, where each cell and grid
 * line of the board is, the text of panel rows, numbers such as 12.3k, the
 * key help, and which cells make the winning line.
 *
 * The curses code (ui.c) asks this module where things are and what they
 * say, and only decides how they look. So all of it is unit-tested without
 * a terminal (tests/test-view.c). Screen coordinates are 0-based: x is the
 * column, y the row. */
#ifndef NOUGHTS_VIEW_H
#define NOUGHTS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "mcts.h"
#include "player.h"
#include "record.h"

#define VIEW_MAX_SIDE 21 /* cells across or down, at most (MNK_MAX_SIDE) */

/* Panel sizes: narrower or shorter than the minimum and the panel cannot
 * show a candidate row; wider than the maximum and rows only get emptier. */
#define VIEW_PANEL_MIN_W 36
#define VIEW_PANEL_MIN_H 9
#define VIEW_PANEL_MAX_W 78
#define VIEW_PANEL_HEAD 5 /* panel rows above the candidate rows */

/* Fewer visits than this and a win rate is noise: it is shown dimmed. */
#define VIEW_FEW_VISITS 30
/* Win rates from this up are coloured good, to VIEW_BAD_RATE bad. */
#define VIEW_GOOD_RATE 0.6
#define VIEW_BAD_RATE 0.4

enum view_board_style {
	VIEW_BOXED,   /* every cell in a box of lines, three characters wide */
	VIEW_COMPACT, /* one character a cell, lines only around small boards */
	VIEW_LARGE,   /* boxed, cells of 7 x 3 characters */
	VIEW_HUGE,    /* boxed, cells of 11 x 5 characters */
};

/* Where the board is drawn. The frame is the outermost grid line; column
 * letters go on the row above it and row numbers in the three columns left
 * of it. */
struct view_board {
	int style;          /* enum view_board_style */
	bool regions;       /* the game has regions (small boards) */
	int region_w, region_h; /* their cells across and down */
	int cols, rows;     /* cells across and down */
	int x, y;           /* top-left corner of the frame */
	int w, h;           /* size of the frame in characters */
	int cell_w, cell_h; /* a cell's face: 3 x 1 boxed, 1 x 1 compact, 7 x 3 large */
	int col_x[VIEW_MAX_SIDE]; /* screen column of each cell's centre */
	int row_y[VIEW_MAX_SIDE]; /* screen row of each cell's centre */
	int nvlines, nhlines;
	int vline_x[VIEW_MAX_SIDE + 1]; /* screen columns of vertical grid lines */
	int hline_y[VIEW_MAX_SIDE + 1]; /* screen rows of horizontal grid lines */
	bool vheavy[VIEW_MAX_SIDE + 1]; /* the line parts small boards */
	bool hheavy[VIEW_MAX_SIDE + 1];
};

/* Width and height a board of game G takes in STYLE, labels included. */
void view_board_size(const struct game *g, int style, int *w, int *h);

/* Place a board of game G in STYLE with the frame's top-left corner at X, Y. */
void view_board_place(struct view_board *b, const struct game *g, int style, int x, int y);

/* The cell under screen position X, Y: true with *COL, *ROW set, or false
 * when X, Y is not on a cell's face (grid lines, labels, elsewhere). */
bool view_cell_at(const struct view_board *b, int x, int y, int *col, int *row);

/* A game with regions: the rectangle inside the frame of region BRD (row
 * by row), lines excluded: where a won board's big X or O goes. */
void view_subboard_rect(const struct view_board *b, int brd, int *x, int *y, int *w, int *h);

/* The whole screen for one terminal size. */
struct view_layout {
	int cols, rows;        /* the terminal */
	bool too_small;        /* nothing fits: only a message is drawn */
	int need_cols, need_rows; /* when too small: the smallest size that works */
	int side_cols, side_rows; /* and what each layout needs: panel beside */
	int below_cols, below_rows; /* panel below */
	bool panel_below;      /* the panel is under the board, not beside it */
	int title_y;           /* the top line: game and players */
	struct view_board board;
	int note_y;            /* a free line right under the board, or -1 */
	int px, py, pw, ph;    /* the panel */
	int gx, gy, gw, gh;    /* the value graph (graph.h); gh 0: none */
	int status_y, status_h; /* whose turn, the result, messages: 1 or 2 lines */
	int keys_y, keys_h;    /* the main keys: 1 or 2 lines, the last rows */
};

/* Lay out the screen of game G on a terminal of COLS x ROWS: of the board
 * sizes and panel places that fit, the one whose panel keeps its main
 * columns (view_cols), then with the biggest board, then with the most
 * columns, then with two status and key lines, the panel beside rather
 * than below. The board's top is level with the panel's. Returns false
 * (and sets too_small, need_* and what each layout needs) when nothing
 * fits. */
bool view_layout(struct view_layout *l, const struct game *g, int cols, int rows);

/* Lines of wrapped text: at most this many bytes each, the end included. */
#define VIEW_LINE 512

/* TEXT wrapped into lines of WIDTH characters at SEP (" " for prose, two
 * spaces for the key line's items): OUT gets the first MAX lines; returns
 * how many lines the whole text needs (more than MAX: the rest is not in
 * OUT). A word longer than a line is cut. */
int view_wrap(const char *text, const char *sep, int width, char (*out)[VIEW_LINE], int max);
/* Prose TEXT fitted into MAX lines of WIDTH, never cut mid-word: wrapped;
 * when it needs more lines, its last sentences are left out whole; when
 * even its first does not fit, the words that fit and "...". Returns the
 * lines used. */
int view_fit_text(const char *text, int width, char (*out)[VIEW_LINE], int max);

/* Numbers for narrow columns: 999, 9999, 12.3k, 123k, 4.5M, 45.6M, 1.2G:
 * at most 5 characters into BUF (of SIZE bytes); returns BUF. */
char *view_fmt_count(uint64_t n, char *buf, size_t size);
/* Bytes: "512 B", "12.3 KiB", "1.5 MiB", "2.0 GiB". */
char *view_fmt_bytes(size_t n, char *buf, size_t size);
/* Seconds: "0.27 s", "12.3 s", "2:05", "1:02:05". */
char *view_fmt_seconds(double s, char *buf, size_t size);
/* A proven value from the mover's view (enum proof) and its length in
 * plies: "win in 3", "loss in 4", "draw", or "" for PROOF_NONE; a
 * negative PLIES (distance not settled yet) gives "win" or "loss". */
char *view_fmt_proof(int proof, int plies, char *buf, size_t size);

/* Columns of the candidate rows for a panel WIDTH characters wide; a
 * column not shown has x = -1. Columns come in tiers of importance: the
 * move, visits and win rate; the share of visits; the proof; the share as
 * a bar; UCT; wins, draws and losses. A narrow panel drops whole tiers from
 * the last, so no heading or number is cut; the bar takes the room left
 * over (5 to 20 characters). */
struct view_cols {
	int width, tiers; /* tiers: how many are shown (VIEW_COL_TIERS: all) */
	int move_x, visits_x, share_x, bar_x, bar_w, wins_x, draws_x, losses_x;
	int rate_x, net_x, mm_x, uct_x, proof_x;
};
#define VIEW_COL_TIERS 7
#define VIEW_COL_GOOD 4 /* tiers up to the bar: what the layout keeps first */
void view_cols(struct view_cols *c, int width);

/* The columns a search may add to view_cols()' (view_cols_net()). */
enum {
	VIEW_COL_NET = 1, /* "net": the network's value (mcts_child.net) */
	VIEW_COL_MM = 2,  /* "mm": the implicit minimax value (mcts_child.implicit) */
};

/* As view_cols(), with the columns of EXTRA (see view_extra_cols): net
 * after the win rate, a tier of its own dropped after UCT; mm before UCT
 * (which it moves), dropped with it. */
void view_cols_net(struct view_cols *c, int width, unsigned extra);

/* The extra columns the N children KIDS have values for: VIEW_COL_NET if
 * any carries a network value, VIEW_COL_MM an implicit minimax value. */
unsigned view_extra_cols(const struct mcts_child *kids, int n);

/* A win rate V on [0, 1] as "54.3%" ("100%" near 1), "-" for NAN. */
char *view_fmt_rate(double v, char *buf, size_t size);
/* The width a panel needs to show the first TIERS tiers of columns. */
int view_cols_width(int tiers);

/* A bar BAR_W characters wide for VISITS out of TOTAL, in eighths of a
 * character, rounded, with no minimum: 0 visits or a tiny share is 0. */
int view_bar_eighths(uint64_t visits, uint64_t total, int bar_w);
/* The bar of EIGHTHS as text: UTF8: full blocks and one of the seven
 * partial blocks; else '#' a character and '+' for half or more of one. */
char *view_bar_text(int eighths, bool utf8, char *buf, size_t size);
/* A share of visits in at most 5 characters: "45.3%", "0.09%", "100%". */
char *view_fmt_share(uint64_t visits, uint64_t total, char *buf, size_t size);

/* The heading of the candidate rows ("move  visits ...") laid out by C. */
char *view_head_row(const struct view_cols *c, char *buf, size_t size);

/* The text of one candidate row laid out by C (exactly c->width
 * characters): '*' before the move when CHOSEN (the engine's choice), the
 * move, visits, its share of TOTAL visits as a number and a bar of '#',
 * win rate, proof ("win 3": the plies to the end counted from the row's
 * position, this move included), UCT value, wins, draws, losses. */
char *view_child_row(const struct view_cols *c, const struct game *g,
		     const struct mcts_child *ch, uint64_t total, bool chosen, char *buf,
		     size_t size);

/* Order candidate rows for the panel: proven wins first (the quickest
 * first), proven losses last (the longest last), the rest as they come
 * (most visited first, from mcts_stats). */
void view_sort_children(struct mcts_child *kids, int n);

/* A game record keeps, of what the engine saw, only the move played and the
 * runner-up, with visits, value and proof: the rows of move MOVE saved with
 * INFO, as children with wins, draws and losses unknown (0) and no UCT.
 * OUT has room for 2; returns how many: 1, or 2 with a runner-up. */
int view_saved_children(int move, const struct record_info *info, struct mcts_child *out);

/* The text of a row from view_saved_children() laid out by C, as
 * view_child_row() but with '-' in the columns a record does not keep
 * (wins, draws, losses, UCT); TOTAL is the search's iterations. */
char *view_saved_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		     uint64_t total, bool chosen, char *buf, size_t size);

/* Is a win rate from VISITS visits worth showing at full brightness? */
static inline bool view_rate_meaningful(uint64_t visits)
{
	return visits >= VIEW_FEW_VISITS;
}

/* The overlay's heat map: the level of a candidate with VISITS of TOTAL
 * visits, 0 (unmarked) under VIEW_FEW_VISITS visits or a share under 1%,
 * else 1 to VIEW_HEAT_LEVELS by its share (1-5%, 5-20%, 20-50%, 50%+);
 * and the legend's words for a level (" 5-20% "). */
#define VIEW_HEAT_LEVELS 4
int view_heat_level(uint64_t visits, uint64_t total);
char *view_heat_label(int level, char *buf, size_t size);

/* The share of visits of a candidate cell for the board overlay, in the
 * width of a cell face: 3 characters boxed ("45%", "100", " 3%"), 1 compact
 * ('0'..'9' for tenths, '#' for nearly all); -3 and -1: the same for the
 * engine's choice, with a star ("*45", "*"). */
char *view_share_text(uint64_t visits, uint64_t total, int cell_w, char *buf, size_t size);

/* How far the search got, whole parts that fit WIDTH characters: while it
 * runs (DONE false), iterations (of the budget), rate and time: "1,234 of
 * 2,500 iterations  3.1M/s  0.27 s" for an iteration or level budget,
 * "533k iterations  543k/s  0.98 s of 1:00" for a time budget, no budget
 * for SPEC NULL (analysis); once it is done, "2,500 iterations in 0.27 s
 * 9.3k/s"; then "  4 threads" when more than one thread searches. */
char *view_progress_text(const struct player_spec *spec, const struct mcts_totals *t, bool done,
			 int width, char *buf, size_t size);
/* The tree's size, whole parts in WIDTH: "582k nodes, 13.3 MiB of 512 MiB
 * (full), depth 12". */
char *view_tree_text(const struct mcts_totals *t, int width, char *buf, size_t size);

/* PARTS[0..N) joined by SEP, each whole or left out: the first part that
 * would pass WIDTH characters ends the line (parts come in the order of
 * their worth; empty ones are passed over). Returns BUF. */
char *view_fit_parts(const char *const *parts, int n, const char *sep, int width, char *buf,
		     size_t size);
/* A count with thousands separated: "2,741", "1,234,567". */
char *view_fmt_int(uint64_t n, char *buf, size_t size);

/* A search's numbers from an engine without a tree (negamax), from its
 * statistics ST: how far it got ("depth 7, 8 next of 10  1.2M nodes
 * 850k/s  1.40 s", the parts that fit WIDTH), the table's fill ("table 34% full of 4.2M entries"). */
char *view_eng_progress(const struct player_stats *st, int width, char *buf, size_t size);
char *view_eng_table(const struct player_stats *st, char *buf, size_t size);
/* The score of a root move for people: "win in 7", "loss in 4", "draw"
 * where proven, "loss" for a proven loss of unknown length, else the
 * engine's score ("+120") or a bound ("<= -40"). */
char *view_eng_score(const struct player_root_move *m, char *buf, size_t size);
/* The heading and one row of root moves ('*' when CHOSEN, move, score,
 * depth), exactly WIDTH characters. */
char *view_eng_head(int width, char *buf, size_t size);
char *view_eng_row(const struct game *g, const struct player_root_move *m, bool chosen, int width,
		   char *buf, size_t size);

/* A human name of game G: "tic-tac-toe", "Ultimate tic-tac-toe",
 * "7,6,4: 4 in a row on 7x6". */
char *view_game_title(const struct game *g, char *buf, size_t size);

/* A line of moves ("e5 d4 c3") from the N of MOVES in at most WIDTH
 * characters: when they do not all fit, the latest, after "...". */
char *view_moves_text(const struct game *g, const uint8_t *moves, int n, int width, char *buf,
		      size_t size);


/* The game so far, with move numbers ("1.b2 a1 2.c3"), the move MARK
 * (0-based; -1 for none: the present) in brackets, in at most WIDTH
 * characters: moves are dropped ("...") from the front, or around the
 * marked one so that it stays in sight. */
char *view_game_line(const struct game *g, const uint8_t *moves, int n, int mark, int width,
		     char *buf, size_t size);
/* The same with a '?' after each move i whose MISTAKE[i] is true (NULL:
 * none), as a review marks them. */
char *view_game_line_marked(const struct game *g, const uint8_t *moves, const bool *mistake, int n,
			    int mark, int width, char *buf, size_t size);

/* The winning line of a finished game whose lines are K cells in a row
 * (game_lines): its cells (grid cells row * width + col) stored in CELLS
 * (room for VIEW_MAX_SIDE) with their count returned; 0 when there is none
 * (a draw, the game goes on, a game of regions: game_regions() has its
 * line of regions). */
int view_win_cells(const struct game *g, const struct pos *p, int *cells);

#endif
