/* negamax-run.c - driving negamax searches: iterative deepening on one
 * thread or several (lazy SMP, see negamax-int.h), proving each root move
 * for negamax_best_moves(), and the live view that a screen reads. */
#include "config.h"

#include "negamax.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "negamax-int.h"
#include "pool.h"
#include "ttable.h"
#include "util.h"

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ADD(x, v) __atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)

enum { JOB_DEEPEN, JOB_PROVE };

/* A root move's state in a shared solve. */
enum { MV_FREE, MV_TAKEN };

/* What the threads of a run do: set before it starts, then read by all
 * (but `next`, each thread's own verdicts and what a shared solve marks
 * as it goes). */
struct nm_job {
	int kind;                       /* JOB_* */
	struct nm_node root;
	int remaining;                  /* plies left in the root position */
	int max_depth;                  /* JOB_DEEPEN: the last iteration */
	void (*progress)(const struct negamax_result *r, void *arg);
	void *arg;
	struct negamax_result *out;     /* thread 0's iterations */
	int nmoves;                     /* JOB_PROVE: the root moves to prove */
	uint8_t moves[GAME_MAX_MOVES];
	bool keeps[GAME_MAX_MOVES];     /* whether each keeps the root's value */
	int next;                       /* (atomic) the next move to take */

	/* JOB_DEEPEN for negamax_solve_moves(): while thread 0 deepens, the
	 * others take the root moves one at a time and settle each (thread 0
	 * too once it is done). A thread that finds no move free joins the
	 * one the fewest threads are on (lazy SMP: it starts on other
	 * replies, and the table shares what each proves); whichever settles
	 * a move first gives its value, and the others leave it. */
	int nsolve;                     /* root moves to settle, 0 for none */
	struct negamax_move *solved;    /* each move's value, by whoever settles it */
	int twin[GAME_MAX_MOVES];       /* an earlier move to the same position up
	                                   to symmetry, whose value it copies; -1 */
	int state[GAME_MAX_MOVES];      /* (atomic) MV_FREE, MV_TAKEN */
	int settled[GAME_MAX_MOVES];    /* (atomic) settled: its searchers leave */
	int searchers[GAME_MAX_MOVES];  /* (atomic) threads on each move */
	int left;                       /* (atomic) moves (not twins) unsettled */
	int all_settled;                /* (atomic) left is 0: thread 0 stops deepening */
};

static void nm_worker(void *arg, int index);

struct negamax *negamax_new(const struct game *g, const struct negamax_params *p)
{
	struct negamax *n = xcalloc(1, sizeof(*n));

	n->g = g;
	n->params = *p;
	nm_rules_init(n);
	n->tt = ttable_new(p->tt_bytes != 0 ? p->tt_bytes : (size_t)NEGAMAX_DEFAULT_TT_MB << 20);
	if (pthread_mutex_init(&n->live_lock, NULL) != 0)
		fatal("cannot make a lock for the negamax search");
	n->threads = p->threads < 1 ? 1 : p->threads > NEGAMAX_MAX_THREADS ? NEGAMAX_MAX_THREADS
									      : p->threads;
	n->th = xcalloc((size_t)n->threads, sizeof(*n->th));
	for (int i = 0; i < n->threads; i++) {
		n->th[i].n = n;
		n->th[i].index = i;
		n->th[i].rotate_by = i;
	}
	n->job = xcalloc(1, sizeof(*n->job));
	if (n->threads > 1)
		n->pool = pool_new(n->threads, nm_worker, n);
	return n;
}

void negamax_free(struct negamax *n)
{
	if (n == NULL)
		return;
	pool_free(n->pool);
	pthread_mutex_destroy(&n->live_lock);
	ttable_free(n->tt);
	free(n->job);
	free(n->th);
	free(n);
}

int negamax_threads(const struct negamax *n)
{
	return n->threads;
}

/* Add what thread T searched since it last counted to the run's total,
 * and return the total. */
static uint64_t nm_count(struct nm_thread *t)
{
	uint64_t delta = t->nodes - t->counted;

	t->counted = t->nodes;
	return ADD(t->n->nodes_all, delta) + delta;
}

/* Nodes searched by every thread of the run so far (between runs: all). */
static uint64_t nm_nodes(struct negamax *n)
{
	return nm_count(&n->th[0]);
}

/* Table slots filled so far: what every thread counted it filled (a
 * little behind the others' latest), never above the table's slots. */
static size_t nm_tt_used(const struct negamax *n)
{
	uint64_t used = 0;

	for (int i = 0; i < n->threads; i++)
		used += LOAD(n->th[i].filled);
	return used < ttable_slots(n->tt) ? (size_t)used : ttable_slots(n->tt);
}

/* Whether *stop asks for a stop (not a hold). */
static bool nm_stop_asked(const struct negamax *n)
{
	int v;

	if (n->stop == NULL)
		return false;
	v = atomic_load(n->stop);
	return v != 0 && v != NEGAMAX_HOLD;
}

/* Wait while *stop holds the search; the time held is off T's clock.
 * Returns the time after. */
static uint64_t nm_hold(struct nm_thread *t, uint64_t now)
{
	const struct timespec tick = { 0, 1000000 };
	uint64_t after;

	while (atomic_load(t->n->stop) == NEGAMAX_HOLD)
		nanosleep(&tick, NULL);
	after = now_ns();
	t->held_ns += after - now;
	return after;
}

void nm_poll(struct nm_thread *t)
{
	struct negamax *n = t->n;
	uint64_t now = now_ns(), all = nm_count(t);

	if (n->stop != NULL && atomic_load(n->stop) == NEGAMAX_HOLD)
		now = nm_hold(t, now);

	t->next_check = t->nodes + NM_CHECK_EVERY;
	if (t->index == 0) {
		pthread_mutex_lock(&n->live_lock);
		n->live.nodes = all;
		n->live.seconds = (double)(now - n->start_ns - t->held_ns) / 1e9;
		n->live.tt_used = nm_tt_used(n);
		pthread_mutex_unlock(&n->live_lock);
	}
	if (nm_stop_asked(n) || (n->deadline != 0 && now >= n->deadline + t->held_ns) ||
	    (t->index > 0 && LOAD(n->done))) {
		t->aborted = true;
	} else if (t->watch != NULL && LOAD(*t->watch)) {
		t->aborted = true;
		t->cancelled = true;
	}
}

void nm_live_root(struct nm_thread *t, int move, int s, int a, bool first, bool proven, int depth)
{
	struct negamax *n = t->n;
	struct negamax_live *l = &n->live;
	int i;

	if (t->index != 0)
		return;
	pthread_mutex_lock(&n->live_lock);
	for (i = 0; i < l->n && l->root[i].move != move; i++)
		;
	if (i == l->n && l->n < GAME_MAX_MOVES)
		l->n++;
	if (i < l->n) {
		l->root[i].move = move;
		l->root[i].score = s;
		l->root[i].bound = first || s > a ? 0 : -1;
		l->root[i].proven = proven;
		l->root[i].depth = depth;
	}
	pthread_mutex_unlock(&n->live_lock);
}

/* Plies to the end of a drawn game under the principal line. On m,n,k
 * boards a draw ends only when the board is full; elsewhere follow the
 * table's best moves, then the lowest legal moves where it has none. */
static int nm_draw_plies(const struct negamax *n, const struct nm_node *root)
{
	struct nm_node nd = *root, child;
	int plies = 0;

	if (n->mnk)
		return popcount64(n->full & ~(root->bb[0] | root->bb[1]));
	while (!game_over(&nd.pos) && plies < GAME_MAX_PLIES) {
		struct moveset legal;
		int move = nm_table_move(n, &nd);

		game_legal(n->g, &nd.pos, &legal);
		if (move == MOVE_NONE || !moveset_has(&legal, move))
			move = moveset_pop(&legal);
		nm_play(n, &nd, move, &child);
		nd = child;
		plies++;
	}
	return plies;
}

/* The result of the iteration of depth D that scored the root S (PROVEN:
 * the search proved it) with the move BEST into OUT. */
static void nm_iteration_result(const struct negamax *n, const struct nm_node *root, int s, int d,
				bool proven, int best, struct negamax_result *out)
{
	out->best = best;
	out->score = s;
	out->depth = d;
	/* A mate within the depth searched is the shortest: every line that
	 * long was seen to its end. */
	out->exact = proven || (negamax_is_mate(s) && NEGAMAX_WIN - abs(s) <= d);
	out->value = PROOF_NONE;
	out->plies = 0;
	if (!out->exact)
		return;
	if (s > 0) {
		out->value = PROOF_WIN;
		out->plies = NEGAMAX_WIN - s;
	} else if (s < 0) {
		out->value = PROOF_LOSS;
		out->plies = NEGAMAX_WIN + s;
	} else {
		out->value = PROOF_DRAW;
		out->plies = nm_draw_plies(n, root);
	}
}

/* Publish the iteration OUT just completed, with the principal variation
 * that the table's best moves make from ROOT. */
static void nm_live_iteration(struct negamax *n, const struct nm_node *root,
			      const struct negamax_result *out)
{
	struct nm_node nd = *root, child;
	uint8_t pv[GAME_MAX_PLIES];
	int len = 0;

	while (!game_over(&nd.pos) && len < out->depth && len < GAME_MAX_PLIES) {
		struct moveset legal;
		int move = nm_table_move(n, &nd);

		game_legal(n->g, &nd.pos, &legal);
		if (len == 0)
			move = out->best;
		if (move == MOVE_NONE || !moveset_has(&legal, move))
			break;
		pv[len++] = (uint8_t)move;
		nm_play(n, &nd, move, &child);
		nd = child;
	}
	pthread_mutex_lock(&n->live_lock);
	n->live.depth = out->depth;
	n->live.best = out->best;
	n->live.score = out->score;
	n->live.exact = out->exact;
	n->live.value = out->value;
	n->live.plies = out->plies;
	n->live.nodes = out->nodes;
	n->live.seconds = out->seconds;
	n->live.tt_used = nm_tt_used(n);
	n->live.pv_len = len;
	memcpy(n->live.pv, pv, (size_t)len);
	pthread_mutex_unlock(&n->live_lock);
}

/* Start (RUNNING) or end the live view of a search. */
static void nm_live_run(struct negamax *n, bool running)
{
	pthread_mutex_lock(&n->live_lock);
	if (running) {
		memset(&n->live, 0, sizeof(n->live));
		n->live.best = MOVE_NONE;
		n->live.tt_size = ttable_slots(n->tt);
	} else {
		n->live.nodes = nm_nodes(n);
		n->live.seconds = (double)(now_ns() - n->start_ns) / 1e9;
		n->live.tt_used = nm_tt_used(n);
	}
	n->live.running = running;
	pthread_mutex_unlock(&n->live_lock);
}

void negamax_live(struct negamax *n, struct negamax_live *out)
{
	pthread_mutex_lock(&n->live_lock);
	*out = n->live;
	pthread_mutex_unlock(&n->live_lock);
}

/* Fill the value fields of OUT for a finished game. */
static void nm_result_over(const struct pos *pos, struct negamax_result *out)
{
	int w = result_winner(pos->result);

	out->exact = true;
	out->plies = 0;
	if (w < 0) {
		out->score = 0;
		out->value = PROOF_DRAW;
	} else if (w == pos->turn) {
		out->score = NEGAMAX_WIN;
		out->value = PROOF_WIN;
	} else {
		out->score = -NEGAMAX_WIN;
		out->value = PROOF_LOSS;
	}
}

/* Whether the score of ND, PLY plies below the root, is above ALPHA
 * (returns more than ALPHA) or not, proven. When FIRST is positive a search
 * FIRST plies deep comes first: a win about as long as the one known at the
 * root is then found before a tour of long lines, and the unlimited search
 * that follows if it proves nothing starts with a useful table. */
static int nm_prove(struct nm_thread *t, const struct nm_node *nd, int ply, int alpha, int first)
{
	bool proven;
	int s;

	if (first > 0) {
		s = nm_search(t, nd, first, ply, alpha, alpha + 1, &proven);
		if (proven || t->aborted)
			return s;
	}
	s = nm_search(t, nd, NM_DRAFT_MAX, ply, alpha, alpha + 1, &proven);
	assert(proven || t->aborted);
	return s;
}

/* Thread 0's part of JOB_DEEPEN: iterative deepening from the root until
 * solved, the last depth, or a stop; every iteration completed goes into
 * the job's result, the live view and the progress callback. */
static void nm_deepen(struct negamax *n)
{
	struct nm_job *job = n->job;
	struct nm_thread *t = &n->th[0];
	struct negamax_result *out = job->out;

	/* moves settled by the other threads give the root's value */
	t->watch = job->nsolve > 0 ? &job->all_settled : NULL;
	for (int d = 1; d <= job->max_depth; d++) {
		bool proven;
		int s;

		if (nm_stop_asked(n))
			t->aborted = true;
		if (t->aborted || (t->watch != NULL && LOAD(*t->watch)))
			break;
		t->root_best = MOVE_NONE;
		STORE(n->main_depth, d);
		pthread_mutex_lock(&n->live_lock);
		n->live.searching = d;
		pthread_mutex_unlock(&n->live_lock);
		s = nm_search(t, &job->root, d, 0, -NM_INF, NM_INF, &proven);
		if (t->aborted)
			break;
		nm_iteration_result(n, &job->root, s, d, proven, t->root_best, out);
		assert(d < job->remaining || out->exact);
		out->nodes = nm_nodes(n);
		out->seconds = (double)(now_ns() - n->start_ns) / 1e9;
		nm_live_iteration(n, &job->root, out);
		if (job->progress != NULL)
			job->progress(out, job->arg);
		if (out->exact)
			break;
	}
	t->watch = NULL;
	if (t->cancelled)
		t->aborted = t->cancelled = false;
	if (job->nsolve == 0)
		STORE(n->done, 1);
}

/* The other threads' part: iterations of their own on the same root, half
 * of them a ply deeper than thread 0 (what it will ask the table next), at
 * its depth once they fall behind, until it is done. */
static void nm_help_deepen(struct nm_thread *t)
{
	struct negamax *n = t->n;
	struct nm_job *job = n->job;
	int d = 1 + t->index % 2;

	while (d <= job->max_depth && !t->aborted && !LOAD(n->done)) {
		bool proven;
		int next;

		t->root_best = MOVE_NONE;
		nm_search(t, &job->root, d, 0, -NM_INF, NM_INF, &proven);
		if (proven)
			break; /* solved: thread 0 finds the root's children in the table */
		next = LOAD(n->main_depth) + t->index % 2;
		d = next > d + 1 ? next : d + 1;
	}
}

/* Whether root move M keeps the value R found for the root (thread T):
 * for a win, the child is lost; for a draw, the opponent cannot win; in a
 * lost position every move keeps the loss. */
static bool nm_keeps(struct nm_thread *t, const struct nm_node *root, int m,
		     const struct negamax_result *r)
{
	struct nm_node child;

	nm_play(t->n, root, m, &child);
	if (game_over(&child.pos)) {
		int s = nm_terminal(&child.pos, 1);

		return r->value == PROOF_WIN ? s > 0 : r->value == PROOF_DRAW ? s >= 0 : true;
	}
	if (r->value == PROOF_WIN) /* the child, the opponent to move, is lost */
		return nm_prove(t, &child, 1, -NM_MATE, r->plies + 2) <= -NM_MATE;
	if (r->value == PROOF_DRAW) /* the opponent cannot win */
		return nm_prove(t, &child, 1, 0, 0) <= 0;
	return true;
}

/* JOB_PROVE on thread T: take the root moves one at a time and prove each. */
static void nm_prove_moves(struct nm_thread *t)
{
	struct nm_job *job = t->n->job;

	while (!t->aborted) {
		int i = ADD(job->next, 1);

		if (i >= job->nmoves)
			break;
		job->keeps[i] = nm_keeps(t, &job->root, job->moves[i], job->out);
	}
}

/* Settle root move M exactly into MV (thread T): a full-window search of
 * the position after it, to the end. MV is left alone when T is stopped. */
static void nm_solve_move(struct nm_thread *t, const struct nm_node *root, int m,
			  struct negamax_move *mv)
{
	struct nm_node child;
	bool proven = true;
	int s;

	nm_play(t->n, root, m, &child);
	if (game_over(&child.pos)) {
		s = nm_terminal(&child.pos, 1);
	} else {
		s = -nm_search(t, &child, NM_DRAFT_MAX, 1, -NM_INF, NM_INF, &proven);
		if (t->aborted)
			return;
	}
	assert(proven);
	mv->score = s;
	if (s != 0) {
		mv->value = s > 0 ? PROOF_WIN : PROOF_LOSS;
		mv->plies = NEGAMAX_WIN - abs(s);
	} else {
		mv->value = PROOF_DRAW;
		mv->plies = 1 + nm_draw_plies(t->n, &child);
	}
}

/* Set up the job to settle the root moves MOVES (COUNT of them) as well;
 * with threads, a move to the same position as an earlier one, up to
 * symmetry, is not searched but copies its value. */
static void nm_solve_setup(struct negamax *n, struct negamax_move *moves, int count)
{
	struct nm_job *job = n->job;
	uint64_t key[GAME_MAX_MOVES];

	job->nsolve = count;
	job->solved = moves;
	job->left = 0;
	job->all_settled = 0;
	for (int i = 0; i < count; i++) {
		struct nm_node child;
		int sym;

		job->moves[i] = (uint8_t)moves[i].move;
		job->state[i] = MV_FREE;
		job->settled[i] = 0;
		job->searchers[i] = 0;
		job->twin[i] = -1;
		nm_play(n, &job->root, moves[i].move, &child);
		key[i] = nm_key(n, &child, &sym);
		for (int j = 0; j < i && n->threads > 1; j++)
			if (job->twin[j] < 0 && key[j] == key[i])
				job->twin[i] = j;
		job->left += job->twin[i] < 0;
	}
}

/* The root move thread T takes next: the first free one (not a twin),
 * else the unsettled one the fewest threads are on; -1 when every move is
 * settled. */
static int nm_solve_take(const struct nm_thread *t)
{
	struct nm_job *job = t->n->job;
	int pick = -1, fewest = 0;

	for (int i = 0; i < job->nsolve; i++) {
		int state = MV_FREE;

		if (job->twin[i] < 0 &&
		    __atomic_compare_exchange_n(&job->state[i], &state, MV_TAKEN, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return i;
	}
	for (int i = 0; i < job->nsolve; i++) {
		int on = LOAD(job->searchers[i]);

		if (job->twin[i] < 0 && !LOAD(job->settled[i]) && (pick < 0 || on < fewest)) {
			pick = i;
			fewest = on;
		}
	}
	return pick;
}

/* Thread T's part of settling the root moves: take them one at a time, or
 * join another thread on one, until every move is settled. */
static void nm_solve_moves(struct nm_thread *t)
{
	struct nm_job *job = t->n->job;

	while (!t->aborted) {
		struct negamax_move mv;
		int i = nm_solve_take(t);

		if (i < 0)
			break;
		mv.move = job->moves[i];
		/* the first thread on a move takes the replies in order, the
		 * second begins with the second reply, and so on */
		t->rotate_ply = 1;
		t->rotate_by = ADD(job->searchers[i], 1);
		t->watch = &job->settled[i];
		nm_solve_move(t, &job->root, mv.move, &mv);
		ADD(job->searchers[i], -1);
		t->watch = NULL;
		t->rotate_ply = 0;
		t->rotate_by = t->index;
		if (t->cancelled) { /* another thread settled it */
			t->aborted = t->cancelled = false;
			continue;
		}
		if (t->aborted)
			break;
		if (__atomic_exchange_n(&job->settled[i], 1, __ATOMIC_RELAXED) == 0) {
			job->solved[i] = mv;
			if (ADD(job->left, -1) == 1)
				STORE(job->all_settled, 1);
		}
	}
}

/* After a shared solve: each twin takes the value of its move. */
static void nm_solve_twins(struct nm_job *job)
{
	for (int i = 0; i < job->nsolve; i++) {
		int j = job->twin[i];

		if (j >= 0 && job->solved[j].value != PROOF_NONE) {
			job->solved[i].value = job->solved[j].value;
			job->solved[i].plies = job->solved[j].plies;
			job->solved[i].score = job->solved[j].score;
		}
	}
}

static void nm_worker(void *arg, int index)
{
	struct negamax *n = arg;
	struct nm_thread *t = &n->th[index];

	if (n->job->kind == JOB_PROVE) {
		nm_prove_moves(t);
		return;
	}
	if (index == 0)
		nm_deepen(n);
	else if (n->job->nsolve == 0)
		nm_help_deepen(t);
	if (n->job->nsolve > 0)
		nm_solve_moves(t);
}

/* Run the job on every thread; when it returns all have stopped and
 * counted their nodes. */
static void nm_go(struct negamax *n)
{
	if (n->pool != NULL)
		pool_run(n->pool);
	else
		nm_worker(n, 0);
	for (int i = 0; i < n->threads; i++)
		nm_count(&n->th[i]);
}

/* Start a search of POS: the clock, the counts, the threads' state. */
static void nm_begin(struct negamax *n, const struct pos *pos, atomic_int *stop, int time_ms)
{
	uint64_t start = now_ns();

	n->start_ns = start;
	nm_live_run(n, true);
	n->gen++;
	n->stop = stop;
	n->deadline = time_ms > 0 ? start + (uint64_t)time_ms * 1000000u : 0;
	n->done = 0;
	n->main_depth = 0;
	n->nodes_all = 0;
	for (int i = 0; i < n->threads; i++) {
		struct nm_thread *t = &n->th[i];

		t->aborted = false;
		t->held_ns = 0;
		t->nodes = t->counted = 0;
		t->next_check = NM_CHECK_EVERY;
		/* old history still orders moves, but the new search soon
		 * outweighs it */
		for (int s = 0; s < 2; s++)
			for (int m = 0; m < GAME_MAX_CELLS; m++)
				t->history[s][m] /= 8;
	}
	nm_root_node(n, pos, &n->job->root);
	n->job->remaining = n->g->cells - pos->ply;
}

/* Iterative deepening from POS up to DEPTH plies (0: until solved) within
 * TIME_MS (0: no limit), into OUT; and when MOVES is not NULL, its COUNT
 * root moves settled (nm_solve_setup()). Leaves the search state (node
 * counts, *stop, the root in n->job) set for a caller that goes on. */
static void nm_run(struct negamax *n, const struct pos *pos, atomic_int *stop,
		   void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		   struct negamax_result *out, int depth, int time_ms, struct negamax_move *moves,
		   int count)
{
	struct nm_job *job = n->job;
	struct nm_thread *t0 = &n->th[0];

	nm_begin(n, pos, stop, time_ms);
	memset(out, 0, sizeof(*out));
	out->best = MOVE_NONE;
	if (game_over(pos)) {
		nm_result_over(pos, out);
		nm_live_run(n, false);
		return;
	}
	job->kind = JOB_DEEPEN;
	job->nsolve = 0;
	if (moves != NULL)
		nm_solve_setup(n, moves, count);
	/* past the plies left every leaf is a finished game */
	job->max_depth = depth > 0 && depth < job->remaining ? depth : job->remaining;
	job->progress = progress;
	job->arg = arg;
	job->out = out;
	nm_go(n);
	if (out->best == MOVE_NONE) {
		/* nothing finished, or a settled root without a move: the move
		 * the unfinished iteration liked, else the lowest legal one */
		struct moveset legal;

		game_legal(n->g, pos, &legal);
		if (t0->root_best != MOVE_NONE && moveset_has(&legal, t0->root_best))
			out->best = t0->root_best;
		else
			out->best = moveset_pop(&legal);
	}
	out->nodes = nm_nodes(n);
	out->seconds = (double)(now_ns() - n->start_ns) / 1e9;
	out->stopped = t0->aborted;
	nm_live_run(n, false);
}

void negamax_search(struct negamax *n, const struct pos *pos, atomic_int *stop,
		    void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		    struct negamax_result *out)
{
	nm_run(n, pos, stop, progress, arg, out, n->params.depth, n->params.time_ms, NULL, 0);
}

int negamax_best_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
		       void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		       struct negamax_result *out, uint8_t *best)
{
	struct nm_job *job = n->job;
	struct moveset legal;
	uint64_t start = now_ns();
	bool stopped = false;
	int count = 0;

	n->solving = true;
	nm_run(n, pos, stop, progress, arg, out, 0, 0, NULL, 0);
	if (out->stopped) {
		n->solving = false;
		return -1;
	}
	assert(out->exact);
	game_legal(n->g, pos, &legal);
	job->kind = JOB_PROVE;
	job->nmoves = 0;
	job->next = 0;
	while (!moveset_empty(&legal))
		job->moves[job->nmoves++] = (uint8_t)moveset_pop(&legal);
	n->done = 0;
	for (int i = 0; i < n->threads; i++)
		n->th[i].aborted = false;
	nm_go(n);
	n->solving = false;
	for (int i = 0; i < n->threads; i++)
		stopped = stopped || n->th[i].aborted;
	for (int i = 0; i < job->nmoves; i++)
		if (job->keeps[i])
			best[count++] = job->moves[i];
	out->nodes = nm_nodes(n);
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (stopped) {
		out->stopped = true;
		return -1;
	}
	return count;
}

/* Settled moves first, then by score, best first; then by move. */
static int nm_move_cmp(const void *a, const void *b)
{
	const struct negamax_move *x = a, *y = b;

	if ((x->value == PROOF_NONE) != (y->value == PROOF_NONE))
		return x->value == PROOF_NONE ? 1 : -1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->move - y->move;
}

int negamax_solve_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
			void (*progress)(const struct negamax_result *r, void *arg), void *arg,
			struct negamax_result *out, struct negamax_move *moves, int *count)
{
	struct nm_job *job = n->job;
	struct moveset legal;
	uint64_t start = now_ns();
	bool stopped = false;
	int nbest = 0;

	assert(!game_over(pos));
	game_legal(n->g, pos, &legal);
	*count = 0;
	while (!moveset_empty(&legal))
		moves[(*count)++] = (struct negamax_move){ .move = moveset_pop(&legal),
							   .value = PROOF_NONE, .plies = -1 };
	n->solving = true;
	/* The root's value by iterative deepening, and every move to the end,
	 * within one clock: on one thread the moves one by one once the root
	 * is solved, the table warm; on more, shared as nm_solve_setup() says,
	 * from the start. */
	nm_run(n, pos, stop, progress, arg, out, 0, n->params.time_ms, moves, *count);
	nm_solve_twins(job);
	for (int i = 0; i < n->threads; i++)
		stopped = stopped || n->th[i].aborted;
	n->solving = false;
	qsort(moves, (size_t)*count, sizeof(moves[0]), nm_move_cmp);
	out->nodes = nm_nodes(n);
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (out->stopped || stopped) {
		out->stopped = true;
		return -1;
	}
	if (!out->exact) {
		/* every move settled before thread 0's deepening proved the
		 * root: they give its value */
		out->exact = true;
		out->score = moves[0].score;
		out->value = moves[0].value;
	}
	assert(out->exact && moves[0].score == out->score);
	while (nbest < *count && moves[nbest].score == moves[0].score)
		nbest++;
	out->best = moves[0].move;
	out->plies = moves[0].plies; /* (a draw's: along the best move's line) */
	return nbest;
}
