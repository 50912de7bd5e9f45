/* draw.c - the frame of the game screen (title, status line, key line) and the
 * pieces every part of the drawing uses: grid lines, boxes, clipped text,
 * colours. */
#include "config.h"

#include "draw.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

/* UTF-8 box drawing by shape and weight: index (vertical heavy) * 2 +
 * (horizontal heavy). */
static const char *const utf8_box[][4] = {
	[SH_VERT] = { "\u2502", "\u2502", "\u2503", "\u2503" },
	[SH_HORZ] = { "\u2500", "\u2501", "\u2500", "\u2501" },
	[SH_TEE_DOWN] = { "\u252c", "\u252f", "\u2530", "\u2533" },
	[SH_TEE_UP] = { "\u2534", "\u2537", "\u2538", "\u253b" },
	[SH_TEE_RIGHT] = { "\u251c", "\u251d", "\u2520", "\u2523" },
	[SH_TEE_LEFT] = { "\u2524", "\u2525", "\u2528", "\u252b" },
	[SH_CROSS] = { "\u253c", "\u253f", "\u2542", "\u254b" },
	[SH_UL] = { "\u250c", "\u250d", "\u250e", "\u250f" },
	[SH_UR] = { "\u2510", "\u2511", "\u2512", "\u2513" },
	[SH_LL] = { "\u2514", "\u2515", "\u2516", "\u2517" },
	[SH_LR] = { "\u2518", "\u2519", "\u251a", "\u251b" },
};

int draw_shape_of(bool up, bool down, bool left, bool right)
{
	if (!left && !right)
		return SH_VERT;
	if (!up && !down)
		return SH_HORZ;
	if (up && down && left && right)
		return SH_CROSS;
	if (up && down)
		return right ? SH_TEE_RIGHT : SH_TEE_LEFT;
	if (left && right)
		return down ? SH_TEE_DOWN : SH_TEE_UP;
	if (down)
		return right ? SH_UL : SH_UR;
	return right ? SH_LL : SH_LR;
}

static chtype acs_of(int shape)
{
	switch (shape) {
	case SH_VERT: return ACS_VLINE;
	case SH_HORZ: return ACS_HLINE;
	case SH_TEE_DOWN: return ACS_TTEE;
	case SH_TEE_UP: return ACS_BTEE;
	case SH_TEE_RIGHT: return ACS_LTEE;
	case SH_TEE_LEFT: return ACS_RTEE;
	case SH_CROSS: return ACS_PLUS;
	case SH_UL: return ACS_ULCORNER;
	case SH_UR: return ACS_URCORNER;
	case SH_LL: return ACS_LLCORNER;
	default: return ACS_LRCORNER;
	}
}

/* One character of a grid line, VH and HH telling whether its vertical and
 * horizontal strokes are heavy. WEIGHTED: the grid has two weights
 * (Ultimate). UTF-8 has heavy lines of its own (and the light ones dim);
 * with ACS and ASCII, which have one weight, only the heavy lines are
 * drawn, since lines everywhere would hide the small boards. */
void draw_line(const struct screen *sc, int y, int x, int shape, bool vh, bool hh,
		     bool weighted, attr_t extra)
{
	bool heavy = shape == SH_VERT ? vh : shape == SH_HORZ ? hh : vh || hh;
	attr_t a = extra | (!weighted ? A_NORMAL : heavy ? A_BOLD : A_DIM);

	if (y < 0 || x < 0 || y >= sc->lay.rows || x >= sc->lay.cols)
		return;
	if (sc->glyphs == LINES_UTF8) {
		attrset(a);
		mvaddstr(y, x, utf8_box[shape][vh * 2 + hh]);
		return;
	}
	if (weighted) {
		/* Keep the heavy strokes only: a junction of a heavy and a light
		 * line becomes a plain heavy line. */
		if (shape != SH_VERT && shape != SH_HORZ && !(vh && hh))
			shape = vh ? SH_VERT : hh ? SH_HORZ : -1;
		if (shape == SH_VERT && !vh)
			shape = -1;
		if (shape == SH_HORZ && !hh)
			shape = -1;
	}
	if (shape < 0)
		mvaddch(y, x, ' ');
	else if (sc->glyphs == LINES_ACS)
		mvaddch(y, x, acs_of(shape) | a);
	else
		mvaddch(y, x, (chtype)(shape == SH_VERT ? '|' : shape == SH_HORZ ? '-' : '+') | a);
}

/* A frame around the rectangle X, Y, W, H (border included), inside blank. */
void draw_box(const struct screen *sc, int x, int y, int w, int h, attr_t a)
{
	attrset(a);
	for (int r = y + 1; r < y + h - 1; r++)
		mvhline(r, x + 1, ' ', w - 2);
	for (int c = x + 1; c < x + w - 1; c++) {
		draw_line(sc, y, c, SH_HORZ, false, false, false, a);
		draw_line(sc, y + h - 1, c, SH_HORZ, false, false, false, a);
	}
	for (int r = y + 1; r < y + h - 1; r++) {
		draw_line(sc, r, x, SH_VERT, false, false, false, a);
		draw_line(sc, r, x + w - 1, SH_VERT, false, false, false, a);
	}
	draw_line(sc, y, x, SH_UL, false, false, false, a);
	draw_line(sc, y, x + w - 1, SH_UR, false, false, false, a);
	draw_line(sc, y + h - 1, x, SH_LL, false, false, false, a);
	draw_line(sc, y + h - 1, x + w - 1, SH_LR, false, false, false, a);
}

/* Text at Y, X clipped to W columns (and to the screen). */
void draw_text(const struct screen *sc, int y, int x, int w, attr_t a, const char *s)
{
	if (y < 0 || y >= sc->lay.rows || x >= sc->lay.cols || w <= 0)
		return;
	if (x + w > sc->lay.cols)
		w = sc->lay.cols - x;
	attrset(a);
	mvaddnstr(y, x, s, w);
}

attr_t draw_pair(const struct screen *sc, int pair, attr_t mono)
{
	return sc->color ? (attr_t)COLOR_PAIR(pair) : mono;
}

attr_t draw_side_attr(const struct screen *sc, int side)
{
	return draw_pair(sc, side == SIDE_X ? PAIR_X : PAIR_O, 0) | A_BOLD;
}

/* Colour of a win rate: good, fair or bad for the mover. Colour only:
 * without it (NO_COLOR) bold and dim keep their own meanings. */
attr_t draw_value_attr(const struct screen *sc, double v)
{
	if (v >= VIEW_GOOD_RATE)
		return draw_pair(sc, PAIR_GOOD, A_NORMAL);
	if (v <= VIEW_BAD_RATE)
		return draw_pair(sc, PAIR_BAD, A_NORMAL);
	return draw_pair(sc, PAIR_FAIR, A_NORMAL);
}

attr_t draw_heat_attr(const struct screen *sc, int level)
{
	/* Without colour only the numbers tell: bold for the top level. */
	return draw_pair(sc, PAIR_HEAT1 + level - 1, level == VIEW_HEAT_LEVELS ? A_BOLD : 0);
}

/* The status line while a line is shown on the board. */
static void pv_status(const struct session *u, char *buf, size_t size)
{
	uint8_t line[GAME_MAX_PLIES];
	struct pos from;
	int n = session_pv_line(u, line, &from), shown = session_pv_shown(u, line, &from);
	char moves[120];

	if (n == 0) {
		fmt_buf(buf, size, "No line to show here: e or Esc leaves.");
		return;
	}
	/* Short enough for 80 columns whole. */
	view_moves_text(&u->g, line, shown, 24, moves, sizeof(moves));
	fmt_buf(buf, size, "Line %s (%d of %d): Left/Right step, Up/Down row, e off.", moves,
		shown, n);
}

static void status_text(const struct screen *sc, char *buf, size_t size)
{
	const struct session *u = sc->se;
	const struct pos *p = session_present(u);
	char name[8];
	int side = p->turn;

	if (u->msg[0] != '\0') {
		fmt_buf(buf, size, "%s", u->msg);
	} else if (u->pv_on) {
		pv_status(u, buf, size);
	} else if (u->view < u->nmoves) {
		char later[32];
		int mover = u->hist[u->view].turn;

		session_later_moves(u, u->view, later, sizeof(later));
		fmt_buf(buf, size,
			"Move %d of %d: %c played %s.  [ ] step, Esc: now; %s replaces %s.",
			u->view + 1, u->nmoves, game_side_mark(mover),
			game_move_name(&u->g, u->moves[u->view], name),
			session_is_engine(u, mover) ? "m (the engine plays on from here)" : "a move here",
			later);
	} else if (game_over(p)) {
		int w = result_winner(p->result);
		char note[sizeof(u->end_note) + 2];

		fmt_buf(note, sizeof(note), "%s%s", u->end_note[0] != '\0' ? "  " : "",
			u->end_note);
		if (w >= 0)
			fmt_buf(buf, size, "%c wins%s.%s  n: new game, u: undo, [: replay.",
				game_side_mark(w),
				session_is_engine(u, w) == session_is_engine(u, !w) ? ""
				: session_is_engine(u, w)		    ? " (the engine)"
								    : " (you)",
				note);
		else
			fmt_buf(buf, size, "A draw.%s  n: new game, u: undo, [: replay.", note);
	} else if (u->inspecting) {
		fmt_buf(buf, size, "Iteration inspector: i runs one more, p resumes, Esc leaves.");
	} else if (u->focus_panel) {
		fmt_buf(buf, size, "Tree browser: Up/Down select, Right goes in, Left up, Tab back.");
	} else if (session_human_to_move(u)) {
		size_t n = (size_t)snprintf(buf, size, "%c to move: arrows and Enter, or click.",
					    game_side_mark(side));
		char where[64];

		if (game_where(&u->g, p, where, sizeof(where)) != NULL && n < size)
			snprintf(buf + n, size - n, " Play %s.", where);
	} else if (u->paused) {
		fmt_buf(buf, size, "%c is paused: p resumes, m moves now, i inspects.",
			game_side_mark(side));
	} else if (u->ready && session_eve(u)) {
		fmt_buf(buf, size, u->autoplay ? "%c is ready: it plays in a moment, a stops auto-play."
						: "%c is ready: s plays its move, a auto-plays.",
			game_side_mark(side));
	} else {
		fmt_buf(buf, size, "%c is thinking...  p pauses, m moves now.", game_side_mark(side));
	}
}


/* The player of SIDE for the title, in words as long as LONG allows:
 * the brief ("mcts level 6") or the kind alone ("mcts"). */
static char *title_player(const struct session *u, int side, bool brief, char *buf, size_t size)
{
	char *sp;

	draw_player_brief(&u->spec[side], buf, size);
	if (!brief && (sp = strchr(buf, ' ')) != NULL)
		*sp = '\0';
	return buf;
}

/* The top line: the program, the game, the players and the modes on the
 * right; on a narrow terminal the longest of these that fits whole: without
 * the program's name, with the players' kinds only, without the players. */
static void draw_title(const struct screen *sc)
{
	const struct session *u = sc->se;
	char title[64], x[64], o[64], flags[64], line[256];
	int n, w = sc->lay.cols, level;

	view_game_title(&u->g, title, sizeof(title));
	fmt_buf(flags, sizeof(flags), "%s%s%s%s", u->paused ? " [paused]" : "",
		u->autoplay ? " [auto]" : "", u->overlay ? " [overlay]" : "",
		u->hint_mode ? " [analysis]" : "");
	for (level = 0; level < 4; level++) {
		title_player(u, SIDE_X, level < 2, x, sizeof(x));
		title_player(u, SIDE_O, level < 2, o, sizeof(o));
		n = snprintf(line, sizeof(line), "%s%s", level == 0 ? " noughts  " : " ", title);
		if (level < 3)
			n += 3 + 2 + (int)strlen(x) + 3 + 2 + (int)strlen(o);
		if (n + (int)strlen(flags) + 1 <= w)
			break;
	}
	if (level == 4)
		flags[0] = '\0';
	n = snprintf(line, sizeof(line), "%s%s   ", level == 0 ? " noughts  " : " ", title);
	draw_text(sc, 0, 0, w, A_BOLD, line);
	if (level < 3) {
		draw_text(sc, 0, n, w - n, draw_side_attr(sc, SIDE_X), "X");
		fmt_buf(line, sizeof(line), " %s   ", x);
		draw_text(sc, 0, n + 1, w - n - 1, A_NORMAL, line);
		n += 1 + (int)strlen(line);
		draw_text(sc, 0, n, w - n, draw_side_attr(sc, SIDE_O), "O");
		fmt_buf(line, sizeof(line), " %s", o);
		draw_text(sc, 0, n + 1, w - n - 1, A_NORMAL, line);
	}
	if (flags[0] != '\0') {
		n = (int)strlen(flags) + 1;
		draw_text(sc, 0, w - n, n, draw_pair(sc, PAIR_HINT, A_BOLD), flags);
	}
}

/* The status (wrapped into its lines, the last sentences left out when
 * they do not fit) and the key line (its items on two lines when there is
 * a second, else those that fit). */
static void draw_foot(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	char line[VIEW_LINE * 2], out[2][VIEW_LINE];
	int w = l->cols - 2, n;

	status_text(sc, line, sizeof(line));
	n = view_fit_text(line, w, out, l->status_h);
	for (int i = 0; i < n; i++)
		draw_text(sc, l->status_y + i, 1, w,
			  u->msg[0] != '\0' ? draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD : A_BOLD,
			  out[i]);
	keys_line(session_context(u), (int)sizeof(line) - 1, line, sizeof(line));
	n = view_wrap(line, "  ", w, out, l->keys_h);
	if (n > l->keys_h) {
		n = 1;
		keys_line(session_context(u), w, out[0], sizeof(out[0]));
	}
	for (int i = 0; i < n; i++)
		draw_text(sc, l->keys_y + i, 1, w, A_DIM, out[i]);
}

void draw_screen(const struct screen *sc)
{
	const struct session *u = sc->se;

	erase();
	if (sc->lay.too_small) {
		draw_too_small(sc);
	} else {
		draw_title(sc);
		draw_board(sc);
		draw_panel(sc);
		draw_graph(sc);
		draw_foot(sc);
		if (u->modal == SESSION_MODAL_HELP)
			draw_help(sc);
		else if (u->modal == SESSION_MODAL_NEW)
			draw_dialog(sc);
	}
	attrset(A_NORMAL);
	refresh();
}
