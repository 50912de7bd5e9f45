/* ui.h - the game screen (ncurses): the board, a live panel of the MCTS
 * statistics, and a loop that runs engines in short slices between
 * redraws so a person can play, watch the search and step through it.
 * The only module that includes <curses.h>. */
#ifndef NOUGHTS_UI_H
#define NOUGHTS_UI_H

#include "options.h"

/* Run the game screen with the options of `noughts play`: OPT's game, its
 * start position and --moves, the X and O player specs, --ascii, --load
 * (a record whose game, moves and players replace those; OPT is changed
 * to match) and --record (the file each finished game is written to).
 * OPT must outlive the call. Everything is checked before curses starts,
 * each failure with one line on stderr: a bad record or an unwritable
 * --record file returns 1; --load with --moves or --game, a --record that
 * is a directory, no terminal on stdin and stdout, or a terminal curses
 * cannot drive (TERM unset, unknown, or unable to move the cursor)
 * returns 2. Otherwise returns 0 after q, or 128 + the signal number after
 * SIGINT, SIGTERM or SIGHUP (the terminal is restored first in every
 * case). */
int ui_play(struct options *opt);

#endif
