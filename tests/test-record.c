/* test-record.c - game records: write and read back, and every way a file
 * can be wrong is refused with its line number and nothing half-loaded. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"
#include "tap.h"

static int parse(const char *text, struct record *r, char *err, size_t errsize)
{
	return record_parse(text, strlen(text), "t.txt", r, err, errsize);
}

static void test_round_trip(void)
{
	struct game g;
	struct record r, back;
	struct pos pos;
	char err[320], dir[] = "/tmp/noughts-rec-XXXXXX", path[4200];
	static const char *const moves = "c1 g1 b1 d1 a1 b9 f7 g2 c6 g8 a4";
	uint8_t list[GAME_MAX_PLIES];
	int n;

	game_init(&g, "uttt", RULE_TIEBREAK, err, sizeof(err));
	game_start(&g, &pos);
	game_play_moves(&g, &pos, moves, list, &n, err, sizeof(err));
	record_init(&r, &g);
	strcpy(r.x, "human");
	strcpy(r.o, "mcts:level=6,c=0.5,rollout=smart,solver=on");
	strcpy(r.date, "2026-11-21 12:00:00");
	r.nmoves = n;
	for (int i = 0; i < n; i++)
		r.moves[i].move = list[i];
	r.moves[1].has_info = true;
	r.moves[1].info = (struct record_info){ 5000, 2210, 0.541, list[3], 800, 0.502, PROOF_WIN, 3 };
	r.result = pos.result;
	ok(mkdtemp(dir) != NULL, "temporary directory");
	ok(record_save_new(dir, &r, path, sizeof(path), err, sizeof(err)) == 0, "saved as %s", path);
	ok(strstr(path, "noughts-uttt-") != NULL, "the file name names the game");
	ok(record_read(path, &back, err, sizeof(err)) == 0, "read back: %s", err);
	ok(back.nmoves == n && memcmp(back.moves, r.moves, sizeof(r.moves[0]) * 0) == 0,
	   "same number of moves");
	{
		int same = 1;

		for (int i = 0; i < n; i++)
			same &= back.moves[i].move == list[i] && back.moves[i].has_info == (i == 1);
		ok(same, "same moves, comment only on move 2");
	}
	ok(back.moves[1].info.iterations == 5000 && back.moves[1].info.visits == 2210 &&
	   back.moves[1].info.second == list[3] && back.moves[1].info.proven == PROOF_WIN &&
	   back.moves[1].info.proven_plies == 3 && back.moves[1].info.value > 0.540 &&
	   back.moves[1].info.value < 0.542, "the engine comment reads back");
	ok(back.game.rules == RULE_TIEBREAK && strcmp(back.game.name, "uttt") == 0,
	   "game and rules read back");
	ok(strcmp(back.o, r.o) == 0 && strcmp(back.date, r.date) == 0, "players and date read back");
	{
		char again[4200];

		ok(record_save_new(dir, &r, again, sizeof(again), err, sizeof(err)) == 0 &&
		   strcmp(again, path) != 0, "a second save in the same second gets its own name");
		unlink(again);
	}
	unlink(path);
	ok(rmdir(dir) == 0, "no temporary file left behind");
}

static void test_hand_written(void)
{
	struct record r;
	char err[320];

	ok(parse("Game: ttt\n\nb2\na1 # a comment\n  c3  \n", &r, err, sizeof(err)) == 0 &&
	   r.nmoves == 3 && r.result == RESULT_NONE, "a minimal hand-written record");
	ok(parse("# my game\nGame: 4,4,3\nX: me\n\nb2\n", &r, err, sizeof(err)) == 0 &&
	   r.game.width == 4, "an m,n,k record with comments");
	ok(parse("Game: ttt\nResult: X\n\na1\nb1\na2\nb2\na3\n", &r, err, sizeof(err)) == 0 &&
	   r.result == RESULT_X, "a finished game with its result");
	ok(parse("Game: ttt\n", &r, err, sizeof(err)) == 0 && r.nmoves == 0, "headers only");
	ok(parse("\xef\xbb\xbfGame: ttt\n\nb2\n", &r, err, sizeof(err)) == 0 && r.nmoves == 1,
	   "a UTF-8 byte-order mark before the first header: %s", err);
	ok(parse("Game: TTT\n\nB2\n", &r, err, sizeof(err)) == 0 && strcmp(r.game.name, "ttt") == 0,
	   "game names and moves in capitals");
}

static void test_bad(void)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "", "t.txt: no 'Game:' header" },
		{ "hello\n", "t.txt:1: expected a header" },
		{ "Game: chess\n\n", "t.txt:2: unknown game 'chess'" },
		{ "Game: ttt\nColour: red\n\n", "t.txt:2: unknown header 'Colour'" },
		{ "Game: ttt\nRules: fast\n\n", "t.txt:2: unknown rule 'fast'" },
		{ "Game: ttt\nResult: maybe\n\n", "t.txt:2: Result must be X, O, draw or *" },
		{ "Game: ttt\nRules: tiebreak\n\n", "t.txt:3: game ttt: tiebreak and open-won-boards are rules of uttt only" },
		{ "\nb2\n", "t.txt:1: no 'Game:' header before the moves" },
		{ "Game: ttt\n\nb2\nb2\n", "t.txt:4: illegal move b2: b2 is taken by X" },
		{ "Game: ttt\n\nb2\nz9\n", "t.txt:4: 'z9' is off the 3x3 board" },
		{ "Game: ttt\n\nb2 c3\n", "t.txt:3: one move a line" },
		{ "Game: uttt\n\ne5\na1\n", "t.txt:4: illegal move a1: the last move sends you to the centre board" },
		{ "Game: ttt\nResult: X\n\na1\nb1\na2\n", "t.txt: truncated: the moves stop before the stated result X" },
		{ "Game: ttt\nResult: O\n\na1\nb1\na2\nb2\na3\n", "t.txt: the stated result O is not the result of the moves (X)" },
		{ "Game: ttt\n\na1\nb1\na2\nb2\na3\nc3\n", "t.txt:8: illegal move c3: the game is over" },
		{ "Game: ttt\n\nb2 {visits=abc}\n", "t.txt:3: bad value in the engine comment: visits=abc" },
		{ "Game: ttt\n\nb2 {plies=-3}\n", "t.txt:3: bad value in the engine comment: plies=-3" },
		{ "Game: ttt\n\nb2 {colour=red}\n", "t.txt:3: unknown engine comment item 'colour' (known: " },
		{ "Game: ttt\n\nb2 {visits=3\n", "t.txt:3: the engine comment must be one {...}" },
		{ "Game: ttt\n\nb2 {value=1.5}\n", "t.txt:3: bad value in the engine comment: value=1.5" },
		{ "Game: ttt\n\nb2 {visits=3 value=0.5 visits=4}\n",
		  "t.txt:3: the engine comment gives visits twice" },
		{ "Game: ttt\nGame: uttt\n\ne5\n", "t.txt:2: a second 'Game:' header" },
		{ "Game: ttt\nX: me\nX: you\n\n", "t.txt:3: a second 'X:' header" },
		{ "Game: ttt\nResult: *\n\na1\nb1\na2\nb2\na3\n",
		  "t.txt: the stated result * (not finished), but the moves end the game (X)" },
		{ "Game: ttt\n\nb2 {proven=maybe}\n", "t.txt:3: proven must be win, loss or draw" },
		{ "Game: ttt\n\nb2 {second=q7}\n", "t.txt:3: second=q7" },
		{ "Game: ttt\n\nb2 {nonsense}\n", "t.txt:3: expected key=value in the comment" },
		/* the file's words quoted as one line of text: control bytes and
		 * bytes that are not UTF-8 escaped, long ones cut in the middle */
		{ "Game: \033]0;pwn\007\n\nb2\n", "t.txt:2: unknown game '\\x1b]0;pwn\\x07'" },
		{ "Game: ttt\nTitle\033[2J: x\n\n", "t.txt:2: unknown header 'Title\\x1b[2J'" },
		{ "Game: ttt\n\n\377\376\n", "t.txt:3: '\\xff\\xfe' is not a move" },
		{ "Game: ttt\nResult: 0123456789012345678901234567890123456789012345678901234567890123456789\n\n",
		  "t.txt:2: Result must be X, O, draw or *, not '0123456789012345678901234567..." },
	};
	struct record r;
	char err[320];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc = parse(bad[i].text, &r, err, sizeof(err));

		ok(rc < 0 && strncmp(err, bad[i].says, strlen(bad[i].says)) == 0, "refused: %s", err);
	}
	{
		char text[] = "Game: ttt\n\nb2\0\n";

		ok(record_parse(text, sizeof(text) - 1, "t.txt", &r, err, sizeof(err)) < 0 &&
		   strstr(err, "NUL") != NULL, "a NUL byte: %s", err);
	}
	ok(record_read("/nonexistent/dir/game.txt", &r, err, sizeof(err)) < 0 &&
	   strstr(err, "No such file") != NULL, "a missing file: %s", err);
}

static void test_dir(void)
{
	char dir[] = "/tmp/noughts-xdg-XXXXXX", buf[4200], want[4200], err[320];

	mkdtemp(dir);
	setenv("XDG_DATA_HOME", dir, 1);
	snprintf(want, sizeof(want), "%s/noughts", dir);
	ok(record_dir(buf, sizeof(buf), err, sizeof(err)) == 0 && strcmp(buf, want) == 0,
	   "XDG_DATA_HOME/noughts is the save directory");
	rmdir(want);
	setenv("XDG_DATA_HOME", "", 1);
	setenv("HOME", dir, 1);
	snprintf(want, sizeof(want), "%s/.local/share/noughts", dir);
	ok(record_dir(buf, sizeof(buf), err, sizeof(err)) == 0 && strcmp(buf, want) == 0,
	   "~/.local/share/noughts when XDG_DATA_HOME is empty");
	rmdir(want);
	snprintf(want, sizeof(want), "%s/.local/share", dir);
	rmdir(want);
	snprintf(want, sizeof(want), "%s/.local", dir);
	rmdir(want);
	ok(rmdir(dir) == 0, "cleaned up");
}

int main(void)
{
	test_round_trip();
	test_hand_written();
	test_bad();
	test_dir();
	return tap_done();
}
