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
 * The jobs are numbered from the search's start; job J is offered to
 * player 1 + J % P (P players), in order, and is backed up when job
 * J + PIPE_SLOTS is about to be handed out, or at the end of the run. A
 * job is taken by whoever claims it first: its player, or the tree thread
 * when it needs the result and the player has not started (a player that
 * lost its core to another process, or slower than the tree): so the tree
 * thread never waits for a job no one has begun; and one a player has
 * begun and not finished after many playouts' time (it lost its core
 * meanwhile), the tree thread plays out as well. Each job's playout draws
 * from a generator seeded by the job's number, whoever plays it: with a
 * seed, a pipelined search is the same every time, whatever the threads'
 * timing. */
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

/* How long the tree thread waits for a job a player is playing out before
 * it plays it out too: many times a playout's length. */
#define REPLAY_SPINS 1000

/* A job's position, and on a line of their own, who took it and its
 * result. Job numbers are kept modulo 2^32 here: fewer than PIPE_SLOTS
 * are in flight. */
struct pipe_slot {
	_Alignas(64) struct pos pos;
	_Alignas(64) uint32_t ticket; /* the next job here not yet taken */
	uint32_t copied;               /* the last job here a player copied, plus one */
	uint64_t done;                 /* the last job played out, plus one, << 8 | result */
};

#define DONE(n, result) ((uint64_t)(uint32_t)((n) + 1) << 8 | (uint64_t)(result))
#define DONE_JOB(d) ((uint32_t)((d) >> 8))

/* What the tree thread keeps of a job handed out, for its backup. */
struct pipe_job {
	int depth, root_j;
	unsigned frac;
	bool changed;
	uint32_t path[GAME_MAX_PLIES + 1];
};

/* A player's place, on a line of its own: the next job offered to it;
 * the first player's bytes of the arena faulted in (arena_fault_ahead()). */
struct pipe_player {
	_Alignas(64) uint64_t next;
	size_t faulted;
};

struct pipe {
	_Alignas(64) uint64_t head; /* jobs handed out (written by the tree thread) */
	_Alignas(64) uint64_t tail; /* jobs backed up (the tree thread's own) */
	uint64_t seed;              /* of the jobs' generators */
	int players;
	struct pipe_slot slot[PIPE_SLOTS];
	struct pipe_job job[PIPE_SLOTS];
	struct pipe_player player[]; /* a player each */
};

struct pipe *pipe_new(int threads, uint64_t seed)
{
	int players = threads - 1;
	size_t size = sizeof(struct pipe) + (size_t)players * sizeof(struct pipe_player);
	struct pipe *p;

	if (posix_memalign((void **)&p, 64, size) != 0)
		fatal("out of memory");
	memset(p, 0, size);
	p->seed = splitmix64(&seed);
	p->players = players;
	for (int i = 0; i < PIPE_SLOTS; i++)
		p->slot[i].ticket = (uint32_t)i;
	for (int i = 0; i < players; i++)
		p->player[i].next = (uint64_t)i;
	return p;
}

void pipe_free(struct pipe *p)
{
	free(p);
}

void pipe_hold(struct mcts *m, struct worker *w, int depth, unsigned frac, bool changed,
	       int root_j)
{
	struct pipe *p = m->pipe;
	struct pipe_job *j = &p->job[p->head % PIPE_SLOTS];

	j->depth = depth;
	j->frac = frac;
	j->changed = changed;
	j->root_j = root_j;
	memcpy(j->path, w->path, (size_t)(depth + 1) * sizeof(uint32_t));
	/* the position is in its slot: the player may take it */
	STORE_REL(p->head, p->head + 1);
	if (root_j >= 0)
		root_cache_touch(m, &w->rc, root_j); /* the virtual loss changed its terms */
}

/* Claim job N, in slot S, if no one has: whoever does plays it out. */
static inline bool claim(struct pipe_slot *s, uint64_t n)
{
	uint32_t want = (uint32_t)n;

	return __atomic_compare_exchange_n(&s->ticket, &want, (uint32_t)(n + PIPE_SLOTS), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Job N's playout from POS, with the job's own generator. */
static int play_job(const struct mcts *m, const struct pipe *p, uint64_t n, struct pos *pos)
{
	struct rng r;

	rng_seed(&r, p->seed + n);
	return game_rollout(m->g, pos, &r, m->p.rollout);
}

/* (the tree thread) Play out job N, in slot S, if no one has taken it,
 * leaving the result in S as a player would. Returns whether it did. */
static bool play_ahead(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t n)
{
	struct pos pos;

	if (!claim(s, n))
		return false;
	pos = s->pos;
	STORE_REL(s->done, DONE(n, play_job(m, p, n, &pos)));
	return true;
}

/* (the tree thread) Play out job N, in slot S, which its player took but
 * has not finished: a player that lost its core would keep the tree
 * waiting for a scheduler's slice. The result is the same as the
 * player's, which then finds it there and drops its own. Waits until the
 * player has copied the position, which the next job overwrites. */
static void replay(struct mcts *m, struct pipe *p, struct pipe_slot *s, uint64_t n)
{
	struct pos pos = s->pos;

	STORE_REL(s->done, DONE(n, play_job(m, p, n, &pos)));
	for (unsigned spins = 0; LOAD_ACQ(s->copied) != (uint32_t)(n + 1);)
		wait_turn(&spins);
}

/* Back up the oldest job in flight: play it out here if its player has
 * not taken it; else, while its player finishes it, play out later jobs
 * no one has taken (a player that fell behind, a while without its core,
 * catches up the sooner), and when there are none, wait a moment, then
 * play it out here too. */
static void settle_oldest(struct mcts *m, struct worker *w)
{
	struct pipe *p = m->pipe;
	uint64_t n = p->tail, k = n + 1;
	struct pipe_slot *s = &p->slot[n % PIPE_SLOTS];
	const struct pipe_job *j = &p->job[n % PIPE_SLOTS];

	if (DONE_JOB(LOAD_ACQ(s->done)) != (uint32_t)(n + 1) && !play_ahead(m, p, s, n)) {
		for (unsigned spins = 0; DONE_JOB(LOAD_ACQ(s->done)) != (uint32_t)(n + 1);) {
			while (k < p->head && !play_ahead(m, p, &p->slot[k % PIPE_SLOTS], k))
				k++;
			if (k < p->head)
				continue;
			if (++spins == REPLAY_SPINS)
				replay(m, p, s, n);
			else
				relax();
		}
	}
	mcts_finish(m, w, j->path, j->depth, (int)(LOAD(s->done) & 0xff), j->frac, j->changed,
		    j->root_j);
	p->tail = n + 1;
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
		w->slot = &p->slot[p->head % PIPE_SLOTS].pos;
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

/* A player's part of a run: the jobs offered to it that the tree thread
 * has not taken, in order, until the tree thread says the run is over
 * (after every job handed out was backed up). While it waits for one, the
 * first player faults in the arena's next pages: a tenth of the tree
 * thread's time went to the kernel clearing them. */
static void pipe_player(struct mcts *m, struct pipe_player *me)
{
	struct pipe *p = m->pipe;
	uint64_t n = me->next, step = (uint64_t)p->players, head = LOAD_ACQ(p->head);

	for (;; n += step, me->next = n) {
		struct pipe_slot *s = &p->slot[n % PIPE_SLOTS];
		struct pos pos;
		uint64_t before;
		unsigned spins = 0;

		while (head <= n) {
			if (LOAD_ACQ(m->stop))
				return;
			if (me != p->player || !arena_fault_ahead(m, &me->faulted))
				wait_turn(&spins);
			head = LOAD_ACQ(p->head);
		}
		if (!claim(s, n))
			continue;
		before = LOAD(s->done);
		pos = s->pos;
		STORE_REL(s->copied, (uint32_t)(n + 1));
		if (head > n + step)
			__builtin_prefetch(&p->slot[(n + step) % PIPE_SLOTS].pos);
		/* (a tree thread that replayed the job has put the same there) */
		__atomic_compare_exchange_n(&s->done, &before, DONE(n, play_job(m, p, n, &pos)),
					    false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
}

void pipe_worker(struct mcts *m, int index)
{
	if (index == 0)
		pipe_tree(m, &m->w[0]);
	else
		pipe_player(m, &m->pipe->player[index - 1]);
}
