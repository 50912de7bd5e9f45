/* bot.c - the CodinGame tic-tac-toe protocol (see bot.h). */
#include "config.h"

#include "bot.h"

#include <assert.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum stage { WANT_OPPONENT, WANT_COUNT, WANT_ACTIONS };

struct bot {
	const struct game *g;
	struct player *player;
	struct pos pos;
	enum stage stage;
	int line;          /* lines read */
	int turn;          /* turns answered */
	int count;         /* valid actions announced this turn */
	int seen;          /* valid action lines read this turn */
	struct moveset actions;
	uint64_t turn_start; /* when the turn's first line came */
	uint64_t deadline_ns, first_deadline_ns; /* from turn_start */
	uint64_t overhead_ns; /* the search stops this long before the deadline */
	uint64_t clock_from; /* the next turn's start if set (bot_clock_from) */
	uint64_t wait_since; /* when the bot began to wait for the next turn; 0 not */
	uint64_t wait_queued; /* queued_ns() then */
	uint64_t turn_queued; /* queued_ns() at turn_start */
	bool prefault;     /* the search thinks to the deadline: fault in its memory */
	bot_offer_fn offer; /* the answer's guard (bot_set_guard()), or NULL */
	void *offer_arg;
	int pending;       /* our answer, not yet told to the player; -1 none */
};

/* The start of the small file PATH (a /proc file) in BUF of SIZE bytes, as
 * a string; false if it cannot be read. */
static bool read_start(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/* The time the calling thread has spent runnable but waiting for a CPU,
 * in nanoseconds (the second field of Linux's /proc/thread-self/schedstat);
 * 0 where the system does not say. */
static uint64_t queued_ns(void)
{
	char buf[96];
	unsigned long long ran, queued;

	if (!read_start("/proc/thread-self/schedstat", buf, sizeof(buf)))
		return 0;
	return sscanf(buf, "%llu %llu", &ran, &queued) == 2 ? queued : 0;
}

uint64_t bot_process_began(void)
{
	uint64_t now = now_ns();
#ifdef CLOCK_BOOTTIME
	char buf[512], *s;
	unsigned long long ticks = 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec boot;
	uint64_t up, began;

	if (!read_start("/proc/self/stat", buf, sizeof(buf)) || hz <= 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &boot) != 0)
		return now;
	/* the start time is field 22; the name (field 2) may hold anything
	 * but the last ')' */
	s = strrchr(buf, ')');
	for (int field = 2; s != NULL && field < 22; field++)
		s = strchr(s + 1, ' ');
	if (s == NULL || sscanf(s, " %llu", &ticks) != 1)
		return now;
	up = (uint64_t)boot.tv_sec * 1000000000u + (uint64_t)boot.tv_nsec;
	began = ticks * (1000000000u / (uint64_t)hz);
	if (began <= up && up - began < now)
		return now - (up - began);
#endif
	return now;
}

/* The bot has nothing to do until the next turn's first line. */
static void start_waiting(struct bot *b)
{
	b->wait_since = now_ns();
	b->wait_queued = queued_ns();
}

/* When the turn whose first line was just read began. A line that came
 * while the bot waited woke it, but with every core busy it may then have
 * waited for one before it could read the line: count that wait (the
 * thread's queued time since it began to wait, which was spent after the
 * wake-up unless it was preempted before it blocked, and then the turn
 * starts early, never late). The referee's clock ran meanwhile. */
static uint64_t turn_began(struct bot *b)
{
	uint64_t now = now_ns(), start = now;

	if (b->wait_since != 0) {
		uint64_t queued = queued_ns() - b->wait_queued;

		start = queued < now - b->wait_since ? now - queued : b->wait_since;
	}
	if (b->clock_from != 0 && b->clock_from < start)
		start = b->clock_from;
	b->clock_from = b->wait_since = 0;
	b->turn_queued = queued_ns();
	return start;
}

/* The turn's DEADLINE, less the time other programs have kept the bot
 * waiting for a CPU during the turn (up to BOT_CONTENDED_MAX_MS and half
 * the turn): a program that took the CPU from it may take it again at the
 * deadline, for as long. On an idle core nothing is taken. */
static uint64_t deadline_now(const struct bot *b, uint64_t deadline)
{
	uint64_t taken = queued_ns() - b->turn_queued, most = BOT_CONTENDED_MAX_MS * 1000000u;

	if (most > (deadline - b->turn_start) / 2)
		most = (deadline - b->turn_start) / 2;
	return deadline - (taken < most ? taken : most); /* (a failed reading wraps) */
}

struct bot *bot_new(const struct game *g, const struct player_spec *spec)
{
	struct bot *b = xcalloc(1, sizeof(*b));
	struct player_spec s = *spec;

	/* No budget and no level given: think until the turn's deadline. A
	 * level's budget is kept, but the deadline still cuts it. */
	if (s.kind == PLAYER_MCTS && s.iterations == 0 && s.time_ms == 0 && s.level == 0) {
		s.iterations = UINT64_MAX / 2;
		b->prefault = true;
	}
	if (s.kind == PLAYER_NEGAMAX && s.depth == 0 && s.time_ms == 0 && s.level == 0)
		s.time_ms = BOT_DEADLINE_MS;
	b->g = g;
	b->pending = -1;
	bot_set_deadline(b, BOT_DEADLINE_MS, 10 * BOT_DEADLINE_MS);
	bot_set_overhead(b, BOT_OVERHEAD_MS);
	game_start(g, &b->pos);
	b->player = player_new(g, &s, &b->pos);
	/* the subtrees a move discards are given back after the answer */
	if (player_search(b->player) != NULL)
		mcts_keep_discards(player_search(b->player), true);
	start_waiting(b);
	return b;
}

void bot_free(struct bot *b)
{
	if (b == NULL)
		return;
	player_free(b->player);
	free(b);
}

void bot_set_deadline(struct bot *b, int ms, int first_ms)
{
	assert(ms >= 1 && ms <= BOT_DEADLINE_MAX_MS && first_ms >= 1);
	b->deadline_ns = (uint64_t)ms * 1000000u;
	b->first_deadline_ns = (uint64_t)first_ms * 1000000u;
}

void bot_set_overhead(struct bot *b, int ms)
{
	assert(ms >= 0 && ms <= BOT_DEADLINE_MAX_MS);
	b->overhead_ns = (uint64_t)ms * 1000000u;
}

int bot_shorter_deadline_ms(const struct bot *b)
{
	uint64_t ns = b->deadline_ns < b->first_deadline_ns ? b->deadline_ns : b->first_deadline_ns;

	return (int)(ns / 1000000u);
}

void bot_set_guard(struct bot *b, bot_offer_fn offer, void *arg)
{
	b->offer = offer;
	b->offer_arg = arg;
}

/* Tell the player our last answer if it was not told yet (which moves the
 * tree): true if it was not. */
static bool play_pending(struct bot *b)
{
	if (b->pending < 0)
		return false;
	player_played(b->player, b->pending);
	b->pending = -1;
	return true;
}

void bot_idle(struct bot *b)
{
	struct mcts *m = player_search(b->player);
	bool worked = play_pending(b);

	/* what this move and the opponent's discarded: the opponent's move was
	 * made at the start of the turn, where the clock ran (giving back the
	 * subtrees of its other replies there took a median 6.5 ms of the
	 * second turn's 90 and 1.2 ms of later ones; `perf trace` of
	 * tests/referee against tests/uct-bot, session 52, MEASUREMENTS) */
	if (m != NULL && mcts_tidy(m))
		worked = true;
	if (worked)
		start_waiting(b); /* (from now: the tree's move was work) */
}

void bot_clock_from(struct bot *b, uint64_t t)
{
	b->clock_from = t;
}

/* (A line that came during a prefault step waited for that step at most.
 * The first check is after the tree's move, which it may have waited for.
 * Counted from the end of the answer, as it was, a turn whose line came
 * in the middle of 16 MiB of faults, 70-90 ms on a host that backs memory
 * lazily, had lost most of its 90 ms before its search began. After a
 * step with no line the bot waits afresh: what other programs kept it from
 * a CPU during the step was the step's, not the next turn's.) */
void bot_between_turns(struct bot *b, uint64_t answered, bool (*input_waiting)(void *),
		       void *arg)
{
	uint64_t t = now_ns();

	if (answered != 0 && answered < t)
		t = answered; /* (the guard's answer: the next line may have come since) */

	bot_idle(b);
	for (size_t n = 0;; n += BOT_PREFAULT_STEP) {
		if (input_waiting(arg)) {
			/* from T, which covers what it waited for a CPU meanwhile */
			start_waiting(b);
			bot_clock_from(b, t);
			return;
		}
		start_waiting(b);
		t = now_ns();
		if (n >= BOT_IDLE_PREFAULT || !bot_prefault(b))
			return;
	}
}

uint64_t bot_turn_start(const struct bot *b)
{
	return b->turn_start;
}

bool bot_mid_turn(const struct bot *b)
{
	return b->stage != WANT_OPPONENT;
}

/* Parse "INT" (one integer, blanks around) into *V; false if it is not. */
static bool parse_int(const char *s, int lo, int hi, int *v)
{
	char *end;
	long x;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s) && !(*s == '-' && isdigit((unsigned char)s[1])))
		return false;
	x = strtol(s, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\r')
		end++;
	if (*end != '\0' || x < lo || x > hi || end - s > 12)
		return false;
	*v = (int)x;
	return true;
}

/* Parse "row col" into a move id (-1 for "-1 -1" when ALLOW_NONE). Returns
 * false with a reason in ERR. */
static bool parse_cell(const struct bot *b, const char *line, bool allow_none, int *move, char *err,
		       size_t errsize)
{
	char first[32], quoted[64];
	const char *s = line, *space;
	int row, col;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	space = strpbrk(s, " \t");
	n = space != NULL ? (size_t)(space - s) : strlen(s);
	if (space == NULL || n >= sizeof(first) || !parse_int(space, -1, 99, &col)) {
		fmt_buf(err, errsize, "expected 'row col' (row 0 to %d, column 0 to %d), not '%s'",
			b->g->height - 1, b->g->width - 1,
			text_shown(line, 40, quoted, sizeof(quoted)));
		return false;
	}
	memcpy(first, s, n);
	first[n] = '\0';
	if (!parse_int(first, -1, 99, &row)) {
		fmt_buf(err, errsize, "expected 'row col' (row 0 to %d, column 0 to %d), not '%s'",
			b->g->height - 1, b->g->width - 1,
			text_shown(line, 40, quoted, sizeof(quoted)));
		return false;
	}
	if (row == -1 && col == -1 && allow_none) {
		*move = -1;
		return true;
	}
	*move = game_cell_move(b->g, col, row);
	if (*move < 0) {
		fmt_buf(err, errsize, "'%d %d' is off the board (rows 0 to %d, columns 0 to %d)", row,
			col, b->g->height - 1, b->g->width - 1);
		return false;
	}
	return true;
}

bool bot_prefault(struct bot *b)
{
	struct mcts *m = b->prefault ? player_search(b->player) : NULL;

	return m != NULL && mcts_prefault(m, BOT_PREFAULT_STEP, b->turn == 0 ? BOT_PREFAULT_FIRST
									 : BOT_PREFAULT_AHEAD) > 0;
}

/* MOVE as the bot answers it, "row col", in OUT. */
static void move_text(const struct bot *b, int move, char *out, size_t outsize)
{
	int col, row;

	game_move_cell(b->g, move, &col, &row);
	snprintf(out, outsize, "%d %d", row, col);
}

/* Offer the guard the move the search would play now, to give at DUE
 * should the bot still be thinking then (bot_set_guard()). False once the
 * guard has given the move of the last offer it took, *TAKEN. */
static bool offer_now(struct bot *b, uint64_t due, int *taken)
{
	char text[32];
	int move = player_choose(b->player);

	move_text(b, move, text, sizeof(text));
	if (!b->offer(b->offer_arg, text, due, false))
		return false;
	*taken = move;
	return true;
}

/* Think until the move is ready or the turn's deadline, then answer. The
 * engine looks at the clock every few dozen iterations (well under a
 * millisecond), and the tree is moved to the new root only after the
 * answer is out (bot_idle). It thinks in slices, between which it looks
 * at what other programs took (deadline_now()), and it stops the overhead
 * before the deadline (bot_set_overhead()). A guard (bot_set_guard()) is
 * offered the move it would play before it thinks and after each slice,
 * and gives the last one at the deadline should the machine keep the bot
 * from the processor past it; the bot then plays that move. The first
 * turn, ten times as long, first faults in the memory of the searches to
 * come (as far as bot_prefault() goes, in a quarter of its time at most),
 * so that a later turn seldom pays for a page fault: one costs 0.1 to 4 ms
 * on a virtual machine whose host backs memory lazily (measured on the
 * project's), and one just before the deadline made the answer that much
 * late. */
static void answer(struct bot *b, char *out, size_t outsize)
{
	uint64_t budget = b->turn == 0 ? b->first_deadline_ns : b->deadline_ns;
	uint64_t keep = b->overhead_ns < budget / 2 ? b->overhead_ns : budget / 2;
	uint64_t due = b->turn_start + budget, deadline = due - keep;
	/* only a search can say between slices what it would play */
	bool guarded = b->offer != NULL && player_search(b->player) != NULL, given = false;
	int move = -1, taken = -1;

	if (guarded)
		offer_now(b, due, &taken); /* (taken: the guard has given nothing yet) */
	if (b->turn == 0) {
		uint64_t until = b->turn_start + b->first_deadline_ns / 4;

		while (now_ns() < until && bot_prefault(b))
			;
	}
	while (!given) {
		uint64_t now = now_ns(), end = deadline_now(b, deadline);

		if (now >= end || player_think(b->player, end - now < BOT_SLICE_NS ? end - now
										   : BOT_SLICE_NS))
			break;
		given = guarded && !offer_now(b, due, &taken);
	}
	if (!given) {
		move = player_choose(b->player);
		move_text(b, move, out, outsize);
		given = b->offer != NULL && !b->offer(b->offer_arg, out, due, true);
	}
	if (given) {
		move = taken >= 0 ? taken : player_choose(b->player); /* (-1: a guard gone wrong) */
		move_text(b, move, out, outsize);
	}
	game_play(b->g, &b->pos, move);
	b->pending = move;
	b->turn++;
}

int bot_feed(struct bot *b, const char *line, char *out, size_t outsize, char *err,
	     size_t errsize)
{
	char why[160], quoted[64];
	int move;

	b->line++;
#define ERR(...) (fmt_buf(err, errsize, "line %d: ", b->line), \
		  fmt_buf(err + strlen(err), errsize - strlen(err), __VA_ARGS__), BOT_ERROR)
/* the line as a message quotes it: escaped, its middle cut past 40 bytes */
#define QUOTED text_shown(line, 40, quoted, sizeof(quoted))
	switch (b->stage) {
	case WANT_OPPONENT:
		b->turn_start = turn_began(b);
		play_pending(b);
		if (!parse_cell(b, line, b->turn == 0 && b->pos.ply == 0, &move, why, sizeof(why)))
			return ERR("the opponent's move: %s", why);
		if (move >= 0) {
			if (game_illegal(b->g, &b->pos, move, why, sizeof(why)) != NULL)
				return ERR("the opponent's move '%s' is illegal: %s", QUOTED, why);
			game_play(b->g, &b->pos, move);
			player_played(b->player, move);
		}
		if (game_over(&b->pos))
			return ERR("the opponent's move ended the game; no move is left to answer");
		b->stage = WANT_COUNT;
		return BOT_MORE;
	case WANT_COUNT: {
		struct moveset legal;

		if (!parse_int(line, 0, 1000, &b->count))
			return ERR("expected the number of valid actions, not '%s'", QUOTED);
		game_legal(b->g, &b->pos, &legal);
		if (b->count != moveset_count(&legal))
			return ERR("%d valid actions, but the position has %d legal moves", b->count,
				   moveset_count(&legal));
		moveset_clear(&b->actions);
		b->seen = 0;
		b->stage = WANT_ACTIONS;
		return BOT_MORE;
	}
	case WANT_ACTIONS:
		if (!parse_cell(b, line, false, &move, why, sizeof(why)))
			return ERR("a valid action: %s", why);
		if (game_illegal(b->g, &b->pos, move, why, sizeof(why)) != NULL)
			return ERR("the valid action '%s' is not legal: %s", QUOTED, why);
		if (moveset_has(&b->actions, move))
			return ERR("the valid action '%s' is listed twice", QUOTED);
		moveset_add(&b->actions, move);
		if (++b->seen < b->count)
			return BOT_MORE;
		answer(b, out, outsize);
		b->stage = WANT_OPPONENT;
		return BOT_ANSWER;
	}
#undef ERR
#undef QUOTED
	return BOT_ERROR;
}
