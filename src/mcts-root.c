/* mcts-root.c - MCTS's choice at the root: each worker's cache of the
 * terms of the root's children and the scan for the best of them, on SIMD
 * lanes where the processor has them, exact to the bit. */
#include "config.h"

#include <math.h>
#include <stdbool.h>

#include "mcts-node.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* Whether the processor has AVX, AVX-512 (root_argmax()). */
static bool have_avx, have_avx512;

void mcts_root_init(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	have_avx = __builtin_cpu_supports("avx");
	have_avx512 = __builtin_cpu_supports("avx512f");
#endif
}

/* The root is selected through in every iteration and can have many
 * children (81 in Ultimate tic-tac-toe), of which an iteration changes one:
 * so once it is fully expanded, the terms of its children are kept in the
 * worker's root cache and only the one selected is recomputed. With one
 * thread the choice is the one select_child() would make, to the bit.
 * The whole cache is rebuilt when the root's bounds change (what is passed
 * over may): a shared epoch says so. With more threads, the other workers'
 * iterations change other children too: each worker also refreshes
 * ROOT_REFRESH entries in turn an iteration (so every entry at least once
 * in 11 iterations in Ultimate tic-tac-toe). */
#define ROOT_REFRESH 8

void root_cache_entry(struct mcts *m, struct root_cache *rc, int j, int floor)
{
	if (!child_terms(&m->nodes[rc->idx[j]], m->root_pos.turn, floor, open_key(floor), true,
			 &rc->q[j], &rc->rsqrt[j]))
		rc->q[j] = -HUGE_VAL; /* passed over: never the best */
	else if (m->implicit != NULL)
		rc->q[j] = implicit_q(rc->q[j], LOAD(m->implicit[rc->idx[j]]),
				      LOAD(m->nodes[rc->idx[j]].flags), m->root_pos.turn);
}

void root_cache_touch(struct mcts *m, struct root_cache *rc, int j)
{
	int floor, top;

	bounds_for(&m->nodes[m->root], m->root_pos.turn, &floor, &top);
	root_cache_entry(m, rc, j, floor);
}

static void root_cache_build(struct mcts *m, struct root_cache *rc, int floor)
{
	const struct node *r = &m->nodes[m->root];
	uint32_t base;

	rc->n = 0;
	rc->next = 0;
	rc->epoch = LOAD(m->root_epoch);
	for (int k = kids_of(r, &base) - 1; k >= 0; k--)
		rc->idx[rc->n++] = base + (uint32_t)k;
	for (int j = 0; j < rc->n; j++)
		root_cache_entry(m, rc, j, floor);
	rc->valid = true;
}

/* The first entry of RC with the highest score q + EXPLORE * rsqrt above
 * -1 (passed-over entries have q = -inf), or -1. The root's scan runs in
 * every iteration over as many as 81 entries, so on x86-64 it runs on two
 * lanes (SSE2), eight where the processor has AVX, sixteen with AVX-512,
 * each lane keeping its first best entry. Their products and sums are the
 * scalar loop's, rounded alike, so the choice is the same to the bit. */
static int argmax_from(const struct root_cache *rc, double explore, int j, double best_score,
		       int best)
{
	for (; j < rc->n; j++) {
		double score = rc->q[j] + explore * rc->rsqrt[j];

		if (score > best_score) {
			best_score = score;
			best = j;
		}
	}
	return best;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The lanes' bests TOP[] at entries AT[] (as doubles) joined: the first
 * entry with the highest score, then the entries from J on. */
static int argmax_join(const struct root_cache *rc, double explore, int j, const double *top,
		       const double *at, int lanes)
{
	double best_score = -1.0;
	int best = -1;

	for (int l = 0; l < lanes; l++) {
		if (top[l] > best_score || (top[l] == best_score && best >= 0 && (int)at[l] < best)) {
			best_score = top[l];
			best = (int)at[l];
		}
	}
	return argmax_from(rc, explore, j, best_score, best);
}

static int argmax_sse2(const struct root_cache *rc, double explore)
{
	double top[2], at[2];
	__m128d e = _mm_set1_pd(explore), t = _mm_set1_pd(-1.0), a = t;
	__m128d idx = _mm_set_pd(1.0, 0.0), step = _mm_set1_pd(2.0);
	int j = 0;

	for (; j + 2 <= rc->n; j += 2) {
		__m128d s = _mm_add_pd(_mm_loadu_pd(&rc->q[j]),
				       _mm_mul_pd(e, _mm_loadu_pd(&rc->rsqrt[j])));
		__m128d gt = _mm_cmpgt_pd(s, t);

		t = _mm_max_pd(t, s);
		a = _mm_or_pd(_mm_and_pd(gt, idx), _mm_andnot_pd(gt, a));
		idx = _mm_add_pd(idx, step);
	}
	_mm_storeu_pd(top, t);
	_mm_storeu_pd(at, a);
	return argmax_join(rc, explore, j, top, at, 2);
}

/* One step of four lanes: entries AT (their numbers) from J on, against
 * bests T at A. (A mask and or, not a blend: GCC made the blend branches.) */
#define AVX_STEP(t, a, at, j)                                                               \
	do {                                                                               \
		__m256d s_ = _mm256_add_pd(_mm256_loadu_pd(&rc->q[j]),                     \
					   _mm256_mul_pd(e, _mm256_loadu_pd(&rc->rsqrt[j]))); \
		__m256d gt_ = _mm256_cmp_pd(s_, t, _CMP_GT_OQ);                            \
                                                                                           \
		t = _mm256_max_pd(t, s_);                                                  \
		a = _mm256_or_pd(_mm256_and_pd(gt_, at), _mm256_andnot_pd(gt_, a));        \
		at = _mm256_add_pd(at, step);                                              \
	} while (0)

/* Eight lanes as two sets of four, whose bests do not wait for each
 * other's (the scan's time was the chain of maxima). */
__attribute__((target("avx"))) static int argmax_avx(const struct root_cache *rc, double explore)
{
	double top[8], at[8];
	__m256d e = _mm256_set1_pd(explore), t0 = _mm256_set1_pd(-1.0), t1 = t0, a0 = t0, a1 = t0;
	__m256d at0 = _mm256_set_pd(3.0, 2.0, 1.0, 0.0), at1 = _mm256_set_pd(7.0, 6.0, 5.0, 4.0);
	__m256d step = _mm256_set1_pd(8.0);
	int j = 0;

	for (; j + 8 <= rc->n; j += 8) {
		AVX_STEP(t0, a0, at0, j);
		AVX_STEP(t1, a1, at1, j + 4);
	}
	if (j + 4 <= rc->n) {
		AVX_STEP(t0, a0, at0, j);
		j += 4;
	}
	_mm256_storeu_pd(top, t0);
	_mm256_storeu_pd(top + 4, t1);
	_mm256_storeu_pd(at, a0);
	_mm256_storeu_pd(at + 4, a1);
	return argmax_join(rc, explore, j, top, at, 8);
}

/* One step of eight lanes: entries AT (their numbers) from J on, against
 * bests T at A. */
#define AVX512_STEP(t, a, at, j)                                                            \
	do {                                                                               \
		__m512d s_ = _mm512_add_pd(_mm512_loadu_pd(&rc->q[j]),                     \
					   _mm512_mul_pd(e, _mm512_loadu_pd(&rc->rsqrt[j]))); \
		__mmask8 gt_ = _mm512_cmp_pd_mask(s_, t, _CMP_GT_OQ);                      \
                                                                                           \
		t = _mm512_mask_mov_pd(t, gt_, s_);                                        \
		a = _mm512_mask_mov_pd(a, gt_, at);                                        \
		at = _mm512_add_pd(at, step);                                              \
	} while (0)

/* Sixteen lanes as two sets of eight. (Products and sums rounded as the
 * scalar loop's: the intrinsics' multiply and add are not fused.) */
__attribute__((target("avx512f"))) static int argmax_avx512(const struct root_cache *rc,
							       double explore)
{
	double top[16], at[16];
	__m512d e = _mm512_set1_pd(explore), t0 = _mm512_set1_pd(-1.0), t1 = t0, a0 = t0, a1 = t0;
	__m512d at0 = _mm512_set_pd(7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0);
	__m512d at1 = _mm512_add_pd(at0, _mm512_set1_pd(8.0)), step = _mm512_set1_pd(16.0);
	int j = 0;

	for (; j + 16 <= rc->n; j += 16) {
		AVX512_STEP(t0, a0, at0, j);
		AVX512_STEP(t1, a1, at1, j + 8);
	}
	if (j + 8 <= rc->n) {
		AVX512_STEP(t0, a0, at0, j);
		j += 8;
	}
	_mm512_storeu_pd(top, t0);
	_mm512_storeu_pd(top + 8, t1);
	_mm512_storeu_pd(at, a0);
	_mm512_storeu_pd(at + 8, a1);
	return argmax_join(rc, explore, j, top, at, 16);
}

int root_argmax_on(const struct root_cache *rc, double explore, enum root_lanes lanes)
{
	switch (lanes) {
	case ROOT_LANES_SSE2:
		return argmax_sse2(rc, explore);
	case ROOT_LANES_AVX:
		return have_avx ? argmax_avx(rc, explore) : -2;
	case ROOT_LANES_AVX512:
		return have_avx512 ? argmax_avx512(rc, explore) : -2;
	default:
		return argmax_from(rc, explore, 0, -1.0, -1);
	}
}

static int root_argmax(const struct root_cache *rc, double explore)
{
	if (have_avx512)
		return argmax_avx512(rc, explore);
	return have_avx ? argmax_avx(rc, explore) : argmax_sse2(rc, explore);
}
#else
int root_argmax_on(const struct root_cache *rc, double explore, enum root_lanes lanes)
{
	return lanes == ROOT_LANES_SCALAR ? argmax_from(rc, explore, 0, -1.0, -1) : -2;
}

static int root_argmax(const struct root_cache *rc, double explore)
{
	return argmax_from(rc, explore, 0, -1.0, -1);
}
#endif

uint32_t root_select(struct mcts *m, struct worker *w)
{
	struct root_cache *rc = &w->rc;
	const struct node *r = &m->nodes[m->root];
	double explore = m->p.c * sqlog_of(LOAD(r->visits));
	int floor, top, best;

	bounds_for(r, m->root_pos.turn, &floor, &top);
	if (rc->valid && rc->epoch != LOAD(m->root_epoch))
		rc->valid = false;
	if (!rc->valid) {
		root_cache_build(m, rc, floor);
	} else if (m->shared) {
		for (int i = 0; i < ROOT_REFRESH && i < rc->n; i++) {
			root_cache_entry(m, rc, rc->next, floor);
			rc->next = rc->next + 1 < rc->n ? rc->next + 1 : 0;
		}
	}
	best = root_argmax(rc, explore);
	if (best < 0)
		return rc->idx[0]; /* (all passed over: cannot happen) */
	rc->last = best;
	return rc->idx[best];
}
