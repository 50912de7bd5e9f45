/* view.c - layout and text of the game screen, without curses.
 *
 * Geometry of the board styles, for C cells across (rows alike):
 *
 *   boxed      frame 4C+1 wide, 2R+1 high; cell c's face is the three
 *              characters around x + 4c + 2; every line is drawn, the ones
 *              between small boards of Ultimate tic-tac-toe heavy.
 *   large      boxed with faces of 7 x 3 (8C+1 x 4R+1), and huge with
 *              faces of 11 x 5 (12C+1 x 6R+1): cells stay about square,
 *              for big terminals and small games.
 *   compact    one character a cell two apart, lines only as a frame and
 *              (Ultimate) between small boards: 2C+3 x R+2 for m,n,k,
 *              25 x 13 for Ultimate.
 *
 * Labels take three columns left of the frame (row numbers up to 21) and
 * one row above it (column letters). */
#include "config.h"

#include "view.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graph.h"

#define LABEL_W 3     /* row numbers and a space, left of the frame */
#define LABEL_H 1     /* column letters, above the frame */
#define GAP 2         /* between the board and a panel beside it */
#define MARGIN 1      /* left and right of everything */
#define MIN_FOOT 2    /* status and keys, a line each; two each when there is room */

/* The size of G's regions in cells (0 x 0 for none) and how many there
 * are across and down. */
static void region_shape(const struct game *g, int *rw, int *rh, int *nx, int *ny)
{
	struct game_regions r;
	struct pos start;

	game_start(g, &start);
	game_regions(g, &start, &r);
	*rw = r.n > 0 ? r.w : 0;
	*rh = r.n > 0 ? r.h : 0;
	*nx = r.n > 0 ? g->width / r.w : 0;
	*ny = r.n > 0 ? g->height / r.h : 0;
}

/* Boxed styles: how many times the boxed board's cell they are. */
static int style_scale(int style)
{
	return style == VIEW_HUGE ? 3 : style == VIEW_LARGE ? 2 : 1;
}

static void frame_size(const struct game *g, int style, int *w, int *h)
{
	int rw, rh, nx, ny, k = style_scale(style);

	region_shape(g, &rw, &rh, &nx, &ny);
	if (style != VIEW_COMPACT) {
		*w = 4 * k * g->width + 1;
		*h = 2 * k * g->height + 1;
	} else if (rw > 0) {
		/* two characters a cell, a line and a space between regions */
		*w = (2 * rw + 2) * nx + 1;
		*h = (rh + 1) * ny + 1;
	} else {
		*w = 2 * g->width + 3;
		*h = g->height + 2;
	}
}

void view_board_size(const struct game *g, int style, int *w, int *h)
{
	frame_size(g, style, w, h);
	*w += LABEL_W;
	*h += LABEL_H;
}

/* The compact board of a game with regions: lines only between them. */
static void place_compact_regions(struct view_board *b)
{
	int rw = b->region_w, rh = b->region_h;

	for (int c = 0; c < b->cols; c++)
		b->col_x[c] = b->x + 2 + 2 * c + 2 * (c / rw);
	for (int r = 0; r < b->rows; r++)
		b->row_y[r] = b->y + 1 + r + r / rh;
	b->nvlines = b->cols / rw + 1;
	b->nhlines = b->rows / rh + 1;
	for (int i = 0; i < b->nvlines; i++) {
		b->vline_x[i] = b->x + (2 * rw + 2) * i;
		b->vheavy[i] = true;
	}
	for (int i = 0; i < b->nhlines; i++) {
		b->hline_y[i] = b->y + (rh + 1) * i;
		b->hheavy[i] = true;
	}
}

void view_board_place(struct view_board *b, const struct game *g, int style, int x, int y)
{
	int nx, ny, k = style_scale(style);

	memset(b, 0, sizeof(*b));
	assert(g->width <= VIEW_MAX_SIDE && g->height <= VIEW_MAX_SIDE);
	b->style = style;
	region_shape(g, &b->region_w, &b->region_h, &nx, &ny);
	b->regions = b->region_w > 0;
	b->cols = g->width;
	b->rows = g->height;
	b->x = x;
	b->y = y;
	frame_size(g, style, &b->w, &b->h);
	if (style != VIEW_COMPACT) {
		b->cell_w = 4 * k - 1;
		b->cell_h = 2 * k - 1;
		for (int c = 0; c < b->cols; c++)
			b->col_x[c] = x + 2 * k + 4 * k * c;
		for (int r = 0; r < b->rows; r++)
			b->row_y[r] = y + k + 2 * k * r;
		b->nvlines = b->cols + 1;
		b->nhlines = b->rows + 1;
		for (int i = 0; i < b->nvlines; i++) {
			b->vline_x[i] = x + 4 * k * i;
			b->vheavy[i] = game_region_border(g, i, true);
		}
		for (int i = 0; i < b->nhlines; i++) {
			b->hline_y[i] = y + 2 * k * i;
			b->hheavy[i] = game_region_border(g, i, false);
		}
		return;
	}
	b->cell_w = 1;
	b->cell_h = 1;
	if (b->regions) {
		place_compact_regions(b);
		return;
	}
	for (int c = 0; c < b->cols; c++)
		b->col_x[c] = x + 2 + 2 * c;
	for (int r = 0; r < b->rows; r++)
		b->row_y[r] = y + 1 + r;
	b->nvlines = b->nhlines = 2;
	b->vline_x[0] = x;
	b->vline_x[1] = x + b->w - 1;
	b->hline_y[0] = y;
	b->hline_y[1] = y + b->h - 1;
}

bool view_cell_at(const struct view_board *b, int x, int y, int *col, int *row)
{
	int half = b->cell_w / 2, vhalf = b->cell_h / 2;

	for (int r = 0; r < b->rows; r++) {
		if (y < b->row_y[r] - vhalf || y > b->row_y[r] + vhalf)
			continue;
		for (int c = 0; c < b->cols; c++)
			if (x >= b->col_x[c] - half && x <= b->col_x[c] + half) {
				*col = c;
				*row = r;
				return true;
			}
	}
	return false;
}

void view_subboard_rect(const struct view_board *b, int brd, int *x, int *y, int *w, int *h)
{
	int rw = b->region_w, rh = b->region_h;
	int bx = brd % (b->cols / rw), by = brd / (b->cols / rw);

	assert(b->regions && brd >= 0 && by < b->rows / rh);
	if (b->style != VIEW_COMPACT) {
		int k = style_scale(b->style);

		*x = b->x + 4 * k * rw * bx + 1;
		*y = b->y + 2 * k * rh * by + 1;
		*w = 4 * k * rw - 1;
		*h = 2 * k * rh - 1;
	} else {
		*x = b->x + (2 * rw + 2) * bx + 1;
		*y = b->y + (rh + 1) * by + 1;
		*w = 2 * rw + 1;
		*h = rh;
	}
}

/* Try to fit the board of G in STYLE with the panel beside it (BELOW
 * false) or under it, with FOOT rows of status and keys; fill L and return
 * true if it fits. */
static bool try_layout(struct view_layout *l, const struct game *g, int style, bool below,
		       int foot)
{
	int bw, bh, body_top = 1, body_h = l->rows - 1 - foot;
	int bx, by;

	view_board_size(g, style, &bw, &bh);
	if (!below) {
		int left, total;

		if (bw + GAP + VIEW_PANEL_MIN_W + 2 * MARGIN > l->cols)
			return false;
		if (bh > body_h || VIEW_PANEL_MIN_H > body_h)
			return false;
		l->pw = l->cols - 2 * MARGIN - bw - GAP;
		if (l->pw > VIEW_PANEL_MAX_W)
			l->pw = VIEW_PANEL_MAX_W;
		total = bw + GAP + l->pw;
		left = (l->cols - total) / 2;
		bx = left;
		/* The board's top beside the panel's: where the eye starts. */
		by = body_top;
		l->px = left + bw + GAP;
		l->py = body_top;
		l->ph = body_h;
		l->note_y = bh < body_h ? by + bh : -1;
	} else {
		if (bw + 2 * MARGIN > l->cols || VIEW_PANEL_MIN_W + 2 * MARGIN > l->cols)
			return false;
		if (bh + 1 + VIEW_PANEL_MIN_H > body_h)
			return false;
		bx = (l->cols - bw) / 2;
		by = body_top;
		l->pw = l->cols - 2 * MARGIN;
		if (l->pw > VIEW_PANEL_MAX_W)
			l->pw = VIEW_PANEL_MAX_W;
		l->px = (l->cols - l->pw) / 2;
		l->py = by + bh + 1;
		l->ph = body_h - bh - 1;
		l->note_y = by + bh;
	}
	l->panel_below = below;
	l->keys_h = foot >= 4 ? 2 : 1;
	l->status_h = foot - l->keys_h;
	l->keys_y = l->rows - l->keys_h;
	l->status_y = l->keys_y - l->status_h;
	view_board_place(&l->board, g, style, bx + LABEL_W, by + LABEL_H);
	return true;
}

/* How good a layout is, for choosing among those that fit: first the
 * panel's columns up to the bar (a panel that must drop those is worse
 * than a smaller board), then the board's size, then the rest of the
 * panel's columns, then room for a second status and key line, then the
 * panel beside the board (rows as long as the board), then its rows. */
static long layout_score(const struct view_layout *l)
{
	static const int scale[] = { [VIEW_COMPACT] = 0, [VIEW_BOXED] = 1, [VIEW_LARGE] = 2,
				     [VIEW_HUGE] = 3 };
	struct view_cols c;
	int tiers, good = VIEW_COL_GOOD, rows = l->ph < 99 ? l->ph : 99;

	view_cols(&c, l->pw);
	tiers = c.tiers;
	return ((((((long)(tiers < good ? tiers : good) * 4 + scale[l->board.style]) * 8 + tiers) *
		      4 + l->status_h + l->keys_h) * 2 + !l->panel_below) * 100) + rows;
}

bool view_layout(struct view_layout *l, const struct game *g, int cols, int rows)
{
	static const int styles[] = { VIEW_HUGE, VIEW_LARGE, VIEW_BOXED, VIEW_COMPACT };
	struct view_layout best, t;
	long best_score = -1;
	int bw, bh;

	memset(l, 0, sizeof(*l));
	l->cols = cols;
	l->rows = rows;
	l->title_y = 0;
	for (size_t i = 0; i < ARRAY_SIZE(styles); i++)
		for (int below = 0; below < 2; below++)
			for (int foot = 2; foot <= 4; foot++) {
				t = *l;
				if (try_layout(&t, g, styles[i], below, foot) &&
				    layout_score(&t) > best_score) {
					best = t;
					best_score = layout_score(&t);
				}
			}
	if (best_score >= 0) {
		*l = best;
		graph_place(l, g);
		return true;
	}

	/* Nothing fits: name what each way of laying out (with the compact
	 * board) needs, and the smaller of the two as the one to ask for. */
	view_board_size(g, VIEW_COMPACT, &bw, &bh);
	l->side_cols = bw + GAP + VIEW_PANEL_MIN_W + 2 * MARGIN;
	l->side_rows = (bh > VIEW_PANEL_MIN_H ? bh : VIEW_PANEL_MIN_H) + MIN_FOOT + 1;
	l->below_cols = (bw > VIEW_PANEL_MIN_W ? bw : VIEW_PANEL_MIN_W) + 2 * MARGIN;
	l->below_rows = bh + 1 + VIEW_PANEL_MIN_H + MIN_FOOT + 1;
	l->too_small = true;
	if (l->side_cols * l->side_rows <= l->below_cols * l->below_rows) {
		l->need_cols = l->side_cols;
		l->need_rows = l->side_rows;
	} else {
		l->need_cols = l->below_cols;
		l->need_rows = l->below_rows;
	}
	l->status_h = l->keys_h = 1;
	l->keys_y = rows - 1;
	l->status_y = rows - 2;
	return false;
}

int view_wrap(const char *text, const char *sep, int width, char (*out)[VIEW_LINE], int max)
{
	size_t seplen = strlen(sep);
	int nlines = 0, len = 0;
	const char *p = text;

	if (width <= 0)
		return 0;
	for (int i = 0; i < max; i++)
		out[i][0] = '\0';
	while (*p != '\0') {
		const char *end = strstr(p, sep);
		int wlen = end != NULL ? (int)(end - p) : (int)strlen(p);
		int add = wlen + (len > 0 ? (int)seplen : 0);

		if (wlen > 0) {
			if (nlines == 0 || len + add > width) {
				nlines++;
				len = 0;
				add = wlen;
			}
			if (wlen > width)
				wlen = add = width; /* a word longer than a line: cut */
			if (nlines <= max && len + add < VIEW_LINE) {
				char *o = out[nlines - 1];

				snprintf(o + len, (size_t)(VIEW_LINE - len), "%s%.*s", len > 0 ? sep : "",
					 wlen, p);
			}
			len += add;
		}
		if (end == NULL)
			break;
		p = end + seplen;
	}
	return nlines;
}

int view_fit_text(const char *text, int width, char (*out)[VIEW_LINE], int max)
{
	char buf[VIEW_LINE * 4];
	int n;

	fmt_buf(buf, sizeof(buf), "%s", text);
	for (;;) {
		char *cut = NULL, *q;

		n = view_wrap(buf, " ", width, out, max);
		if (n <= max)
			return n;
		/* Drop the last sentence: the text up to the last ". " stays. */
		for (q = buf; (q = strstr(q, ". ")) != NULL; q++)
			if (q[2] != '\0')
				cut = q;
		if (cut == NULL)
			break;
		cut[1] = '\0';
	}
	/* One sentence too long for the lines: its words that fit, then "...". */
	view_wrap(buf, " ", width, out, max);
	{
		char last[VIEW_LINE];
		int words = 0;

		fmt_buf(last, sizeof(last), "%s", out[max - 1]);
		while ((int)strlen(last) + 4 > width && words < 64) {
			char *sp = strrchr(last, ' ');

			if (sp == NULL) {
				last[0] = '\0';
				break;
			}
			*sp = '\0';
			words++;
		}
		fmt_buf(out[max - 1], VIEW_LINE, "%s%s...", last, last[0] != '\0' ? " " : "");
	}
	return max;
}

char *view_fmt_count(uint64_t n, char *buf, size_t size)
{
	static const char suffix[] = "kMGTPE";
	double v = (double)n;
	int i = -1;

	if (n < 10000)
		return fmt_buf(buf, size, "%u", (unsigned)n);
	/* Round first, so 999950 reads 1.0M and not 1000k. */
	while (i < 5 && v >= 999.5) {
		v /= 1000;
		i++;
	}
	if (v < 99.95)
		return fmt_buf(buf, size, "%.1f%c", v, suffix[i]);
	return fmt_buf(buf, size, "%.0f%c", v, suffix[i]);
}

char *view_fmt_bytes(size_t n, char *buf, size_t size)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int i = -1;

	if (n < 1024)
		return fmt_buf(buf, size, "%u B", (unsigned)n);
	while (i < 3 && v >= 1023.95) {
		v /= 1024;
		i++;
	}
	return fmt_buf(buf, size, v < 99.95 ? "%.1f %s" : "%.0f %s", v, unit[i]);
}

char *view_fmt_seconds(double s, char *buf, size_t size)
{
	long t;

	if (s < 0)
		s = 0;
	if (s < 9.995)
		return fmt_buf(buf, size, "%.2f s", s);
	if (s < 59.95)
		return fmt_buf(buf, size, "%.1f s", s);
	t = (long)(s + 0.5);
	if (t < 3600)
		return fmt_buf(buf, size, "%ld:%02ld", t / 60, t % 60);
	return fmt_buf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

char *view_fmt_proof(int proof, int plies, char *buf, size_t size)
{
	switch (proof) {
	case PROOF_WIN:
		return plies < 0 ? fmt_buf(buf, size, "win") : fmt_buf(buf, size, "win in %d", plies);
	case PROOF_LOSS:
		return plies < 0 ? fmt_buf(buf, size, "loss") : fmt_buf(buf, size, "loss in %d", plies);
	case PROOF_DRAW:
		return fmt_buf(buf, size, "draw");
	default:
		return fmt_buf(buf, size, "%s", "");
	}
}

char *view_game_title(const struct game *g, char *buf, size_t size)
{
	return g->ops->title(g, buf, size);
}

/* Move I of MOVES as the game line writes it: "3.b2" for X's, "a1" for
 * O's, "[a1]" when it is MARK. */
static int game_line_token(const struct game *g, const uint8_t *moves, const bool *mistake,
			   int i, int mark, char *buf, size_t size)
{
	char name[8], num[16] = "";
	const char *q = mistake != NULL && mistake[i] ? "?" : "";

	if (i % 2 == 0)
		snprintf(num, sizeof(num), "%d.", i / 2 + 1);
	return snprintf(buf, size, i == mark ? "%s[%s%s]" : "%s%s%s", num,
			game_move_name(g, moves[i], name), q);
}

/* The width of moves FIRST..LAST-1 of the line, with their "..." marks. */
static int game_line_width(const struct game *g, const uint8_t *moves, const bool *mistake,
			   int n, int first, int last, int mark)
{
	char tok[32];
	int len = (first > 0 ? 4 : 0) + (last < n ? 4 : 0) - 1;

	for (int i = first; i < last; i++)
		len += game_line_token(g, moves, mistake, i, mark, tok, sizeof(tok)) + 1;
	return len;
}

char *view_game_line(const struct game *g, const uint8_t *moves, int n, int mark, int width,
		     char *buf, size_t size)
{
	return view_game_line_marked(g, moves, NULL, n, mark, width, buf, size);
}

char *view_game_line_marked(const struct game *g, const uint8_t *moves, const bool *mistake, int n,
			    int mark, int width, char *buf, size_t size)
{
	int first = 0, last = n, len = 0;
	char tok[32];

	if (size == 0)
		return buf;
	buf[0] = '\0';
	while (first < last && game_line_width(g, moves, mistake, n, first, last, mark) > width) {
		/* Away from the marked move, or the end: it stays in sight. */
		if (mark < 0 || mark - first > last - 1 - mark)
			first++;
		else
			last--;
	}
	if (first >= last)
		return buf;
	if (first > 0)
		len += snprintf(buf + len, size - (size_t)len, "...");
	for (int i = first; i < last && (size_t)len < size; i++) {
		game_line_token(g, moves, mistake, i, mark, tok, sizeof(tok));
		len += snprintf(buf + len, size - (size_t)len, "%s%s", len > 0 ? " " : "", tok);
	}
	if (last < n && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, " ...");
	return buf;
}

char *view_moves_text(const struct game *g, const uint8_t *moves, int n, int width, char *buf,
		      size_t size)
{
	int first = 0, len;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (width <= 0)
		return buf;
	/* Drop moves from the front until the rest fits: the latest matter. */
	for (;;) {
		len = first > 0 ? 3 : 0;
		for (int i = first; i < n; i++) {
			char name[8];

			len += (int)strlen(game_move_name(g, moves[i], name)) + (i > first || first > 0);
		}
		if (len <= width || first >= n)
			break;
		first++;
	}
	if (len > width)
		return buf;
	len = 0;
	if (first > 0)
		len += snprintf(buf, size, "...");
	for (int i = first; i < n && (size_t)len < size; i++) {
		char name[8];

		len += snprintf(buf + len, size - (size_t)len, "%s%s", len > 0 ? " " : "",
				game_move_name(g, moves[i], name));
	}
	return buf;
}

int view_win_cells(const struct game *g, const struct pos *p, int *cells)
{
	uint64_t lines[GAME_MAX_LINES];
	int who = result_winner(p->result), nlines, n = 0;

	if (who < 0)
		return 0;
	nlines = game_lines(g, lines);
	for (int l = 0; l < nlines; l++) {
		uint64_t cells_of = lines[l];

		for (n = 0; cells_of != 0 && n < VIEW_MAX_SIDE; cells_of &= cells_of - 1) {
			int move = __builtin_ctzll(cells_of), col, row;

			if (g->ops->owner(g, p, move) != who)
				break;
			game_move_cell(g, move, &col, &row);
			cells[n++] = row * g->width + col;
		}
		if (cells_of == 0)
			return n;
	}
	return 0;
}
