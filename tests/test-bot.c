/* test-bot.c - the bot's clock between turns (bot_between_turns()): a
 * turn whose first line came while the bot was busy is counted from the
 * start of the work the line waited for, not from the end of the answer
 * before, which would leave it little of its time. The line's arrival is
 * simulated by the callback that says whether input is waiting; every
 * check below compares readings of now_ns(), none a duration. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bot.h"
#include "game.h"
#include "player.h"
#include "tap.h"
#include "util.h"

/* The input "arrives" at the callback's call number ARRIVE (from 1); the
 * time of each call is kept. */
struct arrival {
	int calls, arrive;
	uint64_t at[64];
};

static bool input_waiting(void *arg)
{
	struct arrival *a = arg;

	if (a->calls < (int)(sizeof(a->at) / sizeof(a->at[0])))
		a->at[a->calls] = now_ns();
	return ++a->calls >= a->arrive;
}

/* Feed LINES (one turn: the opponent's move, the count, the actions) and
 * return the answer's status. */
static int feed(struct bot *b, const char *const *lines, int n, char *out, size_t size)
{
	char err[320];
	int st = BOT_ERROR;

	for (int i = 0; i < n; i++) {
		st = bot_feed(b, lines[i], out, size, err, sizeof(err));
		if (st == BOT_ERROR) {
			printf("# line %d: %s\n", i + 1, err);
			return st;
		}
	}
	return st;
}

/* A bot plays the first turn of tic-tac-toe's Ultimate game, then waits
 * between turns; the next turn's line "arrives" at check ARRIVE. The turn
 * must count from the last check that found nothing (the work since was
 * what the line waited for), never from before it. */
static void test_arrival(int arrive)
{
	static const char *const first[] = { "-1 -1", "81", NULL };
	const char *lines[83];
	char cells[81][8], out[32], err[128], reply[16];
	struct game g;
	struct player_spec spec;
	struct arrival a = { 0, arrive, { 0 } };
	struct bot *b;
	uint64_t before;

	if (game_init(&g, "uttt", RULE_TIEBREAK, err, sizeof(err)) != 0 ||
	    player_spec_parse("mcts:threads=1", &spec, err, sizeof(err)) != 0) {
		ok(0, "setup: %s", err);
		return;
	}
	lines[0] = first[0];
	lines[1] = first[1];
	for (int r = 0, i = 0; r < 9; r++)
		for (int c = 0; c < 9; c++, i++) {
			snprintf(cells[i], sizeof(cells[i]), "%d %d", r, c);
			lines[2 + i] = cells[i];
		}
	b = bot_new(&g, &spec);
	/* (a first turn of 1 ms faults in a step or so of the memory ahead,
	 * and leaves the rest to the wait between turns) */
	bot_set_deadline(b, 20, 1);
	if (feed(b, lines, 83, out, sizeof(out)) != BOT_ANSWER) {
		ok(0, "first turn answered");
		bot_free(b);
		return;
	}
	before = now_ns();
	bot_between_turns(b, input_waiting, &a);
	/* the opponent answers in the board our move sent it to; its first
	 * line is all the clock needs */
	{
		int row, col, r0, c0;

		if (sscanf(out, "%d %d", &row, &col) != 2)
			row = col = 4;
		r0 = (row % 3) * 3;
		c0 = (col % 3) * 3;
		snprintf(reply, sizeof(reply), "%d %d", r0, c0 + (r0 == row && c0 == col));
	}
	bot_feed(b, reply, out, sizeof(out), err, sizeof(err));
	if (a.calls < arrive) {
		ok(1, "# SKIP nothing to fault in between turns here (%d checks)", a.calls);
	} else if (arrive == 1) {
		ok(bot_turn_start(b) >= before && bot_turn_start(b) <= a.at[0],
		   "a line already there after the tree's move: the turn counts from the move's start");
	} else {
		ok(bot_turn_start(b) >= a.at[arrive - 2] && bot_turn_start(b) <= a.at[arrive - 1],
		   "a line that came during prefault step %d: the turn counts from that step's "
		   "start, after the %d checks that found none (%.1f ms after the answer)",
		   arrive - 1, arrive - 1, (double)(bot_turn_start(b) - before) / 1e6);
	}
	bot_free(b);
}

int main(void)
{
	test_arrival(1);
	test_arrival(2);
	test_arrival(5);
	return tap_done();
}
