/* graph.h - the value graph of a game, without curses: where it goes on
 * the screen, which ply each of its columns shows, and the characters of
 * its bars and marks. The session says what is known of each ply
 * (session_ply_point); draw-graph.c draws it; so all of this is
 * unit-tested without a terminal (tests/test-graph.c).
 *
 * The graph has a column a ply: column p is the position after p moves
 * (0: the start), its bar as high as that position's value for X (1: X
 * wins, 0: O wins). Its first line is a caption, its last the marks: a
 * mistake ('?') made from the position, or the proven result there ('x' X
 * wins, 'o' O wins, '=' a draw). On a UTF-8 terminal a game longer than
 * the graph is wide takes two plies a column, as braille dots; when the
 * plies still outnumber the columns, the graph shows a window of them that
 * holds the ply on the board. */
#ifndef NOUGHTS_GRAPH_H
#define NOUGHTS_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "view.h"

#define GRAPH_MIN_H 3  /* caption, one row of bars, marks */
#define GRAPH_MAX_H 7  /* five rows of bars: 40 steps of value */
#define GRAPH_MIN_W 12 /* a tic-tac-toe game and its start */

/* What is known of one ply (the position after it). */
struct graph_point {
	bool have;    /* a value is known */
	double value; /* for X: 1 X wins, 1/2 even, 0 O wins */
	int proof;    /* enum proof for X (PROOF_WIN: X wins), PROOF_NONE when not proven */
	bool mistake; /* the move played from this position was a mistake (a review found) */
};

/* Give the value graph a place in the laid-out screen L of game G, where
 * there is room: under the board (and its note line) when the panel is
 * beside it and rows are free there, else the panel's last rows when it
 * keeps enough of its own; else none (l->gh 0). Called by view_layout()
 * on the layout it chose. */
void graph_place(struct view_layout *l, const struct game *g);

/* The first ply shown in W columns of a game of NPLY plies (columns
 * 0..NPLY-1) when ply VIEW must be among them: 0 when all fit, else a
 * window that keeps VIEW about two thirds along (the present at the
 * right end). */
int graph_first(int nply, int w, int view);

/* How many plies a column of W shows for a game of NPLY: two, as the two
 * dot columns of braille characters, where UTF8 and one a column would
 * not hold them all; else one (blocks, or ASCII). */
int graph_per_column(int nply, int w, bool utf8);

/* The ply under screen column X, row Y of the graph of L (caption
 * excluded) for NPLY plies with VIEW shown, PER a column, or -1. Of a
 * braille column's two plies, the one not shown now. */
int graph_ply_at(const struct view_layout *l, int nply, int view, int per, int x, int y);

/* The character of bar row ROW (0 the bottom) of NROWS for VALUE (0..1):
 * UTF-8 blocks in eighths of a cell, or for ASCII ' ' '.' ':' '#'. A known
 * value of 0 still shows its lowest step, so that it differs from an
 * unknown one. */
const char *graph_bar_cell(double value, int row, int nrows, bool ascii);

/* The braille character (UTF-8, into BUF of 4) of bar row ROW of NROWS
 * for two plies, LEFT and RIGHT (NULL: none), four steps of value a row;
 * a known value of 0 keeps its lowest dot. Where a cell has no dot, the
 * ply on the board (SHOWN_LEFT or SHOWN_RIGHT) shows as a column of dots.
 * " " for no dot at all. */
const char *graph_braille_cell(const struct graph_point *left, const struct graph_point *right,
			       int row, int nrows, bool shown_left, bool shown_right, char *buf);

/* The character of the marks row for P: "?" "x" "o" "=" or " ". */
char graph_mark(const struct graph_point *p);
/* ... for a braille column of two plies (RIGHT may be NULL): a mistake
 * of either, else the later one's mark, else the earlier one's. */
char graph_mark2(const struct graph_point *left, const struct graph_point *right);

/* The caption for ply VIEW of NPLY with P known of it, in W characters:
 * "X's value  ply 5/9: 0.62", "... ply 5/9: X's win", "... O's win",
 * "... draw", "... no value"; shorter forms when W is small. */
char *graph_caption(const struct graph_point *p, int view, int nply, int w, char *buf,
		    size_t size);

#endif
