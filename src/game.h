/* game.h - the rules layer: one interface that every game implements.
 *
 * A game is described by a `struct game` (which rules, board shape, rule
 * options), made once by game_init() and read-only afterwards. A position
 * is a `struct pos`: a few bitboards and counters, copied by assignment and
 * never allocating. Moves are small integers (move ids) below
 * GAME_MAX_CELLS whose meaning belongs to the game; front ends turn them
 * into grid cells with game_move_cell()/game_cell_move() and into text with
 * game_move_name()/game_parse_move().
 *
 * Engines and front ends call the inline wrappers at the bottom, never a
 * game's functions directly, so they work for every game. */
#ifndef NOUGHTS_GAME_H
#define NOUGHTS_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

#define GAME_MAX_CELLS 128 /* every move id is below this */
#define GAME_MAX_MOVES 81  /* the most legal moves a position can have */
#define GAME_MAX_PLIES 81  /* the longest game */
#define GAME_MAX_SYM 8     /* board symmetries */
#define MNK_MAX_CELLS 64   /* M * N at most */
#define MNK_MIN_SIDE 3
#define MNK_MAX_SIDE 21    /* so a row of cells stays within a-u */
#define MOVE_NONE 255
#define GAME_MAX_LINES (4 * MNK_MAX_CELLS) /* lines of K a board can have */

enum side { SIDE_X = 0, SIDE_O = 1 };

/* The result of a game, from nobody's point of view. */
enum result { RESULT_NONE = 0, RESULT_X = 1, RESULT_O = 2, RESULT_DRAW = 3 };

/* The side that won RESULT, or -1 for none and draws. */
static inline int result_winner(int result)
{
	return result == RESULT_X ? SIDE_X : result == RESULT_O ? SIDE_O : -1;
}

/* The result "SIDE won". */
static inline int result_of_win(int side)
{
	return side == SIDE_X ? RESULT_X : RESULT_O;
}

/* A proven game-theoretic value from some side's point of view (each use
 * says whose). */
enum proof { PROOF_NONE = 0, PROOF_WIN = 1, PROOF_LOSS = 2, PROOF_DRAW = 3 };

/* Names of results ("X", "O", "draw") and proofs ("win", "loss", "draw"),
 * as every output writes them; NULL for RESULT_NONE and PROOF_NONE. */
const char *game_result_name(int result);
const char *game_proof_name(int proof);

/* Rule options (Ultimate tic-tac-toe only; other games ignore them). */
enum {
	RULE_TIEBREAK = 1 << 0,   /* no line: more small boards won wins */
	RULE_OPEN_WON = 1 << 1,   /* won small boards stay playable */
};

enum rollout_policy { ROLLOUT_RANDOM = 0, ROLLOUT_SMART = 1 };

/* A set of move ids: bit i of w[i / 64]. */
struct moveset {
	uint64_t w[2];
};

/* A position of any game. Fields in `u` belong to the game's rules. */
struct pos {
	uint64_t hash; /* Zobrist key: cells of each side (+ forced board) */
	union {
		struct {
			uint64_t bb[2]; /* cells of X and O, bit row * M + col */
		} mnk;
		struct {
			uint16_t sub[2][9]; /* cells of X and O in each small board */
			uint16_t won[2];    /* small boards won by X and O */
			uint16_t closed;    /* small boards no one may play in */
			int8_t next;        /* the board the mover must use, -1 any */
		} uttt;
	} u;
	uint8_t turn;   /* enum side to move */
	uint8_t ply;    /* moves played from the start */
	uint8_t result; /* enum result; RESULT_NONE while the game goes on */
	uint8_t last;   /* the last move id, MOVE_NONE at the start */
};

struct game;

/* The regions (small boards) of a game played on several boards at once,
 * as front ends draw and describe them. Region r (bit r of the masks) is
 * the r-th block of W x H cells, blocks numbered row by row. */
struct game_regions {
	int n;            /* regions, 0 when the game has none (then all is 0) */
	int w, h;         /* cells of a region across and down */
	unsigned allowed; /* regions the mover may play in (0 when it is over) */
	unsigned closed;  /* regions no one may play in any more (won or full) */
	unsigned won[2];  /* regions won by X and by O */
	unsigned line;    /* the regions of the winning line, 0 for none */
	bool won_open;    /* won regions stay playable, so they are not closed */
};

/* What each game implements. Every function takes the game it belongs to. */
struct game_ops {
	/* Set POS to the starting position. */
	void (*start)(const struct game *g, struct pos *pos);
	/* Store the legal moves of POS in OUT (empty when the game is over). */
	void (*legal)(const struct game *g, const struct pos *pos, struct moveset *out);
	/* Play MOVE, which must be legal (assert), updating every field of POS. */
	void (*play)(const struct game *g, struct pos *pos, int move);
	/* The side (SIDE_X or SIDE_O) on the cell of MOVE, or -1 when empty. */
	int (*owner)(const struct game *g, const struct pos *pos, int move);
	/* Why MOVE is not legal in POS, in a few words, or NULL when it is. */
	const char *(*illegal)(const struct game *g, const struct pos *pos, int move,
			       char *buf, size_t size);
	/* Play random moves from POS to the end under POLICY (enum
	 * rollout_policy) using R; return the enum result. POS is clobbered. */
	int (*rollout)(const struct game *g, struct pos *pos, struct rng *r, int policy);
	/* Store in OUT the moves with which SIDE would win at once if it were
	 * its turn and the move were allowed (empty cells completing a line). */
	void (*threats)(const struct game *g, const struct pos *pos, int side,
			struct moveset *out);
	/* A heuristic score of a position that is not over, from the view of
	 * the side to move, in (-GAME_EVAL_MAX, GAME_EVAL_MAX). */
	int (*evaluate)(const struct game *g, const struct pos *pos);
	/* Store in OUT (room for MAX) the lines of K cells that win, each as a
	 * mask of move ids, and return how many; 0 for a game whose lines are
	 * not K in a row on one board of at most 64 cells. Engines that reason
	 * about lines (negamax) and the screen (the winning line) use them. */
	int (*lines)(const struct game *g, uint64_t *out, int max);
	/* Fill OUT with the regions of POS (out->n = 0 for a game without). */
	void (*regions)(const struct game *g, const struct pos *pos, struct game_regions *out);
	/* Where the mover must play in POS, in words for a sentence ("in the
	 * top-left board", "in any open board"), in BUF; NULL when the game
	 * puts no limit beyond empty cells. */
	const char *(*where)(const struct game *g, const struct pos *pos, char *buf, size_t size);
	/* A human name of the game in BUF: "tic-tac-toe", "Ultimate
	 * tic-tac-toe", "7,6,4: 4 in a row on 7x6". */
	char *(*title)(const struct game *g, char *buf, size_t size);
};

#define GAME_EVAL_MAX 10000

struct game {
	const struct game_ops *ops;
	char name[16];      /* "ttt", "uttt" or "M,N,K" as given to game_init */
	int width, height;  /* the grid the board is drawn on, in cells */
	int cells;          /* cells on the grid: width * height */
	int k;              /* stones in a row that win (3 for uttt) */
	unsigned rules;     /* RULE_* options in force */
	int nsym;           /* symmetries of the empty board usable for hashing */
	/* sym[s][move]: the move that symmetry s maps MOVE to; s = 0 is identity */
	uint8_t sym[GAME_MAX_SYM][GAME_MAX_CELLS];
	/* move id of each grid cell (row * width + col), and the other way */
	uint8_t cell_to_move[GAME_MAX_CELLS];
	uint8_t move_to_cell[GAME_MAX_CELLS];
	/* m,n,k: shift and valid window starts of each of the four directions */
	int dir_shift[4];
	uint64_t dir_start[4];
	uint64_t full; /* m,n,k: mask of every cell */
};

/* Zobrist keys shared by the games: [side][move id], the forced board of
 * Ultimate tic-tac-toe (index next + 1), and its won small boards
 * [owner][board] (who won a board depends on move order under
 * RULE_OPEN_WON, so the stones alone do not say). Filled by game_init(). */
extern uint64_t game_zobrist[2][GAME_MAX_CELLS];
extern uint64_t game_zobrist_next[10];
extern uint64_t game_zobrist_won[2][9];

/* Set up G for the game named NAME ("ttt", "uttt" or "M,N,K") with the rule
 * options RULES (uttt only: other games refuse them). Returns 0, or -1 with
 * a one-line reason in ERR. */
int game_init(struct game *g, const char *name, unsigned rules, char *err, size_t errsize);

/* Move text: a column letter and a row number, "a1" the top left cell.
 * game_parse_move returns the move id of the text, or -1 with a reason in
 * ERR when the text does not name a cell of the board. Legality is
 * separate: game_illegal(). */
int game_parse_move(const struct game *g, const char *text, char *err, size_t errsize);
/* Write the name of MOVE ("e5") into BUF (at least 8 bytes); returns BUF. */
char *game_move_name(const struct game *g, int move, char *buf);

/* Play the moves of TEXT ("e5 d4", spaces or commas between them) from POS.
 * If PLAYED is not NULL, the move ids are stored there (room for
 * GAME_MAX_PLIES) and their number in *NPLAYED. Returns 0, or -1 with a
 * reason naming the bad move in ERR; POS is then left at the last good
 * position. */
int game_play_moves(const struct game *g, struct pos *pos, const char *text, uint8_t *played,
		    int *nplayed, char *err, size_t errsize);

/* Count the move sequences of exactly d plies from POS for d = 1..DEPTH into
 * COUNTS[d - 1]; a finished game is not extended. */
void game_perft(const struct game *g, const struct pos *pos, int depth, uint64_t *counts);

/* Print POS as a text diagram with coordinates to OUT. */
void game_print(const struct game *g, const struct pos *pos, FILE *out);

/* The player (SIDE_X or SIDE_O) on grid cell COL, ROW, or -1 when empty. */
int game_cell_owner(const struct game *g, const struct pos *pos, int col, int row);

/* The mark of a side on the board: 'X' or 'O'. */
static inline char game_side_mark(int side)
{
	return side == SIDE_X ? 'X' : 'O';
}

/* Is the grid line before column (ACROSS) or row I, 0 <= I <= the width
 * or height, a border between regions (the frame counts)? Always false
 * for a game without regions. */
bool game_region_border(const struct game *g, int i, bool across);

/* The K-in-a-row lines of G (see game_ops.lines) into OUT, room for
 * GAME_MAX_LINES; returns how many. */
static inline int game_lines(const struct game *g, uint64_t *out)
{
	return g->ops->lines(g, out, GAME_MAX_LINES);
}
/* The regions of P (see struct game_regions). */
static inline void game_regions(const struct game *g, const struct pos *p,
				struct game_regions *out)
{
	g->ops->regions(g, p, out);
}
/* Where the mover must play (see game_ops.where), or NULL. */
static inline const char *game_where(const struct game *g, const struct pos *p, char *buf,
				     size_t size)
{
	return g->ops->where(g, p, buf, size);
}

/* Moveset helpers. */
static inline void moveset_clear(struct moveset *s)
{
	s->w[0] = s->w[1] = 0;
}
static inline void moveset_add(struct moveset *s, int m)
{
	s->w[m >> 6] |= (uint64_t)1 << (m & 63);
}
static inline void moveset_remove(struct moveset *s, int m)
{
	s->w[m >> 6] &= ~((uint64_t)1 << (m & 63));
}
static inline bool moveset_has(const struct moveset *s, int m)
{
	return (s->w[m >> 6] >> (m & 63)) & 1;
}
static inline int moveset_count(const struct moveset *s)
{
	return popcount64(s->w[0]) + popcount64(s->w[1]);
}
static inline bool moveset_empty(const struct moveset *s)
{
	return (s->w[0] | s->w[1]) == 0;
}
static inline void moveset_and(struct moveset *a, const struct moveset *b)
{
	a->w[0] &= b->w[0];
	a->w[1] &= b->w[1];
}
/* Remove and return the lowest move of a non-empty set. */
static inline int moveset_pop(struct moveset *s)
{
	int i = s->w[0] != 0 ? 0 : 1;
	int b = __builtin_ctzll(s->w[i]);

	s->w[i] &= s->w[i] - 1;
	return i * 64 + b;
}
/* The N-th lowest move (0-based) of a set with more than N moves. */
int moveset_nth(const struct moveset *s, int n);
/* Put the moves of S into OUT in increasing order; return how many. */
int moveset_list(const struct moveset *s, uint8_t *out);

/* Wrappers through which every caller uses the rules. */
static inline void game_start(const struct game *g, struct pos *p)
{
	g->ops->start(g, p);
}
static inline void game_legal(const struct game *g, const struct pos *p, struct moveset *out)
{
	g->ops->legal(g, p, out);
}
static inline void game_play(const struct game *g, struct pos *p, int move)
{
	g->ops->play(g, p, move);
}
static inline const char *game_illegal(const struct game *g, const struct pos *p, int move,
				       char *buf, size_t size)
{
	return g->ops->illegal(g, p, move, buf, size);
}
static inline int game_rollout(const struct game *g, struct pos *p, struct rng *r, int policy)
{
	return g->ops->rollout(g, p, r, policy);
}
static inline void game_threats(const struct game *g, const struct pos *p, int side,
				struct moveset *out)
{
	g->ops->threats(g, p, side, out);
}
/* The moves of AMONG that complete a line for SIDE in P, into OUT: true if
 * there is one. */
static inline bool game_threats_among(const struct game *g, const struct pos *p, int side,
				      const struct moveset *among, struct moveset *out)
{
	game_threats(g, p, side, out);
	moveset_and(out, among);
	return !moveset_empty(out);
}
static inline int game_evaluate(const struct game *g, const struct pos *p)
{
	return g->ops->evaluate(g, p);
}
static inline bool game_over(const struct pos *p)
{
	return p->result != RESULT_NONE;
}
/* Grid cell of a move and the move on a grid cell (-1: no such cell). */
static inline void game_move_cell(const struct game *g, int move, int *col, int *row)
{
	int cell = g->move_to_cell[move];

	*col = cell % g->width;
	*row = cell / g->width;
}
static inline int game_cell_move(const struct game *g, int col, int row)
{
	if (col < 0 || row < 0 || col >= g->width || row >= g->height)
		return -1;
	return g->cell_to_move[row * g->width + col];
}

/* The implementations, for game_init() only. */
extern const struct game_ops mnk_ops;
extern const struct game_ops uttt_ops;
void mnk_setup(struct game *g);
void uttt_setup(struct game *g);
/* Ultimate tic-tac-toe: describe small board B ("top-left", "centre", ...). */
const char *uttt_board_name(int b);
/* Ultimate tic-tac-toe: the small boards of P won by neither side where
 * SIDE has a line of two with its third cell free (it can win the board
 * in one move). P is a position of a game set up by game_init(). */
unsigned uttt_board_threats(const struct pos *p, int side);
/* Bit B of uttt_board_threats(P, SIDE): one board's. */
bool uttt_board_threat(const struct pos *p, int side, int b);
/* Ultimate tic-tac-toe: the cells of a small board that would complete a
 * line of three for a side whose cells there are the 9-bit MASK (empty or
 * not; after game_init()). */
unsigned uttt_line_cells(unsigned mask);
/* Ultimate tic-tac-toe: game_rollout() move by move on the rules' own
 * playout step, the loop smart playouts run; random playouts run a faster
 * loop of their own, which the tests hold to this one (the same final
 * position, result and generator state). */
int uttt_playout_by_rules(const struct game *g, struct pos *p, struct rng *r, int policy);
/* Ultimate tic-tac-toe: whether the fast playouts draw their cells with
 * BMI2's pdep (chosen when the first game is set up, where the processor
 * has it fast) or with tables, the same cells either way. USE 0 or 1 asks
 * for one (pdep only where the processor has it), -1 leaves it; returns
 * the way now taken. For the tests, which hold both to the rules. */
bool uttt_fast_pdep(int use);
/* An m,n,k game: game_rollout() with each side's threats found afresh
 * every move, where smart playouts keep them from move to move; the tests
 * hold the two to the same final position, result and generator state. */
int mnk_playout_by_rules(const struct game *g, struct pos *p, struct rng *r, int policy);

#endif
