/* mcts-choose.c - what a search's tree says: the move to play, which keeps
 * every proven result, and the statistics of a node's children. */
#include "config.h"

#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts-node.h"

/* Lower confidence bound on the mean reward of N for SIDE: about two
 * standard deviations of a mean of VISITS rewards in [0, 1] below it. */
static double lower_bound_for(const struct node *n, int side)
{
	return n->visits == 0 ? 0 : value_for(n, side) - 1 / sqrt(n->visits);
}

/* Which of two candidates A and B (A may be 0) to keep: more visits, then
 * a higher mean. */
static uint32_t more_visited(const struct node *nodes, uint32_t a, uint32_t b, int side)
{
	if (a == 0 || nodes[b].visits > nodes[a].visits)
		return b;
	if (nodes[b].visits == nodes[a].visits && value_for(&nodes[b], side) > value_for(&nodes[a], side))
		return b;
	return a;
}

/* Which of two children A and B (A may be 0), proven to have the same
 * outcome, to keep: the higher bounds (a quicker win, a slower loss), then
 * more visits. */
static uint32_t better_proven(const struct node *nodes, uint32_t a, uint32_t b, int side)
{
	int alo, ahi, blo, bhi;

	if (a == 0)
		return b;
	bounds_for(&nodes[a], side, &alo, &ahi);
	bounds_for(&nodes[b], side, &blo, &bhi);
	if (blo != alo)
		return blo > alo ? b : a;
	if (bhi != ahi)
		return bhi > ahi ? b : a;
	return nodes[b].visits > nodes[a].visits ? b : a;
}

/* Whether child CH, neither proven won nor lost for SIDE, may do better
 * than FLOOR, the outcome its parent assures SIDE, counting a child that
 * might lose only on strong evidence (a lower confidence bound above 1/2)
 * when a draw is assured. LO and HI its outcomes. */
static bool in_play(const struct node *ch, int side, int floor, int lo, int hi)
{
	return hi > floor && (floor < DRAWN || lo == DRAWN || lower_bound_for(ch, side) > 0.5);
}

/* The mean of CH for SIDE as the selection sees it: with implicit
 * minimax's share (struct mcts' implicit) while its outcome is open. */
static double mean_seen(const struct mcts *m, uint32_t c, int side)
{
	const struct node *ch = &m->nodes[c];
	double q = value_for(ch, side);

	return m->implicit != NULL ? implicit_q(q, LOAD(m->implicit[c]), LOAD(ch->flags), side) : q;
}

/* BEST being the most visited child in play of a node whose COUNT
 * children start at BASE, SIDE to move there: of the children in play
 * whose outcome is open and that have at least MCTS_CHOICE_SHARE of BEST's
 * visits, the one with the highest mean_seen() (BEST itself when its
 * outcome is not open or it has fewer than MCTS_CHOICE_VISITS visits). A
 * child whose value has just overtaken the most visited one's has not
 * caught up on visits when the time runs out. */
static uint32_t best_in_play(const struct mcts *m, uint32_t best, uint32_t base, int count,
			     int side, int floor)
{
	const struct node *nodes = m->nodes;
	double least = MCTS_CHOICE_SHARE * LOAD(nodes[best].visits), top = -1;
	uint32_t pick = best;

	if ((LOAD(nodes[best].flags) & OUTCOMES_MASK) != OPEN_OUTCOMES ||
	    LOAD(nodes[best].visits) < MCTS_CHOICE_VISITS)
		return best;
	for (int k = count - 1; k >= 0; k--) {
		uint32_t c = base + (uint32_t)k, v = LOAD(nodes[c].visits);
		int lo, hi;
		double q;

		if (v < least || (LOAD(nodes[c].flags) & OUTCOMES_MASK) != OPEN_OUTCOMES)
			continue;
		bounds_for(&nodes[c], side, &lo, &hi);
		if (!in_play(&nodes[c], side, floor, score_outcome(lo), score_outcome(hi)))
			continue;
		q = mean_seen(m, c, side);
		if (q > top) {
			top = q;
			pick = c;
		}
	}
	return pick;
}

/* The child of node N to play for SIDE, the side to move there, keeping
 * every proven result: a proven win, the quickest first (on the known
 * bounds); else the most visited child in play (in_play()), or with
 * BY_VALUE (the move played at the root) best_in_play()'s among the well
 * visited; else the most visited proven draw; else, every child being
 * proven lost, the slowest loss. 0 when N has no children. */
static uint32_t best_child(const struct mcts *m, const struct node *n, int side, bool by_value)
{
	const struct node *nodes = m->nodes;
	uint32_t win = 0, best = 0, draw = 0, lost = 0, base;
	int floor, top, count = kids_of(n, &base);

	bounds_for(n, side, &floor, &top);
	floor = score_outcome(floor);
	for (int k = count - 1; k >= 0; k--) {
		uint32_t c = base + (uint32_t)k;
		const struct node *ch = &nodes[c];
		int lo, hi;

		bounds_for(ch, side, &lo, &hi);
		lo = score_outcome(lo);
		hi = score_outcome(hi);
		if (lo == WON)
			win = better_proven(nodes, win, c, side);
		else if (hi == LOST)
			lost = better_proven(nodes, lost, c, side);
		else if (lo == DRAWN && hi == DRAWN)
			draw = more_visited(nodes, draw, c, side);
		else if (in_play(ch, side, floor, lo, hi))
			best = more_visited(nodes, best, c, side);
	}
	if (by_value && win == 0 && best != 0)
		best = best_in_play(m, best, base, count, side, floor);
	return win != 0 ? win : best != 0 ? best : draw != 0 ? draw : lost;
}

int mcts_best_move(const struct mcts *m)
{
	const struct node *r = &m->nodes[m->root];
	struct moveset legal;
	uint32_t c, base;

	game_legal(m->g, &m->root_pos, &legal);
	if (moveset_empty(&legal))
		return MOVE_NONE;
	c = best_child(m, r, m->root_pos.turn, true);
	if (c != 0 && proof_for(&m->nodes[c], m->root_pos.turn) == PROOF_LOSS) {
		/* Every child loses: a move not tried yet may not. */
		for (int k = kids_of(r, &base) - 1; k >= 0; k--)
			moveset_remove(&legal, m->nodes[base + (uint32_t)k].move);
		if (!moveset_empty(&legal))
			c = 0;
	}
	/* No iteration yet (or only lost moves tried): any legal move. */
	return c != 0 ? m->nodes[c].move : moveset_pop(&legal);
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

/* T's pv: the line the search would play from N, SIDE to move there: at
 * the root the move it plays, below it the most visited. */
static void line_below(const struct mcts *m, const struct node *n, int side, struct mcts_totals *t)
{
	t->pv_len = 0;
	while (t->pv_len < MCTS_PV_MAX) {
		uint32_t c = best_child(m, n, side, n == &m->nodes[m->root]);

		if (c == 0)
			break;
		n = &m->nodes[c];
		t->pv[t->pv_len++] = n->move;
		side = !side;
	}
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
	t->memory_used = (size_t)m->slots * sizeof(struct node);
	t->memory_limit = (size_t)m->capacity * sizeof(struct node);
	t->arena_full = m->arena_full;
	t->max_depth = m->max_depth;
	t->threads = m->threads;
	t->root_proven = proof_for(n, side);
	t->root_proven_plies = plies_of(n);
	t->root_visits = n->visits;
	line_below(m, n, side, t);
}

/* The leaf evaluator's value for SIDE of AT after MOVE (see mcts_child.net). */
static double net_value(const struct mcts *m, const struct pos *at, int move, int side)
{
	struct pos after = *at;
	double v;

	if (m->leaf_ctx == NULL)
		return (double)NAN;
	game_play(m->g, &after, move);
	if (game_over(&after))
		return (double)NAN;
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
	uint32_t base;
	double explore;

	if (totals != NULL)
		fill_totals(m, totals);
	if (path_len < 0 || (path_len > 0 && path == NULL))
		return -1;
	for (int i = 0; i < path_len; i++) {
		int k = kids_of(n, &base) - 1;

		while (k >= 0 && nodes[base + (uint32_t)k].move != path[i])
			k--;
		if (k < 0)
			return -1;
		n = &nodes[base + (uint32_t)k];
		side = !side;
		game_play(m->g, &at, path[i]);
	}
	if (totals != NULL && path_len > 0)
		line_below(m, n, side, totals);
	explore = m->p.c * sqlog_of(n->visits);
	for (int k = kids_of(n, &base) - 1; k >= 0 && count < GAME_MAX_MOVES; k--) {
		const struct node *ch = &nodes[base + (uint32_t)k];
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
		o->implicit = (double)NAN;
		if (m->implicit != NULL) {
			double v = LOAD(m->implicit[base + (uint32_t)k]) / 65535.0;

			o->implicit = side == SIDE_X ? v : 1 - v;
		}
		if (ch->visits > 0 && child_terms(ch, side, -1, -1, true, &q, &rsqrt)) {
			if (m->implicit != NULL)
				q = implicit_q(q, LOAD(m->implicit[base + (uint32_t)k]), ch->flags, side);
			o->uct = q + explore * rsqrt;
		}
		o->proven = proof_for(ch, side);
		o->proven_plies = plies_of(ch);
		o->net = net_value(m, &at, ch->move, side);
	}
	qsort(all, (size_t)count, sizeof(all[0]), child_cmp);
	if (max < count)
		count = max < 0 ? 0 : max;
	if (count > 0)
		memcpy(out, all, (size_t)count * sizeof(all[0]));
	return count;
}

double mcts_sqrt_log(uint32_t n)
{
	return sqlog_of(n);
}
