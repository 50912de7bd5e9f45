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
	"The panel, one row per candidate move of the side to move, proven wins first and "
	"proven losses last, the rest by visits:",
	"  visits  times the search went through the move",
	"  share   its share of all visits, as a number and a bar (eighths of a character)",
	"  win%    (wins + draws / 2) / visits for the mover",
	"  proven  solved by the search: the result and plies to the end",
	"  net     with a value network: its value of the move for the mover, beside the "
	"search's",
	"  mm      under eval=mix: the best the network sees for the mover down the tree's "
	"lines (implicit minimax), which UCT moves the win rate toward",
	"  UCT     the score the search selects by: win rate + exploration",
	"  wins, draws, loss  the playouts' results for the mover (a network's value v of a "
	"leaf counts as v of a win)",
	"  PV      the principal variation: the move the engine plays, then the most visited "
	"moves in turn",
	"A narrow panel leaves out whole columns, from the last: wins, draws and losses, then "
	"UCT and mm, net, the bar, the proof, the share.",
	"",
	"What the marks mean, one thing each:",
	"  *       the move the engine plays (or played): on the board and before its row",
	"  bold    the row of that move",
	"  reverse the row selected in the tree browser, or the cursor on the board",
	"  dim     a number not worth much yet: a win rate of fewer than 30 visits (noise), "
	"or a negamax score that is only a bound ('<= draw')",
	"  colour  a win rate of 60% or more green, 40% or less red, between yellow; a proven "
	"win green, draw yellow, loss red",
	"  overlay (v) each candidate's share of visits on its cell, the background the "
	"brighter the larger the share; cells of fewer than 30 visits are left blank; the "
	"legend is under the board",
	"",
	"For negamax, one row per root move searched:",
	"  score   its value for the mover: 'win in 7', 'loss in 4', 'draw' when proven, else "
	"the evaluation at the depth reached",
	"  depth   how deep it was searched",
	"",
	"The value graph, a column per ply from the start, where there is room (two plies a "
	"column, as braille dots, when a long game needs it on a UTF-8 terminal):",
	"  bar     X's value there: full X wins, half even, a step O wins",
	"  marks   x X wins, o O wins, = draw (proven); ? a mistake played there",
	"  cursor  the ply on the board: [ ] or a click move it",
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

#define HELP_KEYS_W 20 /* the keys' column */
#define HELP_MAX 400   /* lines of the help, wrapped */

/* A line of the help: a key's name in bold (or none) and text. */
struct help_line {
	char keys[32];
	char text[VIEW_LINE];
};

/* Note T of the help wrapped to W into OUT after its N lines (a note
 * "  word    text" continued under its text); returns the lines now. */
static int help_note(const char *t, int w, struct help_line *out, int n)
{
	char wrapped[24][VIEW_LINE];
	int indent = t[0] == ' ' ? 10 : 0, k;

	if (indent > 0 && (int)strlen(t) > indent && t[indent - 1] == ' ' && t[indent] != ' ') {
		k = view_wrap(t + indent, " ", w - indent, wrapped, 24);
	} else {
		indent = 0;
		k = view_wrap(t, " ", w, wrapped, 24);
	}
	if (k == 0)
		k = 1, wrapped[0][0] = '\0';
	for (int j = 0; j < k && j < 24 && n < HELP_MAX; j++, n++) {
		out[n].keys[0] = '\0';
		fmt_buf(out[n].text, sizeof(out[n].text), "%.*s%s", indent,
			j == 0 ? t : "                    ", wrapped[j]);
	}
	return n;
}

/* The help wrapped to W characters into OUT (room for HELP_MAX): the keys
 * with their meaning in a second column, then the notes, each continued
 * under its own start. Returns the number of lines. */
static int help_lines(int w, struct help_line *out)
{
	const struct keys_row *rows[64];
	int nkeys = help_keys(rows), n = 0;
	char wrapped[24][VIEW_LINE];

	for (int i = 0; i < nkeys && n < HELP_MAX; i++) {
		char what[VIEW_LINE];
		int k = view_wrap(session_help_what(rows[i], what, sizeof(what)), " ",
				  w - HELP_KEYS_W - 1, wrapped, 24);

		for (int j = 0; j < k && j < 24 && n < HELP_MAX; j++, n++) {
			fmt_buf(out[n].keys, sizeof(out[n].keys), "%s", j == 0 ? rows[i]->keys : "");
			fmt_buf(out[n].text, sizeof(out[n].text), "%-*s %s", HELP_KEYS_W, out[n].keys,
				wrapped[j]);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(help_notes); i++)
		n = help_note(help_notes[i], w, out, n);
	/* The new-game dialog's fields, from the dialog's own table. */
	n = help_note("", w, out, n);
	n = help_note("The new-game dialog (n), a field each, in the command line's words; Enter "
		      "starts what noughts play would:", w, out, n);
	for (int f = 0; f < DLG_FIELDS; f++) {
		char t[VIEW_LINE];

		fmt_buf(t, sizeof(t), "  %-8s%s", session_dlg_fields[f].label,
			session_dlg_fields[f].accepts);
		n = help_note(t, w, out, n);
	}
	return n;
}

/* The help's box for the terminal: its place and size, the width inside. */
static void help_box(const struct screen *sc, int total, int *x, int *y, int *w, int *h)
{
	*w = sc->lay.cols - 4 < 100 ? sc->lay.cols - 4 : 100;
	*h = sc->lay.rows - 2 < total + 4 ? sc->lay.rows - 2 : total + 4;
	*x = (sc->lay.cols - *w) / 2;
	*y = (sc->lay.rows - *h) / 2;
}

static struct help_line help_buf[HELP_MAX];

int draw_help_room(const struct screen *sc)
{
	int w = sc->lay.cols - 4 < 100 ? sc->lay.cols - 4 : 100;
	int total = help_lines(w - 4, help_buf), x, y, h;

	help_box(sc, total, &x, &y, &w, &h);
	return total - (h - 4);
}

void draw_help(const struct screen *sc)
{
	const struct session *u = sc->se;
	int w = sc->lay.cols - 4 < 100 ? sc->lay.cols - 4 : 100;
	int total = help_lines(w - 4, help_buf), x, y, h, inner;
	char line[64];

	help_box(sc, total, &x, &y, &w, &h);
	inner = h - 4;
	if (w < 40 || h < 5)
		return;
	draw_box(sc, x, y, w, h, A_NORMAL);
	draw_text(sc, y, x + 2, w - 4, A_BOLD, " Keys ");
	for (int r = 0; r < inner; r++) {
		int i = u->help_scroll + r;

		if (i >= total)
			break;
		draw_text(sc, y + 2 + r, x + 2, w - 4, A_NORMAL, help_buf[i].text);
		if (help_buf[i].keys[0] != '\0')
			draw_text(sc, y + 2 + r, x + 2, HELP_KEYS_W, A_BOLD, help_buf[i].keys);
	}
	if (total > inner)
		fmt_buf(line, sizeof(line), " %d above, %d below: Up/Down, PgUp/PgDn; Esc closes ",
			u->help_scroll, total - inner - u->help_scroll);
	else
		fmt_buf(line, sizeof(line), " Esc closes ");
	draw_text(sc, y + h - 1, x + 2, w - 4, A_BOLD, line);
}

/* A field's text in W columns: its end when it is longer (typing goes
 * there), with a cursor after it when it has the focus. */
static void field_text(const char *t, bool focus, int w, char *buf, size_t size)
{
	int len = (int)strlen(t) + (focus ? 1 : 0);

	if (w < 4)
		w = 4;
	if (len <= w)
		fmt_buf(buf, size, "%s%s", t, focus ? "_" : "");
	else
		fmt_buf(buf, size, "...%s%s", t + (len - w + 3), focus ? "_" : "");
}

void draw_dialog(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct session_dialog *d = &u->dlg;
	int w = sc->lay.cols - 4 < 76 ? sc->lay.cols - 4 : 76;
	int h = sc->lay.rows < 16 ? sc->lay.rows : 16;
	int x = (sc->lay.cols - w) / 2, y = (sc->lay.rows - h) / 2, in = w - 6, n, room;
	char line[VIEW_LINE], value[VIEW_LINE], out[6][VIEW_LINE];
	int avail = h - 3 - DLG_FIELDS, top; /* rows under the fields */

	if (w < 30 || h < DLG_FIELDS + 4)
		return;
	draw_box(sc, x, y, w, h, A_NORMAL);
	draw_text(sc, y, x + 2, w - 4, A_BOLD, " New game ");
	for (int f = 0; f < DLG_FIELDS; f++) {
		bool focus = f == d->field;

		field_text(d->text[f], focus && !d->fresh, in - 16, value, sizeof(value));
		fmt_buf(line, sizeof(line), "%-7s < %s >%s", session_dlg_fields[f].label, value,
			f == DLG_DELAY ? " ms" : "");
		draw_text(sc, y + 2 + f, x + 3, in, focus ? A_REVERSE | A_BOLD : A_NORMAL, line);
	}
	/* Rows y + 8 to y + h - 2: a blank, what the field accepts, an error;
	 * on a short terminal the error first. */
	top = y + 2 + DLG_FIELDS + (avail >= 5 ? 1 : 0);
	room = avail >= 5 ? 2 : avail >= 2 || d->error[0] == '\0' ? 1 : 0;
	n = room > 0 ? view_fit_text(session_dlg_fields[d->field].accepts, in, out, room) : 0;
	for (int i = 0; i < n; i++)
		draw_text(sc, top + i, x + 3, in, A_DIM, out[i]);
	if (d->error[0] != '\0' && y + h - 1 - (top + room) > 0) {
		n = view_fit_text(d->error, in, out, y + h - 1 - (top + room));
		for (int i = 0; i < n; i++)
			draw_text(sc, top + room + i, x + 3, in,
				  draw_pair(sc, PAIR_BAD, A_BOLD) | A_BOLD, out[i]);
	}
	draw_text(sc, y + h - 1, x + 2, w - 4, A_BOLD,
		  w >= 70 ? " Up/Down field, Left/Right choice, type to edit, Enter starts, Esc "
			  : " Up/Down, Left/Right, type; Enter, Esc ");
}

void draw_too_small(const struct screen *sc)
{
	const struct view_layout *l = &sc->lay;
	char text[4][96], out[12][VIEW_LINE];
	int n = 0, y;

	fmt_buf(text[0], sizeof(text[0]), "Terminal too small: %dx%d.", l->cols, l->rows);
	fmt_buf(text[1], sizeof(text[1]), "The panel beside the board needs %dx%d,", l->side_cols,
		l->side_rows);
	fmt_buf(text[2], sizeof(text[2]), "below it %dx%d.", l->below_cols, l->below_rows);
	/* In the dialog q is a letter typed. */
	fmt_buf(text[3], sizeof(text[3]), "%s",
		sc->se->modal == SESSION_MODAL_NEW ? "Esc closes the new-game dialog, then q quits."
						   : "q quits.");
	/* Each sentence wrapped on its own, as many as the screen holds. */
	for (int i = 0; i < 4 && n < 12; i++)
		n += view_fit_text(text[i], l->cols, out + n, 12 - n);
	y = l->rows > n ? (l->rows - n) / 2 : 0;
	for (int i = 0; i < n && y + i < l->rows; i++)
		draw_text(sc, y + i, 0, l->cols, i == 0 ? A_BOLD : A_NORMAL, out[i]);
}
