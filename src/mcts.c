/* mcts.c - Monte Carlo Tree Search: UCT with MCTS-Solver, in steps.
 *
 * One iteration walks from the root by UCT while nodes are fully expanded,
 * replaying the moves on a copy of the root position; adds one child for
 * an untried move (the next in an order the position's hash draws; with
 * the solver, a move that wins at once first) of the first node that is
 * not (single-child
 * expansion: a node's statistics exist only once a playout went through
 * it); plays the game out from that child; and adds the result to every
 * node of the path. Positions are never stored: the path's moves rebuild
 * them.
 *
 * Nodes live in one arena allocated by mcts_new() and are named by 32-bit
 * indices (0 is "none"), which keeps a node at 24 bytes. A node's children
 * sit side by side in one block of the arena (mcts-arena.c), in the order
 * they were made, and are walked newest first. Statistics and bounds are
 * kept from X's point of view; wins_for() and bounds_for() turn them to
 * either side's.
 *
 * Solver. Every node carries bounds on its game-theoretic score: the worst
 * and the best the side to move can still get, where a score is an outcome
 * and, for a win or a loss, its distance in plies (a win sooner and a loss
 * later score higher; see score_win()). A terminal node's bounds are its
 * result; a node still in play starts at [loss in 2, win in 1] (under
 * --tiebreak, where filling the board can lose, [loss in 1, win in 1]); an expanded
 * node's bounds are the best of its children's one ply further, counting an
 * untried move as "could win in 1". A node is proven (its outcome known)
 * once both bounds have the same outcome, and exact once they are equal: a
 * node proven won as soon as one child is won keeps being searched, through
 * the children that might still win sooner, until no child can beat the
 * quickest win found. So a distance reported as exact is the distance
 * under best play (score-bounded MCTS, Cazenave and Saffidine 2010). Bounds
 * are recomputed on the way up from an iteration whose expansion can move
 * them (a terminal child, a node's first child, its last untried move), and
 * only while they change.
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

#include <assert.h>

#include "mcts-node.h"

#include "util.h"

/* A fresh node for MOVE in slot I. */
static void node_init(struct mcts *m, uint32_t i, int move)
{
	m->nodes[i] = (struct node){
		.move = (uint8_t)move, .flags = OPEN_OUTCOMES, .bounds = OPEN_BOUNDS_X
	};
}

/* A root for MOVE in a block of its own (mcts_new(), mcts_advance()),
 * where worker 0 takes it: there is always room, the old root having been
 * given back first. */
static uint32_t root_alloc(struct mcts *m, int move)
{
	uint32_t i = arena_block(m, &m->w[0], 1);

	assert(i != 0);
	node_init(m, i, move);
	if (m->implicit != NULL)
		STORE(m->implicit[i], 32768);
	m->in_use++;
	arena_settle(m, &m->w[0]);
	return i;
}

/* Mark node I terminal (and, with the solver, proven) if POS is over. */
static void node_settle(struct mcts *m, uint32_t i, const struct pos *pos)
{
	struct node *n = &m->nodes[i];

	/* (not yet linked: no other reader) */
	if (!game_over(pos)) {
		n->bounds = (m->g->rules & RULE_TIEBREAK) ? OPEN_BOUNDS_ANY
			  : pos->turn == SIDE_X ? OPEN_BOUNDS_X : OPEN_BOUNDS_O;
		return;
	}
	assert(result_winner(pos->result) != pos->turn || (m->g->rules & RULE_TIEBREAK));
	n->flags |= NODE_TERMINAL | NODE_FULL;
	if (m->p.solver) {
		int x = pos->result == RESULT_X ? score_win(0)
			: pos->result == RESULT_O ? score_loss(0) : SCORE_DRAW;

		set_bounds(n, BOUNDS(x, x));
	}
}


uint32_t mcts_root_node(struct mcts *m, const struct pos *pos, int move)
{
	uint32_t i = root_alloc(m, move);

	node_settle(m, i, pos);
	return i;
}

/* Set FLAG on node N, which other workers may be reading. */
static inline void node_flag(const struct mcts *m, struct node *n, uint8_t flag)
{
	if (m->shared)
		__atomic_fetch_or(&n->flags, flag, __ATOMIC_RELEASE);
	else
		n->flags |= flag;
}

/* Where the next child of a node whose position has HASH comes from among
 * its COUNT legal moves, MADE of them made: the moves are taken in turn,
 * from one the hash draws (the same wherever the node is kept: a root
 * moved by mcts_advance() goes on where it was), so that making a child
 * reads none of its brothers (their lines had gone cold since the node's
 * last visit: 12% of the pipeline tree thread's samples in mcts_iterate
 * waited for them). */
static inline int next_untried(uint64_t hash, int made, int count)
{
	uint32_t k = (uint32_t)((hash >> 32) * (uint32_t)count >> 32) + (uint32_t)made;

	return (int)(k >= (uint32_t)count ? k - (uint32_t)count : k);
}

/* The move of the next child of a node whose position is POS and legal
 * moves LEGAL (COUNT of them, MADE made, the first at BASE): the next in
 * turn; with the solver, a move that wins at once if there is one. A node
 * with such a move has always had its children chosen that way: its
 * brothers are read to find the moves not yet made, and one is drawn at
 * random. LEGAL is overwritten. */
static int untried_move(const struct mcts *m, struct worker *w, const struct pos *pos,
			struct moveset *legal, int made, uint32_t base, int count)
{
	struct moveset hot;
	const struct node *nodes = m->nodes;

	/* A move that wins at once first: the node is proven in one visit,
	 * and a win in 3 above it as soon as each reply has had one (drawn at
	 * random, a win among many untried moves waited for its turn while
	 * the losses of the others pulled the move above it down). */
	if (!m->p.solver || !game_threats_among(m->g, pos, pos->turn, legal, &hot))
		return moveset_nth(legal, next_untried(pos->hash, made, count));
	for (int k = made - 1; k >= 0; k--)
		moveset_remove(legal, nodes[base + (uint32_t)k].move);
	moveset_and(&hot, legal);
	if (!moveset_empty(&hot))
		return moveset_nth(&hot, 0);
	return moveset_nth(legal, (int)rng_below(&w->rng, (uint32_t)(count - made)));
}

static void add_prior(struct node *n, unsigned q, uint32_t k, bool shared);

/* (order=net, the pipeline's tree thread) Give node I, below the root and
 * with no children yet, its block of COUNT slots at BASE, to be ordered by
 * whoever plays out this iteration's job (W's order_node; mcts-pipe.c):
 * kids() was a quarter of the tree thread's time, the pipeline's
 * bottleneck. Until the job is backed up, the node is played out from
 * again, as a leaf. */
static void defer_order(struct mcts *m, struct worker *w, uint32_t i, uint32_t base, int count)
{
	STORE(m->nodes[i].child, base);
	m->nodes[i].cap = (uint8_t)count;
	w->order_node = i;
}

void mcts_order_done(struct mcts *m, uint32_t i)
{
	node_flag(m, &m->nodes[i], NODE_ORDERED);
}

/* Order W's order_node, whose position is POS, here and now. */
static void order_here(struct mcts *m, struct worker *w, const struct pos *pos)
{
	const struct node *n = &m->nodes[w->order_node];

	mcts_order(m, pos, n->child, n->cap);
	mcts_order_done(m, w->order_node);
	w->order_node = 0;
}

/* Add a child for an untried move of node I (untried_move()), whose
 * position is POS, and play that move on POS. Returns the child, or 0 when
 * nothing was added: the node turned out fully expanded (NODE_FULL is then
 * set), the arena is full, or (threads) another worker is expanding it.
 * The child is complete (settled) before the count of children takes it
 * in, so other workers never see it half made.
 * Sets *MOVED (with the solver) when the new child can move I's bounds: it
 * is terminal, it was I's last untried move (I's best is now its
 * children's). */
static uint32_t expand(struct mcts *m, struct worker *w, uint32_t i, struct pos *pos,
		       bool *moved)
{
	struct node *nodes = m->nodes;
	struct moveset legal;
	uint32_t fresh, base, prior;
	int count, move, made;
	bool shared = m->shared, ordered;

	w->fresh_value = NO_VALUE;
	if (shared && !node_trylock(&nodes[i]))
		return 0;
	fresh = 0;
	if (shared && (LOAD(nodes[i].flags) & NODE_FULL))
		goto out; /* another worker added the last child meanwhile */
	game_legal(m->g, pos, &legal);
	made = kids_of(&nodes[i], &base);
	ordered = LOAD(nodes[i].flags) & NODE_ORDERED;
	if (made == 0 && base != 0 && !ordered)
		goto out; /* (the pipeline) its block is being ordered: defer_order() */
	count = base == 0 ? moveset_count(&legal) : nodes[i].cap;
	if (made >= count) {
		node_flag(m, &nodes[i], NODE_FULL);
		goto out;
	}
	if (base == 0) {
		/* the first child: a block for every legal move */
		base = arena_block(m, w, count);
		if (base == 0) {
			w->arena_full = true;
			goto out;
		}
		if (m->p.order == MCTS_ORDER_NET && w->slot != NULL && i != m->root) {
			defer_order(m, w, i, base, count);
			goto out;
		}
		if (m->p.order == MCTS_ORDER_NET) {
			mcts_order_moves(m, pos, &legal, base, count);
			move = nodes[base].move;
			node_flag(m, &nodes[i], NODE_ORDERED);
		} else {
			move = untried_move(m, w, pos, &legal, 0, base, count);
		}
		STORE(nodes[i].child, base);
		nodes[i].cap = (uint8_t)count;
	} else if (ordered) {
		move = nodes[base + (uint32_t)made].move;
	} else {
		move = untried_move(m, w, pos, &legal, made, base, count);
	}
	fresh = base + (uint32_t)made;
	ordered = LOAD(nodes[i].flags) & NODE_ORDERED;
	prior = ordered ? nodes[fresh].draws : 0; /* (the value order_block() left) */
	node_init(m, fresh, move);
	w->allocated++;
	game_play(m->g, pos, move);
	node_settle(m, fresh, pos);
	if (ordered && !game_over(pos)) {
		w->fresh_value = prior;
		if (m->p.eval == MCTS_EVAL_MIX)
			add_prior(&nodes[fresh], prior, MCTS_ORDER_PRIOR, false); /* (not yet linked) */
	}
	*moved = m->p.solver &&
		 (made + 1 == count || (nodes[fresh].flags & NODE_TERMINAL));
	STORE_REL(nodes[i].nkids, (uint8_t)(made + 1));
	if (made + 1 == count)
		node_flag(m, &nodes[i], NODE_FULL);
out:
	if (shared)
		node_unlock(&nodes[i]);
	return fresh;
}

/* The child that UCT selects among the COUNT children KIDS (their first
 * slot BASE; IMP their implicit minimax values, or NULL) for SIDE, under a
 * parent whose worst score for SIDE is FLOOR
 * (OPEN: open_key(FLOOR)), EXPLORE being c * sqrt(ln(parent visits)): the
 * innermost loop of the search, compiled once for each SIDE and for SHARED
 * (other workers write the counts as they are read: child_terms()' clamp),
 * so that the loop tests neither. Returns 0 when every child is passed
 * over (a node not fully expanded: order=net's widening). */
static inline __attribute__((always_inline)) uint32_t
select_among(const struct node *kids, int count, uint32_t base, double explore, int side,
	     int floor, int open, bool shared, const uint16_t *imp)
{
	double best_score = -1.0;
	int best = 0;

	for (int k = count - 1; k >= 0; k--) {
		double q, rsqrt, score;

		if (!child_terms(&kids[k], side, floor, open, shared, &q, &rsqrt))
			continue; /* passed over */
		if (imp != NULL)
			q = implicit_q(q, LOAD(imp[k]), LOAD(kids[k].flags), side);
		score = q + explore * rsqrt;
		if (score > best_score) {
			best_score = score;
			best = k;
		}
	}
	return best_score < 0 ? 0 : base + (uint32_t)best;
}

/* The child of node N that UCT selects for SIDE, the side to move there.
 * With the solver, a child that cannot do better for SIDE than N already
 * guarantees is passed over: proven losses that lose sooner than another
 * move, proven draws (or children that can at best draw) once a draw is
 * assured, wins no quicker than one already found. A fully expanded node
 * whose children are all passed over is exact, and never selected
 * through. */
static uint32_t select_child(const struct mcts *m, const struct node *n, int side)
{
	double explore = m->p.c * sqlog_of(LOAD(n->visits));
	uint32_t base;
	int count = kids_of(n, &base), floor, top, open;
	const struct node *kids = &m->nodes[base];
	const uint16_t *imp = m->implicit != NULL ? &m->implicit[base] : NULL;

	bounds_for(n, side, &floor, &top);
	open = open_key(floor);
	if (m->shared)
		return side == SIDE_X ? select_among(kids, count, base, explore, SIDE_X, floor, open, true, imp)
				      : select_among(kids, count, base, explore, SIDE_O, floor, open, true, imp);
	if (imp != NULL)
		return side == SIDE_X ? select_among(kids, count, base, explore, SIDE_X, floor, open, false, imp)
				      : select_among(kids, count, base, explore, SIDE_O, floor, open, false, imp);
	return side == SIDE_X ? select_among(kids, count, base, explore, SIDE_X, floor, open, false, NULL)
			      : select_among(kids, count, base, explore, SIDE_O, floor, open, false, NULL);
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
				if (game_threats_among(g, pos, pos->turn ^ who, &legal, &hot)) {
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

/* X's score in game result R: 1, 1/2 or 0. */
static inline double x_score(int r)
{
	return r == RESULT_X ? 1 : r == RESULT_O ? 0 : 0.5;
}

/* The leaf evaluator's value of POS for X, in 1/65536 of a result. */
static unsigned leaf_value(struct mcts *m, const struct pos *pos)
{
	return value16(m->p.leaf->leaf(m->p.leaf->model, m->leaf_ctx, &m->root_pos, pos));
}

/* Can the side to move in POS win the game with its next move? What a
 * leaf evaluator may not see and a playout would (its first move wins when
 * it can): asked before the evaluator, whose value the answer replaces. */
static bool wins_at_once(const struct game *g, const struct pos *pos)
{
	struct moveset threats, legal;

	game_threats(g, pos, pos->turn, &threats);
	if (moveset_empty(&threats))
		return false;
	game_legal(g, pos, &legal);
	moveset_and(&threats, &legal);
	return !moveset_empty(&threats);
}

/* The result to back up from POS, a leaf just added and not over: a
 * playout's; under eval=net the leaf evaluator's value v for X; under
 * eval=mix, where order_block() valued the leaf already (W's fresh_value),
 * a playout blended with that value (blend_result()), and elsewhere, for
 * MCTS_MIX_NET percent of the leaves, the value. A value is backed
 * up as it is, not drawn as a result: *FRAC is X's score in 1/65536 of a
 * result, and the result returned RESULT_O (X's score beyond it: 0); a
 * value of exactly 0 or 1 is that result. A playout's result has *FRAC 0.
 * W and T as in iterate(); reads the leaf evaluator's state only, so
 * workers share it. (In the pipeline, the job's player draws whether its
 * leaf gets a playout or the value, and the tree thread blends: mcts-pipe.c.) */
static int leaf_result(struct mcts *m, struct worker *w, struct pos *pos, struct mcts_trace *t,
		       unsigned *frac)
{
	uint32_t known = w->fresh_value;
	bool blend;
	int r;

	*frac = 0;
	w->fresh_value = NO_VALUE;
	if (m->p.eval != MCTS_EVAL_ROLLOUT && wins_at_once(m->g, pos))
		return result_of_win(pos->turn);
	blend = m->p.eval == MCTS_EVAL_MIX && known != NO_VALUE;
	if (m->p.eval == MCTS_EVAL_NET ||
	    (m->p.eval == MCTS_EVAL_MIX && !blend && w->slot == NULL && mcts_mix_net(&w->rng)))
		return value_result(known != NO_VALUE ? known : leaf_value(m, pos), frac);
	if (w->slot != NULL) {
		*w->slot = *pos;
		w->handed_value = blend ? known : NO_VALUE;
		return RESULT_HANDED;
	}
	r = t != NULL ? playout_traced(m, w, pos, t) : game_rollout(m->g, pos, &w->rng, m->p.rollout);
	return blend ? blend_result(r, known, frac) : r;
}

/* The side that chose the node at depth I of a path from a root where
 * ROOT_TURN moves: the side to move in its parent (the root: the other). */
static inline int chooser(int root_turn, int i)
{
	return root_turn ^ ((i + 1) & 1);
}

/* Virtual loss on node N, chosen by SIDE (threads only): one atomic add
 * (a plain one in the pipeline, whose tree has one writer). Not on the
 * root, which has no chooser to discourage and is the one line every
 * iteration of every worker writes: its visit is counted with the
 * result. Returns N's visits before (each count is seen by one worker). */
static inline uint32_t virtual_loss(const struct mcts *m, struct node *n, int side)
{
	struct node before;

	if (m->shared)
		before.vx = ADD(n->vx, VX(1, side == SIDE_O));
	else {
		before.vx = n->vx;
		n->vx += VX(1, side == SIDE_O);
	}
	return before.visits;
}

/* Clip X's score, the outcome *X plus *FRAC / 65536 (see leaf_result()),
 * into the outcomes LO..HI that a node's bounds allow. */
static inline void clip_score(int *x, unsigned *frac, int lo, int hi)
{
	unsigned s = *x == LOST ? *frac : (unsigned)*x << 15;

	if (s < (unsigned)lo << 15) {
		*x = lo;
		*frac = 0;
	} else if (s > (unsigned)hi << 15) {
		*x = hi;
		*frac = 0;
	}
}

/* Add FRAC / 65536 to X's score in N, a carry past a whole result to its
 * wins: the carry (0 or 1). */
static inline uint32_t add_frac(struct node *n, unsigned frac, bool shared)
{
	unsigned old;

	if (frac == 0)
		return 0;
	if (shared)
		old = __atomic_fetch_add(&n->x_frac, (uint16_t)frac, __ATOMIC_RELAXED);
	else {
		old = n->x_frac;
		n->x_frac = (uint16_t)(old + frac);
	}
	return old + frac > 0xffff;
}

/* eval=mix: the leaf evaluator's value Q of node N (for X, in 1/65536)
 * as K visits of its own (MCTS_MIX_PRIOR, or MCTS_ORDER_PRIOR when
 * order=net gives it). */
static void add_prior(struct node *n, unsigned q, uint32_t k, bool shared)
{
	uint32_t score = q * k;
	uint32_t won = (score >> 16) + add_frac(n, score & 0xffff, shared);

	if (shared) {
		ADD(n->vx, VX(k, won));
	} else {
		n->visits += k;
		n->x_wins += won;
	}
}

/* eval=mix: node N, whose position POS is not over, on its second visit:
 * its prior (add_prior()). Most leaves are never visited again; given on
 * the first visit, the network's time went mostly to them (measured: see
 * MCTS_MIX_PRIOR). */
static void give_prior(struct mcts *m, struct node *n, const struct pos *pos, bool shared)
{
	add_prior(n, leaf_value(m, pos), MCTS_MIX_PRIOR, shared);
}

/* How backup() writes: one thread; the pipeline (one writer, virtual
 * losses); workers sharing the tree (atomics, virtual losses). */
enum { BACKUP_ONE, BACKUP_PIPE, BACKUP_SHARED };

/* Add X (an outcome for X) and FRAC / 65536 of a result for X to node N at
 * DEPTH of the path, clipped into the outcomes N's bounds allow (*X and
 * *FRAC as clipped go on up). */
static inline __attribute__((always_inline)) void
backup_node(struct node *n, int depth, int turn, int *x, unsigned *frac, int mode)
{
	bool shared = mode == BACKUP_SHARED;
	int f = LOAD(n->flags);
	uint32_t won;

	if ((f & OUTCOMES_MASK) != OPEN_OUTCOMES) /* (else clipping changes nothing) */
		clip_score(x, frac, f >> 3 & 3, f >> 5 & 3);
	won = (*x == WON) + add_frac(n, *frac, shared);
	if (shared && depth == 0) {
		ADD(n->vx, VX(1, won));
		if (*x == DRAWN)
			ADD(n->draws, 1);
	} else if (shared) {
		/* The visit was counted on the way down, as a loss for the side
		 * that chose N. */
		won -= chooser(turn, depth) == SIDE_O;
		if (won != 0)
			ADD(n->x_wins, won);
		if (*x == DRAWN)
			ADD(n->draws, 1);
	} else if (mode == BACKUP_PIPE) {
		/* (the same, the tree having one writer) */
		n->visits += depth == 0;
		n->x_wins += won - (depth > 0 && chooser(turn, depth) == SIDE_O);
		n->draws += *x == DRAWN;
	} else {
		n->visits++;
		n->x_wins += won;
		n->draws += *x == DRAWN;
	}
}

/* backup() for MODE: the bounds from the leaf up while they change, then
 * the statistics alone. */
static inline __attribute__((always_inline)) void
backup_path(struct mcts *m, const uint32_t *path, int depth, int x, unsigned frac, bool changed,
	    int mode)
{
	struct node *nodes = m->nodes;
	int turn = m->root_pos.turn, i = depth;

	if (changed) {
		/* (one thread) path[i + 1]'s bounds before its update; a new
		 * node's are its own */
		unsigned old = LOAD(nodes[path[depth]].bounds);

		backup_node(&nodes[path[i]], i, turn, &x, &frac, mode);
		for (i = depth - 1; i >= 0 && changed; i--) {
			struct node *n = &nodes[path[i]];
			unsigned b = LOAD(n->bounds);
			int side = turn ^ (i & 1);

			/* The node that got a child looks at all its children;
			 * those above it, alone, only at the one on the path. */
			if (mode == BACKUP_SHARED)
				changed = update_bounds_locked(m, n, side);
			else if (i == depth - 1 && (n->flags & NODE_FULL))
				changed = update_bounds(m, n, side);
			else
				changed = update_bounds_after(m, n, side, &nodes[path[i + 1]], old);
			if (changed && i == 0)
				ADD(m->root_epoch, 1); /* what passes over may change */
			old = b;
			backup_node(n, i, turn, &x, &frac, mode);
		}
	}
	for (; i >= 0; i--)
		backup_node(&nodes[path[i]], i, turn, &x, &frac, mode);
}

/* Add the playout result X (an outcome for X), plus FRAC / 65536 of a
 * result for X when a leaf's value is backed up, to the DEPTH + 1 nodes of
 * PATH, bounds first while they change (CHANGED), the score clipped into
 * them. */
static inline __attribute__((always_inline)) void
backup(struct mcts *m, const uint32_t *path, int depth, int x, unsigned frac, bool changed)
{
	if (m->shared)
		backup_path(m, path, depth, x, frac, changed, BACKUP_SHARED);
	else if (m->pool != NULL)
		backup_path(m, path, depth, x, frac, changed, BACKUP_PIPE);
	else
		backup_path(m, path, depth, x, frac, changed, BACKUP_ONE);
}

/* Go down from node PARENT at DEPTH - 1 of W's path to its child CUR at
 * DEPTH: the position there is W's from its last path if that went
 * through CUR too, else from W's cache of positions, else the parent's
 * with CUR's move played (and the rest of the last path is dropped). */
static const struct pos *line_step(struct mcts *m, struct worker *w, int depth, uint32_t cur)
{
	if (depth >= w->line_len || w->path[depth] != cur) {
		unsigned k = cur % POS_CACHE;

		w->path[depth] = cur;
		if (w->known[k].node == cur) {
			w->line[depth] = w->known[k].pos;
		} else {
			w->line[depth] = w->line[depth - 1];
			game_play(m->g, &w->line[depth], m->nodes[cur].move);
			w->known[k].node = cur;
			w->known[k].pos = w->line[depth];
		}
		w->line_len = depth + 1;
	}
	return &w->line[depth];
}

/* Node I's implicit minimax value (struct mcts' implicit) again, SIDE
 * moving there: the best for SIDE of its children's and, while it is not
 * fully expanded, of its next slot's, the best move not yet a child
 * (mcts_order_moves() wrote their values, best first, into the implicit
 * array too). Returns whether it changed. */
static bool implicit_node(struct mcts *m, uint32_t i, int side)
{
	const struct node *n = &m->nodes[i];
	uint32_t base;
	int k = kids_of(n, &base), f = LOAD_ACQ(n->flags), best = -1;
	unsigned old;

	for (int j = 0; j < k; j++) {
		int v = LOAD(m->implicit[base + (uint32_t)j]);

		v = side == SIDE_X ? v : 65535 - v;
		best = v > best ? v : best;
	}
	if ((f & (NODE_FULL | NODE_ORDERED)) == NODE_ORDERED && k < LOAD(n->cap)) {
		/* (mcts_order_moves() wrote it; never the slot's own fields,
		 * which another worker may be making into a child) */
		int v = LOAD(m->implicit[base + (uint32_t)k]);

		v = side == SIDE_X ? v : 65535 - v;
		best = v > best ? v : best;
	}
	if (best < 0)
		return false; /* no children yet: its own value stands */
	best = side == SIDE_X ? best : 65535 - best;
	old = LOAD(m->implicit[i]);
	STORE(m->implicit[i], (uint16_t)best);
	return old != (unsigned)best;
}

/* After an iteration whose leaf is at DEPTH of PATH: the implicit minimax
 * values from the leaf's parent up, while they change; not the root's,
 * which no selection reads (and which would cost a scan of as many as 81
 * children an iteration). */
static void implicit_update(struct mcts *m, const uint32_t *path, int depth)
{
	int turn = m->root_pos.turn;

	for (int i = depth - 1; i >= 1; i--)
		if (!implicit_node(m, path[i], turn ^ (i & 1)))
			break;
}

/* mcts_finish() (mcts-node.h), inlined into iterate(). */
static inline __attribute__((always_inline)) void
finish(struct mcts *m, struct worker *w, const uint32_t *path, int depth, int r, unsigned frac,
       bool changed, int root_j)
{
	if (m->implicit != NULL)
		implicit_update(m, path, depth);
	backup(m, path, depth, outcome_of_result(r), frac, changed);
	if (root_j >= 0 && w->rc.valid && w->rc.idx[root_j] == path[1])
		root_cache_touch(m, &w->rc, root_j); /* the root's child chosen: its terms changed */
}

/* The end of W's iteration whose leaf, at DEPTH of its path, was not
 * handed to a player: the prior the pipeline's tree thread left for the
 * job (descend()) given here, then finish(). */
static inline __attribute__((always_inline)) void
finish_here(struct mcts *m, struct worker *w, int depth, int r, unsigned frac, bool changed,
	    int root_j)
{
	if (w->prior_depth > 0) {
		give_prior(m, &m->nodes[w->path[w->prior_depth]], &w->line[w->prior_depth], false);
		w->prior_depth = 0;
	}
	finish(m, w, w->path, depth, r, frac, changed, root_j);
}

/* From node N, at DEPTH - 1 of W's path, to the child the search selects
 * (PICK if not 0; at DEPTH, its position in *POS): its virtual loss (VLOSS:
 * threads), and under eval=mix (MIX) its prior on its second visit. T as
 * in iterate(). */
static inline __attribute__((always_inline)) uint32_t
descend(struct mcts *m, struct worker *w, const struct node *n, int depth, const struct pos **pos,
	struct mcts_trace *t, bool vloss, bool mix, uint32_t pick)
{
	struct node *nodes = m->nodes;
	uint32_t cur = pick != 0 ? pick : depth == 1 ? root_select(m, w)
							: select_child(m, n, (*pos)->turn),
		 seen = 0;

	if (cur == 0) /* (every child passed over: cannot happen in a full node) */
		kids_of(n, &cur);

	*pos = line_step(m, w, depth, cur);
	if (vloss)
		seen = virtual_loss(m, &nodes[cur], chooser(m->root_pos.turn, depth));
	if (mix) {
		if (!vloss)
			seen = nodes[cur].visits;
		if (seen == 1 && !(LOAD_ACQ(nodes[cur].flags) & NODE_TERMINAL)) {
			/* (the pipeline: the job's player computes it, or
			 * iterate() when there is no job) */
			if (w->slot != NULL)
				w->prior_depth = depth;
			else
				give_prior(m, &nodes[cur], *pos, m->shared);
			if (t != NULL)
				t->prior = true;
		}
	}
	if (t != NULL)
		t->path[t->path_len++] = nodes[cur].move;
	return cur;
}

/* (order=net) Whether node N, below the root and not fully expanded, may
 * have one more child: fewer than MCTS_WIDEN_BASE + MCTS_WIDEN_RATE *
 * sqrt(visits) so far. */
static inline bool widens(const struct node *n)
{
	double k = LOAD(n->nkids) - MCTS_WIDEN_BASE;

	return k < 0 || k * k < MCTS_WIDEN_RATE * MCTS_WIDEN_RATE * LOAD(n->visits);
}

/* One iteration by worker W; T (if not NULL) records it. */
static void iterate(struct mcts *m, struct worker *w, struct mcts_trace *t)
{
	struct node *nodes = m->nodes;
	const struct pos *pos;
	struct pos leaf;
	uint32_t cur = m->root, pick;
	int depth = 0, result, root_j;
	unsigned frac = 0;
	bool changed = false, shared = m->shared, vloss = m->pool != NULL;
	bool mix = m->p.eval == MCTS_EVAL_MIX;

	if (w->line_len == 0 || w->path[0] != cur) {
		w->path[0] = cur;
		w->line[0] = m->root_pos;
		w->line_len = 1;
	}
	pos = &w->line[0];
	for (;;) {
		struct node *n = &nodes[cur];
		int flags = LOAD_ACQ(n->flags);

		if (flags & NODE_TERMINAL) {
			result = pos->result;
			/* (threads: the worker that made it may have updated
			 * the parent before a sibling's proof was visible) */
			changed = shared && m->p.solver;
			break;
		}
		/* An exact node's playouts all end one way: no need to play.
		 * (One merely proven goes on being searched, for its distance.) */
		if (is_exact(n)) {
			result = result_of_outcome(score_outcome(LOAD(n->bounds) & 0xff));
			changed = shared && m->p.solver;
			break;
		}
		pick = 0;
		if ((flags & (NODE_FULL | NODE_ORDERED)) == NODE_ORDERED && depth > 0 && !widens(n))
			pick = select_child(m, n, pos->turn); /* (0: every child passed over) */
		if (!(flags & NODE_FULL) && pick == 0) {
			uint32_t fresh;

			leaf = *pos;
			fresh = expand(m, w, cur, &leaf, &changed);
			if (fresh != 0) {
				w->path[++depth] = fresh;
				w->line[depth] = leaf;
				w->line_len = depth + 1;
				if (vloss)
					virtual_loss(m, &nodes[fresh], chooser(m->root_pos.turn, depth));
				if (t != NULL) {
					t->expanded = nodes[fresh].move;
					t->prior |= mix && w->fresh_value != NO_VALUE;
				}
				if (LOAD(nodes[fresh].flags) & NODE_TERMINAL)
					result = leaf.result;
				else
					result = leaf_result(m, w, &leaf, t, &frac);
				break;
			}
			if (!(LOAD_ACQ(n->flags) & NODE_FULL)) {
				/* The arena is full, or another worker is adding a
				 * child here: evaluate from here. */
				result = leaf_result(m, w, &leaf, t, &frac);
				break;
			}
		}
		cur = descend(m, w, n, ++depth, &pos, t, vloss, mix, pick);
	}
	if (depth > w->max_depth)
		w->max_depth = depth;
	root_j = w->rc.valid && depth > 0 ? w->rc.last : -1;
	if (w->order_node != 0 && result != RESULT_HANDED)
		order_here(m, w, &leaf); /* (no job to carry it: a win at once) */
	if (result == RESULT_HANDED)
		pipe_hold(m, w, depth, frac, changed, root_j);
	else
		finish_here(m, w, depth, result, frac, changed, root_j);
	if (t != NULL) {
		t->result = result;
		t->value = frac != 0 ? frac / 65536.0 : x_score(result);
		t->estimate = frac != 0;
	}
}


void mcts_iterate(struct mcts *m, struct worker *w, struct mcts_trace *t)
{
	iterate(m, w, t);
}

unsigned mcts_leaf_value(struct mcts *m, const struct pos *pos)
{
	return leaf_value(m, pos);
}

void mcts_add_prior(struct mcts *m, uint32_t node, unsigned q)
{
	add_prior(&m->nodes[node], q, MCTS_MIX_PRIOR, m->shared);
}

void mcts_finish(struct mcts *m, struct worker *w, const uint32_t *path, int depth, int r,
		 unsigned frac, bool changed, int root_j)
{
	/* (the pipeline) the root's cache may have been built while the job
	 * was in flight: its entry is the one of path[1] */
	if (depth > 0 && w->rc.valid && (root_j < 0 || w->rc.idx[root_j] != path[1]))
		for (root_j = w->rc.n - 1; root_j >= 0 && w->rc.idx[root_j] != path[1]; root_j--)
			;
	finish(m, w, path, depth, r, frac, changed, root_j);
}
