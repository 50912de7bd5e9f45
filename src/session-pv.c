/* session-pv.c - the PV on the board: the line (principal variation) of
 * the panel's selected row, shown as numbered moves over the position the
 * panel is about, stepped a move at a time. Showing it changes neither the
 * position nor the search, which goes on. */
#include "config.h"

#include "session.h"

#include <string.h>

#include "mcts.h"

/* The row the line is of: the selected one, within the N rows. */
static int row_of(const struct session *u, int n)
{
	return u->sel < 0 ? 0 : u->sel >= n ? n - 1 : u->sel;
}

/* LINE from MOVE and, when it starts with MOVE, the line PV of PV_LEN. */
static int move_and_line(int move, const uint8_t *pv, int pv_len, uint8_t *line)
{
	if (pv_len > 0 && pv[0] == move) {
		memcpy(line, pv, (size_t)pv_len);
		return pv_len;
	}
	line[0] = (uint8_t)move;
	return 1;
}

/* The live tree's line below MOVE at the browser's path: MOVE, then the
 * most visited move below each, as far as the tree has visited them (for
 * a row not the search's choice, whose line the totals' PV is). */
static int live_line(const struct session *u, int move, uint8_t *line)
{
	struct mcts *m = session_live_search(u);
	struct mcts_child kids[GAME_MAX_MOVES];
	uint8_t path[GAME_MAX_PLIES];
	int n = 1, len = u->path_len;

	line[0] = (uint8_t)move;
	if (m == NULL || len + 1 > GAME_MAX_PLIES)
		return 1;
	memcpy(path, u->path, (size_t)len);
	path[len++] = (uint8_t)move;
	while (n < MCTS_PV_MAX + 1 && len < GAME_MAX_PLIES &&
	       mcts_stats(m, path, len, kids, GAME_MAX_MOVES, NULL) > 0 && kids[0].visits > 0) {
		line[n++] = (uint8_t)kids[0].move;
		path[len++] = (uint8_t)kids[0].move;
	}
	return n;
}

int session_pv_line(const struct session *u, uint8_t *line, struct pos *from)
{
	const struct session_snap *s;
	int saved, sel;

	if (u->inspecting)
		return 0;
	s = session_shown(u, from);
	if (s == NULL) {
		saved = session_shown_saved(u);
		if (saved < 0)
			return 0;
		*from = u->hist[saved];
		line[0] = u->saved[saved].move;
		return 1;
	}
	if (s->n <= 0)
		return 0;
	sel = row_of(u, s->n);
	if (s->is_eng)
		return move_and_line(s->eng.root[sel].move, s->eng.pv, s->eng.pv_len, line);
	if (s == &u->live && (s->tot.pv_len == 0 || s->tot.pv[0] != s->kids[sel].move))
		return live_line(u, s->kids[sel].move, line);
	return move_and_line(s->kids[sel].move, s->tot.pv, s->tot.pv_len, line);
}

int session_pv_shown(const struct session *u, uint8_t *line, struct pos *from)
{
	int n = session_pv_line(u, line, from);

	return u->pv_step < n ? u->pv_step : n;
}

void session_pv_toggle(struct session *u)
{
	u->pv_on = !u->pv_on;
	u->pv_step = GAME_MAX_PLIES; /* the whole line, as long as it grows */
}

void session_pv_step(struct session *u, int delta)
{
	uint8_t line[GAME_MAX_PLIES];
	struct pos from;
	int n = session_pv_line(u, line, &from);

	if (u->pv_step > n)
		u->pv_step = n;
	u->pv_step += delta;
	if (u->pv_step < 1)
		u->pv_step = 1;
	if (u->pv_step >= n)
		u->pv_step = GAME_MAX_PLIES;
}
