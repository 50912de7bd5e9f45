/* test-bot.c - the bot's clock between turns (bot_between_turns()): a
 * turn whose first line came while the bot was busy is counted from the
 * start of the work the line waited for, not from the end of the answer
 * before, which would leave it little of its time. The line's arrival is
 * simulated by the callback that says whether input is waiting; every
 * check below compares readings of now_ns(), none a duration. Then the
 * answer's guard: the bot plays the answer the guard gave, and the guard
 * (bot-guard.c) writes the last answer it took once it is due, and
 * nothing after the bot's final offer. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "bot-guard.h"
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

/* The first turn of Ultimate tic-tac-toe as lines; CELLS holds the text. */
static void first_turn(const char *lines[83], char cells[81][8])
{
	lines[0] = "-1 -1";
	lines[1] = "81";
	for (int r = 0, i = 0; r < 9; r++)
		for (int c = 0; c < 9; c++, i++) {
			snprintf(cells[i], sizeof(cells[i]), "%d %d", r, c);
			lines[2 + i] = cells[i];
		}
}

/* A bot plays the first turn of tic-tac-toe's Ultimate game, then waits
 * between turns; the next turn's line "arrives" at check ARRIVE. The turn
 * must count from the last check that found nothing (the work since was
 * what the line waited for), never from before it. */
static void test_arrival(int arrive)
{
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
	first_turn(lines, cells);
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
	bot_between_turns(b, 0, input_waiting, &a);
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

/* A guard that takes the first TAKES offers of a turn and then has given
 * the last it took; it keeps what it was offered. */
struct fake_guard {
	int takes, offers, finals;
	char text[64][32];
};

static bool fake_offer(void *arg, const char *text, uint64_t due, bool final)
{
	struct fake_guard *f = arg;

	(void)due;
	if (f->offers < 64)
		fmt_buf(f->text[f->offers], sizeof(f->text[0]), "%s", text);
	f->offers++;
	f->finals += final;
	return f->offers <= f->takes;
}

/* Feed B a second turn after its answer ANSWER to the first: the
 * opponent's move in the board it was sent to, the number of legal moves
 * and each, from this test's own position. BOT_ERROR if the bot's
 * position is not that one (it played something else than it answered). */
static int second_turn(struct bot *b, const struct game *g, const char *answer, char *out,
		       size_t size)
{
	char moves[16], err[160], lines[83][16];
	const char *feedlines[83];
	struct pos pos;
	struct moveset legal;
	int row, col, n = 0, move;

	if (sscanf(answer, "%d %d", &row, &col) != 2)
		return BOT_ERROR;
	/* our move, then the opponent's: the first free cell of the board sent to */
	snprintf(moves, sizeof(moves), "%c%d", 'a' + col, row + 1);
	game_start(g, &pos);
	if (game_play_moves(g, &pos, moves, NULL, NULL, err, sizeof(err)) != 0)
		return BOT_ERROR;
	game_legal(g, &pos, &legal);
	move = moveset_pop(&legal);
	game_play(g, &pos, move);
	game_move_cell(g, move, &col, &row);
	snprintf(lines[n], sizeof(lines[n]), "%d %d", row, col);
	feedlines[n] = lines[n];
	n++;
	game_legal(g, &pos, &legal);
	snprintf(lines[n], sizeof(lines[n]), "%d", moveset_count(&legal));
	feedlines[n] = lines[n];
	n++;
	while (!moveset_empty(&legal) && n < 83) {
		game_move_cell(g, moveset_pop(&legal), &col, &row);
		snprintf(lines[n], sizeof(lines[n]), "%d %d", row, col);
		feedlines[n] = lines[n];
		n++;
	}
	return feed(b, feedlines, n, out, size);
}

/* The bot with a guard that takes TAKES offers a turn. With 1, the guard
 * has given the first offer (made before the search) when the bot next
 * offers: the bot's answer and its position are that move's. With many,
 * the bot's own answer is its final offer. */
static void test_guarded(const char *engine, int takes)
{
	const char *lines[83];
	char cells[81][8], out[32], err[160];
	struct game g;
	struct player_spec spec;
	struct fake_guard f = { takes, 0, 0, { { 0 } } };
	struct bot *b;
	int st;

	if (game_init(&g, "uttt", RULE_TIEBREAK, err, sizeof(err)) != 0 ||
	    player_spec_parse(engine, &spec, err, sizeof(err)) != 0) {
		ok(0, "setup: %s", err);
		return;
	}
	first_turn(lines, cells);
	b = bot_new(&g, &spec);
	bot_set_guard(b, fake_offer, &f);
	bot_set_deadline(b, 20, 20);
	st = feed(b, lines, 83, out, sizeof(out));
	if (takes == 1) {
		ok(st == BOT_ANSWER && f.offers >= 2 && strcmp(out, f.text[0]) == 0,
		   "%s, the guard gave the offer made before the search: the answer is it "
		   "('%s', offered '%s'; %d offers)", engine, out, f.text[0], f.offers);
	} else if (f.offers >= 64 || takes < 64) {
		ok(0, "%d offers: raise the test's limits", f.offers);
	} else {
		ok(st == BOT_ANSWER && f.finals == 1 && strcmp(out, f.text[f.offers - 1]) == 0,
		   "%s, a guard that gave nothing: the answer is the bot's final offer "
		   "('%s'; %d offers before it)", engine, out, f.offers - 1);
	}
	f.offers = f.finals = 0;
	ok(second_turn(b, &g, out, out, sizeof(out)) == BOT_ANSWER,
	   "%s: the bot's position is the answered move's (the next turn's actions agree)",
	   engine);
	bot_free(b);
}

/* The guard proper, writing to a pipe: an answer offered when due is
 * written once; later offers and the final one are refused and the bot
 * told; next turn, a final offer before the deadline keeps it silent. */
static void test_guard_writes(void)
{
	struct bot_guard *g;
	int fds[2];
	char buf[64] = "";
	ssize_t n = 0;
	struct pollfd pfd;
	uint64_t before, when;

	if (pipe(fds) != 0 || (g = bot_guard_new(fds[1])) == NULL) {
		ok(0, "setup: a pipe and the guard's thread");
		return;
	}
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	ok(bot_guard_offer(g, "3 4", now_ns() + 3600000000000u, false),
	   "an offer before any answer is taken");
	before = now_ns();
	ok(bot_guard_offer(g, "4 4", before, false), "and a later one, due now");
	/* (the wait is for the guard's thread to run at all, not a time limit) */
	if (poll(&pfd, 1, 60000) == 1)
		n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ok(strcmp(buf, "4 4\n") == 0, "the last answer taken is written when due, one line: '%.*s'",
	   (int)strcspn(buf, "\n"), buf);
	ok(!bot_guard_offer(g, "5 5", now_ns(), false) && !bot_guard_offer(g, "5 5", now_ns(), true),
	   "once it is written, offers are refused, the final one too");
	ok(bot_guard_gave(g, &when) == 1 && when >= before && when <= now_ns(),
	   "the guard says it gave the turn's answer, and when");
	ok(bot_guard_offer(g, "1 1", now_ns() + 20000000u, false) &&
	   bot_guard_offer(g, "1 1", now_ns(), true) && bot_guard_gave(g, &when) == 0,
	   "the next turn: offers taken again, the final one keeps the answer the bot's");
	/* past that offer's time: a guard the final offer did not disarm
	 * would write now (one that runs late passes, never fails, here) */
	ok(poll(&pfd, 1, 100) == 0, "and the guard writes nothing at the disarmed offer's time");
	bot_guard_free(g); /* (joins the thread: it can write nothing after) */
	ok(poll(&pfd, 1, 0) == 0, "nor after");
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	test_arrival(1);
	test_arrival(2);
	test_arrival(5);
	test_guarded("mcts:threads=1", 1);
	test_guarded("mcts:threads=1", 1000);
	test_guarded("mcts:iterations=300,threads=1", 1);
	test_guarded("random", 1000);
	test_guard_writes();
	return tap_done();
}
