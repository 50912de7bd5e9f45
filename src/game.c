/* game.c - what every game shares: set-up, move text, perft, diagrams. */
#include "config.h"

#include "game.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

uint64_t game_zobrist[2][GAME_MAX_CELLS];
uint64_t game_zobrist_next[10];
uint64_t game_zobrist_won[2][9];

static void zobrist_init(void)
{
	static bool done;
	uint64_t state = 0x6e6f7567687473u; /* fixed: keys are the same every run */

	if (done)
		return;
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < GAME_MAX_CELLS; m++)
			game_zobrist[s][m] = splitmix64(&state);
	for (int i = 0; i < 10; i++)
		game_zobrist_next[i] = splitmix64(&state);
	for (int s = 0; s < 2; s++)
		for (int b = 0; b < 9; b++)
			game_zobrist_won[s][b] = splitmix64(&state);
	done = true;
}

const char *game_result_name(int result)
{
	static const char *const names[] = { NULL, "X", "O", "draw" };

	return result >= 0 && result < (int)ARRAY_SIZE(names) ? names[result] : NULL;
}

const char *game_proof_name(int proof)
{
	static const char *const names[] = { NULL, "win", "loss", "draw" };

	return proof >= 0 && proof < (int)ARRAY_SIZE(names) ? names[proof] : NULL;
}

/* Map grid cell COL, ROW through symmetry S of a W x H grid. Symmetries 4..7
 * exist only on square grids. */
static void sym_cell(int s, int w, int h, int *col, int *row)
{
	int c = *col, r = *row;

	switch (s) {
	case 0: break;
	case 1: c = w - 1 - c; break;                         /* mirror left-right */
	case 2: r = h - 1 - r; break;                         /* mirror top-bottom */
	case 3: c = w - 1 - c; r = h - 1 - r; break;          /* half turn */
	case 4: { int t = c; c = r; r = t; } break;           /* main diagonal */
	case 5: { int t = c; c = w - 1 - r; r = h - 1 - t; } break; /* other diagonal */
	case 6: { int t = c; c = w - 1 - r; r = t; } break;   /* quarter turn */
	case 7: { int t = c; c = r; r = h - 1 - t; } break;   /* three quarters */
	default: assert(0);
	}
	*col = c;
	*row = r;
}

static void sym_init(struct game *g)
{
	g->nsym = g->width == g->height ? 8 : 4;
	for (int s = 0; s < g->nsym; s++)
		for (int m = 0; m < g->cells; m++) {
			int col, row;

			game_move_cell(g, m, &col, &row);
			sym_cell(s, g->width, g->height, &col, &row);
			g->sym[s][m] = (uint8_t)game_cell_move(g, col, row);
		}
}

/* Parse "M,N,K" strictly: three decimal numbers and nothing else. */
static bool parse_mnk(const char *s, int v[3])
{
	for (int i = 0; i < 3; i++) {
		char *end;
		long x;

		if (!isdigit((unsigned char)*s))
			return false;
		x = strtol(s, &end, 10);
		/* A number too big to be a side is still a number: keep it as one
		 * past the limit, so the message names the size limits rather
		 * than calling the game unknown. */
		v[i] = x > 1000 || end - s > 4 ? 1001 : (int)x;
		s = end;
		if (i < 2) {
			if (*s != ',')
				return false;
			s++;
		}
	}
	return *s == '\0';
}

int game_init(struct game *g, const char *given, unsigned rules, char *err, size_t errsize)
{
	char name[64];
	size_t len = strlen(given);
	int v[3];

	/* Game names are case-insensitive, as move text is ("UTTT", "B2"). */
	if (len >= sizeof(name)) {
		char quoted[64];

		fmt_buf(err, errsize,
			"unknown game '%s' (expected ttt, uttt, or M,N,K such as 4,4,3)",
			text_shown(given, 40, quoted, sizeof(quoted)));
		return -1;
	}
	for (size_t i = 0; i <= len; i++)
		name[i] = (char)tolower((unsigned char)given[i]);
	zobrist_init();
	memset(g, 0, sizeof(*g));
	g->rules = rules;
	if (strcmp(name, "ttt") == 0 || strcmp(name, "uttt") == 0) {
		v[0] = v[1] = v[2] = 3;
	} else if (!parse_mnk(name, v)) {
		fmt_buf(err, errsize,
			"unknown game '%s' (expected ttt, uttt, or M,N,K such as 4,4,3)", name);
		return -1;
	}
	if (rules != 0 && strcmp(name, "uttt") != 0) {
		fmt_buf(err, errsize, "game %s: tiebreak and open-won-boards are rules of uttt only",
			name);
		return -1;
	}
	if (strcmp(name, "uttt") == 0) {
		g->ops = &uttt_ops;
		g->width = g->height = 9;
		g->k = 3;
		uttt_setup(g);
	} else {
		int m = v[0], n = v[1], k = v[2];

		if (m < MNK_MIN_SIDE || n < MNK_MIN_SIDE || m > MNK_MAX_SIDE || n > MNK_MAX_SIDE ||
		    m * n > MNK_MAX_CELLS) {
			fmt_buf(err, errsize,
				"game %s: the board must be %d to %d cells a side and at most %d cells "
				"in all",
				name, MNK_MIN_SIDE, MNK_MAX_SIDE, MNK_MAX_CELLS);
			return -1;
		}
		if (k < 3 || k > (m > n ? m : n)) {
			if (m == 3 && n == 3)
				fmt_buf(err, errsize, "game %s: K must be 3 on a 3x3 board", name);
			else
				fmt_buf(err, errsize, "game %s: K must be from 3 to %d on a %dx%d board",
					name, m > n ? m : n, m, n);
			return -1;
		}
		g->ops = &mnk_ops;
		g->width = m;
		g->height = n;
		g->k = k;
		mnk_setup(g);
	}
	g->cells = g->width * g->height;
	/* Every accepted name is short ("uttt", "21,3,21"). */
	assert(strlen(name) < sizeof(g->name));
	memcpy(g->name, name, strlen(name) + 1);
	sym_init(g);
	return 0;
}

int game_parse_move(const struct game *g, const char *text, char *err, size_t errsize)
{
	const char *s = text;
	int col, row = 0;

	if (isalpha((unsigned char)*s)) {
		col = tolower((unsigned char)*s) - 'a';
		s++;
		if (isdigit((unsigned char)*s) && *s != '0') {
			while (isdigit((unsigned char)*s) && row <= 100)
				row = row * 10 + (*s++ - '0');
			if (*s == '\0') {
				int move = game_cell_move(g, col, row - 1);

				if (move >= 0)
					return move;
				fmt_buf(err, errsize, "'%s' is off the %dx%d board (columns a-%c, rows 1-%d)",
					text, g->width, g->height, 'a' + g->width - 1, g->height);
				return -1;
			}
		}
	}
	fmt_buf(err, errsize, "'%s' is not a move (expected a column letter a-%c and a row 1-%d, like %s)",
		text, 'a' + g->width - 1, g->height, g->width == 9 ? "e5" : "b2");
	return -1;
}

char *game_move_name(const struct game *g, int move, char *buf)
{
	int col, row;

	if (move < 0 || move >= GAME_MAX_CELLS || move == MOVE_NONE) {
		strcpy(buf, "-");
		return buf;
	}
	game_move_cell(g, move, &col, &row);
	snprintf(buf, 8, "%c%d", 'a' + col, row + 1);
	return buf;
}

int game_play_moves(const struct game *g, struct pos *pos, const char *text, uint8_t *played,
		    int *nplayed, char *err, size_t errsize)
{
	const char *s = text;
	int index = 0;

	if (nplayed != NULL)
		*nplayed = 0;
	for (;;) {
		char word[32], why[96], reason[160];
		size_t n = 0;
		int move;
		const char *bad;

		while (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n')
			s++;
		if (*s == '\0')
			return 0;
		while (*s != '\0' && *s != ' ' && *s != ',' && *s != '\t' && *s != '\n') {
			if (n + 1 < sizeof(word))
				word[n++] = *s;
			s++;
		}
		word[n] = '\0';
		index++;
		move = game_parse_move(g, word, reason, sizeof(reason));
		if (move < 0) {
			fmt_buf(err, errsize, "move %d: %s", index, reason);
			return -1;
		}
		bad = game_illegal(g, pos, move, why, sizeof(why));
		if (bad != NULL) {
			fmt_buf(err, errsize, "move %d '%s' is illegal: %s", index, word, bad);
			return -1;
		}
		game_play(g, pos, move);
		if (played != NULL)
			played[(*nplayed)++] = (uint8_t)move;
	}
}

int moveset_nth(const struct moveset *s, int n)
{
	int c0 = popcount64(s->w[0]);
	int i = 0;
	uint64_t w;

	if (n >= c0) {
		n -= c0;
		i = 1;
	}
	w = s->w[i];
	assert(n < popcount64(w));
	while (n-- > 0)
		w &= w - 1;
	return i * 64 + __builtin_ctzll(w);
}

int moveset_list(const struct moveset *s, uint8_t *out)
{
	struct moveset t = *s;
	int n = 0;

	while (!moveset_empty(&t))
		out[n++] = (uint8_t)moveset_pop(&t);
	return n;
}

/* Perft: COUNTS[d] gains the sequences of d + 1 plies below POS, which is at
 * ply D from the root. The last ply is counted, not played. */
static void perft_walk(const struct game *g, const struct pos *pos, int d, int depth,
		       uint64_t *counts)
{
	struct moveset ms;

	game_legal(g, pos, &ms);
	counts[d] += (uint64_t)moveset_count(&ms);
	if (d + 1 >= depth)
		return;
	while (!moveset_empty(&ms)) {
		struct pos child = *pos;

		game_play(g, &child, moveset_pop(&ms));
		if (!game_over(&child))
			perft_walk(g, &child, d + 1, depth, counts);
	}
}

void game_perft(const struct game *g, const struct pos *pos, int depth, uint64_t *counts)
{
	memset(counts, 0, sizeof(*counts) * (size_t)depth);
	if (depth > 0 && !game_over(pos))
		perft_walk(g, pos, 0, depth, counts);
}

int game_cell_owner(const struct game *g, const struct pos *pos, int col, int row)
{
	int m = game_cell_move(g, col, row);

	return m < 0 ? -1 : g->ops->owner(g, pos, m);
}

bool game_region_border(const struct game *g, int i, bool across)
{
	struct game_regions r;
	struct pos start;

	game_start(g, &start);
	game_regions(g, &start, &r);
	if (r.n == 0)
		return false;
	return i % (across ? r.w : r.h) == 0;
}

void game_print(const struct game *g, const struct pos *pos, FILE *out)
{
	fputs("    ", out);
	for (int c = 0; c < g->width; c++)
		fprintf(out, "%s%c", c == 0 ? "" : game_region_border(g, c, true) ? "   " : " ",
			'a' + c);
	fputc('\n', out);
	for (int r = 0; r < g->height; r++) {
		if (r > 0 && game_region_border(g, r, false)) {
			fputs("    ", out);
			for (int c = 0; c < g->width; c++)
				fputs(c == 0 ? "-" : game_region_border(g, c, true) ? "-+--" : "--",
				      out);
			fputc('\n', out);
		}
		fprintf(out, "%3d ", r + 1);
		for (int c = 0; c < g->width; c++) {
			int who = game_cell_owner(g, pos, c, r);

			if (c > 0)
				fputs(game_region_border(g, c, true) ? " | " : " ", out);
			fputc(who < 0 ? '.' : game_side_mark(who), out);
		}
		fputc('\n', out);
	}
}
