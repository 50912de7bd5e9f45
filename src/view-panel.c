/* view-panel.c - the panel's text without curses: the columns of the
 * candidate rows and which are dropped on narrow panels, the rows, the
 * search's progress lines, negamax's root moves. Declared in view.h. */
#include "config.h"

#include "view.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Widths of the columns of a candidate row; each but the move has a space
 * before it. */
enum {
	W_MOVE = 4,
	W_VISITS = 6, /* room for the heading "visits" */
	W_COUNT = 5, /* view_fmt_count's widest */
	W_RATE = 5,  /* "54.3%" */
	W_NET = 5,   /* as the win rate */
	W_UCT = 5,   /* "0.712" */
	W_PROOF = 7, /* "loss 81" */
	BAR_MIN = 4,
	BAR_MAX = 20,
};

void view_cols(struct view_cols *c, int width)
{
	view_cols_net(c, width, false);
}

void view_cols_net(struct view_cols *c, int width, bool net)
{
	int w_net = net ? 1 + W_NET : 0;
	int base_all = W_MOVE + (1 + W_VISITS) + 1 + 3 * (1 + W_COUNT) + (1 + W_RATE) + w_net +
		       (1 + W_UCT) + (1 + W_PROOF);
	int base_nowdl = base_all - 3 * (1 + W_COUNT);
	int base_nouct = base_nowdl - (1 + W_UCT);
	int base_min = base_nouct - w_net;
	bool wdl = false, uct = false, shown_net = false;
	int x;

	c->width = width;
	c->bar_w = 0;
	if (width >= base_all + BAR_MIN) {
		wdl = uct = shown_net = true;
		c->bar_w = width - base_all;
	} else if (width >= base_nowdl + BAR_MIN) {
		uct = shown_net = true;
		c->bar_w = width - base_nowdl;
	} else if (net && width >= base_nouct + BAR_MIN) {
		shown_net = true; /* the network's value says more than UCT */
		c->bar_w = width - base_nouct;
	} else if (width >= base_min + 1) {
		c->bar_w = width - base_min;
	}
	if (c->bar_w > BAR_MAX)
		c->bar_w = BAR_MAX;
	x = 0;
	c->move_x = x;
	x += W_MOVE + 1;
	c->visits_x = x;
	x += W_VISITS + 1;
	if (c->bar_w > 0) {
		c->bar_x = x;
		x += c->bar_w + 1;
	} else {
		c->bar_x = -1;
	}
	c->wins_x = c->draws_x = c->losses_x = -1;
	if (wdl) {
		c->wins_x = x;
		c->draws_x = x + W_COUNT + 1;
		c->losses_x = x + 2 * (W_COUNT + 1);
		x += 3 * (W_COUNT + 1);
	}
	c->rate_x = x;
	x += W_RATE + 1;
	c->net_x = -1;
	if (shown_net && net) {
		c->net_x = x;
		x += W_NET + 1;
	}
	c->uct_x = -1;
	if (uct) {
		c->uct_x = x;
		x += W_UCT + 1;
	}
	c->proof_x = x + W_PROOF <= width ? x : -1;
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

bool view_has_net(const struct mcts_child *kids, int n)
{
	for (int i = 0; i < n; i++)
		if (!isnan(kids[i].net))
			return true;
	return false;
}

int view_bar_len(uint64_t visits, uint64_t total, int bar_w)
{
	int n;

	if (total == 0 || visits == 0 || bar_w <= 0)
		return 0;
	if (visits >= total)
		return bar_w;
	n = (int)(((double)visits * bar_w) / (double)total + 0.5);
	return n < 1 ? 1 : n > bar_w ? bar_w : n;
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
	if (c->bar_x >= 0)
		put_field(buf, c->width, c->bar_x, c->bar_w, false, "share");
	put_field(buf, c->width, c->wins_x, W_COUNT, true, "wins");
	put_field(buf, c->width, c->draws_x, W_COUNT, true, "draws");
	put_field(buf, c->width, c->losses_x, W_COUNT, true, "loss");
	put_field(buf, c->width, c->rate_x, W_RATE, true, "win%");
	put_field(buf, c->width, c->net_x, W_NET, true, "net");
	put_field(buf, c->width, c->uct_x, W_UCT, true, "UCT");
	put_field(buf, c->width, c->proof_x, W_PROOF, false, "proven");
	return buf;
}

/* A candidate row; SAVED: from a record, which keeps no wins, draws,
 * losses or UCT value. */
static char *child_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		       uint64_t total, bool saved, char *buf, size_t size)
{
	char t[32];
	int n;

	if (!row_begin(c, buf, size))
		return buf;
	put_field(buf, c->width, c->move_x, W_MOVE, false, game_move_name(g, ch->move, t));
	put_field(buf, c->width, c->visits_x, W_VISITS, true,
		  view_fmt_count(ch->visits, t, sizeof(t)));
	n = view_bar_len(ch->visits, total, c->bar_w);
	if (c->bar_x >= 0)
		memset(buf + c->bar_x, '#', (size_t)n);
	put_field(buf, c->width, c->wins_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->wins, t, sizeof(t)));
	put_field(buf, c->width, c->draws_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->draws, t, sizeof(t)));
	put_field(buf, c->width, c->losses_x, W_COUNT, true,
		  saved ? "-" : view_fmt_count(ch->losses, t, sizeof(t)));
	view_fmt_rate(ch->visits == 0 ? (double)NAN : ch->value, t, sizeof(t));
	put_field(buf, c->width, c->rate_x, W_RATE, true, t);
	put_field(buf, c->width, c->net_x, W_NET, true, view_fmt_rate(ch->net, t, sizeof(t)));
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
		     uint64_t total, char *buf, size_t size)
{
	return child_row(c, g, ch, total, false, buf, size);
}

char *view_saved_row(const struct view_cols *c, const struct game *g, const struct mcts_child *ch,
		     uint64_t total, char *buf, size_t size)
{
	return child_row(c, g, ch, total, true, buf, size);
}

int view_saved_children(int move, const struct record_info *info, struct mcts_child *out)
{
	memset(out, 0, 2 * sizeof(*out));
	out[0].move = move;
	out[0].visits = info->visits;
	out[0].value = info->value;
	out[0].uct = HUGE_VAL;
	out[0].net = out[1].net = NAN; /* (a record keeps no network value) */
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

char *view_share_text(uint64_t visits, uint64_t total, int cell_w, char *buf, size_t size)
{
	double share = total > 0 ? (double)visits / (double)total : 0;
	int pct = (int)(share * 100 + 0.5);

	if (cell_w >= 3) {
		if (pct >= 100)
			return fmt_buf(buf, size, "100");
		return fmt_buf(buf, size, "%2d%%", pct);
	}
	if (share >= 0.95)
		return fmt_buf(buf, size, "#");
	return fmt_buf(buf, size, "%d", (int)(share * 10));
}

char *view_progress_text(const struct player_spec *spec, const struct mcts_totals *t,
			 char *buf, size_t size)
{
	char it[16], budget[16], rate[16], secs[16], limit[16];
	uint64_t n = 0;

	view_fmt_count(t->iterations, it, sizeof(it));
	view_fmt_count((uint64_t)t->per_second, rate, sizeof(rate));
	view_fmt_seconds(t->seconds, secs, sizeof(secs));
	if (spec != NULL && spec->kind == PLAYER_MCTS)
		n = spec->iterations != 0 ? spec->iterations
		    : spec->time_ms != 0  ? 0
					  : player_level_iterations(spec->level != 0
									    ? spec->level
									    : PLAYER_DEFAULT_LEVEL);
	if (spec != NULL && spec->kind == PLAYER_MCTS && spec->time_ms > 0 && spec->iterations == 0)
		fmt_buf(buf, size, "%s iterations  %s/s  %s of %s", it, rate, secs,
			view_fmt_seconds(spec->time_ms / 1000.0, limit, sizeof(limit)));
	else if (n == 0)
		fmt_buf(buf, size, "%s iterations  %s/s  %s", it, rate, secs);
	else
		fmt_buf(buf, size, "%s of %s iterations  %s/s  %s", it,
			view_fmt_count(n, budget, sizeof(budget)), rate, secs);
	if (t->threads > 1) {
		size_t len = strlen(buf);

		fmt_buf(buf + len, size - len, "  %d threads", t->threads);
	}
	return buf;
}

char *view_eng_progress(const struct player_stats *st, char *buf, size_t size)
{
	char nodes[16], rate[16], secs[16], depth[48];
	double per = st->seconds > 0 ? (double)st->nodes / st->seconds : 0;

	view_fmt_count(st->nodes, nodes, sizeof(nodes));
	view_fmt_count((uint64_t)per, rate, sizeof(rate));
	view_fmt_seconds(st->seconds, secs, sizeof(secs));
	if (st->searching > st->depth)
		fmt_buf(depth, sizeof(depth), "depth %d, %d next", st->depth, st->searching);
	else
		fmt_buf(depth, sizeof(depth), "depth %d", st->depth);
	if (st->max_depth > 0) {
		size_t n = strlen(depth);

		fmt_buf(depth + n, sizeof(depth) - n, " of %d", st->max_depth);
	}
	return fmt_buf(buf, size, "%s  %s nodes  %s/s  %s", depth, nodes, rate, secs);
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

char *view_eng_row(const struct game *g, const struct player_root_move *m, int width, char *buf,
		   size_t size)
{
	char line[128], name[8], score[32];

	fmt_buf(line, sizeof(line), "%-*s %-*s %*d", W_MOVE, game_move_name(g, m->move, name),
		W_ENG_SCORE, view_eng_score(m, score, sizeof(score)), W_ENG_DEPTH, m->depth);
	return fmt_buf(buf, size, "%-*.*s", width, width, line);
}
