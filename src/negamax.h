/* negamax.h - alpha-beta negamax with a transposition table, move ordering,
 * iterative deepening and (on m,n,k boards) symmetry reduction.
 *
 * Scores are from the side to move: a win is NEGAMAX_WIN minus the plies to
 * it, so faster wins and slower losses score better; a draw is 0; a
 * position cut off by the depth limit gets the game's heuristic evaluation,
 * which stays inside +-GAME_EVAL_MAX. */
#ifndef NOUGHTS_NEGAMAX_H
#define NOUGHTS_NEGAMAX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define NEGAMAX_WIN 100000
#define NEGAMAX_DEFAULT_TT_MB 64
#define NEGAMAX_MAX_THREADS 256

/* A score this far from zero or more is a proven win or loss. */
static inline bool negamax_is_mate(int score)
{
	return score >= NEGAMAX_WIN - GAME_MAX_PLIES - 1 || score <= -(NEGAMAX_WIN - GAME_MAX_PLIES - 1);
}

struct negamax_params {
	int depth;        /* most plies to search, 0 for no limit */
	int time_ms;      /* wall-clock budget, 0 for none */
	size_t tt_bytes;  /* transposition table size */
	int threads;      /* threads searching, 1 to NEGAMAX_MAX_THREADS (0: 1);
	                     with more than one the answers are the same, the
	                     node counts and the choice among equal moves vary */
};

struct negamax_result {
	int best;            /* best move found, MOVE_NONE when there is none */
	int score;           /* score of the best move, side to move's view */
	int depth;           /* deepest completed iteration */
	bool exact;          /* the score is the game-theoretic value */
	int value;           /* if exact: enum proof for the side to move, else
	                        PROOF_NONE */
	int plies;           /* if exact: plies to the end under best play */
	uint64_t nodes;      /* positions searched */
	double seconds;
	bool stopped;        /* interrupted by *stop or the clock */
};

struct negamax;

/* A root move as the search under way has scored it. With alpha-beta only
 * the best move gets an exact score; the others get a bound. */
struct negamax_root_move {
	int move;
	int score;   /* side to move's view */
	int bound;   /* 0 exact, -1 at most score (no better than the best) */
	bool proven; /* the score (or bound) is a game-theoretic fact */
	int depth;   /* the iteration that scored it */
};

/* What a search shows while it runs, for a screen. */
struct negamax_live {
	bool running;
	int depth;                /* deepest completed iteration, 0 for none */
	int searching;            /* the iteration under way */
	uint64_t nodes;           /* so far, counted every few thousand */
	double seconds;
	size_t tt_used, tt_size;  /* slots of the transposition table */
	int best, score;          /* of the deepest completed iteration */
	bool exact;
	int value, plies;         /* as in struct negamax_result */
	int pv_len;               /* principal variation from the table */
	uint8_t pv[GAME_MAX_PLIES];
	int n;                    /* root moves scored, in the order searched */
	struct negamax_root_move root[GAME_MAX_MOVES];
};

/* A searcher for game G with its own transposition table, and its
 * threads (started now; fatal() when one cannot be). */
struct negamax *negamax_new(const struct game *g, const struct negamax_params *p);
void negamax_free(struct negamax *n);

/* Threads the searches of N run on. */
int negamax_threads(const struct negamax *n);

/* *STOP set to NEGAMAX_HOLD holds a search: every thread waits, its clock
 * stopped, until *STOP changes (back to 0 to go on, or to a stop). A player
 * holds its search between the slices it is given, so a paused screen
 * pauses negamax as it does MCTS. */
#define NEGAMAX_HOLD (-1)

/* Iterative deepening from POS until solved, the depth limit, the time
 * budget, or *STOP (if not NULL) becomes non-zero and not NEGAMAX_HOLD (an
 * atomic, so another thread or a signal handler may set it). After each completed
 * depth, calls PROGRESS (if not NULL) with the result so far. Fills OUT with
 * the last completed iteration. */
void negamax_search(struct negamax *n, const struct pos *pos, atomic_int *stop,
		    void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		    struct negamax_result *out);

/* Copy what the search under way shows (or the last one showed) into OUT.
 * Safe from any thread while negamax_search() runs on another. */
void negamax_live(struct negamax *n, struct negamax_live *out);

/* Solve POS exactly (no depth or time limit besides *STOP), and list in BEST
 * (room for GAME_MAX_MOVES) every move that keeps the value; returns their
 * number, or -1 if stopped before the value was known. */
int negamax_best_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
		       void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		       struct negamax_result *out, uint8_t *best);

/* One root move of a tablebase: its game-theoretic value and distance. */
struct negamax_move {
	int move;
	int value;  /* enum proof for the side making the move; PROOF_NONE when
	               the search stopped before settling it */
	int plies;  /* plies to the end under best play, counting the move
	               (for a draw, along the principal line); -1 if unsettled */
	int score;  /* negamax score of the move for its side, mate distance
	               counted from POS; higher is better */
};

/* Solve POS (not over) and every one of its moves exactly, like a
 * tablebase, within the time_ms of N's parameters (0: no limit): OUT as negamax_search() leaves it, the root's value and
 * distance; MOVES (room for GAME_MAX_MOVES) gets every legal move, the
 * settled ones first, best first (a quicker win, a slower loss), and *COUNT
 * their number. Returns how many moves are best (the first ones: the best
 * value, soonest to a win or latest to a loss), or -1 when *STOP or the
 * clock stopped it first: then OUT->stopped is set, OUT->exact says whether the root's value
 * was known, and the moves settled so far carry their values. */
int negamax_solve_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
			void (*progress)(const struct negamax_result *r, void *arg), void *arg,
			struct negamax_result *out, struct negamax_move *moves, int *count);

#endif
