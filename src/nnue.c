/* nnue.c - the value network: features, incremental accumulators, integer
 * evaluation with scalar, SSE2, AVX2 and AVX-512 paths (see nnue.h).
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
 * one table of weights serves both. train/uttt.py computes the same list. */
#include "config.h"

#include "nnue.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define NNUE_X86 1
#include <immintrin.h>
#endif

#define F_OWN 0
#define F_OTHER 81
#define F_OWN_WON 162
#define F_OTHER_WON 171
#define F_FULL 180
#define F_NEXT 189
#define F_OWN_THREAT 199
#define F_OTHER_THREAT 208

#define HEADER_BYTES (8 + 4 + 16 + 4 * 4)

struct nnue {
	char game[16];
	int hidden;
	int16_t *b1; /* [hidden] */
	int16_t *w1; /* [NNUE_FEATURES][hidden] */
	int16_t *w2; /* [2 * hidden]: the mover's units, then the other side's */
	int32_t b2;
	struct mcts_leaf_eval leaf; /* nnue_leaf_eval() */
};

/* --- features ------------------------------------------------------------ */

/* The changes from one position to another, seen from X: features added and
 * removed. At most every feature changes. */
struct change {
	int add[NNUE_FEATURES], del[NNUE_FEATURES];
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

static unsigned full_boards(const struct pos *p)
{
	unsigned full = 0;

	for (int b = 0; b < 9; b++)
		if ((p->u.uttt.sub[0][b] | p->u.uttt.sub[1][b]) == 0x1ff)
			full |= 1u << b;
	return full & ~(unsigned)(p->u.uttt.won[0] | p->u.uttt.won[1]);
}

/* Add to C (as added when ADD, else removed) feature BASE + i for each bit
 * i of BITS. */
static void change_bits(struct change *c, int base, unsigned bits, int add)
{
	while (bits != 0) {
		int i = __builtin_ctz(bits);

		bits &= bits - 1;
		if (add)
			c->add[c->nadd++] = base + i;
		else
			c->del[c->ndel++] = base + i;
	}
}

/* The features that differ between FROM and TO, seen from X. */
static void diff(const struct pos *from, const struct pos *to, struct change *c)
{
	unsigned f0 = full_boards(from), f1 = full_boards(to);

	c->nadd = c->ndel = 0;
	for (int s = 0; s < 2; s++) {
		int marks = s == SIDE_X ? F_OWN : F_OTHER;

		for (int b = 0; b < 9; b++) {
			unsigned a = from->u.uttt.sub[s][b], z = to->u.uttt.sub[s][b];

			change_bits(c, marks + b * 9, z & ~a, 1);
			change_bits(c, marks + b * 9, a & ~z, 0);
		}
		change_bits(c, s == SIDE_X ? F_OWN_WON : F_OTHER_WON,
			    (unsigned)(to->u.uttt.won[s] & ~from->u.uttt.won[s]), 1);
		change_bits(c, s == SIDE_X ? F_OWN_WON : F_OTHER_WON,
			    (unsigned)(from->u.uttt.won[s] & ~to->u.uttt.won[s]), 0);
	}
	change_bits(c, F_FULL, f1 & ~f0, 1);
	change_bits(c, F_FULL, f0 & ~f1, 0);
	for (int s = 0; s < 2; s++) {
		unsigned t0 = uttt_board_threats(from, s), t1 = uttt_board_threats(to, s);
		int base = s == SIDE_X ? F_OWN_THREAT : F_OTHER_THREAT;

		change_bits(c, base, t1 & ~t0, 1);
		change_bits(c, base, t0 & ~t1, 0);
	}
	if (from->u.uttt.next != to->u.uttt.next) {
		c->add[c->nadd++] = F_NEXT + 1 + to->u.uttt.next;
		c->del[c->ndel++] = F_NEXT + 1 + from->u.uttt.next;
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
		out[i + 1] = side == SIDE_X ? c.add[i] : flip_feature(c.add[i]);
	/* insertion sort: at most 100 features */
	for (int i = 1; i <= c.nadd; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return c.nadd + 1;
}

/* --- kernels ------------------------------------------------------------- */

/* ACC[0..H) += the rows ADD of W minus the rows DEL (each row H long). */
typedef void apply_fn(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
		      const int *del, int ndel);
/* The sum over i < H of clamp(A[i], 0, QA) * W[i]. */
typedef int32_t dot_fn(const int16_t *a, const int16_t *w, int h);

static void apply_scalar(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
			 const int *del, int ndel)
{
	for (int i = 0; i < h; i++) {
		uint16_t x = (uint16_t)acc[i];

		for (int k = 0; k < nadd; k++)
			x = (uint16_t)(x + (uint16_t)w[(size_t)add[k] * (size_t)h + (size_t)i]);
		for (int k = 0; k < ndel; k++)
			x = (uint16_t)(x - (uint16_t)w[(size_t)del[k] * (size_t)h + (size_t)i]);
		acc[i] = (int16_t)x; /* wraps as the vector adds do */
	}
}

static int32_t dot_scalar(const int16_t *a, const int16_t *w, int h)
{
	int32_t sum = 0;

	for (int i = 0; i < h; i++) {
		int32_t c = a[i] < 0 ? 0 : a[i] > NNUE_QA ? NNUE_QA : a[i];

		sum += c * w[i];
	}
	return sum;
}

#ifdef NNUE_X86
__attribute__((target("sse2"))) static void apply_sse2(int16_t *acc, const int16_t *w, int h,
						      const int *add, int nadd, const int *del,
						      int ndel)
{
	for (int i = 0; i < h; i += 8) {
		__m128i x = _mm_loadu_si128((const __m128i *)(acc + i));

		for (int k = 0; k < nadd; k++)
			x = _mm_add_epi16(x, _mm_loadu_si128((const __m128i *)(w + (size_t)add[k] * (size_t)h + (size_t)i)));
		for (int k = 0; k < ndel; k++)
			x = _mm_sub_epi16(x, _mm_loadu_si128((const __m128i *)(w + (size_t)del[k] * (size_t)h + (size_t)i)));
		_mm_storeu_si128((__m128i *)(acc + i), x);
	}
}

__attribute__((target("sse2"))) static int32_t dot_sse2(const int16_t *a, const int16_t *w, int h)
{
	__m128i sum = _mm_setzero_si128(), zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);
	int32_t out[4];

	for (int i = 0; i < h; i += 8) {
		__m128i c = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(a + i)), zero), qa);

		sum = _mm_add_epi32(sum, _mm_madd_epi16(c, _mm_loadu_si128((const __m128i *)(w + i))));
	}
	_mm_storeu_si128((__m128i *)out, sum);
	return out[0] + out[1] + out[2] + out[3];
}

__attribute__((target("avx2"))) static void apply_avx2(int16_t *acc, const int16_t *w, int h,
						      const int *add, int nadd, const int *del,
						      int ndel)
{
	for (int i = 0; i < h; i += 16) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(acc + i));

		for (int k = 0; k < nadd; k++)
			x = _mm256_add_epi16(x, _mm256_loadu_si256((const __m256i *)(w + (size_t)add[k] * (size_t)h + (size_t)i)));
		for (int k = 0; k < ndel; k++)
			x = _mm256_sub_epi16(x, _mm256_loadu_si256((const __m256i *)(w + (size_t)del[k] * (size_t)h + (size_t)i)));
		_mm256_storeu_si256((__m256i *)(acc + i), x);
	}
}

__attribute__((target("avx2"))) static int32_t dot_avx2(const int16_t *a, const int16_t *w, int h)
{
	__m256i sum = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
	__m256i qa = _mm256_set1_epi16(NNUE_QA);
	int32_t out[8], total = 0;

	for (int i = 0; i < h; i += 16) {
		__m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(a + i)), zero), qa);

		sum = _mm256_add_epi32(sum, _mm256_madd_epi16(c, _mm256_loadu_si256((const __m256i *)(w + i))));
	}
	_mm256_storeu_si256((__m256i *)out, sum);
	for (int k = 0; k < 8; k++)
		total += out[k];
	return total;
}

/* 32 lanes; the last units of a layer not a multiple of 32 wide under a
 * mask (masked lanes are neither read nor written). */
#define AVX512 __attribute__((target("avx512f,avx512bw")))
#define ROW(w, f, h, i) ((w) + (size_t)(f) * (size_t)(h) + (size_t)(i))

AVX512 static inline __mmask32 lanes_from(int i, int h)
{
	return h - i >= 32 ? (__mmask32)~0u : (__mmask32)((1u << (h - i)) - 1);
}

AVX512 static void apply_avx512(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
				const int *del, int ndel)
{
	for (int i = 0; i < h; i += 32) {
		__mmask32 m = lanes_from(i, h);
		__m512i x = _mm512_maskz_loadu_epi16(m, acc + i);

		for (int k = 0; k < nadd; k++)
			x = _mm512_add_epi16(x, _mm512_maskz_loadu_epi16(m, ROW(w, add[k], h, i)));
		for (int k = 0; k < ndel; k++)
			x = _mm512_sub_epi16(x, _mm512_maskz_loadu_epi16(m, ROW(w, del[k], h, i)));
		_mm512_mask_storeu_epi16(acc + i, m, x);
	}
}

AVX512 static int32_t dot_avx512(const int16_t *a, const int16_t *w, int h)
{
	__m512i sum = _mm512_setzero_si512(), zero = _mm512_setzero_si512();
	__m512i qa = _mm512_set1_epi16(NNUE_QA);

	for (int i = 0; i < h; i += 32) {
		__mmask32 m = lanes_from(i, h);
		__m512i c = _mm512_min_epi16(_mm512_max_epi16(_mm512_maskz_loadu_epi16(m, a + i), zero), qa);

		sum = _mm512_add_epi32(sum, _mm512_madd_epi16(c, _mm512_maskz_loadu_epi16(m, w + i)));
	}
	return _mm512_reduce_add_epi32(sum);
}
#endif

static struct kernels {
	apply_fn *apply;
	dot_fn *dot;
	int level;
	bool chosen;
} k = { apply_scalar, dot_scalar, NNUE_SCALAR, false };

static bool have_level(int level)
{
#ifdef NNUE_X86
	__builtin_cpu_init();
	if (level == NNUE_AVX512)
		return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
	if (level == NNUE_AVX2)
		return __builtin_cpu_supports("avx2");
	if (level == NNUE_SSE2)
		return __builtin_cpu_supports("sse2");
#endif
	return level == NNUE_SCALAR;
}

int nnue_set_simd(int level)
{
	static const struct {
		apply_fn *apply;
		dot_fn *dot;
	} path[] = {
		[NNUE_SCALAR] = { apply_scalar, dot_scalar },
#ifdef NNUE_X86
		[NNUE_SSE2] = { apply_sse2, dot_sse2 },
		[NNUE_AVX2] = { apply_avx2, dot_avx2 },
		[NNUE_AVX512] = { apply_avx512, dot_avx512 },
#endif
	};

	if (level < NNUE_SCALAR || level > NNUE_AVX512 || !have_level(level))
		for (level = NNUE_AVX512; !have_level(level); level--)
			;
	k.level = level;
	k.chosen = true;
	k.apply = path[level].apply;
	k.dot = path[level].dot;
	return level;
}

const char *nnue_simd_name(int level)
{
	static const char *name[] = { "scalar", "sse2", "avx2", "avx512" };

	return level >= NNUE_SCALAR && level <= NNUE_AVX512 ? name[level] : "scalar";
}

/* --- evaluation ---------------------------------------------------------- */

/* Apply C (seen from X) to both perspectives of A. */
static void apply_change(const struct nnue *n, const struct change *c, struct nnue_acc *a)
{
	int add[NNUE_FEATURES], del[NNUE_FEATURES];

	k.apply(a->v[SIDE_X], n->w1, n->hidden, c->add, c->nadd, c->del, c->ndel);
	for (int i = 0; i < c->nadd; i++)
		add[i] = flip_feature(c->add[i]);
	for (int i = 0; i < c->ndel; i++)
		del[i] = flip_feature(c->del[i]);
	k.apply(a->v[SIDE_O], n->w1, n->hidden, add, c->nadd, del, c->ndel);
}

void nnue_refresh(const struct nnue *n, const struct pos *p, struct nnue_acc *a)
{
	int f[NNUE_FEATURES];

	for (int s = 0; s < 2; s++) {
		int nf = nnue_features(p, s, f);

		memcpy(a->v[s], n->b1, (size_t)n->hidden * sizeof(int16_t));
		k.apply(a->v[s], n->w1, n->hidden, f, nf, NULL, 0);
	}
}

void nnue_update(const struct nnue *n, const struct pos *from, const struct pos *to,
		 struct nnue_acc *a)
{
	struct change c;

	diff(from, to, &c);
	if (c.nadd + c.ndel > 0)
		apply_change(n, &c, a);
}

int32_t nnue_output(const struct nnue *n, const struct nnue_acc *a, int side)
{
	return n->b2 + k.dot(a->v[side], n->w2, n->hidden) +
	       k.dot(a->v[!side], n->w2 + n->hidden, n->hidden);
}

double nnue_value(const struct nnue *n, const struct nnue_acc *a, int side)
{
	double logit = nnue_output(n, a, side) / (double)(NNUE_QA * NNUE_QB);

	return 1.0 / (1.0 + exp(-logit));
}

const char *nnue_game(const struct nnue *n)
{
	return n->game;
}

int nnue_hidden(const struct nnue *n)
{
	return n->hidden;
}

/* --- as MCTS's leaf evaluator ------------------------------------------- */

static void leaf_root(const void *model, const struct pos *root, void *ctx)
{
	nnue_refresh(model, root, ctx);
}

static double leaf_value(const void *model, const void *ctx, const struct pos *root,
			 const struct pos *leaf)
{
	const struct nnue *n = model;
	const struct nnue_acc *r = ctx;
	struct nnue_acc a;
	double v;

	for (int s = 0; s < 2; s++)
		memcpy(a.v[s], r->v[s], (size_t)n->hidden * sizeof(int16_t));
	nnue_update(n, root, leaf, &a);
	v = nnue_value(n, &a, leaf->turn);
	return leaf->turn == SIDE_X ? v : 1 - v;
}

const struct mcts_leaf_eval *nnue_leaf_eval(const struct nnue *n)
{
	return &n->leaf;
}

/* --- files --------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t get16(const uint8_t *p)
{
	return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Read COUNT little-endian int16 at *AT into OUT, moving *AT on. */
static int16_t *read16(const uint8_t **at, size_t count, int16_t *out)
{
	for (size_t i = 0; i < count; i++, *at += 2)
		out[i] = get16(*at);
	return out;
}

/* The name of the game a weights file at DATA is for, into NAME (16
 * bytes): false if it is empty or not a NUL-terminated printable name. */
static bool file_game(const uint8_t *data, char name[16])
{
	memcpy(name, data + 12, 16);
	if (memchr(name, '\0', 16) == NULL || name[0] == '\0')
		return false;
	for (const char *c = name; *c != '\0'; c++)
		if (*c < 0x21 || *c > 0x7e)
			return false;
	return true;
}

static int cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y) - (x > y);
}

/* Whether the weights at W (after the header) of a network of HIDDEN units
 * keep every sum in range whatever the position: an accumulator's bias and
 * its NNUE_MAX_ACTIVE largest weights within 16 bits, the output's bias
 * and every unit at its clip within 32 bits; otherwise the SIMD paths
 * would wrap where the scalar one overflows, and the numbers would differ.
 * The worst sum in *WORST and its limit in *LIMIT. */
static bool weights_fit(const uint8_t *w, size_t hidden, int64_t *worst, int64_t *limit)
{
	const uint8_t *w2 = w + 2 * (hidden + NNUE_FEATURES * hidden);
	int64_t out = llabs((long long)(int32_t)get32(w2 + 4 * hidden));
	int mag[NNUE_FEATURES];

	for (size_t j = 0; j < hidden; j++) {
		int64_t acc = abs(get16(w + 2 * j)), all = acc;

		for (size_t f = 0; f < NNUE_FEATURES; f++)
			all += mag[f] = abs(get16(w + 2 * (hidden + f * hidden + j)));
		if (all <= INT16_MAX)
			continue; /* (even every feature at once fits: no need to sort) */
		qsort(mag, NNUE_FEATURES, sizeof(mag[0]), cmp_desc);
		for (int f = 0; f < NNUE_MAX_ACTIVE; f++)
			acc += mag[f];
		if (acc > INT16_MAX) {
			*worst = acc;
			*limit = INT16_MAX;
			return false;
		}
	}
	for (size_t j = 0; j < 2 * hidden; j++)
		out += (int64_t)NNUE_QA * abs(get16(w2 + 2 * j));
	*worst = out;
	*limit = INT32_MAX;
	return out <= INT32_MAX;
}

/* Check and read a weights file into N, whose arrays are STORE (room for
 * the largest network) or, when STORE is NULL, allocated. */
static bool parse_into(struct nnue *n, int16_t *store, const uint8_t *data, size_t size,
		       const char *what, char *err, size_t errsize)
{
	const uint8_t *at = data + 8;
	uint32_t version, features, hidden, qa, qb;
	int64_t worst, limit;
	char game[16];
	size_t want;

	if (!k.chosen)
		nnue_set_simd(-1); /* the best the processor has */
	if (size < HEADER_BYTES || memcmp(data, "noughtsN", 8) != 0) {
		fmt_buf(err, errsize, "%s: not a noughts network file (no 'noughtsN' header)", what);
		return false;
	}
	version = get32(at);
	features = get32(at + 20);
	hidden = get32(at + 24);
	qa = get32(at + 28);
	qb = get32(at + 32);
	if (version != NNUE_VERSION) {
		fmt_buf(err, errsize, "%s: network format version %u, this program reads %d", what,
			version, NNUE_VERSION);
		return false;
	}
	if (features != NNUE_FEATURES || hidden == 0 || hidden > NNUE_MAX_HIDDEN || hidden % 16 != 0 ||
	    qa != NNUE_QA || qb != NNUE_QB) {
		fmt_buf(err, errsize, "%s: a network of %u features, %u hidden units, scales %u and %u; "
			"this program takes %d features, up to %d units in steps of 16, scales %d and %d",
			what, features, hidden, qa, qb, NNUE_FEATURES, NNUE_MAX_HIDDEN, NNUE_QA, NNUE_QB);
		return false;
	}
	want = HEADER_BYTES + 2 * (hidden + (size_t)features * hidden + 2 * hidden) + 4 + 4;
	if (size != want) {
		fmt_buf(err, errsize, "%s: %zu bytes, but a network of this shape takes %zu (%s)", what,
			size, want, size < want ? "truncated" : "trailing bytes");
		return false;
	}
	if (fnv1a(data, size - 4) != get32(data + size - 4)) {
		fmt_buf(err, errsize, "%s: corrupt network file (checksum mismatch)", what);
		return false;
	}
	if (!file_game(data, game)) {
		fmt_buf(err, errsize, "%s: no game's name in the header (it must say uttt)", what);
		return false;
	}
	if (strcmp(game, "uttt") != 0) {
		fmt_buf(err, errsize, "%s: a network for %s; this program's networks are for uttt "
			"(their inputs are Ultimate tic-tac-toe's)", what, game);
		return false;
	}
	if (!weights_fit(data + HEADER_BYTES, hidden, &worst, &limit)) {
		fmt_buf(err, errsize, "%s: weights too large: a sum could reach %lld, past %lld "
			"(%s)", what, (long long)worst, (long long)limit,
			limit == INT16_MAX ? "a hidden unit's 16 bits" : "the output's 32 bits");
		return false;
	}
	if (store == NULL)
		store = xmalloc((hidden + (size_t)features * hidden + 2 * hidden) * sizeof(int16_t));
	memset(n, 0, sizeof(*n));
	memcpy(n->game, game, sizeof(n->game));
	n->hidden = (int)hidden;
	at = data + HEADER_BYTES;
	n->b1 = read16(&at, hidden, store);
	n->w1 = read16(&at, (size_t)features * hidden, store + hidden);
	n->w2 = read16(&at, 2 * (size_t)hidden, store + hidden + (size_t)features * hidden);
	n->b2 = (int32_t)get32(at);
	n->leaf = (struct mcts_leaf_eval){ .ctx_size = sizeof(struct nnue_acc), .root = leaf_root,
					   .leaf = leaf_value, .model = n };
	return true;
}

struct nnue *nnue_parse(const uint8_t *data, size_t size, const char *what, char *err,
			size_t errsize)
{
	struct nnue *n = xmalloc(sizeof(*n));

	if (!parse_into(n, NULL, data, size, what, err, errsize)) {
		free(n);
		return NULL;
	}
	return n;
}

struct nnue *nnue_load(const char *path, char *err, size_t errsize)
{
	FILE *f = fopen_nowait(path);
	uint8_t *buf;
	size_t cap = 1 << 20, len;
	struct nnue *n;

	if (f == NULL) {
		fmt_buf(err, errsize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = xmalloc(cap + 1);
	len = fread(buf, 1, cap + 1, f);
	if (ferror(f)) {
		fmt_buf(err, errsize, "%s: %s", path, strerror(errno));
		n = NULL;
	} else if (len > cap) {
		fmt_buf(err, errsize, "%s: too large for a network file (over %zu bytes)", path, cap);
		n = NULL;
	} else {
		n = nnue_parse(buf, len, path, err, errsize);
	}
	fclose(f);
	free(buf);
	return n;
}

void nnue_free(struct nnue *n)
{
	if (n == NULL)
		return;
	free(n->b1); /* the one block of every array */
	free(n);
}

const struct nnue *nnue_builtin(const struct game *g)
{
	/* Static, so that nothing is left to free at exit. */
	static int16_t store[NNUE_MAX_HIDDEN * (NNUE_FEATURES + 3)];
	static struct nnue uttt;
	static bool ready;
	char err[256];

	if (strcmp(g->name, "uttt") != 0)
		return NULL;
	if (!ready) {
		if (!parse_into(&uttt, store, nnue_uttt_data, nnue_uttt_size, "the built-in network",
				err, sizeof(err)))
			fatal("%s", err);
		ready = true;
	}
	return &uttt;
}
