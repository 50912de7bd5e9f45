/* draw.h - drawing the game screen with curses, split by what is drawn:
 * draw.c the frame (title, status line, key line) and the pieces every
 * part uses (lines, boxes, clipped text, colours), draw-board.c the board,
 * draw-panel.c the panel of the search's numbers, draw-dialog.c the help,
 * the new-game dialog and the too-small notice.
 *
 * Drawing only reads: the session (session.h), the snapshots it keeps and
 * the layout that ui_update() worked out; changing anything is the
 * session's business. Included only by the screen's files. */
#ifndef NOUGHTS_DRAW_H
#define NOUGHTS_DRAW_H

#include <curses.h>

#include "session.h"
#include "view.h"

enum { LINES_ASCII, LINES_ACS, LINES_UTF8 }; /* how grid lines are drawn */
enum {
	PAIR_X = 1,
	PAIR_O,
	PAIR_CURSOR,
	PAIR_ALLOWED,
	PAIR_HINT,
	PAIR_GOOD,
	PAIR_FAIR,
	PAIR_BAD,
	PAIR_HEAT1, /* the overlay's backgrounds, brighter for more visits */
	PAIR_HEAT2,
	PAIR_HEAT3,
	PAIR_HEAT4,
};

/* What drawing needs besides the session: how the terminal draws. */
struct screen {
	const struct session *se;
	int glyphs; /* LINES_*: how grid lines are drawn */
	bool color;
	struct view_layout lay; /* for the terminal's size now */
};

/* Shapes of grid line characters. */
enum shape {
	SH_VERT, SH_HORZ, SH_TEE_DOWN, SH_TEE_UP, SH_TEE_RIGHT, SH_TEE_LEFT, SH_CROSS,
	SH_UL, SH_UR, SH_LL, SH_LR,
};

/* draw.c: the pieces. */
int draw_shape_of(bool up, bool down, bool left, bool right);
/* One character of a grid line of SHAPE at Y, X; VH and HH: its vertical
 * and horizontal strokes are heavy; WEIGHTED: the grid has two weights. */
void draw_line(const struct screen *sc, int y, int x, int shape, bool vh, bool hh, bool weighted,
	       attr_t extra);
/* A frame around X, Y, W, H (border included), inside blank. */
void draw_box(const struct screen *sc, int x, int y, int w, int h, attr_t a);
/* Text at Y, X clipped to W columns and to the screen. */
void draw_text(const struct screen *sc, int y, int x, int w, attr_t a, const char *s);
attr_t draw_pair(const struct screen *sc, int pair, attr_t mono);
attr_t draw_side_attr(const struct screen *sc, int side);
/* The colour of a win rate V for the mover: good, fair or bad. */
attr_t draw_value_attr(const struct screen *sc, double v);
/* The overlay's look for a heat LEVEL (1 to VIEW_HEAT_LEVELS). */
attr_t draw_heat_attr(const struct screen *sc, int level);
/* The whole screen, from the session and the layout. */
void draw_screen(const struct screen *sc);

/* draw-board.c */
void draw_board(const struct screen *sc);

/* draw-panel.c */
void draw_panel(const struct screen *sc);
/* Candidate rows the panel has room for, and how many lines its footer
 * takes, for the layout and session in SC. */
int draw_panel_rows(const struct screen *sc);
/* The words for a player spec on the title line ("mcts level 6"). */
char *draw_player_brief(const struct player_spec *s, char *buf, size_t size);

/* draw-graph.c: the value graph where the layout put one. */
void draw_graph(const struct screen *sc);
/* The game line (view_game_line: numbered, the move looked at in
 * brackets) in at most WIDTH characters, a '?' after each move a review
 * found a mistake. */
char *draw_game_moves(const struct screen *sc, int width, char *buf, size_t size);

/* draw-dialog.c */
void draw_help(const struct screen *sc);
/* How far the help can scroll: its lines beyond those shown. */
int draw_help_room(const struct screen *sc);
void draw_dialog(const struct screen *sc);
void draw_too_small(const struct screen *sc);

#endif
