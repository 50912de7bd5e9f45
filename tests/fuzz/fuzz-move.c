/* fuzz-move.c - libFuzzer target: move text and --moves lists, every game. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const games[] = { "ttt", "uttt", "4,4,3", "7,3,3", "8,8,5" };
	char text[512], err[256];
	struct game g;
	struct pos p;

	if (size == 0 || size >= sizeof(text))
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	/* uttt's rule options: game_init refuses them for the other games */
	if (game_init(&g, games[data[0] % 5], data[0] % 5 == 1 && (data[0] & 0x80) ? RULE_OPEN_WON : 0,
		      err, sizeof(err)) != 0)
		__builtin_trap();
	game_parse_move(&g, text, err, sizeof(err));
	game_start(&g, &p);
	if (game_play_moves(&g, &p, text, NULL, NULL, err, sizeof(err)) < 0 && err[0] == '\0')
		__builtin_trap(); /* a refusal must say why */
	return 0;
}
