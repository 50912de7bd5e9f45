/* nnue-kernels.c - the network's integer arithmetic: a layer's rows added
 * to an accumulator, the clipped dot product of the output, and both at
 * once, in scalar C and with SSE2, AVX2 and AVX-512, the path chosen at run
 * time (nnue_set_simd()); every path gives the same numbers. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define NNUE_X86 1
#include <immintrin.h>
#endif

#include "nnue-int.h"

/* Unit I of ACC plus the rows ADD of W minus the rows DEL, wrapped to 16
 * bits as the vector adds do. */
static inline int16_t rows_scalar(const int16_t *acc, const int16_t *w, int h, int i,
				  const int *add, int nadd, const int *del, int ndel)
{
	uint16_t x = (uint16_t)acc[i];

	for (int k = 0; k < nadd; k++)
		x = (uint16_t)(x + (uint16_t)w[(size_t)add[k] * (size_t)h + (size_t)i]);
	for (int k = 0; k < ndel; k++)
		x = (uint16_t)(x - (uint16_t)w[(size_t)del[k] * (size_t)h + (size_t)i]);
	return (int16_t)x;
}

static void apply_scalar(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
			 const int *del, int ndel)
{
	for (int i = 0; i < h; i++)
		acc[i] = rows_scalar(acc, w, h, i, add, nadd, del, ndel);
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

static int32_t apply_dot_scalar(const int16_t *acc, const int16_t *w, int h, const int *add,
				int nadd, const int *del, int ndel, const int16_t *w2)
{
	int32_t sum = 0;

	for (int i = 0; i < h; i++) {
		int16_t v = rows_scalar(acc, w, h, i, add, nadd, del, ndel);

		sum += (v < 0 ? 0 : v > NNUE_QA ? NNUE_QA : v) * w2[i];
	}
	return sum;
}

#ifdef NNUE_X86
#define ROW(w, f, h, i) ((w) + (size_t)(f) * (size_t)(h) + (size_t)(i))

/* The units I.. of ACC plus the rows ADD of W minus the rows DEL (as
 * rows_scalar(), a vector's width at once). */
__attribute__((target("sse2"))) static inline __m128i rows_sse2(const int16_t *acc,
								const int16_t *w, int h, int i,
								const int *add, int nadd,
								const int *del, int ndel)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(acc + i));

	for (int k = 0; k < nadd; k++)
		x = _mm_add_epi16(x, _mm_loadu_si128((const __m128i *)ROW(w, add[k], h, i)));
	for (int k = 0; k < ndel; k++)
		x = _mm_sub_epi16(x, _mm_loadu_si128((const __m128i *)ROW(w, del[k], h, i)));
	return x;
}

__attribute__((target("sse2"))) static void apply_sse2(int16_t *acc, const int16_t *w, int h,
						      const int *add, int nadd, const int *del,
						      int ndel)
{
	for (int i = 0; i < h; i += 8)
		_mm_storeu_si128((__m128i *)(acc + i), rows_sse2(acc, w, h, i, add, nadd, del, ndel));
}

/* The sum of SUM's four lanes. */
__attribute__((target("sse2"))) static inline int32_t sum_sse2(__m128i sum)
{
	int32_t out[4];

	_mm_storeu_si128((__m128i *)out, sum);
	return out[0] + out[1] + out[2] + out[3];
}

__attribute__((target("sse2"))) static int32_t dot_sse2(const int16_t *a, const int16_t *w, int h)
{
	__m128i sum = _mm_setzero_si128(), zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);

	for (int i = 0; i < h; i += 8) {
		__m128i c = _mm_min_epi16(_mm_max_epi16(_mm_loadu_si128((const __m128i *)(a + i)), zero), qa);

		sum = _mm_add_epi32(sum, _mm_madd_epi16(c, _mm_loadu_si128((const __m128i *)(w + i))));
	}
	return sum_sse2(sum);
}

__attribute__((target("sse2"))) static int32_t apply_dot_sse2(const int16_t *acc,
							      const int16_t *w, int h,
							      const int *add, int nadd,
							      const int *del, int ndel,
							      const int16_t *w2)
{
	__m128i sum = _mm_setzero_si128(), zero = _mm_setzero_si128(), qa = _mm_set1_epi16(NNUE_QA);

	for (int i = 0; i < h; i += 8) {
		__m128i x = rows_sse2(acc, w, h, i, add, nadd, del, ndel);

		x = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
		sum = _mm_add_epi32(sum, _mm_madd_epi16(x, _mm_loadu_si128((const __m128i *)(w2 + i))));
	}
	return sum_sse2(sum);
}

__attribute__((target("avx2"))) static inline __m256i rows_avx2(const int16_t *acc,
								const int16_t *w, int h, int i,
								const int *add, int nadd,
								const int *del, int ndel)
{
	__m256i x = _mm256_loadu_si256((const __m256i *)(acc + i));

	for (int k = 0; k < nadd; k++)
		x = _mm256_add_epi16(x, _mm256_loadu_si256((const __m256i *)ROW(w, add[k], h, i)));
	for (int k = 0; k < ndel; k++)
		x = _mm256_sub_epi16(x, _mm256_loadu_si256((const __m256i *)ROW(w, del[k], h, i)));
	return x;
}

/* AVX2 has sixteen registers: eight hold 128 units of an accumulator
 * while a row after another is added, so each row's loop runs once a
 * block, not once a vector (where a layer is a whole number of blocks). */
#define BLOCK_AVX2 8

__attribute__((target("avx2"))) static inline void block_avx2(__m256i x[BLOCK_AVX2],
							      const int16_t *acc,
							      const int16_t *w, int h, int i,
							      const int *add, int nadd,
							      const int *del, int ndel)
{
#pragma GCC unroll 8
	for (int j = 0; j < BLOCK_AVX2; j++)
		x[j] = _mm256_loadu_si256((const __m256i *)(acc + i + 16 * j));
	for (int k = 0; k < nadd; k++) {
		const int16_t *r = ROW(w, add[k], h, i);

#pragma GCC unroll 8
		for (int j = 0; j < BLOCK_AVX2; j++)
			x[j] = _mm256_add_epi16(x[j], _mm256_loadu_si256((const __m256i *)(r + 16 * j)));
	}
	for (int k = 0; k < ndel; k++) {
		const int16_t *r = ROW(w, del[k], h, i);

#pragma GCC unroll 8
		for (int j = 0; j < BLOCK_AVX2; j++)
			x[j] = _mm256_sub_epi16(x[j], _mm256_loadu_si256((const __m256i *)(r + 16 * j)));
	}
}

__attribute__((target("avx2"))) static void apply_avx2(int16_t *acc, const int16_t *w, int h,
						      const int *add, int nadd, const int *del,
						      int ndel)
{
	if (h % (16 * BLOCK_AVX2) == 0) {
		for (int i = 0; i < h; i += 16 * BLOCK_AVX2) {
			__m256i x[BLOCK_AVX2];

			block_avx2(x, acc, w, h, i, add, nadd, del, ndel);
#pragma GCC unroll 8
			for (int j = 0; j < BLOCK_AVX2; j++)
				_mm256_storeu_si256((__m256i *)(acc + i + 16 * j), x[j]);
		}
		return;
	}
	for (int i = 0; i < h; i += 16)
		_mm256_storeu_si256((__m256i *)(acc + i), rows_avx2(acc, w, h, i, add, nadd, del, ndel));
}

/* The sum of SUM's eight lanes. */
__attribute__((target("avx2"))) static inline int32_t sum_avx2(__m256i sum)
{
	int32_t out[8], total = 0;

	_mm256_storeu_si256((__m256i *)out, sum);
	for (int k = 0; k < 8; k++)
		total += out[k];
	return total;
}

__attribute__((target("avx2"))) static int32_t dot_avx2(const int16_t *a, const int16_t *w, int h)
{
	__m256i sum = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
	__m256i qa = _mm256_set1_epi16(NNUE_QA);

	for (int i = 0; i < h; i += 16) {
		__m256i c = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(a + i)), zero), qa);

		sum = _mm256_add_epi32(sum, _mm256_madd_epi16(c, _mm256_loadu_si256((const __m256i *)(w + i))));
	}
	return sum_avx2(sum);
}

__attribute__((target("avx2"))) static int32_t apply_dot_avx2(const int16_t *acc,
							      const int16_t *w, int h,
							      const int *add, int nadd,
							      const int *del, int ndel,
							      const int16_t *w2)
{
	__m256i sum = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
	__m256i qa = _mm256_set1_epi16(NNUE_QA);

	if (h % (16 * BLOCK_AVX2) == 0) {
		for (int i = 0; i < h; i += 16 * BLOCK_AVX2) {
			__m256i x[BLOCK_AVX2];

			block_avx2(x, acc, w, h, i, add, nadd, del, ndel);
#pragma GCC unroll 8
			for (int j = 0; j < BLOCK_AVX2; j++) {
				__m256i c = _mm256_min_epi16(_mm256_max_epi16(x[j], zero), qa);
				__m256i v = _mm256_loadu_si256((const __m256i *)(w2 + i + 16 * j));

				sum = _mm256_add_epi32(sum, _mm256_madd_epi16(c, v));
			}
		}
		return sum_avx2(sum);
	}
	for (int i = 0; i < h; i += 16) {
		__m256i x = rows_avx2(acc, w, h, i, add, nadd, del, ndel);

		x = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
		sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i *)(w2 + i))));
	}
	return sum_avx2(sum);
}

/* 32 lanes; the last units of a layer not a multiple of 32 wide under a
 * mask (masked lanes are neither read nor written). */
#define AVX512 __attribute__((target("avx512f,avx512bw")))

AVX512 static inline __mmask32 lanes_from(int i, int h)
{
	return h - i >= 32 ? (__mmask32)~0u : (__mmask32)((1u << (h - i)) - 1);
}

AVX512 static inline __m512i rows_avx512(const int16_t *acc, const int16_t *w, int h, int i,
					__mmask32 m, const int *add, int nadd, const int *del,
					int ndel)
{
	__m512i x = _mm512_maskz_loadu_epi16(m, acc + i);

	for (int k = 0; k < nadd; k++)
		x = _mm512_add_epi16(x, _mm512_maskz_loadu_epi16(m, ROW(w, add[k], h, i)));
	for (int k = 0; k < ndel; k++)
		x = _mm512_sub_epi16(x, _mm512_maskz_loadu_epi16(m, ROW(w, del[k], h, i)));
	return x;
}

/* As block_avx2(): eight of AVX-512's 32 registers hold 256 units. */
#define BLOCK_AVX512 8

AVX512 static inline void block_avx512(__m512i x[BLOCK_AVX512], const int16_t *acc,
				       const int16_t *w, int h, int i, const int *add, int nadd,
				       const int *del, int ndel)
{
#pragma GCC unroll 8
	for (int j = 0; j < BLOCK_AVX512; j++)
		x[j] = _mm512_loadu_si512(acc + i + 32 * j);
	for (int k = 0; k < nadd; k++) {
		const int16_t *r = ROW(w, add[k], h, i);

#pragma GCC unroll 8
		for (int j = 0; j < BLOCK_AVX512; j++)
			x[j] = _mm512_add_epi16(x[j], _mm512_loadu_si512(r + 32 * j));
	}
	for (int k = 0; k < ndel; k++) {
		const int16_t *r = ROW(w, del[k], h, i);

#pragma GCC unroll 8
		for (int j = 0; j < BLOCK_AVX512; j++)
			x[j] = _mm512_sub_epi16(x[j], _mm512_loadu_si512(r + 32 * j));
	}
}

AVX512 static void apply_avx512(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
				const int *del, int ndel)
{
	if (h % (32 * BLOCK_AVX512) == 0) {
		for (int i = 0; i < h; i += 32 * BLOCK_AVX512) {
			__m512i x[BLOCK_AVX512];

			block_avx512(x, acc, w, h, i, add, nadd, del, ndel);
#pragma GCC unroll 8
			for (int j = 0; j < BLOCK_AVX512; j++)
				_mm512_storeu_si512(acc + i + 32 * j, x[j]);
		}
		return;
	}
	for (int i = 0; i < h; i += 32) {
		__mmask32 m = lanes_from(i, h);

		_mm512_mask_storeu_epi16(acc + i, m, rows_avx512(acc, w, h, i, m, add, nadd, del, ndel));
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

AVX512 static int32_t apply_dot_avx512(const int16_t *acc, const int16_t *w, int h,
				       const int *add, int nadd, const int *del, int ndel,
				       const int16_t *w2)
{
	__m512i sum = _mm512_setzero_si512(), zero = _mm512_setzero_si512();
	__m512i qa = _mm512_set1_epi16(NNUE_QA);

	if (h % (32 * BLOCK_AVX512) == 0) {
		for (int i = 0; i < h; i += 32 * BLOCK_AVX512) {
			__m512i x[BLOCK_AVX512];

			block_avx512(x, acc, w, h, i, add, nadd, del, ndel);
#pragma GCC unroll 8
			for (int j = 0; j < BLOCK_AVX512; j++) {
				__m512i c = _mm512_min_epi16(_mm512_max_epi16(x[j], zero), qa);

				sum = _mm512_add_epi32(sum, _mm512_madd_epi16(c, _mm512_loadu_si512(w2 + i + 32 * j)));
			}
		}
		return _mm512_reduce_add_epi32(sum);
	}
	for (int i = 0; i < h; i += 32) {
		__mmask32 m = lanes_from(i, h);
		__m512i x = rows_avx512(acc, w, h, i, m, add, nadd, del, ndel);

		x = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
		sum = _mm512_add_epi32(sum, _mm512_madd_epi16(x, _mm512_maskz_loadu_epi16(m, w2 + i)));
	}
	return _mm512_reduce_add_epi32(sum);
}
#endif

struct nnue_kernels nnue_k = { apply_scalar, dot_scalar, apply_dot_scalar, NNUE_SCALAR, false };

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
	static const struct nnue_kernels path[] = {
		[NNUE_SCALAR] = { apply_scalar, dot_scalar, apply_dot_scalar, NNUE_SCALAR, true },
#ifdef NNUE_X86
		[NNUE_SSE2] = { apply_sse2, dot_sse2, apply_dot_sse2, NNUE_SSE2, true },
		[NNUE_AVX2] = { apply_avx2, dot_avx2, apply_dot_avx2, NNUE_AVX2, true },
		[NNUE_AVX512] = { apply_avx512, dot_avx512, apply_dot_avx512, NNUE_AVX512, true },
#endif
	};

	if (level < NNUE_SCALAR || level > NNUE_AVX512 || !have_level(level))
		for (level = NNUE_AVX512; !have_level(level); level--)
			;
	nnue_k = path[level];
	return level;
}

const char *nnue_simd_name(int level)
{
	static const char *name[] = { "scalar", "sse2", "avx2", "avx512" };

	return level >= NNUE_SCALAR && level <= NNUE_AVX512 ? name[level] : "scalar";
}

void nnue_simd_default(void)
{
	if (!nnue_k.chosen)
		nnue_set_simd(-1); /* the best the processor has */
}
