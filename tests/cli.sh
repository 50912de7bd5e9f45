#!/bin/sh
# cli.sh - the headless commands as a user runs them: output, JSON, errors.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
data=${TESTDATA:-$(dirname "$0")/data}

run --version
expect_status 0 "--version exits 0"
expect_grep '^noughts [0-9]+\.[0-9]+' "--version prints the version"
expect_grep 'MIT' "--version names the licence"
run --vers
expect_status 0 "--vers (a prefix, as getopt takes the options) exits 0"
expect_grep '^noughts [0-9]+\.[0-9]+' "--vers prints the version"
run --he
expect_status 0 "--he exits 0"
expect_grep "^Usage: noughts \\[COMMAND\\]" "--he prints the usage"

run --help
expect_status 0 "--help exits 0"
for c in play show analyze solve perft bench match review selfplay bot; do
	expect_grep "^  $c " "--help lists $c"
done
for c in $("$NOUGHTS" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	run "$c" --help
	if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^Usage: noughts $c"; then
		pass "$c --help prints its usage"
	else
		fail "$c --help prints its usage (status $rc)"
	fi
done
run help help
expect_status 0 "help help exits 0"
expect_grep "^Usage: noughts \\[COMMAND\\]" "help help gives what help gives"

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

# analyze counts the winning move itself in the plies to the end, as solve does.
run analyze --moves "a1 b1 a2 b2" --engine mcts:iterations=300 --json
expect_grep '"best": "a3"' "analyze finds the win in one"
expect_grep '"move": "a3", [^}]*"proven": "win", "proven_plies": 1' "analyze: a3 wins in 1 ply"
run analyze --game 4,4,3 --engine negamax:depth=9
expect_grep '^proven: win in 5$' "analyze with negamax proves 4,4,3 a win in 5"
run solve --game 4,4,3 --json
expect_grep '"value": "win", .*"plies": 5' "solve agrees: win in 5"
expect_grep '"moves": \[\{"move": "b2", "value": "win", "plies": 5\}, ' "solve --json: every move, best first"
# The issue's late Ultimate tic-tac-toe position: c4 wins in 3, c6 only in 5.
uttt_fast="i5 h4 d1 c1 g2 b6 e8 d4 a3 b8 e6 e7 f1 h1 d2 a5 a4 c2 g5 b5 f5 g6 c7 g3 c8 i6 i7 i2 i4 i1 h3 f7 i3 h8 f6 h7 e2 d6 b7 e3 d9 c9 g7 b2 e4 e1 f2 g4 c3 g9 a8 a6 a9 b9 f9 i9 i8 h5 e5 a2"
run solve --game uttt --moves "$uttt_fast"
expect_grep '^best: c4$' "solve: only the fastest win is best"
expect_grep '^c6 *X wins in 5$' "solve: c6 listed as a win in 5"
run solve --moves "a1 b2"
expect_grep '^value: draw$' "solve: a draw reads as one"

# review marks the plies that give a proven result away, and only those.
run review --game ttt --moves "a1 a2 b2 c3 c1 b1 a3" --json
expect_grep '\{"ply": 2, "move": "a2", "side": "O", "before": "draw", [^}]*"after": "loss", [^}]*"mistake": true\}' \
	"review: O's a2 gives the draw away"
expect_grep '"summary": \{"X": \{"moves": 4, "mistakes": 0, .*"O": \{"moves": 3, "mistakes": 1,' \
	"review: no X move is a mistake, one O move is"
mistakes=$(printf '%s\n' "$out" | grep -o '"mistake": true' | wc -l)
if [ "$mistakes" -eq 1 ]; then pass "review: exactly one mistake"; else fail "review: $mistakes mistakes"; fi
rec=$(mktemp)
printf 'Game: ttt\n\nb2\na1\nc1\nb1\n' >"$rec"
run review "$rec"
expect_grep '^   4  O   b1    draw +loss in 2 +a3  <- mistake$' "review FILE: a record, text, the only defence named"
expect_grep '^   3  X   c1    draw +draw ' "review FILE: X's c1 keeps the draw"
expect_grep '^O: 2 moves, 1 mistake' "review FILE: a summary per side"
rm -f "$rec"

# A FIFO as a file to read: without a writer it reads as empty, at once
# (open() used to wait for a writer: a hang); with one, as the file it sends.
fifo=$(mktemp -u)
if mkfifo "$fifo"; then
	for args in "review $fifo" "analyze --game uttt --engine mcts:net=$fifo"; do
		# shellcheck disable=SC2086 # (the words of args)
		timeout 60 "$NOUGHTS" $args >/dev/null 2>"$tmp_err"
		rc=$?
		if [ "$rc" -ne 124 ] && [ "$rc" -ne 0 ] && [ "$(wc -l <"$tmp_err")" -eq 1 ] &&
			grep -Eq "not a noughts (record|network file)" "$tmp_err"; then
			pass "${args%% *}: a FIFO without a writer is an empty file: $(cat "$tmp_err")"
		else fail "${args%% *}: a FIFO without a writer (status $rc): $(cat "$tmp_err")"; fi
	done
	# (the writer has opened the FIFO before review does: this shell's own
	# read end, which it never reads, waits for it and keeps what it wrote;
	# review read an empty file and left the writer waiting for a reader
	# forever when it came first, once on a busy CI run)
	printf 'Game: ttt\n\nb2\na1\n' >"$fifo" &
	exec 4<"$fifo"
	timeout 60 "$NOUGHTS" review "$fifo" >"$tmp_err.out" 2>"$tmp_err"
	rc=$?
	wait
	exec 4<&-
	if [ "$rc" -eq 0 ] && grep -q ' a1 ' "$tmp_err.out"; then
		pass "review: a record from a FIFO with a writer"
	else fail "review: a record from a FIFO with a writer (status $rc): $(cat "$tmp_err")"; fi
	rm -f "$fifo" "$tmp_err.out"
else
	fail "mkfifo $fifo"
fi

# bench: the network's two engines (eval=net and the default eval=mix) on
# the game that has one, not on the others
run bench --game uttt --seconds 0.02
expect_grep '^mcts iterations/s \(network\) +[0-9]+  \((avx512|avx2|sse2|scalar)\)$' "bench uttt: eval=net's rate"
expect_grep '^mcts iterations/s \(mix\) +[0-9]+$' "bench uttt: eval=mix's rate"
run bench --game 7,7,5 --seconds 0.02 --json
case $out in
*mcts_net_* | *mcts_mix_*) fail "bench 7,7,5: no network figures"; printf '# got: %s\n' "$out" ;;
*'"mcts_smart_iterations_per_second": '[0-9]*) pass "bench 7,7,5: no network figures" ;;
*) fail "bench 7,7,5: no network figures (no smart figure either)"; printf '# got: %s\n' "$out" ;;
esac

# match names the evaluation a spec without eval= gets where the game has a
# network (uttt: mix), in its report and its records; elsewhere the spec as given
run match mcts:iterations=20 mcts:iterations=20,eval=rollout --game uttt --games 1 --json
expect_grep '"a": "mcts:iterations=20,c=0.4,rollout=smart,solver=on,eval=mix,order=net", "b": "mcts:iterations=20,c=0.4,rollout=smart,solver=on,eval=rollout"' \
	"match uttt: a spec without eval= is reported as eval=mix, order=net"
run match mcts:iterations=20 random --game ttt --games 1
expect_grep '^A: mcts:iterations=20,c=0.4,rollout=smart,solver=on$' "match ttt: no evaluation named"

# match scores A with each side apart: 4,3,3 is won by the first player,
# so perfect play wins every game as X and loses every game as O (three
# games: A is X in the first and third)
run match negamax:depth=12 negamax:depth=12 --game 4,3,3 --games 3 --json
expect_grep '"as_x": \{"games": 2, "wins": 2, "draws": 0, "losses": 0, "score": 1\}, "as_o": \{"games": 1, "wins": 0, "draws": 0, "losses": 1, "score": 0\}' \
	"match --json: A's games as X and as O apart (4,3,3 is the first player's)"
run match negamax:depth=12 negamax:depth=12 --game 4,3,3 --games 3
expect_grep '^A as X: 2 games, won 2, drew 0, lost 0; score 100\.0%; as O: 1 game, won 0, drew 0, lost 1; score 0\.0%$' \
	"match: a line of A's score as X and as O"

# match --sprt stops at a verdict: a searching engine against random play
# at tic-tac-toe is shown stronger in a few pairs, long before --games; an
# engine against itself is not shown 100 Elo stronger; the pairs counted
# are the games played over two
run match mcts:iterations=300 random --game ttt --sprt 0,50 --games 1000 --json
case $out in
*'"games": 1000,'*) fail "match --sprt: stops before --games"; printf '# got: %s\n' "$out" ;;
*'"verdict": "H1"'*) pass "match --sprt: an engine against random play is H1 before --games" ;;
*) fail "match --sprt: an engine against random play is H1"; printf '# got: %s\n' "$out" ;;
esac
games=$(printf '%s\n' "$out" | sed -n 's/.*"game": "[^"]*", "games": \([0-9]*\),.*/\1/p')
pairs=$(printf '%s\n' "$out" | sed -n 's/.*"pairs": \([0-9]*\),.*/\1/p')
if [ -n "$games" ] && [ "$pairs" = $((games / 2)) ]; then pass "match --sprt: a pair is two games"
else fail "match --sprt: pairs $pairs of games $games"; fi
run match mcts:iterations=50 mcts:iterations=50 --game ttt --sprt 100,200 --games 2000
expect_grep '^SPRT elo0 100, elo1 200 \(alpha 0.05, beta 0.05\): [0-9]+ pairs, LLR -[0-9.]+ \(-2.94, 2.94\): H0' \
	"match --sprt: an engine is not 100 Elo stronger than itself (H0)"
run match random random --game ttt --games 3 --sprt -5,5,0.1,0.2 --json
expect_grep '"sprt": \{"elo0": -5, "elo1": 5, "alpha": 0.1, "beta": 0.2, "pairs": 1, "llr": [-0-9.e+]+, "lower": -1.50[0-9]*, "upper": 2.07[0-9]*, "verdict": "(none|H0|H1)"\}' \
	"match --sprt with its error rates: bounds ln(beta/(1-alpha)), ln((1-beta)/alpha); an odd game not paired"
for bad in 5,1 0 0,10,0.05 0,10,0.5,0.1 0,10,0.05,0 a,b 0,10, ,5 0,2000 -0,x; do
	run match random random --sprt "$bad"
	expect_error 2 "--sprt must be ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA with ELO0 < ELO1 from -1000 to 1000 and ALPHA, BETA between 0 and 0.5, such as 0,10 or -5,5,0.05,0.1; not '$bad'" \
		"match --sprt $bad: one line naming what is accepted, status 2"
done
run analyze --sprt 0,10
expect_error 2 "this command does not take --sprt" "analyze --sprt: not an option of analyze"

# bench --threads: a figure and a ratio for each count, in the order given,
# one thread's ratio 1, the range of the rounds, and how the threads shared
# the search: a pipeline on 2, one tree on more (figures are measured, not
# tested).
run bench --game uttt --seconds 0.05 --threads 2,1,3 --json
expect_grep '"threads": \[\{"threads": 2, "iterations_per_s": [0-9.e+]+, "ratio": [0-9.e+-]+, "min": [0-9.e+]+, "max": [0-9.e+]+, "parallel": "pipeline"\}, \{"threads": 1, "iterations_per_s": [0-9.e+]+, "ratio": 1, "min": [0-9.e+]+, "max": [0-9.e+]+\}, \{"threads": 3, "iterations_per_s": [0-9.e+]+, "ratio": [0-9.e+-]+, "min": [0-9.e+]+, "max": [0-9.e+]+, "parallel": "tree"\}\]\}$' \
	"bench --threads --json: one object a thread count"
run bench --game uttt --seconds 0.05 --threads 1,2
expect_grep '^ +2 threads +[0-9]+ +[0-9.]+x +[0-9]+-[0-9]+  pipeline$' "bench --threads: a line a thread count with its ratio and range"
expect_grep 'the median of 3 rounds' "bench --threads: three rounds unless told"
# The median lies in the range of the rounds; one thread's ratio is 1.
run bench --game ttt --seconds 0.02 --threads 1,2 --rounds 4
expect_grep 'the median of 4 rounds' "bench --rounds 4: four rounds"
if printf '%s\n' "$out" | awk '
	/^ +[0-9]+ threads? / { split($(NF - ($2 == "threads")), r, "-")
		n++; if (!(r[1] + 0 <= $3 + 0 && $3 + 0 <= r[2] + 0)) bad = 1
		if ($1 == 1 && $4 != "1.00x") bad = 1 }
	END { exit !(n == 2 && !bad) }'; then
	pass "bench --rounds: each count's median within its rounds' range, one thread's ratio 1"
else
	fail "bench --rounds: median and range"; printf '%s\n' "$out" | sed 's/^/# got: /'
fi
for how in tree pipeline; do
	run analyze --game uttt --engine mcts:iterations=3000,threads=2,parallel=$how --json
	expect_grep '"iterations": 3000' "analyze on 2 threads (parallel=$how) runs its 3000 iterations"
done
run analyze --game uttt --engine mcts:iterations=30,parallel=both
expect_error 2 "parallel must be auto, tree or pipeline, not 'both'" \
	"parallel=both: one line saying what is accepted, exit status 2"

# analyze: the implicit minimax values (mm) under eval=mix with order=net,
# a value between 0 and 1 for each move; none under order=fixed
run analyze --game uttt --moves "e5 d4" --engine mcts:iterations=3000,threads=1
if printf '%s\n' "$out" | awk 'NR == 1 { ok = $9 == "mm"; next }
	$1 ~ /^[a-i][1-9]$/ { n++; if (!($9 + 0 >= 0 && $9 + 0 <= 1 && $9 ~ /^[01]\.[0-9][0-9][0-9]$/)) ok = 0 }
	END { exit !(ok && n == 9) }'; then
	pass "analyze: an mm column, a value for each of the 9 moves"
else
	fail "analyze: mm column"; printf '%s\n' "$out" | sed 's/^/# got: /'
fi
run analyze --game uttt --moves "e5 d4" --engine mcts:iterations=3000,threads=1,order=fixed --json
if printf '%s\n' "$out" | grep -q '"implicit"'; then fail "analyze order=fixed: no implicit values"
else pass "analyze --json, order=fixed: no implicit values"; fi

# order=: net or fixed; net needs the network
run analyze --game uttt --engine mcts:iterations=30,order=best
expect_error 2 "order must be net or fixed, not 'best'" \
	"order=best: one line saying what is accepted, exit status 2"
run analyze --game uttt --engine mcts:iterations=30,order=net,eval=rollout
expect_error 2 "order=net needs the network: eval=mix or net, not rollout" \
	"order=net with eval=rollout: an error, exit status 2"
run analyze --game 7,7,5 --engine mcts:iterations=30,order=net
expect_error 2 "order=net: 7,7,5 has no network .only uttt has one.; use order=fixed or net=FILE" \
	"order=net on a game without a network: an error, exit status 2"
run match mcts:iterations=30,order=fixed mcts:iterations=30 --game uttt --games 1 --json
expect_grep '"a": "mcts:iterations=30,c=0.4,rollout=smart,solver=on,eval=mix,order=fixed"' \
	"match: order=fixed is reported as given"

# solve on 1 and on 2 threads: the same value, best moves and plies; it says
# how many threads searched and at what rate.
run solve --game 4,4,4 --moves "b2 c3" --threads 1 --json
one=$(printf '%s\n' "$out" | sed 's/, "nodes": .*//')
run solve --game 4,4,4 --moves "b2 c3" --threads 2 --json
two=$(printf '%s\n' "$out" | sed 's/, "nodes": .*//')
expect_grep '"nodes_per_s": [0-9.e+]+, "threads": 2\}$' "solve --json: nodes/s and threads"
if [ -n "$one" ] && [ "$one" = "$two" ]; then pass "solve: the same answer on 1 and 2 threads ($two)"
else fail "solve on 1 thread: '$one'; on 2: '$two'"; fi
run solve --game 4,4,3 --threads 2
expect_grep '^threads: 2$' "solve: the threads that searched"
expect_grep '^nodes/s: [0-9]+$' "solve: nodes a second"
run analyze --game 4,4,3 --engine negamax:threads=2 --json
expect_grep '"proven": "win", "proven_plies": 5' "analyze: negamax on 2 threads solves 4,4,3: win in 5"

# Output that cannot be written is an error, on any command.
for args in "show" "perft 2" "--help" "solve --game 3,3,3 --moves b2" "bench --seconds 0.01"; do
	"$NOUGHTS" $args >/dev/full 2>"$tmp_err" </dev/null; rc=$?; err=$(cat "$tmp_err")
	if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$err" | tail -1)" = \
		"noughts: cannot write the output: No space left on device" ]
	then pass "$args >/dev/full: status 1 and why"
	else fail "$args >/dev/full (status $rc, stderr: $err)"; fi
done

# A command that failed has said why: one line, its own status.
"$NOUGHTS" show --bogus >&- 2>"$tmp_err"; rc=$?; err=$(cat "$tmp_err")
if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]; then
	pass "a usage error with stdout closed: status 2, one line"
else fail "show --bogus >&- (status $rc, stderr: $err)"; fi
"$NOUGHTS" selfplay --games 1 --engine mcts:iterations=50 >/dev/full 2>"$tmp_err"; rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c 'noughts:' "$tmp_err")" -eq 1 ] &&
	grep -q "cannot write the positions: No space left on device" "$tmp_err"
then pass "selfplay >/dev/full: status 1, said once"
else fail "selfplay >/dev/full (status $rc, stderr: $(cat "$tmp_err"))"; fi
"$NOUGHTS" show >&- 2>"$tmp_err"; rc=$?; err=$(cat "$tmp_err")
if [ "$rc" -eq 1 ] && [ "$err" = "noughts: cannot write the output: Bad file descriptor" ]
then pass "show with stdout closed: $err"; else fail "show >&- (status $rc, stderr: $err)"; fi

# Every bad input of the table gets its one-line message and status.
tab=$(printf '\t')
while IFS="$tab" read -r status pattern args; do
	case "$status" in "#"*|"") continue ;; esac
	eval "set -- $args"
	run "$@"
	expect_error "$status" "$pattern" "noughts $args"
done < "$data/bad-input.tsv"

# The man page documents every option and player key the program accepts,
# and renders without warnings.
man=${MANPAGE:-$(dirname "$0")/../man/noughts.6.in}
missing=""
for c in $("$NOUGHTS" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	for o in $("$NOUGHTS" "$c" --help | grep -Eo -- '--[a-z][a-z-]*' | sort -u); do
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$man" || missing="$missing $o"
	done
done
for k in iterations time c rollout solver memory seed threads level depth eval net; do
	grep -q "^\.BI\{0,1\}R\{0,1\} $k=" "$man" || grep -q "^\.B[IR]* $k=" "$man" || missing="$missing $k="
done
for c in $("$NOUGHTS" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
	grep -q "^\.B $c\$\|^\.BI $c " "$man" || missing="$missing command:$c"
done
if [ -z "$missing" ]; then pass "the man page names every command, option and player key"
else fail "the man page lacks:$missing"; fi
if command -v groff >/dev/null 2>&1 && [ -n "${MANPAGE_BUILT:-}" ]; then
	warnings=$(groff -man -ww -z "$MANPAGE_BUILT" 2>&1)
	if [ -z "$warnings" ]; then pass "groff -man -ww renders the man page without a warning"
	else fail "groff warnings: $warnings"; fi
fi

# Signals stop the long commands cleanly, with what was done.
# stop_job PID SIG: after a second, SIG every half second until PID ends (a
# signal sent before the program set its handler is lost: a background job
# of sh starts with SIGINT ignored, and a loaded machine may take seconds to
# get there); the job's status. After a minute, SIGKILL (status 137).
# SIGTERM is not ignored, so one sent too early ends the program: with a
# third argument, wait until that file (a progress line) is written.
stop_job() {
	local i=0
	sleep 1
	# a file given third is written once the handler is set: wait for it
	while [ -n "${3:-}" ] && [ ! -s "$3" ] && [ "$i" -lt 120 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	i=0
	while kill -"$2" "$1" 2>/dev/null && [ "$i" -lt 120 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	[ "$i" -lt 120 ] || kill -KILL "$1" 2>/dev/null
	wait "$1"
}
"$NOUGHTS" solve --game 8,8,5 >"$tmp_err.out" 2>"$tmp_err" &
stop_job $! INT
rc=$?
if [ "$rc" -eq 1 ] && grep -q "^noughts: solve: stopped after" "$tmp_err"; then
	pass "solve stops on SIGINT with a message and status 1"
else fail "solve on SIGINT (status $rc): $(tail -1 "$tmp_err")"; fi
"$NOUGHTS" solve --game 8,8,5 --json >"$tmp_err.out" 2>"$tmp_err" &
stop_job $! INT
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^{"stopped": true, .*"unsettled": \[' "$tmp_err.out"; then
	pass "solve --json on SIGINT prints what it found, stopped, status 1"
else fail "solve --json on SIGINT (status $rc): $(head -c 200 "$tmp_err.out")"; fi
"$NOUGHTS" match mcts:iterations=20 random --game ttt --games 10000000 >"$tmp_err.out" 2>"$tmp_err" &
stop_job $! TERM "$tmp_err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q "(stopped)" "$tmp_err.out" && grep -q "^Elo difference" "$tmp_err.out"; then
	pass "match stops on SIGTERM with the summary of the games played"
else fail "match on SIGTERM (status $rc): $(cat "$tmp_err.out")"; fi
# analyze_stopped DESCRIPTION PATTERN ARGS...: analyze with a budget of an
# hour, interrupted by SIGINT, prints what it found (stdout matches PATTERN)
analyze_stopped() {
	local what=$1 pattern=$2
	shift 2
	"$NOUGHTS" analyze "$@" >"$tmp_err.out" 2>"$tmp_err" &
	stop_job $! INT
	rc=$?
	if [ "$rc" -eq 1 ] && grep -Eq -- "$pattern" "$tmp_err.out"; then
		pass "analyze ($what) stops on SIGINT, prints what it found, status 1"
	else fail "analyze ($what) on SIGINT (status $rc): $(head -c 300 "$tmp_err.out")"; fi
}
analyze_stopped "mcts, text" '^best: [a-i][1-9] \(stopped' --game uttt --engine mcts:time=3600000
analyze_stopped "mcts, json" '^\{"best": "[a-i][1-9]", "stopped": true, "iterations": [1-9]' \
	--game uttt --engine mcts:time=3600000 --json
analyze_stopped "negamax, json" '^\{"best": "[a-g][1-7]", "stopped": true, "score"' \
	--game 7,7,5 --engine negamax:time=3600000 --json
rm -f "$tmp_err.out"

done_testing
