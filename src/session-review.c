/* session-review.c - what the value graph shows of each ply, moving
 * through the game by ply, and the screen's game review: review_game() on
 * a worker thread, so that the screen keeps answering keys and the
 * engines keep thinking while it runs, its results read as each ply is
 * done. */
#include "config.h"

#include "session.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "review.h"
#include "util.h"

struct session_review {
	pthread_t thread;
	bool running;             /* the thread has not been joined */
	atomic_int stop;          /* set: review_game() returns soon */
	atomic_int complete;      /* plies whose before and after are known */
	atomic_bool finished;     /* review_game() returned */
	int seen;                 /* complete when the screen last looked */
	struct game g;            /* a copy: the session's may change */
	struct pos start;
	uint8_t moves[GAME_MAX_PLIES];
	int nmoves;
	struct review_params params;
	struct review_ply out[GAME_MAX_PLIES];
};

/* --- the review ----------------------------------------------------------- */

static void progress(int done, int total, void *arg)
{
	struct session_review *r = arg;

	(void)total;
	/* Ply DONE - 1 has its "before"; the plies before it are complete. */
	atomic_store(&r->complete, done - 1);
}

static void *review_thread(void *arg)
{
	struct session_review *r = arg;
	int n = review_game(&r->g, &r->start, r->moves, r->nmoves, &r->params, &r->stop, progress,
			    r, r->out);

	atomic_store(&r->complete, n);
	atomic_store(&r->finished, true);
	return NULL;
}

/* Plies of the review that are about the session's game: the moves both
 * have in common from the start of the same game. */
static int review_valid(const struct session *u)
{
	const struct session_review *r = u->review;
	int n = 0, complete;

	if (r == NULL || strcmp(r->g.name, u->g.name) != 0 || r->g.rules != u->g.rules)
		return 0;
	complete = atomic_load(&r->complete);
	while (n < complete && n < u->nmoves && r->moves[n] == u->moves[n])
		n++;
	return n;
}

void session_review_stop(struct session *u)
{
	struct session_review *r = u->review;

	if (r == NULL || !r->running)
		return;
	atomic_store(&r->stop, 1);
	pthread_join(r->thread, NULL);
	r->running = false;
}

void session_review_free(struct session *u)
{
	session_review_stop(u);
	free(u->review);
	u->review = NULL;
}

void session_review_start(struct session *u)
{
	struct session_review *r;

	session_review_free(u);
	r = xcalloc(1, sizeof(*r));
	r->g = u->g;
	r->start = u->hist[0];
	r->nmoves = u->nmoves;
	memcpy(r->moves, u->moves, (size_t)u->nmoves);
	review_params_default(&r->params);
	atomic_init(&r->stop, 0);
	atomic_init(&r->complete, 0);
	atomic_init(&r->finished, false);
	/* Beside the game's own engine: one thread, a modest tree. The copy
	 * of the game is the thread's, so a new game meanwhile is no harm. */
	r->params.engine.mcts.threads = 1;
	r->params.engine.mcts.memory = (size_t)64 << 20;
	if (pthread_create(&r->thread, NULL, review_thread, r) != 0)
		fatal("cannot start a thread for the review");
	r->running = true;
	u->review = r;
}

bool session_reviewing(const struct session *u, int *done, int *total)
{
	const struct session_review *r = u->review;

	*done = r != NULL ? atomic_load(&r->complete) : 0;
	*total = r != NULL ? r->nmoves : 0;
	return r != NULL && r->running;
}

/* The words for the end of a review: mistakes per side, short enough
 * for 80 columns. */
static void review_said(struct session *u)
{
	const struct session_review *r = u->review;
	int n = atomic_load(&r->complete), count[2] = { 0, 0 }, first[2] = { -1, -1 };
	char name[8], part[2][48];

	for (int i = 0; i < n; i++)
		if (r->out[i].mistake && count[r->out[i].side]++ == 0)
			first[r->out[i].side] = i;
	for (int s = 0; s < 2; s++) {
		if (count[s] == 0)
			fmt_buf(part[s], sizeof(part[s]), "none");
		else
			fmt_buf(part[s], sizeof(part[s]), "%d (first: move %d %s)", count[s],
				first[s] + 1, game_move_name(&r->g, r->moves[first[s]], name));
	}
	if (n < r->nmoves)
		session_say(u, "Review stopped at %d of %d moves: mistakes X %s, O %s.", n,
			    r->nmoves, part[0], part[1]);
	else
		session_say(u, "Reviewed %d moves: mistakes X %s, O %s.", n, part[0], part[1]);
}

uint64_t session_review_tick(struct session *u, uint64_t now, uint64_t wake)
{
	struct session_review *r = u->review;
	uint64_t soon = now + 100 * SESSION_MS;
	int complete;

	if (r == NULL || !r->running)
		return wake;
	complete = atomic_load(&r->complete);
	if (complete != r->seen) {
		r->seen = complete;
		u->dirty = true;
	}
	/* The game it reviews has gone (undo, a new game): stop it. */
	if (review_valid(u) < complete && !atomic_load(&r->finished))
		atomic_store(&r->stop, 1);
	if (atomic_load(&r->finished)) {
		pthread_join(r->thread, NULL);
		r->running = false;
		u->dirty = true;
		if (!atomic_load(&r->stop))
			review_said(u);
		return wake;
	}
	return wake == 0 || wake > soon ? soon : wake;
}

/* r: review the game so far, or stop the review under way. */
void session_review_key(struct session *u)
{
	int done, total;

	if (session_reviewing(u, &done, &total)) {
		session_review_stop(u);
		review_said(u);
		return;
	}
	session_review_start(u);
	session_say(u, "Reviewing the game's %d moves: ? marks mistakes in the graph and the game "
		    "line.", u->nmoves);
}

bool session_mistake(const struct session *u, int ply)
{
	return ply >= 0 && ply < review_valid(u) && u->review->out[ply].mistake;
}

/* --- the graph ------------------------------------------------------------ */

/* P's value (for the side SIDE) as X's. */
static void for_x(struct graph_point *p, int side, double value, int proof)
{
	p->have = true;
	p->value = side == SIDE_X ? value : 1 - value;
	p->proof = proof;
	if (side != SIDE_X && proof == PROOF_WIN)
		p->proof = PROOF_LOSS;
	else if (side != SIDE_X && proof == PROOF_LOSS)
		p->proof = PROOF_WIN;
}

static double proof_value(int proof)
{
	return proof == PROOF_WIN ? 1 : proof == PROOF_LOSS ? 0 : 0.5;
}

/* From the review: position PLY's value, if the review got there. */
static bool from_review(const struct session *u, int ply, struct graph_point *p)
{
	int valid = review_valid(u);
	const struct review_value *v;
	int side;

	if (ply < valid) {
		v = &u->review->out[ply].before;
		side = u->review->out[ply].side;
	} else if (ply == valid && ply > 0) {
		v = &u->review->out[ply - 1].after;
		side = u->review->out[ply - 1].side;
	} else {
		return false;
	}
	for_x(p, side, v->value, v->proof);
	return true;
}

/* From the numbers of a search S of position PLY (its most visited move's
 * value, the root's proof); an engine without a tree tells proofs only. */
static bool from_snap(const struct session_snap *s, struct graph_point *p)
{
	int proof = s->is_eng ? s->eng.proof : s->tot.root_proven;

	if (!s->have)
		return false;
	if (proof != PROOF_NONE)
		for_x(p, s->side, proof_value(proof), proof);
	else if (!s->is_eng && s->n > 0 && s->kids[0].visits > 0)
		for_x(p, s->side, s->kids[0].value, PROOF_NONE);
	return p->have;
}

void session_ply_point(const struct session *u, int ply, struct graph_point *p)
{
	const struct pos *at = &u->hist[ply];
	const struct record_move *rm = &u->saved[ply];

	memset(p, 0, sizeof(*p));
	p->mistake = session_mistake(u, ply);
	if (game_over(at)) {
		int w = result_winner(at->result);

		for_x(p, SIDE_X, w == SIDE_X ? 1 : w < 0 ? 0.5 : 0,
		      w == SIDE_X ? PROOF_WIN : w < 0 ? PROOF_DRAW : PROOF_LOSS);
		return;
	}
	if (from_review(u, ply, p))
		return;
	if (ply < u->nmoves) {
		if (from_snap(&u->snaps[ply], p))
			return;
		if (rm->has_info)
			for_x(p, at->turn, rm->info.proven != PROOF_NONE ? proof_value(rm->info.proven)
									 : rm->info.value,
			      rm->info.proven);
		return;
	}
	/* The present: the live search, when it is about the present. */
	if (u->path_len == 0 && u->live.have && !u->inspecting)
		from_snap(&u->live, p);
}

void session_goto_ply(struct session *u, int ply)
{
	if (ply < 0)
		ply = 0;
	if (ply > u->nmoves)
		ply = u->nmoves;
	if (ply < u->nmoves) {
		/* Back in the history the browser has nothing to show. */
		u->focus_panel = false;
		u->path_len = 0;
	}
	u->view = ply;
	session_cursor_to_allowed(u);
}
