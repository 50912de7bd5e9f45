/* test-arena.c - where MCTS nodes live (src/mcts-arena.c), seen through
 * the search's own figures: the memory a tree holds, what an advance gives
 * back, and that what is given back is used again, blocks of every size
 * included, on one thread and on several (NOUGHTS_TEST_THREADS, else 2).
 * A whole game of Ultimate tic-tac-toe with tree reuse runs in an arena
 * a few moves' trees fill: it never fills if freed blocks are reused.
 * And huge_prefault() and mcts_prefault(), which fault in such memory
 * ahead of use, and arena_fault_ahead() (mcts-node.h), the pipeline
 * player's way of doing it while it waits. And log_big(), the search's ln n past its tables,
 * and the root's scan on SIMD lanes against the scalar loop. And the
 * subtrees an advance sets aside for later (mcts_keep_discards()). */
#include "config.h"

#define _DEFAULT_SOURCE 1 /* (mincore(), beyond the POSIX the build asks for) */

#include "mcts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mcts-node.h"
#include "nnue.h"
#include "tap.h"
#include "util.h"

static struct game game;

static void setup(const char *name, struct pos *pos)
{
	char err[200];

	if (game_init(&game, name, 0, err, sizeof(err)) != 0) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
	game_start(&game, pos);
}

/* A search of POS with a seed, on THREADS sharing it by PARALLEL; with
 * NET, eval=mix with the game's network (and so order=net). */
static struct mcts *search_by(const struct pos *pos, int threads, enum mcts_parallel parallel,
			      size_t memory, bool net)
{
	struct mcts_params p;

	mcts_params_default(&p);
	p.seed = 5;
	p.threads = threads;
	p.parallel = parallel;
	p.memory = memory;
	if (net) {
		p.eval = MCTS_EVAL_MIX;
		p.leaf = nnue_leaf_eval(nnue_builtin(&game));
	}
	return mcts_new(&game, pos, &p);
}

static struct mcts *search(const struct pos *pos, int threads, size_t memory)
{
	return search_by(pos, threads, MCTS_PARALLEL_AUTO, memory, false);
}

/* Memory against nodes after a search: every node has a slot, and a
 * node's block holds a slot for each legal move of its parent, so the
 * memory lies between one and GAME_MAX_MOVES slots a node. */
static void test_memory(int threads)
{
	struct pos pos;
	struct mcts_totals t;
	struct mcts *m;
	size_t node = mcts_node_bytes();

	setup("uttt", &pos);
	m = search(&pos, threads, (size_t)64 << 20);
	mcts_run(m, 30000, 0);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(t.nodes > 1 && t.memory_used >= t.nodes * node &&
		   t.memory_used <= t.nodes * node * GAME_MAX_MOVES && !t.arena_full,
	   "%d thread(s): %llu nodes in %zu bytes (%.2f slots a node)", threads,
	   (unsigned long long)t.nodes, t.memory_used, (double)t.memory_used / (double)(t.nodes * node));
	mcts_free(m);
}

/* A game played to its end with tree reuse: after each advance the memory
 * is that of the subtree kept; and the arena, twice the largest tree
 * (about 4 MiB) but far smaller than all the memory the game's searches
 * take, never fills: the blocks the advances gave back are used again,
 * large ones too (a node sent to a closed board has up to 81 moves).
 * They are used before the arena's untouched top: the slots ever handed
 * out stay near what the largest tree took (fragments of free slots too
 * small for a region wait until the top is used up). */
static void test_game(int threads)
{
	struct pos pos;
	struct mcts_totals t;
	struct mcts *m;
	size_t limit = (size_t)8 << 20, peak = 0, total = 0, kept = 0;
	int moves = 0, shrunk = 0, full = 0;

	setup("uttt", &pos);
	m = search(&pos, threads, limit);
	while (!game_over(mcts_root(m))) {
		size_t before;

		mcts_run(m, 12000, 0);
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		before = t.memory_used;
		full += t.arena_full;
		peak = before > peak ? before : peak;
		total += before - kept;
		mcts_advance(m, mcts_best_move(m));
		mcts_stats(m, NULL, 0, NULL, 0, &t);
		kept = t.memory_used;
		shrunk += t.memory_used < before && t.memory_used >= t.nodes * mcts_node_bytes();
		moves++;
	}
	ok(moves > 10 && full == 0 && total > 2 * limit,
	   "%d thread(s): a %d-move game in a %zu-byte arena never fills it (%zu bytes taken by "
	   "the searches in all, %zu at most at once)", threads, moves, limit, total, peak);
	ok(shrunk == moves, "%d thread(s): every advance gives memory back (%d of %d)", threads,
	   shrunk, moves);
	ok(m->top * mcts_node_bytes() <= peak + peak / 2,
	   "%d thread(s): the game used %zu bytes of the arena, its largest tree %zu",
	   threads, (size_t)m->top * mcts_node_bytes(), peak);
	mcts_free(m);
}

/* Have the N children A and B (of mcts_stats()) the same moves and counts? */
static bool same_counts(const struct mcts_child *a, const struct mcts_child *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].move != b[i].move || a[i].visits != b[i].visits ||
		    a[i].wins != b[i].wins || a[i].draws != b[i].draws)
			return false;
	return true;
}

/* Do two searches' root children have the same moves and counts? */
static bool same_children(struct mcts *a, struct mcts *b)
{
	struct mcts_child ca[GAME_MAX_MOVES], cb[GAME_MAX_MOVES];
	int n = mcts_stats(a, NULL, 0, ca, GAME_MAX_MOVES, NULL);

	return mcts_stats(b, NULL, 0, cb, GAME_MAX_MOVES, NULL) == n && same_counts(ca, cb, n) &&
	       mcts_best_move(a) == mcts_best_move(b);
}

/* mcts_keep_discards() (the bot's): an advance that sets the discarded
 * subtree aside leaves the search as it was. With one thread and a seed,
 * after every move of a game the same root children's counts and move as
 * a search that gives the subtree back at once; the set-aside subtrees
 * hold their memory until mcts_tidy(), after which the memory used is the
 * same. Given back every second move, as the bot does after its answer
 * (its own move and the opponent's wait). */
static void test_discards(bool net)
{
	struct pos pos;
	struct mcts_totals ta, tb;
	struct mcts *a, *b;
	int moves = 0, same = 0, held = 0, tidied = 0, tidies = 0;

	setup("uttt", &pos);
	a = search_by(&pos, 1, MCTS_PARALLEL_AUTO, (size_t)64 << 20, net);
	b = search_by(&pos, 1, MCTS_PARALLEL_AUTO, (size_t)64 << 20, net);
	mcts_keep_discards(b, true);
	while (!game_over(mcts_root(a)) && moves < 16) {
		int move;

		mcts_run(a, 4000, 0);
		mcts_run(b, 4000, 0);
		same += same_children(a, b);
		move = mcts_best_move(a);
		mcts_advance(a, move);
		mcts_advance(b, move);
		moves++;
		if (moves % 2 == 0) {
			mcts_stats(a, NULL, 0, NULL, 0, &ta);
			mcts_stats(b, NULL, 0, NULL, 0, &tb);
			held += tb.memory_used > ta.memory_used;
			tidies++;
			if (mcts_tidy(b) && !mcts_tidy(b)) {
				mcts_stats(b, NULL, 0, NULL, 0, &tb);
				tidied += tb.memory_used == ta.memory_used && tb.nodes == ta.nodes;
			}
		}
	}
	ok(moves == 16 && same == moves,
	   "%s: set-aside subtrees leave the search as it was: the same root children and "
	   "move after %d of %d moves", net ? "eval=mix" : "playouts", same, moves);
	ok(tidies > 0 && held == tidies && tidied == tidies,
	   "%s: they hold their memory until mcts_tidy() (%d of %d), then the same memory and "
	   "nodes as subtrees given back at once (%d)", net ? "eval=mix" : "playouts", held,
	   tidies, tidied);
	mcts_free(a);
	mcts_free(b);
}

/* A search whose arena fills while a subtree waits gives it back before
 * its next run, which then has room again. */
static void test_discards_full(void)
{
	struct pos pos;
	struct mcts_totals t;
	struct mcts *m;
	bool filled;

	setup("uttt", &pos);
	m = search(&pos, 1, (size_t)1 << 20);
	mcts_keep_discards(m, true);
	mcts_run(m, 20000, 0);
	mcts_advance(m, mcts_best_move(m));
	mcts_run(m, 200000, 0);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	filled = t.arena_full;
	mcts_run(m, 1000, 0);
	mcts_stats(m, NULL, 0, NULL, 0, &t);
	ok(filled && !t.arena_full && !mcts_tidy(m),
	   "an arena that fills while a subtree waits: the next run gives it back (full %d, "
	   "then %d; nothing left waiting)", filled, t.arena_full);
	mcts_free(m);
}

/* Under node N, whose position is POS: has every node children for
 * distinct legal moves, a slot in its block for each legal move, no more
 * children than that? Counts the nodes in *SEEN. */
static bool children_ok(const struct mcts *m, uint32_t n, const struct pos *pos, long *seen)
{
	const struct node *node = &m->nodes[n];
	struct moveset legal, made;
	uint32_t base;
	int k = kids_of(node, &base);

	++*seen;
	if (k == 0)
		return true;
	game_legal(&game, pos, &legal);
	if (k > node->cap || node->cap != moveset_count(&legal))
		return false;
	moveset_clear(&made);
	/* (order=net) every slot of an ordered block holds a move: all of them */
	for (int i = 0; i < node->cap && (node->flags & NODE_ORDERED); i++) {
		int move = m->nodes[base + (uint32_t)i].move;

		if (!moveset_has(&legal, move) || moveset_has(&made, move))
			return false;
		moveset_add(&made, move);
	}
	moveset_clear(&made);
	for (int i = 0; i < k; i++) {
		const struct node *c = &m->nodes[base + (uint32_t)i];
		struct pos next = *pos;

		if (!moveset_has(&legal, c->move) || moveset_has(&made, c->move))
			return false;
		moveset_add(&made, c->move);
		game_play(&game, &next, c->move);
		if (!children_ok(m, base + (uint32_t)i, &next, seen))
			return false;
	}
	return true;
}

/* Children are made in an order their parent's position draws, without
 * looking at the ones made (but for a move that wins at once): searches
 * of each game and way of sharing the tree, and the roots that advances
 * moved to slots of their own, which go on making children, never make a
 * move twice nor one that is not legal. */
static void test_children(const char *name, int threads, enum mcts_parallel parallel, bool net)
{
	struct pos pos;
	struct mcts *m;
	long seen = 0;
	bool fine = true;

	setup(name, &pos);
	m = search_by(&pos, threads, parallel, (size_t)32 << 20, net);
	if (net && mcts_params_of(m)->order != MCTS_ORDER_NET)
		fine = false;
	for (int ply = 0; ply < 4 && fine && !game_over(mcts_root(m)); ply++) {
		mcts_run(m, 20000, 0);
		fine = children_ok(m, m->root, mcts_root(m), &seen);
		mcts_advance(m, mcts_best_move(m));
	}
	ok(fine && seen > 4 * 1000, "%s, %d thread(s)%s%s: the children of %ld nodes are distinct legal moves",
	   name, threads, parallel == MCTS_PARALLEL_TREE ? " sharing the tree" : "",
	   net ? ", order=net (every slot)" : "", seen);
	mcts_free(m);
}

/* Is the 2 MiB chunk K of P resident (its last small page, as
 * huge_prefault() looks)? */
static bool chunk_in(char *p, int k)
{
	size_t small = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char in = 0;

	return mincore(p + ((size_t)k + 1) * (2u << 20) - small, small, &in) == 0 &&
	       (in & 1);
}

/* Is the page holding P resident? */
static bool page_in(const char *p)
{
	size_t small = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char in = 0;

	return mincore((void *)((uintptr_t)p / small * small), small, &in) == 0 && (in & 1);
}

/* huge_prefault() faults in huge_alloc() memory from its start, a chunk at
 * a time, skipping what is resident, without touching what it holds, no
 * further than asked and only in the allocation named. */
static void test_prefault(void)
{
	const size_t mib = 1u << 20;
	char *p = huge_alloc(8 * mib), *q;

	p[4 * mib - 1] = 42; /* chunk 1 in use */
	if (huge_prefault(p, SIZE_MAX, 2 * mib) == 0) {
		ok(1, "# SKIP the system cannot fault memory in ahead (MADV_POPULATE_WRITE)");
		huge_free(p, 8 * mib);
		return;
	}
	ok(chunk_in(p, 0) && !chunk_in(p, 2) && !chunk_in(p, 3),
	   "prefault: 2 MiB asked, the first chunk comes in, not the later ones");
	ok(huge_prefault(p, 5 * mib, 8 * mib) == 2 * mib && chunk_in(p, 2) && !chunk_in(p, 3),
	   "prefault: the resident chunk 1 is skipped, chunk 2 comes in, not past 5 MiB");
	ok(huge_prefault(p, 5 * mib, 8 * mib) == 0, "prefault: nothing more up to 5 MiB");
	q = huge_alloc(4 * mib);
	ok(huge_prefault(q, SIZE_MAX, 2 * mib) == 2 * mib && chunk_in(q, 0) && !chunk_in(p, 3),
	   "prefault: another allocation, and only it");
	ok(huge_prefault(p, SIZE_MAX, 8 * mib) == 2 * mib && chunk_in(p, 3),
	   "prefault: the rest, chunk 3");
	ok(p[4 * mib - 1] == 42 && p[0] == 0 && p[6 * mib] == 0,
	   "prefault: contents kept, new memory zero");
	ok(huge_prefault(p, SIZE_MAX, 4 * mib) == 0, "prefault: nothing left once all is resident");
	ok(huge_prefault(NULL, SIZE_MAX, 4 * mib) == 0, "prefault: nothing for no allocation");
	huge_free(q, 4 * mib);
	huge_free(p, 8 * mib);
}

/* huge_free() keeps a mapping for the next huge_alloc() of its size, which
 * gets it back zeroed, its pages still resident (on a virtual machine a
 * fresh page can cost a fault to the host); one of another size is mapped
 * anew. */
static void test_spare(void)
{
	const size_t mib = 1u << 20;
	char *p = huge_alloc(8 * mib), *q;
	bool zero = true;

	memset(p, 7, 2 * mib);
	p[6 * mib + 5] = 9;
	huge_free(p, 8 * mib);
	q = huge_alloc(8 * mib);
	for (size_t i = 0; i < 8 * mib; i++)
		zero = zero && q[i] == 0;
	ok(q == p && zero && chunk_in(q, 0),
	   "spare: the same size gets the freed mapping back, zeroed and resident");
	huge_free(q, 8 * mib);
	q = huge_alloc(4 * mib);
	ok(q[0] == 0 && q[4 * mib - 1] == 0, "spare: another size gets zeroed memory");
	huge_free(q, 4 * mib);
}

/* arena_fault_ahead() faults in the arena up to 4 MiB past the slots
 * handed out, a step at a time, not beyond, leaving the tree as it was;
 * and never past the end of an arena (a small one, from calloc(), it
 * cannot fault in at all). */
static void test_fault_ahead(void)
{
	const size_t mib = 1u << 20, step = 64u << 10;
	struct mcts_child before[GAME_MAX_MOVES], after[GAME_MAX_MOVES];
	struct pos pos;
	struct mcts *m;
	size_t done = 0, want;
	int calls = 0, n;

	setup("uttt", &pos);
	m = search(&pos, 1, 32 * mib);
	mcts_step(m, 2000);
	n = mcts_stats(m, NULL, 0, before, GAME_MAX_MOVES, NULL);
	want = ((size_t)m->top * sizeof(struct node) + 4 * mib) / step * step;
	while (arena_fault_ahead(m, &done))
		calls++;
	if (done == SIZE_MAX) {
		ok(1, "# SKIP the system cannot fault memory in ahead (MADV_POPULATE_WRITE)");
	} else {
		ok(calls > 0 && done == want && page_in((char *)m->nodes + want - 1) &&
		   !chunk_in((char *)m->nodes, (int)(want / (2 * mib)) + 1),
		   "fault ahead: the arena comes in up to 4 MiB past its top, not further "
		   "(%zu of %zu bytes, in %d steps)", done, want, calls);
		bool same = mcts_stats(m, NULL, 0, after, GAME_MAX_MOVES, NULL) == n && n > 0 &&
			    same_counts(before, after, n);

		ok(same, "fault ahead: the tree is as it was (%d children of the root)", n);
	}
	mcts_free(m);
	m = search(&pos, 1, mib);
	done = 0;
	while (arena_fault_ahead(m, &done) && done <= mib)
		;
	ok(done == SIZE_MAX || done <= mib, "fault ahead: never past a small arena's end");
	mcts_free(m);
}

/* mcts_prefault() faults in the arena and its bitmap up to AHEAD past the
 * slots handed out, in the steps asked for, and no further. */
static void test_mcts_prefault(void)
{
	const size_t mib = 1u << 20;
	struct pos pos;
	struct mcts *m;
	size_t total = 0, most = 0, d, upto;
	int calls = 0;

	setup("uttt", &pos);
	m = search(&pos, 1, 256 * mib);
	mcts_step(m, 2000);
	upto = (size_t)m->top * sizeof(struct node) + 8 * mib;
	while ((d = mcts_prefault(m, 2 * mib, 8 * mib)) > 0 && calls < 100) {
		most = d > most ? d : most;
		total += d;
		calls++;
	}
	if (calls == 0) {
		ok(1, "# SKIP the system cannot fault memory in ahead (MADV_POPULATE_WRITE)");
	} else {
		ok(page_in((char *)m->nodes + upto - 1) && page_in((char *)m->free_bits) &&
		   !chunk_in((char *)m->nodes, (int)(upto / (2 * mib)) + 1) && most <= 2 * mib,
		   "mcts_prefault: the arena comes in up to 8 MiB past its top, not further, "
		   "2 MiB a call at most (%zu bytes in %d calls)", total, calls);
	}
	ok(mcts_prefault(m, 2 * mib, 8 * mib) == 0, "mcts_prefault: then nothing is left to do");
	mcts_free(m);
}

/* The larger of *WORST and sqlog_of(N)'s distance from sqrt(log(N)), and
 * where; *FALLS counts an N whose value is below N - 1's. */
static void sqlog_error(uint32_t n, double *worst, uint32_t *at, int *falls)
{
	double err = fabs(sqlog_of(n) - sqrt(log(n)));

	if (err > *worst) {
		*worst = err;
		*at = n;
	}
	*falls += sqlog_of(n) < sqlog_of(n - 1);
}

/* sqlog_of() (mcts-node.h), the exploration term's sqrt(ln n): the table's
 * values exactly, past it within 6e-4 of libm's, never falling as n grows:
 * at every n from the table's end to 2^20, at a spread of larger n, and at
 * each larger power of two and its neighbours (where the exponent
 * changes). */
static void test_sqlog(void)
{
	struct pos pos;
	struct mcts *m;
	double worst = 0;
	uint32_t at = 0;
	int falls = 0, exact = 0;

	setup("uttt", &pos);
	m = search(&pos, 1, 8); /* (the tables are made with the first search) */
	for (uint32_t n = 1; n < SMALL; n++)
		exact += sqlog_of(n) == sqrt(log(n));
	for (uint64_t n = SMALL; n <= UINT32_MAX; n = n < 1u << 20 ? n + 1 : n * 1.0001 + 1)
		sqlog_error((uint32_t)n, &worst, &at, &falls);
	for (int e = 20; e < 32; e++) {
		sqlog_error((1u << e) - 1, &worst, &at, &falls);
		sqlog_error(1u << e, &worst, &at, &falls);
		sqlog_error((1u << e) + 1, &worst, &at, &falls);
	}
	sqlog_error(UINT32_MAX, &worst, &at, &falls);
	ok(exact == SMALL - 1, "sqlog_of() is sqrt(log(n)) below %d (%d of %d)", SMALL, exact,
	   SMALL - 1);
	ok(worst < 6e-4 && worst > 0, "sqlog_of() within 6e-4 of sqrt(log(n)) past them (worst %.3g at %u)",
	   worst, at);
	ok(falls == 0, "sqlog_of() never falls as n grows (%d falls)", falls);
	mcts_free(m);
}

/* The root's scan (mcts-root.c) on every path this processor has: the
 * same entry as the scalar loop's, the first of equal scores, over roots
 * of 0 to 81 children whose scores tie often (a few values of each term),
 * some passed over (-inf), some all passed over. */
static void test_root_argmax(void)
{
	static const double qs[] = { 0.0, 0.25, 0.5, 0.75, 1.0, -HUGE_VAL };
	static const double rs[] = { 1.0, 0.5, 0.25, 0.125 };
	static const char *name[] = { "scalar", "SSE2", "AVX", "AVX-512" };
	struct root_cache rc;
	struct pos pos;
	struct mcts *m;
	struct rng r;
	int wrong[4] = { 0 }, ran[4] = { 0 }, ties = 0;

	setup("uttt", &pos);
	m = search(&pos, 1, 8); /* (the processor is looked at with the first search) */
	rng_seed(&r, 7);
	for (int round = 0; round < 4000; round++) {
		double explore = round % 3 == 0 ? 0.5 : 1.0 / (1 + (int)rng_below(&r, 4));
		int want, seen = 0;

		rc.n = round % (GAME_MAX_MOVES + 1);
		for (int j = 0; j < rc.n; j++) {
			rc.q[j] = round % 97 == 0 ? -HUGE_VAL : qs[rng_below(&r, ARRAY_SIZE(qs))];
			rc.rsqrt[j] = rs[rng_below(&r, ARRAY_SIZE(rs))];
		}
		want = root_argmax_on(&rc, explore, ROOT_LANES_SCALAR);
		for (int j = 0; j < rc.n; j++)
			seen += want >= 0 && rc.q[j] + explore * rc.rsqrt[j] ==
						     rc.q[want] + explore * rc.rsqrt[want];
		ties += seen > 1;
		for (int l = ROOT_LANES_SSE2; l <= ROOT_LANES_AVX512; l++) {
			int got = root_argmax_on(&rc, explore, (enum root_lanes)l);

			if (got == -2)
				continue;
			ran[l]++;
			wrong[l] += got != want;
		}
	}
	ok(ties > 1000, "root scan: %d of 4000 roots have a tie for the best", ties);
	for (int l = ROOT_LANES_SSE2; l <= ROOT_LANES_AVX512; l++) {
		if (ran[l] == 0)
			ok(1, "# SKIP root scan on %s: this processor has not got it", name[l]);
		else
			ok(wrong[l] == 0, "root scan on %s: the scalar loop's choice in %d roots "
			   "(%d differ)", name[l], ran[l], wrong[l]);
	}
	mcts_free(m);
}

int main(void)
{
	const char *env = getenv("NOUGHTS_TEST_THREADS");
	int counts[8] = { 1, 2 }, n = 2;

	if (env != NULL && *env != '\0') {
		n = 1;
		for (const char *s = env; *s != '\0' && n < 8; s++)
			if (s == env || s[-1] == ',')
				counts[n++] = atoi(s);
	}
	test_prefault(); /* (first: no other huge allocation is alive) */
	test_spare();
	test_fault_ahead();
	test_mcts_prefault();
	test_sqlog();
	test_root_argmax();
	test_discards(false);
	test_discards(true);
	test_discards_full();
	for (int i = 0; i < n; i++) {
		if (counts[i] < 1)
			continue;
		test_memory(counts[i]);
		test_game(counts[i]);
		for (int g = 0; g < 3; g++)
			test_children((const char *[]){ "ttt", "uttt", "7,7,5" }[g], counts[i],
				      counts[i] > 1 ? MCTS_PARALLEL_TREE : MCTS_PARALLEL_AUTO, false);
		test_children("uttt", counts[i],
			      counts[i] > 1 ? MCTS_PARALLEL_TREE : MCTS_PARALLEL_AUTO, true);
		if (counts[i] == 2) {
			test_children("uttt", 2, MCTS_PARALLEL_PIPELINE, false);
			test_children("uttt", 2, MCTS_PARALLEL_PIPELINE, true);
		}
	}
	return tap_done();
}
