/* draw-graph.c - the value graph: a bar a ply of X's value (two plies a
 * character as braille dots when a long game needs the room), coloured by
 * the side ahead, the shown ply's column as a cursor line, marks for
 * proven results and mistakes, a caption with the shown ply in words.
 * What each column shows comes from session_ply_point(); where and which
 * characters from graph.c. */
#include "config.h"

#include "draw.h"

#include <stdio.h>
#include <string.h>

#include "graph.h"
#include "util.h"

/* How a ply's bar looks: the colour of the side ahead. */
static attr_t bar_attr(const struct screen *sc, const struct graph_point *p)
{
	if (!p->have)
		return A_DIM;
	if (p->value > 0.5)
		return draw_pair(sc, PAIR_X, A_BOLD);
	if (p->value < 0.5)
		return draw_pair(sc, PAIR_O, A_NORMAL);
	return A_NORMAL;
}

static attr_t mark_attr(const struct screen *sc, char mark)
{
	switch (mark) {
	case '?': return draw_pair(sc, PAIR_BAD, A_BOLD) | A_BOLD;
	case 'x': return draw_side_attr(sc, SIDE_X);
	case 'o': return draw_side_attr(sc, SIDE_O);
	default: return A_NORMAL;
	}
}

/* Column X of the graph: ply PLY's bar in NBARS rows from row Y down, and
 * its mark under it; CURSOR: the ply on the board. */
static void draw_column(const struct screen *sc, int x, int y, int nbars, int ply, bool cursor)
{
	bool ascii = sc->glyphs != LINES_UTF8;
	struct graph_point p;
	char mark[2] = { 0, 0 };
	attr_t a;

	session_ply_point(sc->se, ply, &p);
	a = bar_attr(sc, &p);
	for (int r = 0; r < nbars; r++) {
		const char *cell = p.have ? graph_bar_cell(p.value, r, nbars, ascii) : " ";

		if (!p.have && r == 0)
			cell = ascii ? "-" : "\u00b7";
		if (cursor && cell[0] == ' ') {
			attrset(A_DIM);
			mvaddstr(y + nbars - 1 - r, x, ascii ? "|" : "\u2502");
			continue;
		}
		attrset(a);
		mvaddstr(y + nbars - 1 - r, x, cell);
	}
	mark[0] = graph_mark(&p);
	if (cursor && mark[0] == ' ')
		mark[0] = '^';
	draw_text(sc, y + nbars, x, 1, mark_attr(sc, mark[0]) | (cursor ? A_REVERSE : 0), mark);
}

/* Column X of a braille graph: plies PLY and PLY + 1 (if before NPLY),
 * two dot columns, in NBARS rows from row Y down, their mark under them;
 * VIEW: the ply on the board. */
static void draw_braille_column(const struct screen *sc, int x, int y, int nbars, int ply,
				int nply, int view)
{
	struct graph_point p[2];
	const struct graph_point *right = ply + 1 < nply ? &p[1] : NULL;
	bool cur[2] = { ply == view, ply + 1 == view };
	char cell[8], mark[2] = { 0, 0 };
	attr_t a;

	session_ply_point(sc->se, ply, &p[0]);
	if (right != NULL)
		session_ply_point(sc->se, ply + 1, &p[1]);
	/* One colour a character: the shown ply's, else the later one's. */
	a = bar_attr(sc, cur[0] || right == NULL || !p[1].have ? &p[0] : &p[1]);
	for (int r = 0; r < nbars; r++) {
		graph_braille_cell(&p[0], right, r, nbars, false, false, cell);
		if (cell[0] == ' ' && (cur[0] || cur[1])) {
			graph_braille_cell(NULL, NULL, r, nbars, cur[0], cur[1], cell);
			attrset(A_DIM);
		} else {
			attrset(a);
		}
		mvaddstr(y + nbars - 1 - r, x, cell);
	}
	mark[0] = graph_mark2(&p[0], right);
	if ((cur[0] || cur[1]) && mark[0] == ' ')
		mark[0] = '^';
	draw_text(sc, y + nbars, x, 1, mark_attr(sc, mark[0]) | (cur[0] || cur[1] ? A_REVERSE : 0),
		  mark);
}

char *draw_game_moves(const struct screen *sc, int width, char *buf, size_t size)
{
	const struct session *u = sc->se;
	bool mark[GAME_MAX_PLIES];

	for (int i = 0; i < u->nmoves; i++)
		mark[i] = session_mistake(u, i);
	return view_game_line_marked(&u->g, u->moves, mark, u->nmoves,
				     u->view < u->nmoves ? u->view : -1, width, buf, size);
}

void draw_graph(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	int nply = u->nmoves + 1, nbars = l->gh - 2, first, done, total, n, per;
	struct graph_point cur;
	char line[160], progress[40];

	if (l->gh < GRAPH_MIN_H || l->gw < 1)
		return;
	per = graph_per_column(nply, l->gw, sc->glyphs == LINES_UTF8);
	first = graph_first(nply, l->gw * per, u->view);
	session_ply_point(u, u->view, &cur);
	graph_caption(&cur, u->view, nply, l->gw, line, sizeof(line));
	draw_text(sc, l->gy, l->gx, l->gw, A_BOLD, line);
	n = (int)strlen(line);
	if (session_reviewing(u, &done, &total)) {
		fmt_buf(progress, sizeof(progress), "reviewing %d/%d", done, total);
		if (n + 2 + (int)strlen(progress) <= l->gw)
			draw_text(sc, l->gy, l->gx + l->gw - (int)strlen(progress),
				  (int)strlen(progress), draw_pair(sc, PAIR_HINT, A_BOLD), progress);
	}
	for (int c = 0; c < l->gw && first + c * per < nply; c++)
		if (per == 2)
			draw_braille_column(sc, l->gx + c, l->gy + 1, nbars, first + 2 * c, nply,
					    u->view);
		else
			draw_column(sc, l->gx + c, l->gy + 1, nbars, first + c, first + c == u->view);
}
