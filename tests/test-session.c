/* test-session.c - the game session without a terminal: every command of
 * the key table in every situation, carried out where it is allowed and
 * refused (state unchanged, a reason given) where it is not, and the odd
 * transitions: undo during the engine's turn, m while paused, stepping
 * past the end of a loaded record, a new game while negamax's worker runs,
 * continuing from an earlier move, step and auto-play, save and load. */
#include "config.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keys.h"
#include "record.h"
#include "session.h"
#include "session-fixture.h"
#include "tap.h"
#include "util.h"

/* Think one slice, so an engine's search has numbers (and a 60 s budget
 * keeps it from finishing). */
static void think_a_little(struct session *u)
{
	session_tick(u, now_ns());
	session_refresh(u);
}

/* The situations, each made afresh for every command. */
enum {
	S_START,   /* human against human, the start */
	S_PLAYED,  /* human against human, two moves played */
	S_PAST,    /* ... looking at the position after one move (a human to move) */
	S_ENGINE,  /* human against mcts, mcts thinking */
	S_PAUSED,  /* ... paused */
	S_ANALYSIS, /* human against human, t on */
	S_OVER,    /* the game is over */
	S_EVE,     /* random against random, in step mode */
	S_EVE_OVER, /* ... at the end of the game */
	S_PANEL,   /* S_ENGINE with the focus on the panel */
	S_PANEL_PAST, /* ... looking back at the start (Tab there) */
	S_PANEL_IDLE, /* S_PANEL after the engine's move: nothing to browse */
	S_PAST_ENGINE, /* looking back at a position where the engine was to move */
	S_HELP,    /* the help is open */
	S_DIALOG,  /* the new-game dialog is open */
	S_PV,      /* S_ENGINE with the first row's line on the board, two moves of it */
	S_COUNT
};

/* Each situation's name, and the facts of the key table's contexts that
 * hold in it, written here from how it is made (the test checks
 * session_context() against them; the key table then says which commands
 * it allows). */
#define MOVED (KEYS_MOVES | KEYS_EARLIER)
#define THINKS (KEYS_CAN_PAUSE | KEYS_SEARCH | KEYS_LINES) /* a search with candidate rows */
static const struct {
	const char *name;
	unsigned ctx;
} facts[S_COUNT] = {
	[S_START] = { "start", KEYS_HUMAN },
	[S_PLAYED] = { "played", KEYS_HUMAN | MOVED },
	[S_PAST] = { "past", KEYS_HUMAN | KEYS_PAST | MOVED },
	[S_ENGINE] = { "engine", KEYS_ENGINE | MOVED | THINKS },
	[S_PAUSED] = { "paused", KEYS_ENGINE | MOVED | THINKS },
	[S_ANALYSIS] = { "analysis", KEYS_HUMAN | MOVED | THINKS },
	[S_OVER] = { "over", KEYS_OVER | MOVED },
	[S_EVE] = { "eve", KEYS_ENGINE | KEYS_EVE | KEYS_CAN_PAUSE },
	[S_EVE_OVER] = { "eve-over", KEYS_OVER | KEYS_EVE | MOVED },
	[S_PANEL] = { "panel", KEYS_PANEL | KEYS_ENGINE | MOVED | THINKS },
	[S_PANEL_PAST] = { "panel-past", KEYS_PANEL | KEYS_PAST | KEYS_HUMAN | KEYS_MOVES |
					 KEYS_CAN_PAUSE | KEYS_SEARCH },
	[S_PANEL_IDLE] = { "panel-idle", KEYS_PANEL | KEYS_HUMAN | MOVED | KEYS_LINES },
	[S_PAST_ENGINE] = { "past-engine", KEYS_PAST | KEYS_ENGINE | MOVED },
	[S_HELP] = { "help", KEYS_HELP | KEYS_HUMAN | MOVED },
	[S_DIALOG] = { "dialog", KEYS_DIALOG | KEYS_HUMAN | MOVED },
	[S_PV] = { "pv", KEYS_ENGINE | MOVED | THINKS | KEYS_PV },
};

static struct session *situation(struct options *opt, int s)
{
	static const char *const engine = "mcts:time=60000,seed=1";
	struct session *u;

	switch (s) {
	case S_START:
		return make(opt, "ttt", "human", "human", "");
	case S_PLAYED:
	case S_PAST:
		u = make(opt, "4,4,3", "human", "human", "b2 a1");
		u->cur_col = u->cur_row = 2; /* c3: empty, room on every side */
		if (s == S_PAST)
			u->view = 1;
		return u;
	case S_ENGINE:
	case S_PAUSED:
	case S_PANEL:
	case S_PANEL_PAST:
	case S_PANEL_IDLE:
	case S_PV:
		/* Ultimate: the engine is far from solving it in a slice. */
		u = make(opt, "uttt", "human", engine, "e5");
		think_a_little(u);
		if (s == S_PAUSED)
			session_command(u, CMD_PAUSE);
		if (s == S_PANEL_PAST)
			session_command(u, CMD_HIST_BACK);
		if (s == S_PANEL || s == S_PANEL_PAST || s == S_PANEL_IDLE)
			session_command(u, CMD_FOCUS);
		if (s == S_PANEL_IDLE) /* the engine moves: nothing to browse now */
			session_command(u, CMD_MOVE_NOW);
		if (s == S_PV) {
			session_command(u, CMD_PV);
			u->pv_step = 2;
		}
		u->msg[0] = '\0';
		return u;
	case S_ANALYSIS:
		u = make(opt, "uttt", "human", "human", "e5");
		session_command(u, CMD_ANALYSIS);
		think_a_little(u);
		u->cur_col = u->cur_row = 3; /* d4: free, in the small board e5 sends O to */
		return u;
	case S_OVER:
		return make(opt, "ttt", "human", "human", "a1 b1 a2 b2 a3");
	case S_EVE:
		return make(opt, "ttt", "random:seed=1", "random:seed=2", "");
	case S_EVE_OVER:
		return make(opt, "ttt", "random:seed=1", "random:seed=2", "a1 b1 a2 b2 a3");
	case S_PAST_ENGINE:
		u = make(opt, "ttt", "human", engine, "b2 a1");
		u->view = 1;
		return u;
	case S_HELP:
		u = make(opt, "ttt", "human", "human", "b2");
		session_command(u, CMD_HELP);
		u->help_scroll = 3;
		return u;
	default:
		u = make(opt, "ttt", "human", "human", "b2");
		session_command(u, CMD_NEW);
		u->dlg.field = DLG_X;
		u->dlg.key = '7'; /* what CMD_DLG_TYPE types */
		return u;
	}
}

/* What the commands may change, to tell "refused" from "done". */
struct state {
	int nmoves, view, modal, cur_col, cur_row, scroll, sel, help_scroll, path_len, field;
	char text[SESSION_DLG_TEXT]; /* the dialog's field with the focus */
	bool paused, autoplay, step_pending, overlay, hint_mode, inspecting, focus_panel;
	bool analysis, pv_on, reviewing;
	int pv_step;
};

static void state_of(const struct session *u, struct state *st)
{
	memset(st, 0, sizeof(*st));
	st->nmoves = u->nmoves;
	st->view = u->view;
	st->modal = u->modal;
	st->cur_col = u->cur_col;
	st->cur_row = u->cur_row;
	st->scroll = u->scroll;
	st->sel = u->sel;
	st->help_scroll = u->help_scroll;
	st->path_len = u->path_len;
	st->field = u->dlg.field;
	memcpy(st->text, u->dlg.text[u->dlg.field], sizeof(st->text));
	st->paused = u->paused;
	st->autoplay = u->autoplay;
	st->step_pending = u->step_pending;
	st->overlay = u->overlay;
	st->hint_mode = u->hint_mode;
	st->inspecting = u->inspecting;
	st->focus_panel = u->focus_panel;
	st->analysis = u->analysis != NULL;
	st->pv_on = u->pv_on;
	st->pv_step = u->pv_step;
	{
		int done, total;

		st->reviewing = session_reviewing(u, &done, &total);
	}
}

/* Does the key table allow CMD in the situation CTX (any of its rows)? */
static bool table_allows(int cmd, unsigned ctx)
{
	for (int i = 0; i < keys_count; i++)
		if (keys_table[i].cmd == cmd && keys_allowed(&keys_table[i], ctx))
			return true;
	return false;
}

/* Did CMD do its work, going from A to B (R: what it returned)? */
static bool did(int cmd, const struct session *u, const struct state *a, const struct state *b,
		int r)
{
	switch (cmd) {
	case CMD_QUIT: return r == SESSION_QUIT;
	case CMD_HELP: return b->modal == SESSION_MODAL_HELP;
	case CMD_ESCAPE:
		return a->focus_panel ? !b->focus_panel : a->view < a->nmoves ? b->view == b->nmoves
									 : r == SESSION_REDRAW;
	case CMD_FOCUS: return b->focus_panel != a->focus_panel;
	/* a page of the rows the panel shows, one of them kept in view */
	case CMD_SCROLL_UP: return b->scroll == a->scroll - (u->page > 1 ? u->page - 1 : 1);
	case CMD_SCROLL_DOWN: return b->scroll == a->scroll + (u->page > 1 ? u->page - 1 : 1);
	case CMD_PAUSE: return b->paused != a->paused;
	case CMD_MOVE_NOW: return b->nmoves == a->nmoves + 1;
	case CMD_CONTINUE: /* the first m asks (test_rewrite() presses it twice) */
		return u->confirm_at == a->view + 1 && b->nmoves == a->nmoves;
	case CMD_STEP: return b->nmoves == a->nmoves + 1 || b->step_pending;
	case CMD_AUTO: return b->autoplay != a->autoplay;
	case CMD_HIST_BACK: return b->view == a->view - 1;
	case CMD_HIST_FORWARD: return b->view == a->view + 1;
	case CMD_SAVE: return strncmp(u->msg, "Saved ", 6) == 0;
	case CMD_UNDO: return b->nmoves < a->nmoves;
	case CMD_NEW: return b->modal == SESSION_MODAL_NEW;
	case CMD_ANALYSIS: return b->hint_mode != a->hint_mode;
	case CMD_OVERLAY: return b->overlay != a->overlay;
	case CMD_INSPECT: return b->inspecting && b->paused;
	case CMD_REVIEW: return b->reviewing && !a->reviewing;
	case CMD_PV: return b->pv_on != a->pv_on;
	case CMD_PV_NEXT: return b->pv_step > a->pv_step;
	case CMD_PV_PREV: return b->pv_step < a->pv_step;
	case CMD_CURSOR_UP: return b->cur_row == a->cur_row - 1 && b->cur_col == a->cur_col;
	case CMD_CURSOR_DOWN: return b->cur_row == a->cur_row + 1 && b->cur_col == a->cur_col;
	case CMD_CURSOR_LEFT: return b->cur_col == a->cur_col - 1 && b->cur_row == a->cur_row;
	case CMD_CURSOR_RIGHT: return b->cur_col == a->cur_col + 1 && b->cur_row == a->cur_row;
	case CMD_PLAY:
		if (a->view < a->nmoves) /* back there it asks first */
			return u->confirm_at == a->view + 1 && b->nmoves == a->nmoves;
		return b->nmoves == a->view + 1 && b->view == b->nmoves;
	case CMD_SEL_UP: return b->sel == (a->sel > 0 ? a->sel - 1 : 0);
	case CMD_SEL_DOWN: return b->sel == a->sel + 1;
	case CMD_INTO: return b->path_len == a->path_len + 1;
	case CMD_OUT: return b->path_len == (a->path_len > 0 ? a->path_len - 1 : 0);
	case CMD_HELP_UP: return b->help_scroll == a->help_scroll - 1;
	case CMD_HELP_DOWN: return b->help_scroll == a->help_scroll + 1;
	case CMD_HELP_PGUP: return b->help_scroll == a->help_scroll - 10;
	case CMD_HELP_PGDN: return b->help_scroll == a->help_scroll + 10;
	case CMD_HELP_CLOSE: return b->modal == SESSION_MODAL_NONE;
	case CMD_DLG_CLOSE: return b->modal == SESSION_MODAL_NONE && b->nmoves == a->nmoves;
	case CMD_DLG_UP: return b->field == (a->field > 0 ? a->field - 1 : 0);
	case CMD_DLG_DOWN: return b->field == (a->field < DLG_FIELDS - 1 ? a->field + 1 : a->field);
	case CMD_DLG_LEFT:
	case CMD_DLG_RIGHT: return strcmp(b->text, a->text) != 0;
	case CMD_DLG_TYPE: return strcmp(b->text, "7") == 0; /* the first key replaces */
	case CMD_DLG_ERASE: return strlen(b->text) + 1 == strlen(a->text);
	case CMD_DLG_CLEAR: return b->text[0] == '\0';
	case CMD_DLG_START:
		return b->modal == SESSION_MODAL_NONE && b->nmoves == 0 &&
		       strcmp(u->msg, "New game.") == 0;
	}
	return false;
}

/* The key table's lookup mode in the situation CTX. */
static int mode_of(unsigned ctx)
{
	return ctx & KEYS_HELP     ? KEYS_MODE_HELP
	       : ctx & KEYS_DIALOG ? KEYS_MODE_DIALOG
	       : ctx & KEYS_PV     ? KEYS_MODE_PV
	       : ctx & KEYS_PANEL  ? KEYS_MODE_PANEL
				   : KEYS_MODE_BOARD;
}

/* Is row R's mode the one of CTX (so only its context bits can refuse it)? */
static bool in_mode(const struct keys_row *r, unsigned ctx)
{
	int m = mode_of(ctx);

	return r->mode == m || (r->mode == KEYS_MODE_ANY && m != KEYS_MODE_HELP &&
				m != KEYS_MODE_DIALOG);
}

/* CMD in situation S: carried out where the key table allows it (and it
 * did its work), else refused (nothing changed, a reason given). Returns
 * the number of wrong outcomes. */
static int try_command(int cmd, int s, int *done, int *refusals)
{
	struct options opt;
	struct session *u = situation(&opt, s);
	unsigned ctx = session_context(u);
	bool allow = table_allows(cmd, ctx);
	struct state a, b;
	int r, wrong = 0;

	u->msg[0] = '\0';
	if (cmd == CMD_SEL_UP)
		u->sel = 1;
	state_of(u, &a);
	r = session_command(u, cmd);
	state_of(u, &b);
	if (!allow) {
		++*refusals;
		if (memcmp(&a, &b, sizeof(a)) != 0 || u->msg[0] == '\0') {
			printf("# %s: command %d not refused (msg '%s')\n", facts[s].name, cmd, u->msg);
			wrong++;
		}
	} else {
		++*done;
		if (!did(cmd, u, &a, &b, r)) {
			printf("# %s: command %d not done (msg '%s')\n", facts[s].name, cmd, u->msg);
			wrong++;
		}
	}
	session_free(u);
	return wrong;
}

/* Every key of row R maps to R's command in the situation CTX, where R
 * is allowed: no other row takes its key first. */
static int keys_reach(const struct keys_row *r, unsigned ctx, const char *name)
{
	int wrong = 0;

	for (int j = 0; j < KEYS_MAX_CODES && r->codes[j] > 0; j++) {
		bool ok;
		const struct keys_row *f = keys_find(mode_of(ctx), r->codes[j], ctx, &ok);

		if (f == NULL || !ok || f->cmd != r->cmd) {
			printf("# %s: key %d does not reach command %d\n", name, r->codes[j], r->cmd);
			wrong++;
		}
	}
	return wrong;
}

/* Every command of the key table in every situation: what is allowed and
 * what refused comes from the table itself, so the two cannot drift. The
 * situations must between them allow every row, refuse every row that
 * has conditions in its own mode, and have every context bit the table
 * names both hold and not hold. */
static void test_table(void)
{
	int wrong = 0, done = 0, refusals = 0, uncovered = 0;
	unsigned ctx[S_COUNT], used = 0, seen_set = 0, seen_clear = 0;
	bool allowed_somewhere[64] = { false }, refused_somewhere[64] = { false };

	assert(keys_count <= 64);
	for (int s = 0; s < S_COUNT; s++) {
		struct options opt;
		struct session *u = situation(&opt, s);

		ctx[s] = session_context(u);
		ok(ctx[s] == facts[s].ctx, "situation %s: the context is %#x (session_context: %#x)",
		   facts[s].name, facts[s].ctx, ctx[s]);
		session_free(u);
		if (!(ctx[s] & (KEYS_HELP | KEYS_DIALOG))) {
			seen_set |= ctx[s];
			seen_clear |= ~ctx[s];
		}
	}
	for (int i = 0; i < keys_count; i++) {
		const struct keys_row *r = &keys_table[i];

		if (r->cmd == CMD_NONE)
			continue;
		used |= r->need | r->any | r->never;
		for (int s = 0; s < S_COUNT; s++) {
			if (keys_allowed(r, ctx[s])) {
				allowed_somewhere[i] = true;
				wrong += keys_reach(r, ctx[s], facts[s].name);
			} else if (in_mode(r, ctx[s])) {
				refused_somewhere[i] = true;
			}
		}
		if (!allowed_somewhere[i] ||
		    (!refused_somewhere[i] && (r->need | r->any | r->never) != 0)) {
			printf("# row %d (command %d) is never %s in the situations\n", i, r->cmd,
			       allowed_somewhere[i] ? "refused" : "allowed");
			uncovered++;
		}
	}
	if ((used & seen_set & seen_clear) != used) {
		printf("# context bits %#x never both hold and fail\n",
		       used & ~(seen_set & seen_clear));
		uncovered++;
	}
	ok(uncovered == 0, "the %d situations allow every row of the key table, refuse every row "
	   "with conditions, and flip every context bit it names", S_COUNT);
	for (int cmd = CMD_NONE + 1; cmd < CMD_COUNT; cmd++) {
		bool in_table = false;

		for (int i = 0; i < keys_count; i++)
			in_table |= keys_table[i].cmd == cmd;
		if (!in_table) {
			printf("# command %d has no row in the key table\n", cmd);
			wrong++;
		}
		for (int s = 0; s < S_COUNT; s++)
			wrong += try_command(cmd, s, &done, &refusals);
	}
	ok(wrong == 0, "every command in %d situations: %d carried out, %d refused with a reason, "
	   "every key reaches its command where allowed (%d wrong)", S_COUNT, done, refusals, wrong);
}

/* Keys go through the same table: a few that mean different things in
 * different modes. */
static void test_keys(void)
{
	struct options opt;
	struct session *u = make(&opt, "ttt", "human", "human", "");
	int col = u->cur_col, row = u->cur_row;

	session_key(u, 'k');
	ok(u->cur_row == row - 1 && u->cur_col == col, "k on the board moves the cursor up");
	session_key(u, '?');
	ok(u->modal == SESSION_MODAL_HELP, "? opens the help");
	ok(session_key(u, 'q') == SESSION_REDRAW && u->modal == SESSION_MODAL_NONE,
	   "q in the help closes it, and does not quit");
	session_key(u, KEY_CODE_ENTER);
	ok(u->nmoves == 1, "Enter plays the cell under the cursor");
	session_key(u, 'p');
	ok(strcmp(u->msg, "Nothing is thinking now.") == 0, "p with nothing thinking says so: %s",
	   u->msg);
	ok(session_key(u, 'Z') == 0, "a key that means nothing asks for nothing");
	ok(session_key(u, 'q') == SESSION_QUIT, "q quits");
	session_free(u);
}

static void test_odd(void)
{
	struct options opt;
	struct session *u;

	u = situation(&opt, S_ENGINE);
	ok(session_thinking(u) && u->live.have && u->live.tot.iterations > 0,
	   "the engine thinks, and the session copies its numbers (%llu iterations)",
	   (unsigned long long)u->live.tot.iterations);
	session_free(u);

	/* Undo while the engine thinks: back to the human's move, and the
	 * engine stops. */
	u = situation(&opt, S_ENGINE);
	session_command(u, CMD_UNDO);
	ok(u->nmoves == 0 && session_human_to_move(u) && !session_thinking(u),
	   "undo during the engine's turn: back to X's move, nothing thinks");
	session_free(u);

	/* m while paused: the engine plays what it has. */
	u = situation(&opt, S_ENGINE);
	session_command(u, CMD_PAUSE);
	ok(u->paused && !session_thinking(u), "p pauses the engine");
	session_command(u, CMD_MOVE_NOW);
	ok(u->nmoves == 2 && session_human_to_move(u), "m while paused: the engine moves at once");
	session_free(u);
}

/* Rewriting history: a move or m back in the past asks first, and u brings
 * the old game back. */
static void test_rewrite(void)
{
	struct options opt;
	struct session *u;

	/* A move back in the history continues the game from there: asked,
	 * then done. */
	u = situation(&opt, S_PAST);
	u->cur_col = 2;
	u->cur_row = 2;
	session_key(u, KEY_CODE_ENTER);
	ok(u->nmoves == 2 && u->view == 1 && strstr(u->msg, "again") != NULL,
	   "a move in the past asks first, nothing dropped: %s", u->msg);
	session_key(u, KEY_CODE_ENTER);
	ok(u->nmoves == 2 && u->moves[1] == game_cell_move(&u->g, 2, 2) && u->msg_sticky &&
	   strstr(u->msg, "instead") != NULL,
	   "the same move again replaces the later ones: %s", u->msg);
	session_key(u, 'u');
	ok(u->nmoves == 2 && u->moves[1] == game_cell_move(&u->g, 0, 0) && u->view == 2 &&
	   strstr(u->msg, "old game is back") != NULL,
	   "and u brings the old game back: %s", u->msg);
	session_free(u);

	/* Another key in between: the question is forgotten. */
	u = situation(&opt, S_PAST);
	u->cur_col = 2;
	u->cur_row = 2;
	session_key(u, KEY_CODE_ENTER);
	session_key(u, 'v');
	session_key(u, KEY_CODE_ENTER);
	ok(u->nmoves == 2 && u->view == 1 && strstr(u->msg, "again") != NULL,
	   "a key in between keeps the old game: Enter asks again");
	session_free(u);

	/* m back where the engine was to move: asked, then it thinks there;
	 * u brings the old game back, but not once the engine has moved. */
	u = situation(&opt, S_PAST_ENGINE);
	session_key(u, 'm');
	ok(u->nmoves == 2 && u->view == 1, "m in the past asks first");
	session_key(u, 'm');
	ok(u->nmoves == 1 && session_engine_to_move(u) && session_thinking(u),
	   "m again: the engine thinks from there, later moves dropped");
	session_key(u, 'u');
	ok(u->nmoves == 2 && session_human_to_move(u) && u->moves[1] == game_cell_move(&u->g, 0, 0),
	   "u right after brings them back");
	session_key(u, '[');
	session_key(u, 'm');
	session_key(u, 'm');
	session_key(u, 'm');
	ok(u->nmoves == 2 && session_human_to_move(u), "m: the engine plays there");
	session_key(u, 'u');
	ok(u->nmoves == 2 && u->moves[1] == game_cell_move(&u->g, 0, 0) &&
	   strstr(u->msg, "old game is back") != NULL,
	   "u after the engine's move there still brings the old game back");
	session_key(u, '[');
	session_key(u, 'm');
	session_key(u, 'm');
	session_key(u, 'm');
	for (int c = 0; c < 9 && u->nmoves == 2; c++)
		session_human_play(u, c % 3, c / 3);
	ok(u->nmoves == 3, "a human's move after it");
	session_key(u, 'u');
	ok(u->nmoves == 2 && strstr(u->msg, "Taken back") != NULL,
	   "after which u is an ordinary undo: %s", u->msg);
	session_free(u);
}

/* Step mode, auto-play, and analysis for a human. */
static void test_modes(void)
{
	struct options opt;
	struct session *u;

	/* Step mode, then auto-play. */
	u = situation(&opt, S_EVE);
	for (int i = 0; i < 5 && !u->ready; i++)
		session_tick(u, now_ns());
	ok(u->ready && u->nmoves == 0, "engine against engine: the move is ready, and waits");
	session_command(u, CMD_STEP);
	ok(u->nmoves == 1, "s plays it");
	session_command(u, CMD_AUTO);
	for (int i = 0; i < 40 && !game_over(session_present(u)); i++)
		session_tick(u, now_ns() + 10 * u->auto_ns);
	ok(game_over(session_present(u)), "auto-play plays to the end (%d moves)", u->nmoves);
	session_free(u);

	/* Analysis for a human: a search of the present, with numbers. */
	u = make(&opt, "ttt", "human", "human", "b2");
	session_command(u, CMD_ANALYSIS);
	think_a_little(u);
	ok(u->analysis != NULL && u->live.have && u->live.analysis && u->live.tot.iterations > 0,
	   "t: analysis searches the human's position");
	session_command(u, CMD_ANALYSIS);
	ok(u->analysis == NULL, "t again: no analysis");
	session_free(u);
}

/* What the screen says is what is so (issue 13's "state that is always
 * true"): keys that do not apply are refused with a word. */
static void test_true_state(void)
{
	struct options opt;
	struct session *u;
	char line[300];

	/* p then m: the engine moves, the pause ends, its next turn thinks. */
	u = situation(&opt, S_ENGINE);
	session_command(u, CMD_PAUSE);
	session_command(u, CMD_MOVE_NOW);
	ok(u->nmoves == 2 && !u->paused, "p then m: the engine moves and the pause is over");
	session_cursor_to_allowed(u);
	for (int c = 0; c < 9 * 9 && u->nmoves == 2; c++)
		session_human_play(u, c % 9, c / 9);
	ok(u->nmoves == 3 && session_thinking(u), "and on its next turn it thinks");
	session_free(u);

	/* a and s are for engine against engine, and not at the end. */
	u = situation(&opt, S_ENGINE);
	session_command(u, CMD_AUTO);
	ok(!u->autoplay && strstr(u->msg, "engine-against-engine") != NULL,
	   "a in human against engine: refused with a word: %s", u->msg);
	session_free(u);
	u = situation(&opt, S_EVE_OVER);
	keys_line(session_context(u), 200, line, sizeof(line));
	ok(strstr(line, "s step") == NULL && strstr(line, "a auto") == NULL,
	   "after the game ends s and a are not offered: '%s'", line);
	session_command(u, CMD_AUTO);
	ok(!u->autoplay && strstr(u->msg, "over") != NULL, "and a is refused: %s", u->msg);
	session_free(u);

	/* s while looking back would play the present game's move. */
	u = make(&opt, "ttt", "random:seed=1", "random:seed=2", "b2 a1");
	session_command(u, CMD_HIST_BACK);
	session_command(u, CMD_STEP);
	ok(u->nmoves == 2 && !u->step_pending && strstr(u->msg, "Esc") != NULL,
	   "s while looking back: refused, nothing played: %s", u->msg);
	session_free(u);

	/* Tab with nothing to browse. */
	u = situation(&opt, S_START);
	session_command(u, CMD_FOCUS);
	ok(!u->focus_panel && strstr(u->msg, "No search") != NULL,
	   "Tab before any search: refused: %s", u->msg);
	session_free(u);
}

/* The browser: a click selects its row, and the position and PV follow
 * the browsed node. */
static void test_browser_state(void)
{
	struct options opt;
	struct session *u;

	/* A click on a panel row opens the browser on that row. */
	u = situation(&opt, S_ENGINE);
	session_click_row(u, 2);
	session_refresh(u);
	ok(u->focus_panel && u->sel == 2, "a click on the panel's third row selects it (sel %d)",
	   u->sel);
	session_free(u);

	/* The browser's PV and position follow the browsed node. */
	u = situation(&opt, S_PANEL);
	session_command(u, CMD_SEL_DOWN);
	session_refresh(u);
	{
		int into = u->live.kids[u->sel].move;
		struct pos at = *mcts_root(session_live_search(u)), q, from;
		uint8_t pv[GAME_MAX_PLIES];
		bool legal = true, child = false;
		char why[100];

		session_command(u, CMD_INTO);
		think_a_little(u);
		session_refresh(u);
		game_play(&u->g, &at, into);
		q = u->live_pos;
		for (int i = 0; i < u->live.tot.pv_len && legal; i++)
			if (game_illegal(&u->g, &q, u->live.tot.pv[i], why, sizeof(why)) != NULL)
				legal = false;
			else
				game_play(&u->g, &q, u->live.tot.pv[i]);
		for (int i = 0; i < u->live.n; i++)
			child |= u->live.tot.pv_len > 0 && u->live.kids[i].move == u->live.tot.pv[0];
		ok(u->path_len == 1 && memcmp(&u->live_pos, &at, sizeof(at)) == 0,
		   "browsing into the second row: the position shown is after its move");
		ok(u->live.tot.pv_len > 0 && legal && child,
		   "and the PV starts there, with one of its rows (%d plies)", u->live.tot.pv_len);
		session_command(u, CMD_PV);
		ok(session_pv_line(u, pv, &from) > 0 && memcmp(&from, &at, sizeof(at)) == 0,
		   "e there: the line starts from the browsed position");
	}
	session_free(u);
}

/* What the analysis, the inspector and the help say about the settings. */
static void test_settings_state(void)
{
	struct options opt;
	struct session *u;
	char buf[512];
	const char *shows;
	const char *old_xdg = getenv("XDG_DATA_HOME");
	char *saved_xdg = old_xdg != NULL ? strdup(old_xdg) : NULL;

	/* The analysis tree is as big as memory= says. */
	u = make(&opt, "uttt", "human", "mcts:memory=8,time=60000", "");
	session_command(u, CMD_ANALYSIS);
	think_a_little(u);
	ok(u->analysis != NULL && u->live.tot.memory_limit <= (size_t)8 << 20 &&
	   u->live.tot.memory_limit > ((size_t)8 << 20) - mcts_node_bytes(),
	   "t: the analysis tree follows memory=8 (%zu bytes)", u->live.tot.memory_limit);
	session_free(u);

	/* The inspector names the playout the search really runs. */
	for (int smart = 0; smart < 2; smart++) {
		u = make(&opt, "uttt", "human",
			 smart ? "mcts:time=60000,seed=1,rollout=smart,eval=rollout"
			       : "mcts:time=60000,seed=1,rollout=random,eval=rollout",
			 "e5");
		think_a_little(u);
		session_command(u, CMD_INSPECT);
		session_playout_text(u, buf, sizeof(buf), &shows);
		ok(u->inspecting && strstr(buf, smart ? "smart moves" : "random moves") != NULL &&
		   strcmp(shows, "(faint)") == 0,
		   "the inspector with rollout=%s: '%s', then '%s'", smart ? "smart" : "random", buf,
		   shows);
		session_free(u);
	}

	/* The help names the directory games are saved in. */
	for (int i = 0; i < keys_count; i++) {
		if (keys_table[i].cmd != CMD_SAVE)
			continue;
		setenv("XDG_DATA_HOME", "/tmp/noughts-xdg-test", 1);
		ok(strstr(session_help_what(&keys_table[i], buf, sizeof(buf)),
			  "/tmp/noughts-xdg-test/noughts") != NULL,
		   "the help names $XDG_DATA_HOME/noughts: %s", buf);
		unsetenv("XDG_DATA_HOME");
		ok(strstr(session_help_what(&keys_table[i], buf, sizeof(buf)),
			  "/.local/share/noughts") != NULL,
		   "and ~/.local/share/noughts without it: %s", buf);
	}
	if (saved_xdg != NULL)
		setenv("XDG_DATA_HOME", saved_xdg, 1);
	free(saved_xdg);
}

/* Files saved in DIR/noughts. */
static int saved_files(const char *dir)
{
	char cmd[300];
	FILE *f;
	int n = -1;

	fmt_buf(cmd, sizeof(cmd), "ls '%s/noughts' 2>/dev/null | wc -l", dir);
	f = popen(cmd, "r");
	if (f != NULL) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		pclose(f);
	}
	return n;
}

/* q in the middle of a game saves it first; nothing else does. */
static void test_quit_saves(void)
{
	char dir[] = "/tmp/noughts-quit-XXXXXX", cmd[300];
	const char *old_xdg = getenv("XDG_DATA_HOME");
	char *saved_xdg = old_xdg != NULL ? strdup(old_xdg) : NULL;
	struct options opt;
	struct session *u;

	if (mkdtemp(dir) == NULL) {
		ok(0, "temporary directory");
		free(saved_xdg);
		return;
	}
	setenv("XDG_DATA_HOME", dir, 1);
	u = make(&opt, "ttt", "human", "human", "");
	session_human_play(u, 1, 1);
	ok(session_command(u, CMD_QUIT) == SESSION_QUIT && saved_files(dir) == 1 &&
	   strstr(u->exit_note, "--load") != NULL && strstr(u->exit_note, dir) != NULL,
	   "q in the middle of a game saves it and says how to go on: %s", u->exit_note);
	session_free(u);
	u = make(&opt, "ttt", "human", "human", "");
	session_human_play(u, 1, 1);
	session_command(u, CMD_SAVE);
	session_command(u, CMD_QUIT);
	ok(saved_files(dir) == 2 && u->exit_note[0] == '\0', "not again when w saved it");
	session_free(u);
	u = make(&opt, "ttt", "human", "human", "a1 b1 a2 b2 a3");
	session_command(u, CMD_QUIT);
	ok(saved_files(dir) == 2 && u->exit_note[0] == '\0', "nor at the end of a game");
	session_free(u);
	u = make(&opt, "ttt", "human", "human", "a1");
	session_command(u, CMD_QUIT);
	ok(saved_files(dir) == 2 && u->exit_note[0] == '\0',
	   "nor when no move was played in the screen");
	session_free(u);
	fmt_buf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	if (saved_xdg != NULL)
		setenv("XDG_DATA_HOME", saved_xdg, 1);
	else
		unsetenv("XDG_DATA_HOME");
	free(saved_xdg);
}

/* A new game while negamax's worker thread runs. */
static void test_new_game_during_negamax(void)
{
	struct options opt;
	struct session *u = make(&opt, "5,5,4", "human", "negamax:time=60000", "c3");

	/* (the first slices may pass before a count is published: the table's
	 * first pages are zeroed as the search touches them, or the machine is
	 * loaded; up to 50 slices) */
	for (int i = 0; i < 50 && !(u->live.have && u->live.eng.nodes > 0); i++)
		think_a_little(u);
	ok(session_thinking(u), "negamax thinks on 5,5,4");
	ok(u->live.have && u->live.is_eng && u->live.eng.searching >= 1 && u->live.eng.nodes > 0,
	   "the session copies its statistics while it thinks (iteration %d, %llu nodes)",
	   u->live.eng.searching, (unsigned long long)u->live.eng.nodes);
	session_command(u, CMD_NEW);
	session_command(u, CMD_DLG_START);
	ok(u->nmoves == 0 && u->modal == SESSION_MODAL_NONE && session_human_to_move(u),
	   "a new game while negamax's worker runs: it starts, X to move");
	session_free(u);
}

/* Negamax's numbers are kept with its move, as MCTS's are. */
static void test_negamax_snapshot(void)
{
	struct options opt;
	struct session *u = make(&opt, "ttt", "human", "negamax", "b2");
	const struct session_snap *s;
	bool sorted = true;

	for (int i = 0; i < 200 && u->nmoves < 2; i++)
		session_tick(u, now_ns());
	s = &u->snaps[1];
	ok(u->nmoves == 2 && s->have && s->is_eng && s->chosen == u->moves[1],
	   "negamax's move keeps its statistics");
	ok(s->eng.proof == PROOF_DRAW && s->n == 8 && s->eng.root[0].move == u->moves[1] &&
	   s->eng.root[0].proof == PROOF_DRAW,
	   "tic-tac-toe after b2: solved, a draw; 8 root moves, the one played first");
	for (int i = 1; i < s->n; i++)
		sorted = sorted && s->eng.root[i - 1].score >= s->eng.root[i].score;
	ok(sorted && s->eng.pv_len >= 1 && s->eng.pv[0] == u->moves[1],
	   "root moves best first; the principal variation starts with the move");
	session_free(u);
}

/* Save a game, load it again, step past its end. */
static void test_save_load(void)
{
	char dir[] = "/tmp/noughts-session-XXXXXX", why[200], path[4200];
	struct options opt, opt2;
	struct session *u;
	struct record *rec = xmalloc(sizeof(*rec));
	const char *slash;

	if (mkdtemp(dir) == NULL) {
		ok(0, "temporary directory");
		free(rec);
		return;
	}
	setenv("XDG_DATA_HOME", dir, 1);
	u = make(&opt, "ttt", "human", "human", "b2 a1 c3");
	session_command(u, CMD_SAVE);
	slash = strstr(u->msg, dir);
	ok(slash != NULL, "w saves into the data directory: %s", u->msg);
	fmt_buf(path, sizeof(path), "%s", slash != NULL ? slash : "");
	session_free(u);

	memset(&opt2, 0, sizeof(opt2));
	opt2.load = path;
	game_init(&opt2.game, "ttt", 0, why, sizeof(why));
	player_spec_parse("human", &opt2.x, why, sizeof(why));
	player_spec_parse("human", &opt2.o, why, sizeof(why));
	ok(session_load(&opt2, rec, why, sizeof(why)) == 0 && opt2.nmoves == 3,
	   "the saved game loads: 3 moves");
	u = session_new(&opt2, rec);
	ok(u->nmoves == 3 && u->nloaded == 3 && u->view == 3, "at its last position");
	session_command(u, CMD_HIST_FORWARD);
	ok(u->view == 3 && strcmp(u->msg, "This is the present position.") == 0,
	   "] past the end of a loaded record: refused, the view stays");
	for (int i = 0; i < 5; i++)
		session_command(u, CMD_HIST_BACK);
	ok(u->view == 0 && strcmp(u->msg, "This is the start of the game.") == 0,
	   "[ before its start: refused at move 1");
	session_free(u);
	free(rec);
	unlink(path);
	rmdir(fmt_buf(path, sizeof(path), "%s/noughts", dir));
	rmdir(dir);
}

int main(void)
{
	char data[] = "/tmp/noughts-data-XXXXXX", cmd[300];

	/* Whatever a test saves (q saves an unfinished game) goes here. */
	if (mkdtemp(data) == NULL)
		return 99;
	setenv("XDG_DATA_HOME", data, 1);
	test_table();
	test_keys();
	test_odd();
	test_rewrite();
	test_modes();
	test_true_state();
	test_browser_state();
	test_settings_state();
	test_quit_saves();
	test_new_game_during_negamax();
	test_negamax_snapshot();
	test_save_load();
	fmt_buf(cmd, sizeof(cmd), "rm -rf '%s'", data);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", data);
	return tap_done();
}
