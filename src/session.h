/* session.h - the game session behind the screen, without curses: the
 * game, its players, the history with the numbers each move was chosen
 * by, undo, continuing from an earlier move, step and auto-play, pause,
 * move-now, analysis for a human, the tree browser and the inspector, the
 * new-game dialog, load and save.
 *
 * A state machine driven by three kinds of event: a command (from the key
 * table, keys.h), a cell or panel row picked with the mouse, and a slice of
 * time (session_tick). The screen (ui.c and the draw_*.c files) reads the
 * struct to draw it and never changes it except through these calls, so
 * every transition is unit-tested without a terminal (tests/test-session.c).
 * Commands refused in the situation they come in leave the state as it was
 * and put the reason in msg. */
#ifndef NOUGHTS_SESSION_H
#define NOUGHTS_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "mcts.h"
#include "options.h"
#include "player.h"
#include "record.h"

#define SESSION_MS 1000000ull
/* A slice is long against the cost of a redraw (well under a millisecond),
 * so the search keeps nearly its full speed, and short against the 50 ms in
 * which a key must be answered. */
#define SESSION_SLICE_NS (20 * SESSION_MS)

/* What a command asks of the screen (bits). */
enum { SESSION_REDRAW = 1, SESSION_QUIT = 2 };

enum { SESSION_MODAL_NONE, SESSION_MODAL_HELP, SESSION_MODAL_NEW };

/* The numbers of one search's root, copied out: what the panel shows. One
 * is kept per move of the game (the engine's numbers when it chose that
 * move) and one for the search running now. MCTS searches fill kids with
 * visits and values; other engines (negamax) fill eng. */
struct session_snap {
	bool have;
	int side;      /* the mover at the node, whose view the numbers take */
	bool analysis; /* a search for a human ('t'), not an engine's own */
	int chosen;    /* the move played from it, -1 while it is live */
	int n;
	struct mcts_child kids[GAME_MAX_MOVES];
	struct mcts_totals tot;
	bool is_eng;             /* the numbers are eng's, not an MCTS tree's */
	struct player_stats eng; /* a non-MCTS engine's statistics */
};

/* The new-game dialog: a text per field, in the command line's words
 * (session-dialog.c). */
enum { DLG_GAME, DLG_RULES, DLG_X, DLG_O, DLG_BUDGET, DLG_DELAY, DLG_FIELDS };
#define SESSION_DLG_TEXT 160
struct session_dialog {
	int field;                            /* DLG_* with the focus */
	char text[DLG_FIELDS][SESSION_DLG_TEXT];
	char own[2][SESSION_DLG_TEXT];        /* X's and O's specs of now, offered too */
	bool fresh;  /* the next character typed replaces the field's text */
	int key;     /* the key being handled: what CMD_DLG_TYPE types */
	char error[400]; /* why Enter did not start the game, or "" */
};
/* The dialog's fields in order: the label, and what the field accepts
 * (shown under the fields for the one with the focus). */
struct session_dlg_field {
	const char *label, *accepts;
};
extern const struct session_dlg_field session_dlg_fields[DLG_FIELDS];

/* The moves a rewrite of history dropped, so u can bring them back. */
struct session_redo {
	int from, n;   /* moves from..from+n-1 of the old game; n 0: none */
	int until;     /* u brings them back until a human's move past this ply */
	int nloaded;
	uint8_t moves[GAME_MAX_PLIES];
	struct record_move saved[GAME_MAX_PLIES];
	struct session_snap *snaps; /* [GAME_MAX_PLIES], made when first needed */
};
struct session_review; /* the screen's game review (session-review.c) */
struct graph_point;    /* graph.h */

struct session {
	struct game g;
	struct player_spec spec[2];
	struct player *pl[2];
	/* hist[i] is the position before move i; hist[nmoves] is the present */
	struct pos hist[GAME_MAX_PLIES + 1];
	uint8_t moves[GAME_MAX_PLIES];
	int nmoves;
	struct session_snap *snaps; /* [GAME_MAX_PLIES]: numbers when move i was chosen */
	struct session_snap live;   /* of the search running now */
	struct pos live_pos;        /* the position live's numbers are about */
	struct session_snap before; /* inspector: live before the iteration */
	int view;                   /* the ply shown: nmoves for the present */
	/* What goes into a record for move i: the engine's numbers when it
	 * chose it, from its search or from the record the game was loaded
	 * from (moves before nloaded, played by rec_who's players). */
	struct record_move saved[GAME_MAX_PLIES];
	int nloaded;
	char rec_who[2][128];
	char date[32];           /* when the game began, for records */
	const char *record_path; /* --record: the game goes there at its end */
	char end_note[300];      /* what became of it, shown with the result */
	bool unsaved;            /* moves played or taken back since the last save */
	char saved_path[2200];   /* where w (or quitting) last saved the game */
	char exit_note[2400];    /* said on stderr once the screen is closed */
	/* A rewrite of history asks first: the view+1 and move (-1: m) of the
	 * one asked about, 0 for none; asked_now: by the event being handled. */
	int confirm_at, confirm_move;
	bool asked_now;
	struct session_redo redo;
	int cur_col, cur_row;
	bool paused, ready, autoplay, step_pending, overlay, hint_mode, inspecting;
	uint64_t auto_ns; /* auto-play: the least time a move is shown (--delay) */
	uint64_t turn_ns; /* when the present position arose */
	struct mcts *analysis;
	uint64_t analysis_ns;
	bool analysis_done;
	bool focus_panel;
	uint8_t path[GAME_MAX_PLIES]; /* tree browser: moves from the search's root */
	int path_len, sel, scroll;
	int page; /* candidate rows the panel shows: PgUp/PgDn move a page less one */
	struct mcts_trace trace;
	int modal, help_scroll;
	struct session_dialog dlg;
	struct session_review *review; /* r: the game's review, or NULL */
	bool pv_on;  /* e: the selected row's line is shown on the board */
	int pv_step; /* of which the first pv_step moves (more: all) */
	char msg[600];
	bool msg_sticky; /* msg outlives the next move (an engine's reply) */
	bool dirty;      /* something changed since the last draw */
};

/* --load: read OPT->load into REC and make its game, moves and (unless --x
 * or --o says otherwise) players OPT's. Returns 0, or prints a line to
 * stderr and returns the exit status (1). WHY gets words for the status
 * line about players that could not be used. */
int session_load(struct options *opt, struct record *rec, char *why, size_t whysize);

/* --record FILE: fail now, not at the end of a game, if it cannot be
 * written. Returns 0, or the exit status (1, or 2 for a directory) after a
 * line on stderr. */
int session_check_record(const char *path);

/* A session for the game, moves and players of OPT (which must outlive
 * it); REC: the record --load read (its moves are OPT's) or NULL. */
struct session *session_new(const struct options *opt, const struct record *rec);
void session_free(struct session *u);
/* Say on the status line that REC was loaded from PATH, with WHY (words
 * about players that could not be used, or ""). */
void session_loaded(struct session *u, const char *path, const struct record *rec,
		    const char *why);

/* Set the status line's message. */
void session_say(struct session *u, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* The situation, as the key table's contexts (KEYS_* bits of keys.h). */
unsigned session_context(const struct session *u);

/* Run command CMD (enum keys_command) if the situation allows it, else
 * refuse it with a message; returns SESSION_* bits. */
int session_command(struct session *u, int cmd);
/* A key (keys.h codes): the key table's command for it in the situation,
 * run as session_command; 0 for a key that means nothing there. */
int session_key(struct session *u, int key);

/* The inspector's words for the third phase of its iteration: the
 * playout it ran, by the live search's own kind (random or smart moves,
 * the network's value, or both), in BUF; and in *SHOWS (a constant) what
 * else happened, or in parentheses how it shows on the board. */
char *session_playout_text(const struct session *u, char *buf, size_t size, const char **shows);

struct keys_row;
/* The help's words for row R of the key table, with what only the running
 * program knows (the data directory saved games go to) put in. */
const char *session_help_what(const struct keys_row *r, char *buf, size_t size);
/* The mouse: a click on board cell COL, ROW; on row I of the panel's
 * candidates; the wheel (DELTA rows). */
void session_click_cell(struct session *u, int col, int row);
void session_click_row(struct session *u, int i);
void session_scroll(struct session *u, int delta);

/* A slice of time: if anything thinks, it thinks for one slice; then an
 * engine whose move is ready plays it (unless step mode or auto-play's
 * pause holds it). NOW is now_ns(). Returns when to look again without a
 * key (0: not before a key). */
uint64_t session_tick(struct session *u, uint64_t now);
/* Does anything think now (so the loop must not block)? */
bool session_thinking(const struct session *u);

/* Copy the live search's numbers (at the browser's path) into u->live;
 * called before drawing. */
void session_refresh(struct session *u);
/* The numbers the panel shows and the position they are about (*AT), or
 * NULL when there are none (AT is then the position on the board). */
const struct session_snap *session_shown(const struct session *u, struct pos *at);
/* The ply whose numbers the panel shows from a record, or -1. */
int session_shown_saved(const struct session *u);
/* The MCTS search running for the present position, or NULL. */
struct mcts *session_live_search(const struct session *u);

/* Transitions, which the commands (session-cmd.c) are made of. Each checks
 * what it needs and says why in msg when it cannot. */
/* The engine to move plays what it would play now. */
void session_engine_play(struct session *u);
/* A human's move on cell COL, ROW of the position shown (back in the
 * history: the game continues from there). */
void session_human_play(struct session *u, int col, int row);
/* Take back the last move, and the engine's moves before it back to a
 * human's turn (unless engine against engine); right after a rewrite of
 * history, bring back the moves it dropped instead. */
void session_undo(struct session *u);
/* Back in the history, go on from the position shown, dropping the later
 * moves: MOVE is the human's move there, or -1 to let the engine think.
 * The first time it only asks (on the status line); the same again right
 * after does it, keeping the dropped moves for u. */
void session_continue(struct session *u, int move);
/* The end of one user event (a key, a click): a question it did not ask
 * is forgotten, so "the same again" must come right after. */
void session_event_done(struct session *u);
/* Start a game of G (with its rules) between specs X and O. */
void session_new_game(struct session *u, const struct game *g, const struct player_spec *x,
		      const struct player_spec *o);
/* w: the game to a new file in the data directory (msg says where). */
void session_save(struct session *u);

/* q: a game not over whose moves are not saved is saved first (as w does),
 * so quitting loses nothing; exit_note then says where and how to go on. */
void session_quit(struct session *u);
/* Analysis for a human: a search of the present position, or none. */
void session_analysis_start(struct session *u);
void session_analysis_stop(struct session *u);
/* Put the cursor into the region where the mover must play, if one. */
void session_cursor_to_allowed(struct session *u);
/* Open the new-game dialog with the game and players of now. */
void session_dialog_open(struct session *u);
/* A command of the dialog (CMD_DLG_*): fields, choices, typing, Enter. */
void session_dialog_command(struct session *u, int cmd);
/* Keep the panel's scroll such that the selected row is among the VISIBLE
 * rows shown and no rows are wasted at the end (update before drawing);
 * VISIBLE is also the page PgUp and PgDn move (less one row kept). */
void session_fit_scroll(struct session *u, int visible);
/* Keep the help's scroll within 0..ROOM. */
void session_fit_help(struct session *u, int room);

/* Questions the screen asks. */
static inline const struct pos *session_present(const struct session *u)
{
	return &u->hist[u->nmoves];
}
static inline bool session_is_engine(const struct session *u, int side)
{
	return !player_is_human(u->pl[side]);
}
static inline bool session_eve(const struct session *u)
{
	return session_is_engine(u, SIDE_X) && session_is_engine(u, SIDE_O);
}
static inline bool session_engine_to_move(const struct session *u)
{
	return !game_over(session_present(u)) && session_is_engine(u, session_present(u)->turn);
}
static inline bool session_human_to_move(const struct session *u)
{
	return !game_over(session_present(u)) && !session_is_engine(u, session_present(u)->turn);
}

/* "moves 3-7" or "move 7": the moves from ply FROM on, which a move made
 * back there would drop. */
char *session_later_moves(const struct session *u, int from, char *buf, size_t size);
/* The player of SIDE as a spec, in BUF: the one who made move PLY of a
 * loaded game as its record says, else (PLY -1 too) the player now. */
const char *session_who_played(const struct session *u, int side, int ply, char *buf,
			       size_t size);

/* session-review.c: the value graph's plies and the game's review. */
/* What the graph shows of ply PLY (0..nmoves: the position after PLY
 * moves), into P: its value for X from the review, the game's end, the
 * search that chose the move played there (or the record's numbers), or
 * for the present the live search; whether the move played from it was a
 * mistake. */
void session_ply_point(const struct session *u, int ply, struct graph_point *p);
/* Show ply PLY (clamped to the game) on the board: the graph's click. */
void session_goto_ply(struct session *u, int ply);
/* r: review the game so far on a worker thread, or stop the review under
 * way (the status line says what it found). */
void session_review_key(struct session *u);
void session_review_start(struct session *u);
/* Stop the review and wait for its thread; its results stay. */
void session_review_stop(struct session *u);
void session_review_free(struct session *u);
/* Is a review running? *DONE of *TOTAL moves are reviewed (either way). */
bool session_reviewing(const struct session *u, int *done, int *total);
/* Was move PLY + 1 (played from ply PLY) a mistake, as far as a review of
 * this game found? */
bool session_mistake(const struct session *u, int ply);
/* session-pv.c: the line of the panel's selected row on the board. */
/* Its moves into LINE (room for GAME_MAX_PLIES) from the position *FROM
 * (that of the panel's numbers); returns how many, 0 when there is none
 * (no candidate rows, the inspector). */
int session_pv_line(const struct session *u, uint8_t *line, struct pos *from);
/* As session_pv_line, but returns how many of them are shown (pv_step). */
int session_pv_shown(const struct session *u, uint8_t *line, struct pos *from);
/* e: the line on or off; Right and Left: DELTA moves more of it. */
void session_pv_toggle(struct session *u);
void session_pv_step(struct session *u, int delta);
/* Called by session_tick with its WAKE: notices the review's progress and
 * end (dirty, a message); returns when to look again. */
uint64_t session_review_tick(struct session *u, uint64_t now, uint64_t wake);

#endif
