/* options.c - one getopt_long parser for the options every command shares. */
#include "config.h"

#include "options.h"
#include "review.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	LONG_GAME = 256, LONG_MOVES, LONG_JSON, LONG_TIEBREAK, LONG_NO_TIEBREAK, LONG_OPEN_WON,
	LONG_X, LONG_O, LONG_LEVEL, LONG_ASCII, LONG_ENGINE, LONG_GAMES, LONG_SEED,
	LONG_RECORD, LONG_LOAD, LONG_SECONDS, LONG_DEADLINE, LONG_OVERHEAD, LONG_THRESHOLD,
	LONG_THREADS, LONG_DELAY, LONG_CHILDREN, LONG_VISITS, LONG_LABEL, LONG_ROUNDS, LONG_SPRT,
};

static const struct option long_options[] = {
	{ "game", required_argument, NULL, LONG_GAME },
	{ "moves", required_argument, NULL, LONG_MOVES },
	{ "json", no_argument, NULL, LONG_JSON },
	{ "tiebreak", no_argument, NULL, LONG_TIEBREAK },
	{ "no-tiebreak", no_argument, NULL, LONG_NO_TIEBREAK },
	{ "open-won-boards", no_argument, NULL, LONG_OPEN_WON },
	{ "x", required_argument, NULL, LONG_X },
	{ "o", required_argument, NULL, LONG_O },
	{ "level", required_argument, NULL, LONG_LEVEL },
	{ "ascii", no_argument, NULL, LONG_ASCII },
	{ "engine", required_argument, NULL, LONG_ENGINE },
	{ "games", required_argument, NULL, LONG_GAMES },
	{ "seed", required_argument, NULL, LONG_SEED },
	{ "record", required_argument, NULL, LONG_RECORD },
	{ "load", required_argument, NULL, LONG_LOAD },
	{ "seconds", required_argument, NULL, LONG_SECONDS },
	{ "deadline", required_argument, NULL, LONG_DEADLINE },
	{ "overhead", required_argument, NULL, LONG_OVERHEAD },
	{ "threshold", required_argument, NULL, LONG_THRESHOLD },
	{ "threads", required_argument, NULL, LONG_THREADS },
	{ "rounds", required_argument, NULL, LONG_ROUNDS },
	{ "delay", required_argument, NULL, LONG_DELAY },
	{ "children", required_argument, NULL, LONG_CHILDREN },
	{ "visits", no_argument, NULL, LONG_VISITS },
	{ "label", required_argument, NULL, LONG_LABEL },
	{ "sprt", required_argument, NULL, LONG_SPRT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Which OPT_ bit each long option belongs to, and its help line. */
static const struct {
	int id;
	unsigned group;
	const char *usage;
} option_help[] = {
	{ LONG_GAME, OPT_GAME, "--game G            ttt (default), uttt, or M,N,K such as 4,4,3" },
	{ LONG_TIEBREAK, OPT_GAME, "--tiebreak          uttt: with no line, more small boards won wins" },
	{ LONG_NO_TIEBREAK, OPT_GAME, "--no-tiebreak       uttt: a game with no line is a draw" },
	{ LONG_OPEN_WON, OPT_GAME, "--open-won-boards   uttt: won small boards stay playable" },
	{ LONG_MOVES, OPT_MOVES, "--moves \"e5 d4\"     start from the position after these moves" },
	{ LONG_JSON, OPT_JSON, "--json              one JSON object on stdout instead of text" },
	{ LONG_X, OPT_PLAYERS, "--x PLAYER          who plays X: human, random, mcts[:...], negamax[:...]" },
	{ LONG_O, OPT_PLAYERS, "--o PLAYER          who plays O (default mcts)" },
	{ LONG_LEVEL, OPT_LEVEL, "--level N           strength 1..10 of engines given no budget" },
	{ LONG_ASCII, OPT_PLAYERS, "--ascii             draw the board with ASCII characters" },
	{ LONG_DELAY, OPT_DELAY, "--delay MS          auto-play: the least time a move stays shown (default 700)" },
	{ LONG_ENGINE, OPT_ENGINE, "--engine PLAYER     the engine to use (default mcts)" },
	{ LONG_GAMES, OPT_GAMES, "--games N           number of games (default 100)" },
	{ LONG_SPRT, OPT_SPRT, "--sprt E0,E1[,A,B]  stop once A is shown at most E0 or at least E1 Elo\n"
	  "                      stronger than B (error rates A, B: default 0.05);\n"
	  "                      --games is then the most (default 20000)" },
	{ LONG_SEED, OPT_GAMES, "--seed S            seed of the engines' random numbers (default 1)" },
	{ LONG_CHILDREN, OPT_CHILDREN, "--children V        also write each searched position's children that got\n"
	  "                      V visits or more (default 0: none)" },
	{ LONG_VISITS, OPT_CHILDREN, "--visits            end each position's line with its search's visits of\n"
	  "                      each move, MOVE:N,... most first (a policy's target)" },
	{ LONG_LABEL, OPT_LABEL, "--label PLAYER      value every position written with a search of this\n"
	  "                      mcts engine instead of the one that plays" },
	{ LONG_RECORD, OPT_RECORD, "--record PATH       play: write the game to this file when it ends;\n"
				   "                      match: write a record of each game into this directory" },
	{ LONG_LOAD, OPT_LOAD, "--load FILE         open a game record at its last position" },
	{ LONG_SECONDS, OPT_SECONDS, "--seconds S         time for each figure (default 1)" },
	{ LONG_THREADS, OPT_THREADS, "--threads N,N,...   solve: threads to search on (default: every core);\n"
	  "                      bench: also MCTS iterations/s on each count" },
	{ LONG_ROUNDS, OPT_ROUNDS, "--rounds R          bench --threads: measure the counts in turn R times, give\n"
	  "                      each one's median and range (default 3)" },
	{ LONG_DEADLINE, OPT_DEADLINE, "--deadline MS[,FIRST]  answer MS ms after a turn's first line came (default 90;\n"
	  "                    the first turn FIRST, default ten times MS)" },
	{ LONG_OVERHEAD, OPT_DEADLINE, "--overhead MS       stop thinking MS ms before the deadline, a reserve for\n"
	  "                    the machine's stalls (default 3)" },
	{ LONG_THRESHOLD, OPT_THRESHOLD, "--threshold T       a drop in value over T (0..1) is a mistake (default 0.1)" },
};

void options_usage(const char *command, unsigned accepted)
{
	(void)command;
	puts("Options:");
	for (size_t i = 0; i < ARRAY_SIZE(option_help); i++)
		if (accepted & option_help[i].group)
			printf("  %s\n", option_help[i].usage);
	puts("  --help              show this help and exit");
	puts("Player specs: human | random[:seed=S] | mcts[:iterations=N,time=MS,c=C,"
	     "rollout=random|smart,\n  solver=on|off,memory=MB,seed=S,threads=N,"
	     "parallel=auto|tree|pipeline,level=L,\n  eval=net|rollout|mix,net=FILE,order=net|fixed] |\n  "
	     "negamax[:depth=D,time=MS,threads=N,level=L]");
}

static unsigned group_of(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(option_help); i++)
		if (option_help[i].id == id)
			return option_help[i].group;
	return 0;
}

static const char *name_of(int id)
{
	for (size_t i = 0; long_options[i].name != NULL; i++)
		if (long_options[i].val == id)
			return long_options[i].name;
	return "?";
}

/* Where an error goes: stderr, or options_parse_quiet()'s buffer. */
static char *quiet_err;
static size_t quiet_size;

/* The error TEXT of COMMAND, on stderr with a pointer to the command's
 * help when USAGE says so; returns 2, a usage error's status. */
static int say_error(const char *command, bool usage, const char *said)
{
	char text[600];

	/* (one line of text, whatever the words it quotes) */
	text_shown(said, 400, text, sizeof(text));
	if (quiet_err != NULL)
		fmt_buf(quiet_err, quiet_size, "%s", text);
	else if (usage)
		fprintf(stderr, "noughts: %s: %s (see 'noughts %s --help')\n", command, text,
			command);
	else
		fprintf(stderr, "noughts: %s: %s\n", command, text);
	return 2;
}

static int usage_error(const char *command, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	char text[512];

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return say_error(command, true, text);
}

static int spec_option(const char *command, const char *text, struct player_spec *spec)
{
	char err[256];

	if (player_spec_parse(text, spec, err, sizeof(err)) < 0)
		return say_error(command, false, err);
	return 0;
}

/* "MS" or "MS,FIRST" (milliseconds, 1 to 100000); FIRST defaults to ten
 * times MS, as CodinGame's first turn is ten times as long. */
static int parse_deadline(const char *text, int *ms, int *first_ms)
{
	char buf[32];
	const char *comma = strchr(text, ',');
	uint64_t a, b;

	if (strlen(text) >= sizeof(buf))
		return -1;
	memcpy(buf, text, strlen(text) + 1);
	if (comma != NULL)
		buf[comma - text] = '\0';
	if (!parse_u64(buf, 1, 100000, &a))
		return -1;
	if (comma == NULL)
		b = a * 10 > 100000 ? 100000 : a * 10;
	else if (!parse_u64(comma + 1, 1, 100000, &b))
		return -1;
	*ms = (int)a;
	*first_ms = (int)b;
	return 0;
}

/* "1,2,4": up to OPTIONS_MAX_THREADS counts from 1 to MCTS_MAX_THREADS. */
static int parse_threads(const char *text, struct options *opt)
{
	const char *p = text;

	opt->nthreads = 0;
	for (;;) {
		char buf[16];
		size_t len = strcspn(p, ",");
		uint64_t v;

		if (len == 0 || len >= sizeof(buf) || opt->nthreads == OPTIONS_MAX_THREADS)
			return -1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (!parse_u64(buf, 1, MCTS_MAX_THREADS, &v))
			return -1;
		opt->threads[opt->nthreads++] = (int)v;
		if (p[len] == '\0')
			return 0;
		p += len + 1;
	}
}

/* What the options say about the game, gathered before it is made. */
struct game_words {
	const char *game_name, *moves;
	bool game_given;
	unsigned rules;
};

/* The long options that WORD ("--ga", "--ga=x") abbreviates, into BUF
 * ("--game, --games"); how many. */
static int abbreviated(const char *word, char *buf, size_t size)
{
	size_t len = strcspn(word + 2, "="), used = 0;
	int n = 0;

	buf[0] = '\0';
	for (const struct option *o = long_options; word[0] == '-' && word[1] == '-' && o->name;
	     o++)
		if (strncmp(o->name, word + 2, len) == 0 && used + strlen(o->name) + 5 < size) {
			used += (size_t)snprintf(buf + used, size - used, "%s--%s", n ? ", " : "",
						 o->name);
			n++;
		}
	return n;
}

/* A getopt_long error for the option word BAD (C is '?' or ':'). */
static int getopt_error(const char *command, int c, const char *bad)
{
	const char *word = shown(bad);
	bool long_word = bad[0] == '-' && bad[1] == '-';
	char which[256];

	/* (an unknown letter: BAD may be the word before, as in -gttt) */
	if (optopt != 0 && optopt < 256 && c == '?' && !long_word)
		return usage_error(command, "unknown option '-%c'", optopt);
	if (optopt != 0 && long_word && strchr(bad, '=') != NULL)
		return usage_error(command, "option '%.*s' takes no value", (int)strcspn(bad, "="),
				   bad);
	if (c == ':' || (optopt != 0 && group_of(optopt) != 0))
		return usage_error(command, "option '%s' needs a value", word);
	if (abbreviated(bad, which, sizeof(which)) > 1)
		return usage_error(command, "ambiguous option '%.*s' (could be %s)",
				   (int)strcspn(word, "="), word, which);
	return usage_error(command, "unknown option '%s'", word);
}

/* One option C that takes a number (in optarg) into OPT; 0, or the usage
 * error's status; 1 if C is not one of them. */
static int number_option(struct options *opt, const char *command, int c)
{
	uint64_t v;

	switch (c) {
	case LONG_LEVEL:
		if (!parse_u64(optarg, 1, PLAYER_MAX_LEVEL, &v))
			return usage_error(command, "--level must be from 1 to 10, not '%s'",
					   shown(optarg));
		opt->level = (int)v;
		break;
	case LONG_GAMES:
		if (!parse_u64(optarg, 1, 10000000, &v))
			return usage_error(command, "--games must be from 1 to 10000000, not '%s'",
					   shown(optarg));
		opt->games = (int)v;
		opt->games_given = true;
		break;
	case LONG_CHILDREN:
		if (!parse_u64(optarg, 1, UINT32_MAX, &v))
			return usage_error(command, "--children must be a number of visits from 1 to "
					   "4294967295, not '%s'", shown(optarg));
		opt->children = (uint32_t)v;
		break;
	case LONG_SEED:
		if (!parse_u64(optarg, 0, UINT64_MAX, &opt->seed))
			return usage_error(command, "--seed must be a whole number, not '%s'",
					   shown(optarg));
		opt->seed_given = true;
		break;
	case LONG_THREADS:
		if (parse_threads(optarg, opt) < 0)
			return usage_error(command, "--threads must be up to %d thread counts "
					   "from 1 to %d such as 1,2,4, not '%s'",
					   OPTIONS_MAX_THREADS, MCTS_MAX_THREADS, shown(optarg));
		break;
	case LONG_ROUNDS:
		if (!parse_u64(optarg, 1, OPTIONS_MAX_ROUNDS, &v))
			return usage_error(command, "--rounds must be a number from 1 to %d, not '%s'",
					   OPTIONS_MAX_ROUNDS, shown(optarg));
		opt->rounds = (int)v;
		break;
	case LONG_SECONDS:
		if (!parse_double(optarg, 0.01, 3600, &opt->seconds))
			return usage_error(command, "--seconds must be from 0.01 to 3600, not '%s'",
					   shown(optarg));
		break;
	case LONG_DEADLINE:
		if (parse_deadline(optarg, &opt->deadline_ms, &opt->first_deadline_ms) < 0)
			return usage_error(command,
					   "--deadline must be MS or MS,FIRST in milliseconds "
					   "from 1 to 100000, not '%s'", shown(optarg));
		break;
	case LONG_OVERHEAD:
		if (!parse_u64(optarg, 0, 100000, &v))
			return usage_error(command, "--overhead must be milliseconds from 0 to 100000, "
					   "not '%s'", shown(optarg));
		opt->overhead_ms = (int)v;
		break;
	case LONG_THRESHOLD:
		if (!parse_double(optarg, 0, 1, &opt->threshold))
			return usage_error(command, "--threshold must be from 0 to 1, not '%s'",
					   shown(optarg));
		break;
	case LONG_DELAY:
		if (!parse_u64(optarg, 0, OPTIONS_MAX_DELAY_MS, &v))
			return usage_error(command, "--delay must be milliseconds from 0 to %d, not '%s'",
					   OPTIONS_MAX_DELAY_MS, shown(optarg));
		opt->delay_ms = (int)v;
		break;
	default:
		return 1;
	}
	return 0;
}

/* One option C (with optarg) into OPT and W; 0, or the usage error's
 * status. BAD is its word, for the message. */
static int one_option(struct options *opt, struct game_words *w, const char *command, int c,
		      const char *bad)
{
	int rc;

	switch (c) {
	case LONG_GAME: w->game_name = optarg; w->game_given = true; break;
	case LONG_MOVES: w->moves = optarg; break;
	case LONG_JSON: opt->json = true; break;
	case LONG_VISITS: opt->visits = true; break;
	case LONG_TIEBREAK: w->rules |= RULE_TIEBREAK; w->game_given = true; break;
	case LONG_NO_TIEBREAK: w->rules &= ~(unsigned)RULE_TIEBREAK; w->game_given = true; break;
	case LONG_OPEN_WON: w->rules |= RULE_OPEN_WON; w->game_given = true; break;
	case LONG_X:
		if ((rc = spec_option(command, optarg, &opt->x)) != 0)
			return rc;
		opt->x_given = true;
		break;
	case LONG_O:
		if ((rc = spec_option(command, optarg, &opt->o)) != 0)
			return rc;
		opt->o_given = true;
		break;
	case LONG_ENGINE:
		if ((rc = spec_option(command, optarg, &opt->engine)) != 0)
			return rc;
		opt->engine_given = true;
		break;
	case LONG_LABEL:
		if ((rc = spec_option(command, optarg, &opt->label)) != 0)
			return rc;
		opt->label_given = true;
		break;
	case LONG_ASCII: opt->ascii = true; break;
	case LONG_RECORD: opt->record = optarg; break;
	case LONG_LOAD: opt->load = optarg; break;
	case LONG_SPRT:
		if (!sprt_parse(&opt->sprt, optarg))
			return usage_error(command, "--sprt must be ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA "
					   "with ELO0 < ELO1 from -%d to %d and ALPHA, BETA "
					   "between 0 and 0.5, such as 0,10 or -5,5,0.05,0.1; "
					   "not '%s'", SPRT_MAX_ELO, SPRT_MAX_ELO, shown(optarg));
		opt->sprt_given = true;
		break;
	default:
		if ((rc = number_option(opt, command, c)) != 1)
			return rc;
		return usage_error(command, "unknown option '%s'", bad);
	}
	return 0;
}

int options_parse(struct options *opt, const char *command, unsigned accepted,
		  unsigned default_rules, int argc, char **argv)
{
	struct game_words w = { "ttt", NULL, false, default_rules };
	char err[256];
	int c, rc;

	memset(opt, 0, sizeof(*opt));
	opt->command = command;
	opt->games = 100;
	opt->seed = 1;
	opt->seconds = 1.0;
	opt->threshold = REVIEW_DEFAULT_THRESHOLD;
	opt->delay_ms = OPTIONS_DELAY_MS;
	opt->overhead_ms = -1;
	player_spec_parse("human", &opt->x, err, sizeof(err));
	player_spec_parse("mcts", &opt->o, err, sizeof(err));
	player_spec_parse("mcts", &opt->engine, err, sizeof(err));
	player_spec_parse("mcts", &opt->label, err, sizeof(err));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		if (c == 'h')
			return -1;
		if (c == '?' || c == ':')
			return getopt_error(command, c, argv[optind - 1]);
		if (!(group_of(c) & accepted))
			return usage_error(command, "this command does not take --%s", name_of(c));
		if ((rc = one_option(opt, &w, command, c, argv[optind - 1])) != 0)
			return rc;
	}
	if (opt->rounds != 0 && opt->nthreads == 0)
		return usage_error(command, "--rounds says how often the counts of --threads are "
				   "measured: give --threads N,N,... too");
	if (opt->rounds == 0)
		opt->rounds = OPTIONS_ROUNDS;
	if (opt->sprt_given && !opt->games_given)
		opt->games = OPTIONS_SPRT_GAMES;
	if (opt->load != NULL && (w.game_given || w.moves != NULL))
		return usage_error(command, "--load takes the game and its moves from the record: drop %s",
				   w.moves != NULL ? "--moves" : "--game and rule options");
	/* A command's default rules (the bot's tie-break) apply to uttt only. */
	if (strcasecmp(w.game_name, "uttt") != 0)
		w.rules &= ~default_rules;
	if (game_init(&opt->game, w.game_name, w.rules, err, sizeof(err)) < 0)
		return say_error(command, false, err);
	game_start(&opt->game, &opt->start);
	opt->pos = opt->start;
	if (w.moves != NULL &&
	    game_play_moves(&opt->game, &opt->pos, w.moves, opt->moves, &opt->nmoves, err,
			    sizeof(err)) < 0) {
		char text[300];

		return say_error(command, false, fmt_buf(text, sizeof(text), "--moves: %s", err));
	}
	{
		const struct player_spec *specs[] = { &opt->x, &opt->o, &opt->engine, &opt->label };

		for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
			if (player_spec_check(specs[i], &opt->game, err, sizeof(err)) < 0)
				return say_error(command, false, err);
	}
	if (opt->level != 0) {
		struct player_spec *specs[] = { &opt->x, &opt->o, &opt->engine, &opt->label };

		for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
			if (specs[i]->level == 0)
				specs[i]->level = opt->level;
	}
	opt->game_given = w.game_given;
	opt->argc = argc - optind;
	opt->argv = argv + optind;
	return 0;
}

int options_parse_quiet(struct options *opt, const char *command, unsigned accepted, int argc,
			char **argv, char *err, size_t size)
{
	int rc;

	quiet_err = err;
	quiet_size = size;
	err[0] = '\0';
	rc = options_parse(opt, command, accepted, 0, argc, argv);
	quiet_err = NULL;
	if (rc == -1)
		fmt_buf(err, size, "--help is not an option here");
	return rc == 0 ? 0 : 2;
}
