/* mcts-run.c - a search's life: making it and giving it back, running it
 * in steps on one thread or on a pool of workers (each claiming its
 * iterations from the budget, or as a pipeline: mcts-pipe.c), and moving
 * its root after a move is played, keeping that move's subtree. What one
 * iteration does is in mcts.c. */
#include "config.h"

#include "mcts.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mcts-node.h"
#include "pool.h"

#include "util.h"

/* The exploration tables (see mcts-node.h). */
double mcts_inv_table[SMALL];
double mcts_inv16_table[SMALL];
double mcts_rsqrt_table[SMALL];
double mcts_sqlog_table[SMALL];
double mcts_sqlog_big[(32 - SQLOG_FIRST) << SQLOG_BITS];

static void tables_init(void)
{
	static bool done;

	if (done)
		return;
	mcts_root_init();
	mcts_inv_table[0] = mcts_inv16_table[0] = mcts_rsqrt_table[0] = mcts_sqlog_table[0] = 0;
	for (int n = 1; n < SMALL; n++) {
		mcts_inv_table[n] = 1.0 / n;
		mcts_inv16_table[n] = 1.0 / n * 0x1.0p-16; /* (exact: a power of two) */
		mcts_rsqrt_table[n] = 1.0 / sqrt(n);
		mcts_sqlog_table[n] = sqrt(log(n));
	}
	for (int e = SQLOG_FIRST; e < 32; e++)
		for (int i = 0; i < 1 << SQLOG_BITS; i++)
			mcts_sqlog_big[(e - SQLOG_FIRST) << SQLOG_BITS | i] =
				sqrt(log(ldexp(1 + (i + 0.5) / (1 << SQLOG_BITS), e)));
	done = true;
}

void mcts_params_default(struct mcts_params *p)
{
	p->c = MCTS_DEFAULT_C;
	p->rollout = ROLLOUT_SMART;
	p->solver = true;
	p->memory = (size_t)MCTS_DEFAULT_MEMORY_MB << 20;
	p->seed = 1;
	p->threads = 1;
	p->parallel = MCTS_PARALLEL_AUTO;
	p->eval = MCTS_EVAL_ROLLOUT;
	p->leaf = NULL;
	p->order = MCTS_ORDER_AUTO;
}

size_t mcts_node_bytes(void)
{
	return sizeof(struct node);
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
	arena_init(m, cap);
	m->threads = p->threads < 1 ? 1 : p->threads > MCTS_MAX_THREADS ? MCTS_MAX_THREADS : p->threads;
	/* (each worker on lines of its own: with w[0]'s first line shared with
	 * whatever malloc put before it, the pipeline's tree thread waited for
	 * it at each draw of its generator) */
	m->w = xcalloc_lines((size_t)m->threads, sizeof(*m->w));
	/* Worker 0 draws what the one-thread search always drew. */
	rng_seed(&m->w[0].rng, p->seed);
	for (int i = 1; i < m->threads; i++) {
		uint64_t s = p->seed ^ (uint64_t)i << 32;

		rng_seed(&m->w[i].rng, splitmix64(&s));
	}
	m->root = mcts_root_node(m, root, root->last);
	if (p->leaf == NULL || p->eval == MCTS_EVAL_AUTO)
		m->p.eval = p->leaf == NULL ? MCTS_EVAL_ROLLOUT : MCTS_EVAL_NET;
	if (m->p.eval != MCTS_EVAL_ROLLOUT) {
		m->leaf_ctx = xmalloc(p->leaf->ctx_size);
		p->leaf->root(p->leaf->model, &m->root_pos, m->leaf_ctx);
	}
	/* (order=net needs kids(): with any other evaluator, or none, fixed) */
	m->p.order = m->p.order != MCTS_ORDER_FIXED && m->p.eval != MCTS_EVAL_ROLLOUT &&
			     p->leaf->kids != NULL
		? MCTS_ORDER_NET
		: MCTS_ORDER_FIXED;
	if (m->p.order == MCTS_ORDER_NET && m->p.eval == MCTS_EVAL_MIX)
		m->implicit = huge_alloc((size_t)m->capacity * sizeof(*m->implicit));
	/* (eval=net plays no playouts: nothing to hand over) */
	if (m->p.parallel == MCTS_PARALLEL_AUTO)
		m->p.parallel = m->threads == 2 && m->p.eval != MCTS_EVAL_NET ? MCTS_PARALLEL_PIPELINE
									     : MCTS_PARALLEL_TREE;
	if (m->threads > 1) {
		if (m->p.parallel == MCTS_PARALLEL_PIPELINE)
			m->pipe = pipe_new(m->threads, p->seed);
		else
			m->shared = true;
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
	pipe_free(m->pipe);
	free(m->w);
	free(m->leaf_ctx);
	huge_free(m->free_bits, free_bits_bytes(m->capacity));
	huge_free(m->nodes, (size_t)m->capacity * sizeof(struct node));
	if (m->implicit != NULL)
		huge_free(m->implicit, (size_t)m->capacity * sizeof(*m->implicit));
	free(m);
}

const struct pos *mcts_root(const struct mcts *m)
{
	return &m->root_pos;
}

/* A worker's part of a run (threads): claim iterations from the budget a
 * batch at a time until it is spent, the deadline passes or the root is
 * solved, whichever a worker sees first ending the run for all. */
static void worker_main(void *arg, int index)
{
	struct mcts *m = arg;
	struct worker *w = &m->w[index];

	if (m->pipe != NULL) {
		pipe_worker(m, index);
		return;
	}
	while (!LOAD(m->stop)) {
		int64_t left = __atomic_fetch_sub(&m->budget, BATCH, __ATOMIC_RELAXED);
		int k = left < BATCH ? (int)left : BATCH;

		if (k <= 0)
			break;
		for (int i = 0; i < k; i++) {
			if (!mcts_can_iterate(m)) {
				STORE(m->stop, 1);
				break;
			}
			mcts_iterate(m, w, NULL);
			w->iterations++;
		}
		if (m->deadline != 0 && now_ns() >= m->deadline)
			STORE(m->stop, 1);
	}
}

/* After a run: fold the workers' counts into M. Returns the iterations
 * they ran. */
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
		arena_settle(m, w);
		w->iterations = w->allocated = 0;
		w->max_depth = 0;
		w->arena_full = false;
	}
	return done;
}

void mcts_keep_discards(struct mcts *m, bool keep)
{
	m->keep_discards = keep;
}

bool mcts_tidy(struct mcts *m)
{
	int n = m->ndiscards;

	for (int i = 0; i < n; i++)
		arena_free_subtree(m, m->discards[i]);
	m->ndiscards = 0;
	if (n > 0)
		m->arena_full = false;
	return n > 0;
}

uint64_t mcts_run(struct mcts *m, uint64_t n, uint64_t deadline)
{
	uint64_t start = now_ns(), done = 0;

	if (m->arena_full)
		mcts_tidy(m);

	if (m->pool == NULL) {
		struct worker *w = &m->w[0];

		while (done < n && mcts_can_iterate(m)) {
			mcts_iterate(m, w, NULL);
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
	return !mcts_can_iterate(m);
}

int mcts_threads(const struct mcts *m)
{
	return m->threads;
}

const struct mcts_params *mcts_params_of(const struct mcts *m)
{
	return &m->p;
}

void mcts_step_trace(struct mcts *m, struct mcts_trace *t)
{
	uint64_t start = now_ns();

	memset(t, 0, sizeof(*t));
	t->expanded = -1;
	t->result = RESULT_NONE;
	if (mcts_can_iterate(m)) {
		t->ran = true;
		mcts_iterate(m, &m->w[0], t);
		m->iterations++;
		workers_settle(m);
	}
	m->ns += now_ns() - start;
}

void mcts_advance(struct mcts *m, int move)
{
	struct node *nodes = m->nodes, kept = { 0 };
	uint32_t base, old = m->root;
	struct moveset legal;
	bool found = false;

	game_legal(m->g, &m->root_pos, &legal);
	if (move < 0 || move >= GAME_MAX_CELLS || !moveset_has(&legal, move))
		fatal("mcts_advance: move %d is not legal", move);
	for (int k = kids_of(&nodes[old], &base) - 1; k >= 0 && !found; k--) {
		struct node *c = &nodes[base + (uint32_t)k];

		if (c->move == move) {
			/* Kept out of the subtree given back: its children's
			 * block stays where it is, the node itself moves to a
			 * block of its own, as a root must be. */
			kept = *c;
			c->child = 0;
			c->nkids = c->cap = 0;
			found = true;
		}
	}
	/* Reclaiming by free lists costs one pass over the discarded nodes and
	 * moves nothing the new root keeps, so indices in its subtree stay
	 * valid; compaction would touch the kept nodes too. (The pass can be
	 * left for later: the discarded nodes are linked from nothing kept.) */
	if (m->keep_discards && m->ndiscards < MCTS_DISCARDS)
		m->discards[m->ndiscards++] = old;
	else
		arena_free_subtree(m, old);
	game_play(m->g, &m->root_pos, move);
	m->root = mcts_root_node(m, &m->root_pos, move);
	if (found)
		nodes[m->root] = kept;
	if (m->leaf_ctx != NULL)
		m->p.leaf->root(m->p.leaf->model, &m->root_pos, m->leaf_ctx);
	for (int i = 0; i < m->threads; i++) {
		m->w[i].rc.valid = false;
		m->w[i].line_len = 0; /* (freed slots are reused) */
		for (int k = 0; k < POS_CACHE; k++)
			m->w[i].known[k].node = 0;
	}
	m->iterations = 0;
	m->ns = 0;
	m->arena_full = false;
	/* Only the selection keeps track of depth: the deepest line went
	 * through the move played, most likely, so it is one shorter now. */
	m->max_depth = m->max_depth > 0 ? m->max_depth - 1 : 0;
}
