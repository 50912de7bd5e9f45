/* options.h - the command line every command shares: --game, --moves,
 * --json, rule options, player specs, budgets. One parser, so a word means
 * the same thing in every command. */
#ifndef NOUGHTS_OPTIONS_H
#define NOUGHTS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "player.h"
#include "sprt.h"

/* Options a command may accept (a bit each). */
enum {
	OPT_GAME = 1 << 0,     /* --game, --tiebreak, --open-won-boards */
	OPT_MOVES = 1 << 1,    /* --moves */
	OPT_JSON = 1 << 2,     /* --json */
	OPT_PLAYERS = 1 << 3,  /* --x, --o, --ascii */
	OPT_ENGINE = 1 << 4,   /* --engine */
	OPT_GAMES = 1 << 5,    /* --games, --seed */
	OPT_RECORD = 1 << 6,   /* --record */
	OPT_LOAD = 1 << 7,     /* --load */
	OPT_SECONDS = 1 << 8,  /* --seconds */
	OPT_LEVEL = 1 << 9,    /* --level */
	OPT_DEADLINE = 1 << 10, /* --deadline, --overhead */
	OPT_THRESHOLD = 1 << 11, /* --threshold */
	OPT_THREADS = 1 << 12, /* --threads */
	OPT_DELAY = 1 << 13,   /* --delay */
	OPT_CHILDREN = 1 << 14, /* --children */
	OPT_LABEL = 1 << 15,   /* --label */
	OPT_ROUNDS = 1 << 16,  /* --rounds */
	OPT_SPRT = 1 << 17,    /* --sprt */
};

#define OPTIONS_DELAY_MS 700      /* --delay's default */
#define OPTIONS_MAX_DELAY_MS 60000

#define OPTIONS_MAX_THREADS 16
#define OPTIONS_ROUNDS 3          /* --rounds' default */
#define OPTIONS_MAX_ROUNDS 100
#define OPTIONS_SPRT_GAMES 20000  /* match --sprt's most games unless --games says */

struct options {
	const char *command;      /* "play", "perft", ... */
	struct game game;         /* the game with its rule options */
	bool game_given;          /* --game or a rule option was given */
	struct pos start;         /* the game's start position */
	struct pos pos;           /* after --moves */
	uint8_t moves[GAME_MAX_PLIES]; /* the moves of --moves, in order */
	int nmoves;
	bool json;
	struct player_spec x, o;  /* --x and --o (play) */
	bool x_given, o_given;
	int level;                /* --level, 0 when not given */
	bool ascii;               /* --ascii */
	struct player_spec engine; /* --engine (analyze, bot) */
	bool engine_given;
	int games;                /* --games (match), default 100 */
	bool games_given;
	struct sprt sprt;         /* --sprt (match) */
	bool sprt_given;
	uint32_t children;        /* --children (selfplay), 0 when not given */
	bool visits;              /* --visits (selfplay) */
	struct player_spec label; /* --label (selfplay) */
	bool label_given;
	uint64_t seed;            /* --seed */
	bool seed_given;
	double seconds;           /* --seconds (bench), default 1 */
	int threads[OPTIONS_MAX_THREADS]; /* --threads (bench): thread counts */
	int nthreads;             /* 0 when not given */
	int rounds;               /* --rounds (bench): each count measured this often */
	int deadline_ms, first_deadline_ms; /* --deadline (bot), 0 when not given */
	int overhead_ms;          /* --overhead (bot), -1 when not given */
	double threshold;         /* --threshold (review) */
	int delay_ms;             /* --delay (play): auto-play's least time a move is shown */
	const char *record;       /* --record FILE or DIR */
	const char *load;         /* --load FILE */
	int argc;                 /* words left after the options */
	char **argv;
};

/* Parse ARGV (after the command word) for COMMAND, accepting the options in
 * the ACCEPTED mask; DEFAULT_RULES are rule options on unless turned off
 * (bot mode uses RULE_TIEBREAK). Fills OPT. Returns 0, or prints a one-line
 * "noughts: ..." error to stderr and returns 2 (a usage error), or prints
 * help to stdout and returns -1 for --help (exit 0). */
int options_parse(struct options *opt, const char *command, unsigned accepted,
		  unsigned default_rules, int argc, char **argv);

/* As options_parse (with no default rules), but an error goes into ERR,
 * the words that would follow "noughts: COMMAND: " on stderr (without the
 * pointer to --help), and nothing is printed: for the screen's new-game
 * dialog, which takes the command line's words. --help is an error here.
 * Returns 0, or 2 with ERR set. */
int options_parse_quiet(struct options *opt, const char *command, unsigned accepted, int argc,
			char **argv, char *err, size_t size);

/* Print the usage of COMMAND's options (the ACCEPTED mask) to stdout. */
void options_usage(const char *command, unsigned accepted);

#endif
