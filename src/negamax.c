/* negamax.c - alpha-beta negamax with a transposition table, iterative
 * deepening, and for k-in-a-row games the rules that make solving cheap.
 *
 * The search is fail-soft principal variation search. Besides its score
 * every node returns whether the bound it claims is proven, that is, holds
 * for the game-theoretic value and not only for the heuristic tree: leaves
 * cut off by depth are not proven, finished games are, and a node is proven
 * when the child that caused its cut-off is, or when every child is. Proven
 * entries of the transposition table answer a search of any depth, so
 * iterative deepening never searches a solved subtree twice and a solve is
 * known to be one as soon as the root is proven, usually long before the
 * depth reaches the number of empty cells.
 *
 * On m,n,k boards the engine keeps its own bitboards of the stones (built
 * from game_cell_owner() at the root, then updated by the moves it plays)
 * and the list of windows of K cells, and at each node looks at every
 * window once to learn:
 *  - the cells that complete a line for each side (what game_threats()
 *    gives): a win in 1 is scored at once; a single threat of the opponent
 *    is the only move worth searching (every other move loses in 2); two
 *    threats are a loss in 2;
 *  - whether each side can still complete a window with the moves left to
 *    it: if not, its best is a draw, which bounds the score by 0 and proves
 *    most draws far from the end of the board;
 *  - which empty cells lie in no window that anyone can still complete.
 *    Such dead cells only pass the turn, and which one is filled never
 *    matters, so one of them stands for all;
 *  - a score per empty cell from the windows through it, for move order.
 * The transposition table key is the least hash of the position over the
 * board's symmetries, kept incrementally for each symmetry along the path;
 * the best move is stored in the frame of that least symmetry.
 *
 * Ultimate tic-tac-toe uses pos.hash as the key, game_threats() for wins in
 * 1 (a threat of the opponent there may be out of its reach, so there is no
 * blocking rule) and the history heuristic for move order.
 *
 * Exactness: a root score is the game-theoretic value when the root is
 * proven, or when it is a win or loss within the depth of the iteration
 * (every line that long was seen to its end, and heuristic scores never
 * reach mate scores, so no shorter win or longer defence was missed).
 *
 * negamax_best_moves() solves with leaves cut off by depth scored 0 instead
 * of the heuristic (the iterations then only ask who can force a win so far,
 * with narrow windows), then asks of each root move with a null window,
 * table warm, whether it keeps the value: win, draw or loss, not the exact
 * distance (in a lost position every move "keeps" the loss). */
#include "config.h"

#include "negamax.h"

#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define NM_INF (NEGAMAX_WIN + 1)
/* |score| at least this: a win or loss (negamax_is_mate) */
#define NM_MATE (NEGAMAX_WIN - GAME_MAX_PLIES - 1)
#define NM_CHECK_EVERY 4096 /* nodes between looks at the clock and *stop */
#define NM_MAX_WINDOWS GAME_MAX_LINES
#define NM_DRAFT_MAX 250

/* Bound bits of a table entry (both set: an exact score), whether the
 * bound is proven, and whether unproven leaves scored 0 (a solve) rather
 * than the heuristic, so that the two kinds of estimate do not mix. */
enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3, TT_PROVEN = 4, TT_SOLVING = 8 };

struct tt_entry {
	uint64_t key;   /* least symmetric hash of the position */
	int32_t score;  /* mate scores counted from this position, not the root */
	uint8_t move;   /* best move in the frame of the least symmetry */
	uint8_t draft;  /* depth searched below the position */
	uint8_t flags;  /* TT_*; 0 for an empty slot */
	uint8_t gen;    /* negamax_search() call that stored it */
};

/* Two slots: one kept for the deepest search, one always replaced. */
struct tt_bucket {
	struct tt_entry deep, recent;
};

/* A position on the search path with what the engine keeps beside it. */
struct nm_node {
	struct pos pos;
	uint64_t bb[2];           /* m,n,k: stones of X and O, bit = move id */
	uint64_t h[GAME_MAX_SYM]; /* hash of the position seen through each symmetry */
};

/* What one pass over the windows of an m,n,k position tells. */
struct nm_lines {
	uint64_t threat[2]; /* empty cells that complete a line for each side */
	uint64_t live;      /* cells of windows that someone can still complete */
	bool can_win[2];    /* each side has a window it can still complete */
};

struct negamax {
	const struct game *g;
	struct negamax_params params;
	bool mnk;           /* k-in-a-row rules and symmetry apply */
	int nsym;           /* symmetries hashed: 1 for Ultimate tic-tac-toe */
	uint8_t inv[GAME_MAX_SYM][GAME_MAX_CELLS]; /* inverse of g->sym */

	/* m,n,k windows of K cells as masks of move-id bits */
	int nwin;
	uint64_t win[NM_MAX_WINDOWS];
	uint64_t full;      /* every move id of the board */

	struct tt_bucket *tt;
	size_t tt_mask;     /* buckets - 1, a power of two minus one */
	uint8_t gen;

	uint32_t history[2][GAME_MAX_CELLS];

	/* the search under way */
	uint64_t nodes, next_check;
	uint64_t deadline;  /* now_ns() past which to stop, 0 for none */
	atomic_int *stop;
	bool aborted;
	bool solving;       /* leaves cut off by depth score 0, not the heuristic */
	int root_best;
	uint64_t start_ns;

	/* What the search shows while it runs: written by the searching
	 * thread at the root and every NM_CHECK_EVERY nodes, read by others
	 * (negamax_live), under live_lock. */
	pthread_mutex_t live_lock;
	struct negamax_live live;
	size_t tt_used;     /* slots filled, counted as they fill */
};

/* Weights of a window still open to a side, by its stones, for move order:
 * making our lines longer first, then breaking the opponent's. */
static const int nm_attack[8] = { 1, 4, 20, 120, 600, 2000, 6000, 20000 };
static const int nm_defend[8] = { 1, 3, 15, 90, 450, 1500, 4500, 15000 };

static int nm_min(int a, int b)
{
	return a < b ? a : b;
}

static int nm_max(int a, int b)
{
	return a > b ? a : b;
}

/* Mate scores count plies from the root; the table counts them from the
 * position so an entry serves at any ply. */
static int nm_score_to_tt(int s, int ply)
{
	return s >= NM_MATE ? s + ply : s <= -NM_MATE ? s - ply : s;
}

static int nm_score_from_tt(int s, int ply)
{
	return s >= NM_MATE ? s - ply : s <= -NM_MATE ? s + ply : s;
}

/* Score, for the side to move in the position before it, of the finished
 * game P reached at PLY plies from the root. */
static int nm_terminal(const struct pos *p, int ply)
{
	int w = result_winner(p->result);

	if (w < 0)
		return 0;
	/* the side that moved into P is !p->turn */
	return w == !p->turn ? NEGAMAX_WIN - ply : -(NEGAMAX_WIN - ply);
}

struct negamax *negamax_new(const struct game *g, const struct negamax_params *p)
{
	struct negamax *n = xcalloc(1, sizeof(*n));
	size_t bytes, buckets = 1;

	n->g = g;
	n->params = *p;
	/* A game whose wins are lines of K cells gets the line reasoning and
	 * the symmetries; any other is searched on its rules alone. */
	n->nwin = g->cells <= 64 ? game_lines(g, n->win) : 0;
	n->mnk = n->nwin > 0;
	n->nsym = n->mnk ? g->nsym : 1;
	assert(n->nsym >= 1 && n->nsym <= GAME_MAX_SYM);
	for (int s = 0; s < n->nsym; s++)
		for (int m = 0; m < g->cells; m++)
			n->inv[s][g->sym[s][m]] = (uint8_t)m;
	if (n->mnk) {
		assert(g->cells <= 64);
		n->full = g->cells == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->cells) - 1;
	}
	bytes = p->tt_bytes != 0 ? p->tt_bytes : (size_t)NEGAMAX_DEFAULT_TT_MB << 20;
	while (buckets * 2 * sizeof(struct tt_bucket) <= bytes)
		buckets *= 2;
	n->tt = xcalloc(buckets, sizeof(struct tt_bucket));
	if (pthread_mutex_init(&n->live_lock, NULL) != 0)
		fatal("cannot make a lock for the negamax search");
	n->tt_mask = buckets - 1;
	return n;
}

void negamax_free(struct negamax *n)
{
	if (n == NULL)
		return;
	pthread_mutex_destroy(&n->live_lock);
	free(n->tt);
	free(n);
}

/* The table key of ND and the symmetry that gives it. */
static uint64_t nm_key(const struct negamax *n, const struct nm_node *nd, int *sym)
{
	uint64_t key = nd->h[0];

	*sym = 0;
	for (int s = 1; s < n->nsym; s++)
		if (nd->h[s] < key) {
			key = nd->h[s];
			*sym = s;
		}
	return key;
}

static const struct tt_entry *nm_probe(const struct negamax *n, uint64_t key)
{
	const struct tt_bucket *b = &n->tt[key & n->tt_mask];

	if (b->deep.flags != 0 && b->deep.key == key)
		return &b->deep;
	if (b->recent.flags != 0 && b->recent.key == key)
		return &b->recent;
	return NULL;
}

/* How much an entry is worth keeping: the work behind it, proven first. */
static int nm_worth(const struct tt_entry *e)
{
	return e->draft * 2 + !!(e->flags & TT_PROVEN);
}

static void nm_store(struct negamax *n, uint64_t key, int score, int move, int draft, int flags)
{
	struct tt_bucket *b = &n->tt[key & n->tt_mask];
	struct tt_entry e;

	e.key = key;
	e.score = score;
	e.move = (uint8_t)move;
	e.draft = (uint8_t)nm_min(nm_max(draft, 0), NM_DRAFT_MAX);
	e.flags = (uint8_t)flags;
	e.gen = n->gen;
	if (b->deep.flags == 0 || b->deep.gen != n->gen || nm_worth(&e) >= nm_worth(&b->deep)) {
		if (b->deep.flags != 0 && b->deep.key != key) {
			n->tt_used += b->recent.flags == 0;
			b->recent = b->deep;
		}
		n->tt_used += b->deep.flags == 0;
		b->deep = e;
	} else {
		n->tt_used += b->recent.flags == 0;
		b->recent = e;
	}
}

/* Look at every window of an m,n,k position with stones BB, ME to move. */
static void nm_lines(const struct negamax *n, const uint64_t bb[2], int me, struct nm_lines *ln)
{
	int k = n->g->k;
	int empty = popcount64(n->full & ~(bb[0] | bb[1]));
	int left[2];

	left[me] = (empty + 1) / 2;
	left[!me] = empty / 2;
	ln->threat[0] = ln->threat[1] = 0;
	ln->live = 0;
	ln->can_win[0] = ln->can_win[1] = false;
	for (int w = 0; w < n->nwin; w++) {
		uint64_t mask = n->win[w];
		int x = popcount64(mask & bb[0]);
		int o = popcount64(mask & bb[1]);

		if (o == 0 && k - x <= left[0]) {
			ln->live |= mask;
			ln->can_win[0] = true;
			if (x == k - 1)
				ln->threat[0] |= mask & ~bb[0];
		}
		if (x == 0 && k - o <= left[1]) {
			ln->live |= mask;
			ln->can_win[1] = true;
			if (o == k - 1)
				ln->threat[1] |= mask & ~bb[1];
		}
	}
}

#ifndef NDEBUG
/* The threats found from the windows are those of the rules (the opponent's
 * count only while it has a move left). */
static bool nm_threats_agree(const struct negamax *n, const struct nm_node *nd,
			     const struct nm_lines *ln)
{
	struct moveset t;
	int me = nd->pos.turn;
	bool has_move = popcount64(n->full & ~(nd->bb[0] | nd->bb[1])) >= 2;

	game_threats(n->g, &nd->pos, me, &t);
	if (t.w[0] != ln->threat[me] || t.w[1] != 0)
		return false;
	game_threats(n->g, &nd->pos, !me, &t);
	return has_move ? t.w[0] == ln->threat[!me] : ln->threat[!me] == 0;
}
#endif

/* Move-order scores of the empty cells of an m,n,k position into SCORE. */
static void nm_cell_scores(const struct negamax *n, const uint64_t bb[2], int me, int *score)
{
	uint64_t empty = n->full & ~(bb[0] | bb[1]);

	for (int w = 0; w < n->nwin; w++) {
		uint64_t mask = n->win[w], cells;
		int a = popcount64(mask & bb[me]);
		int b = popcount64(mask & bb[!me]);
		int v;

		if (a != 0 && b != 0)
			continue;
		v = b == 0 ? nm_attack[nm_min(a, 7)] : nm_defend[nm_min(b, 7)];
		for (cells = mask & empty; cells != 0; cells &= cells - 1)
			score[__builtin_ctzll(cells)] += v;
	}
}

static void nm_play(const struct negamax *n, const struct nm_node *parent, int move,
		    struct nm_node *child)
{
	int me = parent->pos.turn;

	child->pos = parent->pos;
	game_play(n->g, &child->pos, move);
	if (n->mnk) {
		child->bb[me] = parent->bb[me] | (uint64_t)1 << move;
		child->bb[!me] = parent->bb[!me];
		for (int s = 0; s < n->nsym; s++)
			child->h[s] = parent->h[s] ^ game_zobrist[me][n->g->sym[s][move]];
	} else {
		child->h[0] = child->pos.hash;
	}
}

static void nm_root_node(const struct negamax *n, const struct pos *pos, struct nm_node *nd)
{
	const struct game *g = n->g;

	memset(nd, 0, sizeof(*nd));
	nd->pos = *pos;
	if (!n->mnk) {
		nd->h[0] = pos->hash;
		return;
	}
	for (int m = 0; m < g->cells; m++) {
		int col, row, owner;

		game_move_cell(g, m, &col, &row);
		owner = game_cell_owner(g, pos, col, row);
		if (owner < 0)
			continue;
		nd->bb[owner] |= (uint64_t)1 << m;
		for (int s = 0; s < n->nsym; s++)
			nd->h[s] ^= game_zobrist[owner][g->sym[s][m]];
	}
	assert(nd->h[0] == pos->hash);
}

/* Look at the clock and *stop; called every NM_CHECK_EVERY nodes. */
static void nm_poll(struct negamax *n)
{
	uint64_t now = now_ns();

	n->next_check = n->nodes + NM_CHECK_EVERY;
	pthread_mutex_lock(&n->live_lock);
	n->live.nodes = n->nodes;
	n->live.seconds = (double)(now - n->start_ns) / 1e9;
	n->live.tt_used = n->tt_used;
	pthread_mutex_unlock(&n->live_lock);
	if ((n->stop != NULL && atomic_load(n->stop)) || (n->deadline != 0 && now >= n->deadline))
		n->aborted = true;
}

/* A root move's score from the iteration DEPTH: exact when it rose above
 * the window's lower edge A (or was searched with the full window, FIRST),
 * else an upper bound. */
static void nm_live_root(struct negamax *n, int move, int s, int a, bool first, bool proven,
			 int depth)
{
	struct negamax_live *l = &n->live;
	int i;

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

/* Sort MOVES by KEYS, highest first (few moves: insertion sort). */
static void nm_sort(uint8_t *moves, int *keys, int count)
{
	for (int i = 1; i < count; i++) {
		uint8_t m = moves[i];
		int k = keys[i], j = i;

		for (; j > 0 && keys[j - 1] < k; j--) {
			moves[j] = moves[j - 1];
			keys[j] = keys[j - 1];
		}
		moves[j] = m;
		keys[j] = k;
	}
}

/* Search ND, PLY plies below the root, DEPTH plies deep with the window
 * ALPHA, BETA. Returns a fail-soft score and sets *PROVEN when the bound
 * it claims holds for the game-theoretic value. ND is not over. */
static int nm_search(struct negamax *n, const struct nm_node *nd, int depth, int ply, int alpha,
		     int beta, bool *proven)
{
	const struct game *g = n->g;
	const struct pos *p = &nd->pos;
	int me = p->turn;
	int lo, hi, forced = -1, ttmove = MOVE_NONE, sym, count, best, bestmove, a, child_depth;
	int draft;
	bool all_proven = true;
	uint8_t moves[GAME_MAX_MOVES];
	int keys[GAME_MAX_MOVES];
	struct moveset legal;
	struct nm_lines ln;
	const struct tt_entry *e;
	uint64_t key;

	*proven = false;
	if (++n->nodes >= n->next_check)
		nm_poll(n);
	if (n->aborted)
		return 0;
	/* The table bucket is a cache miss: start loading it now. */
	key = nm_key(n, nd, &sym);
	__builtin_prefetch(&n->tt[key & n->tt_mask]);

	/* A win in 1 is the best score there is; otherwise bound the score by
	 * the fastest win and loss still possible. */
	if (n->mnk) {
		nm_lines(n, nd->bb, me, &ln);
		assert(nm_threats_agree(n, nd, &ln));
		if (ln.threat[me] != 0) {
			if (ply == 0)
				n->root_best = __builtin_ctzll(ln.threat[me]);
			*proven = true;
			return NEGAMAX_WIN - (ply + 1);
		}
		if (popcount64(ln.threat[!me]) >= 2) {
			if (ply == 0)
				n->root_best = __builtin_ctzll(ln.threat[!me]);
			*proven = true;
			return -(NEGAMAX_WIN - (ply + 2));
		}
		if (ln.threat[!me] != 0)
			forced = __builtin_ctzll(ln.threat[!me]);
		lo = ln.can_win[!me] ? -(NEGAMAX_WIN - (ply + 2)) : 0;
		hi = ln.can_win[me] ? NEGAMAX_WIN - (ply + 3) : 0;
		game_legal(g, p, &legal);
	} else {
		struct moveset wins;

		memset(&ln, 0, sizeof(ln));
		game_legal(g, p, &legal);
		game_threats(g, p, me, &wins);
		moveset_and(&wins, &legal);
		if (!moveset_empty(&wins)) {
			if (ply == 0)
				n->root_best = moveset_pop(&wins);
			*proven = true;
			return NEGAMAX_WIN - (ply + 1);
		}
		/* with the tie-break, filling the last board may decide the game */
		if (g->rules & RULE_TIEBREAK) {
			lo = -(NEGAMAX_WIN - (ply + 1));
			hi = NEGAMAX_WIN - (ply + 1);
		} else {
			lo = -(NEGAMAX_WIN - (ply + 2));
			hi = NEGAMAX_WIN - (ply + 3);
		}
	}

	e = nm_probe(n, key);
	if (e != NULL) {
		int s = nm_score_from_tt(e->score, ply);

		if (e->move != MOVE_NONE)
			ttmove = n->inv[sym][e->move];
		/* Not at the root: a window narrowed to the root's own value
		 * would leave every move failing low alike, the best one too. */
		if (ply > 0 && (e->flags & TT_PROVEN)) {
			if (e->flags & TT_LOWER)
				lo = nm_max(lo, s);
			if (e->flags & TT_UPPER)
				hi = nm_min(hi, s);
		} else if (ply > 0 && e->draft >= depth &&
			   !(e->flags & TT_SOLVING) == !n->solving) {
			if (((e->flags & TT_LOWER) && s >= beta) ||
			    ((e->flags & TT_UPPER) && s <= alpha) ||
			    (e->flags & TT_EXACT) == TT_EXACT)
				return s;
		}
	}
	/* Proven bounds settle the node when they meet or leave the window
	 * (at the root only a finished search gives a move). */
	if (ply > 0 || lo == hi) {
		if (hi <= alpha || lo == hi) {
			*proven = true;
			if (ply == 0 && ttmove != MOVE_NONE && moveset_has(&legal, ttmove))
				n->root_best = ttmove;
			return hi;
		}
		if (lo >= beta) {
			*proven = true;
			return lo;
		}
	}
	alpha = nm_max(alpha, lo);
	beta = nm_min(beta, hi);

	/* A solve only asks whether a side can force a win so far: a null
	 * heuristic keeps the windows narrow and the iterations cheap. */
	if (depth <= 0 && forced < 0)
		return n->solving ? nm_max(lo, nm_min(hi, 0))
				  : nm_max(lo, nm_min(hi, game_evaluate(g, p)));

	/* The moves worth searching, best first. */
	if (forced >= 0) {
		moves[0] = (uint8_t)forced;
		count = 1;
	} else if (n->mnk) {
		uint64_t empty = legal.w[0], dead = empty & ~ln.live;
		int score[MNK_MAX_CELLS] = { 0 };

		if (dead != 0) /* one dead cell stands for all of them */
			empty = (empty & ln.live) | (dead & -dead);
		nm_cell_scores(n, nd->bb, me, score);
		count = 0;
		for (; empty != 0; empty &= empty - 1) {
			int m = __builtin_ctzll(empty);
			uint32_t h = n->history[me][m] < 63 ? n->history[me][m] : 63;

			/* the lines through a cell first, history breaks ties */
			moves[count] = (uint8_t)m;
			keys[count++] = m == ttmove ? INT_MAX
				      : !(ln.live >> m & 1) ? -1
				      : score[m] * 64 + (int)h;
		}
		nm_sort(moves, keys, count);
	} else {
		count = moveset_list(&legal, moves);
		for (int i = 0; i < count; i++)
			keys[i] = moves[i] == ttmove ? INT_MAX : (int)n->history[me][moves[i]];
		nm_sort(moves, keys, count);
	}
	assert(count > 0);

	/* Table entries are ranked by draft: no more than the plies left. */
	draft = nm_min(depth, g->cells - p->ply);
	/* A forced move costs no depth: it settles the threat at once. */
	child_depth = forced >= 0 ? depth : depth - 1;
	best = -NM_INF;
	bestmove = moves[0];
	a = alpha;
	for (int i = 0; i < count; i++) {
		struct nm_node child;
		bool cp = true;
		int s;

		nm_play(n, nd, moves[i], &child);
		if (game_over(&child.pos)) {
			s = nm_terminal(&child.pos, ply + 1);
		} else if (i == 0) {
			s = -nm_search(n, &child, child_depth, ply + 1, -beta, -a, &cp);
		} else {
			s = -nm_search(n, &child, child_depth, ply + 1, -a - 1, -a, &cp);
			if (s > a && s < beta && !n->aborted)
				s = -nm_search(n, &child, child_depth, ply + 1, -beta, -a, &cp);
		}
		if (n->aborted)
			return 0;
		if (ply == 0)
			nm_live_root(n, moves[i], s, a, i == 0 || game_over(&child.pos), cp, depth);
		if (s > best) {
			best = s;
			bestmove = moves[i];
			if (ply == 0)
				n->root_best = bestmove;
		}
		if (s >= beta) {
			*proven = cp;
			if (moves[i] != ttmove && n->history[me][moves[i]] < (1u << 30))
				n->history[me][moves[i]] += (uint32_t)(depth * depth + 1);
			nm_store(n, key, nm_score_to_tt(s, ply), g->sym[sym][moves[i]],
				 draft,
				 TT_LOWER | (cp ? TT_PROVEN : 0) | (n->solving ? TT_SOLVING : 0));
			return s;
		}
		all_proven = all_proven && cp;
		if (s > a)
			a = s;
	}
	/* A heuristic score outside the proven bounds is clamped into them. */
	best = nm_max(lo, nm_min(hi, best));
	*proven = all_proven;
	nm_store(n, key, nm_score_to_tt(best, ply), g->sym[sym][bestmove], draft,
		 (best > alpha ? TT_EXACT : TT_UPPER) | (all_proven ? TT_PROVEN : 0) |
			 (n->solving ? TT_SOLVING : 0));
	return best;
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
		const struct tt_entry *e;
		int sym, move = MOVE_NONE;

		game_legal(n->g, &nd.pos, &legal);
		e = nm_probe(n, nm_key(n, &nd, &sym));
		if (e != NULL && e->move != MOVE_NONE)
			move = n->inv[sym][e->move];
		if (move == MOVE_NONE || !moveset_has(&legal, move))
			move = moveset_pop(&legal);
		nm_play(n, &nd, move, &child);
		nd = child;
		plies++;
	}
	return plies;
}

/* The result of the iteration of depth D that scored the root S (PROVEN:
 * the search proved it) into OUT. */
static void nm_iteration_result(const struct negamax *n, const struct nm_node *root, int s, int d,
				bool proven, struct negamax_result *out)
{
	out->best = n->root_best;
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
		const struct tt_entry *e;
		int sym, move = MOVE_NONE;

		game_legal(n->g, &nd.pos, &legal);
		e = nm_probe(n, nm_key(n, &nd, &sym));
		if (e != NULL && e->move != MOVE_NONE)
			move = n->inv[sym][e->move];
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
	n->live.tt_used = n->tt_used;
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
		n->live.tt_size = 2 * (n->tt_mask + 1);
	} else {
		n->live.nodes = n->nodes;
		n->live.seconds = (double)(now_ns() - n->start_ns) / 1e9;
		n->live.tt_used = n->tt_used;
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

/* Iterative deepening from POS up to DEPTH plies (0: until solved) within
 * TIME_MS (0: no limit). Leaves the search state (node count, *stop) set
 * for a caller that goes on searching. */
static void nm_run(struct negamax *n, const struct pos *pos, atomic_int *stop,
		   void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		   struct negamax_result *out, int depth, int time_ms, struct nm_node *root)
{
	uint64_t start = now_ns();
	int remaining = n->g->cells - pos->ply, max_depth;

	n->start_ns = start;
	nm_live_run(n, true);
	memset(out, 0, sizeof(*out));
	out->best = MOVE_NONE;
	n->gen++;
	n->stop = stop;
	n->deadline = time_ms > 0 ? start + (uint64_t)time_ms * 1000000u : 0;
	n->aborted = false;
	n->nodes = 0;
	n->next_check = NM_CHECK_EVERY;
	/* old history still orders moves, but the new search soon outweighs it */
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < GAME_MAX_CELLS; m++)
			n->history[s][m] /= 8;
	nm_root_node(n, pos, root);
	if (game_over(pos)) {
		nm_result_over(pos, out);
		nm_live_run(n, false);
		return;
	}
	/* past the plies left every leaf is a finished game */
	max_depth = depth > 0 && depth < remaining ? depth : remaining;
	for (int d = 1; d <= max_depth; d++) {
		bool proven;
		int s;

		if (stop != NULL && atomic_load(stop))
			n->aborted = true;
		if (n->aborted)
			break;
		n->root_best = MOVE_NONE;
		pthread_mutex_lock(&n->live_lock);
		n->live.searching = d;
		pthread_mutex_unlock(&n->live_lock);
		s = nm_search(n, root, d, 0, -NM_INF, NM_INF, &proven);
		if (n->aborted)
			break;
		nm_iteration_result(n, root, s, d, proven, out);
		assert(d < remaining || out->exact);
		out->nodes = n->nodes;
		out->seconds = (double)(now_ns() - start) / 1e9;
		nm_live_iteration(n, root, out);
		if (progress != NULL)
			progress(out, arg);
		if (out->exact)
			break;
	}
	if (out->best == MOVE_NONE) {
		/* nothing finished, or a settled root without a move: the move
		 * the unfinished iteration liked, else the lowest legal one */
		struct moveset legal;

		game_legal(n->g, pos, &legal);
		if (n->root_best != MOVE_NONE && moveset_has(&legal, n->root_best))
			out->best = n->root_best;
		else
			out->best = moveset_pop(&legal);
	}
	out->nodes = n->nodes;
	out->seconds = (double)(now_ns() - start) / 1e9;
	out->stopped = n->aborted;
	nm_live_run(n, false);
}

void negamax_search(struct negamax *n, const struct pos *pos, atomic_int *stop,
		    void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		    struct negamax_result *out)
{
	struct nm_node root;

	nm_run(n, pos, stop, progress, arg, out, n->params.depth, n->params.time_ms, &root);
}

/* Whether the score of ND, PLY plies below the root, is above ALPHA
 * (returns more than ALPHA) or not, proven. When FIRST is positive a search
 * FIRST plies deep comes first: a win about as long as the one known at the
 * root is then found before a tour of long lines, and the unlimited search
 * that follows if it proves nothing starts with a useful table. */
static int nm_prove(struct negamax *n, const struct nm_node *nd, int ply, int alpha, int first)
{
	bool proven;
	int s;

	if (first > 0) {
		s = nm_search(n, nd, first, ply, alpha, alpha + 1, &proven);
		if (proven || n->aborted)
			return s;
	}
	s = nm_search(n, nd, NM_DRAFT_MAX, ply, alpha, alpha + 1, &proven);
	assert(proven || n->aborted);
	return s;
}

int negamax_best_moves(struct negamax *n, const struct pos *pos, atomic_int *stop,
		       void (*progress)(const struct negamax_result *r, void *arg), void *arg,
		       struct negamax_result *out, uint8_t *best)
{
	struct nm_node root;
	struct moveset legal;
	uint64_t start = now_ns();
	int count = 0;

	n->solving = true;
	nm_run(n, pos, stop, progress, arg, out, 0, 0, &root);
	if (out->stopped) {
		n->solving = false;
		return -1;
	}
	assert(out->exact);
	game_legal(n->g, pos, &legal);
	while (!moveset_empty(&legal)) {
		int m = moveset_pop(&legal);
		struct nm_node child;
		bool keeps;

		nm_play(n, &root, m, &child);
		if (game_over(&child.pos)) {
			int s = nm_terminal(&child.pos, 1);

			keeps = out->value == PROOF_WIN	   ? s > 0
				: out->value == PROOF_DRAW ? s >= 0
							   : true;
		} else if (out->value == PROOF_WIN) {
			/* the child, the opponent to move, is lost */
			keeps = nm_prove(n, &child, 1, -NM_MATE, out->plies + 2) <= -NM_MATE;
		} else if (out->value == PROOF_DRAW) {
			/* the opponent cannot win */
			keeps = nm_prove(n, &child, 1, 0, 0) <= 0;
		} else {
			keeps = true; /* every move loses */
		}
		if (n->aborted)
			break;
		if (keeps)
			best[count++] = (uint8_t)m;
	}
	n->solving = false;
	out->nodes = n->nodes;
	out->seconds = (double)(now_ns() - start) / 1e9;
	if (n->aborted) {
		out->stopped = true;
		return -1;
	}
	return count;
}
