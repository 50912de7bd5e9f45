/* mcts-bounds.c - the solver's bounds of a node, recomputed from its
 * children on the way up from an iteration that can move them (see the
 * solver in mcts.c). Off the hot path: called only while bounds change. */
#include "config.h"

#include <assert.h>
#include <sched.h>

#include "mcts-node.h"

/* Recompute the bounds of node N, in play, whose side to move is SIDE,
 * from its children: the best of theirs one ply further, an untried move
 * counting as "win in 1", and never below "loss in 2" (in 1 under
 * --tiebreak, where a move can lose for its maker). Returns whether they
 * changed. (Threads: under N's lock. A child's bounds only narrow, and the
 * lock orders the updates of N, so N's only narrow too.) */
bool update_bounds(struct mcts *m, struct node *n, int side)
{
	const struct node *nodes = m->nodes;
	int lo = score_loss(m->g->rules & RULE_TIEBREAK ? 1 : 2);
	int hi = LOAD_ACQ(n->flags) & NODE_FULL ? SCORE_MIN : score_win(1);
	uint16_t b;
	uint32_t base;

	for (int k = kids_of(n, &base) - 1; k >= 0; k--) {
		int clo, chi;

		bounds_for(&nodes[base + (uint32_t)k], side, &clo, &chi);
		clo = score_back(clo);
		chi = score_back(chi);
		if (clo > lo)
			lo = clo;
		if (chi > hi)
			hi = chi;
	}
	assert(lo <= hi);
	b = side == SIDE_X ? BOUNDS(lo, hi) : BOUNDS(score_flip(hi), score_flip(lo));
	if (b == LOAD(n->bounds))
		return false;
	set_bounds(n, b);
	return true;
}

/* The same (one thread) after child C of N changed from bounds OLD to its
 * own now, mostly without a walk over N's children: a child's bounds only
 * ever narrow, so N's worst can only rise to C's, and N's best only fall,
 * and only when C held it and no other child does. */
bool update_bounds_after(struct mcts *m, struct node *n, int side, const struct node *c,
				unsigned old)
{
	const struct node *nodes = m->nodes;
	int lo, hi, clo, chi, old_clo, old_chi;
	uint16_t b;

	bounds_for(n, side, &lo, &hi);
	bounds_for(c, side, &clo, &chi);
	bounds_side(old, side, &old_clo, &old_chi);
	if ((n->flags & NODE_FULL) && score_back(old_chi) >= hi && score_back(chi) < hi) {
		int top = SCORE_MIN;
		uint32_t base;

		for (int k = kids_of(n, &base) - 1; k >= 0 && top < hi; k--) {
			int klo, khi;

			bounds_for(&nodes[base + (uint32_t)k], side, &klo, &khi);
			if (score_back(khi) > top)
				top = score_back(khi);
		}
		hi = top;
	}
	clo = score_back(clo);
	if (clo > lo)
		lo = clo;
	b = side == SIDE_X ? BOUNDS(lo, hi) : BOUNDS(score_flip(hi), score_flip(lo));
	if (b == n->bounds)
		return false;
	set_bounds(n, b);
	return true;
}

/* Recompute the bounds of node N under its lock (threads: two workers
 * updating one node would each write what it saw, the later one perhaps
 * older news). */
bool update_bounds_locked(struct mcts *m, struct node *n, int side)
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
