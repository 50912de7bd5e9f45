/* negamax-int.h - what the two halves of the negamax engine share, and
 * nothing else includes: negamax.c searches one position (alpha-beta, the
 * table, the rules of k-in-a-row), negamax-run.c drives searches
 * (iterative deepening, the threads, proving root moves, the live view).
 *
 * Threads (lazy SMP): every thread of a search runs its own alpha-beta
 * from the same root on the one transposition table (ttable.h, no lock),
 * with its own node count, history and root move; what the others store
 * there makes each thread's search cheaper. Thread 0, the caller's, is the
 * one whose iterations are reported; the others only fill the table. So
 * answers stay exact: every entry a thread stores is as true as if thread
 * 0 had stored it. Settling every root move (negamax_solve_moves()) shares
 * the moves instead: while thread 0 deepens, the others each settle a move
 * to the end, and any thread's proven value of a move is its value. */
#ifndef NOUGHTS_NEGAMAX_INT_H
#define NOUGHTS_NEGAMAX_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "negamax.h"

#define NM_INF (NEGAMAX_WIN + 1)
/* |score| at least this: a win or loss (negamax_is_mate) */
#define NM_MATE (NEGAMAX_WIN - GAME_MAX_PLIES - 1)
#define NM_CHECK_EVERY 4096 /* nodes between looks at the clock and *stop */
#define NM_MAX_WINDOWS GAME_MAX_LINES
#define NM_DRAFT_MAX 250

/* Bound bits of a table entry (both set: an exact score), whether the
 * bound is proven, and whether unproven leaves scored 0 (a solve) rather
 * than the heuristic, so that the two kinds of estimate do not mix. */
enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3, TT_PROVEN = 4, TT_SOLVING = 8 };

/* A position on the search path with what the engine keeps beside it. */
struct nm_node {
	struct pos pos;
	uint64_t bb[2];           /* m,n,k: stones of X and O, bit = move id */
	uint64_t h[GAME_MAX_SYM]; /* hash of the position seen through each symmetry */
};

/* What each thread of a search keeps for itself. */
struct nm_thread {
	struct negamax *n;
	int index;          /* 0: the caller's, whose iterations are reported */
	uint64_t nodes, next_check;
	uint64_t counted;   /* of the nodes, those added to n->nodes_all */
	uint64_t filled;    /* (atomic) table slots this thread found empty
	                       and filled, over the table's life */
	bool aborted;       /* stopped: *stop, the clock, or thread 0 done */
	const int *watch;   /* (atomic) when it turns non-zero, the search under
	                       way is called off (NULL: none) */
	bool cancelled;     /* aborted by *watch, not stopped: go on after */
	int rotate_ply;     /* at this ply the moves start rotate_by places on: */
	int rotate_by;      /* threads sharing a search begin with other moves */
	uint64_t held_ns;   /* time spent held (NEGAMAX_HOLD): off the clock */
	int root_best;      /* best root move of the iteration under way */
	uint32_t history[2][GAME_MAX_CELLS];
	char pad[64];       /* (no false sharing with the next thread) */
};

struct nm_job;

struct negamax {
	const struct game *g;
	struct negamax_params params;
	bool mnk;           /* k-in-a-row rules and symmetry apply */
	int nsym;           /* symmetries hashed: 1 for Ultimate tic-tac-toe */
	uint8_t inv[GAME_MAX_SYM][GAME_MAX_CELLS]; /* inverse of g->sym */

	/* m,n,k windows of K cells as masks of move-id bits */
	int nwin;
	uint64_t win[NM_MAX_WINDOWS];
	uint64_t full;      /* every move id of the board */

	struct ttable *tt;
	uint8_t gen;        /* bumped by each search: older entries give way */

	/* The search under way: set before its threads start, then read. */
	uint64_t deadline;  /* now_ns() past which to stop, 0 for none */
	atomic_int *stop;
	bool solving;       /* leaves cut off by depth score 0, not the heuristic */
	uint64_t start_ns;
	int threads;
	struct nm_thread *th;  /* th[0] runs on the caller's thread */
	struct pool *pool;     /* the other threads; NULL with one */
	struct nm_job *job;    /* what the threads do in the run under way */
	int done;              /* (atomic) thread 0 has finished: stop */
	int main_depth;        /* (atomic) thread 0's iteration */
	uint64_t nodes_all;    /* (atomic) nodes of every thread, added as counted */

	/* What the search shows while it runs: written by thread 0 at the
	 * root and every NM_CHECK_EVERY nodes, read by others
	 * (negamax_live), under live_lock. */
	pthread_mutex_t live_lock;
	struct negamax_live live;
};

/* negamax.c: the rules' part of negamax_new() (windows, symmetries). */
void nm_rules_init(struct negamax *n);

/* negamax.c: search ND, PLY plies below the root, DEPTH plies deep with
 * the window ALPHA, BETA, on thread T. Returns a fail-soft score and sets
 * *PROVEN when the bound it claims holds for the game-theoretic value;
 * returns 0 with T->aborted set when stopped. ND is not over. */
int nm_search(struct nm_thread *t, const struct nm_node *nd, int depth, int ply, int alpha,
	      int beta, bool *proven);

/* negamax.c: CHILD is PARENT after MOVE; ND the search's node of POS. */
void nm_play(const struct negamax *n, const struct nm_node *parent, int move, struct nm_node *child);
void nm_root_node(const struct negamax *n, const struct pos *pos, struct nm_node *nd);

/* negamax.c: score, for the side to move before it, of the finished game
 * P reached PLY plies from the root. */
int nm_terminal(const struct pos *p, int ply);

/* negamax.c: the table key of ND (the least hash over the symmetries);
 * *SYM the symmetry that gives it. */
uint64_t nm_key(const struct negamax *n, const struct nm_node *nd, int *sym);

/* negamax.c: the table's best move for ND (MOVE_NONE: none). */
int nm_table_move(const struct negamax *n, const struct nm_node *nd);

/* negamax-run.c: look at the clock, *stop, thread 0's end and T->watch,
 * and count T's nodes; nm_search() calls it every NM_CHECK_EVERY nodes. */
void nm_poll(struct nm_thread *t);

/* negamax-run.c: thread T's score S for root MOVE in the iteration DEPTH:
 * exact when it rose above the window's lower edge A (or was searched
 * with the full window, FIRST), else an upper bound. Only thread 0's are
 * shown. */
void nm_live_root(struct nm_thread *t, int move, int s, int a, bool first, bool proven, int depth);

#endif
