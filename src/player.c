/* player.c - the random, mcts and negamax players behind one interface
 * (specs and levels: player-spec.c). */
#include "config.h"

#include "player.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "negamax.h"
#include "nnue.h"

/* --- random ------------------------------------------------------------ */

struct random_player {
	const struct game *g;
	struct pos pos;
	struct rng rng;
};

static void random_reset(void *data, const struct pos *pos)
{
	struct random_player *r = data;

	r->pos = *pos;
}

static void random_played(void *data, int move)
{
	struct random_player *r = data;

	game_play(r->g, &r->pos, move);
}

static bool random_think(void *data, uint64_t slice_ns)
{
	(void)data;
	(void)slice_ns;
	return true;
}

static int random_choose(void *data)
{
	struct random_player *r = data;
	struct moveset ms;

	game_legal(r->g, &r->pos, &ms);
	if (moveset_empty(&ms))
		return MOVE_NONE;
	return moveset_nth(&ms, (int)rng_below(&r->rng, (uint32_t)moveset_count(&ms)));
}

static struct mcts *no_search(void *data)
{
	(void)data;
	return NULL;
}

static const struct player_ops random_ops = {
	.reset = random_reset,
	.played = random_played,
	.think = random_think,
	.choose = random_choose,
	.search = no_search,
	.destroy = free,
};

/* --- mcts -------------------------------------------------------------- */

struct mcts_player {
	const struct game *g;
	struct mcts *m;
	struct mcts_params params;
	uint64_t iterations; /* budget per move, 0 for none */
	uint64_t time_ns;    /* budget per move, 0 for none */
	uint64_t done;       /* iterations run for this move */
	uint64_t spent_ns;   /* time thought about this move */
	bool ready;
	struct nnue *own_net; /* loaded from net=FILE, freed with the player */
};

static void mcts_player_reset(void *data, const struct pos *pos)
{
	struct mcts_player *p = data;

	if (p->m != NULL)
		mcts_free(p->m);
	p->m = mcts_new(p->g, pos, &p->params);
	p->done = p->spent_ns = 0;
	p->ready = false;
}

static void mcts_player_played(void *data, int move)
{
	struct mcts_player *p = data;

	mcts_advance(p->m, move);
	p->done = p->spent_ns = 0;
	p->ready = false;
}

static bool mcts_player_think(void *data, uint64_t slice_ns)
{
	struct mcts_player *p = data;
	uint64_t start = now_ns(), now = start;
	struct moveset ms;

	if (p->ready)
		return true;
	game_legal(p->g, mcts_root(p->m), &ms);
	if (moveset_count(&ms) <= 1)
		return p->ready = true; /* nothing to choose between */
	{
		/* One run to the end of the slice or of the move's time,
		 * whichever comes first: the search's workers look at the clock
		 * every few dozen iterations. */
		uint64_t want = p->iterations != 0 ? p->iterations - p->done : UINT64_MAX;
		uint64_t deadline = slice_ns > UINT64_MAX - start ? UINT64_MAX : start + slice_ns;

		if (p->time_ns != 0 && p->spent_ns < p->time_ns &&
		    start + (p->time_ns - p->spent_ns) < deadline)
			deadline = start + (p->time_ns - p->spent_ns);
		p->done += mcts_run(p->m, want, deadline);
		now = now_ns();
		if (mcts_finished(p->m) || (p->iterations != 0 && p->done >= p->iterations) ||
		    (p->time_ns != 0 && p->spent_ns + (now - start) >= p->time_ns))
			p->ready = true;
	}
	p->spent_ns += now - start;
	return p->ready;
}

static int mcts_player_choose(void *data)
{
	struct mcts_player *p = data;

	return mcts_best_move(p->m);
}

static struct mcts *mcts_player_search(void *data)
{
	struct mcts_player *p = data;

	return p->m;
}

static void mcts_player_destroy(void *data)
{
	struct mcts_player *p = data;

	if (p->m != NULL)
		mcts_free(p->m);
	nnue_free(p->own_net);
	free(p);
}

/* Pick the leaf evaluation of P from SPEC: the network of net=FILE or the
 * one built in for G, with player_spec_eval()'s evaluation. */
static void mcts_player_eval(struct mcts_player *p, const struct game *g,
			     const struct player_spec *spec)
{
	const struct nnue *n = NULL;
	char err[320];

	if (spec->net[0] != '\0') {
		p->own_net = nnue_load(spec->net, err, sizeof(err));
		if (p->own_net == NULL)
			fatal("%s", err); /* it loaded when the spec was parsed */
		n = p->own_net;
	} else {
		n = nnue_builtin(g);
	}
	if (n != NULL && strcmp(nnue_game(n), g->name) != 0)
		n = NULL;
	p->params.eval = n == NULL ? MCTS_EVAL_ROLLOUT : player_spec_eval(spec, g);
	p->params.leaf = p->params.eval == MCTS_EVAL_ROLLOUT ? NULL : nnue_leaf_eval(n);
}

static const struct player_ops mcts_player_ops = {
	.reset = mcts_player_reset,
	.played = mcts_player_played,
	.think = mcts_player_think,
	.choose = mcts_player_choose,
	.search = mcts_player_search,
	.destroy = mcts_player_destroy,
};

/* --- negamax ----------------------------------------------------------- */

/* Negamax does not stop and resume, so it searches on a worker thread:
 * think() starts it and waits at most a slice, and the front end stays
 * responsive during a long search. Between slices the search is held
 * (NEGAMAX_HOLD), so it searches only while the caller asks, as MCTS does:
 * a paused screen pauses it. Only the worker touches the searcher while it
 * runs; the rest is read after joining it. */
struct negamax_player {
	const struct game *g;
	struct negamax *n;
	struct negamax_params params;
	struct pos pos;
	int best;                  /* MOVE_NONE until searched */
	pthread_t thread;
	bool running;              /* a worker was started and not joined */
	pthread_mutex_t lock;      /* guards finished; done signals it */
	pthread_cond_t done;
	bool finished;             /* the worker is done */
	atomic_int stop;
	struct negamax_result result;
	bool searched;             /* a search of pos was started */
};

#define NEGAMAX_NOW_NS 20000000u /* what "move now" gives a search not started */

/* A condition variable whose timed waits use CLOCK_MONOTONIC, so a change
 * of the wall clock cannot stretch or cut a slice. */
static int cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int rc;

	if (pthread_condattr_init(&attr) != 0)
		return -1;
	rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return rc;
}

static void *negamax_worker(void *arg)
{
	struct negamax_player *p = arg;

	negamax_search(p->n, &p->pos, &p->stop, NULL, NULL, &p->result);
	pthread_mutex_lock(&p->lock);
	p->finished = true;
	pthread_cond_signal(&p->done);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Wait for the worker (telling it to stop first if STOP) and take its move. */
static void negamax_join(struct negamax_player *p, bool stop)
{
	if (!p->running)
		return;
	if (stop)
		atomic_store(&p->stop, 1);
	pthread_join(p->thread, NULL);
	p->running = false;
	p->best = p->result.best;
}

static void negamax_player_reset(void *data, const struct pos *pos)
{
	struct negamax_player *p = data;

	negamax_join(p, true);
	p->pos = *pos;
	p->best = MOVE_NONE;
	p->searched = false;
}

static void negamax_player_played(void *data, int move)
{
	struct negamax_player *p = data;

	negamax_join(p, true);
	game_play(p->g, &p->pos, move);
	p->best = MOVE_NONE;
	p->searched = false;
}

static bool negamax_player_think(void *data, uint64_t slice_ns)
{
	struct negamax_player *p = data;
	struct timespec end;
	bool finished;

	if (p->best != MOVE_NONE || game_over(&p->pos))
		return true;
	if (p->running) {
		int held = NEGAMAX_HOLD;

		/* go on (unless told to stop meanwhile) */
		atomic_compare_exchange_strong(&p->stop, &held, 0);
	} else {
		atomic_store(&p->stop, 0);
		p->finished = false;
		if (pthread_create(&p->thread, NULL, negamax_worker, p) != 0)
			fatal("cannot start a thread for the negamax search");
		p->running = true;
		p->searched = true;
	}
	/* Wake as soon as the worker is done, or at the end of the slice. */
	end = monotonic_after(slice_ns);
	pthread_mutex_lock(&p->lock);
	while (!p->finished && pthread_cond_timedwait(&p->done, &p->lock, &end) == 0)
		;
	finished = p->finished;
	pthread_mutex_unlock(&p->lock);
	if (!finished) {
		int go = 0;

		atomic_compare_exchange_strong(&p->stop, &go, NEGAMAX_HOLD);
		return false;
	}
	negamax_join(p, false);
	return true;
}

static int negamax_player_choose(void *data)
{
	struct negamax_player *p = data;

	/* "Move now": never the whole budget on the caller's thread, which may
	 * be the screen's. Not yet started: a few milliseconds of search. */
	if (!p->running && p->best == MOVE_NONE && !game_over(&p->pos))
		negamax_player_think(data, NEGAMAX_NOW_NS);
	negamax_join(p, true); /* the deepest finished iteration */
	if (p->best == MOVE_NONE && !game_over(&p->pos)) {
		struct moveset ms; /* stopped before depth 1 finished */

		game_legal(p->g, &p->pos, &ms);
		p->best = moveset_nth(&ms, 0);
	}
	return p->best;
}

static void negamax_player_destroy(void *data)
{
	struct negamax_player *p = data;

	negamax_join(p, true);
	negamax_free(p->n);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* The search under way (or done) on the current position, as the panel
 * shows it; the worker publishes it under the searcher's own lock. */
static void negamax_player_stats(void *data, struct player_stats *out)
{
	struct negamax_player *p = data;
	struct negamax_live *l;

	memset(out, 0, sizeof(*out));
	if (!p->searched)
		return;
	l = xmalloc(sizeof(*l));
	negamax_live(p->n, l);
	out->have = true;
	out->depth = l->depth;
	out->searching = l->running ? l->searching : 0;
	out->max_depth = p->params.depth;
	out->nodes = l->nodes;
	out->seconds = l->seconds;
	out->table_used = l->tt_used;
	out->table_size = l->tt_size;
	out->threads = negamax_threads(p->n);
	out->best = l->best;
	out->score = l->score;
	out->proof = l->exact ? l->value : PROOF_NONE;
	out->plies = l->plies;
	out->pv_len = l->pv_len;
	memcpy(out->pv, l->pv, (size_t)l->pv_len);
	out->n = l->n;
	for (int i = 0; i < l->n; i++) {
		const struct negamax_root_move *r = &l->root[i];
		struct player_root_move *m = &out->root[i];

		m->move = r->move;
		m->score = r->score;
		m->depth = r->depth;
		m->upper = r->bound < 0;
		m->proof = PROOF_NONE;
		m->plies = 0;
		/* Scores from the mover's view: a mate score is a proven win or
		 * loss that many plies from the root; a proven 0 a draw. */
		if (r->proven && r->bound == 0) {
			if (negamax_is_mate(r->score)) {
				m->proof = r->score > 0 ? PROOF_WIN : PROOF_LOSS;
				m->plies = NEGAMAX_WIN - abs(r->score);
			} else if (r->score == 0) {
				m->proof = PROOF_DRAW;
			}
		} else if (r->proven && r->score == 0) {
			m->proof = PROOF_DRAW; /* at most a draw */
		} else if (r->proven && negamax_is_mate(r->score) && r->score < 0) {
			m->proof = PROOF_LOSS; /* at most this: lost, perhaps sooner */
			m->plies = NEGAMAX_WIN + r->score;
		}
	}
	/* Best first: by score, an exact score before a bound equal to it. */
	for (int i = 1; i < out->n; i++) {
		struct player_root_move m = out->root[i];
		int j = i;

		for (; j > 0 && (out->root[j - 1].score < m.score ||
				 (out->root[j - 1].score == m.score && out->root[j - 1].upper &&
				  !m.upper));
		     j--)
			out->root[j] = out->root[j - 1];
		out->root[j] = m;
	}
	free(l);
}

static const struct player_ops negamax_player_ops = {
	.reset = negamax_player_reset,
	.played = negamax_player_played,
	.think = negamax_player_think,
	.choose = negamax_player_choose,
	.search = no_search,
	.stats = negamax_player_stats,
	.destroy = negamax_player_destroy,
};

/* --- the interface ----------------------------------------------------- */

struct player *player_new(const struct game *g, const struct player_spec *spec,
			  const struct pos *pos)
{
	struct player *p = xcalloc(1, sizeof(*p));
	int level = spec->level != 0 ? spec->level : PLAYER_DEFAULT_LEVEL;

	p->spec = *spec;
	p->g = g;
	switch (spec->kind) {
	case PLAYER_HUMAN:
		break;
	case PLAYER_RANDOM: {
		struct random_player *r = xcalloc(1, sizeof(*r));

		r->g = g;
		rng_seed(&r->rng, spec->seed);
		p->ops = &random_ops;
		p->data = r;
		break;
	}
	case PLAYER_MCTS: {
		struct mcts_player *m = xcalloc(1, sizeof(*m));

		m->g = g;
		m->params = spec->mcts;
		mcts_player_eval(m, g, spec);
		m->iterations = spec->iterations;
		m->time_ns = (uint64_t)spec->time_ms * 1000000u;
		if (m->iterations == 0 && m->time_ns == 0)
			m->iterations = player_level_iterations(level);
		p->ops = &mcts_player_ops;
		p->data = m;
		break;
	}
	case PLAYER_NEGAMAX: {
		struct negamax_player *n = xcalloc(1, sizeof(*n));

		n->g = g;
		n->params.depth = spec->depth;
		n->params.time_ms = spec->time_ms;
		n->params.tt_bytes = (size_t)NEGAMAX_DEFAULT_TT_MB << 20;
		n->params.threads = spec->mcts.threads;
		if (spec->depth == 0 && spec->time_ms == 0)
			player_level_negamax(level, &n->params.depth, &n->params.time_ms);
		n->n = negamax_new(g, &n->params);
		if (pthread_mutex_init(&n->lock, NULL) != 0 || cond_init_monotonic(&n->done) != 0)
			fatal("cannot make the negamax player's lock");
		p->ops = &negamax_player_ops;
		p->data = n;
		break;
	}
	default:
		assert(0);
	}
	if (p->ops != NULL)
		p->ops->reset(p->data, pos);
	return p;
}

void player_free(struct player *p)
{
	if (p == NULL)
		return;
	if (p->ops != NULL)
		p->ops->destroy(p->data);
	free(p);
}

void player_reset(struct player *p, const struct pos *pos)
{
	if (p->ops != NULL)
		p->ops->reset(p->data, pos);
}

void player_played(struct player *p, int move)
{
	if (p->ops != NULL)
		p->ops->played(p->data, move);
}

bool player_think(struct player *p, uint64_t slice_ns)
{
	return p->ops == NULL || p->ops->think(p->data, slice_ns);
}

int player_choose(struct player *p)
{
	return p->ops != NULL ? p->ops->choose(p->data) : MOVE_NONE;
}

struct mcts *player_search(struct player *p)
{
	return p->ops != NULL ? p->ops->search(p->data) : NULL;
}

bool player_stats(struct player *p, struct player_stats *out)
{
	out->have = false;
	if (p->ops == NULL || p->ops->stats == NULL)
		return false;
	p->ops->stats(p->data, out);
	return out->have;
}

int player_move_now(struct player *p)
{
	while (!player_think(p, 100000000u))
		;
	return player_choose(p);
}
