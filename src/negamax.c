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
#include <stdlib.h>
#include <string.h>

#include "negamax-int.h"
#include "ttable.h"
#include "util.h"

/* What one pass over the windows of an m,n,k position tells. */
struct nm_lines {
	uint64_t threat[2]; /* empty cells that complete a line for each side */
	uint64_t live;      /* cells of windows that someone can still complete */
	bool can_win[2];    /* each side has a window it can still complete */
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

int nm_terminal(const struct pos *p, int ply)
{
	int w = result_winner(p->result);

	if (w < 0)
		return 0;
	/* the side that moved into P is !p->turn */
	return w == !p->turn ? NEGAMAX_WIN - ply : -(NEGAMAX_WIN - ply);
}



void nm_rules_init(struct negamax *n)
{
	const struct game *g = n->g;

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
}

uint64_t nm_key(const struct negamax *n, const struct nm_node *nd, int *sym)
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

/* How much an entry is worth keeping: the work behind it, proven first. */
static int nm_worth(const struct tt_entry *e)
{
	return e->draft * 2 + !!(e->flags & TT_PROVEN);
}

static void nm_store(struct nm_thread *t, uint64_t key, int score, int move, int draft, int flags)
{
	struct negamax *n = t->n;
	struct tt_entry e;
	int filled;

	e.key = key;
	e.score = score;
	e.move = (uint8_t)move;
	e.draft = (uint8_t)nm_min(nm_max(draft, 0), NM_DRAFT_MAX);
	e.flags = (uint8_t)flags;
	e.gen = n->gen;
	filled = ttable_store(n->tt, &e, nm_worth);
	if (filled > 0) /* (only this thread writes it; thread 0 reads) */
		__atomic_store_n(&t->filled, t->filled + (uint64_t)filled, __ATOMIC_RELAXED);
}

int nm_table_move(const struct negamax *n, const struct nm_node *nd)
{
	struct tt_entry e;
	int sym;

	if (!ttable_probe(n->tt, nm_key(n, nd, &sym), &e) || e.move == MOVE_NONE)
		return MOVE_NONE;
	return n->inv[sym][e.move];
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

void nm_play(const struct negamax *n, const struct nm_node *parent, int move,
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

void nm_root_node(const struct negamax *n, const struct pos *pos, struct nm_node *nd)
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

/* What ND's position, PLY plies below the root, settles before a search:
 * true with *SCORE when it is won in 1 or (m,n,k) lost in 2 (at the root,
 * with the move in T->root_best). Else fills LEGAL, LN (m,n,k), *FORCED
 * (the opponent's single threat, to block; -1 for none) and the bounds
 * *LO, *HI that the fastest win and loss still possible set. */
static bool nm_quick(struct nm_thread *t, const struct nm_node *nd, int ply, struct moveset *legal,
		     struct nm_lines *ln, int *forced, int *lo, int *hi, int *score)
{
	const struct negamax *n = t->n;
	const struct game *g = n->g;
	const struct pos *p = &nd->pos;
	int me = p->turn;
	struct moveset wins;

	*forced = -1;
	if (n->mnk) {
		nm_lines(n, nd->bb, me, ln);
		assert(nm_threats_agree(n, nd, ln));
		if (ln->threat[me] != 0) {
			if (ply == 0)
				t->root_best = __builtin_ctzll(ln->threat[me]);
			*score = NEGAMAX_WIN - (ply + 1);
			return true;
		}
		if (popcount64(ln->threat[!me]) >= 2) {
			if (ply == 0)
				t->root_best = __builtin_ctzll(ln->threat[!me]);
			*score = -(NEGAMAX_WIN - (ply + 2));
			return true;
		}
		if (ln->threat[!me] != 0)
			*forced = __builtin_ctzll(ln->threat[!me]);
		*lo = ln->can_win[!me] ? -(NEGAMAX_WIN - (ply + 2)) : 0;
		*hi = ln->can_win[me] ? NEGAMAX_WIN - (ply + 3) : 0;
		game_legal(g, p, legal);
		return false;
	}
	memset(ln, 0, sizeof(*ln));
	game_legal(g, p, legal);
	if (game_threats_among(g, p, me, legal, &wins)) {
		if (ply == 0)
			t->root_best = moveset_pop(&wins);
		*score = NEGAMAX_WIN - (ply + 1);
		return true;
	}
	/* with the tie-break, filling the last board may decide the game */
	*lo = -(NEGAMAX_WIN - (ply + ((g->rules & RULE_TIEBREAK) ? 1 : 2)));
	*hi = NEGAMAX_WIN - (ply + ((g->rules & RULE_TIEBREAK) ? 1 : 3));
	return false;
}

/* The table's entry for KEY (in symmetry SYM) at PLY: its move into
 * *TTMOVE and its proven bounds into *LO, *HI; true with *SCORE when an
 * entry at least DEPTH deep settles the window ALPHA, BETA. */
static bool nm_table_cut(const struct negamax *n, uint64_t key, int sym, int depth, int ply,
			 int alpha, int beta, int *ttmove, int *lo, int *hi, int *score)
{
	struct tt_entry e;
	int s;

	if (!ttable_probe(n->tt, key, &e))
		return false;
	s = nm_score_from_tt(e.score, ply);
	if (e.move != MOVE_NONE)
		*ttmove = n->inv[sym][e.move];
	/* Not at the root: a window narrowed to the root's own value would
	 * leave every move failing low alike, the best one too. */
	if (ply > 0 && (e.flags & TT_PROVEN)) {
		if (e.flags & TT_LOWER)
			*lo = nm_max(*lo, s);
		if (e.flags & TT_UPPER)
			*hi = nm_min(*hi, s);
	} else if (ply > 0 && e.draft >= depth && !(e.flags & TT_SOLVING) == !n->solving) {
		*score = s;
		return ((e.flags & TT_LOWER) && s >= beta) || ((e.flags & TT_UPPER) && s <= alpha) ||
		       (e.flags & TT_EXACT) == TT_EXACT;
	}
	return false;
}

/* The moves of ND worth searching into MOVES, best first, and their
 * number: the forced block alone; on m,n,k boards the table's move, then
 * by the lines through each cell (one dead cell for all), history breaking
 * ties; elsewhere the table's move, then by history. */
static int nm_order(const struct nm_thread *t, const struct nm_node *nd,
		    const struct moveset *legal, const struct nm_lines *ln, int forced, int ttmove,
		    uint8_t *moves)
{
	const struct negamax *n = t->n;
	int me = nd->pos.turn, count = 0;
	int keys[GAME_MAX_MOVES];

	if (forced >= 0) {
		moves[0] = (uint8_t)forced;
		return 1;
	}
	if (n->mnk) {
		uint64_t empty = legal->w[0], dead = empty & ~ln->live;
		int score[MNK_MAX_CELLS] = { 0 };

		if (dead != 0) /* one dead cell stands for all of them */
			empty = (empty & ln->live) | (dead & -dead);
		nm_cell_scores(n, nd->bb, me, score);
		for (; empty != 0; empty &= empty - 1) {
			int m = __builtin_ctzll(empty);
			uint32_t h = t->history[me][m] < 63 ? t->history[me][m] : 63;

			/* the lines through a cell first, history breaks ties */
			moves[count] = (uint8_t)m;
			keys[count++] = m == ttmove ? INT_MAX
				      : !(ln->live >> m & 1) ? -1
				      : score[m] * 64 + (int)h;
		}
	} else {
		count = moveset_list(legal, moves);
		for (int i = 0; i < count; i++)
			keys[i] = moves[i] == ttmove ? INT_MAX : (int)t->history[me][moves[i]];
	}
	nm_sort(moves, keys, count);
	return count;
}

/* Turn MOVES (COUNT of them) left by K places. */
static void nm_rotate(uint8_t *moves, int count, int k)
{
	uint8_t tmp[GAME_MAX_MOVES];

	memcpy(tmp, moves, (size_t)count);
	for (int i = 0; i < count; i++)
		moves[i] = tmp[(i + k) % count];
}

/* Proven bounds [LO, HI] settle a node when they meet or leave the window
 * (ALPHA, BETA): then *OUT is its score. At the root (PLY 0) only bounds
 * that meet do, as only a finished search gives a move. */
static bool nm_bounds_settle(struct nm_thread *t, int ply, int lo, int hi, int alpha, int beta,
			     int ttmove, const struct moveset *legal, int *out)
{
	if (ply == 0 && lo != hi)
		return false;
	if (hi <= alpha || lo == hi) {
		if (ply == 0 && ttmove != MOVE_NONE && moveset_has(legal, ttmove))
			t->root_best = ttmove;
		*out = hi;
		return true;
	}
	if (lo >= beta) {
		*out = lo;
		return true;
	}
	return false;
}

/* The score of CHILD (at PLY + 1) for the side to move at PLY, in the
 * window (A, BETA): the first child with the whole window, the others with
 * a null window first and again with the whole one if they beat A. */
static int nm_child(struct nm_thread *t, const struct nm_node *child, bool first, int depth,
		    int ply, int a, int beta, bool *cp)
{
	int s;

	if (game_over(&child->pos))
		return nm_terminal(&child->pos, ply + 1);
	if (first)
		return -nm_search(t, child, depth, ply + 1, -beta, -a, cp);
	s = -nm_search(t, child, depth, ply + 1, -a - 1, -a, cp);
	if (s > a && s < beta && !t->aborted)
		s = -nm_search(t, child, depth, ply + 1, -beta, -a, cp);
	return s;
}

/* A table entry's flags: KIND (TT_LOWER, TT_UPPER, TT_EXACT), and whether
 * the score is proven and was found by a solve. */
static int nm_tt_flags(const struct negamax *n, int kind, bool proven)
{
	return kind | (proven ? TT_PROVEN : 0) | (n->solving ? TT_SOLVING : 0);
}

/* What nm_search() has learnt of a node before it tries its moves. */
struct nm_frame {
	uint64_t key;
	int sym, lo, hi, forced, ttmove;
	struct moveset legal;
	struct nm_lines ln;
};

/* nm_search()'s second half: the moves of ND, best first, in the window
 * (ALPHA, BETA) narrowed to F's bounds, and the result into the table. */
static int nm_search_moves(struct nm_thread *t, const struct nm_node *nd, const struct nm_frame *f,
			   int depth, int ply, int alpha, int beta, bool *proven)
{
	struct negamax *n = t->n;
	const struct game *g = n->g;
	int me = nd->pos.turn, count, best, bestmove, a, child_depth, draft;
	bool all_proven = true;
	uint8_t moves[GAME_MAX_MOVES];

	count = nm_order(t, nd, &f->legal, &f->ln, f->forced, f->ttmove, moves);
	assert(count > 0);

	/* Threads other than the first on a search (thread 0 at the root)
	 * start on other moves: they work ahead on moves it comes to later. */
	if (ply == t->rotate_ply && t->rotate_by > 0 && count > 1)
		nm_rotate(moves, count, t->rotate_by % count);

	/* Table entries are ranked by draft: no more than the plies left. */
	draft = nm_min(depth, g->cells - nd->pos.ply);
	/* A forced move costs no depth: it settles the threat at once. */
	child_depth = f->forced >= 0 ? depth : depth - 1;
	best = -NM_INF;
	bestmove = moves[0];
	a = alpha;
	for (int i = 0; i < count; i++) {
		struct nm_node child;
		bool cp = true;
		int s;

		nm_play(n, nd, moves[i], &child);
		s = nm_child(t, &child, i == 0, child_depth, ply, a, beta, &cp);
		if (t->aborted)
			return 0;
		if (ply == 0)
			nm_live_root(t, moves[i], s, a, i == 0 || game_over(&child.pos), cp, depth);
		if (s > best) {
			best = s;
			bestmove = moves[i];
			if (ply == 0)
				t->root_best = bestmove;
		}
		if (s >= beta) {
			*proven = cp;
			if (moves[i] != f->ttmove && t->history[me][moves[i]] < (1u << 30))
				t->history[me][moves[i]] += (uint32_t)(depth * depth + 1);
			nm_store(t, f->key, nm_score_to_tt(s, ply), g->sym[f->sym][moves[i]], draft,
				 nm_tt_flags(n, TT_LOWER, cp));
			return s;
		}
		all_proven = all_proven && cp;
		if (s > a)
			a = s;
	}
	/* A heuristic score outside the proven bounds is clamped into them. */
	best = nm_max(f->lo, nm_min(f->hi, best));
	*proven = all_proven;
	nm_store(t, f->key, nm_score_to_tt(best, ply), g->sym[f->sym][bestmove], draft,
		 nm_tt_flags(n, best > alpha ? TT_EXACT : TT_UPPER, all_proven));
	return best;
}

int nm_search(struct nm_thread *t, const struct nm_node *nd, int depth, int ply, int alpha,
	      int beta, bool *proven)
{
	struct negamax *n = t->n;
	struct nm_frame f = { .forced = -1, .ttmove = MOVE_NONE };
	int settled;

	*proven = false;
	if (++t->nodes >= t->next_check)
		nm_poll(t);
	if (t->aborted)
		return 0;
	/* The table bucket is a cache miss: start loading it now. */
	f.key = nm_key(n, nd, &f.sym);
	ttable_prefetch(n->tt, f.key);

	if (nm_quick(t, nd, ply, &f.legal, &f.ln, &f.forced, &f.lo, &f.hi, &settled)) {
		*proven = true;
		return settled;
	}
	if (nm_table_cut(n, f.key, f.sym, depth, ply, alpha, beta, &f.ttmove, &f.lo, &f.hi,
			 &settled))
		return settled;
	if (nm_bounds_settle(t, ply, f.lo, f.hi, alpha, beta, f.ttmove, &f.legal, &settled)) {
		*proven = true;
		return settled;
	}
	alpha = nm_max(alpha, f.lo);
	beta = nm_min(beta, f.hi);

	/* A solve only asks whether a side can force a win so far: a null
	 * heuristic keeps the windows narrow and the iterations cheap. */
	if (depth <= 0 && f.forced < 0)
		return n->solving ? nm_max(f.lo, nm_min(f.hi, 0))
				  : nm_max(f.lo, nm_min(f.hi, game_evaluate(n->g, &nd->pos)));
	return nm_search_moves(t, nd, &f, depth, ply, alpha, beta, proven);
}

