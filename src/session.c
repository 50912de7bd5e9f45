/* session.c - the game session as a state machine: moves, history,
 * engines in slices, analysis, the browser and inspector, the new-game
 * dialog, records. No curses: the screen draws what is here (session.h).
 * The commands of the key table are carried out in session-cmd.c. */
#include "config.h"

#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keys.h"
#include "util.h"
#include "view.h"

#define ANALYSIS_NS (30000 * SESSION_MS) /* analysis stops by itself after this long */

void session_say(struct session *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
}
/* --- the search on screen ------------------------------------------------ */

/* The search running for the present position, or NULL. */
struct mcts *session_live_search(const struct session *u)
{
	if (u->analysis != NULL)
		return u->analysis;
	if (session_engine_to_move(u))
		return player_search(u->pl[session_present(u)->turn]);
	return NULL;
}

/* Does anything think now? */
bool session_thinking(const struct session *u)
{
	if (u->paused || game_over(session_present(u)))
		return false;
	if (u->analysis != NULL)
		return !u->analysis_done;
	return session_engine_to_move(u) && !u->ready;
}

/* Copy the numbers of the live search at the browser's path. */
/* The statistics of the engine of SIDE (one without an MCTS tree) into S;
 * false when it has none. */
static bool engine_snap(struct session *u, int side, struct session_snap *s)
{
	if (!session_is_engine(u, side) || !player_stats(u->pl[side], &s->eng))
		return false;
	memset(&s->tot, 0, sizeof(s->tot));
	s->is_eng = true;
	s->have = true;
	s->n = s->eng.n;
	s->side = side;
	s->analysis = false;
	s->chosen = -1;
	return true;
}

void session_refresh(struct session *u)
{
	struct mcts *m = session_live_search(u);
	int n = -1;

	u->live.have = false;
	u->live.is_eng = false;
	if (m == NULL) {
		u->path_len = 0;
		if (session_engine_to_move(u) && u->analysis == NULL &&
		    engine_snap(u, session_present(u)->turn, &u->live)) {
			u->live_pos = *session_present(u);
			if (u->sel >= u->live.n)
				u->sel = u->live.n > 0 ? u->live.n - 1 : 0;
		}
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
	view_sort_children(u->live.kids, u->live.n); /* proven results pinned */
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
const struct session_snap *session_shown(const struct session *u, struct pos *at)
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
	*at = *session_present(u);
	return NULL;
}

/* The player of SIDE as a spec, in BUF: the one who made move PLY of a
 * loaded game as its record says, else (PLY -1 too) the player now, with
 * the evaluation and order a network gives it named: as its search runs
 * them, so that a frame does not load a net=FILE again to find them. */
const char *session_who_played(const struct session *u, int side, int ply, char *buf, size_t size)
{
	if (ply < 0 || ply >= u->nloaded) {
		struct player_spec now = u->spec[side];
		struct mcts *m = u->pl[side] != NULL ? player_search(u->pl[side]) : NULL;

		if (m == NULL) {
			player_spec_name_eval(&now, &u->g);
		} else if (mcts_params_of(m)->eval != MCTS_EVAL_ROLLOUT) {
			now.mcts.eval = mcts_params_of(m)->eval;
			now.mcts.order = mcts_params_of(m)->order;
		}
		return player_spec_format(&now, buf, size);
	}
	if (u->rec_who[side][0] == '\0')
		return fmt_buf(buf, size, "(player not recorded)");
	return fmt_buf(buf, size, "%s", u->rec_who[side]);
}

/* The ply whose numbers the panel shows from a record (a loaded game keeps
 * no search, only what its file says), or -1. */
int session_shown_saved(const struct session *u)
{
	int i = u->view < u->nmoves ? u->view : u->live.have ? -1 : u->nmoves - 1;

	if (i < 0 || u->snaps[i].have || !u->saved[i].has_info)
		return -1;
	return i;
}

void session_analysis_stop(struct session *u)
{
	if (u->analysis != NULL)
		mcts_free(u->analysis);
	u->analysis = NULL;
	u->analysis_done = false;
}

void session_analysis_start(struct session *u)
{
	struct mcts_params p;

	session_analysis_stop(u);
	mcts_params_default(&p);
	/* The tree is as big as an MCTS player's in this game (memory= of
	 * either side's spec), else MCTS's default. */
	for (int side = 0; side < 2; side++)
		if (u->spec[side].kind == PLAYER_MCTS)
			p.memory = u->spec[side].mcts.memory;
	p.threads = player_threads_default();
	u->analysis = mcts_new(&u->g, session_present(u), &p);
	u->analysis_ns = 0;
}

static void analysis_think(struct session *u)
{
	uint64_t start = now_ns(), now;

	/* One run for the slice: its workers look at the clock. */
	mcts_run(u->analysis, UINT64_MAX, start + SESSION_SLICE_NS);
	now = now_ns();
	if (mcts_finished(u->analysis))
		u->analysis_done = true;
	u->analysis_ns += now - start;
	if (u->analysis_ns >= ANALYSIS_NS)
		u->analysis_done = true;
}

/* One slice of thinking by whatever thinks. */
static void think(struct session *u)
{
	if (u->analysis != NULL) {
		analysis_think(u);
		if (u->analysis_done)
			u->dirty = true;
		return;
	}
	if (player_think(u->pl[session_present(u)->turn], SESSION_SLICE_NS)) {
		u->ready = true;
		u->dirty = true;
	}
}

/* --- moves and positions -------------------------------------------------- */

/* Ultimate: put the cursor in the board the mover must use in the position
 * shown (the present, or one of the past where a move may go too). */
void session_cursor_to_allowed(struct session *u)
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
static void new_turn(struct session *u)
{
	u->ready = false;
	u->step_pending = false;
	u->path_len = u->sel = u->scroll = 0;
	u->inspecting = false;
	u->turn_ns = now_ns();
	u->end_note[0] = '\0';
	session_analysis_stop(u);
	if (u->hint_mode && session_human_to_move(u))
		session_analysis_start(u);
	session_cursor_to_allowed(u);
	session_refresh(u);
	u->dirty = true;
}

/* The game so far as a record, into R. */
static void make_record(const struct session *u, struct record *r)
{
	char spec[160];

	record_init(r, &u->g);
	player_spec_format(&u->spec[SIDE_X], spec, sizeof(spec));
	fmt_buf(r->x, sizeof(r->x), "%s", spec);
	player_spec_format(&u->spec[SIDE_O], spec, sizeof(spec));
	fmt_buf(r->o, sizeof(r->o), "%s", spec);
	fmt_buf(r->date, sizeof(r->date), "%s", u->date);
	r->result = session_present(u)->result;
	r->nmoves = u->nmoves;
	memcpy(r->moves, u->saved, (size_t)u->nmoves * sizeof(r->moves[0]));
}

/* w: the game to a new file in the data directory. */
void session_save(struct session *u)
{
	struct record *r;
	char dir[2048], path[2200], err[2300];

	if (record_dir(dir, sizeof(dir), err, sizeof(err)) < 0) {
		session_say(u, "Not saved: %s.", err);
		return;
	}
	r = xmalloc(sizeof(*r));
	make_record(u, r);
	if (record_save_new(dir, r, path, sizeof(path), err, sizeof(err)) < 0) {
		session_say(u, "Not saved: %s.", err);
	} else {
		session_say(u, "Saved %d move%s to %s", u->nmoves, u->nmoves == 1 ? "" : "s", path);
		fmt_buf(u->saved_path, sizeof(u->saved_path), "%s", path);
		u->unsaved = false;
	}
	free(r);
}

void session_quit(struct session *u)
{
	if (!u->unsaved || u->nmoves == 0 || game_over(session_present(u)))
		return;
	session_save(u);
	if (u->unsaved)
		fmt_buf(u->exit_note, sizeof(u->exit_note), "the unfinished game was lost: %s",
			u->msg);
	else
		fmt_buf(u->exit_note, sizeof(u->exit_note),
			"the unfinished game is saved in %s; 'noughts --load %s' goes on with it",
			u->saved_path, u->saved_path);
}

/* The game has just ended: with --record it goes to that file now,
 * through a temporary renamed into place. */
static void game_ended(struct session *u)
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

static void play_move(struct session *u, int move)
{
	const struct pos *p = session_present(u);
	int side = p->turn;
	struct mcts *m = u->analysis != NULL ? u->analysis : player_search(u->pl[side]);
	struct session_snap *s = &u->snaps[u->nmoves];
	struct record_move *rm = &u->saved[u->nmoves];
	bool at_present = u->view == u->nmoves;

	/* Keep the numbers the move was chosen with, for '[' and ']'. */
	s->have = false;
	s->is_eng = false;
	if (m == NULL && engine_snap(u, side, s))
		s->chosen = move;
	if (m != NULL) {
		s->n = mcts_stats(m, NULL, 0, s->kids, GAME_MAX_MOVES, &s->tot);
		view_sort_children(s->kids, s->n);
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
	u->unsaved = true;
	if (u->nmoves > u->redo.until && !session_is_engine(u, side))
		u->redo.n = 0; /* a human played on: no longer "right after" */
	for (int i = 0; i < 2; i++)
		player_played(u->pl[i], move);
	if (at_present)
		u->view = u->nmoves;
	new_turn(u);
	if (game_over(session_present(u)))
		game_ended(u);
}

void session_engine_play(struct session *u)
{
	const struct pos *p = session_present(u);
	int move = player_choose(u->pl[p->turn]);
	char why[96];

	if (move == MOVE_NONE || game_illegal(&u->g, p, move, why, sizeof(why)) != NULL) {
		/* A bug in an engine must not end the game silently. */
		u->paused = true;
		session_say(u, "The engine chose no legal move; paused.");
		return;
	}
	play_move(u, move);
}

/* Let an engine whose move is ready play it, unless engine-against-engine
 * step mode waits for 's' or auto-play for its pause. Returns when to look
 * again (0: not before a key). */
static uint64_t engine_turn(struct session *u, uint64_t now)
{
	/* The game goes on while someone looks at the past: the view stays. */
	if (!session_engine_to_move(u) || !u->ready)
		return 0;
	if (session_eve(u) && !u->step_pending) {
		if (!u->autoplay || u->paused)
			return 0;
		if (now < u->turn_ns + u->auto_ns)
			return u->turn_ns + u->auto_ns;
	}
	session_engine_play(u);
	return 0;
}

uint64_t session_tick(struct session *u, uint64_t now)
{
	if (session_thinking(u)) {
		think(u);
		now = now_ns();
	}
	return session_review_tick(u, now, engine_turn(u, now));
}

/* Go back to ply N of the game (undo, new game): players start over there. */
static void truncate_to(struct session *u, int n)
{
	u->nmoves = n;
	u->view = n;
	for (int i = n; i < GAME_MAX_PLIES; i++) {
		u->snaps[i].have = false;
		u->saved[i].has_info = false;
	}
	if (u->nloaded > n)
		u->nloaded = n;
	u->unsaved = true;
	for (int i = 0; i < 2; i++)
		player_reset(u->pl[i], session_present(u));
	new_turn(u);
}

/* u right after a rewrite: the old game's moves back in place. */
static void redo_line(struct session *u)
{
	struct session_redo *r = &u->redo;

	for (int i = 0; i < r->n; i++) {
		int at = r->from + i;

		u->moves[at] = r->moves[i];
		u->hist[at + 1] = u->hist[at];
		game_play(&u->g, &u->hist[at + 1], r->moves[i]);
		u->saved[at] = r->saved[i];
		u->snaps[at] = r->snaps[i];
	}
	u->nmoves = u->view = r->from + r->n;
	u->nloaded = r->nloaded;
	u->unsaved = true;
	for (int i = 0; i < 2; i++)
		player_reset(u->pl[i], session_present(u));
	new_turn(u);
	if (game_over(session_present(u)))
		game_ended(u);
	session_say(u, "Undone: the old game is back, %d move%s.", u->nmoves,
		    u->nmoves == 1 ? "" : "s");
	r->n = 0;
}

void session_undo(struct session *u)
{
	int target;

	if (u->redo.n > 0) {
		redo_line(u);
		return;
	}
	if (u->nmoves == 0) {
		session_say(u, "Nothing to undo.");
		return;
	}
	u->redo.n = 0;
	target = u->nmoves - 1;
	/* Back to where a human was to move, so "undo" takes back the human's
	 * move and the engine's reply together. */
	if (!session_eve(u))
		while (target > 0 && session_is_engine(u, u->hist[target].turn))
			target--;
	truncate_to(u, target);
	session_say(u, "Taken back: the game is at move %d again.", target + 1);
}

/* "moves 3-7" or "move 7": the moves from ply FROM on, which a move made
 * back there would drop. */
char *session_later_moves(const struct session *u, int from, char *buf, size_t size)
{
	if (from + 1 == u->nmoves)
		return fmt_buf(buf, size, "move %d", u->nmoves);
	return fmt_buf(buf, size, "moves %d-%d", from + 1, u->nmoves);
}

void session_event_done(struct session *u)
{
	if (!u->asked_now)
		u->confirm_at = 0;
	u->asked_now = false;
}

/* Back in the game's history, go on from the position shown: the moves
 * after it are dropped, as in any undo history. MOVE is the human's move
 * there, or -1 to let the engine to move there think. */
void session_continue(struct session *u, int move)
{
	int at = u->view;
	char dropped[32], name[8];
	struct session_redo *r = &u->redo;

	session_later_moves(u, at, dropped, sizeof(dropped));
	if (u->confirm_at != at + 1 || u->confirm_move != move) {
		u->confirm_at = at + 1;
		u->confirm_move = move;
		u->asked_now = true;
		session_say(u, "%s at move %d drops %s of this game: %s again does it (then u "
			    "brings them back), any other key keeps them.",
			    move >= 0 ? game_move_name(&u->g, move, name) : "Going on", at + 1,
			    dropped, move >= 0 ? "the same move" : "m");
		return;
	}
	u->confirm_at = 0;
	if (r->snaps == NULL)
		r->snaps = xcalloc(GAME_MAX_PLIES, sizeof(*r->snaps));
	r->from = at;
	r->n = u->nmoves - at;
	r->until = at + (move >= 0);
	r->nloaded = u->nloaded;
	memcpy(r->moves, u->moves + at, (size_t)r->n);
	memcpy(r->saved, u->saved + at, (size_t)r->n * sizeof(r->saved[0]));
	memcpy(r->snaps, u->snaps + at, (size_t)r->n * sizeof(r->snaps[0]));
	truncate_to(u, at);
	if (move >= 0) {
		play_move(u, move);
		session_say(u, "%s played at move %d instead: %s of the old game dropped (u brings "
			    "them back).", game_move_name(&u->g, move, name), at + 1, dropped);
	} else {
		session_say(u, "The game goes on from move %d, %c thinks: %s of the old game dropped "
			    "(u brings them back).", at + 1, game_side_mark(session_present(u)->turn),
			    dropped);
	}
	/* Worth reading even when an engine answers at once. */
	u->msg_sticky = true;
}

/* The move on cell COL, ROW if it is legal in P; else -1, and the status
 * line says why (nothing for a cell off the board). */
static int legal_cell(struct session *u, const struct pos *p, int col, int row)
{
	char why[96], name[8];
	int move = game_cell_move(&u->g, col, row);

	if (move < 0)
		return -1;
	if (game_illegal(&u->g, p, move, why, sizeof(why)) != NULL) {
		session_say(u, "%s is not allowed: %s.", game_move_name(&u->g, move, name), why);
		return -1;
	}
	return move;
}

void session_human_play(struct session *u, int col, int row)
{
	const struct pos *p = session_present(u);
	int move;

	if (u->view != u->nmoves) {
		/* A move in the past continues the game from there. */
		p = &u->hist[u->view];
		if (session_is_engine(u, p->turn)) {
			session_say(u,
			    "At move %d %c (an engine) is to move: m lets it continue from here, "
			    "Esc goes back to the present.",
			    u->view + 1, game_side_mark(p->turn));
			return;
		}
		if ((move = legal_cell(u, p, col, row)) < 0)
			return;
		u->focus_panel = false;
		session_continue(u, move);
		return;
	}
	if (game_over(p)) {
		session_say(u, "The game is over: n starts a new one, u takes back a move.");
		return;
	}
	if (!session_human_to_move(u)) {
		session_say(u, "It is %c's move (an engine): wait, or press m to make it move now.",
		    game_side_mark(p->turn));
		return;
	}
	if ((move = legal_cell(u, p, col, row)) < 0)
		return;
	u->focus_panel = false;
	play_move(u, move);
}

/* Start a game of NAME between specs X and O from the start position. */
void session_new_game(struct session *u, const struct game *g, const struct player_spec *x,
		      const struct player_spec *o)
{
	/* Players and the analysis point at u->g: end them before it changes. */
	session_analysis_stop(u);
	for (int i = 0; i < 2; i++) {
		player_free(u->pl[i]);
		u->pl[i] = NULL;
	}
	u->g = *g;
	u->spec[SIDE_X] = *x;
	u->spec[SIDE_O] = *o;
	game_start(&u->g, &u->hist[0]);
	for (int i = 0; i < 2; i++)
		u->pl[i] = player_new(&u->g, &u->spec[i], &u->hist[0]);
	u->cur_col = u->g.width / 2;
	u->cur_row = u->g.height / 2;
	u->paused = u->autoplay = u->inspecting = u->focus_panel = false;
	u->nloaded = 0;
	u->redo.n = 0;
	record_now(u->date, sizeof(u->date));
	truncate_to(u, 0);
}

struct session *session_new(const struct options *opt, const struct record *rec)
{
	struct session *u = xcalloc(1, sizeof(*u));

	u->g = opt->game;
	u->auto_ns = (uint64_t)opt->delay_ms * SESSION_MS;
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
		u->pl[i] = player_new(&u->g, &u->spec[i], session_present(u));
	u->cur_col = u->g.width / 2;
	u->cur_row = u->g.height / 2;
	u->turn_ns = now_ns();
	u->dirty = true;
	session_cursor_to_allowed(u);
	return u;
}

void session_loaded(struct session *u, const char *path, const struct record *rec,
		    const char *why)
{
	char result[16];

	if (rec->result == RESULT_NONE)
		fmt_buf(result, sizeof(result), "unfinished");
	else if (rec->result == RESULT_DRAW)
		fmt_buf(result, sizeof(result), "a draw");
	else
		fmt_buf(result, sizeof(result), "%c won", game_side_mark(result_winner(rec->result)));
	session_say(u, "Loaded %s: %d move%s, %s; [ and ] step through it.%s", path, rec->nmoves,
		    rec->nmoves == 1 ? "" : "s", result, why);
}

void session_free(struct session *u)
{
	if (u == NULL)
		return;
	session_analysis_stop(u);
	session_review_free(u);
	for (int i = 0; i < 2; i++)
		player_free(u->pl[i]);
	free(u->snaps);
	free(u->redo.snaps);
	free(u);
}

/* --load: read the record into REC and make its game, moves and (unless
 * --x or --o says otherwise) players OPT's. Returns 0, or prints a line
 * to stderr and returns the exit status. WHY gets a word for the status
 * line about players that could not be used. */
int session_load(struct options *opt, struct record *rec, char *why, size_t whysize)
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
				"  %c: '%.40s' is no player here, %s instead.", game_side_mark(side),
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
int session_check_record(const char *path)
{
	const char *slash = strrchr(path, '/'), *why = NULL;
	char dir[4096];
	struct stat st;

	if (path[0] == '\0') {
		fprintf(stderr, "noughts: play: --record needs the name of the file to write\n");
		return 2;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"noughts: play: --record %s is a directory: give the file to write\n",
			shown(path));
		return 2;
	}
	if (slash == NULL)
		fmt_buf(dir, sizeof(dir), ".");
	else if (slash == path)
		fmt_buf(dir, sizeof(dir), "/");
	else
		fmt_buf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* (access() alone passes a file as the directory) */
	if (stat(dir, &st) != 0)
		why = strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = strerror(ENOTDIR);
	else if (access(dir, W_OK) != 0)
		why = strerror(errno);
	if (why != NULL) {
		fprintf(stderr, "noughts: play: --record %s: cannot write in %s: %s\n", shown(path),
			shown(dir), why);
		return 1;
	}
	return 0;
}
