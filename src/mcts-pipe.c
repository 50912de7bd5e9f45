/* mcts-pipe.c - MCTS on several threads as a pipeline (parallel=pipeline):
 * worker 0 alone walks and writes the tree (selection, expansion, backup),
 * and hands each leaf's position to the other workers, the players, who
 * play it out and hand the result back.
 *
 * Why: where two cores take hundreds of nanoseconds to pass a cache line
 * (a virtual machine's vCPUs), workers sharing one tree spend their time
 * waiting for the lines of the nodes the other one wrote last, and two
 * run no faster than one. Here only the jobs cross between cores, a line
 * or two each, and neither side waits for them as long as there is work
 * in flight: up to PIPE_SLOTS jobs, each with a virtual loss on its path,
 * so the tree thread goes on selecting while their playouts run.
 *
 * The jobs are numbered from the search's start and pass in batches of
 * PIPE_BATCH consecutive jobs: batch B is offered to player 1 + B % P (P
 * players) once its last job is handed out, and its jobs are backed up
 * together when job B * PIPE_BATCH + PIPE_SLOTS is about to be handed out,
 * or at the end of the run (one not complete then is played out by the
 * tree thread, and the next job starts a batch). A batch is taken by
 * whoever claims it first: its player, or the tree thread when it needs
 * the results and the player has not started (a player that lost its
 * core to another process, or slower than the tree): so the tree thread
 * never waits for a batch no one has begun; and one a player has begun
 * and not finished after many playouts' time (it lost its core
 * meanwhile), the tree thread plays out as well. Under eval=mix, the
 * network's prior of the node on the job's path at its second visit (the
 * leaf's parent; the leaf itself when the arena is full) is computed by
 * whoever plays the job out, and given at the backup: it was a seventh
 * of the tree thread's time, the pipeline's bottleneck. So, under
 * order=net, is the order of a node's block of children, valued by the
 * network when the node is first expanded (mcts.c, defer_order()): the
 * node is played out from again until the job is backed up. Each job's
 * playout draws from a generator seeded by the job's number, whoever
 * plays it: with a seed, a pipelined search is the same every time,
 * whatever the threads' timing. */
#include "config.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "mcts-node.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define relax() _mm_pause()
#else
#define relax() ((void)0)
#endif

/* Wait a moment for another thread: a pause at first, then the core given
 * up (with more threads than cores, the one waited for may be the one
 * that needs it). */
static inline void wait_turn(unsigned *spins)
{
	if (++*spins < 1000)
		relax();
	else
		sched_yield();
}

#define PIPE_SLOTS 16

/* Jobs pass between threads in batches of PIPE_BATCH: one claim, one
 * line of results and one wait for a batch's positions, rather than for
 * each job; on two cores that hand-over was a fifth of each thread's
 * time. */
#define PIPE_BATCH 4
#define PIPE_BATCHES (PIPE_SLOTS / PIPE_BATCH)
_Static_assert(PIPE_SLOTS % PIPE_BATCH == 0 && PIPE_BATCH <= 4, "a batch's results fit in a word");

/* How long the tree thread waits for a batch a player is playing out
 * before it plays it out too: many times a batch's length. */
#define REPLAY_SPINS 1000

/* A batch's positions, those whose priors are wanted, and on a line of
 * their own, who took it and its results. Batch numbers are kept modulo
 * 2^32 here: fewer than PIPE_BATCHES are in flight. */
struct pipe_slot {
	_Alignas(64) struct pos pos[PIPE_BATCH];
	/* (eval=mix) the position whose prior job I wants, if bit I of want is set */
	struct pos prior[PIPE_BATCH];
	unsigned want;
	/* (order=net) the block job I orders, if bit I of sort is set: its
	 * first slot and its count; the position is the job's */
	uint32_t order_base[PIPE_BATCH];
	uint8_t order_count[PIPE_BATCH];
	unsigned sort;
	/* (eval=mix) bit I set: job I's leaf was valued when its block was
	 * ordered, so it gets a playout, which the tree thread blends with
	 * that value (pipe_job's known), rather than a draw of which */
	unsigned blend;
	_Alignas(64) uint32_t ticket; /* the next batch here not yet taken */
	uint32_t copied;               /* the last batch here a player copied, plus one */
	uint64_t done;                 /* the last batch played out, plus one, << 32 | results */
	unsigned value[PIPE_BATCH];    /* the priors wanted, set before copied or done */
	unsigned leaf[PIPE_BATCH];     /* (eval=mix) a job's leaf value, if its result
	                                * is RESULT_VALUE; set before copied or done */
};

#define DONE(b, results) ((uint64_t)(uint32_t)((b) + 1) << 32 | (uint64_t)(results))
#define DONE_BATCH(d) ((uint32_t)((d) >> 32))

/* What the tree thread keeps of a job handed out, for its backup. */
struct pipe_job {
	int depth, root_j;
	unsigned frac;
	bool changed;
	uint32_t prior; /* the node given the prior with the results, 0: none */
	uint32_t order; /* the node whose block the job ordered, 0: none */
	uint32_t known; /* (eval=mix) the leaf's value to blend, NO_VALUE: none */
	uint32_t path[GAME_MAX_PLIES + 1];
};

/* A player's place, on a line of its own: the next batch offered to it;
 * the first player's bytes of the arena faulted in (arena_fault_ahead()). */
struct pipe_player {
	_Alignas(64) uint64_t next;
	size_t faulted;
};

struct pipe {
	/* read by the players at every batch: on a line no one writes (beside
	 * tail, the tree thread's writes of it made every batch a miss) */
	_Alignas(64) uint64_t seed; /* of the jobs' generators */
	int players;
	/* jobs in whole batches handed out: written by the tree thread once a
	 * batch, read by the players */
	_Alignas(64) uint64_t ready;
	/* the tree thread's own: jobs handed out and jobs backed up (when
	 * head was where the players read it, the tree thread waited for its
	 * line at each iteration) */
	_Alignas(64) uint64_t head, tail;
	struct pipe_slot slot[PIPE_BATCHES];
	struct pipe_job job[PIPE_SLOTS];
	struct pipe_player player[]; /* a player each */
};

struct pipe *pipe_new(int threads, uint64_t seed)
{
	int players = threads - 1;
	size_t size = sizeof(struct pipe) + (size_t)players * sizeof(struct pipe_player);
	struct pipe *p = xcalloc_lines(1, size);

	p->seed = splitmix64(&seed);
	p->players = players;
	for (int i = 0; i < PIPE_BATCHES; i++)
		p->slot[i].ticket = (uint32_t)i;
	for (int i = 0; i < players; i++)
		p->player[i].next = (uint64_t)i;
	return p;
}

void pipe_free(struct pipe *p)
{
	free(p);
}

/* Where the tree thread writes job N's position. */
static inline struct pos *job_pos(struct pipe *p, uint64_t n)
{
	return &p->slot[n / PIPE_BATCH % PIPE_BATCHES].pos[n % PIPE_BATCH];
}

void pipe_hold(struct mcts *m, struct worker *w, int depth, unsigned frac, bool changed,
	       int root_j)
{
	struct pipe *p = m->pipe;
	struct pipe_job *j = &p->job[p->head % PIPE_SLOTS];
	struct pipe_slot *s = &p->slot[p->head / PIPE_BATCH % PIPE_BATCHES];
	unsigned i = p->head % PIPE_BATCH;

	if (i == 0)
		s->want = s->sort = s->blend = 0;
	j->prior = 0;
	j->known = w->handed_value;
	w->handed_value = NO_VALUE;
	if (j->known != NO_VALUE)
		s->blend |= 1u << i;
	j->order = w->order_node;
	if (w->order_node != 0) {
		const struct node *n = &m->nodes[w->order_node];

		s->order_base[i] = n->child;
		s->order_count[i] = n->cap;
		s->sort |= 1u << i;
		w->order_node = 0;
	}
	if (w->prior_depth > 0) {
		j->prior = w->path[w->prior_depth];
		s->prior[i] = w->line[w->prior_depth];
		s->want |= 1u << i;
		w->prior_depth = 0;
	}
	j->depth = depth;
	j->frac = frac;
	j->changed = changed;
	j->root_j = root_j;
	memcpy(j->path, w->path, (size_t)(depth + 1) * sizeof(uint32_t));
	/* the position is in its slot: once its batch is complete, a player
	 * may take it */
	if (++p->head % PIPE_BATCH == 0)
		STORE_REL(p->ready, p->head);
	if (root_j >= 0)
		root_cache_touch(m, &w->rc, root_j); /* the virtual loss changed its terms */
}

/* Claim batch B, in slot S, if no one has: whoever does plays it out. */
static inline bool claim(struct pipe_slot *s, uint64_t b)
{
	uint32_t want = (uint32_t)b;

	return __atomic_compare_exchange_n(&s->ticket, &want, (uint32_t)(b + PIPE_BATCHES), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Seed the generators R of batch B's first COUNT jobs, each its job's own,
 * and under eval=mix let each say whether its leaf gets a playout or its
 * value: those values are left in slot S (whoever plays the batch out
 * writes the same there, before it says the slot may be reused: a player
 * that lost its core mid-batch must not write into the next batch's).
 * Returns the jobs valued, a bit each. */
static unsigned eval_leaves(struct mcts *m, const struct pipe *p, struct pipe_slot *s, uint64_t b,
			    const struct pos *pos, int count, struct rng *r)
{
	unsigned valued = 0;

	for (int i = 0; i < count; i++) {
		rng_seed(&r[i], p->seed + b * PIPE_BATCH + (uint64_t)i);
		if (m->p.eval == MCTS_EVAL_MIX && !(s->blend >> i & 1) && mcts_mix_net(&r[i])) {
			STORE(s->leaf[i], mcts_leaf_value(m, &pos[i]));
			valued |= 1u << i;
		}
	}
	return valued;
}

/* The results of the first COUNT jobs from POS, a byte each: a playout's
 * with the job's generator R, or RESULT_VALUE for a job in VALUED. */
static uint32_t play_batch(const struct mcts *m, struct pos *pos, int count, struct rng *r,
			   unsigned valued)
{
	uint32_t results = 0;

	for (int i = 0; i < count; i++) {
		int result = valued >> i & 1 ? RESULT_VALUE
					     : game_rollout(m->g, &pos[i], &r[i], m->p.rollout);

		results |= (uint32_t)result << 8 * i;
	}
	return results;
}

/* The priors wanted of the first COUNT jobs in slot S, left there, and
 * the blocks wanted ordered, in the arena (a tree thread replaying the
 * batch writes the same values as its player). POS: the jobs' positions. */
static void eval_priors(struct mcts *m, struct pipe_slot *s, const struct pos *pos, int count)
{
	for (int i = 0; i < count; i++) {
		if (s->want >> i & 1)
			STORE(s->value[i], mcts_leaf_value(m, &s->prior[i]));
		if (s->sort >> i & 1)
			mcts_order(m, &pos[i], s->order_base[i], s->order_count[i]);
	}
}

/* (the tree thread) Play out the first COUNT jobs of batch B, in slot S,
 * from a copy of their positions (a player may be copying them), and
 * leave the results in S as a player would. */
static void play_slot(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t b,
		      int count)
{
	struct pos pos[PIPE_BATCH];
	struct rng r[PIPE_BATCH];
	unsigned valued;

	memcpy(pos, s->pos, (size_t)count * sizeof(*pos));
	eval_priors(m, s, pos, count);
	valued = eval_leaves(m, p, s, b, pos, count, r);
	STORE_REL(s->done, DONE(b, play_batch(m, pos, count, r, valued)));
}

/* (the tree thread) Play out the COUNT jobs of batch B, in slot S, if no
 * one has taken it. Returns whether it did. */
static bool play_ahead(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t b,
		       int count)
{
	if (!claim(s, b))
		return false;
	play_slot(m, p, s, b, count);
	return true;
}

/* (the tree thread) Play out batch B, in slot S, which its player took
 * but has not finished: a player that lost its core would keep the tree
 * waiting for a scheduler's slice. The results are the same as the
 * player's, which then finds them there and drops its own. Waits until
 * the player has copied the positions and set the priors and leaf values,
 * which the next batch overwrites. */
static void replay(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t b)
{
	play_slot(m, p, s, b, PIPE_BATCH);
	for (unsigned spins = 0; LOAD_ACQ(s->copied) != (uint32_t)(b + 1);)
		wait_turn(&spins);
}

/* Wait for batch B, in slot S, which its player took: meanwhile play out
 * later batches no one has taken (a player that fell behind, a while
 * without its core, catches up the sooner), and when there are none,
 * wait a moment, then play it out here too. */
static void await_batch(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t b)
{
	uint64_t k = b + 1;

	for (unsigned spins = 0; DONE_BATCH(LOAD_ACQ(s->done)) != (uint32_t)(b + 1);) {
		while ((k + 1) * PIPE_BATCH <= p->head &&
		       !play_ahead(m, p, &p->slot[k % PIPE_BATCHES], k, PIPE_BATCH))
			k++;
		if ((k + 1) * PIPE_BATCH <= p->head)
			continue;
		if (++spins == REPLAY_SPINS)
			replay(m, p, s, b);
		else
			relax();
	}
}

/* Back up the oldest batch in flight (at the end of a run, the jobs of one
 * not yet complete, which no player takes: then the next job starts a
 * batch), played out here if its player has not taken it. */
static void settle_oldest(struct mcts *m, struct worker *w)
{
	struct pipe *p = m->pipe;
	uint64_t n = p->tail, b = n / PIPE_BATCH;
	int count = p->head - n < PIPE_BATCH ? (int)(p->head - n) : PIPE_BATCH;
	struct pipe_slot *s = &p->slot[b % PIPE_BATCHES];
	uint32_t results;

	if (DONE_BATCH(LOAD_ACQ(s->done)) != (uint32_t)(b + 1) && !play_ahead(m, p, s, b, count))
		await_batch(m, p, s, b);
	results = (uint32_t)LOAD(s->done);
	for (int i = 0; i < count; i++) {
		const struct pipe_job *j = &p->job[(n + (uint64_t)i) % PIPE_SLOTS];
		int r = (int)(results >> 8 * i & 0xff);
		unsigned frac = j->frac;

		if (j->prior != 0)
			mcts_add_prior(m, j->prior, LOAD(s->value[i]));
		if (j->order != 0)
			mcts_order_done(m, j->order);
		if (r == RESULT_VALUE)
			r = value_result(LOAD(s->leaf[i]), &frac);
		else if (j->known != NO_VALUE)
			r = blend_result(r, j->known, &frac);
		mcts_finish(m, w, j->path, j->depth, r, frac, j->changed, j->root_j);
	}
	p->tail = (b + 1) * PIPE_BATCH;
	if (count < PIPE_BATCH) {
		p->head = p->tail;
		STORE_REL(p->ready, p->tail);
	}
}

/* Worker 0's part of a run: iterations until the budget is spent, the
 * deadline passes or the root is solved, then every job backed up. */
static void pipe_tree(struct mcts *m, struct worker *w)
{
	struct pipe *p = m->pipe;
	uint64_t budget = (uint64_t)m->budget, done = 0;

	while (done < budget && mcts_can_iterate(m)) {
		if (p->head - p->tail == PIPE_SLOTS) {
			settle_oldest(m, w);
			if (!mcts_can_iterate(m))
				break; /* that backup solved the root */
		}
		w->slot = job_pos(p, p->head);
		mcts_iterate(m, w, NULL);
		done++;
		if (m->deadline != 0 && (done & 63) == 0 && now_ns() >= m->deadline)
			break;
	}
	w->slot = NULL;
	while (p->tail < p->head)
		settle_oldest(m, w);
	w->iterations += done;
	STORE_REL(m->stop, 1);
}

/* A player's part of a run: the batches offered to it that the tree
 * thread has not taken, in order, until the tree thread says the run is
 * over (after every job handed out was backed up). While it waits for
 * one, the first player faults in the arena's next pages: a tenth of the
 * tree thread's time went to the kernel clearing them. */
static void pipe_player(struct mcts *m, struct pipe_player *me)
{
	struct pipe *p = m->pipe;
	uint64_t b = me->next, step = (uint64_t)p->players, head = LOAD_ACQ(p->ready);

	for (;; b += step, me->next = b) {
		struct pipe_slot *s = &p->slot[b % PIPE_BATCHES];
		struct pos pos[PIPE_BATCH];
		struct rng r[PIPE_BATCH];
		uint64_t before;
		unsigned spins = 0, valued;

		while (head < (b + 1) * PIPE_BATCH) {
			if (LOAD_ACQ(m->stop))
				return;
			if (me != p->player || !arena_fault_ahead(m, &me->faulted))
				wait_turn(&spins);
			head = LOAD_ACQ(p->ready);
		}
		if (!claim(s, b))
			continue;
		before = LOAD(s->done);
		memcpy(pos, s->pos, sizeof(pos));
		/* (before copied: see replay()) */
		eval_priors(m, s, pos, PIPE_BATCH);
		valued = eval_leaves(m, p, s, b, pos, PIPE_BATCH, r);
		STORE_REL(s->copied, (uint32_t)(b + 1));
		/* (a tree thread that replayed the batch has put the same there) */
		__atomic_compare_exchange_n(&s->done, &before,
					    DONE(b, play_batch(m, pos, PIPE_BATCH, r, valued)), false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
}

void pipe_worker(struct mcts *m, int index)
{
	if (index == 0)
		pipe_tree(m, &m->w[0]);
	else
		pipe_player(m, &m->pipe->player[index - 1]);
}
