/* record.h - game records: a plain-text file a person can read and write.
 *
 *   # noughts game record
 *   Game: uttt
 *   Rules: tiebreak
 *   X: human
 *   O: mcts:level=6,c=0.5,rollout=smart,solver=on
 *   Date: 2026-11-21 14:02
 *   Result: X
 *
 *   e5
 *   e4 {iterations=5000 visits=2210 value=0.541 second=d4 second_visits=800 second_value=0.502}
 *   d4 {iterations=5000 visits=4400 value=0.998 proven=win plies=3}
 *
 * Header lines "Key: value" come first (Game is required; Rules, X, O, Date
 * and Result are optional), then a blank line, then one move a line in the
 * project's notation. A move may carry, in braces, what the engine saw when
 * it chose it; such comments are optional on reading. A '#' starts a
 * comment to the end of its line. Result is X, O, draw or * (unfinished). */
#ifndef NOUGHTS_RECORD_H
#define NOUGHTS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"

/* What an engine saw when it chose a move. */
struct record_info {
	uint64_t iterations;
	uint32_t visits;          /* of the move played */
	double value;             /* of the move played, mover's view, 0..1 */
	int second;               /* the runner-up move, or -1 */
	uint32_t second_visits;
	double second_value;
	int proven;               /* enum proof of the move played, mover's view */
	int proven_plies;         /* plies to the end after it; -1: not known */
};

struct record_move {
	uint8_t move;
	bool has_info;
	struct record_info info;
};

struct record {
	struct game game;
	char x[128], o[128];      /* player specs, "" when unknown */
	char date[32];            /* "" when unknown */
	int result;               /* enum result stated; RESULT_NONE for "*" */
	int nmoves;
	struct record_move moves[GAME_MAX_PLIES];
};

/* Start an empty record of game G. */
void record_init(struct record *r, const struct game *g);

/* Parse the LEN bytes of TEXT (a record named NAME in messages). Returns 0,
 * or -1 with "NAME:LINE: what was wrong" in ERR and R unusable. Nothing is
 * half-loaded: every move is checked to be legal, a stated result must be
 * the replayed one, and a finished result must not come before the end. */
int record_parse(const char *text, size_t len, const char *name, struct record *r, char *err,
		 size_t errsize);

/* Read and parse the file PATH, as record_parse. */
int record_read(const char *path, struct record *r, char *err, size_t errsize);

/* Write R in the format above to OUT. */
void record_print(const struct record *r, FILE *out);

/* Write R to PATH through a temporary file renamed into place, so a reader
 * never sees half a record. Returns 0, or -1 with a reason in ERR. */
int record_write(const char *path, const struct record *r, char *err, size_t errsize);

/* The directory for saved games: $XDG_DATA_HOME/noughts, or
 * ~/.local/share/noughts when XDG_DATA_HOME is unset or empty; created if
 * missing. Returns 0, or -1 with a reason in ERR. */
int record_dir(char *buf, size_t size, char *err, size_t errsize);

/* The same directory's name, for people (not created). */
int record_dir_name(char *buf, size_t size, char *err, size_t errsize);

/* Save R under a new name in DIR (noughts-GAME-YYYYmmdd-HHMMSS[-N].txt);
 * the path is written to PATH. Returns 0, or -1 with a reason in ERR. */
int record_save_new(const char *dir, const struct record *r, char *path, size_t pathsize,
		    char *err, size_t errsize);

struct mcts;

/* Fill INFO with what search M (at the position before MOVE) saw of MOVE
 * and of the runner-up. */
void record_info_from_search(struct record_info *info, const struct mcts *m, int move);

/* Today's date and time as the Date header writes it. */
void record_now(char *buf, size_t size);

#endif
