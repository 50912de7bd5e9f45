/* commands.h - the command words of noughts and their dispatch
 * (commands.c), and what the files of the commands share: commands.c has
 * the single-position commands, commands-bench.c the benchmark,
 * commands-bot.c the CodinGame bot, commands-games.c those that play or
 * replay whole games. */
#ifndef NOUGHTS_COMMANDS_H
#define NOUGHTS_COMMANDS_H

#include <stdatomic.h>
#include <stdint.h>

struct options;
struct player_spec;

/* Run noughts with the program's arguments; returns the exit status:
 * 0 success, 1 failure or interruption, 2 a usage error. */
int commands_main(int argc, char **argv);

/* Set to the signal's number by SIGINT, SIGTERM or SIGHUP once
 * catch_stop_signals() was called: the long commands stop and print what
 * they have. */
extern atomic_int stop_requested;
void catch_stop_signals(void);

/* "X" or "O" for enum side SIDE. */
const char *side_name(int side);

/* For a position where the game is over: prints the one-line error and
 * returns 1; else returns 0. */
int refuse_finished(const struct options *opt);
/* For SPEC, the player of option WHAT, that is not mcts: prints the
 * one-line error (the command needs its search, for the reason WHY) and
 * returns 2; else returns 0. */
int refuse_not_mcts(const struct options *opt, const char *what, const struct player_spec *spec,
		    const char *why);

/* Give SPEC a seed derived from BASE, the game's number GAME and WHO (0 or
 * 1) unless it has its own, so every game of a match differs and can be
 * replayed. */
void seed_spec(struct player_spec *spec, uint64_t base, int game, int who);

/* The commands of commands-bench.c and commands-bot.c, and those of
 * commands-games.c; each returns the exit status. */
int cmd_bench(struct options *opt);
int cmd_bot(struct options *opt);
int cmd_match(struct options *opt);
int cmd_selfplay(struct options *opt);
int cmd_review(struct options *opt);

#endif
