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

/* Whether the processor has AVX (root_argmax()). */
static bool have_avx;

void mcts_root_init(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	have_avx = __builtin_cpu_supports("avx");
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
	if (!child_terms(&m->nodes[rc->idx[j]], m->root_pos.turn, floor, open_key(floor), &rc->q[j],
			 &rc->rsqrt[j]))
		rc->q[j] = -HUGE_VAL; /* passed over: never the best */
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
 * lanes (SSE2), or four where the processor has AVX, each lane keeping its
 * first best entry. Their products and sums are the scalar loop's, rounded
 * alike, so the choice is the same to the bit. */
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

__attribute__((target("avx"))) static int argmax_avx(const struct root_cache *rc, double explore)
{
	double top[4], at[4];
	__m256d e = _mm256_set1_pd(explore), t = _mm256_set1_pd(-1.0), a = t;
	__m256d idx = _mm256_set_pd(3.0, 2.0, 1.0, 0.0), step = _mm256_set1_pd(4.0);
	int j = 0;

	for (; j + 4 <= rc->n; j += 4) {
		__m256d s = _mm256_add_pd(_mm256_loadu_pd(&rc->q[j]),
					  _mm256_mul_pd(e, _mm256_loadu_pd(&rc->rsqrt[j])));
		__m256d gt = _mm256_cmp_pd(s, t, _CMP_GT_OQ);

		t = _mm256_max_pd(t, s);
		a = _mm256_or_pd(_mm256_and_pd(gt, idx), _mm256_andnot_pd(gt, a));
		idx = _mm256_add_pd(idx, step);
	}
	_mm256_storeu_pd(top, t);
	_mm256_storeu_pd(at, a);
	return argmax_join(rc, explore, j, top, at, 4);
}

static int root_argmax(const struct root_cache *rc, double explore)
{
	return have_avx ? argmax_avx(rc, explore) : argmax_sse2(rc, explore);
}
#else
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
