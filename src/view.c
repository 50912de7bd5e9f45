/* view.c - layout and text of the game screen, without curses.
 *
 * Geometry of the two board styles, for C cells across (rows alike):
 *
 *   boxed      frame 4C+1 wide, 2R+1 high; cell c's face is the three
 *              characters around x + 4c + 2; every line is drawn, the ones
 *              between small boards of Ultimate tic-tac-toe heavy.
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

#define LABEL_W 3     /* row numbers and a space, left of the frame */
#define LABEL_H 1     /* column letters, above the frame */
#define GAP 2         /* between the board and a panel beside it */
#define MARGIN 1      /* left and right of everything */
#define FIXED_ROWS 3  /* title, status, keys */

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

static void frame_size(const struct game *g, int style, int *w, int *h)
{
	int rw, rh, nx, ny;

	region_shape(g, &rw, &rh, &nx, &ny);
	if (style == VIEW_BOXED) {
		*w = 4 * g->width + 1;
		*h = 2 * g->height + 1;
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
	int nx, ny;

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
	if (style == VIEW_BOXED) {
		b->cell_w = 3;
		for (int c = 0; c < b->cols; c++)
			b->col_x[c] = x + 2 + 4 * c;
		for (int r = 0; r < b->rows; r++)
			b->row_y[r] = y + 1 + 2 * r;
		b->nvlines = b->cols + 1;
		b->nhlines = b->rows + 1;
		for (int i = 0; i < b->nvlines; i++) {
			b->vline_x[i] = x + 4 * i;
			b->vheavy[i] = game_region_border(g, i, true);
		}
		for (int i = 0; i < b->nhlines; i++) {
			b->hline_y[i] = y + 2 * i;
			b->hheavy[i] = game_region_border(g, i, false);
		}
		return;
	}
	b->cell_w = 1;
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
	int half = b->cell_w / 2;

	for (int r = 0; r < b->rows; r++) {
		if (b->row_y[r] != y)
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
	if (b->style == VIEW_BOXED) {
		*x = b->x + 4 * rw * bx + 1;
		*y = b->y + 2 * rh * by + 1;
		*w = 4 * rw - 1;
		*h = 2 * rh - 1;
	} else {
		*x = b->x + (2 * rw + 2) * bx + 1;
		*y = b->y + (rh + 1) * by + 1;
		*w = 2 * rw + 1;
		*h = rh;
	}
}

/* Try to fit the board of G in STYLE with the panel beside it (BELOW
 * false) or under it; fill L and return true if it fits. */
static bool try_layout(struct view_layout *l, const struct game *g, int style, bool below)
{
	int bw, bh, body_top = 1, body_h = l->rows - FIXED_ROWS;
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
		by = body_top + (body_h - bh) / 2;
		l->px = left + bw + GAP;
		l->py = body_top;
		l->ph = body_h;
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
	}
	l->panel_below = below;
	view_board_place(&l->board, g, style, bx + LABEL_W, by + LABEL_H);
	return true;
}

bool view_layout(struct view_layout *l, const struct game *g, int cols, int rows)
{
	static const struct {
		int style;
		bool below;
	} order[] = {
		{ VIEW_BOXED, false },
		{ VIEW_BOXED, true },
		{ VIEW_COMPACT, false },
		{ VIEW_COMPACT, true },
	};
	int bw, bh, side_w, side_h, below_w, below_h;

	memset(l, 0, sizeof(*l));
	l->cols = cols;
	l->rows = rows;
	l->title_y = 0;
	l->status_y = rows - 2;
	l->keys_y = rows - 1;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (try_layout(l, g, order[i].style, order[i].below))
			return true;

	/* Nothing fits: name the smaller of the two compact layouts' needs. */
	view_board_size(g, VIEW_COMPACT, &bw, &bh);
	side_w = bw + GAP + VIEW_PANEL_MIN_W + 2 * MARGIN;
	side_h = (bh > VIEW_PANEL_MIN_H ? bh : VIEW_PANEL_MIN_H) + FIXED_ROWS;
	below_w = (bw > VIEW_PANEL_MIN_W ? bw : VIEW_PANEL_MIN_W) + 2 * MARGIN;
	below_h = bh + 1 + VIEW_PANEL_MIN_H + FIXED_ROWS;
	l->too_small = true;
	if (side_w * side_h <= below_w * below_h) {
		l->need_cols = side_w;
		l->need_rows = side_h;
	} else {
		l->need_cols = below_w;
		l->need_rows = below_h;
	}
	return false;
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
