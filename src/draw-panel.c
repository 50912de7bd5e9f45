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

/* The panel's second row, what the numbers are and what the search does,
 * as parts of which those that fit are shown whole: the first says what,
 * the second (or none) what to do about it. */
static void panel_status(const struct screen *sc, const struct session_snap *s, char parts[][96])
{
	const struct session *u = sc->se;
	char t[32], name[8], it[32];
	const struct pos *p = session_present(u);
	int proof = PROOF_NONE, plies = 0;

	parts[1][0] = parts[2][0] = '\0';
	if (s != NULL && s->is_eng) {
		proof = s->eng.proof;
		plies = s->eng.plies;
	} else if (s != NULL) {
		proof = s->tot.root_proven;
		plies = s->tot.root_proven_plies;
	}
	if (u->inspecting) {
		fmt_buf(parts[0], 96, "inspector: one iteration");
		fmt_buf(parts[1], 96, "i: another, Esc: leave");
	} else if (s == NULL && u->view < u->nmoves) {
		fmt_buf(parts[0], 96, "when %c chose %s", game_side_mark(u->hist[u->view].turn),
			game_move_name(&u->g, u->moves[u->view], name));
		fmt_buf(parts[1], 96, "no search numbers");
	} else if (s == NULL) {
		if (game_over(p)) {
			fmt_buf(parts[0], 96, "game over");
		} else if (session_engine_to_move(u)) {
			fmt_buf(parts[0], 96, "%s",
				session_thinking(u) ? "thinking" : u->paused ? "paused" : "ready");
			fmt_buf(parts[1], 96, "no search tree to show");
		} else {
			fmt_buf(parts[0], 96, "waiting for you");
			if (!session_is_engine(u, !p->turn) && !u->hint_mode)
				fmt_buf(parts[1], 96, "t: analysis");
		}
	} else if (s != &u->live) {
		fmt_buf(parts[0], 96, "when %c chose %s", game_side_mark(s->side),
			game_move_name(&u->g, s->chosen, name));
		if (u->view >= u->nmoves && session_human_to_move(u))
			fmt_buf(parts[1], 96, "waiting for you");
	} else if (proof != PROOF_NONE) {
		view_fmt_proof(proof, plies, t, sizeof(t));
		if (s->is_eng)
			fmt_buf(parts[0], 96, "solved: %s at depth %d", t, s->eng.depth);
		else if (s->tot.iterations == 0)
			fmt_buf(parts[0], 96, "solved: %s, known before this search", t);
		else
			fmt_buf(parts[0], 96, "solved: %s after %s iterations", t,
				view_fmt_int(s->tot.iterations, it, sizeof(it)));
	} else if (u->paused) {
		fmt_buf(parts[0], 96, "paused");
		fmt_buf(parts[1], 96, "p resumes");
	} else if (s->analysis) {
		fmt_buf(parts[0], 96, u->analysis_done ? "analysis done" : "analysing for you");
	} else if (u->ready) {
		fmt_buf(parts[0], 96, "ready: %s",
			game_move_name(&u->g, mcts_best_move(session_live_search(u)), name));
		if (session_eve(u) && !u->autoplay)
			fmt_buf(parts[1], 96, "s plays it");
	} else {
		fmt_buf(parts[0], 96, "thinking");
	}
	if (s == &u->live && u->path_len > 0 && !u->inspecting) {
		char moves[64];

		view_moves_text(&u->g, u->path, u->path_len, 30, moves, sizeof(moves));
		fmt_buf(parts[2], 96, "below %s (Left: up)", moves);
	}
}

/* Is the search whose numbers S are finished (its budget spent, solved,
 * or a move already made from it)? */
static bool search_done(const struct session *u, const struct session_snap *s)
{
	if (s != &u->live)
		return true;
	if (s->tot.root_proven != PROOF_NONE)
		return true;
	return s->analysis ? u->analysis_done : u->ready;
}

/* The move the panel marks as chosen: the one played from S, else the one
 * the search would play now (the first row below the root: the rows are
 * in the order the engine prefers them). */
static int chosen_move(const struct session *u, const struct session_snap *s)
{
	struct mcts *m = session_live_search(u);

	if (s->chosen >= 0)
		return s->chosen;
	if (s == &u->live && u->path_len == 0 && m != NULL && !game_over(session_present(u)))
		return mcts_best_move(m);
	return s->n > 0 && s->kids[0].visits > 0 ? s->kids[0].move : -1;
}

/* A player's spec (a,b,c) at Y after its side's mark, the keys that fit
 * whole and ",..." when some do not. */
static void draw_spec_line(const struct screen *sc, int y, int side, const char *spec)
{
	char copy[160], line[200], *parts[16], *save = NULL;
	const char *cparts[16];
	int n = 0, w = sc->lay.pw - 3;

	fmt_buf(copy, sizeof(copy), "%s", spec);
	for (char *t = strtok_r(copy, ",", &save); t != NULL && n < 16; t = strtok_r(NULL, ",", &save))
		parts[n++] = t;
	for (int i = 0; i < n; i++)
		cparts[i] = parts[i];
	view_fit_parts(cparts, n, ",", w, line, sizeof(line));
	if (strlen(line) < strlen(spec)) {
		size_t len;

		view_fit_parts(cparts, n, ",", w - 4, line, sizeof(line));
		len = strlen(line);
		fmt_buf(line + len, sizeof(line) - len, ",...");
	}
	draw_text(sc, y, sc->lay.px, 1, draw_side_attr(sc, side), side == SIDE_X ? "X" : "O");
	draw_text(sc, y, sc->lay.px + 3, w, A_BOLD, line);
}

/* The panel's status row at Y from the parts panel_status() made. */
static void draw_status_row(const struct screen *sc, int y, const struct session_snap *s)
{
	char parts[3][96], line[320];
	const char *cp[3] = { parts[0], parts[1], parts[2] };

	panel_status(sc, s, parts);
	view_fit_parts(cp, 3, "; ", sc->lay.pw, line, sizeof(line));
	draw_text(sc, y, sc->lay.px, sc->lay.pw, draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD, line);
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
	char line[256], moves[160], name[8], value[32];
	const char *res = t->result == RESULT_X ? "X wins" : t->result == RESULT_O ? "O wins"
							      : "a draw";
	attr_t a = draw_pair(sc, PAIR_HINT, A_BOLD);

	if (t->estimate) /* a leaf evaluator's value, not a result */
		res = fmt_buf(value, sizeof(value), "%.3f for X", t->value);

	if (!t->ran) {
		draw_text(sc, y, x, w, A_BOLD, "no iteration ran: the search is solved");
		return;
	}
	for (int i = 0; i < n && i < 4; i++) {
		char head[96], tail[96];
		const char *shows;
		const char *parts[2] = { head, tail }, *sep = ": ";

		tail[0] = '\0';
		switch (i) {
		case 0:
			view_moves_text(&u->g, t->path, t->path_len, w - 12, moves, sizeof(moves));
			fmt_buf(head, sizeof(head), "1 select  %s", t->path_len > 0 ? moves
								 : "(the root is the leaf)");
			break;
		case 1:
			if (t->expanded >= 0) {
				fmt_buf(head, sizeof(head), "2 expand  %s",
					game_move_name(&u->g, t->expanded, name));
				fmt_buf(tail, sizeof(tail), "a new leaf (reverse)");
			} else {
				fmt_buf(head, sizeof(head), "2 expand  nothing");
				fmt_buf(tail, sizeof(tail), "(end, proven or full)");
				sep = " ";
			}
			break;
		case 2:
			/* What the playout is, then how it shows ("(faint)"). */
			session_playout_text(u, moves, sizeof(moves), &shows);
			sep = shows[0] == '(' ? " " : ", ";
			fmt_buf(tail, sizeof(tail), "%s", shows);
			fmt_buf(head, sizeof(head), "3 %s", moves);
			break;
		default:
			fmt_buf(head, sizeof(head), "4 backup  %s", res);
			fmt_buf(tail, sizeof(tail), "+1 visit along the path");
		}
		/* Whole parts: the phase and what happened, then how it shows. */
		view_fit_parts(parts, 2, sep, w, line, sizeof(line));
		draw_text(sc, y + i, x, w, a, line);
	}
}

/* The colour of a proven result for the mover: a win good, a draw fair,
 * a loss bad; colour only, since the word says it. */
static attr_t proof_attr(const struct screen *sc, int proof)
{
	int pair = proof == PROOF_WIN ? PAIR_GOOD : proof == PROOF_DRAW ? PAIR_FAIR : PAIR_BAD;

	return draw_pair(sc, pair, A_NORMAL);
}

/* One candidate row at screen row Y of the panel, in A (bold: the chosen
 * move, reverse: the browser's selection), the bar in SIDE's colour;
 * SAVED: a row from a record (view_saved_row). Each attribute means one
 * thing (the help's notes say which): dim is a win rate of too few visits
 * to mean anything, colour is how good a rate or proof is for the mover. */
static void draw_child(const struct screen *sc, const struct view_cols *cols, int y,
		       const struct mcts_child *c, uint64_t total, int side, attr_t a, bool saved,
		       bool chosen)
{
	const struct session *u = sc->se;
	char line[512], bar[128];
	int x = sc->lay.px;
	attr_t keep = a & (A_REVERSE | A_BOLD);

	if (saved)
		view_saved_row(cols, &u->g, c, total, chosen, line, sizeof(line));
	else
		view_child_row(cols, &u->g, c, total, chosen, line, sizeof(line));
	draw_text(sc, y, x, sc->lay.pw, a, line);
	if (chosen)
		draw_text(sc, y, x + cols->move_x, 1, draw_pair(sc, PAIR_HINT, 0) | keep | A_BOLD, "*");
	if (cols->bar_x >= 0) {
		int e = view_bar_eighths(c->visits, total, cols->bar_w);

		/* Whole: the bar fits its column by construction, but its
		 * characters are several bytes each. */
		view_bar_text(e, sc->glyphs == LINES_UTF8, bar, sizeof(bar));
		attrset((draw_side_attr(sc, side) & ~(attr_t)A_BOLD) | keep);
		mvaddstr(y, x + cols->bar_x, bar);
	}
	if (c->proven != PROOF_NONE) {
		draw_text(sc, y, x + cols->rate_x, 5, proof_attr(sc, c->proven) | keep,
			  line + cols->rate_x);
		if (cols->proof_x >= 0)
			draw_text(sc, y, x + cols->proof_x, 7, proof_attr(sc, c->proven) | keep,
				  line + cols->proof_x);
	} else if (!view_rate_meaningful(c->visits)) {
		draw_text(sc, y, x + cols->rate_x, 5, (keep & ~(attr_t)A_BOLD) | A_DIM,
			  line + cols->rate_x);
	} else {
		draw_text(sc, y, x + cols->rate_x, 5, draw_value_attr(sc, c->value) | keep,
			  line + cols->rate_x);
	}
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

	char parts[2][64];
	const char *cp[2] = { parts[0], parts[1] };

	draw_spec_line(sc, y, side, session_who_played(u, side, ply, spec, sizeof(spec)));
	fmt_buf(parts[0], sizeof(parts[0]), "when %c chose %s, from the record",
		game_side_mark(side), game_move_name(&u->g, rm->move, name));
	fmt_buf(parts[1], sizeof(parts[1]), "%s",
		u->view >= u->nmoves && session_human_to_move(u) ? "waiting for you" : "");
	draw_text(sc, y + 1, x, w, draw_pair(sc, PAIR_HINT, A_BOLD) | A_BOLD,
		  view_fit_parts(cp, 2, "; ", w, line, sizeof(line)));
	fmt_buf(line, sizeof(line), "%s iterations",
		view_fmt_int(rm->info.iterations, t, sizeof(t)));
	draw_text(sc, y + 2, x, w, A_NORMAL, line);
	draw_text(sc, y + 3, x, w, A_DIM, "record: move played and runner-up");
	view_cols(&cols, w);
	draw_text(sc, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	n = view_saved_children(rm->move, &rm->info, kids);
	if (total == 0)
		total = (uint64_t)kids[0].visits + (n > 1 ? kids[1].visits : 0);
	for (int i = 0; i < n && VIEW_PANEL_HEAD + i < l->ph; i++)
		draw_child(sc, &cols, y + VIEW_PANEL_HEAD + i, &kids[i], total, side,
			   i == 0 ? A_BOLD : A_NORMAL, true, i == 0);
	if (l->ph >= VIEW_PANEL_HEAD + 3) {
		char moves[512];

		draw_game_moves(sc, w - 6, moves, sizeof(moves));
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
		draw_game_moves(sc, w - 6, moves, sizeof(moves));
		fmt_buf(line, sizeof(line), "game  %s", u->nmoves > 0 ? moves : "(no moves yet)");
		draw_text(sc, y + 1, x, w, A_NORMAL, line);
		draw_text(sc, y + 1, x, 4, A_BOLD, "game");
	}
}

/* Where the rows shown sit among all N: "12 above, 56 below (PgUp PgDn)",
 * the parts that fit. */
static void draw_scroll_row(const struct screen *sc, int y, int n, int visible)
{
	const struct session *u = sc->se;
	char above[32], below[32], line[128];
	const char *parts[3] = { above, below, "" };
	bool up = u->scroll > 0, down = n - u->scroll - visible > 0;

	fmt_buf(above, sizeof(above), up ? "%d above%s" : "", u->scroll, down ? "," : "");
	fmt_buf(below, sizeof(below), down ? "%d below" : "", n - u->scroll - visible);
	parts[2] = up && down ? "(PgUp PgDn)" : up ? "(PgUp)" : "(PgDn)";
	view_fit_parts(parts, 3, " ", sc->lay.pw - 2, line, sizeof(line));
	draw_text(sc, y, sc->lay.px + 2, sc->lay.pw - 2, A_DIM, line);
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
	if (visible < s->n)
		draw_scroll_row(sc, y + VIEW_PANEL_HEAD + visible, s->n, visible);
	for (int r = 0; r < visible && u->scroll + r < s->n; r++) {
		const struct player_root_move *m = &s->eng.root[u->scroll + r];
		bool chosen = m->move == s->chosen || (s->chosen < 0 && m->move == s->eng.best);
		attr_t a = chosen ? A_BOLD : m->upper ? A_DIM : A_NORMAL;

		if (u->focus_panel && u->scroll + r == u->sel)
			a |= A_REVERSE;
		draw_text(sc, y + VIEW_PANEL_HEAD + r, x, w, a,
			  view_eng_row(&u->g, m, chosen, w, line, sizeof(line)));
		if (chosen)
			draw_text(sc, y + VIEW_PANEL_HEAD + r, x, 1,
				  draw_pair(sc, PAIR_HINT, 0) | (a & A_REVERSE) | A_BOLD, "*");
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
	char line[512], spec[160];
	int x = l->px, y = l->py, w = l->pw;
	int side = s != NULL ? s->side : u->hist[u->view].turn;

	if (s != NULL && s->analysis) {
		fmt_buf(line, sizeof(line), "%c  %s", game_side_mark(side),
			s == &u->live ? "analysis for you (t: off)" : "analysis of a human's move");
		draw_text(sc, y, x, w, A_BOLD, line);
		draw_text(sc, y, x, 1, draw_side_attr(sc, side), side == SIDE_X ? "X" : "O");
	} else {
		draw_spec_line(sc, y, side,
			       session_who_played(u, side,
						  s == NULL && u->view < u->nmoves ? u->view : -1,
						  spec, sizeof(spec)));
	}
	draw_status_row(sc, y + 1, s);
	if (s == NULL)
		return;
	if (s->is_eng) {
		draw_text(sc, y + 2, x, w, A_NORMAL,
			  view_eng_progress(&s->eng, w, line, sizeof(line)));
		draw_text(sc, y + 3, x, w, A_NORMAL, view_eng_table(&s->eng, line, sizeof(line)));
		return;
	}
	view_progress_text(s->analysis ? NULL : &u->spec[s->side], &s->tot, search_done(u, s), w,
			   line, sizeof(line));
	draw_text(sc, y + 2, x, w, A_NORMAL, line);
	draw_text(sc, y + 3, x, w, A_NORMAL, view_tree_text(&s->tot, w, line, sizeof(line)));
}

void draw_panel(const struct screen *sc)
{
	const struct session *u = sc->se;
	const struct view_layout *l = &sc->lay;
	struct pos at;
	const struct session_snap *s = session_shown(u, &at);
	struct view_cols cols;
	char line[512];
	int x = l->px, y = l->py, w = l->pw, footer, visible, chosen;
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
	chosen = chosen_move(u, s);
	view_cols_net(&cols, w, view_extra_cols(s->kids, s->n));
	draw_text(sc, y + 4, x, w, A_BOLD | A_UNDERLINE, view_head_row(&cols, line, sizeof(line)));
	panel_rows(sc, s->n, &footer, &visible);
	for (int i = 0; i < s->n; i++)
		total += s->kids[i].visits;
	if (visible < s->n)
		draw_scroll_row(sc, y + VIEW_PANEL_HEAD + visible, s->n, visible);
	for (int r = 0; r < visible; r++) {
		int i = u->scroll + r, yy = y + VIEW_PANEL_HEAD + r;
		const struct mcts_child *c;
		attr_t a = A_NORMAL;
		char delta[32];

		if (i >= s->n)
			break;
		c = &s->kids[i];
		if (c->move == chosen)
			a = A_BOLD;
		if (u->focus_panel && i == u->sel)
			a |= A_REVERSE;
		draw_child(sc, &cols, yy, c, total, s->side, a, false, c->move == chosen);
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
