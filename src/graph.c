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

int graph_per_column(int nply, int w, bool utf8)
{
	return utf8 && nply > w ? 2 : 1;
}

int graph_ply_at(const struct view_layout *l, int nply, int view, int per, int x, int y)
{
	int ply;

	if (l->gh == 0 || y <= l->gy || y >= l->gy + l->gh || x < l->gx || x >= l->gx + l->gw)
		return -1;
	ply = graph_first(nply, l->gw * per, view) + (x - l->gx) * per;
	/* Of a column's two plies, the one not shown: a second click there
	 * reaches the other. */
	if (per == 2 && ply == view && ply + 1 < nply)
		ply++;
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

/* The dots of one column of a braille cell, bottom up: 7 3 2 1 on the
 * left, 8 6 5 4 on the right (Unicode's bit order). */
static const unsigned char braille_left[4] = { 0x40, 0x04, 0x02, 0x01 };
static const unsigned char braille_right[4] = { 0x80, 0x20, 0x10, 0x08 };

/* The dots lit in bar row ROW of NROWS for P, a column of four a row. */
static int braille_fill(const struct graph_point *p, int row, int nrows)
{
	int level, fill;

	if (p == NULL || !p->have)
		return 0;
	level = (int)(p->value * 4 * nrows + 0.5);
	if (level < 1)
		level = 1;
	fill = level - 4 * row;
	return fill < 0 ? 0 : fill > 4 ? 4 : fill;
}

const char *graph_braille_cell(const struct graph_point *left, const struct graph_point *right,
			       int row, int nrows, bool shown_left, bool shown_right, char *buf)
{
	int fl = braille_fill(left, row, nrows), fr = braille_fill(right, row, nrows);
	unsigned bits = 0, code;

	for (int i = 0; i < fl; i++)
		bits |= braille_left[i];
	for (int i = 0; i < fr; i++)
		bits |= braille_right[i];
	if (bits == 0 && (shown_left || shown_right))
		for (int i = 0; i < 4; i++)
			bits |= shown_left ? braille_left[i] : braille_right[i];
	if (bits == 0)
		return strcpy(buf, " ");
	code = 0x2800 + bits; /* three bytes of UTF-8: 1110xxxx 10xxxxxx 10xxxxxx */
	buf[0] = (char)(0xe0 | (code >> 12));
	buf[1] = (char)(0x80 | ((code >> 6) & 0x3f));
	buf[2] = (char)(0x80 | (code & 0x3f));
	buf[3] = '\0';
	return buf;
}

char graph_mark2(const struct graph_point *left, const struct graph_point *right)
{
	char l = graph_mark(left), r = right != NULL ? graph_mark(right) : ' ';

	return l == '?' || r == '?' ? '?' : r != ' ' ? r : l;
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
