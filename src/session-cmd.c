/* session-cmd.c - the commands of the key table, as transitions of the
 * session: which the situation allows (session_context), what each does,
 * and the words with which one is refused. */
#include "config.h"

#include "session.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

unsigned session_context(const struct session *u)
{
	const struct pos *p = session_present(u);
	const struct pos *shown = &u->hist[u->view];
	unsigned c = 0;

	if (u->modal == SESSION_MODAL_HELP)
		c |= KEYS_HELP;
	if (u->modal == SESSION_MODAL_NEW)
		c |= KEYS_DIALOG;
	/* Who is to move is about the position shown: back in the history a
	 * move goes on from there. */
	if (u->view < u->nmoves)
		c |= KEYS_PAST;
	if (u->view == u->nmoves && game_over(p))
		c |= KEYS_OVER;
	else if (session_is_engine(u, shown->turn))
		c |= KEYS_ENGINE;
	else
		c |= KEYS_HUMAN;
	if (session_eve(u))
		c |= KEYS_EVE;
	if (u->focus_panel)
		c |= KEYS_PANEL;
	if (u->view > 0)
		c |= KEYS_EARLIER;
	if (u->nmoves > 0)
		c |= KEYS_MOVES;
	if (u->paused || session_engine_to_move(u) || u->analysis != NULL)
		c |= KEYS_CAN_PAUSE;
	if (session_live_search(u) != NULL)
		c |= KEYS_SEARCH;
	if (u->pv_on)
		c |= KEYS_PV;
	{
		uint8_t line[GAME_MAX_PLIES];
		struct pos from;

		if (session_pv_line(u, line, &from) > 0)
			c |= KEYS_LINES;
	}
	return c;
}

static void move_cursor(struct session *u, int dc, int dr)
{
	u->cur_col += dc;
	u->cur_row += dr;
	if (u->cur_col < 0)
		u->cur_col = 0;
	if (u->cur_row < 0)
		u->cur_row = 0;
	if (u->cur_col >= u->g.width)
		u->cur_col = u->g.width - 1;
	if (u->cur_row >= u->g.height)
		u->cur_row = u->g.height - 1;
}

/* Tree browser: go into the selected move (DOWN) or back up. */
static void browse(struct session *u, bool down)
{
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);

	if (s == NULL)
		return;
	if (s != &u->live) {
		session_say(u, "Past searches are kept as numbers only: browse the live search.");
		return;
	}
	if (down) {
		if (u->sel >= s->n || s->kids[u->sel].visits == 0) {
			session_say(u, "Nothing below that move yet.");
			return;
		}
		u->path[u->path_len++] = (uint8_t)s->kids[u->sel].move;
		u->sel = u->scroll = 0;
	} else if (u->path_len > 0) {
		int back = u->path[--u->path_len];

		session_refresh(u);
		u->sel = 0;
		for (int i = 0; i < u->live.n; i++)
			if (u->live.kids[i].move == back)
				u->sel = i;
	}
	session_refresh(u);
}

static void inspect(struct session *u)
{
	struct mcts *m = session_live_search(u);

	if (m == NULL || u->view != u->nmoves) {
		session_say(u, "No search to inspect: on your move press t first.");
		return;
	}
	u->paused = true;
	u->inspecting = true;
	u->focus_panel = false;
	u->path_len = 0;
	session_refresh(u);
	u->before = u->live;
	mcts_step_trace(m, &u->trace);
	if (u->analysis == NULL)
		u->ready = false; /* it thought more: the player decides again */
	session_refresh(u);
}

/* Escape: back out of whatever is open, one thing at a time. */
static void escape(struct session *u)
{
	if (u->pv_on) {
		u->pv_on = false;
	} else if (u->inspecting) {
		u->inspecting = false;
	} else if (u->focus_panel || u->path_len > 0) {
		u->focus_panel = false;
		u->path_len = 0;
	} else if (u->view != u->nmoves) {
		u->view = u->nmoves;
		session_cursor_to_allowed(u);
	} else if (u->overlay) {
		u->overlay = false;
	}
}

static void pause_or_resume(struct session *u)
{
	if (u->paused) {
		u->paused = false;
		u->inspecting = false;
		u->turn_ns = now_ns(); /* auto-play pauses again before moving */
	} else {
		u->paused = true;
	}
}

/* m: the engine plays what it has; a pause was for that move only, so its
 * next turn thinks again. */
static void move_now(struct session *u)
{
	int before = u->nmoves;

	session_engine_play(u);
	if (u->nmoves > before && !session_eve(u))
		u->paused = false;
}

static void step(struct session *u)
{
	if (u->ready || u->paused)
		session_engine_play(u);
	else
		u->step_pending = true;
}

static void toggle_analysis(struct session *u)
{
	u->hint_mode = !u->hint_mode;
	if (!u->hint_mode) {
		session_analysis_stop(u);
		session_say(u, "Analysis off.");
	} else if (session_human_to_move(u)) {
		session_analysis_start(u);
		u->paused = false;
		session_say(u, "Analysis on: the engine thinks for you; * marks its move.");
	} else {
		session_say(u, "Analysis on: it starts on a human's move.");
	}
}

static void history(struct session *u, int delta)
{
	u->view += delta;
	if (delta < 0) {
		u->focus_panel = false;
		u->path_len = 0;
	}
	session_cursor_to_allowed(u);
}

/* The commands of the board and the panel, allowed. */
static void run_play_command(struct session *u, int cmd)
{
	switch (cmd) {
	case CMD_FOCUS:
		u->focus_panel = !u->focus_panel;
		if (!u->focus_panel)
			u->path_len = 0;
		u->sel = 0;
		break;
	case CMD_SCROLL_UP: u->scroll -= u->page > 1 ? u->page - 1 : 1; break;
	case CMD_SCROLL_DOWN: u->scroll += u->page > 1 ? u->page - 1 : 1; break;
	case CMD_PAUSE: pause_or_resume(u); break;
	case CMD_MOVE_NOW: move_now(u); break;
	case CMD_CONTINUE: session_continue(u, -1); break;
	case CMD_STEP: step(u); break;
	case CMD_AUTO:
		u->autoplay = !u->autoplay;
		u->turn_ns = now_ns();
		session_say(u, "Auto-play %s.", u->autoplay ? "on" : "off");
		break;
	case CMD_HIST_BACK: history(u, -1); break;
	case CMD_HIST_FORWARD: history(u, 1); break;
	case CMD_SAVE: session_save(u); break;
	case CMD_UNDO: session_undo(u); break;
	case CMD_NEW: session_dialog_open(u); break;
	case CMD_ANALYSIS: toggle_analysis(u); break;
	case CMD_OVERLAY: u->overlay = !u->overlay; break;
	case CMD_INSPECT: inspect(u); break;
	case CMD_REVIEW: session_review_key(u); break;
	case CMD_PV: session_pv_toggle(u); break;
	case CMD_PV_NEXT: session_pv_step(u, 1); break;
	case CMD_PV_PREV: session_pv_step(u, -1); break;
	case CMD_CURSOR_UP: move_cursor(u, 0, -1); break;
	case CMD_CURSOR_DOWN: move_cursor(u, 0, 1); break;
	case CMD_CURSOR_LEFT: move_cursor(u, -1, 0); break;
	case CMD_CURSOR_RIGHT: move_cursor(u, 1, 0); break;
	case CMD_PLAY: session_human_play(u, u->cur_col, u->cur_row); break;
	case CMD_SEL_UP:
		if (u->sel > 0)
			u->sel--;
		break;
	case CMD_SEL_DOWN: u->sel++; break; /* session_refresh() clamps it */
	case CMD_INTO: browse(u, true); break;
	case CMD_OUT: browse(u, false); break;
	}
}

/* The commands of the help screen and the dialog. */
static void run_modal_command(struct session *u, int cmd)
{
	switch (cmd) {
	case CMD_HELP_UP: u->help_scroll--; break;
	case CMD_HELP_DOWN: u->help_scroll++; break;
	case CMD_HELP_PGUP: u->help_scroll -= 10; break;
	case CMD_HELP_PGDN: u->help_scroll += 10; break;
	case CMD_HELP_CLOSE: u->modal = SESSION_MODAL_NONE; break;
	default: session_dialog_command(u, cmd);
	}
}

/* Why CMD cannot be carried out now, on the status line. */
static void refuse(struct session *u, int cmd)
{
	const struct pos *p = session_present(u);
	int mover = u->hist[u->view].turn;

	switch (cmd) {
	case CMD_PAUSE:
		session_say(u, "Nothing is thinking now.");
		break;
	case CMD_MOVE_NOW:
	case CMD_CONTINUE:
		if (u->view < u->nmoves)
			session_say(u,
				    "At move %d %c (a human) is to move: play a cell to continue from "
				    "here.",
				    u->view + 1, game_side_mark(mover));
		else
			session_say(u, "m makes an engine move now; it is %s.",
				    game_over(p) ? "the end of the game" : "a human's move");
		break;
	case CMD_STEP:
	case CMD_AUTO:
		if (!session_eve(u))
			session_say(u, "%s is for engine-against-engine games; here you play.",
				    cmd == CMD_STEP ? "Stepping" : "Auto-play");
		else if (u->view < u->nmoves)
			session_say(u, "s plays the present game's next move: Esc goes back to it first.");
		else
			session_say(u, "The game is over: n starts a new one, u takes back a move.");
		break;
	case CMD_FOCUS:
		session_say(u, "No search to browse: the browser opens while an engine thinks, "
			    "or with t on your move.");
		break;
	case CMD_HIST_BACK:
		session_say(u, "This is the start of the game.");
		break;
	case CMD_HIST_FORWARD:
		session_say(u, "This is the present position.");
		break;
	case CMD_UNDO:
		session_say(u, "Nothing to undo.");
		break;
	case CMD_INSPECT:
		session_say(u, "No search to inspect: on your move press t first.");
		break;
	case CMD_PLAY:
		if (u->view < u->nmoves)
			session_say(u,
				    "At move %d %c (an engine) is to move: m lets it continue from here, "
				    "Esc goes back to the present.",
				    u->view + 1, game_side_mark(mover));
		else if (game_over(p))
			session_say(u, "The game is over: n starts a new one, u takes back a move.");
		else
			session_say(u, "It is %c's move (an engine): wait, or press m to make it move now.",
				    game_side_mark(p->turn));
		break;
	case CMD_REVIEW:
		session_say(u, "Nothing to review: no move has been played yet.");
		break;
	case CMD_PV:
		session_say(u, "No line to show: the panel has no candidate moves now.");
		break;
	case CMD_PV_NEXT:
	case CMD_PV_PREV:
		session_say(u, "Left and Right step through a line: e shows the selected row's.");
		break;
	case CMD_INTO:
	case CMD_OUT:
		if (u->view < u->nmoves)
			session_say(u, "Past searches are kept as numbers only: browse the live search.");
		else
			session_say(u, "No search to browse now.");
		break;
	default:
		session_say(u, "Not now.");
	}
}

char *session_playout_text(const struct session *u, char *buf, size_t size, const char **shows)
{
	struct mcts *m = session_live_search(u);
	const struct mcts_params *p = m != NULL ? mcts_params_of(m) : NULL;
	int n = u->trace.rollout_len;
	const char *kind = p != NULL && p->rollout == ROLLOUT_SMART
				   ? "smart moves (a win, else a block, else any)"
				   : "random moves";

	if (p != NULL && p->eval == MCTS_EVAL_NET) {
		*shows = "no playout";
		return fmt_buf(buf, size, "value   the network's estimate");
	}
	if (p == NULL || p->eval != MCTS_EVAL_MIX || !u->trace.prior)
		*shows = "(faint)";
	else if (p->order == MCTS_ORDER_NET)
		*shows = "the network's value to the new leaf (its parent's moves ordered by it) as "
			 STR(MCTS_ORDER_PRIOR) " visits";
	else
		*shows = "the network's value to the leaf's parent (its second visit) as "
			 STR(MCTS_MIX_PRIOR) " visits";
	return fmt_buf(buf, size, "rollout %d %s", n, kind);
}

const char *session_help_what(const struct keys_row *r, char *buf, size_t size)
{
	char dir[4096], err[200];

	if (r->cmd != CMD_SAVE || record_dir_name(dir, sizeof(dir), err, sizeof(err)) < 0)
		return r->what;
	return fmt_buf(buf, size, "write the game to a new file in %s", dir);
}

/* The row of the key table for CMD (its first), to check the context. */
static const struct keys_row *row_of(int cmd)
{
	for (int i = 0; i < keys_count; i++)
		if (keys_table[i].cmd == cmd)
			return &keys_table[i];
	return NULL;
}

/* Is CMD allowed in the situation? (Any of its rows.) */
static bool allowed(const struct session *u, int cmd)
{
	unsigned ctx = session_context(u);

	for (int i = 0; i < keys_count; i++)
		if (keys_table[i].cmd == cmd && keys_allowed(&keys_table[i], ctx))
			return true;
	return false;
}

int session_command(struct session *u, int cmd)
{
	const struct keys_row *r = row_of(cmd);

	assert(r != NULL);
	if (!allowed(u, cmd)) {
		refuse(u, cmd);
		return SESSION_REDRAW;
	}
	if (r->mode == KEYS_MODE_HELP || r->mode == KEYS_MODE_DIALOG) {
		run_modal_command(u, cmd);
		return SESSION_REDRAW;
	}
	switch (cmd) {
	case CMD_QUIT:
		session_quit(u);
		return SESSION_QUIT;
	case CMD_HELP:
		u->modal = SESSION_MODAL_HELP;
		u->help_scroll = 0;
		break;
	case CMD_ESCAPE:
		escape(u);
		break;
	default:
		run_play_command(u, cmd);
	}
	return SESSION_REDRAW;
}

static int key_event(struct session *u, int key)
{
	int mode = u->modal == SESSION_MODAL_HELP ? KEYS_MODE_HELP
		   : u->modal == SESSION_MODAL_NEW ? KEYS_MODE_DIALOG
		   : u->pv_on			   ? KEYS_MODE_PV
		   : u->focus_panel		   ? KEYS_MODE_PANEL
						   : KEYS_MODE_BOARD;
	const struct keys_row *r;
	bool ok;

	if (key == KEY_CODE_RESIZE)
		return SESSION_REDRAW;
	if (mode != KEYS_MODE_HELP && mode != KEYS_MODE_DIALOG) {
		u->msg[0] = '\0';
		u->msg_sticky = false;
	}
	u->dlg.key = key; /* what the dialog types */
	r = keys_find(mode, key, session_context(u), &ok);
	if (r == NULL)
		return 0;
	if (!ok) {
		refuse(u, r->cmd);
		return SESSION_REDRAW;
	}
	return session_command(u, r->cmd);
}

int session_key(struct session *u, int key)
{
	int r = key_event(u, key);

	if (key != KEY_CODE_RESIZE)
		session_event_done(u);
	return r;
}

void session_click_cell(struct session *u, int col, int row)
{
	u->pv_on = false; /* a click on the board is about the board again */
	u->cur_col = col;
	u->cur_row = row;
	u->focus_panel = false;
	if (allowed(u, CMD_PLAY))
		session_human_play(u, col, row);
	else
		refuse(u, CMD_PLAY);
	session_event_done(u);
}

void session_click_row(struct session *u, int i)
{
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);

	if (s != NULL && u->scroll + i < s->n) {
		u->focus_panel = true;
		u->sel = u->scroll + i;
	}
	session_event_done(u);
}

void session_scroll(struct session *u, int delta)
{
	u->scroll += delta;
}

void session_fit_scroll(struct session *u, int visible)
{
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);
	int n = s != NULL ? s->n : 0;

	u->page = visible;
	if (u->focus_panel) {
		if (u->sel < u->scroll)
			u->scroll = u->sel;
		if (u->sel >= u->scroll + visible)
			u->scroll = u->sel - visible + 1;
	}
	if (u->scroll > n - visible)
		u->scroll = n - visible;
	if (u->scroll < 0)
		u->scroll = 0;
}

void session_fit_help(struct session *u, int room)
{
	if (u->help_scroll > room)
		u->help_scroll = room;
	if (u->help_scroll < 0)
		u->help_scroll = 0;
}
