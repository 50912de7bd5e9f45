/* mcts-node.h - the inside of the MCTS module, shared by its files (mcts.c:
 * the tree and an iteration; mcts-run.c: the search's life and threads;
 * mcts-choose.c: the move to play and the statistics; mcts-arena.c,
 * mcts-bounds.c, mcts-root.c, mcts-pipe.c): nodes, their score bounds,
 * the search's state, and the small helpers the hot loops inline. Not for
 * other modules: they use mcts.h. See mcts.c for how the solver works. */
#ifndef NOUGHTS_MCTS_NODE_H
#define NOUGHTS_MCTS_NODE_H

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "mcts.h"
#include "util.h"

enum {
	NODE_FULL = 1 << 0,     /* every legal move has a child */
	NODE_TERMINAL = 1 << 1, /* the game is over in this node's position */
	NODE_BUSY = 1 << 2,     /* locked by a thread expanding or updating it */
	/* (order=net) its block of children was ordered when made: each slot
	 * not yet a child holds its move and, in `draws`, the evaluator's
	 * value of its position for X in 1/65536 (order_block()) */
	NODE_ORDERED = 1 << 7,
	/* Bits 3-6: the outcomes of the bounds (X's worst, X's best), kept
	 * beside them so that the selection loop tests them with one mask. */
};
#define OUTCOMES_MASK (15 << 3)

/* Threads. With threads=1 one thread runs the search as it always did, so
 * a seed fixes it. With more, every worker walks the one tree: node
 * statistics, bounds, flags and child links are read and written through
 * these relaxed atomics (each is a counter or a flag on its own; the two
 * orders that matter, a child before its parent's NODE_FULL and a node's
 * fields before the link to it, are release stores and acquire loads).
 * On x86 a relaxed load or store is a plain move, so the one-thread search
 * pays nothing for them. A node is locked (NODE_BUSY) only to add a child
 * or to recompute its bounds; a worker that finds it locked plays out from
 * it instead of waiting. Virtual loss: a worker counts its visit on the
 * way down as a loss for the side that chose each node (for O, an X win
 * that the backup takes back), so the workers spread over the tree. */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define LOAD_ACQ(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE_REL(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define ADD(x, v) __atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)

/* Outcomes from some side's view, ordered. */
enum { LOST = 0, DRAWN = 1, WON = 2 };

/* Scores, one byte, from some side's view: a loss in n plies is n + 1, a
 * draw SCORE_DRAW, a win in n plies 255 - n (n <= 126 > GAME_MAX_PLIES). So
 * the other side's view of S is 256 - S, and higher is better. */
enum { SCORE_DRAW = 128, SCORE_MIN = 1, SCORE_MAX = 255 };

static inline int score_win(int plies)
{
	return SCORE_MAX - plies;
}

static inline int score_loss(int plies)
{
	return SCORE_MIN + plies;
}

static inline int score_flip(int s)
{
	return 256 - s;
}

static inline int score_outcome(int s)
{
	return s < SCORE_DRAW ? LOST : s > SCORE_DRAW ? WON : DRAWN;
}

/* Plies to the end of a win or loss; 0 for a draw. */
static inline int score_plies(int s)
{
	return s > SCORE_DRAW ? SCORE_MAX - s : s < SCORE_DRAW ? s - SCORE_MIN : 0;
}

/* The score of a child S seen from its parent: the same outcome, one ply
 * further away. */
static inline int score_back(int s)
{
	return s > SCORE_DRAW ? s - 1 : s < SCORE_DRAW ? s + 1 : s;
}

/* Bounds: two scores from X's view in one 16-bit word, the worst in the
 * low byte and the best in the high one, so that a worker reads and writes
 * both at once. A node in play about which nothing is known yet has
 * [loss in 2, win in 1] from its mover's view: a move never loses the game
 * for the side that makes it (a stone only completes its own side's
 * lines), and a child in play then leaves its parent's worst as it was. */
#define BOUNDS(lo_x, hi_x) ((uint16_t)((lo_x) | (hi_x) << 8))
#define OPEN_BOUNDS_X BOUNDS(3, 254) /* X to move */
#define OPEN_BOUNDS_O BOUNDS(2, 253) /* O to move */
/* Under a rule where a move can lose for its maker (--tiebreak: the move
 * that fills the board may leave the other side with more small boards),
 * only [loss in 1, win in 1] is known. */
#define OPEN_BOUNDS_ANY BOUNDS(2, 254)
/* The outcome bits of bounds that still allow both a loss and a win. */
#define OPEN_OUTCOMES ((LOST | WON << 2) << 3)


struct node {
	union {
		struct {
			uint32_t visits; /* playouts through this node */
			uint32_t x_wins; /* of them won by X */
		};
		uint64_t vx;     /* the two, for one atomic add: VX() */
	};
	uint32_t draws;
	uint32_t child;   /* the block of its children (mcts-arena.c), 0 for none */
	uint8_t nkids;    /* children made: child .. child + nkids - 1, in order made */
	uint8_t cap;      /* slots in that block: the legal moves; 0 before the first */
	uint8_t move;     /* the move that led here */
	uint8_t flags;    /* NODE_* */
	uint16_t bounds;  /* score bounds from X's view, BOUNDS() (solver only) */
	uint16_t x_frac;  /* X's score beyond its wins and half its draws, in
	                   * 1/65536 of a result: leaf values (eval=net|mix)
	                   * add here, each carry of a whole one to x_wins */
};
_Static_assert(sizeof(struct node) == 24, "a node is 24 bytes");

/* What adds V visits and X wins to a node's `vx`. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define VX(v, x) ((uint64_t)(v) << 32 | (uint64_t)(x))
#else
#define VX(v, x) ((uint64_t)(v) | (uint64_t)(x) << 32)
#endif

/* The children of N: their block's first slot in *BASE, their number
 * returned. Walked newest first (k = count - 1 down to 0), the order ties
 * have always been broken in. (Threads: the count is published after the
 * child it counts is complete.) */
static inline int kids_of(const struct node *n, uint32_t *base)
{
	int k = __atomic_load_n(&n->nkids, __ATOMIC_ACQUIRE);

	*base = __atomic_load_n(&n->child, __ATOMIC_RELAXED);
	return k;
}

/* Exploration terms for small visit counts come from tables: the selection
 * loop would otherwise spend much of its time in log(), sqrt() and
 * division. */
#define SMALL 4096

extern double mcts_inv_table[SMALL];   /* 1 / n */
extern double mcts_inv16_table[SMALL]; /* 1 / n / 65536: a score in 1/65536 to a mean */
extern double mcts_rsqrt_table[SMALL]; /* 1 / sqrt(n) */
extern double mcts_sqlog_table[SMALL]; /* sqrt(ln n) */

/* Past the tables, sqrt(ln n) from a table by n's exponent e and the next
 * 8 bits of its mantissa, i: the value at the middle of the range of n
 * those give, n * (1 + 2^-9) at most away, so within 2^-9 / (2 sqrt(ln n)),
 * 6e-4 of sqrt(ln n) (tests/test-arena.c checks it). Computing it (log and
 * square root) sat on the selection's critical path, once a node visited
 * past the tables: 9% of a single-threaded search's time. */
#define SQLOG_BITS 8
#define SQLOG_FIRST 12 /* the exponent of SMALL */
_Static_assert(SMALL == 1 << SQLOG_FIRST, "the big table starts where the small ones end");
extern double mcts_sqlog_big[(32 - SQLOG_FIRST) << SQLOG_BITS];

static inline double sqlog_big(uint32_t n)
{
	int e = 31 - __builtin_clz(n);

	return mcts_sqlog_big[(e - SQLOG_FIRST) << SQLOG_BITS |
			      (int)(n >> (e - SQLOG_BITS) & ((1u << SQLOG_BITS) - 1))];
}

/* Discarded subtrees mcts_keep_discards() lets wait; one more is given
 * back at once. */
#define MCTS_DISCARDS 4

/* Iterations a worker claims from the budget at a time. */
#define BATCH 16

/* The terms of the root's children, kept by each worker (see root_select()
 * in mcts.c). */
struct root_cache {
	bool valid;      /* the root is fully expanded and these are current */
	int n, last;     /* children; the one selected last */
	int next;        /* (threads) the next entry to refresh */
	uint32_t epoch;  /* m->root_epoch when built */
	uint32_t idx[GAME_MAX_MOVES];
	double q[GAME_MAX_MOVES], rsqrt[GAME_MAX_MOVES]; /* child_terms() */
};

struct pipe;

/* Positions a worker has reached, by node: a direct-mapped cache that
 * line_step() (mcts.c) takes a node's position from rather than replaying
 * the moves to it when the worker's last path went elsewhere; with jobs in
 * flight (the pipeline) or other workers about, the paths part near the
 * root, and the replays were half the pipeline tree thread's plays.
 * Emptied when the root moves: freed slots are reused. */
#define POS_CACHE 256

/* What each thread of a search keeps for itself; merged into struct mcts
 * between runs. */
struct worker {
	_Alignas(64) struct rng rng; /* (a worker takes whole lines) */
	uint64_t iterations;  /* in this run */
	uint64_t allocated;   /* nodes added to the tree in this run */
	int max_depth;
	bool arena_full;
	uint32_t lo, hi;      /* its region of the arena: slots not yet handed out */
	uint64_t slots;       /* slots it put in blocks in this run */
	struct root_cache rc;
	/* Its last path from the root and the position at each of its nodes
	 * (line[i] at path[i], line_len of them valid): the next iteration
	 * replays moves only from where its path leaves this one. */
	int line_len;
	uint32_t path[GAME_MAX_PLIES + 1];
	struct pos line[GAME_MAX_PLIES + 1];
	struct {
		uint32_t node; /* 0: empty */
		struct pos pos;
	} known[POS_CACHE];
	/* (pipeline, worker 0) where iterate() writes the leaf's position for
	 * a player to play out, NULL to play it out itself */
	struct pos *slot;
	/* (pipeline, worker 0, eval=mix) the depth on this iteration's path
	 * of the node on its second visit, whose prior the job carries to
	 * whoever plays it out (none handed out: iterate() gives it); set by
	 * descend(), cleared where it is taken; 0: none (the root gets no
	 * prior) */
	int prior_depth;
	/* (order=net) the evaluator's value for X, in 1/65536, of the child
	 * expand() last made, which order_block() computed: leaf_result()
	 * takes it instead of asking again; NO_VALUE when none */
	uint32_t fresh_value;
	/* (pipeline, worker 0, eval=mix) the fresh_value of the leaf just
	 * handed out, for the job to blend with its playout: pipe_hold()
	 * takes it */
	uint32_t handed_value;
	/* (pipeline, worker 0, order=net) the node whose block this
	 * iteration's job orders (defer_order()), 0: none; set by expand(),
	 * cleared where it is taken */
	uint32_t order_node;
};
#define NO_VALUE UINT32_MAX

struct mcts {
	const struct game *g;
	struct mcts_params p;
	struct pos root_pos;
	uint32_t root;
	struct node *nodes;  /* the arena; slot 0 is never used */
	/* (eval=mix under order=net, else NULL) each slot's implicit minimax
	 * value for X, in 1/65535 of a result (MCTS_IMPLICIT_WEIGHT): a
	 * leaf's its network value (or its result), written for every slot
	 * of a block when it is ordered (mcts-order.c), a node's the best for its mover of its
	 * children's and its best slot's not yet a child (mcts.c, implicit_update()) */
	uint16_t *implicit;
	uint32_t capacity;   /* slots in the arena */
	uint32_t top;        /* first slot never handed out */
	uint32_t free_blocks[GAME_MAX_MOVES + 1]; /* blocks given back, by size */
	uint32_t free_runs;  /* runs of more free slots than a block has */
	uint64_t *free_bits; /* a bit a slot: free (on a list or in a run) */
	uint64_t slots;      /* slots in blocks of the tree */
	uint64_t in_use;     /* nodes in the tree */
	bool arena_full;
	int threads;
	struct worker *w;    /* one a thread; w[0] runs on the caller's */
	struct pool *pool;   /* NULL with one thread */
	bool shared;         /* workers write the tree at once (parallel=tree) */
	struct pipe *pipe;   /* parallel=pipeline: the jobs (mcts-pipe.c) */
	pthread_mutex_t alloc_lock; /* the free lists and top, with threads */
	int64_t budget;      /* iterations of this run not yet claimed */
	uint64_t deadline;   /* now_ns() at which this run stops, 0: none */
	int stop;            /* set by the worker that ends the run */
	uint32_t root_epoch; /* bumped when the root's bounds change */
	void *leaf_ctx;      /* the leaf evaluator's state about the root */
	/* Subtrees an advance discarded and has not given back yet, their old
	 * roots (mcts_keep_discards(), mcts_tidy()) */
	bool keep_discards;
	int ndiscards;
	uint32_t discards[MCTS_DISCARDS];
	uint64_t iterations; /* since mcts_new() or the last advance */
	uint64_t ns;         /* spent in mcts_step() over the same span */
	int max_depth;
};

/* The arena (mcts-arena.c). arena_init() makes CAPACITY slots. A block of
 * SIZE (1 to GAME_MAX_MOVES) slots for worker W: its first slot, or 0 when
 * the arena is full. arena_free_subtree() gives back the blocks under TOP,
 * TOP's own included, which must be a block of one (as every root is),
 * and joins adjacent free blocks; one thread only, no workers running.
 * arena_settle() folds W's count of slots into M. */
void arena_init(struct mcts *m, size_t capacity);
size_t free_bits_bytes(size_t capacity); /* the bitmap's size */
uint32_t arena_block(struct mcts *m, struct worker *w, int size);
void arena_free_subtree(struct mcts *m, uint32_t top);
void arena_settle(struct mcts *m, struct worker *w);
/* (the pipeline's first player, while it waits) Fault in the next pages of
 * the arena a little ahead of the top, so that the tree thread does not
 * stop to have them cleared; *DONE: the bytes faulted in so far, SIZE_MAX
 * where the system cannot. Returns whether there was any to do. */
bool arena_fault_ahead(struct mcts *m, size_t *done);

/* A playout handed to a player (see mcts-pipe.c): iterate() returns this
 * as its result and pipe_hold() keeps the path for the backup. */
#define RESULT_HANDED 4
/* (mcts-pipe.c) a job's result that is its leaf's value, which the job's
 * slot keeps */
#define RESULT_VALUE 5

/* eval=mix: does this leaf get the evaluator's value rather than a
 * playout (MCTS_MIX_NET percent of them, drawn from R)? */
static inline bool mcts_mix_net(struct rng *r)
{
	return rng_below(r, 100) < MCTS_MIX_NET;
}

/* An evaluator's value V for X as the search keeps it: in 1/65536 of a
 * result, to the nearest (lround() without the call), within 0..65536. */
static inline unsigned value16(double v)
{
	return v <= 0 ? 0 : v >= 1 ? 65536 : (unsigned)(v * 65536 + 0.5);
}

/* A leaf value Q (in 1/65536, X's) as leaf_result() backs it up: the
 * result returned, and *FRAC. */
static inline int value_result(unsigned q, unsigned *frac)
{
	*frac = q >= 65536 ? 0 : q;
	return q >= 65536 ? RESULT_X : RESULT_O;
}

/* eval=mix: a playout's result R blended with the evaluator's value KNOWN
 * of its leaf (for X, in 1/65536): MCTS_MIX_BLEND percent the value. The
 * result to back up, and *FRAC, as value_result(). */
static inline int blend_result(int r, uint32_t known, unsigned *frac)
{
	uint32_t p = r == RESULT_X ? 65536 : r == RESULT_O ? 0 : 32768;

	return value_result((MCTS_MIX_BLEND * known + (100 - MCTS_MIX_BLEND) * p) / 100, frac);
}

/* The search's steps, which mcts-run.c and the pipeline run (mcts.c): a
 * root node for MOVE whose position is POS, in a block of its own; one
 * iteration by W, recorded in T if not NULL; the end of an iteration:
 * the result R of the leaf at DEPTH of PATH backed up (FRAC and CHANGED
 * as leaf_result() and expand() gave them) and W's root cache entry
 * ROOT_J (-1: none) refreshed. */
uint32_t mcts_root_node(struct mcts *m, const struct pos *pos, int move);
void mcts_iterate(struct mcts *m, struct worker *w, struct mcts_trace *t);
void mcts_finish(struct mcts *m, struct worker *w, const uint32_t *path, int depth, int r,
		 unsigned frac, bool changed, int root_j);
/* (eval=mix) the leaf evaluator's value of POS for X, in 1/65536 (reads
 * its shared state only: any thread); Q given to NODE as its prior. */
unsigned mcts_leaf_value(struct mcts *m, const struct pos *pos);
/* (order=net) Write the COUNT legal moves of POS into the block at BASE,
 * best first with their values (NODE_ORDERED's slots); then, once they
 * are there for the tree's writer to read, mcts_order_done() marks node I
 * ordered. */
void mcts_order(struct mcts *m, const struct pos *pos, uint32_t base, int count);
/* The same for the COUNT legal moves LEGAL of POS, found already. */
void mcts_order_moves(struct mcts *m, const struct pos *pos, const struct moveset *legal,
		      uint32_t base, int count);
void mcts_order_done(struct mcts *m, uint32_t i);
void mcts_add_prior(struct mcts *m, uint32_t node, unsigned q);

/* The pipeline (mcts-pipe.c): pipe_new() for M's threads and seed, pipe_free();
 * pipe_hold() keeps W's current path as the job whose position is in
 * W's slot, with the position of the prior it wants (W's prior_depth);
 * pipe_worker() is worker INDEX's part of a run. */
struct pipe *pipe_new(int threads, uint64_t seed);
void pipe_free(struct pipe *p);
void pipe_hold(struct mcts *m, struct worker *w, int depth, unsigned frac, bool changed,
	       int root_j);
void pipe_worker(struct mcts *m, int index);

/* The root's choice (mcts-root.c). mcts_root_init() looks at the processor,
 * once, before any search. root_select() is the child of the root that W
 * goes to, from W's cache of their terms (built or refreshed as needed);
 * root_cache_entry() recomputes entry J of RC, for the root's worst
 * outcome FLOOR. */
void mcts_root_init(void);
uint32_t root_select(struct mcts *m, struct worker *w);
void root_cache_entry(struct mcts *m, struct root_cache *rc, int j, int floor);
void root_cache_touch(struct mcts *m, struct root_cache *rc, int j);

/* (for the tests) The entry of RC with the highest score q + EXPLORE *
 * rsqrt above -1, the first of equals (-1: none), found on LANES; -2 when
 * this processor has not got them. Every path gives the same. */
enum root_lanes { ROOT_LANES_SCALAR, ROOT_LANES_SSE2, ROOT_LANES_AVX, ROOT_LANES_AVX512 };
int root_argmax_on(const struct root_cache *rc, double explore, enum root_lanes lanes);

/* Lock node N (threads only): returns false if another worker holds it. */
static inline bool node_trylock(struct node *n)
{
	return !(__atomic_fetch_or(&n->flags, NODE_BUSY, __ATOMIC_ACQUIRE) & NODE_BUSY);
}

static inline void node_unlock(struct node *n)
{
	__atomic_fetch_and(&n->flags, (uint8_t)~NODE_BUSY, __ATOMIC_RELEASE);
}

/* The solver's bounds (mcts-bounds.c), recomputed from N's children:
 * update_bounds() from all of them (threads: under N's lock), its
 * _locked() form taking the lock, and update_bounds_after() (one thread)
 * mostly from child C alone, whose bounds were OLD. Each returns whether
 * N's bounds changed. SIDE is the side to move at N. */
bool update_bounds(struct mcts *m, struct node *n, int side);
bool update_bounds_locked(struct mcts *m, struct node *n, int side);
bool update_bounds_after(struct mcts *m, struct node *n, int side, const struct node *c,
			 unsigned old);

static inline double inv_of(uint32_t n)
{
	return n < SMALL ? mcts_inv_table[n] : 1.0 / n;
}

static inline double sqlog_of(uint32_t n)
{
	return n < SMALL ? mcts_sqlog_table[n] : sqlog_big(n);
}

/* The one place where X's statistics turn into SIDE's: SIDE's wins among
 * the playouts of N. Draws are the same for both sides, losses the rest. */
static inline uint32_t wins_for(const struct node *n, int side)
{
	uint32_t x = LOAD(n->x_wins), v = LOAD(n->visits), d = LOAD(n->draws), l = v - x - d;

	/* (with threads, counts read at slightly different times can make the
	 * difference negative for a moment) */
	return side == SIDE_X ? x : (int32_t)l < 0 ? 0 : l;
}

/* Set N's bounds to B and their outcome bits. (Threads: only by a worker
 * holding N's lock, or before N is linked, so no other flag changes
 * meanwhile; a reader may see the bits a moment after the word, which only
 * delays a check of the solver's.) */
static inline void set_bounds(struct node *n, uint16_t b)
{
	int f = LOAD(n->flags) & ~OUTCOMES_MASK;

	STORE(n->bounds, b);
	STORE(n->flags, (uint8_t)(f | (score_outcome(b & 0xff) | score_outcome(b >> 8) << 2) << 3));
}

/* The same for bounds B: the worst and the best score still possible for
 * SIDE. */
static inline void bounds_side(unsigned b, int side, int *lo, int *hi)
{
	int lo_x = b & 0xff, hi_x = b >> 8;

	*lo = side == SIDE_X ? lo_x : score_flip(hi_x);
	*hi = side == SIDE_X ? hi_x : score_flip(lo_x);
}

static inline void bounds_for(const struct node *n, int side, int *lo, int *hi)
{
	bounds_side(LOAD(n->bounds), side, lo, hi);
}

/* Both bounds equal: the score, distance included, is known. */
static inline bool is_exact(const struct node *n)
{
	unsigned b = LOAD(n->bounds);

	return (b & 0xff) == b >> 8;
}

/* Can an iteration of M run? Not when the game is over at the root, the
 * root is solved exactly (distance included), or its visit count would
 * overflow (past 4e9 playouts). */
static inline bool mcts_can_iterate(const struct mcts *m)
{
	const struct node *r = &m->nodes[m->root];

	return !(LOAD(r->flags) & NODE_TERMINAL) && !is_exact(r) &&
	       LOAD(r->visits) < UINT32_MAX - MCTS_MAX_THREADS;
}

/* The enum proof of N's outcome for SIDE. */
static inline int proof_for(const struct node *n, int side)
{
	int lo, hi;

	bounds_for(n, side, &lo, &hi);
	lo = score_outcome(lo);
	if (lo != score_outcome(hi))
		return PROOF_NONE;
	return lo == WON ? PROOF_WIN : lo == DRAWN ? PROOF_DRAW : PROOF_LOSS;
}

/* Plies to the end under best play of N when proven won or lost and exact;
 * -1 otherwise (a draw's length is not kept). */
static inline int plies_of(const struct node *n)
{
	unsigned b = LOAD(n->bounds);

	return (b & 0xff) == b >> 8 && (b & 0xff) != SCORE_DRAW ? score_plies(b & 0xff) : -1;
}

/* SIDE's score in the playouts (or leaf values) of N, V of them as the
 * caller read N's visits: its wins, half the draws, and its share of X's
 * fractional score, in 1/65536 of a result. CLAMP: a negative score is 0
 * (with threads, counts read at slightly different times can make the
 * other side's share negative for a moment; one writer never does). */
static inline int64_t score16_for(const struct node *n, int side, uint32_t v, bool clamp)
{
	int64_t sx = ((int64_t)LOAD(n->x_wins) << 16) + ((int64_t)LOAD(n->draws) << 15) +
		     LOAD(n->x_frac);
	int64_t s = side == SIDE_X ? sx : ((int64_t)v << 16) - sx;

	return clamp && s < 0 ? 0 : s;
}

/* The same on the [0, visits] scale. Exact: the one scaling is a power of
 * two. */
static inline double score_for(const struct node *n, int side)
{
	return (double)score16_for(n, side, LOAD(n->visits), true) * 0x1.0p-16;
}

/* Mean reward of N for SIDE on the [0, 1] scale; 0 when unvisited. */
static inline double value_for(const struct node *n, int side)
{
	return score_for(n, side) * inv_of(LOAD(n->visits));
}

/* The solver's part of child_terms() for a child with bounds B and mean
 * Q: -1 if it is passed over, else Q kept within the outcomes B allows.
 * Out of line, so that the common case stays small enough to inline. */
static __attribute__((noinline, cold)) double solver_q(unsigned b, int side, int floor, double q)
{
	int lo, hi;

	bounds_side(b, side, &lo, &hi);
	if (score_back(hi) <= floor)
		return -1;
	lo = score_outcome(lo);
	hi = score_outcome(hi);
	if (q < 0.5 * lo)
		q = 0.5 * lo;
	if (q > 0.5 * hi)
		q = 0.5 * hi;
	return q;
}

/* What the outcome bits of a child must equal for child_terms() to skip
 * the solver's checks under a parent whose worst score is FLOOR: open
 * outcomes, and only while the parent is not won (then a child may be
 * passed over for a win no quicker than one found). */
static inline int open_key(int floor)
{
	return floor > SCORE_DRAW ? -1 : OPEN_OUTCOMES;
}

/* The two terms of the UCT score of child N for SIDE, the side to move in
 * its parent, whose worst score for SIDE is FLOOR: the mean *Q, kept within
 * the outcomes N's bounds allow (a proven draw is worth exactly 1/2), and
 * *RSQRT = 1 / sqrt(visits), the score being Q + c * sqrt(ln(parent
 * visits)) * RSQRT. Returns false when the solver passes N over: it cannot
 * do better for SIDE than FLOOR. CLAMP as in score16_for(). The innermost
 * loop of the search (select_among() in mcts.c, compiled for each SIDE and
 * CLAMP): one division at most, score_for()'s scaling by 2^-16 folded into
 * the table of 1/n (no bit changes: a power of two), and for a child whose
 * outcome is open under a parent not yet won, one test of the solver's:
 * OPEN is open_key(FLOOR). */
static inline __attribute__((always_inline)) bool
child_terms(const struct node *n, int side, int floor, int open, bool clamp, double *q,
	    double *rsqrt)
{
	uint32_t v = LOAD(n->visits);
	double s = (double)score16_for(n, side, v, clamp), inv;

	if (v < SMALL) {
		*rsqrt = mcts_rsqrt_table[v];
		*q = s * mcts_inv16_table[v];
	} else {
		inv = 1.0 / v;
		*rsqrt = sqrt(inv);
		*q = s * 0x1.0p-16 * inv;
	}
	if ((LOAD(n->flags) & OUTCOMES_MASK) == open)
		return true;
	*q = solver_q(LOAD(n->bounds), side, floor, *q);
	return *q >= 0;
}

/* The mean Q for SIDE of a child whose flags are FLAGS, moved
 * MCTS_IMPLICIT_WEIGHT of the way to its implicit minimax value IMP (see
 * struct mcts' implicit), for a child whose outcome is still open. */
static inline double implicit_q(double q, unsigned imp, int flags, int side)
{
	double v = imp * (1.0 / 65535);

	if ((flags & OUTCOMES_MASK) != OPEN_OUTCOMES)
		return q;
	return q + MCTS_IMPLICIT_WEIGHT * ((side == SIDE_X ? v : 1 - v) - q);
}

/* Game results as outcomes for X, and back. */
static inline int outcome_of_result(int result)
{
	return result == RESULT_X ? WON : result == RESULT_O ? LOST : DRAWN;
}

static inline int result_of_outcome(int outcome)
{
	return outcome == WON ? RESULT_X : outcome == LOST ? RESULT_O : RESULT_DRAW;
}

#endif
