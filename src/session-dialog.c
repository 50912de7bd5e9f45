/* session-dialog.c - the new-game dialog: a field of text per choice, in
 * the words of the command line (the game, its rule options, the players,
 * a budget for the engines, auto-play's delay), each with choices to step
 * through. Enter hands the fields to the command line's own parser
 * (options_parse_quiet), so the dialog takes what `noughts play` takes
 * and refuses it with the same words. */
#include "config.h"

#include "session.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "util.h"

const struct session_dlg_field session_dlg_fields[DLG_FIELDS] = {
	[DLG_GAME] = { "Game", "ttt, uttt, or M,N,K: M x N cells (3 to 21 a side, at most 64), "
			       "K in a row (3 to the longer side)" },
	[DLG_RULES] = { "Rules", "none, or uttt's rule options: tiebreak, no-tiebreak, "
				 "open-won-boards (as --tiebreak ...)" },
	[DLG_X] = { "X", "human, random, mcts[:key=value,...] or negamax[:...], as --x takes" },
	[DLG_O] = { "O", "human, random, mcts[:key=value,...] or negamax[:...], as --o takes" },
	[DLG_BUDGET] = { "Budget", "for engines with none of their own: level=1..10, time=MS, "
				   "iterations=N (mcts), depth=D (negamax); empty: none" },
	[DLG_DELAY] = { "Delay", "auto-play: the least time a move stays shown, in milliseconds "
				 "(0 to 60000), as --delay" },
};

static const char *const games[] = { "ttt", "uttt", "4,4,4", "5,5,4", "6,6,4", "7,6,4", "7,7,5",
				     "8,8,5" };
static const char *const rules[] = { "none", "tiebreak", "open-won-boards",
				     "tiebreak open-won-boards" };
static const char *const kinds[] = { "human", "mcts", "negamax", "random" };
static const char *const budgets[] = {
	"level=1",   "level=2",    "level=3",    "level=4",	   "level=5",
	"level=6",   "level=7",    "level=8",    "level=9",	   "level=10",
	"time=500",  "time=1000",  "time=2000",  "time=5000",	   "time=10000",
	"iterations=1000", "iterations=10000", "iterations=100000", "depth=4", "depth=8",
};
static const char *const delays[] = { "0", "200", "400", "700", "1500", "3000", "10000" };

/* Has SPEC a budget of its own (or no use for one)? */
static bool has_budget(const struct player_spec *s)
{
	return (s->kind != PLAYER_MCTS && s->kind != PLAYER_NEGAMAX) || s->iterations != 0 ||
	       s->time_ms != 0 || s->depth != 0 || s->level != 0;
}

/* An engine's spec in two parts: SPEC without its budget (its kind alone
 * when the rest is the default) and BUDGET, its budget as a spec's key. */
static void spec_parts(const struct player_spec *ps, char *spec, char *budget, size_t size)
{
	struct player_spec plain = *ps, def;
	char all[SESSION_DLG_TEXT * 2], usual[SESSION_DLG_TEXT * 2], err[256], *save = NULL;
	const char *kind = ps->kind == PLAYER_MCTS ? "mcts" : "negamax";
	char sep = ':';
	size_t n;

	if (ps->iterations != 0)
		fmt_buf(budget, size, "iterations=%llu", (unsigned long long)ps->iterations);
	else if (ps->time_ms != 0)
		fmt_buf(budget, size, "time=%d", ps->time_ms);
	else if (ps->depth != 0)
		fmt_buf(budget, size, "depth=%d", ps->depth);
	else
		fmt_buf(budget, size, "level=%d", ps->level != 0 ? ps->level : PLAYER_DEFAULT_LEVEL);
	plain.iterations = 0;
	plain.time_ms = plain.depth = plain.level = 0;
	player_spec_format(&plain, all, sizeof(all));
	player_spec_parse(kind, &def, err, sizeof(err));
	player_spec_format(&def, usual, sizeof(usual));
	n = (size_t)snprintf(spec, size, "%s", kind);
	if (strcmp(all, usual) == 0 || strchr(all, ':') == NULL)
		return;
	/* The settings after "kind:", less the level the format puts in. */
	for (char *t = strtok_r(strchr(all, ':') + 1, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (strncmp(t, "level=", 6) == 0 || n >= size)
			continue;
		n += (size_t)snprintf(spec + n, size - n, "%c%s", sep, t);
		sep = ',';
	}
}

void session_dialog_open(struct session *u)
{
	struct session_dialog *d = &u->dlg;
	char *t = d->text[DLG_RULES], spec[SESSION_DLG_TEXT], budget[SESSION_DLG_TEXT];
	bool first = true;

	memset(d, 0, sizeof(*d));
	fmt_buf(d->text[DLG_GAME], SESSION_DLG_TEXT, "%s", u->g.name);
	fmt_buf(t, SESSION_DLG_TEXT, "%s%s%s", u->g.rules & RULE_TIEBREAK ? "tiebreak" : "",
		(u->g.rules & RULE_TIEBREAK) && (u->g.rules & RULE_OPEN_WON) ? " " : "",
		u->g.rules & RULE_OPEN_WON ? "open-won-boards" : "");
	if (t[0] == '\0')
		fmt_buf(t, SESSION_DLG_TEXT, "none");
	fmt_buf(d->text[DLG_BUDGET], SESSION_DLG_TEXT, "level=%d", PLAYER_DEFAULT_LEVEL);
	/* Budget is the first engine's; the other keeps its own in its
	 * spec where it differs. */
	for (int s = 0; s < 2; s++) {
		const struct player_spec *ps = &u->spec[s];

		if (ps->kind != PLAYER_MCTS && ps->kind != PLAYER_NEGAMAX) {
			player_spec_format(ps, d->own[s], sizeof(d->own[s]));
			continue;
		}
		spec_parts(ps, spec, budget, SESSION_DLG_TEXT);
		if (first)
			fmt_buf(d->text[DLG_BUDGET], SESSION_DLG_TEXT, "%s", budget);
		first = false;
		if (strcmp(budget, d->text[DLG_BUDGET]) == 0)
			fmt_buf(d->own[s], sizeof(d->own[s]), "%s", spec);
		else
			fmt_buf(d->own[s], sizeof(d->own[s]), "%s%c%s", spec,
				strchr(spec, ':') != NULL ? ',' : ':', budget);
	}
	for (int s = 0; s < 2; s++)
		fmt_buf(d->text[DLG_X + s], SESSION_DLG_TEXT, "%s", d->own[s]);
	fmt_buf(d->text[DLG_DELAY], SESSION_DLG_TEXT, "%llu",
		(unsigned long long)(u->auto_ns / SESSION_MS));
	d->fresh = true;
	u->modal = SESSION_MODAL_NEW;
}

/* Left and Right: the field's text becomes its previous or next choice
 * (from the first when it is none of them). */
static void step(struct session *u, int delta)
{
	struct session_dialog *d = &u->dlg;
	const char *list[ARRAY_SIZE(budgets) + 1];
	char *t = d->text[d->field];
	int n = 0, at = -1;

	switch (d->field) {
	case DLG_GAME: memcpy(list, games, sizeof(games)), n = ARRAY_SIZE(games); break;
	case DLG_RULES: memcpy(list, rules, sizeof(rules)), n = ARRAY_SIZE(rules); break;
	case DLG_BUDGET: memcpy(list, budgets, sizeof(budgets)), n = ARRAY_SIZE(budgets); break;
	case DLG_DELAY: memcpy(list, delays, sizeof(delays)), n = ARRAY_SIZE(delays); break;
	default: {
		const char *own = d->own[d->field - DLG_X];
		bool listed = false;

		/* The player of now, with its settings, is one of the choices. */
		for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
			list[n++] = kinds[i];
			listed |= strcmp(kinds[i], own) == 0;
		}
		if (!listed)
			list[n++] = own;
	}
	}
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], t) == 0)
			at = i;
	at = at < 0 ? (delta > 0 ? 0 : n - 1) : (at + delta + n) % n;
	fmt_buf(t, SESSION_DLG_TEXT, "%s", list[at]);
	d->fresh = true;
	d->error[0] = '\0';
}

static void type(struct session *u)
{
	struct session_dialog *d = &u->dlg;
	char *t = d->text[d->field];
	size_t len;

	if (d->key < ' ' || d->key > '~') {
		session_say(u, "The dialog takes letters, digits and , : = . - and spaces; "
			       "Enter starts, Esc closes.");
		return;
	}
	if (d->fresh)
		t[0] = '\0';
	d->fresh = false;
	len = strlen(t);
	if (len + 1 < SESSION_DLG_TEXT) {
		t[len] = (char)d->key;
		t[len + 1] = '\0';
	}
	d->error[0] = '\0';
}

/* The player spec of SIDE as the command line gets it: the field's text,
 * and the budget's key added if it is an engine without one. */
static void spec_text(const struct session_dialog *d, int side, char *buf, size_t size)
{
	const char *t = d->text[DLG_X + side], *b = d->text[DLG_BUDGET];
	struct player_spec s;
	char err[256];

	if (b[0] == '\0' || player_spec_parse(t, &s, err, sizeof(err)) < 0 || has_budget(&s))
		fmt_buf(buf, size, "%s", t);
	else
		fmt_buf(buf, size, "%s%c%s", t, strchr(t, ':') != NULL ? ',' : ':', b);
}

/* Is the budget's text a key some engine takes? Else ERR says why. */
static bool budget_ok(const char *b, char *err, size_t size)
{
	static const char accepted[] = "level=1..10, time=MS, iterations=N (mcts), depth=D "
				       "(negamax), or nothing";
	char spec[SESSION_DLG_TEXT + 16], why[256];
	struct player_spec s;
	const char *keys[] = { "level=", "time=", "iterations=", "depth=" };

	if (b[0] == '\0')
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strncmp(b, keys[i], strlen(keys[i])) == 0 && strchr(b, ',') == NULL) {
			/* The spec's own check of the value, by an engine with the key. */
			fmt_buf(spec, sizeof(spec), "%s:%s", i == 3 ? "negamax" : "mcts", b);
			if (player_spec_parse(spec, &s, why, sizeof(why)) == 0)
				return true;
			fmt_buf(err, size, "Budget: %s",
				strstr(why, "': ") != NULL ? strstr(why, "': ") + 3 : why);
			return false;
		}
	fmt_buf(err, size, "Budget: '%s' is no budget: %s", b, accepted);
	return false;
}

/* The field the parser's error ERR is about, X and O being the specs it
 * was given; -1 if none is named. */
static int error_field(const char *err, const char *x, const char *o)
{
	char quoted[SESSION_DLG_TEXT * 2 + 4];

	if (strstr(err, "--delay") != NULL)
		return DLG_DELAY;
	if (strstr(err, "uttt only") != NULL || strstr(err, "option") != NULL)
		return DLG_RULES;
	if (strncmp(err, "game ", 5) == 0 || strncmp(err, "unknown game", 12) == 0)
		return DLG_GAME;
	fmt_buf(quoted, sizeof(quoted), "'%s'", x);
	if (strstr(err, quoted) != NULL)
		return DLG_X;
	fmt_buf(quoted, sizeof(quoted), "'%s'", o);
	return strstr(err, quoted) != NULL ? DLG_O : -1;
}

/* Enter: the fields as `noughts play` options, parsed by the command
 * line's parser; the new game, or the parser's words in error. */
static void start(struct session *u)
{
	struct session_dialog *d = &u->dlg;
	char x[SESSION_DLG_TEXT * 2], o[SESSION_DLG_TEXT * 2], words[SESSION_DLG_TEXT];
	char opts[8][SESSION_DLG_TEXT + 2], *save = NULL;
	/* (getopt_long may reorder argv's words, so they are not literals) */
	char play[] = "play", ox[] = "--x", oo[] = "--o", odelay[] = "--delay", ogame[] = "--game";
	char *argv[32] = { play, ox, x, oo, o, odelay, d->text[DLG_DELAY], ogame, d->text[DLG_GAME] };
	int argc = 9, nopts = 0;
	struct options opt;

	if (!budget_ok(d->text[DLG_BUDGET], d->error, sizeof(d->error))) {
		d->field = DLG_BUDGET;
		d->fresh = true;
		return;
	}
	spec_text(d, SIDE_X, x, sizeof(x));
	spec_text(d, SIDE_O, o, sizeof(o));
	/* The rule options last: a word that is another option finds no
	 * value after it, and says so. */
	fmt_buf(words, sizeof(words), "%s", d->text[DLG_RULES]);
	for (char *w = strtok_r(words, " ,", &save); w != NULL; w = strtok_r(NULL, " ,", &save)) {
		if (strcmp(w, "none") == 0)
			continue;
		if (nopts == (int)ARRAY_SIZE(opts)) {
			fmt_buf(d->error, sizeof(d->error), "Rules: at most %d words",
				(int)ARRAY_SIZE(opts));
			return;
		}
		fmt_buf(opts[nopts], sizeof(opts[0]), "--%s", w + strspn(w, "-"));
		argv[argc++] = opts[nopts++];
	}
	argv[argc] = NULL;
	if (options_parse_quiet(&opt, "play", OPT_GAME | OPT_PLAYERS | OPT_DELAY, argc, argv,
				d->error, sizeof(d->error)) != 0) {
		/* The focus goes to the field at fault, so what it accepts
		 * shows over the error. */
		int f = error_field(d->error, x, o);

		if (f >= 0 && f != d->field) {
			d->field = f;
			d->fresh = true;
		}
		return;
	}
	u->modal = SESSION_MODAL_NONE;
	u->auto_ns = (uint64_t)opt.delay_ms * SESSION_MS;
	session_new_game(u, &opt.game, &opt.x, &opt.o);
	session_say(u, "New game.");
}

void session_dialog_command(struct session *u, int cmd)
{
	struct session_dialog *d = &u->dlg;

	switch (cmd) {
	case CMD_DLG_CLOSE: u->modal = SESSION_MODAL_NONE; break;
	case CMD_DLG_UP:
	case CMD_DLG_DOWN:
		/* (no wrapping round: Up from anywhere reaches Game, the top) */
		d->field += cmd == CMD_DLG_UP ? -(d->field > 0) : d->field < DLG_FIELDS - 1;
		d->fresh = true;
		break;
	case CMD_DLG_LEFT: step(u, -1); break;
	case CMD_DLG_RIGHT: step(u, 1); break;
	case CMD_DLG_START: start(u); break;
	case CMD_DLG_TYPE: type(u); break;
	case CMD_DLG_ERASE:
		if (d->text[d->field][0] != '\0')
			d->text[d->field][strlen(d->text[d->field]) - 1] = '\0';
		d->fresh = false;
		break;
	case CMD_DLG_CLEAR:
		d->text[d->field][0] = '\0';
		d->fresh = false;
		break;
	}
}
