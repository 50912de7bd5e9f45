/* test-dialog.c - the new-game dialog without a terminal: its fields open
 * with the game of now, typed keys edit them (letters are not commands
 * there), Left/Right step through choices, and Enter starts what the
 * command line would start or stays open with the command line's own
 * error for what it would refuse. */
#include "config.h"

#include "keys.h"
#include "options.h"
#include "session-fixture.h"
#include "tap.h"

/* FIELD's text made TEXT with the keys a person types: the first key
 * replaces what is there. */
static void type_into(struct session *u, int field, const char *text)
{
	u->dlg.field = field;
	u->dlg.fresh = true;
	if (text[0] == '\0')
		session_key(u, 21); /* Ctrl-U */
	for (const char *c = text; *c != '\0'; c++)
		session_key(u, (unsigned char)*c);
}

/* The error the command line gives for ARGS (after "play"), as the
 * dialog shows it: what follows "noughts: play: ". */
static const char *cli_error(const char *a1, const char *a2, char *err, size_t size)
{
	char w0[] = "play", w1[64], w2[64];
	char *argv[] = { w0, w1, w2, NULL };
	struct options opt;

	fmt_buf(w1, sizeof(w1), "%s", a1);
	fmt_buf(w2, sizeof(w2), "%s", a2);
	if (options_parse_quiet(&opt, "play", OPT_GAME | OPT_PLAYERS | OPT_DELAY, 3, argv, err,
				size) == 0)
		fmt_buf(err, size, "(accepted)");
	return err;
}

/* Enter with GAME typed in: refused with the command line's words for
 * --game GAME, the dialog open, the game as it was. */
static void bad_game(struct session *u, const char *game)
{
	char want[300];

	type_into(u, DLG_GAME, game);
	session_key(u, KEY_CODE_ENTER);
	cli_error("--game", game, want, sizeof(want));
	ok(u->modal == SESSION_MODAL_NEW && strcmp(u->dlg.error, want) == 0 &&
	   strcmp(u->g.name, "uttt") == 0,
	   "game '%s': refused as --game is, the dialog stays: %s", game, u->dlg.error);
}

static void test_fields(void)
{
	struct options opt;
	struct session *u = make(&opt, "uttt", "human", "mcts:time=2000,c=0.7", "e5");

	session_key(u, 'n');
	ok(u->modal == SESSION_MODAL_NEW && strcmp(u->dlg.text[DLG_GAME], "uttt") == 0 &&
	   strcmp(u->dlg.text[DLG_RULES], "none") == 0 &&
	   strcmp(u->dlg.text[DLG_X], "human") == 0 &&
	   strcmp(u->dlg.text[DLG_O], "mcts:c=0.7,rollout=smart,solver=on") == 0 &&
	   strcmp(u->dlg.text[DLG_BUDGET], "time=2000") == 0 &&
	   strcmp(u->dlg.text[DLG_DELAY], "700") == 0,
	   "n opens the dialog with the game of now: %s / %s / %s / %s / %s / %s",
	   u->dlg.text[DLG_GAME], u->dlg.text[DLG_RULES], u->dlg.text[DLG_X], u->dlg.text[DLG_O],
	   u->dlg.text[DLG_BUDGET], u->dlg.text[DLG_DELAY]);
	type_into(u, DLG_X, "negamax");
	ok(strcmp(u->dlg.text[DLG_X], "negamax") == 0 && u->modal == SESSION_MODAL_NEW,
	   "letters are typed, not taken as keys (n, q, h, l): '%s'", u->dlg.text[DLG_X]);
	session_key(u, KEY_CODE_BACKSPACE);
	ok(strcmp(u->dlg.text[DLG_X], "negama") == 0, "Backspace takes the last one off");
	session_key(u, KEY_CODE_RIGHT);
	ok(strcmp(u->dlg.text[DLG_X], "human") == 0, "Right: the first choice when none is chosen");
	session_key(u, KEY_CODE_RIGHT);
	ok(strcmp(u->dlg.text[DLG_X], "mcts") == 0, "Right again: the next");
	session_key(u, KEY_CODE_LEFT);
	session_key(u, KEY_CODE_LEFT);
	ok(strcmp(u->dlg.text[DLG_X], "human") != 0 && strcmp(u->dlg.text[DLG_X], "mcts") != 0,
	   "Left steps back round the list: '%s'", u->dlg.text[DLG_X]);
	u->dlg.field = DLG_GAME;
	for (int i = 0; i < 8 && strcmp(u->dlg.text[DLG_GAME], "7,7,5") != 0; i++)
		session_key(u, KEY_CODE_RIGHT);
	ok(strcmp(u->dlg.text[DLG_GAME], "7,7,5") == 0, "7,7,5 is among the games");
	session_key(u, KEY_CODE_DOWN);
	ok(u->dlg.field == DLG_RULES, "Down: the next field");
	session_key(u, '\t');
	session_key(u, KEY_CODE_UP);
	ok(u->dlg.field == DLG_RULES, "Tab and Up");
	for (int i = 0; i < DLG_FIELDS; i++)
		session_key(u, KEY_CODE_UP);
	ok(u->dlg.field == DLG_GAME, "Up stops at the top field");
	for (int i = 0; i < DLG_FIELDS; i++)
		session_key(u, KEY_CODE_DOWN);
	ok(u->dlg.field == DLG_DELAY, "Down at the bottom one");
	session_key(u, KEY_CODE_ESC);
	ok(u->modal == SESSION_MODAL_NONE && strcmp(u->g.name, "uttt") == 0 && u->nmoves == 1,
	   "Escape closes it, the game goes on");
	session_free(u);
}

/* Bad fields in the open dialog U: each refused with the command line's
 * words, the focus on the field at fault, the dialog kept open. */
static void start_refused(struct session *u)
{
	char want[300];

	bad_game(u, "9,9,5");
	bad_game(u, "8,8,9");
	bad_game(u, "3,3,4");
	bad_game(u, "3,3");
	bad_game(u, "");
	type_into(u, DLG_GAME, "5,5,4");
	type_into(u, DLG_RULES, "tiebreak");
	session_key(u, KEY_CODE_ENTER);
	ok(u->modal == SESSION_MODAL_NEW && strstr(u->dlg.error, "uttt only") != NULL,
	   "tiebreak on 5,5,4: refused: %s", u->dlg.error);
	type_into(u, DLG_RULES, "foo");
	u->dlg.field = DLG_X;
	session_key(u, KEY_CODE_ENTER);
	ok(strcmp(u->dlg.error, cli_error("--foo", "--tiebreak", want, sizeof(want))) == 0 &&
	   u->dlg.field == DLG_RULES,
	   "a rule option that does not exist: as on the command line, the focus on Rules: %s",
	   u->dlg.error);
	type_into(u, DLG_X, "mcts:c=high");
	u->dlg.field = DLG_GAME;
	session_key(u, KEY_CODE_ENTER);
	ok(u->dlg.field == DLG_X && strstr(u->dlg.error, "'mcts:c=high") != NULL,
	   "a bad X: the focus on X: %s", u->dlg.error);
	type_into(u, DLG_X, "human");
	type_into(u, DLG_RULES, "none");
	type_into(u, DLG_O, "negamax");
	type_into(u, DLG_BUDGET, "iterations=5000");
	session_key(u, KEY_CODE_ENTER);
	ok(u->modal == SESSION_MODAL_NEW && strstr(u->dlg.error, "negamax:iterations=5000") &&
	   strstr(u->dlg.error, "accepted: depth, time"),
	   "a budget the engine has no key for: the spec's error: %s", u->dlg.error);
	type_into(u, DLG_BUDGET, "bogus");
	session_key(u, KEY_CODE_ENTER);
	ok(strncmp(u->dlg.error, "Budget: 'bogus' is no budget", 28) == 0 &&
	   strstr(u->dlg.error, "level=1..10") != NULL,
	   "a budget that is no key: %s", u->dlg.error);
	type_into(u, DLG_BUDGET, "time=abc");
	session_key(u, KEY_CODE_ENTER);
	ok(strstr(u->dlg.error, "time must be milliseconds") != NULL, "time=abc: %s", u->dlg.error);
}

/* Good fields in the open dialog U after start_refused(): the game starts,
 * and the dialog opens again with what it was given. */
static void start_accepted(struct session *u)
{
	char want[300];

	type_into(u, DLG_BUDGET, "depth=3");
	type_into(u, DLG_DELAY, "fast");
	u->dlg.field = DLG_GAME;
	session_key(u, KEY_CODE_ENTER);
	ok(strcmp(u->dlg.error, cli_error("--delay", "fast", want, sizeof(want))) == 0 &&
	   u->dlg.field == DLG_DELAY,
	   "a delay that is no number: as --delay: %s", u->dlg.error);
	type_into(u, DLG_DELAY, "150");
	session_key(u, KEY_CODE_ENTER);
	ok(u->modal == SESSION_MODAL_NONE && strcmp(u->g.name, "5,5,4") == 0 && u->nmoves == 0 &&
	   u->spec[SIDE_O].kind == PLAYER_NEGAMAX && u->spec[SIDE_O].depth == 3 &&
	   u->spec[SIDE_X].kind == PLAYER_HUMAN && u->auto_ns == 150 * SESSION_MS,
	   "Enter: 5,5,4 against negamax depth 3 (the budget), auto-play every 150 ms");

	session_key(u, 'n');
	ok(strcmp(u->dlg.text[DLG_BUDGET], "depth=3") == 0 &&
	   strcmp(u->dlg.text[DLG_DELAY], "150") == 0,
	   "the dialog opens again with that budget and delay");
	type_into(u, DLG_GAME, "uttt");
	type_into(u, DLG_RULES, "tiebreak open-won-boards");
	type_into(u, DLG_X, "mcts:c=0.5");
	type_into(u, DLG_O, "mcts:iterations=300");
	type_into(u, DLG_BUDGET, "time=250");
	session_key(u, KEY_CODE_ENTER);
	ok(u->modal == SESSION_MODAL_NONE && (u->g.rules & RULE_TIEBREAK) &&
	   (u->g.rules & RULE_OPEN_WON) && u->spec[SIDE_X].time_ms == 250 &&
	   u->spec[SIDE_X].mcts.c == 0.5 && u->spec[SIDE_O].iterations == 300 &&
	   u->spec[SIDE_O].time_ms == 0,
	   "uttt with both rule options; the budget goes to X only, O has its own");
	session_key(u, 'n');
	ok(strcmp(u->dlg.text[DLG_RULES], "tiebreak open-won-boards") == 0 &&
	   strcmp(u->dlg.text[DLG_BUDGET], "time=250") == 0 &&
	   strstr(u->dlg.text[DLG_O], "iterations=300") != NULL,
	   "and opens again with them (O '%s')", u->dlg.text[DLG_O]);
	session_key(u, KEY_CODE_ENTER);
	ok(u->modal == SESSION_MODAL_NONE && u->spec[SIDE_X].time_ms == 250 &&
	   u->spec[SIDE_O].iterations == 300 && (u->g.rules & RULE_OPEN_WON),
	   "Enter at once starts the same game again");
}

static void test_start(void)
{
	struct options opt;
	struct session *u = make(&opt, "uttt", "human", "mcts:time=2000", "e5");

	session_key(u, 'n');
	start_refused(u);
	start_accepted(u);
	session_free(u);
}

int main(void)
{
	test_fields();
	test_start();
	return tap_done();
}
