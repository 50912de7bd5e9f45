#!/bin/sh
# selfplay.sh - `noughts selfplay`: the format of its positions, what they
# must satisfy, and the same seed giving the same games.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"

run selfplay --game ttt --engine mcts:iterations=300 --games 6 --seed 4
expect_status 0 "selfplay of 6 tic-tac-toe games exits 0"
first=$(printf '%s\n' "$out" | head -1)
if [ "$first" = "# noughts-selfplay 1" ]; then pass "the first line names the format"
else fail "first line '$first'"; fi
if printf '%s\n' "$err" | grep -q 'game 6/6: [0-9]* positions'; then pass "a progress line on stderr"
else fail "progress line: $err"; fi
# stderr is a file here, not a terminal: whole lines, no carriage returns,
# not one for each game (one at most every 10 s, and the last).
lines=$(printf '%s\n' "$err" | wc -l)
case $err in
*"$(printf '\r')"*) fail "progress to a file: carriage returns in it" ;;
*) if [ "$lines" -le 2 ] && printf '%s\n' "$err" | tail -1 | grep -q '^game 6/6: '; then
	pass "progress to a file: $lines lines, the last one's the last game's"
else fail "progress to a file: $lines lines: $err"; fi ;;
esac

# Every position line: the format, counts of marks that fit the side to
# move, a chosen move on an empty cell, and one result per game that the
# two sides' lines agree on.
bad=$(printf '%s\n' "$out" | awk '
	/^# end: / { games++; if (res["X"] != "" && res["O"] != "" && res["X"] + res["O"] != 1) print "results " res["X"] " " res["O"]; delete res; next }
	/^#/ { next }
	{
		if (NF != 6 || length($1) != 9 || $1 !~ /^[.XO]+$/ || $2 !~ /^-?[0-9]+$/ ||
		    $3 !~ /^[XO]$/ || $4 !~ /^[0-9]+$/ || $5 !~ /^[01]\.[0-9][0-9][0-9][0-9]$/ ||
		    $6 !~ /^(1|0\.5|0)$/) { print "format: " $0; next }
		x = gsub(/X/, "X", $1); o = gsub(/O/, "O", $1)
		if (!(($3 == "X" && x == o) || ($3 == "O" && x == o + 1))) print "marks: " $0
		if (substr($1, $4 + 1, 1) != ".") print "move on a taken cell: " $0
		if ($5 > 1) print "value: " $0
		if (res[$3] != "" && res[$3] != $6) print "two results: " $0
		res[$3] = $6; n++
	}
	END { if (games != 6 || n < 6) print "games " games ", positions " n }')
if [ -z "$bad" ]; then pass "every position is well formed and consistent with its game"
else fail "positions: $bad"; fi

uttt=$("$NOUGHTS" selfplay --game uttt --tiebreak --engine mcts:iterations=200 --games 2 --seed 9 2>/dev/null)
again=$("$NOUGHTS" selfplay --game uttt --tiebreak --engine mcts:iterations=200 --games 2 --seed 9 2>/dev/null)
other=$("$NOUGHTS" selfplay --game uttt --tiebreak --engine mcts:iterations=200 --games 2 --seed 10 2>/dev/null)
if [ -n "$uttt" ] && [ "$uttt" = "$again" ]; then pass "the same seed gives the same games"
else fail "same seed, other games"; fi
if [ "$uttt" != "$other" ]; then pass "another seed gives other games"; else fail "seed ignored"; fi
if printf '%s\n' "$uttt" | grep -v '^#' | awk 'length($1) != 81 { bad = 1 } END { exit !bad }'; then
	fail "uttt lines have 81 cells"; else pass "uttt lines have 81 cells"; fi

# --children: the other moves' positions, before the game's own, each one
# move away from one of them, with no result; the end line counts them.
run selfplay --game ttt --engine mcts:iterations=300 --games 3 --seed 4 --children 5
bad=$(printf '%s\n' "$out" | awk '
	function marks(s, c) { return gsub(c, c, s) }
	function apart(a, b,   j, d) {
		d = 0
		for (j = 1; j <= length(a); j++) d += substr(a, j, 1) != substr(b, j, 1)
		return d
	}
	/^# end: / {
		if ($0 !~ (", " kids " children$")) print "end line " $0 " after " kids " children"
		for (i = 1; i <= kids; i++) {
			near = 0
			for (k = 1; k <= npos; k++) near += apart(child[i], pos[k]) == 1
			if (!near) print "child " child[i] " is not one move from a position of its game"
		}
		games++; total += kids; kids = 0; npos = 0; next
	}
	/^#/ { next }
	$6 == "-" {
		if (NF != 6 || $4 != "-1" || $5 !~ /^[01]\.[0-9][0-9][0-9][0-9]$/ || $5 > 1)
			print "child format: " $0
		if (npos > 0) print "child after the game positions: " $0
		x = marks($1, "X"); o = marks($1, "O")
		if (!(($3 == "X" && x == o) || ($3 == "O" && x == o + 1))) print "child marks: " $0
		child[++kids] = $1; next
	}
	{ pos[++npos] = $1 }
	END { if (games != 3 || total == 0) print "games " games ", children " total }')
if [ -z "$bad" ]; then pass "--children: the other moves' positions, one move from their game's, counted"
else fail "children: $bad"; fi

# --visits: each game position's line ends with its search's visits of
# each move (those with any), most first, on empty cells, the chosen move
# among them; the children's lines have none; the games are the same.
run selfplay --game ttt --engine mcts:iterations=300 --games 3 --seed 4 --children 5 --visits
bad=$(printf '%s\n' "$out" | awk '
	NR == 3 { if ($0 != "# cells last turn move value result visits") print "header: " $0 }
	/^#/ { next }
	$6 == "-" { if (NF != 6) print "a child with visits: " $0; next }
	{
		n++
		if (NF != 7) { print "no visits: " $0; next }
		if ($7 == "-") next
		k = split($7, v, ","); last = -1; chosen = 0; delete seen
		for (i = 1; i <= k; i++) {
			if (v[i] !~ /^[0-9]+:[1-9][0-9]*$/) { print "entry " v[i] ": " $0; continue }
			split(v[i], mv, ":"); m = mv[1] + 0; c = mv[2] + 0
			if (substr($1, m + 1, 1) != ".") print "visits of a taken cell: " $0
			if (m in seen) print "a move twice: " $0
			seen[m] = 1
			if (last >= 0 && c > last) print "not most first: " $0
			if (c == last && m < lastm) print "a tie not in the order of the moves: " $0
			last = c; lastm = m
			if (m == $4) chosen = 1
		}
		if (!chosen) print "the chosen move not visited: " $0
	}
	END { if (n < 3) print "positions " n }')
if [ -z "$bad" ]; then pass "--visits: each position's visits of its moves, most first, the move played among them"
else fail "visits: $bad"; fi
plain=$("$NOUGHTS" selfplay --game ttt --engine mcts:iterations=300 --games 3 --seed 4 --children 5 2>/dev/null |
	grep -v '^#')
if [ -n "$plain" ] && [ "$(printf '%s\n' "$out" | grep -v '^#' | awk 'NF == 7 { $7 = ""; sub(/ $/, "") } 1')" = "$plain" ]
then pass "--visits: the same games and values as without it"
else fail "--visits changed the games"; fi
# (with seed 1 the game's one random ply is O's, so X's last move, the
# only one left, is its only searched position)
run selfplay --game ttt --moves "b2 a1 c1 a3 a2 c2 b1" --engine mcts:iterations=300 --games 1 --seed 1 --visits
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -v '^#' | awk '{ print NF, $7 }')" = "7 -" ]
then pass "--visits: '-' for a position the search proved without a visit"
else fail "--visits on a proved root: status $rc, $out"; fi
run selfplay --game uttt --tiebreak --engine mcts:iterations=200 --games 1 --seed 9 --visits
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -v '^#' | awk '
	$7 != "-" { k = split($7, v, ","); for (i = 1; i <= k; i++) { split(v[i], mv, ":"); if (substr($1, mv[1] + 1, 1) != ".") bad = 1 } }
	NF != 7 { bad = 1 } END { exit bad || NR == 0 }'
then pass "--visits on Ultimate tic-tac-toe: moves on empty cells"
else fail "uttt --visits: status $rc, a line without visits or visits of a taken cell"; fi

# On uttt, which has a network, the header names the evaluation a spec
# without eval= gets (mix, with order=net), and one given as is
run selfplay --game uttt --engine mcts:iterations=20 --games 1 --label mcts:iterations=8,eval=rollout
expect_grep '^# game uttt, engine mcts:iterations=20,c=0.4,rollout=smart,solver=on,eval=mix,order=net, label mcts:iterations=8,c=0.4,rollout=smart,solver=on,eval=rollout, seed 1$' \
	"selfplay uttt: the header names each engine's evaluation"

# --label: the same games, but every value from the label engine's own
# search; one that proves each tic-tac-toe position gives exact values, so
# no position is worth less to its mover than the next is worth to the
# other side, and the move played never makes it worth more.
plain=$("$NOUGHTS" selfplay --game ttt --engine mcts:iterations=30 --games 4 --seed 7 --children 3 2>/dev/null)
run selfplay --game ttt --engine mcts:iterations=30 --games 4 --seed 7 --children 3 \
	--label mcts:iterations=20000
expect_status 0 "selfplay --label exits 0"
if [ "$(printf '%s\n' "$out" | sed -n 2p)" = "$(printf '%s\n' "$plain" | sed -n 2p | \
	sed 's/, seed 7/, label mcts:iterations=20000,c=0.4,rollout=smart,solver=on, seed 7/')" ]
then pass "--label: the header names the label engine"
else fail "--label header: $(printf '%s\n' "$out" | sed -n 2p)"; fi
if [ "$(printf '%s\n' "$out" | grep -v '^#' | cut -d' ' -f1-4)" = \
     "$(printf '%s\n' "$plain" | grep -v '^#' | cut -d' ' -f1-4)" ]
then pass "--label: the same games and children as without it"
else fail "--label changed the games"; fi
bad=$(printf '%s\n' "$out" | awk '
	/^# end: / { prev = ""; games++; next }
	/^#/ { next }
	$5 != "0.0000" && $5 != "0.5000" && $5 != "1.0000" { print "not exact: " $0 }
	$6 == "-" { next }
	{
		if (prev != "" && prev + $5 < 1) print "worth less than its successor: " $0
		if (prev != "" && prev + $5 > 1 + 1e-9) print "gained by a move: " $0
		prev = $5; n++
	}
	END { if (games != 4 || n < 4) print "games " games ", positions " n }')
if [ -z "$bad" ]; then pass "--label: exact values, consistent from one position to the next"
else fail "--label values: $bad"; fi
run selfplay --game ttt --label negamax
expect_error 2 "selfplay: --label must be mcts" "selfplay refuses a label engine without search values"

run selfplay --game ttt --engine negamax
expect_error 2 "selfplay: --engine must be mcts" "selfplay refuses an engine without search values"
run selfplay --game ttt --moves "a1 b1 a2 b2 a3"
expect_error 1 "the game is over" "selfplay refuses a finished position"

done_testing
