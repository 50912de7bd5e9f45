/* nnue-int.h - what nnue.c (features, evaluation), nnue-kernels.c (the
 * arithmetic) and nnue-file.c (weights files, the built-in network) share. */
#ifndef NOUGHTS_NNUE_INT_H
#define NOUGHTS_NNUE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "mcts.h"
#include "nnue.h"

#define HEADER_BYTES (8 + 4 + 16 + 4 * 4)

/* The features of format 3 come from CELL_SLOTS small numbers: the state
 * of each cell (0..8), then 1 + the board the mover is sent to (0: any). */
#define CELL_SLOTS 82

struct nnue {
	char game[16];
	int hidden;
	int version;  /* NNUE_VERSION or NNUE_VERSION_CELLS: which features */
	int features; /* NNUE_FEATURES or NNUE_CELL_FEATURES */
	int16_t *b1; /* [hidden] */
	int16_t *w1; /* [features][hidden] */
	int16_t *w2; /* [2 * hidden]: the mover's units, then the other side's */
	int32_t b2;
	struct mcts_leaf_eval leaf; /* nnue_leaf_eval() */
	uint64_t id; /* this network's own, never reused (nnue_leaf_init()) */
};

/* The kernels (nnue-kernels.c). */
/* ACC[0..H) += the rows ADD of W minus the rows DEL (each row H long). */
typedef void apply_fn(int16_t *acc, const int16_t *w, int h, const int *add, int nadd,
		      const int *del, int ndel);
/* The sum over i < H of clamp(A[i], 0, QA) * W[i]. */
typedef int32_t dot_fn(const int16_t *a, const int16_t *w, int h);
/* dot() of W2 and ACC as apply() of W's rows ADD and DEL would leave it,
 * ACC left as it is: a child's output without a copy of its accumulators. */
typedef int32_t apply_dot_fn(const int16_t *acc, const int16_t *w, int h, const int *add,
			     int nadd, const int *del, int ndel, const int16_t *w2);

/* The kernels in use: nnue_set_simd() chooses them, scalar until then. */
struct nnue_kernels {
	apply_fn *apply;
	dot_fn *dot;
	apply_dot_fn *apply_dot;
	int level;
	bool chosen;
};
extern struct nnue_kernels nnue_k;

/* Set N's leaf evaluator (nnue_leaf_eval()) once its arrays are read. */
void nnue_leaf_init(struct nnue *n);

/* The best SIMD level the processor has, unless one was chosen. */
void nnue_simd_default(void);

#endif
