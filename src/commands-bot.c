/* commands-bot.c - noughts bot: the CodinGame protocol on stdin and stdout
 * around bot.c's engine, and the bot's clock between turns. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot.h"
#include "commands.h"
#include "options.h"
#include "util.h"

#define BOT_MAX_LINE 256

/* Has the next turn's input come? (The referee writes a turn only after
 * reading the answer, so no line of it can sit in stdin's buffer yet:
 * looking at the descriptor is enough.) */
static bool bot_input_waiting(void)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0;
}

/* Work done from T on (setting up, or what an answer left) is over. If the
 * next turn's input came in meanwhile, its clock started during that work:
 * count it from T, so the work never makes an answer late. */
static void bot_worked_since(struct bot *b, uint64_t t)
{
	if (bot_input_waiting())
		bot_clock_from(b, t);
}

/* Between turns: move the tree (bot_idle()), then fault in memory for the
 * next searches (bot_prefault()), a step at a time while the opponent
 * thinks, up to BOT_IDLE_PREFAULT. */
#define BOT_IDLE_PREFAULT ((size_t)16 << 20)

static void bot_between_turns(struct bot *b)
{
	uint64_t t = now_ns();

	bot_idle(b);
	for (size_t n = 0; n < BOT_IDLE_PREFAULT && !bot_input_waiting() && bot_prefault(b);)
		n += BOT_PREFAULT_STEP;
	bot_worked_since(b, t);
}

int cmd_bot(struct options *opt)
{
	uint64_t start = bot_process_began(); /* (the first turn's input may come meanwhile) */
	struct bot *b;
	char *line = NULL, answer[32], err[320];
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	if (opt->engine.kind == PLAYER_HUMAN) {
		fprintf(stderr, "noughts: bot: --engine must be an engine, not human\n");
		return 2;
	}
	b = bot_new(&opt->game, &opt->engine);
	if (opt->deadline_ms != 0)
		bot_set_deadline(b, opt->deadline_ms, opt->first_deadline_ms);
	bot_worked_since(b, start);
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		int st;

		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > BOT_MAX_LINE || strlen(line) != (size_t)len) {
			fprintf(stderr, "noughts: bot: a line of input is too long or holds a NUL byte\n");
			rc = 1;
			break;
		}
		st = bot_feed(b, line, answer, sizeof(answer), err, sizeof(err));
		if (st == BOT_ERROR) {
			fprintf(stderr, "noughts: bot: %s\n", err);
			rc = 1;
			break;
		}
		if (st == BOT_ANSWER) {
			printf("%s\n", answer);
			fflush(stdout);
			bot_between_turns(b);
		}
	}
	if (rc == 0 && bot_mid_turn(b)) {
		fprintf(stderr, "noughts: bot: the input ended in the middle of a turn\n");
		rc = 1;
	}
	free(line);
	bot_free(b);
	return rc;
}
