/* bot.h - the CodinGame tic-tac-toe protocol, one input line at a time.
 *
 * Each turn the referee sends the opponent's last move "row col" ("-1 -1"
 * on the first turn when the bot plays first), the number of valid actions,
 * and that many lines "row col"; the bot answers one line "row col". Rows
 * and columns count from 0 on the whole grid (0..8 for uttt, 0..2 for ttt).
 * The bot checks every line against its own rules and keeps its search tree
 * between turns. */
#ifndef NOUGHTS_BOT_H
#define NOUGHTS_BOT_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "player.h"

#define BOT_FIRST_TURN_MS 1000 /* CodinGame's limits */
#define BOT_TURN_MS 100
#define BOT_MARGIN_MS 35       /* answer this long before the limit */
#define BOT_FIRST_MARGIN_MS 150 /* the first turn also pays for start-up */

enum bot_status { BOT_MORE = 0, BOT_ANSWER = 1, BOT_ERROR = -1 };

struct bot;

/* A bot for game G (which must outlive it) playing with SPEC. An engine
 * given no budget thinks until the turn's limit less the margin; one given
 * a budget uses it, but never beyond that point. */
struct bot *bot_new(const struct game *g, const struct player_spec *spec);
void bot_free(struct bot *b);

/* Feed the next input line (without its newline). Returns BOT_MORE when the
 * turn needs more lines; BOT_ANSWER with the answer in OUT (no newline);
 * BOT_ERROR with "line N: what was wrong" in ERR. After an error the bot
 * must not be fed again. */
int bot_feed(struct bot *b, const char *line, char *out, size_t outsize, char *err,
	     size_t errsize);

/* Is the bot in the middle of a turn (some lines of it read)? */
bool bot_mid_turn(const struct bot *b);

#endif
