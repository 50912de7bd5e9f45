/* ui.c - the game screen: the board, a live panel of the search's numbers,
 * and a loop that runs engines in slices between redraws.
 *
 * One loop (run()) does, in order: stop on a signal; run one slice of
 * thinking if anything thinks; let an engine whose move is ready play it;
 * draw if something changed (while thinking at most every FRAME_NS); read
 * the keys, without waiting while something thinks and blocking otherwise.
 * Key handlers change state and return UI_REDRAW or UI_QUIT; only draw()
 * paints, from the state and from snapshots of the search (struct snap)
 * that mcts_stats() copies out: the screen never touches tree nodes.
 * Where things go on the screen and what panel rows say is view.c's
 * business, so it is tested without a terminal. */
#include "config.h"

#include "ui.h"

#include <curses.h>
#include <term.h> /* after curses.h; its capability macros include "lines" */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game.h"
#include "mcts.h"
#include "player.h"
#include "record.h"
#include "util.h"
#include "view.h"

#define MS 1000000ull
/* A slice is long against the cost of a redraw (well under a millisecond),
 * so the search keeps nearly its full speed, and short against the 50 ms in
 * which a key must be answered. */
#define SLICE_NS (20 * MS)
#define FRAME_NS (60 * MS)        /* redraw period while thinking: 12-16 a second */
#define AUTO_NS (700 * MS)        /* auto-play: the least time a move is on screen */
#define ANALYSIS_NS (30000 * MS)  /* analysis stops by itself after this long */
#define ANALYSIS_MEMORY ((size_t)64 << 20)
#define ANALYSIS_CHUNK 64         /* iterations between looks at the clock */

enum { UI_REDRAW = 1, UI_QUIT = 2 };       /* what a key handler asks for */
enum { LINES_ASCII, LINES_ACS, LINES_UTF8 }; /* how grid lines are drawn */
enum { MODAL_NONE, MODAL_HELP, MODAL_NEW };
enum {
	PAIR_X = 1,
	PAIR_O,
	PAIR_CURSOR,
	PAIR_ALLOWED,
	PAIR_HINT,
	PAIR_GOOD,
	PAIR_FAIR,
	PAIR_BAD,
};

/* The numbers of one search node's children, copied out of the tree: what
 * the panel shows. One is kept per move of the game (the engine's numbers
 * when it chose that move) and one for the search running now. */
struct snap {
	bool have;
	int side;      /* the mover at the node, whose view the numbers take */
	bool analysis; /* a search for a human ('t'), not an engine's own */
	int chosen;    /* the move played from it, -1 while it is live */
	int n;
	struct mcts_child kids[GAME_MAX_MOVES];
	struct mcts_totals tot;
};

/* The new-game dialog. */
#define DLG_GAMES 8
#define DLG_CHOICES 5
struct dialog {
	int field; /* 0 game, 1 X, 2 O, 3 level */
	int game, ngames;
	char games[DLG_GAMES][16];
	int who[2], nchoices[2];
	char choices[2][DLG_CHOICES][160];
	int level;
};

struct ui {
	struct game g;
	struct player_spec spec[2];
	struct player *pl[2];
	/* hist[i] is the position before move i; hist[nmoves] is the present */
	struct pos hist[GAME_MAX_PLIES + 1];
	uint8_t moves[GAME_MAX_PLIES];
	int nmoves;
	struct snap *snaps;  /* [GAME_MAX_PLIES]: numbers when move i was chosen */
	struct snap live;    /* of the search running now */
	struct pos live_pos; /* the position live's numbers are about */
	struct snap before;  /* inspector: live before the iteration */
	int view;            /* the ply shown: nmoves for the present */
	/* What goes into a record for move i: the engine's numbers when it
	 * chose it, from its search or from the record the game was loaded
	 * from (moves before nloaded, played by rec_who's players). */
	struct record_move saved[GAME_MAX_PLIES];
	int nloaded;
	char rec_who[2][128];
	char date[32];           /* when the game began, for records */
	const char *record_path; /* --record: the game goes there at its end */
	char end_note[300];      /* what became of it, shown with the result */
	int cur_col, cur_row;
	bool paused, ready, autoplay, step_pending, overlay, hint_mode, inspecting;
	uint64_t turn_ns; /* when the present position arose */
	struct mcts *analysis;
	uint64_t analysis_ns;
	bool analysis_done;
	bool focus_panel;
	uint8_t path[GAME_MAX_PLIES]; /* tree browser: moves from the search's root */
	int path_len, sel, scroll;
	struct mcts_trace trace;
	int modal, help_scroll;
	struct dialog dlg;
	char msg[600];
	bool msg_sticky; /* msg outlives the next move (an engine's reply) */
	int glyphs;      /* LINES_*: how grid lines are drawn */
	bool color;
	struct view_layout lay;
	uint64_t drawn_ns;
	bool dirty;
};

static volatile sig_atomic_t got_signal;
static bool curses_on;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* fatal() calls this before printing: give the terminal back first. */
static void fatal_hook(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

static void say(struct ui *u, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say(struct ui *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
}

static const struct pos *present(const struct ui *u)
{
	return &u->hist[u->nmoves];
}

static bool is_engine(const struct ui *u, int side)
{
	return !player_is_human(u->pl[side]);
}

static bool engine_vs_engine(const struct ui *u)
{
	return is_engine(u, SIDE_X) && is_engine(u, SIDE_O);
}

static bool engine_to_move(const struct ui *u)
{
	return !game_over(present(u)) && is_engine(u, present(u)->turn);
}

static bool human_to_move(const struct ui *u)
{
	return !game_over(present(u)) && !is_engine(u, present(u)->turn);
}

static char side_char(int side)
{
	return game_side_mark(side);
}

/* --- the search on screen ------------------------------------------------ */

/* The search running for the present position, or NULL. */
static struct mcts *live_search(const struct ui *u)
{
	if (u->analysis != NULL)
		return u->analysis;
	if (engine_to_move(u))
		return player_search(u->pl[present(u)->turn]);
	return NULL;
}

/* Does anything think now? */
static bool thinking(const struct ui *u)
{
	if (u->paused || game_over(present(u)))
		return false;
	if (u->analysis != NULL)
		return !u->analysis_done;
	return engine_to_move(u) && !u->ready;
}

/* Copy the numbers of the live search at the browser's path. */
static void refresh_live(struct ui *u)
{
	struct mcts *m = live_search(u);
	int n = -1;

	u->live.have = false;
	if (m == NULL) {
		u->path_len = 0;
		return;
	}
	for (;;) {
		n = mcts_stats(m, u->path, u->path_len, u->live.kids, GAME_MAX_MOVES, &u->live.tot);
		if (n >= 0 || u->path_len == 0)
			break;
		u->path_len--; /* the node is gone (the arena was reused): go up */
	}
	u->live.have = n >= 0;
	u->live.n = n < 0 ? 0 : n;
	u->live.analysis = m == u->analysis;
	u->live.chosen = -1;
	u->live_pos = *mcts_root(m);
	for (int i = 0; i < u->path_len; i++)
		game_play(&u->g, &u->live_pos, u->path[i]);
	u->live.side = u->live_pos.turn;
	if (u->sel >= u->live.n)
		u->sel = u->live.n > 0 ? u->live.n - 1 : 0;
}

/* The numbers the panel shows and the position they are about (*AT), or
 * NULL when there are none (AT is then the position on the board). */
static const struct snap *shown_snap(const struct ui *u, struct pos *at)
{
	if (u->view < u->nmoves) {
		*at = u->hist[u->view];
		return u->snaps[u->view].have ? &u->snaps[u->view] : NULL;
	}
	if (u->live.have) {
		*at = u->live_pos;
		return &u->live;
	}
	if (u->nmoves > 0 && u->snaps[u->nmoves - 1].have) {
		*at = u->hist[u->nmoves - 1];
		return &u->snaps[u->nmoves - 1];
	}
	*at = *present(u);
	return NULL;
}

static void analysis_stop(struct ui *u)
{
	if (u->analysis != NULL)
		mcts_free(u->analysis);
	u->analysis = NULL;
	u->analysis_done = false;
}

static void analysis_start(struct ui *u)
{
	struct mcts_params p;

	analysis_stop(u);
	mcts_params_default(&p);
	p.memory = ANALYSIS_MEMORY;
	u->analysis = mcts_new(&u->g, present(u), &p);
	u->analysis_ns = 0;
}

static void analysis_think(struct ui *u)
{
	uint64_t start = now_ns(), now;

	for (;;) {
		bool solved = mcts_step(u->analysis, ANALYSIS_CHUNK) < ANALYSIS_CHUNK;

		now = now_ns();
		if (solved) {
			u->analysis_done = true;
			break;
		}
		if (now - start >= SLICE_NS)
			break;
	}
	u->analysis_ns += now - start;
	if (u->analysis_ns >= ANALYSIS_NS)
		u->analysis_done = true;
}

/* One slice of thinking by whatever thinks. */
static void think(struct ui *u)
{
	if (u->analysis != NULL) {
		analysis_think(u);
		if (u->analysis_done)
			u->dirty = true;
		return;
	}
	if (player_think(u->pl[present(u)->turn], SLICE_NS)) {
		u->ready = true;
		u->dirty = true;
	}
}

/* --- moves and positions -------------------------------------------------- */

/* Ultimate: put the cursor in the board the mover must use in the position
 * shown (the present, or one of the past where a move may go too). */
static void cursor_to_allowed(struct ui *u)
{
	const struct pos *p = &u->hist[u->view];
	struct game_regions r;
	int b, per_row;

	game_regions(&u->g, p, &r);
	if (r.n == 0 || r.allowed == 0 || (r.allowed & (r.allowed - 1)) != 0)
		return;
	b = __builtin_ctz(r.allowed);
	per_row = u->g.width / r.w;
	if ((u->cur_row / r.h) * per_row + u->cur_col / r.w == b)
		return;
	u->cur_col = (b % per_row) * r.w + r.w / 2;
	u->cur_row = (b / per_row) * r.h + r.h / 2;
}

/* A new present position: reset what belonged to the old one. */
static void new_turn(struct ui *u)
{
	u->ready = false;
	u->step_pending = false;
	u->path_len = u->sel = u->scroll = 0;
	u->inspecting = false;
	u->turn_ns = now_ns();
	u->end_note[0] = '\0';
	analysis_stop(u);
	if (u->hint_mode && human_to_move(u))
		analysis_start(u);
	cursor_to_allowed(u);
	refresh_live(u);
	u->dirty = true;
}

/* The game so far as a record, into R. */
static void make_record(const struct ui *u, struct record *r)
{
	char spec[160];

	record_init(r, &u->g);
	player_spec_format(&u->spec[SIDE_X], spec, sizeof(spec));
	fmt_buf(r->x, sizeof(r->x), "%s", spec);
	player_spec_format(&u->spec[SIDE_O], spec, sizeof(spec));
	fmt_buf(r->o, sizeof(r->o), "%s", spec);
	fmt_buf(r->date, sizeof(r->date), "%s", u->date);
	r->result = present(u)->result;
	r->nmoves = u->nmoves;
	memcpy(r->moves, u->saved, (size_t)u->nmoves * sizeof(r->moves[0]));
}

/* w: the game to a new file in the data directory. */
static void save_game(struct ui *u)
{
	struct record *r;
	char dir[2048], path[2200], err[2300];

	if (record_dir(dir, sizeof(dir), err, sizeof(err)) < 0) {
		say(u, "Not saved: %s.", err);
		return;
	}
	r = xmalloc(sizeof(*r));
	make_record(u, r);
	if (record_save_new(dir, r, path, sizeof(path), err, sizeof(err)) < 0)
		say(u, "Not saved: %s.", err);
	else
		say(u, "Saved %d move%s to %s", u->nmoves, u->nmoves == 1 ? "" : "s", path);
	free(r);
}

/* The game has just ended: with --record it goes to that file now,
 * through a temporary renamed into place. */
static void game_ended(struct ui *u)
{
	struct record *r;
	char err[2300];

	if (u->record_path == NULL)
		return;
	r = xmalloc(sizeof(*r));
	make_record(u, r);
	if (record_write(u->record_path, r, err, sizeof(err)) == 0)
		fmt_buf(u->end_note, sizeof(u->end_note), "Written to %s.", u->record_path);
	else
		fmt_buf(u->end_note, sizeof(u->end_note), "Not written: %s.", err);
	free(r);
}

static void play_move(struct ui *u, int move)
{
	const struct pos *p = present(u);
	int side = p->turn;
	struct mcts *m = u->analysis != NULL ? u->analysis : player_search(u->pl[side]);
	struct snap *s = &u->snaps[u->nmoves];
	struct record_move *rm = &u->saved[u->nmoves];
	bool at_present = u->view == u->nmoves;

	/* Keep the numbers the move was chosen with, for '[' and ']'. */
	s->have = false;
	if (m != NULL) {
		s->n = mcts_stats(m, NULL, 0, s->kids, GAME_MAX_MOVES, &s->tot);
		s->have = s->n >= 0;
		s->side = side;
		s->analysis = m == u->analysis;
		s->chosen = move;
	}
	/* And for a record, what an engine saw of its own move. */
	rm->move = (uint8_t)move;
	rm->has_info = m != NULL && m != u->analysis;
	if (rm->has_info)
		record_info_from_search(&rm->info, m, move);
	if (!u->msg_sticky)
		u->msg[0] = '\0'; /* a message about the old position is stale now */
	u->msg_sticky = false;
	u->moves[u->nmoves] = (uint8_t)move;
	u->hist[u->nmoves + 1] = *p;
	game_play(&u->g, &u->hist[u->nmoves + 1], move);
	u->nmoves++;
	for (int i = 0; i < 2; i++)
		player_played(u->pl[i], move);
	if (at_present)
		u->view = u->nmoves;
	new_turn(u);
	if (game_over(present(u)))
		game_ended(u);
}

static void engine_play(struct ui *u)
{
	const struct pos *p = present(u);
	int move = player_choose(u->pl[p->turn]);
	char why[96];

	if (move == MOVE_NONE || game_illegal(&u->g, p, move, why, sizeof(why)) != NULL) {
		/* A bug in an engine must not end the game silently. */
		u->paused = true;
		say(u, "The engine chose no legal move; paused.");
		return;
	}
	play_move(u, move);
}

/* Let an engine whose move is ready play it, unless engine-against-engine
 * step mode waits for 's' or auto-play for its pause. Returns when to look
 * again (0: not before a key). */
static uint64_t engine_turn(struct ui *u, uint64_t now)
{
	/* The game goes on while someone looks at the past: the view stays. */
	if (!engine_to_move(u) || !u->ready)
		return 0;
	if (engine_vs_engine(u) && !u->step_pending) {
		if (!u->autoplay || u->paused)
			return 0;
		if (now < u->turn_ns + AUTO_NS)
			return u->turn_ns + AUTO_NS;
	}
	engine_play(u);
	return 0;
}

/* Go back to ply N of the game (undo, new game): players start over there. */
static void truncate_to(struct ui *u, int n)
{
	u->nmoves = n;
	u->view = n;
	for (int i = n; i < GAME_MAX_PLIES; i++) {
		u->snaps[i].have = false;
		u->saved[i].has_info = false;
	}
	if (u->nloaded > n)
		u->nloaded = n;
	for (int i = 0; i < 2; i++)
		player_reset(u->pl[i], present(u));
	new_turn(u);
}

static void undo(struct ui *u)
{
	int target;

	if (u->nmoves == 0) {
		say(u, "Nothing to undo.");
		return;
	}
	target = u->nmoves - 1;
	/* Back to where a human was to move, so "undo" takes back the human's
	 * move and the engine's reply together. */
	if (!engine_vs_engine(u))
		while (target > 0 && is_engine(u, u->hist[target].turn))
			target--;
	truncate_to(u, target);
	say(u, "Taken back: the game is at move %d again.", target + 1);
}

/* "moves 3-7" or "move 7": the moves from ply FROM on, which a move made
 * back there would drop. */
static char *later_moves(const struct ui *u, int from, char *buf, size_t size)
{
	if (from + 1 == u->nmoves)
		return fmt_buf(buf, size, "move %d", u->nmoves);
	return fmt_buf(buf, size, "moves %d-%d", from + 1, u->nmoves);
}

/* Back in the game's history, go on from the position shown: the moves
 * after it are dropped, as in any undo history. MOVE is the human's move
 * there, or -1 to let the engine to move there think. */
static void continue_from_view(struct ui *u, int move)
{
	int at = u->view;
	char dropped[32], name[8];

	later_moves(u, at, dropped, sizeof(dropped));
	truncate_to(u, at);
	if (move >= 0) {
		play_move(u, move);
		say(u, "%s played at move %d instead: %s of the old game dropped.",
		    game_move_name(&u->g, move, name), at + 1, dropped);
	} else {
		say(u, "The game goes on from move %d, %c thinks: %s of the old game dropped.",
		    at + 1, side_char(present(u)->turn), dropped);
	}
	/* Worth reading even when an engine answers at once. */
	u->msg_sticky = true;
}

/* The move on cell COL, ROW if it is legal in P; else -1, and the status
 * line says why (nothing for a cell off the board). */
static int legal_cell(struct ui *u, const struct pos *p, int col, int row)
{
	char why[96], name[8];
	int move = game_cell_move(&u->g, col, row);

	if (move < 0)
		return -1;
	if (game_illegal(&u->g, p, move, why, sizeof(why)) != NULL) {
		say(u, "%s is not allowed: %s.", game_move_name(&u->g, move, name), why);
		return -1;
	}
	return move;
}

static void human_play(struct ui *u, int col, int row)
{
	const struct pos *p = present(u);
	int move;

	if (u->view != u->nmoves) {
		/* A move in the past continues the game from there. */
		p = &u->hist[u->view];
		if (is_engine(u, p->turn)) {
			say(u,
			    "At move %d %c (an engine) is to move: m lets it continue from here, "
			    "Esc goes back to the present.",
			    u->view + 1, side_char(p->turn));
			return;
		}
		if ((move = legal_cell(u, p, col, row)) < 0)
			return;
		u->focus_panel = false;
		continue_from_view(u, move);
		return;
	}
	if (game_over(p)) {
		say(u, "The game is over: n starts a new one, u takes back a move.");
		return;
	}
	if (!human_to_move(u)) {
		say(u, "It is %c's move (an engine): wait, or press m to make it move now.",
		    side_char(p->turn));
		return;
	}
	if ((move = legal_cell(u, p, col, row)) < 0)
		return;
	u->focus_panel = false;
	play_move(u, move);
}

/* Start a game of NAME between specs X and O from the start position. */
static bool new_game(struct ui *u, const char *name, const struct player_spec *x,
		     const struct player_spec *o)
{
	struct game g;
	char err[160];

	/* The rule options in force carry over to a game that has them; a
	 * game without them starts without. */
	if (game_init(&g, name, u->g.rules, err, sizeof(err)) < 0 &&
	    game_init(&g, name, 0, err, sizeof(err)) < 0) {
		say(u, "%s", err);
		return false;
	}
	/* Players and the analysis point at u->g: end them before it changes. */
	analysis_stop(u);
	for (int i = 0; i < 2; i++) {
		player_free(u->pl[i]);
		u->pl[i] = NULL;
	}
	u->g = g;
	u->spec[SIDE_X] = *x;
	u->spec[SIDE_O] = *o;
	game_start(&u->g, &u->hist[0]);
	for (int i = 0; i < 2; i++)
		u->pl[i] = player_new(&u->g, &u->spec[i], &u->hist[0]);
	u->cur_col = u->g.width / 2;
	u->cur_row = u->g.height / 2;
	u->paused = u->autoplay = u->inspecting = u->focus_panel = false;
	u->nloaded = 0;
	record_now(u->date, sizeof(u->date));
	truncate_to(u, 0);
	return true;
}

/* --- drawing: lines and boxes --------------------------------------------- */

enum shape {
	SH_VERT, SH_HORZ, SH_TEE_DOWN, SH_TEE_UP, SH_TEE_RIGHT, SH_TEE_LEFT, SH_CROSS,
	SH_UL, SH_UR, SH_LL, SH_LR,
};

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

static int shape_of(bool up, bool down, bool left, bool right)
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
static void put_line(const struct ui *u, int y, int x, int shape, bool vh, bool hh,
		     bool weighted, attr_t extra)
{
	bool heavy = shape == SH_VERT ? vh : shape == SH_HORZ ? hh : vh || hh;
	attr_t a = extra | (!weighted ? A_NORMAL : heavy ? A_BOLD : A_DIM);

	if (y < 0 || x < 0 || y >= u->lay.rows || x >= u->lay.cols)
		return;
	if (u->glyphs == LINES_UTF8) {
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
	else if (u->glyphs == LINES_ACS)
		mvaddch(y, x, acs_of(shape) | a);
	else
		mvaddch(y, x, (chtype)(shape == SH_VERT ? '|' : shape == SH_HORZ ? '-' : '+') | a);
}

/* A frame around the rectangle X, Y, W, H (border included), inside blank. */
static void draw_box(const struct ui *u, int x, int y, int w, int h, attr_t a)
{
	attrset(a);
	for (int r = y + 1; r < y + h - 1; r++)
		mvhline(r, x + 1, ' ', w - 2);
	for (int c = x + 1; c < x + w - 1; c++) {
		put_line(u, y, c, SH_HORZ, false, false, false, a);
		put_line(u, y + h - 1, c, SH_HORZ, false, false, false, a);
	}
	for (int r = y + 1; r < y + h - 1; r++) {
		put_line(u, r, x, SH_VERT, false, false, false, a);
		put_line(u, r, x + w - 1, SH_VERT, false, false, false, a);
	}
	put_line(u, y, x, SH_UL, false, false, false, a);
	put_line(u, y, x + w - 1, SH_UR, false, false, false, a);
	put_line(u, y + h - 1, x, SH_LL, false, false, false, a);
	put_line(u, y + h - 1, x + w - 1, SH_LR, false, false, false, a);
}

/* Text at Y, X clipped to W columns (and to the screen). */
static void put_text(const struct ui *u, int y, int x, int w, attr_t a, const char *s)
{
	if (y < 0 || y >= u->lay.rows || x >= u->lay.cols || w <= 0)
		return;
	if (x + w > u->lay.cols)
		w = u->lay.cols - x;
	attrset(a);
	mvaddnstr(y, x, s, w);
}

static attr_t pair_attr(const struct ui *u, int pair, attr_t mono)
{
	return u->color ? (attr_t)COLOR_PAIR(pair) : mono;
}

static attr_t side_attr(const struct ui *u, int side)
{
	return pair_attr(u, side == SIDE_X ? PAIR_X : PAIR_O, 0) | A_BOLD;
}

/* Colour of a win rate: good, fair or bad for the mover. */
static attr_t value_attr(const struct ui *u, double v)
{
	if (v >= 0.6)
		return pair_attr(u, PAIR_GOOD, A_BOLD);
	if (v <= 0.4)
		return pair_attr(u, PAIR_BAD, A_DIM);
	return pair_attr(u, PAIR_FAIR, A_NORMAL);
}

/* --- drawing: the board --------------------------------------------------- */

/* What the board shows besides the stones. */
struct marks {
	struct pos pos;           /* the position drawn */
	const struct snap *snap;  /* numbers about pos, for the overlay; or NULL */
	int last;                 /* move marked as the last, or -1 */
	int chosen;               /* history: the move played from pos, or -1 */
	int hint;                 /* the search's choice, or -1 */
	struct moveset trail;     /* moves from the searched root (browser, inspector) */
	int expanded;             /* inspector: the node added, or -1 */
	uint8_t ghost[GAME_MAX_CELLS]; /* inspector: rollout moves, 1 + side */
	bool cursor;
};

static void board_marks(struct ui *u, struct marks *mk)
{
	struct pos at;
	const struct snap *s = shown_snap(u, &at);
	struct mcts *m = live_search(u);

	memset(mk, 0, sizeof(*mk));
	mk->last = mk->chosen = mk->hint = mk->expanded = -1;
	if (u->view < u->nmoves) {
		mk->pos = u->hist[u->view];
		mk->snap = s;
		mk->chosen = u->moves[u->view];
		mk->last = mk->pos.last == MOVE_NONE ? -1 : mk->pos.last;
		/* A human may continue the game from here. */
		mk->cursor = !is_engine(u, mk->pos.turn) && !u->focus_panel;
		return;
	}
	mk->pos = *present(u);
	mk->last = mk->pos.last == MOVE_NONE ? -1 : mk->pos.last;
	mk->cursor = human_to_move(u) && !u->focus_panel && !u->inspecting;
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

static void draw_grid(const struct ui *u, const struct view_board *b)
{
	bool weighted = b->regions;

	for (int j = 0; j < b->nhlines; j++) {
		int y = b->hline_y[j];

		for (int x = b->x; x < b->x + b->w; x++) {
			int i;

			for (i = 0; i < b->nvlines && b->vline_x[i] != x; i++)
				;
			if (i == b->nvlines)
				put_line(u, y, x, SH_HORZ, false, b->hheavy[j], weighted, 0);
			else
				put_line(u, y, x,
					 shape_of(j > 0, j < b->nhlines - 1, i > 0, i < b->nvlines - 1),
					 b->vheavy[i], b->hheavy[j], weighted, 0);
		}
	}
	for (int i = 0; i < b->nvlines; i++)
		for (int y = b->y; y < b->y + b->h; y++) {
			int j;

			for (j = 0; j < b->nhlines && b->hline_y[j] != y; j++)
				;
			if (j == b->nhlines)
				put_line(u, y, b->vline_x[i], SH_VERT, b->vheavy[i], false, weighted, 0);
		}
}

/* The face of one cell: up to three characters and how they look. */
static void cell_face(const struct ui *u, const struct marks *mk, int col, int row,
		      const struct moveset *legal, const int *win, int nwin, char *text,
		      attr_t *a)
{
	const struct view_board *b = &u->lay.board;
	bool boxed = b->cell_w == 3;
	int move = game_cell_move(&u->g, col, row);
	int owner = game_cell_owner(&u->g, &mk->pos, col, row);
	bool utf8 = u->glyphs == LINES_UTF8;

	if (owner >= 0) {
		char c = side_char(owner);

		*a = side_attr(u, owner);
		if (move == mk->last)
			sprintf(text, boxed ? "[%c]" : "%c", c);
		else
			sprintf(text, boxed ? " %c " : "%c", c);
		if (move == mk->last && !boxed)
			*a |= A_UNDERLINE;
		for (int i = 0; i < nwin; i++)
			if (win[i] == row * u->g.width + col)
				*a |= A_REVERSE;
		if (moveset_has(&mk->trail, move) || move == mk->expanded) {
			*a = pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD | A_UNDERLINE;
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
		*a = allowed ? pair_attr(u, PAIR_ALLOWED, A_BOLD) | A_BOLD : A_DIM;
	} else if (!boxed || (b->regions && u->glyphs != LINES_UTF8)) {
		strcpy(text, boxed ? " . " : ".");
		*a = A_DIM;
	}
	if (mk->snap != NULL && u->overlay) {
		uint64_t total = 0;

		for (int i = 0; i < mk->snap->n; i++)
			total += mk->snap->kids[i].visits;
		for (int i = 0; i < mk->snap->n; i++)
			if (mk->snap->kids[i].move == move && mk->snap->kids[i].visits > 0) {
				view_share_text(mk->snap->kids[i].visits, total, b->cell_w, text, 8);
				*a = value_attr(u, mk->snap->kids[i].value) | A_BOLD;
			}
	}
	if (mk->ghost[move] != 0) {
		sprintf(text, boxed ? " %c " : "%c", mk->ghost[move] == 1 ? 'x' : 'o');
		*a = side_attr(u, mk->ghost[move] - 1) & ~(attr_t)A_BOLD;
		*a |= A_DIM;
	}
	if (move == mk->chosen) {
		sprintf(text, boxed ? "[%c]" : "%c", side_char(mk->pos.turn) + ('a' - 'A'));
		*a = pair_attr(u, PAIR_HINT, A_REVERSE) | A_BOLD;
	} else if (move == mk->hint && u->overlay && mk->snap != NULL) {
		*a = pair_attr(u, PAIR_HINT, A_REVERSE) | A_BOLD | A_UNDERLINE; /* keep the share */
	} else if (move == mk->hint) {
		strcpy(text, boxed ? " * " : "*");
		*a = pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD;
	}
}

static void draw_board(struct ui *u, const struct marks *mk)
{
	const struct view_board *b = &u->lay.board;
	struct moveset legal;
	int win[VIEW_MAX_SIDE], nwin = view_win_cells(&u->g, &mk->pos, win);
	unsigned won = 0, line = 0;
	struct game_regions reg;

	game_legal(&u->g, &mk->pos, &legal);
	draw_grid(u, b);
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

			cell_face(u, mk, c, r, &legal, win, nwin, text, &a);
			if (cur)
				a = pair_attr(u, PAIR_CURSOR, A_REVERSE) | A_BOLD;
			/* Whole: a face is one cell wide but may be several bytes. */
			attrset(a);
			mvaddstr(b->row_y[r], b->col_x[c] - b->cell_w / 2, text);
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
		if (u->glyphs == LINES_UTF8 && b->style == VIEW_BOXED)
			pat = side == SIDE_X ? big_x_boxed_utf8 : big_o_boxed_utf8;
		else if (u->glyphs == LINES_UTF8)
			pat = side == SIDE_X ? big_x_compact_utf8 : big_o_compact_utf8;
		else if (b->style == VIEW_BOXED)
			pat = side == SIDE_X ? big_x_boxed : big_o_boxed;
		else
			pat = side == SIDE_X ? big_x_compact : big_o_compact;
		a = side_attr(u, side) | (line >> brd & 1 ? A_REVERSE : 0);
		attrset(a);
		for (int i = 0; i < h; i++)
			mvaddstr(y + i, x, pat[i]); /* inside the frame: always on screen */
		if (mk->cursor && u->cur_col / 3 == brd % 3 && u->cur_row / 3 == brd / 3) {
			/* Keep the cursor visible on a closed board. */
			put_text(u, b->row_y[u->cur_row], b->col_x[u->cur_col] - b->cell_w / 2,
				 b->cell_w, pair_attr(u, PAIR_CURSOR, A_REVERSE) | A_BOLD,
				 b->cell_w == 3 ? "   " : " ");
		}
	}
}

/* --- drawing: the panel --------------------------------------------------- */

static char *player_brief(const struct player_spec *s, char *buf, size_t size)
{
	char t[16];
	int level = s->level != 0 ? s->level : PLAYER_DEFAULT_LEVEL;

	switch (s->kind) {
	case PLAYER_HUMAN:
		return fmt_buf(buf, size, "human");
	case PLAYER_RANDOM:
		return fmt_buf(buf, size, "random");
	case PLAYER_MCTS:
		if (s->iterations != 0)
			return fmt_buf(buf, size, "mcts %s iterations",
				       view_fmt_count(s->iterations, t, sizeof(t)));
		if (s->time_ms != 0)
			return fmt_buf(buf, size, "mcts %s",
				       view_fmt_seconds(s->time_ms / 1000.0, t, sizeof(t)));
		return fmt_buf(buf, size, "mcts level %d", level);
	default:
		if (s->depth != 0)
			return fmt_buf(buf, size, "negamax depth %d", s->depth);
		if (s->time_ms != 0)
			return fmt_buf(buf, size, "negamax %s",
				       view_fmt_seconds(s->time_ms / 1000.0, t, sizeof(t)));
		return fmt_buf(buf, size, "negamax level %d", level);
	}
}

/* The panel's second row: what the numbers are and what the search does. */
static void panel_status(const struct ui *u, const struct snap *s, char *buf, size_t size)
{
	char t[32], name[8];
	const struct pos *p = present(u);

	if (u->inspecting) {
		fmt_buf(buf, size, "inspector: one iteration (i: another, Esc: leave)");
	} else if (s == NULL && u->view < u->nmoves) {
		fmt_buf(buf, size, "when %c chose %s: no search numbers",
			side_char(u->hist[u->view].turn),
			game_move_name(&u->g, u->moves[u->view], name));
	} else if (s == NULL) {
		if (game_over(p))
			fmt_buf(buf, size, "game over");
		else if (engine_to_move(u))
			fmt_buf(buf, size, "%s (no search tree to show)",
				thinking(u) ? "thinking" : u->paused ? "paused" : "ready");
		else
			fmt_buf(buf, size, "waiting for you%s",
				is_engine(u, !p->turn) || u->hint_mode ? "" : " (t: analysis)");
	} else if (s != &u->live) {
		fmt_buf(buf, size, "when %c chose %s%s", side_char(s->side),
			game_move_name(&u->g, s->chosen, name),
			u->view < u->nmoves ? "" : human_to_move(u) ? "; waiting for you" : "");
	} else if (s->tot.root_proven != PROOF_NONE) {
		fmt_buf(buf, size, "solved: %s",
			view_fmt_proof(s->tot.root_proven, s->tot.root_proven_plies, t, sizeof(t)));
	} else if (u->paused) {
		fmt_buf(buf, size, "paused (p resumes)");
	} else if (s->analysis) {
		fmt_buf(buf, size, u->analysis_done ? "analysis done" : "analysing for you");
	} else if (u->ready) {
		fmt_buf(buf, size, "ready: %s%s",
			game_move_name(&u->g, mcts_best_move(live_search(u)), name),
			engine_vs_engine(u) && !u->autoplay ? " (s plays it)" : "");
	} else {
		fmt_buf(buf, size, "thinking");
	}
	if (s == &u->live && u->path_len > 0 && !u->inspecting) {
		size_t n = strlen(buf);
		char moves[64];

		view_moves_text(&u->g, u->path, u->path_len, 30, moves, sizeof(moves));
		fmt_buf(buf + n, size - n, "; below %s (Left: up)", moves);
	}
}

/* Inspector: how the row of MOVE changed between the snapshots. */
static bool row_delta(const struct ui *u, const struct mcts_child *c, char *buf, size_t size)
{
	for (int i = 0; i < u->before.n; i++) {
		const struct mcts_child *b = &u->before.kids[i];

		if (b->move != c->move)
			continue;
		if (b->visits == c->visits)
			return false;
		fmt_buf(buf, size, "+%u %s", c->visits - b->visits,
			c->wins > b->wins ? "win" : c->draws > b->draws ? "draw" : "loss");
		return true;
	}
	if (c->visits == 0)
		return false;
	fmt_buf(buf, size, "new");
	return true;
}

static void draw_inspector_lines(struct ui *u, int x, int y, int w, int n)
{
	const struct mcts_trace *t = &u->trace;
	char line[256], moves[160], name[8];
	const char *res = t->result == RESULT_X ? "X wins" : t->result == RESULT_O ? "O wins"
							      : "a draw";
	attr_t a = pair_attr(u, PAIR_HINT, A_BOLD);

	if (!t->ran) {
		put_text(u, y, x, w, A_BOLD, "no iteration ran: the search is solved");
		return;
	}
	for (int i = 0; i < n && i < 4; i++) {
		switch (i) {
		case 0:
			view_moves_text(&u->g, t->path, t->path_len, w - 12, moves, sizeof(moves));
			fmt_buf(line, sizeof(line), "1 select  %s", t->path_len > 0 ? moves
								 : "(the root is the leaf)");
			break;
		case 1:
			if (t->expanded >= 0)
				fmt_buf(line, sizeof(line), "2 expand  %s: a new leaf (reverse)",
					game_move_name(&u->g, t->expanded, name));
			else
				fmt_buf(line, sizeof(line), "2 expand  nothing (end, proven or full)");
			break;
		case 2:
			fmt_buf(line, sizeof(line), "3 rollout %d random moves (faint)", t->rollout_len);
			break;
		default:
			fmt_buf(line, sizeof(line), "4 backup  %s: +1 visit along the path", res);
		}
		put_text(u, y + i, x, w, a, line);
	}
}

/* One candidate row at screen row Y of the panel, in A, the bar in SIDE's
 * colour; SAVED: a row from a record (view_saved_row). */
static void draw_child(const struct ui *u, const struct view_cols *cols, int y,
		       const struct mcts_child *c, uint64_t total, int side, attr_t a, bool saved)
{
	char line[512];
	int x = u->lay.px, n;

	if (saved)
		view_saved_row(cols, &u->g, c, total, line, sizeof(line));
	else
		view_child_row(cols, &u->g, c, total, line, sizeof(line));
	put_text(u, y, x, u->lay.pw, a, line);
	/* The bar solid in the mover's colour; a dim win rate when there are
	 * too few visits for it to mean anything. */
	n = view_bar_len(c->visits, total, cols->bar_w);
	if (cols->bar_x >= 0 && n > 0 && u->glyphs != LINES_ASCII) {
		attrset(side_attr(u, side) | A_REVERSE);
		mvhline(y, x + cols->bar_x, ' ', n);
	}
	if (!view_rate_meaningful(c->visits))
		put_text(u, y, x + cols->rate_x, 5, (a & ~(attr_t)A_BOLD) | A_DIM,
			 line + cols->rate_x);
	else if (!(a & A_REVERSE))
		put_text(u, y, x + cols->rate_x, 5, value_attr(u, c->value), line + cols->rate_x);
}

/* The player of SIDE as a spec, in BUF: the one who made move PLY of a
 * loaded game as its record says, else (PLY -1 too) the player now. */
static const char *who_played(const struct ui *u, int side, int ply, char *buf, size_t size)
{
	if (ply < 0 || ply >= u->nloaded)
		return player_spec_format(&u->spec[side], buf, size);
	if (u->rec_who[side][0] == '\0')
		return fmt_buf(buf, size, "(player not recorded)");
	return fmt_buf(buf, size, "%s", u->rec_who[side]);
}

/* The ply whose numbers the panel shows from a record (a loaded game keeps
 * no search, only what its file says), or -1. */
static int shown_saved(const struct ui *u)
{
	int i = u->view < u->nmoves ? u->view : u->live.have ? -1 : u->nmoves - 1;

	if (i < 0 || u->snaps[i].have || !u->saved[i].has_info)
		return -1;
	return i;
}

/* The panel for ply PLY of a loaded game: a record keeps the iterations,
 * the move played and the runner-up, not the search's whole table. */
static void draw_saved_panel(struct ui *u, int ply)
{
	const struct view_layout *l = &u->lay;
	const struct record_move *rm = &u->saved[ply];
	int side = u->hist[ply].turn, x = l->px, y = l->py, w = l->pw, n;
	struct mcts_child kids[2];
	struct view_cols cols;
	char line[512], t[32], name[8], spec[160];
	uint64_t total = rm->info.iterations;

	fmt_buf(line, sizeof(line), "%c  %s", side_char(side),
		who_played(u, side, ply, spec, sizeof(spec)));
	put_text(u, y, x, w, A_BOLD, line);
	put_text(u, y, x, 1, side_attr(u, side), side == SIDE_X ? "X" : "O");
	fmt_buf(line, sizeof(line), "when %c chose %s, from the record%s", side_char(side),
		game_move_name(&u->g, rm->move, name),
		u->view < u->nmoves ? ""
		: human_to_move(u)  ? "; waiting for you"
				    : "");
	put_text(u, y + 1, x, w, pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD, line);
	fmt_buf(line, sizeof(line), "%s iterations",
		view_fmt_count(rm->info.iterations, t, sizeof(t)));
	put_text(u, y + 2, x, w, A_NORMAL, line);
	put_text(u, y + 3, x, w, A_DIM, "saved: the move played and the runner-up only");
	view_cols(&cols, w);
	put_text(u, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	n = view_saved_children(rm->move, &rm->info, kids);
	if (total == 0)
		total = (uint64_t)kids[0].visits + (n > 1 ? kids[1].visits : 0);
	for (int i = 0; i < n && VIEW_PANEL_HEAD + i < l->ph; i++)
		draw_child(u, &cols, y + VIEW_PANEL_HEAD + i, &kids[i], total, side,
			   i == 0 ? pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD : A_NORMAL, true);
	if (l->ph >= VIEW_PANEL_HEAD + 3) {
		char moves[512];

		view_moves_text(&u->g, u->moves, u->nmoves, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "game  %s", moves);
		put_text(u, y + l->ph - 1, x, w, A_NORMAL, line);
		put_text(u, y + l->ph - 1, x, 4, A_BOLD, "game");
	}
}

static void draw_panel(struct ui *u)
{
	const struct view_layout *l = &u->lay;
	struct pos at;
	const struct snap *s = shown_snap(u, &at);
	struct view_cols cols;
	char line[512], t1[32], t2[32], t3[32];
	int x = l->px, y = l->py, w = l->pw, footer, nrows, visible, side;
	uint64_t total = 0;

	if (s == NULL && shown_saved(u) >= 0) {
		draw_saved_panel(u, shown_saved(u));
		return;
	}

	/* Row 0: whose search, with its settings. */
	side = s != NULL ? s->side : u->hist[u->view].turn;
	if (s != NULL && s->analysis) {
		fmt_buf(line, sizeof(line), "%c  %s", side_char(side),
			s == &u->live ? "analysis for you (t: off)" : "analysis of a human's move");
	} else {
		char spec[160];

		fmt_buf(line, sizeof(line), "%c  %s", side_char(side),
			who_played(u, side, s == NULL && u->view < u->nmoves ? u->view : -1, spec,
				   sizeof(spec)));
	}
	put_text(u, y, x, w, A_BOLD, line);
	put_text(u, y, x, 1, side_attr(u, side), side == SIDE_X ? "X" : "O");
	panel_status(u, s, line, sizeof(line));
	put_text(u, y + 1, x, w, pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD, line);
	if (s == NULL)
		return;

	/* Rows 2 and 3: how far the search got. */
	view_progress_text(s->analysis ? NULL : &u->spec[s->side], &s->tot, line, sizeof(line));
	put_text(u, y + 2, x, w, A_NORMAL, line);
	fmt_buf(line, sizeof(line), "%s nodes, %s of %s%s, depth %d",
		view_fmt_count(s->tot.nodes, t1, sizeof(t1)),
		view_fmt_bytes(s->tot.memory_used, t2, sizeof(t2)),
		view_fmt_bytes(s->tot.memory_limit, t3, sizeof(t3)),
		s->tot.arena_full ? " (full)" : "", s->tot.max_depth);
	put_text(u, y + 3, x, w, A_NORMAL, line);

	/* The candidate rows. */
	view_cols(&cols, w);
	put_text(u, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	footer = u->inspecting ? 4 : 2;
	nrows = l->ph - VIEW_PANEL_HEAD - footer;
	while (nrows < 2 && footer > 0) {
		footer--;
		nrows++;
	}
	for (int i = 0; i < s->n; i++)
		total += s->kids[i].visits;
	/* When the rows do not all fit, the last line says how many more. */
	visible = s->n > nrows ? nrows - 1 : nrows;
	if (u->focus_panel) {
		if (u->sel < u->scroll)
			u->scroll = u->sel;
		if (u->sel >= u->scroll + visible)
			u->scroll = u->sel - visible + 1;
	}
	if (u->scroll > s->n - visible)
		u->scroll = s->n - visible;
	if (u->scroll < 0)
		u->scroll = 0;
	if (u->scroll + visible < s->n) {
		fmt_buf(line, sizeof(line), "  ... %d more (PgDn)", s->n - u->scroll - visible);
		put_text(u, y + VIEW_PANEL_HEAD + visible, x, w, A_DIM, line);
	}
	for (int r = 0; r < visible; r++) {
		int i = u->scroll + r, yy = y + VIEW_PANEL_HEAD + r;
		const struct mcts_child *c;
		attr_t a = A_NORMAL;
		char delta[32];

		if (i >= s->n)
			break;
		c = &s->kids[i];
		if (c->move == s->chosen)
			a = pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD;
		if (u->focus_panel && i == u->sel)
			a |= A_REVERSE;
		draw_child(u, &cols, yy, c, total, s->side, a, false);
		if (u->inspecting && s == &u->live && row_delta(u, c, delta, sizeof(delta))) {
			int dx = cols.proof_x >= 0 ? cols.proof_x : w - 8;

			put_text(u, yy, x + dx, w - dx, pair_attr(u, PAIR_HINT, A_REVERSE) | A_BOLD,
				 delta);
		}
	}
	if (s->n == 0)
		put_text(u, y + VIEW_PANEL_HEAD, x, w, A_DIM, "(no moves searched yet)");

	/* The footer: the inspector's phases, or the principal variation and
	 * the game's moves. */
	y = l->py + l->ph - footer;
	if (u->inspecting) {
		draw_inspector_lines(u, x, y, w, footer);
		return;
	}
	if (footer >= 1) {
		char moves[256];

		view_moves_text(&u->g, s->tot.pv, s->tot.pv_len, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "PV    %s", moves);
		put_text(u, y, x, w, A_NORMAL, line);
		put_text(u, y, x, 2, A_BOLD, "PV");
	}
	if (footer >= 2) {
		char moves[512];

		view_moves_text(&u->g, u->moves, u->nmoves, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "game  %s", u->nmoves > 0 ? moves : "(no moves yet)");
		put_text(u, y + 1, x, w, A_NORMAL, line);
		put_text(u, y + 1, x, 4, A_BOLD, "game");
	}
}

/* --- drawing: the rest ---------------------------------------------------- */

static void status_text(const struct ui *u, char *buf, size_t size)
{
	const struct pos *p = present(u);
	char name[8];
	int side = p->turn;

	if (u->msg[0] != '\0') {
		fmt_buf(buf, size, "%s", u->msg);
	} else if (u->view < u->nmoves) {
		char later[32];
		int mover = u->hist[u->view].turn;

		later_moves(u, u->view, later, sizeof(later));
		fmt_buf(buf, size,
			"Move %d of %d: %c played %s.  [ ] step, Esc: now; %s replaces %s.",
			u->view + 1, u->nmoves, side_char(mover),
			game_move_name(&u->g, u->moves[u->view], name),
			is_engine(u, mover) ? "m (the engine plays on from here)" : "a move here",
			later);
	} else if (game_over(p)) {
		int w = result_winner(p->result);
		char note[sizeof(u->end_note) + 2];

		fmt_buf(note, sizeof(note), "%s%s", u->end_note[0] != '\0' ? "  " : "",
			u->end_note);
		if (w >= 0)
			fmt_buf(buf, size, "%c wins%s.%s  n: new game, u: undo, [: replay.",
				side_char(w),
				is_engine(u, w) == is_engine(u, !w) ? ""
				: is_engine(u, w)		    ? " (the engine)"
								    : " (you)",
				note);
		else
			fmt_buf(buf, size, "A draw.%s  n: new game, u: undo, [: replay.", note);
	} else if (u->inspecting) {
		fmt_buf(buf, size, "Iteration inspector: i runs one more, p resumes, Esc leaves.");
	} else if (u->focus_panel) {
		fmt_buf(buf, size, "Tree browser: Up/Down select, Right goes in, Left up, Tab back.");
	} else if (human_to_move(u)) {
		size_t n = (size_t)snprintf(buf, size, "%c to move: arrows and Enter, or click.",
					    side_char(side));
		char where[64];

		if (game_where(&u->g, p, where, sizeof(where)) != NULL && n < size)
			snprintf(buf + n, size - n, " Play %s.", where);
	} else if (u->paused) {
		fmt_buf(buf, size, "%c is paused: p resumes, m moves now, i inspects.",
			side_char(side));
	} else if (u->ready && engine_vs_engine(u) && !u->autoplay) {
		fmt_buf(buf, size, "%c is ready: s plays its move, a auto-plays.", side_char(side));
	} else {
		fmt_buf(buf, size, "%c is thinking...  p pauses, m moves now.", side_char(side));
	}
}

static unsigned key_context(const struct ui *u)
{
	unsigned when = 0;

	if (u->focus_panel)
		return VIEW_WHEN_PANEL;
	if (game_over(present(u)))
		when |= VIEW_WHEN_OVER;
	else if (human_to_move(u))
		when |= VIEW_WHEN_HUMAN;
	else
		when |= VIEW_WHEN_ENGINE;
	if (engine_vs_engine(u))
		when |= VIEW_WHEN_EVE;
	return when;
}

static void draw_title(const struct ui *u)
{
	char title[64], x[64], o[64], line[256];
	int n;

	view_game_title(&u->g, title, sizeof(title));
	player_brief(&u->spec[SIDE_X], x, sizeof(x));
	player_brief(&u->spec[SIDE_O], o, sizeof(o));
	n = snprintf(line, sizeof(line), " noughts  %s   ", title);
	put_text(u, 0, 0, u->lay.cols, A_BOLD, line);
	if (n < u->lay.cols) {
		put_text(u, 0, n, u->lay.cols - n, side_attr(u, SIDE_X), "X");
		fmt_buf(line, sizeof(line), " %s   ", x);
		put_text(u, 0, n + 1, u->lay.cols - n - 1, A_NORMAL, line);
		n += 1 + (int)strlen(line);
	}
	if (n < u->lay.cols) {
		put_text(u, 0, n, u->lay.cols - n, side_attr(u, SIDE_O), "O");
		fmt_buf(line, sizeof(line), " %s", o);
		put_text(u, 0, n + 1, u->lay.cols - n - 1, A_NORMAL, line);
	}
	if (u->paused || u->autoplay || u->overlay || u->hint_mode) {
		fmt_buf(line, sizeof(line), "%s%s%s%s", u->paused ? " [paused]" : "",
			u->autoplay ? " [auto]" : "", u->overlay ? " [overlay]" : "",
			u->hint_mode ? " [analysis]" : "");
		n = (int)strlen(line) + 1;
		if (n < u->lay.cols)
			put_text(u, 0, u->lay.cols - n, n, pair_attr(u, PAIR_HINT, A_BOLD), line);
	}
}

static void draw_help(struct ui *u)
{
	static const char *const notes[] = {
		"",
		"The panel, one row per candidate move of the side to move:",
		"  visits  times the search went through the move; the bar is its share",
		"  wins, draws, loss  the playouts' results for the mover",
		"  win%    (wins + draws / 2) / visits; dim below 30 visits: noise",
		"  UCT     the score the search selects by: win rate + exploration",
		"  proven  solved by the search: the result and plies to the end",
		"  PV      the principal variation: most visited moves in turn",
	};
	int nkeys = view_nkeys, total = nkeys + (int)ARRAY_SIZE(notes);
	int w = u->lay.cols - 4 < 100 ? u->lay.cols - 4 : 100;
	int h = u->lay.rows - 2 < total + 4 ? u->lay.rows - 2 : total + 4;
	int x = (u->lay.cols - w) / 2, y = (u->lay.rows - h) / 2, inner = h - 4;
	char line[256];

	if (w < 20 || h < 5)
		return;
	if (u->help_scroll > total - inner)
		u->help_scroll = total - inner;
	if (u->help_scroll < 0)
		u->help_scroll = 0;
	draw_box(u, x, y, w, h, A_NORMAL);
	put_text(u, y, x + 2, w - 4, A_BOLD, " Keys ");
	for (int r = 0; r < inner; r++) {
		int i = u->help_scroll + r;

		if (i >= total)
			break;
		if (i < nkeys) {
			fmt_buf(line, sizeof(line), "%-20s %s", view_keys[i].keys, view_keys[i].what);
			put_text(u, y + 2 + r, x + 2, w - 4, A_NORMAL, line);
			put_text(u, y + 2 + r, x + 2, 20, A_BOLD, view_keys[i].keys);
		} else {
			put_text(u, y + 2 + r, x + 2, w - 4, A_NORMAL, notes[i - nkeys]);
		}
	}
	put_text(u, y + h - 1, x + 2, w - 4, A_BOLD,
		 total > inner ? " Esc closes, Up/Down scroll " : " Esc closes ");
}

static void draw_dialog(struct ui *u)
{
	const struct dialog *d = &u->dlg;
	static const char *const label[4] = { "Game", "X", "O", "Level" };
	int w = u->lay.cols - 4 < 72 ? u->lay.cols - 4 : 72, h = 10;
	int x = (u->lay.cols - w) / 2, y = (u->lay.rows - h) / 2;
	char line[160];

	if (w < 24 || u->lay.rows < h)
		return;
	draw_box(u, x, y, w, h, A_NORMAL);
	put_text(u, y, x + 2, w - 4, A_BOLD, " New game ");
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
		put_text(u, y + 2 + f, x + 3, w - 6, f == d->field ? A_REVERSE | A_BOLD : A_NORMAL,
			 line);
	}
	put_text(u, y + 7, x + 3, w - 6, A_DIM, "Level: engines without a budget of their own.");
	put_text(u, y + h - 1, x + 2, w - 4, A_BOLD,
		 " Up/Down field, Left/Right value, Enter starts, Esc ");
}

static void draw_too_small(const struct ui *u)
{
	char line[4][64];
	int n = 4;

	fmt_buf(line[0], sizeof(line[0]), "Terminal too small.");
	fmt_buf(line[1], sizeof(line[1]), "Needs %dx%d,", u->lay.need_cols, u->lay.need_rows);
	fmt_buf(line[2], sizeof(line[2]), "it is %dx%d.", u->lay.cols, u->lay.rows);
	fmt_buf(line[3], sizeof(line[3]), "q quits.");
	for (int i = 0; i < n && i < u->lay.rows; i++)
		put_text(u, i + (u->lay.rows > n ? (u->lay.rows - n) / 2 : 0), 0, u->lay.cols,
			 i == 0 ? A_BOLD : A_NORMAL, line[i]);
}

static void draw(struct ui *u)
{
	struct marks mk;
	char line[512];

	refresh_live(u);
	view_layout(&u->lay, &u->g, COLS, LINES);
	erase();
	if (u->lay.too_small) {
		draw_too_small(u);
	} else {
		draw_title(u);
		board_marks(u, &mk);
		draw_board(u, &mk);
		draw_panel(u);
		status_text(u, line, sizeof(line));
		put_text(u, u->lay.status_y, 1, u->lay.cols - 2,
			 u->msg[0] != '\0' ? pair_attr(u, PAIR_HINT, A_BOLD) | A_BOLD : A_BOLD, line);
		view_key_line(key_context(u), u->lay.cols - 2, line, sizeof(line));
		put_text(u, u->lay.keys_y, 1, u->lay.cols - 2, A_DIM, line);
		if (u->modal == MODAL_HELP)
			draw_help(u);
		else if (u->modal == MODAL_NEW)
			draw_dialog(u);
	}
	attrset(A_NORMAL);
	refresh();
	u->drawn_ns = now_ns();
}

/* --- keys ------------------------------------------------------------------- */

static void dialog_open(struct ui *u)
{
	static const char *const games[] = { "ttt", "uttt", "4,4,4", "5,5,4", "6,6,4", "7,6,4",
					     "8,8,5" };
	static const char *const kinds[] = { "human", "mcts", "negamax", "random" };
	struct dialog *d = &u->dlg;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < ARRAY_SIZE(games); i++) {
		fmt_buf(d->games[d->ngames], sizeof(d->games[0]), "%s", games[i]);
		if (strcmp(games[i], u->g.name) == 0)
			d->game = d->ngames;
		d->ngames++;
	}
	if (strcmp(d->games[d->game], u->g.name) != 0) {
		fmt_buf(d->games[d->ngames], sizeof(d->games[0]), "%s", u->g.name);
		d->game = d->ngames++;
	}
	d->level = PLAYER_DEFAULT_LEVEL;
	for (int s = 0; s < 2; s++) {
		char spec[160];
		const struct player_spec *ps = &u->spec[s];

		player_spec_format(ps, spec, sizeof(spec));
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
			fmt_buf(d->choices[s][d->nchoices[s]++], sizeof(d->choices[0][0]), "%s",
				kinds[i]);
		d->who[s] = ps->kind == PLAYER_HUMAN ? 0 : ps->kind == PLAYER_MCTS ? 1
						     : ps->kind == PLAYER_NEGAMAX ? 2 : 3;
		/* A spec with settings of its own stays on offer as it is. */
		if (strcmp(spec, kinds[d->who[s]]) != 0 && ps->kind != PLAYER_HUMAN &&
		    (ps->iterations != 0 || ps->time_ms != 0 || ps->depth != 0 ||
		     ps->kind == PLAYER_RANDOM)) {
			fmt_buf(d->choices[s][d->nchoices[s]], sizeof(d->choices[0][0]), "%s", spec);
			d->who[s] = d->nchoices[s]++;
		}
		if (ps->kind != PLAYER_HUMAN && ps->level != 0)
			d->level = ps->level;
	}
	u->modal = MODAL_NEW;
}

static int dialog_key(struct ui *u, int ch)
{
	struct dialog *d = &u->dlg;
	int step = 0;

	switch (ch) {
	case 27:
	case 'q':
	case 'n':
		u->modal = MODAL_NONE;
		return UI_REDRAW;
	case KEY_UP:
	case 'k':
		d->field = (d->field + 3) % 4;
		return UI_REDRAW;
	case KEY_DOWN:
	case 'j':
	case '\t':
		d->field = (d->field + 1) % 4;
		return UI_REDRAW;
	case KEY_LEFT:
	case 'h':
		step = -1;
		break;
	case KEY_RIGHT:
	case 'l':
	case ' ':
		step = 1;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER: {
		struct player_spec spec[2];
		char err[160];

		for (int s = 0; s < 2; s++) {
			if (player_spec_parse(d->choices[s][d->who[s]], &spec[s], err, sizeof(err)) < 0) {
				say(u, "%s", err);
				u->modal = MODAL_NONE;
				return UI_REDRAW;
			}
			if (spec[s].kind != PLAYER_HUMAN)
				spec[s].level = d->level;
		}
		u->modal = MODAL_NONE;
		if (new_game(u, d->games[d->game], &spec[0], &spec[1]))
			say(u, "New game.");
		return UI_REDRAW;
	}
	default:
		return 0;
	}
	switch (d->field) {
	case 0:
		d->game = (d->game + step + d->ngames) % d->ngames;
		break;
	case 1:
	case 2:
		d->who[d->field - 1] =
			(d->who[d->field - 1] + step + d->nchoices[d->field - 1]) % d->nchoices[d->field - 1];
		break;
	default:
		d->level += step;
		if (d->level < 1)
			d->level = 1;
		if (d->level > PLAYER_MAX_LEVEL)
			d->level = PLAYER_MAX_LEVEL;
	}
	return UI_REDRAW;
}

static int help_key(struct ui *u, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		u->help_scroll--;
		break;
	case KEY_DOWN:
	case 'j':
		u->help_scroll++;
		break;
	case KEY_PPAGE:
		u->help_scroll -= 10;
		break;
	case KEY_NPAGE:
		u->help_scroll += 10;
		break;
	case KEY_RESIZE:
		break;
	default:
		u->modal = MODAL_NONE;
	}
	return UI_REDRAW;
}

static void move_cursor(struct ui *u, int dc, int dr)
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
static void browse(struct ui *u, bool down)
{
	struct pos at;
	const struct snap *s = shown_snap(u, &at);

	if (s == NULL)
		return;
	if (s != &u->live) {
		say(u, "Past searches are kept as numbers only: browse the live search.");
		return;
	}
	if (down) {
		if (u->sel >= s->n || s->kids[u->sel].visits == 0) {
			say(u, "Nothing below that move yet.");
			return;
		}
		u->path[u->path_len++] = (uint8_t)s->kids[u->sel].move;
		u->sel = u->scroll = 0;
	} else if (u->path_len > 0) {
		int back = u->path[--u->path_len];

		refresh_live(u);
		u->sel = 0;
		for (int i = 0; i < u->live.n; i++)
			if (u->live.kids[i].move == back)
				u->sel = i;
	}
	refresh_live(u);
}

static void inspect(struct ui *u)
{
	struct mcts *m = live_search(u);

	if (m == NULL || u->view != u->nmoves) {
		say(u, "No search to inspect: on your move press t first.");
		return;
	}
	u->paused = true;
	u->inspecting = true;
	u->focus_panel = false;
	u->path_len = 0;
	refresh_live(u);
	u->before = u->live;
	mcts_step_trace(m, &u->trace);
	if (u->analysis == NULL)
		u->ready = false; /* it thought more: the player decides again */
	refresh_live(u);
}

static void mouse(struct ui *u)
{
	MEVENT ev;
	int col, row;

	if (getmouse(&ev) != OK || u->lay.too_small)
		return;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		u->scroll += ev.bstate & BUTTON4_PRESSED ? -3 : 3;
		return;
	}
#endif
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	if (view_cell_at(&u->lay.board, ev.x, ev.y, &col, &row)) {
		u->cur_col = col;
		u->cur_row = row;
		u->focus_panel = false;
		human_play(u, col, row);
		return;
	}
	if (ev.x >= u->lay.px && ev.x < u->lay.px + u->lay.pw && ev.y >= u->lay.py + VIEW_PANEL_HEAD &&
	    ev.y < u->lay.py + u->lay.ph) {
		struct pos at;
		const struct snap *s = shown_snap(u, &at);
		int i = u->scroll + ev.y - u->lay.py - VIEW_PANEL_HEAD;

		if (s != NULL && i < s->n) {
			u->focus_panel = true;
			u->sel = i;
		}
	}
}

static int on_key(struct ui *u, int ch)
{
	const struct pos *p = present(u);

	if (ch == KEY_RESIZE)
		return UI_REDRAW;
	if (u->modal == MODAL_HELP)
		return help_key(u, ch);
	if (u->modal == MODAL_NEW)
		return dialog_key(u, ch);
	u->msg[0] = '\0';
	u->msg_sticky = false;
	switch (ch) {
	case 'q':
	case 'Q':
		return UI_QUIT;
	case '?':
		u->modal = MODAL_HELP;
		u->help_scroll = 0;
		break;
	case 27: /* Escape: back out of whatever is open */
		if (u->inspecting)
			u->inspecting = false;
		else if (u->focus_panel || u->path_len > 0) {
			u->focus_panel = false;
			u->path_len = 0;
		} else if (u->view != u->nmoves) {
			u->view = u->nmoves;
			cursor_to_allowed(u);
		} else if (u->overlay)
			u->overlay = false;
		break;
	case KEY_MOUSE:
		mouse(u);
		break;
	case '\t':
		u->focus_panel = !u->focus_panel;
		if (!u->focus_panel)
			u->path_len = 0;
		u->sel = 0;
		break;
	case KEY_PPAGE:
		u->scroll -= 5;
		break;
	case KEY_NPAGE:
		u->scroll += 5;
		break;
	case 'p':
		if (u->paused) {
			u->paused = false;
			u->inspecting = false;
			u->turn_ns = now_ns(); /* auto-play pauses again before moving */
		} else if (engine_to_move(u) || u->analysis != NULL) {
			u->paused = true;
		} else {
			say(u, "Nothing is thinking now.");
		}
		break;
	case 'm':
		if (u->view < u->nmoves && is_engine(u, u->hist[u->view].turn))
			continue_from_view(u, -1);
		else if (u->view < u->nmoves)
			say(u,
			    "At move %d %c (a human) is to move: play a cell to continue from "
			    "here.",
			    u->view + 1, side_char(u->hist[u->view].turn));
		else if (engine_to_move(u))
			engine_play(u);
		else
			say(u, "m makes an engine move now; it is %s.",
			    game_over(p) ? "the end of the game" : "a human's move");
		break;
	case 's':
		if (!engine_vs_engine(u))
			say(u, "s steps through engine-against-engine games; here you play.");
		else if (!game_over(p) && (u->ready || u->paused))
			engine_play(u);
		else if (!game_over(p))
			u->step_pending = true;
		break;
	case 'a':
		u->autoplay = !u->autoplay;
		u->turn_ns = now_ns();
		say(u, engine_vs_engine(u) ? "Auto-play %s." : "Auto-play %s (for engine-against-engine games).",
		    u->autoplay ? "on" : "off");
		break;
	case '[':
		if (u->view > 0) {
			u->view--;
			u->focus_panel = false;
			u->path_len = 0;
			cursor_to_allowed(u);
		} else {
			say(u, "This is the start of the game.");
		}
		break;
	case ']':
		if (u->view < u->nmoves) {
			u->view++;
			cursor_to_allowed(u);
		} else {
			say(u, "This is the present position.");
		}
		break;
	case 'w':
		save_game(u);
		break;
	case 'u':
		undo(u);
		break;
	case 'n':
		dialog_open(u);
		break;
	case 't':
		u->hint_mode = !u->hint_mode;
		if (!u->hint_mode) {
			analysis_stop(u);
			say(u, "Analysis off.");
		} else if (human_to_move(u)) {
			analysis_start(u);
			u->paused = false;
			say(u, "Analysis on: the engine thinks for you; * marks its move.");
		} else {
			say(u, "Analysis on: it starts on a human's move.");
		}
		break;
	case 'v':
		u->overlay = !u->overlay;
		break;
	case 'i':
		inspect(u);
		break;
	default:
		if (u->focus_panel) {
			switch (ch) {
			case KEY_UP:
			case 'k':
				if (u->sel > 0)
					u->sel--;
				break;
			case KEY_DOWN:
			case 'j':
				u->sel++; /* refresh_live() clamps it */
				break;
			case KEY_RIGHT:
			case 'l':
			case '\n':
			case '\r':
			case KEY_ENTER:
				browse(u, true);
				break;
			case KEY_LEFT:
			case 'h':
			case KEY_BACKSPACE:
			case 127:
			case 8:
				browse(u, false);
				break;
			default:
				return 0;
			}
			break;
		}
		switch (ch) {
		case KEY_UP:
		case 'k':
			move_cursor(u, 0, -1);
			break;
		case KEY_DOWN:
		case 'j':
			move_cursor(u, 0, 1);
			break;
		case KEY_LEFT:
		case 'h':
			move_cursor(u, -1, 0);
			break;
		case KEY_RIGHT:
		case 'l':
			move_cursor(u, 1, 0);
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case ' ':
			human_play(u, u->cur_col, u->cur_row);
			break;
		default:
			return 0;
		}
	}
	return UI_REDRAW;
}

/* --- the loop and set-up ---------------------------------------------------- */

static int run(struct ui *u)
{
	for (;;) {
		uint64_t now, wake;
		int ch, flags = 0;

		if (got_signal != 0)
			return 128 + got_signal;
		if (thinking(u)) {
			think(u);
			if (now_ns() - u->drawn_ns >= FRAME_NS)
				u->dirty = true;
		}
		now = now_ns();
		wake = engine_turn(u, now);
		if (u->dirty) {
			draw(u);
			u->dirty = false;
		}
		/* Wait for a key only when nothing thinks; a timer only for the
		 * pause of auto-play. */
		if (thinking(u) || u->dirty)
			timeout(0);
		else if (wake != 0)
			timeout((int)((wake - now) / MS) + 1);
		else
			timeout(-1);
		ch = getch();
		while (ch != ERR) {
			flags |= on_key(u, ch);
			if (flags & UI_QUIT)
				return 0;
			timeout(0);
			ch = getch();
		}
		if (flags & UI_REDRAW)
			u->dirty = true;
	}
}

static void colors_init(struct ui *u)
{
	const char *no = getenv("NO_COLOR");
	short bg = -1;

	u->color = has_colors() && (no == NULL || no[0] == '\0');
	if (!u->color)
		return;
	start_color();
	if (use_default_colors() == ERR)
		bg = COLOR_BLACK;
	init_pair(PAIR_X, COLOR_RED, bg);
	init_pair(PAIR_O, COLOR_CYAN, bg);
	init_pair(PAIR_CURSOR, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_ALLOWED, COLOR_YELLOW, bg);
	init_pair(PAIR_HINT, COLOR_MAGENTA, bg);
	init_pair(PAIR_GOOD, COLOR_GREEN, bg);
	init_pair(PAIR_FAIR, COLOR_YELLOW, bg);
	init_pair(PAIR_BAD, COLOR_RED, bg);
}

/* The screen's state for OPT; REC: the record --load read (its moves are
 * OPT's), or NULL. */
static void ui_init(struct ui *u, const struct options *opt, const struct record *rec)
{
	u->g = opt->game;
	u->spec[SIDE_X] = opt->x;
	u->spec[SIDE_O] = opt->o;
	u->hist[0] = opt->start;
	for (int i = 0; i < opt->nmoves; i++) {
		u->hist[i + 1] = u->hist[i];
		game_play(&u->g, &u->hist[i + 1], opt->moves[i]);
		u->moves[i] = opt->moves[i];
		u->saved[i].move = opt->moves[i];
		if (rec != NULL)
			u->saved[i] = rec->moves[i];
	}
	u->nmoves = u->view = opt->nmoves;
	record_now(u->date, sizeof(u->date));
	u->record_path = opt->record;
	if (rec != NULL) {
		u->nloaded = rec->nmoves;
		fmt_buf(u->rec_who[SIDE_X], sizeof(u->rec_who[0]), "%s", rec->x);
		fmt_buf(u->rec_who[SIDE_O], sizeof(u->rec_who[0]), "%s", rec->o);
		if (rec->date[0] != '\0')
			fmt_buf(u->date, sizeof(u->date), "%s", rec->date);
	}
	u->snaps = xcalloc(GAME_MAX_PLIES, sizeof(*u->snaps));
	for (int i = 0; i < 2; i++)
		u->pl[i] = player_new(&u->g, &u->spec[i], present(u));
	u->cur_col = u->g.width / 2;
	u->cur_row = u->g.height / 2;
	u->turn_ns = now_ns();
	u->dirty = true;
	cursor_to_allowed(u);
}

static void ui_free(struct ui *u)
{
	analysis_stop(u);
	for (int i = 0; i < 2; i++)
		player_free(u->pl[i]);
	free(u->snaps);
	free(u);
}

/* --load: read the record into REC and make its game, moves and (unless
 * --x or --o says otherwise) players OPT's. Returns 0, or prints a line
 * to stderr and returns the exit status. WHY gets a word for the status
 * line about players that could not be used. */
static int load_record(struct options *opt, struct record *rec, char *why, size_t whysize)
{
	char err[2300];

	why[0] = '\0';
	if (record_read(opt->load, rec, err, sizeof(err)) < 0) {
		fprintf(stderr, "noughts: play: %s\n", err);
		return 1;
	}
	opt->game = rec->game;
	game_start(&opt->game, &opt->start);
	opt->pos = opt->start;
	for (int i = 0; i < rec->nmoves; i++) {
		opt->moves[i] = rec->moves[i].move;
		game_play(&opt->game, &opt->pos, rec->moves[i].move);
	}
	opt->nmoves = rec->nmoves;
	for (int side = 0; side < 2; side++) {
		const char *text = side == SIDE_X ? rec->x : rec->o;
		struct player_spec *spec = side == SIDE_X ? &opt->x : &opt->o;
		struct player_spec parsed;

		if ((side == SIDE_X ? opt->x_given : opt->o_given) || text[0] == '\0')
			continue;
		if (player_spec_parse(text, &parsed, err, sizeof(err)) < 0) {
			size_t n = strlen(why);

			fmt_buf(why + n, whysize - n,
				"  %c: '%.40s' is no player here, %s instead.", side_char(side),
				text, spec->kind == PLAYER_HUMAN ? "a human" : "mcts");
			continue;
		}
		if (parsed.kind != PLAYER_HUMAN && parsed.level == 0)
			parsed.level = opt->level;
		*spec = parsed;
	}
	return 0;
}

/* --record FILE: fail now, not at the end of a game, if it cannot be
 * written. Returns 0 or the exit status after a line on stderr. */
static int check_record_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"noughts: play: --record %s is a directory: give the file to write\n",
			path);
		return 2;
	}
	if (slash == NULL)
		fmt_buf(dir, sizeof(dir), ".");
	else if (slash == path)
		fmt_buf(dir, sizeof(dir), "/");
	else
		fmt_buf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (access(dir, W_OK) != 0) {
		fprintf(stderr, "noughts: play: --record %s: cannot write in %s: %s\n", path, dir,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* Can curses draw on this terminal? Asked before it starts, so that an
 * unknown TERM or one that cannot move the cursor (dumb) gets one line of
 * text, not a screen of garbage. Returns 0, or 2 after a line on stderr. */
static int check_terminal(void)
{
	const char *term = getenv("TERM"), *cup;
	int err = 0;
	bool can;

	if (term == NULL || term[0] == '\0') {
		fputs("noughts: play: TERM is not set: the game screen needs the terminal's type, "
		      "such as TERM=xterm-256color\n",
		      stderr);
		return 2;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 1)
			fprintf(stderr,
				"noughts: play: TERM=%s is a hardcopy terminal: the game screen "
				"needs one that can move the cursor\n",
				term);
		else if (err == 0)
			fprintf(stderr,
				"noughts: play: unknown terminal type '%s' (TERM): no terminfo "
				"entry; try TERM=xterm-256color\n",
				term);
		else
			fprintf(stderr, "noughts: play: no terminfo database found for TERM=%s\n",
				term);
		return 2;
	}
	cup = tigetstr("cup");
	can = cup != NULL && cup != (char *)-1;
	del_curterm(cur_term);
	if (!can) {
		fprintf(stderr,
			"noughts: play: TERM=%s cannot move the cursor; the game screen needs "
			"a terminal that can\n",
			term);
		return 2;
	}
	return 0;
}

int ui_play(struct options *opt)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[ARRAY_SIZE(sigs)];
	struct record *rec = NULL;
	struct ui *u;
	SCREEN *scr;
	const char *kmous;
	char why[200] = "";
	int status;

	/* Everything that can fail is checked before curses starts. */
	if (opt->load != NULL) {
		rec = xmalloc(sizeof(*rec));
		status = load_record(opt, rec, why, sizeof(why));
		if (status != 0) {
			free(rec);
			return status;
		}
	}
	if (opt->record != NULL && (status = check_record_path(opt->record)) != 0) {
		free(rec);
		return status;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fputs("noughts: play: the game screen needs a terminal on stdin and stdout; "
		      "without one use a command such as 'noughts show' or 'noughts analyze'\n",
		      stderr);
		free(rec);
		return 2;
	}
	if ((status = check_terminal()) != 0) {
		free(rec);
		return status;
	}
	/* Only the character type: numbers keep their decimal point. */
	setlocale(LC_CTYPE, "");
	u = xcalloc(1, sizeof(*u));
	ui_init(u, opt, rec);
	if (rec != NULL) {
		char result[16];

		if (rec->result == RESULT_NONE)
			fmt_buf(result, sizeof(result), "unfinished");
		else if (rec->result == RESULT_DRAW)
			fmt_buf(result, sizeof(result), "a draw");
		else
			fmt_buf(result, sizeof(result), "%c won",
				side_char(result_winner(rec->result)));
		say(u, "Loaded %s: %d move%s, %s; [ and ] step through it.%s", opt->load,
		    rec->nmoves, rec->nmoves == 1 ? "" : "s", result, why);
		free(rec);
	}

	/* Our handlers go in before curses starts, so it leaves them alone;
	 * no SA_RESTART, so a blocking read returns to the loop. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
	got_signal = 0;

	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL) {
		const char *term = getenv("TERM");

		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			sigaction(sigs[i], &old[i], NULL);
		fprintf(stderr, "noughts: play: cannot use the terminal (TERM=%s)\n",
			term != NULL ? term : "unset");
		ui_free(u);
		return 2;
	}
	set_term(scr);
	curses_on = true;
	util_set_fatal_hook(fatal_hook);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
#ifdef NCURSES_VERSION
	set_escdelay(25); /* Escape closes things at once, not after a second */
#endif
	/* The mouse only where the terminal reports it itself (kmous), and not
	 * on the Linux console, where curses would load the GPM library (which
	 * needs its daemon, and leaks). */
	kmous = tigetstr("kmous");
	if (kmous != NULL && kmous != (char *)-1 && strncmp(termname(), "linux", 5) != 0) {
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED
#ifdef BUTTON5_PRESSED
				  | BUTTON4_PRESSED | BUTTON5_PRESSED
#endif
			  ,
			  NULL);
	}
	colors_init(u);
	/* UTF-8 lines (heavy and light) need a UTF-8 locale and the
	 * wide-character library, which takes a multibyte string apart into
	 * characters (the narrow one would put out its bytes one by one): the
	 * header alone cannot tell, so configure says which was linked
	 * (HAVE_NCURSESW). The Linux console's fonts often lack the heavy
	 * lines. */
	u->glyphs = opt->ascii ? LINES_ASCII : LINES_ACS;
#if defined(HAVE_NCURSESW) && NCURSES_WIDECHAR
	if (!opt->ascii && MB_CUR_MAX > 1 && strncmp(termname(), "linux", 5) != 0)
		u->glyphs = LINES_UTF8;
#else
	/* The narrow library in a UTF-8 locale often cannot switch to the
	 * line-drawing set either (the letters of "lqqqk" show instead). */
	if (MB_CUR_MAX > 1)
		u->glyphs = LINES_ASCII;
#endif

	status = run(u);

	endwin();
	curses_on = false;
	util_set_fatal_hook(NULL);
	delscreen(scr);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	ui_free(u);
	return status;
}
