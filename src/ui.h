/* ui.h - the game screen (ncurses): the board, a live panel of the MCTS
 * statistics, and a loop that runs engines in short slices between
 * redraws so a person can play, watch the search and step through it.
 * The only module that includes <curses.h>. */
#ifndef NOUGHTS_UI_H
#define NOUGHTS_UI_H

#include "options.h"

/* Run the game screen with the options of `noughts play`: OPT's game, its
 * start position and --moves, the X and O player specs and --ascii. OPT
 * must outlive the call. Needs a terminal on stdin and stdout; without one
 * it prints a one-line error to stderr and returns 2. Returns the exit
 * status: 0 after q, 1 when the terminal cannot be used, 128 + the signal
 * number after SIGINT, SIGTERM or SIGHUP (the terminal is restored first
 * in every case). */
int ui_play(struct options *opt);

#endif
