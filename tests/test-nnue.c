/* test-nnue.c - the value network: the C evaluator against the trainer's
 * forward pass (tests/data/nnue-expected.txt, written by train/expected.py
 * from the shipped weights), incremental updates against evaluation from
 * scratch, the scalar path against the SIMD ones, bad weights files, and
 * MCTS searching with the network; the first three also for a small
 * network of the other format version (tests/data/nnue-cells.bin, format 3:
 * a state of each cell; or nnue-plain.bin, format 2, when the built-in one
 * is of format 3; their numbers in nnue-*-expected.txt). */
#include "config.h"

#include "nnue.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcts.h"
#include "tap.h"

static struct game game;

/* A weights file's header (nnue.h): its length, and where it says how many
 * hidden units there are. */
#define FILE_HEADER (8 + 4 + 16 + 4 * 4)
#define FILE_HIDDEN_AT (8 + 4 + 16 + 4)

static bool same_acc(const struct nnue *n, const struct nnue_acc *a, const struct nnue_acc *b)
{
	size_t bytes = (size_t)nnue_hidden(n) * sizeof(int16_t);

	return memcmp(a->v[0], b->v[0], bytes) == 0 && memcmp(a->v[1], b->v[1], bytes) == 0;
}

/* The C evaluator gives the trainer's integer output exactly, and a value
 * within quantisation error of its float network. */
static void test_expected(const struct nnue *n, const char *file)
{
	const char *dir = getenv("TESTDATA");
	char path[4096], line[2048];
	int count = 0, exact = 0, close = 0;
	double worst = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir != NULL ? dir : "tests/data", file);
	f = fopen(path, "r");
	ok(f != NULL, "%s opens", path);
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *tab1 = strchr(line, '\t'), *tab2, err[200];
		struct nnue_acc a;
		struct pos p;
		long want;
		double value;

		if (line[0] == '#' || tab1 == NULL)
			continue;
		*tab1 = '\0';
		want = strtol(tab1 + 1, &tab2, 10);
		value = strtod(tab2 + 1, NULL);
		game_start(&game, &p);
		if (game_play_moves(&game, &p, line, NULL, NULL, err, sizeof(err)) != 0) {
			ok(0, "moves '%s': %s", line, err);
			continue;
		}
		nnue_refresh(n, &p, &a);
		count++;
		exact += nnue_output(n, &a, p.turn) == want;
		close += fabs(nnue_value(n, &a, p.turn) - value) < 0.02;
		if (fabs(nnue_value(n, &a, p.turn) - value) > worst)
			worst = fabs(nnue_value(n, &a, p.turn) - value);
	}
	fclose(f);
	ok(count >= 50, "%s: %d positions to compare", file, count);
	ok(exact == count, "format %d: integer output equal to the trainer's in %d of %d positions",
	   nnue_version(n), exact, count);
	ok(close == count, "format %d: value within 0.02 of the float network in %d of %d (worst %.4f)",
	   nnue_version(n), close, count, worst);
}

/* A legal move of P at random by R, played. */
static void play_random(struct pos *p, struct rng *r)
{
	struct moveset legal;

	game_legal(&game, p, &legal);
	game_play(&game, p, moveset_nth(&legal, (int)rng_below(r, (uint32_t)moveset_count(&legal))));
}

/* Random games: at every ply the accumulators updated move by move, and
 * those updated in one step from the start, equal a fresh computation. */
static void test_incremental(const struct nnue *n)
{
	struct rng r;
	int plies = 0, by_move = 0, from_start = 0, back = 0;

	rng_seed(&r, 7);
	for (int g = 0; g < 40; g++) {
		struct pos start, p, prev;
		struct nnue_acc inc, fresh, jump, rev, prev_fresh;

		game_start(&game, &start);
		p = start;
		nnue_refresh(n, &p, &inc);
		while (!game_over(&p)) {
			prev = p;
			play_random(&p, &r);
			nnue_update(n, &prev, &p, &inc);
			nnue_refresh(n, &p, &fresh);
			nnue_refresh(n, &start, &jump);
			nnue_update(n, &start, &p, &jump);
			rev = fresh;
			nnue_update(n, &p, &prev, &rev); /* and back again */
			nnue_refresh(n, &prev, &prev_fresh);
			plies++;
			by_move += same_acc(n, &inc, &fresh);
			from_start += same_acc(n, &jump, &fresh);
			back += same_acc(n, &rev, &prev_fresh);
		}
	}
	ok(by_move == plies, "format %d: updated move by move == from scratch at %d of %d plies",
	   nnue_version(n), by_move, plies);
	ok(from_start == plies, "format %d: updated from the start in one step == from scratch at %d of %d",
	   nnue_version(n), from_start, plies);
	ok(back == plies, "format %d: updated backwards == from scratch at %d of %d", nnue_version(n),
	   back, plies);
}

/* P's children not over, into KID (what the search gives kids());
 * returns how many. */
static int open_kids(const struct pos *p, struct pos *kid)
{
	struct moveset legal;
	int count = 0;

	game_legal(&game, p, &legal);
	for (int i = 0; i < moveset_count(&legal); i++) {
		kid[count] = *p;
		game_play(&game, &kid[count], moveset_nth(&legal, i));
		count += !game_over(&kid[count]);
	}
	return count;
}

/* Whether N's kids() of P's children not over (the search's, from the
 * start as its root CTX) are the same at LEVEL as on the scalar path. */
static bool kids_agree(const struct nnue *n, int level, const struct pos *start, void *ctx,
		       const struct pos *p)
{
	const struct mcts_leaf_eval *e = nnue_leaf_eval(n);
	struct pos kid[GAME_MAX_MOVES];
	double vs[GAME_MAX_MOVES], vl[GAME_MAX_MOVES];
	int count = open_kids(p, kid);

	nnue_set_simd(NNUE_SCALAR);
	e->kids(e->model, ctx, start, p, kid, count, vs);
	nnue_set_simd(level);
	e->kids(e->model, ctx, start, p, kid, count, vl);
	return memcmp(vs, vl, (size_t)count * sizeof(double)) == 0;
}

/* Random games on N at LEVEL and on the scalar path, both updated move by
 * move: the plies where accumulators and output agree, and the values of
 * the children, of *TOTAL. */
static int simd_agree(const struct nnue *n, int level, int *total)
{
	const struct mcts_leaf_eval *e = nnue_leaf_eval(n);
	void *ctx = malloc(e->ctx_size);
	struct pos start;
	struct rng r;
	int same = 0;

	*total = 0;
	rng_seed(&r, 11);
	game_start(&game, &start);
	nnue_set_simd(NNUE_SCALAR);
	e->root(e->model, &start, ctx);
	for (int g = 0; g < 20; g++) {
		struct pos p, prev;
		struct nnue_acc s, v;

		game_start(&game, &p);
		nnue_set_simd(NNUE_SCALAR);
		nnue_refresh(n, &p, &s);
		nnue_set_simd(level);
		nnue_refresh(n, &p, &v);
		while (!game_over(&p)) {
			int32_t os, ov;

			prev = p;
			play_random(&p, &r);
			nnue_set_simd(NNUE_SCALAR);
			nnue_update(n, &prev, &p, &s);
			os = nnue_output(n, &s, p.turn);
			nnue_set_simd(level);
			nnue_update(n, &prev, &p, &v);
			ov = nnue_output(n, &v, p.turn);
			(*total)++;
			same += os == ov && same_acc(n, &s, &v) &&
				(game_over(&p) || kids_agree(n, level, &start, ctx, &p));
		}
	}
	free(ctx);
	return same;
}

static struct nnue *narrow_net(int hidden);

/* Every SIMD level the processor has gives the scalar path's numbers: with
 * the built-in network, and with one 48 units wide (the wide lanes' last
 * units go on narrower ones). */
static void test_simd(const struct nnue *n)
{
	int best = nnue_set_simd(NNUE_AVX512);
	struct nnue *narrow = narrow_net(48);

	printf("# best level here: %s\n", nnue_simd_name(best));
	for (int level = NNUE_SSE2; level <= NNUE_AVX512; level++) {
		int same, total, same48 = 0, total48 = 0;

		if (nnue_set_simd(level) != level) {
			printf("# %s: not on this processor\n", nnue_simd_name(level));
			continue;
		}
		same = simd_agree(n, level, &total);
		ok(same == total && total > 0,
		   "format %d, %s == scalar: accumulators, output and children's values at %d of %d plies",
		   nnue_version(n), nnue_simd_name(level), same, total);
		if (narrow != NULL)
			same48 = simd_agree(narrow, level, &total48);
		ok(same48 == total48 && total48 > 0,
		   "%s == scalar with 48 hidden units (children's values too): at %d of %d plies", nnue_simd_name(level),
		   same48, total48);
	}
	nnue_free(narrow);
	nnue_set_simd(best);
}

/* Write SIZE bytes of DATA to a temporary file; returns its name. */
static const char *write_temp(const uint8_t *data, size_t size)
{
	static char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "/tmp/test-nnue-%d.bin", (int)getpid());
	f = fopen(name, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		return NULL;
	return name;
}

static void expect_refused(const uint8_t *data, size_t size, const char *want, const char *what)
{
	const char *path = write_temp(data, size);
	char err[400] = "";
	struct nnue *n = path != NULL ? nnue_load(path, err, sizeof(err)) : NULL;

	ok(path != NULL && n == NULL && strstr(err, want) != NULL && strstr(err, path) != NULL,
	   "%s: refused, naming the file (%s)", what, err);
	nnue_free(n);
	if (path != NULL)
		remove(path);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put16(uint8_t *p, int v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)((unsigned)v >> 8);
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The built-in network cut to its first HIDDEN units (a file written and
 * loaded), NULL if that failed. */
static struct nnue *narrow_net(int hidden)
{
	const uint8_t *in = nnue_uttt_data;
	int wide = nnue_hidden(nnue_builtin(&game));
	/* b1, w1, w2's two halves: HIDDEN wide each */
	int rows = 1 + nnue_feature_count(nnue_builtin(&game)) + 2;
	size_t size = FILE_HEADER + 2 * (size_t)hidden * (size_t)rows + 4 + 4;
	uint8_t *out = calloc(1, size), *at = out + FILE_HEADER;
	const uint8_t *from = in + FILE_HEADER;
	char err[400];
	const char *path;
	struct nnue *n;

	memcpy(out, in, FILE_HEADER);
	put32(out + FILE_HIDDEN_AT, (uint32_t)hidden);
	for (int row = 0; row < rows; row++, from += 2 * (size_t)wide, at += 2 * (size_t)hidden)
		memcpy(at, from, 2 * (size_t)hidden);
	memcpy(at, from, 4); /* b2 */
	put32(out + size - 4, fnv1a(out, size - 4));
	path = write_temp(out, size);
	n = path != NULL ? nnue_load(path, err, sizeof(err)) : NULL;
	if (n == NULL)
		printf("# a narrow network: %s\n", path != NULL ? err : "no temporary file");
	if (path != NULL)
		remove(path);
	free(out);
	return n;
}

/* The built-in network with every first-layer bias moved by 3: the same
 * shape and other numbers, for a search that changes networks. */
static struct nnue *shifted_net(void)
{
	size_t size = nnue_uttt_size;
	uint8_t *copy = malloc(size);
	char err[400];
	struct nnue *n;

	memcpy(copy, nnue_uttt_data, size);
	for (int i = 0; i < nnue_hidden(nnue_builtin(&game)); i++) {
		uint8_t *b = copy + FILE_HEADER + 2 * (size_t)i;
		uint16_t v = (uint16_t)(b[0] | b[1] << 8);

		v = (uint16_t)(v + 3);
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)(v >> 8);
	}
	put32(copy + size - 4, fnv1a(copy, size - 4));
	n = nnue_parse(copy, size, "a shifted network", err, sizeof(err));
	if (n == NULL)
		printf("# %s\n", err);
	free(copy);
	return n;
}

/* Whether N's kids() of P (CTX made at ROOT) give each child not over the
 * value an evaluation from scratch gives it. */
static bool kids_exact(const struct nnue *n, const struct pos *root, void *ctx,
		       const struct pos *p)
{
	const struct mcts_leaf_eval *e = nnue_leaf_eval(n);
	struct pos kid[GAME_MAX_MOVES];
	double v[GAME_MAX_MOVES];
	int count = open_kids(p, kid);

	e->kids(e->model, ctx, root, p, kid, count, v);
	for (int i = 0; i < count; i++) {
		struct nnue_acc a;
		double x;

		nnue_refresh(n, &kid[i], &a);
		x = nnue_value(n, &a, kid[i].turn);
		if (v[i] != (kid[i].turn == SIDE_X ? x : 1 - x))
			return false;
	}
	return true;
}

/* kids() (which starts from the last position it valued where that is
 * nearer than the root) against evaluation from scratch: positions of
 * random games from two roots, taken game by game (each near the last)
 * and then scattered, each now and then also valued by another network. */
static void test_kids(const struct nnue *n)
{
	const struct mcts_leaf_eval *e = nnue_leaf_eval(n);
	struct nnue *other = shifted_net();
	void *ctx = malloc(e->ctx_size), *octx = malloc(e->ctx_size);
	struct pos *seen = malloc(2000 * sizeof(*seen)), root;
	int total = 0, same = 0, others = 0, count = 0;
	struct rng r;

	rng_seed(&r, 29);
	game_start(&game, &root);
	for (int k = 0; k < 2; k++) {
		if (k == 1)
			for (int i = 0; i < 7; i++)
				play_random(&root, &r);
		e->root(e->model, &root, ctx);
		if (other != NULL)
			nnue_leaf_eval(other)->root(other, &root, octx);
		count = 0;
		for (int g = 0; g < 12; g++) {
			struct pos p = root;

			while (!game_over(&p) && count < 2000) {
				seen[count++] = p;
				play_random(&p, &r);
			}
		}
		for (int i = 0; i < 2 * count; i++) {
			/* in game order, then a stride through all of them */
			const struct pos *p = &seen[i < count ? i : (int)((uint64_t)(i - count) * 7919 % (uint64_t)count)];

			total++;
			same += kids_exact(n, &root, ctx, p);
			if (other != NULL && rng_below(&r, 4) == 0) {
				total++;
				others++;
				same += kids_exact(other, &root, octx, p);
			}
		}
	}
	ok(same == total && others > 0,
	   "format %d: kids() == each child from scratch at %d of %d positions (%d with another network between)",
	   nnue_version(n), same, total, others);
	nnue_free(other);
	free(ctx);
	free(octx);
	free(seen);
}

/* COPY (the built-in network's SIZE bytes) with its checksum made right
 * again, refused for WANT. */
static void refused_resummed(uint8_t *copy, size_t size, const char *want, const char *what)
{
	put32(copy + size - 4, fnv1a(copy, size - 4));
	expect_refused(copy, size, want, what);
}

/* A network at train/train.py's clip (W1_MAX 2 and W2_MAX 32: every
 * first-layer weight and bias 254, every output weight 8192, of either
 * sign) loads: the trainer cannot write weights this program refuses.
 * B1 and W2 are where COPY's arrays start. */
static void loads_at_clip(uint8_t *copy, size_t size, uint8_t *b1, uint8_t *w2, size_t hidden)
{
	const char *path;
	char err[400] = "";
	struct nnue *n;

	for (uint8_t *at = b1; at < w2; at += 2)
		put16(at, (at - b1) % 4 ? 254 : -254);
	for (size_t j = 0; j < 2 * hidden; j++)
		put16(w2 + 2 * j, j % 2 ? 8192 : -8192);
	put32(w2 + 4 * hidden, 0);
	put32(copy + size - 4, fnv1a(copy, size - 4));
	path = write_temp(copy, size);
	n = path != NULL ? nnue_load(path, err, sizeof(err)) : NULL;
	ok(n != NULL, "a network at the trainer's largest weights loads (%s)", n ? "yes" : err);
	nnue_free(n);
	if (path != NULL)
		remove(path);
}

/* Well-formed files that must still be refused: for another game (its
 * features are uttt's alone), without a name, and weights whose sums
 * could overflow (the scalar path's int arithmetic against the SIMD
 * paths' wrapping). COPY is the built-in network's SIZE bytes, changed. */
static void test_bad_weights(uint8_t *copy, size_t size)
{
	size_t hidden = (size_t)nnue_hidden(nnue_builtin(&game));
	uint8_t *w1 = copy + FILE_HEADER + 2 * hidden;
	uint8_t *w2 = w1 + 2 * hidden * (size_t)nnue_feature_count(nnue_builtin(&game));

	memcpy(copy + 12, "4,4,3\0\0\0", 8);
	refused_resummed(copy, size, "a network for 4,4,3; this program's networks are for uttt",
			 "a network labelled for an m,n,k game");
	memcpy(copy + 12, "ttt\0\0\0\0\0", 8);
	refused_resummed(copy, size, "a network for ttt", "a network labelled for tic-tac-toe");
	memset(copy + 12, 'u', 16);
	refused_resummed(copy, size, "no game's name", "a header whose name has no end");
	memset(copy + 12, 0, 16);
	refused_resummed(copy, size, "no game's name", "a header with an empty name");
	memcpy(copy, nnue_uttt_data, size);
	/* one unit: 3 x 12000 past 16 bits, on features that can be set at once
	 * (format 2: marks on cells 0, 15 and 30; format 3: states of three
	 * cells) */
	for (size_t f = 0; f < 3 * 15; f += 15)
		put16(w1 + 2 * (f * hidden + 5), 12000);
	refused_resummed(copy, size, "past 32767 (a hidden unit's 16 bits)",
			 "a hidden unit whose sum could pass 16 bits");
	memcpy(copy, nnue_uttt_data, size);
	for (size_t j = 0; j < 2 * hidden; j++)
		put16(w2 + 2 * j, -32768);
	put32(w2 + 4 * hidden, 0x40000000); /* b2 */
	refused_resummed(copy, size, "(the output's 32 bits)",
			 "output weights whose sum could pass 32 bits");
	loads_at_clip(copy, size, w1 - 2 * hidden, w2, hidden);
}

/* Bad files: missing, empty, not a network, another version, truncated,
 * trailing bytes, a flipped bit. A good copy loads and evaluates alike. */
static void test_files(void)
{
	size_t size = nnue_uttt_size;
	uint8_t *copy = malloc(size + 1);
	char err[400] = "";
	struct nnue *n = nnue_load("/nonexistent/net.bin", err, sizeof(err));
	const char *path;

	ok(n == NULL && strstr(err, "/nonexistent/net.bin: No such file") != NULL,
	   "a missing file: %s", err);
	memcpy(copy, nnue_uttt_data, size);
	expect_refused(copy, 0, "not a noughts network file", "an empty file");
	expect_refused((const uint8_t *)"hello, world, this is not a network at all....", 46,
		       "not a noughts network file", "a text file");
	copy[8] = 9;
	expect_refused(copy, size, "version 9", "another format version");
	copy[8] = NNUE_VERSION;
	expect_refused(copy, size - 100, "truncated", "a truncated file");
	copy[size] = 0;
	expect_refused(copy, size + 1, "trailing bytes", "a file with trailing bytes");
	copy[size / 2] ^= 0x10;
	expect_refused(copy, size, "checksum", "a flipped bit");
	copy[size / 2] ^= 0x10;
	put32(copy + FILE_HIDDEN_AT, 24); /* 24 hidden units: not a multiple of 16 */
	put32(copy + size - 4, fnv1a(copy, size - 4));
	expect_refused(copy, size, "hidden units", "a shape this program does not take");
	memcpy(copy, nnue_uttt_data, size);
	test_bad_weights(copy, size);
	memcpy(copy, nnue_uttt_data, size);
	path = write_temp(copy, size);
	n = path != NULL ? nnue_load(path, err, sizeof(err)) : NULL;
	if (n != NULL) {
		struct nnue_acc a, b;
		struct pos p;

		game_start(&game, &p);
		game_play_moves(&game, &p, "e5 e4 d2", NULL, NULL, err, sizeof(err));
		nnue_refresh(n, &p, &a);
		nnue_refresh(nnue_builtin(&game), &p, &b);
		ok(nnue_output(n, &a, p.turn) == nnue_output(nnue_builtin(&game), &b, p.turn),
		   "a copy of the built-in network loads and evaluates alike");
	} else {
		ok(0, "a copy of the built-in network loads: %s", err);
	}
	nnue_free(n);
	if (path != NULL)
		remove(path);
	free(copy);
}

/* mcts_stats' net of each of the K children CH of root P of M, and of the
 * children one move down: the network's value, for the side making the
 * move, of the position after it, evaluated here from scratch. */
static void test_child_net(const struct nnue *n, struct mcts *m, const struct pos *p,
			   const struct mcts_child *ch, int k)
{
	struct mcts_child sub[GAME_MAX_MOVES];
	struct nnue_acc a;
	struct pos q = *p;
	uint8_t path = (uint8_t)ch[0].move;
	int ks, bad = 0;

	for (int i = 0; i < k; i++) {
		struct pos c = *p;

		game_play(&game, &c, ch[i].move);
		nnue_refresh(n, &c, &a);
		bad += fabs(ch[i].net - (1 - nnue_value(n, &a, c.turn))) > 1e-9;
	}
	ok(bad == 0, "each root child's net is the network's value for the mover (%d differ)", bad);
	game_play(&game, &q, ch[0].move);
	ks = mcts_stats(m, &path, 1, sub, GAME_MAX_MOVES, NULL);
	bad = ks > 0 ? 0 : 1;
	for (int i = 0; i < ks; i++) {
		struct pos c = q;

		game_play(&game, &c, sub[i].move);
		nnue_refresh(n, &c, &a);
		bad += fabs(sub[i].net - (1 - nnue_value(n, &a, c.turn))) > 1e-9;
	}
	ok(bad == 0, "and one move down, for the other side (%d children, %d differ)", ks, bad);
}

/* MCTS with the network: visits add up, a forced win is still found and
 * proven, and the same seed gives the same search. */
static void test_mcts(const struct nnue *n)
{
	static const char *const win =
		"c7 i1 h3 f9 i9 g9 a7 a1 b2 e4 e2 d6 c9 h9 d8 c5 i4 h2 f4 g1 c1 g3 a9 a8 a6 b7 "
		"d1 a3 b8 e5 d4 b1 e3 e9 d9 c6 i7 h6 f8 i6 i8 h4 f2 g4 b3 d7 c3 i5 g6 e6 f7 h5";
	struct mcts_params prm;
	struct mcts_child ch[GAME_MAX_MOVES], ch2[GAME_MAX_MOVES];
	struct mcts_totals t;
	struct pos p;
	char err[200];
	uint64_t sum = 0;
	int k, k2, ran;

	mcts_params_default(&prm);
	prm.eval = MCTS_EVAL_NET;
	prm.leaf = nnue_leaf_eval(n);
	prm.memory = 32 << 20;
	prm.seed = 5;
	game_start(&game, &p);
	for (int e = MCTS_EVAL_NET; e <= MCTS_EVAL_MIX; e++) {
		struct mcts *m;

		prm.eval = e;
		m = mcts_new(&game, &p, &prm);
		ran = mcts_step(m, 20000);
		k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
		sum = 0;
		for (int i = 0; i < k; i++)
			sum += ch[i].visits;
		/* (under eval=mix each child also has its prior's visits:
		 * order=net's, the default) */
		ok(ran == 20000 && k == 81 &&
		   sum == t.root_visits + (e == MCTS_EVAL_MIX ? 81 * MCTS_ORDER_PRIOR : 0),
		   "eval=%s: 20000 iterations, 81 children, visits add up (%llu)",
		   e == MCTS_EVAL_NET ? "net" : "mix", (unsigned long long)sum);
		if (e == MCTS_EVAL_NET)
			test_child_net(n, m, &p, ch, k);
		mcts_advance(m, ch[0].move);
		ok(mcts_step(m, 1000) == 1000, "eval=%s: the search goes on after an advance",
		   e == MCTS_EVAL_NET ? "net" : "mix");
		mcts_free(m);
	}
	{
		struct mcts *m;

		prm.eval = MCTS_EVAL_ROLLOUT;
		m = mcts_new(&game, &p, &prm);
		mcts_step(m, 500);
		k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		ok(k > 0 && isnan(ch[0].net) && isnan(ch[k - 1].net),
		   "eval=rollout: the children have no network value (NAN)");
		mcts_free(m);
	}
	prm.eval = MCTS_EVAL_NET;
	game_play_moves(&game, &p, win, NULL, NULL, err, sizeof(err));
	{
		struct mcts *m = mcts_new(&game, &p, &prm), *m2;
		char name[8];

		mcts_step(m, 5000);
		mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
		ok(strcmp(game_move_name(&game, mcts_best_move(m), name), "e8") == 0 &&
		   t.root_proven == PROOF_WIN, "eval=net: the winning move e8 is found and proven (%s)",
		   name);
		mcts_free(m);
		game_start(&game, &p);
		m = mcts_new(&game, &p, &prm);
		m2 = mcts_new(&game, &p, &prm);
		mcts_step(m, 3000);
		mcts_step(m2, 3000);
		k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, NULL);
		k2 = mcts_stats(m2, NULL, 0, ch2, GAME_MAX_MOVES, NULL);
		{
			bool same = k == k2 && k > 0;

			for (int i = 0; i < k && same; i++)
				same = ch[i].move == ch2[i].move && ch[i].visits == ch2[i].visits &&
				       ch[i].wins == ch2[i].wins && ch[i].draws == ch2[i].draws;
			ok(same, "eval=net: the same seed gives the same search");
		}
		mcts_free(m);
		mcts_free(m2);
	}
}

/* eval=mix, order=fixed: the root's first 81 iterations each add a child, valued by its
 * playout (a result of 0, 1/2 or 1) or, for about MCTS_MIX_NET percent of
 * them, by the network (the trace says which, and the child's value is
 * then its network value); none gives a prior. The 82nd goes through one
 * of them again: that child, on its second visit, gets the network's value
 * as MCTS_MIX_PRIOR visits, so its value is (K * net + v1 + v2) / (K + 2)
 * for its first value and the new leaf's, the trace says so, and the
 * root's visits stay the leaves'. (The root's mover is X, whose values
 * the trace gives.) */
static void test_mix_prior(const struct nnue *n)
{
	struct mcts_params prm;
	struct mcts_child ch[GAME_MAX_MOVES];
	struct mcts_totals t;
	struct mcts_trace tr;
	struct pos p;
	struct mcts *m;
	double first[GAME_MAX_MOVES] = { 0 };
	int k, hit = -1, plain = 0, valued = 0, priors = 0, agree = 0;

	mcts_params_default(&prm);
	prm.eval = MCTS_EVAL_MIX;
	prm.leaf = nnue_leaf_eval(n);
	prm.memory = 8 << 20;
	prm.order = MCTS_ORDER_FIXED; /* (order=net gives priors as it makes children: test-order) */
	game_start(&game, &p);
	m = mcts_new(&game, &p, &prm);
	for (int i = 0; i < 81; i++) {
		mcts_step_trace(m, &tr);
		priors += tr.prior;
		valued += tr.estimate;
		if (tr.expanded >= 0 && tr.expanded < GAME_MAX_MOVES)
			first[tr.expanded] = tr.value;
	}
	k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	for (int i = 0; i < k; i++) {
		bool result = ch[i].value == 0 || ch[i].value == 0.5 || ch[i].value == 1;

		plain += ch[i].visits == 1 && result;
		agree += ch[i].visits == 1 && (result || fabs(ch[i].value - ch[i].net) < 1e-4) &&
			 fabs(ch[i].value - first[ch[i].move]) < 1e-9;
	}
	ok(k == 81 && agree == 81 && plain + valued == 81 && priors == 0,
	   "eval=mix: 81 new children, a playout's result or the network's value each, "
	   "as the trace says, no prior (%d, %d, %d, %d)", k, agree, plain, valued);
	/* (between half the share and halfway from it to all of them) */
	ok(valued > 81 * MCTS_MIX_NET / 200 && valued < 81 * (100 + MCTS_MIX_NET) / 200,
	   "eval=mix: about %d%% of them valued by the network (%d of 81)", MCTS_MIX_NET, valued);
	mcts_step_trace(m, &tr);
	k = mcts_stats(m, NULL, 0, ch, GAME_MAX_MOVES, &t);
	for (int i = 0; i < k; i++)
		if (ch[i].visits > 1)
			hit = i;
	ok(tr.prior && hit >= 0 && ch[hit].visits == MCTS_MIX_PRIOR + 2 && t.root_visits == 82,
	   "eval=mix: a child's second visit gives it %d visits of prior (%u visits, root %llu)",
	   MCTS_MIX_PRIOR, hit >= 0 ? ch[hit].visits : 0, (unsigned long long)t.root_visits);
	if (hit >= 0) {
		double want = (MCTS_MIX_PRIOR * ch[hit].net + first[ch[hit].move] + tr.value) /
			      (MCTS_MIX_PRIOR + 2);

		ok(fabs(ch[hit].value - want) < 1e-4,
		   "eval=mix: its value is the network's %.4f, %d times, its first value %.4f "
		   "and the new leaf's %.4f (%.4f)", ch[hit].net, MCTS_MIX_PRIOR,
		   first[ch[hit].move], tr.value, ch[hit].value);
	} else {
		ok(0, "eval=mix: a child had a second visit");
	}
	mcts_free(m);
}

/* The bytes of the file PATH in *SIZE (malloc'd), NULL if unreadable. */
static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = malloc(4 << 20);

	*size = f != NULL && data != NULL ? fread(data, 1, 4 << 20, f) : 0;
	if (f != NULL)
		fclose(f);
	if (*size == 0) {
		free(data);
		return NULL;
	}
	return data;
}

/* Format 3 files refused and taken: its features with format 2's version
 * (the count then wrong), and sums past 16 bits only where the states can
 * be set at once: one state on each of three cells, not three states of
 * one cell. DATA is a format 3 file of SIZE bytes. */
static void test_cells_file(uint8_t *data, size_t size)
{
	uint32_t hidden = (uint32_t)data[FILE_HIDDEN_AT] | (uint32_t)data[FILE_HIDDEN_AT + 1] << 8;
	uint8_t *w1 = data + FILE_HEADER + 2 * hidden, *copy = malloc(size);
	const char *path;
	char err[400] = "";
	struct nnue *n;

	memcpy(copy, data, size);
	copy[8] = NNUE_VERSION;
	refused_resummed(copy, size, "this program takes 217 features",
			 "format 3's features under format 2's version");
	memcpy(copy, data, size);
	for (size_t f = 0; f < 3; f++) /* state 0 of cells 0, 1, 2 */
		put16(copy + (w1 - data) + 2 * (f * NNUE_CELL_STATES * hidden + 3), 12000);
	refused_resummed(copy, size, "a hidden unit's 16 bits",
			 "format 3: three cells' states whose sum could pass 16 bits");
	memcpy(copy, data, size);
	for (size_t f = 0; f < 3; f++) /* states 0, 1, 2 of cell 0: one at a time */
		put16(copy + (w1 - data) + 2 * (f * hidden + 3), 12000);
	put32(copy + size - 4, fnv1a(copy, size - 4));
	path = write_temp(copy, size);
	n = path != NULL ? nnue_load(path, err, sizeof(err)) : NULL;
	ok(n != NULL, "format 3: large weights on one cell's states, never set together, load (%s)",
	   n != NULL ? "yes" : err);
	nnue_free(n);
	if (path != NULL)
		remove(path);
	free(copy);
}

/* The small network of the format the built-in one is not in (in
 * tests/data): the trainer's numbers, incremental updates, the SIMD paths,
 * and for format 3 its files. */
static void test_other_format(void)
{
	const char *dir = getenv("TESTDATA");
	const char *other = nnue_version(nnue_builtin(&game)) == NNUE_VERSION ? "cells" : "plain";
	char path[4096], err[400], expected[64];
	struct nnue *n;
	uint8_t *data;
	size_t size;

	snprintf(path, sizeof(path), "%s/nnue-%s.bin", dir != NULL ? dir : "tests/data", other);
	snprintf(expected, sizeof(expected), "nnue-%s-expected.txt", other);
	n = nnue_load(path, err, sizeof(err));
	ok(n != NULL && nnue_version(n) != nnue_version(nnue_builtin(&game)),
	   "a network of the other format loads (%s)", n != NULL ? "yes" : err);
	if (n == NULL)
		return;
	test_expected(n, expected);
	test_incremental(n);
	test_kids(n);
	test_simd(n);
	data = nnue_version(n) == NNUE_VERSION_CELLS ? read_all(path, &size) : NULL;
	if (data != NULL)
		test_cells_file(data, size);
	nnue_free(n);
	free(data);
}

int main(void)
{
	char err[200];
	const struct nnue *n;

	if (game_init(&game, "uttt", RULE_TIEBREAK, err, sizeof(err)) != 0) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	n = nnue_builtin(&game);
	ok(n != NULL && strcmp(nnue_game(n), "uttt") == 0, "uttt has a built-in network");
	{
		struct game ttt;

		game_init(&ttt, "ttt", 0, err, sizeof(err));
		ok(nnue_builtin(&ttt) == NULL, "ttt has none");
	}
	test_expected(n, "nnue-expected.txt");
	test_incremental(n);
	test_kids(n);
	test_simd(n);
	test_other_format();
	test_files();
	test_mcts(n);
	test_mix_prior(n);
	return tap_done();
}
