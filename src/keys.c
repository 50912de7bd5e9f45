/* keys.c - the key table of the game screen and what is made from it
 * besides the dispatch: the key line. */
#include "config.h"

#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define H KEYS_HUMAN
#define E KEYS_ENGINE
#define O KEYS_OVER
#define EVE KEYS_EVE
#define P KEYS_PANEL
#define ENTER KEY_CODE_ENTER, '\n', '\r'

/* The help lists the rows with keys text, in this order. */
const struct keys_row keys_table[] = {
	{ KEYS_MODE_BOARD, { KEY_CODE_UP, 'k' }, CMD_CURSOR_UP, 0, 0, 0, "Arrows, h j k l",
	  "move the cursor", "arrows move", H },
	{ KEYS_MODE_BOARD, { KEY_CODE_DOWN, 'j' }, CMD_CURSOR_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_BOARD, { KEY_CODE_LEFT, 'h' }, CMD_CURSOR_LEFT, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_BOARD, { KEY_CODE_RIGHT, 'l' }, CMD_CURSOR_RIGHT, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_BOARD, { ENTER, ' ' }, CMD_PLAY, H, 0, O, "Enter, Space",
	  "play the cell under the cursor", "Enter play", H },
	{ KEYS_MODE_BOARD, { 0 }, CMD_NONE, 0, 0, 0, "Mouse click",
	  "play the clicked cell; a ply of the graph: show it; a panel row: select it; the wheel "
	  "scrolls the panel", NULL, 0 },
	{ KEYS_MODE_ANY, { '\t' }, CMD_FOCUS, 0, KEYS_SEARCH | P, 0, "Tab",
	  "tree browser: move the focus to the panel and back; the selected row's move is marked "
	  "on the board", "Tab tree", H | E | P },
	{ KEYS_MODE_PANEL, { KEY_CODE_UP, 'k' }, CMD_SEL_UP, 0, 0, 0, "Up, Down, j k",
	  "tree browser: select a row of the panel", "Up/Down select", P },
	{ KEYS_MODE_PANEL, { KEY_CODE_DOWN, 'j' }, CMD_SEL_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_PANEL, { ENTER, KEY_CODE_RIGHT, 'l' }, CMD_INTO, KEYS_SEARCH, 0, KEYS_PAST,
	  "Enter, Right, l",
	  "tree browser: go down into the selected move: the board, the rows and the PV are "
	  "then those of the position after it", "Right into", P },
	{ KEYS_MODE_PANEL, { KEY_CODE_LEFT, 'h', KEY_CODE_BACKSPACE, 127, 8 }, CMD_OUT, KEYS_SEARCH,
	  0, KEYS_PAST, "Left, h, Backspace", "tree browser: go back up", "Left back", P },
	{ KEYS_MODE_ANY, { 's' }, CMD_STEP, EVE, 0, O | KEYS_PAST, "s",
	  "engine against engine: play the next move", "s step", EVE },
	{ KEYS_MODE_ANY, { 'a' }, CMD_AUTO, EVE, 0, O, "a", "engine against engine: auto-play on or off",
	  "a auto", EVE },
	{ KEYS_MODE_ANY, { 'p' }, CMD_PAUSE, KEYS_CAN_PAUSE, 0, 0, "p",
	  "pause or resume the engine's thinking", "p pause", E },
	{ KEYS_MODE_ANY, { 'm' }, CMD_MOVE_NOW, E, 0, KEYS_PAST, "m",
	  "make the engine move now; back in the history: it continues from there", "m move now",
	  E },
	{ KEYS_MODE_ANY, { 'm' }, CMD_CONTINUE, E | KEYS_PAST, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_ANY, { 't' }, CMD_ANALYSIS, 0, 0, 0, "t",
	  "analysis: the engine thinks for you and marks its move", "t hint", H },
	{ KEYS_MODE_ANY, { 'u' }, CMD_UNDO, KEYS_MOVES, 0, 0, "u",
	  "undo your last move and the engine's reply", "u undo", H | O },
	{ KEYS_MODE_ANY, { 'n' }, CMD_NEW, 0, 0, 0, "n",
	  "new game: choose the game, the players and the level", "n new", O | H },
	{ KEYS_MODE_ANY, { 'w' }, CMD_SAVE, 0, 0, 0, "w",
	  "write the game to a new file in the data directory", "w save", O },
	{ KEYS_MODE_ANY, { '[' }, CMD_HIST_BACK, KEYS_EARLIER, 0, 0, "[, ]",
	  "step through the game; a move made back there continues from it", "[ ] history",
	  O | H | E },
	{ KEYS_MODE_ANY, { ']' }, CMD_HIST_FORWARD, KEYS_PAST, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_ANY, { 'v' }, CMD_OVERLAY, 0, 0, 0, "v",
	  "overlay on the board: a heat map of each candidate's share of visits, its legend under "
	  "the board", "v overlay", E | H },
	{ KEYS_MODE_ANY, { 'i' }, CMD_INSPECT, KEYS_SEARCH, 0, KEYS_PAST, "i",
	  "iteration inspector: pause and run one iteration, showing its phases", "i inspect", E },
	{ KEYS_MODE_ANY, { 'e' }, CMD_PV, 0, KEYS_LINES | KEYS_PV, 0, "e",
	  "the selected row's line on the board as numbered moves (the search goes on); again "
	  "or Escape: off",
	  "e line", E | H | O | P | KEYS_PV },
	{ KEYS_MODE_PV, { KEY_CODE_RIGHT, 'l' }, CMD_PV_NEXT, 0, 0, 0, "Left, Right, h l",
	  "a line on the board: one move less or more of it", "Left/Right step", KEYS_PV },
	{ KEYS_MODE_PV, { KEY_CODE_LEFT, 'h' }, CMD_PV_PREV, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_PV, { KEY_CODE_UP, 'k' }, CMD_SEL_UP, 0, 0, 0, "Up, Down, k j",
	  "a line on the board: the line of the panel's row above or below", "Up/Down row",
	  KEYS_PV },
	{ KEYS_MODE_PV, { KEY_CODE_DOWN, 'j' }, CMD_SEL_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_ANY, { 'r' }, CMD_REVIEW, KEYS_MOVES, 0, 0, "r",
	  "review the game so far: mistakes get a ? in the graph and the game line; again: stop",
	  "r review", O },
	{ KEYS_MODE_ANY, { KEY_CODE_PGUP }, CMD_SCROLL_UP, 0, 0, 0, "PgUp, PgDn",
	  "scroll the panel's rows a page up or down; the last row says how many are above and "
	  "below", NULL, 0 },
	{ KEYS_MODE_ANY, { KEY_CODE_PGDN }, CMD_SCROLL_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_ANY, { KEY_CODE_ESC }, CMD_ESCAPE, 0, 0, 0, "Escape",
	  "close a dialog, leave the browser or inspector, back to the present", NULL, 0 },
	{ KEYS_MODE_ANY, { '?' }, CMD_HELP, 0, 0, 0, "?", "this help", NULL, 0 },
	{ KEYS_MODE_ANY, { 'q', 'Q' }, CMD_QUIT, 0, 0, 0, "q", "quit (Ctrl-C too)", NULL, 0 },

	/* The help screen: any other key closes it. */
	{ KEYS_MODE_HELP, { KEY_CODE_UP, 'k' }, CMD_HELP_UP, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_HELP, { KEY_CODE_DOWN, 'j' }, CMD_HELP_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_HELP, { KEY_CODE_PGUP }, CMD_HELP_PGUP, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_HELP, { KEY_CODE_PGDN }, CMD_HELP_PGDN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_HELP, { -1 }, CMD_HELP_CLOSE, 0, 0, 0, NULL, NULL, NULL, 0 },

	/* The new-game dialog: its fields take typed text, so letters are
	 * not keys there. */
	{ KEYS_MODE_DIALOG, { KEY_CODE_ESC }, CMD_DLG_CLOSE, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_DIALOG, { KEY_CODE_UP }, CMD_DLG_UP, 0, 0, 0, "Up, Down, Tab",
	  "new-game dialog: the field above or below", NULL, 0 },
	{ KEYS_MODE_DIALOG, { KEY_CODE_DOWN, '\t' }, CMD_DLG_DOWN, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_DIALOG, { KEY_CODE_LEFT }, CMD_DLG_LEFT, 0, 0, 0, "Left, Right",
	  "new-game dialog: the field's previous or next choice", NULL, 0 },
	{ KEYS_MODE_DIALOG, { KEY_CODE_RIGHT }, CMD_DLG_RIGHT, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_DIALOG, { ENTER }, CMD_DLG_START, 0, 0, 0, "Enter",
	  "new-game dialog: start the game; on a field it cannot take, the dialog stays open "
	  "with the focus there, what the field accepts and why", NULL, 0 },
	{ KEYS_MODE_DIALOG, { KEY_CODE_BACKSPACE, 127, 8 }, CMD_DLG_ERASE, 0, 0, 0,
	  "Typing, Backspace", "new-game dialog: edit the field's text, in the command line's "
	  "words (the first key typed replaces it); Ctrl-U empties it", NULL, 0 },
	{ KEYS_MODE_DIALOG, { 21 }, CMD_DLG_CLEAR, 0, 0, 0, NULL, NULL, NULL, 0 },
	{ KEYS_MODE_DIALOG, { -1 }, CMD_DLG_TYPE, 0, 0, 0, NULL, NULL, NULL, 0 },
};
const int keys_count = (int)ARRAY_SIZE(keys_table);

/* The first row of KEY in MODE allowed in CTX, else the first of KEY in
 * MODE at all (*OK false), else NULL. */
static const struct keys_row *find_in(int mode, int key, unsigned ctx, bool *ok)
{
	const struct keys_row *first = NULL;

	for (int i = 0; i < keys_count; i++) {
		const struct keys_row *r = &keys_table[i];

		if (r->mode != mode || r->cmd == CMD_NONE)
			continue;
		for (int j = 0; j < KEYS_MAX_CODES && r->codes[j] != 0; j++)
			if (r->codes[j] == key || r->codes[j] == -1) {
				if (keys_allowed(r, ctx)) {
					*ok = true;
					return r;
				}
				if (first == NULL)
					first = r;
				break;
			}
	}
	*ok = false;
	return first;
}

const struct keys_row *keys_find(int mode, int key, unsigned ctx, bool *ok)
{
	const struct keys_row *r = find_in(mode, key, ctx, ok);

	if (r == NULL && (mode == KEYS_MODE_BOARD || mode == KEYS_MODE_PANEL || mode == KEYS_MODE_PV))
		r = find_in(KEYS_MODE_ANY, key, ctx, ok);
	return r;
}

char *keys_line(unsigned ctx, int width, char *buf, size_t size)
{
	static const char tail[] = "? help  q quit";
	int len = 0, room = width - (int)strlen(tail);
	/* The tree browser and a line on the board show their own keys only. */
	unsigned when = ctx & KEYS_PV	   ? KEYS_PV
			: ctx & KEYS_PANEL ? KEYS_PANEL
					   : ctx & (KEYS_HUMAN | KEYS_ENGINE | KEYS_OVER | KEYS_EVE);

	if (size == 0)
		return buf;
	buf[0] = '\0';
	/* The dialog's fields take letters: its own keys, not the game's. */
	if (ctx & KEYS_DIALOG) {
		static const char *const dlg[] = { "Up/Down field", "Left/Right choice",
						   "Enter start", "Esc close" };

		for (size_t i = 0; i < ARRAY_SIZE(dlg); i++)
			if (len + 2 + (int)strlen(dlg[i]) <= width && (size_t)(len + 2) + strlen(dlg[i]) < size)
				len += snprintf(buf + len, size - (size_t)len, "%s%s", len > 0 ? "  " : "",
						dlg[i]);
		return buf;
	}
	for (int i = 0; i < keys_count; i++) {
		const struct keys_row *k = &keys_table[i];
		int n;

		/* Only keys that would be carried out (as if the help were not
		 * open: the line shows under it too). */
		if (k->brief == NULL || !(k->show & when) ||
		    !keys_allowed(k, ctx & ~(unsigned)(KEYS_HELP | KEYS_DIALOG)))
			continue;
		n = (int)strlen(k->brief) + 2;
		if (len + n > room || (size_t)(len + n) >= size)
			continue;
		len += snprintf(buf + len, size - (size_t)len, "%s  ", k->brief);
	}
	if (len + (int)strlen(tail) <= width)
		snprintf(buf + len, size - (size_t)len, "%s", tail);
	return buf;
}
