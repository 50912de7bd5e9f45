/* mcts.h - Monte Carlo Tree Search (UCT with MCTS-Solver), driven in steps.
 *
 * The caller owns the loop: mcts_step() runs a bounded number of
 * iterations and returns, so a screen can redraw between steps and a
 * command can stop on a clock. Nothing here blocks, prints, or allocates
 * per iteration: nodes come from one arena made by mcts_new().
 *
 * Rewards: a win is 1, a draw 1/2, a loss 0, so values and the exploration
 * constant are on the [0, 1] scale. Node statistics are stored from X's
 * point of view and turned to the mover's by one helper in mcts.c. */
#ifndef NOUGHTS_MCTS_H
#define NOUGHTS_MCTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

/* Selection is UCT: a child's mean plus c sqrt(ln N / n). PUCT's term,
 * c P sqrt(N) / (1 + n), with P uniform or a softmax of the network's
 * values of the moves, scored 64-77% against playouts where UCT had 80.5%
 * (session 52, MEASUREMENTS; `noughts match "mcts:time=90,c=C"
 * "mcts:time=90,eval=rollout" --game uttt --tiebreak --games 200 --seed
 * 11`, a throwaway build). */
#define MCTS_DEFAULT_C 0.4          /* tuned for UTTT with smart rollouts */
#define MCTS_NET_DEFAULT_C 0.15     /* the same with eval=net, whose values vary less */
#define MCTS_DEFAULT_MEMORY_MB 512
#define MCTS_PV_MAX 10
#define MCTS_MAX_THREADS 256

/* Where the value of a new leaf comes from. */
enum mcts_eval {
	MCTS_EVAL_AUTO = -1,   /* (specs only) the network where the game has one */
	MCTS_EVAL_ROLLOUT = 0, /* a playout */
	MCTS_EVAL_NET = 1,     /* the leaf evaluator */
	MCTS_EVAL_MIX = 2,     /* a playout, or for MCTS_MIX_NET percent of
	                          the leaves the evaluator's value; and on a
	                          node's second visit the evaluator's value as
	                          its prior: MCTS_MIX_PRIOR visits */
};

/* eval=mix: the percentage of new leaves valued by the network rather than
 * by a playout, drawn at random (a network value costs about a playout's
 * time); since session 42 only of leaves whose value the ordering did not
 * find already (MCTS_MIX_BLEND has the others). At 90 ms a move against
 * playouts (`noughts match "mcts:time=90" "mcts:time=90,eval=rollout"
 * --game uttt --tiebreak --games 200`), two
 * matches at once: 0% 54.2% and 58.2% (seeds 3, 4), 33% 60.2% (seed 3),
 * 50% 58.8% (seed 4); at 20,000 iterations a move (100 games, seed 1):
 * 0% 58.5%, 25% 66.5%, 50% 66.5%, 75% 61.5%. Head to head at 90 ms, 33%
 * against 0% (200 games, seeds 5, 6, two matches at once): 53.8%, 51.2%.
 * Under order=net with the widening of 3 + 0.5 sqrt(n) (session 36, the
 * same command at 100 games a seed, S = 1-4, two at once, a throwaway
 * build reading the share from the environment): 50% 78.0, 77.5, 76.5,
 * 76.0% (77.0% of 400: 267 won, 82 drawn, 51 lost), where 33% had 75.5,
 * 75.0, 79.0, 71.0% (75.1%: 261-79-60; session 35). The shipped build at
 * 50%, S = 1, 2: 71.0, 68.5% (69.8% of 200), where 33% had 73.4% of 400
 * (session 35): pooled the two are level, the gain not confirmed. */
#define MCTS_MIX_NET 50

/* eval=mix under order=net: a new leaf whose value the ordering of its
 * parent's block found (the network's, known without asking again) gets a
 * playout too, and backs up MCTS_MIX_BLEND percent that value and the rest
 * the playout's result; MCTS_MIX_NET is then not drawn (it applies to
 * leaves with no such value, as under order=fixed). The blend's value is
 * surer than either alone, and costs a playout where half the leaves had
 * none. At 90 ms a move against playouts (`noughts match "mcts:time=90"
 * "mcts:time=90,eval=rollout" --game uttt --tiebreak --games 100 --seed S`,
 * two at once, a core each; session 42, a throwaway build): 50% 77.5, 77.0,
 * 78.5, 75.5% (S = 1-4: 77.1% of 400), 65% 77.5, 80.5, 75.0, 74.5% (76.9%),
 * 80% 69.5, 72.0%; where the draw between the value and a playout
 * (MCTS_MIX_NET's 50%) had 72.3% of 600 (session 39) and 75.5% of 200
 * (session 41), and the blend given to the playout leaves only, the others
 * still drawn, 73.5% of 200. */
#define MCTS_MIX_BLEND 50

/* eval=mix under order=net: implicit minimax (Lanctot, Winands, Pepels and
 * Sturtevant, "Monte Carlo Tree Search with Heuristic Evaluations using
 * Implicit Minimax Backups", 2014). Each node keeps, beside its mean, the
 * minimax of the network's values below it: a leaf's is its network
 * value, a node's the best for its mover of its children's and of its
 * best move not yet made a child (order=net's slots). Selection ranks a
 * child by its mean moved MCTS_IMPLICIT_WEIGHT of the way to that value.
 * Head to head at 90 ms a move (session 43, a throwaway build: `noughts
 * match "mcts:time=90" "mcts:time=90" --game uttt --tiebreak --games 100
 * --seed S`, A with it, two at once, a core each): 0.3 58.0, 50.0,
 * 53.5, 53.5% (S = 1, 2, 7, 8: 53.6% of 400), 0.5 52.0, 52.5% (S = 3, 4),
 * 0.4 53.0, 49.0% (S = 5, 6): 52.7% of 800, about +19 Elo. Against
 * playouts (`noughts match "mcts:time=90" "mcts:time=90,eval=rollout"
 * ...`) 0.3 74.0, 77.0% (S = 1, 2) and, the shipped build, 74.5, 80.5%
 * (S = 9, 10): 76.5% of 400, where the blend alone had 76.1% of 800. As
 * CodinGame bots through tests/referee (`-t -g uttt -n 100 -s S`, S = 11,
 * 12), the shipped bot against the one before it: 56.0, 60.5 (58.2%). It
 * costs about a tenth of bench's mix iterations/s (0.72M against 0.79M),
 * most of it the tree it grows rather than the update: at equal time it
 * pays for itself. */
#define MCTS_IMPLICIT_WEIGHT 0.3

/* The move played (mcts_best_move()): of the children with at least this
 * share of the most visited one's visits, the one with the best mean, not
 * the most visited: when the time runs out, a move whose value has just
 * overtaken the most visited one's has not caught up on visits. Against
 * playouts (`noughts match "mcts:time=90" "mcts:time=90,eval=rollout"
 * --game uttt --tiebreak --games 200 --seed S`, two at once, a core each;
 * session 50, a throwaway build): S = 11, 12, 13 80.5, 75.2, 82.8%
 * (79.5% of 600: 442 won, 70 drawn, 88 lost) where the most visited
 * child scored 78.0, 76.8, 79.0% (77.9% of 600) with the same seeds;
 * S = 14 80.8%. +1.6 points on 600 paired games: within their noise,
 * but the best of the changes measured since session 45. Its neighbours
 * at S = 11 (session 51, a throwaway build): a share of 0.3 77.2%, 0.7
 * 75.2%; the match as written (400 games) 78.8%. */
#define MCTS_CHOICE_SHARE 0.5

/* ... once the most visited child has this many visits: on a few dozen
 * the means are noise, and a move that loses can look better than the
 * most visited one, a draw not yet proven (tests/test-mcts-exact.c, ttt
 * after c1 a1 a2 at 21-80 iterations). At 90 ms a move the most visited
 * child of a UTTT root has thousands. */
#define MCTS_CHOICE_VISITS 1000

/* eval=mix: the visits a node's network value counts as. Tuned on UTTT
 * (stage 5 network, 2000 iterations, 400 games against playouts, the value
 * then given to every new node): 2 59.1%, 8 65.2%, 20 69.5%, 50 61.6%.
 * It is given on a node's second visit: most leaves are never visited
 * again, and the network's share of an iteration falls from about 4,100
 * instructions to 1,450. At 90 ms a move against playouts (100 games a
 * seed, the same hour, about half a core each): 58.5, 50.5, 46.5% (seeds
 * 1-3) where the first visit scored 47.5, 40.0, 48.5%; the fourth visit
 * 53.0% (seed 1). On an idle machine (seeds 5, 6): 50.0, 51.5% against
 * 52.5, 50.0%. The stage 10 network (trained to predict a 64-iteration
 * playout search's value, so its value stands for that many playouts), on
 * the second visit, against playouts at 2000 iterations (200 games, seeds
 * 1, 2): 8 71.5% (seed 1), 20 63.5, 65.8%, 50 72.8, 68.2%; at 90 ms a move
 * (100 games a seed, two matches at once, a core each) 20 53.0% (seed
 * 1), 50 58.0, 51.5, 59.5, 52.5% (seeds 1-4: 55.4%; stage 8 with 20 scored
 * 49.8% in 400 games); stage 11 with 50: 57.4% (400 games). */
#define MCTS_MIX_PRIOR 50

/* In what order a node's children are made, and how many. */
enum mcts_order {
	MCTS_ORDER_AUTO = -1, /* NET where the leaf evaluator has kids() and
	                         the eval is not ROLLOUT, else FIXED */
	MCTS_ORDER_FIXED = 0, /* every legal move, in an order the position's
	                         hash draws, each tried once before any twice */
	MCTS_ORDER_NET = 1,   /* best first by the evaluator's value of each
	                         (kids(), for the whole block when its first
	                         child is made), each child given that value as
	                         its prior (eval=mix) when made; and below the
	                         root only as many as the node's visits allow:
	                         fewer than MCTS_WIDEN_BASE + MCTS_WIDEN_RATE *
	                         sqrt(visits) (progressive widening) */
};

/* order=net's widening, tuned on UTTT at 90 ms a move (`noughts match
 * "mcts:time=90" "mcts:time=90,E" --game uttt --tiebreak --games 100 --seed
 * 3`, two at once, a core each; the visits count the prior's, so a child
 * just made, with 50, may have 8 at once), against E = eval=rollout and
 * order=fixed: 1 + 0.35 sqrt(n) 67.0% and 57.0%, 2 + 0.5 sqrt(n) 68.5% and
 * 63.0%, 3 + 0.7 sqrt(n) 66.0% and 68.0%, 4 + sqrt(n) 62.5%
 * against order=fixed. At 5,000 iterations a move (--seed 1)
 * against order=fixed: 1 + 0.35 sqrt(n) 72.5%, its children valued by
 * leaf() one at a time and their priors still given on their second visit;
 * ordered so but every move made in turn, 42.5%; widened in the hash order
 * 35.0%. Again with the prior of MCTS_ORDER_PRIOR's 25 visits (session 35,
 * against eval=rollout, 100 games a seed, S = 1, 2 unless said): 3 +
 * 0.7 sqrt(n) 74.0, 72.5, 71.5% (S = 1-3), 3 + 0.5 sqrt(n) 75.5, 75.0,
 * 79.0, 71.0% (S = 1-4), 3 + 0.35 sqrt(n) 72.0, 72.5%, 3 + sqrt(n) 72.5,
 * 66.5%, 2 + 0.5 sqrt(n) 72.5, 70.5%, 4 + 0.7 sqrt(n) 65.0, 63.0%. */
#define MCTS_WIDEN_BASE 3
#define MCTS_WIDEN_RATE 0.5

/* order=net under eval=mix: the visits a new child's network value counts
 * as, where MCTS_MIX_PRIOR is the second-visit prior's; MCTS_MIX_NET
 * applies as it is (its share of new leaves, tried here too, the value
 * known already from the ordering). At 90 ms a move against playouts
 * (`noughts match "mcts:time=90" "mcts:time=90,eval=rollout" --game uttt
 * --tiebreak --games 100 --seed S`, two at once, a core each; session 34):
 * 50 visits, 33% (MCTS_MIX_PRIOR's and MCTS_MIX_NET's then) 68.8, 69.8% (S = 1,
 * 2, 200 games each); 25, 33% 74.0, 72.5, 71.5% (S = 1-3); 10, 33% 68.0%
 * (S = 1); 100, 33% 54.0% (S = 1); 50, 66% 71.0, 75.5, 69.5% (S = 1-3);
 * 25, 66% 63.0, 75.5% (S = 1, 2); 50, 100% 60.0% (S = 1); 50, 0% 65.0%
 * (S = 1). And c under 50, 33%: 0.25 61.5%, 0.55 68.0% (S = 1). */
#define MCTS_ORDER_PRIOR 25

/* A leaf evaluator: a value for a position just added to the tree instead
 * of a playout (eval=net), or for a node on its second visit as its prior
 * (eval=mix). The search keeps CTX_SIZE bytes of state about its root,
 * which ROOT fills whenever the root changes, and LEAF reads. */
struct mcts_leaf_eval {
	size_t ctx_size;
	void (*root)(const void *model, const struct pos *root, void *ctx);
	/* X's expected score in LEAF (not over), on [0, 1]. LEAF follows ROOT,
	 * whose state is CTX, by some moves. Reads MODEL and CTX only. */
	double (*leaf)(const void *model, const void *ctx, const struct pos *root,
		       const struct pos *leaf);
	/* (NULL where the evaluator has none) leaf() of each of the COUNT
	 * positions KIDS (not over), each one move from POS (not over,
	 * following ROOT), into VALUE: the same numbers, computed from POS's
	 * state, so that a node's children cost little more than one leaf
	 * (order=net). */
	void (*kids)(const void *model, const void *ctx, const struct pos *root,
		     const struct pos *pos, const struct pos *kids, int count, double *value);
	const void *model;
};

/* How threads share the search (threads > 1). */
enum mcts_parallel {
	MCTS_PARALLEL_AUTO = 0,     /* PIPELINE on 2 threads (but eval=net), else TREE */
	MCTS_PARALLEL_TREE = 1,     /* every worker walks and writes the one tree */
	MCTS_PARALLEL_PIPELINE = 2, /* worker 0 walks and writes the tree, the
	                               others play out the leaves it hands them
	                               (mcts-pipe.c) */
};

struct mcts_params {
	double c;          /* exploration constant (>= 0) */
	int rollout;       /* enum rollout_policy */
	bool solver;       /* back up proven wins, losses and draws */
	size_t memory;     /* bytes for the node arena */
	uint64_t seed;     /* with one thread, fixes every random choice of the search */
	int threads;       /* workers on the one tree, 1 to MCTS_MAX_THREADS */
	int parallel;      /* enum mcts_parallel (mcts_params_of(): never AUTO) */
	int eval;          /* enum mcts_eval (not AUTO); ROLLOUT when leaf is NULL */
	int order;         /* enum mcts_order (mcts_params_of(): never AUTO) */
	const struct mcts_leaf_eval *leaf; /* must outlive the search */
};

/* Fill P with the defaults: MCTS_DEFAULT_C, smart rollouts, solver on,
 * MCTS_DEFAULT_MEMORY_MB, seed 1, one thread, playouts (no leaf evaluator),
 * the order AUTO. */
void mcts_params_default(struct mcts_params *p);

struct mcts;

/* A search of position ROOT of game G (which must outlive it). Allocates
 * the arena once; never returns NULL (fatal() when memory runs out). */
struct mcts *mcts_new(const struct game *g, const struct pos *root, const struct mcts_params *p);
void mcts_free(struct mcts *m);

/* Run up to N iterations on the search's threads, and return how many ran:
 * fewer than N only when the root is solved exactly, its distance included
 * (with the solver on), the root has no moves, or DEADLINE (a now_ns()
 * time; 0 for none, checked every few dozen iterations) has passed. Every
 * worker has stopped when it returns, so the tree can be read until the
 * next run. A full arena does not stop the search: it keeps iterating on
 * the tree it has. With one thread and a seed the search is the same
 * whatever the runs' sizes; with more, the workers' timing changes which
 * iterations run, so results vary. */
uint64_t mcts_run(struct mcts *m, uint64_t n, uint64_t deadline);

/* mcts_run(M, N, 0) for N >= 0. */
int mcts_step(struct mcts *m, int n);

/* True when no iteration can run: the root is solved exactly or the game
 * over. */
bool mcts_finished(const struct mcts *m);

/* Threads the search runs on. */
int mcts_threads(const struct mcts *m);

/* The parameters M runs with (eval resolved: never MCTS_EVAL_AUTO). */
const struct mcts_params *mcts_params_of(const struct mcts *m);

/* One iteration, recorded for the iteration inspector. */
struct mcts_trace {
	int path_len;                  /* moves from the root to the selected leaf */
	uint8_t path[GAME_MAX_PLIES];
	int expanded;                  /* move of the node added, -1 if none */
	int rollout_len;               /* moves of the playout after the leaf */
	uint8_t rollout[GAME_MAX_PLIES];
	int result;                    /* enum result of the playout */
	double value;                  /* what was backed up: X's score, 0 to 1 */
	bool estimate;                 /* VALUE came from a leaf evaluator (eval=net),
	                                  not a result (RESULT is then meaningless) */
	bool prior;                    /* (eval=mix) the evaluator's value went in
	                                  as a prior: order=fixed, to the path's
	                                  last node before the new one, on its
	                                  second visit; order=net, to the new one */
	bool ran;                      /* false: root solved or without moves */
};
/* Run exactly one iteration and describe it in T. Same tree effect as
 * mcts_step(m, 1) (the playout may use other random numbers). */
void mcts_step_trace(struct mcts *m, struct mcts_trace *t);

/* The move to play now, never worse than the best proven result: a proven
 * win if there is one, the quickest known; else, among the children not
 * proven lost, the one with the highest mean (as the selection sees it,
 * implicit minimax's share included) of those with at least
 * MCTS_CHOICE_SHARE of the most visited one's visits (once it has
 * MCTS_CHOICE_VISITS), where a child that may lose is preferred to a
 * proven draw only when the lower confidence bound of its value (mean -
 * 1/sqrt(visits)) is above 1/2; else a proven draw; else the slowest loss,
 * or an untried move. MOVE_NONE when the root has no moves. Runs no
 * iteration. */
int mcts_best_move(const struct mcts *m);

/* Make MOVE (legal in the root position) the new root, keeping its subtree
 * and giving the rest of the arena back. */
void mcts_advance(struct mcts *m, int move);

/* From now on (KEEP) mcts_advance() only sets the discarded subtree aside,
 * in time that does not depend on its size, and mcts_tidy() gives back
 * what was set aside: for a caller whose clock runs when a move comes in
 * (the bot) and that has time later. A search whose arena fills while
 * subtrees wait gives them back before its next run; a few wait at most,
 * and an advance past those gives its own back at once. Returns whether
 * mcts_tidy() had anything to do; same search results either way. */
void mcts_keep_discards(struct mcts *m, bool keep);
bool mcts_tidy(struct mcts *m);

/* The root position. */
const struct pos *mcts_root(const struct mcts *m);

/* Statistics of one child, from the mover's point of view. */
struct mcts_child {
	int move;
	uint32_t visits, wins, draws, losses;
	double value;     /* (wins + draws / 2) / visits, 0 when unvisited */
	double uct;       /* UCT value now; HUGE_VAL when unvisited */
	int proven;       /* enum proof of the outcome */
	int proven_plies; /* plies to the end under best play once settled
	                     exactly (a proven win or loss stays searched for
	                     its distance until then); -1 before that and for
	                     draws, whose length is not kept */
	double net;       /* the leaf evaluator's value of the position after the
	                     move for the side making it; NAN without an
	                     evaluator or when the move ends the game */
	double implicit;  /* (eval=mix under order=net) its implicit minimax
	                     value for the side making the move (see
	                     MCTS_IMPLICIT_WEIGHT); NAN otherwise */
};

/* Totals of the search. */
struct mcts_totals {
	uint64_t iterations;    /* run since mcts_new() or the last advance */
	double seconds;         /* time spent inside mcts_step() */
	double per_second;      /* iterations / seconds */
	uint64_t nodes;         /* nodes in the tree */
	size_t memory_used;     /* bytes of nodes in use */
	size_t memory_limit;    /* bytes of the arena */
	bool arena_full;        /* expansion stopped for lack of nodes */
	int max_depth;          /* deepest node below the root, in plies */
	int threads;            /* threads searching */
	int root_proven;        /* enum proof of the root from the side to move's
	                           view: PROOF_WIN means the side to move wins */
	int root_proven_plies;  /* as mcts_child's proven_plies */
	uint32_t root_visits;
	int pv_len;             /* the line the search would play from the node
	                           mcts_stats() was asked about (the root's for
	                           no path), a move at each node as best_move */
	uint8_t pv[MCTS_PV_MAX];
};

/* Copy the statistics of the children of the node reached from the root by
 * the PATH_LEN moves of PATH (0: the root) into OUT (room for MAX), sorted by
 * visits, most first; fill TOTALS if not NULL (the search's totals, the
 * line from that node: the tree browser's). Returns the number of
 * children copied, or -1 when the path does not lead to a node in the tree. */
int mcts_stats(const struct mcts *m, const uint8_t *path, int path_len, struct mcts_child *out,
	       int max, struct mcts_totals *totals);

/* sqrt(ln N) as the selection computes it: exact to the table's end,
 * within 6e-4 past it. A child's exploration term is c times this for its
 * parent's visits, over the square root of its own. */
double mcts_sqrt_log(uint32_t n);

/* Bytes one node takes in the arena. */
size_t mcts_node_bytes(void);

/* Fault in up to BYTES of the arena not yet resident (huge_prefault()), no
 * further than AHEAD bytes past the slots handed out so far: for a caller
 * with time before its next search (the bot between turns). Returns the
 * bytes faulted in, 0 when there is none to do. No workers running. */
size_t mcts_prefault(struct mcts *m, size_t bytes, size_t ahead);

#endif
