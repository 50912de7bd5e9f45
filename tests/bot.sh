#!/bin/sh
# bot.sh - `noughts bot` against the referee (its own rules), and the
# protocol's error cases.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"

# The referee checks every answer is a valid action. Lateness is only
# reported (-t): a test has no timing threshold, as a machine busy with
# other work can delay any answer; the time kept is measured by running
# the referee by hand (see README).
res=$("$REFEREE" -t -g uttt -n 2 -s 5 "$NOUGHTS bot --game uttt --deadline 50" random 2>&1)
if [ $? -eq 0 ]; then pass "uttt: 2 games against a random mover, every answer legal and on time"
else fail "uttt against a random mover"; printf '%s\n' "$res" | sed 's/^/# /'; fi
res=$("$REFEREE" -t -g ttt -n 2 -s 5 "$NOUGHTS bot --game ttt --deadline 50 --overhead 25" random 2>&1)
if [ $? -eq 0 ]; then pass "ttt: 2 games against a random mover, half the turn kept back (--overhead)"
else fail "ttt against a random mover"; printf '%s\n' "$res" | sed 's/^/# /'; fi
res=$("$REFEREE" -t -g uttt -n 2 -s 6 "$NOUGHTS bot --game uttt --deadline 30,100" \
	"$NOUGHTS bot --game uttt --deadline 40 --engine mcts:rollout=random,solver=off,c=1.41" 2>&1)
if [ $? -eq 0 ]; then pass "uttt: noughts against noughts with other settings"
else fail "uttt bot against bot"; printf '%s\n' "$res" | sed 's/^/# /'; fi

# botrun INPUT ARGS...: feed INPUT (printf format) to the bot
botrun() {
	input=$1; shift
	out=$(printf -- "$input" | "$NOUGHTS" bot "$@" 2>"$tmp_err")
	rc=$?
	err=$(cat "$tmp_err")
}

botrun '' --game ttt
if [ "$rc" -eq 0 ] && [ -z "$out" ]; then pass "no input: exit 0, nothing said"; else fail "no input (status $rc)"; fi
botrun '1 1\n8\n0 0\n0 1\n0 2\n1 0\n1 2\n2 0\n2 1\n2 2\n' --game ttt
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -Eq '^[0-2] [0-2]$' && [ "$out" != "1 1" ]; then
	pass "answers one free cell and exits 0 at the end of input"; else fail "one turn (status $rc, out '$out')"; fi

# Bad protocol lines: a message on stderr naming the line, status 1.
check_bad() {
	want=$1; shift
	botrun "$@"
	if [ "$rc" -eq 1 ] && printf '%s\n' "$err" | grep -Eq -- "^noughts: bot: $want"; then
		pass "bad input refused: $err"
	else
		fail "bad input '$2' (status $rc, stderr: $err)"
	fi
}
check_bad 'line 1: the opponent.s move: expected .row col.' 'hello\n' --game ttt
check_bad 'line 1: the opponent.s move: .3 3. is off the board' '3 3\n' --game ttt
check_bad 'line 2: expected the number of valid actions' '-1 -1\nnine\n' --game ttt
check_bad 'line 2: 8 valid actions, but the position has 9 legal moves' '-1 -1\n8\n' --game ttt
check_bad 'line 3: the valid action .1 1. is not legal: b2 is taken' '1 1\n8\n1 1\n' --game ttt
check_bad 'line 4: the valid action .0 0. is listed twice' '-1 -1\n9\n0 0\n0 0\n' --game ttt
check_bad 'line 12: the opponent.s move .-1 -1. is|line 12: the opponent.s move: ' '-1 -1\n9\n0 0\n0 1\n0 2\n1 0\n1 1\n1 2\n2 0\n2 1\n2 2\n-1 -1\n' --game ttt
check_bad 'the input ended in the middle of a turn' '-1 -1\n9\n0 0\n' --game ttt
check_bad 'line 2: 9 valid actions, but the position has 8 legal moves' '4 4\n9\n' --game uttt
check_bad 'line 1: over 256 characters' "$(printf '%0300d' 0)\\n" --game ttt
check_bad 'line 3: holds a NUL byte' '-1 -1\n9\n0 \0\n' --game ttt
# A line's control characters are quoted as escapes, never sent to the
# terminal, and a long line is cut in its middle.
check_bad "line 3: a valid action: expected .row col. .*not .\\\\x1b\\]0;pwn\\\\x07.\$" '-1 -1\n9\n\033]0;pwn\007\n' --game ttt
check_bad "line 2: expected the number of valid actions, not .1{18}\\.\\.\\.1{19}.\$" "-1 -1\\n$(printf '1%.0s' $(seq 100))\\n" --game ttt

# Input that never ends a line, and input that cannot be read: a message,
# status 1, at once (the reader stops at the line's limit).
out=$(timeout 20 "$NOUGHTS" bot --game ttt </dev/zero 2>"$tmp_err"); rc=$?; err=$(cat "$tmp_err")
if [ "$rc" -eq 1 ] && [ "$err" = "noughts: bot: line 1: over 256 characters (a turn's lines are short)" ]
then pass "endless input with no newline: $err"; else fail "/dev/zero (status $rc, stderr: $err)"; fi
out=$("$NOUGHTS" bot --game ttt <"$(dirname "$tmp_err")" 2>"$tmp_err"); rc=$?; err=$(cat "$tmp_err")
if [ "$rc" -eq 1 ] && [ "$err" = "noughts: bot: cannot read the input: Is a directory" ]
then pass "unreadable input: $err"; else fail "a directory as input (status $rc, stderr: $err)"; fi
out=$(printf -- '-1 -1\n9\n0 0\n0 1\n0 2\n1 0\n1 1\n1 2\n2 0\n2 1\n2 2\n' |
	"$NOUGHTS" bot --game ttt --engine mcts:iterations=100 2>"$tmp_err" >/dev/full); rc=$?
err=$(cat "$tmp_err")
if [ "$rc" -eq 1 ] && [ "$err" = "noughts: bot: cannot write the answer: No space left on device" ]
then pass "an answer that cannot be written: $err"; else fail "/dev/full (status $rc, stderr: $err)"; fi

done_testing
