#!/usr/bin/env bash
# completion.sh - the bash completion in completion/noughts, run against the
# built program: what a user gets after pressing Tab.
. "$TESTLIB"
COMPLETION=${COMPLETION:-$(dirname "$TESTLIB")/../completion/noughts}
. "$COMPLETION"

# tab LINE: complete at the end of LINE as bash would; the candidates go in $got
tab() {
	COMP_LINE="$1"
	COMP_POINT=${#1}
	COMP_WORDS=("$NOUGHTS")
	COMP_CWORD=1
	COMPREPLY=()
	_noughts
	got="${COMPREPLY[*]}"
}
# words: the words of stdin, sorted, one line
words() { tr -s ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' '; }
# expect_tab LINE WANTED: the candidates are exactly WANTED (in any order)
expect_tab() {
	tab "$NOUGHTS $1"
	if [ "$(words <<<"$got")" = "$(words <<<"$2")" ]; then
		pass "Tab after '$1' offers: $2"
	else
		fail "Tab after '$1' offers '$got', wanted '$2'"
	fi
}

commands=$("$NOUGHTS" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' | tr '\n' ' ')
expect_tab "" "$commands help"
expect_tab "so" "solve"
expect_tab "help s" "show solve selfplay"
expect_tab "solve --j" "--json"
expect_tab "--game u" "uttt"
expect_tab "analyze --engine mc" "mcts"
expect_tab "analyze --engine mcts:ro" "rollout="
expect_tab "analyze --engine mcts:rollout=" "random smart"
expect_tab "analyze --engine negamax:de" "depth="
# bash replaces only what follows the last ':' or '=' of the word
expect_tab "analyze --engine mcts:time=100,sol" "100,solver="
expect_tab "match mcts negamax:level=3,ti" "3,time="
expect_tab "analyze --moves " ""
expect_tab "match mcts random --sprt " ""

# every option a command's --help lists is offered, and each one offered is
# accepted by that command
for cmd in $commands; do
	tab "$NOUGHTS $cmd --"
	want=$("$NOUGHTS" "$cmd" --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | sort | tr '\n' ' ')
	have=$(tr ' ' '\n' <<<"$got" | sort | sed '/^$/d' | tr '\n' ' ')
	if [ "$want" = "$have" ] && [ -n "$have" ]; then pass "$cmd: every option offered"
	else fail "$cmd: offered '$have', --help lists '$want'"; fi
done

# every spec key offered for mcts is one the program takes
tab "$NOUGHTS analyze --engine mcts:"
bad=""
for key in $got; do
	case $key in
	rollout=) v=random ;; solver=) v=on ;; c=) v=0.5 ;; time=) v=10 ;;
	iterations=) v=10 ;; memory=) v=8 ;; seed=) v=1 ;; level=) v=1 ;; threads=) v=1 ;;
	eval=) v=rollout ;; parallel=) v=pipeline ;; order=) v=fixed ;; net=) v=$(dirname "$TESTLIB")/../train/uttt.bin ;; *) v=1 ;;
	esac
	run analyze --game uttt --engine "mcts:iterations=10,$key$v" --json
	[ "$rc" -eq 0 ] || [ "$key" = iterations= ] || bad="$bad $key$v($err)"
done
if [ -z "$bad" ] && [ -n "$got" ]; then pass "every mcts key offered is accepted: $got"
else fail "mcts keys refused:$bad"; fi

done_testing
