/* mnk.c - m,n,k games: K in a row on an M x N board (tic-tac-toe is 3,3,3).
 *
 * One 64-bit board per side, bit row * M + col. A line of K is found with
 * shifts: for each direction, a mask of the cells where a window of K cells
 * can start without leaving the board, ANDed with the board shifted by each
 * step of the window. No tables per cell, and the same trick finds threats. */
#include "config.h"

#include "game.h"

#include <assert.h>
#include <string.h>

void mnk_setup(struct game *g)
{
	int m = g->width, n = g->height, k = g->k;

	g->dir_shift[0] = 1;     /* across */
	g->dir_shift[1] = m;     /* down */
	g->dir_shift[2] = m + 1; /* down and right */
	g->dir_shift[3] = m - 1; /* down and left */
	for (int d = 0; d < 4; d++)
		g->dir_start[d] = 0;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < m; c++) {
			uint64_t bit = (uint64_t)1 << (r * m + c);
			bool across = c + k <= m, down = r + k <= n;

			if (across)
				g->dir_start[0] |= bit;
			if (down)
				g->dir_start[1] |= bit;
			if (across && down)
				g->dir_start[2] |= bit;
			if (c - (k - 1) >= 0 && down)
				g->dir_start[3] |= bit;
		}
	g->full = m * n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (m * n)) - 1;
	for (int i = 0; i < m * n; i++)
		g->cell_to_move[i] = g->move_to_cell[i] = (uint8_t)i;
}

static void mnk_start(const struct game *g, struct pos *p)
{
	(void)g;
	memset(p, 0, sizeof(*p));
	p->last = MOVE_NONE;
}

static inline uint64_t mnk_empty(const struct game *g, const struct pos *p)
{
	return g->full & ~(p->u.mnk.bb[0] | p->u.mnk.bb[1]);
}

/* Does board B hold K in a row? */
static inline bool mnk_has_line(const struct game *g, uint64_t b)
{
	for (int d = 0; d < 4; d++) {
		uint64_t t = g->dir_start[d] & b;
		int s = g->dir_shift[d];

		for (int i = 1; i < g->k && t != 0; i++)
			t &= b >> (i * s);
		if (t != 0)
			return true;
	}
	return false;
}

/* The empty cells that would complete a line for a side with stones MINE. */
static uint64_t mnk_threat_cells(const struct game *g, uint64_t mine, uint64_t empty)
{
	uint64_t out = 0;

	for (int d = 0; d < 4; d++) {
		int s = g->dir_shift[d];

		if (g->dir_start[d] == 0)
			continue;
		/* hole j of the window is empty, every other cell is ours */
		for (int j = 0; j < g->k; j++) {
			uint64_t t = g->dir_start[d] & (empty >> (j * s));

			for (int i = 0; i < g->k && t != 0; i++)
				if (i != j)
					t &= mine >> (i * s);
			out |= t << (j * s);
		}
	}
	return out;
}

static void mnk_legal(const struct game *g, const struct pos *p, struct moveset *out)
{
	out->w[0] = game_over(p) ? 0 : mnk_empty(g, p);
	out->w[1] = 0;
}

static inline void mnk_apply(const struct game *g, struct pos *p, int move)
{
	int me = p->turn;
	uint64_t b = p->u.mnk.bb[me] |= (uint64_t)1 << move;

	if (mnk_has_line(g, b))
		p->result = (uint8_t)result_of_win(me);
	else if ((b | p->u.mnk.bb[!me]) == g->full)
		p->result = RESULT_DRAW;
	p->turn = (uint8_t)!me;
	p->ply++;
	p->last = (uint8_t)move;
}

static void mnk_play(const struct game *g, struct pos *p, int move)
{
	assert(!game_over(p) && move >= 0 && move < g->cells && (mnk_empty(g, p) >> move & 1));
	p->hash ^= game_zobrist[p->turn][move];
	mnk_apply(g, p, move);
}

static int mnk_owner(const struct game *g, const struct pos *p, int move)
{
	(void)g;
	for (int s = 0; s < 2; s++)
		if (p->u.mnk.bb[s] >> move & 1)
			return s;
	return -1;
}

static const char *mnk_illegal(const struct game *g, const struct pos *p, int move, char *buf,
			       size_t size)
{
	char name[8];

	if (move < 0 || move >= g->cells)
		return fmt_buf(buf, size, "there is no such cell on the board");
	if (game_over(p))
		return fmt_buf(buf, size, "the game is over");
	for (int s = 0; s < 2; s++)
		if (p->u.mnk.bb[s] >> move & 1)
			return fmt_buf(buf, size, "%s is taken by %c", game_move_name(g, move, name),
				       s == SIDE_X ? 'X' : 'O');
	return NULL;
}

/* A random set bit of a non-empty X. */
static inline int random_bit(uint64_t x, struct rng *r)
{
	int n = (int)rng_below(r, (uint32_t)popcount64(x));

	while (n-- > 0)
		x &= x - 1;
	return __builtin_ctzll(x);
}

/* Each side's threats in P into HOT[side]. */
static void mnk_both_threats(const struct game *g, const struct pos *p, uint64_t *hot)
{
	uint64_t empty = mnk_empty(g, p);

	hot[0] = mnk_threat_cells(g, p->u.mnk.bb[0], empty);
	hot[1] = mnk_threat_cells(g, p->u.mnk.bb[1], empty);
}

/* A playout from P with POLICY. Smart playouts keep each side's threats
 * (the empty cells that complete its line) from move to move: only a
 * side's own move adds to them, and a move by either side takes its cell
 * away. BY_RULES: find them afresh every move instead, the plain loop the
 * tests hold the kept one to (mnk_playout_by_rules()). */
static inline __attribute__((always_inline)) int
mnk_playout(const struct game *g, struct pos *p, struct rng *r, int policy, bool by_rules)
{
	/* The empty cells in an array, removed by swapping with the last, so a
	 * random move costs O(1); where[] finds a cell chosen by a mask. */
	uint8_t cells[MNK_MAX_CELLS], where[MNK_MAX_CELLS];
	uint64_t hot[2] = { 0, 0 };
	int n = 0;
	uint64_t e = mnk_empty(g, p);

	while (e != 0) {
		int c = __builtin_ctzll(e);

		e &= e - 1;
		where[c] = (uint8_t)n;
		cells[n++] = (uint8_t)c;
	}
	if (policy == ROLLOUT_SMART && !by_rules)
		mnk_both_threats(g, p, hot);
	while (!game_over(p)) {
		int move, i, me = p->turn;

		assert(n > 0);
		i = (int)rng_below(r, (uint32_t)n);
		if (policy == ROLLOUT_SMART) {
			uint64_t h;

			if (by_rules)
				mnk_both_threats(g, p, hot);
			h = hot[me] != 0 ? hot[me] : hot[!me]; /* win, else block */
			if (h != 0)
				i = where[random_bit(h, r)];
		}
		move = cells[i];
		cells[i] = cells[--n];
		where[cells[i]] = (uint8_t)i;
		mnk_apply(g, p, move);
		if (policy == ROLLOUT_SMART && !by_rules && !game_over(p)) {
			uint64_t empty = mnk_empty(g, p);

			hot[me] = mnk_threat_cells(g, p->u.mnk.bb[me], empty);
			hot[!me] &= empty;
		}
	}
	return p->result;
}

static int mnk_rollout(const struct game *g, struct pos *p, struct rng *r, int policy)
{
	return mnk_playout(g, p, r, policy, false);
}

int mnk_playout_by_rules(const struct game *g, struct pos *p, struct rng *r, int policy)
{
	return mnk_playout(g, p, r, policy, true);
}

static void mnk_threats(const struct game *g, const struct pos *p, int side, struct moveset *out)
{
	out->w[0] = mnk_threat_cells(g, p->u.mnk.bb[side], mnk_empty(g, p));
	out->w[1] = 0;
}

/* The windows of K cells, found by the same starts and shifts that find a
 * line: the one k-in-a-row enumeration behind negamax and the screen. */
static int mnk_lines(const struct game *g, uint64_t *out, int max)
{
	int n = 0;

	for (int d = 0; d < 4; d++) {
		uint64_t starts = g->dir_start[d], line = 0;

		if (starts == 0)
			continue; /* no window fits, and its shifts would pass 63 */
		for (int i = 0; i < g->k; i++)
			line |= (uint64_t)1 << (i * g->dir_shift[d]);
		for (; starts != 0 && n < max; starts &= starts - 1)
			out[n++] = line << __builtin_ctzll(starts);
	}
	return n;
}

/* Open lines: each window of K cells that only one side has stones in is
 * worth more the more stones it holds. */
static int mnk_evaluate(const struct game *g, const struct pos *p)
{
	static const int weight[] = { 0, 1, 4, 12, 40, 100, 250, 600, 1200 };
	uint64_t mine = p->u.mnk.bb[p->turn], theirs = p->u.mnk.bb[!p->turn];
	uint64_t lines[GAME_MAX_LINES];
	int score = 0, n = mnk_lines(g, lines, GAME_MAX_LINES);

	for (int i = 0; i < n; i++) {
		int a = popcount64(mine & lines[i]), b = popcount64(theirs & lines[i]);

		if (a > 8)
			a = 8;
		if (b > 8)
			b = 8;
		if (b == 0)
			score += weight[a];
		else if (a == 0)
			score -= weight[b];
	}
	if (score >= GAME_EVAL_MAX)
		score = GAME_EVAL_MAX - 1;
	if (score <= -GAME_EVAL_MAX)
		score = -GAME_EVAL_MAX + 1;
	return score;
}


static void mnk_regions(const struct game *g, const struct pos *p, struct game_regions *out)
{
	(void)g;
	(void)p;
	memset(out, 0, sizeof(*out));
}

static const char *mnk_where(const struct game *g, const struct pos *p, char *buf, size_t size)
{
	(void)g;
	(void)p;
	(void)buf;
	(void)size;
	return NULL;
}

static char *mnk_title(const struct game *g, char *buf, size_t size)
{
	if (g->width == 3 && g->height == 3 && g->k == 3)
		return fmt_buf(buf, size, "tic-tac-toe");
	return fmt_buf(buf, size, "%d,%d,%d: %d in a row on %dx%d", g->width, g->height, g->k,
		       g->k, g->width, g->height);
}

const struct game_ops mnk_ops = {
	.start = mnk_start,
	.legal = mnk_legal,
	.play = mnk_play,
	.owner = mnk_owner,
	.illegal = mnk_illegal,
	.rollout = mnk_rollout,
	.threats = mnk_threats,
	.evaluate = mnk_evaluate,
	.lines = mnk_lines,
	.regions = mnk_regions,
	.where = mnk_where,
	.title = mnk_title,
};
