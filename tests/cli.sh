#!/bin/sh
# cli.sh - the headless commands as a user runs them: output, JSON, errors.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
data=${TESTDATA:-$(dirname "$0")/data}

run --version
expect_status 0 "--version exits 0"
expect_grep '^noughts [0-9]+\.[0-9]+' "--version prints the version"
expect_grep 'MIT' "--version names the licence"

run --help
expect_status 0 "--help exits 0"
for c in play show analyze solve perft bench match; do
	expect_grep "^  $c " "--help lists $c"
done
for c in play show analyze solve perft bench match; do
	run "$c" --help
	if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^Usage: noughts $c"; then
		pass "$c --help prints its usage"
	else
		fail "$c --help prints its usage (status $rc)"
	fi
done

run perft 9
expect_out "1 9
2 72
3 504
4 3024
5 15120
6 54720
7 148176
8 200448
9 127872" "perft 9 of tic-tac-toe"
run perft 4 --game uttt --json
expect_out '{"perft": [81, 720, 6336, 55080]}' "perft --json"
run perft 2 --game uttt --moves e5
expect_out "1 8
2 72" "perft after --moves: 8 cells in the centre board, each sends X to a board of 9"

run show --moves "b2 a1"
expect_out "    a b c
  1 O . .
  2 . X .
  3 . . .
X to move
Legal moves (7): b1 c1 a2 c2 a3 b3 c3" "show draws the position"
run show --moves "a1 b1 a2 b2 a3" --json
expect_out '{"game": "ttt", "moves": ["a1", "b1", "a2", "b2", "a3"], "board": ["XO.", "XO.", "X.."], "to_move": null, "result": "X", "legal": []}' "show --json of a won game"
run show --game uttt --moves "e5"
expect_grep "^O to move, in the centre board" "show: uttt says where to play"

# Every bad input of the table gets its one-line message and status.
tab=$(printf '\t')
while IFS="$tab" read -r status pattern args; do
	case "$status" in "#"*|"") continue ;; esac
	eval "set -- $args"
	run "$@"
	expect_error "$status" "$pattern" "noughts $args"
done < "$data/bad-input.tsv"

done_testing
