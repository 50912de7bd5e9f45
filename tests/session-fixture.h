/* session-fixture.h - a screen session set up for a test, without a
 * terminal: shared by test-session.c and test-graph.c. */
#ifndef NOUGHTS_SESSION_FIXTURE_H
#define NOUGHTS_SESSION_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

/* A session of GAME between X and O after MOVES (may be ""); a set-up the
 * program refuses ends the test with status 99 (a hard error). */
static inline struct session *make(struct options *opt, const char *game, const char *x,
				   const char *o, const char *moves)
{
	char err[200];

	memset(opt, 0, sizeof(*opt));
	opt->delay_ms = OPTIONS_DELAY_MS;
	if (game_init(&opt->game, game, 0, err, sizeof(err)) < 0 ||
	    player_spec_parse(x, &opt->x, err, sizeof(err)) < 0 ||
	    player_spec_parse(o, &opt->o, err, sizeof(err)) < 0) {
		printf("# bad test set-up: %s\n", err);
		exit(99);
	}
	game_start(&opt->game, &opt->start);
	opt->pos = opt->start;
	if (game_play_moves(&opt->game, &opt->pos, moves, opt->moves, &opt->nmoves, err,
			    sizeof(err)) < 0) {
		printf("# bad test moves: %s\n", err);
		exit(99);
	}
	return session_new(opt, NULL);
}

#endif
