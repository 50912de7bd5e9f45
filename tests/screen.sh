#!/bin/sh
# screen.sh - the game screen in a real terminal: a private tmux server runs
# noughts in a shell, the test sends keys and reads the screen back with
# capture-pane. Waits poll the screen up to a timeout; no assertion depends
# on how fast anything runs.
tmux_name=test
. "$(dirname "$0")/tmux.sh"

skip() { n=$((n + 1)); echo "ok $n - # SKIP $*"; }


# The board: the screen without title and the last four lines (status and
# keys, one or two each), left of the panel (which starts at column
# $panel_x). Line-drawing characters (and the
# middle dot) become '#' first: they are several bytes in UTF-8, and cut
# counts bytes.
wide=$(printf '(\342\224|\342\225).|\302\267')
# The value graph under the board (from its caption "... 3/7: ...") is not
# the board.
board() {
	screen | LC_ALL=C sed -E "s/$wide/#/g" | sed '1d' | head -n $((rows - 5)) | cut -c1-"$panel_x" |
		sed -E '/[0-9]+\/[0-9]+: /,$d'
}
stones() { board | grep -o '[XO]' | wc -l | tr -d ' '; }

# wait_until CMD...: poll until CMD succeeds; status 1 on timeout.
board_has() { board | grep -Eq -- "$1"; }
stones_are() { [ "$(stones)" = "$1" ]; }

# wait_board REGEX: until a line of the board does; wait_stones N: until
# the board holds N stones.
wait_board() { wait_until board_has "$1"; }
wait_stones() { wait_until stones_are "$1"; }

# start [VAR=VALUE ...] -- ARGS: a fresh window ($cols x $rows, 120x40
# unless set) with a shell that runs noughts with ARGS (environment VARs
# set), writes its pid to $dir/pid and prints EXIT=status when it ends.
cols=120
rows=40
start() {
	envs=""
	while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	[ "$#" -gt 0 ] && shift
	args=""
	for a in "$@"; do
		args="$args '$a'"
	done
	tm kill-session -t t >/dev/null 2>&1
	rm -f "$dir/pid"
	tm new-session -d -s t -x "$cols" -y "$rows" "env PS1='$ ' sh"
	tm send-keys -t t "clear; echo BEFORE-NOUGHTS" Enter
	# Games saved on quitting go to the test's directory (ENVS may say otherwise).
	tm send-keys -t t "env XDG_DATA_HOME='$dir/data' $envs sh -c 'echo \$\$ > $dir/pid; exec \"\$0\" \"\$@\"' '$NOUGHTS' $args; echo EXIT=\$?" Enter
}

pid() { cat "$dir/pid" 2>/dev/null; }

# Numbers as the panel writes them (12.3k) as plain integers.
to_num() {
	awk -v s="$1" 'BEGIN { m = 1; if (s ~ /k$/) m = 1e3; else if (s ~ /M$/) m = 1e6;
		else if (s ~ /G$/) m = 1e9; gsub(/,/, "", s); sub(/[kMG]$/, "", s); printf "%.0f\n", s * m }'
}

# The panel's iteration count: the number before "iterations" on its
# progress line.
iterations() { screen | grep -Eo '[0-9.,]+[kMG]? iterations' | head -1 | awk '{ print $1 }'; }

# --- without a terminal -------------------------------------------------------

err=$("$NOUGHTS" play </dev/null 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	printf '%s\n' "$err" | grep -q "^noughts: play: the game screen needs a terminal"; then
	pass "without a terminal: exit 2 and one line on stderr"
else
	fail "without a terminal: exit 2 and one line on stderr (status $rc: $err)"
fi

# A bad record is refused before the screen starts, with its file and line.
printf '# noughts game record\nGame: ttt\nResult: *\n\nb2\nb2\n' >"$dir/bad.txt"
err=$("$NOUGHTS" play --load "$dir/bad.txt" </dev/null 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 1 ] && [ "$err" = "noughts: play: $dir/bad.txt:6: illegal move b2: b2 is taken by X" ]
then
	pass "--load of a bad record: exit 1, FILE:LINE and what was wrong"
else
	fail "--load of a bad record: exit 1, FILE:LINE and what was wrong (status $rc: $err)"
fi

# --- tic-tac-toe against the engine -------------------------------------------

panel_x=41
start -- play
wait_for 'X to move'
check $? "the screen opens: tic-tac-toe, X (a human) to move"
screen | grep -Eq 'a +b +c' && screen | grep -Eq '^ +2 [│|]'
check $? "the board has column letters and row numbers"
[ "$(stones)" = 0 ]
check $? "the board starts empty"

tm send-keys -t t Enter
wait_board '^ +2 .*X'
check $? "Enter plays X on the cursor's cell, b2"
wait_stones 2
check $? "the engine replies"
wait_for 'X to move'
check $? "and it is X's move again"

tm send-keys -t t Enter
wait_for 'b2 is not allowed: b2 is taken by X'
check $? "an illegal move says why"

tm send-keys -t t u
wait_stones 0
check $? "u takes back the human's move and the engine's reply"

tm send-keys -t t '?'
wait_for 'Keys' && screen | grep -q 'iteration inspector'
check $? "? opens the help listing the keys"
tm send-keys -t t Escape
wait_until screen_lacks ' Keys '
check $? "Escape closes it"

tm resize-window -t t -x 20 -y 8
wait_for 'too small'
check $? "a tiny terminal says it is too small"
screen | grep -q 'needs 52x12'
check $? "and how large it must be"
tm resize-window -t t -x 120 -y 40
wait_for 'X to move' && screen | grep -Eq 'a +b +c'
check $? "enlarged again, the game is back"

tm send-keys -t t q
wait_for '^EXIT=0'
check $? "q quits with status 0"
[ "$(tm display -p -t t '#{alternate_on}')" = 0 ] && [ "$(tm display -p -t t '#{cursor_flag}')" = 1 ]
check $? "the terminal is back: main screen, cursor shown"
screen | grep -q BEFORE-NOUGHTS
check $? "and shows what was there before"

# --- watching the search think -------------------------------------------------

panel_x=42
start -- --game uttt --o mcts:time=60000
wait_for 'X to move'
tm send-keys -t t Enter
wait_for 'thinking'
check $? "uttt: after X's move O thinks (60 s budget)"
screen | grep -q 'O  mcts:time=60000,c=0.4,rollout=smart,solver=on,eval=mix,order=net'
check $? "its spec line names the network's evaluation and order, defaults though they are"
wait_for ' [0-9.,]+[kMG]? iterations'
a=$(to_num "$(iterations)")
iterations_above() { [ "$(to_num "$(iterations)")" -gt "$1" ]; }
wait_until iterations_above "$a"
b=$(to_num "$(iterations)")
[ "$b" -gt "$a" ]
check $? "the iteration count grows while it thinks ($a, then $b)"

tm send-keys -t t p
wait_for 'paused'
a=$(iterations)
sleep 0.5
b=$(iterations)
[ -n "$a" ] && [ "$a" = "$b" ]
check $? "p pauses: the numbers stand still ($a, $b)"

tm send-keys -t t i
wait_for '1 select' && screen | grep -q '4 backup'
check $? "i runs one iteration and shows its four phases"
tm send-keys -t t Escape

tm send-keys -t t Tab
wait_for 'Tree browser'
check $? "Tab moves the focus to the panel"
tm send-keys -t t Enter
wait_for 'below [a-i][1-9]'
check $? "Enter goes into the selected move"
tm send-keys -t t Left
wait_until screen_lacks 'below [a-i][1-9]'
check $? "Left comes back up"
tm send-keys -t t Tab

tm send-keys -t t p
wait_for 'thinking'
check $? "p resumes"
tm send-keys -t t m
wait_for 'X to move' && wait_stones 2
check $? "m makes the engine move now"

tm send-keys -t t q
wait_for '^EXIT=0'
check $? "q in the middle of a game quits"
saved=$(ls "$dir"/data/noughts/noughts-uttt-*.txt 2>/dev/null | head -1)
screen | tr -d '\n' | grep -q 'unfinished game is saved in' && [ -n "$saved" ] &&
	grep -q '^e5' "$saved"
check $? "and saves the game first, saying where ($saved)"

# --- negamax on the panel -------------------------------------------------------

# While negamax thinks on 5,5,4 the panel shows the depth reached and a
# score per root move searched. The test lets it think a moment at a time
# (p resumes, p pauses again) and reads the panel while it is paused, so
# how many looks it gets does not hang on how fast the machine runs; the
# panel the finished search leaves is the last look. (A p
# that comes just after the search has ended finds nothing to pause, and
# the status line says so instead of "O to move".)
start -- --game 5,5,4 --x negamax:time=60000 --o human
nm_depth() { screen | grep -Eo 'depth [0-9]+' | head -1 | awk '{ print $2 }'; }
nm_score='(draw|<= draw|win in [0-9]+|loss|loss in [0-9]+|(<= )?[-+][0-9]+)'
nm_rows() { screen | grep -Eo "[a-e][1-5] +$nm_score +[0-9]+\$"; }
nm_over='O to move|Nothing is thinking now'
# One look at the panel: the depth shown, if new, into $depths; the root
# moves' table, if it changed, counted in $rows_seen.
nm_look() {
	d=$(nm_depth)
	r=$(nm_rows)
	case " $depths " in *" $d "*) ;; *) [ -n "$d" ] && depths="$depths $d" ;; esac
	if [ -n "$r" ] && [ "$r" != "$last_rows" ]; then
		rows_seen=$((rows_seen + 1))
		last_rows=$r
	fi
}
depths=""
rows_seen=0
last_rows=""
i=0
wait_for 'X is thinking'
tm send-keys -t t p
while [ "$i" -lt 400 ] && ! screen_has "$nm_over"; do
	if wait_for "X is paused|$nm_over" && screen_has 'X is paused'; then
		nm_look
		tm send-keys -t t p
		sleep 0.05
		tm send-keys -t t p
	fi
	i=$((i + 1))
done
screen_has 'X is paused' && tm send-keys -t t p
# (the panel as the search left it counts too: on a loaded machine the
# first pause may come late, and the search end before another)
wait_for "$nm_over"
nm_look
[ "$(echo $depths | wc -w)" -ge 2 ]
check $? "negamax on 5,5,4: the depth grows while it thinks (seen:$depths)"
[ "$rows_seen" -ge 2 ]
check $? "and the root moves' scores change ($rows_seen different tables)"
nm_rows | head -1 | grep -Eq '^[a-e][1-5] +draw +[0-9]+' && screen_has 'when X chose'
check $? "the search ends with its move proven a draw, and X plays it"
screen | grep -Eq 'table [0-9.]+% full of' && screen | grep -Eq ' PV +(\.\.\. )?[a-e][1-5] '
check $? "the panel shows the table's fill and the principal variation"
tm send-keys -t t q
wait_for '^EXIT=0'

# --- engine against engine, step by step ---------------------------------------

panel_x=41
start -- --x mcts:iterations=200 --o mcts:iterations=200
wait_for 's plays its move'
check $? "engine against engine waits in step mode"
screen | grep -q 'X  mcts:iterations=200,c=0.4,rollout=smart,solver=on *$' &&
	! screen | grep -q 'eval='
check $? "tic-tac-toe has no network: its spec lines name no evaluation"
[ "$(stones)" = 0 ]
check $? "no move is played before s"
tm send-keys -t t s
wait_stones 1
check $? "s plays one move"
wait_for 's plays its move'
[ "$(stones)" = 1 ]
check $? "and then waits again"
tm send-keys -t t s
wait_stones 2
check $? "s plays the next move"
tm send-keys -t t '['
wait_for 'Move 2 of 2' && wait_stones 1
check $? "[ shows the position before the last move"
screen | grep -q 'when O chose'
check $? "with the numbers O chose its move by"
tm send-keys -t t ']'
wait_stones 2
check $? "] comes back"
tm send-keys -t t a
WAIT=$((WAIT * 3)) # a whole game at a move per 0.7 s
# While it waits to show each move the status says so, as the panel does.
# (A capture can catch tmux half way through one redraw, the panel new and
# the status old: only two captures in a row that disagree count.)
both=0
ready=0
torn=0
i=0
while [ "$i" -lt $((WAIT * 20)) ] && ! screen_has 'X wins|O wins|A draw'; do
	s=$(screen)
	now=0
	if echo "$s" | grep -Eq 'ready: [a-i][1-9]|solved: '; then # the panel's words
		ready=$((ready + 1))
		echo "$s" | grep -q 'is thinking' && now=1
	fi
	[ "$now" = 1 ] && [ "$torn" = 1 ] && both=$((both + 1))
	torn=$now
	sleep 0.05
	i=$((i + 1))
done
wait_for 'X wins|O wins|A draw'
check $? "a: auto-play plays the game to its end"
[ "$ready" -gt 0 ] && [ "$both" = 0 ]
check $? "and while a move waits, the status never says 'thinking' ($ready screens ready, $both both)"
WAIT=$((WAIT / 3))
tm send-keys -t t q
wait_for '^EXIT=0'

# --- signals --------------------------------------------------------------------

# Each signal sent to the process (and Ctrl-C and Ctrl-\ typed) during a
# search: the shell gets back a sane terminal, as stty shows (icanon and
# echo on, not -icanon -echo as curses leaves them).
for s in TERM:143 HUP:129 INT:130 QUIT:131 C-c:130 'C-\:131'; do
	sig=${s%%:*}
	want=${s#*:}
	start -- --game uttt --x mcts:time=60000
	wait_for 'thinking'
	case $sig in
	C-*) tm send-keys -t t "$sig" ;;
	*) kill -"$sig" "$(pid)" ;;
	esac
	what="SIG$sig"
	[ "$sig" = C-c ] && what="Ctrl-C"
	[ "$sig" = 'C-\' ] && what="Ctrl-\\"
	wait_for "^EXIT=$want"
	check $? "$what in the middle of a search: exit $want"
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ] && screen | grep -q BEFORE-NOUGHTS
	check $? "$what: the screen is back as it was"
	tm send-keys -t t "stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(icanon|echo)' | tr '\n' ' '; echo" Enter
	wait_for '^icanon echo *$'
	check $? "$what: the shell's prompt answers, and the terminal is in icanon echo mode"
done

# Ctrl-Z during a search stops the program and its clock: after fg the
# search goes on with the time it had left. (It used to find its 8 s spent
# in the 9 s stopped, and move at once.)
start -- --game uttt --x mcts:time=8000,threads=1 --o human
wait_for 'X is thinking'
tm send-keys -t t C-z
wait_for 'Stopped'
check $? "Ctrl-Z stops the game screen and gives the shell back"
sleep 9
tm send-keys -t t fg Enter
wait_for 'X is thinking'
r=$?
sleep 0.5
[ "$r" = 0 ] && screen_has 'X is thinking' && [ "$(stones)" = 0 ]
check $? "after fg the search goes on: the time stopped was not thinking time"
tm send-keys -t t m
wait_stones 1 && tm send-keys -t t q && wait_until sh -c "! kill -0 $(pid) 2>/dev/null"
check $? "and then it moves on m, and q quits"

# --- terminal types, ASCII, colour ----------------------------------------------

for term in xterm xterm-256color screen tmux-256color linux; do
	if ! infocmp "$term" >/dev/null 2>&1; then
		skip "TERM=$term: no terminfo entry"
		continue
	fi
	start "TERM=$term" -- play
	wait_for 'X to move' && screen | grep -Eq 'a +b +c'
	r=$?
	tm send-keys -t t Enter
	wait_stones 2 || r=1
	tm send-keys -t t q
	wait_for '^EXIT=0' || r=1
	check $r "TERM=$term: the screen opens, a game goes on, q quits"
done

# Terminals curses cannot drive: one line, status 2, the screen left alone.
# (The line may follow the shell's prompt: the command is typed ahead.)
start "TERM=dumb" -- play
wait_for '^EXIT=2' && screen | grep -q 'noughts: play: TERM=dumb cannot move the cursor' &&
	screen | grep -q BEFORE-NOUGHTS
check $? "TERM=dumb (no cursor addressing): one line, exit 2"
start "TERM=nonexistent-term" -- play
wait_for '^EXIT=2' && screen | grep -q "noughts: play: unknown terminal type 'nonexistent-term'"
check $? "an unknown TERM: one line, exit 2"
start "TERM=" -- play
wait_for '^EXIT=2' && screen | grep -q 'noughts: play: TERM is not set'
check $? "TERM empty: one line, exit 2"

# Started in a terminal too small for anything: it says what it needs.
cols=20
rows=6
start -- play
wait_for 'too small' && screen | grep -q 'needs 52x12' && screen | grep -q '20x6'
check $? "started in 20x6: 'too small', the size it needs and the size it has"
tm send-keys -t t q
wait_for '^EXIT=0'
check $? "q quits from there"
cols=120
rows=40

start -- --ascii
wait_for 'X to move'
screen | grep -Eq -- '\+-+\+-+\+-+\+' && ! screen | grep -q '│'
check $? "--ascii draws the board with + - |"
tm send-keys -t t q
wait_for '^EXIT=0'

start "NO_COLOR=1" -- play
wait_for 'X to move'
tm send-keys -t t Enter
wait_stones 2
! tm capture-pane -p -e -t t | grep -Eq '\[(3[0-7]|4[0-7]|38;|48;)|;3[0-7]m'
check $? "NO_COLOR: no colours"
tm send-keys -t t q
wait_for '^EXIT=0'
start "NO_COLOR=" -- play
wait_for 'X to move'
tm send-keys -t t Enter
wait_stones 2
tm capture-pane -p -e -t t | grep -Eq '\[(3[0-7]|38;)|;3[0-7]m'
check $? "otherwise X and O are in colour"
tm send-keys -t t q
wait_for '^EXIT=0'

# --- game records ---------------------------------------------------------------

# w saves the game shown to a new file in $XDG_DATA_HOME/noughts.
panel_x=41
start "XDG_DATA_HOME=$dir/xdg" -- play --o mcts:iterations=300
wait_for 'X to move'
tm send-keys -t t Enter
wait_stones 2 && wait_for 'X to move'
tm send-keys -t t w
wait_for "Saved 2 moves to $dir/xdg/noughts/noughts-ttt-[0-9]{8}-[0-9]{6}(-[0-9]+)?\.txt"
check $? "w saves the game and the status line names the file"
saved=$(ls "$dir"/xdg/noughts/noughts-ttt-*.txt 2>/dev/null | head -1)
[ -n "$saved" ] && grep -q '^Game: ttt$' "$saved" && grep -q '^X: human$' "$saved" &&
	grep -q '^O: mcts:iterations=300' "$saved" && grep -q '^Result: \*$' "$saved" &&
	grep -Eq '^Date: [0-9]{4}-[0-9]{2}-[0-9]{2} ' "$saved" && grep -q '^b2$' "$saved" &&
	grep -Eq '^[ac][13] \{iterations=300 visits=[0-9]+ value=[01]\.[0-9]{3} second=' "$saved"
check $? "the file: game, players, date, Result *, the moves with the engine's numbers"
tm send-keys -t t q
wait_for '^EXIT=0'

# It reads back: --load opens it where it stopped.
start -- play --load "$saved"
wait_for 'Loaded .*: 2 moves, unfinished' && wait_stones 2 && wait_for 'Enter play'
check $? "--load of the saved file opens it at its last position, X (a human) to move"
tm send-keys -t t q
wait_for '^EXIT=0'

# A record written by noughts match opens at its last position; [ steps
# back through it, with the numbers the record saved.
"$NOUGHTS" match mcts:iterations=200 random --games 1 --record "$dir/match" >/dev/null 2>&1
rec="$dir/match/game-0001.txt"
nmoves=$(sed '1,/^$/d' "$rec" | grep -c .)
start -- play --load "$rec"
wait_for "Loaded .*: $nmoves moves" && wait_stones "$nmoves"
check $? "--load of a match record: the last position, $nmoves stones"
tm send-keys -t t '['
wait_for "Move $nmoves of $nmoves" && wait_stones $((nmoves - 1))
check $? "[ steps back one move"
# Back to the last move of each player: X (mcts) has saved numbers, O
# (random) none.
k=$nmoves
for who in X O; do
	if [ $((k % 2)) = "$([ $who = X ] && echo 1 || echo 0)" ]; then
		:
	else
		tm send-keys -t t '['
		k=$((k - 1))
	fi
	wait_for "Move $k of $nmoves: $who played"
	if [ $who = X ]; then
		it=$(sed '1,/^$/d' "$rec" | sed -n "${k}p" | sed 's/.*iterations=\([0-9]*\).*/\1/')
		screen | grep -Eq "when X chose [a-c][1-3], from the record" &&
			screen | grep -Eq " $it iterations" && screen | grep -q 'move played and runner-up'
		check $? "X's (mcts) move $k: the numbers the record saved ($it iterations)"
	else
		screen | grep -Eq "when O chose [a-c][1-3]; no search numbers"
		check $? "O's (random) move $k: no numbers, and the panel says so"
	fi
done
tm send-keys -t t m
wait_for "Going on at move $k drops moves? [-0-9]+ of this game: m again does it" &&
	wait_stones $((k - 1))
check $? "m there asks first"
tm send-keys -t t m
wait_for "The game goes on from move $k, O thinks: moves? [-0-9]+ of the old game dropped" &&
	wait_stones $((k - 1)) && ! screen | grep -q "Move [0-9]* of"
check $? "m again: the engine to move plays on from that position"
tm send-keys -t t q
wait_for '^EXIT=0'

# Continuing from the past: a move there drops the moves after it.
printf '%s\n' '# noughts game record' 'Game: ttt' 'X: human' 'O: mcts:time=1500' \
	'Result: X' '' a1 'b2 {iterations=100 visits=60 value=0.500}' a2 \
	'b1 {iterations=100 visits=70 value=0.450}' a3 >"$dir/won.txt"
start -- play --load "$dir/won.txt"
wait_for 'Loaded .*: 5 moves, X won' && wait_stones 5
check $? "a finished record opens at its end"
tm send-keys -t t '['
wait_for 'Move 5 of 5: X played a3.*a move here replaces move 5\.'
check $? "one move back, the status line says a move there replaces move 5"
tm send-keys -t t Down Enter
wait_for 'b3 at move 5 drops move 5 of this game: the same move again does it'
check $? "a move there asks first"
tm send-keys -t t Enter
wait_for 'b3 played at move 5 instead: move 5 of the old game dropped'
check $? "and the same move again continues the game from it"
tm send-keys -t t u
wait_for 'Undone: the old game is back, 5 moves' && wait_stones 5
check $? "u right after brings the old game back"
tm send-keys -t t q
wait_for '^EXIT=0'

# --record FILE: the game is written there when it ends.
start -- play --x human --o human --record "$dir/rec.txt"
wait_for 'X to move'
# X b2, O a2, X a1, O b1, X c3: X wins on the diagonal.
tm send-keys -t t Enter Left Enter Up Enter Right Enter Right Down Down Enter
wait_for "X wins.*Written to $dir/rec.txt"
check $? "--record: at the end of the game the status line says where it went"
[ -f "$dir/rec.txt" ] && grep -q '^Result: X$' "$dir/rec.txt" &&
	[ "$(sed '1,/^$/d' "$dir/rec.txt" | tr '\n' ' ')" = "b2 a2 a1 b1 c3 " ] &&
	[ "$(ls "$dir" | grep -c '^rec\.txt')" = 1 ]
check $? "the file holds the game, and no temporary is left"
tm send-keys -t t q
wait_for '^EXIT=0'

echo "1..$n"
[ "$failed" -eq 0 ]
