/* draw-dialog.c - what is drawn over the game: the help made from the key table,
 * the new-game dialog, and the notice that the terminal is too small. */
#include "config.h"

#include "draw.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

static const char *const help_notes[] = {
	"",
	"The panel, one row per candidate move of the side to move:",
	"  visits  times the search went through the move; the bar is its share",
	"  wins, draws, loss  the playouts' results for the mover",
	"  win%    (wins + draws / 2) / visits; dim below 30 visits: noise",
	"  UCT     the score the search selects by: win rate + exploration",
	"  proven  solved by the search: the result and plies to the end",
	"  PV      the principal variation: most visited moves in turn",
	"",
	"For negamax, one row per root move searched:",
	"  score   its value for the mover: 'win in 7', 'loss in 4', 'draw' when",
	"          proven, else the evaluation at the depth reached",
	"  depth   how deep it was searched",
};

/* The key table's rows the help lists: those with keys text. */
static int help_keys(const struct keys_row **out)
{
	int n = 0;

	for (int i = 0; i < keys_count; i++)
		if (keys_table[i].keys != NULL)
			out[n++] = &keys_table[i];
	return n;
}

/* The help's size for the terminal: lines in all, lines shown, the box. */
static void help_box(const struct screen *sc, int total, int *x, int *y, int *w, int *h)
{
	*w = sc->lay.cols - 4 < 100 ? sc->lay.cols - 4 : 100;
	*h = sc->lay.rows - 2 < total + 4 ? sc->lay.rows - 2 : total + 4;
	*x = (sc->lay.cols - *w) / 2;
	*y = (sc->lay.rows - *h) / 2;
}

int draw_help_room(const struct screen *sc)
{
	const struct keys_row *rows[64];
	int total = help_keys(rows) + (int)ARRAY_SIZE(help_notes), x, y, w, h;

	help_box(sc, total, &x, &y, &w, &h);
	return total - (h - 4);
}

void draw_help(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct keys_row *rows[64];
	int nkeys = help_keys(rows), total = nkeys + (int)ARRAY_SIZE(help_notes);
	int x, y, w, h, inner;
	char line[256];

	help_box(sc, total, &x, &y, &w, &h);
	inner = h - 4;
	if (w < 20 || h < 5)
		return;
	draw_box(sc, x, y, w, h, A_NORMAL);
	draw_text(sc, y, x + 2, w - 4, A_BOLD, " Keys ");
	for (int r = 0; r < inner; r++) {
		int i = u->help_scroll + r;

		if (i >= total)
			break;
		if (i < nkeys) {
			fmt_buf(line, sizeof(line), "%-20s %s", rows[i]->keys, rows[i]->what);
			draw_text(sc, y + 2 + r, x + 2, w - 4, A_NORMAL, line);
			draw_text(sc, y + 2 + r, x + 2, 20, A_BOLD, rows[i]->keys);
		} else {
			draw_text(sc, y + 2 + r, x + 2, w - 4, A_NORMAL, help_notes[i - nkeys]);
		}
	}
	draw_text(sc, y + h - 1, x + 2, w - 4, A_BOLD,
		  total > inner ? " Esc closes, Up/Down scroll " : " Esc closes ");
}

void draw_dialog(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct session_dialog *d = &u->dlg;
	static const char *const label[4] = { "Game", "X", "O", "Level" };
	int w = sc->lay.cols - 4 < 72 ? sc->lay.cols - 4 : 72, h = 10;
	int x = (sc->lay.cols - w) / 2, y = (sc->lay.rows - h) / 2;
	char line[160];

	if (w < 24 || sc->lay.rows < h)
		return;
	draw_box(sc, x, y, w, h, A_NORMAL);
	draw_text(sc, y, x + 2, w - 4, A_BOLD, " New game ");
	for (int f = 0; f < 4; f++) {
		const char *value;
		char lv[16];

		if (f == 0)
			value = d->games[d->game];
		else if (f < 3)
			value = d->choices[f - 1][d->who[f - 1]];
		else
			value = fmt_buf(lv, sizeof(lv), "%d", d->level);
		/* Long specs are cut short, keeping the closing mark in view. */
		fmt_buf(line, sizeof(line), "%-6s < %.*s >", label[f], w - 18 > 0 ? w - 18 : 1,
			value);
		draw_text(sc, y + 2 + f, x + 3, w - 6, f == d->field ? A_REVERSE | A_BOLD : A_NORMAL,
			 line);
	}
	draw_text(sc, y + 7, x + 3, w - 6, A_DIM, "Level: engines without a budget of their own.");
	draw_text(sc, y + h - 1, x + 2, w - 4, A_BOLD,
		 " Up/Down field, Left/Right value, Enter starts, Esc ");
}

void draw_too_small(const struct screen *sc)
{
	char line[4][64];
	int n = 4;

	fmt_buf(line[0], sizeof(line[0]), "Terminal too small.");
	fmt_buf(line[1], sizeof(line[1]), "Needs %dx%d,", sc->lay.need_cols, sc->lay.need_rows);
	fmt_buf(line[2], sizeof(line[2]), "it is %dx%d.", sc->lay.cols, sc->lay.rows);
	fmt_buf(line[3], sizeof(line[3]), "q quits.");
	for (int i = 0; i < n && i < sc->lay.rows; i++)
		draw_text(sc, i + (sc->lay.rows > n ? (sc->lay.rows - n) / 2 : 0), 0, sc->lay.cols,
			 i == 0 ? A_BOLD : A_NORMAL, line[i]);
}
