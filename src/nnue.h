/* nnue.h - a small value network for Ultimate tic-tac-toe, NNUE style.
 *
 * Inputs are sparse and binary, seen from each side in turn (its
 * perspective): its own marks on the 81 cells, the other side's marks, the
 * small boards each has won, the boards closed without a winner, the
 * board the mover is sent to (or "any"), and the open boards each side can
 * win in one move: NNUE_FEATURES in all (file format 2). Format 3 has
 * other inputs: a state of each cell (how its board closed, whose mark,
 * who would win the board by playing an empty cell) and the board sent
 * to, NNUE_CELL_FEATURES in all; a network is of one format or the other,
 * and the rest is the same for both. One hidden
 * layer: per perspective, an accumulator of H 16-bit sums (the feature
 * transformer, shared by both perspectives), clipped to [0, NNUE_QA] (a
 * clipped ReLU); the output is a weighted sum of the mover's H units then
 * the other side's, a logit whose sigmoid is the mover's expected score.
 *
 * All arithmetic is on integers, so the scalar, SSE2, AVX2 and AVX-512
 * paths (picked at run time from what the processor has) give the same
 * numbers to the bit. Accumulators are updated incrementally: a move
 * changes a handful of features, and a position's accumulator is its
 * ancestor's plus the features that differ (nnue_update), which is how
 * MCTS gets a leaf's accumulator from the root's.
 *
 * Weights file (little-endian): "noughtsN", u32 version (2 or 3), 16-byte game
 * name ("uttt", NUL padded), u32 features, u32 hidden (a multiple of 16 up
 * to NNUE_MAX_HIDDEN), u32 QA, u32 QB; then i16 b1[H], i16 w1[F][H],
 * i16 w2[2H], i32 b2; then a u32 FNV-1a checksum of every byte before it.
 * train/ writes it; the one for Ultimate tic-tac-toe is built in. A file
 * for another game is refused (the features are uttt's), and so are
 * weights whose sums could leave 16 bits in a unit or 32 in the output,
 * where the paths would no longer agree. */
#ifndef NOUGHTS_NNUE_H
#define NOUGHTS_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "mcts.h"

#define NNUE_FEATURES 217   /* per perspective; see nnue.c for the order */
/* The most features a position has at once: 81 cells, 9 boards won or
 * full, the board sent to, 18 threats (train/train.py's clip counts on it) */
#define NNUE_MAX_ACTIVE 109
#define NNUE_MAX_HIDDEN 512
#define NNUE_QA 127         /* a float of 1.0 in the accumulator */
#define NNUE_QB 256         /* a float of 1.0 in an output weight */
#define NNUE_VERSION 2
/* Format version 3: a state of each of the 81 cells, and the board the
 * mover is sent to at NNUE_CELL_NEXT (any) or after (nnue.c) */
#define NNUE_VERSION_CELLS 3
#define NNUE_CELL_STATES 9
#define NNUE_CELL_NEXT (81 * NNUE_CELL_STATES)
#define NNUE_CELL_FEATURES (NNUE_CELL_NEXT + 10)
#define NNUE_MAX_FEATURES NNUE_CELL_FEATURES

struct nnue;

/* The accumulators of a position: [perspective][unit], for sides X and O. */
struct nnue_acc {
	int16_t v[2][NNUE_MAX_HIDDEN];
};

/* Read a network from the file PATH. Returns it, or NULL with a one-line
 * reason naming the file in ERR (missing, truncated, not a network file,
 * another version or shape, corrupt). Free with nnue_free(). */
struct nnue *nnue_load(const char *path, char *err, size_t errsize);

/* The same from SIZE bytes at DATA, called WHAT in messages. */
struct nnue *nnue_parse(const uint8_t *data, size_t size, const char *what, char *err,
			size_t errsize);
void nnue_free(struct nnue *n);

/* The network built into the program for game G, or NULL when G has none
 * (only Ultimate tic-tac-toe has one). Made once, never freed. */
const struct nnue *nnue_builtin(const struct game *g);

/* The bytes of the built-in network of Ultimate tic-tac-toe, a weights
 * file as described above (src/nnue-uttt.c, made from train/uttt.bin by train/bin2c.sh at build time). */
extern const unsigned char nnue_uttt_data[];
extern const size_t nnue_uttt_size;

/* The name of the game the network was trained for ("uttt"). */
const char *nnue_game(const struct nnue *n);

/* Hidden units per perspective. */
int nnue_hidden(const struct nnue *n);

/* The file format version (NNUE_VERSION or NNUE_VERSION_CELLS), which says
 * what the inputs are, and how many there are per perspective. */
int nnue_version(const struct nnue *n);
int nnue_feature_count(const struct nnue *n);

/* The features of format 2 of P seen from SIDE, into OUT (room for
 * NNUE_FEATURES), in increasing order; returns how many. */
int nnue_features(const struct pos *p, int side, int *out);

/* Compute A for P from scratch. */
void nnue_refresh(const struct nnue *n, const struct pos *p, struct nnue_acc *a);

/* A holds the accumulators of FROM; make them those of TO, adding and
 * subtracting only the features that differ. Any two positions of the game
 * work; it is cheap when TO follows FROM by a few moves. */
void nnue_update(const struct nnue *n, const struct pos *from, const struct pos *to,
		 struct nnue_acc *a);

/* The raw output for SIDE to move: the logit times NNUE_QA * NNUE_QB. */
int32_t nnue_output(const struct nnue *n, const struct nnue_acc *a, int side);

/* SIDE's expected score (0 lost, 1 won) by the network, from A. */
double nnue_value(const struct nnue *n, const struct nnue_acc *a, int side);

/* N as MCTS's leaf evaluator (valid while N is): the search keeps the
 * accumulators of its root and gets a leaf's by nnue_update(). */
const struct mcts_leaf_eval *nnue_leaf_eval(const struct nnue *n);

/* Instruction sets the evaluation can use. */
enum nnue_simd { NNUE_SCALAR = 0, NNUE_SSE2 = 1, NNUE_AVX2 = 2, NNUE_AVX512 = 3 };

/* Use LEVEL, or the best the processor has if it has not LEVEL; returns
 * the level in force. The default is the best the processor has. For tests
 * and measurements: every level gives the same numbers. */
int nnue_set_simd(int level);
const char *nnue_simd_name(int level);

#endif
