/* ui.c - the game screen's loop, terminal set-up and signals.
 *
 * The loop follows htop's update-then-draw: stop on a signal; let the
 * session take a slice of time (whatever thinks thinks, an engine whose
 * move is ready plays it); update what drawing needs (the live numbers,
 * the layout, the panel's scroll); draw if something changed (while
 * thinking at most every FRAME_NS); then read the keys, without waiting
 * while something thinks and blocking otherwise. Keys become commands of
 * the session through the key table (keys.h); drawing (draw.h) only reads
 * the session. */
#include "config.h"

#include "ui.h"

#include <curses.h>
#include <term.h> /* after curses.h; its capability macros include "lines" */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "draw.h"
#include "graph.h"
#include "keys.h"
#include "session.h"
#include "util.h"
#include "view.h"

#define FRAME_NS (60 * SESSION_MS) /* redraw period while thinking: 12-16 a second */

static volatile sig_atomic_t got_signal;
static bool curses_on;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* Ctrl-Z (SIGTSTP) is ours, not curses': curses ignores it while it
 * updates the screen (SIG_IGN around doupdate()), and a search redraws a
 * dozen times a second, so a Ctrl-Z pressed then was lost (often, on a
 * loaded machine). Installed before curses starts, so that curses leaves
 * the signal alone; the handler only notes it, and the loop stops the
 * program between two steps (suspend()). */
static volatile sig_atomic_t got_tstp;

static void on_tstp(int sig)
{
	(void)sig;
	got_tstp = 1;
}

/* Give the terminal back and stop as SIGTSTP would, with the search's
 * clocks standing still until SIGCONT; then take the terminal again, all
 * of it redrawn at the next update. */
static void suspend(void)
{
	struct sigaction dfl, ours;

	got_tstp = 0;
	endwin();
	clock_stop_begin();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &ours);
	raise(SIGTSTP); /* (stopped here until SIGCONT) */
	sigaction(SIGTSTP, &ours, NULL);
	clock_stop_end();
	clearok(curscr, TRUE);
}

/* fatal() calls this before printing: give the terminal back first. */
static void fatal_hook(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

/* The key table's code for a key curses read. */
static int key_code(int ch)
{
	switch (ch) {
	case KEY_UP: return KEY_CODE_UP;
	case KEY_DOWN: return KEY_CODE_DOWN;
	case KEY_LEFT: return KEY_CODE_LEFT;
	case KEY_RIGHT: return KEY_CODE_RIGHT;
	case KEY_ENTER: return KEY_CODE_ENTER;
	case KEY_PPAGE: return KEY_CODE_PGUP;
	case KEY_NPAGE: return KEY_CODE_PGDN;
	case KEY_BACKSPACE: return KEY_CODE_BACKSPACE;
	case KEY_RESIZE: return KEY_CODE_RESIZE;
	default: return ch >= 0 && ch < 256 ? ch : -2;
	}
}

/* What a mouse event is (mouse_at). */
enum { MOUSE_PRESS, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };

/* A press of the first button at X, Y: a cell of the board, a ply of the
 * graph, a row of the panel; or the wheel. */
static int mouse_at(struct session *u, const struct screen *sc, int what, int x, int y)
{
	const struct view_layout *l = &sc->lay;
	int col, row, ply;

	if (l->too_small || u->modal != SESSION_MODAL_NONE)
		return 0;
	u->msg[0] = '\0';
	if (what != MOUSE_PRESS) {
		session_scroll(u, what == MOUSE_WHEEL_UP ? -3 : 3);
		return SESSION_REDRAW;
	}
	if (view_cell_at(&l->board, x, y, &col, &row))
		session_click_cell(u, col, row);
	else if ((ply = graph_ply_at(l, u->nmoves + 1, u->view,
				     graph_per_column(u->nmoves + 1, l->gw, sc->glyphs == LINES_UTF8),
				     x, y)) >= 0)
		session_goto_ply(u, ply);
	else if (x >= l->px && x < l->px + l->pw && y >= l->py + VIEW_PANEL_HEAD &&
		 y < l->py + l->ph)
		session_click_row(u, y - l->py - VIEW_PANEL_HEAD);
	return SESSION_REDRAW;
}

/* A mouse event curses decoded. */
static int mouse(struct session *u, const struct screen *sc)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return 0;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED))
		return mouse_at(u, sc, ev.bstate & BUTTON4_PRESSED ? MOUSE_WHEEL_UP : MOUSE_WHEEL_DOWN,
				ev.x, ev.y);
#endif
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return 0;
	return mouse_at(u, sc, MOUSE_PRESS, ev.x, ev.y);
}

/* After an Escape: a mouse report curses did not know for one, because
 * the terminal's encoding is not the one TERM names (SGR "ESC [ < b;x;y M"
 * where TERM says X10, or X10 "ESC [ M bxy" where it says SGR). Read as
 * keys it would be Escape, [ (back in the history) and more: it is taken
 * as the click it is, or dropped if garbled. Returns false, with what it
 * read put back, when no report follows. */
static bool raw_mouse(struct session *u, const struct screen *sc, int *flags)
{
	char buf[32];
	int c1, c2, n = 0, b, x, y;
	char end;

	timeout(5); /* the rest of a report comes with its first byte */
	c1 = getch();
	c2 = c1 == '[' ? getch() : ERR;
	if (c1 != '[' || (c2 != '<' && c2 != 'M')) {
		if (c2 != ERR)
			ungetch(c2);
		if (c1 != ERR)
			ungetch(c1);
		return false;
	}
	if (c2 == 'M') {
		for (n = 0; n < 3; n++)
			if ((buf[n] = (char)getch()) == (char)ERR)
				return true;
		b = (unsigned char)buf[0] - 32;
		x = (unsigned char)buf[1] - 33;
		y = (unsigned char)buf[2] - 33;
		end = (b & 3) == 3 ? 'm' : 'M';
	} else {
		int c;

		while (n < (int)sizeof(buf) - 1 && (c = getch()) != ERR) {
			buf[n++] = (char)c;
			if (c == 'M' || c == 'm')
				break;
		}
		buf[n] = '\0';
		if (sscanf(buf, "%d;%d;%d%c", &b, &x, &y, &end) != 4)
			return true;
		x--, y--;
	}
	if (end == 'M' && (b & ~3) == 64)
		*flags |= mouse_at(u, sc, b & 1 ? MOUSE_WHEEL_DOWN : MOUSE_WHEEL_UP, x, y);
	else if (end == 'M' && b == 0)
		*flags |= mouse_at(u, sc, MOUSE_PRESS, x, y);
	return true;
}

/* Update what drawing reads, then draw. */
static void update_and_draw(struct session *u, struct screen *sc)
{
	session_refresh(u);
	view_layout(&sc->lay, &u->g, COLS, LINES);
	if (!sc->lay.too_small) {
		session_fit_scroll(u, draw_panel_rows(sc));
		session_fit_help(u, draw_help_room(sc));
	}
	draw_screen(sc);
	u->dirty = false;
}

static int run(struct session *u, struct screen *sc)
{
	uint64_t drawn_ns = 0;

	for (;;) {
		uint64_t now, wake;
		int ch, flags = 0;
		bool was_thinking = session_thinking(u);

		if (got_signal != 0)
			return 128 + got_signal;
		if (got_tstp) {
			suspend();
			u->dirty = true;
		}
		wake = session_tick(u, now_ns());
		now = now_ns();
		if (was_thinking && now - drawn_ns >= FRAME_NS)
			u->dirty = true;
		if (u->dirty) {
			update_and_draw(u, sc);
			drawn_ns = now_ns();
		}
		/* Wait for a key only when nothing thinks; a timer only for the
		 * pause of auto-play. */
		if (session_thinking(u) || u->dirty)
			timeout(0);
		else if (wake != 0)
			timeout((int)((wake - now) / SESSION_MS) + 1);
		else
			timeout(-1);
		ch = getch();
		while (ch != ERR) {
			if (ch == KEY_MOUSE)
				flags |= mouse(u, sc);
			else if (ch != 27 || !raw_mouse(u, sc, &flags))
				flags |= session_key(u, key_code(ch));
			if (flags & SESSION_QUIT)
				return 0;
			timeout(0);
			ch = getch();
		}
		if (flags & SESSION_REDRAW)
			u->dirty = true;
	}
}

static void colors_init(struct screen *sc)
{
	const char *no = getenv("NO_COLOR");
	short bg = -1;

	sc->color = has_colors() && (no == NULL || no[0] == '\0');
	if (!sc->color)
		return;
	start_color();
	if (use_default_colors() == ERR)
		bg = COLOR_BLACK;
	init_pair(PAIR_X, COLOR_RED, bg);
	init_pair(PAIR_O, COLOR_CYAN, bg);
	init_pair(PAIR_CURSOR, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_ALLOWED, COLOR_YELLOW, bg);
	init_pair(PAIR_HINT, COLOR_MAGENTA, bg);
	init_pair(PAIR_GOOD, COLOR_GREEN, bg);
	init_pair(PAIR_FAIR, COLOR_YELLOW, bg);
	init_pair(PAIR_BAD, COLOR_RED, bg);
	/* The overlay's heat: greys of rising brightness where there are
	 * 256 colours, else blue, cyan, yellow, white. */
	if (COLORS >= 256) {
		init_pair(PAIR_HEAT1, 252, 237);
		init_pair(PAIR_HEAT2, 255, 241);
		init_pair(PAIR_HEAT3, 16, 247);
		init_pair(PAIR_HEAT4, 16, 254);
	} else {
		init_pair(PAIR_HEAT1, COLOR_WHITE, COLOR_BLUE);
		init_pair(PAIR_HEAT2, COLOR_BLACK, COLOR_CYAN);
		init_pair(PAIR_HEAT3, COLOR_BLACK, COLOR_YELLOW);
		init_pair(PAIR_HEAT4, COLOR_BLACK, COLOR_WHITE);
	}
}

/* Can curses draw on this terminal? Asked before it starts, so that an
 * unknown TERM or one that cannot move the cursor (dumb) gets one line of
 * text, not a screen of garbage. Returns 0, or 2 after a line on stderr. */
static int check_terminal(void)
{
	const char *term = getenv("TERM"), *cup;
	int err = 0;
	bool can;

	if (term == NULL || term[0] == '\0') {
		fputs("noughts: play: TERM is not set: the game screen needs the terminal's type, "
		      "such as TERM=xterm-256color\n",
		      stderr);
		return 2;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		if (err == 1)
			fprintf(stderr,
				"noughts: play: TERM=%s is a hardcopy terminal: the game screen "
				"needs one that can move the cursor\n",
				term);
		else if (err == 0)
			fprintf(stderr,
				"noughts: play: unknown terminal type '%s' (TERM): no terminfo "
				"entry; try TERM=xterm-256color\n",
				term);
		else
			fprintf(stderr, "noughts: play: no terminfo database found for TERM=%s\n",
				term);
		return 2;
	}
	cup = tigetstr("cup");
	can = cup != NULL && cup != (char *)-1;
	del_curterm(cur_term);
	if (!can) {
		fprintf(stderr,
			"noughts: play: TERM=%s cannot move the cursor; the game screen needs "
			"a terminal that can\n",
			term);
		return 2;
	}
	return 0;
}

/* Everything that can fail, checked before curses starts: --load (into
 * *REC, or NULL without it; WHY gets words about its players), --record,
 * a terminal on stdin and stdout that curses can drive. Returns 0 or the
 * exit status after one line on stderr. */
static int preflight(struct options *opt, struct record **rec, char *why, size_t whysize)
{
	int status;

	*rec = NULL;
	if (opt->load != NULL) {
		*rec = xmalloc(sizeof(**rec));
		if ((status = session_load(opt, *rec, why, whysize)) != 0)
			goto fail;
	}
	if (opt->record != NULL && (status = session_check_record(opt->record)) != 0)
		goto fail;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fputs("noughts: play: the game screen needs a terminal on stdin and stdout; "
		      "without one use a command such as 'noughts show' or 'noughts analyze'\n",
		      stderr);
		status = 2;
		goto fail;
	}
	if ((status = check_terminal()) != 0)
		goto fail;
	return 0;
fail:
	free(*rec);
	*rec = NULL;
	return status;
}

/* Curses' settings for the game: keys, no echo, the mouse where the
 * terminal reports it, colours, and how lines are drawn (into SC). */
static void curses_setup(struct screen *sc, bool ascii)
{
	const char *kmous;

	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
#ifdef NCURSES_VERSION
	set_escdelay(25); /* Escape closes things at once, not after a second */
#endif
	/* The mouse only where the terminal reports it itself (kmous), and not
	 * on the Linux console, where curses would load the GPM library (which
	 * needs its daemon, and leaks). */
	kmous = tigetstr("kmous");
	if (kmous != NULL && kmous != (char *)-1 && strncmp(termname(), "linux", 5) != 0) {
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED
#ifdef BUTTON5_PRESSED
				  | BUTTON4_PRESSED | BUTTON5_PRESSED
#endif
			  ,
			  NULL);
	}
	colors_init(sc);
	/* UTF-8 lines (heavy and light) need a UTF-8 locale and the
	 * wide-character library, which takes a multibyte string apart into
	 * characters (the narrow one would put out its bytes one by one): the
	 * header alone cannot tell, so configure says which was linked
	 * (HAVE_NCURSESW). The Linux console's fonts often lack the heavy
	 * lines. */
	sc->glyphs = ascii ? LINES_ASCII : LINES_ACS;
#if defined(HAVE_NCURSESW) && NCURSES_WIDECHAR
	if (!ascii && MB_CUR_MAX > 1 && strncmp(termname(), "linux", 5) != 0)
		sc->glyphs = LINES_UTF8;
#else
	/* The narrow library in a UTF-8 locale often cannot switch to the
	 * line-drawing set either (the letters of "lqqqk" show instead). */
	if (MB_CUR_MAX > 1)
		sc->glyphs = LINES_ASCII;
#endif
}

int ui_play(struct options *opt)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa, old[ARRAY_SIZE(sigs)], old_tstp;
	struct record *rec;
	struct session *u;
	struct screen sc = { 0 };
	SCREEN *scr;
	char why[200] = "";
	int status;

	if ((status = preflight(opt, &rec, why, sizeof(why))) != 0)
		return status;
	/* Only the character type: numbers keep their decimal point. */
	setlocale(LC_CTYPE, "");
	u = session_new(opt, rec);
	if (rec != NULL)
		session_loaded(u, opt->load, rec, why);
	free(rec);

	/* Our handlers go in before curses starts, so it leaves them alone;
	 * no SA_RESTART, so a blocking read returns to the loop. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
	/* (left ignored if it was: a shell without job control) */
	sa.sa_handler = on_tstp;
	if (sigaction(SIGTSTP, NULL, &old_tstp) == 0 && old_tstp.sa_handler != SIG_IGN)
		sigaction(SIGTSTP, &sa, NULL);
	got_signal = got_tstp = 0;

	scr = newterm(NULL, stdout, stdin);
	if (scr == NULL) {
		const char *term = getenv("TERM");

		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
			sigaction(sigs[i], &old[i], NULL);
		sigaction(SIGTSTP, &old_tstp, NULL);
		fprintf(stderr, "noughts: play: cannot use the terminal (TERM=%s)\n",
			term != NULL ? term : "unset");
		session_free(u);
		return 2;
	}
	set_term(scr);
	curses_on = true;
	util_set_fatal_hook(fatal_hook);
	sc.se = u;
	curses_setup(&sc, opt->ascii);

	status = run(u, &sc);

	endwin();
	curses_on = false;
	util_set_fatal_hook(NULL);
	delscreen(scr);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
	sigaction(SIGTSTP, &old_tstp, NULL);
	if (u->exit_note[0] != '\0')
		fprintf(stderr, "noughts: %s\n", u->exit_note);
	session_free(u);
	return status;
}
