/* graph.c - the value graph without curses: its place, its columns, the
 * characters of its bars, marks and caption. */
#include "config.h"

#include "graph.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define LABEL_W 3 /* as in view.c: row numbers left of the board's frame */
#define PANEL_KEEP (VIEW_PANEL_MIN_H + 3) /* rows a panel keeps under a graph */

/* The graph in the rows under the board of a panel beside it, after the
 * board's note line and a blank one, up to the status line. */
static bool under_board(struct view_layout *l)
{
	const struct view_board *b = &l->board;
	int gx = b->x - LABEL_W, gy, gh, gw = l->px - 2 - gx;

	if (l->panel_below || l->note_y < 0)
		return false;
	gy = l->note_y + 2;
	gh = l->status_y - gy;
	if (gh < GRAPH_MIN_H || gw < GRAPH_MIN_W)
		return false;
	l->gx = gx;
	l->gy = gy;
	l->gw = gw;
	l->gh = gh > GRAPH_MAX_H ? GRAPH_MAX_H : gh;
	return true;
}

void graph_place(struct view_layout *l, const struct game *g)
{
	int gh;

	l->gx = l->gy = l->gw = l->gh = 0;
	(void)g;
	if (l->too_small || under_board(l))
		return;
	/* The panel's last rows, a blank one above the graph. */
	gh = l->ph - PANEL_KEEP - 1;
	if (gh < GRAPH_MIN_H || l->pw < GRAPH_MIN_W)
		return;
	if (gh > GRAPH_MAX_H - 2)
		gh = GRAPH_MAX_H - 2; /* the panel's rows are worth more */
	l->ph -= gh + 1;
	l->gx = l->px;
	l->gy = l->py + l->ph + 1;
	l->gw = l->pw;
	l->gh = gh;
}

int graph_first(int nply, int w, int view)
{
	int first;

	if (nply <= w || w <= 0)
		return 0;
	first = view - (2 * w) / 3;
	if (first > nply - w)
		first = nply - w;
	return first < 0 ? 0 : first;
}

int graph_ply_at(const struct view_layout *l, int nply, int view, int x, int y)
{
	int ply;

	if (l->gh == 0 || y <= l->gy || y >= l->gy + l->gh || x < l->gx || x >= l->gx + l->gw)
		return -1;
	ply = graph_first(nply, l->gw, view) + (x - l->gx);
	return ply < nply ? ply : -1;
}

const char *graph_bar_cell(double value, int row, int nrows, bool ascii)
{
	static const char *const blocks[9] = {
		" ",	    "\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const plain[9] = { " ", ".", ".", ".", ":", ":", ":", "#", "#" };
	int level = (int)(value * 8 * nrows + 0.5), fill;

	if (level < 1)
		level = 1;
	fill = level - 8 * row;
	fill = fill < 0 ? 0 : fill > 8 ? 8 : fill;
	return ascii ? plain[fill] : blocks[fill];
}

char graph_mark(const struct graph_point *p)
{
	if (p->mistake)
		return '?';
	if (!p->have)
		return ' ';
	switch (p->proof) {
	case PROOF_WIN: return 'x';
	case PROOF_LOSS: return 'o';
	case PROOF_DRAW: return '=';
	default: return ' ';
	}
}

char *graph_caption(const struct graph_point *p, int view, int nply, int w, char *buf,
		    size_t size)
{
	char value[32];
	int n;

	if (!p->have)
		fmt_buf(value, sizeof(value), "no value");
	else if (p->proof == PROOF_WIN)
		fmt_buf(value, sizeof(value), "X's win");
	else if (p->proof == PROOF_LOSS)
		fmt_buf(value, sizeof(value), "O's win");
	else if (p->proof == PROOF_DRAW)
		fmt_buf(value, sizeof(value), "draw");
	else
		fmt_buf(value, sizeof(value), "%.2f", p->value);
	n = snprintf(buf, size, "X's value  ply %d/%d: %s%s", view, nply - 1, value,
		     p->mistake ? ", then a mistake" : "");
	if (n > w)
		n = snprintf(buf, size, "X %d/%d: %s%s", view, nply - 1, value, p->mistake ? " ?" : "");
	if (n > w)
		snprintf(buf, size, "%d: %s", view, value);
	return buf;
}
