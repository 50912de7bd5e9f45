/* fuzz-bot.c - libFuzzer target: the bot protocol reader, line by line. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct game games[2];
	static struct player_spec spec;
	static int ready;
	char line[300], out[32], err[400];
	struct bot *b;
	size_t at = 1;

	if (!ready) {
		game_init(&games[0], "uttt", RULE_TIEBREAK, err, sizeof(err));
		game_init(&games[1], "ttt", 0, err, sizeof(err));
		/* one iteration a move: the reader is under test, not the engine */
		player_spec_parse("mcts:iterations=1,memory=1", &spec, err, sizeof(err));
		ready = 1;
	}
	if (size == 0)
		return 0;
	b = bot_new(&games[data[0] & 1], &spec);
	while (at < size) {
		size_t n = 0;

		while (at < size && data[at] != '\n' && n + 1 < sizeof(line))
			line[n++] = (char)data[at++];
		at++;
		line[n] = '\0';
		if (strlen(line) != n)
			break; /* the command refuses NUL bytes before the reader */
		if (bot_feed(b, line, out, sizeof(out), err, sizeof(err)) == BOT_ERROR)
			break;
	}
	bot_free(b);
	return 0;
}
