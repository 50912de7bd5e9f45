#!/bin/sh
# valgrind.sh - the headless commands under valgrind: no leak, no error.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..0 # SKIP valgrind is not installed"
	exit 0
fi
if [ -n "${NOUGHTS_SANITIZED:-}" ]; then
	echo "1..0 # SKIP a sanitizer build cannot run under valgrind"
	exit 0
fi
vlog=$(mktemp)
trap 'rm -f "$vlog" "$tmp_err"' EXIT

# vg DESCRIPTION INPUT ARGS...: run noughts under memcheck with INPUT on stdin
vg() {
	desc=$1; input=$2; shift 2
	printf -- "$input" | valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
		--error-exitcode=99 --log-file="$vlog" "$NOUGHTS" "$@" >/dev/null 2>&1
	status=$?
	if [ "$status" -ne 99 ] && [ ! -s "$vlog" ]; then
		pass "valgrind: $desc"
	else
		fail "valgrind: $desc (status $status)"
		sed 's/^/# /' "$vlog" | head -30
	fi
}

rec=$(mktemp -d)
vg "perft" "" perft 6 --game uttt
vg "show --json" "" show --game uttt --moves "e5 e4" --json
vg "analyze" "" analyze --game uttt --engine mcts:iterations=3000
vg "analyze with a full arena" "" analyze --game uttt --engine mcts:iterations=20000,memory=1
vg "analyze negamax" "" analyze --game 4,4,3 --engine negamax:depth=4
vg "solve" "" solve --game 4,4,3
vg "match with records" "" match mcts:iterations=200 random --game uttt --games 2 --record "$rec"
vg "bot" '-1 -1\n9\n0 0\n0 1\n0 2\n1 0\n1 1\n1 2\n2 0\n2 1\n2 2\n' bot --game ttt --engine mcts:iterations=500
vg "bot refusing a bad line" '-1 -1\nnine\n' bot --game ttt
vg "a usage error" "" show --game chess
vg "bench" "" bench --game ttt --seconds 0.05
rm -rf "$rec"
done_testing
