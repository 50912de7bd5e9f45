/* draw-board.c - the board: grid lines, stones, the cursor, the last move, the
 * winning line, won small boards, and the search's marks over it (hint,
 * overlay of visit shares, the browser's path, the inspector's iteration). */
#include "config.h"

#include "draw.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

/* What the board shows besides the stones. */
struct marks {
	struct pos pos;           /* the position drawn */
	const struct session_snap *snap;  /* numbers about pos, for the overlay; or NULL */
	int last;                 /* move marked as the last, or -1 */
	int chosen;               /* history: the move played from pos, or -1 */
	int hint;                 /* the search's choice, or -1 */
	struct moveset trail;     /* moves from the searched root (browser, inspector) */
	int expanded;             /* inspector: the node added, or -1 */
	uint8_t ghost[GAME_MAX_CELLS]; /* inspector: rollout moves, 1 + side */
	uint8_t pv[GAME_MAX_CELLS];    /* e: the line's moves, numbered from 1 */
	uint8_t pv_side[GAME_MAX_CELLS];
	int pv_last;                   /* the last move of the line shown, or -1 */
	bool cursor;
};

/* e: the selected row's line, numbered over the position it starts from. */
static bool pv_marks(const struct session *u, struct marks *mk)
{
	uint8_t line[GAME_MAX_PLIES];
	struct pos p;
	int n = session_pv_shown(u, line, &p);
	char why[96];

	if (n == 0)
		return false;
	mk->pos = p;
	mk->last = p.last == MOVE_NONE ? -1 : p.last;
	for (int i = 0; i < n; i++) {
		/* A line from a search of another position must not trip an
		 * assertion: each move is checked. */
		if (game_illegal(&u->g, &p, line[i], why, sizeof(why)) != NULL)
			break;
		mk->pv[line[i]] = (uint8_t)(i + 1);
		mk->pv_side[line[i]] = (uint8_t)p.turn;
		mk->pv_last = line[i];
		game_play(&u->g, &p, line[i]);
	}
	return true;
}

/* The tree browser's selected row: its move, marked on the board as a
 * move played is in the history; -1 when the panel has not the focus. */
static int selected_move(const struct session *u, const struct session_snap *s)
{
	if (!u->focus_panel || s == NULL || u->sel < 0 || u->sel >= s->n)
		return -1;
	return s->is_eng ? s->eng.root[u->sel].move : s->kids[u->sel].move;
}

static void board_marks_of(const struct screen *sc, struct marks *mk)
{
	const struct session *u = sc->se;
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);
	struct mcts *m = session_live_search(u);

	memset(mk, 0, sizeof(*mk));
	mk->last = mk->chosen = mk->hint = mk->expanded = mk->pv_last = -1;
	if (u->pv_on && pv_marks(u, mk))
		return;
	if (u->view < u->nmoves) {
		mk->pos = u->hist[u->view];
		mk->snap = s;
		mk->chosen = u->moves[u->view];
		mk->last = mk->pos.last == MOVE_NONE ? -1 : mk->pos.last;
		/* A human may continue the game from here. */
		mk->cursor = !session_is_engine(u, mk->pos.turn) && !u->focus_panel;
		return;
	}
	mk->pos = *session_present(u);
	mk->last = mk->pos.last == MOVE_NONE ? -1 : mk->pos.last;
	mk->cursor = session_human_to_move(u) && !u->focus_panel && !u->inspecting;
	if (u->live.have && u->live.is_eng && !game_over(&mk->pos) && u->live.eng.best != MOVE_NONE)
		mk->hint = u->live.eng.best; /* negamax's move so far */
	if (m == NULL || !u->live.have)
		return;
	mk->snap = s;
	if (u->path_len == 0 && !game_over(&mk->pos))
		mk->hint = mcts_best_move(m);
	if (u->inspecting && u->trace.ran) {
		struct pos p = *mcts_root(m);
		char why[96];

		/* Replay the traced iteration on a copy; check each move, since
		 * a trace from another root must not trip an assertion. */
		for (int i = 0; i < u->trace.path_len; i++) {
			if (game_illegal(&u->g, &p, u->trace.path[i], why, sizeof(why)) != NULL)
				break;
			game_play(&u->g, &p, u->trace.path[i]);
			moveset_add(&mk->trail, u->trace.path[i]);
		}
		if (u->trace.expanded >= 0 &&
		    game_illegal(&u->g, &p, u->trace.expanded, why, sizeof(why)) == NULL) {
			game_play(&u->g, &p, u->trace.expanded);
			mk->expanded = u->trace.expanded;
		}
		mk->pos = p;
		for (int i = 0; i < u->trace.rollout_len; i++) {
			int mv = u->trace.rollout[i];

			if (game_illegal(&u->g, &p, mv, why, sizeof(why)) != NULL)
				break;
			mk->ghost[mv] = (uint8_t)(1 + p.turn);
			game_play(&u->g, &p, mv);
		}
		mk->snap = NULL;
		mk->hint = -1;
		mk->last = -1;
		mk->cursor = false;
		return;
	}
	if (u->path_len > 0) {
		mk->pos = u->live_pos;
		for (int i = 0; i < u->path_len; i++)
			moveset_add(&mk->trail, u->path[i]);
		mk->last = -1;
		mk->cursor = false;
	}
}

/* What the board shows besides the stones, and the browser's selection. */
static void board_marks(const struct screen *sc, struct marks *mk)
{
	const struct session *u = sc->se;
	struct pos at;
	int sel = selected_move(u, session_shown(u, &at));

	board_marks_of(sc, mk);
	if (sel >= 0 && !(u->pv_on && mk->pv_last >= 0) && !u->inspecting)
		mk->chosen = sel;
}

/* Patterns of the big X and O over a won small board, for the boxed
 * (11 x 5) and compact (7 x 3) boards, in ASCII and in UTF-8. */
static const char *const big_x_boxed[5] = {
	" \\       / ", "   \\   /   ", "     X     ", "   /   \\   ", " /       \\ ",
};
static const char *const big_o_boxed[5] = {
	"  .-----.  ", " /       \\ ", "|         |", " \\       / ", "  '-----'  ",
};
static const char *const big_x_compact[3] = { " \\   / ", "   X   ", " /   \\ " };
static const char *const big_o_compact[3] = { " /---\\ ", " |   | ", " \\---/ " };
static const char *const big_x_boxed_utf8[5] = {
	" \u2572       \u2571 ", "   \u2572   \u2571   ", "     \u2573     ",
	"   \u2571   \u2572   ", " \u2571       \u2572 ",
};
static const char *const big_o_boxed_utf8[5] = {
	" \u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e ", " \u2502       \u2502 ",
	" \u2502       \u2502 ", " \u2502       \u2502 ",
	" \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f ",
};
static const char *const big_x_compact_utf8[3] = {
	" \u2572   \u2571 ", "   \u2573   ", " \u2571   \u2572 ",
};
static const char *const big_o_compact_utf8[3] = {
	" \u256d\u2500\u2500\u2500\u256e ", " \u2502   \u2502 ", " \u2570\u2500\u2500\u2500\u256f ",
};

/* Stones on large (7 x 3) and huge (11 x 5) faces: drawn big, the letter
 * in the middle so that it still reads as one. */
static const char *const stone_x_large[3] = { " \\   / ", "   X   ", " /   \\ " };
static const char *const stone_o_large[3] = { " /---\\ ", " | O | ", " \\---/ " };
static const char *const stone_x_large_utf8[3] = {
	" \u2572   \u2571 ", "   X   ", " \u2571   \u2572 ",
};
static const char *const stone_o_large_utf8[3] = {
	" \u256d\u2500\u2500\u2500\u256e ", " \u2502 O \u2502 ",
	" \u2570\u2500\u2500\u2500\u256f ",
};
static const char *const stone_x_huge[5] = {
	" \\       / ", "   \\   /   ", "     X     ", "   /   \\   ", " /       \\ ",
};
static const char *const stone_o_huge[5] = {
	"  .-----.  ", " /       \\ ", "|    O    |", " \\       / ", "  '-----'  ",
};
static const char *const stone_x_huge_utf8[5] = {
	" \u2572       \u2571 ", "   \u2572   \u2571   ", "     X     ",
	"   \u2571   \u2572   ", " \u2571       \u2572 ",
};
static const char *const stone_o_huge_utf8[5] = {
	" \u256d\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256e ", " \u2502       \u2502 ",
	" \u2502   O   \u2502 ", " \u2502       \u2502 ",
	" \u2570\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u256f ",
};

static void draw_grid(const struct screen *sc, const struct view_board *b)
{
	bool weighted = b->regions;

	for (int j = 0; j < b->nhlines; j++) {
		int y = b->hline_y[j];

		for (int x = b->x; x < b->x + b->w; x++) {
			int i;

			for (i = 0; i < b->nvlines && b->vline_x[i] != x; i++)
				;
			if (i == b->nvlines)
				draw_line(sc, y, x, SH_HORZ, false, b->hheavy[j], weighted, 0);
			else
				draw_line(sc, y, x,
					 draw_shape_of(j > 0, j < b->nhlines - 1, i > 0, i < b->nvlines - 1),
					 b->vheavy[i], b->hheavy[j], weighted, 0);
		}
	}
	for (int i = 0; i < b->nvlines; i++)
		for (int y = b->y; y < b->y + b->h; y++) {
			int j;

			for (j = 0; j < b->nhlines && b->hline_y[j] != y; j++)
				;
			if (j == b->nhlines)
				draw_line(sc, y, b->vline_x[i], SH_VERT, b->vheavy[i], false, weighted, 0);
		}
}

/* A move of the line shown: its number, in its side's colour ("x1" boxed,
 * "1" compact, then letters past 9); the last one shown reversed. */
static void pv_face(const struct screen *sc, const struct marks *mk, int move, bool boxed,
		    char *text, attr_t *a)
{
	int k = mk->pv[move], side = mk->pv_side[move];

	if (boxed)
		sprintf(text, "%c%-2d", game_side_mark(side) + ('a' - 'A'), k);
	else
		sprintf(text, "%c", k < 10 ? '0' + k : k < 36 ? 'a' + k - 10 : '+');
	*a = draw_side_attr(sc, side);
	if (move == mk->pv_last)
		*a |= A_REVERSE;
}

/* The face of one cell: up to three characters and how they look. */
static void cell_face(const struct screen *sc, const struct marks *mk, int col, int row,
		      const struct moveset *legal, const int *win, int nwin, char *text,
		      attr_t *a)
{
	const struct session *u = sc->se;
	const struct view_board *b = &sc->lay.board;
	bool boxed = b->cell_w >= 3;
	int move = game_cell_move(&u->g, col, row);
	int owner = game_cell_owner(&u->g, &mk->pos, col, row);
	bool utf8 = sc->glyphs == LINES_UTF8;

	if (owner >= 0) {
		char c = game_side_mark(owner);

		*a = draw_side_attr(sc, owner);
		if (move == mk->last)
			sprintf(text, boxed ? "[%c]" : "%c", c);
		else
			sprintf(text, boxed ? " %c " : "%c", c);
		if (move == mk->last && (!boxed || b->cell_h > 1))
			*a |= A_UNDERLINE; /* no room for brackets, or drawn as a big mark */
		for (int i = 0; i < nwin; i++)
			if (win[i] == row * u->g.width + col)
				*a |= A_REVERSE;
		if (moveset_has(&mk->trail, move) || move == mk->expanded) {
			*a = draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD | A_UNDERLINE;
			if (move == mk->expanded)
				*a |= A_REVERSE;
		}
		return;
	}
	/* An empty cell. */
	*a = A_NORMAL;
	strcpy(text, boxed ? "   " : " ");
	if (moveset_has(legal, move) && (b->regions || !boxed)) {
		/* Dots show where the mover may play: in Ultimate the allowed
		 * boards, on compact boards every empty cell. */
		bool allowed = b->regions;

		sprintf(text, boxed ? " %s " : "%s", utf8 ? "\u00b7" : ".");
		*a = allowed ? draw_pair(sc, PAIR_ALLOWED, A_BOLD) | A_BOLD : A_DIM;
	} else if (!boxed || (b->regions && sc->glyphs != LINES_UTF8)) {
		strcpy(text, boxed ? " . " : ".");
		*a = A_DIM;
	}
	if (mk->snap != NULL && u->overlay) {
		uint64_t total = 0;

		for (int i = 0; i < mk->snap->n; i++)
			total += mk->snap->kids[i].visits;
		for (int i = 0; i < mk->snap->n; i++) {
			const struct mcts_child *k = &mk->snap->kids[i];
			int level = view_heat_level(k->visits, total);

			if (k->move != move || level == 0)
				continue;
			view_share_text(k->visits, total, boxed ? 3 : 1, text, 8);
			if (move == mk->hint) /* the engine's choice keeps its star */
				view_share_text(k->visits, total, boxed ? -3 : -1, text, 8);
			*a = draw_heat_attr(sc, level);
		}
	}
	if (mk->ghost[move] != 0) {
		sprintf(text, boxed ? " %c " : "%c", mk->ghost[move] == 1 ? 'x' : 'o');
		*a = draw_side_attr(sc, mk->ghost[move] - 1) & ~(attr_t)A_BOLD;
		*a |= A_DIM;
	}
	if (mk->pv[move] != 0) {
		pv_face(sc, mk, move, boxed, text, a);
	} else if (move == mk->chosen) {
		sprintf(text, boxed ? "[%c]" : "%c", game_side_mark(mk->pos.turn) + ('a' - 'A'));
		*a = draw_pair(sc, PAIR_HINT, A_REVERSE) | A_BOLD;
	} else if (move == mk->hint && u->overlay && mk->snap != NULL && text[0] == '*') {
		/* the share with its star, on its heat */
	} else if (move == mk->hint) {
		strcpy(text, boxed ? " * " : "*");
		*a = draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD;
	}
}

/* A cell's face on a large or huge board: the whole face in A, a stone of
 * OWNER (or -1) as a big mark, anything else (TEXT, three characters) in
 * the middle. */
static void draw_face(const struct screen *sc, const struct view_board *b, int col, int row,
		      const char *text, attr_t a, int owner)
{
	int x = b->col_x[col] - b->cell_w / 2, y = b->row_y[row] - b->cell_h / 2;
	bool utf8 = sc->glyphs == LINES_UTF8;
	const char *const *pat = NULL;

	if (b->cell_h == 1) {
		/* Whole: a face is one cell wide but may be several bytes. */
		attrset(a);
		mvaddstr(b->row_y[row], x, text);
		return;
	}
	attrset(a);
	for (int i = 0; i < b->cell_h; i++)
		mvhline(y + i, x, ' ', b->cell_w);
	if (owner >= 0 && b->cell_h == 3)
		pat = owner == SIDE_X ? utf8 ? stone_x_large_utf8 : stone_x_large
				      : utf8 ? stone_o_large_utf8 : stone_o_large;
	else if (owner >= 0 && b->cell_h == 5)
		pat = owner == SIDE_X ? utf8 ? stone_x_huge_utf8 : stone_x_huge
				      : utf8 ? stone_o_huge_utf8 : stone_o_huge;
	if (pat == NULL) {
		mvaddstr(b->row_y[row], b->col_x[col] - 1, text);
		return;
	}
	for (int i = 0; i < b->cell_h; i++)
		mvaddstr(y + i, x, pat[i]);
}

/* The board with the marks MK. */
static void draw_marked(const struct screen *sc, const struct marks *mk)
{
	const struct session *u = sc->se;
	const struct view_board *b = &sc->lay.board;
	struct moveset legal;
	int win[VIEW_MAX_SIDE], nwin = view_win_cells(&u->g, &mk->pos, win);
	unsigned won = 0, line = 0;
	struct game_regions reg;

	game_legal(&u->g, &mk->pos, &legal);
	draw_grid(sc, b);
	attrset(A_NORMAL);
	for (int c = 0; c < b->cols; c++)
		mvaddch(b->y - 1, b->col_x[c], (chtype)('a' + c));
	for (int r = 0; r < b->rows; r++)
		mvprintw(b->row_y[r], b->x - 3, "%2d", r + 1);
	for (int r = 0; r < b->rows; r++)
		for (int c = 0; c < b->cols; c++) {
			char text[16];
			attr_t a;
			bool cur = mk->cursor && c == u->cur_col && r == u->cur_row;

			cell_face(sc, mk, c, r, &legal, win, nwin, text, &a);
			if (cur)
				a = draw_pair(sc, PAIR_CURSOR, A_REVERSE) | A_BOLD;
			draw_face(sc, b, c, r, text, a, game_cell_owner(&u->g, &mk->pos, c, r));
		}
	game_regions(&u->g, &mk->pos, &reg);
	if (reg.n == 0 || reg.w != 3 || reg.h != 3)
		return; /* the big marks below are drawn for 3 x 3 regions */
	/* Won small boards show their winner across them, unless won boards
	 * stay open for play; the winning line's boards in reverse. */
	if (!reg.won_open)
		won = reg.won[0] | reg.won[1];
	line = reg.line;
	for (int brd = 0; brd < reg.n; brd++) {
		int side = reg.won[0] >> brd & 1 ? SIDE_X : SIDE_O;
		const char *const *pat;
		int x, y, w, h;
		attr_t a;

		if (!(won >> brd & 1))
			continue;
		view_subboard_rect(b, brd, &x, &y, &w, &h);
		if (sc->glyphs == LINES_UTF8 && b->style != VIEW_COMPACT)
			pat = side == SIDE_X ? big_x_boxed_utf8 : big_o_boxed_utf8;
		else if (sc->glyphs == LINES_UTF8)
			pat = side == SIDE_X ? big_x_compact_utf8 : big_o_compact_utf8;
		else if (b->style != VIEW_COMPACT)
			pat = side == SIDE_X ? big_x_boxed : big_o_boxed;
		else
			pat = side == SIDE_X ? big_x_compact : big_o_compact;
		a = draw_side_attr(sc, side) | (line >> brd & 1 ? A_REVERSE : 0);
		attrset(a);
		if (b->cell_h > 1) {
			/* Large boards: the board blanked, the mark in its middle. */
			for (int i = 0; i < h; i++)
				mvhline(y + i, x, ' ', w);
			x += (w - 11) / 2;
			y += (h - 5) / 2;
			h = 5;
		}
		for (int i = 0; i < h; i++)
			mvaddstr(y + i, x, pat[i]); /* inside the frame: always on screen */
		if (mk->cursor && u->cur_col / 3 == brd % 3 && u->cur_row / 3 == brd / 3) {
			/* Keep the cursor visible on a closed board. */
			draw_face(sc, b, u->cur_col, u->cur_row, b->cell_w >= 3 ? "   " : " ",
				  draw_pair(sc, PAIR_CURSOR, A_REVERSE) | A_BOLD, -1);
		}
	}
}

/* The overlay's legend on the line under the board: what the numbers
 * and the backgrounds mean, the parts that fit. */
static void draw_legend(const struct screen *sc)
{
	const struct view_layout *l = &sc->lay;
	int x = l->board.x - 3, w = l->panel_below ? l->cols - 2 - x : l->px - 2 - x, n;
	char line[160], t[32];

	if (l->note_y < 0 || w < 10)
		return;
	fmt_buf(line, sizeof(line), "%s", w >= 30 ? "visit share:" : "share:");
	n = (int)strlen(line);
	draw_text(sc, l->note_y, x, w, A_BOLD, line);
	for (int level = 1; level <= VIEW_HEAT_LEVELS; level++) {
		view_heat_label(level, t, sizeof(t));
		if (n + 1 + (int)strlen(t) > w)
			return;
		draw_text(sc, l->note_y, x + n + 1, w - n - 1, draw_heat_attr(sc, level), t);
		n += 1 + (int)strlen(t);
	}
	fmt_buf(line, sizeof(line), " (blank: under 1%% or %d visits)", VIEW_FEW_VISITS);
	if (n + (int)strlen(line) <= w)
		draw_text(sc, l->note_y, x + n, w - n, A_DIM, line);
}

void draw_board(const struct screen *sc)
{
	struct marks mk;

	board_marks(sc, &mk);
	draw_marked(sc, &mk);
	if (sc->se->overlay && mk.snap != NULL)
		draw_legend(sc);
}
