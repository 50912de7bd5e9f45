/* mcts-arena.c - where MCTS nodes live: one array of slots, handed out in
 * blocks, one block for all the children a node can have.
 *
 * A node's children sit side by side in one block, sized by its legal
 * moves when its first child is made and filled one child at a time.
 * Selection then reads a node's children in one sweep of adjacent memory
 * (the hardware fetches the next lines ahead, where a linked list made it
 * wait on each miss in turn), whatever the age of the tree, and a worker
 * adds a child by writing a slot and publishing a count: nothing ever
 * moves, so other workers may read the block meanwhile.
 *
 * Each worker carves its blocks from a region of slots (the lock is taken
 * once a region, not once a block). Blocks given back (a subtree
 * discarded by mcts_advance()) are marked in a bitmap of free slots, and
 * each advance rebuilds the free lists from it, adjacent free blocks
 * joined (a sweep of one bit a slot: about a millisecond for a 512 MiB
 * arena): runs longer than a block can be, and a list per size of the
 * shorter ones. A region comes from the runs first, then from the top of
 * the arena, memory never touched; once both are used up, a block comes
 * from the list of its size, or is cut from a larger free block. Cut
 * blocks never grow back by themselves, which is why the lists are
 * rebuilt rather than kept. The cost of keeping
 * children together is the slots of moves not yet tried: about two slots
 * a node (Ultimate tic-tac-toe, a million iterations from the start: 1.0
 * million nodes in 2.07 million slots). */
#include "config.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#include "mcts-node.h"

/* The most slots a worker takes at a time, from a free run or the top. */
#define REGION 4096

size_t free_bits_bytes(size_t capacity)
{
	return (capacity / 64 + 1) * sizeof(uint64_t);
}

void arena_init(struct mcts *m, size_t capacity)
{
	/* (see util.h) */
	m->free_bits = huge_alloc(free_bits_bytes(capacity));
	m->nodes = huge_alloc(capacity * sizeof(struct node));
	m->implicit = NULL;
	m->capacity = (uint32_t)capacity;
	m->nodes[0] = (struct node){ 0 };
	m->top = 1;
	for (int s = 0; s <= GAME_MAX_MOVES; s++)
		m->free_blocks[s] = 0;
	m->free_runs = 0;
	m->slots = 0;
}

static void lock(struct mcts *m)
{
	if (m->shared)
		pthread_mutex_lock(&m->alloc_lock);
}

static void unlock(struct mcts *m)
{
	if (m->shared)
		pthread_mutex_unlock(&m->alloc_lock);
}

/* Mark the SIZE slots from START free (ON) or not in the bitmap. */
static void mark(struct mcts *m, uint32_t start, int size, bool on)
{
	for (uint32_t i = start; i < start + (uint32_t)size; i++) {
		uint64_t bit = 1ull << (i & 63);

		if (on)
			m->free_bits[i >> 6] |= bit;
		else
			m->free_bits[i >> 6] &= ~bit;
	}
}

/* Link the block of SIZE slots at START into its free list; the link is
 * the first slot's `child`. */
static void link_free(struct mcts *m, uint32_t start, int size)
{
	m->nodes[start].child = m->free_blocks[size];
	m->free_blocks[size] = start;
}

/* Link the LEN free slots from START into the runs if LEN is more than a
 * block can be, else into the free list of its size; the run's length is
 * in its first slot's `visits`. */
static void link_run(struct mcts *m, uint32_t start, uint32_t len)
{
	if (len <= GAME_MAX_MOVES) {
		link_free(m, start, (int)len);
		return;
	}
	m->nodes[start].child = m->free_runs;
	m->nodes[start].visits = len;
	m->free_runs = start;
}

/* Put the block of SIZE slots at START on its free list (the caller holds
 * the lock, or there are no workers). */
static void push_free(struct mcts *m, uint32_t start, int size)
{
	link_free(m, start, size);
	mark(m, start, size, true);
}

/* A free block of SIZE slots, cut from a larger one if need be; 0 if
 * there is none. (Under the lock.) */
static uint32_t pop_free(struct mcts *m, int size)
{
	for (int s = size; s <= GAME_MAX_MOVES; s++) {
		uint32_t b = m->free_blocks[s];

		if (b == 0)
			continue;
		m->free_blocks[s] = m->nodes[b].child;
		mark(m, b, size, false);
		if (s > size)
			link_free(m, b + (uint32_t)size, s - size);
		return b;
	}
	return 0;
}

/* Give W a region of at most REGION slots from the first free run, the
 * rest of the run staying free; false if there is none. */
static bool take_run(struct mcts *m, struct worker *w)
{
	uint32_t r = m->free_runs, len;

	if (r == 0)
		return false;
	len = m->nodes[r].visits;
	m->free_runs = m->nodes[r].child;
	if (len > REGION) {
		link_run(m, r + REGION, len - REGION);
		len = REGION;
	}
	mark(m, r, (int)len, false);
	w->lo = r;
	w->hi = r + len;
	return true;
}

/* Give W a region, after putting what is left of its old one on a free
 * list: from the runs that discarded subtrees left, else fresh from the
 * top of the arena. Memory used before comes first: on some hosts the
 * first touch of a page costs more than the work done in it (in a match
 * at 90 ms a move, clearing fresh pages took 12% of the time, when the
 * tree grew up the arena move after move while the slots of the subtrees
 * each move discarded lay free). Returns false when both are used up.
 * (Under the lock.) */
static bool refill(struct mcts *m, struct worker *w)
{
	uint32_t n = m->capacity - m->top;

	if (w->hi > w->lo)
		push_free(m, w->lo, (int)(w->hi - w->lo));
	w->lo = w->hi = 0;
	if (take_run(m, w))
		return true;
	if (n == 0)
		return false;
	if (n > REGION)
		n = REGION;
	w->lo = m->top;
	w->hi = m->top + n;
	STORE(m->top, w->hi); /* (read by arena_fault_ahead()) */
	return true;
}

/* How far past the top the pipeline's player keeps the arena faulted in,
 * and how much it faults in at a time (a short call, it has jobs to take;
 * but the first touch of a huge page clears all 2 MiB of it, and the tree
 * thread plays out the jobs meanwhile). */
#define AHEAD ((size_t)4 << 20)
#define FAULT_STEP ((size_t)64 << 10)

/* The bytes of the arena from its start to AHEAD past the slots handed
 * out, or all of it. */
static size_t fault_limit(const struct mcts *m, size_t ahead)
{
	size_t cap = (size_t)m->capacity * sizeof(struct node);
	size_t want = (size_t)LOAD(m->top) * sizeof(struct node) + ahead;

	return want < cap ? want : cap;
}

bool arena_fault_ahead(struct mcts *m, size_t *done)
{
	/* (the arena's last bytes: the tree's own) */
	size_t want = fault_limit(m, AHEAD) / FAULT_STEP * FAULT_STEP;
	size_t from = *done / FAULT_STEP * FAULT_STEP;

	if (from >= want)
		return false;
	if (!populate((char *)m->nodes + from, FAULT_STEP)) {
		*done = SIZE_MAX; /* (no use trying again) */
		return false;
	}
	*done = from + FAULT_STEP;
	return true;
}

size_t mcts_prefault(struct mcts *m, size_t bytes, size_t ahead)
{
	size_t upto = fault_limit(m, ahead), done;

	/* (the bitmap first: it marks the slots as they are handed out) */
	done = huge_prefault(m->free_bits, free_bits_bytes(upto / sizeof(struct node)), bytes);
	if (done < bytes)
		done += huge_prefault(m->nodes, upto, bytes - done);
	return done;
}

/* How far past a block just handed out the next ones' lines are asked
 * for: the blocks go up the arena one after another, and their lines,
 * new to this core (cleared by the kernel, or by the pipeline's player:
 * arena_fault_ahead()), were a miss at each first write. Measured with
 * bench --game uttt --threads 1,2, 8 rounds A B: two threads 5% more
 * iterations a second (every round), one thread within 1%; 256 to 1024
 * bytes ahead alike. */
#define PREFETCH_AHEAD 512

/* Ask for the lines that blocks as large as SIZE slots, PREFETCH_AHEAD
 * bytes past slot B, will take. */
static inline void prefetch_next(const struct mcts *m, uint32_t b, int size)
{
	const char *at = (const char *)&m->nodes[b] + PREFETCH_AHEAD;

	for (size_t off = 0; off < (size_t)size * sizeof(struct node); off += 64)
		__builtin_prefetch(at + off, 1, 3);
}

uint32_t arena_block(struct mcts *m, struct worker *w, int size)
{
	uint32_t b = 0;

	assert(size >= 1 && size <= GAME_MAX_MOVES);
	if (w->hi - w->lo < (uint32_t)size) {
		lock(m);
		if (!refill(m, w) || w->hi - w->lo < (uint32_t)size)
			b = pop_free(m, size);
		unlock(m);
		if (b == 0 && w->hi - w->lo < (uint32_t)size)
			return 0;
	}
	if (b == 0) {
		b = w->lo;
		w->lo += (uint32_t)size;
		prefetch_next(m, b, size);
	}
	w->slots += (uint64_t)size;
	return b;
}

/* The stack of blocks still to free, during arena_free_subtree(), lives in
 * the blocks' own first slots: the link in `visits`, the block's size in
 * `x_wins`, its children made in `draws`; a slot's `child`, `nkids` and
 * `cap` stay intact until its own children are pushed. */
static void push_pending(struct node *nodes, uint32_t *stack, uint32_t block, int size, int made)
{
	nodes[block].visits = *stack;
	nodes[block].x_wins = (uint32_t)size;
	nodes[block].draws = (uint32_t)made;
	*stack = block;
}

/* The first slot from I on, below END, that is free (ON) or not; END if
 * there is none. */
static uint32_t find_slot(const struct mcts *m, uint32_t i, uint32_t end, bool on)
{
	while (i < end) {
		uint64_t w = m->free_bits[i >> 6];

		w = (on ? w : ~w) & ~0ull << (i & 63);
		if (w != 0) {
			uint32_t j = (i & ~63u) + (uint32_t)__builtin_ctzll(w);

			return j < end ? j : end;
		}
		i = (i & ~63u) + 64;
	}
	return end;
}

/* Rebuild the free lists from the bitmap: every run of free slots, whole
 * (link_run(); the highest run comes first). */
static void coalesce(struct mcts *m)
{
	uint32_t a = find_slot(m, 1, m->top, true);

	for (int s = 0; s <= GAME_MAX_MOVES; s++)
		m->free_blocks[s] = 0;
	m->free_runs = 0;
	while (a < m->top) {
		uint32_t b = find_slot(m, a, m->top, false);

		link_run(m, a, b - a);
		a = find_slot(m, b, m->top, true);
	}
}

void arena_free_subtree(struct mcts *m, uint32_t top)
{
	struct node *nodes = m->nodes;
	uint32_t stack = 0;

	/* TOP itself: a block of one, as every root is */
	push_pending(nodes, &stack, top, 1, 1);
	while (stack != 0) {
		uint32_t b = stack;
		int size = (int)nodes[b].x_wins, made = (int)nodes[b].draws;

		stack = nodes[b].visits;
		/* (b's own `child` is read before push_free() reuses it) */
		for (int k = made - 1; k >= 0; k--) {
			struct node *n = &nodes[b + (uint32_t)k];

			if (n->cap > 0)
				push_pending(nodes, &stack, n->child, n->cap, n->nkids);
		}
		push_free(m, b, size);
		m->slots -= (uint64_t)size;
		m->in_use -= (uint64_t)made;
	}
	coalesce(m);
}

void arena_settle(struct mcts *m, struct worker *w)
{
	m->slots += w->slots;
	w->slots = 0;
}
