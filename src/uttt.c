/* uttt.c - Ultimate tic-tac-toe: nine small boards in a 3x3 big board.
 *
 * Each small board is a 9-bit mask per side (cell c = row * 3 + col inside
 * it); the big board is a 9-bit mask of small boards won per side plus one of
 * closed boards. Every rule question is a lookup in a 512-entry table.
 * Move id = board * 9 + cell, boards and cells numbered row by row. */
#include "config.h"

#include "game.h"

#include <assert.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_PDEP_PATH 1
#endif

#define FULL9 0x1ffu

static bool win9[512];        /* the mask holds three in a row */
static uint16_t threat9[512]; /* cells that would complete a line for the mask */
static uint8_t nth9[512][9];  /* the n-th set bit of the mask */
static uint8_t pop9[512];     /* bits set in the mask (no libgcc call) */

static const uint16_t lines9[8] = { 0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124 };

/* The fast playouts' way to a random cell: BMI2's pdep, where the processor
 * has it and it is fast (AMD's before Zen 3 run it in microcode, hundreds
 * of cycles), else the tables. The same cells for the same draws. */
static bool use_pdep;

static bool pdep_is_fast(void)
{
#ifdef HAVE_PDEP_PATH
	__builtin_cpu_init();
	return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
	       !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
#else
	return false;
#endif
}

static void tables_init(void)
{
	static bool done;

	if (done)
		return;
	for (unsigned m = 0; m < 512; m++) {
		int n = 0;

		for (int l = 0; l < 8; l++) {
			unsigned have = m & lines9[l];

			if (have == lines9[l])
				win9[m] = true;
			if (have != 0 && (have & (have - 1)) != 0 && have != lines9[l])
				threat9[m] |= (uint16_t)(lines9[l] & ~m);
		}
		for (int c = 0; c < 9; c++)
			if (m >> c & 1)
				nth9[m][n++] = (uint8_t)c;
		pop9[m] = (uint8_t)n;
	}
	use_pdep = pdep_is_fast();
	done = true;
}

bool uttt_fast_pdep(int use)
{
	if (use >= 0)
		use_pdep = use && pdep_is_fast();
	return use_pdep;
}

void uttt_setup(struct game *g)
{
	tables_init();
	for (int m = 0; m < 81; m++) {
		int b = m / 9, c = m % 9;
		int col = (b % 3) * 3 + c % 3, row = (b / 3) * 3 + c / 3;

		g->move_to_cell[m] = (uint8_t)(row * 9 + col);
		g->cell_to_move[row * 9 + col] = (uint8_t)m;
	}
}

const char *uttt_board_name(int b)
{
	static const char *const names[9] = { "top-left", "top", "top-right",
					      "left", "centre", "right",
					      "bottom-left", "bottom", "bottom-right" };

	assert(b >= 0 && b < 9);
	return names[b];
}

static void uttt_start(const struct game *g, struct pos *p)
{
	(void)g;
	memset(p, 0, sizeof(*p));
	p->u.uttt.next = -1;
	p->last = MOVE_NONE;
	p->hash = game_zobrist_next[0];
}

static inline unsigned free9(const struct pos *p, int b)
{
	return FULL9 & ~(unsigned)(p->u.uttt.sub[0][b] | p->u.uttt.sub[1][b]);
}

/* The boards the side to move may play in. */
static inline unsigned allowed_boards(const struct pos *p)
{
	return p->u.uttt.next >= 0 ? 1u << p->u.uttt.next : FULL9 & ~(unsigned)p->u.uttt.closed;
}

/* The result when no move is left: a draw, or by CodinGame's tie-break the
 * side with more small boards. */
static int end_result(const struct game *g, const struct pos *p)
{
	if (g->rules & RULE_TIEBREAK) {
		int x = pop9[p->u.uttt.won[0]];
		int o = pop9[p->u.uttt.won[1]];

		if (x != o)
			return x > o ? RESULT_X : RESULT_O;
	}
	return RESULT_DRAW;
}

/* Put cell C of board B for the side to move and update the game. */
static inline void uttt_apply(const struct game *g, struct pos *p, int b, int c)
{
	int me = p->turn;
	unsigned mine = p->u.uttt.sub[me][b] |= (uint16_t)(1u << c);

	if (!((p->u.uttt.won[0] | p->u.uttt.won[1]) >> b & 1) && win9[mine]) {
		p->u.uttt.won[me] |= (uint16_t)(1u << b);
		if (!(g->rules & RULE_OPEN_WON))
			p->u.uttt.closed |= (uint16_t)(1u << b);
		if (win9[p->u.uttt.won[me]])
			p->result = (uint8_t)result_of_win(me);
	}
	if ((mine | p->u.uttt.sub[!me][b]) == FULL9)
		p->u.uttt.closed |= (uint16_t)(1u << b);
	if (p->result == RESULT_NONE && p->u.uttt.closed == FULL9)
		p->result = (uint8_t)end_result(g, p);
	p->u.uttt.next = (int8_t)(p->u.uttt.closed >> c & 1 ? -1 : c);
	p->turn = (uint8_t)!me;
	p->ply++;
	p->last = (uint8_t)(b * 9 + c);
}

/* uttt_apply() for playouts: the same rules, without what a playout does
 * not read (the ply count, the last move) and testing for the end only
 * when a board was won or closed. Returns whether the game is over. */
static inline bool playout_apply(const struct game *g, struct pos *p, int b, int c)
{
	int me = p->turn;
	unsigned mine = p->u.uttt.sub[me][b] |= (uint16_t)(1u << c);
	unsigned closed = p->u.uttt.closed;

	if (win9[mine] && !((p->u.uttt.won[0] | p->u.uttt.won[1]) >> b & 1)) {
		unsigned won = p->u.uttt.won[me] |= (uint16_t)(1u << b);

		if (win9[won]) {
			p->result = (uint8_t)result_of_win(me);
			return true;
		}
		if (!(g->rules & RULE_OPEN_WON))
			closed |= 1u << b;
	}
	if ((mine | p->u.uttt.sub[!me][b]) == FULL9)
		closed |= 1u << b;
	if (closed != p->u.uttt.closed) {
		p->u.uttt.closed = (uint16_t)closed;
		if (closed == FULL9) {
			p->result = (uint8_t)end_result(g, p);
			return true;
		}
	}
	p->u.uttt.next = (int8_t)(closed >> c & 1 ? -1 : c);
	p->turn = (uint8_t)!me;
	return false;
}

static void uttt_play(const struct game *g, struct pos *p, int move)
{
	int b = move / 9, c = move % 9, me = p->turn;
	unsigned won = p->u.uttt.won[me];

	assert(!game_over(p) && move >= 0 && move < 81);
	assert((allowed_boards(p) >> b & 1) && (free9(p, b) >> c & 1));
	p->hash ^= game_zobrist[me][move] ^ game_zobrist_next[p->u.uttt.next + 1];
	uttt_apply(g, p, b, c);
	p->hash ^= game_zobrist_next[p->u.uttt.next + 1];
	/* (the hash is the key of negamax's table: the owner of a won board
	 * is part of the position under --open-won-boards) */
	if (p->u.uttt.won[me] != won)
		p->hash ^= game_zobrist_won[me][b];
}

/* Add the 9-bit mask BITS of board B to a moveset. */
static inline void add_board(struct moveset *out, int b, unsigned bits)
{
	int at = b * 9;

	if (at < 64) {
		out->w[0] |= (uint64_t)bits << at;
		if (at + 9 > 64)
			out->w[1] |= (uint64_t)bits >> (64 - at);
	} else {
		out->w[1] |= (uint64_t)bits << (at - 64);
	}
}

static void uttt_legal(const struct game *g, const struct pos *p, struct moveset *out)
{
	unsigned boards;

	(void)g;
	moveset_clear(out);
	if (game_over(p))
		return;
	boards = allowed_boards(p);
	while (boards != 0) {
		int b = __builtin_ctz(boards);

		boards &= boards - 1;
		add_board(out, b, free9(p, b));
	}
}

static int uttt_owner(const struct game *g, const struct pos *p, int move)
{
	(void)g;
	for (int s = 0; s < 2; s++)
		if (p->u.uttt.sub[s][move / 9] >> (move % 9) & 1)
			return s;
	return -1;
}

static const char *uttt_illegal(const struct game *g, const struct pos *p, int move, char *buf,
				size_t size)
{
	char name[8];
	int b = move / 9, c = move % 9;

	if (move < 0 || move >= 81)
		return fmt_buf(buf, size, "there is no such cell on the board");
	if (game_over(p))
		return fmt_buf(buf, size, "the game is over");
	if (!(free9(p, b) >> c & 1))
		return fmt_buf(buf, size, "%s is taken by %c", game_move_name(g, move, name),
			       p->u.uttt.sub[0][b] >> c & 1 ? 'X' : 'O');
	if (p->u.uttt.next >= 0 && p->u.uttt.next != b)
		return fmt_buf(buf, size, "the last move sends you to the %s board",
			       uttt_board_name(p->u.uttt.next));
	if (p->u.uttt.closed >> b & 1)
		return fmt_buf(buf, size, "the %s board is closed (%s)", uttt_board_name(b),
			       (p->u.uttt.won[0] | p->u.uttt.won[1]) >> b & 1 ? "won" : "full");
	return NULL;
}

bool uttt_board_threat(const struct pos *p, int side, int b)
{
	unsigned won = (unsigned)(p->u.uttt.won[0] | p->u.uttt.won[1]);

	return !(won >> b & 1) && (threat9[p->u.uttt.sub[side][b]] & free9(p, b));
}

unsigned uttt_board_threats(const struct pos *p, int side)
{
	unsigned out = 0;

	for (int b = 0; b < 9; b++)
		if (uttt_board_threat(p, side, b))
			out |= 1u << b;
	return out;
}

unsigned uttt_line_cells(unsigned mask)
{
	return threat9[mask & FULL9];
}

/* Cells with which SIDE wins the game at once, in the boards BOARDS. */
static void winning_cells(const struct pos *p, int side, unsigned boards, struct moveset *out)
{
	unsigned open = FULL9 & ~(unsigned)(p->u.uttt.closed | p->u.uttt.won[0] | p->u.uttt.won[1]);
	unsigned key = threat9[p->u.uttt.won[side]] & open & boards;

	while (key != 0) {
		int b = __builtin_ctz(key);
		unsigned cells = threat9[p->u.uttt.sub[side][b]] & free9(p, b);

		key &= key - 1;
		if (cells != 0)
			add_board(out, b, cells);
	}
}

static void uttt_threats(const struct game *g, const struct pos *p, int side, struct moveset *out)
{
	(void)g;
	moveset_clear(out);
	winning_cells(p, side, FULL9, out);
}

/* Smart rollouts: a move that wins the game, else one that takes a cell
 * the opponent needs to win the game, else none (-1). */
static inline int smart_move(const struct pos *p, unsigned boards, struct rng *r)
{
	for (int who = 0; who < 2; who++) {
		int side = who == 0 ? p->turn : !p->turn;
		struct moveset ms = { { 0, 0 } };

		if (threat9[p->u.uttt.won[side]] == 0)
			continue;
		winning_cells(p, side, boards, &ms);
		if (!moveset_empty(&ms))
			return moveset_nth(&ms, (int)rng_below(r, (uint32_t)moveset_count(&ms)));
	}
	return -1;
}

/* The free cells F of a board B with nothing at stake for the game, from
 * which a smart playout draws ME's move there: those that win B (MINE:
 * ME's cells of B; WON: the boards won), else those that do not send the
 * opponent to a CLOSED board, where it would choose freely, else all.
 * Head to head at 90 ms a move against the playouts without it (session
 * 44: `noughts match "mcts:time=90" "mcts:time=90" --game uttt --tiebreak
 * --games 100 --seed S`, S = 1, 2, two at once, a throwaway build giving
 * the rule to A only): this rule 58.5% of 200; the board's win alone
 * 60.5%, the open board alone 56.0%; both, and the open board on a free
 * choice of board too, 59.2%; both, and no board where the opponent can
 * win a board at once, 53.8%. It also shortens playouts: 2% fewer
 * instructions for the same search (callgrind). */
static inline unsigned smart_cells(unsigned f, unsigned mine, int b, unsigned won,
				   unsigned closed)
{
	unsigned g = won >> b & 1 ? 0 : threat9[mine] & f;

	if (g != 0)
		return g;
	g = f & ~closed;
	return g != 0 ? g : f;
}

/* A uniform random cell among the free cells F of one board. */
static inline int random_cell(unsigned f, struct rng *r)
{
	return nth9[f][rng_below(r, pop9[f])];
}

#ifdef HAVE_PDEP_PATH
/* random_cell() without its two dependent loads: the count in one
 * instruction, the cell put where the draw's bit lands among F's. */
__attribute__((target("popcnt,bmi2"))) static inline int random_cell_pdep(unsigned f,
									 struct rng *r)
{
	return __builtin_ctz(_pdep_u32(1u << rng_below(r, (uint32_t)__builtin_popcount(f)), f));
}
#define RANDOM_CELL(f, r, pdep) ((pdep) ? random_cell_pdep(f, r) : random_cell(f, r))
#else
#define RANDOM_CELL(f, r, pdep) ((void)(pdep), random_cell(f, r))
#endif

/* A uniform random move among the free cells of the boards BOARDS, as
 * board *B and cell *C. */
static inline void random_move(const struct pos *p, unsigned boards, struct rng *r, int *b,
			       int *c)
{
	int total = 0, n;

	if ((boards & (boards - 1)) == 0) {
		unsigned f = free9(p, __builtin_ctz(boards));

		*b = __builtin_ctz(boards);
		*c = random_cell(f, r);
		return;
	}
	for (unsigned t = boards; t != 0; t &= t - 1)
		total += pop9[free9(p, __builtin_ctz(t))];
	n = (int)rng_below(r, (uint32_t)total);
	for (;;) {
		unsigned f = free9(p, __builtin_ctz(boards));

		if (n < pop9[f]) {
			*b = __builtin_ctz(boards);
			*c = nth9[f][n];
			return;
		}
		n -= pop9[f];
		boards &= boards - 1;
	}
}

/* A cell among the LEFT free cells of the boards not CLOSED (AVAIL: each
 * board's free cells), as board *B and cell *C: random_move()'s choice for
 * the same generator, from counts kept instead of summed again. Returns
 * the board's free cells. */
static inline unsigned any_board_move(const uint16_t *avail, unsigned closed, int left,
				      struct rng *r, int *b, int *c)
{
	int n = (int)rng_below(r, (uint32_t)left);

	for (unsigned boards = FULL9 & ~closed;; boards &= boards - 1) {
		unsigned f = avail[__builtin_ctz(boards)];

		if (n < pop9[f]) {
			*b = __builtin_ctz(boards);
			*c = nth9[f][n];
			return f;
		}
		n -= pop9[f];
	}
}

/* A fast playout's state: the position's fields and, beside them, each
 * board's free cells and their number in the open boards, kept up to date
 * instead of recomputed at every move. */
struct fast {
	uint16_t sub[18];  /* sub[side * 9 + board] */
	uint16_t avail[9]; /* free cells */
	unsigned won[2], closed;
	int left;          /* free cells in the boards not closed */
};

static inline void fast_load(struct fast *s, const struct pos *p)
{
	memcpy(s->sub, p->u.uttt.sub, sizeof(s->sub));
	s->won[0] = p->u.uttt.won[0];
	s->won[1] = p->u.uttt.won[1];
	s->closed = p->u.uttt.closed;
	s->left = 0;
	for (int b = 0; b < 9; b++) {
		s->avail[b] = (uint16_t)(FULL9 & ~(unsigned)(s->sub[b] | s->sub[9 + b]));
		s->left += s->closed >> b & 1 ? 0 : pop9[s->avail[b]];
	}
}

/* Back into P after the playout: NEXT and ME the forced board and the
 * mover of the last move, END its fast_apply() value. Returns the result. */
static inline int fast_store(const struct game *g, const struct fast *s, struct pos *p,
			     int next, int me, int end)
{
	memcpy(p->u.uttt.sub, s->sub, sizeof(s->sub));
	p->u.uttt.won[0] = (uint16_t)s->won[0];
	p->u.uttt.won[1] = (uint16_t)s->won[1];
	p->u.uttt.closed = (uint16_t)s->closed;
	p->u.uttt.next = (int8_t)next;
	p->turn = (uint8_t)me;
	p->result = (uint8_t)(end < 0 ? end_result(g, p) : end);
	return p->result;
}

/* playout_apply() on S: cell C of board B, whose free cells were F, for
 * ME, the rare events (a board won or full) behind one test. Returns
 * RESULT_NONE while the game goes on, the result of ME's win, or -1 when
 * the last board closed. */
static inline int fast_apply(struct fast *s, bool open_won, int me, int b, int c, unsigned f)
{
	unsigned mine = s->sub[me * 9 + b] |= (uint16_t)(1u << c), was = s->closed;

	s->avail[b] = (uint16_t)(f ^= 1u << c);
	s->left--;
	if (win9[mine] | (f == 0)) {
		if (win9[mine] && !((s->won[0] | s->won[1]) >> b & 1)) {
			s->won[me] |= 1u << b;
			if (win9[s->won[me]])
				return result_of_win(me);
			if (!open_won)
				s->closed |= 1u << b;
		}
		if (f == 0)
			s->closed |= 1u << b;
		if (s->closed != was) {
			s->left -= pop9[f];
			if (s->closed == FULL9)
				return -1;
		}
	}
	return RESULT_NONE;
}

/* smart_move() on S: a cell of the boards BOARDS that wins the game for
 * ME, else one that wins it for the opponent, drawn from the generator as
 * smart_move() draws it, as board *B and cell *C; false if none. */
static inline bool fast_smart(const struct fast *s, int me, unsigned boards, struct rng *r,
			      int *b, int *c)
{
	unsigned open = FULL9 & ~(s->closed | s->won[0] | s->won[1]);

	for (int who = 0; who < 2; who++) {
		int side = me ^ who, total = 0, n;
		unsigned key = threat9[s->won[side]] & open & boards;

		for (unsigned t = key; t != 0; t &= t - 1)
			total += pop9[threat9[s->sub[side * 9 + __builtin_ctz(t)]] &
				      s->avail[__builtin_ctz(t)]];
		if (total == 0)
			continue;
		n = (int)rng_below(r, (uint32_t)total);
		for (unsigned t = key;; t &= t - 1) {
			int at = __builtin_ctz(t);
			unsigned cells = threat9[s->sub[side * 9 + at]] & s->avail[at];

			if (n < pop9[cells]) {
				*b = at;
				*c = nth9[cells][n];
				return true;
			}
			n -= pop9[cells];
		}
	}
	return false;
}

/* The playouts, where the search spends most of its time, on a struct
 * fast. The moves, the generator's draws and the final position are
 * uttt_playout_by_rules()'s (the tests compare them), so seeded searches
 * do not change. Random: the choice of the next board and the draw of
 * the next cell fused at the end of the loop. */
static inline __attribute__((always_inline)) int
random_playout(const struct game *g, struct pos *p, struct rng *r, bool pdep)
{
	struct fast s;
	int next = p->u.uttt.next, me = p->turn, end, b, c;
	unsigned f;
	bool open_won = g->rules & RULE_OPEN_WON;
	struct rng rr = *r;

	if (p->result != RESULT_NONE)
		return p->result;
	fast_load(&s, p);
	if (next >= 0) {
		b = next;
		f = s.avail[b];
		c = RANDOM_CELL(f, &rr, pdep);
	} else {
		f = any_board_move(s.avail, s.closed, s.left, &rr, &b, &c);
	}
	while ((end = fast_apply(&s, open_won, me, b, c, f)) == RESULT_NONE) {
		me ^= 1;
		if (s.closed >> c & 1) {
			next = -1;
			f = any_board_move(s.avail, s.closed, s.left, &rr, &b, &c);
		} else {
			next = b = c;
			f = s.avail[b];
			c = RANDOM_CELL(f, &rr, pdep);
		}
	}
	*r = rr;
	return fast_store(g, &s, p, next, me, end);
}

static inline __attribute__((always_inline)) int
smart_playout(const struct game *g, struct pos *p, struct rng *r, bool pdep)
{
	struct fast s;
	int next = p->u.uttt.next, me = p->turn, end, b, c;
	bool open_won = g->rules & RULE_OPEN_WON;
	struct rng rr = *r;

	if (p->result != RESULT_NONE)
		return p->result;
	fast_load(&s, p);
	do {
		unsigned boards = next >= 0 ? 1u << next : FULL9 & ~s.closed;

		if (!fast_smart(&s, me, boards, &rr, &b, &c)) {
			if (next >= 0) {
				b = next;
				c = RANDOM_CELL(smart_cells(s.avail[b], s.sub[me * 9 + b], b,
							    s.won[0] | s.won[1], s.closed),
						&rr, pdep);
			} else {
				any_board_move(s.avail, s.closed, s.left, &rr, &b, &c);
			}
		}
		end = fast_apply(&s, open_won, me, b, c, s.avail[b]);
		if (end == RESULT_NONE) {
			me ^= 1;
			next = s.closed >> c & 1 ? -1 : c;
		}
	} while (end == RESULT_NONE);
	*r = rr;
	return fast_store(g, &s, p, next, me, end);
}

int uttt_playout_by_rules(const struct game *g, struct pos *p, struct rng *r, int policy)
{
	/* On copies whose address does not escape, the compiler keeps the
	 * generator and the position's scalars in registers: through the
	 * pointers, which may alias, it reloads them at every move. */
	struct pos q = *p;
	struct rng rr = *r;
	bool over = game_over(&q);

	while (!over) {
		unsigned boards = allowed_boards(&q);
		int b, c;

		if (policy == ROLLOUT_SMART) {
			int m = smart_move(&q, boards, &rr);

			if (m >= 0) {
				over = playout_apply(g, &q, m / 9, m % 9);
				continue;
			}
			if (q.u.uttt.next >= 0) {
				b = q.u.uttt.next;
				c = random_cell(smart_cells(free9(&q, b), q.u.uttt.sub[q.turn][b], b,
							    q.u.uttt.won[0] | q.u.uttt.won[1],
							    q.u.uttt.closed),
						&rr);
				over = playout_apply(g, &q, b, c);
				continue;
			}
		}
		random_move(&q, boards, &rr, &b, &c);
		over = playout_apply(g, &q, b, c);
	}
	*p = q;
	*r = rr;
	return q.result;
}

/* The playouts compiled twice: for any x86-64 (or other) processor, and
 * with the pdep path. */
static int playout_tables(const struct game *g, struct pos *p, struct rng *r, int policy)
{
	return policy == ROLLOUT_RANDOM ? random_playout(g, p, r, false)
					: smart_playout(g, p, r, false);
}

#ifdef HAVE_PDEP_PATH
__attribute__((target("popcnt,bmi2"))) static int playout_pdep(const struct game *g, struct pos *p,
							       struct rng *r, int policy)
{
	return policy == ROLLOUT_RANDOM ? random_playout(g, p, r, true)
					: smart_playout(g, p, r, true);
}
#endif

static int uttt_rollout(const struct game *g, struct pos *p, struct rng *r, int policy)
{
#ifdef HAVE_PDEP_PATH
	if (use_pdep)
		return playout_pdep(g, p, r, policy);
#endif
	return playout_tables(g, p, r, policy);
}

/* Heuristic: lines of the big board still open to one side, weighted by the
 * small boards it has in them, plus two-in-a-rows inside open small boards. */
static int uttt_evaluate(const struct game *g, const struct pos *p)
{
	static const int big_weight[3] = { 2, 40, 300 };
	int me = p->turn, score = 0;
	unsigned dead = p->u.uttt.closed & ~(unsigned)(p->u.uttt.won[0] | p->u.uttt.won[1]);

	for (int l = 0; l < 8; l++) {
		unsigned a = p->u.uttt.won[me] & lines9[l], o = p->u.uttt.won[!me] & lines9[l];

		if (dead & lines9[l])
			continue;
		if (o == 0)
			score += big_weight[pop9[a]];
		else if (a == 0)
			score -= big_weight[pop9[o]];
	}
	for (int b = 0; b < 9; b++) {
		int local = 0;

		if ((p->u.uttt.closed | p->u.uttt.won[0] | p->u.uttt.won[1]) >> b & 1)
			continue;
		for (int l = 0; l < 8; l++) {
			unsigned a = p->u.uttt.sub[me][b] & lines9[l];
			unsigned o = p->u.uttt.sub[!me][b] & lines9[l];

			if (o == 0 && a != 0)
				local += pop9[a] == 2 ? 6 : 1;
			else if (a == 0 && o != 0)
				local -= pop9[o] == 2 ? 6 : 1;
		}
		score += b == 4 ? local * 3 / 2 : local;
	}
	if (g->rules & RULE_TIEBREAK)
		score += 10 * (pop9[p->u.uttt.won[me]] -
			       pop9[p->u.uttt.won[!me]]);
	if (score >= GAME_EVAL_MAX)
		score = GAME_EVAL_MAX - 1;
	if (score <= -GAME_EVAL_MAX)
		score = -GAME_EVAL_MAX + 1;
	return score;
}

/* The lines are of small boards, not of K cells on one board. */
static int uttt_lines(const struct game *g, uint64_t *out, int max)
{
	(void)g;
	(void)out;
	(void)max;
	return 0;
}

static void uttt_regions(const struct game *g, const struct pos *p, struct game_regions *out)
{
	int who = result_winner(p->result);

	memset(out, 0, sizeof(*out));
	out->n = 9;
	out->w = out->h = 3;
	out->closed = p->u.uttt.closed;
	out->won[0] = p->u.uttt.won[0];
	out->won[1] = p->u.uttt.won[1];
	out->won_open = (g->rules & RULE_OPEN_WON) != 0;
	if (!game_over(p))
		out->allowed = allowed_boards(p);
	for (int l = 0; who >= 0 && l < 8; l++)
		if ((out->won[who] & lines9[l]) == lines9[l]) {
			out->line = lines9[l];
			break;
		}
}

static const char *uttt_where(const struct game *g, const struct pos *p, char *buf, size_t size)
{
	(void)g;
	if (p->u.uttt.next < 0)
		return fmt_buf(buf, size, "in any open board");
	return fmt_buf(buf, size, "in the %s board", uttt_board_name(p->u.uttt.next));
}

static char *uttt_title(const struct game *g, char *buf, size_t size)
{
	return fmt_buf(buf, size, "Ultimate tic-tac-toe%s",
		       g->rules & RULE_TIEBREAK ? " (tie-break)" : "");
}

const struct game_ops uttt_ops = {
	.start = uttt_start,
	.legal = uttt_legal,
	.play = uttt_play,
	.owner = uttt_owner,
	.illegal = uttt_illegal,
	.rollout = uttt_rollout,
	.threats = uttt_threats,
	.evaluate = uttt_evaluate,
	.lines = uttt_lines,
	.regions = uttt_regions,
	.where = uttt_where,
	.title = uttt_title,
};
