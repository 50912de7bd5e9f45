/* nnue.c - the value network: features, incremental accumulators, integer
 * evaluation (the arithmetic in nnue-kernels.c; see nnue.h).
 *
 * Features of a position seen from side S (own = S, other = !S):
 *     0..80     own marks, by move id (small board * 9 + cell)
 *     81..161   the other side's marks
 *     162..170  small boards S has won
 *     171..179  small boards the other side has won
 *     180..188  small boards closed with no winner (full)
 *     189..198  the board the mover is sent to: 189 for any, 190 + board
 *     199..207  open small boards where S has a line of two and its third
 *               cell free (it can win the board in one move)
 *     208..216  the same for the other side
 * The two perspectives differ only in which marks and boards are "own", so
 * one table of weights serves both. train/uttt.py computes the same list.
 *
 * Format version 3 has other features (NNUE_CELL_FEATURES): each cell in
 * one of NNUE_CELL_STATES states seen from S, feature cell * 9 + state, one
 * a cell: how its board closed; else what is on it, or for an empty cell
 * who would win its board by playing there (train/uttt.py, cell_states(),
 * lists them); then the board the mover is sent to, as above, at
 * NNUE_CELL_NEXT. */
#include "config.h"

#include "nnue.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F_OWN 0
#define F_OTHER 81
#define F_OWN_WON 162
#define F_OTHER_WON 171
#define F_FULL 180
#define F_NEXT 189
#define F_OWN_THREAT 199
#define F_OTHER_THREAT 208

#include "nnue-int.h"
#include "util.h"

/* --- features ------------------------------------------------------------ */

/* The changes from one position to another: features added and removed,
 * seen from X (add[SIDE_X], del[SIDE_X]) and the same ones seen from O
 * (add[SIDE_O], del[SIDE_O]), each perspective's list written as the
 * change is found. At most every feature changes. */
struct change {
	int add[2][NNUE_FEATURES], del[2][NNUE_FEATURES];
	int nadd, ndel;
};

/* The same feature seen from the other side. */
static inline int flip_feature(int f)
{
	if (f < F_OTHER)
		return f + 81;
	if (f < F_OWN_WON)
		return f - 81;
	if (f < F_OTHER_WON)
		return f + 9;
	if (f < F_FULL)
		return f - 9;
	if (f < F_OWN_THREAT)
		return f;
	return f < F_OTHER_THREAT ? f + 9 : f - 9;
}

/* The small boards of P full with no winner: closed (the rules close a
 * full board, won or not) and not won. */
static unsigned full_boards(const struct pos *p)
{
	return p->u.uttt.closed & ~(unsigned)(p->u.uttt.won[0] | p->u.uttt.won[1]);
}

/* Feature F seen from X, which is G seen from O, into C as added when ADD,
 * else as removed. */
static inline void change_pair(struct change *c, int f, int g, bool add)
{
	if (add) {
		c->add[SIDE_X][c->nadd] = f;
		c->add[SIDE_O][c->nadd++] = g;
	} else {
		c->del[SIDE_X][c->ndel] = f;
		c->del[SIDE_O][c->ndel++] = g;
	}
}

/* Add to C (as added when ADD, else removed) feature F seen from X, and
 * seen from O. */
static inline void change_one(struct change *c, int f, int add)
{
	change_pair(c, f, flip_feature(f), add);
}

/* change_one() for feature BASE + i for each bit i of BITS, which is
 * FLIPPED + i seen from O (BASE the first of its kind, or of a small
 * board's marks, and FLIPPED flip_feature(BASE)). */
static inline __attribute__((always_inline)) void
change_bits(struct change *c, int base, int flipped, unsigned bits, int add)
{
	int *x = add ? c->add[SIDE_X] : c->del[SIDE_X], *o = add ? c->add[SIDE_O] : c->del[SIDE_O];
	int *count = add ? &c->nadd : &c->ndel, k = *count;

	while (bits != 0) {
		int i = __builtin_ctz(bits);

		bits &= bits - 1;
		x[k] = base + i;
		o[k++] = flipped + i;
	}
	*count = k;
}

/* The features that differ between FROM and TO; T0 and T1 each side's
 * uttt_board_threats() in FROM and in TO (kept by the caller where it
 * knows them already). */
static void diff_threats(const struct pos *from, const struct pos *to, const unsigned t0[2],
			 const unsigned t1[2], struct change *c)
{
	unsigned f0 = full_boards(from), f1 = full_boards(to);

	c->nadd = c->ndel = 0;
	for (int s = 0; s < 2; s++) {
		int marks = s == SIDE_X ? F_OWN : F_OTHER, flipped = s == SIDE_X ? F_OTHER : F_OWN;
		int won = s == SIDE_X ? F_OWN_WON : F_OTHER_WON;
		int fwon = s == SIDE_X ? F_OTHER_WON : F_OWN_WON;

		for (int b = 0; b < 9; b++) {
			unsigned a = from->u.uttt.sub[s][b], z = to->u.uttt.sub[s][b];

			change_bits(c, marks + b * 9, flipped + b * 9, z & ~a, 1);
			change_bits(c, marks + b * 9, flipped + b * 9, a & ~z, 0);
		}
		change_bits(c, won, fwon, (unsigned)(to->u.uttt.won[s] & ~from->u.uttt.won[s]), 1);
		change_bits(c, won, fwon, (unsigned)(from->u.uttt.won[s] & ~to->u.uttt.won[s]), 0);
	}
	change_bits(c, F_FULL, F_FULL, f1 & ~f0, 1);
	change_bits(c, F_FULL, F_FULL, f0 & ~f1, 0);
	for (int s = 0; s < 2; s++) {
		int base = s == SIDE_X ? F_OWN_THREAT : F_OTHER_THREAT;
		int flipped = s == SIDE_X ? F_OTHER_THREAT : F_OWN_THREAT;

		change_bits(c, base, flipped, t1[s] & ~t0[s], 1);
		change_bits(c, base, flipped, t0[s] & ~t1[s], 0);
	}
	if (from->u.uttt.next != to->u.uttt.next) {
		change_one(c, F_NEXT + 1 + to->u.uttt.next, 1);
		change_one(c, F_NEXT + 1 + from->u.uttt.next, 0);
	}
}

/* Each side's uttt_board_threats() in P, into T. */
static void threats_of(const struct pos *p, unsigned t[2])
{
	t[SIDE_X] = uttt_board_threats(p, SIDE_X);
	t[SIDE_O] = uttt_board_threats(p, SIDE_O);
}

/* The features that differ between FROM and TO. */
static void diff(const struct pos *from, const struct pos *to, struct change *c)
{
	unsigned t0[2], t1[2];

	threats_of(from, t0);
	threats_of(to, t1);
	diff_threats(from, to, t0, t1, c);
}

/* Take feature F (one seen alike from both sides, as the board sent to
 * is) out of C's list of those added (ADD) or removed; returns whether it
 * was there. */
static bool unlist_feature(struct change *c, int f, bool add)
{
	int (*list)[NNUE_FEATURES] = add ? c->add : c->del, *count = add ? &c->nadd : &c->ndel;

	for (int k = 0; k < *count; k++)
		if (list[SIDE_X][k] == f) {
			--*count;
			list[SIDE_X][k] = list[SIDE_X][*count];
			list[SIDE_O][k] = list[SIDE_O][*count];
			return true;
		}
	return false;
}

/* C made to reach a position without feature F (seen alike from both
 * sides) where it reached one with F: F's addition dropped, or its
 * removal added. */
static void drop_feature(struct change *c, int f)
{
	if (!unlist_feature(c, f, true))
		change_pair(c, f, f, false);
}

/* diff() from FROM's features less its board sent to (drop_feature()) to
 * TO's, TO being FROM with the move TO->last played, which changes only
 * its own small board's features (a board won or filled changes no
 * other's) and the board sent to: the mover's mark, the board sent to, a
 * win or a full board, and the threats that came or went. T0 as in
 * diff_threats(). */
static void kid_diff(const struct pos *from, const struct pos *to, const unsigned t0[2],
		     struct change *c)
{
	int me = from->turn, m = to->last, b = m / 9;
	unsigned bit = 1u << b;
	bool x = me == SIDE_X; /* (then the mark and a win are X's own) */

	c->nadd = c->ndel = 0;
	change_pair(c, (x ? F_OWN : F_OTHER) + m, (x ? F_OTHER : F_OWN) + m, true);
	change_pair(c, F_NEXT + 1 + to->u.uttt.next, F_NEXT + 1 + to->u.uttt.next, true);
	if (to->u.uttt.closed & bit) {
		if (to->u.uttt.won[me] & bit)
			change_pair(c, (x ? F_OWN_WON : F_OTHER_WON) + b,
				    (x ? F_OTHER_WON : F_OWN_WON) + b, true);
		else if (!(to->u.uttt.won[!me] & bit))
			change_pair(c, F_FULL + b, F_FULL + b, true);
	}
	for (int s = 0; s < 2; s++) {
		bool was = t0[s] & bit, is = uttt_board_threat(to, s, b);

		if (is != was)
			change_pair(c, (s == SIDE_X ? F_OWN_THREAT : F_OTHER_THREAT) + b,
				    (s == SIDE_X ? F_OTHER_THREAT : F_OWN_THREAT) + b, is);
	}
}

int nnue_features(const struct pos *p, int side, int *out)
{
	struct pos empty;
	struct change c;

	memset(&empty, 0, sizeof(empty));
	empty.u.uttt.next = p->u.uttt.next; /* the "next" feature is always there */
	diff(&empty, p, &c);
	out[0] = F_NEXT + 1 + p->u.uttt.next;
	for (int i = 0; i < c.nadd; i++)
		out[i + 1] = c.add[side][i];
	/* insertion sort: at most 100 features */
	for (int i = 1; i <= c.nadd; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return c.nadd + 1;
}

/* --- format version 3: a state of each cell ------------------------------ */

/* A cell's state seen from the other side (own and other swapped). */
static const uint8_t flip_state[NNUE_CELL_STATES] = { 1, 0, 2, 4, 3, 5, 7, 6, 8 };

/* The slots of P seen from X, into ST. A cell's state on an open board by
 * its bits: X's mark, O's, X would win the board there, O would. */
static void cell_states(const struct pos *p, uint8_t st[CELL_SLOTS])
{
	static const uint8_t by_bits[16] = { 5, 3, 4, 0, 6, 3, 4, 0, 7, 3, 4, 0, 8, 3, 4, 0 };
	unsigned won_x = p->u.uttt.won[0], won_o = p->u.uttt.won[1];

	for (int b = 0; b < 9; b++) {
		unsigned x = p->u.uttt.sub[0][b], o = p->u.uttt.sub[1][b];
		unsigned empty = ~(x | o) & 0x1ff, wx, wo;
		uint8_t *s = st + 9 * b;

		if ((won_x | won_o | (empty == 0 ? 1u << b : 0)) >> b & 1) {
			memset(s, won_x >> b & 1 ? 0 : won_o >> b & 1 ? 1 : 2, 9);
			continue;
		}
		wx = uttt_line_cells(x) & empty;
		wo = uttt_line_cells(o) & empty;
		for (int c = 0; c < 9; c++) {
			unsigned bits = (x >> c & 1) | (o >> c & 1) << 1 | (wx >> c & 1) << 2 |
					(wo >> c & 1) << 3;

			s[c] = by_bits[bits];
		}
	}
	st[81] = (uint8_t)(p->u.uttt.next + 1);
}

/* The feature of slot I in state V (seen from X) seen from SIDE. */
static inline int cell_feature(int i, int v, int side)
{
	if (i == 81)
		return NNUE_CELL_NEXT + v;
	return i * NNUE_CELL_STATES + (side == SIDE_X ? v : flip_state[v]);
}

/* The features seen from SIDE of the slots ST (seen from X). */
static void cell_features(const uint8_t st[CELL_SLOTS], int side, int *out)
{
	for (int i = 0; i < CELL_SLOTS; i++)
		out[i] = cell_feature(i, st[i], side);
}

/* --- evaluation ---------------------------------------------------------- */

/* Apply C to both perspectives of A. */
static void apply_change(const struct nnue *n, const struct change *c, struct nnue_acc *a)
{
	for (int s = 0; s < 2; s++)
		nnue_k.apply(a->v[s], n->w1, n->hidden, c->add[s], c->nadd, c->del[s], c->ndel);
}

/* nnue_output() for SIDE to move of A with C applied, A left as it is. */
static int32_t output_with(const struct nnue *n, const struct nnue_acc *a,
			   const struct change *c, int side)
{
	int32_t out = n->b2;

	for (int s = 0; s < 2; s++)
		out += nnue_k.apply_dot(a->v[s], n->w1, n->hidden, c->add[s], c->nadd, c->del[s],
					c->ndel, n->w2 + (s == side ? 0 : n->hidden));
	return out;
}

/* (format version 3) A from scratch for the cell states ST. */
static void refresh_cells(const struct nnue *n, const uint8_t st[CELL_SLOTS], struct nnue_acc *a)
{
	int f[CELL_SLOTS];

	for (int s = 0; s < 2; s++) {
		cell_features(st, s, f);
		memcpy(a->v[s], n->b1, (size_t)n->hidden * sizeof(int16_t));
		nnue_k.apply(a->v[s], n->w1, n->hidden, f, CELL_SLOTS, NULL, 0);
	}
}

void nnue_refresh(const struct nnue *n, const struct pos *p, struct nnue_acc *a)
{
	int f[NNUE_FEATURES];

	if (n->version == NNUE_VERSION_CELLS) {
		uint8_t st[CELL_SLOTS];

		cell_states(p, st);
		refresh_cells(n, st, a);
		return;
	}
	for (int s = 0; s < 2; s++) {
		int nf = nnue_features(p, s, f);

		memcpy(a->v[s], n->b1, (size_t)n->hidden * sizeof(int16_t));
		nnue_k.apply(a->v[s], n->w1, n->hidden, f, nf, NULL, 0);
	}
}

/* (format version 3) Slots that differ between S0 and S1 change more rows
 * (two each) than a refresh reads (CELL_SLOTS) past this many. */
#define CELLS_REFRESH 40

/* (format version 3) The slots that differ between S0 and S1, into CELL;
 * returns how many. */
static int changed_cells(const uint8_t s0[CELL_SLOTS], const uint8_t s1[CELL_SLOTS],
			 int cell[CELL_SLOTS])
{
	int nc = 0;

	for (int i = 0; i < CELL_SLOTS; i++)
		if (s0[i] != s1[i])
			cell[nc++] = i;
	return nc;
}

/* (format version 3) The features SIDE sees of the NC slots CELL that
 * differ between S0 and S1: those of S1 into ADD, those of S0 into DEL. */
static void cell_change(const uint8_t s0[CELL_SLOTS], const uint8_t s1[CELL_SLOTS],
			const int *cell, int nc, int side, int *add, int *del)
{
	for (int j = 0; j < nc; j++) {
		add[j] = cell_feature(cell[j], s1[cell[j]], side);
		del[j] = cell_feature(cell[j], s0[cell[j]], side);
	}
}

/* (format version 3) A holds the accumulators of the cell states S0: make
 * them those of S1, whose NC CELL differ (at most CELLS_REFRESH). */
static void apply_cells(const struct nnue *n, const uint8_t s0[CELL_SLOTS],
			const uint8_t s1[CELL_SLOTS], const int *cell, int nc, struct nnue_acc *a)
{
	for (int s = 0; s < 2 && nc > 0; s++) {
		int add[CELL_SLOTS], del[CELL_SLOTS];

		cell_change(s0, s1, cell, nc, s, add, del);
		nnue_k.apply(a->v[s], n->w1, n->hidden, add, nc, del, nc);
	}
}

/* (format version 3) A holds the accumulators of the slots S0: make them
 * those of S1, by the slots that changed or (when that is many of them)
 * from scratch. */
static void update_slots(const struct nnue *n, const uint8_t s0[CELL_SLOTS],
			 const uint8_t s1[CELL_SLOTS], struct nnue_acc *a)
{
	int cell[CELL_SLOTS], nc = changed_cells(s0, s1, cell);

	if (nc > CELLS_REFRESH)
		refresh_cells(n, s1, a);
	else
		apply_cells(n, s0, s1, cell, nc, a);
}

/* nnue_update() for format version 3. */
static void update_cells(const struct nnue *n, const struct pos *from, const struct pos *to,
			 struct nnue_acc *a)
{
	uint8_t s0[CELL_SLOTS], s1[CELL_SLOTS];

	cell_states(from, s0);
	cell_states(to, s1);
	update_slots(n, s0, s1, a);
}

void nnue_update(const struct nnue *n, const struct pos *from, const struct pos *to,
		 struct nnue_acc *a)
{
	struct change c;

	if (n->version == NNUE_VERSION_CELLS) {
		update_cells(n, from, to, a);
		return;
	}

	diff(from, to, &c);
	if (c.nadd + c.ndel > 0)
		apply_change(n, &c, a);
}

int32_t nnue_output(const struct nnue *n, const struct nnue_acc *a, int side)
{
	return n->b2 + nnue_k.dot(a->v[side], n->w2, n->hidden) +
	       nnue_k.dot(a->v[!side], n->w2 + n->hidden, n->hidden);
}

/* The expected score of a raw output (nnue_output()'s scale). In single
 * precision, a few parts in 10^7, well under the 1/65536 the search keeps
 * of it: libm's double exp() was a tenth of the network's time. */
static double logistic(int32_t out)
{
	float logit = (float)out * (1.0f / (NNUE_QA * NNUE_QB));

	return (double)(1.0f / (1.0f + expf(-logit)));
}

double nnue_value(const struct nnue *n, const struct nnue_acc *a, int side)
{
	return logistic(nnue_output(n, a, side));
}

const char *nnue_game(const struct nnue *n)
{
	return n->game;
}

int nnue_hidden(const struct nnue *n)
{
	return n->hidden;
}

int nnue_version(const struct nnue *n)
{
	return n->version;
}

int nnue_feature_count(const struct nnue *n)
{
	return n->features;
}

/* --- as MCTS's leaf evaluator ------------------------------------------- */

/* What the search keeps for its root: the accumulators, and so that they
 * are found once, (format version 2) each side's threats or (format
 * version 3) the cell states. */
struct leaf_ctx {
	struct nnue_acc acc;
	unsigned threats[2];
	uint8_t st[CELL_SLOTS];
};

static void leaf_root(const void *model, const struct pos *root, void *ctx)
{
	const struct nnue *n = model;
	struct leaf_ctx *c = ctx;

	nnue_refresh(n, root, &c->acc);
	if (n->version == NNUE_VERSION_CELLS)
		cell_states(root, c->st);
	else
		threats_of(root, c->threats);
}

/* (format version 2) A, the root's accumulators (R's), made POS's, whose
 * threats are T; without POS's "board sent to" feature when LESS_NEXT
 * (what leaf_kids() adds each child's to). */
static void from_root(const struct nnue *n, const struct leaf_ctx *r, const struct pos *root,
		      const struct pos *pos, const unsigned t[2], bool less_next,
		      struct nnue_acc *a)
{
	struct change c;

	for (int s = 0; s < 2; s++)
		memcpy(a->v[s], r->acc.v[s], (size_t)n->hidden * sizeof(int16_t));
	diff_threats(root, pos, r->threats, t, &c);
	if (less_next)
		drop_feature(&c, F_NEXT + 1 + pos->u.uttt.next);
	if (c.nadd + c.ndel > 0)
		apply_change(n, &c, a);
}

/* What leaf_kids() last started from, in each thread: a position's
 * accumulators less its board sent to, and its threats. The next
 * ordering is often near it (a sibling's, a child's), nearer than the
 * root, and then updates these in place rather than copying the root's
 * and adding every move since. Exact either way (the sums wrap to 16 bits
 * in any order), so the search's results do not depend on it. */
struct kids_base {
	uint64_t net; /* the network's id; 0: none yet */
	struct pos pos;
	unsigned threats[2];
	struct nnue_acc acc;
};

static _Thread_local struct kids_base kids_base;

/* The marks that differ between A and B. */
static int marks_apart(const struct pos *a, const struct pos *b)
{
	uint64_t x[5] = { 0 }, y[5] = { 0 };
	int d = 0;

	memcpy(x, a->u.uttt.sub, sizeof(a->u.uttt.sub));
	memcpy(y, b->u.uttt.sub, sizeof(b->u.uttt.sub));
	for (int i = 0; i < 5; i++)
		d += popcount64(x[i] ^ y[i]);
	return d;
}

/* kids_base made POS's, whose threats are T: from where it is when that is
 * nearer than the root R, else from R's. */
static const struct nnue_acc *kids_base_for(const struct nnue *n, const struct leaf_ctx *r,
					    const struct pos *root, const struct pos *pos,
					    const unsigned t[2])
{
	struct kids_base *k = &kids_base;
	struct change c;

	if (k->net != n->id || marks_apart(&k->pos, pos) >= pos->ply - root->ply) {
		from_root(n, r, root, pos, t, true, &k->acc);
	} else {
		diff_threats(&k->pos, pos, k->threats, t, &c);
		if (k->pos.u.uttt.next != pos->u.uttt.next) {
			drop_feature(&c, F_NEXT + 1 + pos->u.uttt.next);
			unlist_feature(&c, F_NEXT + 1 + k->pos.u.uttt.next, false);
		}
		if (c.nadd + c.ndel > 0)
			apply_change(n, &c, &k->acc);
	}
	k->net = n->id;
	k->pos = *pos;
	k->threats[SIDE_X] = t[SIDE_X];
	k->threats[SIDE_O] = t[SIDE_O];
	return &k->acc;
}

static double leaf_value(const void *model, const void *ctx, const struct pos *root,
			 const struct pos *leaf)
{
	const struct nnue *n = model;
	const struct leaf_ctx *r = ctx;
	struct nnue_acc a;
	double v;

	if (n->version == NNUE_VERSION_CELLS) {
		uint8_t st[CELL_SLOTS];

		for (int s = 0; s < 2; s++)
			memcpy(a.v[s], r->acc.v[s], (size_t)n->hidden * sizeof(int16_t));
		cell_states(leaf, st); /* (the root's are kept) */
		update_slots(n, r->st, st, &a);
	} else {
		unsigned t[2];

		threats_of(leaf, t);
		from_root(n, r, root, leaf, t, false, &a);
	}
	v = nnue_value(n, &a, leaf->turn);
	return leaf->turn == SIDE_X ? v : 1 - v;
}

/* (format version 2) The kids() of the leaf evaluator: POS's accumulators
 * from the root's, less the board sent to (which each child changes), then
 * each child's from those by the few features its move adds. */
static void leaf_kids(const void *model, const void *ctx, const struct pos *root,
		      const struct pos *pos, const struct pos *kids, int count, double *value)
{
	const struct nnue *n = model;
	const struct nnue_acc *a;
	unsigned t[2];

	threats_of(pos, t);
	a = kids_base_for(n, ctx, root, pos, t);
	for (int i = 0; i < count; i++) {
		struct change ch;
		double v;

		kid_diff(pos, &kids[i], t, &ch);
		v = logistic(output_with(n, a, &ch, kids[i].turn));
		value[i] = kids[i].turn == SIDE_X ? v : 1 - v;
	}
}

/* (format version 3) nnue_output() for SIDE to move of the cell states
 * S1, from A, the accumulators of S0, A left as it is: each perspective's
 * changed rows added and its dot product taken in one pass, or (when
 * many slots changed) from scratch. */
static int32_t output_cells_with(const struct nnue *n, const struct nnue_acc *a,
				 const uint8_t s0[CELL_SLOTS], const uint8_t s1[CELL_SLOTS],
				 int side)
{
	int cell[CELL_SLOTS], nc = changed_cells(s0, s1, cell);
	int32_t out = n->b2;

	if (nc > CELLS_REFRESH) {
		struct nnue_acc c;

		refresh_cells(n, s1, &c);
		return nnue_output(n, &c, side);
	}
	for (int s = 0; s < 2; s++) {
		int add[CELL_SLOTS], del[CELL_SLOTS];

		cell_change(s0, s1, cell, nc, s, add, del);
		out += nnue_k.apply_dot(a->v[s], n->w1, n->hidden, add, nc, del, nc,
				   n->w2 + (s == side ? 0 : n->hidden));
	}
	return out;
}

/* (format version 3) The kids() of the leaf evaluator: POS's accumulators
 * and cell states from the root's, then each child's value from POS's by
 * the slots its move changes. */
static void leaf_kids_cells(const void *model, const void *ctx, const struct pos *root,
			    const struct pos *pos, const struct pos *kids, int count,
			    double *value)
{
	const struct nnue *n = model;
	const struct leaf_ctx *r = ctx;
	size_t bytes = (size_t)n->hidden * sizeof(int16_t);
	uint8_t st[CELL_SLOTS], kst[CELL_SLOTS];
	struct nnue_acc a;

	(void)root;
	for (int s = 0; s < 2; s++)
		memcpy(a.v[s], r->acc.v[s], bytes);
	cell_states(pos, st);
	update_slots(n, r->st, st, &a);
	for (int i = 0; i < count; i++) {
		double v;

		cell_states(&kids[i], kst);
		v = logistic(output_cells_with(n, &a, st, kst, kids[i].turn));
		value[i] = kids[i].turn == SIDE_X ? v : 1 - v;
	}
}

const struct mcts_leaf_eval *nnue_leaf_eval(const struct nnue *n)
{
	return &n->leaf;
}

void nnue_leaf_init(struct nnue *n)
{
	static atomic_uint_fast64_t ids;

	n->id = atomic_fetch_add(&ids, 1) + 1;
	n->leaf = (struct mcts_leaf_eval){ .ctx_size = sizeof(struct leaf_ctx), .root = leaf_root,
					   .leaf = leaf_value, .model = n,
					   .kids = n->version == NNUE_VERSION ? leaf_kids
								   : leaf_kids_cells };
}
