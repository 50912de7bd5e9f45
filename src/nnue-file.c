/* nnue-file.c - the value network's weights files (see nnue.h): checked
 * (header, shape, checksum, game, sums that fit), read, and the built-in
 * network of Ultimate tic-tac-toe. */
#include "config.h"

#include "nnue-int.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- files --------------------------------------------------------------- */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t get16(const uint8_t *p)
{
	return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Read COUNT little-endian int16 at *AT into OUT, moving *AT on. */
static int16_t *read16(const uint8_t **at, size_t count, int16_t *out)
{
	for (size_t i = 0; i < count; i++, *at += 2)
		out[i] = get16(*at);
	return out;
}

/* The name of the game a weights file at DATA is for, into NAME (16
 * bytes): false if it is empty or not a NUL-terminated printable name. */
static bool file_game(const uint8_t *data, char name[16])
{
	memcpy(name, data + 12, 16);
	if (memchr(name, '\0', 16) == NULL || name[0] == '\0')
		return false;
	for (const char *c = name; *c != '\0'; c++)
		if (*c < 0x21 || *c > 0x7e)
			return false;
	return true;
}

static int cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y) - (x > y);
}

/* |weight| of feature F for unit J in the first layer at W (after the
 * header) of a network of HIDDEN units. */
static int w1_mag(const uint8_t *w, size_t hidden, size_t f, size_t j)
{
	return abs(get16(w + 2 * (hidden + f * hidden + j)));
}

/* The largest sum unit J of format 2's first layer at W can reach: its
 * bias and its NNUE_MAX_ACTIVE largest weights (all of them when even
 * their sum fits in 16 bits, which needs no sort). */
static int64_t plain_unit_worst(const uint8_t *w, size_t hidden, size_t j)
{
	int64_t acc = abs(get16(w + 2 * j)), all = acc;
	int mag[NNUE_FEATURES];

	for (size_t f = 0; f < NNUE_FEATURES; f++)
		all += mag[f] = w1_mag(w, hidden, f, j);
	if (all <= INT16_MAX)
		return all;
	qsort(mag, NNUE_FEATURES, sizeof(mag[0]), cmp_desc);
	for (int f = 0; f < NNUE_MAX_ACTIVE; f++)
		acc += mag[f];
	return acc;
}

/* The same for format 3, where each cell has one state at a time and the
 * board sent to is one: the bias and each slot's largest weight. */
static int64_t cells_unit_worst(const uint8_t *w, size_t hidden, size_t j)
{
	int64_t acc = abs(get16(w + 2 * j));

	for (size_t c = 0; c < CELL_SLOTS; c++) {
		size_t first = c < 81 ? c * NNUE_CELL_STATES : NNUE_CELL_NEXT;
		size_t last = c < 81 ? first + NNUE_CELL_STATES : NNUE_CELL_FEATURES;
		int most = 0;

		for (size_t f = first; f < last; f++) {
			int v = w1_mag(w, hidden, f, j);

			most = v > most ? v : most;
		}
		acc += most;
	}
	return acc;
}

/* Whether the weights at W (after the header) of a network of HIDDEN units
 * and FEATURES inputs keep every sum in range whatever the position: each
 * accumulator within 16 bits, the output's bias and every unit at its clip
 * within 32 bits; otherwise the SIMD paths would wrap where the scalar one
 * overflows, and the numbers would differ. The worst sum in *WORST and its
 * limit in *LIMIT. */
static bool weights_fit(const uint8_t *w, size_t hidden, size_t features, int64_t *worst,
			int64_t *limit)
{
	const uint8_t *w2 = w + 2 * (hidden + features * hidden);
	int64_t out = llabs((long long)(int32_t)get32(w2 + 4 * hidden));

	for (size_t j = 0; j < hidden; j++) {
		int64_t acc = features == NNUE_CELL_FEATURES ? cells_unit_worst(w, hidden, j)
							     : plain_unit_worst(w, hidden, j);

		if (acc > INT16_MAX) {
			*worst = acc;
			*limit = INT16_MAX;
			return false;
		}
	}
	for (size_t j = 0; j < 2 * hidden; j++)
		out += (int64_t)NNUE_QA * abs(get16(w2 + 2 * j));
	*worst = out;
	*limit = INT32_MAX;
	return out <= INT32_MAX;
}

/* Check and read a weights file into N, whose arrays are STORE (room for
 * the largest network) or, when STORE is NULL, allocated. */
static bool parse_into(struct nnue *n, int16_t *store, const uint8_t *data, size_t size,
		       const char *what, char *err, size_t errsize)
{
	const uint8_t *at = data + 8;
	uint32_t version, features, hidden, qa, qb, takes;
	int64_t worst, limit;
	char game[16];
	size_t want;

	nnue_simd_default();
	if (size < HEADER_BYTES || memcmp(data, "noughtsN", 8) != 0) {
		fmt_buf(err, errsize, "%s: not a noughts network file (no 'noughtsN' header)", what);
		return false;
	}
	version = get32(at);
	features = get32(at + 20);
	hidden = get32(at + 24);
	qa = get32(at + 28);
	qb = get32(at + 32);
	if (version != NNUE_VERSION && version != NNUE_VERSION_CELLS) {
		fmt_buf(err, errsize, "%s: network format version %u, this program reads %d and %d",
			what, version, NNUE_VERSION, NNUE_VERSION_CELLS);
		return false;
	}
	takes = version == NNUE_VERSION ? NNUE_FEATURES : NNUE_CELL_FEATURES;
	if (features != takes || hidden == 0 || hidden > NNUE_MAX_HIDDEN || hidden % 16 != 0 ||
	    qa != NNUE_QA || qb != NNUE_QB) {
		fmt_buf(err, errsize, "%s: a network of %u features, %u hidden units, scales %u and %u; "
			"this program takes %u features, up to %d units in steps of 16, scales %d and %d",
			what, features, hidden, qa, qb, takes, NNUE_MAX_HIDDEN, NNUE_QA, NNUE_QB);
		return false;
	}
	want = HEADER_BYTES + 2 * (hidden + (size_t)features * hidden + 2 * hidden) + 4 + 4;
	if (size != want) {
		fmt_buf(err, errsize, "%s: %zu bytes, but a network of this shape takes %zu (%s)", what,
			size, want, size < want ? "truncated" : "trailing bytes");
		return false;
	}
	if (fnv1a(data, size - 4) != get32(data + size - 4)) {
		fmt_buf(err, errsize, "%s: corrupt network file (checksum mismatch)", what);
		return false;
	}
	if (!file_game(data, game)) {
		fmt_buf(err, errsize, "%s: no game's name in the header (it must say uttt)", what);
		return false;
	}
	if (strcmp(game, "uttt") != 0) {
		fmt_buf(err, errsize, "%s: a network for %s; this program's networks are for uttt "
			"(their inputs are Ultimate tic-tac-toe's)", what, game);
		return false;
	}
	if (!weights_fit(data + HEADER_BYTES, hidden, features, &worst, &limit)) {
		fmt_buf(err, errsize, "%s: weights too large: a sum could reach %lld, past %lld "
			"(%s)", what, (long long)worst, (long long)limit,
			limit == INT16_MAX ? "a hidden unit's 16 bits" : "the output's 32 bits");
		return false;
	}
	if (store == NULL)
		store = xmalloc((hidden + (size_t)features * hidden + 2 * hidden) * sizeof(int16_t));
	memset(n, 0, sizeof(*n));
	memcpy(n->game, game, sizeof(n->game));
	n->hidden = (int)hidden;
	n->version = (int)version;
	n->features = (int)features;
	at = data + HEADER_BYTES;
	n->b1 = read16(&at, hidden, store);
	n->w1 = read16(&at, (size_t)features * hidden, store + hidden);
	n->w2 = read16(&at, 2 * (size_t)hidden, store + hidden + (size_t)features * hidden);
	n->b2 = (int32_t)get32(at);
	nnue_leaf_init(n);
	return true;
}

struct nnue *nnue_parse(const uint8_t *data, size_t size, const char *what, char *err,
			size_t errsize)
{
	struct nnue *n = xmalloc(sizeof(*n));

	if (!parse_into(n, NULL, data, size, what, err, errsize)) {
		free(n);
		return NULL;
	}
	return n;
}

struct nnue *nnue_load(const char *path, char *err, size_t errsize)
{
	FILE *f = fopen_nowait(path);
	uint8_t *buf;
	size_t cap = 4 << 20, len;
	struct nnue *n;

	if (f == NULL) {
		fmt_buf(err, errsize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = xmalloc(cap + 1);
	len = fread(buf, 1, cap + 1, f);
	if (ferror(f)) {
		fmt_buf(err, errsize, "%s: %s", path, strerror(errno));
		n = NULL;
	} else if (len > cap) {
		fmt_buf(err, errsize, "%s: too large for a network file (over %zu bytes)", path, cap);
		n = NULL;
	} else {
		n = nnue_parse(buf, len, path, err, errsize);
	}
	fclose(f);
	free(buf);
	return n;
}

void nnue_free(struct nnue *n)
{
	if (n == NULL)
		return;
	free(n->b1); /* the one block of every array */
	free(n);
}

const struct nnue *nnue_builtin(const struct game *g)
{
	/* Static, so that nothing is left to free at exit. */
	static int16_t store[NNUE_MAX_HIDDEN * (NNUE_MAX_FEATURES + 3)];
	static struct nnue uttt;
	static bool ready;
	char err[256];

	if (strcmp(g->name, "uttt") != 0)
		return NULL;
	if (!ready) {
		if (!parse_into(&uttt, store, nnue_uttt_data, nnue_uttt_size, "the built-in network",
				err, sizeof(err)))
			fatal("%s", err);
		ready = true;
	}
	return &uttt;
}
