/* commands-bot.c - noughts bot: the CodinGame protocol on stdin and stdout
 * around bot.c's engine, and the bot's clock between turns. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "bot-guard.h"
#include "commands.h"
#include "options.h"
#include "util.h"

#define BOT_MAX_LINE 256

/* Has the next turn's input come? (The referee writes a turn only after
 * reading the answer, so no line of it can sit in stdin's buffer yet:
 * looking at the descriptor is enough.) */
static bool bot_input_waiting(void *unused)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	(void)unused;
	return poll(&pfd, 1, 0) > 0;
}

/* Work done from T on (setting up, or what an answer left) is over. If the
 * next turn's input came in meanwhile, its clock started during that work:
 * count it from T, so the work never makes an answer late. */
static void bot_worked_since(struct bot *b, uint64_t t)
{
	if (bot_input_waiting(NULL))
		bot_clock_from(b, t);
}

/* Write ANSWER and a newline to the referee at once (not through stdio,
 * which would keep a failed write to say again at exit). */
static bool say(const char *answer)
{
	return write_line(STDOUT_FILENO, answer);
}

/* Let the referee read the answer just written before the bot goes on
 * with its work between turns. The write wakes the referee, often on the
 * bot's own core; with the other core busy it then waited for the bot's
 * time slice to end: `tests/bot-time.sh` (one core kept busy) saw the
 * referee read answers up to 4 ms after they were written (99th
 * percentile 2 ms), where after a yield 0.8 ms at most (0.4 ms). */
static void let_referee_read(void)
{
	sched_yield();
}

/* How read_line() ended. */
enum { LINE_OK, LINE_EOF, LINE_ERROR, LINE_LONG, LINE_NUL };

/* Read a line of at most BOT_MAX_LINE characters into BUF (room for one
 * more and the NUL), without its newline; the last line may lack one.
 * Never reads past the limit: a line that runs on (input with no newline)
 * stops it there. */
static int read_line(FILE *in, char buf[BOT_MAX_LINE + 2])
{
	size_t len = 0;
	bool nul = false;
	int c;

	while ((c = getc(in)) != EOF && c != '\n') {
		if (len > BOT_MAX_LINE)
			return LINE_LONG;
		nul |= c == '\0';
		buf[len++] = (char)c;
	}
	buf[len] = '\0';
	if (c == EOF && ferror(in))
		return LINE_ERROR;
	if (c == EOF && len == 0)
		return LINE_EOF;
	if (len > BOT_MAX_LINE)
		return LINE_LONG;
	return nul ? LINE_NUL : LINE_OK;
}

/* Why the input stopped at line NO (one line of text), or NULL at its end. */
static const char *input_trouble(int how, long no, char *buf, size_t size)
{
	switch (how) {
	case LINE_ERROR:
		fmt_buf(buf, size, "cannot read the input: %s", strerror(errno));
		return buf;
	case LINE_LONG:
		fmt_buf(buf, size, "line %ld: over %d characters (a turn's lines are short)", no,
			BOT_MAX_LINE);
		return buf;
	case LINE_NUL:
		fmt_buf(buf, size, "line %ld: holds a NUL byte", no);
		return buf;
	default:
		return NULL;
	}
}

int cmd_bot(struct options *opt)
{
	uint64_t start = bot_process_began(); /* (the first turn's input may come meanwhile) */
	struct bot *b;
	char line[BOT_MAX_LINE + 2], answer[32], err[320];
	struct bot_guard *guard;
	long no;
	int rc = 0, how;

	if (opt->engine.kind == PLAYER_HUMAN) {
		fprintf(stderr, "noughts: bot: --engine must be an engine, not human\n");
		return 2;
	}
	b = bot_new(&opt->game, &opt->engine);
	if (opt->deadline_ms != 0)
		bot_set_deadline(b, opt->deadline_ms, opt->first_deadline_ms);
	if (opt->overhead_ms >= 0) {
		/* (the first turn's deadline may be the shorter: --deadline 50,20) */
		int shorter = bot_shorter_deadline_ms(b);

		if (opt->overhead_ms * 2 > shorter) {
			fprintf(stderr, "noughts: bot: --overhead must be at most %d ms, half the "
				"%d ms deadline, not %d\n", shorter / 2, shorter, opt->overhead_ms);
			bot_free(b);
			return 2;
		}
		bot_set_overhead(b, opt->overhead_ms);
	}
	guard = bot_guard_new(STDOUT_FILENO);
	if (guard != NULL)
		bot_set_guard(b, bot_guard_offer, guard);
	bot_worked_since(b, start);
	for (no = 1; (how = read_line(stdin, line)) == LINE_OK; no++) {
		int st = bot_feed(b, line, answer, sizeof(answer), err, sizeof(err));

		if (st == BOT_ERROR) {
			fprintf(stderr, "noughts: bot: %s\n", err);
			rc = 1;
			break;
		}
		if (st == BOT_ANSWER) {
			uint64_t written = 0;
			int gave = guard != NULL ? bot_guard_gave(guard, &written) : 0;

			if (gave < 0 || (gave == 0 && !say(answer))) {
				fprintf(stderr, "noughts: bot: cannot write the answer: %s\n",
					strerror(errno));
				rc = 1;
				break;
			}
			let_referee_read();
			bot_between_turns(b, gave == 1 ? written : 0, bot_input_waiting, NULL);
		}
	}
	if (rc == 0 && input_trouble(how, no, err, sizeof(err)) != NULL) {
		fprintf(stderr, "noughts: bot: %s\n", err);
		rc = 1;
	}
	if (rc == 0 && bot_mid_turn(b)) {
		fprintf(stderr, "noughts: bot: the input ended in the middle of a turn\n");
		rc = 1;
	}
	bot_guard_free(guard);
	bot_free(b);
	return rc;
}
