/* player.h - the player interface that front ends drive: human, random,
 * mcts and negamax, made from a spec such as "mcts:time=100,c=0.7".
 *
 * A front end tells a player every move made on the board (player_played)
 * or a new position (player_reset), lets it think in slices when it is its
 * turn (player_think), and asks for its move (player_choose). The budget of
 * a move (iterations, time, depth) counts only time spent inside
 * player_think, so a paused engine does not lose its clock. */
#ifndef NOUGHTS_PLAYER_H
#define NOUGHTS_PLAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "mcts.h"

enum player_kind { PLAYER_HUMAN, PLAYER_RANDOM, PLAYER_MCTS, PLAYER_NEGAMAX };

#define PLAYER_MAX_LEVEL 10
#define PLAYER_MAX_MEMORY_MIB 98304 /* an arena of 2^32 nodes of 24 bytes */
#define PLAYER_DEFAULT_LEVEL 6

/* A parsed player spec. Zero budgets mean "not given". */
struct player_spec {
	int kind;                /* enum player_kind */
	int level;               /* 1..10, the budget when none is given */
	uint64_t iterations;     /* mcts: iterations per move */
	int time_ms;             /* mcts, negamax: milliseconds per move */
	int depth;               /* negamax: plies */
	struct mcts_params mcts; /* mcts: c, rollout, solver, memory, seed, eval
	                            (MCTS_EVAL_AUTO unless given; leaf unset);
	                            mcts and negamax: threads */
	char net[256];           /* mcts: net=FILE, the network file; "" built in */
	uint64_t seed;           /* random, and mcts (same as mcts.seed) */
	bool seed_given;
	bool threads_given;      /* mcts, negamax: threads= was written */
};

/* The threads of an mcts or negamax spec without threads=: 1 unless a command sets
 * it before parsing specs (the screen and analyze use every core; bot and
 * match keep one). THREADS is from 1 to MCTS_MAX_THREADS. */
void player_set_threads_default(int threads);
int player_threads_default(void);

/* Parse TEXT ("human", "random", "mcts", "mcts:iterations=5000,c=0.5",
 * "negamax:depth=6", ...) into SPEC. Returns 0, or -1 with a one-line
 * reason in ERR naming the bad part and what is accepted. */
int player_spec_parse(const char *text, struct player_spec *spec, char *err, size_t errsize);

/* Can SPEC play game G? Refuses eval=net or mix, or net=FILE, for a game
 * without a network or with a network of another game. Returns 0, or -1
 * with a one-line reason in ERR. (player_new() falls back on playouts.) */
int player_spec_check(const struct player_spec *spec, const struct game *g, char *err,
		      size_t errsize);

/* The leaf evaluation an mcts SPEC gets on game G: its eval= if given,
 * else eval=mix where there is a network (net=FILE, or one built in for
 * G) and playouts where there is none. */
enum mcts_eval player_spec_eval(const struct player_spec *spec, const struct game *g);

/* The order of children an mcts SPEC gets on game G (as mcts_new()
 * resolves it): its order= if given, else net where it searches with a
 * network of format 2 (the built-in one), fixed elsewhere. */
enum mcts_order player_spec_order(const struct player_spec *spec, const struct game *g);

/* Where G has a network, write into the mcts spec P the evaluation and the
 * order it gets without eval= and order= (eval=mix, order=net), so that
 * what prints or shows P (match's report and records, selfplay's header,
 * the game screen's spec lines) says how the engine searches. */
void player_spec_name_eval(struct player_spec *p, const struct game *g);

/* Write the spec back as text with every budget spelled out
 * ("mcts:iterations=2500,c=0.5,rollout=smart,solver=on"). */
char *player_spec_format(const struct player_spec *spec, char *buf, size_t size);

/* The budget of a level: iterations for mcts; depth (0: to the end) and a
 * time cap in milliseconds (0: none) for negamax. */
uint64_t player_level_iterations(int level);
void player_level_negamax(int level, int *depth, int *time_ms);

/* A searched root move of a non-MCTS engine, as the panel shows it. */
struct player_root_move {
	int move;
	int score;   /* the engine's score, mover's view (negamax: NEGAMAX_WIN scale) */
	int depth;   /* the depth it was searched to */
	bool upper;  /* the score is an upper bound: no better than the best */
	int proof;   /* enum proof for the mover where proven, else PROOF_NONE;
	                with upper, at most this (PROOF_DRAW: a draw or a loss) */
	int plies;   /* if proven: plies to the end, this move included (with
	                upper, a loss: at most this many) */
};

/* What an engine tells about its search, copied out for the screen (the
 * generic snapshot; MCTS gives its tree through search() instead). */
struct player_stats {
	bool have;          /* false: the engine tells nothing (yet) */
	int depth;          /* deepest completed iteration */
	int searching;      /* the iteration under way, 0 when it stopped */
	int max_depth;      /* the depth limit, 0 for none */
	uint64_t nodes;     /* positions searched for this move */
	double seconds;     /* thinking time spent on this move */
	size_t table_used, table_size; /* transposition table entries */
	int threads;        /* threads searching */
	int best;           /* the move it would play, MOVE_NONE for none */
	int score;          /* its score (as player_root_move.score) */
	int proof, plies;   /* the root's proven value, PROOF_NONE when not */
	int pv_len;
	uint8_t pv[GAME_MAX_PLIES];
	int n;              /* root moves searched so far */
	struct player_root_move root[GAME_MAX_MOVES];
};

struct player_ops {
	/* Forget everything and take POS as the current position. */
	void (*reset)(void *data, const struct pos *pos);
	/* MOVE (legal) was played in the current position, by either side. */
	void (*played)(void *data, int move);
	/* Think about the current position for about SLICE_NS nanoseconds at
	 * most; return true when the move is ready (budget spent or nothing
	 * left to learn). */
	bool (*think)(void *data, uint64_t slice_ns);
	/* The move to play in the current position, from what is known now. */
	int (*choose)(void *data);
	/* The MCTS search behind the player, or NULL for other kinds. */
	struct mcts *(*search)(void *data);
	/* Copy what the engine knows of its search of the current position
	 * into OUT (out->have false when nothing); NULL for engines that give
	 * their numbers through search(). Safe while it thinks. */
	void (*stats)(void *data, struct player_stats *out);
	/* Release DATA. */
	void (*destroy)(void *data);
};

struct player {
	const struct player_ops *ops; /* NULL for a human */
	void *data;
	struct player_spec spec;
	const struct game *g;
};

/* A player of game G (which must outlive it) for SPEC, at the start
 * position POS. A human player has no ops: the front end asks the person. */
struct player *player_new(const struct game *g, const struct player_spec *spec,
			  const struct pos *pos);
void player_free(struct player *p);

static inline bool player_is_human(const struct player *p)
{
	return p->ops == NULL;
}
void player_reset(struct player *p, const struct pos *pos);
void player_played(struct player *p, int move);
bool player_think(struct player *p, uint64_t slice_ns);
int player_choose(struct player *p);
/* The MCTS search of an mcts player, NULL otherwise. */
struct mcts *player_search(struct player *p);

/* The statistics of a non-MCTS engine (see player_ops.stats); false, with
 * OUT->have false, for players that have none. */
bool player_stats(struct player *p, struct player_stats *out);

/* Think until the move is ready and return it (headless commands). */
int player_move_now(struct player *p);

#endif
