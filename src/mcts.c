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
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum {
	NODE_FULL = 1 << 0,     /* every legal move has a child */
	NODE_TERMINAL = 1 << 1, /* the game is over in this node's position */
};

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
	struct rng rng;
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
	return side == SIDE_X ? n->x_wins : n->visits - n->x_wins - n->draws;
}

/* The same for bounds: the worst and the best outcome N can still have for
 * SIDE. */
static inline void bounds_for(const struct node *n, int side, int *lo, int *hi)
{
	int lo_x = n->bounds & 3, hi_x = n->bounds >> 2;

	*lo = side == SIDE_X ? lo_x : WON - hi_x;
	*hi = side == SIDE_X ? hi_x : WON - lo_x;
}

static inline bool is_proven(const struct node *n)
{
	return (n->bounds & 3) == n->bounds >> 2;
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
	return ((double)wins_for(n, side) + 0.5 * n->draws) * inv_of(n->visits);
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
	double inv;

	if (n->visits < SMALL) {
		inv = inv_table[n->visits];
		*rsqrt = rsqrt_table[n->visits];
	} else {
		inv = 1.0 / n->visits;
		*rsqrt = sqrt(inv);
	}
	*q = ((double)wins_for(n, side) + 0.5 * n->draws) * inv;
	if (n->bounds != OPEN_BOUNDS) {
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
}

size_t mcts_node_bytes(void)
{
	return sizeof(struct node);
}

/* A fresh node for MOVE, or 0 when the arena is full. */
static uint32_t node_alloc(struct mcts *m, int move)
{
	uint32_t i;

	if (m->free_list != 0) {
		i = m->free_list;
		m->free_list = m->nodes[i].sibling;
	} else if (m->top < m->capacity) {
		i = m->top++;
	} else {
		return 0;
	}
	m->nodes[i] = (struct node){ .move = (uint8_t)move, .bounds = OPEN_BOUNDS };
	m->in_use++;
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
	n->flags |= NODE_TERMINAL | NODE_FULL;
	if (m->p.solver) {
		int x = outcome_of_result(pos->result);

		n->bounds = (uint8_t)(x | x << 2);
		n->plies = 0;
	}
}

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
	m->root = node_alloc(m, root->last);
	node_settle(m, m->root, root);
	rng_seed(&m->rng, p->seed);
	return m;
}

void mcts_free(struct mcts *m)
{
	if (m == NULL)
		return;
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
	uint32_t k = 0, base = m->top;

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

/* Add a child for a random untried move of node I, whose position is POS,
 * and play that move on POS. Returns the child, or 0 when nothing was added:
 * the node turned out fully expanded (NODE_FULL is then set) or the arena is
 * full. */
static uint32_t expand(struct mcts *m, uint32_t i, struct pos *pos)
{
	struct node *nodes = m->nodes;
	struct moveset untried;
	uint32_t fresh;
	int count, move;

	game_legal(m->g, pos, &untried);
	for (uint32_t c = nodes[i].child; c != 0; c = nodes[c].sibling)
		moveset_remove(&untried, nodes[c].move);
	count = moveset_count(&untried);
	if (count == 0) {
		nodes[i].flags |= NODE_FULL;
		return 0;
	}
	move = moveset_nth(&untried, (int)rng_below(&m->rng, (uint32_t)count));
	fresh = node_alloc(m, move);
	if (fresh == 0) {
		m->arena_full = true;
		return 0;
	}
	nodes[fresh].sibling = nodes[i].child;
	nodes[i].child = fresh;
	if (count == 1) {
		nodes[i].flags |= NODE_FULL;
		fresh = gather_children(m, i);
	}
	game_play(m->g, pos, move);
	node_settle(m, fresh, pos);
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
	double explore = m->p.c * sqlog_of(n->visits), best_score = -1.0;
	uint32_t best = 0;
	int floor, top;

	bounds_for(n, side, &floor, &top);
	for (uint32_t c = n->child; c != 0; c = nodes[c].sibling) {
		double q, rsqrt, score;

		if (!child_terms(&nodes[c], side, floor, &q, &rsqrt))
			continue;
		score = q + explore * rsqrt;
		if (score > best_score) {
			best_score = score;
			best = c;
		}
	}
	return best != 0 ? best : n->child; /* (all passed over: cannot happen) */
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
static int playout_traced(struct mcts *m, struct pos *pos, struct mcts_trace *t)
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
		move = moveset_nth(from, (int)rng_below(&m->rng, (uint32_t)moveset_count(from)));
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

	for (uint32_t c = n->child; c != 0; c = nodes[c].sibling) {
		const struct node *ch = &nodes[c];
		int lo, hi;

		bounds_for(ch, side, &lo, &hi);
		if (lo != outcome || hi != outcome)
			continue;
		if (outcome == WON ? ch->plies < plies : ch->plies > plies)
			plies = ch->plies;
	}
	return plies + 1;
}

/* Recompute the bounds of node N, whose side to move is SIDE, from its
 * children. Returns whether they changed. */
static bool update_bounds(struct mcts *m, struct node *n, int side)
{
	const struct node *nodes = m->nodes;
	int lo = LOST, hi = n->flags & NODE_FULL ? LOST : WON;
	uint8_t b;

	for (uint32_t c = n->child; c != 0; c = nodes[c].sibling) {
		int clo, chi;

		bounds_for(&nodes[c], side, &clo, &chi);
		if (clo > lo)
			lo = clo;
		if (chi > hi)
			hi = chi;
	}
	b = (uint8_t)(side == SIDE_X ? lo | hi << 2 : (WON - hi) | (WON - lo) << 2);
	if (b == n->bounds)
		return false;
	n->bounds = b;
	if (lo == hi)
		n->plies = (uint8_t)proven_plies(nodes, n, side, lo);
	return true;
}

/* One iteration; T (if not NULL) records it. */
static void iterate(struct mcts *m, struct mcts_trace *t)
{
	struct node *nodes = m->nodes;
	struct pos pos = m->root_pos;
	uint32_t path[GAME_MAX_PLIES + 1];
	uint32_t cur = m->root;
	int depth = 0, result;
	bool changed = false;

	path[0] = cur;
	for (;;) {
		struct node *n = &nodes[cur];

		if (n->flags & NODE_TERMINAL) {
			result = pos.result;
			break;
		}
		/* A proven node's playouts all end one way: no need to play. */
		if (is_proven(n)) {
			result = result_of_outcome(n->bounds & 3);
			break;
		}
		if (!(n->flags & NODE_FULL)) {
			uint32_t fresh = expand(m, cur, &pos);

			if (fresh != 0) {
				path[++depth] = fresh;
				if (t != NULL)
					t->expanded = nodes[fresh].move;
				if (nodes[fresh].flags & NODE_TERMINAL) {
					result = pos.result;
					changed = m->p.solver;
				} else if (t != NULL) {
					result = playout_traced(m, &pos, t);
				} else {
					result = game_rollout(m->g, &pos, &m->rng, m->p.rollout);
				}
				break;
			}
			if (!(n->flags & NODE_FULL)) {
				/* The arena is full: play out from here. */
				result = t != NULL ? playout_traced(m, &pos, t)
						   : game_rollout(m->g, &pos, &m->rng, m->p.rollout);
				break;
			}
		}
		cur = depth == 0 ? root_select(m) : select_child(m, n, pos.turn);
		game_play(m->g, &pos, nodes[cur].move);
		path[++depth] = cur;
		if (t != NULL)
			t->path[t->path_len++] = nodes[cur].move;
	}
	if (depth > m->max_depth)
		m->max_depth = depth;

	/* Back up: bounds first, while they change, then the result clipped
	 * into them (still for X). */
	{
		int turn = m->root_pos.turn, x = outcome_of_result(result);

		for (int i = depth; i >= 0; i--) {
			struct node *n = &nodes[path[i]];
			int lo = n->bounds & 3, hi = n->bounds >> 2;

			if (changed && i < depth) {
				changed = update_bounds(m, n, turn ^ (i & 1));
				lo = n->bounds & 3;
				hi = n->bounds >> 2;
				if (changed && i == 0)
					m->rc.valid = false; /* what passes over may change */
			}
			x = x < lo ? lo : x > hi ? hi : x;
			n->visits++;
			n->x_wins += x == WON;
			n->draws += x == DRAWN;
		}
	}
	if (m->rc.valid && depth > 0) {
		int floor, top;

		bounds_for(&nodes[m->root], m->root_pos.turn, &floor, &top);
		root_cache_entry(m, m->rc.last, floor);
	}
	m->iterations++;
	if (t != NULL)
		t->result = result;
}

/* Can an iteration run? Not when the game is over at the root, the root is
 * solved, or its visit count would overflow (past 4e9 playouts). */
static bool can_iterate(const struct mcts *m)
{
	const struct node *r = &m->nodes[m->root];

	return !(r->flags & NODE_TERMINAL) && !is_proven(r) && r->visits < UINT32_MAX;
}

int mcts_step(struct mcts *m, int n)
{
	uint64_t start = now_ns();
	int done = 0;

	while (done < n && can_iterate(m)) {
		iterate(m, NULL);
		done++;
	}
	m->ns += now_ns() - start;
	return done;
}

void mcts_step_trace(struct mcts *m, struct mcts_trace *t)
{
	uint64_t start = now_ns();

	memset(t, 0, sizeof(*t));
	t->expanded = -1;
	t->result = RESULT_NONE;
	if (can_iterate(m)) {
		t->ran = true;
		iterate(m, t);
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
		keep = node_alloc(m, move); /* cannot fail: the old root was freed */
		node_settle(m, keep, &m->root_pos);
	}
	m->root = keep;
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

int mcts_stats(const struct mcts *m, const uint8_t *path, int path_len, struct mcts_child *out,
	       int max, struct mcts_totals *totals)
{
	const struct node *nodes = m->nodes;
	const struct node *n = &nodes[m->root];
	struct mcts_child all[GAME_MAX_MOVES];
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
	}
	qsort(all, (size_t)count, sizeof(all[0]), child_cmp);
	if (max < count)
		count = max < 0 ? 0 : max;
	if (count > 0)
		memcpy(out, all, (size_t)count * sizeof(all[0]));
	return count;
}
