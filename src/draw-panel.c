/* draw-panel.c - the panel: whose search, how far it got, a row per candidate
 * move, the principal variation and the game's moves; a saved game's
 * numbers from its record. */
#include "config.h"

#include "draw.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

char *draw_player_brief(const struct player_spec *s, char *buf, size_t size)
{
	char t[16];
	int level = s->level != 0 ? s->level : PLAYER_DEFAULT_LEVEL;

	switch (s->kind) {
	case PLAYER_HUMAN:
		return fmt_buf(buf, size, "human");
	case PLAYER_RANDOM:
		return fmt_buf(buf, size, "random");
	case PLAYER_MCTS:
		if (s->iterations != 0)
			return fmt_buf(buf, size, "mcts %s iterations",
				       view_fmt_count(s->iterations, t, sizeof(t)));
		if (s->time_ms != 0)
			return fmt_buf(buf, size, "mcts %s",
				       view_fmt_seconds(s->time_ms / 1000.0, t, sizeof(t)));
		return fmt_buf(buf, size, "mcts level %d", level);
	default:
		if (s->depth != 0)
			return fmt_buf(buf, size, "negamax depth %d", s->depth);
		if (s->time_ms != 0)
			return fmt_buf(buf, size, "negamax %s",
				       view_fmt_seconds(s->time_ms / 1000.0, t, sizeof(t)));
		return fmt_buf(buf, size, "negamax level %d", level);
	}
}

/* The panel's second row: what the numbers are and what the search does. */
static void panel_status(const struct screen *sc, const struct session_snap *s, char *buf, size_t size)
{
	const struct session *u = sc->se;
	char t[32], name[8];
	const struct pos *p = session_present(u);

	if (u->inspecting) {
		fmt_buf(buf, size, "inspector: one iteration (i: another, Esc: leave)");
	} else if (s == NULL && u->view < u->nmoves) {
		fmt_buf(buf, size, "when %c chose %s: no search numbers",
			game_side_mark(u->hist[u->view].turn),
			game_move_name(&u->g, u->moves[u->view], name));
	} else if (s == NULL) {
		if (game_over(p))
			fmt_buf(buf, size, "game over");
		else if (session_engine_to_move(u))
			fmt_buf(buf, size, "%s (no search tree to show)",
				session_thinking(u) ? "thinking" : u->paused ? "paused" : "ready");
		else
			fmt_buf(buf, size, "waiting for you%s",
				session_is_engine(u, !p->turn) || u->hint_mode ? "" : " (t: analysis)");
	} else if (s != &u->live) {
		fmt_buf(buf, size, "when %c chose %s%s", game_side_mark(s->side),
			game_move_name(&u->g, s->chosen, name),
			u->view < u->nmoves ? "" : session_human_to_move(u) ? "; waiting for you" : "");
	} else if (s->is_eng && s->eng.proof != PROOF_NONE) {
		fmt_buf(buf, size, "solved: %s", view_fmt_proof(s->eng.proof, s->eng.plies, t, sizeof(t)));
	} else if (s->tot.root_proven != PROOF_NONE) {
		fmt_buf(buf, size, "solved: %s",
			view_fmt_proof(s->tot.root_proven, s->tot.root_proven_plies, t, sizeof(t)));
	} else if (u->paused) {
		fmt_buf(buf, size, "paused (p resumes)");
	} else if (s->analysis) {
		fmt_buf(buf, size, u->analysis_done ? "analysis done" : "analysing for you");
	} else if (u->ready) {
		fmt_buf(buf, size, "ready: %s%s",
			game_move_name(&u->g, mcts_best_move(session_live_search(u)), name),
			session_eve(u) && !u->autoplay ? " (s plays it)" : "");
	} else {
		fmt_buf(buf, size, "thinking");
	}
	if (s == &u->live && u->path_len > 0 && !u->inspecting) {
		size_t n = strlen(buf);
		char moves[64];

		view_moves_text(&u->g, u->path, u->path_len, 30, moves, sizeof(moves));
		fmt_buf(buf + n, size - n, "; below %s (Left: up)", moves);
	}
}

/* Inspector: how the row of MOVE changed between the snapshots. */
static bool row_delta(const struct screen *sc, const struct mcts_child *c, char *buf, size_t size)
{
	const struct session *u = sc->se;
	for (int i = 0; i < u->before.n; i++) {
		const struct mcts_child *b = &u->before.kids[i];

		if (b->move != c->move)
			continue;
		if (b->visits == c->visits)
			return false;
		fmt_buf(buf, size, "+%u %s", c->visits - b->visits,
			c->wins > b->wins ? "win" : c->draws > b->draws ? "draw" : "loss");
		return true;
	}
	if (c->visits == 0)
		return false;
	fmt_buf(buf, size, "new");
	return true;
}

static void draw_inspector_lines(const struct screen *sc, int x, int y, int w, int n)
{
	const struct session *u = sc->se;
	const struct mcts_trace *t = &u->trace;
	char line[256], moves[160], name[8];
	const char *res = t->result == RESULT_X ? "X wins" : t->result == RESULT_O ? "O wins"
							      : "a draw";
	attr_t a = draw_pair(sc, PAIR_HINT, A_BOLD);

	if (!t->ran) {
		draw_text(sc, y, x, w, A_BOLD, "no iteration ran: the search is solved");
		return;
	}
	for (int i = 0; i < n && i < 4; i++) {
		switch (i) {
		case 0:
			view_moves_text(&u->g, t->path, t->path_len, w - 12, moves, sizeof(moves));
			fmt_buf(line, sizeof(line), "1 select  %s", t->path_len > 0 ? moves
								 : "(the root is the leaf)");
			break;
		case 1:
			if (t->expanded >= 0)
				fmt_buf(line, sizeof(line), "2 expand  %s: a new leaf (reverse)",
					game_move_name(&u->g, t->expanded, name));
			else
				fmt_buf(line, sizeof(line), "2 expand  nothing (end, proven or full)");
			break;
		case 2:
			fmt_buf(line, sizeof(line), "3 rollout %d random moves (faint)", t->rollout_len);
			break;
		default:
			fmt_buf(line, sizeof(line), "4 backup  %s: +1 visit along the path", res);
		}
		draw_text(sc, y + i, x, w, a, line);
	}
}

/* One candidate row at screen row Y of the panel, in A, the bar in SIDE's
 * colour; SAVED: a row from a record (view_saved_row). */
static void draw_child(const struct screen *sc, const struct view_cols *cols, int y,
		       const struct mcts_child *c, uint64_t total, int side, attr_t a, bool saved)
{
	const struct session *u = sc->se;
	char line[512];
	int x = sc->lay.px, n;

	if (saved)
		view_saved_row(cols, &u->g, c, total, line, sizeof(line));
	else
		view_child_row(cols, &u->g, c, total, line, sizeof(line));
	draw_text(sc, y, x, sc->lay.pw, a, line);
	/* The bar solid in the mover's colour; a dim win rate when there are
	 * too few visits for it to mean anything. */
	n = view_bar_len(c->visits, total, cols->bar_w);
	if (cols->bar_x >= 0 && n > 0 && sc->glyphs != LINES_ASCII) {
		attrset(draw_side_attr(sc, side) | A_REVERSE);
		mvhline(y, x + cols->bar_x, ' ', n);
	}
	if (!view_rate_meaningful(c->visits))
		draw_text(sc, y, x + cols->rate_x, 5, (a & ~(attr_t)A_BOLD) | A_DIM,
			 line + cols->rate_x);
	else if (!(a & A_REVERSE))
		draw_text(sc, y, x + cols->rate_x, 5, draw_value_attr(sc, c->value), line + cols->rate_x);
}



/* The panel for ply PLY of a loaded game: a record keeps the iterations,
 * the move played and the runner-up, not the search's whole table. */
static void draw_saved_panel(const struct screen *sc, int ply)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	const struct record_move *rm = &u->saved[ply];
	int side = u->hist[ply].turn, x = l->px, y = l->py, w = l->pw, n;
	struct mcts_child kids[2];
	struct view_cols cols;
	char line[512], t[32], name[8], spec[160];
	uint64_t total = rm->info.iterations;

	fmt_buf(line, sizeof(line), "%c  %s", game_side_mark(side),
		session_who_played(u, side, ply, spec, sizeof(spec)));
	draw_text(sc, y, x, w, A_BOLD, line);
	draw_text(sc, y, x, 1, draw_side_attr(sc, side), side == SIDE_X ? "X" : "O");
	fmt_buf(line, sizeof(line), "when %c chose %s, from the record%s", game_side_mark(side),
		game_move_name(&u->g, rm->move, name),
		u->view < u->nmoves ? ""
		: session_human_to_move(u)  ? "; waiting for you"
				    : "");
	draw_text(sc, y + 1, x, w, draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD, line);
	fmt_buf(line, sizeof(line), "%s iterations",
		view_fmt_count(rm->info.iterations, t, sizeof(t)));
	draw_text(sc, y + 2, x, w, A_NORMAL, line);
	draw_text(sc, y + 3, x, w, A_DIM, "saved: the move played and the runner-up only");
	view_cols(&cols, w);
	draw_text(sc, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	n = view_saved_children(rm->move, &rm->info, kids);
	if (total == 0)
		total = (uint64_t)kids[0].visits + (n > 1 ? kids[1].visits : 0);
	for (int i = 0; i < n && VIEW_PANEL_HEAD + i < l->ph; i++)
		draw_child(sc, &cols, y + VIEW_PANEL_HEAD + i, &kids[i], total, side,
			   i == 0 ? draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD : A_NORMAL, true);
	if (l->ph >= VIEW_PANEL_HEAD + 3) {
		char moves[512];

		view_moves_text(&u->g, u->moves, u->nmoves, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "game  %s", moves);
		draw_text(sc, y + l->ph - 1, x, w, A_NORMAL, line);
		draw_text(sc, y + l->ph - 1, x, 4, A_BOLD, "game");
	}
}

/* The footer's lines and the candidate rows shown for N candidates: when
 * they do not all fit, the last row says how many more. */
static void panel_rows(const struct screen *sc, int n, int *footer, int *visible)
{
	int nrows;

	*footer = sc->se->inspecting ? 4 : 2;
	nrows = sc->lay.ph - VIEW_PANEL_HEAD - *footer;
	while (nrows < 2 && *footer > 0) {
		(*footer)--;
		nrows++;
	}
	*visible = n > nrows ? nrows - 1 : nrows;
}

int draw_panel_rows(const struct screen *sc)
{
	struct pos at;
	const struct session_snap *s = session_shown(sc->se, &at);
	int footer, visible;

	panel_rows(sc, s != NULL ? s->n : 0, &footer, &visible);
	return visible;
}

/* The footer's lines at Y: the principal variation PV and the game. */
static void draw_footer(const struct screen *sc, int y, int footer, const uint8_t *pv, int pv_len)
{
	const struct session *u = sc->se;
	int x = sc->lay.px, w = sc->lay.pw;
	char line[600], moves[512];

	if (footer >= 1) {
		view_moves_text(&u->g, pv, pv_len, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "PV    %s", moves);
		draw_text(sc, y, x, w, A_NORMAL, line);
		draw_text(sc, y, x, 2, A_BOLD, "PV");
	}
	if (footer >= 2) {
		view_moves_text(&u->g, u->moves, u->nmoves, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "game  %s", u->nmoves > 0 ? moves : "(no moves yet)");
		draw_text(sc, y + 1, x, w, A_NORMAL, line);
		draw_text(sc, y + 1, x, 4, A_BOLD, "game");
	}
}

/* The root moves of an engine without a tree (negamax), best first, each
 * with its score and depth; its principal variation below. */
static void draw_eng_rows(const struct screen *sc, const struct session_snap *s)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	int x = l->px, y = l->py, w = l->pw, footer, visible;
	char line[512];

	draw_text(sc, y + 4, x, w, A_BOLD | A_UNDERLINE, view_eng_head(w, line, sizeof(line)));
	panel_rows(sc, s->n, &footer, &visible);
	if (u->scroll + visible < s->n) {
		fmt_buf(line, sizeof(line), "  ... %d more (PgDn)", s->n - u->scroll - visible);
		draw_text(sc, y + VIEW_PANEL_HEAD + visible, x, w, A_DIM, line);
	}
	for (int r = 0; r < visible && u->scroll + r < s->n; r++) {
		const struct player_root_move *m = &s->eng.root[u->scroll + r];
		attr_t a = A_NORMAL;

		if (m->move == s->chosen || (s->chosen < 0 && m->move == s->eng.best))
			a = draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD;
		else if (m->upper)
			a = A_DIM;
		if (u->focus_panel && u->scroll + r == u->sel)
			a |= A_REVERSE;
		draw_text(sc, y + VIEW_PANEL_HEAD + r, x, w, a,
			  view_eng_row(&u->g, m, w, line, sizeof(line)));
	}
	if (s->n == 0)
		draw_text(sc, y + VIEW_PANEL_HEAD, x, w, A_DIM, "(no moves searched yet)");
	draw_footer(sc, l->py + l->ph - footer, footer, s->eng.pv, s->eng.pv_len);
}

/* The panel's rows 0 to 3 for the numbers S (NULL: none, rows 0 and 1
 * only): whose search with its settings, what it does, how far it got. */
static void draw_panel_head(const struct screen *sc, const struct session_snap *s)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	char line[512], t1[32], t2[32], t3[32];
	int x = l->px, y = l->py, w = l->pw;
	int side = s != NULL ? s->side : u->hist[u->view].turn;

	if (s != NULL && s->analysis) {
		fmt_buf(line, sizeof(line), "%c  %s", game_side_mark(side),
			s == &u->live ? "analysis for you (t: off)" : "analysis of a human's move");
	} else {
		char spec[160];

		fmt_buf(line, sizeof(line), "%c  %s", game_side_mark(side),
			session_who_played(u, side, s == NULL && u->view < u->nmoves ? u->view : -1,
					   spec, sizeof(spec)));
	}
	draw_text(sc, y, x, w, A_BOLD, line);
	draw_text(sc, y, x, 1, draw_side_attr(sc, side), side == SIDE_X ? "X" : "O");
	panel_status(sc, s, line, sizeof(line));
	draw_text(sc, y + 1, x, w, draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD, line);
	if (s == NULL)
		return;
	if (s->is_eng) {
		draw_text(sc, y + 2, x, w, A_NORMAL, view_eng_progress(&s->eng, line, sizeof(line)));
		draw_text(sc, y + 3, x, w, A_NORMAL, view_eng_table(&s->eng, line, sizeof(line)));
		return;
	}
	view_progress_text(s->analysis ? NULL : &u->spec[s->side], &s->tot, line, sizeof(line));
	draw_text(sc, y + 2, x, w, A_NORMAL, line);
	fmt_buf(line, sizeof(line), "%s nodes, %s of %s%s, depth %d",
		view_fmt_count(s->tot.nodes, t1, sizeof(t1)),
		view_fmt_bytes(s->tot.memory_used, t2, sizeof(t2)),
		view_fmt_bytes(s->tot.memory_limit, t3, sizeof(t3)),
		s->tot.arena_full ? " (full)" : "", s->tot.max_depth);
	draw_text(sc, y + 3, x, w, A_NORMAL, line);
}

void draw_panel(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);
	struct view_cols cols;
	char line[512];
	int x = l->px, y = l->py, w = l->pw, footer, visible;
	uint64_t total = 0;

	if (s == NULL && session_shown_saved(u) >= 0) {
		draw_saved_panel(sc, session_shown_saved(u));
		return;
	}
	draw_panel_head(sc, s);
	if (s == NULL)
		return;

	if (s->is_eng) {
		draw_eng_rows(sc, s);
		return;
	}

	/* The candidate rows. */
	view_cols_net(&cols, w, view_has_net(s->kids, s->n));
	draw_text(sc, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	panel_rows(sc, s->n, &footer, &visible);
	for (int i = 0; i < s->n; i++)
		total += s->kids[i].visits;
	if (u->scroll + visible < s->n) {
		fmt_buf(line, sizeof(line), "  ... %d more (PgDn)", s->n - u->scroll - visible);
		draw_text(sc, y + VIEW_PANEL_HEAD + visible, x, w, A_DIM, line);
	}
	for (int r = 0; r < visible; r++) {
		int i = u->scroll + r, yy = y + VIEW_PANEL_HEAD + r;
		const struct mcts_child *c;
		attr_t a = A_NORMAL;
		char delta[32];

		if (i >= s->n)
			break;
		c = &s->kids[i];
		if (c->move == s->chosen)
			a = draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD;
		if (u->focus_panel && i == u->sel)
			a |= A_REVERSE;
		draw_child(sc, &cols, yy, c, total, s->side, a, false);
		if (u->inspecting && s == &u->live && row_delta(sc, c, delta, sizeof(delta))) {
			int dx = cols.proof_x >= 0 ? cols.proof_x : w - 8;

			draw_text(sc, yy, x + dx, w - dx, draw_pair(sc, PAIR_HINT, A_REVERSE) | A_BOLD,
				 delta);
		}
	}
	if (s->n == 0)
		draw_text(sc, y + VIEW_PANEL_HEAD, x, w, A_DIM, "(no moves searched yet)");

	/* The footer: the inspector's phases, or the principal variation and
	 * the game's moves. */
	y = l->py + l->ph - footer;
	if (u->inspecting) {
		draw_inspector_lines(sc, x, y, w, footer);
		return;
	}
	draw_footer(sc, y, footer, s->tot.pv, s->tot.pv_len);
}
