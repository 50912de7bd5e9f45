/* fuzz-spec.c - libFuzzer target: player specs and game names. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "player.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[512], err[256], back[512];
	struct player_spec s, t;
	struct game g;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (player_spec_parse(text, &s, err, sizeof(err)) == 0) {
		/* what parses must print as a spec that parses to the same */
		player_spec_format(&s, back, sizeof(back));
		if (player_spec_parse(back, &t, err, sizeof(err)) != 0 || t.kind != s.kind)
			__builtin_trap();
	} else if (err[0] == '\0') {
		__builtin_trap();
	}
	game_init(&g, text, 0, err, sizeof(err));
	return 0;
}
