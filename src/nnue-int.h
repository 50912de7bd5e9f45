/* nnue-int.h - what nnue.c (features, kernels, evaluation) and
 * nnue-file.c (weights files, the built-in network) share. */
#ifndef NOUGHTS_NNUE_INT_H
#define NOUGHTS_NNUE_INT_H

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
};

/* Set N's leaf evaluator (nnue_leaf_eval()) once its arrays are read. */
void nnue_leaf_init(struct nnue *n);

/* The best SIMD level the processor has, unless one was chosen. */
void nnue_simd_default(void);

#endif
