/* bot.h - the CodinGame tic-tac-toe protocol, one input line at a time.
 *
 * Each turn the referee sends the opponent's last move "row col" ("-1 -1"
 * on the first turn when the bot plays first), the number of valid actions,
 * and that many lines "row col"; the bot answers one line "row col". Rows
 * and columns count from 0 on the whole grid (0..8 for uttt, 0..2 for ttt).
 * The bot checks every line against its own rules and keeps its search tree
 * between turns. */
#ifndef NOUGHTS_BOT_H
#define NOUGHTS_BOT_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "player.h"

#define BOT_FIRST_TURN_MS 1000 /* CodinGame's limits */
#define BOT_TURN_MS 100
/* The default deadline of a later turn, counted from the moment its first
 * line came (the bot counts a wait for a processor before it could read
 * it): 90% of the limit. The first turn's is ten times as long, as
 * CodinGame's limits are. What is left covers the pipe, the scheduler
 * keeping the bot off the processor at its deadline, and the overshoot of
 * the last look at the clock (well under a millisecond); the search
 * itself stops BOT_OVERHEAD_MS sooner. */
#define BOT_DEADLINE_MS 90
/* The search stops this long before the deadline (--overhead): a
 * reserve for a stall of the machine in its last moments (a virtual
 * machine's processor taken by its host for 2 to 5 ms, measured here), as
 * a chess engine's move overhead is. */
#define BOT_OVERHEAD_MS 3
/* A turn in which other programs keep the bot waiting for a CPU is
 * answered that much before its deadline, up to BOT_CONTENDED_MAX_MS; the
 * bot looks every BOT_SLICE_NS of thinking. */
#define BOT_CONTENDED_MAX_MS 10
#define BOT_SLICE_NS 5000000u
#define BOT_DEADLINE_MAX_MS 100000

enum bot_status { BOT_MORE = 0, BOT_ANSWER = 1, BOT_ERROR = -1 };

struct bot;

/* A bot for game G (which must outlive it) playing with SPEC. An engine
 * given no budget thinks until the turn's deadline; one given a budget uses
 * it, but never beyond the deadline. */
struct bot *bot_new(const struct game *g, const struct player_spec *spec);
void bot_free(struct bot *b);

/* Answer each later turn MS milliseconds (1 to BOT_DEADLINE_MAX_MS) after
 * its first line came, and the first turn FIRST_MS after (default
 * BOT_DEADLINE_MS and ten times that). */
void bot_set_deadline(struct bot *b, int ms, int first_ms);

/* Stop thinking MS milliseconds (0 to BOT_DEADLINE_MAX_MS) before each
 * deadline (default BOT_OVERHEAD_MS), but never more than half a turn. */
void bot_set_overhead(struct bot *b, int ms);

/* The shorter of B's deadlines (a later turn's and the first's), in ms. */
int bot_shorter_deadline_ms(const struct bot *b);

/* An answer's guard: a caller that can give the answer from another
 * thread at the deadline, should the machine keep the bot from the
 * processor past it (a virtual machine's host may, for milliseconds).
 * While a search thinks, the bot calls OFFER(ARG, TEXT, DUE, false) with
 * the answer it would give now (TEXT, "row col") and the turn's deadline
 * DUE on now_ns()'s clock: before it thinks and after each slice. OFFER
 * returns true if it took the offer, false once it has given the last
 * answer it took: the bot then plays that move and its search stops. When
 * the bot is done it calls OFFER(ARG, TEXT, DUE, true) with its answer:
 * true if the answer is the caller's to give, false if the guard gave the
 * last one taken, which is then the answer bot_feed() returns. */
typedef bool (*bot_offer_fn)(void *arg, const char *text, uint64_t due, bool final);
void bot_set_guard(struct bot *b, bot_offer_fn offer, void *arg);

/* Feed the next input line (without its newline). Returns BOT_MORE when the
 * turn needs more lines; BOT_ANSWER with the answer in OUT (no newline);
 * BOT_ERROR with "line N: what was wrong" in ERR. After an error the bot
 * must not be fed again. */
int bot_feed(struct bot *b, const char *line, char *out, size_t outsize, char *err,
	     size_t errsize);

/* Do the work an answer leaves behind (moving the search tree to the new
 * root, and giving back the subtrees this move and the opponent's last one
 * discarded), which can take milliseconds and so is better done once the
 * answer is out, while the opponent thinks. bot_feed() moves the tree
 * itself if it was not done. */
void bot_idle(struct bot *b);

/* Between turns, while the opponent thinks: bot_idle(), then fault in
 * memory for the next searches (bot_prefault()) a step at a time, up to
 * BOT_IDLE_PREFAULT, until INPUT_WAITING(ARG) says the next turn's first
 * line has come. The turn is counted from the start of the work the line
 * waited for: the tree's move, or one step; or, when the answer went out
 * before the bot's thread got here (ANSWERED, now_ns()'s time when the
 * guard wrote it; 0 if the bot did), from then. */
#define BOT_IDLE_PREFAULT ((size_t)16 << 20)
void bot_between_turns(struct bot *b, uint64_t answered, bool (*input_waiting)(void *),
		       void *arg);

/* When the turn being read began, on now_ns()'s clock (0 before the first
 * line of a turn): what its deadline counts from. */
uint64_t bot_turn_start(const struct bot *b);

/* Count the next turn's time from T (a now_ns() reading) rather than from
 * the reading of its first line: for a caller that was busy (bot_idle) when
 * the line may have arrived. */
void bot_clock_from(struct bot *b, uint64_t t);

/* When this process began, on now_ns()'s clock: for a caller whose first
 * turn's input may have come meanwhile, as a referee writes it as soon as
 * it has started the bot. (Linux's start time of the process, in ticks of
 * 10 ms or less, rounded down; now where the system does not say.) */
uint64_t bot_process_began(void);

/* Is the bot in the middle of a turn (some lines of it read)? */
bool bot_mid_turn(const struct bot *b);

/* Fault in BOT_PREFAULT_STEP more of the search's memory ahead of its use
 * (mcts_prefault()): for a caller with time between turns, as the first
 * turn does before it thinks. No further than BOT_PREFAULT_FIRST past
 * what the tree has taken before the first search (which takes some tens
 * of MiB), BOT_PREFAULT_AHEAD after (a turn takes a few, and the tree's
 * move frees more), since a host that backs its guest's memory lazily
 * takes back what the process leaves, and stalls what runs then. False
 * when there is nothing (left) to do: all is resident that far, or the
 * engine has a budget of its own and so does not think to the deadline. */
#define BOT_PREFAULT_STEP ((size_t)2 << 20)
#define BOT_PREFAULT_FIRST ((size_t)128 << 20)
#define BOT_PREFAULT_AHEAD ((size_t)32 << 20)
bool bot_prefault(struct bot *b);

#endif
