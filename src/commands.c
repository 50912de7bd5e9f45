/* commands.c - the command words of noughts and the headless commands. */
#include "config.h"

#include "commands.h"

#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "mcts.h"
#include "pool.h"
#include "negamax.h"
#include "nnue.h"
#include "options.h"
#include "player.h"
#include "ui.h"

/* Set by SIGINT/SIGTERM/SIGHUP in the long headless commands (a lock-free
 * atomic, which a signal handler may store to). */
atomic_int stop_requested;

static void on_stop_signal(int sig)
{
	atomic_store(&stop_requested, sig);
}

void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

const char *side_name(int side)
{
	return side == SIDE_X ? "X" : "O";
}

/* Refuse a position where the game is over: prints the line and returns
 * 1, or returns 0 when the game goes on. */
int refuse_finished(const struct options *opt)
{
	if (!game_over(&opt->pos))
		return 0;
	fprintf(stderr, "noughts: %s: the game is over in this position (%s)\n", opt->command,
		opt->pos.result == RESULT_DRAW ? "a draw" :
		opt->pos.result == RESULT_X ? "X won" : "O won");
	return 1;
}

/* Refuse a player that is not mcts for the option WHAT (--engine,
 * --label), whose search the command needs for the reason WHY: prints
 * the line and returns 2, or returns 0 for an mcts player. */
int refuse_not_mcts(const struct options *opt, const char *what, const struct player_spec *spec,
		    const char *why)
{
	if (spec->kind == PLAYER_MCTS)
		return 0;
	fprintf(stderr, "noughts: %s: %s must be mcts[:...] (%s)\n", opt->command, what, why);
	return 2;
}

/* --- play -------------------------------------------------------------- */

static int cmd_play(struct options *opt)
{
	return ui_play(opt);
}

/* --- perft ------------------------------------------------------------- */

static int cmd_perft(struct options *opt)
{
	uint64_t counts[GAME_MAX_PLIES], depth;

	if (opt->argc != 1) {
		fprintf(stderr, "noughts: perft: expected one DEPTH, such as 'noughts perft 5'\n");
		return 2;
	}
	if (!parse_u64(opt->argv[0], 1, GAME_MAX_PLIES, &depth)) {
		fprintf(stderr, "noughts: perft: DEPTH must be from 1 to %d, not '%s'\n",
			GAME_MAX_PLIES, shown(opt->argv[0]));
		return 2;
	}
	game_perft(&opt->game, &opt->pos, (int)depth, counts);
	if (opt->json) {
		struct json j;

		json_init(&j, stdout);
		json_object_begin(&j);
		json_key(&j, "perft");
		json_array_begin(&j);
		for (int d = 0; d < (int)depth; d++)
			json_uint(&j, counts[d]);
		json_array_end(&j);
		json_object_end(&j);
	} else {
		for (int d = 0; d < (int)depth; d++)
			printf("%d %llu\n", d + 1, (unsigned long long)counts[d]);
	}
	return 0;
}

/* --- show -------------------------------------------------------------- */

static int cmd_show(struct options *opt)
{
	const struct game *g = &opt->game;
	struct moveset ms;
	uint8_t list[GAME_MAX_MOVES];
	char name[8], where[64];
	int n;

	game_legal(g, &opt->pos, &ms);
	n = moveset_list(&ms, list);
	if (opt->json) {
		struct json j;
		char row[32];

		json_init(&j, stdout);
		json_object_begin(&j);
		json_string_field(&j, "game", g->name);
		json_key(&j, "moves");
		json_array_begin(&j);
		for (int i = 0; i < opt->nmoves; i++)
			json_string(&j, game_move_name(g, opt->moves[i], name));
		json_array_end(&j);
		json_key(&j, "board");
		json_array_begin(&j);
		for (int r = 0; r < g->height; r++) {
			for (int c = 0; c < g->width; c++) {
				int who = game_cell_owner(g, &opt->pos, c, r);

				row[c] = who == SIDE_X ? 'X' : who == SIDE_O ? 'O' : '.';
			}
			row[g->width] = '\0';
			json_string(&j, row);
		}
		json_array_end(&j);
		json_string_field(&j, "to_move", game_over(&opt->pos) ? NULL : side_name(opt->pos.turn));
		json_string_field(&j, "result", game_result_name(opt->pos.result));
		json_key(&j, "legal");
		json_array_begin(&j);
		for (int i = 0; i < n; i++)
			json_string(&j, game_move_name(g, list[i], name));
		json_array_end(&j);
		json_object_end(&j);
		return 0;
	}
	game_print(g, &opt->pos, stdout);
	if (game_over(&opt->pos)) {
		if (opt->pos.result == RESULT_DRAW)
			puts("Result: draw");
		else
			printf("Result: %s wins\n", game_result_name(opt->pos.result));
		return 0;
	}
	printf("%s to move", side_name(opt->pos.turn));
	if (game_where(g, &opt->pos, where, sizeof(where)) != NULL)
		printf(", %s", where);
	printf("\nLegal moves (%d):", n);
	for (int i = 0; i < n; i++)
		printf(" %s", game_move_name(g, list[i], name));
	putchar('\n');
	return 0;
}

/* --- analyze ----------------------------------------------------------- */

static void print_children(const struct game *g, const struct mcts_child *ch, int n,
			   const struct mcts_totals *t)
{
	char name[8];
	/* columns for the network's values and the implicit minimax values
	 * when there are any */
	bool net = false, mm = false;

	for (int i = 0; i < n; i++) {
		net = net || !isnan(ch[i].net);
		mm = mm || !isnan(ch[i].implicit);
	}
	printf("move  visits  share     wins    draws   losses  value%s%s    uct  proven\n",
	       net ? "    net" : "", mm ? "     mm" : "");
	for (int i = 0; i < n; i++) {
		double share = t->root_visits > 0 ? 100.0 * ch[i].visits / t->root_visits : 0;
		char uct[16], nv[16] = "", mv[16] = "";

		if (ch[i].uct == HUGE_VAL)
			strcpy(uct, "inf");
		else
			fmt_buf(uct, sizeof(uct), "%.3f", ch[i].uct);
		if (net && isnan(ch[i].net))
			strcpy(nv, "      -");
		else if (net)
			fmt_buf(nv, sizeof(nv), "  %.3f", ch[i].net);
		if (mm)
			fmt_buf(mv, sizeof(mv), "  %.3f", ch[i].implicit);
		printf("%-4s %7u %5.1f%% %8u %8u %8u  %.3f%s%s %6s  %s",
		       game_move_name(g, ch[i].move, name), ch[i].visits, share, ch[i].wins,
		       ch[i].draws, ch[i].losses, ch[i].value, nv, mv, uct,
		       ch[i].proven != PROOF_NONE ? game_proof_name(ch[i].proven) : "-");
		if (ch[i].proven_plies >= 0)
			printf(" in %d", ch[i].proven_plies + 1); /* the move itself is a ply */
		putchar('\n');
	}
}

static int analyze_mcts(struct options *opt, struct player *p)
{
	const struct game *g = &opt->game;
	struct mcts *m = player_search(p);
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	int best, n;
	char name[8];

	/* Ctrl-C ends the search early: what it found so far is printed. */
	catch_stop_signals();
	while (!player_think(p, 20000000u) && !stop_requested)
		;
	best = player_choose(p);
	n = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	if (opt->json) {
		struct json j;

		json_init(&j, stdout);
		json_object_begin(&j);
		json_string_field(&j, "best", game_move_name(g, best, name));
		json_bool_field(&j, "stopped", stop_requested != 0);
		json_uint_field(&j, "iterations", t.iterations);
		json_string_field(&j, "proven", game_proof_name(t.root_proven));
		if (t.root_proven_plies >= 0)
			json_int_field(&j, "proven_plies", t.root_proven_plies);
		json_key(&j, "children");
		json_array_begin(&j);
		for (int i = 0; i < n; i++) {
			json_object_begin(&j);
			json_string_field(&j, "move", game_move_name(g, ch[i].move, name));
			json_uint_field(&j, "visits", ch[i].visits);
			json_uint_field(&j, "wins", ch[i].wins);
			json_uint_field(&j, "draws", ch[i].draws);
			json_uint_field(&j, "losses", ch[i].losses);
			json_double_field(&j, "value", ch[i].value);
			if (!isnan(ch[i].net))
				json_double_field(&j, "net", ch[i].net);
			if (!isnan(ch[i].implicit))
				json_double_field(&j, "implicit", ch[i].implicit);
			json_double_field(&j, "uct", ch[i].uct);
			json_string_field(&j, "proven", game_proof_name(ch[i].proven));
			if (ch[i].proven_plies >= 0)
				json_int_field(&j, "proven_plies", ch[i].proven_plies + 1);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_key(&j, "pv");
		json_array_begin(&j);
		for (int i = 0; i < t.pv_len; i++)
			json_string(&j, game_move_name(g, t.pv[i], name));
		json_array_end(&j);
		json_double_field(&j, "seconds", t.seconds);
		json_double_field(&j, "iterations_per_second", t.per_second);
		json_uint_field(&j, "nodes", t.nodes);
		json_uint_field(&j, "memory", t.memory_used);
		json_bool_field(&j, "arena_full", t.arena_full);
		json_int_field(&j, "max_depth", t.max_depth);
		json_object_end(&j);
		return stop_requested ? 1 : 0;
	}
	print_children(g, ch, n, &t);
	printf("iterations: %llu in %.3f s (%.0f/s), nodes: %llu (%.1f MiB%s), depth: %d\n",
	       (unsigned long long)t.iterations, t.seconds, t.per_second,
	       (unsigned long long)t.nodes, t.memory_used / 1048576.0,
	       t.arena_full ? ", arena full" : "", t.max_depth);
	if (t.root_proven_plies >= 0)
		printf("proven: %s in %d\n", game_proof_name(t.root_proven), t.root_proven_plies);
	else if (t.root_proven != PROOF_NONE)
		printf("proven: %s\n", game_proof_name(t.root_proven));
	printf("pv:");
	for (int i = 0; i < t.pv_len; i++)
		printf(" %s", game_move_name(g, t.pv[i], name));
	printf("\nbest: %s%s\n", game_move_name(g, best, name),
	       stop_requested ? " (stopped before the budget was spent)" : "");
	return stop_requested ? 1 : 0;
}

/* Negamax's view: its best move, score and depth, and the exact value
 * when the search reached every end. */
static int analyze_negamax(struct options *opt)
{
	const struct game *g = &opt->game;
	const struct player_spec *spec = &opt->engine;
	struct negamax_params params = { spec->depth, spec->time_ms,
					(size_t)NEGAMAX_DEFAULT_TT_MB << 20, spec->mcts.threads };
	struct negamax_result r;
	struct negamax *n;
	char name[8];

	if (params.depth == 0 && params.time_ms == 0)
		player_level_negamax(spec->level != 0 ? spec->level : PLAYER_DEFAULT_LEVEL,
				     &params.depth, &params.time_ms);
	n = negamax_new(g, &params);
	catch_stop_signals();
	negamax_search(n, &opt->pos, &stop_requested, NULL, NULL, &r);
	negamax_free(n);
	if (opt->json) {
		struct json j;

		json_init(&j, stdout);
		json_object_begin(&j);
		json_string_field(&j, "best", game_move_name(g, r.best, name));
		json_bool_field(&j, "stopped", stop_requested != 0);
		json_int_field(&j, "score", r.score);
		json_int_field(&j, "depth", r.depth);
		json_string_field(&j, "proven", r.exact ? game_proof_name(r.value) : NULL);
		if (r.exact) {
			json_int_field(&j, "proven_plies", r.plies);
		}
		json_uint_field(&j, "nodes", r.nodes);
		json_double_field(&j, "seconds", r.seconds);
		json_object_end(&j);
		return stop_requested ? 1 : 0;
	}
	printf("depth: %d, score: %d (side to move), nodes: %llu in %.3f s\n", r.depth, r.score,
	       (unsigned long long)r.nodes, r.seconds);
	if (r.exact)
		printf("proven: %s in %d\n", game_proof_name(r.value), r.plies);
	printf("best: %s%s\n", game_move_name(g, r.best, name),
	       stop_requested ? " (stopped before the budget was spent)" : "");
	return stop_requested ? 1 : 0;
}

static int cmd_analyze(struct options *opt)
{
	const struct game *g = &opt->game;
	struct player *p;
	char name[8];
	int rc = 0;

	if (refuse_finished(opt))
		return 1;
	if (opt->engine.kind == PLAYER_HUMAN) {
		fprintf(stderr, "noughts: analyze: --engine must be an engine, not human\n");
		return 2;
	}
	if (opt->engine.kind == PLAYER_NEGAMAX)
		return analyze_negamax(opt);
	p = player_new(g, &opt->engine, &opt->pos);
	if (opt->engine.kind == PLAYER_MCTS) {
		rc = analyze_mcts(opt, p);
	} else {
		int best = player_move_now(p);

		if (opt->json)
			printf("{\"best\": \"%s\"}\n", game_move_name(g, best, name));
		else
			printf("best: %s\n", game_move_name(g, best, name));
	}
	player_free(p);
	return rc;
}

/* --- solve ------------------------------------------------------------- */

static void solve_progress(const struct negamax_result *r, void *arg)
{
	(void)arg;
	fprintf(stderr, "depth %d: score %d, %llu nodes, %.1f s\n", r->depth, r->score,
		(unsigned long long)r->nodes, r->seconds);
}

/* A proven value from the side to move's view, in words: "X wins in 3",
 * "O wins in 4" (X to move, lost), "draw". */
static void print_value(int value, int plies, int turn)
{
	if (value == PROOF_DRAW)
		printf("draw");
	else
		printf("%s wins in %d", side_name(value == PROOF_WIN ? turn : !turn), plies);
}

static void solve_json(const struct game *g, const struct negamax_result *r,
		       const struct negamax_move *mv, int count, int nbest, int threads)
{
	struct json j;
	char name[8];

	json_init(&j, stdout);
	json_object_begin(&j);
	json_bool_field(&j, "stopped", r->stopped);
	if (r->exact) {
		json_string_field(&j, "value", game_proof_name(r->value));
		json_int_field(&j, "plies", r->plies);
	}
	json_key(&j, "best");
	json_array_begin(&j);
	for (int i = 0; i < nbest; i++)
		json_string(&j, game_move_name(g, mv[i].move, name));
	json_array_end(&j);
	json_key(&j, "moves");
	json_array_begin(&j);
	for (int i = 0; i < count && mv[i].value != PROOF_NONE; i++) {
		json_object_begin(&j);
		json_string_field(&j, "move", game_move_name(g, mv[i].move, name));
		json_string_field(&j, "value", game_proof_name(mv[i].value));
		json_int_field(&j, "plies", mv[i].plies);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "unsettled");
	json_array_begin(&j);
	for (int i = 0; i < count; i++)
		if (mv[i].value == PROOF_NONE)
			json_string(&j, game_move_name(g, mv[i].move, name));
	json_array_end(&j);
	json_uint_field(&j, "nodes", r->nodes);
	json_double_field(&j, "seconds", r->seconds);
	json_double_field(&j, "nodes_per_s", r->seconds > 0 ? (double)r->nodes / r->seconds : 0);
	json_int_field(&j, "threads", threads);
	json_object_end(&j);
}

static void solve_text(const struct game *g, int turn, const struct negamax_result *r,
		       const struct negamax_move *mv, int count, int nbest, int threads)
{
	char name[8];
	int unsettled = 0;

	if (r->exact) {
		printf("value: ");
		print_value(r->value, r->plies, turn);
		putchar('\n');
	}
	if (nbest > 0) {
		printf("best:");
		for (int i = 0; i < nbest; i++)
			printf(" %s", game_move_name(g, mv[i].move, name));
		printf("\nplies: %d\n", r->plies);
	}
	for (int i = 0; i < count; i++) {
		if (mv[i].value == PROOF_NONE) {
			unsettled++;
			continue;
		}
		printf("%-4s ", game_move_name(g, mv[i].move, name));
		print_value(mv[i].value, mv[i].plies, turn);
		putchar('\n');
	}
	if (unsettled > 0) {
		printf("not settled (%d):", unsettled);
		for (int i = 0; i < count; i++)
			if (mv[i].value == PROOF_NONE)
				printf(" %s", game_move_name(g, mv[i].move, name));
		putchar('\n');
	}
	printf("nodes: %llu\nseconds: %.3f\nnodes/s: %.0f\nthreads: %d\n",
	       (unsigned long long)r->nodes, r->seconds,
	       r->seconds > 0 ? (double)r->nodes / r->seconds : 0, threads);
}

static int cmd_solve(struct options *opt)
{
	struct negamax_params params = { 0, 0, (size_t)256 << 20, pool_cores() };
	struct negamax_result r;
	struct negamax_move mv[GAME_MAX_MOVES];
	struct negamax *n;
	int nbest, count;

	if (opt->nthreads > 1) {
		fprintf(stderr, "noughts: solve: --threads takes one count from 1 to %d, not a list\n",
			NEGAMAX_MAX_THREADS);
		return 2;
	}
	if (opt->nthreads == 1)
		params.threads = opt->threads[0];
	if (refuse_finished(opt))
		return 1;
	catch_stop_signals();
	n = negamax_new(&opt->game, &params);
	nbest = negamax_solve_moves(n, &opt->pos, &stop_requested,
				    opt->json ? NULL : solve_progress, NULL, &r, mv, &count);
	negamax_free(n);
	if (nbest < 0) {
		fprintf(stderr, "noughts: solve: stopped after %.1f s at depth %d (%llu nodes); %s\n",
			r.seconds, r.depth, (unsigned long long)r.nodes,
			r.exact ? "the moves not settled are listed as such"
				: "the position's value is not known");
		nbest = 0;
	}
	if (opt->json)
		solve_json(&opt->game, &r, mv, count, nbest, params.threads);
	else
		solve_text(&opt->game, opt->pos.turn, &r, mv, count, nbest, params.threads);
	return r.stopped ? 1 : 0;
}

/* --- dispatch ---------------------------------------------------------- */

static const struct command {
	const char *name;
	int (*run)(struct options *opt);
	unsigned accepted;
	unsigned default_rules;
	bool no_args;              /* takes no words besides the options */
	const char *synopsis;
	const char *summary;
} commands[] = {
	{ "play", cmd_play,
	  OPT_GAME | OPT_MOVES | OPT_PLAYERS | OPT_LEVEL | OPT_RECORD | OPT_LOAD | OPT_DELAY, 0, true,
	  "[--game G] [--x PLAYER] [--o PLAYER] [--level N] [--moves M] [--ascii]\n"
	  "                    [--record FILE] [--load FILE] [--delay MS]",
	  "open the game screen (the default command)" },
	{ "show", cmd_show, OPT_GAME | OPT_MOVES | OPT_JSON, 0, true, "[--game G] [--moves M] [--json]",
	  "print a position, the side to move and the legal moves" },
	{ "analyze", cmd_analyze, OPT_GAME | OPT_MOVES | OPT_JSON | OPT_ENGINE | OPT_LEVEL, 0, true,
	  "[--game G] [--moves M] [--engine PLAYER] [--level N] [--json]",
	  "search a position and print the engine's statistics" },
	{ "solve", cmd_solve, OPT_GAME | OPT_MOVES | OPT_JSON | OPT_THREADS, 0, true,
	  "[--game G] [--moves M] [--threads N] [--json]",
	  "the exact value of a position, its best moves and plies to the end" },
	{ "perft", cmd_perft, OPT_GAME | OPT_MOVES | OPT_JSON, 0, false, "DEPTH [--game G] [--moves M] [--json]",
	  "count the move sequences of 1..DEPTH plies" },
	{ "bench", cmd_bench, OPT_GAME | OPT_MOVES | OPT_JSON | OPT_SECONDS | OPT_THREADS | OPT_ROUNDS,
	  0, true, "[--game G] [--moves M] [--seconds S] [--threads N,N,... [--rounds R]] [--json]",
	  "measure perft, playouts and MCTS iterations per second" },
	{ "match", cmd_match, OPT_GAME | OPT_MOVES | OPT_JSON | OPT_GAMES | OPT_LEVEL | OPT_RECORD | OPT_SPRT,
	  0, false, "PLAYER_A PLAYER_B [--game G] [--games N] [--seed S] [--level N] [--sprt E0,E1]\n"
	  "                    [--record DIR] [--json]",
	  "play engine against engine and report the score and Elo" },
	{ "review", cmd_review, OPT_GAME | OPT_MOVES | OPT_JSON | OPT_ENGINE | OPT_LEVEL | OPT_THRESHOLD, 0,
	  false, "[FILE | --game G --moves M] [--engine PLAYER] [--threshold T] [--json]",
	  "analyse every ply of a game and find the mistakes" },
	{ "selfplay", cmd_selfplay, OPT_GAME | OPT_MOVES | OPT_ENGINE | OPT_GAMES | OPT_CHILDREN | OPT_LABEL,
	  0, true, "[--game G] [--engine PLAYER] [--games N] [--seed S] [--moves M] [--children V] [--visits]\n"
	  "                    [--label PLAYER] > FILE",
	  "play an engine against itself and write positions for training" },
	{ "bot", cmd_bot, OPT_GAME | OPT_ENGINE | OPT_LEVEL | OPT_DEADLINE, RULE_TIEBREAK, true,
	  "[--game G] [--engine PLAYER] [--level N] [--tiebreak|--no-tiebreak]\n"
	  "                    [--deadline MS[,FIRST]] [--overhead MS]",
	  "play CodinGame's tic-tac-toe protocol on stdin and stdout" },
};

static void usage(void)
{
	puts("Usage: noughts [COMMAND] [OPTIONS]\n"
	     "Noughts and crosses, m,n,k games and Ultimate tic-tac-toe, against a Monte Carlo\n"
	     "Tree Search you can watch think.\n\nCommands:");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		printf("  %-8s  %s\n", commands[i].name, commands[i].summary);
	puts("\nWith no command, noughts opens the game screen (noughts play).\n"
	     "'noughts COMMAND --help' lists a command's options; 'man 6 noughts' tells all.\n"
	     "  --version  print the version and exit\n  --help     print this help and exit");
}

/* misplaced_command: true, with the message printed, when a command word
 * follows the options ("noughts --game uttt analyze"): the command comes
 * first. A word after --record or --load is a file name, not a command. */
static bool misplaced_command(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i - 1], "--record") == 0 || strcmp(argv[i - 1], "--load") == 0)
			continue;
		for (size_t c = 0; c < ARRAY_SIZE(commands); c++)
			if (strcmp(argv[i], commands[c].name) == 0) {
				fprintf(stderr, "noughts: the command comes first: 'noughts %s [OPTIONS]', "
					"not after the options\n", argv[i]);
				return true;
			}
	}
	return false;
}

/* Is ARG the long option WORD ("--version"), or a prefix of it down to
 * "--" and a letter, as getopt_long takes the command's options? */
static bool long_word(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n >= 3 && n <= strlen(word) && strncmp(arg, word, n) == 0;
}

int commands_main(int argc, char **argv)
{
	const struct command *cmd = &commands[0];
	struct options opt;
	int rc;

	if (argc >= 2 && long_word(argv[1], "--version")) {
		if (argc > 2) {
			fprintf(stderr, "noughts: --version takes nothing after it, not '%s'\n",
				shown(argv[2]));
			return 2;
		}
		printf("noughts %s\nCopyright (c) 2026 the noughts developers. MIT licence: "
		       "see COPYING.\n", PACKAGE_VERSION);
		return 0;
	}
	if (argc >= 2 && (long_word(argv[1], "--help") || strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "help") == 0)) {
		/* ("help help": what help gives) */
		if (argc == 2 || (argc == 3 && strcmp(argv[1], "help") == 0 &&
				  strcmp(argv[2], "help") == 0)) {
			usage();
			return 0;
		}
		if (strcmp(argv[1], "help") != 0 || argc > 3) {
			fprintf(stderr, "noughts: %s takes %s, not '%s'\n", argv[1],
				strcmp(argv[1], "help") == 0 ? "at most one command word" :
				"nothing after it",
				shown(argv[argc > 3 && strcmp(argv[1], "help") == 0 ? 3 : 2]));
			return 2;
		}
		/* "noughts help solve" is "noughts solve --help" */
		static char help_option[] = "--help";

		argv[1] = argv[2];
		argv[2] = help_option;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		cmd = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				cmd = &commands[i];
		if (cmd == NULL) {
			fprintf(stderr, "noughts: unknown command '%s' (commands:", shown(argv[1]));
			for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
				fprintf(stderr, "%s %s", i > 0 ? "," : "", commands[i].name);
			fprintf(stderr, "; see 'noughts --help')\n");
			return 2;
		}
		argc--;
		argv++;
	}
	if (cmd == &commands[0] && misplaced_command(argc, argv))
		return 2;
	/* The screen and analyze search on every core unless told otherwise;
	 * bot (CodinGame gives one core) and match (fair and reproducible)
	 * keep one. */
	if (strcmp(cmd->name, "play") == 0 || strcmp(cmd->name, "analyze") == 0)
		player_set_threads_default(pool_cores());
	rc = options_parse(&opt, cmd->name, cmd->accepted, cmd->default_rules, argc, argv);
	if (rc < 0) {
		printf("Usage: noughts %s %s\n%c%s.\n\n", cmd->name, cmd->synopsis,
		       toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
		options_usage(cmd->name, cmd->accepted);
		return 0;
	}
	if (rc != 0)
		return rc;
	if (cmd->no_args && opt.argc != 0) {
		fprintf(stderr, "noughts: %s: unexpected argument '%s'\n", cmd->name,
			shown(opt.argv[0]));
		return 2;
	}
	return cmd->run(&opt);
}
