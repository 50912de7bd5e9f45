/* commands.h - the command words of noughts (play, show, analyze, solve,
 * perft, bench, match) and their dispatch. */
#ifndef NOUGHTS_COMMANDS_H
#define NOUGHTS_COMMANDS_H

/* Run noughts with the program's arguments; returns the exit status:
 * 0 success, 1 failure or interruption, 2 a usage error. */
int commands_main(int argc, char **argv);

#endif
