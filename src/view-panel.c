/* view-panel.c - the panel's text without curses: the columns of the
 * candidate rows and which are dropped on narrow panels, the rows, the
 * search's progress lines, negamax's root moves. Declared in view.h. */
#include "config.h"

#include "view.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Widths of the columns of a candidate row; each but the move has a space
 * before it. */
enum {
	W_MOVE = 4,   /* the chosen move's mark and a name of up to 3 ("*a10") */
	W_VISITS = 6, /* room for the heading "visits" */
	W_SHARE = 5,  /* "45.3%", "0.09%", "100%" */
	W_COUNT = 5,  /* view_fmt_count's widest */
	W_RATE = 5,   /* "54.3%" */
	W_NET = 5,    /* as the win rate */
	W_UCT = 5,    /* "0.712" */
	W_PROOF = 7,  /* "loss 81" */
	BAR_MIN = 5,
	BAR_MAX = 20,
};

/* The columns in the order they are shown, with their widths and the tier
 * at which they go: a narrow panel drops the highest tiers first, a whole
 * tier at a time, so no heading is ever cut. A new column is a row here
 * (its tier says how much it matters) and a field in struct view_cols. */
enum { COL_MOVE, COL_VISITS, COL_SHARE, COL_BAR, COL_RATE, COL_NET, COL_PROOF, COL_MM, COL_UCT,
       COL_WINS, COL_DRAWS, COL_LOSSES, COL_COUNT };
static const struct {
	int w, tier;
} col_def[COL_COUNT] = {
	[COL_MOVE] = { W_MOVE, 0 },	[COL_VISITS] = { W_VISITS, 0 },
	[COL_SHARE] = { W_SHARE, 1 },	[COL_BAR] = { BAR_MIN, 3 },
	[COL_RATE] = { W_RATE, 0 },	[COL_NET] = { W_NET, 4 }, /* says more than UCT */
	[COL_MM] = { W_NET, 5 },	/* beside UCT, which it moves */
	[COL_PROOF] = { W_PROOF, 2 },	[COL_UCT] = { W_UCT, 5 },
	[COL_WINS] = { W_COUNT, 6 },	[COL_DRAWS] = { W_COUNT, 6 },
	[COL_LOSSES] = { W_COUNT, 6 },
};

/* Is column I one of a search's extras, and not among EXTRA? */
static bool col_absent(int i, unsigned extra)
{
	return (i == COL_NET && !(extra & VIEW_COL_NET)) || (i == COL_MM && !(extra & VIEW_COL_MM));
}

/* Characters the columns up to TIER take, spaces between included; of
 * the extras only those of EXTRA. */
static int tier_width(int tier, unsigned extra)
{
	int w = -1;

	for (int i = 0; i < COL_COUNT; i++)
		if (col_def[i].tier <= tier && !col_absent(i, extra))
			w += 1 + col_def[i].w;
	return w;
}

int view_cols_width(int tiers)
{
	return tier_width(tiers - 1, 0);
}

void view_cols(struct view_cols *c, int width)
{
	view_cols_net(c, width, 0);
}

void view_cols_net(struct view_cols *c, int width, unsigned extra)
{
	int *xs[COL_COUNT] = {
		[COL_MOVE] = &c->move_x,   [COL_VISITS] = &c->visits_x, [COL_SHARE] = &c->share_x,
		[COL_BAR] = &c->bar_x,     [COL_RATE] = &c->rate_x,     [COL_NET] = &c->net_x,
		[COL_MM] = &c->mm_x,       [COL_PROOF] = &c->proof_x, [COL_UCT] = &c->uct_x,       [COL_WINS] = &c->wins_x,
		[COL_DRAWS] = &c->draws_x, [COL_LOSSES] = &c->losses_x,
	};
	int tier = -1, x = 0;

	while (tier + 1 < VIEW_COL_TIERS && tier_width(tier + 1, extra) <= width)
		tier++;
	c->width = width;
	c->tiers = tier + 1;
	c->bar_w = 0;
	if (tier >= col_def[COL_BAR].tier) {
		c->bar_w = BAR_MIN + width - tier_width(tier, extra);
		if (c->bar_w > BAR_MAX)
			c->bar_w = BAR_MAX;
	}
	for (int i = 0; i < COL_COUNT; i++) {
		int w = i == COL_BAR ? c->bar_w : col_def[i].w;

		if (col_def[i].tier > tier || col_absent(i, extra)) {
			*xs[i] = -1;
			continue;
		}
		*xs[i] = x;
		x += w + 1;
	}
}

char *view_fmt_rate(double v, char *buf, size_t size)
{
	if (isnan(v))
		fmt_buf(buf, size, "-");
	else if (v >= 0.9995)
		fmt_buf(buf, size, "100%%");
	else
		fmt_buf(buf, size, "%.1f%%", v * 100);
	return buf;
}

unsigned view_extra_cols(const struct mcts_child *kids, int n)
{
	unsigned extra = 0;

	for (int i = 0; i < n; i++)
		extra |= (isnan(kids[i].net) ? 0u : VIEW_COL_NET) |
			 (isnan(kids[i].implicit) ? 0u : VIEW_COL_MM);
	return extra;
}

int view_bar_eighths(uint64_t visits, uint64_t total, int bar_w)
{
	double n;

	if (total == 0 || visits == 0 || bar_w <= 0)
		return 0;
	if (visits >= total)
		return 8 * bar_w;
	n = (double)visits * 8.0 * bar_w / (double)total + 0.5;
	return n > 8.0 * bar_w ? 8 * bar_w : (int)n;
}

char *view_bar_text(int eighths, bool utf8, char *buf, size_t size)
{
	/* U+2588 is the full block, U+2589 to U+258F seven to one eighths. */
	static const char *const part[8] = { "", "\u258f", "\u258e", "\u258d",
					     "\u258c", "\u258b", "\u258a", "\u2589" };
	size_t len = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < eighths / 8; i++)
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s",
					utf8 ? "\u2588" : "#");
	if (eighths % 8 != 0 && len < size)
		snprintf(buf + len, size - len, "%s",
			 utf8 ? part[eighths % 8] : eighths % 8 >= 4 ? "+" : "");
	return buf;
}

char *view_fmt_share(uint64_t visits, uint64_t total, char *buf, size_t size)
{
	double pct = total > 0 ? 100.0 * (double)visits / (double)total : 0;

	if (total == 0)
		return fmt_buf(buf, size, "-");
	if (pct >= 99.95)
		return fmt_buf(buf, size, "100%%");
	return fmt_buf(buf, size, pct < 9.995 ? "%.2f%%" : "%.1f%%", pct);
}

/* Copy TEXT into the row BUF at X, left-aligned or right-aligned in W
 * characters; X = -1 means the column is not shown. */
static void put_field(char *buf, int width, int x, int w, bool right, const char *text)
{
	int n = (int)strlen(text);

	if (x < 0)
		return;
	if (n > w)
		n = w;
	if (right)
		x += w - n;
	if (x + n > width)
		n = width - x;
	if (n > 0)
		memcpy(buf + x, text, (size_t)n);
}

/* Start a row of exactly C's width in BUF (which must hold it). */
static bool row_begin(const struct view_cols *c, char *buf, size_t size)
{
	if (size == 0)
		return false;
	if ((size_t)c->width + 1 > size) {
		buf[0] = '\0';
		return false;
	}
	memset(buf, ' ', (size_t)c->width);
	buf[c->width] = '\0';
	return true;
}

char *view_head_row(const struct view_cols *c, char *buf, size_t size)
{
	if (!row_begin(c, buf, size))
		return buf;
	put_field(buf, c->width, c->move_x, W_MOVE, false, "move");
	put_field(buf, c->width, c->visits_x, W_VISITS, true, "visits");
	put_field(buf, c->width, c->share_x, W_SHARE, true, "share");
	put_field(buf, c->width, c->wins_x, W_COUNT, true, "wins");
	put_field(buf, c->width, c->draws_x, W_COUNT, true, "draws");
	put_field(buf, c->width, c->losses_x, W_COUNT, true, "loss");
	put_field(buf, c->width, c->rate_x, W_RATE, true, "win%");
	put_field(buf, c->width, c->net_x, W_NET, true, "net");
	put_field(buf, c->width, c->mm_x, W_NET, true, "mm");
	put_field(buf, c->width, c->uct_x, W_UCT, true, "UCT");
	put_field(buf, c->width, c->proof_x, W_PROOF, false, "proven");
	return buf;
}

/* A candidate row; SAVED: from a record, which keeps no wins, draws,
 * losses or UCT value; CHOSEN: the move the engine plays (or played). */
static char *child_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		       uint64_t total, bool saved, bool chosen, char *buf, size_t size)
{
	char t[96];

	if (!row_begin(c, buf, size))
		return buf;
	put_field(buf, c->width, c->move_x, 1, false, chosen ? "*" : " ");
	put_field(buf, c->width, c->move_x + 1, W_MOVE - 1, false, game_move_name(g, ch->move, t));
	put_field(buf, c->width, c->visits_x, W_VISITS, true,
		  view_fmt_count(ch->visits, t, sizeof(t)));
	put_field(buf, c->width, c->share_x, W_SHARE, true, view_fmt_share(ch->visits, total, t,
									     sizeof(t)));
	if (c->bar_x >= 0)
		put_field(buf, c->width, c->bar_x, c->bar_w, false,
			  view_bar_text(view_bar_eighths(ch->visits, total, c->bar_w), false, t,
					sizeof(t)));
	put_field(buf, c->width, c->wins_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->wins, t, sizeof(t)));
	put_field(buf, c->width, c->draws_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->draws, t, sizeof(t)));
	put_field(buf, c->width, c->losses_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->losses, t, sizeof(t)));
	view_fmt_rate(ch->visits == 0 ? (double)NAN : ch->value, t, sizeof(t));
	put_field(buf, c->width, c->rate_x, W_RATE, true, t);
	put_field(buf, c->width, c->net_x, W_NET, true, view_fmt_rate(ch->net, t, sizeof(t)));
	put_field(buf, c->width, c->mm_x, W_NET, true, view_fmt_rate(ch->implicit, t, sizeof(t)));
	if (saved || ch->visits == 0 || isinf(ch->uct) || isnan(ch->uct))
		fmt_buf(t, sizeof(t), "-");
	else if (ch->uct < 9.9995)
		fmt_buf(t, sizeof(t), "%.3f", ch->uct);
	else if (ch->uct < 999.5)
		fmt_buf(t, sizeof(t), "%.1f", ch->uct);
	else
		fmt_buf(t, sizeof(t), "big");
	put_field(buf, c->width, c->uct_x, W_UCT, true, t);
	/* Plies counted from the row's position, the move itself included,
	 * as the panel's "solved: win in N" counts them. */
	switch (ch->proven) {
	case PROOF_WIN:
	case PROOF_LOSS:
		fmt_buf(t, sizeof(t), "%s", ch->proven == PROOF_WIN ? "win" : "loss");
		if (ch->proven_plies >= 0) /* else not settled yet */
			fmt_buf(t + strlen(t), sizeof(t) - strlen(t), " %d", ch->proven_plies + 1);
		break;
	case PROOF_DRAW:
		fmt_buf(t, sizeof(t), "draw");
		break;
	default:
		t[0] = '\0';
	}
	put_field(buf, c->width, c->proof_x, W_PROOF, false, t);
	return buf;
}

char *view_child_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		     uint64_t total, bool chosen, char *buf, size_t size)
{
	return child_row(c, g, ch, total, false, chosen, buf, size);
}

char *view_saved_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		     uint64_t total, bool chosen, char *buf, size_t size)
{
	return child_row(c, g, ch, total, true, chosen, buf, size);
}

/* A proof's length for ordering: one not settled yet counts as the longest. */
static int plies_key(const struct mcts_child *c)
{
	return c->proven_plies >= 0 ? c->proven_plies : GAME_MAX_PLIES + 1;
}

void view_sort_children(struct mcts_child *kids, int n)
{
	struct mcts_child *tmp;
	int k = 0;

	if (n <= 1)
		return;
	tmp = xmalloc((size_t)n * sizeof(*tmp));
	/* Proven wins, quickest first (a stable insertion by plies). */
	for (int i = 0; i < n; i++) {
		int j;

		if (kids[i].proven != PROOF_WIN)
			continue;
		for (j = k; j > 0 && plies_key(&tmp[j - 1]) > plies_key(&kids[i]); j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = kids[i];
		k++;
	}
	for (int i = 0; i < n; i++)
		if (kids[i].proven != PROOF_WIN && kids[i].proven != PROOF_LOSS)
			tmp[k++] = kids[i];
	/* Proven losses, the longest resistance first, the quickest loss last. */
	for (int i = 0, first = k; i < n; i++) {
		int j;

		if (kids[i].proven != PROOF_LOSS)
			continue;
		for (j = k; j > first && plies_key(&tmp[j - 1]) < plies_key(&kids[i]); j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = kids[i];
		k++;
	}
	memcpy(kids, tmp, (size_t)n * sizeof(*tmp));
	free(tmp);
}

int view_saved_children(int move, const struct record_info *info, struct mcts_child *out)
{
	memset(out, 0, 2 * sizeof(*out));
	out[0].move = move;
	out[0].visits = info->visits;
	out[0].value = info->value;
	out[0].uct = HUGE_VAL;
	/* (a record keeps no network or implicit minimax value) */
	out[0].net = out[1].net = out[0].implicit = out[1].implicit = (double)NAN;
	out[0].proven = info->proven;
	out[0].proven_plies = info->proven_plies;
	if (info->second < 0)
		return 1;
	out[1].move = info->second;
	out[1].visits = info->second_visits;
	out[1].value = info->second_value;
	out[1].uct = HUGE_VAL;
	return 2;
}

int view_heat_level(uint64_t visits, uint64_t total)
{
	static const double top[VIEW_HEAT_LEVELS - 1] = { 0.05, 0.20, 0.50 };
	double share = total > 0 ? (double)visits / (double)total : 0;
	int level = 1;

	if (visits < VIEW_FEW_VISITS || share < 0.01)
		return 0;
	while (level < VIEW_HEAT_LEVELS && share >= top[level - 1])
		level++;
	return level;
}

char *view_heat_label(int level, char *buf, size_t size)
{
	static const char *const label[VIEW_HEAT_LEVELS] = { "1-5%", "5-20%", "20-50%", "50%+" };

	assert(level >= 1 && level <= VIEW_HEAT_LEVELS);
	return fmt_buf(buf, size, " %s ", label[level - 1]);
}

char *view_share_text(uint64_t visits, uint64_t total, int cell_w, char *buf, size_t size)
{
	double share = total > 0 ? (double)visits / (double)total : 0;
	int pct = (int)(share * 100 + 0.5);

	if (cell_w == -3) /* the chosen move: a star and two digits */
		return fmt_buf(buf, size, "*%2d", pct > 99 ? 99 : pct);
	if (cell_w == -1)
		return fmt_buf(buf, size, "*");
	if (cell_w >= 3) {
		if (pct >= 100)
			return fmt_buf(buf, size, "100");
		return fmt_buf(buf, size, "%2d%%", pct);
	}
	if (share >= 0.95)
		return fmt_buf(buf, size, "#");
	return fmt_buf(buf, size, "%d", (int)(share * 10));
}

char *view_fit_parts(const char *const *parts, int n, const char *sep, int width, char *buf,
		     size_t size)
{
	int len = 0, seplen = (int)strlen(sep);

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		int plen = (int)strlen(parts[i]), add = plen + (len > 0 ? seplen : 0);

		if (plen == 0)
			continue;
		if (len + add > width || (size_t)(len + add) >= size)
			break; /* the rest is worth less: keep the line in order */
		len += snprintf(buf + len, size - (size_t)len, "%s%s", len > 0 ? sep : "", parts[i]);
	}
	return buf;
}

char *view_fmt_int(uint64_t n, char *buf, size_t size)
{
	char digits[32];
	int nd = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n), o = 0;
	char out[48];

	for (int i = 0; i < nd; i++) {
		if (i > 0 && (nd - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	return fmt_buf(buf, size, "%s", out);
}

/* Iterations for people: exact with commas while short, else 12.3M. */
static char *fmt_iterations(uint64_t n, char *buf, size_t size)
{
	return n < 1000000 ? view_fmt_int(n, buf, size) : view_fmt_count(n, buf, size);
}

/* The iteration budget of SPEC, or 0 for none or a time budget. */
static uint64_t spec_iterations(const struct player_spec *spec)
{
	if (spec == NULL || spec->kind != PLAYER_MCTS)
		return 0;
	if (spec->iterations != 0)
		return spec->iterations;
	if (spec->time_ms != 0)
		return 0;
	return player_level_iterations(spec->level != 0 ? spec->level : PLAYER_DEFAULT_LEVEL);
}

char *view_progress_text(const struct player_spec *spec, const struct mcts_totals *t, bool done,
			 int width, char *buf, size_t size)
{
	char it[48], budget[24], rate[24], secs[24], limit[24], threads[24] = "";
	const char *parts[4] = { it, rate, secs, threads };
	uint64_t n = spec_iterations(spec);

	fmt_iterations(t->iterations, it, sizeof(it));
	fmt_buf(rate, sizeof(rate), "%s/s", view_fmt_count((uint64_t)t->per_second, budget,
							      sizeof(budget)));
	view_fmt_seconds(t->seconds, secs, sizeof(secs));
	if (t->threads > 1)
		fmt_buf(threads, sizeof(threads), "%d threads", t->threads);
	if (done) {
		size_t len = strlen(it);

		fmt_buf(it + len, sizeof(it) - len, " iteration%s in %s", t->iterations == 1 ? "" : "s",
			secs);
		secs[0] = '\0';
		if (t->iterations == 0 || t->seconds < 0.005)
			rate[0] = '\0'; /* a rate of nothing, or of no time, means nothing */
	} else if (spec != NULL && spec->kind == PLAYER_MCTS && spec->time_ms > 0 &&
		   spec->iterations == 0) {
		size_t len = strlen(secs);

		strcat(it, " iterations");
		fmt_buf(secs + len, sizeof(secs) - len, " of %s",
			view_fmt_seconds(spec->time_ms / 1000.0, limit, sizeof(limit)));
	} else if (n == 0) {
		strcat(it, " iterations");
	} else {
		size_t len = strlen(it);

		fmt_buf(it + len, sizeof(it) - len, " of %s iterations",
			fmt_iterations(n, budget, sizeof(budget)));
	}
	return view_fit_parts(parts, 4, "  ", width, buf, size);
}

char *view_tree_text(const struct mcts_totals *t, int width, char *buf, size_t size)
{
	char nodes[32], mem[64], depth[32], a[24], b[24];
	const char *parts[3] = { nodes, mem, depth };

	fmt_buf(nodes, sizeof(nodes), "%s node%s", view_fmt_count(t->nodes, a, sizeof(a)),
		t->nodes == 1 ? "" : "s");
	fmt_buf(mem, sizeof(mem), "%s of %s%s", view_fmt_bytes(t->memory_used, a, sizeof(a)),
		view_fmt_bytes(t->memory_limit, b, sizeof(b)), t->arena_full ? " (full)" : "");
	fmt_buf(depth, sizeof(depth), "depth %d", t->max_depth);
	return view_fit_parts(parts, 3, ", ", width, buf, size);
}

char *view_eng_progress(const struct player_stats *st, int width, char *buf, size_t size)
{
	char nodes[24], rate[24], secs[24], depth[48], t[16], threads[24] = "";
	const char *parts[5] = { depth, nodes, rate, secs, threads };
	double per = st->seconds > 0 ? (double)st->nodes / st->seconds : 0;

	fmt_buf(nodes, sizeof(nodes), "%s node%s", view_fmt_count(st->nodes, t, sizeof(t)),
		st->nodes == 1 ? "" : "s");
	fmt_buf(rate, sizeof(rate), "%s/s", view_fmt_count((uint64_t)per, t, sizeof(t)));
	view_fmt_seconds(st->seconds, secs, sizeof(secs));
	if (st->searching > st->depth)
		fmt_buf(depth, sizeof(depth), "depth %d, %d next", st->depth, st->searching);
	else
		fmt_buf(depth, sizeof(depth), "depth %d", st->depth);
	if (st->max_depth > 0) {
		size_t n = strlen(depth);

		fmt_buf(depth + n, sizeof(depth) - n, " of %d", st->max_depth);
	}
	if (st->threads > 1)
		fmt_buf(threads, sizeof(threads), "%d threads", st->threads);
	return view_fit_parts(parts, 5, "  ", width, buf, size);
}

char *view_eng_table(const struct player_stats *st, char *buf, size_t size)
{
	char total[16];
	double fill = st->table_size > 0 ? 100.0 * (double)st->table_used / (double)st->table_size : 0;

	view_fmt_count(st->table_size, total, sizeof(total));
	return fmt_buf(buf, size, "table %.*f%% full of %s entries", fill < 10 ? 1 : 0, fill, total);
}

char *view_eng_score(const struct player_root_move *m, char *buf, size_t size)
{
	char proof[32];

	if (m->proof == PROOF_LOSS && m->upper)
		return fmt_buf(buf, size, "loss");
	if (m->proof == PROOF_DRAW && m->upper)
		return fmt_buf(buf, size, "<= draw");
	if (m->proof != PROOF_NONE)
		return fmt_buf(buf, size, "%s", view_fmt_proof(m->proof, m->plies, proof, sizeof(proof)));
	return fmt_buf(buf, size, "%s%+d", m->upper ? "<= " : "", m->score);
}

/* Widths of the columns of a root move row. */
enum { W_ENG_SCORE = 14, W_ENG_DEPTH = 5 };

char *view_eng_head(int width, char *buf, size_t size)
{
	char line[128];

	fmt_buf(line, sizeof(line), "%-*s %-*s %*s", W_MOVE, "move", W_ENG_SCORE, "score",
		W_ENG_DEPTH, "depth");
	return fmt_buf(buf, size, "%-*.*s", width, width, line);
}

char *view_eng_row(const struct game *g, const struct player_root_move *m, bool chosen, int width,
		   char *buf, size_t size)
{
	char line[128], name[8], score[32];

	fmt_buf(line, sizeof(line), "%c%-*s %-*s %*d", chosen ? '*' : ' ', W_MOVE - 1,
		game_move_name(g, m->move, name),
		W_ENG_SCORE, view_eng_score(m, score, sizeof(score)), W_ENG_DEPTH, m->depth);
	return fmt_buf(buf, size, "%-*.*s", width, width, line);
}
