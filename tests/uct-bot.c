/* uct-bot.c - a textbook UCT bot for Ultimate tic-tac-toe, speaking
 * CodinGame's protocol, with its own rules code (it links nothing of
 * noughts): the baseline of issue 11's measurement, where noughts must
 * score at least 98% against it through tests/referee.
 *
 *   uct-bot [-s SEED] [-t MS]
 *
 * Each turn reads "opponentRow opponentCol" (-1 -1 if it moves first), the
 * count of valid actions and that many "row col" lines, and answers one
 * "row col" line. It searches a fresh tree each turn, and nothing more than
 * the textbook: selection by mean + C * sqrt(ln(parent's visits) / visits)
 * with C = 1.41 (an unvisited child first; ties: the first), all children
 * made when a leaf is expanded (one leaf an iteration), a uniformly random
 * playout to the end, backup of 1 for a win, 1/2 for a draw and 0 for a
 * loss to the player who moved into each node; it plays the root's most
 * visited child. No solver, heuristic, book or tree reuse.
 *
 * It answers MS milliseconds (default 90) after reading a turn's first
 * line, ten times that on its first turn. -s seeds its random moves
 * (default: the clock). With UCT_BOT_STATS set in the environment it
 * writes a line of figures per turn to stderr. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define UCT_C     1.41
#define POOL_SIZE (1u << 23) /* nodes, 16 bytes each */

/* A position. Small board B, cell C is move B * 9 + C; masks have bit C
 * (cells of a small board) or bit B (small boards). */
struct pos {
	unsigned cell[2][9]; /* each player's cells on each small board */
	unsigned won[2];     /* small boards won by each player */
	unsigned closed;     /* small boards won or full */
	int next;            /* forced small board or -1 */
	int turn;            /* the player to move: 0 moved first */
};

struct node {
	uint32_t child;  /* first child in the pool */
	uint32_t visits;
	uint32_t score2; /* twice the score for the player who moved here */
	uint8_t move;
	uint8_t nchild;  /* 0: a leaf */
};

static bool has_line[512];
static struct node *pool;
static uint32_t used;
static uint64_t rng;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* xorshift64* */
static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

static unsigned below(unsigned n)
{
	return (unsigned)(((uint64_t)rnd() * n) >> 32);
}

static void init_lines(void)
{
	static const unsigned lines[8] = { 0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124 };

	for (unsigned m = 0; m < 512; m++)
		for (int l = 0; l < 8; l++)
			has_line[m] |= (m & lines[l]) == lines[l];
}

static int popcount(unsigned m)
{
	return __builtin_popcount(m);
}

/* The index of the K-th set bit of M (from 0). */
static int nth_bit(unsigned m, unsigned k)
{
	while (k-- > 0)
		m &= m - 1;
	return __builtin_ctz(m);
}

static unsigned free_cells(const struct pos *p, int b)
{
	return p->closed >> b & 1 ? 0 : ~(p->cell[0][b] | p->cell[1][b]) & 511;
}

static void play(struct pos *p, int m)
{
	int b = m / 9, c = m % 9, s = p->turn;

	p->cell[s][b] |= 1u << c;
	if (has_line[p->cell[s][b]]) {
		p->won[s] |= 1u << b;
		p->closed |= 1u << b;
	} else if ((p->cell[0][b] | p->cell[1][b]) == 511) {
		p->closed |= 1u << b;
	}
	p->next = p->closed >> c & 1 ? -1 : c;
	p->turn ^= 1;
}

/* 0 going on, 1 or 2 the winner (first or second player), 3 a draw: a line
 * of small boards wins, else when every small board is closed the player
 * with more of them wins. */
static int result(const struct pos *p)
{
	int a, b;

	if (has_line[p->won[0]])
		return 1;
	if (has_line[p->won[1]])
		return 2;
	if (p->closed != 511)
		return 0;
	a = popcount(p->won[0]);
	b = popcount(p->won[1]);
	return a > b ? 1 : b > a ? 2 : 3;
}

static int moves(const struct pos *p, int *list)
{
	int n = 0;

	for (int b = 0; b < 9; b++) {
		unsigned f = p->next < 0 || p->next == b ? free_cells(p, b) : 0;

		for (int c = 0; c < 9; c++)
			if (f >> c & 1)
				list[n++] = b * 9 + c;
	}
	return n;
}

/* One legal move, each with the same chance. */
static int random_move(const struct pos *p)
{
	unsigned f[9], count[9], total = 0, k;

	if (p->next >= 0) {
		f[0] = free_cells(p, p->next);
		return p->next * 9 + nth_bit(f[0], below((unsigned)popcount(f[0])));
	}
	for (int b = 0; b < 9; b++) {
		f[b] = free_cells(p, b);
		count[b] = (unsigned)popcount(f[b]);
		total += count[b];
	}
	k = below(total);
	for (int b = 0;; b++) {
		if (k < count[b])
			return b * 9 + nth_bit(f[b], k);
		k -= count[b];
	}
}

static int playout(struct pos *p)
{
	int res;

	while ((res = result(p)) == 0)
		play(p, random_move(p));
	return res;
}

/* The child of node N with the highest UCT value. */
static uint32_t select_child(uint32_t n)
{
	double log_n = log((double)pool[n].visits), best = -1;
	uint32_t pick = pool[n].child;

	for (uint32_t i = pool[n].child; i < pool[n].child + pool[n].nchild; i++) {
		double v = pool[i].visits, uct;

		if (pool[i].visits == 0)
			return i;
		uct = pool[i].score2 / (2 * v) + UCT_C * sqrt(log_n / v);
		if (uct > best) {
			best = uct;
			pick = i;
		}
	}
	return pick;
}

/* Make the children of leaf N at P, unless the pool is full. */
static bool expand(uint32_t n, const struct pos *p)
{
	int list[81], k = moves(p, list);

	if (k == 0 || used + (uint32_t)k > POOL_SIZE)
		return false;
	pool[n].child = used;
	pool[n].nchild = (uint8_t)k;
	for (int i = 0; i < k; i++)
		pool[used++] = (struct node){ 0, 0, 0, (uint8_t)list[i], 0 };
	return true;
}

/* One iteration from ROOT: select, expand, play out, back up. */
static void iterate(const struct pos *root)
{
	struct pos p = *root;
	uint32_t path[82], n = 0;
	int depth = 0, res;

	path[depth++] = 0;
	while (pool[n].nchild > 0) {
		n = select_child(n);
		play(&p, pool[n].move);
		path[depth++] = n;
	}
	if (result(&p) == 0 && expand(n, &p)) {
		n = select_child(n);
		play(&p, pool[n].move);
		path[depth++] = n;
	}
	res = playout(&p);
	for (int d = 0; d < depth; d++) {
		int mover = (root->turn + d + 1) & 1; /* who moved into path[d] */

		pool[path[d]].visits++;
		pool[path[d]].score2 += res == 3 ? 1 : res == mover + 1 ? 2 : 0;
	}
}

/* Search from ROOT until DEADLINE (ms) and return the root's most visited
 * child's move, or -1; writes figures to stderr if STATS. */
static int search(const struct pos *root, double deadline, bool stats, int turn)
{
	double t0 = now_ms();
	unsigned long iterations = 0;
	uint32_t best = 0;

	used = 1;
	pool[0] = (struct node){ 0, 0, 0, 0, 0 };
	do {
		for (int i = 0; i < 64; i++)
			iterate(root);
		iterations += 64;
	} while (now_ms() < deadline);
	for (uint32_t i = pool[0].child; i < pool[0].child + pool[0].nchild; i++)
		if (best == 0 || pool[i].visits > pool[best].visits)
			best = i;
	if (stats && best != 0)
		fprintf(stderr, "uct-bot: turn %d: %lu playouts in %.1f ms, %u nodes, move %d: "
			"%u visits, mean %.3f\n", turn, iterations, now_ms() - t0, used,
			pool[best].move, pool[best].visits,
			pool[best].score2 / (2.0 * pool[best].visits));
	return best == 0 ? -1 : pool[best].move;
}

static int to_move(int row, int col)
{
	return (row / 3 * 3 + col / 3) * 9 + row % 3 * 3 + col % 3;
}

/* Read one line of two numbers (or one, B NULL); false at the end of the
 * input or on a line that is not that. */
static bool read_ints(int *a, int *b)
{
	char line[64];

	if (fgets(line, sizeof(line), stdin) == NULL)
		return false;
	return b == NULL ? sscanf(line, "%d", a) == 1 : sscanf(line, "%d %d", a, b) == 2;
}

/* Read the rest of a turn: the valid actions into LIST. Returns their
 * count, -1 at the end of the input or on a malformed turn. */
static int read_actions(int *list)
{
	int n, row, col;

	if (!read_ints(&n, NULL) || n < 1 || n > 81)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!read_ints(&row, &col) || row < 0 || row > 8 || col < 0 || col > 8)
			return -1;
		list[i] = to_move(row, col);
	}
	return n;
}

static void seed(unsigned long long s)
{
	/* splitmix64, so that small seeds give unrelated streams */
	uint64_t z = s + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	rng = (z ^ (z >> 31)) | 1;
}

/* The move among the N in LIST that search() chose, or the first of them
 * (with a word on stderr) if it is not there. */
static int checked(int m, const int *list, int n, int turn)
{
	for (int i = 0; i < n; i++)
		if (list[i] == m)
			return m;
	fprintf(stderr, "uct-bot: turn %d: %d is not a valid action\n", turn, m);
	return list[0];
}

/* Play turns until the input ends. */
static int run(double budget_ms, bool stats)
{
	struct pos game = { .next = -1 };
	int list[81], row, col, n, m;

	for (int turn = 1;; turn++) {
		if (!read_ints(&row, &col))
			return 0;
		double deadline = now_ms() + budget_ms * (turn == 1 ? 10 : 1);

		if (row >= 0 && row < 9 && col >= 0 && col < 9) {
			play(&game, to_move(row, col));
		} else if (row != -1 || col != -1 || turn != 1) {
			fprintf(stderr, "uct-bot: bad opponent move %d %d\n", row, col);
			return 1;
		}
		if ((n = read_actions(list)) < 0) {
			if (feof(stdin))
				return 0;
			fprintf(stderr, "uct-bot: bad turn %d\n", turn);
			return 1;
		}
		m = checked(search(&game, deadline, stats, turn), list, n, turn);
		play(&game, m);
		printf("%d %d\n", m / 27 * 3 + m % 9 / 3, m / 9 % 3 * 3 + m % 3);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	double budget_ms = 90;
	int opt;

	seed((unsigned long long)(now_ms() * 1e6) ^ (unsigned long long)getpid());
	while ((opt = getopt(argc, argv, "s:t:")) != -1) {
		switch (opt) {
		case 's': seed(strtoull(optarg, NULL, 10)); break;
		case 't': budget_ms = atof(optarg); break;
		default:
			fprintf(stderr, "usage: uct-bot [-s SEED] [-t MS]\n");
			return 2;
		}
	}
	init_lines();
	pool = malloc(POOL_SIZE * sizeof(*pool));
	if (pool == NULL) {
		perror("uct-bot");
		return 1;
	}
	return run(budget_ms, getenv("UCT_BOT_STATS") != NULL);
}
