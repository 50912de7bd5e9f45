/* mcts.c - Monte Carlo Tree Search: UCT with MCTS-Solver, in steps.
 *
 * One iteration walks from the root by UCT while nodes are fully expanded,
 * replaying the moves on a copy of the root position; adds one child for a
 * random untried move of the first node that is not (single-child
 * expansion: a node costs memory only once a playout went through it); plays
 * the game out from that child; and adds the result to every node of the
 * path. Positions are never stored: the path's moves rebuild them.
 *
 * Nodes live in one arena allocated by mcts_new() and are named by 32-bit
 * indices (0 is "none"), which keeps a node at 24 bytes. A node's children
 * form a list through `sibling`, newest first. Statistics and bounds are
 * kept from X's point of view; wins_for() and bounds_for() turn them to
 * either side's.
 *
 * Solver. Every node carries bounds on its game-theoretic outcome (lost,
 * drawn, won): the worst and the best the side to move can still get. A
 * terminal node's bounds are its result; any other node's are the best of
 * its children's for the side to move, counting an untried move as "could
 * win". Equal bounds mean proven: so a node is proven won as soon as one
 * child is, and proven lost or drawn once it is fully expanded and no child
 * can do better. Bounds are recomputed only on the way up from an iteration
 * that created a terminal node, and only while they change.
 *
 * Bounds rather than bare proofs are what make draws provable: a child that
 * cannot beat what its parent already guarantees (a proven loss, or a
 * proven draw where a draw is assured) is never selected again, so the
 * search spends its iterations on the moves still in question instead of
 * replaying solved lines. Plain MCTS-Solver, which keeps selecting proven
 * draws, had not solved tic-tac-toe after 20 million iterations; this
 * solves it in 11 000 to 30 000. So that the lines passed over do not skew
 * the averages, a playout result is clipped into the bounds of each node
 * on its path. */
#include "config.h"

#include "mcts.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "util.h"

enum {
	NODE_FULL = 1 << 0,     /* every legal move has a child */
	NODE_TERMINAL = 1 << 1, /* the game is over in this node's position */
	NODE_BUSY = 1 << 2,     /* locked by a thread expanding or updating it */
};

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

/* Bounds byte: X's worst outcome in bits 0-1, X's best in bits 2-3. */
#define OPEN_BOUNDS (LOST | WON << 2)

struct node {
	uint32_t child;   /* newest child, 0 for none */
	uint32_t sibling; /* next older child of the parent; free-list link */
	uint32_t visits;  /* playouts through this node */
	uint32_t x_wins;  /* of them won by X */
	uint32_t draws;
	uint8_t move;     /* the move that led here */
	uint8_t bounds;   /* outcome bounds from X's view (solver only) */
	uint8_t plies;    /* when proven: plies to the end under best play */
	uint8_t flags;    /* NODE_* */
};

/* Exploration terms for small visit counts come from tables: the selection
 * loop would otherwise spend much of its time in log(), sqrt() and
 * division. */
#define SMALL 4096

static double inv_table[SMALL];   /* 1 / n */
static double rsqrt_table[SMALL]; /* 1 / sqrt(n) */
static double sqlog_table[SMALL]; /* sqrt(ln n) */

/* Node slots a worker takes from the shared arena at a time. */
#define SLOT_CHUNK 64
/* Iterations a worker claims from the budget at a time. */
#define BATCH 16

/* What each thread of a search keeps for itself; merged into struct mcts
 * between runs. */
struct worker {
	struct rng rng;
	uint64_t iterations;  /* in this run */
	uint64_t allocated;   /* nodes added to the tree in this run */
	int max_depth;
	bool arena_full;
	int ncache;           /* slots taken from the arena, not yet used */
	uint32_t cache[SLOT_CHUNK];
	char pad[64];         /* (no false sharing with the next worker) */
};

struct mcts {
	const struct game *g;
	struct mcts_params p;
	struct pos root_pos;
	uint32_t root;
	struct node *nodes;  /* the arena; slot 0 is never used */
	uint32_t capacity;   /* slots in the arena */
	uint32_t top;        /* first slot never handed out */
	uint32_t free_list;  /* slots given back, linked through `sibling` */
	uint64_t in_use;     /* nodes in the tree */
	bool arena_full;
	int threads;
	struct worker *w;    /* one a thread; w[0] runs on the caller's */
	struct pool *pool;   /* NULL with one thread */
	pthread_mutex_t alloc_lock; /* the free list and top, with threads */
	int64_t budget;      /* iterations of this run not yet claimed */
	uint64_t deadline;   /* now_ns() at which this run stops, 0: none */
	int stop;            /* set by the worker that ends the run */
	void *leaf_ctx;      /* the leaf evaluator's state about the root */
	uint64_t iterations; /* since mcts_new() or the last advance */
	uint64_t ns;         /* spent in mcts_step() over the same span */
	int max_depth;
	struct root_cache {
		bool valid;      /* the root is fully expanded and these are current */
		int n, last;     /* children; the one selected last */
		uint32_t idx[GAME_MAX_MOVES];
		double q[GAME_MAX_MOVES], rsqrt[GAME_MAX_MOVES]; /* child_terms() */
	} rc;
};

static void tables_init(void)
{
	static bool done;

	if (done)
		return;
	inv_table[0] = rsqrt_table[0] = sqlog_table[0] = 0;
	for (int n = 1; n < SMALL; n++) {
		inv_table[n] = 1.0 / n;
		rsqrt_table[n] = 1.0 / sqrt(n);
		sqlog_table[n] = sqrt(log(n));
	}
	done = true;
}

static inline double inv_of(uint32_t n)
{
	return n < SMALL ? inv_table[n] : 1.0 / n;
}

static inline double sqlog_of(uint32_t n)
{
	return n < SMALL ? sqlog_table[n] : sqrt(log(n));
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

/* The same for bounds: the worst and the best outcome N can still have for
 * SIDE. */
static inline void bounds_for(const struct node *n, int side, int *lo, int *hi)
{
	int b = LOAD(n->bounds), lo_x = b & 3, hi_x = b >> 2;

	*lo = side == SIDE_X ? lo_x : WON - hi_x;
	*hi = side == SIDE_X ? hi_x : WON - lo_x;
}

static inline bool is_proven(const struct node *n)
{
	int b = LOAD(n->bounds);

	return (b & 3) == b >> 2;
}

/* The enum proof of N for SIDE. */
static inline int proof_for(const struct node *n, int side)
{
	int lo, hi;

	bounds_for(n, side, &lo, &hi);
	if (lo != hi)
		return PROOF_NONE;
	return lo == WON ? PROOF_WIN : lo == DRAWN ? PROOF_DRAW : PROOF_LOSS;
}

/* Mean reward of N for SIDE on the [0, 1] scale; 0 when unvisited. */
static inline double value_for(const struct node *n, int side)
{
	return ((double)wins_for(n, side) + 0.5 * LOAD(n->draws)) * inv_of(LOAD(n->visits));
}

/* The two terms of the UCT score of child N for SIDE, the side to move in
 * its parent, whose worst outcome for SIDE is FLOOR: the mean *Q, kept
 * within N's bounds (a proven draw is worth exactly 1/2), and *RSQRT =
 * 1 / sqrt(visits), the score being Q + c * sqrt(ln(parent visits)) *
 * RSQRT. Returns false when the solver passes N over: it cannot do better
 * for SIDE than FLOOR. The innermost loop of the search: one division at
 * most. */
static inline bool child_terms(const struct node *n, int side, int floor, double *q,
			       double *rsqrt)
{
	uint32_t visits = LOAD(n->visits);
	double inv;

	if (visits < SMALL) {
		inv = inv_table[visits];
		*rsqrt = rsqrt_table[visits];
	} else {
		inv = 1.0 / visits;
		*rsqrt = sqrt(inv);
	}
	*q = ((double)wins_for(n, side) + 0.5 * LOAD(n->draws)) * inv;
	if (LOAD(n->bounds) != OPEN_BOUNDS) {
		int lo, hi;

		bounds_for(n, side, &lo, &hi);
		if (hi <= floor)
			return false;
		if (*q < 0.5 * lo)
			*q = 0.5 * lo;
		if (*q > 0.5 * hi)
			*q = 0.5 * hi;
	}
	return true;
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

void mcts_params_default(struct mcts_params *p)
{
	p->c = MCTS_DEFAULT_C;
	p->rollout = ROLLOUT_SMART;
	p->solver = true;
	p->memory = (size_t)MCTS_DEFAULT_MEMORY_MB << 20;
	p->seed = 1;
	p->threads = 1;
	p->eval = MCTS_EVAL_ROLLOUT;
	p->leaf = NULL;
}

size_t mcts_node_bytes(void)
{
	return sizeof(struct node);
}

/* Take up to SLOT_CHUNK slots from the arena for worker W (threads only):
 * one lock a chunk rather than one a node. Returns whether it got any. */
static bool slots_refill(struct mcts *m, struct worker *w)
{
	pthread_mutex_lock(&m->alloc_lock);
	while (w->ncache < SLOT_CHUNK) {
		if (m->free_list != 0) {
			w->cache[w->ncache++] = m->free_list;
			m->free_list = m->nodes[m->free_list].sibling;
		} else if (m->top < m->capacity) {
			w->cache[w->ncache++] = m->top++;
		} else {
			break;
		}
	}
	pthread_mutex_unlock(&m->alloc_lock);
	return w->ncache > 0;
}

/* A fresh node for MOVE taken by worker W, or 0 when the arena is full. */
static uint32_t node_alloc(struct mcts *m, struct worker *w, int move)
{
	uint32_t i;

	if (m->pool != NULL) {
		if (w->ncache == 0 && !slots_refill(m, w))
			return 0;
		i = w->cache[--w->ncache];
		w->allocated++;
	} else if (m->free_list != 0) {
		i = m->free_list;
		m->free_list = m->nodes[i].sibling;
		m->in_use++;
	} else if (m->top < m->capacity) {
		i = m->top++;
		m->in_use++;
	} else {
		return 0;
	}
	m->nodes[i] = (struct node){ .move = (uint8_t)move, .bounds = OPEN_BOUNDS };
	return i;
}

/* Give the subtree of TOP back to the free list. The nodes still waiting to
 * be freed form a stack linked through their `sibling` fields, which are
 * read before they are overwritten, so this needs no memory of its own. */
static void free_subtree(struct mcts *m, uint32_t top)
{
	struct node *nodes = m->nodes;
	uint32_t stack = top;

	nodes[top].sibling = 0;
	while (stack != 0) {
		uint32_t i = stack, c = nodes[i].child;

		stack = nodes[i].sibling;
		while (c != 0) {
			uint32_t next = nodes[c].sibling;

			nodes[c].sibling = stack;
			stack = c;
			c = next;
		}
		nodes[i].sibling = m->free_list;
		m->free_list = i;
		m->in_use--;
	}
}

/* Mark node I terminal (and, with the solver, proven) if POS is over. */
static void node_settle(struct mcts *m, uint32_t i, const struct pos *pos)
{
	struct node *n = &m->nodes[i];

	if (!game_over(pos))
		return;
	n->flags |= NODE_TERMINAL | NODE_FULL; /* (not yet linked: no other reader) */
	if (m->p.solver) {
		int x = outcome_of_result(pos->result);

		n->bounds = (uint8_t)(x | x << 2);
		n->plies = 0;
	}
}

static void worker_main(void *arg, int index);

struct mcts *mcts_new(const struct game *g, const struct pos *root, const struct mcts_params *p)
{
	struct mcts *m = xcalloc(1, sizeof(*m));
	size_t cap = p->memory / sizeof(struct node);

	tables_init();
	if (cap < 2)
		cap = 2; /* slot 0 and the root */
	if (cap > UINT32_MAX)
		cap = UINT32_MAX;
	m->g = g;
	m->p = *p;
	m->root_pos = *root;
	m->nodes = xmalloc(cap * sizeof(struct node));
	m->capacity = (uint32_t)cap;
	m->nodes[0] = (struct node){ 0 };
	m->top = 1;
	m->threads = p->threads < 1 ? 1 : p->threads > MCTS_MAX_THREADS ? MCTS_MAX_THREADS : p->threads;
	m->w = xcalloc((size_t)m->threads, sizeof(*m->w));
	/* Worker 0 draws what the one-thread search always drew. */
	rng_seed(&m->w[0].rng, p->seed);
	for (int i = 1; i < m->threads; i++) {
		uint64_t s = p->seed ^ (uint64_t)i << 32;

		rng_seed(&m->w[i].rng, splitmix64(&s));
	}
	m->root = node_alloc(m, &m->w[0], root->last);
	node_settle(m, m->root, root);
	if (p->leaf == NULL || p->eval == MCTS_EVAL_AUTO)
		m->p.eval = p->leaf == NULL ? MCTS_EVAL_ROLLOUT : MCTS_EVAL_NET;
	if (m->p.eval != MCTS_EVAL_ROLLOUT) {
		m->leaf_ctx = xmalloc(p->leaf->ctx_size);
		p->leaf->root(p->leaf->model, &m->root_pos, m->leaf_ctx);
	}
	if (m->threads > 1) {
		pthread_mutex_init(&m->alloc_lock, NULL);
		m->pool = pool_new(m->threads, worker_main, m);
	}
	return m;
}

void mcts_free(struct mcts *m)
{
	if (m == NULL)
		return;
	if (m->pool != NULL) {
		pool_free(m->pool);
		pthread_mutex_destroy(&m->alloc_lock);
	}
	free(m->w);
	free(m->leaf_ctx);
	free(m->nodes);
	free(m);
}

const struct pos *mcts_root(const struct mcts *m)
{
	return &m->root_pos;
}

/* Move the children of node I, now fully expanded, side by side into
 * fresh slots at the top of the arena (if there is room), keeping their
 * order, and free the old slots. Children added one at a time are
 * scattered over the arena, and walking such a list in every selection
 * through I would miss the cache at each step; gathered, it is read in
 * one sweep. Each node moves at most once this way. Returns the new slot
 * of the first child. */
static uint32_t gather_children(struct mcts *m, uint32_t i)
{
	struct node *nodes = m->nodes;
	uint32_t k = 0, base;

	/* (with threads, another worker may be reading the old slots) */
	if (m->pool != NULL)
		return LOAD(nodes[i].child);
	base = m->top;
	for (uint32_t c = nodes[i].child; c != 0; c = nodes[c].sibling)
		k++;
	if (k < 2 || m->capacity - m->top < k)
		return nodes[i].child;
	m->top += k;
	for (uint32_t c = nodes[i].child, j = base; c != 0; j++) {
		uint32_t next = nodes[c].sibling;

		nodes[j] = nodes[c];
		nodes[j].sibling = next != 0 ? j + 1 : 0;
		nodes[c].sibling = m->free_list;
		m->free_list = c;
		c = next;
	}
	nodes[i].child = base;
	return base;
}

/* Lock node N (threads only): returns false if another worker holds it. */
static inline bool node_trylock(struct node *n)
{
	return !(__atomic_fetch_or(&n->flags, NODE_BUSY, __ATOMIC_ACQUIRE) & NODE_BUSY);
}

static inline void node_unlock(struct node *n)
{
	__atomic_fetch_and(&n->flags, (uint8_t)~NODE_BUSY, __ATOMIC_RELEASE);
}

/* Set FLAG on node N, which other workers may be reading. */
static inline void node_flag(const struct mcts *m, struct node *n, uint8_t flag)
{
	if (m->pool != NULL)
		__atomic_fetch_or(&n->flags, flag, __ATOMIC_RELEASE);
	else
		n->flags |= flag;
}

/* Add a child for a random untried move of node I, whose position is POS,
 * and play that move on POS. Returns the child, or 0 when nothing was added:
 * the node turned out fully expanded (NODE_FULL is then set), the arena is
 * full, or (threads) another worker is expanding it. The child is complete
 * (settled) before it is linked, so other workers never see it half made. */
static uint32_t expand(struct mcts *m, struct worker *w, uint32_t i, struct pos *pos)
{
	struct node *nodes = m->nodes;
	struct moveset untried;
	uint32_t fresh;
	int count, move;
	bool shared = m->pool != NULL;

	if (shared && !node_trylock(&nodes[i]))
		return 0;
	fresh = 0;
	if (shared && (LOAD(nodes[i].flags) & NODE_FULL))
		goto out; /* another worker added the last child meanwhile */
	game_legal(m->g, pos, &untried);
	for (uint32_t c = LOAD(nodes[i].child); c != 0; c = nodes[c].sibling)
		moveset_remove(&untried, nodes[c].move);
	count = moveset_count(&untried);
	if (count == 0) {
		node_flag(m, &nodes[i], NODE_FULL);
		goto out;
	}
	move = moveset_nth(&untried, (int)rng_below(&w->rng, (uint32_t)count));
	fresh = node_alloc(m, w, move);
	if (fresh == 0) {
		w->arena_full = true;
		goto out;
	}
	game_play(m->g, pos, move);
	node_settle(m, fresh, pos);
	nodes[fresh].sibling = nodes[i].child;
	STORE_REL(nodes[i].child, fresh);
	if (count == 1) {
		node_flag(m, &nodes[i], NODE_FULL);
		fresh = gather_children(m, i);
	}
out:
	if (shared)
		node_unlock(&nodes[i]);
	return fresh;
}

/* The child of node N that UCT selects for SIDE, the side to move there.
 * With the solver, a child that cannot do better for SIDE than N already
 * guarantees is passed over: proven losses always, and proven draws (or
 * children that can at best draw) once a draw is assured. One proven won
 * would have proven N, which is then never selected through; and a fully
 * expanded node whose children are all passed over is proven. */
static uint32_t select_child(const struct mcts *m, const struct node *n, int side)
{
	const struct node *nodes = m->nodes;
	double explore = m->p.c * sqlog_of(LOAD(n->visits)), best_score = -1.0;
	uint32_t best = 0;
	int floor, top;

	bounds_for(n, side, &floor, &top);
	for (uint32_t c = LOAD_ACQ(n->child); c != 0; c = nodes[c].sibling) {
		double q, rsqrt, score;

		if (!child_terms(&nodes[c], side, floor, &q, &rsqrt))
			continue;
		score = q + explore * rsqrt;
		if (score > best_score) {
			best_score = score;
			best = c;
		}
	}
	return best != 0 ? best : LOAD(n->child); /* (all passed over: cannot happen) */
}

/* The root is selected through in every iteration and can have many
 * children (81 in Ultimate tic-tac-toe), of which an iteration changes one:
 * so once it is fully expanded, the terms of its children are kept in
 * m->rc and only the one selected is recomputed. The choice is the one
 * select_child() would make, to the bit. */
static void root_cache_entry(struct mcts *m, int j, int floor)
{
	struct root_cache *rc = &m->rc;

	if (!child_terms(&m->nodes[rc->idx[j]], m->root_pos.turn, floor, &rc->q[j], &rc->rsqrt[j]))
		rc->q[j] = -HUGE_VAL; /* passed over: never the best */
}

static uint32_t root_select(struct mcts *m)
{
	struct root_cache *rc = &m->rc;
	const struct node *r = &m->nodes[m->root];
	double explore = m->p.c * sqlog_of(r->visits), best_score = -1.0;
	int floor, top, best = -1;

	bounds_for(r, m->root_pos.turn, &floor, &top);
	if (!rc->valid) {
		rc->n = 0;
		for (uint32_t c = r->child; c != 0 && rc->n < GAME_MAX_MOVES; c = m->nodes[c].sibling)
			rc->idx[rc->n++] = c;
		for (int j = 0; j < rc->n; j++)
			root_cache_entry(m, j, floor);
		rc->valid = true;
	}
	for (int j = 0; j < rc->n; j++) {
		double score = rc->q[j] + explore * rc->rsqrt[j];

		if (score > best_score) {
			best_score = score;
			best = j;
		}
	}
	if (best < 0)
		return r->child; /* (all passed over: cannot happen) */
	rc->last = best;
	return rc->idx[best];
}

/* A playout from POS that records its moves in T, with the policies of the
 * games' own rollouts: uniform, or (smart) a move that wins at once, else
 * one that stops the opponent from winning at once, else uniform. */
static int playout_traced(struct mcts *m, struct worker *w, struct pos *pos,
			  struct mcts_trace *t)
{
	const struct game *g = m->g;

	while (!game_over(pos)) {
		struct moveset legal, hot;
		const struct moveset *from = &legal;
		int move;

		game_legal(g, pos, &legal);
		if (m->p.rollout == ROLLOUT_SMART) {
			for (int who = 0; who < 2; who++) {
				game_threats(g, pos, who == 0 ? pos->turn : !pos->turn, &hot);
				moveset_and(&hot, &legal);
				if (!moveset_empty(&hot)) {
					from = &hot;
					break;
				}
			}
		}
		move = moveset_nth(from, (int)rng_below(&w->rng, (uint32_t)moveset_count(from)));
		game_play(g, pos, move);
		if (t->rollout_len < GAME_MAX_PLIES)
			t->rollout[t->rollout_len++] = (uint8_t)move;
	}
	return pos->result;
}

/* Plies to the end under best play of a node proven to have OUTCOME for
 * SIDE, its side to move: the quickest win, the slowest loss, the longest
 * draw among its children. */
static int proven_plies(const struct node *nodes, const struct node *n, int side, int outcome)
{
	int plies = outcome == WON ? INT_MAX : 0;

	for (uint32_t c = LOAD_ACQ(n->child); c != 0; c = nodes[c].sibling) {
		const struct node *ch = &nodes[c];
		int lo, hi, p = LOAD(ch->plies);

		bounds_for(ch, side, &lo, &hi);
		if (lo != outcome || hi != outcome)
			continue;
		if (outcome == WON ? p < plies : p > plies)
			plies = p;
	}
	return plies + 1;
}

/* Recompute the bounds of node N, whose side to move is SIDE, from its
 * children. Returns whether they changed. */
static bool update_bounds(struct mcts *m, struct node *n, int side)
{
	const struct node *nodes = m->nodes;
	int lo = LOST, hi = LOAD_ACQ(n->flags) & NODE_FULL ? LOST : WON;
	uint8_t b;

	for (uint32_t c = LOAD_ACQ(n->child); c != 0; c = nodes[c].sibling) {
		int clo, chi;

		bounds_for(&nodes[c], side, &clo, &chi);
		if (clo > lo)
			lo = clo;
		if (chi > hi)
			hi = chi;
	}
	b = (uint8_t)(side == SIDE_X ? lo | hi << 2 : (WON - hi) | (WON - lo) << 2);
	if (b == LOAD(n->bounds))
		return false;
	if (lo == hi) /* (before the bounds that say it is proven) */
		STORE(n->plies, (uint8_t)proven_plies(nodes, n, side, lo));
	STORE_REL(n->bounds, b);
	return true;
}

/* The result to back up from POS, a leaf just added and not over: a
 * playout's, or under eval=net the leaf evaluator's value v for X, or under
 * eval=mix the mean of the two. A value becomes a result by a draw of the
 * RNG with v as its mean and as little spread as the three results allow
 * (v = 0.75: a win or a draw, each half the time), so the tree keeps its
 * counts of wins and draws, and the solver its bounds. W and T as in
 * iterate(); reads the leaf evaluator's state only, so workers share it. */
static int leaf_result(struct mcts *m, struct worker *w, struct pos *pos, struct mcts_trace *t)
{
	double v, u;

	if (m->p.eval == MCTS_EVAL_ROLLOUT)
		return t != NULL ? playout_traced(m, w, pos, t) : game_rollout(m->g, pos, &w->rng, m->p.rollout);
	v = m->p.leaf->leaf(m->p.leaf->model, m->leaf_ctx, &m->root_pos, pos);
	if (m->p.eval == MCTS_EVAL_MIX) {
		int r = t != NULL ? playout_traced(m, w, pos, t)
				  : game_rollout(m->g, pos, &w->rng, m->p.rollout);

		v = 0.5 * v + 0.5 * (r == RESULT_X ? 1 : r == RESULT_DRAW ? 0.5 : 0);
	}
	u = (double)(rng_next(&w->rng) >> 11) * 0x1.0p-53;
	if (v >= 0.5)
		return u < 2 * v - 1 ? RESULT_X : RESULT_DRAW;
	return u < 1 - 2 * v ? RESULT_O : RESULT_DRAW;
}

/* The side that chose the node at depth I of a path from a root where
 * ROOT_TURN moves: the side to move in its parent (the root: the other). */
static inline int chooser(int root_turn, int i)
{
	return root_turn ^ ((i + 1) & 1);
}

/* Virtual loss on node N, chosen by SIDE (threads only). */
static inline void virtual_loss(struct node *n, int side)
{
	ADD(n->visits, 1);
	if (side == SIDE_O)
		ADD(n->x_wins, 1);
}

/* Recompute the bounds of node N under its lock (threads: two workers
 * updating one node would each write what it saw, the later one perhaps
 * older news). */
static bool update_bounds_locked(struct mcts *m, struct node *n, int side)
{
	bool changed;

	/* (a holder descheduled with more threads than cores would keep a
	 * plain spin going for a whole time slice) */
	for (int tries = 1; !node_trylock(n); tries++)
		if (tries % 64 == 0)
			sched_yield();
	changed = update_bounds(m, n, side);
	node_unlock(n);
	return changed;
}

/* Add the playout result X (an outcome for X) to the PATH_LEN + 1 nodes of
 * PATH, bounds first while they change (CHANGED), the result clipped into
 * them. */
static void backup(struct mcts *m, const uint32_t *path, int depth, int x, bool changed)
{
	struct node *nodes = m->nodes;
	int turn = m->root_pos.turn;
	bool shared = m->pool != NULL;

	for (int i = depth; i >= 0; i--) {
		struct node *n = &nodes[path[i]];
		int b, lo, hi;

		if (changed && i < depth) {
			int side = turn ^ (i & 1);

			changed = shared ? update_bounds_locked(m, n, side) : update_bounds(m, n, side);
			if (changed && i == 0 && !shared)
				m->rc.valid = false; /* what passes over may change */
		}
		b = LOAD(n->bounds);
		lo = b & 3;
		hi = b >> 2;
		x = x < lo ? lo : x > hi ? hi : x;
		if (shared) {
			/* The visit was counted on the way down, as a loss for
			 * the side that chose N. */
			uint32_t won = (uint32_t)(x == WON) - (chooser(turn, i) == SIDE_O);

			if (won != 0)
				ADD(n->x_wins, won);
			if (x == DRAWN)
				ADD(n->draws, 1);
		} else {
			n->visits++;
			n->x_wins += x == WON;
			n->draws += x == DRAWN;
		}
	}
}

/* One iteration by worker W; T (if not NULL) records it. */
static void iterate(struct mcts *m, struct worker *w, struct mcts_trace *t)
{
	struct node *nodes = m->nodes;
	struct pos pos = m->root_pos;
	uint32_t path[GAME_MAX_PLIES + 1];
	uint32_t cur = m->root;
	int depth = 0, result;
	bool changed = false, shared = m->pool != NULL;

	path[0] = cur;
	if (shared)
		virtual_loss(&nodes[cur], chooser(pos.turn, 0));
	for (;;) {
		struct node *n = &nodes[cur];
		int flags = LOAD_ACQ(n->flags);

		if (flags & NODE_TERMINAL) {
			result = pos.result;
			/* (threads: the worker that made it may have updated
			 * the parent before a sibling's proof was visible) */
			changed = shared && m->p.solver;
			break;
		}
		/* A proven node's playouts all end one way: no need to play. */
		if (is_proven(n)) {
			result = result_of_outcome(LOAD(n->bounds) & 3);
			changed = shared && m->p.solver;
			break;
		}
		if (!(flags & NODE_FULL)) {
			uint32_t fresh = expand(m, w, cur, &pos);

			if (fresh != 0) {
				path[++depth] = fresh;
				if (shared)
					virtual_loss(&nodes[fresh], chooser(m->root_pos.turn, depth));
				if (t != NULL)
					t->expanded = nodes[fresh].move;
				if (LOAD(nodes[fresh].flags) & NODE_TERMINAL) {
					result = pos.result;
					changed = m->p.solver;
				} else {
					result = leaf_result(m, w, &pos, t);
				}
				break;
			}
			if (!(LOAD_ACQ(n->flags) & NODE_FULL)) {
				/* The arena is full, or another worker is adding a
				 * child here: evaluate from here. */
				result = leaf_result(m, w, &pos, t);
				break;
			}
		}
		cur = depth == 0 && !shared ? root_select(m) : select_child(m, n, pos.turn);
		game_play(m->g, &pos, nodes[cur].move);
		path[++depth] = cur;
		if (shared)
			virtual_loss(&nodes[cur], chooser(m->root_pos.turn, depth));
		if (t != NULL)
			t->path[t->path_len++] = nodes[cur].move;
	}
	if (depth > w->max_depth)
		w->max_depth = depth;
	backup(m, path, depth, outcome_of_result(result), changed);
	if (!shared && m->rc.valid && depth > 0) {
		int floor, top;

		bounds_for(&nodes[m->root], m->root_pos.turn, &floor, &top);
		root_cache_entry(m, m->rc.last, floor);
	}
	if (t != NULL)
		t->result = result;
}

/* Can an iteration run? Not when the game is over at the root, the root is
 * solved, or its visit count would overflow (past 4e9 playouts). */
static bool can_iterate(const struct mcts *m)
{
	const struct node *r = &m->nodes[m->root];

	return !(LOAD(r->flags) & NODE_TERMINAL) && !is_proven(r) &&
	       LOAD(r->visits) < UINT32_MAX - MCTS_MAX_THREADS;
}

/* A worker's part of a run (threads): claim iterations from the budget a
 * batch at a time until it is spent, the deadline passes or the root is
 * solved, whichever a worker sees first ending the run for all. */
static void worker_main(void *arg, int index)
{
	struct mcts *m = arg;
	struct worker *w = &m->w[index];

	while (!LOAD(m->stop)) {
		int64_t left = __atomic_fetch_sub(&m->budget, BATCH, __ATOMIC_RELAXED);
		int k = left < BATCH ? (int)left : BATCH;

		if (k <= 0)
			break;
		for (int i = 0; i < k; i++) {
			if (!can_iterate(m)) {
				STORE(m->stop, 1);
				break;
			}
			iterate(m, w, NULL);
			w->iterations++;
		}
		if (m->deadline != 0 && now_ns() >= m->deadline)
			STORE(m->stop, 1);
	}
}

/* After a run: fold the workers' counts into M and give their unused slots
 * back. Returns the iterations they ran. */
static uint64_t workers_settle(struct mcts *m)
{
	uint64_t done = 0;

	for (int i = 0; i < m->threads; i++) {
		struct worker *w = &m->w[i];

		done += w->iterations;
		m->in_use += w->allocated;
		if (w->max_depth > m->max_depth)
			m->max_depth = w->max_depth;
		m->arena_full |= w->arena_full;
		while (w->ncache > 0) {
			uint32_t s = w->cache[--w->ncache];

			m->nodes[s].sibling = m->free_list;
			m->free_list = s;
		}
		w->iterations = w->allocated = 0;
		w->max_depth = 0;
		w->arena_full = false;
	}
	return done;
}

uint64_t mcts_run(struct mcts *m, uint64_t n, uint64_t deadline)
{
	uint64_t start = now_ns(), done = 0;

	if (m->pool == NULL) {
		struct worker *w = &m->w[0];

		while (done < n && can_iterate(m)) {
			iterate(m, w, NULL);
			done++;
			if (deadline != 0 && (done & 63) == 0 && now_ns() >= deadline)
				break;
		}
		workers_settle(m);
	} else if (n > 0) {
		m->budget = n > INT64_MAX ? INT64_MAX : (int64_t)n;
		m->deadline = deadline;
		m->stop = 0;
		pool_run(m->pool);
		done = workers_settle(m);
	}
	m->iterations += done;
	m->ns += now_ns() - start;
	return done;
}

int mcts_step(struct mcts *m, int n)
{
	return n <= 0 ? 0 : (int)mcts_run(m, (uint64_t)n, 0);
}

bool mcts_finished(const struct mcts *m)
{
	return !can_iterate(m);
}

int mcts_threads(const struct mcts *m)
{
	return m->threads;
}

void mcts_step_trace(struct mcts *m, struct mcts_trace *t)
{
	uint64_t start = now_ns();

	memset(t, 0, sizeof(*t));
	t->expanded = -1;
	t->result = RESULT_NONE;
	if (can_iterate(m)) {
		t->ran = true;
		iterate(m, &m->w[0], t);
		m->iterations++;
		workers_settle(m);
	}
	m->ns += now_ns() - start;
}

/* The child of node N to play for SIDE, the side to move there: a proven
 * win, quickest first; else the most visited child not proven lost, ties by
 * value, but when a draw is assured only among children that may and are
 * expected to do better (can still win, mean above 1/2), falling back on
 * the most visited child that assures the draw; if every child is proven
 * lost, the slowest loss. 0 when N has no children. */
static uint32_t best_child(const struct mcts *m, const struct node *n, int side)
{
	const struct node *nodes = m->nodes;
	uint32_t win = 0, best = 0, safe = 0, lost = 0;
	double best_value = 0;
	int floor, top;

	bounds_for(n, side, &floor, &top);
	for (uint32_t c = n->child; c != 0; c = nodes[c].sibling) {
		const struct node *ch = &nodes[c];
		double v = value_for(ch, side);
		int lo, hi;

		bounds_for(ch, side, &lo, &hi);
		if (lo == WON) {
			if (win == 0 || ch->plies < nodes[win].plies)
				win = c;
		} else if (hi == LOST) {
			if (lost == 0 || ch->plies > nodes[lost].plies ||
			    (ch->plies == nodes[lost].plies && ch->visits > nodes[lost].visits))
				lost = c;
		} else if (floor == DRAWN && (hi == DRAWN || v <= 0.5)) {
			if (lo == DRAWN && (safe == 0 || ch->visits > nodes[safe].visits))
				safe = c;
		} else if (best == 0 || ch->visits > nodes[best].visits ||
			   (ch->visits == nodes[best].visits && v > best_value)) {
			best = c;
			best_value = v;
		}
	}
	return win != 0 ? win : best != 0 ? best : safe != 0 ? safe : lost;
}

int mcts_best_move(const struct mcts *m)
{
	const struct node *r = &m->nodes[m->root];
	struct moveset legal;
	uint32_t c;

	game_legal(m->g, &m->root_pos, &legal);
	if (moveset_empty(&legal))
		return MOVE_NONE;
	c = best_child(m, r, m->root_pos.turn);
	if (c != 0 && proof_for(&m->nodes[c], m->root_pos.turn) == PROOF_LOSS) {
		/* Every child loses: a move not tried yet may not. */
		for (uint32_t k = r->child; k != 0; k = m->nodes[k].sibling)
			moveset_remove(&legal, m->nodes[k].move);
		if (!moveset_empty(&legal))
			c = 0;
	}
	/* No iteration yet (or only lost moves tried): any legal move. */
	return c != 0 ? m->nodes[c].move : moveset_pop(&legal);
}

void mcts_advance(struct mcts *m, int move)
{
	struct node *nodes = m->nodes;
	uint32_t old = m->root, keep = 0;
	struct moveset legal;

	game_legal(m->g, &m->root_pos, &legal);
	if (move < 0 || move >= GAME_MAX_CELLS || !moveset_has(&legal, move))
		fatal("mcts_advance: move %d is not legal", move);
	for (uint32_t *link = &nodes[old].child; *link != 0; link = &nodes[*link].sibling)
		if (nodes[*link].move == move) {
			keep = *link;
			*link = nodes[keep].sibling;
			nodes[keep].sibling = 0;
			break;
		}
	/* Reclaiming by free list costs one pass over the discarded nodes and
	 * moves nothing, so indices in the kept subtree stay valid; compaction
	 * would touch the kept nodes too. New nodes take freed slots first. */
	free_subtree(m, old);
	game_play(m->g, &m->root_pos, move);
	if (keep == 0) {
		keep = node_alloc(m, &m->w[0], move); /* cannot fail: the old root was freed */
		node_settle(m, keep, &m->root_pos);
	}
	m->root = keep;
	if (m->leaf_ctx != NULL)
		m->p.leaf->root(m->p.leaf->model, &m->root_pos, m->leaf_ctx);
	m->rc.valid = false;
	m->iterations = 0;
	m->ns = 0;
	m->arena_full = false;
	/* Only the selection keeps track of depth: the deepest line went
	 * through the move played, most likely, so it is one shorter now. */
	m->max_depth = m->max_depth > 0 ? m->max_depth - 1 : 0;
}

static int child_cmp(const void *a, const void *b)
{
	const struct mcts_child *x = a, *y = b;

	if (x->visits != y->visits)
		return x->visits > y->visits ? -1 : 1;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->move - y->move;
}

static void fill_totals(const struct mcts *m, struct mcts_totals *t)
{
	const struct node *nodes = m->nodes;
	const struct node *n = &nodes[m->root];
	int side = m->root_pos.turn;

	memset(t, 0, sizeof(*t));
	t->iterations = m->iterations;
	t->seconds = (double)m->ns / 1e9;
	t->per_second = t->seconds > 0 ? (double)m->iterations / t->seconds : 0;
	t->nodes = m->in_use;
	t->memory_used = (size_t)m->in_use * sizeof(struct node);
	t->memory_limit = (size_t)m->capacity * sizeof(struct node);
	t->arena_full = m->arena_full;
	t->max_depth = m->max_depth;
	t->threads = m->threads;
	t->root_proven = proof_for(n, side);
	t->root_proven_plies = is_proven(n) ? n->plies : 0;
	t->root_visits = n->visits;
	while (t->pv_len < MCTS_PV_MAX) {
		uint32_t c = best_child(m, n, side);

		if (c == 0)
			break;
		n = &nodes[c];
		t->pv[t->pv_len++] = n->move;
		side = !side;
	}
}

/* The leaf evaluator's value for SIDE of AT after MOVE (see mcts_child.net). */
static double net_value(const struct mcts *m, const struct pos *at, int move, int side)
{
	struct pos after = *at;
	double v;

	if (m->leaf_ctx == NULL)
		return NAN;
	game_play(m->g, &after, move);
	if (game_over(&after))
		return NAN;
	v = m->p.leaf->leaf(m->p.leaf->model, m->leaf_ctx, &m->root_pos, &after);
	return side == SIDE_X ? v : 1 - v;
}

int mcts_stats(const struct mcts *m, const uint8_t *path, int path_len, struct mcts_child *out,
	       int max, struct mcts_totals *totals)
{
	const struct node *nodes = m->nodes;
	const struct node *n = &nodes[m->root];
	struct mcts_child all[GAME_MAX_MOVES];
	struct pos at = m->root_pos;
	int side = m->root_pos.turn, count = 0;
	double explore;

	if (totals != NULL)
		fill_totals(m, totals);
	if (path_len < 0 || (path_len > 0 && path == NULL))
		return -1;
	for (int i = 0; i < path_len; i++) {
		uint32_t c = n->child;

		while (c != 0 && nodes[c].move != path[i])
			c = nodes[c].sibling;
		if (c == 0)
			return -1;
		n = &nodes[c];
		side = !side;
		game_play(m->g, &at, path[i]);
	}
	explore = m->p.c * sqlog_of(n->visits);
	for (uint32_t c = n->child; c != 0 && count < GAME_MAX_MOVES; c = nodes[c].sibling) {
		const struct node *ch = &nodes[c];
		struct mcts_child *o = &all[count++];
		double q, rsqrt;

		o->move = ch->move;
		o->visits = ch->visits;
		o->wins = wins_for(ch, side);
		o->draws = ch->draws;
		o->losses = ch->visits - o->wins - ch->draws;
		o->value = value_for(ch, side);
		/* (floor -1: the score even of a child the solver passes over) */
		o->uct = HUGE_VAL;
		if (ch->visits > 0 && child_terms(ch, side, -1, &q, &rsqrt))
			o->uct = q + explore * rsqrt;
		o->proven = proof_for(ch, side);
		o->proven_plies = is_proven(ch) ? ch->plies : 0;
		o->net = net_value(m, &at, ch->move, side);
	}
	qsort(all, (size_t)count, sizeof(all[0]), child_cmp);
	if (max < count)
		count = max < 0 ? 0 : max;
	if (count > 0)
		memcpy(out, all, (size_t)count * sizeof(all[0]));
	return count;
}
