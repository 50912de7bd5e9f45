#!/bin/sh
# screen-graph.sh - the value graph, the line on the board and the review
# in a real terminal: a private tmux server runs noughts, the test sends
# keys and reads the screen back. Waits poll the screen up to a timeout;
# no assertion depends on how fast anything runs.
tmux_name=graph
. "$(dirname "$0")/tmux.sh"

# start COLS ROWS ARGS...: noughts with ARGS in a fresh COLS x ROWS window.
start() {
	c=$1 r=$2
	shift 2
	tm kill-session -t t >/dev/null 2>&1
	tm new-session -d -s t -x "$c" -y "$r" "$NOUGHTS" "$@"
}
# The graph's lines: from the one matching $1 down, the first $2 columns.
graph() { screen | awk -v re="$1" '$0 ~ re { on = 1 } on' | cut -c1-"$2"; }
# Its lowest row of bars, and the row of marks under them (the first
# after the caption without bar characters).
bars_bottom() { graph "$1" "$2" | awk 'NR > 1 && /[▁▂▃▄▅▆▇█]/ { last = $0 } NR > 1 && !/[▁▂▃▄▅▆▇█·│]/ { print last; exit }'; }
marks() { graph "$1" "$2" | awk 'NR > 1 && !/[▁▂▃▄▅▆▇█·│]/ { print; exit }'; }

# --- tic-tac-toe: a finished game from a record, reviewed ---------------------

cat >"$dir/game.txt" <<'REC'
# noughts game record
Game: ttt
X: human
O: human
Result: X

a1 {iterations=1000 visits=600 value=0.550}
a2 {iterations=1000 visits=500 value=0.450}
b2 {iterations=1000 visits=900 value=0.900}
c3 {iterations=1000 visits=100 value=0.100}
c1 {iterations=1000 visits=990 value=0.990 proven=win plies=3}
b1 {iterations=1000 visits=10 value=0.000 proven=loss plies=2}
a3 {iterations=1000 visits=1000 value=1.000 proven=win plies=1}
REC
start 80 24 play --load "$dir/game.txt"
wait_for '7/7: X.s win'
check $? "80x24: the graph under the board says the end's value: X wins"
bars_bottom '7/7' 18 | grep -q '^ [▁▂▃▄▅▆▇█]'
check $? "the record's values feed the graph: ply 0 has a bar"
marks '7/7' 18 | grep -Eq '^ +xxxx *$'
check $? "its proven plies and the end are marked x (X wins)"
tm send-keys -t t r
wait_for 'Reviewed 7 moves: mistakes X none, O 1 \(first: move 2 a2\)\.'
check $? "r reviews the game: O's a2 is the one mistake"
screen_has 'game +1\.a1 a2\? 2\.b2 c3 3\.c1 b1 4\.a3'
check $? "the game line marks a2 with ?"
marks '7/7' 18 | grep -q '^ =?x'
check $? "the graph marks it with ?, the start a proven draw (=)"
tm send-keys -t t '[' '[' '[' '[' '[' '['
wait_for '1/7: draw'
check $? "[ moves the graph's cursor back: after a1 a draw"
tm send-keys -t t ']'
wait_for '2/7: X.s win'
check $? "] forward: after a2 X wins"
tm send-keys -t t q
sleep 0.3

moves="a1 a2 b2 c3 c1 b1 a3"
# --- ASCII --------------------------------------------------------------------

start 80 24 play --game ttt --moves "$moves" --ascii
wait_for '7/7: X.s win'
graph '7/7' 18 >"$dir/g.txt"
if grep -q '#' "$dir/g.txt" && ! grep -q '█' "$dir/g.txt"; then
	pass "--ascii: the bars are drawn with #, no block characters"
else
	fail "--ascii: the bars are drawn with #, no block characters"
fi
tm send-keys -t t q
sleep 0.3

# --- a small terminal drops the graph ------------------------------------------

start 56 12 play --game ttt --moves "a1 b2"
wait_for 'X to move'
if screen_has '1 . X' && ! screen_has "X's value|[0-9]+/[0-9]+:"; then
	pass "56x12: the board, and no graph"
else
	fail "56x12: the board, and no graph"
fi
tm send-keys -t t q
sleep 0.3

# --- the line on the board ------------------------------------------------------

start 120 40 play --game uttt --o mcts:time=60000,seed=1 --moves e5
wait_for 'thinking'
wait_for '[0-9]+ +[0-9.k]+ .*%'
tm send-keys -t t e
wait_for 'Line .* \(([0-9]+) of \1\)'
check $? "e: the first row's line, all of it"
screen | grep -q 'o1' && screen | grep -q 'x2'
check $? "its moves numbered on the board: o1, x2, ..."
before=$(screen | grep -o '[0-9.]*[kM]* iterations' | head -1)
tm send-keys -t t Left
shorter_line() {
	screen | sed -nE 's/.*Line .* \(([0-9]+) of ([0-9]+)\).*/\1 \2/p' | awk '{ exit !($1 < $2) }'
}
wait_until shorter_line
check $? "Left: fewer moves than the whole line"
searched_on() {
	after=$(screen | grep -o '[0-9.]*[kM]* iterations' | head -1)
	[ "$before" != "$after" ] && screen_has 'thinking'
}
wait_until searched_on
check $? "the search goes on under the line ($before, then $after)"
screen | grep -q '^ *5 .*X' 
check $? "the position is unchanged: X's e5 still there"
tm send-keys -t t Escape
wait_for 'X to move|O is thinking'
! screen_has 'Line .* of'
check $? "Escape takes the line off"
tm send-keys -t t q

# --- a long game: braille, two plies a character, where UTF-8 -----------------

# An Ultimate game of two seeded engines, from match's record (one thread:
# the same game every time), cut to its first 50 moves if it is longer (an
# unfinished game: Result *): longer than the graph is wide at 80x24 (28
# columns), short enough for two plies a character, whatever they play.
mkdir "$dir/long"
"$NOUGHTS" match mcts:iterations=300,seed=3 mcts:iterations=300,seed=4 --game uttt --games 1 \
	--record "$dir/long" >/dev/null 2>&1
long=$dir/long/cut.txt
if [ "$(grep -c '^[a-i][1-9]' "$dir/long/game-0001.txt")" -gt 50 ]; then
	awk '/^Result:/ { print "Result: *"; next } /^[a-i][1-9]/ && ++n > 50 { next } { print }' \
		"$dir/long/game-0001.txt" >"$long"
else
	cp "$dir/long/game-0001.txt" "$long"
fi
nm=$(grep -c '^[a-i][1-9]' "$long")
braille=$(printf '\342[\240-\243].')
# The graph's first N bar rows under the caption of ply P (bar_rows P N),
# up to the first blank: every ply here has a value, so no gap.
bar_rows() {
	screen | awk -v re=" $1/$nm: " '$0 ~ re { on = 1; next } on' | sed -n "1,$2p" |
		sed -E 's/^ //; s/ .*//'
}
# How many characters wide the lowest of N bar rows is.
columns() { bar_rows "$1" "$2" | tail -1 | LC_ALL=C sed -E "s/$braille/B/g" | tr -d '\n' | wc -c; }
start 80 24 play --load "$long"
wait_for " $nm/$nm: "
bar_rows "$nm" 1 | LC_ALL=C grep -q "$braille" && ! bar_rows "$nm" 1 | grep -q '[▁▂▃▄▅▆▇█]'
check $? "a game of $nm moves at 80x24: the graph in braille, not blocks"
c=$(columns "$nm" 1)
[ "$c" -eq $(((nm + 2) / 2)) ]
check $? "two plies a character: $((nm + 1)) plies in $c columns"
tm send-keys -t t '['
wait_for " $((nm - 1))/$nm: "
check $? "[ steps back a ply in the braille graph"
tm send-keys -t t q
start 80 24 play --ascii --load "$long"
wait_for " $nm/$nm: "
! bar_rows "$nm" 1 | LC_ALL=C grep -q "$braille" && bar_rows "$nm" 1 | grep -q '[.:#]'
check $? "--ascii: the same graph in ASCII"
tm send-keys -t t q

echo "1..$n"
[ "$failed" -eq 0 ]
